"""``get_variable`` and ``variable_scope``, as ``tf.compat.v1``.

Each graph holds one *variable store* (``graph._var_scope_store``): the
variables made by :func:`get_variable`, keyed by their full name
(``'dense/kernel'``), how often each variable-scope name was opened (to make
``default_name`` scopes unique: ``dense``, ``dense_1``), and the current
:class:`VariableScope` of each thread.

Sharing follows TF1: in a scope with ``reuse=False`` (the default) a name may
be created once; with ``reuse=True`` it must already exist; with
``AUTO_REUSE`` it is created the first time and returned afterwards. Reuse is
inherited by nested scopes. ``variable_scope(name)`` also opens a name scope
(made unique as ``tf.name_scope`` does, so re-entering ``'foo'`` puts ops in
``foo_1/`` while variables stay in ``foo/``); a variable's op name is its full
scope path whatever the current name scope.

A ``partitioner`` (scope default or argument) makes :func:`get_variable`
return a :class:`~jaxsess._tf1.ops.partitioned_variables.PartitionedVariable` of
parts ``name/part_<i>``, as TF1 (graph mode; eagerly it is ignored, as TF).

Limits: variables are resource variables (see :class:`jaxsess.Variable`;
``use_resource`` is accepted and ignored here).
"""

from __future__ import annotations

import contextlib
import enum
import inspect
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import default_np_dtype, executing_eagerly
from jaxsess._core.graph._graph import Graph, GraphKeys, Tensor, get_default_graph
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops import array_ops as array_ops, init_ops as init_ops
from jaxsess._tf1.ops.partitioned_variables import (
    PartitionedVariable,
    PartitionInfo,
    SaveSliceInfo,
    call_partitioner,
    iter_slices,
)
from jaxsess._tf1.ops.state_ops import Variable

__all__ = [
    "AUTO_REUSE",
    "VariableScope",
    "variable_scope",
    "get_variable",
    "get_local_variable",
    "get_variable_scope",
    "no_regularizer",
]


class _ReuseMode(enum.Enum):
    """Reuse modes besides ``True``/``False``, as TF1's ``_ReuseMode``."""

    AUTO_REUSE = 1


AUTO_REUSE = _ReuseMode.AUTO_REUSE
"""Create a variable the first time ``get_variable`` asks for it, return it afterwards."""

_ALREADY_EXISTS = (
    "Variable {} already exists, disallowed. Did you mean to set reuse=True or "
    "reuse=tf.AUTO_REUSE in VarScope?"
)
_DOES_NOT_EXIST = (
    "Variable {} does not exist, or was not created with tf.get_variable(). Did you mean to "
    "set reuse=tf.AUTO_REUSE in VarScope?"
)


def no_regularizer(_: Any) -> None:
    """A regularizer that adds no loss (to switch off a scope's regularizer), as TF1."""
    return None


def _maybe_wrap_custom_getter(custom_getter: Any, old_getter: Any) -> Any:
    """Composes a scope's custom getter with the enclosing one, as TF1."""
    if old_getter is None or custom_getter is None:
        return custom_getter if custom_getter is not None else old_getter

    def wrapped(getter: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return custom_getter(lambda *a, **k: old_getter(getter, *a, **k), *args, **kwargs)

    return wrapped


class VariableScope:
    """A variable scope: a name prefix and defaults for :func:`get_variable`,
    as ``tf.compat.v1.VariableScope``.

    Attributes:
      name: the full scope name (``'outer/inner'``; ``''`` at the root).
      original_name_scope: the name scope opened when the scope was first
        entered (``'outer/inner/'``).
      reuse: ``False``, ``True`` or ``AUTO_REUSE``.
      initializer, regularizer, dtype, custom_getter, constraint: the defaults
        ``get_variable`` uses when it is not given them.
    """

    def __init__(
        self,
        reuse: Any,
        name: str = "",
        initializer: Any = None,
        regularizer: Any = None,
        caching_device: Any = None,
        partitioner: Any = None,
        custom_getter: Any = None,
        name_scope: str = "",
        dtype: Any = _dtypes.float32,
        use_resource: Any = None,
        constraint: Any = None,
    ) -> None:
        self._name = name
        self._reuse = reuse
        self._initializer = initializer
        self._regularizer = regularizer
        self._caching_device = caching_device
        self._partitioner = partitioner
        self._custom_getter = custom_getter
        self._name_scope = name_scope
        self._dtype = _dtypes.as_dtype(dtype)
        self._use_resource = use_resource
        self._constraint = constraint

    @property
    def name(self) -> str:
        return self._name

    @property
    def original_name_scope(self) -> str:
        return self._name_scope

    @property
    def reuse(self) -> Any:
        return self._reuse

    @property
    def initializer(self) -> Any:
        return self._initializer

    @property
    def regularizer(self) -> Any:
        return self._regularizer

    @property
    def dtype(self) -> _dtypes.DType:
        return self._dtype

    @property
    def caching_device(self) -> Any:
        return self._caching_device

    @property
    def partitioner(self) -> Any:
        return self._partitioner

    @property
    def custom_getter(self) -> Any:
        return self._custom_getter

    @property
    def use_resource(self) -> Any:
        return self._use_resource

    @property
    def constraint(self) -> Any:
        return self._constraint

    def reuse_variables(self) -> None:
        """Makes this scope (and scopes opened inside it from now on) reuse variables."""
        self._reuse = True

    def set_initializer(self, initializer: Any) -> None:
        self._initializer = initializer

    def set_regularizer(self, regularizer: Any) -> None:
        self._regularizer = regularizer

    def set_dtype(self, dtype: Any) -> None:
        self._dtype = _dtypes.as_dtype(dtype)

    def set_caching_device(self, caching_device: Any) -> None:
        self._caching_device = caching_device

    def set_partitioner(self, partitioner: Any) -> None:
        self._partitioner = partitioner

    def set_custom_getter(self, custom_getter: Any) -> None:
        self._custom_getter = custom_getter

    def set_use_resource(self, use_resource: Any) -> None:
        self._use_resource = use_resource

    def get_collection(self, name: str) -> list[Any]:
        """The items of collection ``name`` whose names start with this scope."""
        scope = self._name + "/" if self._name else ""
        return get_default_graph().get_collection(name, scope or None)

    def global_variables(self) -> list[Any]:
        return self.get_collection(GraphKeys.GLOBAL_VARIABLES)

    def trainable_variables(self) -> list[Any]:
        return self.get_collection(GraphKeys.TRAINABLE_VARIABLES)

    def local_variables(self) -> list[Any]:
        return self.get_collection(GraphKeys.LOCAL_VARIABLES)

    def get_variable(
        self,
        var_store: _VariableStore,
        name: str,
        shape: Any = None,
        dtype: Any = None,
        initializer: Any = None,
        regularizer: Any = None,
        reuse: Any = None,
        trainable: Any = None,
        collections: Any = None,
        caching_device: Any = None,
        partitioner: Any = None,
        validate_shape: bool = True,
        use_resource: Any = None,
        custom_getter: Any = None,
        constraint: Any = None,
        synchronization: Any = None,
        aggregation: Any = None,
    ) -> Any:
        """``var_store.get_variable`` of ``self.name + '/' + name`` with this
        scope's defaults filled in (see :func:`get_variable`)."""
        if regularizer is None:
            regularizer = self._regularizer
        if caching_device is None:
            caching_device = self._caching_device
        if partitioner is None:
            partitioner = self._partitioner
        if custom_getter is None:
            custom_getter = self._custom_getter
        if constraint is None:
            constraint = self._constraint
        if executing_eagerly():
            reuse = False
        elif reuse is None:
            reuse = self._reuse
        full_name = self._name + "/" + name if self._name else name
        # Variables are named by their scope, not by the current name scope.
        graph = get_default_graph()
        with graph.name_scope(None):
            if dtype is not None and initializer is not None and not callable(initializer):
                init_dtype = _value_dtype(initializer)
                if init_dtype != _dtypes.canonical(dtype):
                    raise ValueError(
                        f"Initializer type '{init_dtype.name}' and explicit dtype "
                        f"'{_dtypes.as_dtype(dtype).name}' don't match."
                    )
            if initializer is None:
                initializer = self._initializer
            if dtype is None:
                dtype = self._dtype
            return var_store.get_variable(
                full_name, shape=shape, dtype=dtype, initializer=initializer, regularizer=regularizer,
                reuse=reuse, trainable=trainable, collections=collections, caching_device=caching_device,
                partitioner=partitioner, validate_shape=validate_shape, use_resource=use_resource,
                custom_getter=custom_getter, constraint=constraint, synchronization=synchronization,
                aggregation=aggregation,
            )

    def __repr__(self) -> str:
        return f"<VariableScope name={self._name!r} reuse={self._reuse!r}>"


def _value_dtype(value: Any) -> _dtypes.DType:
    conv = getattr(value, "_as_graph_element", None)
    if conv is not None and not isinstance(value, Tensor):
        value = conv()
    if isinstance(value, Tensor):
        return value.dtype
    return _dtypes.canonical(default_np_dtype(value))


def _call_initializer(initializer: Any, shape: list[int], dtype: _dtypes.DType,
                      partition_info: PartitionInfo | None = None) -> Any:
    try:
        params = list(inspect.signature(initializer).parameters.values())
    except (TypeError, ValueError):
        params = []
    takes_partition = any(p.name == "partition_info" or p.kind is p.VAR_KEYWORD for p in params)
    if takes_partition:
        return initializer(shape, dtype=dtype, partition_info=partition_info)
    return initializer(shape, dtype=dtype)


def _needs_no_arguments(fn: Any) -> bool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return all(
        p.default is not inspect.Parameter.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        for p in params.values()
    )


class _ScopeThread(threading.local):
    def __init__(self) -> None:
        self.current: VariableScope = VariableScope(False)


class _VariableStore:
    """One graph's variables made by ``get_variable`` and its scope bookkeeping.

    Attributes:
      vars: full name -> ``Variable``.
      variable_scopes_count: scope name -> times opened (for unique default names).
    """

    def __init__(self) -> None:
        self.vars: dict[str, Any] = {}
        self.partitioned_vars: dict[str, PartitionedVariable] = {}
        self.variable_scopes_count: dict[str, int] = {}
        self.lock = threading.RLock()
        self._thread = _ScopeThread()

    @property
    def current_scope(self) -> VariableScope:
        return self._thread.current

    @current_scope.setter
    def current_scope(self, scope: VariableScope) -> None:
        self._thread.current = scope

    def open_variable_scope(self, scope_name: str) -> None:
        with self.lock:
            self.variable_scopes_count[scope_name] = self.variable_scopes_count.get(scope_name, 0) + 1

    def close_variable_subscopes(self, scope_name: str | None) -> None:
        with self.lock:
            for k in list(self.variable_scopes_count):
                if scope_name is None or k.startswith(scope_name + "/"):
                    self.variable_scopes_count[k] = 0

    def variable_scope_count(self, scope_name: str) -> int:
        return self.variable_scopes_count.get(scope_name, 0)

    def get_variable(
        self,
        name: str,
        shape: Any = None,
        dtype: Any = _dtypes.float32,
        initializer: Any = None,
        regularizer: Any = None,
        reuse: Any = None,
        trainable: Any = None,
        collections: Any = None,
        caching_device: Any = None,
        partitioner: Any = None,
        validate_shape: bool = True,
        use_resource: Any = None,
        custom_getter: Any = None,
        constraint: Any = None,
        synchronization: Any = None,
        aggregation: Any = None,
    ) -> Any:
        """Gets or creates the variable ``name`` (a full name), through ``custom_getter``."""

        def true_getter(
            name: str,
            shape: Any = None,
            dtype: Any = _dtypes.float32,
            initializer: Any = None,
            regularizer: Any = None,
            reuse: Any = None,
            trainable: Any = None,
            collections: Any = None,
            caching_device: Any = None,
            partitioner: Any = None,
            validate_shape: bool = True,
            use_resource: Any = None,
            constraint: Any = None,
            synchronization: Any = None,
            aggregation: Any = None,
        ) -> Any:
            if partitioner is not None and not executing_eagerly():
                return self._get_partitioned_variable(
                    name, partitioner, shape, dtype, initializer, regularizer, reuse, trainable, collections,
                    validate_shape, constraint,
                )
            if name in self.partitioned_vars:
                raise ValueError(
                    f"A partitioner was not provided, but a partitioned version of the variable was found: "
                    f"{name}. Perhaps a variable of the same name was already created with partitioning?"
                )
            return self._get_single_variable(
                name, shape, dtype, initializer, regularizer, reuse, trainable, collections,
                validate_shape, constraint,
            )

        kwargs = dict(
            name=name, shape=shape, dtype=dtype, initializer=initializer, regularizer=regularizer,
            reuse=reuse, trainable=trainable, collections=collections, caching_device=caching_device,
            partitioner=partitioner, validate_shape=validate_shape, use_resource=use_resource,
            constraint=constraint, synchronization=synchronization, aggregation=aggregation,
        )
        if custom_getter is not None:
            if not callable(custom_getter):
                raise ValueError(f"Passed a custom_getter which is not callable: {custom_getter!r}")
            return custom_getter(true_getter, **kwargs)
        return true_getter(**kwargs)

    def _get_partitioned_variable(
        self,
        name: str,
        partitioner: Any,
        shape: Any,
        dtype: Any,
        initializer: Any,
        regularizer: Any,
        reuse: Any,
        trainable: Any,
        collections: Any,
        validate_shape: bool,
        constraint: Any,
    ) -> PartitionedVariable:
        """Gets or creates the parts ``name/part_<i>``, as TF's ``_get_partitioned_variable``."""
        if name in self.vars:
            raise ValueError(
                f"A partitioner was provided, but an unpartitioned version of the variable was found: {name}.  "
                "Perhaps a variable of the same name was already created without partitioning?"
            )
        dtype = _dtypes.as_dtype(dtype)
        shape = TensorShape(shape)
        if isinstance(initializer, Tensor):
            shape = shape.merge_with(initializer.shape)
        partitions = None
        if not reuse or partitioner:
            partitions = call_partitioner(partitioner, shape, dtype)
        with self.lock:
            found = self.partitioned_vars.get(name)
            if found is not None:
                if reuse is False:
                    raise ValueError(
                        f"Partitioned variable with name {name} already exists. Did you mean to set reuse=True "
                        "or reuse=tf.AUTO_REUSE in VarScope?"
                    )
                if not shape.is_compatible_with(found.get_shape()):
                    raise ValueError(
                        f"Trying to reuse partitioned variable {name}, but specified shape {shape} and found "
                        f"shape {found.get_shape()}."
                    )
                if _dtypes.canonical(dtype) != _dtypes.canonical(found.dtype):
                    raise ValueError(
                        f"Trying to reuse partitioned variable {name}, but specified dtype {dtype.name} and "
                        f"found dtype {found.dtype.name}."
                    )
                if partitions is not None and found._get_partitions() != partitions:
                    raise ValueError(
                        f"Trying to reuse partitioned variable {name}, but specified partitions {partitions} "
                        f"and found partitions {found._get_partitions()}."
                    )
                return found
            if reuse is True:
                raise ValueError(
                    f"PartitionedVariable {name} does not exist, or was not created with tf.get_variable(). "
                    "Did you mean to set reuse=False or reuse=tf.AUTO_REUSE in VarScope?"
                )
            assert partitions is not None
            full = [int(d) for d in shape.as_list()]
            graph = get_default_graph()
            parts = []
            for i, (offset, part_shape) in enumerate(iter_slices(full, partitions)):
                part_name = f"{name}/part_{i}"
                info = PartitionInfo(full_shape=full, var_offset=offset)
                init: Any = initializer
                init_shape: Any = part_shape
                if initializer is None:
                    init = _default_initializer(name, dtype)
                elif isinstance(initializer, Tensor):
                    with graph.name_scope(part_name + "/PartitionedInitializer"):
                        init = array_ops.slice(initializer, offset, part_shape)
                    init_shape = None
                elif not callable(initializer):
                    index = tuple(slice(o, o + n) for o, n in zip(offset, part_shape, strict=True))
                    init = np.asarray(initializer, dtype=dtype.np_dtype)[index]
                    init_shape = None
                part = self._get_single_variable(
                    part_name, init_shape, dtype, init, regularizer, reuse, trainable, collections,
                    validate_shape, constraint, partition_info=info,
                )
                part._save_slice_info = SaveSliceInfo(name, full, offset, part_shape)
                parts.append(part)
            pv = PartitionedVariable(name, full, dtype, parts, partitions)
            if not executing_eagerly():
                self.partitioned_vars[name] = pv
            return pv

    def _get_single_variable(
        self,
        name: str,
        shape: Any,
        dtype: Any,
        initializer: Any,
        regularizer: Any,
        reuse: Any,
        trainable: Any,
        collections: Any,
        validate_shape: bool,
        constraint: Any,
        partition_info: PartitionInfo | None = None,
    ) -> Any:
        from_value = initializer is not None and not callable(initializer)
        if shape is not None and from_value:
            raise ValueError("If initializer is a constant, do not specify shape.")
        dtype = _dtypes.as_dtype(dtype)
        shape = TensorShape(shape)
        eager = executing_eagerly()
        with self.lock:
            found = None if eager else self.vars.get(name)
            if found is not None:
                if reuse is False:
                    raise ValueError(_ALREADY_EXISTS.format(name))
                if not shape.is_compatible_with(found.get_shape()):
                    raise ValueError(
                        f"Trying to share variable {name}, but specified shape {shape} and found shape "
                        f"{found.get_shape()}."
                    )
                if not from_value and _dtypes.canonical(dtype) != found.dtype:
                    raise ValueError(
                        f"Trying to share variable {name}, but specified dtype {dtype.name} and found "
                        f"dtype {found.dtype.name}."
                    )
                return found
            if reuse is True:
                raise ValueError(_DOES_NOT_EXIST.format(name))
            if initializer is None:
                initializer = _default_initializer(name, dtype)
            variable_dtype: Any
            if from_value:
                init_val: Any = initializer
                variable_dtype = None
            else:
                initializer = init_ops._as_initializer(initializer)
                if shape.is_fully_defined():
                    shape_l = [int(d) for d in shape.as_list()]

                    def init_val() -> Any:
                        return _call_initializer(initializer, shape_l, dtype, partition_info)

                    variable_dtype = dtype
                elif _needs_no_arguments(initializer):
                    init_val = initializer
                    variable_dtype = None
                else:
                    raise ValueError(
                        f"Shape of a new variable ({name}) must be fully defined, but instead was {shape}."
                    )
            if trainable is None:
                trainable = True
            v = Variable(
                initial_value=init_val, trainable=trainable, collections=collections, name=name,
                dtype=variable_dtype, validate_shape=validate_shape, constraint=constraint,
            )
            if not eager:
                self.vars[name] = v
        if regularizer is not None:
            graph = get_default_graph()
            with graph.name_scope(name + "/Regularizer/"):
                loss = regularizer(v)
            if loss is not None and not eager:
                graph.add_to_collection(GraphKeys.REGULARIZATION_LOSSES, loss)
        return v


def _default_initializer(name: str, dtype: _dtypes.DType) -> Any:
    """glorot_uniform for floats, zeros for ints and bools, as TF1.

    Raises:
      ValueError: another dtype (complex) without an initializer.
    """
    if dtype.is_floating:
        return init_ops.glorot_uniform_initializer()
    if dtype.is_integer or dtype.is_bool:
        return init_ops.zeros_initializer()
    raise ValueError(f"An initializer for variable {name} of {dtype.name} is required")


_store_lock = threading.Lock()


def _get_store(graph: Graph | None = None) -> _VariableStore:
    graph = graph if graph is not None else get_default_graph()
    store = graph._var_scope_store
    if store is None:
        with _store_lock:
            store = graph._var_scope_store
            if store is None:
                store = graph._var_scope_store = _VariableStore()
    return store  # type: ignore[no-any-return]


def get_variable_scope() -> VariableScope:
    """The current variable scope of the default graph, as ``tf.compat.v1.get_variable_scope``."""
    return _get_store().current_scope


def get_variable(
    name: str,
    shape: Any = None,
    dtype: Any = None,
    initializer: Any = None,
    regularizer: Any = None,
    trainable: Any = None,
    collections: Any = None,
    caching_device: Any = None,
    partitioner: Any = None,
    validate_shape: bool = True,
    use_resource: Any = None,
    custom_getter: Any = None,
    constraint: Any = None,
    synchronization: Any = None,
    aggregation: Any = None,
) -> Any:
    """Gets an existing variable or creates a new one, as ``tf.compat.v1.get_variable``.

    The variable's name is the current variable scope's name plus ``name``
    (``'dense/kernel'``), also its op name. Whether it may be created or must
    exist depends on the scope's ``reuse`` (see the module docstring).

    Args:
      name: the name inside the current scope.
      shape: the shape (a list of ints); not given when ``initializer`` is a
        value.
      dtype: default the scope's dtype (``float32``).
      initializer: an initializer (``init(shape, dtype)``), an initializer
        class, a tensor or a value. Default: the scope's initializer, else
        ``glorot_uniform`` for floats and zeros for integers and bools.
      regularizer: ``fn(variable) -> loss tensor or None``; the loss (built in
        the name scope ``'<name>/Regularizer/'``) is added to
        ``GraphKeys.REGULARIZATION_LOSSES``. Default: the scope's.
      trainable: add to ``GraphKeys.TRAINABLE_VARIABLES`` (default True).
      collections: the collections to add to (default ``[GLOBAL_VARIABLES]``).
      custom_getter: ``fn(getter, name, *args, **kwargs)`` wrapping creation.
      partitioner: ``fn(shape=TensorShape, dtype=DType) -> [parts per axis]``
        (e.g. :func:`fixed_size_partitioner`); default: the scope's.

    Returns:
      A :class:`~jaxsess.Variable`; with a partitioner, a
      :class:`~jaxsess._tf1.ops.partitioned_variables.PartitionedVariable`.

    Raises:
      ValueError: the variable exists and reuse is off ("Variable foo/w
        already exists, disallowed. …"); it does not exist and ``reuse=True``
        ("Variable foo/w does not exist, or was not created with
        tf.get_variable(). …"); a shape or dtype differing from the existing
        variable's (names both); a shape that is not fully defined; a
        ``shape`` given with a value initializer.
    """
    return get_variable_scope().get_variable(
        _get_store(), name, shape=shape, dtype=dtype, initializer=initializer, regularizer=regularizer,
        trainable=trainable, collections=collections, caching_device=caching_device,
        partitioner=partitioner, validate_shape=validate_shape, use_resource=use_resource,
        custom_getter=custom_getter, constraint=constraint, synchronization=synchronization,
        aggregation=aggregation,
    )


def get_local_variable(
    name: str,
    shape: Any = None,
    dtype: Any = None,
    initializer: Any = None,
    regularizer: Any = None,
    trainable: bool = False,
    collections: Any = None,
    **kwargs: Any,
) -> Any:
    """:func:`get_variable` into ``GraphKeys.LOCAL_VARIABLES`` (not trainable), as
    ``tf.compat.v1.get_local_variable``."""
    collections = list(collections or []) + [GraphKeys.LOCAL_VARIABLES]
    return get_variable(name, shape, dtype, initializer, regularizer, False, collections, **kwargs)


def _graph_from_values(values: Any) -> Graph | None:
    if values is None:
        return None
    items = values if isinstance(values, list | tuple) else [values]
    for v in items:
        conv = getattr(v, "_as_graph_element", None)
        if conv is not None and not isinstance(v, Tensor):
            v = conv()
        g = getattr(v, "graph", None)
        if isinstance(g, Graph):
            return g
    return None


class variable_scope:  # noqa: N801 - TF1's public name
    """A context manager opening a variable scope (and a name scope), as
    ``tf.compat.v1.variable_scope``.

    Args:
      name_or_scope: a scope name (nested under the current variable scope),
        or a :class:`VariableScope` to re-enter (its name is used as is).
      default_name: used when ``name_or_scope`` is None, made unique
        (``'dense'``, ``'dense_1'``) among the scopes opened in the current one.
      values: tensors passed to the scope; their graph becomes the default.
      initializer, regularizer, dtype, custom_getter, constraint: defaults for
        :func:`get_variable` inside (inherited by nested scopes).
      reuse: ``True``, ``AUTO_REUSE``, or ``None``/``False`` to inherit the
        enclosing scope's mode.
      auxiliary_name_scope: open a name scope too (default True); False
        keeps the current name scope.

    Yields:
      The :class:`VariableScope`.

    Raises:
      TypeError: neither ``name_or_scope`` nor ``default_name``, or a
        ``name_or_scope`` that is not a string or ``VariableScope``.
      ValueError: ``reuse=True`` without ``name_or_scope``, or an invalid
        ``reuse``.
    """

    def __init__(
        self,
        name_or_scope: str | VariableScope | None,
        default_name: str | None = None,
        values: Any = None,
        initializer: Any = None,
        regularizer: Any = None,
        caching_device: Any = None,
        partitioner: Any = None,
        custom_getter: Any = None,
        reuse: Any = None,
        dtype: Any = None,
        use_resource: Any = None,
        constraint: Any = None,
        auxiliary_name_scope: bool = True,
    ) -> None:
        if default_name is None and name_or_scope is None:
            raise TypeError("If default_name is None then name_or_scope is required")
        if name_or_scope is not None and not isinstance(name_or_scope, str | VariableScope):
            raise TypeError("VariableScope: name_or_scope must be a string or VariableScope.")
        if reuse is False:  # non-inheriting scopes do not exist: False means None
            reuse = None
        if not (reuse is None or reuse is True or reuse is AUTO_REUSE):
            raise ValueError("The reuse parameter must be True or False or None.")
        if not isinstance(auxiliary_name_scope, bool):
            raise TypeError(
                f"The auxiliary_name_scope must be `True` or `False`, while get {auxiliary_name_scope}"
            )
        if custom_getter is not None and not callable(custom_getter):
            raise ValueError(f"The custom_getter must be callable, got {custom_getter!r}")
        self._name_or_scope = name_or_scope
        self._default_name = default_name
        self._values = values
        self._initializer = initializer
        self._regularizer = regularizer
        self._caching_device = caching_device
        self._partitioner = partitioner
        self._custom_getter = custom_getter
        self._reuse = reuse
        self._dtype = dtype
        self._use_resource = use_resource
        self._constraint = constraint
        self._auxiliary_name_scope = auxiliary_name_scope
        self._stack: contextlib.ExitStack | None = None

    def __enter__(self) -> VariableScope:
        if self._stack is not None:
            raise RuntimeError("This variable_scope is already entered; create a new one to nest it.")
        stack = contextlib.ExitStack()
        try:
            scope = self._enter(stack)
        except BaseException:
            stack.close()
            raise
        self._stack = stack
        return scope

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        stack, self._stack = self._stack, None
        if stack is not None:
            stack.__exit__(exc_type, exc, tb)

    def _enter(self, stack: contextlib.ExitStack) -> VariableScope:
        graph = _graph_from_values(self._values)
        if graph is not None:
            stack.enter_context(graph.as_default())
        else:
            graph = get_default_graph()
        store = _get_store(graph)
        current_ns: Any = None
        if not self._auxiliary_name_scope:
            cur = graph.get_name_scope()
            current_ns = graph.name_scope(cur + "/" if cur else None)  # re-enter it
        nos = self._name_or_scope
        if nos is not None:
            ns_name = nos if isinstance(nos, str) else nos.name.split("/")[-1]
            old_name_scope: str | None = None
            if ns_name or current_ns is not None:
                entered = stack.enter_context(current_ns or graph.name_scope(ns_name))
                old_name_scope = entered if isinstance(nos, str) else nos.original_name_scope
            return self._enter_pure(stack, store, nos, old_name_scope)
        if self._reuse is True:
            raise ValueError("reuse=True cannot be used without a name_or_scope")
        assert self._default_name is not None
        entered = stack.enter_context(current_ns or graph.name_scope(self._default_name))
        unique = _unique_variable_scope(store, self._default_name)
        return self._enter_pure(stack, store, unique, entered)

    def _enter_pure(
        self, stack: contextlib.ExitStack, store: _VariableStore, nos: str | VariableScope,
        old_name_scope: str | None,
    ) -> VariableScope:
        """TF1's ``_pure_variable_scope``: sets the current variable scope."""
        old = store.current_scope
        if isinstance(nos, VariableScope):
            new_name = nos.name
            scope = VariableScope(
                nos.reuse if not self._reuse else self._reuse,
                name=new_name,
                initializer=nos.initializer,
                regularizer=nos.regularizer,
                caching_device=nos.caching_device,
                partitioner=nos.partitioner,
                custom_getter=nos.custom_getter,
                name_scope=nos.original_name_scope,
                dtype=nos.dtype,
                use_resource=nos.use_resource,
                constraint=nos.constraint,
            )
            base_getter = nos.custom_getter
            store.open_variable_scope(new_name)
            with store.lock:
                saved_counts = dict(store.variable_scopes_count)

            def restore_counts() -> None:
                with store.lock:
                    store.variable_scopes_count = saved_counts

            stack.callback(restore_counts)
        else:
            new_name = old.name + "/" + nos if old.name else nos
            scope = VariableScope(
                self._reuse or old.reuse,
                name=new_name,
                initializer=old.initializer,
                regularizer=old.regularizer,
                caching_device=old.caching_device,
                partitioner=old.partitioner,
                custom_getter=old.custom_getter,
                name_scope=nos if old_name_scope is None else old_name_scope,
                dtype=old.dtype,
                use_resource=old.use_resource,
                constraint=old.constraint,
            )
            base_getter = old.custom_getter
            store.open_variable_scope(new_name)
            stack.callback(store.close_variable_subscopes, new_name)
        if self._initializer is not None:
            scope.set_initializer(self._initializer)
        if self._regularizer is not None:
            scope.set_regularizer(self._regularizer)
        if self._caching_device is not None:
            scope.set_caching_device(self._caching_device)
        if self._partitioner is not None:
            scope.set_partitioner(self._partitioner)
        if self._custom_getter is not None:
            scope.set_custom_getter(_maybe_wrap_custom_getter(self._custom_getter, base_getter))
        if self._dtype is not None:
            scope.set_dtype(self._dtype)
        if self._use_resource is not None:
            scope.set_use_resource(self._use_resource)
        if self._constraint is not None:
            scope._constraint = self._constraint
        store.current_scope = scope

        def restore_scope() -> None:
            store.current_scope = old

        stack.callback(restore_scope)
        return scope


def _unique_variable_scope(store: _VariableStore, prefix: str) -> str:
    """``prefix``, or ``prefix_<n>`` when the current scope already opened it."""
    current = store.current_scope
    name = current.name + "/" + prefix if current.name else prefix
    if store.variable_scope_count(name) == 0:
        return prefix
    idx = 1
    while store.variable_scope_count(f"{name}_{idx}") > 0:
        idx += 1
    return f"{prefix}_{idx}"
