"""``Graph``, ``Operation`` and ``Tensor``, as ``tf.compat.v1`` (shapes: :mod:`._shape`).

A graph is an append-only list of operations; creation order is a valid
topological order (an op's inputs exist before it). Name scopes, control
dependencies and device scopes are per graph and per thread, as in TF1.
"""

from __future__ import annotations

import contextlib
import itertools
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from jaxsess._core import _context as _context, _display, dtypes as _dtypes
from jaxsess._core.graph._device import merge_device, parse_device
from jaxsess._core.graph._shape import (
    TensorShape as TensorShape,  # re-exported: the op modules import it from here
)
from jaxsess._core.types import (
    DeviceLike,
    FeedDict,
    FetchStructure,
    GraphElement,
    GraphElementLike,
    IndexKey,
    ShapeLike,
    SupportsGraphElement,
    TensorLike,
)

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from tensorboard.compat.proto import graph_pb2

    from jaxsess._core.graph._registry import OpDef

__all__ = [
    "Graph",
    "GraphKeys",
    "Operation",
    "Tensor",
    "get_default_graph",
    "reset_default_graph",
    "name_scope",
    "control_dependencies",
    "device",
    "add_to_collection",
    "get_collection",
    "get_collection_ref",
]

# Graph -> GraphDef: registered by jaxsess._core.graph._graph_def when it is imported
# (it sits above this module), see register_graph_def_writer.
_graph_def_writer: Callable[..., Any] | None = None


_node_def_writer: Callable[[Any], Any] | None = None


def register_graph_def_writer(writer: Callable[..., Any], node_writer: Callable[[Any], Any] | None = None) -> None:
    """Installs the function behind :meth:`Graph.as_graph_def`:
    ``writer(graph, from_version=..., add_shapes=...) -> GraphDef``, and the one
    behind ``str(op)``: ``node_writer(op) -> NodeDef``."""
    global _graph_def_writer, _node_def_writer
    _graph_def_writer = writer
    _node_def_writer = node_writer


class SessionLike(Protocol):
    """What ``Tensor.eval`` and ``Operation.run`` run in: a graph session (found
    structurally: the graph layer does not import the sessions above it)."""

    @property
    def graph(self) -> Graph: ...

    def run(self, fetches: FetchStructure, feed_dict: FeedDict | None = ..., /) -> Any: ...


class _HasOp(Protocol):
    @property
    def op(self) -> Operation: ...


Colocatable: TypeAlias = "Operation | Tensor | _HasOp"
"""What ``colocate_with`` takes: an op, a tensor (its op) or a variable (its op)."""


_VALID_OP_NAME = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\-/>]*$")


class GraphKeys:
    """Standard collection names, as ``tf.compat.v1.GraphKeys``."""

    GLOBAL_VARIABLES = "variables"
    LOCAL_VARIABLES = "local_variables"
    METRIC_VARIABLES = "metric_variables"
    MODEL_VARIABLES = "model_variables"
    TRAINABLE_VARIABLES = "trainable_variables"
    SUMMARIES = "summaries"
    QUEUE_RUNNERS = "queue_runners"
    TABLE_INITIALIZERS = "table_initializer"
    ASSET_FILEPATHS = "asset_filepaths"
    MOVING_AVERAGE_VARIABLES = "moving_average_variables"
    REGULARIZATION_LOSSES = "regularization_losses"
    CONCATENATED_VARIABLES = "concatenated_variables"
    SAVERS = "savers"
    WEIGHTS = "weights"
    BIASES = "biases"
    ACTIVATIONS = "activations"
    UPDATE_OPS = "update_ops"
    LOSSES = "losses"
    TRAIN_OP = "train_op"
    INIT_OP = "init_op"
    LOCAL_INIT_OP = "local_init_op"
    READY_OP = "ready_op"
    SUMMARY_OP = "summary_op"
    GLOBAL_STEP = "global_step"
    COND_CONTEXT = "cond_context"
    WHILE_CONTEXT = "while_context"


class Tensor:
    """A symbolic handle to one output of an :class:`Operation`, as ``tf.Tensor``.

    Hashable by identity; ``==`` is identity, as in TF1 graph mode. Python
    operators (``+ - * / // % ** @``, unary ``-``, ``abs``, comparisons
    ``< <= > >=`` and ``& | ~``) add ops to the tensor's graph.
    """

    __slots__ = ("_op", "_value_index", "_dtype", "_shape", "__weakref__")
    __array_priority__ = 100

    def __init__(self, op: Operation, value_index: int, dtype: _dtypes.DType, shape: TensorShape) -> None:
        self._op = op
        self._value_index = value_index
        self._dtype = dtype
        self._shape = shape

    @property
    def op(self) -> Operation:
        return self._op

    @property
    def value_index(self) -> int:
        return self._value_index

    @property
    def dtype(self) -> _dtypes.DType:
        return self._dtype

    @property
    def shape(self) -> TensorShape:
        return self._shape

    def get_shape(self) -> TensorShape:
        return self._shape

    def set_shape(self, shape: ShapeLike) -> None:
        """Refines the static shape, as ``tf.Tensor.set_shape``.

        Raises:
          ValueError: ``shape`` is incompatible with the current shape.
        """
        self._shape = self._shape.merge_with(shape)

    @property
    def name(self) -> str:
        return f"{self._op.name}:{self._value_index}"

    @property
    def graph(self) -> Graph:
        return self._op.graph

    @property
    def device(self) -> str:
        return self._op.device

    def consumers(self) -> list[Operation]:
        """The ops that take this tensor as an input, as ``tf.Tensor.consumers()`` (a method, as TF)."""
        return [op for op in self._op.graph._ops if any(t is self for t in op.inputs)]

    def eval(self, feed_dict: FeedDict | None = None, session: SessionLike | None = None) -> Any:
        """Runs the graph to compute this tensor, as ``tf.Tensor.eval``.

        Uses ``session``, or the default session.

        Returns:
          What ``session.run(self, feed_dict)`` returns: a host ``numpy.ndarray``
          (a NumPy scalar for a 0-d tensor) owned by the caller, or a
          session-owned ``jax.Array`` in a ``device_fetches=True`` session.

        Raises:
          ValueError: no session given and no default session.
        """
        return _run_in_session(self, feed_dict, session, "evaluate tensor")

    def __repr__(self) -> str:
        return f"<tf.Tensor '{self.name}' shape={self._shape} dtype={self._dtype.name}>"

    def __str__(self) -> str:
        # As TF: no shape when the rank is unknown, the device when one was requested.
        shape = "" if self._shape._dims is None else f", shape={self._shape}"
        device = f", device={self._op.device}" if self._op.device else ""
        return f'Tensor("{self.name}"{shape}, dtype={self._dtype.name}{device})'

    def __bool__(self) -> bool:
        raise TypeError(
            "Using a `tf.Tensor` as a Python `bool` is not allowed. Use `if t is not None:` "
            "instead of `if t:` or use jaxsess.cond to execute subgraphs conditioned on the "
            "value of a tensor."
        )

    def __iter__(self) -> Iterator[Tensor]:
        raise TypeError("Tensor objects are only iterable when eager execution is enabled.")

    def __len__(self) -> int:
        raise TypeError(
            f"len is not well defined for symbolic Tensors ({self.name}). Use tf.shape or tensor.shape."
        )

    __hash__ = object.__hash__

    # Python operators, as TF1 graph mode: each adds an op through the table
    # the op library fills (register_tensor_operators). ``==``/``!=`` stay identity.
    def __add__(self, other: TensorLike) -> Tensor:
        return _tensor_operator("__add__")(self, other)

    def __radd__(self, other: TensorLike) -> Tensor:
        return _tensor_operator("__radd__")(self, other)

    def __sub__(self, other: TensorLike) -> Tensor:
        return _tensor_operator("__sub__")(self, other)

    def __rsub__(self, other: TensorLike) -> Tensor:
        return _tensor_operator("__rsub__")(self, other)

    def __mul__(self, other: TensorLike) -> Tensor:
        return _tensor_operator("__mul__")(self, other)

    def __rmul__(self, other: TensorLike) -> Tensor:
        return _tensor_operator("__rmul__")(self, other)

    def __truediv__(self, other: TensorLike) -> Tensor:
        return _tensor_operator("__truediv__")(self, other)

    def __rtruediv__(self, other: TensorLike) -> Tensor:
        return _tensor_operator("__rtruediv__")(self, other)

    def __floordiv__(self, other: TensorLike) -> Tensor:
        return _tensor_operator("__floordiv__")(self, other)

    def __rfloordiv__(self, other: TensorLike) -> Tensor:
        return _tensor_operator("__rfloordiv__")(self, other)

    def __mod__(self, other: TensorLike) -> Tensor:
        return _tensor_operator("__mod__")(self, other)

    def __rmod__(self, other: TensorLike) -> Tensor:
        return _tensor_operator("__rmod__")(self, other)

    def __pow__(self, other: TensorLike) -> Tensor:
        return _tensor_operator("__pow__")(self, other)

    def __rpow__(self, other: TensorLike) -> Tensor:
        return _tensor_operator("__rpow__")(self, other)

    def __matmul__(self, other: TensorLike) -> Tensor:
        return _tensor_operator("__matmul__")(self, other)

    def __rmatmul__(self, other: TensorLike) -> Tensor:
        return _tensor_operator("__rmatmul__")(self, other)

    def __and__(self, other: TensorLike) -> Tensor:
        return _tensor_operator("__and__")(self, other)

    def __rand__(self, other: TensorLike) -> Tensor:
        return _tensor_operator("__rand__")(self, other)

    def __or__(self, other: TensorLike) -> Tensor:
        return _tensor_operator("__or__")(self, other)

    def __ror__(self, other: TensorLike) -> Tensor:
        return _tensor_operator("__ror__")(self, other)

    def __xor__(self, other: TensorLike) -> Tensor:
        return _tensor_operator("__xor__")(self, other)

    def __rxor__(self, other: TensorLike) -> Tensor:
        return _tensor_operator("__rxor__")(self, other)

    def __lt__(self, other: TensorLike) -> Tensor:
        return _tensor_operator("__lt__")(self, other)

    def __le__(self, other: TensorLike) -> Tensor:
        return _tensor_operator("__le__")(self, other)

    def __gt__(self, other: TensorLike) -> Tensor:
        return _tensor_operator("__gt__")(self, other)

    def __ge__(self, other: TensorLike) -> Tensor:
        return _tensor_operator("__ge__")(self, other)

    def __neg__(self) -> Tensor:
        return _tensor_operator("__neg__")(self)

    def __abs__(self) -> Tensor:
        return _tensor_operator("__abs__")(self)

    def __invert__(self) -> Tensor:
        return _tensor_operator("__invert__")(self)

    def __getitem__(self, key: IndexKey) -> Tensor:
        return _tensor_operator("__getitem__")(self, key)


TENSOR_OPERATORS: tuple[str, ...] = (
    *(f"__{r}{name}__" for name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul",
                                    "and", "or", "xor") for r in ("", "r")),
    "__lt__", "__le__", "__gt__", "__ge__", "__neg__", "__abs__", "__invert__", "__getitem__",
)
"""The operator methods of :class:`Tensor` that dispatch through :func:`register_tensor_operators`'s table."""

_tensor_operators: dict[str, Callable[..., Tensor]] = {}

_NO_TENSOR_OPERATORS = (
    "Tensor.{name} needs the TF1 op library, which registers Tensor's Python operators when it is "
    "imported: `import jaxsess._tf1.ops` (using any public name, e.g. `jaxsess.add`, loads it) before "
    "applying operators to tensors."
)


def register_tensor_operators(operators: Mapping[str, Callable[..., Tensor]]) -> None:
    """Fills the table behind :class:`Tensor`'s Python operators.

    The op library (``jaxsess._tf1.ops``) calls it once, when it is imported:
    the graph layer defines the operator methods, the ops they add live above
    it. Registering a name again replaces its function.

    Args:
      operators: method name (``'__add__'``, ``'__radd__'``, ``'__getitem__'``,
        one of :data:`TENSOR_OPERATORS`) -> a function called as
        ``fn(tensor, *operands)`` that returns the new :class:`Tensor`.

    Raises:
      ValueError: a name that is not one of Tensor's operator methods.
    """
    unknown = sorted(set(operators) - set(TENSOR_OPERATORS))
    if unknown:
        raise ValueError(f"Not operator methods of Tensor: {unknown}; expected some of {list(TENSOR_OPERATORS)}.")
    _tensor_operators.update(operators)


def _tensor_operator(name: str) -> Callable[..., Tensor]:
    """The registered function behind ``Tensor.<name>``.

    Raises:
      TypeError: no op library registered the operators (only the core was
        imported); the message names what to import.
    """
    fn = _tensor_operators.get(name)
    if fn is None:
        raise TypeError(_NO_TENSOR_OPERATORS.format(name=name))
    return fn


class Operation:
    """A node of a :class:`Graph`, as ``tf.Operation``.

    Attributes:
      name: unique in its graph (``'add'``, ``'scope/add_1'``).
      type: the registered op type (``'AddV2'``).
      inputs: the data inputs (tuple of :class:`Tensor`).
      outputs: the outputs (list of :class:`Tensor`).
      control_inputs: ops that must run before this one.
      device: the requested device string ('' when none).
      graph: the owning graph.
    """

    __slots__ = (
        "_graph", "_name", "_type", "_inputs", "_outputs", "_control_inputs",
        "_device", "_attrs", "_id", "_op_def", "_variable", "_gradient_op_type", "__weakref__",
    )

    def __init__(
        self,
        graph: Graph,
        name: str,
        op_def: Any,  # an OpDef (typed Any for the lowering modules, which read its fields freely)
        inputs: Sequence[Tensor],
        attrs: dict[str, Any],
        control_inputs: Sequence[Operation],
        device: str,
        op_id: int,
    ) -> None:
        self._graph = graph
        self._name = name
        self._type: str = op_def.type
        self._op_def = op_def
        self._inputs = tuple(inputs)
        self._attrs = attrs
        self._control_inputs = list(control_inputs)
        self._device = device
        self._id = op_id
        self._outputs: list[Tensor] = []
        self._variable: Any = None  # the Variable whose state slot this op is
        self._gradient_op_type: str | None = None  # Graph.gradient_override_map's name for this op

    @property
    def name(self) -> str:
        return self._name

    @property
    def type(self) -> str:
        return self._type

    @property
    def inputs(self) -> tuple[Tensor, ...]:
        return self._inputs

    @property
    def outputs(self) -> list[Tensor]:
        return self._outputs

    @property
    def control_inputs(self) -> list[Operation]:
        return self._control_inputs

    @property
    def device(self) -> str:
        return self._device

    @property
    def graph(self) -> Graph:
        return self._graph

    @property
    def attrs(self) -> dict[str, Any]:
        return self._attrs

    @property
    def node_def(self) -> dict[str, Any]:
        return {
            "name": self._name,
            "op": self._type,
            "input": [t.name for t in self._inputs] + ["^" + c.name for c in self._control_inputs],
            "device": self._device,
        }

    def get_attr(self, name: str) -> Any:
        """The attribute ``name`` of this op.

        Besides the op's own attributes: their TF names where TF's differ
        (``keep_dims``), TF's type attributes (``'T'``: the dtype of the
        input or output TF derives it from) and
        ``'_gradient_op_type'`` (bytes, set by
        :meth:`Graph.gradient_override_map`).

        Raises:
          ValueError: the op has no such attribute.
        """
        if name in self._attrs:
            return self._attrs[name]
        tf_attrs = self._attrs.get("tf_attrs")  # a generic TF node (graph/_tf_node): TF's attributes
        if isinstance(tf_attrs, dict) and name in tf_attrs:
            return tf_attrs[name]
        if name == "_gradient_op_type" and self._gradient_op_type is not None:
            return self._gradient_op_type.encode()
        tf_def = self._op_def.tf
        if tf_def.to_tf is not None:  # TF's name for an attribute (Sum's keep_dims)
            tf_attrs = tf_def.to_tf(self._attrs, [(t.shape, t.dtype) for t in self._inputs])[0]
            if name in tf_attrs:
                return tf_attrs[name]
        types = tf_def.types
        if types is None and self._inputs:
            types = {"T": 0}
        i = (types or {}).get(name)
        if i is not None and 0 <= i < len(self._inputs):
            return self._inputs[i].dtype
        if i is not None and 0 <= -1 - i < len(self._outputs):
            return self._outputs[-1 - i].dtype
        raise ValueError(f"Operation '{self._name}' has no attr named '{name}'.")

    def _add_control_input(self, op: Operation) -> None:
        if op not in self._control_inputs:
            self._control_inputs.append(op)

    def run(self, feed_dict: FeedDict | None = None, session: SessionLike | None = None) -> None:
        """Runs this op in ``session`` or the default session, as ``tf.Operation.run``."""
        _run_in_session(self, feed_dict, session, "execute operation")

    def __repr__(self) -> str:
        return f"<tf.Operation '{self._name}' type={self._type}>"

    def __str__(self) -> str:
        """TF's ``NodeDef`` of this op in text format, as ``str(tf.Operation)``."""
        if _node_def_writer is None:
            return repr(self)
        return str(_node_def_writer(self))

    __hash__ = object.__hash__


class _ThreadScopes(threading.local):
    def __init__(self) -> None:
        self.name_stack = ""
        self.control: list[list[Operation] | None] = []
        self.devices: list[Any] = []  # device strings, device functions, None (a reset)
        self.colocate: list[Any] = []


class Graph:
    """A TF1 computation graph, as ``tf.compat.v1.Graph``.

    Ops are added by the op functions while the graph is the default
    (``with g.as_default():``). ``finalize()`` makes it read-only.
    """

    _is_eager = False

    def __init__(self) -> None:
        self._ops: list[Operation] = []
        self._by_name: dict[str, Operation] = {}
        self._names_in_use: dict[str, int] = {}
        self._collections: dict[str, list[Any]] = {}
        self._finalized = False
        self._lock = threading.RLock()
        self._scopes = _ThreadScopes()
        self._next_id = itertools.count()
        self.seed: int | None = None
        self._version = 0
        self._variables: dict[str, Any] = {}  # variable name -> Variable (jaxsess._tf1.ops.state)
        self._var_scope_store: Any = None
        self._keras_state: Any = None  # jaxsess._tf1.keras.backend's per-graph state (session, names, learning phase)
        self._gradient_override_map: dict[str, str] = {}

    # -- defaults -----------------------------------------------------------

    @contextlib.contextmanager
    def as_default(self) -> Iterator[Graph]:
        """Makes this the thread's default graph inside a ``with`` block."""
        stack = _context.execution_stack()
        stack.append(self)
        try:
            yield self
        finally:
            for i in range(len(stack) - 1, -1, -1):
                if stack[i] is self:
                    del stack[i]
                    break

    # -- ops ------------------------------------------------------------------

    @property
    def finalized(self) -> bool:
        return self._finalized

    def finalize(self) -> None:
        """Makes the graph read-only: adding an op raises ``RuntimeError``."""
        self._finalized = True

    def _unsafe_unfinalize(self) -> None:
        self._finalized = False

    @property
    def version(self) -> int:
        return self._version

    def unique_name(self, name: str, mark_as_used: bool = True) -> str:
        """``name`` under the current name scope, made unique (``add``, ``add_1``)."""
        scope = self._scopes.name_stack
        if scope:
            name = scope + "/" + name
        with self._lock:
            key = name.lower()
            i = self._names_in_use.get(key, 0)
            if mark_as_used:
                self._names_in_use[key] = i + 1
            if i > 0:
                base = name
                while True:
                    name = f"{base}_{i}"
                    if name.lower() not in self._names_in_use:
                        break
                    i += 1
                if mark_as_used:
                    self._names_in_use[name.lower()] = 1
            return name

    def _create_op(
        self,
        op_def: OpDef,
        inputs: Sequence[Tensor],
        attrs: dict[str, Any],
        name: str | None,
        output_specs: Sequence[tuple[TensorShape, _dtypes.DType]],
        control_inputs: Iterable[Operation] = (),
    ) -> Operation:
        if self._finalized:
            raise RuntimeError("Graph is finalized and cannot be modified.")
        if name is not None and name.endswith("/"):
            op_name = name[:-1]  # a scope name given verbatim, as TF1
        else:
            base = name or op_def.default_name
            if not _VALID_OP_NAME.match(base):
                raise ValueError(f"'{base}' is not a valid node name")
            op_name = self.unique_name(base)
        controls: list[Operation] = []
        for ctl in self._scopes.control:
            if ctl is None:
                controls = []
            else:
                controls.extend(c for c in ctl if c not in controls)
        # Ops whose inputs already depend on a control input skip it, as TF1.
        input_ops = {t.op for t in inputs}
        controls = [c for c in controls if c not in input_ops]
        for c in control_inputs:
            if c not in controls:
                controls.append(c)
        op = Operation(self, op_name, op_def, inputs, attrs, controls, "", next(self._next_id))
        op._outputs = [Tensor(op, i, dt, shape) for i, (shape, dt) in enumerate(output_specs)]
        if self._scopes.devices or self._scopes.colocate:
            self._apply_device_scopes(op)
        with self._lock:
            if op_name in self._by_name:
                raise ValueError(f"Duplicate node name in graph: '{op_name}'")
            if self._gradient_override_map:
                op._gradient_op_type = self._gradient_override_map.get(op._type)
            self._ops.append(op)
            self._by_name[op_name] = op
            self._names_in_use.setdefault(op_name.lower(), 1)
            self._version += 1
        return op

    def _apply_device_scopes(self, op: Operation) -> None:
        """Sets ``op``'s device from the device scopes, innermost first, as TF1's
        ``Graph._apply_device_functions``: a device function gets the op (its
        ``device`` so far) and returns a device string or spec, kept verbatim; a
        string scope fills in the fields still unset; a ``None`` scope stops the
        walk. Inside ``colocate_with`` the op takes the colocated op's device."""
        device: str | None = None
        for d in reversed(self._scopes.devices):
            if d is None:
                break
            if d == "":  # tf.device(""): a null merge, as TF1
                continue
            if isinstance(d, str):
                device = _merge_device(d, device or "")
            else:
                spec = d(op)
                to_string = getattr(spec, "to_string", None)
                if callable(to_string):
                    device = to_string()
                elif isinstance(spec, str | bytes):
                    device = spec if isinstance(spec, str) else spec.decode()
                else:
                    raise TypeError(f"Expected binary or unicode string, got {spec!r}")
            op._device = device
        for colocated in reversed(self._scopes.colocate):
            if colocated is not None and colocated.device:
                op._device = colocated.device
                break

    def get_operations(self) -> list[Operation]:
        """All ops, in creation order."""
        return list(self._ops)

    def get_operation_by_name(self, name: str) -> Operation:
        """The op called ``name``.

        Raises:
          KeyError: no op has that name (names the graph's similar ops).
          ValueError: ``name`` looks like a tensor name (``'x:0'``).
          TypeError: ``name`` is not a string.
        """
        if not isinstance(name, str):
            raise TypeError(f"Operation names are strings (or similar), not {type(name).__name__}.")
        if ":" in name:
            raise ValueError(
                f"Name '{name}' appears to refer to a Tensor, not an Operation."
            )
        op = self._by_name.get(name)
        if op is None:
            raise KeyError(f"The name '{name}' refers to an Operation not in the graph.")
        return op

    def get_tensor_by_name(self, name: str) -> Tensor:
        """The tensor called ``name`` (``'op:index'``).

        Raises:
          KeyError: the op does not exist, or has no such output.
          ValueError: ``name`` is an op name without ``:index``.
          TypeError: ``name`` is not a string.
        """
        if not isinstance(name, str):
            raise TypeError(f"Tensor names are strings (or similar), not {type(name).__name__}.")
        op_name, sep, index = name.rpartition(":")
        if not sep or not index.isdigit():
            raise ValueError(
                f"The name '{name}' looks like an (invalid) Operation name, not a Tensor. "
                "Tensor names must be of the form \"<op_name>:<output_index>\"."
            )
        op = self._by_name.get(op_name)
        if op is None:
            raise KeyError(
                f"The name '{name}' refers to a Tensor which does not exist. "
                f"The operation, '{op_name}', does not exist in the graph."
            )
        i = int(index)
        if i >= len(op.outputs):
            raise KeyError(
                f"The name '{name}' refers to a Tensor which does not exist. The operation, "
                f"'{op_name}', exists but only has {len(op.outputs)} outputs."
            )
        return op.outputs[i]

    def as_graph_element(
        self, obj: GraphElementLike, allow_tensor: bool = True, allow_operation: bool = True
    ) -> GraphElement:
        """Resolves a name, ``Tensor`` or ``Operation`` to an element of this graph.

        Raises:
          ValueError: the element belongs to another graph.
          KeyError: a name that is not in the graph.
          TypeError: an object that cannot be a graph element.
        """
        if isinstance(obj, str):
            if ":" in obj and allow_tensor:
                return self.get_tensor_by_name(obj)
            if allow_operation:
                return self.get_operation_by_name(obj)
            raise ValueError(f"Name '{obj}' refers to an Operation, not a Tensor.")
        if isinstance(obj, Tensor) and allow_tensor:
            if obj.graph is not self:
                raise ValueError(f"Tensor {obj} is not an element of this graph.")
            return obj
        if isinstance(obj, Operation) and allow_operation:
            if obj.graph is not self:
                raise ValueError(f"Operation {obj!r} is not an element of this graph.")
            return obj
        conv = getattr(obj, "_as_graph_element", None)
        if conv is not None:
            return self.as_graph_element(conv(), allow_tensor, allow_operation)
        raise TypeError(f"Can not convert a {type(obj).__name__} into a Tensor or Operation.")

    def as_graph_def(self, from_version: int | None = None, add_shapes: bool = True) -> graph_pb2.GraphDef:
        """This graph as TF's ``GraphDef`` protocol buffer, as ``tf.Graph.as_graph_def``.

        See :mod:`jaxsess._core.graph._graph_def` for how ops are written;
        ``jaxsess.import_graph_def`` rebuilds it, and real TF reads it.

        Raises:
          ValueError: an op attribute has no encoding (names the node and attribute).
          RuntimeError: the GraphDef writer is not loaded (only
            ``jaxsess._core.graph._graph`` was imported, not ``jaxsess``).
        """
        if _graph_def_writer is None:
            raise RuntimeError(
                "Graph.as_graph_def needs the GraphDef writer, registered when jaxsess._core.graph._graph_def "
                "is imported: use `import jaxsess` (or import jaxsess._core.graph._graph_def)."
            )
        return _graph_def_writer(self, from_version=from_version, add_shapes=add_shapes)

    # -- scopes ---------------------------------------------------------------

    @contextlib.contextmanager
    def name_scope(self, name: str | None) -> Iterator[str]:
        """Prefixes the names of ops created inside, as ``tf.Graph.name_scope``.

        ``name`` ending in ``/`` re-enters an existing scope verbatim; ``None``
        or ``''`` resets to the top level. Yields the scope string (``'a/'``).
        """
        old = self._scopes.name_stack
        if not name:
            new = ""
        elif name.endswith("/"):
            new = name[:-1]
        else:
            new = self.unique_name(name)
        self._scopes.name_stack = new
        try:
            yield (new + "/") if new else ""
        finally:
            self._scopes.name_stack = old

    def get_name_scope(self) -> str:
        return self._scopes.name_stack

    @contextlib.contextmanager
    def control_dependencies(
        self, control_inputs: Iterable[Tensor | Operation | SupportsGraphElement] | None
    ) -> Iterator[None]:
        """Ops created inside run after ``control_inputs``, as TF1.

        ``None`` clears the outer dependencies. Tensors stand for their ops.
        """
        if control_inputs is None:
            entry: list[Operation] | None = None
        else:
            entry = []
            for c in control_inputs:
                c = getattr(c, "_as_graph_element", lambda c=c: c)()
                if isinstance(c, Tensor):
                    c = c.op
                if not isinstance(c, Operation):
                    raise TypeError(f"Control input must be an Operation or Tensor, got {c!r}.")
                if c.graph is not self:
                    raise ValueError(f"Control input {c.name!r} is not an element of this graph.")
                entry.append(c)
        self._scopes.control.append(entry)
        try:
            yield
        finally:
            self._scopes.control.pop()

    @contextlib.contextmanager
    def device(self, device_name: DeviceLike) -> Iterator[None]:
        """Requests a device for ops created inside, as ``tf.Graph.device``.

        ``device_name`` is a string (``'/cpu:0'``, ``'/device:GPU:1'``,
        ``'/job:localhost/replica:0/task:0/device:CPU:0'``) or ``None`` to clear.
        Malformed strings raise ``ValueError`` here; devices that do not exist
        are found when a session places the op.
        """
        if device_name is not None and not isinstance(device_name, str):
            to_string = getattr(device_name, "to_string", None)
            if callable(to_string):  # a DeviceSpec
                device_name = to_string()
            elif not callable(device_name):
                device_name = str(device_name)
        if isinstance(device_name, str) and device_name:
            parse_device(device_name)  # validates
        self._scopes.devices.append(device_name)
        try:
            yield
        finally:
            self._scopes.devices.pop()

    @contextlib.contextmanager
    def colocate_with(self, op: Colocatable | None, ignore_existing: bool = False) -> Iterator[None]:
        """Ops created inside take ``op``'s device, as ``tf.Graph.colocate_with``:
        the enclosing device scopes are set aside; ``op=None`` with
        ``ignore_existing=True`` clears the colocation too.

        Args:
          op: an :class:`Operation`, a :class:`Tensor` (its op) or a variable
            (its op), or ``None``.

        Raises:
          ValueError: ``op`` is ``None`` and ``ignore_existing`` is false.
        """
        if op is None and not ignore_existing:
            raise ValueError("Trying to reset colocation (op is None) but ignore_existing is not True")
        if op is not None and not isinstance(op, Operation):
            op = getattr(op, "op", op)
            if not isinstance(op, Operation):
                raise TypeError(f"colocate_with expects an Operation, Tensor or Variable, got {op!r}.")
        saved_devices = self._scopes.devices
        saved_colocate = self._scopes.colocate
        self._scopes.devices = []
        if ignore_existing:
            self._scopes.colocate = []
        else:
            self._scopes.colocate = list(saved_colocate)
        if op is not None:
            self._scopes.colocate.append(op)
        try:
            yield
        finally:
            self._scopes.devices = saved_devices
            self._scopes.colocate = saved_colocate

    @contextlib.contextmanager
    def gradient_override_map(self, op_type_map: dict[str, str]) -> Iterator[None]:
        """Ops of the mapped types created inside use another registered
        gradient, as ``tf.Graph.gradient_override_map``.

        Args:
          op_type_map: op type (``'Identity'``, ``'Relu'``) -> the name a
            gradient function was registered under (``tf.RegisterGradient``).
            The lookup happens when ``tf.gradients`` differentiates the op.

        Raises:
          TypeError: not a dict, or a key or value is not a string.
        """
        if not isinstance(op_type_map, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in op_type_map.items()
        ):
            raise TypeError("op_type_map must be a dictionary mapping strings to strings")
        saved = dict(self._gradient_override_map)
        self._gradient_override_map.update(op_type_map)
        try:
            yield
        finally:
            self._gradient_override_map = saved

    # -- collections ----------------------------------------------------------

    def add_to_collection(self, name: str, value: object) -> None:
        with self._lock:
            self._collections.setdefault(name, []).append(value)

    def add_to_collections(self, names: Iterable[str] | str, value: object) -> None:
        if isinstance(names, str):
            names = [names]
        for n in set(names):
            self.add_to_collection(n, value)

    def get_collection_ref(self, name: str) -> list[Any]:
        with self._lock:
            return self._collections.setdefault(name, [])

    def get_collection(self, name: str, scope: str | None = None) -> list[Any]:
        with self._lock:
            items = list(self._collections.get(name, []))
        if scope is None:
            return items
        pat = re.compile(scope)
        return [x for x in items if pat.match(getattr(x, "name", "") or "")]

    def get_all_collection_keys(self) -> list[str]:
        return [k for k, v in self._collections.items() if v]

    def clear_collection(self, name: str) -> None:
        with self._lock:
            self._collections.pop(name, None)

    def __repr__(self) -> str:
        return f"<jaxsess.Graph with {len(self._ops)} ops at {id(self):#x}>"

    def _repr_html_(self) -> str:
        """Jupyter's display: an HTML summary of the ops and the graph's picture."""
        return _display.graph_html(self)

    def _repr_svg_(self) -> str | None:
        """The graph's picture alone (``None`` without graphviz, or past
        :data:`jaxsess._core._display.MAX_PICTURE_OPS` ops)."""
        return _display.graph_svg(self)

    def visualize(self, *, max_depth: int | None = None, show_shapes: bool = True, rankdir: str = "TB") -> Any:
        return _display.visualize(self, max_depth=max_depth, show_shapes=show_shapes, rankdir=rankdir)

    visualize.__doc__ = _display.visualize.__doc__


def _merge_device(outer: str, inner: str) -> str:

    return merge_device(outer, inner)


_default_graph_lock = threading.Lock()
_global_default_graph: Graph | None = None


def get_default_graph() -> Graph:
    """The innermost graph made default in this thread, else the global default.

    As ``tf.compat.v1.get_default_graph``.
    """
    for entry in reversed(_context.execution_stack()):
        if isinstance(entry, Graph):
            return entry
    global _global_default_graph
    g = _global_default_graph
    if g is None:
        with _default_graph_lock:
            if _global_default_graph is None:
                _global_default_graph = Graph()
            g = _global_default_graph
    return g


def reset_default_graph() -> None:
    """Replaces the global default graph with a new, empty one.

    Raises:
      AssertionError: called inside a ``with graph.as_default()`` block or
        while a default session is active, as TF1.
    """
    if any(isinstance(e, Graph) for e in _context.execution_stack()) or _context.session_stack():
        raise AssertionError(
            "Do not use tf.reset_default_graph() to clear nested graphs. If you need a "
            "cleared graph, exit the nesting and create a new graph."
        )
    global _global_default_graph
    with _default_graph_lock:
        _global_default_graph = Graph()


def name_scope(
    name: str | None, default_name: str | None = None, values: Iterable[TensorLike] | None = None
) -> AbstractContextManager[str]:
    """``get_default_graph().name_scope(name or default_name)``, as ``tf.compat.v1.name_scope``."""
    return get_default_graph().name_scope(name if name is not None else default_name)


def control_dependencies(
    control_inputs: Iterable[Tensor | Operation | SupportsGraphElement] | None,
) -> AbstractContextManager[None]:
    """As ``tf.control_dependencies`` on the default graph."""
    return get_default_graph().control_dependencies(control_inputs)


def device(device_name: DeviceLike) -> AbstractContextManager[None]:
    """As ``tf.device`` on the default graph: a device string, a ``DeviceSpec``,
    ``None``, or a device function ``fn(op) -> str`` (``replica_device_setter``)."""
    return get_default_graph().device(device_name)


def colocate_with(op: Colocatable | None, ignore_existing: bool = False) -> AbstractContextManager[None]:
    """As ``tf.compat.v1.colocate_with`` on the default graph (see :meth:`Graph.colocate_with`)."""
    return get_default_graph().colocate_with(op, ignore_existing)


def add_to_collection(name: str, value: object) -> None:
    get_default_graph().add_to_collection(name, value)


def add_to_collections(names: Iterable[str] | str, value: object) -> None:
    get_default_graph().add_to_collections(names, value)


def get_collection(key: str, scope: str | None = None) -> list[Any]:
    return get_default_graph().get_collection(key, scope)


def get_collection_ref(key: str) -> list[Any]:
    return get_default_graph().get_collection_ref(key)


def _run_in_session(
    element: Tensor | Operation, feed_dict: FeedDict | None, session: SessionLike | None, what: str
) -> Any:
    """``Tensor.eval`` / ``Operation.run``: ``session.run(element, feed_dict)``
    in ``session`` or this thread's default session (found through
    ``_context``: the graph layer does not import the sessions above it).

    Raises:
      ValueError: no session and no default one, or another graph's session
        (TF1's messages).
      TypeError: the session is not a graph session (an ``EagerSession``).
    """
    if session is None:
        stack = _context.session_stack()
        session = stack[-1] if stack else None
        if session is None:
            if isinstance(element, Tensor):
                raise ValueError(
                    "Cannot evaluate tensor using `eval()`: No default session is registered. "
                    "Use `with sess.as_default()` or pass an explicit session to `eval(session=sess)`"
                )
            raise ValueError(
                "Cannot execute operation using `run()`: No default session is registered. "
                "Use `with sess.as_default():` or pass an explicit session to `run(session=sess)`"
            )
    if not isinstance(getattr(session, "graph", None), Graph) or not hasattr(session, "run"):
        raise TypeError(f"Cannot {what} with {type(session).__name__}: a graph jaxsess.Session is needed.")
    if element.graph is not session.graph:
        raise ValueError(
            f"Cannot use the given session to {what}: the tensor's graph is different from the "
            "session's graph." if isinstance(element, Tensor) else
            f"Cannot use the given session to {what}: the operation's graph is different from the "
            "session's graph."
        )
    return session.run(element, feed_dict)
