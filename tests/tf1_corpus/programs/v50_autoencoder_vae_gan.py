# Autoencoder, VAE with fed noise, and a tiny GAN (aymericdamien style), with fixed initial weights.
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
rng = np.random.RandomState(4)
data = rng.rand(6, 8).astype(np.float32)


def W(shape, seed):
    return tf.Variable(np.random.RandomState(seed).randn(*shape).astype(np.float32) * 0.3)


# autoencoder
X = tf.placeholder("float", [None, 8])
weights = {"encoder_h1": W([8, 4], 1), "decoder_h1": W([4, 8], 2)}
biases = {"encoder_b1": tf.Variable(tf.zeros([4])), "decoder_b1": tf.Variable(tf.zeros([8]))}
enc = tf.nn.sigmoid(tf.add(tf.matmul(X, weights["encoder_h1"]), biases["encoder_b1"]))
dec = tf.nn.sigmoid(tf.add(tf.matmul(enc, weights["decoder_h1"]), biases["decoder_b1"]))
ae_loss = tf.reduce_mean(tf.pow(X - dec, 2))
ae_opt = tf.train.RMSPropOptimizer(0.05).minimize(ae_loss)
noisy = X + 0.1 * tf.constant(rng.randn(6, 8).astype(np.float32))
dae = tf.nn.sigmoid(tf.matmul(tf.nn.sigmoid(tf.matmul(tf.clip_by_value(noisy, 0., 1.), weights["encoder_h1"])),
                              weights["decoder_h1"]))

# VAE
eps = tf.placeholder(tf.float32, [None, 2])
h = tf.nn.tanh(tf.matmul(X, W([8, 5], 3)))
z_mean = tf.matmul(h, W([5, 2], 4))
z_std = tf.matmul(h, W([5, 2], 5))
z = z_mean + tf.exp(z_std / 2) * eps
logits = tf.matmul(tf.nn.tanh(tf.matmul(z, W([2, 5], 6))), W([5, 8], 7))
recon = tf.reduce_sum(tf.nn.sigmoid_cross_entropy_with_logits(labels=X, logits=logits), 1)
kl = -0.5 * tf.reduce_sum(1 + z_std - tf.square(z_mean) - tf.exp(z_std), 1)
vae_loss = tf.reduce_mean(recon + kl)
vae_opt = tf.train.AdamOptimizer(0.01).minimize(vae_loss)

# GAN
noise = tf.placeholder(tf.float32, [None, 3])
real = tf.placeholder(tf.float32, [None, 8])


def generator(zz, reuse=False):
    with tf.variable_scope("Generator", reuse=reuse):
        hh = tf.layers.dense(zz, 6, activation=tf.nn.leaky_relu, kernel_initializer=tf.constant_initializer(0.1))
        return tf.layers.dense(hh, 8, activation=tf.nn.sigmoid, kernel_initializer=tf.constant_initializer(-0.05))


def discriminator(xx, reuse=False):
    with tf.variable_scope("Discriminator", reuse=reuse):
        hh = tf.layers.dense(xx, 6, activation=tf.nn.relu, kernel_initializer=tf.constant_initializer(0.07))
        return tf.layers.dense(hh, 1, kernel_initializer=tf.constant_initializer(0.03))


gen = generator(noise)
d_real = discriminator(real)
d_fake = discriminator(gen, reuse=True)
d_loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.ones_like(d_real), logits=d_real)) + \
    tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.zeros_like(d_fake), logits=d_fake))
g_loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.ones_like(d_fake), logits=d_fake))
g_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope="Generator")
d_vars = [v for v in tf.trainable_variables() if v.name.startswith("Discriminator")]
train_d = tf.train.AdamOptimizer(0.002, beta1=0.5).minimize(d_loss, var_list=d_vars)
train_g = tf.train.AdamOptimizer(0.002, beta1=0.5).minimize(g_loss, var_list=g_vars)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    ae = [sess.run([ae_opt, ae_loss], {X: data})[1] for _ in range(4)]
    RESULTS["ae_losses"] = ae
    RESULTS["dae"] = sess.run(dae, {X: data})
    e = rng.randn(6, 2).astype(np.float32)
    RESULTS["vae_losses"] = [sess.run([vae_opt, vae_loss], {X: data, eps: e})[1] for _ in range(4)]
    nz = rng.uniform(-1., 1., size=[6, 3]).astype(np.float32)
    gan = []
    for _ in range(3):
        _, dl = sess.run([train_d, d_loss], {real: data, noise: nz})
        _, gl = sess.run([train_g, g_loss], {noise: nz})
        gan.append([dl, gl])
    RESULTS["gan"] = gan
    RESULTS["gen"] = sess.run(gen, {noise: nz[:2]})
RESULTS["g_vars"] = [v.name for v in g_vars]
RESULTS["d_vars"] = [v.name for v in d_vars]
RESULTS["n_vars"] = len(tf.global_variables())
RESULTS["names"] = [d_fake.name, gen.name, kl.name, vae_loss.name]
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
