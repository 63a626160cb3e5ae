"""A DCGAN in the style of the TensorFlow-Examples tutorial: tf.layers generator and discriminator with
batch normalisation in training mode, AUTO_REUSE scopes, separate var_lists, UPDATE_OPS, Adam(beta1=0.5).
Kernels take an explicit v1 initializer: tf.layers' default initializer is seeded from Python's `random` in TF 2.x
(via tf_keras), so TF's own runs of the tutorial as written differ from each other. The discriminator's
moving statistics are not compared: its two calls' updates of one statistic race in TF (each reads the
variable unordered with the other's write), so TF's own values vary with thread timing."""
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
tf.set_random_seed(7)
RESULTS = {}
rng = np.random.RandomState(0)
images = rng.rand(16, 8, 8, 1).astype(np.float32) * 2 - 1
noise_dim = 6
init_k = tf.truncated_normal_initializer(stddev=0.2)


def generator(z, reuse=False):
    with tf.variable_scope("Generator", reuse=reuse):
        h = tf.layers.dense(z, units=2 * 2 * 8, kernel_initializer=init_k)
        h = tf.reshape(h, [-1, 2, 2, 8])
        h = tf.layers.batch_normalization(h, training=True)
        h = tf.nn.relu(h)
        h = tf.layers.conv2d_transpose(h, 4, 3, strides=2, padding="same", kernel_initializer=init_k)
        h = tf.layers.batch_normalization(h, training=True)
        h = tf.nn.leaky_relu(h, alpha=0.2)
        h = tf.layers.conv2d_transpose(h, 1, 3, strides=2, padding="same", kernel_initializer=init_k)
        return tf.nn.tanh(h)


def discriminator(x, reuse=tf.AUTO_REUSE):
    with tf.variable_scope("Discriminator", reuse=reuse):
        h = tf.layers.conv2d(x, 4, 3, strides=2, padding="same", kernel_initializer=init_k)
        h = tf.layers.batch_normalization(h, training=True)
        h = tf.nn.leaky_relu(h, alpha=0.2)
        h = tf.layers.flatten(h)
        return tf.layers.dense(h, 1, kernel_initializer=init_k)


noise_input = tf.placeholder(tf.float32, shape=[None, noise_dim])
real_image_input = tf.placeholder(tf.float32, shape=[None, 8, 8, 1])
gen_sample = generator(noise_input)
disc_real = discriminator(real_image_input)
disc_fake = discriminator(gen_sample)
disc_loss_real = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(logits=disc_real, labels=tf.ones_like(disc_real)))
disc_loss_fake = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(logits=disc_fake, labels=tf.zeros_like(disc_fake)))
disc_loss = disc_loss_real + disc_loss_fake
gen_loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(logits=disc_fake, labels=tf.ones_like(disc_fake)))
gen_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope="Generator")
disc_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope="Discriminator")
RESULTS["gen_vars"] = [(v.name, v.shape.as_list()) for v in gen_vars]
RESULTS["disc_vars"] = [(v.name, v.shape.as_list()) for v in disc_vars]
gen_update = tf.get_collection(tf.GraphKeys.UPDATE_OPS, scope="Generator")
disc_update = tf.get_collection(tf.GraphKeys.UPDATE_OPS, scope="Discriminator")
RESULTS["n_update_ops"] = [len(gen_update), len(disc_update)]
with tf.control_dependencies(gen_update):
    train_gen = tf.train.AdamOptimizer(learning_rate=0.002, beta1=0.5).minimize(gen_loss, var_list=gen_vars)
with tf.control_dependencies(disc_update):
    train_disc = tf.train.AdamOptimizer(learning_rate=0.002, beta1=0.5).minimize(disc_loss, var_list=disc_vars)
RESULTS["global_names"] = sorted(v.name for v in tf.global_variables())
init = tf.global_variables_initializer()
with tf.Session() as sess:
    sess.run(init)
    losses = []
    for i in range(5):
        z = rng.uniform(-1.0, 1.0, size=[4, noise_dim]).astype(np.float32)
        batch = images[(i * 4) % 16:(i * 4) % 16 + 4]
        _, _, gl, dl = sess.run([train_gen, train_disc, gen_loss, disc_loss],
                                feed_dict={real_image_input: batch, noise_input: z})
        losses.append([gl, dl])
    RESULTS["losses"] = losses
    z = rng.uniform(-1.0, 1.0, size=[2, noise_dim]).astype(np.float32)
    RESULTS["sample"] = sess.run(gen_sample, feed_dict={noise_input: z})
