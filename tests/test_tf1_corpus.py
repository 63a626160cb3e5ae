"""The differential corpus: TF1 programs against goldens recorded from real TensorFlow.

Every program in ``tests/tf1_corpus/programs/`` runs here with its import
swapped to jaxsess (TensorFlow is not imported); its ``RESULTS`` must match
``tests/tf1_corpus/goldens/`` strictly: Python type, NumPy dtype, shape, and
values (floating point within the program's ``TOLERANCE``). The goldens are
written by ``tests/tf1_corpus/record_goldens.py`` under real ``tensorflow-cpu``.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "tf1_corpus"))

import _corpus  # noqa: E402

import jaxsess  # noqa: E402

NAMES = _corpus.program_names()


def test_every_program_has_a_golden() -> None:
    missing = [n for n in NAMES if not (_corpus.GOLDENS / f"{n}.json").exists()]
    assert missing == []


def test_programs_start_with_the_tf_import() -> None:
    for name in NAMES:
        text = _corpus.source(name, swap_to_jaxsess=False)
        assert "import tensorflow" in text and "jaxsess" not in text, name


def _windows(text: str, size: int = 6) -> set[tuple[str, ...]]:
    """Every run of ``size`` consecutive code lines (stripped; blank lines, comments and lines of
    fewer than 12 characters left out)."""
    lines = [ln.strip() for ln in text.splitlines()]
    code = [ln for ln in lines if len(ln) >= 12 and not ln.startswith("#")]
    return {tuple(code[i:i + size]) for i in range(len(code) - size + 1)}


def test_the_oracle_shares_no_code_with_jaxsess() -> None:
    # The corpus is an independent oracle: a program, or a helper module a program imports
    # when TF 2.x lacks an API (``_v42_seq2seq_tf115.py``), copied from jaxsess would record
    # jaxsess's behaviour as TF's and could never catch a bug in it.
    package = Path(jaxsess.__file__).parent
    ours: set[tuple[str, ...]] = set()
    for path in package.rglob("*.py"):
        ours |= _windows(path.read_text(encoding="utf-8"))
    shared = {}
    for path in sorted(_corpus.PROGRAMS.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "jaxsess" not in text, path.name
        common = _windows(text) & ours
        if common:
            shared[path.name] = len(common)
    assert shared == {}


# TF1 programs leave sessions unclosed (``def f(): s = tf.Session(); return s.run(t)``):
# TF releases them silently, jaxsess with a ResourceWarning that Python's default
# filters hide; the suite's filterwarnings=error must not turn it into a failure here,
# nor in a later test where a session held in a reference cycle would be collected.
@pytest.mark.filterwarnings("ignore::ResourceWarning")
@pytest.mark.parametrize("name", NAMES)
def test_program_matches_tensorflow(name: str) -> None:
    golden = _corpus.load_golden(name)
    jaxsess.reset_default_graph()
    try:
        out = _corpus.run_program(name, swap_to_jaxsess=True)
    finally:
        # The program's unclosed sessions are released here, under this test's filter: Keras'
        # backend lets go of them (a program's K.set_session(sess)), then the collector.
        jaxsess.keras.backend.clear_session()
        gc.collect()
    assert "tensorflow" not in sys.modules
    results, tol = out["results"], out["tolerance"]
    errors = []
    missing = sorted(set(golden["results"]) - set(results))
    extra = sorted(set(results) - set(golden["results"]))
    if missing or extra:
        errors.append(f"result keys differ: missing {missing}, not in TF {extra}")
    for key in sorted(set(golden["results"]) & set(results)):
        errors += _corpus.compare(key, golden["results"][key], results[key], tol)
    assert not errors, f"{name} (TF {golden['meta']['tensorflow']}):\n" + "\n".join(errors)
