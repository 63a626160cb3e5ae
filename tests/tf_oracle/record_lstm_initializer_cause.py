"""Records why TF 2.x's TF1 LSTM starting weights cannot be matched (issue 33 item 7, the LSTM
tutorials' step-1 loss 2.7158 vs 2.7021). Run with the oracle interpreter::

    python tests/tf_oracle/record_lstm_initializer_cause.py tests/fixtures/tf/lstm_initializer_cause.json

Under TF 2.16+ (``TF_USE_LEGACY_KERAS=1``: ``tf.compat.v1.nn.rnn_cell`` is ``tf_keras``'s legacy
cells) a cell's kernel without an initializer gets ``tf_keras``' v2 ``GlorotUniform()``: a
*stateless* uniform (``StatelessRandomUniformV2``) whose seed ``tf_keras`` draws from Python's
``random.randint(1, 1e9)``, not from ``tf.set_random_seed``. So two runs of the same program,
seeded with ``tf.set_random_seed``, start from different LSTM weights; with Python's ``random``
seeded as well they agree. This script records exactly that, in fresh interpreters.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

PROGRAM = """
import os, sys, json, random
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
os.environ["TF_USE_LEGACY_KERAS"] = "1"
if sys.argv[1] == "python-random-seeded":
    random.seed(0)
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
tf.set_random_seed(1)
x = tf.placeholder(tf.float32, [None, 5, 3])
outputs, _ = tf.nn.static_rnn(tf.nn.rnn_cell.BasicLSTMCell(4), tf.unstack(x, 5, 1), dtype=tf.float32)
w = tf.Variable(tf.random_normal([4, 2]), name="w_out")
kernel = [v for v in tf.global_variables() if v.op.name.endswith("kernel")][0]
init_ops = sorted({op.type for op in tf.get_default_graph().get_operations()
                   if op.name.startswith(kernel.op.name + "/Initializer/") and "Random" in op.type})
with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    print(json.dumps({"kernel": s.run(kernel).ravel()[:6].tolist(), "w_out": s.run(w).ravel().tolist(),
                      "kernel_initializer_random_ops": init_ops}))
"""


def _run(mode: str) -> dict:
    out = subprocess.run([sys.executable, "-c", PROGRAM, mode], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(path: str) -> int:
    import tensorflow as tf

    plain = [_run("plain") for _ in range(2)]
    seeded = [_run("python-random-seeded") for _ in range(2)]
    record = {
        "tensorflow": tf.__version__,
        "kernel_initializer_random_ops": plain[0]["kernel_initializer_random_ops"],
        "same_kernel_in_two_runs_with_tf_set_random_seed": plain[0]["kernel"] == plain[1]["kernel"],
        "same_w_out_in_two_runs_with_tf_set_random_seed": plain[0]["w_out"] == plain[1]["w_out"],
        "same_kernel_in_two_runs_with_python_random_seeded_too": seeded[0]["kernel"] == seeded[1]["kernel"],
    }
    with open(path, "w") as f:
        json.dump(record, f, indent=1, sort_keys=True)
        f.write("\n")
    print(record)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.join("tests", "fixtures", "tf", "lstm_initializer_cause.json")))
