"""Tests of the TF1 names added by the ``surface1`` slice.

Values against TensorFlow live in the corpus (``v56_*``); here: errors, edge
cases, eager execution and state left unchanged by a failed run.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

import jaxsess as tf
from jaxsess import errors


def test_ensure_shape_failing_run_leaves_variables_unchanged() -> None:
    x = tf.placeholder(tf.float32, [None, 2])
    v = tf.Variable(np.zeros(2, np.float32))
    step = tf.assign_add(v, tf.reduce_sum(tf.ensure_shape(x, [3, 2]), axis=0))
    with tf.Session() as sess:
        sess.run(v.initializer)
        sess.run(step, {x: np.ones([3, 2], np.float32)})
        with pytest.raises(errors.InvalidArgumentError, match=r"not compatible with expected shape"):
            sess.run(step, {x: np.ones([4, 2], np.float32)})
        np.testing.assert_array_equal(sess.run(v), [3.0, 3.0])


def test_ensure_shape_static_mismatch_names_the_tensor() -> None:
    x = tf.placeholder(tf.float32, [None, 2], name="inp")
    with pytest.raises(ValueError, match=r"inp:0"):
        tf.ensure_shape(x, [1, 3])
    assert tf.ensure_shape(x, [5, None]).shape.as_list() == [5, 2]


@pytest.mark.parametrize(("repeats", "axis", "match"), [
    ([1, 2, 3], 0, r"3 repeats for dimension 0 of size 2"),
    ([-1, 2], 0, r"non-negative"),
    (2, 5, r"axis 5 is out of range"),
])
def test_repeat_bad_arguments(repeats: object, axis: int, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        tf.repeat(tf.constant([[1, 2], [3, 4]]), repeats, axis=axis)


def test_repeat_needs_static_repeats_and_has_gradients() -> None:
    n = tf.placeholder(tf.int32, [])
    with pytest.raises(ValueError, match=r"repeats.*known when the graph is built"):
        tf.repeat(tf.constant([1, 2]), n)
    x = tf.constant([1.0, 2.0])
    g = tf.gradients(tf.reduce_sum(tf.repeat(x, [3, 1]) * tf.constant([1.0, 2.0, 3.0, 4.0])), x)[0]
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(g), [6.0, 4.0])


def test_shape_n_of_mixed_dtypes_is_a_type_error() -> None:
    with pytest.raises(TypeError, match=r"types \[int32, float32\] that don't all match"):
        tf.shape_n([tf.constant([1]), tf.constant([1.0])])


def test_switch_case_keys_must_be_contiguous() -> None:
    with pytest.raises(ValueError, match=r"contiguous range"):
        tf.switch_case(tf.constant(0), {0: lambda: tf.constant(1), 2: lambda: tf.constant(2)})
    with pytest.raises(TypeError, match=r"branch 1 must be callable"):
        tf.switch_case(tf.constant(0), [lambda: tf.constant(1), 3])


def test_eager_ops() -> None:
    with tf.EagerSession():
        np.testing.assert_array_equal(np.asarray(tf.truncatemod(tf.constant([-7, 7]), tf.constant([2, -2]))), [-1, 1])
        np.testing.assert_array_equal(np.asarray(tf.repeat(tf.constant([1, 2]), 2)), [1, 1, 2, 2])
        assert tf.switch_case(5, [lambda: 1, lambda: 2]) == 2
        assert float(tf.py_function(lambda a: a.numpy() + 1, [tf.constant(1.0)], tf.float32)) == 2.0


def test_py_function_gives_numpy_method_and_bytes() -> None:
    seen = []

    def fn(s: object, x: object) -> object:
        seen.append((s.numpy(), type(x.numpy()).__name__))  # type: ignore[attr-defined]
        return np.float32(len(s.numpy()))  # type: ignore[attr-defined]

    out = tf.py_function(fn, [tf.constant("abc"), tf.constant(2.0)], tf.float32)
    with tf.Session() as sess:
        assert sess.run(out) == 3.0
    assert seen == [(b"abc", "float32")]
    assert out.op.type == "PyFunc" and out.name == "EagerPyFunc:0"


def test_saturate_cast_edges() -> None:
    with tf.Session() as sess:
        got = sess.run([tf.saturate_cast(tf.constant([3e9, -3e9, 7.9]), tf.int32),
                        tf.saturate_cast(tf.constant([70000, -5]), tf.uint16),
                        tf.saturate_cast(tf.constant([1e300, -1e300], tf.float64), tf.float32),
                        tf.saturate_cast(tf.constant([1 + 2j], tf.complex64), tf.float32)])
    np.testing.assert_array_equal(got[0], [2147483520, -2147483648, 7])  # float32 below 2**31, as TF
    np.testing.assert_array_equal(got[1], [65535, 0])
    assert np.all(np.isfinite(got[2])) and got[2][0] == np.finfo(np.float32).max
    np.testing.assert_array_equal(got[3], [1.0])


def test_bitcast_narrow_input_must_end_in_the_ratio() -> None:
    with pytest.raises(ValueError, match=r"last dimension of .* must be 4"):
        tf.bitcast(tf.constant([1, 2], tf.uint8), tf.int32)
    assert tf.bitcast(tf.constant(np.zeros((3, 2), np.int16)), tf.int32).shape.as_list() == [3]


def test_type_errors_name_the_op() -> None:
    with pytest.raises(TypeError, match=r"'NextAfter'"):
        tf.math.nextafter(tf.constant([1]), tf.constant([2]))
    with pytest.raises(TypeError, match=r"bessel_i0: expected"):
        tf.math.bessel_i0(tf.constant([1]))
    with pytest.raises(TypeError, match=r"unsorted_segment_sqrt_n: expected float data"):
        tf.math.unsorted_segment_sqrt_n(tf.constant([1, 2]), tf.constant([0, 0]), 1)


def test_indexed_slices() -> None:
    s = tf.IndexedSlices(tf.constant([[1.0, 1.0]]), tf.constant([2]), tf.constant([4, 2]))
    assert s.shape.as_list() == [4, 2] and s.dtype == tf.float32
    assert tf.IndexedSlices(tf.constant([[1.0, 1.0]]), tf.constant([2])).shape.as_list() == [None, 2]
    v = tf.Variable(np.ones((4, 2), np.float32))
    step = tf.train.GradientDescentOptimizer(1.0).apply_gradients([(s, v)])
    neg = tf.convert_to_tensor(-s)
    with tf.Session() as sess:
        sess.run(v.initializer)
        sess.run(step)
        np.testing.assert_array_equal(sess.run(v)[:, 0], [1.0, 1.0, 0.0, 1.0])
        np.testing.assert_array_equal(sess.run(neg)[2], [-1.0, -1.0])
    with pytest.raises(ValueError, match=r"dtype int32 for Tensor with dtype float32"):
        tf.convert_to_tensor_or_indexed_slices(s, dtype=tf.int32)
    fed_rows = tf.placeholder(tf.int32, [2])
    with pytest.raises(ValueError, match=r"dense_shape known when the graph is built"):
        tf.convert_to_tensor(tf.IndexedSlices(tf.constant([[1.0]]), tf.constant([0]), fed_rows))


def test_gradients_of_gather_are_dense() -> None:
    params = tf.Variable(np.ones((5, 2), np.float32))
    g = tf.gradients(tf.reduce_sum(tf.gather(params, [1, 1, 3])), params)[0]
    assert not isinstance(g, tf.IndexedSlices) and isinstance(g, tf.Tensor)


def test_assert_near_tolerance_and_eager() -> None:
    x = tf.placeholder(tf.float32, [2])
    check = tf.assert_near(x, tf.constant([1.0, 2.0]), rtol=0.0, atol=0.1)
    with tf.Session() as sess:
        sess.run(check, {x: [1.05, 2.0]})
        with pytest.raises(errors.InvalidArgumentError, match=r"x and y not equal to tolerance"):
            sess.run(check, {x: [1.2, 2.0]})
    with tf.EagerSession():
        assert tf.debugging.assert_near(tf.constant([1.0]), tf.constant([1.0])) is None


def test_assert_shapes_ellipsis_and_ints() -> None:
    a, b = tf.zeros([4, 2, 3]), tf.zeros([3])
    assert tf.debugging.assert_shapes([(a, ("...", "D")), (b, ("D",))]).type == "NoOp"
    with pytest.raises(ValueError, match=r"dimension 1 must have size 5"):
        tf.debugging.assert_shapes([(a, (4, 5, 3))])
    with pytest.raises(ValueError, match=r"must have rank 2"):
        tf.debugging.assert_shapes({a: ("N", "D")})


def test_make_tensor_proto_checks() -> None:
    with pytest.raises(TypeError, match=r"Expected Tensor's shape"):
        tf.make_tensor_proto(np.zeros([2, 3]), shape=[3, 2], verify_shape=True)
    p = tf.make_tensor_proto(np.array([1 + 2j], np.complex64), shape=[2])
    np.testing.assert_array_equal(tf.make_ndarray(p), [1 + 2j, 1 + 2j])
    np.testing.assert_array_equal(tf.make_ndarray(tf.make_tensor_proto(tf.constant([1, 2]))), [1, 2])


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


def test_errors_code_mapping_round_trips() -> None:
    for code in range(1, 17):
        cls = errors.exception_type_from_error_code(code)
        assert errors.error_code_from_exception_type(cls) == code
        assert cls(None, None, "m").error_code == code
    assert errors.error_code_from_exception_type(ValueError) == errors.UNKNOWN  # type: ignore[arg-type]
    with pytest.raises(KeyError):
        errors.exception_type_from_error_code(0)


def test_small_utilities() -> None:
    spec = tf.DeviceSpec.from_string("/job:w/task:2/device:CPU:0")
    assert spec.replace(task=3).to_string() == "/job:w/task:3/device:CPU:0"
    with tf.Graph().as_default() as g, g.device(tf.DeviceSpec(device_type="CPU", device_index=0)):
        assert tf.constant(1.0).device == "/device:CPU:0"
    with tf.compat.forward_compatibility_horizon(2019, 1, 1):
        assert not tf.compat.forward_compatible(2020, 1, 1)
    assert tf.compat.forward_compatible(2020, 1, 1)
    assert tf.compat.dimension_at_index(tf.TensorShape(None), 3) is None
    d = tf.test.get_temp_dir()
    assert d == tf.test.get_temp_dir() and os.path.isdir(d)
    tf.debugging.set_log_device_placement(True)
    assert tf.debugging.get_log_device_placement()
    tf.debugging.set_log_device_placement(False)
    with pytest.raises(ValueError, match=r"ignore_existing"):
        with tf.colocate_with(None):
            pass
    with pytest.raises(TypeError, match=r"colocate_with expects an Operation, Tensor or Variable"):
        with tf.colocate_with(3):
            pass
    assert tf.dtypes.saturate_cast is tf.saturate_cast and tf.nn.silu is tf.nn.swish


def test_uniform_unit_scaling_initializer_range() -> None:
    v = tf.get_variable("uus", [12, 3], initializer=tf.uniform_unit_scaling_initializer(factor=2.0, seed=1))
    with tf.Session() as sess:
        sess.run(v.initializer)
        val = sess.run(v)
    limit = 2.0 * np.sqrt(3 / 12)
    assert val.shape == (12, 3) and np.all(np.abs(val) <= limit) and np.abs(val).max() > limit / 2


def test_stateless_random_seed_and_dtype_errors() -> None:
    with pytest.raises(ValueError, match=r"seed must be an int32/int64 tensor of shape \[2\]"):
        tf.random.stateless_uniform([2], seed=tf.constant([1.0, 2.0]))
    with pytest.raises(ValueError, match=r"minval and maxval must be both"):
        tf.random.stateless_uniform([2], seed=[1, 2], maxval=None, dtype=tf.int64)
    with pytest.raises(ValueError, match=r"floating dtype"):
        tf.random.stateless_normal([2], seed=[1, 2], dtype=tf.int32)


def test_lu_and_tridiagonal_errors() -> None:
    with pytest.raises(TypeError, match=r"lu: expected a float"):
        tf.linalg.lu(tf.constant([[1, 2], [3, 4]]))
    lu, p = tf.linalg.lu(tf.constant([[2.0, 1.0], [1.0, 3.0]]))
    with pytest.raises(ValueError, match=r"rhs .* must be \[\.\.\., 2, K\]"):
        tf.linalg.lu_solve(lu, p, tf.ones([3, 1]))
    with pytest.raises(TypeError, match=r"perm must be int32 or int64"):
        tf.linalg.lu_reconstruct(lu, tf.cast(p, tf.float32))
    with pytest.raises(ValueError, match=r"unrecognized diagonals_format 'banded'"):
        tf.linalg.tridiagonal_solve(tf.ones([3, 2]), tf.ones([2, 1]), diagonals_format="banded")


def test_nn_surface_errors() -> None:
    with pytest.raises(ValueError, match=r"rank 3, 4 or 5"):
        tf.nn.avg_pool_v2(tf.zeros([2, 3]), 2, 2, "VALID")
    with pytest.raises(ValueError, match=r"data_format 'NWC'"):
        tf.nn.conv1d_transpose(tf.zeros([1, 4, 2]), tf.zeros([2, 3, 2]), [1, 8, 3], 2, data_format="NCW")
    with pytest.raises(ValueError, match=r"at least rank 1"):
        tf.nn.compute_average_loss(tf.constant(1.0))
    with pytest.raises(TypeError, match=r"variance_epsilon and scale_after_normalization"):
        tf.nn.batch_norm_with_global_normalization(tf.zeros([1, 2]), 0.0, 1.0, 0.0, 1.0)


def test_candidate_sampler_errors_and_determinism() -> None:
    labels = tf.constant([[1]], tf.int64)
    with pytest.raises(ValueError, match=r"range_max \(3\) must equal num_reserved_ids"):
        tf.nn.fixed_unigram_candidate_sampler(labels, 1, 1, False, 3, unigrams=[1, 2])
    with pytest.raises(ValueError, match=r"Must provide either vocab_file or unigrams"):
        tf.nn.fixed_unigram_candidate_sampler(labels, 1, 1, False, 3)
    s = tf.nn.fixed_unigram_candidate_sampler(labels, 1, 2, True, 3, unigrams=[1, 0, 2], seed=7)
    with tf.Session() as sess:
        got = sess.run(s.sampled_candidates)
    assert sorted(got.tolist()) == [0, 2]  # the zero-count id is never drawn


def test_sparse_surface_and_grad_pass_through() -> None:
    with pytest.raises(ValueError, match=r"axis 3 is out of range"):
        tf.sparse.expand_dims(tf.SparseTensor([[0, 1]], [1.0], [2, 3]), 3)
    x = tf.constant([0.4, 1.6])
    y = tf.grad_pass_through(lambda v: tf.round(v) * 3.0)(x)
    g = tf.gradients(tf.reduce_sum(y), x)[0]
    ind = tf.sparse.to_indicator(tf.SparseTensor([[0, 0], [0, 1]], tf.constant([1, 9], tf.int64), [1, 2]), 3)
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(g), [1.0, 1.0])
        np.testing.assert_array_equal(sess.run(ind), [[False, True, False]])  # id 9 outside the vocabulary
