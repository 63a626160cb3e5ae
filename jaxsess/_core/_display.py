"""How sessions, their stats and graphs look in a REPL and in Jupyter.

The classes' own methods call it: ``__repr__`` and ``_repr_html_`` of
:class:`~jaxsess.BaseSession` (so of every session type), ``_repr_html_`` of
:class:`~jaxsess.SessionStats`, and ``_repr_html_``, ``_repr_svg_`` and
``visualize()`` of :class:`~jaxsess.Graph`; it imports none of them. Displays never sweep: they
show what the session owns at that moment (``session.stats()`` is the call
that also frees, at a safe point).

A graph's display is an HTML summary (op count, ops by type, the first ops)
followed by its picture; ``_repr_svg_`` is the picture alone (Jupyter
prefers the HTML, other front ends may take the SVG). The automatic picture
folds name scopes, as TensorBoard collapses them, until it has at most
:data:`MAX_PICTURE_NODES` nodes; ``Graph.visualize(max_depth=...)`` draws
any folding, by default every op.

Graph pictures need the ``graphviz`` Python package (imported only when a
picture is asked for) and graphviz's ``dot`` program on ``PATH``
(``apt-get install graphviz``, ``brew install graphviz``,
``conda install graphviz``). Without them ``Graph.visualize()`` raises with
the fix in its message and ``Graph._repr_svg_`` returns ``None``, so
Jupyter shows the HTML summary alone.
"""

from __future__ import annotations

import html
import shutil
import weakref
from collections import Counter
from typing import TYPE_CHECKING, Any

from jaxsess._core.graph._device import default_device, parse_device, resolve_device, tf_device_name

if TYPE_CHECKING:  # the classes call this module from their methods; it never imports them
    from jaxsess._core.graph._graph import Graph, Operation
    from jaxsess._core.runtime._resources import SessionStats
    from jaxsess._core.runtime._session import BaseSession

__all__ = [
    "MAX_PICTURE_NODES",
    "MAX_PICTURE_OPS",
    "MAX_TABLE_OPS",
    "format_bytes",
    "graph_html",
    "graph_svg",
    "picture_depth",
    "session_html",
    "session_repr",
    "session_repr_html",
    "session_text",
    "stats_html",
    "stats_text",
    "visualize",
]

MAX_TABLE_OPS = 20
"""Rows of the op table in a graph's HTML display."""

MAX_PICTURE_OPS = 5000
"""Graphs with more ops get no automatic picture (``_repr_svg_`` and the
picture inside the HTML display); ``visualize()`` still draws them."""

MAX_PICTURE_NODES = 40
"""The automatic picture folds name scopes (see ``visualize(max_depth=...)``)
until it has at most this many nodes."""

NO_GRAPHVIZ_PACKAGE = (
    "Graph pictures need the `graphviz` Python package, which is not installed. "
    "Install it with `pip install graphviz` (and graphviz's `dot` program, e.g. "
    "`apt-get install graphviz`, `brew install graphviz` or `conda install graphviz`)."
)

NO_DOT_PROGRAM = (
    "Graph pictures need graphviz's `dot` program, which was not found on PATH. "
    "Install graphviz (`apt-get install graphviz`, `brew install graphviz` or "
    "`conda install graphviz`) and restart the kernel or interpreter if PATH changed. "
    "Without it, display the graph for an HTML summary of its ops."
)

_TABLE = 'style="border-collapse:collapse;margin:2px 0"'
_TH = 'style="text-align:left;padding:1px 8px;border-bottom:1px solid #ccc"'
_TD = 'style="text-align:left;padding:1px 8px"'
_TDR = 'style="text-align:right;padding:1px 8px;font-variant-numeric:tabular-nums"'


# -- formatting ---------------------------------------------------------------


def format_bytes(n: int) -> str:
    """``n`` bytes for people: ``'512 B'``, ``'1.5 KiB'``, ``'3.0 MiB'`` (binary units)."""
    value = float(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(value) < 1024 or unit == "TiB":
            return f"{int(value)} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def _bytes_cell(n: int) -> str:
    # The exact count and the readable size: "1,048,576 B (1.0 MiB)".
    return f"{n:,} B" if abs(n) < 1024 else f"{n:,} B ({format_bytes(n)})"


def _buffers(n: int) -> str:
    return f"{n:,} buffer" if n == 1 else f"{n:,} buffers"


def _e(x: Any) -> str:
    return html.escape(str(x), quote=True)


def _rows(rows: list[tuple[str, str]]) -> str:
    return "".join(f"<tr><th {_TH}>{_e(k)}</th><td {_TDR}>{_e(v)}</td></tr>" for k, v in rows)


def _stats_rows(s: SessionStats) -> list[tuple[str, str]]:
    return [
        ("strategy", s.strategy.name),
        ("live buffers", f"{s.live_buffers:,}"),
        ("live bytes", _bytes_cell(s.live_bytes)),
        ("peak bytes", _bytes_cell(s.peak_bytes)),
        ("allocated buffers", f"{s.allocated_buffers:,}"),
        ("freed buffers", f"{s.freed_buffers:,}"),
        ("detached buffers", f"{s.detached_buffers:,}"),
    ]


def _devices_html(s: SessionStats) -> str:
    if not s.devices:
        return "<div><i>no live buffers on any device</i></div>"
    body = "".join(
        f"<tr><td {_TD}>{_e(dev)}</td><td {_TDR}>{d.live_buffers:,}</td>"
        f"<td {_TDR}>{_e(_bytes_cell(d.live_bytes))}</td></tr>"
        for dev, d in s.devices.items()
    )
    return (
        f"<table {_TABLE}><thead><tr><th {_TH}>device</th><th {_TH}>live buffers</th>"
        f"<th {_TH}>live bytes</th></tr></thead><tbody>{body}</tbody></table>"
    )


def _held_html(s: SessionStats) -> str:
    if not s.held:
        return ""
    body = "".join(
        f"<tr><td {_TD}>{_e(h.producer)}</td><td {_TD}>{_e(h.dtype)}{_e(list(h.shape))}</td>"
        f"<td {_TDR}>{h.arrays:,}</td><td {_TDR}>{_e(_bytes_cell(h.bytes))}</td></tr>"
        for h in s.held
    )
    return (
        f"<div><b>what holds memory</b></div><table {_TABLE}><thead><tr><th {_TH}>producer</th>"
        f"<th {_TH}>array</th><th {_TH}>arrays</th><th {_TH}>bytes</th></tr></thead><tbody>{body}</tbody></table>"
    )


def stats_html(s: SessionStats, title: str | None = None) -> str:
    """An HTML table of a :class:`SessionStats`, with its per-device
    breakdown and "what holds memory" (``SessionStats.held``)."""
    state = "closed" if s.closed else "open"
    head = _e(title) if title is not None else "SessionStats"
    return (
        f'<div class="jaxsess-stats"><div><b>{head}</b> ({state})</div>'
        f"<table {_TABLE}><tbody>{_rows(_stats_rows(s))}</tbody></table>"
        f"{_devices_html(s)}{_held_html(s)}</div>"
    )


def stats_text(s: SessionStats, indent: str = "") -> str:
    """The lines of :func:`stats_html` as plain text (for ``print``)."""
    rows = _stats_rows(s) + [("closed", str(s.closed))]
    width = max(len(k) for k, _ in rows)
    lines = [f"{indent}{k:<{width}}  {v}" for k, v in rows]
    if s.devices:
        lines.append(f"{indent}per device:")
        for dev, d in s.devices.items():
            lines.append(f"{indent}  {dev}: {_buffers(d.live_buffers)}, {_bytes_cell(d.live_bytes)}")
    if s.held:
        lines.append(f"{indent}what holds memory:")
        for h in s.held:
            lines.append(
                f"{indent}  {h.arrays:,} x {h.dtype}{list(h.shape)} from {h.producer}: {_bytes_cell(h.bytes)}"
            )
    return "\n".join(lines)


# -- sessions -------------------------------------------------------------------


def _session_extra(session: BaseSession) -> list[tuple[str, str]]:
    rows = []
    limit = session._registry.memory_limit_bytes
    if limit is not None:
        rows.append(("memory limit", _bytes_cell(limit)))
    ops = getattr(getattr(session, "_graph", None), "_ops", None)  # a graph session's Graph
    if ops is not None:
        rows.append(("graph", f"{len(ops):,} ops"))
    return rows


def session_text(session: BaseSession) -> str:
    """One line: type, name, state, strategy, live buffers and bytes, peak, devices."""
    s = session._registry.stats()
    state = "closed" if session.closed else "open"
    devices = ", ".join(
        f"{dev}: {_buffers(d.live_buffers)} {format_bytes(d.live_bytes)}" for dev, d in s.devices.items()
    )
    limit = session._registry.memory_limit_bytes
    return (
        f"<{type(session).__name__} {session.name!r} {state} strategy={s.strategy.name} "
        f"live_buffers={s.live_buffers} live_bytes={s.live_bytes} ({format_bytes(s.live_bytes)}) "
        f"peak_bytes={s.peak_bytes} ({format_bytes(s.peak_bytes)})"
        + (f" memory_limit_bytes={limit}" if limit is not None else "")
        + (f" devices={{{devices}}}" if devices else "")
        + ">"
    )


def session_html(session: BaseSession) -> str:
    """The session as HTML: its stats, per-device table, and open/closed state."""
    s = session._registry.stats()
    state = "closed" if session.closed else "open"
    color = "#888" if session.closed else "#2a7a2a"
    rows = _stats_rows(s) + _session_extra(session)
    return (
        f'<div class="jaxsess-session"><div><b>{_e(type(session).__name__)}</b> '
        f"<code>{_e(session.name)}</code> "
        f'<span style="color:{color};font-weight:bold">{state}</span></div>'
        f"<table {_TABLE}><tbody>{_rows(rows)}</tbody></table>"
        f"{_devices_html(s)}</div>"
    )


# -- graphs -----------------------------------------------------------------------


def _tensor_text(t: Any) -> str:
    # "float32[?,64]", as TF's messages write shapes.
    return f"{t.dtype.name}{t.shape.tf_str()}"


def device_label(spec: str) -> str:
    """Where an op with device ``spec`` runs, for pictures and tables.

    ``""`` for an unplaced op; the short TF name (``CPU:3``) of the device a
    placed op runs on; for a device that is not present (``/device:GPU:0`` on
    a CPU-only machine) ``GPU:0 absent → CPU:0``: with
    ``allow_soft_placement`` the op runs on the default device, without it
    ``run`` raises ``InvalidArgumentError``. Specs without a device type
    (``/job:localhost``) are shown as written.
    """
    if not spec:
        return ""
    try:
        ds = parse_device(spec)
    except ValueError:
        return spec
    if ds.device_type is None:
        return spec
    dev = resolve_device(spec, "", allow_soft_placement=True)
    if dev is not None:
        return _short(dev)
    want = f"{ds.device_type}:{'*' if ds.device_index is None else ds.device_index}"
    return f"{want} absent \u2192 {_short(default_device())}"


def _short(dev: Any) -> str:
    return tf_device_name(dev).rpartition("device:")[2]


def _op_row(op: Operation) -> str:
    inputs = ", ".join(t.name for t in op.inputs)
    if op.control_inputs:
        inputs += (", " if inputs else "") + ", ".join("^" + c.name for c in op.control_inputs)
    outputs = ", ".join(_tensor_text(t) for t in op.outputs)
    return (
        f"<tr><td {_TD}><code>{_e(op.name)}</code></td><td {_TD}>{_e(op.type)}</td>"
        f"<td {_TD}>{_e(inputs)}</td><td {_TD}>{_e(outputs)}</td><td {_TD}>{_e(device_label(op.device))}</td></tr>"
    )


def graph_html(graph: Graph, max_ops: int = MAX_TABLE_OPS, picture: bool = True) -> str:
    """The graph as HTML: op count, ops by type, a table of the first ``max_ops`` ops.

    With ``picture`` (and graphviz available, see :func:`picture_depth`) the
    automatic SVG picture follows in a collapsible block, open.
    """
    ops = list(graph._ops)
    by_type = Counter(op.type for op in ops).most_common()
    types = ", ".join(f"{t} &times; {n}" for t, n in ((_e(t), n) for t, n in by_type)) or "<i>none</i>"
    rows = "".join(_op_row(op) for op in ops[:max_ops])
    more = (
        f'<tr><td {_TD} colspan="5"><i>&hellip; and {len(ops) - max_ops:,} more ops</i></td></tr>'
        if len(ops) > max_ops
        else ""
    )
    table = (
        f"<table {_TABLE}><thead><tr><th {_TH}>op</th><th {_TH}>type</th><th {_TH}>inputs</th>"
        f"<th {_TH}>outputs</th><th {_TH}>device</th></tr></thead><tbody>{rows}{more}</tbody></table>"
        if ops
        else ""
    )
    pic = ""
    if picture:
        svg = _svg_or_none(graph)
        if svg is not None:
            pic = f"<details open><summary>picture</summary>{svg}</details>"
    state = " (finalized)" if graph.finalized else ""
    return (
        f'<div class="jaxsess-graph"><div><b>Graph</b>{state}: {len(ops):,} ops</div>'
        f"<div>ops by type: {types}</div>{table}{pic}</div>"
    )


def _scope_of(name: str, scopes: set[str]) -> str:
    # TensorBoard's grouping: an op whose name is also a scope ("w" next to
    # "w/Assign") sits inside that scope's box.
    return name if name in scopes else name.rpartition("/")[0]


def _depth(scope: str) -> int:
    return scope.count("/") + 1 if scope else 0


class _Layout:
    """Which node stands for each op when scopes deeper than ``max_depth`` are folded."""

    def __init__(self, ops: list[Operation], max_depth: int | None) -> None:
        scopes: set[str] = set()
        for op in ops:
            parts = op.name.split("/")[:-1]
            for i in range(1, len(parts) + 1):
                scopes.add("/".join(parts[:i]))
        self.scopes = scopes
        self.max_depth = max_depth
        self.node_of: dict[Operation, str] = {}  # op -> node id
        self.folded: dict[str, list[Operation]] = {}  # folded scope -> its ops
        self.members: dict[str, list[Any]] = {}  # cluster scope -> ops and folded scopes drawn in it
        for op in ops:
            scope = _scope_of(op.name, scopes)
            if max_depth is not None and _depth(scope) > max_depth:
                top = "/".join(scope.split("/")[: max_depth + 1])
                self.node_of[op] = top + "/"  # op names never end in "/": no clash
                if top not in self.folded:
                    self.folded[top] = []
                    self.members.setdefault(top.rpartition("/")[0], []).append(top)
                self.folded[top].append(op)
            else:
                self.node_of[op] = op.name
                self.members.setdefault(scope, []).append(op)
        self.children: dict[str, list[str]] = {}
        for scope in sorted(scopes):
            if max_depth is None or _depth(scope) <= max_depth:
                self.children.setdefault(scope.rpartition("/")[0], []).append(scope)

    @property
    def num_nodes(self) -> int:
        return len(set(self.node_of.values()))

    @property
    def deepest(self) -> int:
        return max((_depth(s) for s in self.scopes), default=0)


_STYLES: dict[str, dict[str, str]] = {
    "Placeholder": {"shape": "ellipse", "style": "filled", "fillcolor": "#cfe2f3"},
    "PlaceholderWithDefault": {"shape": "ellipse", "style": "filled", "fillcolor": "#cfe2f3"},
    "VariableV2": {"shape": "box3d", "style": "filled", "fillcolor": "#fff2cc"},
    "Const": {"shape": "box", "style": "filled,rounded", "fillcolor": "#eeeeee", "fontcolor": "#555555"},
    "NoOp": {"shape": "octagon"},
}
_DEFAULT_STYLE = {"shape": "box", "style": "rounded"}


def _import_graphviz() -> Any:
    try:
        import graphviz
    except ImportError:
        raise ImportError(NO_GRAPHVIZ_PACKAGE) from None
    return graphviz


def visualize(
    graph: Graph, *, max_depth: int | None = None, show_shapes: bool = True, rankdir: str = "TB"
) -> Any:
    """The graph as a ``graphviz.Digraph``; name scopes become clusters.

    Each op is a node labelled with its short name and type (placeholders are
    blue ellipses, variables yellow boxes, constants grey); data edges are
    solid (labelled ``dtype[shape]`` with ``show_shapes``), control
    dependencies dashed. Ops of a name scope ``a/b`` are drawn inside the
    subgraph ``cluster_a/b``, nested in ``cluster_a``. An op whose name is
    also a scope (a variable ``w`` next to ``w/Assign``) is drawn inside that
    scope. The result displays itself in Jupyter and renders with
    ``.pipe(format="svg")`` or ``.render(...)``.

    Args:
      graph: the :class:`Graph` to draw.
      max_depth: fold every scope nested deeper than this many levels into
        one node (a folder labelled with its op count), as TensorBoard
        collapses scopes: ``0`` draws each top-level scope as one node,
        ``1`` opens the top-level scopes, ... ``None`` (default) draws every op.
      show_shapes: label data edges with the tensor's dtype and static shape.
      rankdir: graphviz's layout direction (``"TB"`` top to bottom, ``"LR"``).

    Returns:
      A ``graphviz.Digraph``.

    Raises:
      ImportError: the ``graphviz`` Python package is not installed.
      RuntimeError: graphviz's ``dot`` program is not on ``PATH`` (the
        message says how to install it).
      ValueError: a negative ``max_depth``.
    """
    if max_depth is not None and max_depth < 0:
        raise ValueError(f"max_depth must be None or >= 0, got {max_depth!r}.")
    graphviz = _import_graphviz()
    if shutil.which("dot") is None:
        raise RuntimeError(NO_DOT_PROGRAM)
    layout = _Layout(list(graph._ops), max_depth)
    dot = graphviz.Digraph(
        name="jaxsess_graph",
        graph_attr={"rankdir": rankdir, "fontname": "Helvetica", "fontsize": "11"},
        node_attr={"fontname": "Helvetica", "fontsize": "10", "height": "0.3"},
        edge_attr={"fontname": "Helvetica", "fontsize": "8", "color": "#555555", "fontcolor": "#777777"},
    )

    def node(g: Any, item: Any) -> None:
        if isinstance(item, str):  # a folded scope
            ops = layout.folded[item]
            kinds = ", ".join(f"{t} {n}" for t, n in Counter(op.type for op in ops).most_common(4))
            g.node(
                item + "/",
                label=f"{item.rpartition('/')[2]}\n{len(ops)} ops",
                tooltip=f"{item}: {kinds}",
                shape="folder",
                style="filled",
                fillcolor="#e4e8f4",
            )
            return
        op = item
        short = op.name.rpartition("/")[2]
        label = short if short == op.type else f"{short}\n{op.type}"
        if op.device:
            label += f"\n{device_label(op.device)}"
        g.node(op.name, label=label, tooltip=f"{op.name} ({op.type})", **_STYLES.get(op.type, _DEFAULT_STYLE))

    def fill(g: Any, scope: str) -> None:
        for item in layout.members.get(scope, ()):
            node(g, item)
        for child in layout.children.get(scope, ()):
            with g.subgraph(name=f"cluster_{child}") as sub:
                sub.attr(label=child.rpartition("/")[2], tooltip=child, style="rounded", color="#999999")
                fill(sub, child)

    fill(dot, "")
    data: dict[tuple[str, str], list[Any]] = {}
    control: dict[tuple[str, str], None] = {}
    node_of = layout.node_of
    for op in graph._ops:
        dst = node_of[op]
        for t in op.inputs:
            src = node_of[t.op]
            if src != dst:
                tensors = data.setdefault((src, dst), [])
                if t not in tensors:
                    tensors.append(t)
        for c in op.control_inputs:
            src = node_of[c]
            if src != dst:
                control[(src, dst)] = None
    for (src, dst), tensors in data.items():
        if not show_shapes:
            label = ""
        elif len(tensors) == 1:
            label = _tensor_text(tensors[0])
        else:
            label = f"{len(tensors)} tensors"
        dot.edge(src, dst, label=label, tooltip=", ".join(t.name for t in tensors))
    for src, dst in control:
        dot.edge(src, dst, style="dashed", arrowhead="odot", color="#999999")
    return dot


def picture_depth(graph: Graph) -> int | None | bool:
    """The ``max_depth`` of the automatic picture: every op (``None``) when that
    gives at most :data:`MAX_PICTURE_NODES` nodes, else the deepest folding
    that does; ``False`` when even folding every top-level scope leaves more
    than ``3 * MAX_PICTURE_NODES`` nodes, or the graph has more than
    :data:`MAX_PICTURE_OPS` ops (no automatic picture)."""
    ops = list(graph._ops)
    if len(ops) > MAX_PICTURE_OPS:
        return False
    full = _Layout(ops, None)
    if full.num_nodes <= MAX_PICTURE_NODES:
        return None
    for depth in range(full.deepest - 1, -1, -1):
        if _Layout(ops, depth).num_nodes <= MAX_PICTURE_NODES:
            return depth
    return 0 if _Layout(ops, 0).num_nodes <= 3 * MAX_PICTURE_NODES else False


_svg_cache: dict[int, tuple[Any, int, str]] = {}


def _svg_or_none(graph: Graph) -> str | None:
    """The SVG of the automatic picture, or None: graphviz missing, too large, or a render error."""
    hit = _svg_cache.get(id(graph))
    if hit is not None and hit[0]() is graph and hit[1] == graph.version:
        return hit[2]
    depth = picture_depth(graph)
    if depth is False:
        return None
    try:
        dot = visualize(graph, max_depth=depth)
        svg: str = dot.pipe(format="svg", encoding="utf-8")
    except (ImportError, RuntimeError, OSError):
        return None
    # Wide graphs shrink to the width of the output area instead of scrolling.
    svg = svg.replace("<svg ", '<svg style="max-width:100%;height:auto" ', 1)
    _svg_cache[id(graph)] = (weakref.ref(graph), graph.version, svg)
    if len(_svg_cache) > 32:
        for key in [k for k, v in _svg_cache.items() if v[0]() is None]:
            del _svg_cache[key]
    return svg


# -- what the classes' display methods call ------------------------------------------


def session_repr(session: BaseSession) -> str:
    """``BaseSession.__repr__``: :func:`session_text`, or a placeholder for a
    session whose ``__init__`` raised before its registry existed."""
    if getattr(session, "_registry", None) is None:
        return f"<{type(session).__name__} (not initialised)>"
    return session_text(session)


def session_repr_html(session: BaseSession) -> str:
    """``BaseSession._repr_html_``: :func:`session_html` (or the placeholder)."""
    if getattr(session, "_registry", None) is None:
        return f"<div>{_e(session_repr(session))}</div>"
    return session_html(session)


def graph_svg(graph: Graph) -> str | None:
    """``Graph._repr_svg_``: the automatic picture, or ``None`` without graphviz
    or for a graph too large to draw automatically."""
    return _svg_or_none(graph)
