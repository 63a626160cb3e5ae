"""Tests of device placement and ``ConfigProto``, as ``tf.compat.v1``.

The conftest gives JAX 8 CPU devices, so ``/cpu:0`` … ``/cpu:7`` exist and
any GPU does not.
"""

from __future__ import annotations

import re
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxsess as tf
from jaxsess import errors


def cpu(i: int) -> jax.Device:
    return jax.devices("cpu")[i]


def build_on(spec: str | None) -> tuple[tf.Graph, tf.Tensor, tf.Tensor]:
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [3], name="x")
        with tf.device(spec):
            y = tf.add(x, 1.0, name="y")
    return g, x, y


def test_conftest_gives_eight_cpu_devices() -> None:
    assert len(jax.devices("cpu")) == 8


@pytest.mark.parametrize(
    ("spec", "index"),
    [
        ("/cpu:0", 0),
        ("/cpu:3", 3),
        ("/CPU:7", 7),
        ("/device:CPU:5", 5),
        ("/job:localhost/replica:0/task:0/device:CPU:2", 2),
        ("cpu:4", 4),
    ],
)
def test_device_string_resolves_to_jax_device(spec: str, index: int) -> None:
    g, x, y = build_on(spec)
    with tf.Session(graph=g, device_fetches=True) as s:
        out = s.run(y, {x: [1.0, 2.0, 3.0]})
        assert out.devices() == {cpu(index)}
        np.testing.assert_array_equal(out, [2.0, 3.0, 4.0])
        assert s.owns(out)


def test_result_lands_on_cpu3_without_feeds() -> None:
    g = tf.Graph()
    with g.as_default(), tf.device("/cpu:3"):
        k = tf.constant([5.0]) * 2.0
    with tf.Session(graph=g, device_fetches=True) as s:
        out = s.run(k)
        assert out.devices() == {cpu(3)}
        assert float(out[0]) == 10.0
        assert str(cpu(3)) in s.stats().devices


def test_make_callable_honours_device() -> None:
    g, x, y = build_on("/cpu:6")
    with tf.Session(graph=g, device_fetches=True) as s:
        f = s.make_callable(y, [x])
        out = f(np.zeros(3, np.float32))
        assert out.devices() == {cpu(6)}


def test_feed_committed_elsewhere_is_moved_to_the_op_device() -> None:
    g, x, y = build_on("/cpu:3")
    a = jax.device_put(jnp.arange(3, dtype=jnp.float32), cpu(1))
    with tf.Session(graph=g, device_fetches=True) as s:
        out = s.run(y, {x: a})
        assert out.devices() == {cpu(3)}
        np.testing.assert_array_equal(out, [1.0, 2.0, 3.0])
    assert not a.is_deleted()
    assert a.devices() == {cpu(1)}


def test_feeds_committed_to_different_devices() -> None:
    # TF1 copies feeds to where the ops run; arrays committed to different
    # devices must not make the run fail.
    g = tf.Graph()
    with g.as_default():
        a = tf.placeholder(tf.float32, [3])
        b = tf.placeholder(tf.float32, [3])
        c = a + b
    va = jax.device_put(jnp.ones(3), cpu(1))
    vb = jax.device_put(jnp.full(3, 2.0), cpu(2))
    with tf.Session(graph=g, device_fetches=True) as s:
        np.testing.assert_array_equal(s.run(c, {a: va, b: vb}), [3.0, 3.0, 3.0])
        f = s.make_callable(c, [a, b])
        np.testing.assert_array_equal(f(va, vb), [3.0, 3.0, 3.0])
    assert not va.is_deleted() and not vb.is_deleted()


def test_ops_on_several_devices_still_run() -> None:
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2])
        with tf.device("/cpu:1"):
            a = x * 2.0
        with tf.device("/cpu:2"):
            b = a + 1.0
    with tf.Session(graph=g, device_fetches=True) as s:
        np.testing.assert_array_equal(s.run(b, {x: [1.0, 2.0]}), [3.0, 5.0])


def test_device_wildcard_index() -> None:
    g, x, y = build_on("/device:CPU:*")
    with tf.Session(graph=g, device_fetches=True) as s:
        out = s.run(y, {x: np.zeros(3)})
        assert out.devices() == {cpu(0)}


@pytest.mark.parametrize("spec", ["/device:GPU:0", "/gpu:1", "/cpu:99", "/device:TPU:0"])
def test_missing_device_raises_invalid_argument(spec: str) -> None:
    g, x, y = build_on(spec)
    with tf.Session(graph=g, device_fetches=True) as s:
        with pytest.raises(errors.InvalidArgumentError) as info:
            s.run(y, {x: np.zeros(3)})
        msg = str(info.value)
        # The first op of the scope in creation order is named (the Const of 1.0, y/y as TF names it, or y).
        assert re.match(r"Cannot assign a device for operation (y/y|y): ", msg), msg
        assert "/job:localhost/replica:0/task:0/device:CPU:0" in msg  # lists what exists
        assert "/job:localhost/replica:0/task:0/device:CPU:7" in msg
        assert "allow_soft_placement" in msg
        assert info.value.error_code == errors.INVALID_ARGUMENT
        # Failing placement leaves no plan behind, and the session stays usable.
        assert len(s._plans) == 0
        np.testing.assert_array_equal(s.run(x, {x: np.ones(3)}), np.ones(3))


def test_missing_device_is_reported_for_make_callable() -> None:
    g, x, y = build_on("/device:GPU:0")
    with tf.Session(graph=g, device_fetches=True) as s, pytest.raises(errors.InvalidArgumentError, match="Cannot assign a device"):
        s.make_callable(y, [x])


@pytest.mark.parametrize("spec", ["/device:GPU:0", "/cpu:99"])
def test_soft_placement_falls_back_to_default_device(spec: str) -> None:
    g, x, y = build_on(spec)
    config = tf.ConfigProto(allow_soft_placement=True)
    with tf.Session(graph=g, config=config, device_fetches=True) as s:
        out = s.run(y, {x: [1.0, 2.0, 3.0]})
        np.testing.assert_array_equal(out, [2.0, 3.0, 4.0])
        assert out.devices() == {jax.devices()[0]}


def test_soft_placement_keeps_existing_devices() -> None:
    g, x, y = build_on("/cpu:4")
    with tf.Session(graph=g, config=tf.ConfigProto(allow_soft_placement=True), device_fetches=True) as s:
        assert s.run(y, {x: np.zeros(3)}).devices() == {cpu(4)}


# -- log_device_placement ---------------------------------------------------------------


LINE = re.compile(r"^(\S+): \((\w+)\): (/job:localhost/replica:0/task:0/device:CPU:\d+)$")


def _placement_lines(text: str) -> list[tuple[str, str, str]]:
    out = []
    for line in text.splitlines():
        m = LINE.match(line)
        if m:
            out.append(m.groups())
    return out


def test_log_device_placement_once_per_plan(capsys: pytest.CaptureFixture[str]) -> None:
    g = tf.Graph()
    with g.as_default():
        a = tf.constant([1.0, 2.0], name="a")
        b = tf.constant([2.0, 3.0], name="b")
        result = tf.add(a, b, name="add")
        other = tf.multiply(a, b, name="mul")
    config = tf.ConfigProto(log_device_placement=True)
    with tf.Session(graph=g, config=config, device_fetches=True) as s:
        capsys.readouterr()
        s.run(result)
        lines = _placement_lines(capsys.readouterr().err)
        assert ("add", "AddV2", "/job:localhost/replica:0/task:0/device:CPU:0") in lines
        assert ("a", "Const", "/job:localhost/replica:0/task:0/device:CPU:0") in lines
        assert ("b", "Const", "/job:localhost/replica:0/task:0/device:CPU:0") in lines
        assert not any(name == "mul" for name, _, _ in lines)  # pruned
        s.run(result)
        s.run([result])  # the same plan
        assert _placement_lines(capsys.readouterr().err) == []
        s.run(other)  # a new plan logs its ops
        lines = _placement_lines(capsys.readouterr().err)
        assert ("mul", "Mul", "/job:localhost/replica:0/task:0/device:CPU:0") in lines


def test_log_device_placement_names_the_assigned_device(capsys: pytest.CaptureFixture[str]) -> None:
    g, x, y = build_on("/cpu:3")
    with tf.Session(graph=g, config=tf.ConfigProto(log_device_placement=True), device_fetches=True) as s:
        capsys.readouterr()
        s.run(y, {x: np.zeros(3)})
        lines = _placement_lines(capsys.readouterr().err)
        assert ("y", "AddV2", "/job:localhost/replica:0/task:0/device:CPU:3") in lines


def test_no_placement_log_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    g, x, y = build_on(None)
    with tf.Session(graph=g, device_fetches=True) as s:
        capsys.readouterr()
        s.run(y, {x: np.zeros(3)})
        assert _placement_lines(capsys.readouterr().err) == []


# -- ConfigProto ----------------------------------------------------------------------------


def test_config_proto_defaults_and_fields() -> None:
    c = tf.ConfigProto()
    assert c.allow_soft_placement is False
    assert c.log_device_placement is False
    c2 = tf.ConfigProto(allow_soft_placement=True, log_device_placement=True, device_count={"CPU": 8})
    assert c2.allow_soft_placement and c2.log_device_placement
    assert c2.device_count == {"CPU": 8}
    c3 = tf.ConfigProto(intra_op_parallelism_threads=2, inter_op_parallelism_threads=2)
    assert set(c3.ignored_fields()) == {"intra_op_parallelism_threads", "inter_op_parallelism_threads"}
    assert c.ignored_fields() == []


def test_session_keeps_its_config() -> None:
    config = tf.ConfigProto(allow_soft_placement=True)
    with tf.Session(graph=tf.Graph(), config=config) as s:
        assert s.config is config
    with tf.Session(graph=tf.Graph()) as s:
        assert isinstance(s.config, tf.ConfigProto)


def test_config_must_be_a_config_proto() -> None:
    with pytest.raises(TypeError, match="ConfigProto"):
        tf.Session(graph=tf.Graph(), config={"allow_soft_placement": True})  # type: ignore[arg-type]


def test_device_count_gpu_zero_is_accepted() -> None:
    # A common TF1 idiom to hide GPUs.
    g, x, y = build_on(None)
    with tf.Session(graph=g, config=tf.ConfigProto(device_count={"GPU": 0}), device_fetches=True) as s:
        np.testing.assert_array_equal(s.run(y, {x: np.zeros(3)}), np.ones(3))


def test_gpu_options_after_backend_start_warn(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XLA_PYTHON_CLIENT_PREALLOCATE", raising=False)
    monkeypatch.delenv("XLA_PYTHON_CLIENT_MEM_FRACTION", raising=False)
    opts = tf.GPUOptions(allow_growth=True, per_process_gpu_memory_fraction=0.5)
    assert opts.env() == {"XLA_PYTHON_CLIENT_MEM_FRACTION": "0.5", "XLA_PYTHON_CLIENT_PREALLOCATE": "false"}
    with warnings.catch_warnings(record=True) as seen:  # JAX on CPU only: the options are moot, ignored as TF does
        warnings.simplefilter("always")
        tf.Session(graph=tf.Graph(), config=tf.ConfigProto(gpu_options=opts)).close()
    assert not [w for w in seen if "GPUOptions" in str(w.message)]
    monkeypatch.setattr(jax, "default_backend", lambda: "gpu")
    with pytest.warns(RuntimeWarning, match="GPUOptions cannot take effect"):
        s = tf.Session(graph=tf.Graph(), config=tf.ConfigProto(gpu_options=opts))
    s.close()


def test_gpu_options_validate_fraction() -> None:
    with pytest.raises(ValueError, match="per_process_gpu_memory_fraction"):
        tf.Session(graph=tf.Graph(), config=tf.ConfigProto(gpu_options=tf.GPUOptions(per_process_gpu_memory_fraction=1.5)))


def test_interactive_session_with_config(capsys: pytest.CaptureFixture[str]) -> None:
    g = tf.Graph()
    with g.as_default():
        result = tf.constant([1.0, 2.0], name="a") + tf.constant([2.0, 3.0], name="b")
    config = tf.ConfigProto(allow_soft_placement=True, log_device_placement=True)
    s = tf.InteractiveSession(graph=g, config=config)
    try:
        capsys.readouterr()
        np.testing.assert_array_equal(result.eval(), [3.0, 5.0])
        assert _placement_lines(capsys.readouterr().err)
    finally:
        s.close()


def test_list_devices() -> None:
    with tf.Session(graph=tf.Graph()) as s:
        assert len(s.list_devices()) == 8


def test_device_count_matching_the_backend_is_silent() -> None:
    with tf.Session(graph=tf.Graph(), config=tf.ConfigProto(device_count={"CPU": 8})) as s:
        assert len(s.list_devices()) == 8


def test_device_count_after_backend_start_warns() -> None:
    # The backend runs 8 CPU devices already: a different count cannot apply.
    with pytest.warns(RuntimeWarning, match="device_count"):
        s = tf.Session(graph=tf.Graph(), config=tf.ConfigProto(device_count={"CPU": 2}))
    s.close()


def test_placement_only_looks_at_the_pruned_graph() -> None:
    # As TF1's testInteractivePlacePrunedGraph: an op on a missing device does
    # not stop runs that do not need it.
    g = tf.Graph()
    with g.as_default():
        with tf.device("/device:GPU:0"):
            a = tf.constant([[1.0, 2.0]])
        b = tf.constant([[1.0, 2.0]])
    s = tf.InteractiveSession(graph=g)
    try:
        np.testing.assert_array_equal(b.eval(), [[1.0, 2.0]])
        with pytest.raises(errors.InvalidArgumentError):
            a.eval()
    finally:
        s.close()


def test_config_devices() -> None:
    cpu, = tf.config.list_physical_devices("CPU")
    assert cpu.name == "/physical_device:CPU:0" and tf.config.list_physical_devices("GPU") == []
    with pytest.raises(ValueError, match=r"non-GPU"):
        tf.config.experimental.set_memory_growth(cpu, True)
    with pytest.raises(ValueError, match=r"unrecognized device"):
        tf.config.experimental.get_memory_growth(tf.config.PhysicalDevice("/physical_device:GPU:7", "GPU"))
    tf.config.set_visible_devices([cpu], "CPU")
    assert tf.config.get_visible_devices("CPU") == [cpu]
    assert tf.config.list_logical_devices() == [tf.config.LogicalDevice("/device:CPU:0", "CPU")]
    tf.config.optimizer.set_jit(True)
    assert tf.config.optimizer.get_jit() is True
    tf.config.optimizer.set_jit(False)


def test_a_jax_without_the_backend_probe_checks_device_options_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """JAX has no public "has the backend started"; where its private probe is missing the
    options are checked against the started backend (never applied late), with a warning."""
    from jax._src import xla_bridge

    monkeypatch.delattr(xla_bridge, "backends_are_initialized")
    with pytest.warns(RuntimeWarning, match="backends_are_initialized") as record:
        s = tf.Session(graph=tf.Graph(), config=tf.ConfigProto(device_count={"CPU": 8}))
    s.close()
    assert [str(w.message) for w in record if "device_count={'CPU'" in str(w.message)] == []  # 8 match: no more
