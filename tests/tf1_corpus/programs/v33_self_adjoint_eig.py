# tf.self_adjoint_eig / eigvalsh of matrices that are not symmetric: TF reads the lower triangle.
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 1e-5, "atol": 1e-5}
a = np.array([[2.0, 10.0, -3.0], [1.0, 3.0, 7.0], [0.5, -1.0, 4.0]])
batch = np.stack([a, a.T * 0.5 + 1.0])
with tf.Session() as sess:
    e, v = sess.run(tf.self_adjoint_eig(tf.constant(a)))
    RESULTS["eigenvalues"] = e
    # eigenvectors are defined up to sign: compare |v| and the reconstruction of the lower triangle
    RESULTS["abs_eigenvectors"] = np.abs(v)
    RESULTS["eigvalsh"] = sess.run(tf.self_adjoint_eigvals(tf.constant(a)))
    RESULTS["linalg_eigh_batch_values"] = sess.run(tf.linalg.eigh(tf.constant(batch, tf.float32))[0])
    RESULTS["linalg_eigvalsh_batch"] = sess.run(tf.linalg.eigvalsh(tf.constant(batch, tf.float32)))
