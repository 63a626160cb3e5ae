"""Variables, as ``tf.compat.v1.Variable`` in TF 2.x graph mode (resource
variables), and assign ops.

A variable is a ``VariableV2`` op whose value lives in each session that runs
it (per session, as TF1); ``v.initializer`` is an ``Assign`` op. Reads follow
TF 2.x's resource variables: a read happens where it is created, so a use of
``v`` (``tf.identity(v)``, ``v + 1``, ``v.value()``, ``v.read_value()``) made
under ``control_dependencies([assign])`` or inside a ``cond``/``while_loop``
body is a new read ordered after them and sees the assigned value — the
ordering rule of :mod:`jaxsess._core.graph._lowering`. Elsewhere a use reads the
variable's snapshot (``v/read:0``), the value at the start of the run (or
when the enclosing control-flow op starts). ``assign``/``assign_add``/
``assign_sub`` give the new value, and so do the scatter ops
(``scatter_update``/``add``/``sub``/``mul``/``div``/``max``/``min``,
``scatter_nd_update``/``add``/``sub``), which read and write the variable in
one op (out-of-range indices are dropped: XLA has no error path).

Reference variables (``use_resource=False``, or after
:func:`disable_resource_variables` or ``disable_v2_behavior()``) keep TF1's
reference semantics: ``value()`` is the snapshot; other uses follow the same
ordering rule as resource variables (in TF they read the shared buffer when
they run); a fetched reference variable, or an ``Identity``/assign output of
it, gives the variable's value at the end of the run (TF fetches the buffer
that the run's updates changed in place: ``sess.run([train, W])`` shows ``W``
after the step) — see :mod:`jaxsess._core.graph._lowering`.

Inside an ``EagerSession`` a variable holds its value in that session at once:
``assign`` replaces it, reads return it.
"""

from __future__ import annotations

import contextlib
import enum
import threading
from collections.abc import Iterator
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core import _context as _context, dtypes as _dtypes
from jaxsess._core._context import VariableStore
from jaxsess._core.graph._builder import apply_op, convert_to_tensor, executing_eagerly, group
from jaxsess._core.graph._graph import Graph, GraphKeys, Operation, Tensor, get_default_graph
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops.indexing_ops import scattered
from jaxsess._tf1.ops.random_ops import lifted_seeds

__all__ = [
    "Variable",
    "VariableAggregation",
    "VariableSynchronization",
    "VariableV1",
    "assign",
    "assign_add",
    "assign_sub",
    "scatter_update",
    "scatter_add",
    "scatter_sub",
    "scatter_mul",
    "scatter_div",
    "scatter_max",
    "scatter_min",
    "scatter_nd_update",
    "scatter_nd_add",
    "scatter_nd_sub",
    "global_variables",
    "all_variables",
    "local_variables",
    "trainable_variables",
    "model_variables",
    "moving_average_variables",
    "global_variables_initializer",
    "initialize_all_variables",
    "local_variables_initializer",
    "initialize_local_variables",
    "variables_initializer",
    "initialize_variables",
    "enable_resource_variables",
    "disable_resource_variables",
    "resource_variables_enabled",
]


class _ReadState(threading.local):
    def __init__(self) -> None:
        self.body_depth = 0  # > 0 while a cond/while body is being built


_reads = _ReadState()
_resource_default = [True]


def enable_resource_variables() -> None:
    """New variables are resource variables (the default), as
    ``tf.compat.v1.enable_resource_variables``."""
    _resource_default[0] = True


def disable_resource_variables() -> None:
    """New variables are reference variables (``use_resource=False``), as
    ``tf.compat.v1.disable_resource_variables``."""
    _resource_default[0] = False


def resource_variables_enabled() -> bool:
    """Whether new variables are resource variables, as ``tf.compat.v1.resource_variables_enabled``."""
    return _resource_default[0]


@contextlib.contextmanager
def body_reads() -> Iterator[None]:
    """Uses of resource variables inside are new reads (for ``cond``/``while_loop``
    bodies, which see the variable's value when the body runs)."""
    _reads.body_depth += 1
    try:
        yield
    finally:
        _reads.body_depth -= 1


def _in_ordered_context(graph: Graph) -> bool:
    """Whether an op made now is ordered after something: control
    dependencies are active, or a control-flow body is being built."""
    if _reads.body_depth:
        return True
    active = False
    for ctl in graph._scopes.control:
        active = False if ctl is None else active or bool(ctl)
    return active


def _var_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    return [(attrs["shape"], attrs["dtype"])]


def _var_from_tf(a: dict[str, Any], consts: Any) -> dict[str, Any]:
    return {"shape": a["shape"], "dtype": a["dtype"]}


@register_op("VariableV2", infer=_var_infer, stateful=True, jittable=False, default_name="Variable",
             tf=TFOp(types={}, from_tf=_var_from_tf, also=("VarHandleOp",)))
def _variable_op(ctx: Any, **attrs: Any) -> Any:  # evaluated by the lowering itself
    raise AssertionError("VariableV2 is read by the lowering")


def _assign_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    (ref_shape, ref_dtype), (val_shape, _) = specs
    if attrs.get("validate_shape", True):
        return [(TensorShape(ref_shape), ref_dtype)]
    return [(TensorShape(val_shape), ref_dtype)]


@register_op("Assign", infer=_assign_infer, stateful=True, ref_inputs=(0,), writes_ref=True, default_name="Assign",
             tf=TFOp(also=("AssignVariableOp",)))
def _assign(ctx: Any, var_op: Any, value: Any, *, validate_shape: bool = True, use_locking: bool = True) -> Any:
    return ctx.assign_variable(var_op, value)


@register_op(
    "AssignAdd", infer=_assign_infer, stateful=True, ref_inputs=(0,), reads_ref=True, writes_ref=True,
    default_name="AssignAdd",
)
def _assign_add(ctx: Any, var_op: Any, delta: Any, *, use_locking: bool = False) -> Any:
    return ctx.assign_variable(var_op, ctx.read_variable(var_op) + delta)


@register_op(
    "AssignSub", infer=_assign_infer, stateful=True, ref_inputs=(0,), reads_ref=True, writes_ref=True,
    default_name="AssignSub",
)
def _assign_sub(ctx: Any, var_op: Any, delta: Any, *, use_locking: bool = False) -> Any:
    return ctx.assign_variable(var_op, ctx.read_variable(var_op) - delta)


class Variable:
    """A mutable tensor whose value lives in a session, as ``tf.compat.v1.Variable``.

    Args:
      initial_value: a tensor, value, or a callable returning one; its shape
        and dtype are the variable's (unless ``validate_shape=False``).
      trainable: add to ``GraphKeys.TRAINABLE_VARIABLES`` (default True).
      collections: collections to add to (default ``[GLOBAL_VARIABLES]``).
      validate_shape: check assigned values against the static shape.
      name: the variable's op name (default ``'Variable'``, made unique).
      dtype: convert ``initial_value`` to this dtype.
      use_resource: ``False`` for a reference variable (see the module
        docstring); default: resource variable, as TF 2.x
        (:func:`disable_resource_variables` changes the default).
      sharding: optional ``jax.sharding.PartitionSpec``: how the variable's
        state is laid out over the mesh of a ``Session(mesh=...)`` (stored
        in the ``VariableV2`` op's ``sharding`` attribute; default
        replicated; ignored by sessions without a mesh).

    Attributes:
      name: ``'<op name>:0'``.
      op: the ``VariableV2`` op (the state slot in sessions).
      initializer: the ``Assign`` op that sets ``initial_value``.
      initial_value: the tensor computing the first value.

    Raises:
      ValueError: no ``initial_value``.
      TypeError: ``sharding`` is not a ``PartitionSpec``.
    """

    _use_resource = True  # also for variables rebuilt from a GraphDef

    def __init__(
        self,
        initial_value: Any = None,
        trainable: bool | None = None,
        collections: Any = None,
        validate_shape: bool = True,
        caching_device: Any = None,
        name: str | None = None,
        variable_def: Any = None,
        dtype: Any = None,
        expected_shape: Any = None,
        import_scope: Any = None,
        constraint: Any = None,
        use_resource: Any = None,
        synchronization: Any = None,
        aggregation: Any = None,
        shape: Any = None,
        sharding: Any = None,
    ) -> None:
        if initial_value is None:
            raise ValueError("initial_value must be specified.")
        if sharding is not None and not isinstance(sharding, jax.sharding.PartitionSpec):
            raise TypeError(
                f"sharding must be a jax.sharding.PartitionSpec, got {type(sharding).__name__} (variable {name!r})."
            )
        if trainable is None:
            trainable = True
        self._trainable = bool(trainable)
        self._constraint = constraint
        self._use_resource = _resource_default[0] if use_resource is None else bool(use_resource)
        eager = _context.current_eager_session()
        self._eager_session = eager
        if eager is not None:
            value = initial_value() if callable(initial_value) else initial_value
            arr = convert_to_tensor(value, dtype=dtype)
            self._dtype = _dtypes.as_dtype(arr.dtype)
            self._shape = TensorShape(arr.shape)
            self._name = (name or "Variable") + ":0"
            self._eager_assign(arr)
            return
        graph = get_default_graph()
        self._graph = graph
        with graph.name_scope(name or "Variable") as scope:
            op_name = scope[:-1]
            with graph.name_scope("Initializer"), graph.control_dependencies(None), lifted_seeds(graph):
                iv = initial_value() if callable(initial_value) else initial_value
                iv = convert_to_tensor(iv, dtype=dtype, name="initial_value")
            if shape is not None:
                vshape = TensorShape(shape)
            elif validate_shape:
                vshape = iv.shape
            else:
                vshape = TensorShape(None)
            if validate_shape and not vshape.is_fully_defined():
                raise ValueError(
                    f"initial_value must have a shape specified: {iv} (variable '{op_name}'); "
                    "pass validate_shape=False for a variable of unknown shape."
                )
            self._dtype = iv.dtype
            self._shape = vshape
            with graph.control_dependencies(None):
                var_attrs: dict[str, Any] = {"shape": vshape, "dtype": iv.dtype}
                if sharding is not None:
                    var_attrs["sharding"] = sharding
                self._ref = apply_op("VariableV2", (), var_attrs, name=op_name + "/")
                self._initial_value = iv
                with graph.colocate_with(self._ref.op):  # as TF1: on the variable's device
                    self._initializer = apply_op(
                        "Assign", (self._ref, iv), {"validate_shape": bool(validate_shape)}, name="Assign"
                    ).op
                    self._snapshot = apply_op("Identity", (self._ref,), name="read")
        self._ref.op._variable = self  # type: ignore[attr-defined]
        if collections is None:
            collections = [GraphKeys.GLOBAL_VARIABLES]
        collections = list(collections)
        if self._trainable and GraphKeys.TRAINABLE_VARIABLES not in collections:
            collections.append(GraphKeys.TRAINABLE_VARIABLES)
        graph.add_to_collections(collections, self)

    # -- properties ---------------------------------------------------------

    @property
    def name(self) -> str:
        return self._name if self._eager_session is not None else self._ref.name

    @property
    def op(self) -> Operation:
        return self._ref.op

    @property
    def graph(self) -> Graph:
        return self._graph

    @property
    def dtype(self) -> _dtypes.DType:
        return self._dtype

    @property
    def shape(self) -> TensorShape:
        return self._shape

    def get_shape(self) -> TensorShape:
        return self._shape

    @property
    def trainable(self) -> bool:
        return self._trainable

    @property
    def initializer(self) -> Operation:
        return self._initializer

    @property
    def initial_value(self) -> Tensor:
        return self._initial_value

    @property
    def device(self) -> str:
        return self._ref.op.device

    @property
    def constraint(self) -> Any:
        return self._constraint

    @property
    def sharding(self) -> Any:
        """The ``PartitionSpec`` given at creation, or ``None``."""
        if self._eager_session is not None:
            return None
        return self._ref.op.attrs.get("sharding")

    def value(self) -> Any:
        """The variable's value as a tensor; eager: the array.

        A resource variable under control dependencies or inside a
        control-flow body gives a new read ordered there; otherwise the
        snapshot (value at the start of the run).
        """
        if self._eager_session is not None:
            return self._eager_value()
        if self._use_resource and _in_ordered_context(self._graph):
            return apply_op("Identity", (self._ref,), name="read")
        return self._snapshot

    def read_value(self) -> Any:
        """A new read of the variable, ordered by the enclosing control dependencies."""
        if self._eager_session is not None:
            return self._eager_value()
        return apply_op("Identity", (self._ref,), name="read")

    def initialized_value(self) -> Any:
        """The value after initialisation (runs the initializer first if needed)."""
        with self._graph.control_dependencies([self._initializer]):
            return apply_op("Identity", (self._ref,), name="initialized_value")

    def _as_graph_element(self) -> Any:
        # A use of a reference variable (``v + 1``, ``tf.identity(v)``) ordered after an
        # assign sees the assigned value too: in TF it reads the variable's buffer when it
        # runs; only ``value()`` is the snapshot itself.
        if self._eager_session is None and not self._use_resource and _in_ordered_context(self._graph):
            return apply_op("Identity", (self._ref,), name="read")
        return self.value()

    def eval(self, session: Any = None) -> Any:
        """The variable's value in ``session`` (or the default session)."""
        if self._eager_session is not None:
            return self._eager_value()
        return self._snapshot.eval(session=session)

    def assign(self, value: Any, use_locking: bool = False, name: str | None = None, read_value: bool = True) -> Any:
        """An op assigning ``value``; its output is the new value, as ``tf.Variable.assign``.

        Raises:
          ValueError: ``value``'s static shape differs from the variable's.
        """
        if self._eager_session is not None:
            return self._eager_assign(convert_to_tensor(value, dtype=self._dtype))
        v = convert_to_tensor(value, dtype=self._dtype)
        if not v.shape.is_compatible_with(self._shape):
            raise ValueError(
                f"Cannot assign a value of shape {v.shape} to variable '{self.op.name}' of shape {self._shape}."
            )
        return apply_op("Assign", (self._ref, v), name=name)

    def assign_add(self, delta: Any, use_locking: bool = False, name: str | None = None, read_value: bool = True) -> Any:
        """An op adding ``delta``; its output is the new value."""
        if self._eager_session is not None:
            return self._eager_assign(self._eager_value() + convert_to_tensor(delta, dtype=self._dtype))
        return apply_op("AssignAdd", (self._ref, convert_to_tensor(delta, dtype=self._dtype)), name=name)

    def assign_sub(self, delta: Any, use_locking: bool = False, name: str | None = None, read_value: bool = True) -> Any:
        """An op subtracting ``delta``; its output is the new value."""
        if self._eager_session is not None:
            return self._eager_assign(self._eager_value() - convert_to_tensor(delta, dtype=self._dtype))
        return apply_op("AssignSub", (self._ref, convert_to_tensor(delta, dtype=self._dtype)), name=name)

    def load(self, value: Any, session: Any = None) -> None:
        """Sets the value in ``session`` without adding ops, as ``tf.Variable.load``
        (in an ``EagerSession``: assigns the value, as TF2's eager ``load``)."""
        if self._eager_session is not None:
            self._eager_assign(value)
            return
        stack = _context.session_stack()  # the default session (the ops layer imports no session)
        sess: VariableStore | None = session or (stack[-1] if stack else None)
        if sess is None:
            raise ValueError("Either session argument should be provided or default session should be established")
        with _dtypes.x64_scope(self._dtype):
            arr = jnp.asarray(np.asarray(value, dtype=self._dtype.np_dtype))
        if self._shape.is_fully_defined() and tuple(arr.shape) != tuple(self._shape.as_list()):
            raise ValueError(f"Cannot load a value of shape {arr.shape} into variable '{self.op.name}' of shape {self._shape}.")
        sess.assign(self.op, arr)

    def set_shape(self, shape: Any) -> None:
        self._shape = self._shape.merge_with(shape)

    def __repr__(self) -> str:
        # TF shows a reference variable's dtype as ``float32_ref`` (only here: ``dtype`` stays the value's)
        ref = "" if self._use_resource or self._eager_session is not None else "_ref"
        return f"<tf.Variable '{self.name}' shape={self._shape} dtype={self._dtype.name}{ref}>"

    # -- eager ------------------------------------------------------------------

    def _eager_value(self) -> Any:
        store: VariableStore = self._eager_session
        return store.read(self)

    def _eager_assign(self, value: Any) -> Any:
        store: VariableStore = self._eager_session
        arr = jnp.asarray(value, dtype=self._dtype.np_dtype)
        if self._shape.is_fully_defined() and tuple(arr.shape) != tuple(self._shape.as_list()):
            raise ValueError(
                f"Cannot assign a value of shape {tuple(arr.shape)} to variable '{self._name}' of shape {self._shape}."
            )
        # The adoption rule: the caller's array (or one sharing its buffer) is
        # copied, never taken: the session owns the variable's value.
        return store.assign(self, arr, value)

    # Operators: a variable behaves as its value.
    def __array__(self, dtype: Any = None) -> np.ndarray:
        return np.asarray(self._eager_value(), dtype=dtype)

    # Python operators act on the variable's value tensor (Tensor's operators, see _operators).
    def __add__(self, other: Any) -> Any:
        return self._as_graph_element().__add__(other)

    def __radd__(self, other: Any) -> Any:
        return self._as_graph_element().__radd__(other)

    def __sub__(self, other: Any) -> Any:
        return self._as_graph_element().__sub__(other)

    def __rsub__(self, other: Any) -> Any:
        return self._as_graph_element().__rsub__(other)

    def __mul__(self, other: Any) -> Any:
        return self._as_graph_element().__mul__(other)

    def __rmul__(self, other: Any) -> Any:
        return self._as_graph_element().__rmul__(other)

    def __truediv__(self, other: Any) -> Any:
        return self._as_graph_element().__truediv__(other)

    def __rtruediv__(self, other: Any) -> Any:
        return self._as_graph_element().__rtruediv__(other)

    def __floordiv__(self, other: Any) -> Any:
        return self._as_graph_element().__floordiv__(other)

    def __rfloordiv__(self, other: Any) -> Any:
        return self._as_graph_element().__rfloordiv__(other)

    def __mod__(self, other: Any) -> Any:
        return self._as_graph_element().__mod__(other)

    def __rmod__(self, other: Any) -> Any:
        return self._as_graph_element().__rmod__(other)

    def __pow__(self, other: Any) -> Any:
        return self._as_graph_element().__pow__(other)

    def __rpow__(self, other: Any) -> Any:
        return self._as_graph_element().__rpow__(other)

    def __matmul__(self, other: Any) -> Any:
        return self._as_graph_element().__matmul__(other)

    def __rmatmul__(self, other: Any) -> Any:
        return self._as_graph_element().__rmatmul__(other)

    def __neg__(self) -> Any:
        return self._as_graph_element().__neg__()

    def __abs__(self) -> Any:
        return self._as_graph_element().__abs__()

    def __lt__(self, other: Any) -> Any:
        return self._as_graph_element().__lt__(other)

    def __le__(self, other: Any) -> Any:
        return self._as_graph_element().__le__(other)

    def __gt__(self, other: Any) -> Any:
        return self._as_graph_element().__gt__(other)

    def __ge__(self, other: Any) -> Any:
        return self._as_graph_element().__ge__(other)

    def __and__(self, other: Any) -> Any:
        return self._as_graph_element().__and__(other)

    def __rand__(self, other: Any) -> Any:
        return self._as_graph_element().__rand__(other)

    def __or__(self, other: Any) -> Any:
        return self._as_graph_element().__or__(other)

    def __ror__(self, other: Any) -> Any:
        return self._as_graph_element().__ror__(other)

    def __invert__(self) -> Any:
        return self._as_graph_element().__invert__()

    def __getitem__(self, key: Any) -> Any:
        return self._as_graph_element().__getitem__(key)


VariableV1 = Variable


def assign(ref: Any, value: Any, validate_shape: Any = None, use_locking: Any = None, name: str | None = None) -> Any:
    """``ref.assign(value)``, as ``tf.compat.v1.assign``."""
    return _as_variable(ref).assign(value, name=name)


def assign_add(ref: Any, value: Any, use_locking: Any = None, name: str | None = None) -> Any:
    """``ref.assign_add(value)``, as ``tf.compat.v1.assign_add``."""
    return _as_variable(ref).assign_add(value, name=name)


def assign_sub(ref: Any, value: Any, use_locking: Any = None, name: str | None = None) -> Any:
    """``ref.assign_sub(value)``, as ``tf.compat.v1.assign_sub``."""
    return _as_variable(ref).assign_sub(value, name=name)


def _as_variable(ref: Any) -> Variable:
    if isinstance(ref, Variable):
        return ref
    if isinstance(ref, Tensor):
        var = getattr(ref.op, "_variable", None)
        if var is None and ref.op.type == "Identity" and ref.op.inputs:
            var = getattr(ref.op.inputs[0].op, "_variable", None)
        if var is not None:
            return var  # type: ignore[no-any-return]
    raise TypeError(f"Expected a Variable (or its reference tensor), got {ref!r:.80}.")


# -- collections and initializers ---------------------------------------------------


def global_variables(scope: str | None = None) -> list[Variable]:
    """Variables in ``GraphKeys.GLOBAL_VARIABLES``, as ``tf.compat.v1.global_variables``."""
    return get_default_graph().get_collection(GraphKeys.GLOBAL_VARIABLES, scope)


all_variables = global_variables


def local_variables(scope: str | None = None) -> list[Variable]:
    return get_default_graph().get_collection(GraphKeys.LOCAL_VARIABLES, scope)


def trainable_variables(scope: str | None = None) -> list[Variable]:
    """Variables created with ``trainable=True``, as ``tf.compat.v1.trainable_variables``."""
    return get_default_graph().get_collection(GraphKeys.TRAINABLE_VARIABLES, scope)


def model_variables(scope: str | None = None) -> list[Variable]:
    return get_default_graph().get_collection(GraphKeys.MODEL_VARIABLES, scope)


def moving_average_variables(scope: str | None = None) -> list[Variable]:
    return get_default_graph().get_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, scope)


def variables_initializer(var_list: Any, name: str = "init") -> Any:
    """An op running the initializers of ``var_list``, as ``tf.compat.v1.variables_initializer``."""
    if executing_eagerly():
        return None
    inits = [v.initializer for v in var_list]
    if not inits:
        return apply_op("NoOp", (), name=name)
    return group(*inits, name=name)


initialize_variables = variables_initializer


def global_variables_initializer() -> Any:
    """An op initialising all global variables, as ``tf.compat.v1.global_variables_initializer``."""
    return variables_initializer(global_variables(), name="init")


def initialize_all_variables() -> Any:
    return global_variables_initializer()


def local_variables_initializer() -> Any:
    """An op initialising all local variables (a no-op when there are none)."""
    return variables_initializer(local_variables(), name="init")


initialize_local_variables = local_variables_initializer


# -- sparse updates (scatter ops) -----------------------------------------------

# op type -> (how the rows are combined, row-indexed (False) or nd-indexed (True))
_SCATTER: dict[str, tuple[str, bool]] = {
    "ScatterUpdate": ("set", False),
    "ScatterAdd": ("add", False),
    "ScatterSub": ("sub", False),
    "ScatterMul": ("multiply", False),
    "ScatterDiv": ("divide", False),
    "ScatterMax": ("max", False),
    "ScatterMin": ("min", False),
    "ScatterNdUpdate": ("set", True),
    "ScatterNdAdd": ("add", True),
    "ScatterNdSub": ("sub", True),
}


def _register_scatter(op_type: str, how: str, nd: bool) -> None:
    def impl(ctx: Any, var_op: Any, indices: Any, updates: Any, *, use_locking: bool = False) -> Any:
        return ctx.assign_variable(var_op, scattered(ctx.read_variable(var_op), indices, updates, how=how, nd=nd))

    register_op(op_type, infer=_scatter_infer, stateful=True, ref_inputs=(0,), reads_ref=True, writes_ref=True,
                default_name=op_type)(impl)


def _scatter_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    (ref_shape, ref_dtype) = specs[0]
    return [(TensorShape(ref_shape), ref_dtype)]


for _t, (_how, _nd) in _SCATTER.items():
    _register_scatter(_t, _how, _nd)


def _scatter(op_type: str, fn: str, ref: Any, indices: Any, updates: Any, name: str | None) -> Any:
    """Builds (graph) or runs (eager) scatter op ``op_type`` on variable ``ref``.

    Raises:
      TypeError: ``ref`` is not a variable; ``indices`` are not int32/int64;
        ``updates`` do not convert to the variable's dtype.
      ValueError: static shapes of ``indices`` and ``updates`` do not fit the
        variable (the message gives the expected and actual shapes).
    """
    how, nd = _SCATTER[op_type]
    var = _as_variable(ref)
    idx = convert_to_tensor(indices)
    if _dtypes.as_dtype(idx.dtype) not in (_dtypes.int32, _dtypes.int64):
        raise TypeError(f"{fn}: indices must be int32 or int64, got {_dtypes.as_dtype(idx.dtype).name} "
                        f"(variable '{var.op.name}').")
    upd = convert_to_tensor(updates, dtype=var.dtype)
    ishape = TensorShape(idx.shape)
    vshape, ushape = var.shape, TensorShape(upd.shape)
    idims, vdims = ishape.as_tuple(), vshape.as_tuple()
    if nd:
        k = idims[-1] if idims else None
        if idims is not None and not idims:
            raise ValueError(f"{fn}: indices must have rank >= 1, got a scalar (variable '{var.op.name}').")
        want = (TensorShape(idims[:-1]).concatenate(vdims[k:])
                if idims is not None and vdims is not None and k is not None else TensorShape(None))
    else:
        want = (ishape.concatenate(vdims[1:]) if idims is not None and vdims is not None
                else TensorShape(None))
    if not ushape.is_compatible_with(want):
        raise ValueError(
            f"{fn}: updates of variable '{var.op.name}' (shape {vshape}) with indices of shape {ishape} "
            f"must have shape {want}, got {ushape}."
        )
    if var._eager_session is not None:
        new = scattered(var._eager_value(), jnp.asarray(idx), jnp.asarray(upd), how=how, nd=nd)
        return var._eager_assign(new)
    return apply_op(op_type, (var._ref, idx, upd), name=name)


def scatter_update(ref: Any, indices: Any, updates: Any, use_locking: bool = True, name: str | None = None) -> Any:
    """Sets rows ``ref[indices[...]] = updates[...]``, as ``tf.compat.v1.scatter_update``.

    Args:
      ref: a variable of shape ``[d0, d1, ...]``.
      indices: int32/int64 tensor of any shape ``I`` (a scalar selects one row).
      updates: tensor of shape ``I + [d1, ...]`` (converted to ``ref``'s dtype).

    Returns:
      The variable's value after the update (shape and dtype of ``ref``).

    Raises:
      TypeError, ValueError: see :func:`_scatter`. Indices out of
      ``[0, d0)`` are dropped (TF raises ``InvalidArgumentError`` at run
      time); with duplicate indices, which update wins is unspecified (as TF).
    """
    return _scatter("ScatterUpdate", "scatter_update", ref, indices, updates, name)


def scatter_add(ref: Any, indices: Any, updates: Any, use_locking: bool = False, name: str | None = None) -> Any:
    """Adds ``updates`` to the rows of ``ref`` at ``indices`` (duplicates add up),
    as ``tf.compat.v1.scatter_add``; shapes and errors as :func:`scatter_update`."""
    return _scatter("ScatterAdd", "scatter_add", ref, indices, updates, name)


def scatter_sub(ref: Any, indices: Any, updates: Any, use_locking: bool = False, name: str | None = None) -> Any:
    """Subtracts ``updates`` from the rows of ``ref`` at ``indices``, as ``tf.compat.v1.scatter_sub``."""
    return _scatter("ScatterSub", "scatter_sub", ref, indices, updates, name)


def scatter_mul(ref: Any, indices: Any, updates: Any, use_locking: bool = False, name: str | None = None) -> Any:
    """Multiplies the rows of ``ref`` at ``indices`` by ``updates``, as ``tf.compat.v1.scatter_mul``."""
    return _scatter("ScatterMul", "scatter_mul", ref, indices, updates, name)


def scatter_div(ref: Any, indices: Any, updates: Any, use_locking: bool = False, name: str | None = None) -> Any:
    """Divides the rows of ``ref`` at ``indices`` by ``updates``, as ``tf.compat.v1.scatter_div``."""
    return _scatter("ScatterDiv", "scatter_div", ref, indices, updates, name)


def scatter_max(ref: Any, indices: Any, updates: Any, use_locking: bool = False, name: str | None = None) -> Any:
    """Rows of ``ref`` at ``indices`` become ``max(row, updates)``, as ``tf.compat.v1.scatter_max``."""
    return _scatter("ScatterMax", "scatter_max", ref, indices, updates, name)


def scatter_min(ref: Any, indices: Any, updates: Any, use_locking: bool = False, name: str | None = None) -> Any:
    """Rows of ``ref`` at ``indices`` become ``min(row, updates)``, as ``tf.compat.v1.scatter_min``."""
    return _scatter("ScatterMin", "scatter_min", ref, indices, updates, name)


def scatter_nd_update(ref: Any, indices: Any, updates: Any, use_locking: bool = True, name: str | None = None) -> Any:
    """Sets slices ``ref[indices[..., :]] = updates[...]``, as ``tf.compat.v1.scatter_nd_update``.

    Args:
      ref: a variable of shape ``[d0, ..., dn]``.
      indices: int32/int64 tensor of shape ``I + [K]``, ``K <= n + 1``: each
        innermost vector indexes the first ``K`` dimensions.
      updates: tensor of shape ``I + [dK, ..., dn]``.

    Returns:
      The variable's value after the update.

    Raises:
      TypeError, ValueError: as :func:`scatter_update` (out-of-range indices
      are dropped).
    """
    return _scatter("ScatterNdUpdate", "scatter_nd_update", ref, indices, updates, name)


def scatter_nd_add(ref: Any, indices: Any, updates: Any, use_locking: bool = False, name: str | None = None) -> Any:
    """Adds ``updates`` to the slices of ``ref`` at ``indices``, as ``tf.compat.v1.scatter_nd_add``."""
    return _scatter("ScatterNdAdd", "scatter_nd_add", ref, indices, updates, name)


def scatter_nd_sub(ref: Any, indices: Any, updates: Any, use_locking: bool = False, name: str | None = None) -> Any:
    """Subtracts ``updates`` from the slices of ``ref`` at ``indices``, as ``tf.compat.v1.scatter_nd_sub``."""
    return _scatter("ScatterNdSub", "scatter_nd_sub", ref, indices, updates, name)


class VariableSynchronization(enum.Enum):
    """When a distributed variable is synchronized, as ``tf.VariableSynchronization``
    (accepted by ``get_variable``/``Variable``; one process has nothing to synchronize)."""

    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


class VariableAggregation(enum.Enum):
    """How replicas' updates of a variable combine, as ``tf.compat.v1.VariableAggregation``
    (accepted by ``get_variable``/``Variable``)."""

    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3
    ONLY_FIRST_TOWER = 3  # noqa: PIE796 - TF's alias of ONLY_FIRST_REPLICA
