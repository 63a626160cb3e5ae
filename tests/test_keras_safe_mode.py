"""No code from model files unless opted in (issue 33 item 3): Keras' ``safe_mode``.

A ``Lambda`` layer stored as Python bytecode (Keras' ``func_dump``) is refused by
``load_model``, ``model_from_json``, ``model_from_config`` and ``Lambda.from_config``
with Keras' ``ValueError`` (message recorded from ``tf_keras`` 2.21 by the corpus program
``v33_keras_lambda_safe_mode``); ``safe_mode=False``, ``SafeModeScope(False)`` or
``keras.__internal__.enable_unsafe_deserialization()`` opt in. The file here is the
reproducer 04's: an attacker's payload that writes a marker file when it runs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import h5py
import numpy as np
import pytest

import jaxsess as tf
from jaxsess._tf1.keras import _serialization

K = tf.keras
CORPUS = Path(__file__).parent / "tf1_corpus"


def _golden_message() -> str:
    golden = json.loads((CORPUS / "goldens" / "v33_keras_lambda_safe_mode.json").read_text())["results"]
    cls, msg = (item["data"] for item in golden["model_from_json"]["data"])
    assert cls == "ValueError"
    return str(msg)


def _crafted_file(d: Path) -> tuple[str, str]:
    marker = str(d / "code_ran")
    path = str(d / "model.h5")
    with tf.Graph().as_default():
        K.Sequential([K.layers.Lambda(lambda x: x * 2, input_shape=(3,))]).save(path)

    def payload(x: Any, _m: str = marker) -> Any:  # what an attacker puts in the file
        with open(_m, "w") as f:
            f.write("arbitrary code ran")
        return x

    with h5py.File(path, "r+") as f:
        cfg = json.loads(f.attrs["model_config"])
        for layer in cfg["config"]["layers"]:
            if layer["class_name"] == "Lambda":
                layer["config"]["function"] = list(_serialization.func_dump(payload))
        f.attrs["model_config"] = json.dumps(cfg)
    return path, marker


def test_load_model_refuses_lambda_bytecode_and_runs_nothing(tmp_path: Path) -> None:
    path, marker = _crafted_file(tmp_path)
    with tf.Graph().as_default():
        with pytest.raises(ValueError) as info:
            K.models.load_model(path)
    assert str(info.value) == _golden_message()
    assert not os.path.exists(marker)


def test_safe_mode_false_opts_in(tmp_path: Path) -> None:
    path, marker = _crafted_file(tmp_path)
    with tf.Graph().as_default():
        model = K.models.load_model(path, safe_mode=False)
        model.predict(np.ones((1, 3), np.float32))
    assert os.path.exists(marker)  # the file's code ran: the documented risk of opting in


def test_json_config_and_from_config_refuse_by_default() -> None:
    with tf.Graph().as_default():
        model = K.Sequential([K.layers.Lambda(lambda t: t * 2.0, input_shape=(3,))])
        js, config = model.to_json(), model.get_config()
        lam = model.layers[-1].get_config()
    message = _golden_message()
    for load in (lambda: K.models.model_from_json(js),
                 lambda: K.models.model_from_config({"class_name": "Sequential", "config": config}),
                 lambda: K.layers.Lambda.from_config(lam)):
        with tf.Graph().as_default(), pytest.raises(ValueError) as info:
            load()
        assert str(info.value) == message
    with tf.Graph().as_default():
        x = np.arange(3, dtype=np.float32)[None]
        np.testing.assert_allclose(K.models.model_from_json(js, safe_mode=False).predict(x), 2 * x)
        with _serialization.SafeModeScope(False):
            assert K.layers.Lambda.from_config(lam).function(3.0) == 6.0
        with _serialization.SafeModeScope(True), pytest.raises(ValueError):  # an enclosing scope decides
            K.models.model_from_json(js, safe_mode=False)


def test_named_functions_and_clone_model_need_no_opt_in() -> None:
    with tf.Graph().as_default():
        inp = K.Input((3,))
        model = K.Model(inp, K.layers.Lambda(lambda t: t + 1.0)(inp))
        clone = K.models.clone_model(model)  # the bytecode is this process's own, not a file's
        np.testing.assert_allclose(clone.predict(np.zeros((1, 3), np.float32)), np.ones((1, 3)))


def test_enable_unsafe_deserialization_is_process_wide() -> None:
    code = textwrap.dedent("""
        import jaxsess as tf
        K = tf.keras
        with tf.Graph().as_default():
            js = K.Sequential([K.layers.Lambda(lambda t: t * 3.0, input_shape=(2,))]).to_json()
        K.__internal__.enable_unsafe_deserialization()
        with tf.Graph().as_default():
            print(type(K.models.model_from_json(js).layers[-1]).__name__)
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                       env={**os.environ, "JAX_PLATFORMS": "cpu"})
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split()[-1] == "Lambda"
