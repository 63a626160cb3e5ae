"""``python -m jaxsess inspect MODEL``: what a TF model file holds, the ops jaxsess cannot lower, a random run.

Each row runs the real command in a subprocess on a model written by real TF
(``tests/fixtures/tf_models/``, see ``tests/tf_oracle/make_model_fixtures.py``) or on a
GraphDef built here, and checks what it printed against what the file holds (read with
protobuf here, independently of jaxsess).
"""

from __future__ import annotations

import collections
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tensorboard.compat.proto import graph_pb2

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "tests" / "fixtures" / "tf_models"


def inspect(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "JAX_PLATFORMS": "cpu", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "jaxsess", "inspect", *args], capture_output=True, text=True,
                          timeout=300, env=env, stdin=subprocess.DEVNULL)


def inspect_json(*args: str) -> tuple[int, dict[str, Any], str]:
    proc = inspect("--json", *args)
    return proc.returncode, json.loads(proc.stdout), proc.stderr


def test_keras_h5_is_read_and_run_on_a_random_input() -> None:
    proc = inspect(str(MODELS / "keras_cnn.h5"))
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "keras h5" in out and "load with: model = tf.keras.models.load_model(PATH)" in out
    assert "input  input_12: float32 [?, 12, 12, 1]" in out
    assert "layers jaxsess cannot build: none" in out
    assert "random input through 'keras':\n  dense_19/Softmax: float32 [1, 4]" in out


def test_tf2_saved_model_signatures_as_tf_wrote_them() -> None:
    status, report, _ = inspect_json("--no-run", str(MODELS / "tf2_saved_model"))
    assert status == 0
    assert report["kind"] == "saved_model_tf2"
    sig = report["signatures"]["serving_default"]
    assert [(t["name"], t["dtype"], t["shape"], t["tensor"]) for t in sig["inputs"]] == \
        [("x", "float32", [None, 5], "serving_default_x:0")]
    assert [(t["name"], t["dtype"], t["shape"]) for t in sig["outputs"]] == \
        [("logits", "float32", [None, 3]), ("probs", "float32", [None, 3]), ("top", "int64", [None])]
    assert report["ran"] is False and report["outputs"] == {}
    # the saver's functions (SaveV2, RestoreV2...) are not what the signature runs: not counted
    assert "SaveV2" not in report["ops"] and "RestoreV2" not in report["ops"]
    assert report["ops"]["MatMul"] == 2 and report["functions"] == 2


def test_frozen_graph_op_counts_are_the_files() -> None:
    path = MODELS / "mobilenet_v2_035.pb"
    gd = graph_pb2.GraphDef.FromString(path.read_bytes())
    status, report, _ = inspect_json("--no-run", str(path))
    assert status == 0
    assert report["ops"] == dict(sorted(collections.Counter(n.op for n in gd.node).items()))
    assert set(report["unsupported"]) <= set(report["ops"])
    for op, n in report["unsupported"].items():
        assert report["ops"][op] == n
    sig = report["signatures"]["graph"]
    assert [(t["name"], t["dtype"], t["shape"]) for t in sig["inputs"]] == [("input:0", "float32", [None, 32, 32, 3])]
    assert [t["name"] for t in sig["outputs"]] == ["Identity:0"]


def _graph_with_unknown_op(tmp: Path) -> Path:
    gd = graph_pb2.GraphDef()
    x = gd.node.add(name="x", op="Placeholder")
    x.attr["dtype"].type = 1
    x.attr["shape"].shape.dim.add(size=-1)
    x.attr["shape"].shape.dim.add(size=3)
    for name in ("odd_a", "odd_b"):
        n = gd.node.add(name=name, op="NotARealTFOp", input=["x"])
        n.attr["T"].type = 1
    y = gd.node.add(name="y", op="AddV2", input=["odd_a", "odd_b"])
    y.attr["T"].type = 1
    path = tmp / "odd.pb"
    path.write_bytes(gd.SerializeToString())
    return path


def test_an_op_jaxsess_cannot_lower_is_counted_and_the_run_fails_naming_it(tmp_path: Path) -> None:
    path = _graph_with_unknown_op(tmp_path)
    status, report, err = inspect_json(str(path))
    assert status == 1
    assert report["unsupported"] == {"NotARealTFOp": 2}
    assert report["ops"] == {"AddV2": 1, "NotARealTFOp": 2, "Placeholder": 1}
    assert report["ran"] is False
    assert "NotARealTFOp" in report["error"] and "odd_a" in report["error"]
    assert err.startswith("python -m jaxsess inspect: error: ") and "NotARealTFOp" in err
    text = inspect(str(path)).stdout
    assert "ops jaxsess cannot lower: 1 types, 2 nodes\n  NotARealTFOp: 2" in text


def test_not_a_model(tmp_path: Path) -> None:
    (tmp_path / "notes.csv").write_text("a,b\n")
    proc = inspect(str(tmp_path / "notes.csv"))
    assert proc.returncode == 1
    assert "not a model file jaxsess recognises" in proc.stderr
    proc = inspect(str(tmp_path))
    assert proc.returncode == 1 and "without saved_model.pb" in proc.stderr
    proc = inspect(str(tmp_path / "missing.pb"))
    assert proc.returncode == 1 and "no such file or directory" in proc.stderr


def test_help_lists_inspect() -> None:
    env = {**os.environ, "JAX_PLATFORMS": "cpu", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "jaxsess", "--help"], capture_output=True, text=True, env=env,
                          timeout=120)
    assert proc.returncode == 0 and "inspect" in proc.stdout
