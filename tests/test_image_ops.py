"""The rest of ``tf.image``: colour spaces, rotations, crop_and_resize, boxes, metrics.

Values are checked against TF in the corpus (``v44_*``); here: errors,
random ops' ranges, run-time arguments and static shapes.
"""

from __future__ import annotations

import numpy as np
import pytest

import jaxsess as tf

RNG = np.random.RandomState(0)
IMG = RNG.rand(1, 4, 4, 3).astype(np.float32)


def test_hsv_round_trip_and_known_values(sess: tf.Session) -> None:
    rgb = np.asarray([[1.0, 0.0, 0.0], [0.0, 0.5, 0.5], [0.2, 0.2, 0.2]], np.float32)
    hsv = sess.run(tf.image.rgb_to_hsv(rgb))
    np.testing.assert_allclose(hsv, [[0, 1, 1], [0.5, 1, 0.5], [0, 0, 0.2]], atol=1e-6)
    np.testing.assert_allclose(sess.run(tf.image.hsv_to_rgb(hsv)), rgb, atol=1e-6)


def test_colour_ops_reject_bad_input() -> None:
    with pytest.raises(TypeError, match="floating"):
        tf.image.rgb_to_hsv(np.zeros([2, 3], np.int32))
    with pytest.raises(ValueError, match="must be 3"):
        tf.image.adjust_hue(np.zeros([2, 4], np.float32), 0.1)
    with pytest.raises(ValueError, match="max_delta must be <= 0.5"):
        tf.image.random_hue(IMG, 0.6)
    with pytest.raises(ValueError, match="upper must be > lower"):
        tf.image.random_saturation(IMG, 0.5, 0.5)
    with pytest.raises(ValueError, match="Gamma should be a non-negative"):
        tf.image.adjust_gamma(IMG, -1.0)
    with pytest.raises(ValueError, match="size 1"):
        tf.image.grayscale_to_rgb(tf.constant(IMG))


def test_random_hue_and_saturation_stay_in_range(sess: tf.Session) -> None:
    hue = tf.image.random_hue(IMG, 0.2, seed=3)
    sat = tf.image.random_saturation(IMG, 0.5, 1.5, seed=4)
    for _ in range(3):
        h, s = sess.run([hue, sat])
        assert h.shape == IMG.shape and s.shape == IMG.shape
        assert h.min() >= 0 and h.max() <= 1 + 1e-6
        # value (max channel) is unchanged by hue and saturation changes
        np.testing.assert_allclose(h.max(-1), IMG.max(-1), atol=1e-5)
        np.testing.assert_allclose(s.max(-1), IMG.max(-1), atol=1e-5)


def test_rot90_with_a_run_time_k(sess: tf.Session) -> None:
    x = np.arange(4.0, dtype=np.float32).reshape(2, 2, 1)
    k = tf.placeholder(tf.int32, [])
    r = tf.image.rot90(x, k)
    for kk in (-1, 0, 1, 2, 5):
        np.testing.assert_array_equal(sess.run(r, {k: kk}), np.rot90(x, kk, axes=(0, 1)))
    assert tf.image.rot90(np.zeros([2, 3, 5, 1], np.float32), 1).shape.as_list() == [2, 5, 3, 1]
    with pytest.raises(ValueError, match="square"):
        tf.image.rot90(np.zeros([2, 3, 1], np.float32), k)


def test_crop_and_resize_checks_and_gradient(sess: tf.Session) -> None:
    with pytest.raises(ValueError, match="method"):
        tf.image.crop_and_resize(IMG, [[0, 0, 1, 1.0]], [0], [2, 2], method="bicubic")
    with pytest.raises(ValueError, match="num_boxes, 4"):
        tf.image.crop_and_resize(IMG, [[0, 0, 1.0]], [0], [2, 2])
    x = tf.Variable(IMG)
    out = tf.image.crop_and_resize(x, [[0.0, 0.0, 1.0, 1.0]], [0], [4, 4])
    (g,) = tf.gradients(tf.reduce_sum(out), [x])
    sess.run(tf.global_variables_initializer())
    # the full-image box at the image's size is the identity: each pixel sampled once
    np.testing.assert_allclose(sess.run(out), IMG, atol=1e-6)
    np.testing.assert_allclose(sess.run(g), np.ones_like(IMG), atol=1e-6)


def test_sample_distorted_bounding_box_respects_its_constraints(sess: tf.Session) -> None:
    begin, size, box = tf.image.sample_distorted_bounding_box(
        [20, 30, 3], [[[0.2, 0.2, 0.8, 0.8]]], min_object_covered=0.5, area_range=(0.2, 0.9), seed=7)
    assert [begin.shape.as_list(), size.shape.as_list(), box.shape.as_list()] == [[3], [3], [1, 1, 4]]
    assert begin.dtype == tf.int32 and box.dtype == tf.float32
    # tf.slice(image, begin, size) has a data-dependent shape; a fixed-size crop of the box works
    crop = tf.image.crop_and_resize(tf.zeros([1, 20, 30, 3]), box[0], [0], [8, 8])
    seen = set()
    for _ in range(5):
        b, s, bb, c = sess.run([begin, size, box, crop])
        assert b[2] == 0 and s[2] == -1 and c.shape == (1, 8, 8, 3)
        assert 0 <= b[0] and b[0] + s[0] <= 20 and 0 <= b[1] and b[1] + s[1] <= 30
        assert 0.2 * 600 <= s[0] * s[1] <= 0.9 * 600
        np.testing.assert_allclose(bb[0, 0], [b[0] / 20, b[1] / 30, (b[0] + s[0]) / 20, (b[1] + s[1]) / 30],
                                   rtol=1e-6)
        seen.add(tuple(b))
    assert len(seen) > 1
    with pytest.raises(ValueError, match="no bounding boxes"):
        tf.image.sample_distorted_bounding_box([20, 30, 3], np.zeros([1, 0, 4], np.float32))


def test_sample_distorted_bounding_box_falls_back_to_the_whole_image(sess: tf.Session) -> None:
    # no crop within area_range can cover 100% of a box that fills the image
    begin, size, _ = tf.image.sample_distorted_bounding_box(
        np.asarray([8, 8, 1], np.int64), np.zeros([1, 0, 4], np.float32), min_object_covered=1.0,
        area_range=(0.1, 0.5), use_image_if_no_bounding_boxes=True)
    b, s = sess.run([begin, size])
    assert b.dtype == np.int64
    np.testing.assert_array_equal(b, [0, 0, 0])
    np.testing.assert_array_equal(s, [8, 8, -1])


def test_non_max_suppression_padded_with_run_time_boxes(sess: tf.Session) -> None:
    boxes = tf.placeholder(tf.float32, [4, 4])
    scores = tf.placeholder(tf.float32, [4])
    idx, n = tf.image.non_max_suppression_padded(boxes, scores, 5, 0.5, pad_to_max_output_size=True)
    assert idx.shape.as_list() == [5] and n.shape.as_list() == []
    feed = {boxes: [[0, 0, 1, 1], [0, 0, 1, 1], [0, 0, 0.5, 1], [0.5, 0, 1, 1]], scores: [0.5, 0.5, 0.9, 0.1]}
    i, c = sess.run([idx, n], feed)
    np.testing.assert_array_equal(i, [2, 0, 3, 0, 0])
    assert c == 3
    kept = tf.image.non_max_suppression(boxes, scores, 3)  # run-time boxes: a host op of run-time length
    assert kept.shape.as_list() == [None] and kept.dtype == tf.int32
    np.testing.assert_array_equal(sess.run(kept, feed), [2, 0, 3])
    np.testing.assert_array_equal(sess.run(tf.gather(boxes, kept)[:, 2], feed), [0.5, 1.0, 1.0])
    with pytest.raises(ValueError, match="iou_threshold"):
        tf.image.non_max_suppression_padded(boxes, scores, 3, 1.5, pad_to_max_output_size=True)


def test_metric_checks() -> None:
    with pytest.raises(TypeError, match="same dtype"):
        tf.image.psnr(IMG, IMG.astype(np.float64), 1.0)
    with pytest.raises(ValueError, match="same shape"):
        tf.image.ssim(IMG, IMG[:, :2], 1.0)
    with pytest.raises(ValueError, match="smaller than filter_size"):
        tf.image.ssim(IMG, IMG, 1.0)
    with pytest.raises(ValueError, match="4D"):
        tf.image.image_gradients(IMG[0])
    with pytest.raises(ValueError, match="depth"):
        tf.image.draw_bounding_boxes(np.zeros([1, 4, 4, 2], np.float32), np.zeros([1, 1, 4], np.float32))


def test_ssim_of_identical_images_is_one(sess: tf.Session) -> None:
    x = RNG.rand(12, 12, 1).astype(np.float32)
    np.testing.assert_allclose(sess.run(tf.image.ssim(x, x, 1.0, filter_size=5)), 1.0, atol=1e-5)
    assert np.isinf(sess.run(tf.image.psnr(x, x, 1.0)))


def test_graph_def_round_trip_of_the_kernel_ops() -> None:
    boxes = np.asarray([[0, 0, 1, 1], [0, 0, 1, 1], [0, 0, 0.5, 1], [0.5, 0, 1, 1]], np.float32)
    scores = np.asarray([0.5, 0.5, 0.9, 0.1], np.float32)
    g1 = tf.Graph()
    with g1.as_default():
        b = tf.placeholder(tf.float32, [4, 4], name="b")
        crops = tf.image.crop_and_resize(IMG, b, [0, 0, 0, 0], [2, 3], method="nearest", extrapolation_value=-1.0)
        idx, _ = tf.image.non_max_suppression_padded(b, scores, 3, 0.5, pad_to_max_output_size=True)
        hue = tf.image.adjust_hue(IMG, 0.25)
        names = [crops.name, idx.name, hue.name]
        with tf.Session(graph=g1) as s1:
            want = s1.run([crops, idx, hue], {b: boxes})
    gd = g1.as_graph_def()
    assert {n.op for n in gd.node} >= {"CropAndResize", "NonMaxSuppressionV4", "AdjustHue"}
    g2 = tf.Graph()
    with g2.as_default():
        tf.import_graph_def(gd, name="")
        with tf.Session(graph=g2) as s2:
            got = s2.run(names, {"b:0": boxes})
    for w, g in zip(want, got, strict=True):
        np.testing.assert_array_equal(w, g)
    np.testing.assert_array_equal(got[1], [2, 0, 3])


def test_ops_run_eagerly() -> None:
    boxes = np.asarray([[0, 0, 1, 1], [0, 0, 1, 1], [0, 0, 0.5, 1], [0.5, 0, 1, 1]], np.float32)
    scores = np.asarray([0.5, 0.5, 0.9, 0.1], np.float32)
    with tf.EagerSession():
        np.testing.assert_array_equal(np.asarray(tf.image.non_max_suppression(boxes, scores, 3)), [2, 0, 3])
        _, size, _ = tf.image.sample_distorted_bounding_box([12, 12, 3], [[[0.0, 0.0, 1.0, 1.0]]], seed=1)
        assert np.asarray(size)[2] == -1
        assert tf.image.rot90(IMG, 1).shape == (1, 4, 4, 3)
        assert tf.image.crop_and_resize(IMG, [[0, 0, 1, 1.0]], [0], [2, 3]).shape == (1, 2, 3, 3)
        assert tf.image.sobel_edges(IMG).shape == (1, 4, 4, 3, 2)
        np.testing.assert_allclose(np.asarray(tf.image.ssim(IMG, IMG, 1.0, filter_size=3)), [1.0], atol=1e-5)


def test_combined_non_max_suppression_is_written_as_tfs_node_and_read_back() -> None:
    """TF's ``CombinedNonMaxSuppression(boxes, scores, max_output_size_per_class, max_total_size,
    iou_threshold, score_threshold)``: the two sizes are ``Const`` inputs between the data inputs
    (real TF imports the node and gives the same detections)."""
    rng = np.random.RandomState(0)
    boxes = rng.uniform(0, 1, (1, 6, 1, 4)).astype(np.float32)
    scores = rng.uniform(0, 1, (1, 6, 2)).astype(np.float32)
    with tf.Graph().as_default() as g:
        out = tf.image.combined_non_max_suppression(boxes, scores, 2, 3, name="nms")
        gd = g.as_graph_def()
        with tf.Session() as s:
            want = s.run(out)
    node = next(n for n in gd.node if n.name == "nms")
    consts = {n.name: n for n in gd.node if n.op == "Const"}
    assert node.op == "CombinedNonMaxSuppression" and len(node.input) == 6
    sizes = [tf.make_ndarray(consts[i].attr["value"].tensor) for i in node.input[2:4]]
    assert [int(v) for v in sizes] == [2, 3]
    assert set(node.attr) - {"_output_shapes"} == {"pad_per_class", "clip_boxes"}
    with tf.Graph().as_default():
        tf.import_graph_def(gd, name="")
        with tf.Session() as s:
            got = s.run([f"nms:{i}" for i in range(4)])
    for a, b in zip(want, got, strict=True):
        np.testing.assert_array_equal(a, b)
    assert want[1].shape == (1, 3) and int(want[3][0]) <= 3
