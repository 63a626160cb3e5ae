"""What a new number of stored values ``N`` costs a sparse training step.

A plan is compiled once per distinct fed ``N`` (and, for a
``sparse_placeholder`` without a full shape, per distinct dense shape; see
``jaxsess/_tf1/ops/sparse_tensor.py``). This measures a wide-model step
(``embedding_lookup_sparse`` of a ``[batch, None]`` sparse id feed, a dense
layer, Adam) three ways:

* ``same N``: every step feeds the same ``N`` (the plan is cached);
* ``new N``: every step feeds an ``N`` not seen before (a compile per step);
* ``padded N``: the caller pads each batch to the next power of two with
  entries at row ``BATCH`` (one past the last row), which the ops drop
  (a few compiles in all; the results are unchanged).

Prints steps/s of each and the ratios to ``same N``.

Usage: ``python benchmarks/bench_sparse.py [--quick] [--steps N]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import jaxsess as tf

BATCH, VOCAB, DIM = 64, 1000, 16


def _graph() -> tuple[tf.Graph, object, object, object]:
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(0)
        ids = tf.sparse_placeholder(tf.int64, shape=[BATCH, None], name="ids")
        weights = tf.sparse_placeholder(tf.float32, shape=[BATCH, None], name="weights")
        y = tf.placeholder(tf.float32, [BATCH, 1], name="y")
        table = tf.get_variable("table", [VOCAB, DIM])
        emb = tf.nn.embedding_lookup_sparse(table, ids, weights, combiner="sum")
        out = tf.layers.dense(emb, 1)
        loss = tf.reduce_mean(tf.square(out - y))
        train = tf.train.AdamOptimizer(1e-3).minimize(loss)
    return g, train, ids, weights


def _batch(rng: np.random.Generator, n: int, pad_to: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rows = np.sort(rng.integers(0, BATCH, n))
    cols = np.zeros(n, np.int64)
    for r in np.unique(rows):
        cols[rows == r] = np.arange(np.sum(rows == r))
    indices = np.stack([rows, cols], 1).astype(np.int64)
    values = rng.integers(0, VOCAB, n).astype(np.int64)
    w = np.ones(n, np.float32)
    if pad_to is not None and pad_to > n:
        extra = pad_to - n
        indices = np.concatenate([indices, np.tile(np.asarray([[BATCH, 0]], np.int64), (extra, 1))])
        values = np.concatenate([values, np.zeros(extra, np.int64)])
        w = np.concatenate([w, np.zeros(extra, np.float32)])
    return indices, values, w


def _run(mode: str, steps: int) -> float:
    g, train, ids, weights = _graph()
    rng = np.random.default_rng(0)
    y = rng.standard_normal((BATCH, 1)).astype(np.float32)
    width = 1 << 20
    with tf.Session(graph=g) as sess:
        sess.run(tf.global_variables_initializer())
        sizes = {"same N": [300] * (steps + 1), "new N": list(range(300, 301 + steps)),
                 "padded N": list(range(300, 301 + steps))}[mode]
        t0 = 0.0
        for i, n in enumerate(sizes):
            if i == 1:
                t0 = time.perf_counter()  # the first step (compile of the first N) is not timed
            pad = 1 << int(np.ceil(np.log2(n))) if mode == "padded N" else None
            idx, vals, w = _batch(rng, n, pad)
            sess.run(train, {ids: (idx, vals, [BATCH, width]), weights: (idx, w, [BATCH, width]),
                             "y:0": y})
        return steps / (time.perf_counter() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--quick", action="store_true", help="3 steps (a smoke run)")
    args = parser.parse_args()
    if args.quick:
        args.steps = 3
    rates = {m: _run(m, args.steps) for m in ("same N", "new N", "padded N")}
    base = rates["same N"]
    for m, r in rates.items():
        print(f"{m:>9}: {r:8.1f} steps/s   ratio to same N {r / base:5.2f}")


if __name__ == "__main__":
    main()
