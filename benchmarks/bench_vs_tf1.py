"""The same TF1 programs under real TensorFlow, under jaxsess, and hand-written in JAX.

Programs (each written once, as TF1 source, below):

* ``mlp``: MLP 64-256-256-10 (ReLU), sparse softmax cross-entropy, Adam(1e-3), batch 128;
* ``cnn``: conv 3x3x32 (SAME, ReLU), max-pool 2, conv 3x3x64 (SAME, ReLU),
  max-pool 2, dense 10 on 8x8x1 images, Adam(1e-3), batch 64;
* ``mlp20``: a 20-layer MLP 64-(64 x 20)-10 (42 variables, 126 with Adam's slots), batch 128;
* ``lstm``: jaxsess, and TF1 when its ``tf.nn.rnn_cell.LSTMCell`` works (not
  with Keras 3); no hand-written JAX version (``bench_rnn.py`` has one).

Candidates:

* ``tf1``: the source run by ``tensorflow.compat.v1`` (graph mode), when
  ``tensorflow`` is importable (``pip install jaxsess[bench]``);
* ``tf1xla``: the same with TF's XLA auto-clustering, TF at its best on CPU:
  ``ConfigProto.graph_options.optimizer_options.global_jit_level = ON_1`` and
  ``TF_XLA_FLAGS=--tf_xla_cpu_global_jit`` (set by this script before TF is
  imported; without it ``ON_1`` clusters nothing on CPU; ``--no-xla`` leaves
  the column out);
* ``jaxsess``: the same source run by ``jaxsess.compat.v1``;
* ``jax``: a hand-written ``jax.jit`` + ``optax.adam`` step with donated
  parameters (what XLA can do; the gap to it is ours).

Steady state: every candidate trains in this one process, in interleaved
blocks of steps (the order is reversed every other repeat), each step
``sess.run(train_op, feed_dict)`` with a host NumPy batch (the hand-written
step gets the same NumPy arrays); a block ends by fetching the loss (which
waits for the device). Reported: median steps/s and the range over blocks,
and the median CPU time per step of the whole process (all threads: less
sensitive than wall time to other load on a shared machine).

Start-up: each candidate runs the whole program in a fresh child process
(import, build, init, first step, ``--steps`` steps): time to the end of the
first training step, whole-program time, and peak RSS (``ru_maxrss``).
jaxsess runs twice on a fresh persistent compilation cache directory:
``cold`` (empty) and ``warm`` (the second start, every plan loaded from the
cache); the hand-written JAX child runs without a persistent cache.

Usage: ``python benchmarks/bench_vs_tf1.py [--quick] [--programs mlp,cnn]
[--no-startup] [--no-tf1] [--no-xla]``. With TensorFlow in another
environment: ``/work/tfvenv/bin/python benchmarks/bench_vs_tf1.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

T_START = time.perf_counter()
os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
# This checkout's jaxsess, whichever environment runs the script.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

# -- the TF1 programs: written once, run by tf1 and by jaxsess ---------------------------

# Shared by the programs: tutorial-style layers on tf.get_variable (no Keras).
LAYERS_SRC = """
def dense(h, n_out, name, activation=None):
    n_in = h.shape[-1]
    w = tf.get_variable(name + "/kernel", [n_in, n_out], tf.float32, tf.glorot_uniform_initializer())
    b = tf.get_variable(name + "/bias", [n_out], tf.float32, tf.zeros_initializer())
    out = tf.matmul(h, w) + b
    return activation(out) if activation is not None else out

def conv(h, n_out, name):
    n_in = h.shape[-1]
    w = tf.get_variable(name + "/kernel", [3, 3, n_in, n_out], tf.float32, tf.glorot_uniform_initializer())
    b = tf.get_variable(name + "/bias", [n_out], tf.float32, tf.zeros_initializer())
    return tf.nn.relu(tf.nn.conv2d(h, w, strides=[1, 1, 1, 1], padding="SAME") + b)

def pool(h):
    return tf.nn.max_pool(h, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
"""

MLP_SRC = LAYERS_SRC + """
x = tf.placeholder(tf.float32, [None, 64], name="x")
y = tf.placeholder(tf.int32, [None], name="y")
h = dense(x, 256, "d0", tf.nn.relu)
h = dense(h, 256, "d1", tf.nn.relu)
logits = dense(h, 10, "d2")
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
train_op = tf.train.AdamOptimizer(1e-3).minimize(loss)
"""

CNN_SRC = LAYERS_SRC + """
x = tf.placeholder(tf.float32, [None, 8, 8, 1], name="x")
y = tf.placeholder(tf.int32, [None], name="y")
h = pool(conv(x, 32, "c0"))
h = pool(conv(h, 64, "c1"))
logits = dense(tf.reshape(h, [-1, 2 * 2 * 64]), 10, "d")
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
train_op = tf.train.AdamOptimizer(1e-3).minimize(loss)
"""

MLP20_SRC = LAYERS_SRC + """
x = tf.placeholder(tf.float32, [None, 64], name="x")
y = tf.placeholder(tf.int32, [None], name="y")
h = x
for i in range(20):
    h = dense(h, 64, "d%d" % i, tf.nn.relu)
logits = dense(h, 10, "out")
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
train_op = tf.train.AdamOptimizer(1e-3).minimize(loss)
"""

LSTM_SRC = LAYERS_SRC + """
x = tf.placeholder(tf.float32, [None, 16, 8], name="x")
y = tf.placeholder(tf.int32, [None], name="y")
cell = tf.nn.rnn_cell.LSTMCell(64)
outputs, _ = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
logits = dense(outputs[:, -1], 10, "out")
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
train_op = tf.train.AdamOptimizer(1e-3).minimize(loss)
"""

# name: (source, x shape without batch, batch)
PROGRAMS: dict[str, tuple[str, tuple[int, ...], int]] = {
    "mlp": (MLP_SRC, (64,), 128),
    "cnn": (CNN_SRC, (8, 8, 1), 64),
    "mlp20": (MLP20_SRC, (64,), 128),
    "lstm": (LSTM_SRC, (16, 8), 64),
}
N_BATCHES = 16
SETTLE_S = 0.05  # pause before each steady-state block (see steady_state)


def batches(name: str) -> list[tuple[np.ndarray, np.ndarray]]:
    _, shape, batch = PROGRAMS[name]
    rng = np.random.default_rng(0)
    return [
        (rng.standard_normal((batch, *shape)).astype(np.float32), rng.integers(0, 10, batch).astype(np.int32))
        for _ in range(N_BATCHES)
    ]


def load_tf1() -> Any:
    # Lets ON_1 sessions (the tf1xla candidate) auto-cluster on CPU; sessions without a
    # global_jit_level (tf1) are not clustered. Read once, when TF is imported.
    flags = os.environ.get("TF_XLA_FLAGS", "")
    if "--tf_xla_cpu_global_jit" not in flags:
        os.environ["TF_XLA_FLAGS"] = (flags + " --tf_xla_cpu_global_jit").strip()
    try:
        import tensorflow.compat.v1 as tf1  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    tf1.disable_eager_execution()
    return tf1


def load_jaxsess() -> Any:
    import jaxsess.compat.v1 as tfj

    return tfj


def has_program(tf: Any, name: str) -> bool:
    if name != "lstm":
        return True
    try:  # TF 2.16+ with Keras 3 has tf.nn.rnn_cell but raises for its cells
        return tf.nn.rnn_cell.LSTMCell is not None
    except AttributeError:
        return False


XLA_COLUMN = True  # the tf1xla candidate (--no-xla: off)


def kinds_for(name: str, tf1: Any) -> list[str]:
    """The candidates that can run ``name`` (no hand-written JAX LSTM: see ``bench_rnn.py``)."""
    kinds = ["tf1"] if tf1 is not None and has_program(tf1, name) else []
    if kinds and XLA_COLUMN:
        kinds.append("tf1xla")
    return kinds + ["jaxsess"] + (["jax"] if name != "lstm" else [])


class GraphTrainer:
    """A TF1 program in a ``tf.Session`` (real TF or jaxsess)."""

    def __init__(self, tf: Any, name: str, xla: bool = False) -> None:
        g = tf.Graph()
        with g.as_default():
            tf.set_random_seed(0)
            ns: dict[str, Any] = {"tf": tf}
            exec(PROGRAMS[name][0], ns)
            init = tf.global_variables_initializer()
        self.x, self.y, self.loss, self.train_op = ns["x"], ns["y"], ns["loss"], ns["train_op"]
        config = None
        if xla:  # TF's XLA auto-clustering (see load_tf1 for the CPU flag)
            config = tf.ConfigProto()
            config.graph_options.optimizer_options.global_jit_level = tf.OptimizerOptions.ON_1
        self.sess = tf.Session(graph=g, config=config)
        self.sess.run(init)

    def step(self, xb: np.ndarray, yb: np.ndarray) -> None:
        self.sess.run(self.train_op, {self.x: xb, self.y: yb})

    def sync(self, xb: np.ndarray, yb: np.ndarray) -> float:
        return float(self.sess.run(self.loss, {self.x: xb, self.y: yb}))


# -- the hand-written JAX versions ------------------------------------------------------


class JaxTrainer:
    """Hand-written ``jax.jit`` + optax: the same models, NHWC, donated state."""

    def __init__(self, name: str) -> None:
        import jax
        import jax.numpy as jnp
        import optax

        self.jax = jax
        key = jax.random.PRNGKey(0)

        def dense(key: Any, n_in: int, n_out: int) -> dict[str, Any]:
            lim = np.sqrt(6.0 / (n_in + n_out))
            return {"w": jax.random.uniform(key, (n_in, n_out), jnp.float32, -lim, lim), "b": jnp.zeros(n_out)}

        def conv(key: Any, c_in: int, c_out: int) -> dict[str, Any]:
            lim = np.sqrt(6.0 / (9 * c_in + 9 * c_out))
            return {"w": jax.random.uniform(key, (3, 3, c_in, c_out), jnp.float32, -lim, lim), "b": jnp.zeros(c_out)}

        def pool(h: Any) -> Any:
            return jax.lax.reduce_window(h, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")

        def conv_apply(p: dict[str, Any], h: Any) -> Any:
            out = jax.lax.conv_general_dilated(h, p["w"], (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
            return jax.nn.relu(out + p["b"])

        keys = list(jax.random.split(key, 24))
        params: dict[str, Any]
        if name in ("mlp", "mlp20"):
            sizes = [64, 256, 256, 10] if name == "mlp" else [64] + [64] * 20 + [10]
            params = {f"d{i}": dense(keys[i], a, b) for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:], strict=True))}
            n = len(sizes) - 1

            def logits_fn(p: dict[str, Any], x: Any) -> Any:
                h = x
                for i in range(n - 1):
                    h = jax.nn.relu(h @ p[f"d{i}"]["w"] + p[f"d{i}"]["b"])
                return h @ p[f"d{n - 1}"]["w"] + p[f"d{n - 1}"]["b"]

        elif name == "cnn":
            params = {"c0": conv(keys[0], 1, 32), "c1": conv(keys[1], 32, 64), "d": dense(keys[2], 2 * 2 * 64, 10)}

            def logits_fn(p: dict[str, Any], x: Any) -> Any:
                h = pool(conv_apply(p["c0"], x))
                h = pool(conv_apply(p["c1"], h))
                return h.reshape(h.shape[0], -1) @ p["d"]["w"] + p["d"]["b"]

        else:
            raise ValueError(f"no hand-written JAX version of {name}")

        def loss_fn(p: Any, x: Any, y: Any) -> Any:
            return optax.softmax_cross_entropy_with_integer_labels(logits_fn(p, x), y).mean()

        tx = optax.adam(1e-3)

        def step(p: Any, s: Any, x: Any, y: Any) -> Any:
            grads = jax.grad(loss_fn)(p, x, y)
            updates, s = tx.update(grads, s, p)
            return optax.apply_updates(p, updates), s

        self.step_fn = jax.jit(step, donate_argnums=(0, 1))
        self.loss_fn = jax.jit(loss_fn)
        self.params = params
        self.opt_state = tx.init(params)

    def step(self, xb: np.ndarray, yb: np.ndarray) -> None:
        self.params, self.opt_state = self.step_fn(self.params, self.opt_state, xb, yb)

    def sync(self, xb: np.ndarray, yb: np.ndarray) -> float:
        return float(self.loss_fn(self.params, xb, yb))


def make_trainer(kind: str, name: str, tf1: Any, tfj: Any) -> Any:
    if kind in ("tf1", "tf1xla"):
        return GraphTrainer(tf1, name, xla=kind == "tf1xla")
    if kind == "jaxsess":
        return GraphTrainer(tfj, name)
    return JaxTrainer(name)


# -- steady state -----------------------------------------------------------------------


def steady_state(
    name: str, kinds: list[str], tf1: Any, tfj: Any, steps: int, repeats: int
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Steps/s of every block and CPU ms per step (all threads of the process) per candidate."""
    data = batches(name)
    trainers = {k: make_trainer(k, name, tf1, tfj) for k in kinds}
    for t in trainers.values():  # warm-up: compile, first steps
        for xb, yb in data[:4]:
            t.step(xb, yb)
        t.sync(*data[0])
    rates: dict[str, list[float]] = {k: [] for k in kinds}
    cpu: dict[str, list[float]] = {k: [] for k in kinds}
    for r in range(repeats):
        # Every candidate follows every other equally often (rotate, and
        # reverse every other round), and each block starts after a short
        # pause: TF's inter-op threads spin for a while after a step, and
        # would otherwise bill their spinning to whichever block runs next.
        order = kinds[r % len(kinds):] + kinds[: r % len(kinds)]
        if (r // len(kinds)) % 2:
            order = order[::-1]
        for k in order:
            t = trainers[k]
            time.sleep(SETTLE_S)
            t0 = time.perf_counter()
            c0 = time.process_time()
            for i in range(steps):
                xb, yb = data[i % N_BATCHES]
                t.step(xb, yb)
            t.sync(*data[0])
            rates[k].append(steps / (time.perf_counter() - t0))
            cpu[k].append((time.process_time() - c0) / steps * 1e3)
    for t in trainers.values():
        if hasattr(t, "sess"):
            t.sess.close()
    return rates, cpu


# -- start-up, in a child process ---------------------------------------------------------


def child(kind: str, name: str, steps: int) -> None:
    """Runs one whole program; prints one JSON line."""
    tf1 = load_tf1() if kind in ("tf1", "tf1xla") else None
    tfj = load_jaxsess() if kind == "jaxsess" else None
    if kind == "jax":
        import jax  # noqa: F401
    t_import = time.perf_counter() - T_START
    data = batches(name)
    trainer = make_trainer(kind, name, tf1, tfj)
    trainer.step(*data[0])
    trainer.sync(*data[0])
    t_first = time.perf_counter() - T_START
    for i in range(1, steps):
        trainer.step(*data[i % N_BATCHES])
    trainer.sync(*data[0])
    t_total = time.perf_counter() - T_START
    print(json.dumps({"import_s": t_import, "first_step_s": t_first, "total_s": t_total, "rss_mb": peak_rss_mb()}))


def peak_rss_mb() -> float:
    """This process's peak RSS: ``VmHWM`` (Linux; ``ru_maxrss`` survives
    ``exec`` there, so a child would report its parent's), else ``ru_maxrss``."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    scale = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB on Linux
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 / scale


def run_child(kind: str, name: str, steps: int, env: dict[str, str]) -> dict[str, float]:
    cmd = [sys.executable, os.path.abspath(__file__), "--child", kind, "--programs", name, "--steps", str(steps)]
    out = subprocess.run(cmd, env={**os.environ, **env}, capture_output=True, text=True, check=False)
    lines = out.stdout.strip().splitlines()
    if out.returncode != 0:
        # Also after the child reported: an abort at exit is a failure (see test_faults.py).
        raise RuntimeError(f"child {kind} {name} failed (status {out.returncode}):\n{out.stderr[-2000:]}")
    return json.loads(lines[-1])  # type: ignore[no-any-return]


def startup(name: str, kinds: list[str], steps: int, repeats: int) -> dict[str, list[dict[str, float]]]:
    res: dict[str, list[dict[str, float]]] = {}
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as cache:
            runs = []
            if "tf1" in kinds:
                runs.append(("tf1", "tf1", {}))
            if "tf1xla" in kinds:
                runs.append(("tf1xla", "tf1xla", {}))
            runs.append(("jaxsess cold", "jaxsess", {"JAXSESS_COMPILATION_CACHE_DIR": cache}))
            runs.append(("jaxsess warm", "jaxsess", {"JAXSESS_COMPILATION_CACHE_DIR": cache}))
            runs.append(("jaxsess no cache", "jaxsess", {"JAXSESS_COMPILATION_CACHE": "0"}))
            if "jax" in kinds:
                runs.append(("jax", "jax", {}))
            for label, kind, env in runs:
                res.setdefault(label, []).append(run_child(kind, name, steps, env))
    return res


# -- report -----------------------------------------------------------------------------


def fmt_range(xs: list[float]) -> str:
    return f"{statistics.median(xs):8.1f} [{min(xs):.0f}-{max(xs):.0f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="few steps and repeats")
    ap.add_argument("--programs", default="mlp,cnn,mlp20,lstm")
    ap.add_argument("--steps", type=int, default=0, help="steps per block (child: steps per program)")
    ap.add_argument("--repeats", type=int, default=0)
    ap.add_argument("--no-startup", action="store_true", help="skip the start-up children")
    ap.add_argument("--no-tf1", action="store_true", help="leave real TensorFlow out")
    ap.add_argument("--no-xla", action="store_true", help="leave out TF1 with XLA auto-clustering (tf1xla)")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    names = [n for n in args.programs.split(",") if n]
    global XLA_COLUMN
    XLA_COLUMN = not args.no_xla
    if args.child:
        child(args.child, names[0], args.steps or 200)
        return
    steps = args.steps or (50 if args.quick else 200)
    repeats = args.repeats or (4 if args.quick else 10)
    tf1 = None if args.no_tf1 else load_tf1()
    tfj = load_jaxsess()
    import jax

    print(f"# bench_vs_tf1: {platform.machine()}, {os.cpu_count()} CPUs, jax {jax.__version__}, "
          f"tensorflow {'absent' if tf1 is None else tf1.VERSION}, XLA_FLAGS={os.environ.get('XLA_FLAGS', '')!r}")
    print(f"# steady state: {repeats} interleaved blocks of {steps} steps; steps/s median [min-max]")
    for name in names:
        if not has_program(tfj, name):
            print(f"{name}: skipped (jaxsess has no tf.nn.rnn_cell yet)")
            continue
        kinds = kinds_for(name, tf1)
        rates, cpu = steady_state(name, kinds, tf1, tfj, steps, repeats)
        med = {k: statistics.median(v) for k, v in rates.items()}
        line = "  ".join(f"{k} {fmt_range(v)}" for k, v in rates.items())
        parts = []
        if "tf1" in med:
            parts.append(f"jaxsess/tf1 {med['jaxsess'] / med['tf1']:.2f}")
        if "tf1xla" in med:
            parts.append(f"jaxsess/tf1xla {med['jaxsess'] / med['tf1xla']:.2f}")
            if "jax" in med:
                parts.append(f"jax/tf1 {med['jax'] / med['tf1']:.2f}")
        if "jax" in med:
            parts.append(f"jaxsess/jax {med['jaxsess'] / med['jax']:.2f}")
        ratios = "  ".join(parts) or "none (jaxsess only)"
        cpu_line = "  ".join(f"{k} {statistics.median(v):.2f}" for k, v in cpu.items())
        print(f"{name:6s} steps/s: {line}\n{'':6s} CPU ms/step (all threads): {cpu_line}\n{'':6s} ratios: {ratios}")
    if args.no_startup:
        return
    child_steps = 100 if args.quick else 500
    child_repeats = 1 if args.quick else 3
    print(f"# start-up: whole program in a fresh process ({child_steps} steps); seconds, peak RSS MiB; "
          f"median of {child_repeats}")
    for name in names:
        if not has_program(tfj, name):
            continue
        res = startup(name, kinds_for(name, tf1), child_steps, child_repeats)
        for label, runs in res.items():
            m = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
            print(f"{name:6s} {label:17s} import {m['import_s']:5.2f}  first step {m['first_step_s']:5.2f}  "
                  f"whole program {m['total_s']:5.2f}  peak RSS {m['rss_mb']:6.0f}")
        for base in ("tf1", "tf1xla"):
            if base not in res:
                continue
            tf_first = statistics.median(r["first_step_s"] for r in res[base])
            tf_total = statistics.median(r["total_s"] for r in res[base])
            for label in ("jaxsess cold", "jaxsess warm"):
                first = statistics.median(r["first_step_s"] for r in res[label])
                total = statistics.median(r["total_s"] for r in res[label])
                print(f"{name:6s} {label} / {base}: first step {first / tf_first:.2f}  "
                      f"whole program {total / tf_total:.2f}")


if __name__ == "__main__":
    main()
