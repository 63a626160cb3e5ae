# Premade estimators trained from tf.data and exported with a parsing serving input
# receiver (serialized tf.train.Example), as in the TF1 census/wide-and-deep tutorial.
import os
import shutil
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

rng = np.random.RandomState(11)
age = rng.uniform(20, 60, size=32).astype(np.float32)
hours = rng.uniform(10, 60, size=32).astype(np.float32)
income = (0.02 * age + 0.03 * hours + rng.normal(scale=0.1, size=32)).astype(np.float32)
label = (income > 2.0).astype(np.int64)

columns = [tf.feature_column.numeric_column("age"), tf.feature_column.numeric_column("hours")]


def input_fn():
    ds = tf.data.Dataset.from_tensor_slices(({"age": age, "hours": hours}, income))
    return ds.repeat().batch(8)


def class_input_fn():
    ds = tf.data.Dataset.from_tensor_slices(({"age": age, "hours": hours}, label))
    return ds.repeat().batch(8)


spec = tf.feature_column.make_parse_example_spec(columns)
RESULTS["parse_spec"] = sorted(spec)
serving_fn = tf.estimator.export.build_parsing_serving_input_receiver_fn(spec)


def example(a, h):
    return tf.train.Example(features=tf.train.Features(feature={
        "age": tf.train.Feature(float_list=tf.train.FloatList(value=[a])),
        "hours": tf.train.Feature(float_list=tf.train.FloatList(value=[h]))})).SerializeToString()


serialized = [example(30.0, 40.0), example(55.0, 20.0)]
base = tempfile.mkdtemp()
try:
    for name, est, fn in [
        ("regressor", tf.estimator.LinearRegressor(columns, model_dir=os.path.join(base, "lin")), input_fn),
        ("classifier", tf.estimator.LinearClassifier(columns, model_dir=os.path.join(base, "cls")), class_input_fn),
    ]:
        est.train(fn, steps=3)
        export_dir = est.export_saved_model(os.path.join(base, "export_" + name), serving_fn)
        with tf.Graph().as_default(), tf.Session() as sess:
            meta = tf.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING], export_dir)
            sigs = meta.signature_def
            RESULTS[name + "_signatures"] = sorted(sigs)
            RESULTS[name + "_methods"] = {k: sigs[k].method_name for k in sigs}
            RESULTS[name + "_inputs"] = {k: sorted(sigs[k].inputs) for k in sigs}
            outputs = sorted(sigs["serving_default"].outputs)
            RESULTS[name + "_default_outputs"] = [k for k in outputs if k != "classes"]
            predict = sigs["predict"]
            fetch = {k: v.name for k, v in predict.outputs.items() if k not in ("classes", "all_classes")}
            out = sess.run(fetch, {predict.inputs["examples"].name: serialized})
            RESULTS[name + "_predict_shapes"] = {k: list(v.shape) for k, v in out.items()}
            RESULTS[name + "_predict_dtypes"] = {k: v.dtype.name for k, v in out.items()}
finally:
    shutil.rmtree(base, ignore_errors=True)
