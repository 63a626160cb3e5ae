import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}

# A word-embedding regression whose gradient clipping handles IndexedSlices, as tutorials write it.
ids = tf.placeholder(tf.int32, [None], name="ids")
target = tf.placeholder(tf.float32, [None, 2], name="target")
emb = tf.get_variable("emb", initializer=np.arange(12, dtype=np.float32).reshape(6, 2) / 10.0)
w = tf.get_variable("w", initializer=np.array([[1.0, -1.0], [0.5, 2.0]], np.float32))
pred = tf.matmul(tf.nn.embedding_lookup(emb, ids), w)
loss = tf.losses.mean_squared_error(target, pred)
cos = tf.losses.cosine_distance(tf.nn.l2_normalize(target, 1), tf.nn.l2_normalize(pred, 1), axis=1)
mpse = tf.losses.mean_pairwise_squared_error(target, pred)
opt = tf.train.GradientDescentOptimizer(0.1)
grads_and_vars = opt.compute_gradients(loss + cos)
clipped = []
for g, v in grads_and_vars:
    if isinstance(g, tf.IndexedSlices):
        g = tf.convert_to_tensor(g)
    clipped.append((tf.clip_by_norm(g, 1.0), v))
train = opt.apply_gradients(clipped)

# A hand-made IndexedSlices densifies where a tensor is expected.
slices = tf.IndexedSlices(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), tf.constant([0, 2, 0]),
                          tf.constant([4, 2]))
dense = tf.convert_to_tensor(slices)
RESULTS["slices_shape"] = slices.shape.as_list()
RESULTS["slices_dtype"] = slices.dtype.name
RESULTS["cts_or_slices_is_same"] = tf.convert_to_tensor_or_indexed_slices(slices) is slices

# py_function with .numpy(), and checks
double = tf.py_function(lambda a: a.numpy() * 2.0, [pred], tf.float32)
checked = tf.debugging.assert_near(pred, pred + 1e-7)
with tf.control_dependencies([checked]):
    pred_checked = tf.identity(pred)
ts = tf.timestamp()

feed = {ids: np.array([0, 3, 5, 3], np.int32), target: np.array([[1, 0], [0, 1], [1, 1], [0.5, 0.5]], np.float32)}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        RESULTS[f"loss_{step}"], _ = sess.run([loss, train], feed)
    RESULTS["cos"], RESULTS["mpse"] = sess.run([cos, mpse], feed)
    RESULTS["emb"] = sess.run(emb)
    RESULTS["dense"] = sess.run(dense)
    d, p, t = sess.run([double, pred_checked, ts], feed)
    RESULTS["double_ok"] = bool(np.allclose(d, 2 * p))
    RESULTS["timestamp_type"] = type(t).__name__
    RESULTS["timestamp_positive"] = bool(t > 1.6e9)
    far = tf.debugging.assert_near(pred, pred + 1.0, message="too far")
    try:
        sess.run(far, feed)
        RESULTS["assert_near_error"] = "no error"
    except tf.errors.InvalidArgumentError as e:
        RESULTS["assert_near_error"] = type(e).__name__
RESULTS["cos_name"] = cos.name
RESULTS["mpse_name"] = mpse.name
RESULTS["losses_collection"] = len(tf.get_collection(tf.GraphKeys.LOSSES))

# Protos, configuration and small utilities
proto = tf.make_tensor_proto(np.arange(6, dtype=np.float32).reshape(2, 3))
RESULTS["proto_roundtrip"] = tf.make_ndarray(proto)
RESULTS["proto_scalar"] = str(tf.make_tensor_proto(2.5))
RESULTS["proto_fill"] = tf.make_ndarray(tf.make_tensor_proto(7, shape=[2, 2]))
RESULTS["proto_strings"] = tf.make_ndarray(tf.make_tensor_proto(["ab", "c"])).tolist()
config = tf.ConfigProto()
config.graph_options.optimizer_options.global_jit_level = tf.OptimizerOptions.ON_1
RESULTS["jit_level"] = config.graph_options.optimizer_options.global_jit_level
gopts = tf.GraphOptions(optimizer_options=tf.OptimizerOptions(opt_level=tf.OptimizerOptions.L1))
RESULTS["graph_options"] = str(gopts)
with tf.Session(config=tf.ConfigProto(graph_options=gopts)) as sess:
    RESULTS["with_graph_options"] = sess.run(tf.constant(3.0) * 2)
RESULTS["session_log"] = str(tf.SessionLog(status=tf.SessionLog.START, msg="hi"))
RESULTS["device_spec"] = tf.DeviceSpec.from_string("/job:worker/task:1/device:GPU:0").to_string()
RESULTS["device_spec_job"] = tf.DeviceSpec.from_string("/job:worker/task:1/device:GPU:0").job
RESULTS["device_spec_new"] = tf.DeviceSpec(job="ps", task=0, device_type="CPU", device_index=0).to_string()
RESULTS["cpus"] = len(tf.config.experimental.list_physical_devices("CPU"))
RESULTS["gpus"] = len(tf.config.list_physical_devices("GPU"))
RESULTS["logical_cpu"] = [d.name for d in tf.config.list_logical_devices("CPU")]
RESULTS["error_code"] = tf.errors.error_code_from_exception_type(tf.errors.NotFoundError)
RESULTS["error_class"] = tf.errors.exception_type_from_error_code(3).__name__
RESULTS["dim_value"] = tf.compat.dimension_value(tf.TensorShape([3, None])[0])
RESULTS["dim_at_index"] = tf.compat.dimension_value(tf.compat.dimension_at_index(tf.TensorShape([3, 5]), 1))
RESULTS["fwd_compat"] = tf.compat.forward_compatible(2020, 1, 1)
RESULTS["xla"] = tf.test.is_built_with_xla()
RESULTS["same_float"] = tf.assert_same_float_dtype([tf.constant([1.0], tf.float64)]).name
RESULTS["same_float_none"] = tf.assert_same_float_dtype(None).name
RESULTS["numeric"] = [tf.is_numeric_tensor(tf.constant(1)), tf.is_numeric_tensor(tf.constant("a")),
                      tf.is_numeric_tensor(1.0)]
with tf.control_dependencies([tf.no_op(name="dep")]):
    with tf.init_scope():
        free = tf.constant(1.0, name="free")
    bound = tf.constant(2.0, name="bound")
RESULTS["init_scope_inputs"] = [len(free.op.control_inputs), len(bound.op.control_inputs)]
with tf.colocate_with(pred):
    co = tf.identity(pred, name="co")
with tf.container("experiment0"):
    cv = tf.Variable(1.0, name="cv")
RESULTS["co_name"] = co.name
RESULTS["cv_name"] = cv.name
for name, fn in [("rank_in_bad", lambda: tf.assert_rank_in(tf.constant([1.0]), [0, 2])),
                 ("same_float_bad", lambda: tf.assert_same_float_dtype([tf.constant([1.0]), tf.constant([1])])),
                 ("proper_iterable_bad", lambda: tf.assert_proper_iterable("abc")),
                 ("shapes_bad", lambda: tf.debugging.assert_shapes([(tf.zeros([2, 3]), ("N", "D")),
                                                                   (tf.zeros([3]), ("N",))])),
                 ("cos_no_axis", lambda: tf.losses.cosine_distance(target, pred)),
                 ("proto_too_many", lambda: tf.make_tensor_proto([1, 2, 3], shape=[2])),
                 ("proto_bad_type", lambda: tf.make_tensor_proto([1.5], dtype=tf.int32)),
                 ("slices_no_shape", lambda: tf.convert_to_tensor(tf.IndexedSlices(tf.constant([1.0]),
                                                                                   tf.constant([0]))))]:
    try:
        fn()
        RESULTS[name] = "no error"
    except Exception as e:  # noqa: BLE001
        RESULTS[name] = type(e).__name__
RESULTS["rank_in_ok"] = tf.assert_rank_in(tf.constant([1.0]), [1, 2]).name
RESULTS["shapes_ok"] = tf.debugging.assert_shapes([(tf.zeros([2, 3]), ("N", "D")), (tf.zeros([2]), ("N",))]) is None
