"""``import jaxsess`` and its first attribute access leave NumPy's global random state alone
(issue 33 item 7): JAX draws 10 words from it when imported, TensorFlow none.

Each case runs in a fresh interpreter (JAX not yet imported), as a TF1 program starts.
The corpus program ``v33_numpy_seed_then_tf`` (golden recorded under TF 2.21) runs there too.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(__file__).parent / "tf1_corpus"


def _run(code: str) -> str:
    env = {**os.environ, "JAX_PLATFORMS": "cpu", "PYTHONPATH": os.pathsep.join([str(ROOT), str(CORPUS)])}
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env,
                       timeout=300, cwd=str(ROOT))
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize("how", [
    "import jaxsess as tf\nnp.random.seed(5)\ntf.placeholder",     # seeded, then the lazy first access
    "np.random.seed(5)\nimport jaxsess.compat.v1 as tf\ntf.constant",  # seeded before an eager import
    "np.random.seed(5)\nimport jaxsess as tf\nimport jaxsess.nn",
])
def test_jax_import_through_jaxsess_draws_nothing(how: str) -> None:
    code = "import sys\nimport numpy as np\n" + how + "\n" + textwrap.dedent("""
        assert "jax" in sys.modules
        got = np.random.rand(4).tolist()
        np.random.seed(5)
        print(got == np.random.rand(4).tolist())
    """)
    assert _run(code) == "True"


def test_plain_jax_import_does_draw() -> None:
    """The cause, as measured: without jaxsess's hook the import of JAX moves the state (if a
    JAX release stops drawing, this fails and the hook can go)."""
    code = """
        import numpy as np
        np.random.seed(5)
        import jax
        print(np.random.get_state()[2])
    """
    assert _run(code) != "624"  # 624: the position right after seeding


def test_the_corpus_program_in_a_fresh_interpreter_matches_tensorflow() -> None:
    code = """
        import json, _corpus
        out = _corpus.run_program("v33_numpy_seed_then_tf", swap_to_jaxsess=True)
        print(json.dumps(json.loads(_corpus.dumps(out["results"], {}))["results"]))
    """
    got = json.loads(_run(code))
    golden = json.loads((CORPUS / "goldens" / "v33_numpy_seed_then_tf.json").read_text())["results"]
    assert got == golden
