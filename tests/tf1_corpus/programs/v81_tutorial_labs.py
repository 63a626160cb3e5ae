"""TF1 tutorial labs under disable_v2_behavior(), condensed on seeded NumPy data: a CNN model class
(tf.layers conv/pool/dropout with a training placeholder, in a variable_scope per model, ensembled),
get_variable scopes with glorot weights and tf.Variable biases plus nn.dropout(keep_prob), variable
reuse, a BasicRNNCell dynamic_rnn classifier, a stacked LSTM with a DropoutWrapper (fed keep 1) for
next-letter prediction, and an encoder/decoder whose decoder starts from the encoder's state.
Default initializers draw from the graph seed, so the losses are TF's."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

RESULTS = {}
TOLERANCE = {"rtol": 2e-4, "atol": 2e-5}
rng = np.random.RandomState(0)
tf.set_random_seed(777)


# -- CNN model class with a training flag, two models ensembled
class Model:
    def __init__(self, sess, name):
        self.sess = sess
        with tf.variable_scope(name):
            self.training = tf.placeholder(tf.bool)
            self.X = tf.placeholder(tf.float32, [None, 64])
            self.Y = tf.placeholder(tf.float32, [None, 4])
            img = tf.reshape(self.X, [-1, 8, 8, 1])
            conv1 = tf.layers.conv2d(inputs=img, filters=4, kernel_size=[3, 3], padding="SAME", activation=tf.nn.relu)
            pool1 = tf.layers.max_pooling2d(inputs=conv1, pool_size=[2, 2], padding="SAME", strides=2)
            drop1 = tf.layers.dropout(inputs=pool1, rate=0.3, training=self.training)
            conv2 = tf.layers.conv2d(inputs=drop1, filters=8, kernel_size=[3, 3], padding="same", activation=tf.nn.relu)
            pool2 = tf.layers.max_pooling2d(inputs=conv2, pool_size=[2, 2], padding="same", strides=2)
            flat = tf.reshape(pool2, [-1, 8 * 2 * 2])
            dense = tf.layers.dense(inputs=flat, units=16, activation=tf.nn.relu)
            drop2 = tf.layers.dropout(inputs=dense, rate=0.5, training=self.training)
            self.logits = tf.layers.dense(inputs=drop2, units=4)
        self.cost = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=self.logits, labels=self.Y))
        self.optimizer = tf.train.AdamOptimizer(learning_rate=0.01).minimize(self.cost)
        correct = tf.equal(tf.argmax(self.logits, 1), tf.argmax(self.Y, 1))
        self.accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))

    def train(self, x, y):
        return self.sess.run([self.cost, self.optimizer], {self.X: x, self.Y: y, self.training: True})[0]

    def predict(self, x, training=False):
        return self.sess.run(self.logits, {self.X: x, self.training: training})


cnn_x = rng.rand(24, 64).astype(np.float32)
cnn_y = np.eye(4, dtype=np.float32)[rng.randint(0, 4, 24)]
cnn_sess = tf.Session()
models = [Model(cnn_sess, "model" + str(m)) for m in range(2)]
cnn_sess.run(tf.global_variables_initializer())
RESULTS["cnn_variables"] = [v.name for v in tf.trainable_variables()]
costs = []
for _epoch in range(2):
    for i in range(3):
        costs.append([m.train(cnn_x[i * 8:(i + 1) * 8], cnn_y[i * 8:(i + 1) * 8]) for m in models])
RESULTS["cnn_costs"] = costs
predictions = np.zeros((6, 4))
for m in models:
    predictions += m.predict(cnn_x[:6])
RESULTS["cnn_ensemble"] = predictions
RESULTS["cnn_ensemble_argmax"] = cnn_sess.run(tf.argmax(predictions, 1))
RESULTS["cnn_train_mode"] = models[0].predict(cnn_x[:2], training=True)
RESULTS["cnn_accuracy"] = cnn_sess.run(models[1].accuracy, {models[1].X: cnn_x, models[1].Y: cnn_y,
                                                             models[1].training: False})
cnn_sess.close()

# -- get_variable scopes, tf.Variable biases, nn.dropout(keep_prob), reuse
X = tf.placeholder(tf.float32, [None, 10])
Y = tf.placeholder(tf.float32, [None, 3])
keep_prob = tf.placeholder(tf.float32)
layer = X
for k, (n_in, n_out) in enumerate([(10, 12), (12, 12), (12, 3)]):
    with tf.variable_scope(f"layer{k + 1}"):
        W = tf.get_variable("W", shape=[n_in, n_out], initializer=tf.glorot_uniform_initializer())
        b = tf.Variable(tf.random_normal([n_out]))
        layer = tf.matmul(layer, W) + b
        if k < 2:
            layer = tf.nn.dropout(tf.nn.relu(layer), keep_prob=keep_prob)
with tf.variable_scope("layer1", reuse=True):
    RESULTS["reused_is_same"] = tf.get_variable("W") is tf.global_variables("layer1/W")[0]
RESULTS["scope_names"] = [layer.name, b.name, W.name]
cost = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=layer, labels=Y))
train = tf.train.AdamOptimizer(learning_rate=0.01).minimize(cost)
mlp_x = rng.rand(16, 10).astype(np.float32)
mlp_y = np.eye(3, dtype=np.float32)[rng.randint(0, 3, 16)]
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    log = []
    for _step in range(4):
        feed = {X: mlp_x, Y: mlp_y, keep_prob: 0.7}
        sess.run(train, feed)
        log.append(sess.run(cost, feed))
    RESULTS["mlp_costs"] = log
    RESULTS["mlp_logits"] = sess.run(layer, {X: mlp_x[:3], keep_prob: 1})

# -- BasicRNNCell + dynamic_rnn over image rows, last output classified
n_step, n_input, n_hidden = 6, 5, 8
RX = tf.placeholder(tf.float32, [None, n_step, n_input])
RY = tf.placeholder(tf.float32, [None, 3])
RW = tf.Variable(tf.random_normal([n_hidden, 3]))
Rb = tf.Variable(tf.random_normal([3]))
outputs, states = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicRNNCell(n_hidden), RX, dtype=tf.float32)
last = tf.transpose(outputs, [1, 0, 2])[-1]
rnn_model = tf.matmul(last, RW) + Rb
rnn_cost = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(logits=rnn_model, labels=RY))
rnn_train = tf.train.AdamOptimizer(0.01).minimize(rnn_cost)
rnn_x = rng.rand(12, n_step, n_input).astype(np.float32)
rnn_y = np.eye(3, dtype=np.float32)[rng.randint(0, 3, 12)]
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    RESULTS["rnn_costs"] = [sess.run([rnn_train, rnn_cost], {RX: rnn_x, RY: rnn_y})[1] for _ in range(4)]
    RESULTS["rnn_model"] = sess.run(rnn_model, {RX: rnn_x[:2]})
    RESULTS["rnn_state_is_last"] = bool(np.allclose(*sess.run([states, last], {RX: rnn_x[:2]})))

# -- stacked LSTM with a DropoutWrapper (keep fed 1), sparse labels: complete the word
letters = "abcdefghijklmnopqrstuvwxyz"
index = {c: i for i, c in enumerate(letters)}
words = ["word", "wood", "deep", "dive", "cold", "cool", "load", "love"]
ac_in = [np.eye(26)[[index[c] for c in w[:-1]]] for w in words]
ac_tg = [index[w[-1]] for w in words]
AX = tf.placeholder(tf.float32, [None, 3, 26])
AY = tf.placeholder(tf.int32, [None])
akeep = tf.placeholder(tf.float32, [])
AW = tf.Variable(tf.random_normal([16, 26]))
Ab = tf.Variable(tf.random_normal([26]))
cell1 = tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.BasicLSTMCell(16), output_keep_prob=akeep)
multi = tf.nn.rnn_cell.MultiRNNCell([cell1, tf.nn.rnn_cell.BasicLSTMCell(16)])
a_out, a_states = tf.nn.dynamic_rnn(multi, AX, dtype=tf.float32)
a_model = tf.matmul(tf.transpose(a_out, [1, 0, 2])[-1], AW) + Ab
a_cost = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(logits=a_model, labels=AY))
a_train = tf.train.AdamOptimizer(0.01).minimize(a_cost)
a_pred = tf.cast(tf.argmax(a_model, 1), tf.int32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    RESULTS["ac_costs"] = [sess.run([a_train, a_cost], {AX: ac_in, AY: ac_tg, akeep: 1.0})[1] for _ in range(5)]
    p = sess.run(a_pred, {AX: ac_in, akeep: 1.0})
    RESULTS["ac_words"] = [w[:3] + letters[i] for w, i in zip(words, p)]
    RESULTS["ac_final_c"] = sess.run(a_states[1].c, {AX: ac_in[:1], akeep: 1.0})

# -- seq2seq: the decoder starts from the encoder's final state
chars = list("SEPabcdefghijklmnopqrstuvwxyz") + ["k1", "k2", "k3", "k4"]
num = {c: i for i, c in enumerate(chars)}
pairs = [("word", ["k1", "k2"]), ("wood", ["k3", "k4"]), ("game", ["k2", "k3"]), ("love", ["k4", "k1"])]


def make_batch(data):
    enc = [np.eye(len(chars))[[num[c] for c in src]] for src, _ in data]
    dec = [np.eye(len(chars))[[num[c] for c in ["S"] + dst]] for _, dst in data]
    tgt = [[num[c] for c in dst + ["E"]] for _, dst in data]
    return enc, dec, tgt


enc_input = tf.placeholder(tf.float32, [None, None, len(chars)])
dec_input = tf.placeholder(tf.float32, [None, None, len(chars)])
targets = tf.placeholder(tf.int64, [None, None])
skeep = tf.placeholder(tf.float32, [])
with tf.variable_scope("encode"):
    enc_cell = tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.BasicRNNCell(12), output_keep_prob=skeep)
    _, enc_states = tf.nn.dynamic_rnn(enc_cell, enc_input, dtype=tf.float32)
with tf.variable_scope("decode"):
    dec_cell = tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.BasicRNNCell(12), output_keep_prob=skeep)
    dec_out, _ = tf.nn.dynamic_rnn(dec_cell, dec_input, initial_state=enc_states, dtype=tf.float32)
s_model = tf.layers.dense(dec_out, len(chars), activation=None)
s_cost = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(logits=s_model, labels=targets))
s_train = tf.train.AdamOptimizer(0.01).minimize(s_cost)
enc_b, dec_b, tgt_b = make_batch(pairs)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    RESULTS["all_variables"] = [v.name for v in tf.trainable_variables()]
    RESULTS["s2s_costs"] = [sess.run([s_train, s_cost], {enc_input: enc_b, dec_input: dec_b, targets: tgt_b,
                                                         skeep: 1.0})[1] for _ in range(6)]
    enc_t, dec_t, tgt_t = make_batch([("wodr", ["P", "P"])])
    prediction = tf.argmax(s_model, 2)
    RESULTS["s2s_translate"] = sess.run(prediction, {enc_input: enc_t, dec_input: dec_t, skeep: 1.0})
    RESULTS["s2s_logits"] = sess.run(s_model, {enc_input: enc_b[:1], dec_input: dec_b[:1], skeep: 1.0})[0, :, :5]
