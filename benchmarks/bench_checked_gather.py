"""What TF1's run-time index and division checks would cost a training step.

TF1 on CPU raises ``InvalidArgumentError`` for ``tf.gather`` with an
out-of-range index and for integer ``//``/``%`` by zero; XLA clamps the
index (or fills with zeros) and defines ``x // 0``, so jaxsess returns a
value (README, "Known differences"). This measures what matching TF would
cost in the step of an embedding model (``gather`` of a ``[1000, 32]``
table with 128 indices, a dense layer, SGD with donated parameters):

* ``plain``: the jitted step, dispatched asynchronously (what a
  ``Session.run(train_op)`` executes);
* ``checked``: the same step under ``jax.experimental.checkify`` with
  ``index_checks | div_checks``, whose error must be read on the host after
  every step (``err.throw()``) to raise before the next step runs — the
  read waits for the step, so steps no longer overlap with Python dispatch.

Prints steps/s of each and the ratio checked / plain.

Usage: ``python benchmarks/bench_checked_gather.py [--quick] [--steps N]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import checkify


def _loss(params: dict[str, jax.Array], ids: jax.Array, y: jax.Array) -> jax.Array:
    h = jnp.take(params["emb"], ids, axis=0).mean(axis=1)
    logits = h @ params["w"]
    return jnp.mean((logits - y) ** 2) + jnp.sum(ids // 7) * 0.0


def _step(params: dict[str, jax.Array], ids: jax.Array, y: jax.Array) -> dict[str, jax.Array]:
    g = jax.grad(_loss)(params, ids, y)
    return jax.tree_util.tree_map(lambda p, d: p - 0.01 * d, params, g)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="30 steps, 2 repeats (a smoke run)")
    args = ap.parse_args()
    if args.quick:
        args.steps, args.repeats = 30, 2
    rng = np.random.default_rng(0)
    ids = rng.integers(0, 1000, (128, 4)).astype(np.int32)
    y = rng.normal(size=(128, 8)).astype(np.float32)
    init = {"emb": rng.normal(size=(1000, 32)).astype(np.float32), "w": rng.normal(size=(32, 8)).astype(np.float32)}
    plain = jax.jit(_step, donate_argnums=0)
    checked_fn = jax.jit(
        checkify.checkify(_step, errors=checkify.index_checks | checkify.div_checks), donate_argnums=0
    )

    def run_plain(n: int) -> float:
        p = jax.tree_util.tree_map(jnp.asarray, init)
        p = plain(p, ids, y)
        jax.block_until_ready(p)
        t = time.perf_counter()
        for _ in range(n):
            p = plain(p, ids, y)
        jax.block_until_ready(p)
        return n / (time.perf_counter() - t)

    def run_checked(n: int) -> float:
        p = jax.tree_util.tree_map(jnp.asarray, init)
        err, p = checked_fn(p, ids, y)
        err.throw()
        t = time.perf_counter()
        for _ in range(n):
            err, p = checked_fn(p, ids, y)
            err.throw()  # TF raises at the failing run: the error is read every step
        jax.block_until_ready(p)
        return n / (time.perf_counter() - t)

    res: dict[str, list[float]] = {"plain": [], "checked": []}
    for r in range(args.repeats):
        order = [("plain", run_plain), ("checked", run_checked)]
        for name, fn in order if r % 2 == 0 else order[::-1]:
            res[name].append(fn(args.steps))
    med = {k: statistics.median(v) for k, v in res.items()}
    for k, v in med.items():
        print(f"{k:8s} {v:10.0f} steps/s")
    print(f"ratio checked/plain: {med['checked'] / med['plain']:.2f}")


if __name__ == "__main__":
    main()
