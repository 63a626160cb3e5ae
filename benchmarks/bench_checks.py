"""What run-time checks (``tf.assert_*``, ``tf.check_numerics``) cost a training step.

Checks are host ops (``jaxsess/_tf1/ops/check_ops.py``): a run that needs one
computes the checked values by a device run of their own, checks them on the
host, then runs the step. This measures, for a small MLP training step
(``Session.run(train_op)`` with a fed batch):

* ``plain``: a graph without checks (the plan runs directly);
* ``unused``: the same graph holding a check that this run does not need
  (the graph now goes through the host pass, which finds no host op to run);
* ``checked``: the train op under ``control_dependencies([assert_positive(x)])``
  (two device programs per run).

Prints runs/s of each and the ratios to ``plain``; ``plain`` is what a graph
without checks pays, as before checks existed.

Usage: ``python benchmarks/bench_checks.py [--quick] [--steps N]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import jaxsess as tf


def _step_graph(mode: str) -> tuple[tf.Graph, object, object]:
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(0)
        x = tf.placeholder(tf.float32, [64, 32], name="x")
        y = tf.placeholder(tf.float32, [64, 1], name="y")
        h = tf.layers.dense(x, 64, activation=tf.nn.relu)
        out = tf.layers.dense(h, 1)
        loss = tf.reduce_mean(tf.square(out - y))
        check = tf.assert_positive(x) if mode != "plain" else None
        if mode == "checked":
            with tf.control_dependencies([check]):
                train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
        else:
            train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
    return g, train, (x, y)


def _rate(mode: str, steps: int, repeats: int) -> float:
    g, train, (x, y) = _step_graph(mode)
    rng = np.random.RandomState(0)
    feed = {x: rng.rand(64, 32).astype(np.float32) + 0.1, y: rng.rand(64, 1).astype(np.float32)}
    rates = []
    with g.as_default(), tf.Session(graph=g) as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(train, feed)
        for _ in range(repeats):
            t0 = time.perf_counter()
            for _ in range(steps):
                sess.run(train, feed)
            rates.append(steps / (time.perf_counter() - t0))
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="30 steps, 1 repeat (a smoke run)")
    args = parser.parse_args()
    if args.quick:
        args.steps, args.repeats = 30, 1
    rates = {m: _rate(m, args.steps, args.repeats) for m in ("plain", "unused", "checked")}
    for m, r in rates.items():
        print(f"{m:8s} {r:9.0f} runs/s   ratio to plain {r / rates['plain']:.2f}")


if __name__ == "__main__":
    main()
