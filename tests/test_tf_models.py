"""Real TensorFlow models, loaded every way a TF user hands one over, in a process without TensorFlow.

The artifacts under ``tests/fixtures/tf_models/`` were written by real TF 2.21 + tf_keras
(``tests/tf_oracle/make_model_fixtures.py``): frozen Keras applications and blocks, LSTMs with
control flow v1 and v2, a Transformer block, a TF1 training graph (``.meta`` + checkpoint), TF1
and TF2 SavedModels, Keras ``.h5`` and SavedModel files. Each is loaded by
``tests/tf_models_runner.py`` in a subprocess whose ``sys.path`` starts with a ``tensorflow``
package that raises on import, and compared with the outputs TF computed (issue 32's criteria:
1e-4 relative to the output's scale, 1e-3 for the deep CNNs; the training graph's losses of two
more steps of its own ``train_op``).

Models that do not load yet are listed in :data:`NOT_YET` with what stops them; they run as
strict ``xfail``: the day one loads and matches, its row fails until it leaves the list.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jaxsess.compat.v1 as tf
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "tf_models"
MANIFEST = json.loads((FIXTURES / "models.json").read_text())
MODELS = {e["name"]: e for e in MANIFEST["models"]}

#: model -> what stops it today (empty: every fixture loads and matches; a new fixture that
#: does not goes here, and must leave the list the day it passes).
NOT_YET: dict[str, str] = {}


def _fake_tensorflow(tmp: Path) -> Path:
    pkg = tmp / "tensorflow"
    pkg.mkdir(exist_ok=True)
    (pkg / "__init__.py").write_text('raise ImportError("tensorflow must not be imported by jaxsess")\n')
    return tmp


def run_model(name: str, tmp: Path) -> dict[str, object]:
    fake = _fake_tensorflow(tmp)
    env = {**os.environ, "JAX_PLATFORMS": "cpu", "PYTHONPATH": os.pathsep.join([str(fake), str(ROOT)])}
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "tf_models_runner.py"), name],
                          capture_output=True, text=True, timeout=600, env=env, cwd=tmp)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def test_the_fake_tensorflow_raises(tmp_path: Path) -> None:
    fake = _fake_tensorflow(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(fake)}
    proc = subprocess.run([sys.executable, "-c", "import tensorflow"], capture_output=True, text=True, env=env)
    assert proc.returncode != 0 and "must not be imported" in proc.stderr


def test_fixture_sizes() -> None:
    """Each artifact <= 2 MB, all of them <= 15 MB (the repository carries them)."""
    total = 0
    for e in MANIFEST["models"]:
        path = FIXTURES / e["file"]
        size = sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) if path.is_dir() else path.stat().st_size
        assert size <= 2 * 1024 * 1024, (e["name"], size)
        total += size + (FIXTURES / f"{e['name']}.npz").stat().st_size
    assert total <= 15 * 1024 * 1024, total


def test_every_kind_is_covered() -> None:
    kinds = {e["kind"] for e in MANIFEST["models"]}
    assert kinds == {"frozen", "meta_train", "saved_model_tf1", "saved_model_tf2", "keras"}
    assert set(NOT_YET) <= set(MODELS)


@pytest.mark.parametrize(
    "name",
    [pytest.param(n, marks=pytest.mark.xfail(reason=NOT_YET[n], strict=True)) if n in NOT_YET else n
     for n in MODELS])
def test_model_matches_tensorflow(name: str, tmp_path: Path) -> None:
    result = run_model(name, tmp_path)
    assert result["tensorflow_imported"] is False
    assert result["error"] is None, result["error"]
    assert result["ok"], f"{name}: max error {result['max_rel']} relative, allowed {MODELS[name]['rtol']}"


# -- tf.saved_model.load(dir): the loaded object, in this process ------------------------------------------


def test_tf2_saved_model_object_variables_and_signature_errors() -> None:
    goldens = dict(np.load(FIXTURES / "tf2_saved_model.npz"))
    with tf.saved_model.load(str(FIXTURES / "tf2_saved_model")) as loaded:
        fn = loaded.signatures["serving_default"]
        assert list(loaded.signatures) == ["serving_default"]
        assert fn.inputs == {"x": (np.dtype(np.float32), (None, 5))}
        assert sorted(fn.outputs) == ["logits", "probs", "top"] and fn.outputs["top"][0] == np.dtype(np.int64)
        # the saved tf.Module's variables are attributes, with the checkpoint's values
        assert sorted(v.name for v in loaded.variables) == ["b1:0", "scale:0", "w1:0", "w2:0"]
        assert loaded.scale.numpy() == np.float32(2.0) and loaded.w1.shape == (5, 16)
        out = fn(x=goldens["x"])
        assert out["top"].dtype == np.int64
        np.testing.assert_array_equal(out["top"], goldens["top"])
        with pytest.raises(TypeError, match=r"takes its inputs by keyword: \['x'\]"):
            fn(goldens["x"])
        with pytest.raises(TypeError, match=r"missing \['x'\], unexpected \['y'\]"):
            fn(y=goldens["x"])
        with pytest.raises(KeyError, match="no signature 'predict'; the SavedModel has \\['serving_default'\\]"):
            loaded.signatures["predict"]
        with pytest.raises(ValueError, match="x"):
            fn(x=np.ones((2, 4), np.float32))  # TF's shape [None, 5]
        # the module's tf.function, called as on TF's loaded object: outputs in the structure TF saved
        got = loaded.score(goldens["x"])
        assert sorted(got) == ["logits", "probs", "top"]
        np.testing.assert_allclose(got["probs"], goldens["probs"], rtol=1e-5)
        np.testing.assert_array_equal(loaded.score(x=goldens["x"])["top"], goldens["top"])
        with pytest.raises(TypeError, match=r"it takes \(x: float32 \[\?, 5\]\)"):
            loaded.score(np.ones((2, 4), np.float32))


def test_saved_model_load_takes_both_tfs_spellings() -> None:
    # TF1's (sess, tags, dir) still returns the MetaGraphDef; TF2's (dir) refuses a TF1 SavedModel clearly
    with tf.Session(graph=tf.Graph()) as sess:
        meta = tf.saved_model.load(sess, ["serve"], str(FIXTURES / "tf1_saved_model"))
        assert "serving_default" in meta.signature_def
    with pytest.raises(ValueError, match="TF1 SavedModel .*loader.load"):
        tf.saved_model.load(str(FIXTURES / "tf1_saved_model"))
    with pytest.raises(OSError, match="SavedModel file does not exist"):
        tf.saved_model.load(str(FIXTURES / "no_such_dir"))
