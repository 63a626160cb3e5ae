"""Tests of the displays: session/stats ``__repr__`` and ``_repr_html_``, graph
HTML, graph pictures (graphviz), and the messages when graphviz is missing."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import jax
import jax.numpy as jnp
import pytest

import jaxsess as tf
from jaxsess import EagerSession, ResourceCleanupStrategy, SessionStats
from jaxsess._core import _display as _display

needs_dot = pytest.mark.skipif(
    shutil.which("dot") is None, reason="graphviz's `dot` program is not installed"
)


def _graphviz_or_skip() -> None:
    pytest.importorskip("graphviz", reason="the graphviz Python package is not installed")


def small_graph() -> tf.Graph:
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        with tf.name_scope("layer"):
            w = tf.Variable(tf.ones([3, 2]), name="weights")
            y = tf.matmul(x, w)
            with tf.name_scope("act"):
                z = tf.nn.relu(y)
        with tf.control_dependencies([z.op]):
            tf.no_op(name="after")
    return g


# -- formatting -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "text"),
    [(0, "0 B"), (1023, "1023 B"), (1024, "1.0 KiB"), (1536, "1.5 KiB"), (3 * 2**20, "3.0 MiB"), (5 * 2**30, "5.0 GiB")],
)
def test_format_bytes(n: int, text: str) -> None:
    assert _display.format_bytes(n) == text


def test_displays_are_the_classes_own_methods() -> None:
    # Defined in the class bodies (the core), not attached by whoever imports what.
    assert "_repr_html_" in vars(tf.BaseSession) and "__repr__" in vars(tf.BaseSession)
    for cls in (EagerSession, tf.Session, tf.InteractiveSession):
        assert cls._repr_html_ is tf.BaseSession._repr_html_ and cls.__repr__ is tf.BaseSession.__repr__
    assert "_repr_html_" in vars(SessionStats)
    for name in ("_repr_html_", "_repr_svg_", "visualize"):
        assert name in vars(tf.Graph), name
    assert tf.Graph.visualize.__doc__ and "cluster_" in tf.Graph.visualize.__doc__


def test_displays_work_with_the_core_alone() -> None:
    code = (
        "import sys\n"
        "from jaxsess._core.graph._graph import Graph\n"
        "from jaxsess._core.runtime._eager import EagerSession\n"
        "with EagerSession() as s:\n"
        "    assert 'EagerSession' in repr(s) and 'strategy' in s._repr_html_()\n"
        "    assert '<table' in s.stats()._repr_html_()\n"
        "assert 'ops' in Graph()._repr_html_()\n"
        "assert not [m for m in sys.modules if m.startswith('jaxsess._tf1')]\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


# -- sessions and stats -----------------------------------------------------------


def test_session_html_and_repr_show_the_figures(strategy: ResourceCleanupStrategy) -> None:
    devices = jax.devices()
    with EagerSession(cleanup=strategy, name="shown") as s:
        f = s.jit(lambda v: v * 2.0)
        a = f(jnp.ones((1000,), jnp.float32))  # 4,000 bytes
        b = f(jax.device_put(jnp.ones((256,), jnp.float32), devices[-1]))  # 1,024 bytes
        jax.block_until_ready((a, b))
        st = s.stats()
        assert st.live_buffers == 2 and st.live_bytes == 5024
        page = s._repr_html_()  # type: ignore[attr-defined]
        text = repr(s)
        for shown in (page, text):
            assert "shown" in shown and strategy.name in shown and "open" in shown
            assert str(devices[0]) in shown and str(devices[-1]) in shown
        assert ">2<" in page  # live buffers
        assert "5,024 B (4.9 KiB)" in page  # live bytes, exact and readable
        assert "4,000 B (3.9 KiB)" in page and "1,024 B (1.0 KiB)" in page  # per device
        assert "EagerSession" in page
        assert re.search(r"live_buffers=2 live_bytes=5024 \(4\.9 KiB\)", text)
        assert text.startswith("<EagerSession 'shown' open strategy=")
        stats_page = st._repr_html_()  # type: ignore[attr-defined]
        assert strategy.name in stats_page and "5,024 B" in stats_page and str(devices[-1]) in stats_page
        assert "(open)" in stats_page
    page = s._repr_html_()  # type: ignore[attr-defined]
    assert "closed" in page and "no live buffers" in page
    assert "peak bytes" in page and "5,024 B" in page  # the peak survives close
    assert repr(s).startswith("<EagerSession 'shown' closed strategy=")
    assert "(closed)" in s.stats()._repr_html_()  # type: ignore[attr-defined]


def test_repr_of_a_half_constructed_session() -> None:
    s = tf.Session.__new__(tf.Session)  # as seen by a debugger when __init__ raised early
    assert repr(s) == "<Session (not initialised)>"
    assert "not initialised" in s._repr_html_()  # type: ignore[attr-defined]


def test_displays_do_not_sweep() -> None:
    with EagerSession(cleanup=ResourceCleanupStrategy.ON_SESSION_CLOSE) as s:
        f = s.jit(lambda v: v + 1.0)
        f(jnp.ones(4))  # dropped at once: held by the session until a sweep
        assert "live_buffers=1 " in repr(s)
        assert ">1<" in s._repr_html_()  # type: ignore[attr-defined]
        assert "live_buffers=1 " in repr(s)  # the displays did not sweep
        assert s.sweep() == 1
        assert "live_buffers=0 " in repr(s)


def test_graph_session_html_shows_graph_and_memory_limit() -> None:
    g = small_graph()
    with tf.Session(graph=g, memory_limit_bytes=2**20) as sess:
        page = sess._repr_html_()  # type: ignore[attr-defined]
        assert f"{len(g.get_operations())} ops" in page
        assert "1,048,576 B (1.0 MiB)" in page
        assert "memory_limit_bytes=1048576" in repr(sess)


def test_stats_text_lists_devices() -> None:
    with EagerSession() as s:
        x = s.jit(lambda v: v * 3)(jnp.ones(8))
        text = _display.stats_text(s.stats())
        assert "live buffers       1" in text and "32 B" in text and str(x.device) in text


# -- graphs: HTML ---------------------------------------------------------------


def test_graph_html_counts_ops_by_type_and_lists_the_first() -> None:
    g = small_graph()
    page = _display.graph_html(g, picture=False)
    n = len(g.get_operations())
    assert f"{n} ops" in page
    assert "Placeholder &times; 1" in page and "VariableV2 &times; 1" in page
    assert "<code>x</code>" in page and "float32[?,3]" in page
    assert "^layer/act/Relu" in page  # the control input of `after`
    assert "more ops" not in page
    page = _display.graph_html(g, max_ops=2, picture=False)
    assert f"and {n - 2} more ops" in page
    assert "<code>after</code>" not in page


def test_empty_graph_html() -> None:
    page = tf.Graph()._repr_html_()  # type: ignore[attr-defined]
    assert "0 ops" in page and "none" in page


# -- graphs: pictures -----------------------------------------------------------------


@needs_dot
def test_visualize_draws_name_scopes_as_clusters() -> None:
    _graphviz_or_skip()
    import graphviz

    g = small_graph()
    dot = g.visualize()  # type: ignore[attr-defined]
    assert isinstance(dot, graphviz.Digraph)
    src = dot.source
    assert "subgraph cluster_layer {" in src
    assert 'subgraph "cluster_layer/act"' in src  # nested inside cluster_layer
    assert 'subgraph "cluster_layer/weights"' in src  # the variable and its Assign/read
    assert src.index("subgraph cluster_layer {") < src.index('subgraph "cluster_layer/act"')
    assert "style=dashed" in src  # the control dependency
    assert "float32[?,3]" in src  # edge labels
    assert "float32" not in g.visualize(show_shapes=False).source  # type: ignore[attr-defined]


@needs_dot
def test_repr_svg_renders_and_follows_graph_changes() -> None:
    _graphviz_or_skip()
    g = small_graph()
    svg = g._repr_svg_()  # type: ignore[attr-defined]
    assert svg is not None and "<svg" in svg and "</svg>" in svg
    assert "cluster_layer" in svg and "Placeholder" in svg
    assert g._repr_svg_() is svg  # type: ignore[attr-defined]  # cached while unchanged
    with g.as_default():
        tf.constant(1.0, name="late_addition")
    svg2 = g._repr_svg_()  # type: ignore[attr-defined]
    assert svg2 is not None and "late_addition" in svg2
    page = g._repr_html_()  # type: ignore[attr-defined]
    assert "<details open>" in page and "<svg" in page


@needs_dot
def test_max_depth_folds_nested_scopes_into_one_node() -> None:
    _graphviz_or_skip()
    g = small_graph()
    n_layer = sum(op.name.startswith("layer/") for op in g.get_operations())
    src = g.visualize(max_depth=1).source  # type: ignore[attr-defined]
    assert "subgraph cluster_layer {" in src and "cluster_layer/" not in src
    assert re.search(r'"layer/act/" \[label="act\n1 ops"', src)  # Relu, folded
    assert re.search(r'"layer/weights/" \[label="weights\n\d+ ops"', src)
    assert '"layer/act/Relu"' not in src
    assert '"layer/MatMul" -> "layer/act/"' in src  # edges go to the folded node
    assert '"layer/act/" -> after [' in src  # the control edge, from the folded node
    src0 = g.visualize(max_depth=0).source  # type: ignore[attr-defined]
    assert "subgraph" not in src0 and f'"layer/" [label="layer\n{n_layer} ops"' in src0
    assert "layer/MatMul" not in src0
    assert re.search(r'x -> "layer/" \[label="float32\[\?,3\]"', src0)
    with pytest.raises(ValueError, match="max_depth"):
        g.visualize(max_depth=-1)  # type: ignore[attr-defined]


def test_picture_depth_folds_until_the_picture_is_small(monkeypatch: pytest.MonkeyPatch) -> None:
    g = small_graph()
    assert _display.picture_depth(g) is None  # small: every op
    monkeypatch.setattr(_display, "MAX_PICTURE_NODES", 5)
    assert _display.picture_depth(g) == 0  # x, layer/, after, ... at the top level
    monkeypatch.setattr(_display, "MAX_PICTURE_NODES", 1)
    assert _display.picture_depth(g) == 0  # 3 top-level nodes: within 3 * MAX_PICTURE_NODES
    monkeypatch.setattr(_display, "MAX_PICTURE_NODES", 0)
    assert _display.picture_depth(g) is False  # even folded it is too big
    monkeypatch.setattr(_display, "MAX_PICTURE_NODES", 40)
    monkeypatch.setattr(_display, "MAX_PICTURE_OPS", 3)
    assert _display.picture_depth(g) is False


@needs_dot
def test_large_graphs_get_a_folded_picture_or_none(monkeypatch: pytest.MonkeyPatch) -> None:
    _graphviz_or_skip()
    monkeypatch.setattr(_display, "MAX_PICTURE_NODES", 5)
    g = small_graph()
    svg = g._repr_svg_()  # type: ignore[attr-defined]
    assert svg is not None and "layer/act/Relu" not in svg and "ops" in svg
    assert 'style="max-width:100%;height:auto"' in svg  # wide pictures fit the output area
    monkeypatch.setattr(_display, "MAX_PICTURE_OPS", 3)
    g = small_graph()
    assert g._repr_svg_() is None  # type: ignore[attr-defined]
    assert "<svg" not in g._repr_html_()  # type: ignore[attr-defined]
    assert g.visualize() is not None  # type: ignore[attr-defined]


def test_missing_dot_program_gives_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    _graphviz_or_skip()
    monkeypatch.setenv("PATH", str(tmp_path))  # no `dot` anywhere
    g = small_graph()
    with pytest.raises(RuntimeError, match=r"graphviz's `dot` program.*apt-get install graphviz"):
        g.visualize()  # type: ignore[attr-defined]
    assert g._repr_svg_() is None  # type: ignore[attr-defined]  # Jupyter falls back to the HTML
    page = g._repr_html_()  # type: ignore[attr-defined]
    assert "ops by type" in page and "<svg" not in page


def test_missing_graphviz_package_gives_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "graphviz", None)  # `import graphviz` raises ImportError
    g = small_graph()
    with pytest.raises(ImportError, match="pip install graphviz"):
        g.visualize()  # type: ignore[attr-defined]
    assert g._repr_svg_() is None  # type: ignore[attr-defined]
    assert "ops by type" in g._repr_html_()  # type: ignore[attr-defined]


def test_device_labels_say_where_ops_run() -> None:
    n = len(jax.devices("cpu"))
    assert _display.device_label("") == ""
    assert _display.device_label("/cpu:0") == "CPU:0"
    assert _display.device_label(f"/job:localhost/replica:0/task:0/device:CPU:{n - 1}") == f"CPU:{n - 1}"
    assert _display.device_label("/job:localhost") == "/job:localhost"  # no device type: as written
    if jax.default_backend() == "cpu":  # no GPU: say so, and where the op runs with soft placement
        assert _display.device_label("/device:GPU:0") == "GPU:0 absent \u2192 CPU:0"
        assert _display.device_label("/gpu:*") == "GPU:* absent \u2192 CPU:0"
    assert _display.device_label(f"/cpu:{n + 5}") == f"CPU:{n + 5} absent \u2192 {_display.device_label('/cpu:0')}"


def test_graph_table_labels_an_absent_gpu_with_the_device_it_falls_back_to() -> None:
    with tf.device(f"/cpu:{len(jax.devices()) + 3}"):
        tf.constant(1.0, name="pinned")
    page = _display.graph_html(tf.get_default_graph(), picture=False)
    assert f"CPU:{len(jax.devices()) + 3} absent \u2192 CPU:0" in page
