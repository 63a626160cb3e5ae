"""``python -m jaxsess demo | info`` — the main job and an environment report.

``demo [--cleanup STRATEGY] [--steps N] [--no-progress]``:

1. the classic TF1 session example (``a + b`` → ``[3. 5.]`` via ``eval`` under
   ``as_default``, ``run`` and ``eval(session=...)``);
2. the n·m loop under each cleanup strategy, with the live-buffer counts;
3. an MLP (64-128-10, Adam) trained in a graph ``Session`` on the embedded
   handwritten-digits data, with a progress bar, the test accuracy and the
   session's memory stats.

``info``: versions, backends and devices.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np


def _classic() -> None:
    import jaxsess as tf

    print("== The classic TF1 session example ==")
    g = tf.Graph()
    with g.as_default():
        a = tf.constant([1.0, 2.0], name="a")
        b = tf.constant([2.0, 3.0], name="b")
        result = a + b
        sess = tf.Session(graph=g)
        with sess.as_default():
            print(result.eval())
        print(sess.run(result))
        print(result.eval(session=sess))
        sess.close()


def _nm_loop(n: int = 4, m: int = 50, size: int = 64 * 1024) -> None:
    import jax
    import jax.numpy as jnp

    import jaxsess

    print(f"\n== The n*m loop: {n} outputs x {m} iterations, {size * 4 // 1024} KiB each ==")
    x = jnp.ones((size,), jnp.float32)
    header = f"{'strategy':<18}{'live after loop':>16}{'peak / iteration':>18}{'live after close':>18}"
    print(header)
    for strategy in jaxsess.ResourceCleanupStrategy:
        with jaxsess.EagerSession(cleanup=strategy) as s:
            f = s.jit(lambda v: tuple(v * (i + 1) for i in range(n)))
            for _ in range(m):
                outs = f(x)
                jax.block_until_ready(outs)
            del outs
            if strategy is jaxsess.ResourceCleanupStrategy.IN_BACKGROUND:
                deadline = time.monotonic() + 2.0
                while s._registry.stats().live_buffers > n and time.monotonic() < deadline:
                    time.sleep(0.001)
            live = s.stats().live_buffers  # a safe point
            peak = s.stats().peak_bytes / (n * size * 4)
        after = s.stats().live_buffers
        print(f"{strategy.name:<18}{live:>16}{peak:>18.1f}{after:>18}")


def _train(cleanup: str, steps: int, progress: bool) -> float:
    from tqdm import tqdm

    import jaxsess as tf
    from jaxsess.datasets import load_digits

    data = load_digits()
    print(
        f"\n== Training an MLP 64-128-10 with Adam on the digits "
        f"({len(data.x_train)} train / {len(data.x_test)} test), cleanup={cleanup} =="
    )
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(0)
        x = tf.placeholder(tf.float32, [None, 64], name="x")
        y = tf.placeholder(tf.int32, [None], name="y")
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
    with tf.Session(graph=g, cleanup=cleanup) as sess:
        sess.run(init)
        bar = tqdm(range(steps), desc="training", unit="step", disable=not progress, file=sys.stdout)
        for step in bar:
            idx = rng.integers(0, len(data.x_train), batch)
            _, loss_value = sess.run([train_op, loss], {x: data.x_train[idx], y: data.y_train[idx]})
            if step % 50 == 0:
                bar.set_postfix(loss=f"{float(loss_value):.4f}")
        acc = float(sess.run(accuracy, {x: data.x_test, y: data.y_test}))
        st = sess.stats()
        print(f"test accuracy: {acc:.4f}")
        print(
            f"session memory: live_buffers={st.live_buffers} live_bytes={st.live_bytes} "
            f"peak_bytes={st.peak_bytes} allocated={st.allocated_buffers} freed={st.freed_buffers}"
        )
    return acc


def _info() -> None:
    import platform

    import jax
    import jaxlib
    import numpy
    import optax

    import jaxsess
    from jaxsess.graph._placement import tf_device_name

    print(f"jaxsess {jaxsess.__version__}")
    print(f"python  {platform.python_version()} ({sys.executable})")
    print(f"jax     {jax.__version__}, jaxlib {jaxlib.__version__}, numpy {numpy.__version__}, optax {optax.__version__}")
    print(f"default backend: {jax.default_backend()}")
    for d in jax.devices():
        print(f"  {d.platform}:{d.id}  {d.device_kind}  {tf_device_name(d)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m jaxsess", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="run the main job")
    demo.add_argument(
        "--cleanup",
        default="IN_BACKGROUND",
        choices=["IN_BACKGROUND", "ON_SAFE_POINTS", "ON_SESSION_CLOSE"],
        help="the training session's resource cleanup strategy",
    )
    demo.add_argument("--steps", type=int, default=600, help="training steps (batch 128)")
    demo.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    sub.add_parser("info", help="versions, backends and devices")
    args = parser.parse_args(argv)
    if args.command == "info":
        _info()
        return 0
    _classic()
    _nm_loop()
    acc = _train(args.cleanup, args.steps, not args.no_progress)
    return 0 if acc >= 0.95 else 1


if __name__ == "__main__":
    sys.exit(main())
