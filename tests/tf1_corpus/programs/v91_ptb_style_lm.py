"""A small word language model in the style of TensorFlow's PTB tutorial: a uniform initializer on the
model's variable scope, embedding, a MultiRNNCell of BasicLSTMCells in DropoutWrapper (training keep_prob
1.0), dynamic_rnn carrying the final state across runs by feeding the state tuple, clipped gradients,
a learning-rate variable set through a placeholder, and a reused model for evaluation."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
tf.set_random_seed(1234)
RESULTS = {}
vocab, hidden, layers, steps, batch = 12, 8, 2, 5, 3
rng = np.random.RandomState(3)
data = rng.randint(0, vocab, size=batch * steps * 4 + 1)


class Model:
    def __init__(self, is_training):
        self.inputs = tf.placeholder(tf.int32, [batch, steps])
        self.targets = tf.placeholder(tf.int32, [batch, steps])

        def make_cell():
            cell = tf.nn.rnn_cell.BasicLSTMCell(hidden, forget_bias=0.0, state_is_tuple=True)
            if is_training:
                cell = tf.nn.rnn_cell.DropoutWrapper(cell, output_keep_prob=1.0)
            return cell

        cell = tf.nn.rnn_cell.MultiRNNCell([make_cell() for _ in range(layers)], state_is_tuple=True)
        self.initial_state = cell.zero_state(batch, tf.float32)
        embedding = tf.get_variable("embedding", [vocab, hidden], dtype=tf.float32)
        emb = tf.nn.embedding_lookup(embedding, self.inputs)
        outputs, self.final_state = tf.nn.dynamic_rnn(cell, emb, initial_state=self.initial_state)
        output = tf.reshape(outputs, [-1, hidden])
        softmax_w = tf.get_variable("softmax_w", [hidden, vocab], dtype=tf.float32)
        softmax_b = tf.get_variable("softmax_b", [vocab], dtype=tf.float32)
        logits = tf.reshape(tf.nn.xw_plus_b(output, softmax_w, softmax_b), [batch, steps, vocab])
        xent = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=self.targets, logits=logits)
        self.cost = tf.reduce_sum(tf.reduce_mean(xent, axis=0))
        if not is_training:
            return
        self.lr = tf.Variable(0.0, trainable=False)
        tvars = tf.trainable_variables()
        grads, self.norm = tf.clip_by_global_norm(tf.gradients(self.cost, tvars), 5.0)
        optimizer = tf.train.GradientDescentOptimizer(self.lr)
        self.train_op = optimizer.apply_gradients(zip(grads, tvars),
                                                  global_step=tf.train.get_or_create_global_step())
        self.new_lr = tf.placeholder(tf.float32, shape=[], name="new_learning_rate")
        self.lr_update = tf.assign(self.lr, self.new_lr)


initializer = tf.random_uniform_initializer(-0.1, 0.1)
with tf.variable_scope("Model", reuse=None, initializer=initializer):
    m = Model(is_training=True)
with tf.variable_scope("Model", reuse=True, initializer=initializer):
    mvalid = Model(is_training=False)
RESULTS["variables"] = [(v.name, v.shape.as_list()) for v in tf.trainable_variables()]
RESULTS["state_structure"] = [type(m.initial_state).__name__, type(m.initial_state[0]).__name__]


def run_epoch(session, model, eval_op=None):
    costs, iters = 0.0, 0
    state = session.run(model.initial_state)
    fetches = {"cost": model.cost, "final_state": model.final_state}
    if eval_op is not None:
        fetches["eval_op"] = eval_op
    for step in range(4):
        s = step * batch * steps
        x = data[s:s + batch * steps].reshape(batch, steps)
        y = data[s + 1:s + batch * steps + 1].reshape(batch, steps)
        feed_dict = {model.inputs: x, model.targets: y}
        for i, (c, h) in enumerate(model.initial_state):
            feed_dict[c] = state[i].c
            feed_dict[h] = state[i].h
        vals = session.run(fetches, feed_dict)
        costs += vals["cost"]
        state = vals["final_state"]
        iters += steps
    return np.exp(costs / iters), state


with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    perplexities = []
    for epoch in range(3):
        session.run(m.lr_update, feed_dict={m.new_lr: 1.0 * (0.5 ** epoch)})
        train_ppl, state = run_epoch(session, m, eval_op=m.train_op)
        valid_ppl, _ = run_epoch(session, mvalid)
        perplexities.append([train_ppl, valid_ppl, session.run(m.lr)])
    RESULTS["perplexities"] = perplexities
    RESULTS["final_state_h"] = state[1].h
    RESULTS["global_step"] = session.run(tf.train.get_global_step())
