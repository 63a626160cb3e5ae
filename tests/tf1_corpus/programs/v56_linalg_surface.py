import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
TOLERANCE = {"rtol": 1e-4, "atol": 1e-5}

a = tf.constant([[4.0, 3.0, 1.0], [6.0, 3.0, 2.0], [1.0, 5.0, 7.0]])
batch = tf.constant(np.array([[[2.0, 1.0], [1.0, 3.0]], [[0.0, 1.0], [2.0, 1.0]]]))
rhs = tf.constant([[1.0], [2.0], [3.0]])
lu, p = tf.linalg.lu(a)
blu, bp = tf.linalg.lu(batch, output_idx_type=tf.int64)
diags = tf.constant([[2.0, 1.0, 0.0], [4.0, 5.0, 6.0], [0.0, 1.0, 3.0]])
tri_rhs = tf.constant([[1.0, 0.0], [2.0, 1.0], [3.0, -1.0]])
outs = {
    "lu": lu, "p": p, "blu": blu, "bp": bp,
    "solve": tf.linalg.lu_solve(lu, p, rhs),
    "reconstruct": tf.linalg.lu_reconstruct(lu, p), "breconstruct": tf.linalg.lu_reconstruct(*tf.linalg.lu(batch)),
    "inverse": tf.linalg.lu_matrix_inverse(lu, p), "binverse": tf.linalg.lu_matrix_inverse(*tf.linalg.lu(batch)),
    "tri_solve": tf.linalg.tridiagonal_solve(diags, tri_rhs),
    "tri_solve_vec": tf.linalg.tridiagonal_solve(diags, tf.constant([1.0, 2.0, 3.0])),
    "tri_solve_seq": tf.linalg.tridiagonal_solve([diags[0], diags[1], diags[2]], tri_rhs, diagonals_format="sequence"),
    "tri_solve_mat": tf.linalg.tridiagonal_solve(tf.constant([[4.0, 2.0, 0.0], [1.0, 5.0, 1.0], [0.0, 3.0, 6.0]]),
                                                 tri_rhs, diagonals_format="matrix"),
    "tri_matmul": tf.linalg.tridiagonal_matmul(diags, tri_rhs),
    "tensor_diag": tf.linalg.tensor_diag(tf.constant([1, 2, 3])),
    "tensor_diag_part": tf.linalg.tensor_diag_part(a),
}
normed, norm = tf.linalg.normalize(tf.constant([[3.0, 4.0], [6.0, 8.0]]), axis=1)
normed_all, norm_all = tf.linalg.normalize(tf.constant([[3.0, 4.0], [6.0, 8.0]]))
outs.update({"normed": normed, "norm": norm, "normed_all": normed_all, "norm_all": norm_all})
with tf.Session() as sess:
    vals = sess.run(outs)
    for k, v in vals.items():
        RESULTS[k] = v
        RESULTS[k + "/shape"] = outs[k].shape.as_list()
        RESULTS[k + "/dtype"] = outs[k].dtype.name
    RESULTS["lu_name"] = lu.name
    RESULTS["p_name"] = p.name
