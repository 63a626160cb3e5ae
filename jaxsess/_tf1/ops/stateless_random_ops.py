"""Stateless random ops, as ``tf.random.stateless_*`` (``tf.compat.v1.random``).

Each result is a pure function of its ``seed`` (a ``[2]`` int32/int64
tensor, fed or constant) and its arguments: equal seeds give equal values,
in one run or across runs and sessions, as TF. The values are JAX's
(threefry keyed by the two seed words), not TF's Philox stream, so they
differ from TF's numbers with the same seed; their distributions, shapes and
dtypes are TF's. ``shape`` must be known when the graph is built.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import apply_op, convert_to_tensor
from jaxsess._core.graph._registry import register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops._args import label, op_scope, static_ints, tensor_dtype

__all__ = ["stateless_uniform", "stateless_normal", "stateless_truncated_normal", "stateless_categorical",
           "stateless_multinomial"]


def _key(seed: Any) -> Any:
    words = seed.astype(jnp.uint32)
    return jax.random.fold_in(jax.random.fold_in(jax.random.PRNGKey(0), words[0]), words[1])


@register_op("StatelessRandomUniformV2", default_name="StatelessRandomUniformV2")
def _uniform(seed: Any, lo: Any, hi: Any, *, shape: tuple[int, ...], dtype: _dtypes.DType) -> Any:
    if dtype.is_integer:
        return jax.random.randint(_key(seed), shape, lo, hi, dtype.np_dtype)
    return jax.random.uniform(_key(seed), shape, dtype.np_dtype, lo, hi)


@register_op("StatelessRandomNormalV2", default_name="StatelessRandomNormalV2")
def _normal(seed: Any, mean: Any, stddev: Any, *, shape: tuple[int, ...], dtype: _dtypes.DType) -> Any:
    return jax.random.normal(_key(seed), shape, dtype.np_dtype) * stddev + mean


@register_op("StatelessTruncatedNormalV2", default_name="StatelessTruncatedNormalV2")
def _truncated(seed: Any, mean: Any, stddev: Any, *, shape: tuple[int, ...], dtype: _dtypes.DType) -> Any:
    return jax.random.truncated_normal(_key(seed), -2.0, 2.0, shape, dtype.np_dtype) * stddev + mean


@register_op("StatelessMultinomial", default_name="StatelessMultinomial")
def _multinomial(seed: Any, logits: Any, *, num_samples: int, output_dtype: _dtypes.DType) -> Any:
    out = jax.random.categorical(_key(seed), logits, axis=-1, shape=(num_samples, logits.shape[0]))
    return out.T.astype(output_dtype.np_dtype)


def _seed(seed: Any, fn: str) -> Any:
    s = convert_to_tensor(seed, name="seed")
    d = tensor_dtype(s)
    dims = TensorShape(s.shape).as_list() if TensorShape(s.shape).dims is not None else None
    if d not in (_dtypes.int32, _dtypes.int64) or (dims is not None and dims != [2]):
        raise ValueError(f"{fn}: seed must be an int32/int64 tensor of shape [2], got {d.name} of shape {dims} "
                         f"({label(s)}).")
    return s


def _shape(shape: Any, fn: str) -> tuple[int, ...]:
    return tuple(static_ints(shape, fn, "shape"))


def stateless_uniform(shape: Any, seed: Any, minval: Any = 0, maxval: Any = None, dtype: Any = _dtypes.float32,
                      name: str | None = None, alg: Any = "auto_select") -> Any:
    """Deterministic uniform samples in ``[minval, maxval)``, as ``tf.random.stateless_uniform``.

    Raises:
      ValueError: an integer ``dtype`` without both bounds, or a bad ``seed``.
    """
    d = _dtypes.as_dtype(dtype)
    if d.is_integer and (minval is None or maxval is None):
        raise ValueError(f"For integer dtype {d!r}, minval and maxval must be both `None` or both non-`None`; "
                         f"got minval={minval} and maxval={maxval}.")
    with op_scope(name, "stateless_random_uniform", [shape, seed, minval, maxval]) as scope:
        attrs = {"shape": _shape(shape, "stateless_uniform"), "dtype": d}
        lo = convert_to_tensor(minval, dtype=d, name="min")
        hi = convert_to_tensor(1 if maxval is None else maxval, dtype=d, name="max")
        return apply_op("StatelessRandomUniformV2", (_seed(seed, "stateless_uniform"), lo, hi), attrs, name=scope)


def _normal_like(op_type: str, fn: str, scope_name: str, shape: Any, seed: Any, mean: Any, stddev: Any,
                 dtype: Any, name: str | None) -> Any:
    d = _dtypes.as_dtype(dtype)
    if not d.is_floating:
        raise ValueError(f"{fn}: dtype must be a floating dtype, got {d.name}.")
    with op_scope(name, scope_name, [shape, seed, mean, stddev]) as scope:
        attrs = {"shape": _shape(shape, fn), "dtype": d}
        m = convert_to_tensor(mean, dtype=d, name="mean")
        s = convert_to_tensor(stddev, dtype=d, name="stddev")
        return apply_op(op_type, (_seed(seed, fn), m, s), attrs, name=scope)


def stateless_normal(shape: Any, seed: Any, mean: Any = 0.0, stddev: Any = 1.0, dtype: Any = _dtypes.float32,
                     name: str | None = None, alg: Any = "auto_select") -> Any:
    """Deterministic N(mean, stddev²) samples, as ``tf.random.stateless_normal``."""
    return _normal_like("StatelessRandomNormalV2", "stateless_normal", "stateless_random_normal", shape, seed,
                        mean, stddev, dtype, name)


def stateless_truncated_normal(shape: Any, seed: Any, mean: Any = 0.0, stddev: Any = 1.0,
                               dtype: Any = _dtypes.float32, name: str | None = None,
                               alg: Any = "auto_select") -> Any:
    """Deterministic normal samples redrawn beyond two standard deviations, as
    ``tf.random.stateless_truncated_normal``."""
    return _normal_like("StatelessTruncatedNormalV2", "stateless_truncated_normal", "stateless_truncated_normal",
                        shape, seed, mean, stddev, dtype, name)


def _categorical(fn: str, logits: Any, num_samples: Any, seed: Any, dtype: Any, name: str | None) -> Any:
    with op_scope(name, fn, [logits, seed]):
        lg = convert_to_tensor(logits, name="logits")
        attrs = {"num_samples": int(static_ints(num_samples, fn, "num_samples")[0]),
                 "output_dtype": _dtypes.as_dtype(dtype)}
        return apply_op("StatelessMultinomial", (_seed(seed, fn), lg), attrs)


def stateless_categorical(logits: Any, num_samples: Any, seed: Any, dtype: Any = _dtypes.int64,
                          name: str | None = None) -> Any:
    """Deterministic ``[batch, num_samples]`` class indices from ``logits`` ``[batch, classes]``, as
    ``tf.random.stateless_categorical``."""
    return _categorical("stateless_categorical", logits, num_samples, seed, dtype, name)


def stateless_multinomial(logits: Any, num_samples: Any, seed: Any, output_dtype: Any = _dtypes.int64,
                          name: str | None = None) -> Any:
    """:func:`stateless_categorical` under its TF1 name, as ``tf.random.stateless_multinomial``."""
    return _categorical("stateless_multinomial", logits, num_samples, seed, output_dtype, name)
