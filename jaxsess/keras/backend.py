"""``jaxsess.keras.backend``: Keras' graph-mode backend, as ``tf.compat.v1.keras.backend``.

Per graph, the backend keeps: the Keras session (a jaxsess :class:`Session`
made on first use by :func:`get_session`, unless a session is the default
one or was given to :func:`set_session`), the learning-phase placeholder
(``keras_learning_phase``: a bool ``placeholder_with_default(False)``), the
counters that name layers (``dense``, ``dense_1``, ...) and the variables
Keras made, which :func:`get_session` initialises the first time it sees
them (as Keras 2 in TF1 graph mode: no ``global_variables_initializer``
needed before ``fit``).
"""

from __future__ import annotations

import sys
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxsess import dtypes as _dtypes
from jaxsess._graph_session import Session
from jaxsess._session import get_default_session
from jaxsess.graph._graph import (
    Graph,
    Tensor,
    get_default_graph,
    name_scope as name_scope,
    reset_default_graph,
)
from jaxsess.graph._shape import TensorShape
from jaxsess.ops import (
    control_flow as _control_flow,
    fill_ops as _fill,
    functional_ops as _functional,
    gather_ops as _gather,
    gradients as _gradients,
    logging_ops as _logging,
    math_ops as _math,
    nn_impl as _nn_impl,
    nn_ops as _nn,
    random_ops as _random,
    shape_ops as _shape_ops,
    state_ops as _state_ops,
)
from jaxsess.ops._core import (
    constant as _constant,
    convert_to_tensor,
    executing_eagerly,
    identity as _identity,
    placeholder as _placeholder,
    placeholder_with_default,
    stop_gradient as stop_gradient,
)
from jaxsess.ops.state_ops import Variable
from jaxsess.ops.variable_checks import report_uninitialized_variables

__all__ = [
    "get_session", "set_session", "clear_session", "learning_phase", "set_learning_phase", "get_uid",
    "reset_uids", "placeholder", "variable", "constant", "eval", "get_value", "set_value", "batch_get_value",
    "batch_set_value", "function", "Function", "epsilon", "set_epsilon", "floatx", "set_floatx",
    "image_data_format", "set_image_data_format", "int_shape", "shape", "ndim", "dtype", "count_params",
    "is_placeholder", "mean", "sum", "max", "min", "square", "sqrt", "abs", "exp", "log", "pow", "clip",
    "dot", "cast", "reshape", "concatenate", "argmax", "equal", "maximum", "minimum", "zeros", "ones",
    "relu", "softmax", "sigmoid", "tanh", "gradients", "stop_gradient", "name_scope",
    "categorical_crossentropy", "sparse_categorical_crossentropy", "binary_crossentropy", "track_variable",
    "ones_like", "zeros_like", "eye", "arange", "argmin", "prod", "var", "std", "any", "all",
    "cumsum", "cumprod", "sign", "round", "sin", "cos", "not_equal", "greater", "greater_equal", "less",
    "less_equal", "elu", "softplus", "hard_sigmoid", "l2_normalize", "transpose", "permute_dimensions",
    "expand_dims", "squeeze", "stack", "flatten", "batch_flatten", "tile", "repeat", "repeat_elements",
    "reverse", "gather", "one_hot", "batch_dot", "switch", "in_train_phase", "in_test_phase",
    "dropout", "random_normal", "random_uniform", "truncated_normal", "random_binomial", "bias_add", "conv2d",
    "pool2d", "update", "update_add", "update_sub", "cast_to_floatx", "is_keras_tensor", "print_tensor",
    "map_fn", "foldl",
]

_config: dict[str, Any] = {"epsilon": 1e-7, "floatx": "float32", "image_data_format": "channels_last"}


class _GraphState:
    """What the backend keeps for one graph."""

    def __init__(self) -> None:
        self.session: Any = None
        self.learning_phase: Any = None  # the placeholder
        self.learning_phase_value: int | None = None  # set_learning_phase
        self.uids: dict[str, int] = {}
        self.variables: list[Variable] = []
        self.initialized: set[int] = set()  # id() of the variables get_session initialised or found set
        self.history: dict[Tensor, Any] = {}  # output tensor -> (layer, node index, tensor index)
        self.masks: dict[Tensor, Any] = {}  # output tensor -> its Keras mask (bool [batch, time])
        self.logits: dict[Tensor, Any] = {}  # keras sigmoid/softmax output -> its input (Keras' ``_keras_logits``)


_user_session: list[Any] = [None]
# The graphs whose state holds a Keras-made session (closed by clear_session).
_with_sessions: weakref.WeakSet[Graph] = weakref.WeakSet()


def _state(graph: Graph | None = None) -> _GraphState:
    """The backend's state of ``graph`` (default: the default graph), kept on the graph
    itself so that it goes away with it."""
    graph = graph if graph is not None else get_default_graph()
    st = graph._keras_state
    if st is None:
        st = graph._keras_state = _GraphState()
    return st  # type: ignore[no-any-return]


# -- sessions -----------------------------------------------------------------------


def get_session(op_input_list: Any = ()) -> Any:
    """The session Keras runs in, as ``tf.compat.v1.keras.backend.get_session``.

    The default session if one is active for the default graph, else the one
    given to :func:`set_session`, else a :class:`Session` on the default
    graph made on first use (kept per graph). Variables made by Keras that
    the session has not initialised yet are initialised first.
    """
    if executing_eagerly():
        raise RuntimeError("keras.backend.get_session: there is no Keras session inside an EagerSession "
                           "(layers run at once there; Model.fit/evaluate/predict need graph mode).")
    graph = get_default_graph()
    st = _state(graph)
    session = get_default_session()
    if session is None or session.graph is not graph:
        session = _user_session[0]
        if session is None or session.graph is not graph:
            if st.session is None:
                st.session = Session(graph=graph)
                st.session._close_quietly_on_gc()  # TF's Keras never closes it either
                _with_sessions.add(graph)
            session = st.session
    _initialize_variables(session, st)
    return session


def _initialize_variables(session: Any, st: _GraphState) -> None:
    fresh = [v for v in st.variables if id(v) not in st.initialized]
    if not fresh:
        return
    names = {n.decode() if isinstance(n, bytes) else str(n) for n in session.run(report_uninitialized_variables(fresh))}
    todo = [v.initializer for v in fresh if v.op.name in names]
    if todo:
        session.run(todo)
    st.initialized.update(id(v) for v in fresh)


def set_session(session: Any) -> None:
    """Makes ``session`` the Keras session, as ``tf.compat.v1.keras.backend.set_session``."""
    _user_session[0] = session


def clear_session() -> None:
    """Closes the Keras sessions, forgets the backend's per-graph state and resets
    the default graph, as ``tf.compat.v1.keras.backend.clear_session``."""
    for graph in list(_with_sessions):
        st = graph._keras_state
        if st is not None and st.session is not None:
            st.session.close()
        graph._keras_state = None
    _with_sessions.clear()
    get_default_graph()._keras_state = None
    _user_session[0] = None
    reset_default_graph()


def track_variable(v: Variable) -> None:
    """Marks ``v`` as Keras', so :func:`get_session` initialises it (eager variables are
    initialised when made: nothing to do)."""
    if v._eager_session is None:
        _state(v.graph).variables.append(v)


def get_uid(prefix: str = "") -> int:
    """1, 2, ... per ``prefix`` and graph, as ``tf.compat.v1.keras.backend.get_uid``."""
    st = _state()
    st.uids[prefix] = st.uids.get(prefix, 0) + 1
    return st.uids[prefix]


def reset_uids() -> None:
    """Restarts the layer-name counters of the default graph."""
    _state().uids.clear()


def unique_object_name(base: str) -> str:
    """``base``, then ``base_1``, ``base_2``, ... per graph (Keras' layer names)."""
    n = get_uid(base)
    return base if n == 1 else f"{base}_{n - 1}"


# -- learning phase -----------------------------------------------------------------


def learning_phase() -> Any:
    """The learning phase: the value given to :func:`set_learning_phase`, else the
    graph's bool scalar ``placeholder_with_default(False, name='keras_learning_phase')``
    (fed ``True`` by ``fit``), as ``tf.compat.v1.keras.backend.learning_phase``."""
    st = _state()
    if st.learning_phase_value is not None:
        return st.learning_phase_value
    if st.learning_phase is None:
        with name_scope(None):
            st.learning_phase = placeholder_with_default(False, shape=(), name="keras_learning_phase")
    return st.learning_phase


def _learning_phase_placeholder() -> Any:
    """The placeholder of the default graph, or None (not made yet or a value is set)."""
    st = _state()
    return None if st.learning_phase_value is not None else st.learning_phase


def set_learning_phase(value: int) -> None:
    """Fixes the learning phase to ``0`` (test) or ``1`` (train).

    Raises:
      ValueError: ``value`` is not 0 or 1.
    """
    if value not in (0, 1):
        raise ValueError("Expected learning phase to be 0 or 1.")
    _state().learning_phase_value = int(value)


# -- configuration ------------------------------------------------------------------


def epsilon() -> float:
    """The fuzz factor (``1e-7``), as ``tf.keras.backend.epsilon``."""
    return float(_config["epsilon"])


def set_epsilon(value: float) -> None:
    _config["epsilon"] = float(value)


def floatx() -> str:
    """The default float type name (``'float32'``)."""
    return str(_config["floatx"])


def set_floatx(value: str) -> None:
    """Raises: ValueError: not one of float16, float32, float64."""
    if value not in ("float16", "float32", "float64"):
        raise ValueError(f"Unknown floatx type: {value!r}")
    _config["floatx"] = value


def image_data_format() -> str:
    return str(_config["image_data_format"])


def set_image_data_format(data_format: str) -> None:
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError(f"Unknown data_format: {data_format!r}")
    _config["image_data_format"] = data_format


# -- tensors and variables ----------------------------------------------------------


def placeholder(shape: Any = None, ndim: int | None = None, dtype: Any = None, sparse: bool = False,
                name: str | None = None) -> Any:
    """A placeholder of ``shape`` (or ``ndim`` unknown dimensions), dtype ``floatx()`` by default,
    as ``tf.compat.v1.keras.backend.placeholder``.

    Raises:
      NotImplementedError: ``sparse=True``.
    """
    if sparse:
        raise NotImplementedError("keras.backend.placeholder(sparse=True) is not supported.")
    if shape is None and ndim is not None:
        shape = (None,) * ndim
    return _placeholder(dtype or floatx(), shape=shape, name=name)


def is_placeholder(x: Any) -> bool:
    return isinstance(x, Tensor) and x.op.type == "Placeholder"


def variable(value: Any, dtype: Any = None, name: str | None = None, constraint: Any = None) -> Variable:
    """A variable holding ``value`` (dtype ``floatx()`` by default), initialised by
    :func:`get_session`, as ``tf.compat.v1.keras.backend.variable``."""
    arr: np.ndarray = np.asarray(value, dtype=_dtypes.as_dtype(dtype or floatx()).as_numpy_dtype)
    v = Variable(arr, name=name or "Variable", constraint=constraint)
    track_variable(v)
    return v


def constant(value: Any, dtype: Any = None, shape: Any = None, name: str | None = None) -> Any:
    return _constant(value, dtype=dtype or floatx(), shape=shape, name=name or "Const")


def eval(x: Any) -> Any:  # noqa: A001 - Keras' name
    """The value of ``x`` in the Keras session (NumPy)."""
    return get_session().run(x)


def get_value(x: Any) -> Any:
    """The value of the variable ``x`` in the Keras session (NumPy)."""
    return get_session().run(x)


def batch_get_value(tensors: Sequence[Any]) -> list[Any]:
    """The values (NumPy) of variables or tensors, from the Keras session (eagerly: at once)."""
    if executing_eagerly():
        return [np.asarray(t.value() if isinstance(t, Variable) else t) for t in tensors]
    return list(get_session().run(list(tensors))) if tensors else []


def set_value(x: Variable, value: Any) -> None:
    """Assigns ``value`` (NumPy) to the variable ``x`` in the Keras session."""
    batch_set_value([(x, value)])


def batch_set_value(tuples: Sequence[tuple[Variable, Any]]) -> None:
    """Assigns each ``(variable, value)`` pair, through one placeholder per variable
    (made once, as Keras' ``_assign_placeholder``)."""
    if not tuples:
        return
    if executing_eagerly():
        for x, value in tuples:
            x.assign(np.asarray(value, dtype=x.dtype.as_numpy_dtype))
        return
    session = get_session()
    ops, feed = [], {}
    for x, value in tuples:
        value = np.asarray(value, dtype=x.dtype.as_numpy_dtype)
        assign = _assigns.get(x)
        if assign is None:
            with name_scope(None):
                ph = _placeholder(x.dtype, shape=x.shape, name=x.op.name.replace("/", "_") + "_assign_ph")
                assign = (ph, x.assign(ph))
            _assigns[x] = assign
        ops.append(assign[1])
        feed[assign[0]] = value
    session.run(ops, feed_dict=feed)


_assigns: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def int_shape(x: Any) -> tuple[int | None, ...] | None:
    """The static shape as a tuple of ints and Nones, or None for unknown rank."""
    shape = TensorShape(x.shape if not isinstance(x, Variable) else x.get_shape())
    return None if shape.ndims is None else tuple(shape.as_list())


def shape(x: Any) -> Any:
    return _shape_ops.shape(x)


def ndim(x: Any) -> int | None:
    s = int_shape(x)
    return None if s is None else len(s)


def dtype(x: Any) -> str:
    return str(_dtypes.as_dtype(x.dtype).name)


def count_params(x: Any) -> int:
    return int(np.prod([int(d or 0) for d in int_shape(x) or ()]))


# -- operations ---------------------------------------------------------------------


def mean(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    return _math.reduce_mean(x, axis=axis, keepdims=keepdims)


def sum(x: Any, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001 - Keras' name
    return _math.reduce_sum(x, axis=axis, keepdims=keepdims)


def max(x: Any, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001 - Keras' name
    return _math.reduce_max(x, axis=axis, keepdims=keepdims)


def min(x: Any, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001 - Keras' name
    return _math.reduce_min(x, axis=axis, keepdims=keepdims)


def square(x: Any) -> Any:
    return _math.square(x)


def sqrt(x: Any) -> Any:
    """``sqrt(max(x, 0))``, as Keras."""
    return _math.sqrt(_math.maximum(x, 0.0))


def abs(x: Any) -> Any:  # noqa: A001 - Keras' name
    return _math.abs(x)


def exp(x: Any) -> Any:
    return _math.exp(x)


def log(x: Any) -> Any:
    return _math.log(x)


def pow(x: Any, a: Any) -> Any:  # noqa: A001 - Keras' name
    return _math.pow(x, a)


def clip(x: Any, min_value: Any, max_value: Any) -> Any:
    return _math.clip_by_value(x, min_value, max_value)


def dot(x: Any, y: Any) -> Any:
    return _math.matmul(x, y)


def cast(x: Any, dtype: Any) -> Any:
    return _math.cast(x, dtype)


def reshape(x: Any, shape: Any) -> Any:
    return _shape_ops.reshape(x, shape)


def concatenate(tensors: Sequence[Any], axis: int = -1) -> Any:
    return _shape_ops.concat(list(tensors), axis)


def argmax(x: Any, axis: int = -1) -> Any:
    return _math.argmax(x, axis)


def equal(x: Any, y: Any) -> Any:
    return _math.equal(x, y)


def maximum(x: Any, y: Any) -> Any:
    return _math.maximum(x, y)


def minimum(x: Any, y: Any) -> Any:
    return _math.minimum(x, y)


def zeros(shape: Any, dtype: Any = None, name: str | None = None) -> Variable:
    return variable(np.zeros(shape), dtype=dtype, name=name)


def ones(shape: Any, dtype: Any = None, name: str | None = None) -> Variable:
    return variable(np.ones(shape), dtype=dtype, name=name)


def relu(x: Any) -> Any:
    return _nn.relu(x)


def softmax(x: Any, axis: int = -1) -> Any:
    return _nn.softmax(x, axis=axis)


def sigmoid(x: Any) -> Any:
    return _math.sigmoid(x)


def tanh(x: Any) -> Any:
    return _math.tanh(x)


def gradients(loss: Any, variables: Any) -> Any:
    return _gradients.gradients(loss, variables)


# -- losses (Keras 2's backend formulas) ---------------------------------------------


def cache_logits(output: Any, logits: Any) -> Any:
    """Remembers that the graph tensor ``output`` is a Keras ``sigmoid``/``softmax`` of ``logits``
    (Keras' ``output._keras_logits``); returns ``output``."""
    if isinstance(output, Tensor):
        _state(output.graph).logits[output] = logits
    return output


def _logits_of(output: Any, op_type: str, from_logits: bool) -> Any:
    """The logits behind ``output`` (Keras' ``_get_logits``): those of a Keras ``sigmoid``/``softmax``
    activation (whichever the loss; as Keras), else the input of an ``op_type`` op."""
    if from_logits:
        return output
    if isinstance(output, Tensor):
        cached = _state(output.graph).logits.get(output)
        if cached is not None:
            return cached
        if output.op.type == op_type:
            return output.op.inputs[0]
    return None


def categorical_crossentropy(target: Any, output: Any, from_logits: bool = False, axis: int = -1) -> Any:
    """``-sum(target * log(output), axis)`` with ``output`` normalised and clipped to
    ``[eps, 1 - eps]``; softmax cross-entropy on the logits when ``from_logits`` or
    ``output`` comes straight from a ``Softmax``, as Keras 2."""
    target = convert_to_tensor(target)
    output = convert_to_tensor(output)
    logits = _logits_of(output, "Softmax", from_logits)
    if logits is not None:
        return _nn.softmax_cross_entropy_with_logits_v2(labels=target, logits=logits, axis=axis)
    output = _math.truediv(output, _math.reduce_sum(output, axis, keepdims=True))
    eps = _constant(epsilon(), dtype=output.dtype)
    output = _math.clip_by_value(output, eps, _math.subtract(1.0, eps))
    return _math.negative(_math.reduce_sum(_math.multiply(target, _math.log(output)), axis))


def sparse_categorical_crossentropy(target: Any, output: Any, from_logits: bool = False, axis: int = -1) -> Any:
    """Cross-entropy against integer class ids (``target`` flattened), as Keras 2.

    Returns a tensor of the shape of ``output`` without its last axis.
    """
    output = convert_to_tensor(output)
    target = convert_to_tensor(target)
    logits = _logits_of(output, "Softmax", from_logits)
    if logits is None:
        eps = _constant(epsilon(), dtype=output.dtype)
        logits = _math.log(_math.clip_by_value(output, eps, _math.subtract(1.0, eps)))
    labels = _shape_ops.reshape(_math.cast(target, _dtypes.int64), [-1])
    out_shape = TensorShape(logits.shape)
    if out_shape.ndims is not None and out_shape.ndims > 2:
        flat = _shape_ops.reshape(logits, [-1, out_shape[-1]])
        res = _nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=flat)
        return _shape_ops.reshape(res, _shape_ops.shape(logits)[:-1])
    return _nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)


def binary_crossentropy(target: Any, output: Any, from_logits: bool = False) -> Any:
    """Element-wise binary cross-entropy, as Keras 2: sigmoid cross-entropy on the
    logits when ``from_logits`` or ``output`` comes from a ``Sigmoid``, else
    ``-(t log(o + eps) + (1 - t) log(1 - o + eps))`` with ``o`` clipped to
    ``[eps, 1 - eps]``."""
    target = convert_to_tensor(target)
    output = convert_to_tensor(output)
    logits = _logits_of(output, "Sigmoid", from_logits)
    if logits is not None:
        return _nn.sigmoid_cross_entropy_with_logits(labels=target, logits=logits)
    eps = _constant(epsilon(), dtype=output.dtype)
    output = _math.clip_by_value(output, eps, _math.subtract(1.0, eps))
    bce = _math.multiply(target, _math.log(_math.add(output, eps)))
    bce = _math.add(bce, _math.multiply(_math.subtract(1.0, target),
                                        _math.log(_math.add(_math.subtract(1.0, output), eps))))
    return _math.negative(bce)


# -- functions ----------------------------------------------------------------------


class Function:
    """``f(list_of_values) -> list_of_outputs``: runs ``outputs`` (and ``updates``) in the
    Keras session, feeding ``inputs``, as ``tf.compat.v1.keras.backend.function``."""

    def __init__(self, inputs: Sequence[Any], outputs: Sequence[Any], updates: Sequence[Any] | None = None,
                 name: str | None = None, feed_dict: dict[Any, Any] | None = None) -> None:
        self.inputs = list(inputs)
        self.outputs = list(outputs)
        self.updates = list(updates or [])
        self.name = name
        self.feed_dict = dict(feed_dict or {})

    def __call__(self, inputs: Sequence[Any]) -> list[Any]:
        if len(inputs) != len(self.inputs):
            raise ValueError(f"Function {self.name or ''!s} expects {len(self.inputs)} inputs, got {len(inputs)}.")
        feed = dict(self.feed_dict)
        feed.update(zip(self.inputs, inputs, strict=True))
        out = get_session().run([self.outputs, self.updates], feed_dict=feed)
        return list(out[0])


def function(inputs: Sequence[Any], outputs: Any, updates: Sequence[Any] | None = None,
             name: str | None = None, **kwargs: Any) -> Callable[[Sequence[Any]], list[Any]]:
    """A :class:`Function` (see there)."""
    single = not isinstance(outputs, list | tuple)
    f = Function(inputs, [outputs] if single else outputs, updates, name, kwargs.pop("feed_dict", None))
    if kwargs:
        raise ValueError(f"Invalid argument {sorted(kwargs)[0]!r} passed to K.function.")
    if single:
        return lambda values: f(values)[0]  # type: ignore[no-any-return]
    return f


# -- more of Keras' backend functions (as ``tf_keras.backend``, TF1 graph mode) ------------------


def ones_like(x: Any, dtype: Any = None, name: str | None = None) -> Any:
    return _fill.ones_like(x, dtype=dtype, name=name)


def zeros_like(x: Any, dtype: Any = None, name: str | None = None) -> Any:
    return _fill.zeros_like(x, dtype=dtype, name=name)


def eye(size: int, dtype: Any = None, name: str | None = None) -> Variable:
    """An identity-matrix *variable*, as Keras' ``eye``."""
    return variable(np.eye(size), dtype=dtype, name=name)


def arange(start: Any, stop: Any = None, step: Any = 1, dtype: str = "int32") -> Any:
    """``range(start, stop, step)`` cast to ``dtype`` (``int32``), as Keras' ``arange``."""
    if stop is None and isinstance(start, int | float) and start < 0:
        start = 0
    result = _fill.range(start, limit=stop, delta=step, name="arange")
    return result if dtype == "int32" else cast(result, dtype)


def argmin(x: Any, axis: int = -1) -> Any:
    return _math.argmin(x, axis)


def _bool_to_floatx(x: Any) -> Any:
    x = convert_to_tensor(x)
    return cast(x, floatx()) if x.dtype == _dtypes.bool else x


def prod(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    return _math.reduce_prod(x, axis=axis, keepdims=keepdims)


def var(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    return _nn_impl.reduce_variance(_bool_to_floatx(x), axis=axis, keepdims=keepdims)


def std(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    return _nn_impl.reduce_std(_bool_to_floatx(x), axis=axis, keepdims=keepdims)


def any(x: Any, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001 - Keras' name
    return _math.reduce_any(cast(x, _dtypes.bool), axis=axis, keepdims=keepdims)


def all(x: Any, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001 - Keras' name
    return _math.reduce_all(cast(x, _dtypes.bool), axis=axis, keepdims=keepdims)


def cumsum(x: Any, axis: int = 0) -> Any:
    return _math.cumsum(x, axis=axis)


def cumprod(x: Any, axis: int = 0) -> Any:
    return _math.cumprod(x, axis=axis)


def sign(x: Any) -> Any:
    return _math.sign(x)


def round(x: Any) -> Any:  # noqa: A001 - Keras' name
    return _math.round(x)


def sin(x: Any) -> Any:
    return _math.sin(x)


def cos(x: Any) -> Any:
    return _math.cos(x)


def not_equal(x: Any, y: Any) -> Any:
    return _math.not_equal(x, y)


def greater(x: Any, y: Any) -> Any:
    return _math.greater(x, y)


def greater_equal(x: Any, y: Any) -> Any:
    return _math.greater_equal(x, y)


def less(x: Any, y: Any) -> Any:
    return _math.less(x, y)


def less_equal(x: Any, y: Any) -> Any:
    return _math.less_equal(x, y)


def elu(x: Any, alpha: float = 1.0) -> Any:
    """``x`` if positive else ``alpha * (exp(x) - 1)``, as Keras' ``elu``."""
    res = _nn.elu(x)
    return res if alpha == 1 else _math.where(_math.greater(x, 0), res, _math.multiply(alpha, res))


def softplus(x: Any) -> Any:
    return _nn.softplus(x)


def hard_sigmoid(x: Any) -> Any:
    """``clip(0.2 x + 0.5, 0, 1)``, as Keras 2's ``hard_sigmoid``."""
    return _math.clip_by_value(_math.add(_math.multiply(x, 0.2), 0.5), 0.0, 1.0)


def l2_normalize(x: Any, axis: Any = None) -> Any:
    return _nn.l2_normalize(x, axis=axis)


def transpose(x: Any) -> Any:
    return _shape_ops.transpose(x)


def permute_dimensions(x: Any, pattern: Sequence[int]) -> Any:
    return _shape_ops.transpose(x, perm=list(pattern))


def expand_dims(x: Any, axis: int = -1) -> Any:
    return _shape_ops.expand_dims(x, axis)


def squeeze(x: Any, axis: int) -> Any:
    return _shape_ops.squeeze(x, [axis])


def stack(x: Sequence[Any], axis: int = 0) -> Any:
    return _shape_ops.stack(list(x), axis=axis)


def flatten(x: Any) -> Any:
    return _shape_ops.reshape(x, [-1])


def batch_flatten(x: Any) -> Any:
    """``[batch, ...] -> [batch, prod(...)]``, as Keras' ``batch_flatten``."""
    return _shape_ops.reshape(x, _shape_ops.stack([-1, _math.reduce_prod(shape(x)[1:])]))


def tile(x: Any, n: Any) -> Any:
    return _shape_ops.tile(x, [n] if isinstance(n, int) else n)


def repeat(x: Any, n: int) -> Any:
    """``[samples, dim] -> [samples, n, dim]``, as Keras' ``repeat``."""
    return _shape_ops.tile(_shape_ops.expand_dims(x, 1), [1, n, 1])


def repeat_elements(x: Any, rep: int, axis: int) -> Any:
    """Each slice along ``axis`` repeated ``rep`` times (``np.repeat``), as Keras' ``repeat_elements``.

    Raises:
      ValueError: ``x`` has no static rank.
    """
    rank = ndim(x)
    if rank is None:
        raise ValueError(f"repeat_elements needs a tensor of known rank, got {x}.")
    axis = axis % rank
    reps = [1] * (rank + 1)
    reps[axis + 1] = rep
    tiled = _shape_ops.tile(_shape_ops.expand_dims(x, axis + 1), reps)
    factors = [1] * rank
    factors[axis] = rep
    return _shape_ops.reshape(tiled, _math.multiply(shape(x), _constant(factors, _dtypes.int32)))


def reverse(x: Any, axes: Any) -> Any:
    return _shape_ops.reverse(x, [axes] if isinstance(axes, int) else list(axes))


def gather(reference: Any, indices: Any) -> Any:
    return _gather.gather(reference, indices)


def one_hot(indices: Any, num_classes: int) -> Any:
    return _gather.one_hot(indices, depth=num_classes, axis=-1)


def batch_dot(x: Any, y: Any, axes: Any = None) -> Any:
    """The dot product of ``x`` and ``y`` sample by sample over ``axes`` (default: the last of
    ``x`` with the second-to-last of ``y``, or the last for a 2-D ``y``), as Keras 2's ``batch_dot``
    (2-D results keep a trailing axis of 1 when both inputs are 2-D).

    Raises:
      ValueError: ``axes`` includes the batch axis, or the summed dimensions differ.
    """
    x, y = convert_to_tensor(x), convert_to_tensor(y)
    x_shape, y_shape = int_shape(x) or (), int_shape(y) or ()
    x_ndim, y_ndim = len(x_shape), len(y_shape)
    if isinstance(axes, int):
        axes = [axes, axes]
    if axes is None:
        axes = [x_ndim - 1, y_ndim - 1] if y_ndim == 2 else [x_ndim - 1, y_ndim - 2]
    a0, a1 = [a + n if a < 0 else a for a, n in zip(axes, (x_ndim, y_ndim), strict=True)]
    if 0 in (a0, a1):
        raise ValueError(f"Cannot perform batch_dot over axis 0. If your inputs are not batched, add a dummy "
                         f"batch dimension to your inputs using K.expand_dims(x, 0). Received axes={axes}")
    d1, d2 = x_shape[a0], y_shape[a1]
    if d1 is not None and d2 is not None and d1 != d2:
        raise ValueError(f"Cannot do batch_dot on inputs with shapes {x_shape} and {y_shape} with axes={axes}. "
                         f"x.shape[{a0}] != y.shape[{a1}] ({d1} != {d2}).")
    orig_x_ndim, orig_y_ndim = x_ndim, y_ndim
    if x_ndim == 2:
        x = _shape_ops.expand_dims(x, 1)
        a0 += 1
        x_ndim += 1
    if y_ndim == 2:
        y = _shape_ops.expand_dims(y, 2)
        y_ndim += 1
    if a0 != x_ndim - 1:
        pattern = list(range(x_ndim))
        for i in range(a0, x_ndim - 1):
            pattern[i] = pattern[i + 1]
        pattern[-1] = a0
        x = _shape_ops.transpose(x, pattern)
    if a1 != 1:
        pattern = list(range(y_ndim))
        for i in range(a1, 1, -1):
            pattern[i] = pattern[i - 1]
        pattern[1] = a1
        y = _shape_ops.transpose(y, pattern)
    x_squashed, y_squashed = x_ndim > 3, y_ndim > 3
    if x_squashed:
        xs = shape(x)
        x_mid = xs[1:-1]
        x = _shape_ops.reshape(x, _shape_ops.stack([xs[0], -1, xs[-1]]))
    if y_squashed:
        ys = shape(y)
        y_trail = ys[2:]
        y = _shape_ops.reshape(y, _shape_ops.stack([ys[0], ys[1], -1]))
    result = _math.matmul(x, y)
    if x_squashed or y_squashed:
        out_shape = shape(result)
        if x_squashed:
            out_shape = _shape_ops.concat([out_shape[:1], x_mid, out_shape[-1:]], 0)
        if y_squashed:
            out_shape = _shape_ops.concat([out_shape[:-1], y_trail], 0)
        result = _shape_ops.reshape(result, out_shape)
    if orig_x_ndim == 2:
        result = _shape_ops.squeeze(result, [1])
    elif orig_y_ndim == 2:
        result = _shape_ops.squeeze(result, [-1])
    return result


def switch(condition: Any, then_expression: Any, else_expression: Any) -> Any:
    """``then_expression`` where ``condition`` else ``else_expression``, as Keras' ``switch``: a
    scalar condition picks a branch (``cond``; callables are called in it), a tensor one picks
    elements (broadcast over the trailing axes).

    Raises:
      ValueError: ``condition`` has a higher rank than the expressions.
    """
    condition = convert_to_tensor(condition)
    if condition.dtype != _dtypes.bool:
        condition = cast(condition, _dtypes.bool)
    cond_ndim = ndim(condition)
    if not cond_ndim:
        then_fn = then_expression if callable(then_expression) else (lambda: then_expression)
        else_fn = else_expression if callable(else_expression) else (lambda: else_expression)
        return _control_flow.cond(condition, then_fn, else_fn)
    if callable(then_expression):
        then_expression = then_expression()
    if callable(else_expression):
        else_expression = else_expression()
    expr_ndim = ndim(then_expression)
    if expr_ndim is not None and cond_ndim > expr_ndim:
        raise ValueError(f"Rank of `condition` should be less than or equal to rank of `then_expression` and "
                         f"`else_expression`. ndim(condition)={cond_ndim}, ndim(then_expression)={expr_ndim}")
    if cond_ndim > 1 and expr_ndim is not None:
        cond_shape = _shape_ops.concat([shape(condition), _constant([1] * (expr_ndim - cond_ndim), _dtypes.int32)],
                                       0)
        condition = _shape_ops.reshape(condition, cond_shape)
        expr_shape = shape(then_expression)
        tile_shape = _math.where(_math.greater(_math.subtract(expr_shape, cond_shape), 0), expr_shape,
                                 _fill.ones_like(expr_shape))
        condition = _shape_ops.tile(condition, tile_shape)
    return _math.where(condition, then_expression, else_expression)


def in_train_phase(x: Any, alt: Any, training: Any = None) -> Any:
    """``x`` in the training phase, ``alt`` otherwise (``training`` default: the learning phase),
    as Keras' ``in_train_phase``."""
    if training is None:
        training = learning_phase()
    if training is True or (isinstance(training, int) and training == 1):
        return x() if callable(x) else x
    if training is False or (isinstance(training, int) and training == 0):
        return alt() if callable(alt) else alt
    return switch(training, x, alt)


def in_test_phase(x: Any, alt: Any, training: Any = None) -> Any:
    """``x`` in the test phase, ``alt`` otherwise, as Keras' ``in_test_phase``."""
    return in_train_phase(alt, x, training=training)


def dropout(x: Any, level: float, noise_shape: Any = None, seed: int | None = None) -> Any:
    """Inverted dropout at rate ``level``, as Keras' ``dropout``."""
    return _random.dropout(x, rate=level, noise_shape=noise_shape, seed=seed)


def random_normal(shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = None,
                  seed: int | None = None) -> Any:
    return _random.random_normal(shape, mean=mean, stddev=stddev, dtype=dtype or floatx(), seed=seed)


def random_uniform(shape: Any, minval: float = 0.0, maxval: float = 1.0, dtype: Any = None,
                   seed: int | None = None) -> Any:
    return _random.random_uniform(shape, minval=minval, maxval=maxval, dtype=dtype or floatx(), seed=seed)


def truncated_normal(shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = None,
                     seed: int | None = None) -> Any:
    return _random.truncated_normal(shape, mean=mean, stddev=stddev, dtype=dtype or floatx(), seed=seed)


def random_binomial(shape: Any, p: float = 0.0, dtype: Any = None, seed: int | None = None) -> Any:
    """Ones with probability ``p``, else zeros, as Keras' ``random_binomial``."""
    dtype = dtype or floatx()
    return _math.where(_math.less(random_uniform(shape, dtype=dtype, seed=seed), p),
                       _fill.ones(shape, dtype=dtype), _fill.zeros(shape, dtype=dtype))


def bias_add(x: Any, bias: Any, data_format: str | None = None) -> Any:
    """``x + bias`` over the channels axis, as Keras' ``bias_add``."""
    fmt = data_format or image_data_format()
    return _nn.bias_add(x, bias, data_format="NCHW" if fmt == "channels_first" and ndim(x) == 4 else None)


def conv2d(x: Any, kernel: Any, strides: Any = (1, 1), padding: str = "valid", data_format: str | None = None,
           dilation_rate: Any = (1, 1)) -> Any:
    """2-D convolution of channels-last ``x``, as Keras' ``conv2d``.

    Raises:
      NotImplementedError: ``data_format='channels_first'``.
    """
    if (data_format or image_data_format()) != "channels_last":
        raise NotImplementedError("keras.backend.conv2d: only data_format='channels_last' is supported.")
    return _nn.conv2d(x, kernel, strides=[1, *strides, 1], padding=padding.upper(),
                      dilations=[1, *dilation_rate, 1])


def pool2d(x: Any, pool_size: Any, strides: Any = (1, 1), padding: str = "valid", data_format: str | None = None,
           pool_mode: str = "max") -> Any:
    """2-D max or average pooling of channels-last ``x``, as Keras' ``pool2d``.

    Raises:
      ValueError: an unknown ``pool_mode``.
      NotImplementedError: ``data_format='channels_first'``.
    """
    if (data_format or image_data_format()) != "channels_last":
        raise NotImplementedError("keras.backend.pool2d: only data_format='channels_last' is supported.")
    if pool_mode not in ("max", "avg"):
        raise ValueError(f"Invalid pool_mode: {pool_mode}")
    fn = _nn.max_pool if pool_mode == "max" else _nn.avg_pool
    return fn(x, [1, *pool_size, 1], [1, *strides, 1], padding.upper())


def update(x: Variable, new_x: Any) -> Any:
    return _state_ops.assign(x, new_x)


def update_add(x: Variable, increment: Any) -> Any:
    return _state_ops.assign_add(x, increment)


def update_sub(x: Variable, decrement: Any) -> Any:
    return _state_ops.assign_sub(x, decrement)


def cast_to_floatx(x: Any) -> np.ndarray:
    return np.asarray(x, dtype=floatx())


def is_keras_tensor(x: Any) -> bool:
    """Whether ``x`` was made by a Keras layer (or ``Input``), as Keras' ``is_keras_tensor``.

    Raises:
      ValueError: ``x`` is not a tensor.
    """
    if not isinstance(x, Tensor | Variable):
        raise ValueError(f"Unexpectedly found an instance of type `{type(x)}`. Expected a symbolic tensor "
                         "instance.")
    return isinstance(x, Tensor) and x in _state(x.graph).history


def print_tensor(x: Any, message: str = "", summarize: int = 3) -> Any:
    """``x``, printing ``message`` and its value (to stdout) when evaluated, as Keras' ``print_tensor``."""
    op = _logging.print_v2(message, x, output_stream=sys.stdout, summarize=summarize)
    with get_default_graph().control_dependencies([op]):
        return _identity(x)


def map_fn(fn: Callable[[Any], Any], elems: Any, name: str | None = None, dtype: Any = None) -> Any:
    return _functional.map_fn(fn, elems, name=name, dtype=dtype)


def foldl(fn: Callable[[Any, Any], Any], elems: Any, initializer: Any = None, name: str | None = None) -> Any:
    return _functional.foldl(fn, elems, initializer=initializer, name=name)
