"""PTB-style word language model (tensorflow/models ptb_word_lm.py): embedding,
MultiRNNCell of dropout-wrapped LSTMs, state fed back layer by layer through
feed_dict, sequence_loss by hand, clip_by_global_norm, lr variable + assign."""
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()

RESULTS = {}
VOCAB, HIDDEN, LAYERS, BATCH, STEPS = 12, 6, 2, 2, 4
rng = np.random.RandomState(0)
data = rng.randint(0, VOCAB, size=BATCH * STEPS * 3 + 1).astype(np.int32)


class PTBModel(object):
    def __init__(self, is_training):
        self.input_data = tf.placeholder(tf.int32, [BATCH, STEPS], name="input")
        self.targets = tf.placeholder(tf.int32, [BATCH, STEPS], name="targets")

        def lstm_cell():
            cell = tf.nn.rnn_cell.BasicLSTMCell(HIDDEN, forget_bias=0.0, state_is_tuple=True,
                                                reuse=tf.get_variable_scope().reuse)
            if is_training:
                cell = tf.nn.rnn_cell.DropoutWrapper(cell, output_keep_prob=1.0)
            return cell

        cell = tf.nn.rnn_cell.MultiRNNCell([lstm_cell() for _ in range(LAYERS)], state_is_tuple=True)
        self.initial_state = cell.zero_state(BATCH, tf.float32)
        with tf.device("/cpu:0"):
            embedding = tf.get_variable("embedding", [VOCAB, HIDDEN], dtype=tf.float32)
            inputs = tf.nn.embedding_lookup(embedding, self.input_data)
        inputs = tf.unstack(inputs, num=STEPS, axis=1)
        outputs, state = tf.nn.static_rnn(cell, inputs, initial_state=self.initial_state)
        output = tf.reshape(tf.concat(outputs, 1), [-1, HIDDEN])
        softmax_w = tf.get_variable("softmax_w", [HIDDEN, VOCAB], dtype=tf.float32)
        softmax_b = tf.get_variable("softmax_b", [VOCAB], dtype=tf.float32)
        logits = tf.nn.xw_plus_b(output, softmax_w, softmax_b)
        logits = tf.reshape(logits, [BATCH, STEPS, VOCAB])
        crossent = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=self.targets, logits=logits)
        loss = tf.reduce_sum(tf.reduce_mean(crossent, axis=0))
        self.cost = loss
        self.final_state = state
        self.logits = logits
        if not is_training:
            return
        self.lr = tf.Variable(0.0, trainable=False)
        tvars = tf.trainable_variables()
        grads, self.global_norm = tf.clip_by_global_norm(tf.gradients(self.cost, tvars), 5.0)
        optimizer = tf.train.GradientDescentOptimizer(self.lr)
        self.train_op = optimizer.apply_gradients(zip(grads, tvars),
                                                  global_step=tf.train.get_or_create_global_step())
        self.new_lr = tf.placeholder(tf.float32, shape=[], name="new_learning_rate")
        self.lr_update = tf.assign(self.lr, self.new_lr)


initializer = tf.random_uniform_initializer(-0.1, 0.1, seed=1)
with tf.name_scope("Train"):
    with tf.variable_scope("Model", reuse=None, initializer=initializer):
        m = PTBModel(is_training=True)
with tf.name_scope("Valid"):
    with tf.variable_scope("Model", reuse=True, initializer=initializer):
        mvalid = PTBModel(is_training=False)

RESULTS["tvars"] = [(v.name, v.shape.as_list()) for v in tf.trainable_variables()]
RESULTS["gvars"] = [v.name for v in tf.global_variables()]
RESULTS["state_types"] = [type(s).__name__ for s in m.final_state]
RESULTS["init_state_names"] = [s.c.name for s in m.initial_state]
RESULTS["logits_name"] = m.logits.name
RESULTS["cost_shape"] = m.cost.shape.as_list()


def run_epoch(session, model, eval_op=None):
    costs, iters = 0.0, 0
    state = session.run(model.initial_state)
    fetches = {"cost": model.cost, "final_state": model.final_state}
    if eval_op is not None:
        fetches["eval_op"] = eval_op
    for step in range(3):
        x = data[step * BATCH * STEPS:(step + 1) * BATCH * STEPS].reshape(BATCH, STEPS)
        y = data[step * BATCH * STEPS + 1:(step + 1) * BATCH * STEPS + 1].reshape(BATCH, STEPS)
        feed_dict = {model.input_data: x, model.targets: y}
        for i, (c, h) in enumerate(model.initial_state):
            feed_dict[c] = state[i].c
            feed_dict[h] = state[i].h
        vals = session.run(fetches, feed_dict)
        state = vals["final_state"]
        costs += vals["cost"]
        iters += STEPS
    return np.exp(costs / iters), state


with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    for v in tf.trainable_variables():
        shape = v.shape.as_list()
        n = int(np.prod(shape))
        session.run(v.assign((0.1 * np.cos(np.arange(n) * 0.37)).reshape(shape).astype(np.float32)))
    perps = []
    for i in range(2):
        session.run(m.lr_update, feed_dict={m.new_lr: 1.0 * 0.5 ** i})
        train_perp, st = run_epoch(session, m, eval_op=m.train_op)
        valid_perp, _ = run_epoch(session, mvalid)
        perps.append((train_perp, valid_perp))
    RESULTS["perplexities"] = np.array(perps)
    RESULTS["final_state_type"] = type(st).__name__
    RESULTS["final_state_0"] = st[0]
    RESULTS["lr"] = session.run(m.lr)
    RESULTS["global_step"] = session.run(tf.train.get_global_step())
    RESULTS["gnorm_dtype"] = m.global_norm.dtype.name
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
