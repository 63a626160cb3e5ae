"""Detection post-processing on boxes computed in the run: decode anchors with predicted offsets, score with
a sigmoid, non_max_suppression per class, gather the kept boxes and scores (YOLO/SSD tutorial style)."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
np.random.seed(4)
anchors = np.array([[0.1, 0.1, 0.4, 0.4], [0.12, 0.1, 0.42, 0.38], [0.5, 0.5, 0.9, 0.9],
                    [0.55, 0.52, 0.88, 0.93], [0.0, 0.6, 0.3, 1.0], [0.3, 0.3, 0.6, 0.6]], np.float32)
features = tf.placeholder(tf.float32, [None, 8])
w_box = tf.constant(np.random.randn(8, 4).astype(np.float32) * 0.05)
w_cls = tf.constant(np.random.randn(8, 2).astype(np.float32))
offsets = tf.matmul(features, w_box)
boxes = tf.clip_by_value(tf.constant(anchors) + offsets, 0.0, 1.0)
probs = tf.sigmoid(tf.matmul(features, w_cls))
results = {}
for c in range(2):
    scores = probs[:, c]
    keep = tf.image.non_max_suppression(boxes, scores, max_output_size=3, iou_threshold=0.5,
                                        score_threshold=0.3)
    results[c] = {"keep": keep, "boxes": tf.gather(boxes, keep), "scores": tf.gather(scores, keep),
                  "count": tf.shape(keep)[0]}
padded, valid = tf.image.non_max_suppression_padded(boxes, probs[:, 0], 4, 0.5, pad_to_max_output_size=True)
RESULTS["static"] = [results[0]["keep"].shape.as_list(), results[0]["keep"].dtype.name,
                     results[0]["boxes"].shape.as_list()]
feed = {features: np.random.randn(6, 8).astype(np.float32)}
with tf.Session() as sess:
    RESULTS["boxes"] = sess.run(boxes, feed)
    RESULTS["per_class"] = sess.run(results, feed)
    RESULTS["padded"] = sess.run([padded, valid], feed)
    other = {features: np.random.randn(6, 8).astype(np.float32) * 2}
    RESULTS["per_class_other"] = sess.run(results, other)
