"""The example notebooks: in sync with their generator, committed executed, and they run.

The committed notebooks carry their outputs (``python notebooks/_build.py``
writes and executes them), so a reader on the web sees the tables and plots.
Each test executes its notebook again, fresh, with ``nbclient`` in a real
``ipykernel`` kernel (``MPLBACKEND=Agg``; the notebooks draw with
``%matplotlib inline``): no cell may fail, the plots must come out as
``image/png``, and every code cell must produce the same *kinds* of output as
the committed copy (stream names and MIME types, not the volatile numbers).
"""

from __future__ import annotations

import importlib.util
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
CAN_DRAW = shutil.which("dot") is not None and importlib.util.find_spec("graphviz") is not None


def load_builder() -> Any:
    spec = importlib.util.spec_from_file_location("_notebooks_build", NOTEBOOKS / "_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BUILDER = load_builder()


def outputs(nb: Any) -> list[tuple[str, Any]]:
    """(cell id, output) for every output of every code cell."""
    return [(c.id, o) for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]


def stdout_of(nb: Any) -> str:
    return "".join(o.get("text", "") for _, o in outputs(nb) if o.output_type == "stream" and o.name == "stdout")


def plain_of(nb: Any) -> str:
    """stdout and the ``text/plain`` of displayed bundles (``%jaxsess_stats`` displays HTML + text)."""
    shown = "".join(o["data"].get("text/plain", "") for _, o in outputs(nb) if o.output_type == "display_data")
    return stdout_of(nb) + shown


def count_mime(nb: Any, mime: str) -> int:
    return sum(1 for _, o in outputs(nb) if mime in o.get("data", {}))


def structure(cell: Any) -> list[str]:
    """The kinds of a code cell's outputs, in order, repeats merged: ``stream:stdout``, ``display_data:image/png``."""
    kinds: list[str] = []
    for o in cell.outputs:
        if o.output_type == "stream":
            kinds.append(f"stream:{o.name}")
        elif o.output_type == "error":
            kinds.append(f"error:{o.ename}")
        else:
            kinds.append(f"{o.output_type}:{','.join(sorted(o.get('data', {})))}")
    return [k for i, k in enumerate(kinds) if i == 0 or kinds[i - 1] != k]


def committed(name: str) -> Any:
    return nbformat.read(NOTEBOOKS / name, as_version=4)


def test_notebooks_match_their_generator() -> None:
    assert set(BUILDER.NOTEBOOKS) == {p.name for p in NOTEBOOKS.glob("*.ipynb")}
    for name, cells in BUILDER.NOTEBOOKS.items():
        nb = committed(name)
        nbformat.validate(nb)
        source = nbformat.writes(BUILDER.strip(nb)) + "\n"
        assert source == BUILDER.build(name, cells), f"{name} is stale: run python notebooks/_build.py"


@pytest.mark.parametrize("name", sorted(BUILDER.NOTEBOOKS))
def test_committed_notebooks_are_executed_with_outputs(name: str) -> None:
    nb = committed(name)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert [c.execution_count for c in code] == list(range(1, len(code) + 1)), f"{name}: not run top to bottom"
    assert sum(1 for c in code if c.outputs) >= len(code) // 2, f"{name}: most cells have no output"
    assert not [o for _, o in outputs(nb) if o.output_type == "error"], f"{name}: committed with an error"
    text = nbformat.writes(nb)
    assert str(ROOT) not in text, f"{name}: outputs show a path of the machine that built them"
    pictures = count_mime(nb, "image/png") + count_mime(nb, "image/svg+xml")
    assert pictures >= {"01": 2, "02": 2, "03": 3, "04": 1}[name[:2]], f"{name}: committed without its pictures"


def run_notebook(name: str) -> Any:
    """Executes ``name`` afresh and checks its outputs have the committed notebook's structure."""
    nb = BUILDER.strip(committed(name))
    BUILDER.execute(nb, NOTEBOOKS)
    errors = [(cid, o.ename, o.evalue) for cid, o in outputs(nb) if o.output_type == "error"]
    assert not errors
    for fresh, kept in zip(nb.cells, committed(name).cells, strict=True):
        if fresh.cell_type != "code":
            continue
        if not CAN_DRAW and any("image/svg+xml" in o.get("data", {}) for o in kept.outputs):
            continue  # the committed copy was drawn with graphviz; this machine cannot draw
        assert structure(fresh) == structure(kept), f"{name} cell {fresh.id}: outputs changed kind"
    return nb


def test_01_quickstart() -> None:
    nb = run_notebook("01_quickstart.ipynb")
    out = stdout_of(nb)
    assert out.count("[3. 5.]") >= 4  # run, eval under as_default, eval(session=), InteractiveSession
    assert "after close: [4. 6.]" in out and "ndarray [3. 5.]" in out  # host values, yours
    assert "device fetch deleted at close: True" in out  # device_fetches=True: session-owned
    assert "[ 6. 10.]" in out
    stderr = "".join(o.get("text", "") for _, o in outputs(nb) if o.output_type == "stream" and o.name == "stderr")
    assert "mul: (Mul): /job:localhost/replica:0/task:0/device:CPU:0" in stderr  # log_device_placement
    assert count_mime(nb, "text/html") >= 4  # the sessions, %jaxsess_stats and the graph
    # The graph pictures (the display of the graph, and visualize()) need graphviz.
    assert count_mime(nb, "image/svg+xml") == (2 if CAN_DRAW else 0)
    assert CAN_DRAW or "graphviz" in out
    if CAN_DRAW:  # the op pinned to a GPU that is not there says where it runs
        svg = "".join(o["data"]["image/svg+xml"] for _, o in outputs(nb) if "image/svg+xml" in o.get("data", {}))
        assert "GPU:0 absent \u2192 CPU:0" in svg


def test_02_memory_strategies() -> None:
    nb = run_notebook("02_memory_strategies.ipynb")
    out = stdout_of(nb)
    assert "ON_SESSION_CLOSE  peak  60.0 MiB" in out
    assert "ON_SAFE_POINTS    peak   2.0 MiB" in out
    # weak holding: the device's peak is plain jax.jit's
    plain = re.search(r"plain jax\.jit +device peak +([\d.]+) MiB", out)
    assert plain is not None, out
    for name in ("IN_BACKGROUND", "ON_SAFE_POINTS"):
        assert re.search(rf"{name} +device peak +{re.escape(plain.group(1))} MiB", out), out
    assert "3 x float32[262144] from embedding: 3.0 MiB" in out  # stats().held
    assert "shifted deleted: True" in out  # plain jax.jit in a %%jaxsess_eager cell
    assert "live buffers: 1" in out and "deleted after close: True" in out  # the output cache
    assert "total deleted: False | squares deleted: True" in out  # %%jaxsess_eager --keep
    assert "EagerSession 'jaxsess_eager[" in plain_of(nb)  # %jaxsess_stats inside the cell
    assert count_mime(nb, "image/png") >= 2


def test_03_training_digits() -> None:
    nb = run_notebook("03_training_digits.ipynb")
    out = stdout_of(nb)
    accuracy = float(out.split("test accuracy: ")[1].split()[0])
    assert accuracy >= 0.9
    assert count_mime(nb, "image/png") >= 3  # the digits, the loss curve, the confusion matrix
    assert re.search(r"Session 'Session-\d+' \(open\)\n  strategy +IN_BACKGROUND", plain_of(nb))  # %jaxsess_stats sess
    assert "step 400/400: loss " in out  # progress as plain lines, which static HTML keeps
    last = nb.cells[-1].outputs[-1]
    assert "closed" in last["data"]["text/html"]


def test_04_frozen_model() -> None:
    nb = run_notebook("04_frozen_model.ipynb")
    out = stdout_of(nb)
    assert "Conv2D" in out and "MatMul" in out
    assert float(out.split("max difference from TensorFlow: ")[1].split()[0]) < 1e-5
    assert "['events', 'imported']" in out
    assert count_mime(nb, "text/html") >= 1  # the graph
