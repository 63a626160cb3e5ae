"""What reading a model as TF wrote it costs, against the same model built in jaxsess.

Two models, each run two ways in one process, interleaved (so load affects
both alike):

* ``rnn``: a ``dynamic_rnn`` (BasicRNNCell, 4 units, 5 steps, batch 2) —
  ``imported``: TF 2.21's frozen GraphDef (``tests/fixtures/tf_graphs/rnn_v1.pb``:
  a TF1 while frame with TensorArrays, rewritten as a ``While`` by import);
  ``native``: ``tf.nn.dynamic_rnn`` built with jaxsess;
* ``reshape``: a Keras ``Dense`` + ``Reshape(Pack(Shape(x)[0], ...))`` +
  ``Flatten`` (batch 2) — ``imported``: the frozen tf_keras GraphDef (its
  target shape folded when the plan is traced); ``native``: the same math
  with jaxsess ops (``tensordot``, ``reshape``).

Prints, per model, the import time (``import_graph_def`` of the file), the
first run (plan trace + compile) and the steady ``Session.run`` time of
each way, and the ratios imported / native.

Usage: ``python benchmarks/bench_tf_import.py [--quick] [--runs N]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np

import jaxsess as tf
from jaxsess._core import _tfproto

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "tf_graphs"


def _imported(name: str, x_name: str, y_name: str) -> tuple[Any, Any, Any, float]:
    gd = _tfproto.GraphDef.FromString((FIXTURES / f"{name}.pb").read_bytes())
    g = tf.Graph()
    t0 = time.perf_counter()
    with g.as_default():
        tf.import_graph_def(gd, name="")
    took = time.perf_counter() - t0
    return g, g.get_tensor_by_name(x_name), g.get_tensor_by_name(y_name), took


def _native_rnn() -> tuple[Any, Any, Any, float]:
    g = tf.Graph()
    t0 = time.perf_counter()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2, 5, 3])
        out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicRNNCell(4), x, dtype=tf.float32)
        init = tf.global_variables_initializer()
    g._bench_init = init
    return g, x, out, time.perf_counter() - t0


def _native_reshape() -> tuple[Any, Any, Any, float]:
    g = tf.Graph()
    t0 = time.perf_counter()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 4, 6])
        w = tf.constant(np.linspace(-1, 1, 36, dtype=np.float32).reshape(6, 6))
        h = tf.tensordot(x, w, axes=[[2], [0]]) + 0.1
        h = tf.reshape(h, tf.stack([tf.shape(h)[0], 3, 8]))
        y = tf.reshape(h, [-1, 24])
    return g, x, y, time.perf_counter() - t0


def _session(g: Any) -> Any:
    s = tf.Session(graph=g)
    init = getattr(g, "_bench_init", None)
    if init is not None:
        s.run(init)
    return s


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="a few runs (CI smoke run)")
    ap.add_argument("--runs", type=int, default=2000)
    args = ap.parse_args()
    runs = 50 if args.quick else args.runs
    rounds = 3 if args.quick else 7
    cases = {
        "rnn": (lambda: _imported("rnn_v1", "x:0", "out:0"), _native_rnn, (2, 5, 3)),
        "reshape": (lambda: _imported("keras_reshape_pack", "x:0", "flat/Reshape:0"), _native_reshape, (2, 4, 6)),
    }
    print(f"load average {os.getloadavg()[0]:.1f}; {runs} runs x {rounds} rounds, interleaved")
    for name, (imp, nat, shape) in cases.items():
        x_val = np.linspace(-1, 1, int(np.prod(shape)), dtype=np.float32).reshape(shape)
        built = {"imported": imp(), "native": nat()}
        sessions, first, steady = {}, {}, {k: [] for k in built}
        for way, (g, x, y, _) in built.items():
            sessions[way] = _session(g)
            t0 = time.perf_counter()
            sessions[way].run(y, {x: x_val})
            first[way] = time.perf_counter() - t0
        for _ in range(rounds):
            for way, (_g, x, y, _) in built.items():
                s = sessions[way]
                t0 = time.perf_counter()
                for _ in range(runs):
                    s.run(y, {x: x_val})
                steady[way].append((time.perf_counter() - t0) / runs)
        for s in sessions.values():
            s.close()
        med = {k: statistics.median(v) for k, v in steady.items()}
        print(f"{name}: build  imported {built['imported'][3] * 1e3:7.1f} ms  native {built['native'][3] * 1e3:7.1f} ms"
              f"  ratio {built['imported'][3] / built['native'][3]:.2f}")
        print(f"{name}: first  imported {first['imported'] * 1e3:7.1f} ms  native {first['native'] * 1e3:7.1f} ms"
              f"  ratio {first['imported'] / first['native']:.2f}")
        print(f"{name}: run    imported {med['imported'] * 1e6:7.1f} us  native {med['native'] * 1e6:7.1f} us"
              f"  ratio {med['imported'] / med['native']:.2f}")


if __name__ == "__main__":
    main()
