"""Records what tf_keras (TF 2.21, ``tf.compat.v1``, eager disabled) prints for ``fit``,
``evaluate`` and ``predict`` with ``verbose=1``: the raw bytes of stdout (the live bar's
``\\b`` and ``\\r`` included), into ``goldens/keras_progress.json``.

Run with the TensorFlow virtual environment (the suite never imports TensorFlow):

    TF_USE_LEGACY_KERAS=1 /work/tfvenv/bin/python tests/tf_oracle/record_keras_progress.py

The program (also in the golden, run the same way by ``tests/test_keras_progress.py``
under jaxsess) fits a 4-8-3 MLP on 100 samples, batch 32 (4 steps: 32, 64, 96, 100
samples), two epochs, with accuracy; one epoch of batch 50 with validation data; two
epochs with ``verbose=2``; then ``evaluate`` and ``predict`` (``verbose=1``) on the same
data (TF1's Keras draws no bar for those: only its training loop has a ``ProgbarLogger``).
Timings differ from run to run: the test compares the bytes with the numbers of seconds
replaced (``tests/test_keras_progress.py``'s ``normalise``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

PROGRAM = """
import sys
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
tf.set_random_seed(0)
rng = np.random.RandomState(0)
x = rng.rand(100, 4).astype(np.float32)
y = rng.randint(0, 3, 100)
model = tf.keras.Sequential([
    tf.keras.layers.Dense(8, activation="relu", input_shape=(4,)),
    tf.keras.layers.Dense(3, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
sys.stdout.write("<fit>\\n"); sys.stdout.flush()
model.fit(x, y, batch_size=32, epochs=2, verbose=1, shuffle=False)
sys.stdout.write("<fit one epoch, validation>\\n"); sys.stdout.flush()
model.fit(x, y, batch_size=50, epochs=1, verbose=1, shuffle=False, validation_data=(x[:20], y[:20]))
sys.stdout.write("<fit verbose=2>\\n"); sys.stdout.flush()
model.fit(x, y, batch_size=32, epochs=2, verbose=2, shuffle=False)
sys.stdout.write("<evaluate>\\n"); sys.stdout.flush()
model.evaluate(x, y, batch_size=32, verbose=1)
sys.stdout.write("<predict>\\n"); sys.stdout.flush()
model.predict(x, batch_size=32, verbose=1)
sys.stdout.write("<end>\\n"); sys.stdout.flush()
"""


def main() -> None:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", TF_USE_LEGACY_KERAS="1", CUDA_VISIBLE_DEVICES="")
    out = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, env=env, check=True)
    import tensorflow as tf  # noqa: F401 - only for its version

    golden = {"tensorflow": tf.__version__, "program": PROGRAM, "stdout": out.stdout.decode("utf-8")}
    path = HERE / "goldens" / "keras_progress.json"
    path.write_text(json.dumps(golden, indent=1) + "\n", encoding="utf-8")
    print("wrote", path)


if __name__ == "__main__":
    main()
