"""Run-time checks, as TF1's ``tf.Assert``, ``tf.assert_*`` (``tf.debugging``),
``tf.check_numerics`` and ``tf.verify_tensor_all_finite``, and the checks of
``tf.debugging`` built from them: ``assert_near``, ``assert_rank_in``,
``assert_same_float_dtype``, ``assert_proper_iterable``, ``assert_all_finite``,
``assert_shapes`` and ``is_numeric_tensor``.

A check is a *host op* (:mod:`jaxsess._core.graph._host`): when a ``Session.run``
needs one (a fetch, a target, or a control dependency of one), the values it
checks are computed on the device by a plain run first, the check runs on the
host, and only if it holds does the run's device plan execute. A failing check
raises :class:`~jaxsess._core.errors.InvalidArgumentError` with TF's message
(``assertion failed: [...] [...]``, ``<message> : Tensor had NaN values``)
before any state changes: variables keep their values, as in TF (where the
failing ``Assert`` stops the step).

What this costs: graphs without checks pay nothing (they never enter the host
pass). A run that needs a check runs two device programs (the checked values,
then the step); a check on a host value (an iterator's batch) is computed
after the host op that makes it. Ops feeding a check therefore run twice; building a check
whose inputs depend on a variable assignment raises ``NotImplementedError``
(the first program would assign). ``make_callable``, ``lower`` and ``export``
have no host pass: there checks are skipped (``CheckNumerics`` passes its
input through).

Static checks follow TF: ``assert_*`` of constant inputs raise
``InvalidArgumentError`` when the graph is built; ``assert_rank`` of a tensor
of known rank raises ``ValueError`` then (or returns a ``NoOp`` named
``static_checks_determined_all_ok``). Inside an ``EagerSession`` checks run
at once. The build-time checks raise TF's ``ValueError``/``TypeError`` with
TF's messages. ``assert_shapes`` checks static shapes only: a dimension
unknown when the graph is built is not checked at run time (TF adds a
run-time check).
"""

from __future__ import annotations

import collections.abc
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes, errors as errors
from jaxsess._core.graph._builder import (
    apply_op,
    as_graph_tensor,
    constant_value,
    convert_to_tensor,
    executing_eagerly,
    group,
    identity,
    no_op,
)
from jaxsess._core.graph._graph import Operation, Tensor, TensorShape, get_default_graph, name_scope
from jaxsess._core.graph._host import device_lowering, register_host, require_no_assign_before
from jaxsess._core.graph._registry import register_op
from jaxsess._tf1.ops import math_ops as math_ops
from jaxsess._tf1.ops._args import op_scope
from jaxsess._tf1.ops.array_ops import rank as _rank, shape as _shape
from jaxsess._tf1.ops.logging_ops import format_v1
from jaxsess._tf1.ops.state_ops import _as_variable

__all__ = [
    "count_up_to",
    "Assert",
    "assert_equal",
    "assert_none_equal",
    "assert_less",
    "assert_less_equal",
    "assert_greater",
    "assert_greater_equal",
    "assert_positive",
    "assert_negative",
    "assert_non_negative",
    "assert_non_positive",
    "assert_rank",
    "assert_rank_at_least",
    "assert_type",
    "assert_integer",
    "assert_scalar",
    "check_numerics",
    "verify_tensor_all_finite",
    "add_check_numerics_ops",
    "assert_near",
    "assert_rank_in",
    "assert_same_float_dtype",
    "assert_proper_iterable",
    "assert_all_finite",
    "assert_shapes",
    "is_numeric_tensor",
]


def _no_outputs(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    return []


def _same_as_input(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    return [(TensorShape(specs[0][0]), specs[0][1])]


def _assert_text(pieces: Sequence[str | None], values: Sequence[Any], summarize: int) -> str:
    it = iter(values)
    shown = [p if p is not None else format_v1(np.asarray(next(it)), summarize) for p in pieces]
    return "assertion failed: " + " ".join(f"[{s}]" for s in shown)


@register_op("Assert", num_outputs=0, infer=_no_outputs, lowering=device_lowering, default_name="Assert")
def _assert(cond: Any, *data: Any, pieces: tuple[str | None, ...], summarize: int) -> tuple[()]:
    return ()  # pragma: no cover - the host implementation checks (see the module docstring)


@register_host("Assert", always=True, infer=_no_outputs)
def _host_assert(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    if not np.all(inputs[0]):
        raise errors.InvalidArgumentError(
            op.name, op,
            _assert_text(op.attrs["pieces"], inputs[1:], op.attrs["summarize"]) + f"\n\t [[node {op.name}]]",
        )
    return ()


_CHECK_NUMERICS_TYPES = (_dtypes.bfloat16, _dtypes.float16, _dtypes.float32, _dtypes.float64)


def _numerics_problem(value: Any) -> str | None:
    arr = np.asarray(value)
    nan, inf = bool(np.isnan(arr).any()), bool(np.isinf(arr).any())
    if nan and inf:
        return "Inf and NaN"
    if inf:
        return "Inf"
    if nan:
        return "NaN"
    return None


def _check_numerics_lowering(ev: Any, op: Operation, inputs: list[Any]) -> Any:
    # The host pass checked the value when the run needed this op (also as a
    # control input only); without a host pass (make_callable) it passes through.
    t = op.outputs[0]
    return ev.env[t] if t in ev.env else inputs[0]


@register_op("CheckNumerics", infer=_same_as_input, lowering=_check_numerics_lowering, default_name="CheckNumerics")
def _check_numerics(x: Any, *, message: str) -> Any:
    return x  # pragma: no cover - the host implementation checks


@register_host("CheckNumerics", always=True, infer=_same_as_input)
def _host_check_numerics(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    problem = _numerics_problem(inputs[0])
    if problem is not None:
        raise errors.InvalidArgumentError(
            op.name, op, f"{op.attrs['message']} : Tensor had {problem} values\n\t [[node {op.name}]]"
        )
    return (inputs[0],)


def Assert(condition: Any, data: Sequence[Any], summarize: int | None = None,  # noqa: N802 - TF1 name
           name: str | None = None) -> Any:
    """Checks at run time that ``condition`` holds, as ``tf.compat.v1.Assert``.

    Args:
      condition: a scalar ``bool`` tensor (a non-scalar must be all true).
      data: tensors and Python strings shown in the error (tensors: their
        first ``summarize`` elements, as ``tf.Print``).
      summarize: how many elements of each tensor to show (default 3).
      name: the op name (default ``'Assert'``).

    Returns:
      The ``Assert`` operation (run it, or make it a control dependency);
      ``None`` in an ``EagerSession``.

    Raises:
      InvalidArgumentError: at run time (or at once, eagerly) when
        ``condition`` is false: ``"assertion failed: [d0] [d1] ..."``.
      NotImplementedError: ``condition`` or ``data`` depend on a variable
        assignment (see the module docstring).
    """
    summarize = 3 if summarize is None else int(summarize)
    pieces: list[str | None] = []
    tensors: list[Any] = []
    for d in data:
        if isinstance(d, str | bytes):
            pieces.append(d.decode() if isinstance(d, bytes) else d)
        else:
            pieces.append(None)
            tensors.append(d)
    if executing_eagerly():
        if not np.all(np.asarray(condition)):
            raise errors.InvalidArgumentError(None, None, _assert_text(pieces, [np.asarray(t) for t in tensors],
                                                                       summarize))
        return None
    with name_scope(name, "Assert"):
        cond = convert_to_tensor(condition, dtype=_dtypes.bool)
        tensors = [convert_to_tensor(t) for t in tensors]
        require_no_assign_before([cond, *tensors], "tf.Assert")
        return apply_op("Assert", [cond, *tensors], {"pieces": tuple(pieces), "summarize": summarize},
                        name="Assert")


def _message_prefix(message: str | None) -> str:
    return f"{message}.  " if message else ""


def _static_text(data: Sequence[Any]) -> str:
    out = []
    for d in data:
        if isinstance(d, Tensor):
            v = constant_value(d)
            out.append(str(d) if v is None else str(v))
        else:
            out.append(str(d))
    return "\n".join(out)


def _binary_assert(sym: str, opname: str, tf_func: Callable[..., Any], np_func: Callable[..., Any], x: Any, y: Any,
                   data: Any, summarize: int | None, message: str | None, name: str | None) -> Any:
    with name_scope(name, opname):
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, dtype=x.dtype if isinstance(x, Tensor) else None, name="y")
        if executing_eagerly():
            if np.all(np_func(np.asarray(x), np.asarray(y))):
                return None
            data = data if data is not None else [f"Condition x {sym} y did not hold element-wise:", "x = ", x,
                                                  "y = ", y]
            if message is not None:
                data = [message, *data]
            return Assert(False, data, summarize=summarize)
        if data is None:
            data = [f"Condition x {sym} y did not hold element-wise:", f"x ({x.name}) = ", x, f"y ({y.name}) = ", y]
        if message is not None:
            data = [message, *data]
        x_static, y_static = constant_value(x), constant_value(y)
        if x_static is not None and y_static is not None and not np.all(np_func(x_static, y_static)):
            raise errors.InvalidArgumentError(None, None, _static_text(data))
        condition = math_ops.reduce_all(tf_func(x, y))
        return Assert(condition, data, summarize=summarize)


def _binary(sym: str, opname: str, tf_func: Callable[..., Any], np_func: Callable[..., Any]) -> Callable[..., Any]:
    def check(x: Any, y: Any, data: Any = None, summarize: int | None = None, message: str | None = None,
              name: str | None = None) -> Any:
        return _binary_assert(sym, opname, tf_func, np_func, x, y, data, summarize, message, name)

    check.__name__ = check.__qualname__ = opname
    check.__doc__ = (
        f"Checks ``x {sym} y`` element-wise (broadcasting), as ``tf.compat.v1.{opname}``.\n\n"
        "Returns:\n  The ``Assert`` op (``None`` eagerly when it holds).\n\n"
        "Raises:\n  InvalidArgumentError: the condition fails: at run time, or when the graph is built if\n"
        "    ``x`` and ``y`` are constants, or at once in an ``EagerSession``.\n"
    )
    return check


assert_equal = _binary("==", "assert_equal", math_ops.equal, np.equal)
assert_none_equal = _binary("!=", "assert_none_equal", math_ops.not_equal, np.not_equal)
assert_less = _binary("<", "assert_less", math_ops.less, np.less)
assert_less_equal = _binary("<=", "assert_less_equal", math_ops.less_equal, np.less_equal)
assert_greater = _binary(">", "assert_greater", math_ops.greater, np.greater)
assert_greater_equal = _binary(">=", "assert_greater_equal", math_ops.greater_equal, np.greater_equal)


def _unary(sym: str, opname: str, binary: Callable[..., Any], zero_first: bool) -> Callable[..., Any]:
    def check(x: Any, data: Any = None, summarize: int | None = None, message: str | None = None,
              name: str | None = None) -> Any:
        prefix = _message_prefix(message)
        with name_scope(name, opname):
            x = convert_to_tensor(x, name="x")
            if data is None:
                shown = "" if executing_eagerly() else x.name
                data = [prefix, f"Condition x {sym} did not hold element-wise:", f"x ({shown}) = ", x]
            zero = convert_to_tensor(0, dtype=x.dtype if isinstance(x, Tensor) else None)
            a, b = (zero, x) if zero_first else (x, zero)
            return binary(a, b, data=data, summarize=summarize)

    check.__name__ = check.__qualname__ = opname
    check.__doc__ = (
        f"Checks ``x {sym}`` element-wise, as ``tf.compat.v1.{opname}``.\n\n"
        "Returns:\n  The ``Assert`` op (``None`` eagerly when it holds).\n\n"
        "Raises:\n  InvalidArgumentError: the condition fails: at run time, or when the graph is built if\n"
        "    ``x`` is a constant, or at once in an ``EagerSession``.\n"
    )
    return check


assert_positive = _unary("> 0", "assert_positive", assert_less, zero_first=True)
assert_negative = _unary("< 0", "assert_negative", assert_less, zero_first=False)
assert_non_negative = _unary(">= 0", "assert_non_negative", assert_less_equal, zero_first=True)
assert_non_positive = _unary("<= 0", "assert_non_positive", assert_less_equal, zero_first=False)


def _assert_rank(x: Any, rank: Any, data: Any, summarize: int | None, message: str | None, name: str | None,
                 opname: str, words: str, static_ok: Callable[[int, int], bool], tf_cond: Callable[..., Any]) -> Any:
    with name_scope(name, opname):
        x = convert_to_tensor(x, name="x")
        rank_t = convert_to_tensor(rank, dtype=_dtypes.int32, name="rank")
        prefix = _message_prefix(message)
        shown = "" if executing_eagerly() else x.name
        rank_static = constant_value(rank_t)
        if rank_static is None:
            raise NotImplementedError(f"{opname}: jaxsess needs a rank known when the graph is built.")
        if np.ndim(rank_static) != 0:
            raise ValueError("Rank must be a scalar.")
        ndims = np.ndim(x) if executing_eagerly() else x.shape.ndims
        if ndims is not None:
            if not static_ok(ndims, int(rank_static)):
                shape = tuple(np.shape(x)) if executing_eagerly() else x.shape
                raise ValueError(f"{prefix}Tensor {shown} must have {words} {int(rank_static)}.  "
                                 f"Received rank {ndims}, shape {shape}")
            return None if executing_eagerly() else no_op(name="static_checks_determined_all_ok")
        if data is None:
            data = [prefix, f"Tensor {shown} must have {words}", rank_t, "Received shape: ", _shape(x)]
        return Assert(tf_cond(_rank(x), rank_t), data, summarize=summarize)


def assert_rank(x: Any, rank: Any, data: Any = None, summarize: int | None = None, message: str | None = None,
                name: str | None = None) -> Any:
    """Checks that ``x`` has rank ``rank``, as ``tf.compat.v1.assert_rank``.

    Returns:
      A ``NoOp`` named ``static_checks_determined_all_ok`` when the rank is
      known when the graph is built, else the ``Assert`` op.

    Raises:
      ValueError: the static rank of ``x`` differs (``"Tensor x:0 must have
        rank 1.  Received rank 2, shape (2, 3)"``), or ``rank`` is not a scalar.
      NotImplementedError: ``rank`` is not known when the graph is built.
      InvalidArgumentError: at run time, when the rank differs.
    """
    return _assert_rank(x, rank, data, summarize, message, name, "assert_rank", "rank",
                        lambda a, b: a == b, math_ops.equal)


def assert_rank_at_least(x: Any, rank: Any, data: Any = None, summarize: int | None = None,
                         message: str | None = None, name: str | None = None) -> Any:
    """Checks that ``x`` has rank ``rank`` or more, as ``tf.compat.v1.assert_rank_at_least``
    (returns and raises as :func:`assert_rank`)."""
    return _assert_rank(x, rank, data, summarize, message, name, "assert_rank_at_least", "rank at least",
                        lambda a, b: a >= b, math_ops.greater_equal)


def assert_type(tensor: Any, tf_type: Any, message: str | None = None, name: str | None = None) -> Any:
    """Checks ``tensor``'s dtype when the graph is built, as ``tf.compat.v1.assert_type``.

    Returns:
      A ``NoOp`` named ``statically_determined_correct_type`` (``None`` eagerly).

    Raises:
      TypeError: another dtype (``"x:0 must be of type tf.int32; got tf.float32"``).
    """
    want = _dtypes.as_dtype(tf_type)
    with name_scope(name, "assert_type"):
        t = convert_to_tensor(tensor, name="tensor")
        if _dtypes.as_dtype(t.dtype) != want:
            shown = "" if executing_eagerly() else t.name
            raise TypeError(f"{_message_prefix(message)}{shown} must be of type tf.{want.name}; "
                            f"got tf.{_dtypes.as_dtype(t.dtype).name}")
        return None if executing_eagerly() else no_op(name="statically_determined_correct_type")


def assert_integer(x: Any, message: str | None = None, name: str | None = None) -> Any:
    """Checks that ``x`` has an integer dtype when the graph is built, as
    ``tf.compat.v1.assert_integer`` (a ``NoOp`` named ``statically_determined_was_integer``).

    Raises:
      TypeError: ``x`` is not an integer tensor.
    """
    with name_scope(name, "assert_integer"):
        t = convert_to_tensor(x, name="x")
        dtype = _dtypes.as_dtype(t.dtype)
        if not dtype.is_integer:
            shown = "" if executing_eagerly() else t.name
            raise TypeError(f'{_message_prefix(message)}Expected "x" to be integer type.  Found: {shown} of dtype '
                            f"<dtype: '{dtype.name}'>")
        return None if executing_eagerly() else no_op(name="statically_determined_was_integer")


def assert_scalar(tensor: Any, name: str | None = None, message: str | None = None) -> Any:
    """``tensor``, checked to be a scalar when the graph is built, as ``tf.compat.v1.assert_scalar``.

    Raises:
      ValueError: ``tensor`` does not have rank 0 (``"Expected scalar shape for x:0, saw shape: (2,)."``).
    """
    with name_scope(name, "assert_scalar"):
        t = convert_to_tensor(tensor, name="tensor")
        shape = tuple(np.shape(t)) if executing_eagerly() else t.shape
        ndims = len(shape) if executing_eagerly() else t.shape.ndims
        if ndims != 0:
            shown = "" if executing_eagerly() else t.name
            raise ValueError(f"{_message_prefix(message)}Expected scalar shape for {shown}, saw shape: {shape}.")
        return t


def check_numerics(tensor: Any, message: str, name: str | None = None) -> Any:
    """``tensor``, checked at run time to hold no NaN or Inf, as ``tf.debugging.check_numerics``.

    Args:
      tensor: a ``bfloat16``/``float16``/``float32``/``float64`` tensor.
      message: the start of the error message.

    Returns:
      A tensor equal to ``tensor`` (op ``CheckNumerics``).

    Raises:
      TypeError: ``tensor`` is not floating point.
      InvalidArgumentError: at run time: ``"<message> : Tensor had NaN values"``
        (``Inf``, ``Inf and NaN``).
    """
    x = convert_to_tensor(tensor)
    dtype = _dtypes.as_dtype(x.dtype)
    if dtype not in _CHECK_NUMERICS_TYPES:
        raise TypeError(f"Value passed to parameter 'tensor' has DataType {dtype.name} not in list of allowed "
                        "values: bfloat16, float16, float32, float64")
    if executing_eagerly():
        problem = _numerics_problem(x)
        if problem is not None:
            raise errors.InvalidArgumentError(None, None, f"{message} : Tensor had {problem} values")
        return x
    require_no_assign_before([x], "tf.check_numerics")
    return apply_op("CheckNumerics", [x], {"message": str(message)}, name=name)


def verify_tensor_all_finite(t: Any = None, msg: str | None = None, name: str | None = None, x: Any = None,
                             message: str | None = None) -> Any:
    """``t``, after checking it holds no NaN or Inf, as ``tf.compat.v1.verify_tensor_all_finite``
    (the result is ``VerifyFinite/control_dependency``)."""
    t = x if t is None else t
    msg = message if msg is None else msg
    with name_scope(name, "VerifyFinite"):
        t = convert_to_tensor(t)
        checked = check_numerics(t, message=msg or "")
        if executing_eagerly():
            return checked
        g = t.graph
        with g.control_dependencies([checked.op]):
            return identity(t, name="control_dependency")


def add_check_numerics_ops() -> Any:
    """A ``group`` of ``check_numerics`` over every floating-point tensor of the
    default graph, as ``tf.compat.v1.add_check_numerics_ops`` (messages
    ``'<op name>:<output index>'``).

    Tensors that depend on a variable assignment are left out (see the module
    docstring), so are tensors created after the call.
    """
    graph = get_default_graph()
    ops = sorted(graph.get_operations(), key=lambda o: o._id)  # creation order is topological
    tainted: set[Operation] = set()
    for op in ops:  # ops downstream of an assignment (one pass, not one walk per tensor)
        if (op._op_def.writes_ref or op.attrs.get("var_writes")
                or any(t.op in tainted for t in op.inputs) or any(c in tainted for c in op.control_inputs)):
            tainted.add(op)
    checks = []
    for op in ops:
        if op in tainted or op.type in ("CheckNumerics", "VariableV2"):
            continue
        for t in op.outputs:
            if t.dtype in _CHECK_NUMERICS_TYPES:
                with graph.control_dependencies(None):
                    checks.append(apply_op("CheckNumerics", [t], {"message": f"{op.name}:{t.value_index}"}).op)
    return group(*checks, name="CheckNumerics")


# -- count_up_to: a host check, then the increment ---------------------------------------


@register_op("CountUpToCheck", num_outputs=0, infer=_no_outputs, lowering=device_lowering, default_name="check")
def _count_up_to_check(value: Any, *, limit: int) -> tuple[()]:
    return ()  # pragma: no cover - the host implementation checks


@register_host("CountUpToCheck", always=True, infer=_no_outputs)
def _host_count_up_to_check(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    if int(np.asarray(inputs[0])) >= op.attrs["limit"]:
        raise errors.OutOfRangeError(op.name, op, f"Reached limit of {op.attrs['limit']}\n\t [[node {op.name}]]")
    return ()


def count_up_to(ref: Any, limit: int, name: str | None = None) -> Any:
    """Increments the int32/int64 scalar variable ``ref`` by one and gives its value before the
    increment, as ``tf.compat.v1.count_up_to``.

    The check is a host op (see the module docstring): a run that reaches
    ``limit`` raises ``OutOfRangeError`` (``Reached limit of <limit>``) before
    any variable changes, as TF.

    Raises:
      TypeError: ``ref`` is not an int32/int64 variable.
      errors.OutOfRangeError: at run time (eagerly: at once) when ``ref >= limit``.
    """
    var = _as_variable(ref)
    if var.dtype not in (_dtypes.int32, _dtypes.int64):
        raise TypeError(f"count_up_to: the variable must be int32 or int64, got {var.dtype.name} ('{var.name}').")
    lim = int(limit)
    if executing_eagerly():
        old = np.asarray(var.read_value())
        if int(old) >= lim:
            raise errors.OutOfRangeError(None, None, f"Reached limit of {lim}")
        var.assign_add(1)
        return old
    with name_scope(name, "CountUpTo") as scope:
        old = var.value()
        check = apply_op("CountUpToCheck", (old,), {"limit": lim}, name="check")
        with get_default_graph().control_dependencies([check]):
            inc = var.assign_add(1)
        with get_default_graph().control_dependencies([inc]):
            return identity(old, name=scope)


def assert_near(x: Any, y: Any, rtol: Any = None, atol: Any = None, data: Any = None, summarize: int | None = None,
                message: str | None = None, name: str | None = None) -> Any:
    """Checks ``|x - y| <= atol + rtol * |y|`` element-wise, as ``tf.compat.v1.assert_near``.

    ``rtol``/``atol`` default to ``10 * eps`` of the dtype (float32:
    ``1.19e-6``). Returns the ``Assert`` op (``None`` eagerly when it holds).

    Raises:
      InvalidArgumentError: at run time when the condition fails (TF's message).
    """
    with op_scope(name, "assert_near", [x, y, rtol, atol]):
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, dtype=x.dtype, name="y")
        eps = np.finfo(_dtypes.as_dtype(x.dtype).real_dtype.np_dtype).eps
        rtol_t = convert_to_tensor(10 * eps if rtol is None else rtol, dtype=_dtypes.as_dtype(x.dtype).real_dtype,
                                   name="rtol")
        atol_t = convert_to_tensor(10 * eps if atol is None else atol, dtype=_dtypes.as_dtype(x.dtype).real_dtype,
                                   name="atol")
        diff = math_ops.abs(x - y)
        tol = atol_t + rtol_t * math_ops.abs(y)
        condition = math_ops.reduce_all(math_ops.less_equal(diff, tol))
        if executing_eagerly():
            if bool(np.asarray(condition)):
                return None
            data = data or ["x and y not equal to tolerance rtol = ", rtol_t, ", atol = ", atol_t, "x = ", x,
                            "y = ", y]
        elif data is None:
            data = [_message_prefix(message),
                    f"x and y not equal to tolerance rtol = {rtol_t}, atol = {atol_t}",
                    f"x ({x.name}) = ", x, f"y ({y.name}) = ", y]
            message = None
        if message is not None:
            data = [message, *data]
        return Assert(condition, data, summarize=summarize)


def assert_rank_in(x: Any, ranks: Sequence[Any], data: Any = None, summarize: int | None = None,
                   message: str | None = None, name: str | None = None) -> Any:
    """Checks that ``x``'s rank is one of ``ranks``, as ``tf.compat.v1.assert_rank_in``.

    Returns:
      A ``NoOp`` named ``static_checks_determined_all_ok`` when the rank is
      known at build time, else the ``Assert`` op.

    Raises:
      ValueError: the static rank is not among ``ranks`` (TF's message).
    """
    with op_scope(name, "assert_rank_in", [x, *ranks]):
        x = convert_to_tensor(x, name="x")
        wanted = tuple(int(r) for r in ranks)
        prefix = _message_prefix(message)
        ndims = np.ndim(x) if executing_eagerly() else x.shape.ndims
        shown = "" if executing_eagerly() else x.name
        if ndims is not None:
            if ndims not in wanted:
                shape = tuple(np.shape(x)) if executing_eagerly() else x.shape
                raise ValueError(f"{prefix}Tensor {shown} must have rank in {wanted}.  "
                                 f"Received rank {ndims}, shape {shape}")
            return None if executing_eagerly() else no_op(name="static_checks_determined_all_ok")
        raise NotImplementedError(f"assert_rank_in: jaxsess needs the rank of {shown} known when the graph is built.")


def assert_same_float_dtype(tensors: Sequence[Any] | None = None, dtype: Any = None) -> _dtypes.DType:
    """The one floating dtype of ``tensors`` (and ``dtype``), ``float32`` when there is none,
    as ``tf.compat.v1.assert_same_float_dtype``.

    Raises:
      ValueError: dtypes differ, or the common dtype is not floating (TF's messages).
    """
    want = None if dtype is None else _dtypes.as_dtype(dtype)
    first = None
    for t in tensors or []:
        t = as_graph_tensor(t)
        if not hasattr(t, "dtype"):
            continue
        d = _dtypes.as_dtype(t.dtype)
        if want is None:
            want, first = d, t
        elif d != want:
            shown = getattr(first, "name", None) or "dtype"
            raise ValueError(f"{getattr(t, 'name', t)}, type={d!r}, must be of the same type ({want!r}) as "
                             f"{shown}.")
    if want is None:
        return _dtypes.float32
    if not want.is_floating:
        raise ValueError(f"Expected floating point type, got {want!r}.")
    return want


def assert_proper_iterable(values: Any) -> None:
    """Checks that ``values`` is an iterable other than a tensor, array or string, as
    ``tf.compat.v1.assert_proper_iterable``.

    Raises:
      TypeError: TF's message.
    """
    unintentional = (Tensor, np.ndarray, bytes, str)
    if isinstance(as_graph_tensor(values), unintentional) or hasattr(values, "__array__") and not isinstance(
            values, collections.abc.Sequence):
        raise TypeError(f'Expected argument "values" to be a "proper" iterable.  Found: {type(values)}')
    if not isinstance(values, collections.abc.Iterable):
        raise TypeError(f'Expected argument "values" to be iterable.  Found: {type(values)}')


def assert_all_finite(t: Any, msg: str, name: str | None = None, x: Any = None, message: str | None = None) -> Any:
    """``t``, checked at run time to hold no NaN or Inf, as ``tf.debugging.assert_all_finite``
    (TF1's ``verify_tensor_all_finite`` under its TF 2 name)."""
    return verify_tensor_all_finite(t, msg, name=name, x=x, message=message)


def assert_shapes(shapes: Any, data: Any = None, summarize: int | None = None, message: str | None = None,
                  name: str | None = None) -> Any:
    """Checks that tensors' static shapes agree with symbolic specs, as ``tf.debugging.assert_shapes``.

    Args:
      shapes: ``[(tensor, spec), ...]`` or a dict; a spec is a sequence of
        ints or symbols (strings), a leading ``'...'`` matching any prefix,
        or ``()``/``[]`` for a scalar. Equal symbols must have equal sizes.

    Returns:
      A ``NoOp`` (the checks are done when the graph is built).

    Raises:
      ValueError: a rank or size differs (TF's messages).
    """
    items = list(shapes.items()) if isinstance(shapes, dict) else list(shapes)
    prefix = _message_prefix(message)
    sizes: dict[Any, tuple[int, str, int]] = {}
    with op_scope(name, "assert_shapes", [t for t, _ in items]):
        for t, spec in items:
            x = convert_to_tensor(t)
            shown = "" if executing_eagerly() else x.name
            spec = [spec] if isinstance(spec, str) and spec != "..." else list(spec)
            dims = list(np.shape(x)) if executing_eagerly() else (None if x.shape.dims is None else x.shape.as_list())
            if dims is None:
                continue
            if spec and spec[0] == "...":
                spec = spec[1:]
                if len(dims) < len(spec):
                    raise ValueError(f"{prefix}Tensor {shown} must have rank at least {len(spec)}.  Received rank "
                                     f"{len(dims)}, shape {tuple(dims)}")
                dims_tail = dims[len(dims) - len(spec):]
                offset = len(dims) - len(spec)
            else:
                if len(dims) != len(spec):
                    raise ValueError(f"{prefix}Tensor {shown} must have rank {len(spec)}.  Received rank "
                                     f"{len(dims)}, shape {tuple(dims)}")
                dims_tail, offset = dims, 0
            for i, (sym, got) in enumerate(zip(spec, dims_tail, strict=True)):
                if got is None or sym in (None, "."):
                    continue
                if isinstance(sym, int | np.integer):
                    if got != int(sym):
                        raise ValueError(f"{prefix}Tensor {shown} dimension {i + offset} must have size {int(sym)}.  "
                                         f"Received size {got}, shape {tuple(dims)}")
                    continue
                if sym in sizes:
                    size, where, at = sizes[sym]
                    if got != size:
                        raise ValueError(f"{prefix}Specified by tensor {where} dimension {at}.  Tensor {shown} "
                                         f"dimension {i + offset} must have size {size}.  Received size {got}, "
                                         f"shape {tuple(dims)}")
                else:
                    sizes[sym] = (got, shown, i + offset)
        return None if executing_eagerly() else no_op(name="static_checks_determined_all_ok")


def is_numeric_tensor(tensor: Any) -> bool:
    """Whether ``tensor`` is a tensor of a numeric dtype (not bool/string), as
    ``tf.debugging.is_numeric_tensor`` (``False`` for Python values)."""
    t = as_graph_tensor(tensor)
    if not isinstance(t, Tensor) and not (executing_eagerly() and hasattr(t, "dtype") and hasattr(t, "shape")):
        return False
    d = _dtypes.as_dtype(t.dtype)
    return d.is_floating or d.is_complex or d.is_integer
