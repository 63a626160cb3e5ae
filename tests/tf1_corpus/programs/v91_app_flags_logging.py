"""The skeleton of many TF1 tutorial scripts: tf.app.flags definitions, tf.logging, and tf.app.run(main)
with explicit argv (it parses the flags, calls main and exits with main's return value)."""
import sys

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
RESULTS = {}
flags = tf.app.flags
FLAGS = flags.FLAGS
flags.DEFINE_integer("v91_max_steps", 20, "Number of steps to run trainer.")
flags.DEFINE_float("v91_learning_rate", 0.5, "Initial learning rate.")
flags.DEFINE_string("v91_data_dir", "/tmp/v91_data", "Directory for storing input data")
flags.DEFINE_boolean("v91_fake_data", False, "If true, uses fake data for unit testing.")
flags.DEFINE_list("v91_hidden", ["4", "3"], "Hidden units.")
tf.flags.DEFINE_enum("v91_optimizer", "sgd", ["sgd", "adam"], "The optimizer.")


def main(argv):
    RESULTS["argv"] = list(argv[1:])
    tf.logging.set_verbosity(tf.logging.INFO)
    RESULTS["verbosity"] = [tf.logging.get_verbosity(), tf.logging.INFO, tf.logging.WARN, tf.logging.ERROR,
                            tf.logging.DEBUG]
    tf.logging.info("Training for %d steps", FLAGS.v91_max_steps)
    RESULTS["flags"] = [FLAGS.v91_max_steps, FLAGS.v91_learning_rate, FLAGS.v91_data_dir, FLAGS.v91_fake_data,
                        FLAGS.v91_hidden, FLAGS.v91_optimizer]
    RESULTS["flag_types"] = [type(getattr(FLAGS, n)).__name__ for n in
                             ("v91_max_steps", "v91_learning_rate", "v91_data_dir", "v91_fake_data", "v91_hidden")]
    x = tf.placeholder(tf.float32, [None, 2])
    y = tf.placeholder(tf.float32, [None, 1])
    w = tf.Variable(tf.zeros([2, 1]))
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
    opt = (tf.train.AdamOptimizer if FLAGS.v91_optimizer == "adam" else tf.train.GradientDescentOptimizer)
    train = opt(FLAGS.v91_learning_rate).minimize(loss)
    xs = np.array([[1.0, 2.0], [3.0, 1.0], [0.5, 0.5]], np.float32)
    ys = np.array([[5.0], [5.0], [1.5]], np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        losses = [sess.run([train, loss], {x: xs, y: ys})[1] for _ in range(FLAGS.v91_max_steps)]
    RESULTS["losses"] = losses
    return 3


try:
    tf.app.run(main=main, argv=[sys.argv[0], "--v91_max_steps=6", "--v91_learning_rate=0.05",
                                "--v91_fake_data", "--v91_hidden=8,5", "--v91_optimizer=adam", "extra_arg"])
except SystemExit as e:
    RESULTS["exit_code"] = e.code
