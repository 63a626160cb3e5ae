"""Tests of the IPython extension: ``%jaxsess_stats`` and ``%%jaxsess_eager``.

Most tests drive an in-process ``InteractiveShell``; the last one runs the
magics in a real ``ipykernel`` kernel through ``nbclient``.
"""

from __future__ import annotations

import builtins
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import jaxsess
from jaxsess import EagerSession, ResourceCleanupStrategy
from jaxsess._tf1.ipython import (
    NO_SESSION_MESSAGE,
)
from jaxsess.ipython import (
    EagerCellError,
    load_ipython_extension,
    unload_ipython_extension,
)

pytest.importorskip("IPython")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def shell() -> Iterator[Any]:
    """An in-process IPython shell with the extension loaded (history in memory)."""
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    had = {k: k in builtins.__dict__ for k in ("__IPYTHON__", "display", "get_ipython")}
    InteractiveShell.clear_instance()
    cfg = Config()
    cfg.HistoryManager.hist_file = ":memory:"
    sh = InteractiveShell.instance(config=cfg)
    load_ipython_extension(sh)
    sh.run_cell("import jax.numpy as jnp\nimport jaxsess", store_history=False)
    try:
        yield sh
    finally:
        InteractiveShell.clear_instance()
        for k, present in had.items():  # leave builtins as we found them
            if not present:
                builtins.__dict__.pop(k, None)


def run(shell: Any, code: str, *, store_history: bool = False) -> Any:
    return shell.run_cell(code, store_history=store_history)


def ok(shell: Any, code: str, **kwargs: Any) -> Any:
    result = run(shell, code, **kwargs)
    assert result.success, f"cell failed: {result.error_before_exec or result.error_in_exec!r}"
    return result


# -- loading ----------------------------------------------------------------------


def test_importing_the_module_does_not_import_ipython() -> None:
    code = "import jaxsess, jaxsess.ipython, sys; print('IPython' in sys.modules)"
    env = dict(os.environ, JAX_PLATFORMS="cpu", PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip() == "False"


def test_load_registers_magics_and_displays(shell: Any) -> None:
    assert shell.find_line_magic("jaxsess_stats") is not None
    assert shell.find_cell_magic("jaxsess_eager") is not None
    with EagerSession(name="formatted") as s:
        data, _ = shell.display_formatter.format(s)
        assert "text/html" in data and "formatted" in data["text/html"]
        assert data["text/plain"].startswith("<EagerSession 'formatted' open")


def test_unload_removes_the_magics(shell: Any) -> None:
    unload_ipython_extension(shell)
    try:
        assert shell.find_line_magic("jaxsess_stats") is None
        assert shell.find_cell_magic("jaxsess_eager") is None
    finally:
        load_ipython_extension(shell)
    assert shell.find_cell_magic("jaxsess_eager") is not None


@pytest.mark.skipif(
    not hasattr(jaxsess, "load_ipython_extension"),
    reason="`%load_ext jaxsess` needs jaxsess/__init__.py to re-export load_ipython_extension",
)
def test_load_ext_jaxsess(shell: Any) -> None:
    unload_ipython_extension(shell)
    shell.extension_manager.loaded.discard("jaxsess")
    ok(shell, "%load_ext jaxsess")
    assert shell.find_cell_magic("jaxsess_eager") is not None


# -- %jaxsess_stats -------------------------------------------------------------------


def test_stats_without_a_session(shell: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert jaxsess.get_default_session() is None and EagerSession.get_default() is None
    ok(shell, "%jaxsess_stats")
    assert NO_SESSION_MESSAGE in capsys.readouterr().out


def test_stats_of_the_default_sessions(shell: Any, capsys: pytest.CaptureFixture[str]) -> None:
    ok(shell, "g = jaxsess.Graph()\nsess = jaxsess.InteractiveSession(graph=g, name='interactive')")
    try:
        ok(shell, "%jaxsess_stats")
        out = capsys.readouterr().out
        assert "InteractiveSession 'interactive' (open)" in out and "IN_BACKGROUND" in out
    finally:
        ok(shell, "sess.close()")
    ok(
        shell,
        "with jaxsess.EagerSession(cleanup='ON_SAFE_POINTS', name='eager') as es:\n"
        "    kept = es.jit(lambda v: v + 1)(jnp.ones(4))\n"
        "    get_ipython().run_line_magic('jaxsess_stats', '')",
    )
    out = capsys.readouterr().out
    assert "EagerSession 'eager' (open)" in out and "ON_SAFE_POINTS" in out
    assert "live buffers       1" in out and "16 B" in out
    ok(shell, "%jaxsess_stats es")  # an explicit session, closed by now
    out = capsys.readouterr().out
    assert "EagerSession 'eager' (closed)" in out and "live buffers       0" in out


def test_stats_of_something_else_is_a_usage_error(shell: Any) -> None:
    from IPython.core.error import UsageError

    result = run(shell, "%jaxsess_stats 42")
    assert isinstance(result.error_in_exec, UsageError)


# -- %%jaxsess_eager ----------------------------------------------------------------------


def test_eager_cell_frees_all_but_kept(shell: Any, strategy: ResourceCleanupStrategy) -> None:
    ok(shell, "base = jnp.ones(3)\nholder = []")
    ok(
        shell,
        f"%%jaxsess_eager --keep y,pair --cleanup {strategy.name.lower()}\n"
        "seen = jaxsess.EagerSession.get_default()\n"
        "x = jaxsess.add(base, 1.0)\n"
        "y = jaxsess.multiply(x, 2.0)\n"
        "pair = (jaxsess.square(x), {'k': jaxsess.negative(x)})\n"
        "holder.append(x)\n",
    )
    ns = shell.user_ns
    assert ns["seen"].strategy is strategy and ns["seen"].closed
    assert EagerSession.get_default() is None  # the cell's session is no longer the default
    assert ns["x"].is_deleted() and ns["holder"][0].is_deleted()  # escaped, not kept: deleted
    assert not ns["base"].is_deleted()  # made outside the session: never its to delete
    np.testing.assert_array_equal(ns["y"], [4.0, 4.0, 4.0])
    np.testing.assert_array_equal(ns["pair"][0], [4.0, 4.0, 4.0])
    np.testing.assert_array_equal(ns["pair"][1]["k"], [-2.0, -2.0, -2.0])
    stats = ns["seen"].stats()
    assert stats.detached_buffers == 3 and stats.live_buffers == 0


def test_eager_cell_keeps_repeated_options_and_spaces(shell: Any) -> None:
    ok(shell, "%%jaxsess_eager --keep a --keep 'b, c'\na = jaxsess.add(jnp.ones(1), 1.0)\nb = a + 0\nc = jaxsess.add(a, a)")
    assert not shell.user_ns["a"].is_deleted() and not shell.user_ns["c"].is_deleted()


def test_eager_cell_error_closes_the_session_and_fails(shell: Any, capsys: pytest.CaptureFixture[str]) -> None:
    result = run(
        shell,
        "%%jaxsess_eager --keep before\n"
        "before = jaxsess.add(jnp.ones(2), 1.0)\n"
        "lost = jaxsess.add(jnp.ones(2), 2.0)\n"
        "1 / 0\n",
    )
    err = result.error_in_exec
    assert isinstance(err, EagerCellError) and isinstance(err.__cause__, ZeroDivisionError)
    assert "ZeroDivisionError" in str(err) and "was closed" in str(err)
    assert err._render_traceback_() == [f"EagerCellError: {err}"]
    ns = shell.user_ns
    assert ns["lost"].is_deleted() and not ns["before"].is_deleted()
    out = capsys.readouterr()
    assert "ZeroDivisionError" in out.out + out.err  # the cell's own traceback was shown
    assert EagerSession.get_default() is None


def test_eager_cell_displays_its_result_inside_the_session(shell: Any) -> None:
    result = ok(shell, "%%jaxsess_eager\njaxsess.add(jnp.ones(2), 1.0)", store_history=True)
    n = shell.execution_count - 1
    shown = shell.user_ns["Out"][n]
    assert shown.is_deleted()  # displayed (so cached), then freed by the close
    assert result.result is None  # the magic itself returns nothing


def test_eager_cell_bad_arguments_are_usage_errors(shell: Any) -> None:
    from IPython.core.error import UsageError

    for line in ("--cleanup sometimes", "--keep 1x", "--frobnicate", "--keep"):
        result = run(shell, f"%%jaxsess_eager {line}\nnever_run = 1")
        assert isinstance(result.error_in_exec, UsageError), line
        assert "never_run" not in shell.user_ns


def test_eager_cell_reports_undefined_keep_names_and_stats(
    shell: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    ok(shell, "%%jaxsess_eager --keep nowhere --stats --cleanup ON_SAFE_POINTS\nw = jaxsess.add(jnp.ones(5), 1.0)")
    out = capsys.readouterr()
    assert "--keep names not defined after the cell: nowhere" in out.err
    assert "EagerSession 'jaxsess_eager[" in out.out and "live buffers       1" in out.out
    assert shell.user_ns["w"].is_deleted()


def test_eager_cell_explains_that_variables_cannot_be_kept(
    shell: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    ok(shell, "%%jaxsess_eager --keep v,v_value\nv = jaxsess.Variable(jnp.ones(2))\nv_value = v.read_value()")
    err = capsys.readouterr().err
    assert "--keep v: a jaxsess.Variable lives in its session" in err and "v.read_value()" in err
    assert not shell.user_ns["v_value"].is_deleted()


def test_output_cache_keeps_arrays_until_the_session_closes(shell: Any) -> None:
    ok(shell, "s = jaxsess.EagerSession(cleanup='ON_SAFE_POINTS')\ndouble = s.jit(lambda v: v * 2)")
    ok(shell, "double(jnp.arange(3.0));", store_history=True)  # `;`: not displayed, not cached
    assert shell.user_ns["s"].stats().live_buffers == 0
    ok(shell, "double(jnp.arange(3.0))", store_history=True)  # displayed: Out and _ keep it
    n = shell.execution_count - 1
    assert shell.user_ns["s"].stats().live_buffers == 1
    assert shell.user_ns["Out"][n] is shell.user_ns["_"]
    ok(shell, "s.close()")
    assert shell.user_ns["Out"][n].is_deleted()


# -- a real kernel ---------------------------------------------------------------------------


def test_magics_in_a_real_kernel(tmp_path: Path) -> None:
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("ipykernel")
    nbclient = pytest.importorskip("nbclient")

    cells = [
        "%load_ext jaxsess.ipython\nimport jax.numpy as jnp\nimport jaxsess\nholder = []",
        "%%jaxsess_eager --keep y\n"
        "x = jaxsess.add(jnp.ones(3), 1.0)\n"
        "y = jaxsess.multiply(x, 2.0)\n"
        "holder.append(x)\n"
        "y",
        "assert x.is_deleted() and holder[0].is_deleted(), 'escaped array survived'\n"
        "assert not y.is_deleted(), 'kept array was deleted'\n"
        "print('kept', y.tolist())",
        "%%jaxsess_eager --cleanup on_session_close\nz = jaxsess.add(jnp.ones(2), 1.0)\n1 / 0",
        "assert z.is_deleted()\nprint('z deleted')",
        "sess = jaxsess.InteractiveSession(graph=jaxsess.Graph(), name='in-kernel')\n%jaxsess_stats",
        "sess.close()\n%jaxsess_stats",
    ]
    nb = nbformat.v4.new_notebook()
    for i, src in enumerate(cells):
        cell = nbformat.v4.new_code_cell(src)
        cell.id = f"magic-{i}"
        if i == 3:
            cell.metadata["tags"] = ["raises-exception"]
        nb.cells.append(cell)
    env = dict(os.environ, MPLBACKEND="Agg", JAX_PLATFORMS="cpu")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    client = nbclient.NotebookClient(
        nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute(env=env)  # raises CellExecutionError if an untagged cell fails

    def texts(i: int) -> str:
        return "".join(o.get("text", "") for o in nb.cells[i].outputs if o.output_type == "stream")

    def shown_stats(i: int) -> tuple[str, str]:
        (bundle,) = [o["data"] for o in nb.cells[i].outputs if o.output_type == "display_data"]
        return bundle["text/plain"], bundle["text/html"]

    shown = [o for o in nb.cells[1].outputs if o.output_type == "execute_result"]
    assert shown and "Array([4., 4., 4.]" in shown[0]["data"]["text/plain"]
    assert "kept [4.0, 4.0, 4.0]" in texts(2)
    errors = [o.ename for o in nb.cells[3].outputs if o.output_type == "error"]
    assert errors == ["ZeroDivisionError", "EagerCellError"]
    assert "z deleted" in texts(4)
    plain, page = shown_stats(5)  # %jaxsess_stats: an HTML table, with the text for terminals
    assert "InteractiveSession 'in-kernel' (open)" in plain
    assert page.startswith('<div class="jaxsess-stats">') and "InteractiveSession &#x27;in-kernel&#x27;" in page
    assert NO_SESSION_MESSAGE in texts(6)
    for i in (0, 1, 2, 4, 5, 6):
        assert not [o for o in nb.cells[i].outputs if o.output_type == "error"], i


# -- arrays any code made in a %%jaxsess_eager cell (issue 31) ---------------------------------


def test_eager_cell_owns_what_plain_jax_made_except_kept(shell: Any) -> None:
    ok(shell, "import jax\nbase = jnp.ones(3)\nplain_before = jax.jit(lambda v: v + 5.0)(base)")
    ok(
        shell,
        "%%jaxsess_eager --keep kept\n"
        "step = jax.jit(lambda v: v * 2.0)\n"
        "tmp = step(base)\n"
        "made = jnp.arange(4.0) + 1.0\n"
        "kept = {'a': step(tmp), 'b': made * 0 + 7.0}\n"
        "seen = jaxsess.EagerSession.get_default()\n",
    )
    ns = shell.user_ns
    assert ns["tmp"].is_deleted() and ns["made"].is_deleted()  # plain jax.jit / jnp, not kept
    np.testing.assert_array_equal(ns["kept"]["a"], [4.0, 4.0, 4.0])
    np.testing.assert_array_equal(ns["kept"]["b"], [7.0] * 4)
    assert not ns["base"].is_deleted() and not ns["plain_before"].is_deleted()  # made before the cell
    assert ns["seen"].stats().freed_buffers >= 2


def test_eager_cell_leaves_another_sessions_arrays_alone(shell: Any) -> None:
    ok(shell, "other = jaxsess.EagerSession(cleanup='ON_SAFE_POINTS')\ntriple = other.jit(lambda v: v * 3.0)")
    ok(shell, "%%jaxsess_eager\nfrom_other = triple(jnp.ones(2))\nmine = jnp.ones(2) + 1.0\n")
    ns = shell.user_ns
    assert not ns["from_other"].is_deleted() and ns["other"].owns(ns["from_other"])
    assert ns["mine"].is_deleted()
    ok(shell, "other.close()")
    assert ns["from_other"].is_deleted()


def test_stats_magic_shows_what_holds_memory(shell: Any, capsys: pytest.CaptureFixture[str]) -> None:
    ok(shell, "s2 = jaxsess.EagerSession()\nbig = s2.jit(lambda v: jnp.tile(v, 100))(jnp.ones(10))")
    capsys.readouterr()
    ok(shell, "%jaxsess_stats s2")
    out = capsys.readouterr().out
    assert "what holds memory:" in out and "1 x float32[1000] from <lambda>: 4,000 B" in out, out
    ok(shell, "s2.close()")
