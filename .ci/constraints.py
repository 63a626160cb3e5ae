"""Prints a pip constraints file that pins every runtime dependency to its declared floor.

``pyproject.toml``'s ``[project] dependencies`` are read; each must have a ``>=`` floor
(anything else is an error: a dependency without a floor has no tested minimum). The
output, one ``name==floor`` a line, is for ``pip install -c FILE -e .``: the floors job of
``.ci/run`` installs exactly the declared minimums and runs the tests of their uses.

Usage: ``python .ci/constraints.py [pyproject.toml] > constraints.txt``.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

_FLOOR = re.compile(r"([A-Za-z0-9][A-Za-z0-9._-]*)\s*>=\s*([0-9][0-9A-Za-z.]*)")


def floors(pyproject: Path) -> dict[str, str]:
    """``{name: floor}`` of every runtime dependency; ``ValueError`` names one without a floor."""
    deps = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["dependencies"]
    out = {}
    for dep in deps:
        spec = dep.split(";")[0].strip()
        m = _FLOOR.fullmatch(spec)
        if m is None:
            raise ValueError(f"{pyproject}: dependency {dep!r} has no '>=' floor (or has more than one clause)")
        out[m.group(1)] = m.group(2)
    return out


if __name__ == "__main__":
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "pyproject.toml"
    for name, floor in floors(path).items():
        print(f"{name}=={floor}")
