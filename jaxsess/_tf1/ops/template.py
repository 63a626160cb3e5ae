"""``tf.compat.v1.make_template``: a function whose ``get_variable`` variables are
created on the first call and shared by every later call.

The first call opens a unique variable scope (``name``, ``name_1``, ... among
the scopes of the current one; at construction with ``create_scope_now_``);
later calls re-enter it with ``reuse=True``, each under a new name scope
(``name_1/``, ...), as TF.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from jaxsess._core.graph._graph import GraphKeys, get_collection
from jaxsess._tf1.ops.variable_scope import VariableScope, variable_scope

__all__ = ["Template", "make_template"]


class Template:
    """A function wrapped so that its variables are shared across calls, as TF1's ``Template``.

    Attributes:
      name: the template's name (its variable scope's default name).
      func: the wrapped function.
      variable_scope: the :class:`VariableScope` (``None`` before the first
        call unless made at construction).
      variable_scope_name: its name with a trailing ``/``.
      variables, trainable_variables, non_trainable_variables,
      global_variables, local_variables: the variables under that scope.
    """

    def __init__(self, name: str, func: Callable[..., Any], create_scope_now: bool = False,
                 unique_name: str | None = None, custom_getter: Any = None) -> None:
        if name is None:
            raise ValueError("name cannot be None.")
        self._name = name
        self._func = func
        self._unique_name = unique_name
        self._custom_getter = custom_getter
        self._variables_created = False
        self._variable_scope: VariableScope | None = None
        if create_scope_now:
            with variable_scope(unique_name, name, custom_getter=custom_getter) as vs:
                self._variable_scope = vs

    def _call_func(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        trainable_at_start = len(get_collection(GraphKeys.TRAINABLE_VARIABLES))
        result = self._func(*args, **kwargs)
        if self._variables_created:
            trainable = get_collection(GraphKeys.TRAINABLE_VARIABLES)
            if len(trainable) != trainable_at_start:
                raise ValueError(
                    "Trainable variable created when calling a template after the first time, perhaps you used "
                    f"tf.Variable when you meant tf.get_variable: {trainable[trainable_at_start:]}"
                )
        else:
            self._variables_created = True
        return result

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Calls ``func`` in the template's variable scope (reusing its variables after the first call).

        Raises:
          ValueError: a later call creates a trainable variable (``tf.Variable``
            in place of ``tf.get_variable``), as TF.
        """
        if self._variable_scope is not None:
            with variable_scope(self._variable_scope, reuse=True if self._variables_created else None):
                return self._call_func(args, kwargs)
        with variable_scope(self._unique_name, self._name, custom_getter=self._custom_getter) as vs:
            self._variable_scope = vs
            return self._call_func(args, kwargs)

    @property
    def name(self) -> str:
        return self._name

    @property
    def func(self) -> Callable[..., Any]:
        return self._func

    @property
    def variable_scope(self) -> VariableScope | None:
        return self._variable_scope

    @property
    def variable_scope_name(self) -> str | None:
        if self._variable_scope is None:
            return None
        name = self._variable_scope.name
        return name if not name or name.endswith("/") else name + "/"

    def _collection(self, key: str) -> list[Any]:
        if self._variable_scope is None:
            return []
        return get_collection(key, self.variable_scope_name)

    @property
    def variables(self) -> list[Any]:
        return self.global_variables + self.local_variables

    @property
    def global_variables(self) -> list[Any]:
        return self._collection(GraphKeys.GLOBAL_VARIABLES)

    @property
    def local_variables(self) -> list[Any]:
        return self._collection(GraphKeys.LOCAL_VARIABLES)

    @property
    def trainable_variables(self) -> list[Any]:
        return self._collection(GraphKeys.TRAINABLE_VARIABLES)

    @property
    def non_trainable_variables(self) -> list[Any]:
        trainable = {id(v) for v in self.trainable_variables}
        return [v for v in self.global_variables if id(v) not in trainable]


def make_template(name_: str, func_: Callable[..., Any], create_scope_now_: bool = False,
                  unique_name_: str | None = None, custom_getter_: Any = None, **kwargs: Any) -> Template:
    """``func_`` (with ``kwargs`` bound) wrapped so that the variables it makes with
    ``tf.get_variable`` on its first call are reused by later calls, as ``tf.compat.v1.make_template``.

    Args:
      name_: the variable scope's default name (made unique).
      func_: the function to wrap.
      create_scope_now_: open the variable scope now (under the current scope)
        rather than at the first call.
      unique_name_: an exact scope name (not made unique).
      custom_getter_: a custom getter for the scope.
      **kwargs: keyword arguments bound to ``func_``.

    Returns:
      A :class:`Template`.
    """
    func = functools.partial(func_, **kwargs) if kwargs else func_
    return Template(name_, func, create_scope_now=create_scope_now_, unique_name=unique_name_,
                    custom_getter=custom_getter_)
