# Hvass-Labs style CNN with tf.nn.conv2d/max_pool, flatten via num_elements, accuracy, confusion matrix.
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
rng = np.random.RandomState(9)
img_size, num_channels, num_classes = 8, 1, 3
images = rng.rand(12, img_size * img_size).astype(np.float32)
labels = np.eye(num_classes, dtype=np.float32)[rng.randint(0, num_classes, 12)]


def new_weights(shape, seed):
    return tf.Variable(np.random.RandomState(seed).normal(0, 0.05, shape).astype(np.float32))


def new_biases(length):
    return tf.Variable(tf.constant(0.05, shape=[length]))


def new_conv_layer(input, num_input_channels, filter_size, num_filters, use_pooling=True, seed=0):
    shape = [filter_size, filter_size, num_input_channels, num_filters]
    weights = new_weights(shape, seed)
    biases = new_biases(length=num_filters)
    layer = tf.nn.conv2d(input=input, filter=weights, strides=[1, 1, 1, 1], padding="SAME")
    layer += biases
    if use_pooling:
        layer = tf.nn.max_pool(value=layer, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")
    layer = tf.nn.relu(layer)
    return layer, weights


def flatten_layer(layer):
    layer_shape = layer.get_shape()
    num_features = layer_shape[1:4].num_elements()
    layer_flat = tf.reshape(layer, [-1, num_features])
    return layer_flat, num_features


def new_fc_layer(input, num_inputs, num_outputs, use_relu=True, seed=0):
    weights = new_weights(shape=[num_inputs, num_outputs], seed=seed)
    biases = new_biases(length=num_outputs)
    layer = tf.matmul(input, weights) + biases
    if use_relu:
        layer = tf.nn.relu(layer)
    return layer


x = tf.placeholder(tf.float32, shape=[None, img_size * img_size], name="x")
x_image = tf.reshape(x, [-1, img_size, img_size, num_channels])
y_true = tf.placeholder(tf.float32, shape=[None, num_classes], name="y_true")
y_true_cls = tf.argmax(y_true, dimension=1)
keep_prob = tf.placeholder(tf.float32)
layer_conv1, weights_conv1 = new_conv_layer(x_image, num_channels, 3, 4, seed=1)
layer_conv2, weights_conv2 = new_conv_layer(layer_conv1, 4, 3, 6, seed=2)
layer_flat, num_features = flatten_layer(layer_conv2)
layer_fc1 = new_fc_layer(layer_flat, num_features, 16, seed=3)
layer_drop = tf.nn.dropout(layer_fc1, keep_prob)
layer_fc2 = new_fc_layer(layer_drop, 16, num_classes, use_relu=False, seed=4)
y_pred = tf.nn.softmax(layer_fc2)
y_pred_cls = tf.argmax(y_pred, axis=1)
cross_entropy = tf.nn.softmax_cross_entropy_with_logits_v2(logits=layer_fc2, labels=y_true)
cost = tf.reduce_mean(cross_entropy)
optimizer = tf.train.AdamOptimizer(learning_rate=1e-2).minimize(cost)
correct_prediction = tf.equal(y_pred_cls, y_true_cls)
accuracy = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))
cm = tf.confusion_matrix(labels=y_true_cls, predictions=y_pred_cls)
avg = tf.nn.avg_pool(x_image, ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1], padding="VALID")
lrn = tf.nn.lrn(layer_conv1, depth_radius=2, bias=1.0, alpha=0.001 / 9.0, beta=0.75)
bias_add = tf.nn.bias_add(tf.nn.conv2d(x_image, weights_conv1, [1, 2, 2, 1], "VALID"), tf.constant([0.1, 0.2, 0.3, 0.4]))
l2 = tf.nn.l2_loss(weights_conv1)

with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    costs = []
    for i in range(4):
        feed_dict_train = {x: images, y_true: labels, keep_prob: 1.0}
        _, c = session.run([optimizer, cost], feed_dict=feed_dict_train)
        costs.append(c)
    RESULTS["costs"] = costs
    fd = {x: images, y_true: labels, keep_prob: 1.0}
    RESULTS["acc"], RESULTS["cls"], RESULTS["cm"] = session.run([accuracy, y_pred_cls, cm], feed_dict=fd)
    RESULTS["probs"] = session.run(y_pred, feed_dict={x: images[:3], keep_prob: 1.0})
    RESULTS["extra"] = session.run([avg, lrn, bias_add, l2], {x: images[:1]})
    drop_out = session.run(layer_drop, {x: images[:2], keep_prob: 0.5})
    RESULTS["drop_shape"] = drop_out.shape
RESULTS["num_features"] = num_features
RESULTS["shapes"] = [str(t.get_shape()) for t in (layer_conv1, layer_conv2, layer_flat, layer_fc1, y_pred_cls, cm, avg)]
RESULTS["names"] = [t.name for t in (layer_conv1, layer_flat, y_pred, y_pred_cls, accuracy, cm, lrn, bias_add, l2, layer_drop)]
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
