# Learning-rate schedules evaluated along a global step (MorvanZhou / TF1 guide style).
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
global_step = tf.train.get_or_create_global_step()
set_step = tf.placeholder(tf.int64, [])
assign_step = tf.assign(global_step, set_step)
lrs = {
    "exp": tf.train.exponential_decay(0.1, global_step, 10, 0.5),
    "exp_stair": tf.train.exponential_decay(0.1, global_step, 10, 0.5, staircase=True),
    "piecewise": tf.train.piecewise_constant(global_step, [5, 15], [1.0, 0.5, 0.1]),
    "poly": tf.train.polynomial_decay(0.1, global_step, 20, 0.01, power=0.5),
    "poly_cycle": tf.train.polynomial_decay(0.1, global_step, 7, 0.001, power=2.0, cycle=True),
    "cosine": tf.train.cosine_decay(0.1, global_step, 20, alpha=0.1),
    "cosine_restarts": tf.train.cosine_decay_restarts(0.1, global_step, 6, t_mul=2.0, m_mul=0.5),
    "inv_time": tf.train.inverse_time_decay(0.1, global_step, 5, 0.5),
    "inv_time_stair": tf.train.inverse_time_decay(0.1, global_step, 5, 0.5, staircase=True),
    "nat_exp": tf.train.natural_exp_decay(0.1, global_step, 5, 0.3),
    "linear_cosine": tf.train.linear_cosine_decay(0.1, global_step, 20),
}
x = tf.Variable(2.0)
loss = tf.square(x)
opt = tf.train.GradientDescentOptimizer(lrs["exp_stair"])
train_op = opt.minimize(loss, global_step=global_step)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in [0, 3, 5, 9, 10, 14, 15, 19, 20, 25]:
        sess.run(assign_step, {set_step: step})
        for k, v in sess.run(lrs).items():
            RESULTS.setdefault(k, []).append(v)
    sess.run(assign_step, {set_step: 0})
    xs = []
    for _ in range(12):
        _, xv, gs = sess.run([train_op, x, global_step])
        xs.append(xv)
    RESULTS["xs"] = xs
    RESULTS["gs"] = gs
    RESULTS["gs_type"] = type(gs).__name__
RESULTS["dtypes"] = {k: v.dtype.name for k, v in lrs.items()}
RESULTS["gs_name"] = global_step.name
RESULTS["names"] = {k: v.name for k, v in lrs.items() if k != "piecewise"}
