"""Imports only point down: a static check over the package's import graph.

Layers, bottom to top (``DESIGN.md``):

0. ``errors``, ``dtypes``, ``_config``, ``_context``, ``_signals``,
   ``_resources``, ``_tfproto``, ``distributed``, ``_native`` and the C
   extension it loads, ``_hot`` (built from ``_hot.c``);
1. ``graph/`` (the graph, its registry, lowering, placement, GraphDef);
2. the libraries that build graphs: ``ops/``, ``layers``, ``losses``, ``nn``,
   ``train/``, ``data/``, ``summary/``, ``contrib/``, ...;
3. the sessions: ``_session``, ``_fetch``, ``_graph_session``, ``_eager``, ``_host_run``,
   ``train/_monitored`` and ``train/_supervisor`` (session wrappers), ``estimator/`` (built on it) and
   ``test`` (the gradient checker and ``TestCase``);
4. the faces: every package ``__init__``, ``_api`` (the public namespace the
   package loads on first use), ``compat``, ``export``, ``ipython``,
   ``_display``, ``__main__``, ``_launch``.

Every ``import`` of a jaxsess module, at module level or inside a function,
must name a module of the same layer or a lower one. Inside ``graph/`` the
modules are ordered too (:data:`GRAPH_ORDER`) and importing a graph module (in
a fresh process) loads nothing above ``graph/``. In the packages listed in
``NO_IMPORTS_IN_FUNCTIONS`` every jaxsess import is at module level (an import
inside a function hides a cycle between modules of one layer).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "jaxsess"

BOTTOM = {"errors", "dtypes", "_config", "_context", "_signals", "_resources", "_tfproto", "distributed", "_native", "_hot"}
SESSIONS = {"_session", "_fetch", "_graph_session", "_eager", "_host_run", "train._monitored", "train._supervisor", "estimator", "keras", "test"}
FACES = {"_api", "compat", "_compat", "export", "ipython", "_display", "__main__", "_launch"}
NO_IMPORTS_IN_FUNCTIONS = ["."]  # the whole package (it was 42 imports inside functions, then 6)

# graph/, bottom to top: a module imports only modules before it (type-only
# imports under ``if TYPE_CHECKING:`` aside: they load nothing).
GRAPH_ORDER = [
    "_compile",  # the core's one compile site (imports nothing)
    "_tf2",  # the TF2-behaviour and control-flow-v2 switches (imports nothing)
    "_shape",  # TensorShape, Dimension
    "_device",  # device strings: parse, merge, resolve to JAX devices
    "_graph",  # Graph, Operation, Tensor
    "_host",  # host-side (string) ops' bookkeeping
    "_registry",  # op definitions and their shape rules
    "_dynamic",  # Dynamic<Op>: ops with attributes computed from tensor shapes at trace time
    "_attr_json",  # op attributes as JSON
    "_graph_def",  # GraphDef in and out
    "_lowering",  # Plan: prune, resolve state, one jitted function
    "_partition",  # the per-device split of a plan
    "_placement",  # placement and sharding decisions
    "_plan",  # the plan pipeline: lower, place, partition, compile
]


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    return ".".join(rel.parts)


def is_module(name: str) -> bool:
    """A Python module, or a C extension module (built from its ``.c`` source)."""
    base = PACKAGE.parent / name.replace(".", "/")
    return base.with_suffix(".py").exists() or base.with_suffix(".c").exists()


def is_package(name: str) -> bool:
    return (PACKAGE.parent / name.replace(".", "/") / "__init__.py").exists()


def layer(name: str) -> int:
    """The layer of module ``name`` (``jaxsess.x.y``)."""
    if name.endswith(".__init__"):
        return 4
    if name == "jaxsess" or is_package(name):
        return 4  # a package's public face
    inner = name.split(".", 1)[1]
    top = inner.split(".")[0]
    if top in BOTTOM:
        return 0
    if top == "graph":
        return 1
    if inner in SESSIONS or top in SESSIONS:
        return 3
    if top in FACES:
        return 4
    return 2


def imported(node: ast.AST) -> list[str]:
    """The jaxsess modules an import statement loads (``from jaxsess import x``: ``jaxsess.x``)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name.split(".")[0] == "jaxsess"]
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and node.module.split(".")[0] == "jaxsess":
        subs = [f"{node.module}.{a.name}" for a in node.names]
        mods = [s for s in subs if is_module(s) or is_package(s)]
        return mods or [node.module]
    return []


def violations() -> list[str]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        me = module_name(path)
        mine = layer(me)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            for target in imported(node):
                theirs = layer(target)
                if theirs > mine:
                    out.append(f"{me} (layer {mine}) imports {target} (layer {theirs}), line {node.lineno}")
    return out


def imports_in_functions(root: Path) -> list[str]:
    """The imports of jaxsess modules inside a function body, in the modules under ``root``."""
    out = []
    for path in sorted(root.rglob("*.py")):
        seen: set[int] = set()
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                continue
            for node in ast.walk(fn):
                if id(node) not in seen and imported(node):
                    seen.add(id(node))
                    out.append(f"{path.relative_to(root)}, line {node.lineno}: imports {', '.join(imported(node))}")
    return out


def test_imports_only_point_down() -> None:
    assert violations() == []


def test_the_check_finds_an_upward_import(tmp_path: Path) -> None:
    node = ast.parse("from jaxsess._core.runtime._graph_session import Session").body[0]
    assert imported(node) == ["jaxsess._core.runtime._graph_session"]
    assert layer("jaxsess._core.runtime._graph_session") > layer("jaxsess._core.graph._graph") > layer("jaxsess.errors")
    assert layer("jaxsess._tf1.ops.state_ops") == 2 and layer("jaxsess.train") == 4
    assert layer("jaxsess._tf1.train._monitored") == 3


def test_the_graph_layer_lists_every_module() -> None:
    on_disk = {p.stem for p in (PACKAGE / "graph").glob("_*.py") if p.stem != "__init__"}
    assert on_disk == set(GRAPH_ORDER)
    for name in ("_shape", "_partition", "_placement", "_device"):
        assert layer(f"jaxsess._core.graph.{name}") == 1
    assert layer("jaxsess._api") == 4


def _runtime_imports(tree: ast.Module) -> list[ast.AST]:
    """The import statements of a module, those under ``if TYPE_CHECKING:`` left out."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip |= {id(n) for n in ast.walk(node)}
    return [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom) and id(n) not in skip]


def test_graph_modules_import_only_modules_below_them() -> None:
    bad = []
    for name in GRAPH_ORDER:
        tree = ast.parse((PACKAGE / "graph" / f"{name}.py").read_text(encoding="utf-8"))
        for node in _runtime_imports(tree):
            for target in imported(node):
                parts = target.split(".")
                if parts[:2] == ["jaxsess", "graph"] and len(parts) > 2:
                    if parts[2] not in GRAPH_ORDER or GRAPH_ORDER.index(parts[2]) >= GRAPH_ORDER.index(name):
                        bad.append(f"graph.{name} imports {target}, line {node.lineno}")
    assert bad == []


def test_no_function_in_graph_imports_anything() -> None:
    found = []
    for path in sorted((PACKAGE / "graph").glob("*.py")):
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                found += [
                    f"{path.name}:{n.lineno} in {fn.name}"
                    for n in ast.walk(fn)
                    if isinstance(n, ast.Import | ast.ImportFrom)
                ]
    assert found == []


def loaded_after(statement: str) -> list[str]:
    """The jaxsess modules a fresh interpreter holds after ``statement``."""
    code = f"import json, sys\n{statement}\nprint(json.dumps(sorted(m for m in sys.modules if m.startswith('jaxsess'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


@pytest.mark.parametrize("module", ["_graph", "_lowering", "_placement", "_graph_def"])
def test_importing_a_graph_module_loads_nothing_above_graph(module: str) -> None:
    loaded = loaded_after(f"import jaxsess._core.graph.{module}")
    assert f"jaxsess._core.graph.{module}" in loaded
    above = [m for m in loaded if m != "jaxsess" and layer(m) > 1 and m != "jaxsess._core.graph"]
    assert above == []


def test_importing_the_package_loads_only_the_package() -> None:
    assert loaded_after("import jaxsess") == ["jaxsess"]


@pytest.mark.parametrize(
    "module", ["_graph_session", "_eager", "_host_run", "_fetch", "train._monitored", "train._cluster", "estimator"]
)
def test_a_module_imported_first_in_a_fresh_process_loads(module: str) -> None:
    # An import cycle hides while the package's lazy facade loads modules in
    # its own order: importing one module first exposes it (the session
    # module once imported jaxsess.train, whose package imports the session
    # wrappers, which import the session module).
    assert f"jaxsess.{module}" in loaded_after(f"import jaxsess.{module}")


def test_no_imports_inside_functions() -> None:
    for package in NO_IMPORTS_IN_FUNCTIONS:
        assert imports_in_functions(PACKAGE / package) == []


def test_the_check_finds_an_import_inside_a_function(tmp_path: Path) -> None:
    (tmp_path / "top.py").write_text("from jaxsess._tf1.ops import _core\n\n\ndef f():\n    return _core\n")
    (tmp_path / "inner.py").write_text(
        "def f():\n    def g():\n        from jaxsess._tf1.ops import array_ops\n\n"
        "        return array_ops\n\n    return g\n"
    )
    assert imports_in_functions(tmp_path) == ["inner.py, line 3: imports jaxsess._tf1.ops.array_ops"]
