"""Data-parallel training step over 8 CPU devices (``Session(mesh=...)``)
against the same step on one device.

The model is an MLP (``--features`` → ``--hidden`` → 10, ReLU, softmax
cross-entropy) trained with GradientDescent or Adam; the batch is split over
the mesh axis ``data`` (``placeholder(..., sharding=P("data", None))``) and
the variables are replicated, so XLA SPMD all-reduces the gradients. Both
sessions start from the same values; after the timed steps the script checks
that they hold the same parameters (float tolerance).

Prints the median step time of each and their ratio (8 devices / 1). On a
machine with fewer cores than devices, the 8 "devices" share the cores and
the ratio is not a speed-up; it measures the SPMD program's overhead.

Usage: ``python benchmarks/bench_sharding.py [--quick] [--optimizer adam|sgd]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402

jax.config.update("jax_num_cpu_devices", 8)

import numpy as np  # noqa: E402
from jax.sharding import Mesh, PartitionSpec as P  # noqa: E402

import jaxsess as tf  # noqa: E402


def build(opt: str, features: int, hidden: int) -> dict[str, object]:
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, features], name="x", sharding=P("data", None))
        y = tf.placeholder(tf.int32, [None], name="y", sharding=P("data"))
        w1 = tf.Variable(tf.random_normal([features, hidden], stddev=0.05, seed=1), name="w1")
        b1 = tf.Variable(tf.zeros([hidden]), name="b1")
        w2 = tf.Variable(tf.random_normal([hidden, 10], stddev=0.05, seed=2), name="w2")
        b2 = tf.Variable(tf.zeros([10]), name="b2")
        h = tf.nn.relu(tf.matmul(x, w1) + b1)
        logits = tf.matmul(h, w2) + b2
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
        optimizer = tf.train.AdamOptimizer(1e-3) if opt == "adam" else tf.train.GradientDescentOptimizer(0.1)
        train = optimizer.minimize(loss)
        init = tf.global_variables_initializer()
    return {"g": g, "x": x, "y": y, "vars": [w1, b1, w2, b2], "loss": loss, "train": train, "init": init}


def time_steps(sess: tf.Session, m: dict[str, object], xs: np.ndarray, ys: np.ndarray, n: int, repeats: int) -> tuple[float, list[np.ndarray]]:
    step = sess.make_callable([m["loss"], m["train"]], [m["x"], m["y"]])
    for _ in range(3):  # compile, warm up
        jax.block_until_ready(step(xs, ys)[0])
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = None
        for _ in range(n):
            out = step(xs, ys)[0]
        jax.block_until_ready(out)
        times.append((time.perf_counter() - t0) / n)
    return statistics.median(times), [np.asarray(sess.run(v)) for v in m["vars"]]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="fewer steps (CI smoke run)")
    p.add_argument("--optimizer", default="adam", choices=["adam", "sgd"])
    p.add_argument("--batch", type=int, default=1024)
    p.add_argument("--features", type=int, default=256)
    p.add_argument("--hidden", type=int, default=512)
    args = p.parse_args(argv)
    n, repeats = (5, 5) if args.quick else (20, 9)
    devices = jax.devices("cpu")[:8]
    print(f"jaxsess {tf.__version__}, jax {jax.__version__}, {len(devices)} CPU devices on "
          f"{os.cpu_count()} cores, python {sys.version.split()[0]}, {args.optimizer}, batch {args.batch}, "
          f"MLP {args.features}-{args.hidden}-10, {'quick' if args.quick else 'full'} ({repeats} x {n} steps)")
    rs = np.random.RandomState(0)
    xs = rs.randn(args.batch, args.features).astype(np.float32)
    ys = rs.randint(0, 10, args.batch).astype(np.int32)
    results = {}
    params = {}
    for label, mesh in (("1 device", None), ("8 devices", Mesh(np.array(devices), ("data",)))):
        m = build(args.optimizer, args.features, args.hidden)
        with tf.Session(graph=m["g"], mesh=mesh) as s:
            s.run(m["init"])
            results[label], params[label] = time_steps(s, m, xs, ys, n, repeats)
    # Same parameters up to float rounding (the all-reduce sums in another
    # order; Adam's normalisation lets that drift grow slowly over the steps).
    diff = max(float(np.max(np.abs(a - b))) for a, b in zip(params["1 device"], params["8 devices"], strict=True))
    for a, b in zip(params["1 device"], params["8 devices"], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-2, atol=2e-3)
    one, eight = results["1 device"], results["8 devices"]
    print(f"step on 1 device:          {one * 1e3:8.3f} ms")
    print(f"step on 8 devices (SPMD):  {eight * 1e3:8.3f} ms")
    print(f"8 devices / 1 device:      {eight / one:8.3f}  (after {3 + n * repeats} steps the parameters "
          f"differ by at most {diff:.1e})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
