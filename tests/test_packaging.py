"""What ``pyproject.toml`` declares is what CI tests.

* Every runtime dependency has a ``>=`` floor, and ``.ci/constraints.py`` (the floors
  job's constraints file) pins each one to it; a dependency without a floor is refused,
  naming it.
* ``requires-python`` and the ``Programming Language :: Python :: 3.x`` classifiers say
  the same: every minor version from the floor to the newest CI runs (3.13), no other.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
NEWEST_CI_PYTHON = (3, 13)


def constraints(pyproject: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / ".ci" / "constraints.py"), str(pyproject)], capture_output=True, text=True
    )


def test_constraints_pin_every_runtime_dependency_to_its_floor() -> None:
    out = constraints(ROOT / "pyproject.toml")
    assert out.returncode == 0, out.stderr
    pins = dict(line.split("==") for line in out.stdout.split())
    declared = {re.split(r"[<>=!~ ;\[]", d, maxsplit=1)[0]: d for d in PROJECT["dependencies"]}
    assert set(pins) == set(declared)
    for name, dep in declared.items():
        assert dep.replace(" ", "").startswith(f"{name}>={pins[name]}"), (dep, pins[name])


def test_a_dependency_without_a_floor_is_refused_by_name(tmp_path: Path) -> None:
    bad = tmp_path / "pyproject.toml"
    bad.write_text('[project]\nname = "x"\ndependencies = ["jax>=0.10.2", "numpy"]\n', encoding="utf-8")
    out = constraints(bad)
    assert out.returncode != 0
    assert "'numpy' has no '>=' floor" in out.stderr


def test_classifiers_are_the_pythons_from_requires_python_to_the_newest_ci_runs() -> None:
    m = re.fullmatch(r">=\s*3\.(\d+)", PROJECT["requires-python"])
    assert m, PROJECT["requires-python"]
    expected = {f"3.{minor}" for minor in range(int(m.group(1)), NEWEST_CI_PYTHON[1] + 1)}
    listed = {
        c.rsplit(" :: ", 1)[1] for c in PROJECT["classifiers"] if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
    }
    assert listed == expected
    # jax 0.10 (the declared jax floor) needs Python 3.11: a lower requires-python would install nothing.
    assert int(m.group(1)) >= 11


def test_the_shipped_frozen_model_is_the_one_tensorflow_wrote() -> None:
    """Notebook 04 reads jaxsess/data/frozen_mlp.{pb,json} (package data, in the wheel): the
    model real TensorFlow froze and its values, as recorded in tests/fixtures/tf/."""
    import json

    data, fixtures = ROOT / "jaxsess" / "data", ROOT / "tests" / "fixtures" / "tf"
    assert (data / "frozen_mlp.pb").read_bytes() == (fixtures / "frozen_mlp.pb").read_bytes()
    shipped = json.loads((data / "frozen_mlp.json").read_text(encoding="utf-8"))
    assert shipped == json.loads((fixtures / "values.json").read_text(encoding="utf-8"))["frozen"]
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]
    assert {"data/*.pb", "data/*.json"} <= set(patterns["jaxsess"])
