"""``jaxsess._tf1.keras.backend``: Keras' graph-mode backend, as ``tf.compat.v1.keras.backend``.

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
import warnings
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import (
    constant as _constant,
    convert_to_tensor,
    executing_eagerly,
    identity as _core_identity,
    placeholder as _placeholder,
    placeholder_with_default,
    stop_gradient as stop_gradient,
)
from jaxsess._core.graph._graph import (
    Graph,
    Tensor,
    get_default_graph,
    name_scope as name_scope,
    reset_default_graph,
)
from jaxsess._core.graph._shape import TensorShape
from jaxsess._core.runtime._graph_session import Session
from jaxsess._core.runtime._session import get_default_session
from jaxsess._tf1.ops import (
    control_flow as _control_flow,
    conv_ops as _conv,
    fill_ops as _fill,
    functional_ops as _functional,
    gather_ops as _gather,
    gradients as _gradients,
    image_ops as _image,
    linalg_ops as _linalg,
    logging_ops as _logging,
    math_ops as _math,
    nn_impl as _nn_impl,
    nn_ops as _nn,
    nn_surface_ops as _nn_surface,
    normalization as _normalization,
    random_ops as _random,
    shape_ops as _shape_ops,
    sparse_ops as _sparse_ops,
    state_ops as _state_ops,
)
from jaxsess._tf1.ops.sparse_tensor import SparseTensor
from jaxsess._tf1.ops.state_ops import Variable
from jaxsess._tf1.ops.variable_checks import report_uninitialized_variables

__all__ = [
    "get_session", "set_session", "clear_session", "learning_phase", "set_learning_phase", "get_uid",
    "reset_uids", "placeholder", "variable", "constant", "eval", "get_value", "set_value", "batch_get_value",
    "batch_set_value", "function", "Function", "epsilon", "set_epsilon", "floatx", "set_floatx",
    "image_data_format", "set_image_data_format", "int_shape", "shape", "ndim", "dtype", "count_params",
    "is_placeholder", "mean", "sum", "max", "min", "square", "sqrt", "abs", "exp", "log", "pow", "clip",
    "dot", "cast", "reshape", "concatenate", "argmax", "equal", "maximum", "minimum", "zeros", "ones",
    "relu", "softmax", "sigmoid", "tanh", "gradients", "stop_gradient", "name_scope",
    "categorical_crossentropy", "sparse_categorical_crossentropy", "binary_crossentropy", "track_variable",
    # Keras 2's other backend functions (below)
    "all", "any", "arange", "argmin", "batch_dot", "batch_flatten", "batch_normalization", "bias_add",
    "cast_to_floatx", "conv1d", "conv2d", "conv2d_transpose", "cos", "cumprod", "cumsum", "dropout", "elu",
    "expand_dims", "eye", "flatten", "foldl", "foldr", "gather", "greater", "greater_equal", "hard_sigmoid",
    "in_test_phase", "in_top_k", "in_train_phase", "is_keras_tensor", "is_sparse", "l2_normalize", "less",
    "less_equal", "manual_variable_initialization", "map_fn", "moving_average_update", "not_equal", "one_hot",
    "ones_like", "permute_dimensions", "pool2d", "print_tensor", "prod", "random_bernoulli", "random_binomial",
    "random_normal", "random_normal_variable", "random_uniform", "random_uniform_variable", "repeat",
    "repeat_elements", "resize_images", "reverse", "round", "sign", "sin", "softplus", "softsign",
    "spatial_2d_padding", "squeeze", "stack", "std", "switch", "temporal_padding", "tile", "to_dense",
    "transpose", "truncated_normal", "update", "update_add", "update_sub", "var", "zeros_like",
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
    want = _dtypes.as_dtype(dtype or floatx())
    init: Any
    if isinstance(value, Tensor):  # a tensor initial value (an initializer's output)
        init = value if value.dtype.base_dtype == want else _math.cast(value, want)
    else:
        init = np.asarray(value, dtype=want.as_numpy_dtype)
    v = Variable(init, name=name or "Variable", constraint=constraint, use_resource=True)
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


# -- Keras 2's other backend functions (tf_keras/src/backend.py, graph mode) -----------

_py_any = any  # noqa: A001 - the builtins, before the Keras names below shadow them


def _keras_seed(seed: int | None, high: float) -> int:
    # Keras draws an op seed from NumPy's global generator when none is given.
    return int(np.random.randint(int(high))) if seed is None else int(seed)


def all(x: Any, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001 - Keras' name
    """Logical AND over ``axis`` of ``x`` cast to bool, as ``tf.keras.backend.all``."""
    return _math.reduce_all(_math.cast(x, _dtypes.bool), axis, keepdims)


def any(x: Any, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A001 - Keras' name
    """Logical OR over ``axis`` of ``x`` cast to bool, as ``tf.keras.backend.any``."""
    return _math.reduce_any(_math.cast(x, _dtypes.bool), axis, keepdims)


def arange(start: Any, stop: Any = None, step: Any = 1, dtype: str = "int32") -> Any:
    """``tf.range(start, stop, step)`` (named ``arange``) cast to ``dtype``, as ``tf.keras.backend.arange``
    (a negative ``start`` with no ``stop`` gives an empty range)."""
    if stop is None and not isinstance(start, Tensor) and start < 0:
        start = 0
    result = _fill.range(start, limit=stop, delta=step, name="arange")
    return result if dtype == "int32" else cast(result, dtype)


def argmin(x: Any, axis: int = -1) -> Any:
    """Index of the minimum along ``axis`` (int64), as ``tf.keras.backend.argmin``."""
    return _math.argmin(x, axis)


def batch_dot(x: Any, y: Any, axes: Any = None) -> Any:
    """Batchwise dot product, as ``tf.keras.backend.batch_dot``: ``x`` and ``y``
    of rank >= 2 with the same batch size; ``axes`` (an int or a pair, never
    0) are summed over; a result of rank 1 is ``[batch, 1]``.

    Raises:
      ValueError: rank < 2, different batch sizes, ``axes`` containing 0 or a
        list, or summed dimensions of different sizes (Keras' messages).
    """
    x_shape, y_shape = int_shape(x) or (), int_shape(y) or ()
    x_ndim, y_ndim = len(x_shape), len(y_shape)
    if x_ndim < 2 or y_ndim < 2:
        raise ValueError(
            "Cannot do batch_dot on inputs with rank < 2. Received inputs with shapes "
            f"{x_shape} and {y_shape}."
        )
    if x_shape[0] is not None and y_shape[0] is not None and x_shape[0] != y_shape[0]:
        raise ValueError(
            "Cannot do batch_dot on inputs with different batch sizes. Received inputs with shapes "
            f"{x_shape} and {y_shape}."
        )
    if isinstance(axes, int):
        axes = [axes, axes]
    if axes is None:
        axes = [x_ndim - 1, y_ndim - 1] if y_ndim == 2 else [x_ndim - 1, y_ndim - 2]
    if _py_any(isinstance(a, list | tuple) for a in axes):
        raise ValueError(
            "Multiple target dimensions are not supported. Expected: None, int, (int, int), "
            f"Provided: {axes}"
        )
    axes = list(axes)
    if axes[0] < 0:
        axes[0] += x_ndim
    if axes[1] < 0:
        axes[1] += y_ndim
    if 0 in axes:
        raise ValueError(
            "Cannot perform batch_dot over axis 0. If your inputs are not batched, add a dummy batch "
            "dimension to your inputs using K.expand_dims(x, 0)"
        )
    a0, a1 = axes
    d1, d2 = x_shape[a0], y_shape[a1]
    if d1 is not None and d2 is not None and d1 != d2:
        raise ValueError(
            f"Cannot do batch_dot on inputs with shapes {x_shape} and {y_shape} with axes={axes}. "
            f"x.shape[{axes[0]}] != y.shape[{axes[1]}] ({d1} != {d2})."
        )
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
    x_mid = y_trail = None
    if x_ndim > 3:
        xs = _shape_ops.shape(x)
        x_mid = xs[1:-1]
        x = _shape_ops.reshape(x, _shape_ops.stack([xs[0], -1, xs[-1]]))
    if y_ndim > 3:
        ys = _shape_ops.shape(y)
        y_trail = ys[2:]
        y = _shape_ops.reshape(y, _shape_ops.stack([ys[0], ys[1], -1]))
    result = _math.matmul(x, y)
    if x_mid is not None or y_trail is not None:
        out_shape = _shape_ops.shape(result)
        if x_mid is not None:
            out_shape = _shape_ops.concat([out_shape[:1], x_mid, out_shape[-1:]], 0)
        if y_trail is not None:
            out_shape = _shape_ops.concat([out_shape[:-1], y_trail], 0)
        result = _shape_ops.reshape(result, out_shape)
    if orig_x_ndim == 2:
        result = _shape_ops.squeeze(result, [1])
    elif orig_y_ndim == 2:
        result = _shape_ops.squeeze(result, [-1])
    return result



def batch_flatten(x: Any) -> Any:
    """``x`` reshaped to ``[batch, prod(rest)]``, as ``tf.keras.backend.batch_flatten``."""
    return _shape_ops.reshape(x, _shape_ops.stack([-1, prod(shape(x)[1:])]))


def flatten(x: Any) -> Any:
    """``x`` reshaped to 1-D, as ``tf.keras.backend.flatten``."""
    return _shape_ops.reshape(x, [-1])


def batch_normalization(x: Any, mean: Any, var: Any, beta: Any, gamma: Any, axis: int = -1,
                        epsilon: float = 1e-3) -> Any:
    """``(x - mean) / sqrt(var + epsilon) * gamma + beta``, as ``tf.keras.backend.batch_normalization``
    (``beta``/``gamma`` may be ``None``)."""
    return _normalization.batch_normalization(x, mean, var, beta, gamma, epsilon)


def _data_format(data_format: str | None) -> str:
    data_format = image_data_format() if data_format is None else data_format
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError("Unknown data_format: " + str(data_format))
    return data_format


def bias_add(x: Any, bias: Any, data_format: str | None = None) -> Any:
    """``x + bias`` along the channel axis, as ``tf.keras.backend.bias_add``.

    Raises:
      ValueError: ``bias`` is neither 1-D nor of rank ``ndim(x) - 1``.
    """
    data_format = _data_format(data_format)
    bias_shape = int_shape(bias) or ()
    rank = ndim(x) or 0
    if len(bias_shape) != 1 and len(bias_shape) != rank - 1:
        raise ValueError(
            f"Unexpected bias dimensions {len(bias_shape)}, expect to be 1 or {rank - 1} dimensions"
        )
    if len(bias_shape) == 1:
        return _nn.bias_add(x, bias, data_format="NCHW" if data_format == "channels_first" else "NHWC")
    if rank in (3, 4, 5):
        if data_format == "channels_first":
            return x + reshape(bias, (1, bias_shape[-1]) + tuple(bias_shape[:-1]))
        return x + reshape(bias, (1,) + tuple(bias_shape))
    return _nn.bias_add(x, bias)


def cast_to_floatx(x: Any) -> Any:
    """``x`` cast to ``floatx()``: a tensor stays a tensor, anything else becomes a
    NumPy array, as ``tf.keras.backend.cast_to_floatx``."""
    if isinstance(x, Tensor | Variable | SparseTensor):
        return _math.cast(x, floatx())
    return np.asarray(x, dtype=floatx())


def _padding(padding: str) -> str:
    if padding == "same":
        return "SAME"
    if padding == "valid":
        return "VALID"
    raise ValueError("Invalid padding: " + str(padding))


def conv1d(x: Any, kernel: Any, strides: int = 1, padding: str = "valid", data_format: str | None = None,
           dilation_rate: int = 1) -> Any:
    """1-D convolution, as ``tf.keras.backend.conv1d`` (``padding`` ``'valid'``,
    ``'same'`` or ``'causal'``)."""
    data_format = _data_format(data_format)
    if padding == "causal":
        x = temporal_padding(x, (dilation_rate * ((int_shape(kernel) or (1,))[0] - 1), 0))  # type: ignore[operator]
        padding = "valid"
    fmt = "NCW" if data_format == "channels_first" else "NWC"
    return _nn_surface.convolution(x, kernel, padding=_padding(padding), strides=strides,
                                   dilation_rate=dilation_rate, data_format=fmt)


def conv2d(x: Any, kernel: Any, strides: Any = (1, 1), padding: str = "valid", data_format: str | None = None,
           dilation_rate: Any = (1, 1)) -> Any:
    """2-D convolution, as ``tf.keras.backend.conv2d``."""
    data_format = _data_format(data_format)
    if data_format == "channels_first":  # computed in NHWC, as Keras on CPU
        x = _shape_ops.transpose(x, (0, 2, 3, 1))
    x = _nn_surface.convolution(x, kernel, padding=_padding(padding), strides=strides,
                                dilation_rate=dilation_rate, data_format="NHWC")
    if data_format == "channels_first":
        x = _shape_ops.transpose(x, (0, 3, 1, 2))
    return x


def conv2d_transpose(x: Any, kernel: Any, output_shape: Any, strides: Any = (1, 1), padding: str = "valid",
                     data_format: str | None = None, dilation_rate: Any = (1, 1)) -> Any:
    """Transposed 2-D convolution, as ``tf.keras.backend.conv2d_transpose``.

    Raises:
      NotImplementedError: a ``dilation_rate`` other than ``(1, 1)``.
    """
    data_format = _data_format(data_format)
    if tuple(dilation_rate) != (1, 1):
        raise NotImplementedError("conv2d_transpose: dilation_rate other than (1, 1) is not supported.")
    if data_format == "channels_first":
        x = _shape_ops.transpose(x, (0, 2, 3, 1))
        output_shape = (output_shape[0], output_shape[2], output_shape[3], output_shape[1])
    if output_shape[0] is None:
        output_shape = (shape(x)[0], *tuple(output_shape[1:]))
    if isinstance(output_shape, list | tuple):
        output_shape = _shape_ops.stack(list(output_shape))
    x = _conv.conv2d_transpose(x, kernel, output_shape, (1, *tuple(strides), 1), padding=_padding(padding))
    if data_format == "channels_first":
        x = _shape_ops.transpose(x, (0, 3, 1, 2))
    return x


def pool2d(x: Any, pool_size: Any, strides: Any = (1, 1), padding: str = "valid", data_format: str | None = None,
           pool_mode: str = "max") -> Any:
    """2-D max or average pooling, as ``tf.keras.backend.pool2d``.

    Raises:
      ValueError: ``pool_size``/``strides`` not pairs, or a bad ``pool_mode``.
    """
    data_format = _data_format(data_format)
    if len(pool_size) != 2:
        raise ValueError("`pool_size` must be a tuple of 2 integers.")
    if len(strides) != 2:
        raise ValueError("`strides` must be a tuple of 2 integers.")
    if data_format == "channels_first":
        x = _shape_ops.transpose(x, (0, 2, 3, 1))
    ksize, step = (1, *tuple(pool_size), 1), (1, *tuple(strides), 1)
    if pool_mode == "max":
        x = _nn.max_pool(x, ksize, step, padding=_padding(padding))
    elif pool_mode == "avg":
        x = _nn.avg_pool(x, ksize, step, padding=_padding(padding))
    else:
        raise ValueError("Invalid pooling mode: " + str(pool_mode))
    if data_format == "channels_first":
        x = _shape_ops.transpose(x, (0, 3, 1, 2))
    return x


def cos(x: Any) -> Any:
    return _math.cos(x)


def sin(x: Any) -> Any:
    return _math.sin(x)


def cumsum(x: Any, axis: int = 0) -> Any:
    return _math.cumsum(x, axis=axis)


def cumprod(x: Any, axis: int = 0) -> Any:
    return _math.cumprod(x, axis=axis)


def dropout(x: Any, level: float, noise_shape: Any = None, seed: int | None = None) -> Any:
    """``tf.nn.dropout(x, rate=level)``, as ``tf.keras.backend.dropout``."""
    return _random.dropout(x, noise_shape=noise_shape, seed=_keras_seed(seed, 10e6), rate=level)


def elu(x: Any, alpha: float = 1.0) -> Any:
    """ELU; ``alpha`` scales the negative part, as ``tf.keras.backend.elu``."""
    res = _nn.elu(x)
    return res if alpha == 1 else _math.where(_math.greater(x, 0), res, alpha * res)


def expand_dims(x: Any, axis: int = -1) -> Any:
    return _shape_ops.expand_dims(x, axis)


def eye(size: Any, dtype: Any = None, name: str | None = None) -> Variable:
    """A variable holding the identity matrix, as ``tf.keras.backend.eye``."""
    dtype = floatx() if dtype is None else dtype
    return variable(_linalg.eye(size, dtype=_dtypes.as_dtype(dtype)), dtype, name)


def foldl(fn: Callable[[Any, Any], Any], elems: Any, initializer: Any = None, name: str | None = None) -> Any:
    return _functional.foldl(fn, elems, initializer=initializer, name=name)


def foldr(fn: Callable[[Any, Any], Any], elems: Any, initializer: Any = None, name: str | None = None) -> Any:
    return _functional.foldr(fn, elems, initializer=initializer, name=name)


def map_fn(fn: Callable[[Any], Any], elems: Any, name: str | None = None, dtype: Any = None) -> Any:
    return _functional.map_fn(fn, elems, name=name, dtype=dtype)


def gather(reference: Any, indices: Any) -> Any:
    return _gather.gather(reference, indices)


def greater(x: Any, y: Any) -> Any:
    return _math.greater(x, y)


def greater_equal(x: Any, y: Any) -> Any:
    return _math.greater_equal(x, y)


def less(x: Any, y: Any) -> Any:
    return _math.less(x, y)


def less_equal(x: Any, y: Any) -> Any:
    return _math.less_equal(x, y)


def not_equal(x: Any, y: Any) -> Any:
    return _math.not_equal(x, y)


def hard_sigmoid(x: Any) -> Any:
    """``clip(0.2 * x + 0.5, 0, 1)``, as ``tf.keras.backend.hard_sigmoid``."""
    x = convert_to_tensor(x)
    x = _math.add(_math.multiply(x, _constant(0.2, x.dtype.base_dtype)), _constant(0.5, x.dtype.base_dtype))
    return _math.clip_by_value(x, 0.0, 1.0)


def switch(condition: Any, then_expression: Any, else_expression: Any) -> Any:
    """``then_expression`` where ``condition`` holds, else ``else_expression``, as
    ``tf.keras.backend.switch``: a scalar condition builds a ``cond`` (the
    expressions may be callables), a tensor one a ``where`` (tiled when of a
    lower rank).

    Raises:
      ValueError: the condition has a higher rank than the expressions.
    """
    condition = convert_to_tensor(condition)
    if condition.dtype != _dtypes.bool:
        condition = _math.cast(condition, _dtypes.bool)
    cond_ndim = ndim(condition)
    if not cond_ndim:
        then_fn = then_expression if callable(then_expression) else (lambda: then_expression)
        else_fn = else_expression if callable(else_expression) else (lambda: else_expression)
        return _control_flow.cond(condition, then_fn, else_fn)
    if callable(then_expression):
        then_expression = then_expression()
    if callable(else_expression):
        else_expression = else_expression()
    expr_ndim = ndim(then_expression) or 0
    if cond_ndim > expr_ndim:
        raise ValueError(
            "Rank of `condition` should be less than or equal to rank of `then_expression` and "
            f"`else_expression`. ndim(condition)={cond_ndim}, ndim(then_expression)={expr_ndim}"
        )
    if cond_ndim > 1:
        cond_shape = _shape_ops.concat([_shape_ops.shape(condition), [1] * (expr_ndim - cond_ndim)], axis=0)
        condition = _shape_ops.reshape(condition, cond_shape)
        expr_shape = _shape_ops.shape(then_expression)
        tile_shape = _math.where(_math.greater(expr_shape - cond_shape, 0), expr_shape, _fill.ones_like(expr_shape))
        condition = _shape_ops.tile(condition, tile_shape)
    return _math.where(condition, then_expression, else_expression)


def in_train_phase(x: Any, alt: Any, training: Any = None) -> Any:
    """``x`` in the training phase, else ``alt`` (tensors or callables), as
    ``tf.keras.backend.in_train_phase``: ``training`` defaults to
    :func:`learning_phase`; a Python bool/int picks at build time."""
    if training is None:
        training = learning_phase()
    if not isinstance(training, Tensor):
        if training == 1 or training is True:
            return x() if callable(x) else x
        if training == 0 or training is False:
            return alt() if callable(alt) else alt
    return switch(training, x, alt)


def in_test_phase(x: Any, alt: Any, training: Any = None) -> Any:
    """``x`` in the inference phase, else ``alt``, as ``tf.keras.backend.in_test_phase``."""
    return in_train_phase(alt, x, training=training)


def in_top_k(predictions: Any, targets: Any, k: int) -> Any:
    return _nn.in_top_k(predictions, targets, k)


def is_keras_tensor(x: Any) -> bool:
    """Whether ``x`` is the output of a Keras layer or ``Input``, as
    ``tf.keras.backend.is_keras_tensor`` in graph mode.

    Raises:
      ValueError: ``x`` is not a tensor, variable or ``SparseTensor``.
    """
    if not isinstance(x, Tensor | Variable | SparseTensor):
        raise ValueError(
            "Unexpectedly found an instance of type `" + str(type(x)) + "`. Expected a symbolic tensor instance."
        )
    return isinstance(x, Tensor) and x in _state(x.graph).history


def is_sparse(tensor: Any) -> bool:
    return isinstance(tensor, SparseTensor)


def to_dense(tensor: Any) -> Any:
    """A ``SparseTensor`` made dense; anything else unchanged, as ``tf.keras.backend.to_dense``."""
    return _sparse_ops.sparse_tensor_to_dense(tensor) if is_sparse(tensor) else tensor


def l2_normalize(x: Any, axis: Any = None) -> Any:
    return _nn.l2_normalize(x, axis=axis)


_manual_init = [False]


def manual_variable_initialization(value: bool) -> None:
    """Records Keras' manual-initialisation flag (``tf.keras.backend.manual_variable_initialization``).

    jaxsess's Keras session initialises the variables Keras made on first use
    regardless; the flag is kept for programs that set it."""
    _manual_init[0] = bool(value)


def moving_average_update(x: Variable, value: Any, momentum: Any) -> Any:
    """``x = x * momentum + value * (1 - momentum)`` (an assign op), as
    ``tf.keras.backend.moving_average_update`` in TF1 graph mode
    (``moving_averages.assign_moving_average`` without zero-debias)."""
    momentum = _math.cast(momentum, x.dtype.base_dtype)
    value = _math.cast(value, x.dtype.base_dtype)
    return _state_ops.assign_sub(x, (x - value) * (1 - momentum))


def one_hot(indices: Any, num_classes: int) -> Any:
    return _gather.one_hot(indices, depth=num_classes, axis=-1)


def ones_like(x: Any, dtype: Any = None, name: str | None = None) -> Any:
    return _fill.ones_like(x, dtype=dtype, name=name)


def zeros_like(x: Any, dtype: Any = None, name: str | None = None) -> Any:
    return _fill.zeros_like(x, dtype=dtype, name=name)


def permute_dimensions(x: Any, pattern: Any) -> Any:
    return _shape_ops.transpose(x, perm=pattern)


def transpose(x: Any) -> Any:
    return _shape_ops.transpose(x)


def print_tensor(x: Any, message: str = "", summarize: int = 3) -> Any:
    """``x``, printing ``message`` and ``x`` to stdout when it is computed, as
    ``tf.keras.backend.print_tensor``."""
    op = _logging.print_v2(message, x, output_stream=sys.stdout, summarize=summarize)
    with get_default_graph().control_dependencies([op]):
        return _core_identity(x)


def prod(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    return _math.reduce_prod(x, axis, keepdims)


def random_normal(shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = None,
                  seed: int | None = None) -> Any:
    """Normal samples, as ``tf.keras.backend.random_normal`` (JAX's generator: other numbers than TF's)."""
    dtype = floatx() if dtype is None else dtype
    return _random.random_normal(shape, mean=mean, stddev=stddev, dtype=dtype, seed=_keras_seed(seed, 1e7))


def random_uniform(shape: Any, minval: float = 0.0, maxval: float = 1.0, dtype: Any = None,
                   seed: int | None = None) -> Any:
    """Uniform samples in ``[minval, maxval)``, as ``tf.keras.backend.random_uniform``."""
    dtype = floatx() if dtype is None else dtype
    return _random.random_uniform(shape, minval=minval, maxval=maxval, dtype=dtype, seed=_keras_seed(seed, 1e7))


def truncated_normal(shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = None,
                     seed: int | None = None) -> Any:
    """Normal samples re-drawn beyond two standard deviations, as ``tf.keras.backend.truncated_normal``."""
    dtype = floatx() if dtype is None else dtype
    return _random.truncated_normal(shape, mean, stddev, dtype=dtype, seed=_keras_seed(seed, 1e7))


def random_bernoulli(shape: Any, p: float = 0.0, dtype: Any = None, seed: int | None = None) -> Any:
    """1 with probability ``p``, else 0 (``floatx`` by default), as ``tf.keras.backend.random_bernoulli``."""
    dtype = floatx() if dtype is None else dtype
    u = _random.random_uniform(shape, dtype=dtype, seed=_keras_seed(seed, 10e6))
    return _math.where(_math.less_equal(u, p), _fill.ones(shape, dtype=dtype), _fill.zeros(shape, dtype=dtype))


def random_binomial(shape: Any, p: float = 0.0, dtype: Any = None, seed: int | None = None) -> Any:
    """Deprecated alias of :func:`random_bernoulli` (Keras warns too)."""
    warnings.warn(
        "`tf.keras.backend.random_binomial` is deprecated, and will be removed in a future version."
        "Please use `tf.keras.backend.random_bernoulli` instead.",
        stacklevel=2,
    )
    return random_bernoulli(shape, p, dtype, seed)


def random_normal_variable(shape: Any, mean: float, scale: float, dtype: Any = None, name: str | None = None,
                           seed: int | None = None) -> Variable:
    """A variable initialised with normal samples, as ``tf.keras.backend.random_normal_variable``."""
    dtype = floatx() if dtype is None else dtype
    value = _random.random_normal(shape, mean=mean, stddev=scale, dtype=dtype, seed=_keras_seed(seed, 1e9))
    return variable(value, dtype=dtype, name=name)


def random_uniform_variable(shape: Any, low: float, high: float, dtype: Any = None, name: str | None = None,
                            seed: int | None = None) -> Variable:
    """A variable initialised with uniform samples, as ``tf.keras.backend.random_uniform_variable``."""
    dtype = floatx() if dtype is None else dtype
    value = _random.random_uniform(shape, minval=low, maxval=high, dtype=dtype, seed=_keras_seed(seed, 1e9))
    return variable(value, dtype=dtype, name=name)


def repeat(x: Any, n: int) -> Any:
    """``[batch, dim]`` -> ``[batch, n, dim]``, as ``tf.keras.backend.repeat``.

    Raises:
      ValueError: ``x`` is not 2-D.
    """
    if ndim(x) != 2:
        raise ValueError(f"repeat expects a 2D tensor, got shape {int_shape(x)}.")
    return _shape_ops.tile(_shape_ops.expand_dims(x, 1), _shape_ops.stack([1, n, 1]))


def repeat_elements(x: Any, rep: int, axis: int) -> Any:
    """Each slice along ``axis`` repeated ``rep`` times (``np.repeat``), as
    ``tf.keras.backend.repeat_elements``."""
    x = convert_to_tensor(x)
    dims = x.shape.as_list()
    if dims[axis] is not None:
        splits = _shape_ops.split(x, dims[axis], axis=axis)
        return concatenate([s for s in splits for _ in range(rep)], axis)
    aux = axis + 1
    x_shape = _shape_ops.shape(x)
    x_rep = _shape_ops.expand_dims(x, axis=aux)
    reps = np.ones(len(dims) + 1, np.int32)
    reps[aux] = rep
    x_rep = _shape_ops.tile(x_rep, reps)
    reps = np.delete(reps, aux)
    reps[axis] = rep
    x_rep = _shape_ops.reshape(x_rep, x_shape * _constant(reps, _dtypes.int32))
    x_rep.set_shape(dims)
    return x_rep


def resize_images(x: Any, height_factor: int, width_factor: int, data_format: str,
                  interpolation: str = "nearest") -> Any:
    """Images scaled by integer factors, as ``tf.keras.backend.resize_images``.

    Raises:
      ValueError: a bad ``data_format`` or ``interpolation``.
    """
    if data_format == "channels_first":
        rows, cols = 2, 3
    elif data_format == "channels_last":
        rows, cols = 1, 2
    else:
        raise ValueError(f"Invalid `data_format` argument: {data_format}")
    methods = {
        "area": _image.ResizeMethod.AREA, "bicubic": _image.ResizeMethod.BICUBIC,
        "bilinear": _image.ResizeMethod.BILINEAR, "nearest": _image.ResizeMethod.NEAREST_NEIGHBOR,
    }
    if interpolation not in methods:
        names = '"' + '", "'.join(methods) + '"'
        raise ValueError(f'`interpolation` argument should be one of: {names}. Received: "{interpolation}".')
    x = convert_to_tensor(x)
    hw = x.shape.as_list()[rows:cols + 1]
    if None not in hw:
        new_shape: Any = _constant(np.array(hw, np.int32) * np.array([height_factor, width_factor], np.int32))
    else:
        new_shape = _shape_ops.shape(x)[rows:cols + 1] * _constant(
            np.array([height_factor, width_factor], np.int32))
    if data_format == "channels_first":
        x = permute_dimensions(x, [0, 2, 3, 1])
    x = _image.resize_images(x, new_shape, method=methods[interpolation])
    if data_format == "channels_first":
        x = permute_dimensions(x, [0, 3, 1, 2])
    return x


def reverse(x: Any, axes: Any) -> Any:
    return _shape_ops.reverse(x, [axes] if isinstance(axes, int) else axes)


def round(x: Any) -> Any:  # noqa: A001 - Keras' name
    return _math.round(x)


def sign(x: Any) -> Any:
    return _math.sign(x)


def softplus(x: Any) -> Any:
    return _nn.softplus(x)


def softsign(x: Any) -> Any:
    return _nn.softsign(x)


def temporal_padding(x: Any, padding: Any = (1, 1)) -> Any:
    """Zero padding of the middle (time) axis of a 3-D tensor, as ``tf.keras.backend.temporal_padding``."""
    if len(padding) != 2:
        raise ValueError(f"temporal_padding: padding must be a pair, got {padding!r}.")
    return _shape_ops.pad(x, [[0, 0], [padding[0], padding[1]], [0, 0]])


def spatial_2d_padding(x: Any, padding: Any = ((1, 1), (1, 1)), data_format: str | None = None) -> Any:
    """Zero padding of the rows and columns of a 4-D tensor, as ``tf.keras.backend.spatial_2d_padding``."""
    if len(padding) != 2 or len(padding[0]) != 2 or len(padding[1]) != 2:
        raise ValueError(f"spatial_2d_padding: padding must be two pairs, got {padding!r}.")
    if _data_format(data_format) == "channels_first":
        pattern = [[0, 0], [0, 0], list(padding[0]), list(padding[1])]
    else:
        pattern = [[0, 0], list(padding[0]), list(padding[1]), [0, 0]]
    return _shape_ops.pad(x, pattern)


def squeeze(x: Any, axis: int) -> Any:
    return _shape_ops.squeeze(x, [axis])


def stack(x: Sequence[Any], axis: int = 0) -> Any:
    return _shape_ops.stack(list(x), axis=axis)


def std(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """Standard deviation (bool input cast to ``floatx``), as ``tf.keras.backend.std``."""
    x = convert_to_tensor(x)
    if x.dtype.base_dtype == _dtypes.bool:
        x = _math.cast(x, floatx())
    return _nn_impl.reduce_std(x, axis=axis, keepdims=keepdims)


def var(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """Variance (bool input cast to ``floatx``), as ``tf.keras.backend.var``."""
    x = convert_to_tensor(x)
    if x.dtype.base_dtype == _dtypes.bool:
        x = _math.cast(x, floatx())
    return _nn_impl.reduce_variance(x, axis=axis, keepdims=keepdims)


def tile(x: Any, n: Any) -> Any:
    return _shape_ops.tile(x, [n] if isinstance(n, int) else n)


def update(x: Variable, new_x: Any) -> Any:
    return _state_ops.assign(x, new_x)


def update_add(x: Variable, increment: Any) -> Any:
    return _state_ops.assign_add(x, increment)


def update_sub(x: Variable, decrement: Any) -> Any:
    return _state_ops.assign_sub(x, decrement)
