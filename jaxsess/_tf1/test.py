"""``tf.compat.v1.test``: the gradient checker (``compute_gradient``,
``compute_gradient_error``) and a minimal ``TestCase`` for TF1-style tests.

The theoretical Jacobian comes from one vmapped ``jax.vjp``
(:func:`jaxsess._tf1.ops.gradients.jacobian`) where TF runs one backward pass per
element of ``y``; the numerical one perturbs each element of ``x`` by
``±delta``, as TF's ``gradient_checker``.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import unittest
from collections.abc import Iterator, Sequence
from typing import Any

import jax
import numpy as np

from jaxsess._core.graph._builder import convert_to_tensor
from jaxsess._core.graph._graph import Graph, Tensor, get_default_graph, reset_default_graph
from jaxsess._core.runtime._graph_session import Session
from jaxsess._core.runtime._session import get_default_session
from jaxsess._tf1.ops.gradients import jacobian

__all__ = ["compute_gradient", "compute_gradient_error", "TestCase", "main", "is_gpu_available", "gpu_device_name",
           "get_temp_dir", "is_built_with_cuda", "is_built_with_rocm", "is_built_with_gpu_support", "is_built_with_xla"]

DEFAULT_GRAPH_SEED = 87654321  # TF's random_seed.DEFAULT_GRAPH_SEED


def _session() -> Any:
    sess = get_default_session()
    if sess is None:
        raise ValueError(
            "tf.test.compute_gradient runs the graph in the default session: use it inside "
            "`with tf.Session() as sess:` (or `sess.as_default()`)."
        )
    return sess


def _one(x: Tensor, x_shape: Sequence[int], y: Tensor, y_shape: Sequence[int], x_init_value: Any,
         delta: float, extra_feed_dict: dict[Any, Any]) -> tuple[np.ndarray, np.ndarray]:
    for t, what in ((x, "x"), (y, "y")):
        if not t.dtype.is_floating:
            raise TypeError(f"Don't support type {t.dtype.name} for {what} (compute_gradient takes real floating types)")
    x_dtype = np.dtype(x.dtype.np_dtype)
    if x_init_value is not None:
        x_data = np.asarray(x_init_value, dtype=x_dtype)
        if list(x_shape) != list(x_data.shape):
            raise ValueError(f"x_shape = {list(x_shape)}, init_data shape = {list(x_data.shape)}")
    else:
        x_data = np.random.random_sample(tuple(x_shape)).astype(x_dtype)
    x_size, y_size = int(np.prod(x_shape)), int(np.prod(y_shape))
    jac = jacobian(y, x, name="compute_gradient")
    if jac is None:
        raise ValueError(f"y ('{y.name}') does not depend on x ('{x.name}'): no gradient to check")
    sess = _session()
    theoretical = np.asarray(sess.run(jac, {**extra_feed_dict, x: x_data}))
    theoretical = theoretical.reshape(y_size, x_size).T.astype(x_dtype)
    numerical = np.zeros((x_size, y_size), dtype=x_dtype)
    scale = np.asarray(2 * delta, dtype=np.dtype(y.dtype.np_dtype))
    for row in range(x_size):
        pos, neg = x_data.copy(), x_data.copy()
        pos.reshape(-1)[row] += delta
        neg.reshape(-1)[row] -= delta
        y_pos = np.asarray(sess.run(y, {**extra_feed_dict, x: pos}))
        y_neg = np.asarray(sess.run(y, {**extra_feed_dict, x: neg}))
        numerical[row, :] = ((y_pos - y_neg) / scale).reshape(-1)
    return theoretical, numerical


def compute_gradient(
    x: Any,
    x_shape: Any,
    y: Any,
    y_shape: Sequence[int],
    x_init_value: Any = None,
    delta: float = 1e-3,
    init_targets: Sequence[Any] | None = None,
    extra_feed_dict: dict[Any, Any] | None = None,
) -> Any:
    """The theoretical and the numerical Jacobian of ``y`` with respect to
    ``x``, as ``tf.compat.v1.test.compute_gradient``, in the default session.

    Args:
      x: a tensor (fed with ``x_init_value``, else uniform ``[0, 1)`` values
        from NumPy's global generator), or a list of tensors.
      x_shape: ``x``'s shape (a list of shapes for a list of ``x``).
      y: a tensor of shape ``y_shape``.
      delta: the perturbation of each element of ``x`` (central differences).
      init_targets: ops run first (initialisers).
      extra_feed_dict: more feeds for every run.

    Returns:
      ``(theoretical, numerical)``, NumPy arrays of shape ``(x_size,
      y_size)`` in ``x``'s dtype; a list of such pairs for a list of ``x``.

    Raises:
      ValueError: no default session, ``x_init_value`` does not have
        ``x_shape``, or ``y`` does not depend on ``x``.
      TypeError: ``x`` or ``y`` is not of a real floating type (TF also
        takes complex ones).
    """
    extra = dict(extra_feed_dict or {})
    for op in init_targets or ():
        _session().run(op)
    if isinstance(x, list):
        inits = x_init_value if x_init_value is not None else [None] * len(x)
        return [_one(convert_to_tensor(xi), si, convert_to_tensor(y), y_shape, ii, delta, extra)
                for xi, si, ii in zip(x, x_shape, inits)]
    return _one(convert_to_tensor(x), x_shape, convert_to_tensor(y), y_shape, x_init_value, delta, extra)


def compute_gradient_error(
    x: Any,
    x_shape: Any,
    y: Any,
    y_shape: Sequence[int],
    x_init_value: Any = None,
    delta: float = 1e-3,
    init_targets: Sequence[Any] | None = None,
    extra_feed_dict: dict[Any, Any] | None = None,
) -> Any:
    """The largest absolute difference between the theoretical and the
    numerical Jacobian (:func:`compute_gradient`), as
    ``tf.compat.v1.test.compute_gradient_error``: a NumPy scalar of ``x``'s
    dtype (``0`` when both are empty)."""
    grad = compute_gradient(x, x_shape, y, y_shape, x_init_value, delta, init_targets, extra_feed_dict)
    pairs = [grad] if isinstance(grad, tuple) else grad
    error: Any = 0
    for j_t, j_n in pairs:
        if j_t.size or j_n.size:
            error = np.maximum(error, np.fabs(j_t - j_n).max())
    return error  # type: ignore[no-any-return]


class TestCase(unittest.TestCase):
    """A ``unittest.TestCase`` for graph-mode tests, as a subset of
    ``tf.test.TestCase``: each test starts on a new default graph with TF's
    test seed (87654321, also NumPy's); ``session``/``cached_session``,
    ``evaluate`` and TF's array assertions."""

    def setUp(self) -> None:
        super().setUp()
        np.random.seed(DEFAULT_GRAPH_SEED)
        with contextlib.suppress(AssertionError):  # inside a default graph or session: keep it
            reset_default_graph()
        get_default_graph().seed = DEFAULT_GRAPH_SEED
        self._cached: Session | None = None
        self._temp_dir: str | None = None

    def tearDown(self) -> None:
        if self._cached is not None:
            self._cached.close()
            self._cached = None
        if self._temp_dir is not None:
            shutil.rmtree(self._temp_dir, ignore_errors=True)
        super().tearDown()

    @contextlib.contextmanager
    def session(self, graph: Graph | None = None, config: Any = None, use_gpu: bool = True,
                force_gpu: bool = False) -> Iterator[Session]:
        """A new session on ``graph`` (default: the default graph), made the
        default session and closed at the end of the block."""
        with Session(graph=graph, config=config) as sess:
            yield sess

    @contextlib.contextmanager
    def cached_session(self, graph: Graph | None = None, config: Any = None, use_gpu: bool = True,
                       force_gpu: bool = False) -> Iterator[Session]:
        """One session per test (closed in ``tearDown``), made the default inside the block."""
        if self._cached is None or (graph is not None and self._cached.graph is not graph):
            if self._cached is not None:
                self._cached.close()
            self._cached = Session(graph=graph, config=config)
        with self._cached.as_default(), self._cached.graph.as_default():
            yield self._cached

    def test_session(self, graph: Graph | None = None, config: Any = None, use_gpu: bool = True,
                     force_gpu: bool = False) -> Any:
        """:meth:`cached_session` (TF's older name). unittest collects it
        as a test: run as one, it skips itself, as TF's."""
        if self.id().endswith(".test_session"):
            self.skipTest('Tests that have the name "test_session" are automatically skipped by TensorFlow test '
                          "fixture, as the name is reserved for creating sessions within tests.")
        return self.cached_session(graph, config, use_gpu, force_gpu)

    def evaluate(self, tensors: Any) -> Any:
        """``tensors`` run in the default session (or the cached one)."""
        sess = get_default_session()
        if sess is not None:
            return sess.run(tensors)
        with self.cached_session() as cached:
            return cached.run(tensors)

    def get_temp_dir(self) -> str:
        """A temporary directory for this test (removed in ``tearDown``)."""
        if self._temp_dir is None:
            self._temp_dir = tempfile.mkdtemp(prefix=f"{type(self).__name__}.")
        return self._temp_dir

    def _value(self, a: Any) -> Any:
        if isinstance(a, Tensor) or hasattr(a, "_as_graph_element"):
            return self.evaluate(a)
        return a

    def assertAllClose(self, a: Any, b: Any, rtol: float = 1e-6, atol: float = 1e-6,  # noqa: N802 - TF names
                       msg: str | None = None) -> None:
        """``a`` and ``b`` (arrays, tensors, or nested lists/tuples/dicts of
        them) have the same structure and shapes, and close values."""
        a, b = self._value(a), self._value(b)
        if isinstance(a, dict) or isinstance(b, dict):
            self.assertIsInstance(a, dict, msg)
            self.assertIsInstance(b, dict, msg)
            self.assertEqual(sorted(a), sorted(b), msg)
            for k in a:
                self.assertAllClose(a[k], b[k], rtol=rtol, atol=atol, msg=msg)
            return
        try:
            a_arr, b_arr = np.asarray(a), np.asarray(b)
            if a_arr.dtype == object or b_arr.dtype == object:
                raise TypeError("not an array")
        except (TypeError, ValueError):  # ragged, or holding tensors: element by element
            if not (isinstance(a, list | tuple) and isinstance(b, list | tuple)):
                raise
            self.assertEqual(len(a), len(b), msg)
            for x, y in zip(a, b):
                self.assertAllClose(x, y, rtol=rtol, atol=atol, msg=msg)
            return
        self.assertEqual(a_arr.shape, b_arr.shape, f"shape mismatch: {a_arr.shape} vs {b_arr.shape}. {msg or ''}")
        np.testing.assert_allclose(a_arr, b_arr, rtol=rtol, atol=atol, err_msg=msg or "", equal_nan=True)

    def assertAllEqual(self, a: Any, b: Any, msg: str | None = None) -> None:  # noqa: N802 - TF name
        """Same shape and equal elements."""
        a_arr, b_arr = np.asarray(self._value(a)), np.asarray(self._value(b))
        self.assertEqual(a_arr.shape, b_arr.shape, f"shape mismatch: {a_arr.shape} vs {b_arr.shape}. {msg or ''}")
        np.testing.assert_array_equal(a_arr, b_arr, err_msg=msg or "")

    def assertNear(self, f1: float, f2: float, err: float, msg: str | None = None) -> None:  # noqa: N802 - TF name
        """``|f1 - f2| <= err``."""
        self.assertTrue(abs(f1 - f2) <= err, f"{f1} != {f2} +/- {err}{'' if msg is None else ' (' + msg + ')'}")

    def assertArrayNear(self, farray1: Sequence[float], farray2: Sequence[float], err: float,  # noqa: N802
                        msg: str | None = None) -> None:
        """Same length and each pair within ``err``."""
        self.assertEqual(len(farray1), len(farray2), msg)
        for f1, f2 in zip(farray1, farray2):
            self.assertNear(float(f1), float(f2), err, msg)

    def assertShapeEqual(self, np_array: Any, tf_tensor: Tensor, msg: str | None = None) -> None:  # noqa: N802
        """The NumPy array's shape is the tensor's static shape."""
        self.assertEqual(list(np.shape(np_array)), tf_tensor.shape.as_list(), msg)


def main(argv: list[str] | None = None) -> None:
    """Runs the tests of ``__main__``, as ``tf.test.main`` (``unittest.main``)."""
    unittest.main(argv=argv)


def _gpus() -> list[Any]:
    return [d for d in jax.devices() if d.platform == "gpu"]


def is_gpu_available(cuda_only: bool = False, min_cuda_compute_capability: tuple[int, int] | None = None) -> bool:
    """Whether JAX's default backend has a GPU (CUDA or ROCm; ``cuda_only``: CUDA), as
    ``tf.test.is_gpu_available``.

    Args:
      min_cuda_compute_capability: ``(major, minor)``: only GPUs with at least this CUDA
        compute capability count (read from ``jax.Device.compute_capability``).
    """
    for d in _gpus():
        kind = getattr(d.client, "platform_version", "").lower()
        if cuda_only and "rocm" in kind:
            continue
        if min_cuda_compute_capability is not None:
            cc = getattr(d, "compute_capability", None)
            if cc is None or tuple(int(x) for x in str(cc).split(".")) < tuple(min_cuda_compute_capability):
                continue
        return True
    return False


def gpu_device_name() -> str:
    """``'/device:GPU:0'`` when a GPU is available, else ``''``, as ``tf.test.gpu_device_name``."""
    return "/device:GPU:0" if _gpus() else ""


def get_temp_dir() -> str:
    """A temporary directory for this process's tests (made once, kept), as ``tf.test.get_temp_dir``."""
    global _TEMP_DIR
    if _TEMP_DIR is None:
        _TEMP_DIR = tempfile.mkdtemp(prefix="tf")
    return _TEMP_DIR


_TEMP_DIR: str | None = None


def is_built_with_cuda() -> bool:
    """Whether JAX has a CUDA backend here (jaxsess is not built; this asks JAX), as
    ``tf.test.is_built_with_cuda``."""
    return any("rocm" not in getattr(d.client, "platform_version", "").lower() for d in _gpus())


def is_built_with_rocm() -> bool:
    """Whether JAX has a ROCm backend here, as ``tf.test.is_built_with_rocm``."""
    return any("rocm" in getattr(d.client, "platform_version", "").lower() for d in _gpus())


def is_built_with_gpu_support() -> bool:
    """Whether JAX has a GPU backend here, as ``tf.test.is_built_with_gpu_support``."""
    return bool(_gpus())


def is_built_with_xla() -> bool:
    """``True``: every jaxsess graph is compiled by XLA, as ``tf.test.is_built_with_xla``."""
    return True
