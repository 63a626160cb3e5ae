"""``tf.keras`` ``fit``/``predict`` in TF1 graph mode: real TensorFlow (``tf_keras``) vs jaxsess.

One program, written once as TF1 Keras source: an MLP 64-128-128-10 (ReLU,
softmax) on the shipped 8x8 digits (1,437 training images), Adam, sparse
categorical cross-entropy with accuracy, ``batch_size`` 32 (45 steps an
epoch). Each candidate runs it in a fresh child process: a warm-up epoch (it
compiles), then ``--epochs`` timed epochs of ``fit(verbose=0,
shuffle=False)`` and ``--predicts`` timed ``predict`` passes. Reported:
samples per wall second and per CPU second of the process (all threads: steadier
than wall time on a shared machine), and jaxsess / TF ratios (higher is better
for jaxsess).

Usage: ``python benchmarks/bench_keras.py [--quick] [--epochs 5] [--tf-python /work/tfvenv/bin/python]``
(the TF child needs ``tensorflow`` and ``tf_keras``; it is skipped when that
interpreter is missing).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROGRAM = """
import json, sys, time
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
data = np.load(sys.argv[1])
x, y = data["x"], data["y"]
epochs, predicts = int(sys.argv[2]), int(sys.argv[3])
model = tf.keras.Sequential([
    tf.keras.layers.Dense(128, activation="relu", input_shape=(64,)),
    tf.keras.layers.Dense(128, activation="relu"),
    tf.keras.layers.Dense(10, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
model.fit(x, y, batch_size=32, epochs=1, verbose=0, shuffle=False)
model.predict(x, batch_size=256)
t0, c0 = time.perf_counter(), time.process_time()
hist = model.fit(x, y, batch_size=32, epochs=epochs, verbose=0, shuffle=False)
t1, c1 = time.perf_counter(), time.process_time()
for _ in range(predicts):
    model.predict(x, batch_size=256)
t2, c2 = time.perf_counter(), time.process_time()
print(json.dumps({"fit": len(x) * epochs / (t1 - t0), "predict": len(x) * predicts / (t2 - t1),
                  "fit_cpu": len(x) * epochs / (c1 - c0), "predict_cpu": len(x) * predicts / (c2 - c1),
                  "final_accuracy": float(hist.history["accuracy"][-1])}))
"""


def run_child(python: str, program: str, data: str, epochs: int, predicts: int) -> dict[str, float]:
    env = dict(os.environ, JAX_PLATFORMS="cpu", TF_CPP_MIN_LOG_LEVEL="2", TF_USE_LEGACY_KERAS="1",
               CUDA_VISIBLE_DEVICES="", PYTHONPATH=ROOT)
    out = subprocess.run([python, "-c", program, data, str(epochs), str(predicts)], capture_output=True,
                         text=True, env=env, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--predicts", type=int, default=20)
    parser.add_argument("--tf-python", default="/work/tfvenv/bin/python")
    parser.add_argument("--quick", action="store_true", help="1 epoch, 2 predicts, jaxsess only (a smoke run)")
    args = parser.parse_args()
    if args.quick:
        args.epochs, args.predicts, args.tf_python = 1, 2, ""
    sys.path.insert(0, ROOT)
    import numpy as np

    from jaxsess.datasets import load_digits

    digits = load_digits()
    data = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"bench_keras_{os.getpid()}.npz")
    np.savez(data, x=digits.x_train, y=digits.y_train)
    try:
        ours = run_child(sys.executable, PROGRAM.replace("import tensorflow.compat.v1 as tf",
                                                         "import jaxsess.compat.v1 as tf"),
                         data, args.epochs, args.predicts)
        theirs = None
        if args.tf_python and os.path.exists(args.tf_python):
            theirs = run_child(args.tf_python, PROGRAM, data, args.epochs, args.predicts)
    finally:
        os.remove(data)
    print(f"{'candidate':<10} {'fit /s':>8} {'fit /cpu-s':>11} {'predict /s':>11} {'predict /cpu-s':>15} "
          f"{'final acc':>10}")
    for name, r in (("tf1", theirs), ("jaxsess", ours)):
        if r is not None:
            print(f"{name:<10} {r['fit']:>8.0f} {r['fit_cpu']:>11.0f} {r['predict']:>11.0f} {r['predict_cpu']:>15.0f} "
                  f"{r['final_accuracy']:>10.3f}")
    if theirs is not None:
        print("ratio jaxsess/tf1 (samples/s; per CPU second): "
              f"fit {ours['fit'] / theirs['fit']:.2f}x; {ours['fit_cpu'] / theirs['fit_cpu']:.2f}x, "
              f"predict {ours['predict'] / theirs['predict']:.2f}x; {ours['predict_cpu'] / theirs['predict_cpu']:.2f}x")


if __name__ == "__main__":
    main()
