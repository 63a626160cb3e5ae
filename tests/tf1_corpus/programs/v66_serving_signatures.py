"""TF Serving signatures of a TF1 model: classification/regression/predict SignatureDefs over parsed
tf.Examples, saved with SavedModelBuilder and run again after loading."""
import os
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
export_dir = os.path.join(tempfile.mkdtemp(), "model")

with tf.Graph().as_default():
    serialized = tf.placeholder(tf.string, [None], name="tf_example")
    feats = tf.parse_example(serialized, {"x": tf.FixedLenFeature([2], tf.float32)})
    w = tf.Variable([[1.0, -1.0, 0.5], [0.5, 2.0, -1.0]], name="w")
    logits = tf.matmul(feats["x"], w, name="logits")
    scores = tf.nn.softmax(logits, name="scores")
    classes = tf.constant([b"a", b"b", b"c"])
    top_classes = tf.gather(classes, tf.argmax(scores, 1), name="top_classes")
    value = tf.reduce_sum(logits, 1, name="value")
    cls_sig = tf.saved_model.classification_signature_def(serialized, top_classes, scores)
    reg_sig = tf.saved_model.regression_signature_def(serialized, value)
    pred_sig = tf.saved_model.predict_signature_def({"examples": serialized}, {"scores": scores})
    RESULTS["methods"] = [cls_sig.method_name, reg_sig.method_name, pred_sig.method_name]
    RESULTS["keys"] = [sorted(cls_sig.inputs), sorted(cls_sig.outputs), sorted(reg_sig.outputs)]
    RESULTS["names"] = [cls_sig.inputs["inputs"].name, cls_sig.outputs["scores"].name,
                        reg_sig.outputs["outputs"].name]
    RESULTS["valid"] = [tf.saved_model.is_valid_signature(s) for s in (cls_sig, reg_sig, pred_sig)]
    errors = []
    for make in (lambda: tf.saved_model.regression_signature_def(logits, value),
                 lambda: tf.saved_model.classification_signature_def(serialized, None, None),
                 lambda: tf.saved_model.classification_signature_def(serialized, scores, None),
                 lambda: tf.saved_model.regression_signature_def(serialized, top_classes)):
        try:
            make()
            errors.append("no error")
        except ValueError as e:
            errors.append(str(e).split(" Found")[0])
    RESULTS["errors"] = errors
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        builder = tf.saved_model.builder.SavedModelBuilder(export_dir)
        builder.add_meta_graph_and_variables(
            sess, [tf.saved_model.tag_constants.SERVING],
            signature_def_map={"classify": cls_sig, "regress": reg_sig,
                               tf.saved_model.signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY: pred_sig})
        builder.save()


def example(x):
    return tf.train.Example(features=tf.train.Features(feature={
        "x": tf.train.Feature(float_list=tf.train.FloatList(value=x))})).SerializeToString()


batch = [example([1.0, 2.0]), example([-1.0, 0.5])]
with tf.Graph().as_default():
    with tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING], export_dir)
        sigs = meta.signature_def
        RESULTS["loaded_keys"] = sorted(sigs)
        cls = sigs["classify"]
        out = sess.run({k: v.name for k, v in cls.outputs.items()}, {cls.inputs["inputs"].name: batch})
        RESULTS["classify"] = out
        reg = sigs["regress"]
        RESULTS["regress"] = sess.run(reg.outputs["outputs"].name, {reg.inputs["inputs"].name: batch})
        RESULTS["loaded_valid"] = [tf.saved_model.is_valid_signature(sigs[k]) for k in sorted(sigs)]
