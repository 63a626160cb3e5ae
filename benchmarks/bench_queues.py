"""Cost of a queue-based input pipeline against ``tf.data`` and ``feed_dict``.

Trains a small MLP step on 64x32 float32 batches three ways in this one
process (interleaved repeats, medians): ``train.slice_input_producer`` +
``train.batch`` filled by a ``QueueRunner`` thread, a ``tf.data`` iterator,
and ``feed_dict``. Prints steps/s of each and the ratios
``queues / feed_dict`` (target >= 0.5: a dequeue of a prepared batch costs
about what an iterator's ``get_next`` costs; the producer runs in its own
thread but shares the GIL) and ``queues / tf.data``.
Usage: ``python benchmarks/bench_queues.py [--quick]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import numpy as np  # noqa: E402
from bench_tf_data import build  # noqa: E402  # the same model as the tf.data benchmark's

import jaxsess as tf  # noqa: E402

TARGET = 0.5


def timed(fn: object, steps: int) -> float:
    t = time.perf_counter()
    for i in range(steps):
        fn(i)  # type: ignore[operator]
    return steps / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    steps, repeats = (200, 3) if args.quick else (1000, 5)
    rng = np.random.RandomState(0)
    xs = rng.normal(size=(steps * 64, 32)).astype(np.float32)
    ys = rng.normal(size=(steps * 64, 1)).astype(np.float32)

    gq = tf.Graph()
    with gq.as_default():
        # enqueue_many of prepared batches: one producer run per batch, as a tuned TF1 pipeline
        bx, by = tf.train.batch([xs.reshape(steps, 64, 32)[0], ys.reshape(steps, 64, 1)[0]], batch_size=64,
                                enqueue_many=True, capacity=256)
        train_queue = build(bx, by)
        initq = tf.global_variables_initializer()
    gd = tf.Graph()
    with gd.as_default():
        it = tf.data.Dataset.from_tensor_slices((xs, ys)).batch(64, drop_remainder=True).repeat()
        dx, dy = it.make_one_shot_iterator().get_next()
        train_data = build(dx, dy)
        initd = tf.global_variables_initializer()
    gf = tf.Graph()
    with gf.as_default():
        px = tf.placeholder(tf.float32, [64, 32])
        py = tf.placeholder(tf.float32, [64, 1])
        train_feed = build(px, py)
        initf = tf.global_variables_initializer()
    sq, sd, sf = tf.Session(graph=gq), tf.Session(graph=gd), tf.Session(graph=gf)
    sq.run(initq)
    sd.run(initd)
    sf.run(initf)
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sq, coord)
    sq.run(train_queue)
    sd.run(train_data)
    sf.run(train_feed, {px: xs[:64], py: ys[:64]})
    q_rates, d_rates, f_rates = [], [], []
    for _ in range(repeats):
        q_rates.append(timed(lambda i: sq.run(train_queue), steps))
        d_rates.append(timed(lambda i: sd.run(train_data), steps))
        f_rates.append(timed(lambda i: sf.run(train_feed, {px: xs[i * 64:(i + 1) * 64],
                                                           py: ys[i * 64:(i + 1) * 64]}), steps))
    q, d, f = statistics.median(q_rates), statistics.median(d_rates), statistics.median(f_rates)
    print(f"queues steps/s: {q:.0f}   tf.data steps/s: {d:.0f}   feed_dict steps/s: {f:.0f}")
    print(f"ratio queues / feed_dict: {q / f:.2f} (target >= {TARGET})")
    print(f"ratio queues / tf.data: {q / d:.2f}")
    coord.request_stop()
    sq.close()
    coord.join(threads)
    sd.close()
    sf.close()


if __name__ == "__main__":
    main()
