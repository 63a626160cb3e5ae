import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}

# The Keras GAN recipe: compile the discriminator, freeze it, build and compile the combined
# model, then alternate train_on_batch calls.
latent_dim = 2
generator = tf.keras.Sequential([
    tf.keras.layers.Dense(4, activation="relu", input_dim=latent_dim,
                          kernel_initializer=tf.keras.initializers.Constant(0.3)),
    tf.keras.layers.Dense(3, activation="tanh", kernel_initializer=tf.keras.initializers.Constant(-0.2)),
], name="generator")
discriminator = tf.keras.Sequential([
    tf.keras.layers.Dense(4, input_dim=3, kernel_initializer=tf.keras.initializers.Constant(0.1)),
    tf.keras.layers.LeakyReLU(alpha=0.2),
    tf.keras.layers.Dense(1, activation="sigmoid", kernel_initializer=tf.keras.initializers.Constant(0.5)),
], name="discriminator")
discriminator.compile(loss="binary_crossentropy", optimizer=tf.keras.optimizers.Adam(0.01, 0.5),
                      metrics=["accuracy"])
discriminator.trainable = False
z = tf.keras.Input(shape=(latent_dim,))
validity = discriminator(generator(z))
combined = tf.keras.Model(z, validity)
combined.compile(loss="binary_crossentropy", optimizer=tf.keras.optimizers.Adam(0.01, 0.5))

RESULTS["combined_trainable"] = len(combined.trainable_weights)
RESULTS["discriminator_trainable"] = len(discriminator.trainable_weights)

rng = np.random.RandomState(0)
real = rng.rand(4, 3).astype(np.float32)
d_losses, g_losses = [], []
for step in range(3):
    noise = rng.rand(4, latent_dim).astype(np.float32)
    fake = generator.predict(noise)
    d_real = discriminator.train_on_batch(real, np.ones((4, 1)))
    d_fake = discriminator.train_on_batch(fake, np.zeros((4, 1)))
    d_losses.append([float(v) for v in 0.5 * np.add(d_real, d_fake)])
    g_losses.append(float(combined.train_on_batch(noise, np.ones((4, 1)))))
RESULTS["d_losses"] = d_losses
RESULTS["g_losses"] = g_losses
RESULTS["generator_weights"] = generator.get_weights()
RESULTS["discriminator_weights"] = discriminator.get_weights()
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
