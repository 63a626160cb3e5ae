"""The core's signatures say something: at most 15% of the annotated parameters
of public functions in ``jaxsess/_core`` are typed ``Any`` (issue 30, item 5),
and mypy checks the core strictly (``pyproject.toml``)."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "jaxsess" / "_core"
MAX_ANY = 0.15

# strict's per-module flags (`strict = true` in an override applies to the whole run: python/mypy#11401)
STRICT_FLAGS = (
    "disallow_any_generics", "disallow_subclassing_any", "disallow_untyped_calls", "disallow_untyped_defs",
    "disallow_incomplete_defs", "check_untyped_defs", "disallow_untyped_decorators", "warn_unused_ignores",
    "warn_return_any", "no_implicit_reexport", "strict_equality", "extra_checks",
)


def _is_any(annotation: ast.expr) -> bool:
    """``Any``, ``typing.Any`` or the string ``"Any"``."""
    if isinstance(annotation, ast.Name):
        return annotation.id == "Any"
    if isinstance(annotation, ast.Attribute):
        return annotation.attr == "Any"
    return isinstance(annotation, ast.Constant) and isinstance(annotation.value, str) and annotation.value.strip() == "Any"


def any_parameters(root: Path) -> tuple[Counter[str], Counter[str]]:
    """Per module under ``root``: the annotated parameters of public functions
    (every ``def`` whose name does not start with ``_``: functions, methods,
    nested functions; ``*args``/``**kwargs`` included) and how many of them are ``Any``."""
    annotated: Counter[str] = Counter()
    typed_any: Counter[str] = Counter()
    for path in sorted(root.rglob("*.py")):
        module = str(path.relative_to(root.parent.parent))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or node.name.startswith("_"):
                continue
            a = node.args
            params = [*a.posonlyargs, *a.args, *a.kwonlyargs, *(p for p in (a.vararg, a.kwarg) if p is not None)]
            for p in params:
                if p.annotation is not None:
                    annotated[module] += 1
                    typed_any[module] += _is_any(p.annotation)
    return annotated, typed_any


def test_at_most_15_percent_of_core_parameters_are_any() -> None:
    annotated, typed_any = any_parameters(CORE)
    total, n_any = sum(annotated.values()), sum(typed_any.values())
    ratio = n_any / total
    worst = "\n".join(
        f"  {typed_any[m]:3d} of {annotated[m]:3d} Any  {m}" for m, _ in typed_any.most_common(8) if typed_any[m]
    )
    assert ratio <= MAX_ANY, (
        f"{n_any} of {total} annotated public parameters in jaxsess/_core are Any ({ratio:.1%} > {MAX_ANY:.0%}); "
        f"name the type (jaxsess/_core/types.py), or `object` for what takes anything. Worst modules:\n{worst}"
    )


def test_the_counter_counts_any_parameters(tmp_path: Path) -> None:
    pkg = tmp_path / "jaxsess" / "_core"
    pkg.mkdir(parents=True)
    (pkg / "m.py").write_text(
        "import typing\n"
        "from typing import Any\n"
        "def f(x: Any, y: int, *args: Any, z: 'Any', **kw: typing.Any) -> Any: ...\n"
        "def _private(x: Any) -> None: ...\n"
        "def untyped(x, y): ...\n"
        "class C:\n"
        "    def method(self, v: Any, w: str) -> None:\n"
        "        def inner(q: Any) -> None: ...\n"
        "    def __eq__(self, other: Any) -> bool: ...\n"
    )
    annotated, typed_any = any_parameters(pkg)
    # f: 5 annotated, 4 Any; method: 2 annotated (self is not), 1 Any; inner: 1 of 1
    assert annotated["jaxsess/_core/m.py"] == 8
    assert typed_any["jaxsess/_core/m.py"] == 6


def test_mypy_checks_the_core_strictly() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    core = [o for o in config.get("overrides", []) if "jaxsess._core.*" in o["module"]]
    assert len(core) == 1
    assert {flag: core[0].get(flag) for flag in STRICT_FLAGS} == dict.fromkeys(STRICT_FLAGS, True)
