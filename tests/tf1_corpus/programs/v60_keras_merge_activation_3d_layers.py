"""More Keras layers in a functional model: merges, advanced activations, LayerNormalization,
DepthwiseConv2D, 3-D convolution/pooling/padding; weights, names, shapes, outputs and a training step."""

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
K = tf.keras.backend
L = tf.keras.layers
RESULTS = {}
rng = np.random.RandomState(2)
const = tf.keras.initializers.Constant

a = L.Input((4,))
b = L.Input((4,))
seq = L.Input((3, 4))
merged = [L.Maximum()([a, b]), L.Minimum()([a, b]), L.Average()([a, b, a]), L.Dot(axes=1)([a, b]),
          L.Dot(axes=1, normalize=True)([a, b]), L.Dot(axes=(2, 2))([seq, seq]),
          L.maximum([a, b]), L.minimum([a, b]), L.average([a, b]), L.multiply([a, b]), L.subtract([a, b]),
          L.dot([a, b], axes=-1)]
acts = [L.ELU()(a), L.ELU(alpha=0.5)(a), L.ThresholdedReLU(theta=0.4)(a),
        L.PReLU(alpha_initializer=const(0.25))(a), L.PReLU(alpha_initializer=const(0.1), shared_axes=[1])(seq),
        L.LayerNormalization()(a), L.LayerNormalization(axis=[1, 2], epsilon=1e-5)(seq),
        L.LayerNormalization(center=False, gamma_initializer=const(2.0))(seq)]
img = L.Input((5, 5, 2))
dw = L.DepthwiseConv2D(3, depth_multiplier=2, padding="same", depthwise_initializer=const(0.1),
                       bias_initializer=const(0.05), activation="relu")(img)
dw2 = L.DepthwiseConv2D((2, 2), strides=2, use_bias=False, depthwise_initializer=const(0.2))(img)
vol = L.Input((4, 4, 4, 1))
c3 = L.Conv3D(2, 3, padding="same", kernel_initializer=const(0.05), bias_initializer=const(0.1))(vol)
p3 = L.MaxPooling3D()(c3)
ap3 = L.AveragePooling3D(pool_size=(2, 2, 1))(c3)
gm3, ga3 = L.GlobalMaxPooling3D()(c3), L.GlobalAveragePooling3D()(c3)
zp3 = L.ZeroPadding3D(1)(vol)
cr3 = L.Cropping3D(((1, 0), (0, 1), (1, 1)))(vol)
up3 = L.UpSampling3D((1, 2, 1))(vol)
sd2 = L.SpatialDropout2D(0.5)(img)
outs = merged + acts + [dw, dw2, c3, p3, ap3, gm3, ga3, zp3, cr3, up3, sd2]
RESULTS["shapes"] = [o.shape.as_list() for o in outs]
RESULTS["layer_names"] = [o.name.split("/")[0] for o in outs]

feed = {a: rng.randn(2, 4).astype(np.float32), b: rng.randn(2, 4).astype(np.float32),
        seq: rng.randn(2, 3, 4).astype(np.float32), img: rng.randn(2, 5, 5, 2).astype(np.float32),
        vol: rng.randn(2, 4, 4, 4, 1).astype(np.float32)}
sess = K.get_session()
values = sess.run(outs[:-1], feed)
for i, v in enumerate(values):
    RESULTS[f"out{i}"] = v
RESULTS["spatial_dropout_test_phase"] = sess.run(sd2, feed)
RESULTS["weights"] = sorted((v.name, v.shape.as_list()) for v in tf.global_variables())

# A model with PReLU + LayerNormalization trained by fit from constant weights.
x = rng.rand(8, 4).astype(np.float32)
y = rng.randint(0, 3, 8)
inp = L.Input((4,))
h = L.Dense(6, kernel_initializer=const(0.1), bias_initializer=const(0.01))(inp)
h = L.PReLU(alpha_initializer=const(0.2))(h)
h = L.LayerNormalization()(h)
h = L.Dense(3, kernel_initializer=tf.keras.initializers.Identity(), activation="softmax")(h)
model = tf.keras.Model(inp, h)
model.compile(tf.keras.optimizers.SGD(0.1), "sparse_categorical_crossentropy")
hist = model.fit(x, y, batch_size=4, epochs=3, shuffle=False, verbose=0)
RESULTS["fit_loss"] = np.array(hist.history["loss"], np.float32)
RESULTS["fit_weights"] = [w for w in model.get_weights()]
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}
