"""Depthwise convolutions: jaxsess's CPU formulation against the direct grouped convolution and TF.

Programs (TF1 source, written once below, run by jaxsess here and by real TF in a child):

* ``dw3x3``: one 3×3 depthwise layer, ``[8, 112, 112, 96]`` float32, SAME, stride 1;
* ``dw3x3_s2``: the same with stride 2;
* ``dw5x5``: a 5×5 layer on ``[8, 28, 28, 240]`` (EfficientNet's);
* ``mbv2``: a MobileNetV2-like stack (8 inverted residual blocks: 1×1 expand, ReLU6, 3×3
  depthwise, ReLU6, 1×1 project), batch 8, inference;
* ``mbv2_train``: the same stack, one SGD step (``train_op`` plus the loss).

The input lives in a variable (no feed), each call fetches a scalar (``reduce_sum``), so
a call is the convolution work and one host round trip.

Candidates, interleaved in blocks (the order rotates each repeat):

* ``jaxsess``: the program under ``jaxsess.compat.v1`` (on CPU the depthwise layers are
  shifted element-wise products, ``jaxsess/_tf1/ops/_conv_cpu.py``);
* ``direct``: the same program and session with the depthwise layers lowered as
  ``lax.conv_general_dilated(feature_group_count=C)`` (what a hand-written JAX program
  gets, and jaxsess's lowering on GPU/TPU);
* ``tf1``: real TensorFlow running the same source in a child process (``--tf-python``,
  default this interpreter when it has ``tensorflow``; skipped, saying why, when absent),
  driven block by block over a pipe so that it interleaves with the others.

Printed: median ms per call [min–max] over blocks, and the ratios jaxsess/direct and
tf1/jaxsess (> 1: jaxsess faster). ``--quick`` runs small shapes for a few blocks.

Usage: ``python benchmarks/bench_convs.py [--quick] [--programs dw3x3,mbv2]
[--tf-python /path/to/python-with-tensorflow]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Any

from _tf_child import TFChild, serve, tf_python

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# {N}, {H}, ... are filled per size (full / --quick)
LAYER_SRC = """
x = tf.Variable(tf.random.uniform([{N}, {H}, {H}, {C}], -1.0, 1.0, seed=1), name="x")
w = tf.Variable(tf.random.uniform([{K}, {K}, {C}, 1], -0.5, 0.5, seed=2), name="w")
out = tf.reduce_sum(tf.nn.depthwise_conv2d(x, w, [1, {S}, {S}, 1], "SAME"))
fetch = out
"""

MBV2_SRC = """
def relu6(h):
    return tf.minimum(tf.nn.relu(h), 6.0)

def block(h, c_in, c_exp, stride, i):
    init = tf.random_normal_initializer(0.0, 0.1, seed=i)
    we = tf.get_variable("b%d/expand" % i, [1, 1, c_in, c_exp], initializer=init)
    wd = tf.get_variable("b%d/depthwise" % i, [3, 3, c_exp, 1], initializer=init)
    wp = tf.get_variable("b%d/project" % i, [1, 1, c_exp, c_in], initializer=init)
    e = relu6(tf.nn.conv2d(h, we, [1, 1, 1, 1], "SAME"))
    d = relu6(tf.nn.depthwise_conv2d(e, wd, [1, stride, stride, 1], "SAME"))
    p = tf.nn.conv2d(d, wp, [1, 1, 1, 1], "SAME")
    return h + p if stride == 1 else p

x = tf.Variable(tf.random.uniform([{N}, {H}, {H}, 16], -1.0, 1.0, seed=1), name="x")
h = x
for i, (c_exp, stride) in enumerate([(96, 2), (144, 1), (144, 2), (192, 1), (192, 2), (384, 1), (576, 1),
                                     (960, 2)]):
    h = block(h, 16, c_exp, stride, i)
out = tf.reduce_mean(tf.square(h))
fetch = out
if {TRAIN}:
    fetch = [tf.train.GradientDescentOptimizer(1e-3).minimize(out, var_list=tf.trainable_variables()[1:]), out]
"""

FULL = {
    "dw3x3": (LAYER_SRC, {"N": 8, "H": 112, "C": 96, "K": 3, "S": 1}),
    "dw3x3_s2": (LAYER_SRC, {"N": 8, "H": 112, "C": 96, "K": 3, "S": 2}),
    "dw5x5": (LAYER_SRC, {"N": 8, "H": 28, "C": 240, "K": 5, "S": 1}),
    "mbv2": (MBV2_SRC, {"N": 8, "H": 112, "TRAIN": False}),
    "mbv2_train": (MBV2_SRC, {"N": 8, "H": 112, "TRAIN": True}),
}
QUICK = {
    "dw3x3": (LAYER_SRC, {"N": 2, "H": 28, "C": 32, "K": 3, "S": 1}),
    "dw3x3_s2": (LAYER_SRC, {"N": 2, "H": 28, "C": 32, "K": 3, "S": 2}),
    "dw5x5": (LAYER_SRC, {"N": 2, "H": 14, "C": 48, "K": 5, "S": 1}),
    "mbv2": (MBV2_SRC, {"N": 2, "H": 32, "TRAIN": False}),
    "mbv2_train": (MBV2_SRC, {"N": 2, "H": 32, "TRAIN": True}),
}


class Program:
    """One program in a session of ``tf`` (real TF or jaxsess)."""

    def __init__(self, tf: Any, src: str, sizes: dict[str, Any]) -> None:
        g = tf.Graph()
        with g.as_default():
            ns: dict[str, Any] = {"tf": tf}
            exec(src.format(**sizes), ns)
            init = tf.global_variables_initializer()
        self.fetch = ns["fetch"]
        self.sess = tf.Session(graph=g)
        self.sess.run(init)

    def block(self, calls: int) -> float:
        """Seconds per call over ``calls`` calls."""
        t0 = time.perf_counter()
        for _ in range(calls):
            self.sess.run(self.fetch)
        return (time.perf_counter() - t0) / calls


def tf_child(table: str) -> None:
    """The TF side: builds every program, then answers ``name calls`` lines with seconds per call."""
    import tensorflow.compat.v1 as tf  # type: ignore[import-not-found,unused-ignore]

    tf.disable_eager_execution()
    programs = {}
    for name, (src, sizes) in (QUICK if table == "quick" else FULL).items():
        programs[name] = Program(tf, src, sizes)
        programs[name].block(2)  # first run: graph optimisation, allocations
    serve({"ready": tf.VERSION}, lambda name, calls: programs[name].block(int(calls)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="small shapes, few blocks (seconds)")
    ap.add_argument("--programs", default=",".join(FULL))
    ap.add_argument("--repeats", type=int, default=0)
    ap.add_argument("--tf-python", default=None, help="an interpreter with tensorflow for the tf1 column")
    ap.add_argument("--no-tf1", action="store_true")
    ap.add_argument("--tf-child", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.tf_child:
        tf_child(args.tf_child)
        return
    import jax
    import jaxsess.compat.v1 as tfj

    from jaxsess._tf1.ops import _conv_cpu

    table = QUICK if args.quick else FULL
    names = [n for n in args.programs.split(",") if n]
    repeats = args.repeats or (2 if args.quick else 7)
    python, why = (None, "--no-tf1") if args.no_tf1 else tf_python(args.tf_python)
    child_table = "quick" if args.quick else "full"
    tf = TFChild([python, os.path.abspath(__file__), "--tf-child", child_table]) if python else None
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"# bench_convs: {os.cpu_count()} CPUs, jax {jax.__version__}, backend {jax.default_backend()}, "
          f"tensorflow {tf.info['ready'] if tf else 'absent: ' + why}, load average {load:.1f}"
          f"{', quick run' if args.quick else ''}")
    print("# ms per call, median [min-max] over interleaved blocks; ratios of medians (> 1: jaxsess faster)")
    for name in names:
        src, sizes = table[name]
        progs = {"jaxsess": Program(tfj, src, sizes)}
        saved = _conv_cpu.MAX_SHIFTED_TAPS
        _conv_cpu.MAX_SHIFTED_TAPS = 0  # every depthwise kernel takes the direct convolution
        try:
            progs["direct"] = Program(tfj, src, sizes)
            progs["direct"].block(1)  # traced and compiled under the setting
        finally:
            _conv_cpu.MAX_SHIFTED_TAPS = saved
        progs["jaxsess"].block(1)
        kinds = list(progs) + (["tf1"] if tf else [])
        # calls per block: about 0.3 s of the slowest candidate
        slowest = max(p.block(1) for p in progs.values())
        calls = max(1, min(50, int(0.3 / slowest)))
        times: dict[str, list[float]] = {k: [] for k in kinds}
        for r in range(repeats):
            order = kinds[r % len(kinds):] + kinds[:r % len(kinds)]
            for k in order:
                time.sleep(0.05)
                times[k].append(tf.block(name, calls) if k == "tf1" and tf else progs[k].block(calls))
        for p in progs.values():
            p.sess.close()
        med = {k: statistics.median(v) for k, v in times.items()}
        cols = "  ".join(f"{k} {med[k] * 1e3:8.2f} [{min(v) * 1e3:.1f}-{max(v) * 1e3:.1f}]" for k, v in times.items())
        ratios = f"direct/jaxsess {med['direct'] / med['jaxsess']:.2f}"
        if "tf1" in med:
            ratios += f"  tf1/jaxsess {med['tf1'] / med['jaxsess']:.2f}"
        print(f"{name:10s} {cols}\n{'':10s} ratios: {ratios}", flush=True)
    if tf:
        tf.close()
    print(f"# load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
