"""``jaxsess._tf1.contrib.framework``: ``arg_scope`` and the variable helpers of
``tf.contrib.framework`` (TF 1.x; today's ``tf_slim``), with tf-slim's semantics.

``variable``/``model_variable`` are ``get_variable`` with tf-slim's collections
(``model_variable`` adds ``MODEL_VARIABLES``) and take ``arg_scope`` defaults;
``get_variables*`` filter a collection by scope (a regular-expression prefix,
as ``tf.get_collection``) and name suffix.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._graph import GraphKeys, add_to_collection, device as _device, get_collection
from jaxsess._tf1.contrib._arg_scope import (
    add_arg_scope,
    arg_scope as arg_scope,
    arg_scope_func_key as arg_scope_func_key,
    arg_scoped_arguments as arg_scoped_arguments,
    current_arg_scope as current_arg_scope,
    has_arg_scope as has_arg_scope,
)
from jaxsess._tf1.ops.state_ops import Variable
from jaxsess._tf1.ops.variable_scope import VariableScope, get_variable, get_variable_scope
from jaxsess._tf1.train._global_step import (
    assert_global_step as assert_global_step,
    create_global_step as create_global_step,
    get_global_step as get_global_step,
    get_or_create_global_step as get_or_create_global_step,
)

__all__ = [
    "arg_scope", "add_arg_scope", "current_arg_scope", "has_arg_scope", "arg_scoped_arguments",
    "arg_scope_func_key", "variable", "model_variable", "local_variable", "global_variable", "add_model_variable",
    "get_variables", "get_model_variables", "get_local_variables", "get_trainable_variables",
    "get_variables_to_restore", "get_variables_by_suffix", "get_variables_by_name", "get_unique_variable",
    "filter_variables", "get_global_step", "get_or_create_global_step", "create_global_step",
    "assert_global_step",
]


@add_arg_scope
def variable(name: str, shape: Any = None, dtype: Any = None, initializer: Any = None, regularizer: Any = None,
             trainable: bool = True, collections: Any = None, caching_device: Any = None, device: Any = None,
             partitioner: Any = None, custom_getter: Any = None, use_resource: Any = None) -> Any:
    """``get_variable`` in ``collections`` (default ``[GLOBAL_VARIABLES]``) on ``device``,
    as ``tf.contrib.framework.variable``."""
    colls = list(dict.fromkeys(collections if collections is not None else [GraphKeys.GLOBAL_VARIABLES]))
    kwargs = {"shape": shape, "dtype": dtype, "initializer": initializer, "regularizer": regularizer,
              "trainable": trainable, "collections": colls, "caching_device": caching_device,
              "partitioner": partitioner, "use_resource": use_resource}
    with _device(device or ""):
        if custom_getter is not None:
            return custom_getter(get_variable, name, reuse=get_variable_scope().reuse, **kwargs)
        return get_variable(name, **kwargs)


@add_arg_scope
def model_variable(name: str, shape: Any = None, dtype: Any = _dtypes.float32, initializer: Any = None,
                   regularizer: Any = None, trainable: bool = True, collections: Any = None,
                   caching_device: Any = None, device: Any = None, partitioner: Any = None,
                   custom_getter: Any = None, use_resource: Any = None) -> Any:
    """:func:`variable` also in ``MODEL_VARIABLES``, as ``tf.contrib.framework.model_variable``."""
    colls = [*(collections or []), GraphKeys.GLOBAL_VARIABLES, GraphKeys.MODEL_VARIABLES]
    return variable(name, shape=shape, dtype=dtype, initializer=initializer, regularizer=regularizer,
                    trainable=trainable, collections=colls, caching_device=caching_device, device=device,
                    partitioner=partitioner, custom_getter=custom_getter, use_resource=use_resource)


def local_variable(initial_value: Any, validate_shape: bool = True, name: str | None = None,
                   use_resource: Any = None) -> Variable:
    """A non-trainable variable in ``LOCAL_VARIABLES``, as ``tf.contrib.framework.local_variable``."""
    return Variable(initial_value, trainable=False, collections=[GraphKeys.LOCAL_VARIABLES],
                    validate_shape=validate_shape, name=name, use_resource=use_resource)


def global_variable(initial_value: Any, validate_shape: bool = True, name: str | None = None,
                    use_resource: Any = None) -> Variable:
    """A non-trainable variable in ``GLOBAL_VARIABLES``, as ``tf.contrib.framework.global_variable``."""
    return Variable(initial_value, trainable=False, collections=[GraphKeys.GLOBAL_VARIABLES],
                    validate_shape=validate_shape, name=name, use_resource=use_resource)


def add_model_variable(var: Any) -> None:
    """Adds ``var`` to ``MODEL_VARIABLES`` (once), as ``tf.contrib.framework.add_model_variable``."""
    if var not in get_collection(GraphKeys.MODEL_VARIABLES):
        add_to_collection(GraphKeys.MODEL_VARIABLES, var)


def get_variables(scope: str | VariableScope | None = None, suffix: str | None = None,
                  collection: str = GraphKeys.GLOBAL_VARIABLES) -> list[Any]:
    """The variables of ``collection`` whose names match ``scope`` (a regular-expression
    prefix) and end in ``suffix``, as ``tf.contrib.framework.get_variables``."""
    if isinstance(scope, VariableScope):
        scope = scope.name
    if suffix is not None:
        if ":" not in suffix:
            suffix += ":"
        scope = (scope or "") + ".*" + suffix
    return get_collection(collection, scope)


def get_model_variables(scope: str | VariableScope | None = None, suffix: str | None = None) -> list[Any]:
    """:func:`get_variables` of ``MODEL_VARIABLES``."""
    return get_variables(scope, suffix, GraphKeys.MODEL_VARIABLES)


def get_local_variables(scope: str | VariableScope | None = None, suffix: str | None = None) -> list[Any]:
    """:func:`get_variables` of ``LOCAL_VARIABLES``."""
    return get_variables(scope, suffix, GraphKeys.LOCAL_VARIABLES)


def get_trainable_variables(scope: str | VariableScope | None = None, suffix: str | None = None) -> list[Any]:
    """:func:`get_variables` of ``TRAINABLE_VARIABLES``."""
    return get_variables(scope, suffix, GraphKeys.TRAINABLE_VARIABLES)


def get_variables_to_restore(include: Sequence[str] | None = None,
                             exclude: Sequence[str] | None = None) -> list[Any]:
    """The global variables under the ``include`` scopes (default all) minus those under
    ``exclude``, as ``tf.contrib.framework.get_variables_to_restore``.

    Raises:
      TypeError: ``include``/``exclude`` is not a list or tuple.
    """
    if include is None:
        chosen = get_variables()
    else:
        if not isinstance(include, list | tuple):
            raise TypeError("include is provided but is not a list or a tuple.")
        chosen = [v for s in include for v in get_variables(s)]
    dropped: set[int] = set()
    if exclude is not None:
        if not isinstance(exclude, list | tuple):
            raise TypeError("exclude is provided but is not a list or a tuple.")
        dropped = {id(v) for s in exclude for v in get_variables(s)}
    return [v for v in chosen if id(v) not in dropped]


def get_variables_by_suffix(suffix: str, scope: str | VariableScope | None = None) -> list[Any]:
    """Global variables whose names end in ``suffix``."""
    return get_variables(scope=scope, suffix=suffix)


def get_variables_by_name(given_name: str, scope: str | VariableScope | None = None) -> list[Any]:
    """Global variables whose last name component is ``given_name``."""
    return get_variables(scope=scope, suffix="/" + given_name + ":|^" + given_name + ":")


def get_unique_variable(var_op_name: str) -> Any:
    """The variable whose op is named ``var_op_name``.

    Raises:
      ValueError: none, or the name is a prefix of several and none matches exactly.
    """
    candidates = get_variables(scope=var_op_name)
    if not candidates:
        raise ValueError(f"Couldn't find variable {var_op_name}")
    for c in candidates:
        if c.op.name == var_op_name:
            return c
    raise ValueError(f"Variable {var_op_name} does not uniquely identify a variable")


def filter_variables(var_list: Sequence[Any], include_patterns: Sequence[str] | None = None,
                     exclude_patterns: Sequence[str] | None = None, reg_search: bool = True) -> list[Any]:
    """``var_list`` filtered by regular expressions on the names (``re.search``, or ``re.match``
    without ``reg_search``), as ``tf.contrib.framework.filter_variables``."""
    find = re.search if reg_search else re.match
    out = list(var_list) if include_patterns is None else [
        v for v in var_list if any(find(p, v.name) for p in include_patterns)]
    if exclude_patterns is not None:
        out = [v for v in out if not any(find(p, v.name) for p in exclude_patterns)]
    return out
