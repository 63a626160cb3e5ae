"""The command line, ``python -m jaxsess``: the demo and an environment report.

Subcommands (run ``python -m jaxsess COMMAND --help`` for each):

* ``demo [--cleanup STRATEGY] [--steps N] [--no-progress]``: the classic TF1
  session example (``a + b`` gives ``[3. 5.]`` via ``eval`` under
  ``as_default``, ``run`` and ``eval(session=...)``); the n*m loop under each
  cleanup strategy, with the live-buffer counts; an MLP (64-128-10, Adam)
  trained in a graph ``Session`` on the embedded handwritten-digits data, with
  its progress, test accuracy and the session's memory stats.
  With ``--processes N`` (N > 1) only the training runs, data-parallel in N
  local processes on ``jax.distributed`` (4 CPU devices each, the batch
  sharded over all of them): it prints the test accuracy and how many
  processes took part.
* ``info``: versions, backend, devices and the x64 setting.
* ``launch --processes N [--devices-per-process K] script.py [args]``: runs a
  script in N local processes on ``jax.distributed`` (see ``jaxsess._launch``).
* ``inspect MODEL [--no-run] [--json] [--seed N]``: what a model file written by
  TensorFlow holds (signatures, the ops jaxsess cannot lower with counts) and the
  outputs of a random input (see ``jaxsess._tf1.model_files``).

Exit status: 0 on success, 2 for a usage error (one line on stderr saying which
argument and why), 1 when a command fails (one line on stderr; ``--traceback``
shows the Python traceback too), 130 when interrupted. Called without a
command it prints this help.

New subcommands register in :data:`COMMANDS`: a function that adds its parser
to the subparsers and sets ``func`` (called with the parsed arguments,
returning the exit status).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

import jax
import jax.numpy as jnp
import jaxlib
import numpy as np
import optax
from jax.sharding import Mesh, PartitionSpec
from tqdm import tqdm

import jaxsess
from jaxsess import distributed
from jaxsess._core.graph._device import tf_device_name
from jaxsess._core.runtime._native import hot as _c_hot
from jaxsess._core.runtime._resources import ResourceCleanupStrategy
from jaxsess._launch import launch
from jaxsess._tf1.model_files import inspect_model
from jaxsess.datasets import load_digits

PROG = "python -m jaxsess"
DEFAULT_STEPS = 600
#: The test accuracy that ``DEFAULT_STEPS`` or more training steps must reach.
TARGET_ACCURACY = 0.95


class _Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose usage errors are one line on stderr, exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


def _strategy(text: str) -> ResourceCleanupStrategy:
    try:
        return ResourceCleanupStrategy.coerce(text)
    except ValueError:
        valid = ", ".join(s.name for s in ResourceCleanupStrategy)
        raise argparse.ArgumentTypeError(f"unknown strategy {text!r}; expected one of: {valid}") from None


# -- demo -------------------------------------------------------------------------


def _classic() -> None:
    print("== The classic TF1 session example ==")
    g = jaxsess.Graph()
    with g.as_default():
        a = jaxsess.constant([1.0, 2.0], name="a")
        b = jaxsess.constant([2.0, 3.0], name="b")
        result = a + b
        sess = jaxsess.Session(graph=g)
        with sess.as_default():
            print(np.asarray(result.eval()))
        print(np.asarray(sess.run(result)))
        print(np.asarray(result.eval(session=sess)))
        sess.close()


def _nm_loop(n: int = 4, m: int = 50, size: int = 64 * 1024) -> None:
    print(f"\n== The n*m loop: {n} outputs x {m} iterations, {size * 4 // 1024} KiB each ==")
    x = jnp.ones((size,), jnp.float32)
    header = f"{'strategy':<18}{'live after loop':>16}{'peak / iteration':>18}{'live after close':>18}"
    print(header)
    for strategy in ResourceCleanupStrategy:
        with jaxsess.EagerSession(cleanup=strategy) as s:
            f = s.jit(lambda v: tuple(v * (i + 1) for i in range(n)))
            for _ in range(m):
                outs = f(x)
                jax.block_until_ready(outs)
            del outs
            if strategy is ResourceCleanupStrategy.IN_BACKGROUND:
                deadline = time.monotonic() + 2.0
                while s._registry.stats().live_buffers > n and time.monotonic() < deadline:
                    time.sleep(0.001)
            live = s.stats().live_buffers  # a safe point
            peak = s.stats().peak_bytes / (n * size * 4)
        after = s.stats().live_buffers
        print(f"{strategy.name:<18}{live:>16}{peak:>18.1f}{after:>18}")


class _Progress:
    """Training progress: a tqdm bar on a terminal, plain periodic lines otherwise.

    tqdm's ``disable=None`` turns the bar off when stdout is not a TTY (a log,
    a pipe, CI); then about ten ``step i/N ...`` lines are printed instead, so
    a log shows progress without carriage returns.
    """

    def __init__(self, steps: int, enabled: bool) -> None:
        self.steps = steps
        self.enabled = enabled
        self.start = time.perf_counter()
        self.bar = tqdm(total=steps, desc="training", unit="step", file=sys.stdout, disable=None if enabled else True)
        self.plain = enabled and self.bar.disable
        self.every = max(1, steps // 10)

    def update(self, step: int, loss: Callable[[], float]) -> None:
        self.bar.update(1)
        if step % 50 == 0 and not self.bar.disable:
            self.bar.set_postfix(loss=f"{loss():.4f}")
        done = step + 1
        if self.plain and (done % self.every == 0 or done == self.steps):
            rate = done / max(time.perf_counter() - self.start, 1e-9)
            print(f"training: step {done}/{self.steps}, loss {loss():.4f}, {rate:.0f} steps/s", flush=True)

    def close(self) -> None:
        self.bar.close()


def _train(cleanup: ResourceCleanupStrategy, steps: int, progress: bool, mesh: Mesh | None = None) -> float:
    data = load_digits()
    print(
        f"\n== Training an MLP 64-128-10 with Adam on the digits "
        f"({len(data.x_train)} train / {len(data.x_test)} test), cleanup={cleanup.name} =="
    )
    tf = jaxsess
    data_axis = None if mesh is None else PartitionSpec("data")  # batch-sharded over all processes' devices
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(0)
        x = tf.placeholder(tf.float32, [None, 64], name="x", sharding=data_axis)
        y = tf.placeholder(tf.int32, [None], name="y", sharding=data_axis)
        w1 = tf.Variable(tf.truncated_normal([64, 128], stddev=0.1), name="w1")
        b1 = tf.Variable(tf.zeros([128]), name="b1")
        w2 = tf.Variable(tf.truncated_normal([128, 10], stddev=0.1), name="w2")
        b2 = tf.Variable(tf.zeros([10]), name="b2")
        hidden = tf.nn.relu(tf.matmul(x, w1) + b1)
        logits = tf.matmul(hidden, w2) + b2
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
        train_op = tf.train.AdamOptimizer(0.01).minimize(loss)
        correct = tf.equal(tf.argmax(logits, 1, output_type=tf.int32), y)
        accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
        init = tf.global_variables_initializer()

    rng = np.random.default_rng(0)
    batch = 128
    n, i = distributed.process_count(), distributed.process_index()
    x_test, y_test = data.x_test, data.y_test
    if mesh is not None:  # every process feeds its part of the same global batch
        test_rows = len(x_test) // mesh.size * mesh.size
        x_test, y_test = x_test[:test_rows], y_test[:test_rows]

    def local(a: np.ndarray) -> np.ndarray:
        return a if mesh is None else np.array_split(a, n)[i]

    with tf.Session(graph=g, cleanup=cleanup, mesh=mesh) as sess:
        sess.run(init)
        bar = _Progress(steps, progress)
        try:
            for step in range(steps):
                idx = rng.integers(0, len(data.x_train), batch)
                feed = {x: local(data.x_train[idx]), y: local(data.y_train[idx])}
                _, loss_value = sess.run([train_op, loss], feed)
                bar.update(step, functools.partial(float, loss_value))
        finally:
            bar.close()
        acc = float(sess.run(accuracy, {x: local(x_test), y: local(y_test)}))
        st = sess.stats()
        print(f"test accuracy: {acc:.4f}")
        print(
            f"session memory: live_buffers={st.live_buffers} live_bytes={st.live_bytes} "
            f"peak_bytes={st.peak_bytes} allocated={st.allocated_buffers} freed={st.freed_buffers}"
        )
    return acc


def _distributed_worker(args: argparse.Namespace) -> int:
    """One process of ``demo --processes N``: the training step over a mesh of every process's devices."""
    distributed.initialize()
    mesh = Mesh(np.array(jax.devices()), ("data",))
    acc = _train(args.cleanup, args.steps, False, mesh=mesh)
    if distributed.process_index() == 0:
        print(
            f"{distributed.process_count()} processes took part "
            f"({len(jax.local_devices())} devices each, {mesh.size} in the mesh)"
        )
    distributed.shutdown()
    if args.steps >= DEFAULT_STEPS and acc < TARGET_ACCURACY:
        raise RuntimeError(f"test accuracy {acc:.4f} is below {TARGET_ACCURACY} after {args.steps} steps")
    return 0


def _demo(args: argparse.Namespace) -> int:
    if args.distributed_worker:
        return _distributed_worker(args)
    if args.processes > 1:
        worker = ["-m", "jaxsess", "demo", "--distributed-worker", "--steps", str(args.steps),
                  "--cleanup", args.cleanup.name, "--no-progress"]
        return launch(worker, args.processes, 4)
    _classic()
    _nm_loop()
    acc = _train(args.cleanup, args.steps, not args.no_progress)
    if args.steps < DEFAULT_STEPS:
        print(f"(trained {args.steps} of the {DEFAULT_STEPS} steps that reach a test accuracy >= {TARGET_ACCURACY})")
        return 0
    if acc < TARGET_ACCURACY:
        raise RuntimeError(f"test accuracy {acc:.4f} is below {TARGET_ACCURACY} after {args.steps} steps")
    return 0


def _add_demo(sub: Any) -> None:
    p = sub.add_parser(
        "demo",
        help="the classic TF1 example, the n*m loop, and an MLP trained on the digits",
        description="The classic TF1 session example, the n*m loop under each cleanup strategy, "
        "and an MLP (64-128-10, Adam) trained in a graph Session on the embedded digits data.",
    )
    p.add_argument(
        "--cleanup",
        default=ResourceCleanupStrategy.IN_BACKGROUND,
        type=_strategy,
        metavar="{" + ",".join(s.name for s in ResourceCleanupStrategy) + "}",
        help="the training session's resource cleanup strategy (default: IN_BACKGROUND)",
    )
    p.add_argument(
        "--steps",
        type=_positive_int,
        default=DEFAULT_STEPS,
        metavar="N",
        help=f"training steps of batch 128 (default: {DEFAULT_STEPS}, which reach a test accuracy "
        f">= {TARGET_ACCURACY}; the command fails if they do not)",
    )
    p.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (on a terminal) or periodic progress lines (in a log)",
    )
    p.add_argument(
        "--processes",
        type=_positive_int,
        default=1,
        metavar="N",
        help="train data-parallel in N local processes on jax.distributed (4 CPU devices each)",
    )
    p.add_argument("--distributed-worker", action="store_true", help=argparse.SUPPRESS)
    p.set_defaults(func=_demo)


# -- info -------------------------------------------------------------------------


def _info(args: argparse.Namespace) -> int:
    print(f"jaxsess {jaxsess.__version__} ({os.path.dirname(os.path.abspath(jaxsess.__file__))})")
    print(f"python  {platform.python_version()} ({sys.executable})")
    print(f"jax     {jax.__version__}, jaxlib {jaxlib.__version__}, numpy {np.__version__}, optax {optax.__version__}")
    print(f"backend {jax.default_backend()}")
    if _c_hot is not None:
        print("hot     C (jaxsess._core.runtime._hot: Session.run / make_callable cache hits, safe points)")
    elif os.environ.get("JAXSESS_C_HOT_PATH", "1").strip().lower() in ("0", "false", "no", "off"):
        print("hot     Python (JAXSESS_C_HOT_PATH=0)")
    else:
        print("hot     Python (jaxsess._core.runtime._hot is not built: reinstall with a C compiler for faster per-call paths)")
    x64 = bool(jax.config.read("jax_enable_x64"))
    print(f"x64     {'enabled' if x64 else 'disabled'} (jax_enable_x64={x64}; float64/int64 compute in "
          f"{'64' if x64 else '32'} bits)")
    devices = jax.devices()
    print(f"devices {len(devices)}")
    for d in devices:
        print(f"  {d.platform}:{d.id}  {d.device_kind}  {tf_device_name(d)}")
    if jax.default_backend() == "cpu" and len(devices) == 1:
        print("  (more CPU devices: XLA_FLAGS=--xla_force_host_platform_device_count=8 before JAX starts)")
    return 0


def _add_info(sub: Any) -> None:
    p = sub.add_parser(
        "info",
        help="versions, backend, hot path, devices and the x64 setting",
        description="Versions of jaxsess, Python, JAX and friends; the default backend, whether the C hot "
        "path is built, its devices "
        "(with their TF1 names) and whether jax_enable_x64 is on.",
    )
    p.set_defaults(func=_info)


# -- launch -----------------------------------------------------------------------


def _launch(args: argparse.Namespace) -> int:
    if not args.script:
        raise _UsageError("launch: give the script to run (script.py [args] or -m module [args])")
    script = args.script[1:] if args.script[:1] == ["--"] else args.script
    return launch(
        script,
        args.processes,
        args.devices_per_process,
        heartbeat_timeout_seconds=args.heartbeat_timeout,
        timeout=args.timeout,
    )


def _add_launch(sub: Any) -> None:
    p = sub.add_parser(
        "launch",
        help="run a script in N local processes on jax.distributed",
        description="Starts N local processes on 127.0.0.1 (free coordinator port, CPU collectives), "
        "streams their output prefixed [p0], [p1], ..., and fails fast when one dies: the exit status "
        "is 100 + the index of the first process that failed (124 after --timeout).",
    )
    p.add_argument("--processes", type=_positive_int, required=True, metavar="N", help="number of processes")
    p.add_argument("--devices-per-process", type=_positive_int, default=1, metavar="K", help="CPU devices per process")
    p.add_argument("--heartbeat-timeout", type=_positive_int, default=10, metavar="S",
                   help="seconds before a silent process counts as dead (default: 10)")
    p.add_argument("--timeout", type=float, default=None, metavar="S", help="seconds for the whole job (exit 124 after)")
    p.add_argument("script", nargs="*", help="script.py [args] or -m module [args]")
    p.set_defaults(func=_launch)


_LAUNCH_OPTIONS = {"--processes", "--devices-per-process", "--heartbeat-timeout", "--timeout"}


def _split_launch(argv: list[str]) -> tuple[list[str], list[str]]:
    """``[..., 'launch', *options, *command]`` -> (the part argparse reads, the launched command):
    the command starts at the first token that is not a launch option (or after ``--``)."""
    k = argv.index("launch") + 1
    while k < len(argv):
        tok = argv[k]
        if tok in ("-h", "--help") or ("=" in tok and tok.split("=", 1)[0] in _LAUNCH_OPTIONS):
            k += 1
        elif tok in _LAUNCH_OPTIONS:
            k += 2
        else:
            break
    command = argv[k:]
    return argv[:k], command[1:] if command[:1] == ["--"] else command


# -- inspect ----------------------------------------------------------------------


def _inspect(args: argparse.Namespace) -> int:
    report = inspect_model(args.model, run=not args.no_run, seed=args.seed)
    if args.json:
        print(json.dumps(report.as_json(), indent=1))
    else:
        print(report.text())
    if report.error:
        if args.traceback:  # the error was caught in the report: load again to show where it came from
            inspect_model(args.model, run=not args.no_run, seed=args.seed, reraise=True)
        print(f"{PROG} inspect: error: {report.error}", file=sys.stderr)
        return 1
    return 0


def _add_inspect(sub: Any) -> None:
    p = sub.add_parser(
        "inspect",
        help="what a TF model file holds, and whether jaxsess runs it",
        description="Reads a model written by TensorFlow (a frozen GraphDef .pb/.pbtxt, a .meta with its "
        "checkpoint, a TF1 or TF2 SavedModel directory, a Keras .h5 or SavedModel) without TensorFlow: "
        "lists its signatures (inputs and outputs with dtypes and shapes), the op types of its graph and "
        "function library that jaxsess cannot lower (with counts), and runs each signature once on a random "
        "input (standard normal floats, zeros for integers, unknown dimensions 1), printing the outputs' "
        "shapes. Exit status 1 when the model does not load or run.",
    )
    p.add_argument("model", metavar="MODEL", help="the model file or SavedModel directory")
    p.add_argument("--no-run", action="store_true", help="only read the file; do not run a random input")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--seed", type=int, default=0, help="seed of the random input (default: 0)")
    p.set_defaults(func=_inspect)


class _UsageError(Exception):
    """A usage error found after parsing: one line, exit status 2."""


#: Subcommands: each adds its parser to the subparsers and sets ``func``.
COMMANDS: list[Callable[[Any], None]] = [_add_demo, _add_info, _add_launch, _add_inspect]


def build_parser() -> argparse.ArgumentParser:
    """The ``python -m jaxsess`` parser with every subcommand of :data:`COMMANDS`."""
    parser = _Parser(
        prog=PROG,
        description="jaxsess: sessions that own JAX device memory, and TF1-style graphs lowered to XLA.",
        epilog=f"Run '{PROG} COMMAND --help' for a command's options.",
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"jaxsess {jaxsess.__version__} (jax {jax.__version__}, jaxlib {jaxlib.__version__})",
    )
    parser.add_argument("--traceback", action="store_true", help="show the Python traceback when a command fails")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for add in COMMANDS:
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status (see the module docstring)."""
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    script: list[str] = []
    first = next((a for a in argv if not a.startswith("-")), None)
    if first == "launch":  # the launched command's own options are not ours
        argv, script = _split_launch(argv)
    args = parser.parse_args(argv)
    if args.command == "launch":
        args.script = script
    if args.command is None:
        parser.print_help()
        return 0
    try:
        status: int = args.func(args)
    except _UsageError as e:
        parser.error(str(e))
    except KeyboardInterrupt:
        print(f"{PROG} {args.command}: interrupted", file=sys.stderr)
        return 130
    except Exception as e:
        if args.traceback:
            traceback.print_exc()
        message = " ".join(str(e).split()) or "(no message)"
        print(f"{PROG} {args.command}: error: {type(e).__name__}: {message}", file=sys.stderr)
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
