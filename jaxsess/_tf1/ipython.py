"""IPython and Jupyter integration: ``%load_ext jaxsess`` (or ``jaxsess._tf1.ipython``).

Loading the extension installs the rich displays of sessions, stats and
graphs (:mod:`jaxsess._core._display`) and registers two magics:

``%jaxsess_stats [SESSION]``
    Shows the stats of ``SESSION`` (any expression naming a session) — an
    HTML table in a notebook, text in a terminal — else of
    the default session (``jaxsess.get_default_session()``: an
    ``InteractiveSession``, or a session made default with ``with``), else of
    the innermost ``EagerSession``; prints a short note when there is none.
    Reading the stats is a safe point (``ON_SAFE_POINTS`` sweeps there).

``%%jaxsess_eager [--keep NAME[,NAME...]] [--cleanup STRATEGY] [--stats]``
    Runs the cell inside a fresh ``EagerSession`` (op functions such as
    ``jaxsess.add`` execute at once and ``jaxsess.EagerSession.get_default()``
    returns the session) and closes it when the cell ends, also when it
    raises: every array created while the cell ran, by whatever code — the
    cell's ops and ``session.jit`` functions, but also plain ``jax.jit``,
    ``jnp`` and library code (found by comparing ``jax.live_arrays()`` before
    and after) — is deleted, whatever still references it, except the
    ``jax.Array`` leaves of the variables named by ``--keep`` (and arrays
    sharing their buffers), which are detached from the session first and
    stay valid. Arrays owned by another open session, and arrays sharing a
    buffer with one that existed before the cell, are left alone. ``--cleanup`` picks the strategy while the cell runs
    (``IN_BACKGROUND``, ``ON_SAFE_POINTS`` or ``ON_SESSION_CLOSE``, any case;
    default ``IN_BACKGROUND``). ``--stats`` shows the session's stats before
    it closes. A cell that raises shows its traceback, then fails with
    :class:`EagerCellError`, so "run all" stops there.

The output cache keeps arrays alive
-----------------------------------
IPython keeps every value a cell displays: ``Out[n]`` and ``_n`` hold the
result of cell ``n`` and ``_``, ``__``, ``___`` the last three results. An
array that was displayed is therefore still referenced after you ``del`` your
own name for it, so plain JAX frees its buffer only when the cache lets go
(``%reset -f out``, or after ``InteractiveShell.cache_size`` newer outputs).
A session's sweeps see those references too — an array the cache holds is in
use, so ``IN_BACKGROUND`` and ``ON_SAFE_POINTS`` keep it — but closing the
session (or leaving a ``%%jaxsess_eager`` cell) deletes it anyway: the buffer
is freed, ``Out[n]`` keeps a deleted array, and using or displaying it again
raises JAX's ``RuntimeError: Array has been deleted``. End a line with ``;``
or assign the result to keep a large array out of the cache.

``import jaxsess._tf1.ipython`` does not import IPython; the magics do, when they
are registered.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import weakref
from typing import Any

from jaxsess._core._display import stats_html, stats_text
from jaxsess._core.runtime._eager import EagerSession
from jaxsess._core.runtime._resources import ResourceCleanupStrategy, buffer_keys
from jaxsess._core.runtime._session import get_default_session, live_sessions
from jaxsess._tf1.ops.state_ops import Variable

__all__ = ["EagerCellError", "load_ipython_extension", "unload_ipython_extension"]

_LINE_MAGIC = "jaxsess_stats"
_CELL_MAGIC = "jaxsess_eager"

NO_SESSION_MESSAGE = (
    "No jaxsess session is active: no default session (an InteractiveSession, or a "
    "session entered with `with` or `as_default()`) and no EagerSession. "
    "Pass one: %jaxsess_stats my_session"
)


class EagerCellError(RuntimeError):
    """A ``%%jaxsess_eager`` cell raised; its traceback was already shown.

    The original exception is ``__cause__``. IPython renders this error as one
    line (``_render_traceback_``), so the cell's traceback is not repeated.
    """

    def _render_traceback_(self) -> list[str]:
        return [f"{type(self).__name__}: {self}"]


def _find_session() -> Any:
    session = get_default_session()
    if session is None:
        session = EagerSession.get_default()
    return session


def _stats_report(session: Any) -> str:
    state = "closed" if session.closed else "open"
    return f"{type(session).__name__} {session.name!r} ({state})\n" + stats_text(session.stats(), "  ")


def _show_stats(session: Any) -> None:
    """Displays the session's stats: an HTML table in a notebook, text in a terminal.

    One display bundle with ``text/html`` (the table sessions show) and
    ``text/plain`` (:func:`_stats_report`); a terminal prints the text.
    """
    from IPython.display import display

    title = f"{type(session).__name__} {session.name!r}"
    display({"text/html": stats_html(session.stats(), title), "text/plain": _stats_report(session)}, raw=True)


def _usage_error(message: str) -> Exception:
    from IPython.core.error import UsageError

    return UsageError(message)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # raise instead of exiting the kernel
        raise _usage_error(f"%%{_CELL_MAGIC}: {message}\n{self.format_usage()}")


def _eager_parser() -> argparse.ArgumentParser:
    p = _Parser(prog=f"%%{_CELL_MAGIC}", add_help=False)
    p.add_argument(
        "--keep",
        action="append",
        default=[],
        metavar="NAME[,NAME...]",
        help="variables whose arrays survive the cell (detached from the session)",
    )
    p.add_argument("--cleanup", default="IN_BACKGROUND", metavar="STRATEGY")
    p.add_argument("--stats", action="store_true", help="show the session's stats before it closes")
    return p


def _keep(session: Any, namespace: dict[str, Any], names: list[str]) -> tuple[list[str], list[str]]:
    """Detaches the session-owned ``jax.Array`` leaves of ``namespace[name]``.

    Returns the names kept and the names that are not defined. A variable
    (``jaxsess.Variable``) cannot be kept: its value lives in the session's
    state and goes with it; a note on stderr says to keep its value instead.
    """
    import jax

    kept, missing = [], []
    for name in names:
        if name not in namespace:
            missing.append(name)
            continue
        leaves = jax.tree_util.tree_leaves(namespace[name])
        owned = [leaf for leaf in leaves if isinstance(leaf, jax.Array) and session.owns(leaf)]
        if owned:
            session.detach(owned)
        if any(isinstance(leaf, Variable) for leaf in leaves):
            print(
                f"%%{_CELL_MAGIC}: --keep {name}: a jaxsess.Variable lives in its session and is freed "
                f"with it; keep its value instead, e.g. `{name}_value = {name}.read_value()`.",
                file=sys.stderr,
            )
        kept.append(name)
    return kept, missing


def _live_arrays_now() -> dict[int, Any]:
    """Weak references to every live ``jax.Array``, by id (``jax.live_arrays()``)."""
    import jax

    return {id(a): weakref.ref(a) for a in jax.live_arrays()}


def _own_cell_arrays(session: Any, before: dict[int, Any], namespace: dict[str, Any], names: list[str]) -> None:
    """Makes ``session`` own every array created since ``before`` that is not
    reachable from ``namespace[name]`` for ``name`` in ``names``, shares no
    buffer with those or with an array that existed before, and is not owned
    by another open session."""
    import jax

    new: list[Any] = []
    old_bufs: set[int] = set()
    for a in jax.live_arrays():
        r = before.get(id(a))
        if r is not None and r() is a:
            old_bufs.update(buffer_keys(a))
        elif not a.is_deleted():
            new.append(a)
    if not new:
        return
    kept = [
        leaf
        for name in names
        if name in namespace
        for leaf in jax.tree_util.tree_leaves(namespace[name])
        if isinstance(leaf, jax.Array)
    ]
    spare = old_bufs | {k for leaf in kept for k in buffer_keys(leaf)}
    kept_ids = {id(leaf) for leaf in kept}
    others = [s for s in live_sessions() if s is not session and not s.closed]
    mine = [
        a
        for a in new
        if id(a) not in kept_ids
        and spare.isdisjoint(buffer_keys(a))
        and not any(o.owns(a) for o in others)
    ]
    if mine:
        session._registry.adopt_outputs(mine, producer=f"%%{_CELL_MAGIC} cell")


def _split_names(values: list[str]) -> list[str]:
    names = [n.strip() for v in values for n in v.split(",")]
    bad = [n for n in names if not n.isidentifier()]
    if bad:
        raise _usage_error(f"%%{_CELL_MAGIC}: --keep expects variable names, got {', '.join(map(repr, bad))}")
    return names


def _jaxsess_eager(shell: Any, line: str, cell: str) -> None:
    args = _eager_parser().parse_args(shlex.split(line))
    names = _split_names(args.keep)
    try:
        strategy = ResourceCleanupStrategy.coerce(args.cleanup)
    except ValueError as e:
        raise _usage_error(f"%%{_CELL_MAGIC}: {e}") from None
    session = EagerSession(cleanup=strategy, name=f"{_CELL_MAGIC}[{shell.execution_count}]")
    try:
        before = _live_arrays_now()
        with session.as_default():
            result = shell.run_cell(cell, store_history=False)
        _own_cell_arrays(session, before, shell.user_ns, names)
        _, missing = _keep(session, shell.user_ns, names)
        if missing:
            print(
                f"%%{_CELL_MAGIC}: --keep names not defined after the cell: {', '.join(missing)}",
                file=sys.stderr,
            )
        if args.stats:
            _show_stats(session)
    finally:
        session.close()
    error = result.error_in_exec or result.error_before_exec
    if error is not None:
        raise EagerCellError(
            f"the %%{_CELL_MAGIC} cell raised {type(error).__name__} (traceback above); "
            f"its EagerSession {session.name!r} was closed and freed what the cell allocated."
        ) from error


def _jaxsess_stats(shell: Any, line: str) -> None:
    expr = line.strip()
    session = shell.ev(expr) if expr else _find_session()
    if session is None:
        print(NO_SESSION_MESSAGE)
        return
    if not hasattr(session, "stats") or not hasattr(session, "closed"):
        raise _usage_error(f"%{_LINE_MAGIC}: {expr!r} is a {type(session).__name__}, not a jaxsess session.")
    _show_stats(session)


def load_ipython_extension(ipython: Any) -> None:
    """Registers ``%jaxsess_stats`` and ``%%jaxsess_eager`` (the displays are the classes' own methods).

    Called by ``%load_ext jaxsess`` / ``%load_ext jaxsess._tf1.ipython``.
    """
    def jaxsess_stats(line: str = "") -> None:
        _jaxsess_stats(ipython, line)

    def jaxsess_eager(line: str, cell: str) -> None:
        _jaxsess_eager(ipython, line, cell)

    jaxsess_stats.__doc__ = "Prints a jaxsess session's stats: %jaxsess_stats [SESSION]."
    jaxsess_eager.__doc__ = (
        "Runs the cell in a fresh EagerSession and closes it afterwards:\n"
        "%%jaxsess_eager [--keep NAME[,NAME...]] [--cleanup STRATEGY] [--stats]"
    )
    ipython.register_magic_function(jaxsess_stats, magic_kind="line", magic_name=_LINE_MAGIC)
    ipython.register_magic_function(jaxsess_eager, magic_kind="cell", magic_name=_CELL_MAGIC)


def unload_ipython_extension(ipython: Any) -> None:
    """Removes the magics (``%unload_ext``); the displays stay installed."""
    magics = ipython.magics_manager.magics
    magics["line"].pop(_LINE_MAGIC, None)
    magics["cell"].pop(_CELL_MAGIC, None)
