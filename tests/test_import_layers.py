"""Imports point one way: the package's layers, checked from its source and in fresh processes.

The package has three layers, and each is a place on disk:

1. **The core**, ``jaxsess/_core/``: the session layer. ``errors``, ``dtypes``,
   ``_context``, ``_signals``, ``_config``, ``_tfproto``, ``distributed``;
   ``graph/`` (``Graph``/``Operation``/``Tensor``, ``TensorShape``, the op
   registry, lowering, placement, partition, GraphDef in and out) and
   ``runtime/`` (the sessions, the plan cache, fetch/feed handling, host runs,
   the ownership registry, ``_native`` and the C extension ``_hot`` built from
   ``_hot.c`` and its ``_hot_*.c`` siblings). It imports no jaxsess module
   outside ``jaxsess._core``.
2. **The TF1 surface**, ``jaxsess/_tf1/``: ``ops/`` (TF's module names),
   ``layers``, ``train/``, ``data/``, ``keras/``, ``estimator/``,
   ``contrib/``, ``summary/``, ``saved_model/``, distributions, feature
   columns, export, the IPython magics and display. A client of the core: it
   imports ``_core`` and itself, never a face.
3. **The faces**: every other module (``jaxsess/__init__.py`` and its lazy
   ``_api``, ``compat/``, ``nn.py``, ``math.py``, ``train/``, ``keras/``,
   ...). They only re-export; ``__main__`` and ``_launch`` are the command-line
   entry points on top.

Rules:

- **Rule 1**: no module under ``jaxsess/_core/`` imports a jaxsess module
  outside ``jaxsess._core`` (at module level, inside a function, or under
  ``if TYPE_CHECKING:``), and importing each ``_core`` module first in a fresh
  process loads no ``jaxsess.*`` module outside ``_core``.
- **Rule 2**: no module under ``jaxsess/_tf1/`` imports a face (a jaxsess
  module outside ``_core`` and ``_tf1``, the package ``jaxsess`` itself
  included), and importing all of ``_tf1`` loads no face but ``jaxsess``.

An import is read in every spelling: ``import a.b``, ``from a import b``
(``a.b`` when it is a module, else ``a``), relative imports (``from . import
x``, ``from ..graph import y``, resolved against the importing module's
package) and ``importlib.import_module("...")`` / ``__import__("...")`` calls
with constant strings (with ``package=`` for a relative name). A dynamic import
whose name is not a constant cannot be checked, so it is itself a violation in
the core and in the TF1 surface. The probes at the end feed the checker a
package holding one violation of each kind and require each to be reported.

Also checked: inside ``_core/graph/`` the modules are ordered
(:data:`GRAPH_ORDER`; importing a graph module loads no ``runtime`` module),
nothing in the package imports a jaxsess module inside a function (that hides
a cycle), ``import jaxsess`` loads only ``jaxsess`` (the rest loads on first
use), and a module imported first in a fresh process loads (an import cycle
hides while the lazy facade loads modules in its own order).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOP = "jaxsess"
CORE = "jaxsess._core"
TF1 = "jaxsess._tf1"

# _core/graph/, bottom to top: a module imports only modules before it (type-only
# imports under ``if TYPE_CHECKING:`` aside: they load nothing).
GRAPH_ORDER = [
    "_compile",  # the core's one compile site (imports nothing)
    "_tf2_behavior",  # the TF2-behaviour and control-flow-v2 switches (imports nothing)
    "_tf_opset",  # TF's OpDefs (recorded) and the TF op type -> lowering table (imports nothing)
    "_shape",  # TensorShape, Dimension
    "_device",  # device strings: parse, merge, resolve to JAX devices
    "_graph",  # Graph, Operation, Tensor
    "_host",  # host-side (string) ops' bookkeeping
    "_registry",  # op definitions and their shape rules
    "_node_def",  # what readers and writers of TF's NodeDefs share: registry attrs, _output_shapes
    "_dynamic",  # Dynamic<Op>: ops with attributes computed from tensor shapes at trace time
    "_tf_lists",  # TensorArrays and TensorLists as arrays (their lowerings; pending lists)
    "_tf_node",  # generic TF nodes: a GraphDef node run by its lowering in TF's op-set table; host folding
    "_tf_function",  # function libraries: FunctionDefs as JAX functions; PartitionedCall/If/Case/While
    "_tf_frames",  # TF1's control-flow frames (Switch/Merge/Enter/Exit...) rewritten as control flow v2
    "_builder",  # building ops into the default graph (apply_op, constant, convert_to_tensor)
    "_sparse",  # SparseTensor values and their graph form
    "_attr_json",  # op attributes as JSON
    "_tf_import",  # a TF node into the graph (the import engine's half of import_graph_def)
    "_graph_def",  # GraphDef in and out
    "_lowering",  # prune, resolve state, the pure function of a run signature
    "_partition",  # the per-device split of a plan
    "_placement",  # placement and sharding decisions
    "_plan",  # the plan pipeline: lower, place, partition, compile
]

# Modules that must load when imported first in a fresh process, beside every _core module.
FIRST_IMPORTS = [
    "jaxsess._tf1.train._monitored",
    "jaxsess._tf1.train._cluster",
    "jaxsess._tf1.estimator",
    "jaxsess.train",  # once a cycle: train's package imported the session wrappers, which imported it
]


@dataclass(frozen=True)
class Import:
    """One import of a jaxsess module (``target``; ``"?"`` for a name that is not a constant)."""

    module: str  # the importing module, "jaxsess.x.y"
    target: str
    line: int
    in_function: bool
    type_only: bool  # under ``if TYPE_CHECKING:``


class Package:
    """The modules of the package ``top`` under ``root`` and the imports they make."""

    def __init__(self, root: Path, top: str = TOP) -> None:
        self.root = root
        self.top = top
        self._read: dict[Path, list[Import]] = {}

    def path_of(self, name: str) -> Path:
        return self.root / name.replace(".", "/")

    def is_module(self, name: str) -> bool:
        """A Python module, a package, or a C extension module (built from its ``.c`` source)."""
        base = self.path_of(name)
        return base.with_suffix(".py").exists() or base.with_suffix(".c").exists() or (base / "__init__.py").exists()

    def modules(self, under: str | None = None) -> list[tuple[str, Path]]:
        """``(name, path)`` of every Python module under package ``under`` (default: all)."""
        base = self.path_of(under or self.top)
        out = []
        for path in sorted(base.rglob("*.py")):
            rel = path.relative_to(self.root).with_suffix("")
            parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
            out.append((".".join(parts), path))
        return out

    def _ours(self, name: str) -> bool:
        return name == self.top or name.startswith(self.top + ".")

    def _from(self, base: str, names: list[str]) -> list[str]:
        """``from base import names``: ``base.name`` where that is a module, else ``base``."""
        subs = [f"{base}.{n}" for n in names if n != "*" and self.is_module(f"{base}.{n}")]
        return subs if len(subs) == len(names) else [*subs, base]

    def imports(self, name: str, path: Path) -> list[Import]:
        """Every import of a jaxsess module that module ``name`` (file ``path``) makes."""
        if path not in self._read:
            self._read[path] = self._imports(name, path)
        return self._read[path]

    def _imports(self, name: str, path: Path) -> list[Import]:
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: list[Import] = []

        def resolve(level: int, module: str | None) -> str:
            parts = package.split(".")
            if level - 1 > len(parts) - 1:
                return "?"  # beyond the top package
            base = ".".join(parts[: len(parts) - (level - 1)])
            return f"{base}.{module}" if module else base

        def add(targets: list[str], node: ast.AST, in_function: bool, type_only: bool) -> None:
            for t in targets:
                if t == "?" or self._ours(t):
                    found.append(Import(name, t, getattr(node, "lineno", 0), in_function, type_only))

        def constant(node: ast.AST | None) -> str | None:
            return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None

        def dynamic(call: ast.Call) -> list[str] | None:
            """The module a call of ``import_module``/``__import__`` loads (None: not such a call)."""
            fn = call.func
            fname = fn.attr if isinstance(fn, ast.Attribute) else fn.id if isinstance(fn, ast.Name) else None
            if fname not in ("import_module", "__import__"):
                return None
            arg = constant(call.args[0]) if call.args else None
            if arg is None:
                return ["?"]
            if fname == "import_module" and arg.startswith("."):
                pkg = constant(call.args[1]) if len(call.args) > 1 else None
                pkg = pkg or next((constant(k.value) for k in call.keywords if k.arg == "package"), None)
                if pkg is None:
                    return ["?"]
                level = len(arg) - len(arg.lstrip("."))
                parts = pkg.split(".")
                base = ".".join(parts[: len(parts) - (level - 1)]) if level - 1 < len(parts) else "?"
                rest = arg.lstrip(".")
                return [f"{base}.{rest}" if rest and base != "?" else base]
            return [arg]

        def visit(node: ast.AST, in_function: bool, type_only: bool) -> None:
            if isinstance(node, ast.Import):
                add([a.name for a in node.names], node, in_function, type_only)
            elif isinstance(node, ast.ImportFrom):
                if node.level == 0:
                    if node.module and node.module != "__future__":
                        add(self._from(node.module, [a.name for a in node.names]), node, in_function, type_only)
                else:
                    base = resolve(node.level, node.module)
                    add(["?"] if base == "?" else self._from(base, [a.name for a in node.names]), node, in_function,
                        type_only)
            elif isinstance(node, ast.Call):
                targets = dynamic(node)
                if targets is not None:
                    add(targets, node, in_function, type_only)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                in_function = True
            if isinstance(node, ast.If) and (checking := _type_checking(node.test)) is not None:
                for child in node.body:
                    visit(child, in_function, type_only or checking)
                for child in node.orelse:
                    visit(child, in_function, type_only or not checking)
                return
            for child in ast.iter_child_nodes(node):
                visit(child, in_function, type_only)

        visit(ast.parse(path.read_text(encoding="utf-8")), False, False)
        return found

    def all_imports(self, under: str | None = None) -> list[Import]:
        return [imp for name, path in self.modules(under) for imp in self.imports(name, path)]


def _type_checking(test: ast.expr) -> bool | None:
    """``True`` for ``if TYPE_CHECKING:``, ``False`` for ``if not TYPE_CHECKING:``, else ``None``."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _type_checking(test.operand)
        return None if inner is None else not inner
    name = test.attr if isinstance(test, ast.Attribute) else test.id if isinstance(test, ast.Name) else None
    return True if name == "TYPE_CHECKING" else None


def layer(name: str) -> str:
    """``'core'``, ``'tf1'`` or ``'face'``: the layer module ``name`` belongs to."""
    for prefix, which in ((CORE, "core"), (TF1, "tf1")):
        if name == prefix or name.startswith(prefix + "."):
            return which
    return "face"


def _message(imp: Import, why: str) -> str:
    where = " (in a function)" if imp.in_function else " (type-only)" if imp.type_only else ""
    return f"{imp.module}, line {imp.line}{where}: {why}"


def core_violations(pkg: Package) -> list[str]:
    """Rule 1, from the source: the imports under ``_core`` of jaxsess modules outside it."""
    out = []
    for imp in pkg.all_imports(CORE):
        if imp.target == "?":
            out.append(_message(imp, "a dynamic import this check cannot read"))
        elif layer(imp.target) != "core":
            out.append(_message(imp, f"imports {imp.target}"))
    return out


def tf1_violations(pkg: Package) -> list[str]:
    """Rule 2, from the source: the imports under ``_tf1`` of faces."""
    out = []
    for imp in pkg.all_imports(TF1):
        if imp.target == "?":
            out.append(_message(imp, "a dynamic import this check cannot read"))
        elif layer(imp.target) == "face":
            out.append(_message(imp, f"imports the face {imp.target}"))
    return out


def imports_in_functions(pkg: Package) -> list[str]:
    """The imports of jaxsess modules inside a function body (constant names)."""
    return [_message(i, f"imports {i.target}") for i in pkg.all_imports() if i.in_function and i.target != "?"]


def graph_order_violations(pkg: Package) -> list[str]:
    """Imports (type-only aside) of a ``_core/graph`` module by one before it in :data:`GRAPH_ORDER`."""
    prefix = f"{CORE}.graph."
    out = []
    for imp in pkg.all_imports(f"{CORE}.graph"):
        me = imp.module.removeprefix(prefix)
        if imp.type_only or me not in GRAPH_ORDER or not imp.target.startswith(prefix):
            continue
        theirs = imp.target.removeprefix(prefix).split(".")[0]
        if theirs not in GRAPH_ORDER or GRAPH_ORDER.index(theirs) >= GRAPH_ORDER.index(me):
            out.append(_message(imp, f"imports {imp.target}, not below it in GRAPH_ORDER"))
    return out


# Run in a subprocess: import heavy third-party modules once, then import each module first
# in a forked child (a fresh jaxsess state, at a fraction of a fresh interpreter's cost) and
# report what it loaded. argv: root, then a JSON list of preloads, then a JSON list of modules.
_LOADER = textwrap.dedent(
    """
    import importlib, json, os, sys
    root, preload, modules = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
    sys.path.insert(0, root)
    for m in preload:
        importlib.import_module(m)
    assert not any(m == "jaxsess" or m.startswith("jaxsess.") for m in sys.modules)
    for m in modules:
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            try:
                importlib.import_module(m)
                error = None
            except BaseException as e:
                error = f"{type(e).__name__}: {e}"
            loaded = sorted(k for k in sys.modules if k == "jaxsess" or k.startswith("jaxsess."))
            os.write(1, (json.dumps({"module": m, "error": error, "loaded": loaded}) + "\\n").encode())
            os._exit(0)
        os.waitpid(pid, 0)
    """
)


def load_each_first(modules: list[str], root: Path = ROOT, preload: tuple[str, ...] = ("jax", "numpy")) -> dict:
    """For each module, what importing it first in a fresh process loads: ``{module: {error, loaded}}``."""
    out = subprocess.run(
        [sys.executable, "-c", _LOADER, str(root), json.dumps(list(preload)), json.dumps(modules)],
        capture_output=True, text=True, check=True, timeout=600, cwd=root,
    )
    rows = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    return {r["module"]: r for r in rows}


def load_together(modules: list[str], root: Path = ROOT) -> list[str]:
    """The jaxsess modules one fresh interpreter holds after importing ``modules`` in order."""
    code = (
        "import importlib, json, sys\n"
        f"sys.path.insert(0, {str(root)!r})\n"
        f"for m in {modules!r}:\n    importlib.import_module(m)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m == 'jaxsess' or m.startswith('jaxsess.'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=600,
                         cwd=root)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def runtime_leaks(results: dict, allowed: str) -> list[str]:
    """Rule 1 at run time: the modules each import loaded outside layer ``allowed`` (and failed imports)."""
    out = []
    for m, r in results.items():
        if r["error"]:
            out.append(f"{m}: import failed: {r['error']}")
        leaked = [x for x in r["loaded"] if x != TOP and layer(x) != allowed]
        if leaked:
            out.append(f"{m} loads {', '.join(leaked)}")
    return out


PACKAGE = Package(ROOT)


@pytest.fixture(scope="module")
def first_imports() -> dict:
    core = [name for name, _ in PACKAGE.modules(CORE)]
    return load_each_first(core + FIRST_IMPORTS)


# -- rule 1: the core imports nothing outside it -------------------------------------------------


def test_the_core_imports_nothing_outside_it() -> None:
    assert core_violations(PACKAGE) == []


def test_importing_each_core_module_first_loads_only_the_core(first_imports: dict) -> None:
    core = {m: r for m, r in first_imports.items() if layer(m) == "core"}
    assert len(core) == len(PACKAGE.modules(CORE)) > 30
    assert runtime_leaks(core, "core") == []


# -- rule 2: the TF1 surface never imports the faces ------------------------------------------


def test_the_tf1_surface_never_imports_a_face() -> None:
    assert tf1_violations(PACKAGE) == []


def test_importing_the_whole_tf1_surface_loads_no_face() -> None:
    loaded = load_together([name for name, _ in PACKAGE.modules(TF1)])
    assert any(m.startswith(TF1 + ".keras") for m in loaded)
    assert [m for m in loaded if m != TOP and layer(m) == "face"] == []


# -- the rest of the house -----------------------------------------------------------------------


def test_the_graph_order_lists_every_graph_module() -> None:
    on_disk = {p.stem for p in PACKAGE.path_of(f"{CORE}.graph").glob("_*.py") if p.stem != "__init__"}
    assert on_disk == set(GRAPH_ORDER)


def test_graph_modules_import_only_modules_below_them() -> None:
    assert graph_order_violations(PACKAGE) == []


def test_no_function_in_graph_imports_anything() -> None:
    found = []
    for path in sorted(PACKAGE.path_of(f"{CORE}.graph").glob("*.py")):
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                found += [
                    f"{path.name}:{n.lineno} in {fn.name}"
                    for n in ast.walk(fn)
                    if isinstance(n, ast.Import | ast.ImportFrom)
                ]
    assert found == []


def test_importing_a_graph_module_loads_no_runtime_module(first_imports: dict) -> None:
    graph = {m: r for m, r in first_imports.items() if m.startswith(f"{CORE}.graph.")}
    assert {f"{CORE}.graph.{name}" for name in GRAPH_ORDER} <= set(graph)
    assert {m: [x for x in r["loaded"] if x.startswith(f"{CORE}.runtime")] for m, r in graph.items()} == {
        m: [] for m in graph
    }


def test_no_imports_inside_functions() -> None:
    assert imports_in_functions(PACKAGE) == []  # it was 42 imports inside functions, then 6, then 0


def test_importing_the_package_loads_only_the_package() -> None:
    assert load_together(["jaxsess"]) == ["jaxsess"]


def test_a_module_imported_first_in_a_fresh_process_loads(first_imports: dict) -> None:
    assert {m: first_imports[m]["error"] for m in FIRST_IMPORTS} == {m: None for m in FIRST_IMPORTS}
    assert all(m in first_imports[m]["loaded"] for m in FIRST_IMPORTS)
    tf1 = {m: r for m, r in first_imports.items() if layer(m) == "tf1"}
    assert [x for r in tf1.values() for x in r["loaded"] if x != TOP and layer(x) == "face"] == []


# -- probes: the checks can fail -------------------------------------------------------------------


def _write(root: Path, files: dict[str, str]) -> Package:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return Package(root)


# One package holding each kind of violation once, beside imports that are allowed.
_PROBE = {
    "jaxsess/__init__.py": "",
    "jaxsess/nn.py": "",
    "jaxsess/compat/__init__.py": "",
    "jaxsess/compat/v1.py": "",
    "jaxsess/keras/__init__.py": "",
    "jaxsess/keras/layers.py": "",
    "jaxsess/_core/__init__.py": "",
    "jaxsess/_core/errors.py": "",
    "jaxsess/_core/graph/__init__.py": "",
    "jaxsess/_core/graph/_graph.py": "",
    "jaxsess/_tf1/__init__.py": "",
    "jaxsess/_tf1/ops/__init__.py": "",
    "jaxsess/_tf1/ops/math_ops.py": "",
    # the core: allowed
    "jaxsess/_core/fine.py": """
        import importlib
        from typing import TYPE_CHECKING

        from . import errors
        from .graph import _graph
        from jaxsess._core.graph import _graph as g2
        import jaxsess._core.errors

        importlib.import_module("jaxsess._core.errors")
        importlib.import_module("._graph", "jaxsess._core.graph")
        importlib.import_module("numpy")
        """,
    # the core: one violation per module
    "jaxsess/_core/absolute.py": "from jaxsess._tf1.ops import math_ops\n",
    "jaxsess/_core/plain.py": "import jaxsess.nn\n",
    "jaxsess/_core/in_function.py": """
        def f():
            def g():
                from jaxsess.keras import layers
            return g
        """,
    "jaxsess/_core/relative.py": "from .. import nn\n",
    "jaxsess/_core/graph/relative_up.py": "from ..._tf1.ops import math_ops\n",
    "jaxsess/_core/by_importlib.py": "import importlib\nimportlib.import_module('jaxsess._tf1.ops')\n",
    "jaxsess/_core/by_dunder.py": "__import__('jaxsess.compat.v1')\n",
    "jaxsess/_core/relative_importlib.py": "from importlib import import_module\nimport_module('..nn', package='jaxsess._core')\n",
    "jaxsess/_core/attribute.py": "from jaxsess import Session\n",
    "jaxsess/_core/dynamic.py": "import importlib\nname = 'jaxsess.nn'\nimportlib.import_module(name)\n",
    "jaxsess/_core/type_only.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from jaxsess._tf1.ops import math_ops\n",
    "jaxsess/_core/not_type_only.py": "import typing\nif not typing.TYPE_CHECKING:\n    import jaxsess.nn\nelse:\n    import jaxsess.keras\n",
    # the TF1 surface: allowed
    "jaxsess/_tf1/fine.py": """
        from .._core import errors
        from . import ops
        from .ops import math_ops
        from jaxsess._core.graph import _graph
        import importlib
        importlib.import_module("jaxsess._tf1.ops.math_ops")
        """,
    # the TF1 surface: one violation per module
    "jaxsess/_tf1/face.py": "from jaxsess import nn\n",
    "jaxsess/_tf1/relative_face.py": "from .. import compat\n",
    "jaxsess/_tf1/ops/relative_deep.py": "from ...keras import layers\n",
    "jaxsess/_tf1/by_importlib.py": "import importlib\nimportlib.import_module('jaxsess.compat.v1')\n",
    "jaxsess/_tf1/top.py": "import jaxsess\n",
    "jaxsess/_tf1/dynamic.py": "import importlib\nimportlib.import_module(f'jaxsess.{1}')\n",
}


def test_the_checker_reads_every_spelling_of_an_import(tmp_path: Path) -> None:
    pkg = _write(tmp_path, _PROBE)
    targets = {
        name: sorted({(i.target, i.in_function, i.type_only) for i in pkg.imports(name, path)})
        for name, path in pkg.modules()
    }
    assert targets["jaxsess._core.fine"] == [
        ("jaxsess._core.errors", False, False),
        ("jaxsess._core.graph._graph", False, False),
    ]
    assert targets["jaxsess._core.relative"] == [("jaxsess.nn", False, False)]
    assert targets["jaxsess._core.graph.relative_up"] == [("jaxsess._tf1.ops.math_ops", False, False)]
    assert targets["jaxsess._core.in_function"] == [("jaxsess.keras.layers", True, False)]
    assert targets["jaxsess._core.relative_importlib"] == [("jaxsess.nn", False, False)]
    assert targets["jaxsess._core.attribute"] == [("jaxsess", False, False)]
    assert targets["jaxsess._core.dynamic"] == [("?", False, False)]
    assert targets["jaxsess._core.type_only"] == [("jaxsess._tf1.ops.math_ops", False, True)]
    assert targets["jaxsess._core.not_type_only"] == [("jaxsess.keras", False, True), ("jaxsess.nn", False, False)]
    assert targets["jaxsess._tf1.ops.relative_deep"] == [("jaxsess.keras.layers", False, False)]


def test_rule_1_reports_each_kind_of_violation(tmp_path: Path) -> None:
    found = core_violations(_write(tmp_path, _PROBE))
    assert [f.split(",")[0] for f in found] == [
        "jaxsess._core.absolute",
        "jaxsess._core.attribute",
        "jaxsess._core.by_dunder",
        "jaxsess._core.by_importlib",
        "jaxsess._core.dynamic",
        "jaxsess._core.graph.relative_up",
        "jaxsess._core.in_function",
        "jaxsess._core.not_type_only",
        "jaxsess._core.not_type_only",
        "jaxsess._core.plain",
        "jaxsess._core.relative",
        "jaxsess._core.relative_importlib",
        "jaxsess._core.type_only",
    ]
    assert "jaxsess._core.in_function, line 4 (in a function): imports jaxsess.keras.layers" in found
    assert "jaxsess._core.dynamic, line 3: a dynamic import this check cannot read" in found


def test_rule_2_reports_each_kind_of_violation(tmp_path: Path) -> None:
    found = tf1_violations(_write(tmp_path, _PROBE))
    assert found == [
        "jaxsess._tf1.by_importlib, line 2: imports the face jaxsess.compat.v1",
        "jaxsess._tf1.dynamic, line 2: a dynamic import this check cannot read",
        "jaxsess._tf1.face, line 1: imports the face jaxsess.nn",
        "jaxsess._tf1.ops.relative_deep, line 1: imports the face jaxsess.keras.layers",
        "jaxsess._tf1.relative_face, line 1: imports the face jaxsess.compat",
        "jaxsess._tf1.top, line 1: imports the face jaxsess",
    ]


def test_the_run_time_check_reports_a_leak_and_a_cycle(tmp_path: Path) -> None:
    _write(tmp_path, {
        "jaxsess/__init__.py": "",
        "jaxsess/nn.py": "",
        "jaxsess/_core/__init__.py": "",
        "jaxsess/_core/leaky.py": "import importlib\nimportlib.import_module('jaxsess.' + 'nn')\n",
        "jaxsess/_core/a.py": "from jaxsess._core import b\nA = 1\n",
        "jaxsess/_core/b.py": "from jaxsess._core.a import A\nB = 1\n",
        "jaxsess/_core/clean.py": "from jaxsess._core import b\n",
    })
    results = load_each_first(["jaxsess._core.leaky", "jaxsess._core.a", "jaxsess._core.clean"], root=tmp_path,
                              preload=())
    leaks = runtime_leaks(results, "core")
    assert leaks[0] == "jaxsess._core.leaky loads jaxsess.nn"
    assert leaks[1].startswith("jaxsess._core.a: import failed: ImportError")
    assert len(leaks) == 2  # `clean` imports b first, which imports a: the cycle hides


def test_the_other_checks_can_fail(tmp_path: Path) -> None:
    pkg = _write(tmp_path, {
        "jaxsess/__init__.py": "",
        "jaxsess/_core/__init__.py": "",
        "jaxsess/_core/graph/__init__.py": "",
        "jaxsess/_core/graph/_shape.py": "from jaxsess._core.graph import _graph\n",
        "jaxsess/_core/graph/_graph.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                         "    from jaxsess._core.graph import _lowering\n",
        "jaxsess/_core/graph/_lowering.py": "from ._graph import Graph\n",
        "jaxsess/_tf1/__init__.py": "",
        "jaxsess/_tf1/inner.py": "def f():\n    def g():\n        from jaxsess._core.graph import _graph\n"
                                 "        return _graph\n    return g\n",
    })
    assert graph_order_violations(pkg) == [
        "jaxsess._core.graph._shape, line 1: imports jaxsess._core.graph._graph, not below it in GRAPH_ORDER"
    ]
    assert imports_in_functions(pkg) == [
        "jaxsess._tf1.inner, line 3 (in a function): imports jaxsess._core.graph._graph"
    ]
