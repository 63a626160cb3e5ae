# Name scopes, control dependencies, tf.group, collections and fetching by
# name: the bookkeeping of a TF1 graph.
import numpy as np

import jaxsess as tf

graph = tf.Graph()
with graph.as_default():
    x = tf.placeholder(tf.float32, shape=[None, 2], name="x")
    with tf.name_scope("layer1"):
        w = tf.constant([[1.0, -1.0], [0.5, 2.0]], name="weights")
        b = tf.constant([0.1, 0.2], name="bias")
        h = tf.tanh(tf.matmul(x, w) + b, name="activation")
    with tf.name_scope("loss"):
        loss = tf.reduce_sum(tf.square(h), name="total")
        tf.add_to_collection("losses", loss)
    check = tf.reduce_all(tf.is_finite(h), name="check")
    with tf.control_dependencies([check]):
        report = tf.identity(loss, name="report")
    step = tf.group(report, h, name="step")

print([op.name for op in graph.get_operations() if op.name.startswith("layer1/")])
print(h.name, loss.name, report.op.control_inputs[0].name, step.type)
print(graph.get_collection("losses")[0] is loss)

with tf.Session(graph=graph) as sess:
    feed = {"x:0": np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)}
    out = sess.run({"h": "layer1/activation:0", "loss": report, "step": step}, feed_dict=feed)
    expected_h = np.tanh(feed["x:0"] @ np.array([[1.0, -1.0], [0.5, 2.0]]) + [0.1, 0.2])
    assert np.allclose(out["h"], expected_h, atol=1e-6)
    assert np.isclose(out["loss"], (expected_h ** 2).sum(), atol=1e-5)
    print("step ->", out["step"])
    print(f"loss = {out['loss']:.4f}")
    assert sess.run(graph.get_tensor_by_name("loss/total:0"), feed) == out["loss"]
    assert sess.run("step", feed) is None
print("done")
