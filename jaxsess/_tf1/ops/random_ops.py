"""Random ops with TF1 seeding, as ``tf.compat.v1.random_*`` and ``nn.dropout``.

Seeds follow TF 2.21's ``tf.compat.v1.get_seed``: with a graph seed
(:func:`set_random_seed`) and no op seed, the op seed counts the seeds the
graph handed out before (0, 1, 2, ...); with neither, seeds are drawn at
random when the op is created and each session starts its draw counter at a
random value. Every ``run`` of a random op draws new values (the op's
counter advances), and a new session with the same seeds repeats the same
sequence.

The values of seeded ops (a graph or an op seed) are TF's: ``random_uniform``, ``random_normal``,
``truncated_normal`` (float32, float16, bfloat16), integer
``random_uniform`` (int32), ``nn.dropout`` and ``random_shuffle`` draw TF's CPU Philox streams
(:mod:`jaxsess._tf1.ops._philox`), so a program seeded with
``set_random_seed`` gets TF's initial weights and dropout masks, run after
run. Inside ``while_loop``/``scan`` bodies the iterations draw one after
another from the op's stream, and an op in a ``cond`` branch draws only in the
runs that take the branch, as TF. Ops without an op seed inside a branch, a
loop body or a function count their seeds from 0, as TF's ``FuncGraph``; a
variable's initial value counts in the graph's count (``init_scope``). For
64-bit types and for the other random ops the draws are JAX's (same
distribution, other values).
"""

from __future__ import annotations

import contextlib
import math
import numbers
import random as _pyrandom
import threading
import weakref
from collections.abc import Iterator
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core import _context as _context, dtypes as _dtypes
from jaxsess._core.graph import _tf2_behavior as _tf2
from jaxsess._core.graph._builder import constant_value, convert_to_tensor
from jaxsess._core.graph._dynamic import register_dynamic
from jaxsess._core.graph._graph import Operation, get_default_graph
from jaxsess._core.graph._host import register_host
from jaxsess._core.graph._registry import register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops import _philox as _philox
from jaxsess._tf1.ops._args import apply, op_scope, shape_arg

__all__ = [
    "set_random_seed",
    "get_seed",
    "random_normal",
    "random_uniform",
    "truncated_normal",
    "random_shuffle",
    "multinomial",
    "categorical",
    "random_gamma",
    "random_poisson",
    "dropout",
    "DEFAULT_GRAPH_SEED",
]

DEFAULT_GRAPH_SEED = 87654321
_MAXINT = 2**31 - 1


def set_random_seed(seed: int | None) -> None:
    """Sets the graph-level seed of the default graph, as ``tf.compat.v1.set_random_seed``."""
    eager = _context.current_eager_session()
    if eager is not None:
        eager._eager_seed = seed
        return
    get_default_graph().seed = None if seed is None else int(seed)


# Seeds handed out per graph to ops without an op seed (TF 2.21's
# random_seed._graph_to_seed_dict): 0, 1, 2, ... in creation order. The graph's
# own count first, then one per control-flow body or function being built: TF
# builds those in a FuncGraph of their own, which counts from 0 (the last one
# counts).
_graph_seed_counts: weakref.WeakKeyDictionary[Any, list[int]] = weakref.WeakKeyDictionary()


class _FreshSeeds(threading.local):
    depth = 0


_fresh = _FreshSeeds()
# Op seeds handed out inside fresh_seeds(): a count of their own, above the graph's.
_FRESH_BASE = 2**30
_fresh_seed_counts: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()


@contextlib.contextmanager
def fresh_seeds() -> Iterator[None]:
    """Ops made inside without an op seed leave the graph's count of op seeds
    alone: TF 2.x draws Keras' default initializers (``tf.layers`` and
    ``tf.keras`` layers without an initializer, or one given by name) from
    stateless ops with fresh random seeds, so the seeded ops that follow get
    the op seeds they would get without them. With a graph seed they still
    draw reproducibly here (op seeds from ``2**30`` on, a count of their own).
    After ``disable_v2_behavior()`` this does nothing: TF1's initializers take
    the graph's op seeds."""
    _fresh.depth += 1
    try:
        yield
    finally:
        _fresh.depth -= 1


@contextlib.contextmanager
def function_seeds(graph: Any) -> Iterator[None]:
    """Ops without an op seed created inside count their seeds from 0, and the
    enclosing count resumes after: as TF 2.x builds a ``cond`` branch, a
    ``while_loop`` body or a function in a ``FuncGraph`` with its own count.
    With control flow v2 off (``disable_v2_behavior()``: TF1's control flow,
    built in the graph itself) they count on in the enclosing count."""
    if not _tf2.control_flow_v2_enabled():
        yield
        return
    counts = _graph_seed_counts.setdefault(graph, [0])
    counts.append(0)
    try:
        yield
    finally:
        counts.pop()


@contextlib.contextmanager
def lifted_seeds(graph: Any) -> Iterator[None]:
    """Ops created inside count their seeds in the graph's own count, also
    inside a body being built: as TF's ``init_scope``, which builds a
    variable's initial value in the outermost graph."""
    counts = _graph_seed_counts.setdefault(graph, [0])
    inner = counts[1:]
    del counts[1:]
    try:
        yield
    finally:
        counts.extend(inner)


def _truncate_seed(seed: int) -> int:
    return int(seed) % _MAXINT  # truncate to fit into 32-bit integer


def get_seed(op_seed: int | None) -> tuple[int | None, int | None]:
    """The ``(graph seed, op seed)`` pair for a new random op, as TF 2.21's
    ``tf.compat.v1.get_seed``: with a graph seed and no op seed, the op seed
    is the number of seeds the graph handed out so far; both truncated to 31
    bits; ``(0, 0)`` becomes ``(0, 2**31 - 1)``."""
    eager = _context.current_eager_session()
    if eager is not None:
        global_seed = getattr(eager, "_eager_seed", None)
        state = getattr(eager, "_eager_state", None)
        next_id = len(state._counters) if state else 0
    else:
        g = get_default_graph()
        global_seed = g.seed
    if global_seed is not None:
        if op_seed is None:
            if eager is not None:
                op_seed = next_id
            else:
                if _fresh.depth and _tf2.enabled():
                    op_seed = _FRESH_BASE + _fresh_seed_counts.get(g, 0)
                    _fresh_seed_counts[g] = op_seed - _FRESH_BASE + 1
                else:
                    counts = _graph_seed_counts.setdefault(g, [0])
                    op_seed = counts[-1]
                    counts[-1] += 1
        seeds = _truncate_seed(global_seed), _truncate_seed(op_seed)
    elif op_seed is not None:
        seeds = DEFAULT_GRAPH_SEED, _truncate_seed(op_seed)
    else:
        return None, None
    if seeds == (0, 0):
        return 0, _MAXINT
    return seeds


def seed_attrs(seed: int | None) -> dict[str, Any]:
    """A random op's seed attributes for op seed ``seed`` (see :func:`get_seed`):
    ``seed``, ``seed2`` and ``seeded`` (False: neither seed set; ``seed``/``seed2``
    are then drawn here)."""
    s1, s2 = get_seed(seed)
    if s1 is None:
        return {"seed": _pyrandom.randint(0, _MAXINT), "seed2": _pyrandom.randint(0, _MAXINT), "seeded": False}
    return {"seed": s1, "seed2": s2, "seeded": True}


def _sample_shape(shape: Any, fn: str) -> Any:
    """A random op's ``shape``: static, or computed from tensor shapes when the
    run is traced (``tf.shape(z)`` with an unknown batch dimension)."""
    return shape_arg(shape, fn, "shape")


def _sample_out_shape(shapes: Any, attrs: dict[str, Any]) -> TensorShape:
    partial = attrs["shape"]
    return TensorShape(None if partial is None else [d if isinstance(d, int) else None for d in partial])


def _shape_attr(shape: Any, what: str = "shape") -> tuple[int, ...]:
    val = constant_value(shape)
    if val is None:
        raise ValueError(
            f"jaxsess needs the {what} of a random op known when the graph is built "
            f"(a list or a constant tensor); got {shape!r}."
        )
    return tuple(int(d) for d in np.reshape(val, (-1,)))


def _random(op_type: str, inputs: tuple[Any, ...], attrs: dict[str, Any], seed: int | None, name: str | None) -> Any:
    attrs = {**attrs, **seed_attrs(seed)}
    return apply(op_type, inputs, attrs, name)


def _tf_stream(ctx: Any, seed: int, seed2: int, dtype: Any, shape: tuple[int, ...], seeded: bool) -> Any:
    """Where the op starts in TF's Philox stream when it draws from it (see
    the module docstring): the values it drew in earlier runs; else ``None``
    (JAX's draws). Unseeded ops draw JAX's values: TF's are not reproducible
    there, and JAX's generator is cheaper (a dropout-heavy training step
    runs about 10 % faster)."""
    if not seeded:
        return None
    if np.dtype(dtype) not in _philox.SUPPORTED_FLOATS and np.dtype(dtype) != np.int32:
        return None
    if not all(isinstance(d, int) for d in shape):  # symbolic (shape-polymorphic export): JAX's draws
        return None
    return ctx.rng_stream(seed, seed2, math.prod(shape))


@register_op("RandomStandardNormal", stateful=True, random=True, default_name="random_normal")
def _normal(ctx: Any, mean: Any, stddev: Any, *, shape: tuple[int, ...], dtype: Any, seed: int, seed2: int, seeded: bool) -> Any:
    run = _tf_stream(ctx, seed, seed2, dtype.np_dtype, shape, seeded)
    if run is not None:
        return _philox.normal(seed, seed2, run, shape, dtype.np_dtype) * stddev + mean
    key = ctx.rng_key(seed, seed2)
    return jax.random.normal(key, shape, dtype.np_dtype) * stddev + mean


@register_op("RandomUniform", stateful=True, random=True, default_name="random_uniform")
def _uniform(ctx: Any, lo: Any, hi: Any, *, shape: tuple[int, ...], dtype: Any, seed: int, seed2: int, seeded: bool) -> Any:
    run = _tf_stream(ctx, seed, seed2, dtype.np_dtype, shape, seeded)
    if run is not None:
        if dtype.is_integer:  # TF's RandomUniformInt
            return _philox.uniform_int(seed, seed2, run, shape, lo, hi)
        return _philox.uniform(seed, seed2, run, shape, dtype.np_dtype) * (hi - lo) + lo
    key = ctx.rng_key(seed, seed2)
    if dtype.is_integer:
        return jax.random.randint(key, shape, lo, hi, dtype.np_dtype)
    return jax.random.uniform(key, shape, dtype.np_dtype, lo, hi)


@register_op("TruncatedNormal", stateful=True, random=True, default_name="truncated_normal")
def _truncated(ctx: Any, mean: Any, stddev: Any, *, shape: tuple[int, ...], dtype: Any, seed: int, seed2: int, seeded: bool) -> Any:
    run = _tf_stream(ctx, seed, seed2, dtype.np_dtype, shape, seeded)
    if run is not None:
        return _philox.truncated_normal(seed, seed2, run, shape, dtype.np_dtype) * stddev + mean
    key = ctx.rng_key(seed, seed2)
    return jax.random.truncated_normal(key, -2.0, 2.0, shape, dtype.np_dtype) * stddev + mean


@register_op("RandomShuffle", stateful=True, random=True, default_name="random_shuffle")
def _shuffle(ctx: Any, x: Any, *, seed: int, seed2: int, seeded: bool) -> Any:
    if x.ndim == 0:
        return x
    n = x.shape[0]
    if seeded and isinstance(n, int) and n < 2**31:  # TF's permutation (the counter counts 128-bit samples here)
        drawn = ctx.rng_stream(seed, seed2, _philox.shuffle_samples(n))
        if drawn is not None:
            return jnp.take(x, _philox.shuffle_permutation(seed, seed2, drawn, n), axis=0)
    key = ctx.rng_key(seed, seed2)
    return jax.random.permutation(key, x, axis=0, independent=False)


def _same_as_input(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape(specs[0][0]), specs[0][1])]


@register_host("RandomShuffle", infer=_same_as_input)
def _host_shuffle(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    # Strings are shuffled on the host (string_input_producer): a seeded op draws TF's
    # permutations from its Philox stream, run after run, anew in each session.
    a = op.attrs
    rng = ctx.resources.get(op)
    if rng is None:
        rng = ctx.resources[op] = (_philox.HostPhilox(a["seed"], a["seed2"]) if a["seeded"]
                                   else np.random.default_rng())
    x = np.asarray(inputs[0], dtype=object)
    if x.ndim == 0:
        return (x,)
    return (x[rng.permutation(len(x))],)


@register_op("Multinomial", stateful=True, random=True, default_name="multinomial")
def _multinomial(ctx: Any, logits: Any, *, num_samples: int, output_dtype: Any, seed: int, seed2: int, seeded: bool) -> Any:
    b, c = logits.shape
    if (seeded and isinstance(b, int) and isinstance(c, int) and b * num_samples > 0 and c > 0
            and _philox.multinomial_one_shard(b, c, num_samples)):
        # TF's draws (TF reserves 2 * ceil4(num_samples) values per row); past one shard TF's
        # values depend on its thread pool, so JAX's draws are as good
        drawn = ctx.rng_stream(seed, seed2, b * ((num_samples + 3) // 4 * 4) * 2)
        return _philox.multinomial(seed, seed2, drawn, logits, num_samples).astype(output_dtype.np_dtype)
    key = ctx.rng_key(seed, seed2)
    out = jax.random.categorical(key, logits, axis=-1, shape=(num_samples, logits.shape[0]))
    return out.T.astype(output_dtype.np_dtype)


for _base in ("RandomStandardNormal", "RandomUniform", "TruncatedNormal"):
    register_dynamic(_base, _sample_out_shape, lambda dtypes, attrs: attrs["dtype"])


def _float_dtype(dtype: Any) -> _dtypes.DType:
    d = _dtypes.canonical(dtype)
    if not d.is_floating:
        raise ValueError(f"Invalid dtype {d.name}: a floating dtype is required.")
    return d


def random_normal(shape: Any, mean: Any = 0.0, stddev: Any = 1.0, dtype: Any = _dtypes.float32,
                  seed: int | None = None, name: str | None = None) -> Any:
    """Samples from N(mean, stddev²) of the given shape, as ``tf.random.normal``.

    Args:
      shape: a list or constant tensor, or a tensor computed from tensor
        shapes (``tf.shape(z)``), known when the run is traced.
      mean, stddev: scalars or tensors broadcastable to ``shape``.
      dtype: a floating dtype.
      seed: the op seed (see :func:`set_random_seed`).
    """
    d = _float_dtype(dtype)
    return _random("RandomStandardNormal", (convert_to_tensor(mean, d), convert_to_tensor(stddev, d)),
                   {"shape": _sample_shape(shape, "random_normal"), "dtype": d}, seed, name)


def random_uniform(shape: Any, minval: Any = 0, maxval: Any = None, dtype: Any = _dtypes.float32,
                   seed: int | None = None, name: str | None = None) -> Any:
    """Samples uniformly from ``[minval, maxval)``, as ``tf.random.uniform``.

    Raises:
      ValueError: an integer dtype without ``maxval``.
    """
    d = _dtypes.canonical(dtype)
    if maxval is None:
        if d.is_integer:
            raise ValueError(f"Must specify maxval for integer dtype {d.name}")
        maxval = 1
    return _random("RandomUniform", (convert_to_tensor(minval, d), convert_to_tensor(maxval, d)),
                   {"shape": _sample_shape(shape, "random_uniform"), "dtype": d}, seed, name)


def truncated_normal(shape: Any, mean: Any = 0.0, stddev: Any = 1.0, dtype: Any = _dtypes.float32,
                     seed: int | None = None, name: str | None = None) -> Any:
    """N(mean, stddev²) samples redrawn beyond two standard deviations, as ``tf.random.truncated_normal``."""
    d = _float_dtype(dtype)
    return _random("TruncatedNormal", (convert_to_tensor(mean, d), convert_to_tensor(stddev, d)),
                   {"shape": _sample_shape(shape, "truncated_normal"), "dtype": d}, seed, name)


def random_shuffle(value: Any, seed: int | None = None, name: str | None = None) -> Any:
    """``value`` with its first dimension shuffled, as ``tf.random.shuffle``."""
    return _random("RandomShuffle", (convert_to_tensor(value),), {}, seed, name)


def multinomial(logits: Any, num_samples: int, seed: int | None = None, name: str | None = None,
                output_dtype: Any = _dtypes.int64) -> Any:
    """Samples ``[batch, num_samples]`` class indices from ``logits [batch, classes]``, as
    ``tf.compat.v1.multinomial`` (named ``multinomial/Multinomial`` as TF)."""
    with op_scope(name, "multinomial", [logits]):
        return _random("Multinomial", (convert_to_tensor(logits),),
                       {"num_samples": int(num_samples), "output_dtype": _dtypes.canonical(output_dtype)}, seed,
                       "Multinomial")


def categorical(logits: Any, num_samples: int, dtype: Any = None, seed: int | None = None,
                name: str | None = None) -> Any:
    """Samples ``[batch, num_samples]`` class indices (``dtype``, default int64) from ``logits
    [batch, classes]``, as ``tf.random.categorical`` (named ``categorical/Multinomial`` as TF)."""
    with op_scope(name, "categorical", [logits]):
        return _random("Multinomial", (convert_to_tensor(logits),),
                       {"num_samples": int(num_samples),
                        "output_dtype": _dtypes.canonical(_dtypes.int64 if dtype is None else dtype)}, seed,
                       "Multinomial")


@register_op("RandomGamma", stateful=True, random=True, default_name="random_gamma")
def _gamma(ctx: Any, alpha: Any, beta: Any, *, shape: tuple[int, ...], seed: int, seed2: int, seeded: bool) -> Any:
    key = ctx.rng_key(seed, seed2)
    out_shape = tuple(shape) + jnp.broadcast_shapes(alpha.shape, beta.shape)
    a = jnp.broadcast_to(alpha, out_shape)
    # jax.random.gamma is differentiable in alpha (implicit reparameterisation, as TF's RandomGamma grad)
    return jax.random.gamma(key, a, out_shape, alpha.dtype) / beta


def random_gamma(shape: Any, alpha: Any, beta: Any = None, dtype: Any = _dtypes.float32, seed: int | None = None,
                 name: str | None = None) -> Any:
    """Samples ``shape + broadcast(alpha, beta).shape`` values from Gamma(alpha, rate=beta), as
    ``tf.random.gamma`` (``beta`` defaults to 1; gradients flow to ``alpha`` and ``beta``).

    Args:
      shape: a static list of the sample dimensions.
      alpha: the concentration (shape) parameter, floating.
      beta: the rate (inverse scale) parameter, broadcastable with ``alpha``.
      dtype: float16/32/64.

    Raises:
      ValueError: ``shape`` not known when the graph is built.
    """
    d = _float_dtype(dtype)
    alpha_t = convert_to_tensor(alpha, d)
    beta_t = convert_to_tensor(1.0 if beta is None else beta, d)
    return _random("RandomGamma", (alpha_t, beta_t), {"shape": _shape_attr(shape)}, seed, name)


@register_op("RandomPoisson", stateful=True, random=True, default_name="random_poisson")
def _poisson(ctx: Any, lam: Any, *, shape: tuple[int, ...], dtype: Any, seed: int, seed2: int, seeded: bool) -> Any:
    key = ctx.rng_key(seed, seed2)
    out_shape = tuple(shape) + lam.shape
    out = jax.random.poisson(key, jnp.broadcast_to(lam, out_shape).astype(jnp.float32), out_shape)
    return out.astype(dtype.np_dtype)


def random_poisson(lam: Any, shape: Any, dtype: Any = _dtypes.float32, seed: int | None = None,
                   name: str | None = None) -> Any:
    """Samples ``shape + lam.shape`` counts from Poisson(lam), as ``tf.random.poisson`` (TF1 argument
    order ``(lam, shape)``; ``dtype`` float or int32/int64).

    Raises:
      ValueError: ``shape`` not known when the graph is built.
    """
    lam_t = convert_to_tensor(lam)
    if not lam_t.dtype.is_floating:
        lam_t = convert_to_tensor(lam, _dtypes.float32)
    return _random("RandomPoisson", (lam_t,), {"shape": _shape_attr(shape), "dtype": _dtypes.canonical(dtype)},
                   seed, name)


def _dropout_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    (shape, dtype), _ = specs  # the result has x's shape whatever the rate's, as TF sets it
    return [(TensorShape(shape), dtype)]


@register_op("Dropout", stateful=True, random=True, default_name="dropout", infer=_dropout_infer)
def _dropout(ctx: Any, x: Any, rate: Any, *, noise_shape: Any, seed: int, seed2: int, seeded: bool,
             scale: float | None = None) -> Any:
    shape = tuple(x.shape if noise_shape is None else noise_shape)
    kept = x * jnp.asarray(scale, x.dtype) if scale is not None else x / (1 - rate)
    run = _tf_stream(ctx, seed, seed2, x.dtype, shape, seeded) if np.dtype(x.dtype) != np.int32 else None
    if run is not None:  # TF's draws: where(uniform >= rate, kept, 0)
        keep = _philox.uniform(seed, seed2, run, shape, x.dtype) >= rate
    else:
        keep = jax.random.uniform(ctx.rng_key(seed, seed2), shape, x.dtype) >= rate
    return jnp.where(keep, kept, jnp.zeros((), x.dtype))


def dropout(x: Any, keep_prob: Any = None, noise_shape: Any = None, seed: int | None = None,
            name: str | None = None, rate: Any = None) -> Any:
    """Zeroes elements with probability ``rate`` and scales the rest by
    ``1 / (1 - rate)``, as ``tf.compat.v1.nn.dropout``.

    Args:
      x: a floating tensor.
      keep_prob: (deprecated TF1 form) the keep probability, ``1 - rate``.
      noise_shape: optional static shape broadcastable to ``x``'s.
      rate: the drop probability in ``[0, 1)``; a tensor may be fed.

    Raises:
      ValueError: both or neither of ``keep_prob``/``rate``, or a constant
        rate outside ``[0, 1)``.
    """
    if (keep_prob is None) == (rate is None):
        raise ValueError("Provide exactly one of keep_prob and rate.")
    if rate is None:
        rate = 1 - keep_prob  # as TF1: a tensor keep_prob gives a `sub` op outside the dropout scope
    if isinstance(rate, numbers.Real) and not isinstance(rate, bool):
        if not 0 <= float(rate) < 1:
            raise ValueError(f"rate must be a scalar tensor or a float in the range [0, 1), got {float(rate)}")
        if float(rate) == 0:  # TF returns x itself (no dropout scope, no ops)
            return convert_to_tensor(x)
    with op_scope(name, "dropout", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        r = convert_to_tensor(rate, _dtypes.as_dtype(x.dtype))
        rv = constant_value(r)
        if rv is not None and not (0 <= float(rv) < 1):
            raise ValueError(f"rate must be a scalar tensor or a float in the range [0, 1), got {float(rv)}")
        ns = None if noise_shape is None else _shape_attr(noise_shape, "noise_shape")
        # the result is named `<scope>/SelectV2:0`, as TF 2.x's dropout (a select of the kept elements)
        # as TF: a Python rate scales by 1 / (1 - rate) computed in double, a tensor rate divides
        scale = 1 / (1 - float(rate)) if isinstance(rate, numbers.Real) and not isinstance(rate, bool) else None
        return _random("Dropout", (x, r), {"noise_shape": ns, "scale": scale}, seed,
                       None if scope is None else "SelectV2")

