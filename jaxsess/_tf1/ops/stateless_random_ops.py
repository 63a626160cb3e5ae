"""Stateless random ops, as ``tf.random.stateless_*`` (``tf.compat.v1.random``).

Each result is a pure function of its ``seed`` (a ``[2]`` int32/int64
tensor, fed or constant) and its arguments, and it is TF's number: the
graph is TF 2.21's (``StatelessRandomGetKeyCounter(seed)`` -> ``key``,
``counter``; then ``StatelessRandomUniformV2`` / ``StatelessRandomNormalV2``
/ ``StatelessTruncatedNormalV2`` / ``StatelessRandomUniformIntV2`` /
``StatelessRandomUniformFullIntV2`` of ``(shape, key, counter, alg)``, and
``rnd * (maxval - minval) + minval`` / ``rnd * stddev + mean`` as TF's
Python writes them; ``StatelessMultinomial(logits, num_samples, seed)``),
and the values are those of TF's CPU kernels, computed by
:mod:`jaxsess._tf1.ops._philox`: uniform and integer values bit for bit,
normals up to the last-place differences of XLA's ``log``/``sin``/``cos``.
Categorical draws are TF's when TF's kernel runs as one shard (small
batches: see ``_philox.multinomial_one_shard``); past that TF's values
depend on its thread pool and jaxsess draws JAX's (still a pure function of
the seed). ``shape`` must be known when the graph is built. ``alg`` is
``'auto_select'`` (TF's default) or ``'philox'`` (the same numbers; TF's
Python scrambles the seed with other ops); ThreeFry is refused, as TF's CPU
kernels refuse it.
"""

from __future__ import annotations

from typing import Any

import jax
import numpy as np

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import apply_op, convert_to_tensor
from jaxsess._core.graph._graph import Tensor
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops import _philox, math_ops
from jaxsess._tf1.ops._args import label, op_scope, static_ints, tensor_dtype

__all__ = ["stateless_uniform", "stateless_normal", "stateless_truncated_normal", "stateless_categorical",
           "stateless_multinomial"]

_PHILOX, _THREEFRY, _AUTO_SELECT = 1, 2, 3  # TF's RNG_ALG_* ids
_FLOATS = (_dtypes.float16, _dtypes.bfloat16, _dtypes.float32, _dtypes.float64)
_INTS = (_dtypes.int32, _dtypes.int64, _dtypes.uint32, _dtypes.uint64)


def _key_counter_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    # uint64 out of an int32 seed: inferred here, as eval_shape without x64 would say uint32
    return [(TensorShape([1]), _dtypes.uint64), (TensorShape([2]), _dtypes.uint64)]


@register_op("StatelessRandomGetKeyCounter", num_outputs=2, default_name="StatelessRandomGetKeyCounter",
             infer=_key_counter_infer, tf=TFOp(types={"Tseed": 0}))
def _get_key_counter(seed: Any) -> Any:
    """``key`` ``uint64 [1]`` and ``counter`` ``uint64 [2]`` of ``seed`` (TF's ``GenerateKey``)."""
    return list(_philox.seed_key_counter64(seed))


def _shape_tf(attrs: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[np.ndarray]]:
    return {"dtype": attrs["dtype"]}, [np.asarray(attrs["shape"], np.int32).reshape(-1)]


def _shape_from_tf(attrs: dict[str, Any], consts: list[Any]) -> dict[str, Any]:
    return {"shape": tuple(int(d) for d in np.asarray(consts[0]).reshape(-1)), "dtype": attrs["dtype"]}


# TF's (shape, key, counter, alg[, minval, maxval]): the shape a Const before the data inputs
_V2 = TFOp(types={"Tshape": 0}, to_tf=_shape_tf, from_tf=_shape_from_tf, n_const=1, const_pos=0)


@register_op("StatelessRandomUniformV2", default_name="StatelessRandomUniformV2", tf=_V2)
def _uniform(key: Any, counter: Any, alg: Any, *, shape: tuple[int, ...], dtype: _dtypes.DType) -> Any:
    return _philox.stateless_uniform(_philox.key_counter_bits(key, counter), shape, dtype.np_dtype)


@register_op("StatelessRandomNormalV2", default_name="StatelessRandomNormalV2", tf=_V2)
def _normal(key: Any, counter: Any, alg: Any, *, shape: tuple[int, ...], dtype: _dtypes.DType) -> Any:
    return _philox.stateless_normal(_philox.key_counter_bits(key, counter), shape, dtype.np_dtype)


@register_op("StatelessTruncatedNormalV2", default_name="StatelessTruncatedNormalV2", tf=_V2)
def _truncated(key: Any, counter: Any, alg: Any, *, shape: tuple[int, ...], dtype: _dtypes.DType) -> Any:
    return _philox.stateless_truncated_normal(_philox.key_counter_bits(key, counter), shape, dtype.np_dtype)


@register_op("StatelessRandomUniformIntV2", default_name="StatelessRandomUniformIntV2", tf=_V2)
def _uniform_int(key: Any, counter: Any, alg: Any, lo: Any, hi: Any, *, shape: tuple[int, ...],
                 dtype: _dtypes.DType) -> Any:
    return _philox.stateless_uniform_int(_philox.key_counter_bits(key, counter), shape, lo, hi, dtype.np_dtype)


@register_op("StatelessRandomUniformFullIntV2", default_name="StatelessRandomUniformFullIntV2", tf=_V2)
def _full_int(key: Any, counter: Any, alg: Any, *, shape: tuple[int, ...], dtype: _dtypes.DType) -> Any:
    return _philox.stateless_full_int(_philox.key_counter_bits(key, counter), shape, dtype.np_dtype)


@register_op("StatelessMultinomial", default_name="StatelessMultinomial", tf=TFOp(
    types={"T": 0, "Tseed": 2},
    to_tf=lambda a, s: ({"output_dtype": a["output_dtype"]}, [np.asarray(a["num_samples"], np.int32)]),
    from_tf=lambda a, c: {"num_samples": int(np.asarray(c[0])), "output_dtype": a["output_dtype"]},
    n_const=1, const_pos=1))
def _multinomial(logits: Any, seed: Any, *, num_samples: int, output_dtype: _dtypes.DType) -> Any:
    b, c = logits.shape
    if b * num_samples > 0 and c > 0 and _philox.multinomial_one_shard(b, c, num_samples):
        bits = _philox.counter_bits(*_philox.key_counter_of_seed(seed))
        return _philox.multinomial_of(bits, logits, num_samples).astype(output_dtype.np_dtype)
    # TF's values depend on its thread pool here: JAX's draws, keyed by the seed
    words = seed.astype(np.uint32)
    key = jax.random.fold_in(jax.random.fold_in(jax.random.PRNGKey(0), words[0]), words[1])
    out = jax.random.categorical(key, logits, axis=-1, shape=(num_samples, b))
    return out.T.astype(output_dtype.np_dtype)


def _seed(seed: Any, fn: str) -> Any:
    s = convert_to_tensor(seed, name="seed")
    d = tensor_dtype(s)
    dims = TensorShape(s.shape).as_list() if TensorShape(s.shape).dims is not None else None
    if d not in (_dtypes.int32, _dtypes.int64) or (dims is not None and dims != [2]):
        raise ValueError(f"{fn}: seed must be an int32/int64 tensor of shape [2], got {d.name} of shape {dims} "
                         f"({label(s)}).")
    return s


def _alg(alg: Any, fn: str) -> int:
    """TF's ``convert_alg_to_int``: ``None``/``'auto_select'``/``'philox'`` or their ids (ThreeFry refused)."""
    ids = {None: _AUTO_SELECT, "auto_select": _AUTO_SELECT, "philox": _PHILOX, "philox4x32_10": _PHILOX,
           "threefry": _THREEFRY, "threefry2x32_20": _THREEFRY}
    key = alg.lower() if isinstance(alg, str) else alg
    value = ids.get(key, key) if key is None or isinstance(key, str) else getattr(alg, "value", alg)
    if value == _THREEFRY:
        raise NotImplementedError(f"{fn}: alg ThreeFry is not computed by jaxsess (TF's CPU kernels refuse it "
                                  f"too); use 'auto_select' or 'philox'.")
    if value not in (_PHILOX, _AUTO_SELECT):
        raise ValueError(f"Argument `alg` got unsupported value {alg}. Supported values are "
                         f"'philox', 'threefry', 'auto_select'.")
    return int(value)


def _key_counter(seed: Any, fn: str) -> tuple[Tensor, Tensor]:
    with op_scope(None, "StatelessRandomGetKeyCounter", []) as scope:
        s = _seed(seed, fn)
        key, counter = apply_op("StatelessRandomGetKeyCounter", (s,), {}, name=scope)
    return key, counter


def _draw(op_type: str, shape: tuple[int, ...], seed: Any, alg: int, dtype: _dtypes.DType, fn: str,
          extra: tuple[Any, ...] = (), name: str | None = None) -> Any:
    key, counter = _key_counter(seed, fn)
    with op_scope(name, op_type, []) as scope:
        a = convert_to_tensor(np.int32(alg), name="alg")
        return apply_op(op_type, (key, counter, a, *extra), {"shape": shape, "dtype": dtype}, name=scope)


def _check_float(d: _dtypes.DType, fn: str) -> None:
    if d not in _FLOATS:  # TF: mean/stddev do not convert, or the op's dtype attribute refuses it
        raise TypeError(f"{fn}: Value passed to parameter 'dtype' has DataType {d.name} not in list of allowed "
                        f"values: {', '.join(x.name for x in _FLOATS)}.")


def stateless_uniform(shape: Any, seed: Any, minval: Any = 0, maxval: Any = None, dtype: Any = _dtypes.float32,
                      name: str | None = None, alg: Any = "auto_select") -> Any:
    """TF's uniform samples in ``[minval, maxval)`` for ``seed``, as ``tf.random.stateless_uniform``.

    Args:
      shape: the static output shape (ints).
      seed: ``int32``/``int64`` ``[2]``.
      minval, maxval: bounds (floats: ``maxval`` defaults to 1); an integer ``dtype`` takes both,
        or both ``None``: every bit pattern of the type (``StatelessRandomUniformFullIntV2``).
      dtype: float16/bfloat16/float32/float64/int32/int64/uint32/uint64.

    Returns:
      ``dtype`` of ``shape``; an integer ``dtype`` draws ``minval + bits % (maxval - minval)``, as TF.

    Raises:
      ValueError: another ``dtype``; an integer ``dtype`` with one bound ``None``, or bounds with
        uint32/uint64; a ``seed`` not ``[2]`` int32/int64.
      NotImplementedError: ``alg`` ThreeFry.
    """
    fn = "stateless_uniform"
    d = _dtypes.as_dtype(dtype)
    if d not in _FLOATS + _INTS:
        raise ValueError(f"Argument `dtype` got invalid value {d!r}. Accepted dtypes are "
                         f"{', '.join(x.name for x in _FLOATS + _INTS)}.")
    if d.is_integer:
        if (minval is None) != (maxval is None):
            raise ValueError(f"For integer `dtype` argument {d!r}, argument `minval` and `maxval` must be both "
                             f"None or not None. Got `minval`={minval} and `maxval`={maxval}.")
        if minval is not None and d in (_dtypes.uint32, _dtypes.uint64):
            raise ValueError(f"Argument `dtype` got invalid value {d!r} when argument `minval` is not None. "
                             f"Please don't use unsigned integers in this case.")
    elif maxval is None:
        maxval = 1
    a = _alg(alg, fn)
    with op_scope(name, "stateless_random_uniform", [shape, seed, minval, maxval]) as scope:
        shp = static_ints(shape, fn, "shape")
        if d.is_integer and minval is None:
            return _draw("StatelessRandomUniformFullIntV2", shp, seed, a, d, fn, name=scope)
        lo = convert_to_tensor(minval, dtype=d, name="min")
        hi = convert_to_tensor(maxval, dtype=d, name="max")
        if d.is_integer:
            return _draw("StatelessRandomUniformIntV2", shp, seed, a, d, fn, (lo, hi), name=scope)
        rnd = _draw("StatelessRandomUniformV2", shp, seed, a, d, fn)
        return math_ops.add(math_ops.multiply(rnd, math_ops.subtract(hi, lo, name="sub"), name="mul"), lo,
                            name=scope)


def _normal_like(op_type: str, fn: str, scope_name: str, shape: Any, seed: Any, mean: Any, stddev: Any,
                 dtype: Any, name: str | None, alg: Any) -> Any:
    d = _dtypes.as_dtype(dtype)
    _check_float(d, fn)
    a = _alg(alg, fn)
    with op_scope(name, scope_name, [shape, seed, mean, stddev]) as scope:
        shp = static_ints(shape, fn, "shape")
        m = convert_to_tensor(mean, dtype=d, name="mean")
        s = convert_to_tensor(stddev, dtype=d, name="stddev")
        rnd = _draw(op_type, shp, seed, a, d, fn)
        return math_ops.add(math_ops.multiply(rnd, s, name="mul"), m, name=scope)


def stateless_normal(shape: Any, seed: Any, mean: Any = 0.0, stddev: Any = 1.0, dtype: Any = _dtypes.float32,
                     name: str | None = None, alg: Any = "auto_select") -> Any:
    """TF's N(mean, stddev²) samples for ``seed``, as ``tf.random.stateless_normal``
    (float16/bfloat16/float32/float64; ``StatelessRandomNormalV2 * stddev + mean``).

    Raises:
      TypeError: a non-floating ``dtype``.
      ValueError: a bad ``seed``.
    """
    return _normal_like("StatelessRandomNormalV2", "stateless_normal", "stateless_random_normal", shape, seed,
                        mean, stddev, dtype, name, alg)


def stateless_truncated_normal(shape: Any, seed: Any, mean: Any = 0.0, stddev: Any = 1.0,
                               dtype: Any = _dtypes.float32, name: str | None = None,
                               alg: Any = "auto_select") -> Any:
    """TF's normal samples within two standard deviations for ``seed``, as
    ``tf.random.stateless_truncated_normal`` (``StatelessTruncatedNormalV2 * stddev + mean``).

    Raises:
      TypeError: a non-floating ``dtype``.
      ValueError: a bad ``seed``.
    """
    return _normal_like("StatelessTruncatedNormalV2", "stateless_truncated_normal", "stateless_truncated_normal",
                        shape, seed, mean, stddev, dtype, name, alg)


def _categorical(fn: str, logits: Any, num_samples: Any, seed: Any, dtype: Any, name: str | None) -> Any:
    d = _dtypes.as_dtype(dtype) if dtype is not None else _dtypes.int64
    if d not in (_dtypes.int32, _dtypes.int64):
        raise ValueError(f"Argument `dtype` got invalid value {d!r}. Accepted dtypes are int32, int64.")
    with op_scope(name, fn, [logits, seed]):
        lg = convert_to_tensor(logits, name="logits")
        n = int(static_ints(num_samples, fn, "num_samples")[0])
        with op_scope(None, "StatelessMultinomial", []) as scope:
            s = _seed(seed, fn)
            return apply_op("StatelessMultinomial", (lg, s), {"num_samples": n, "output_dtype": d}, name=scope)


def stateless_categorical(logits: Any, num_samples: Any, seed: Any, dtype: Any = _dtypes.int64,
                          name: str | None = None) -> Any:
    """``[batch, num_samples]`` class indices from ``logits`` ``[batch, classes]`` for ``seed``
    (TF's draws for one-shard sizes), as ``tf.random.stateless_categorical``.

    Raises:
      ValueError: ``dtype`` not int32/int64, or a bad ``seed``.
    """
    return _categorical("stateless_categorical", logits, num_samples, seed, dtype, name)


def stateless_multinomial(logits: Any, num_samples: Any, seed: Any, output_dtype: Any = _dtypes.int64,
                          name: str | None = None) -> Any:
    """:func:`stateless_categorical` under its TF1 name, as ``tf.random.stateless_multinomial``."""
    return _categorical("stateless_multinomial", logits, num_samples, seed, output_dtype, name)
