"""``Model.fit(verbose=1)`` draws Keras' live progress bar, byte for byte as tf_keras does.

The golden (``tests/tf_oracle/goldens/keras_progress.json``) is what tf_keras 2.21 printed
(``tf.compat.v1``, eager disabled) for one program: fits with ``verbose=1`` (two epochs;
one epoch with validation data) and ``verbose=2``, then ``evaluate`` and ``predict`` with
``verbose=1``, which draw nothing in TF1's Keras. The same program runs here under jaxsess
in a fresh interpreter with stdout a pipe (the bar is live either way: Keras redraws with
``\\b``/``\\r`` wherever ``posix`` is loaded, terminals and notebooks alike). Only what
differs from run to run is normalised: seconds (elapsed, ETA, per sample, per epoch), the
loss and metric values (the weights are initialised differently), and the frames between
an epoch's first and last (Keras skips redraws closer than 0.05 s, so how many are drawn
depends on the machine's speed).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = json.loads((ROOT / "tests" / "tf_oracle" / "goldens" / "keras_progress.json").read_text(encoding="utf-8"))

_TIME = re.compile(r"\d+(?:\.\d+)?(?:s|ms|us)(?=/(?:sample|step|epoch))|(?<=ETA: )[\d:]+s?|(?<= - )\d+s(?= |$)")
_VALUE = re.compile(r"(?<=: )-?\d+\.\d{4}(?:e[+-]\d+)?")
_FRAME = re.compile(r"\x08+\r")


def normalise(out: str) -> str:
    lines = []
    for line in out.split("\n"):
        frames = _FRAME.split(line)
        if len(frames) > 2:
            frames = [frames[0], frames[-1]]
        line = "<redraw>".join(frames)
        lines.append(_VALUE.sub("V", _TIME.sub("T", line)))
    return "\n".join(lines)


def ours() -> str:
    program = GOLDEN["program"].replace("import tensorflow.compat.v1 as tf", "import jaxsess.compat.v1 as tf")
    assert program != GOLDEN["program"]
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    # bytes, not text: universal newlines would turn the bar's "\r" into "\n"
    proc = subprocess.run([sys.executable, "-c", program], capture_output=True, env=env, timeout=300,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr.decode()[-3000:]
    return proc.stdout.decode("utf-8")


@pytest.fixture(scope="module")
def printed() -> str:
    return ours()


def test_normalise_keeps_the_format_and_drops_only_what_varies() -> None:
    a = "\r 32/100 [==>...] - ETA: 1s - loss: 1.1003\x08\x08\r 64/100 [====>.] - ETA: 0s - loss: 1.1\x08\r100/100 [=] - 1s 6ms/sample - loss: 1.0947\n"
    b = "\r 32/100 [==>...] - ETA: 12s - loss: 2.2003\x08\r100/100 [=] - 0s 105us/sample - loss: 0.0947\n"
    assert normalise(a) == normalise(b)
    assert normalise(a) != normalise(b.replace("[==>...]", "[===>..]"))
    assert normalise(a) != normalise(b.replace(" - loss", " - accuracy"))


def test_fit_evaluate_and_predict_print_what_tf_keras_prints(printed: str) -> None:
    assert normalise(printed) == normalise(GOLDEN["stdout"])


def test_each_redraw_erases_exactly_the_frame_before_it(printed: str) -> None:
    redraws = 0
    for line in printed.split("\n"):
        parts = re.split(r"(\x08+)\r", line)
        for before, backspaces in zip(parts[0::2], parts[1::2], strict=False):
            # Keras pads a frame shorter than the one before with spaces, which its width
            # (what the next redraw erases) leaves out
            assert len(backspaces) == len(before.lstrip("\r").rstrip(" ")), (before, len(backspaces))
            redraws += 1
    assert redraws >= 3  # every verbose=1 epoch redraws at least once: first batch, then the end


def test_in_a_notebook_the_bar_is_drawn_live_too(tmp_path: Path) -> None:
    """In an IPython kernel (nbclient, a real ``ipykernel``), the cell's stream is Keras' live
    bar: frames redrawn with ``\\b``/``\\r`` that a notebook front end draws in place."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    program = GOLDEN["program"].replace("import tensorflow.compat.v1 as tf", "import jaxsess.compat.v1 as tf")
    nb = nbformat.v4.new_notebook()
    nb.cells.append(nbformat.v4.new_code_cell(f"import sys\nsys.path.insert(0, {str(ROOT)!r})\n" + program))
    env_before = os.environ.get("JAX_PLATFORMS")
    os.environ["JAX_PLATFORMS"] = "cpu"
    try:
        nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                resources={"metadata": {"path": str(tmp_path)}}).execute()
    finally:
        if env_before is None:
            os.environ.pop("JAX_PLATFORMS", None)
        else:
            os.environ["JAX_PLATFORMS"] = env_before
    text = "".join(o.get("text", "") for o in nb.cells[0].outputs if o.output_type == "stream" and o.name == "stdout")
    assert normalise(text) == normalise(GOLDEN["stdout"])
