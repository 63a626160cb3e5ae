"""tf.image.non_max_suppression_with_scores, non_max_suppression_overlaps and
combined_non_max_suppression (q 1 and per class, pad_per_class, clip_boxes), with fed boxes."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
RESULTS = {}
rng = np.random.RandomState(7)


def make_boxes(n):
    y = rng.uniform(-0.1, 0.8, n)
    x = rng.uniform(-0.1, 0.8, n)
    h = rng.uniform(0.05, 0.4, n)
    w = rng.uniform(0.05, 0.4, n)
    return np.stack([y, x, y + h, x + w], axis=1).astype(np.float32)


boxes_v = make_boxes(12)
scores_v = rng.permutation(np.linspace(0.05, 0.95, 12)).astype(np.float32)  # distinct scores: no ties
boxes = tf.placeholder(tf.float32, [12, 4], name="boxes")
scores = tf.placeholder(tf.float32, [12], name="scores")
feed = {boxes: boxes_v, scores: scores_v}
outs = {}
outs["with_scores"] = list(tf.image.non_max_suppression_with_scores(boxes, scores, 6, 0.3))
outs["with_scores_thr"] = list(tf.image.non_max_suppression_with_scores(boxes, scores, 10, 0.5,
                                                                        score_threshold=0.4))
ov = rng.uniform(0, 1, (12, 12)).astype(np.float32)
outs["overlaps"] = tf.image.non_max_suppression_overlaps(tf.constant(ov), scores, 5, overlap_threshold=0.6)
outs["overlaps_thr"] = tf.image.non_max_suppression_overlaps(ov, scores_v, 12, 0.8, score_threshold=0.3)

B, N, C = 2, 10, 3
cb = np.stack([make_boxes(N) for _ in range(B)])[:, :, None, :]
cb_per_class = np.stack([np.stack([make_boxes(N) for _ in range(C)], axis=1) for _ in range(B)])
cs = np.stack([rng.permutation(np.linspace(0.01, 0.99, N * C)).reshape(N, C) for _ in range(B)]).astype(np.float32)
cboxes = tf.placeholder(tf.float32, [B, N, 1, 4])
cscores = tf.placeholder(tf.float32, [B, N, C])
feed.update({cboxes: cb, cscores: cs})
outs["combined"] = list(tf.image.combined_non_max_suppression(cboxes, cscores, 3, 7, iou_threshold=0.4,
                                                              score_threshold=0.2))
outs["combined_pad_per_class"] = list(tf.image.combined_non_max_suppression(
    cboxes, cscores, 2, 100, iou_threshold=0.5, pad_per_class=True))
outs["combined_noclip_per_class"] = list(tf.image.combined_non_max_suppression(
    tf.constant(cb_per_class), cscores, 4, 5, iou_threshold=0.3, clip_boxes=False))
with tf.Session() as sess:
    got = sess.run(outs, feed)
for k, v in got.items():
    RESULTS[k] = v
RESULTS["meta"] = {k: [t.dtype.name, t.shape.as_list()] for k, t in
                   [("combined_" + str(i), t) for i, t in enumerate(outs["combined"])] +
                   [("pad_" + str(i), t) for i, t in enumerate(outs["combined_pad_per_class"])]}
