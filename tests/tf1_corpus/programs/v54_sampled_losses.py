"""word2vec-style sampled losses with explicit sampled_values (deterministic),
remove_accidental_hits, num_true>1, partitioned weights, and the candidate
samplers' output shapes/dtypes."""
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()

RESULTS = {}
V, D, B, S = 10, 3, 4, 5
w_np = (0.3 * np.sin(np.arange(V * D) * 0.9)).reshape(V, D).astype(np.float32)
b_np = (0.1 * np.arange(V)).astype(np.float32)
inputs = tf.constant((0.5 * np.cos(np.arange(B * D))).reshape(B, D).astype(np.float32))
labels = tf.constant([[1], [4], [7], [2]], dtype=tf.int64)
labels2 = tf.constant([[1, 2], [4, 5], [7, 0], [2, 3]], dtype=tf.int64)
weights = tf.Variable(w_np, name="nce_w")
biases = tf.Variable(b_np, name="nce_b")
sampled = tf.constant([0, 2, 4, 6, 8], dtype=tf.int64)
true_exp = tf.fill([B, 1], 0.5)
true_exp2 = tf.fill([B, 2], 0.5)
samp_exp = tf.constant([0.1, 0.2, 0.3, 0.4, 0.5])

nce = tf.nn.nce_loss(weights, biases, labels, inputs, S, V, sampled_values=(sampled, true_exp, samp_exp))
nce_hits = tf.nn.nce_loss(weights, biases, labels, inputs, S, V, sampled_values=(sampled, true_exp, samp_exp),
                          remove_accidental_hits=True)
nce2 = tf.nn.nce_loss(weights, biases, labels2, inputs, S, V, num_true=2,
                      sampled_values=(sampled, true_exp2, samp_exp))
ssm = tf.nn.sampled_softmax_loss(weights, biases, labels, inputs, S, V,
                                 sampled_values=(sampled, true_exp, samp_exp))
ssm_nohits = tf.nn.sampled_softmax_loss(weights, biases, labels, inputs, S, V, remove_accidental_hits=False,
                                        sampled_values=(sampled, true_exp, samp_exp))
loss = tf.reduce_mean(nce)
grads = [tf.convert_to_tensor(g) for g in tf.gradients(loss + tf.reduce_mean(ssm), [weights, biases, inputs])]

# partitioned softmax weights, as in large-vocabulary language models
with tf.variable_scope("part", partitioner=tf.fixed_size_partitioner(2)):
    pw = tf.get_variable("w", [V, D], initializer=tf.zeros_initializer())
    pb = tf.get_variable("b", [V], initializer=tf.zeros_initializer())
ssm_part = tf.nn.sampled_softmax_loss(list(pw), pb, labels, inputs, S, V, partition_strategy="div",
                                      sampled_values=(sampled, true_exp, samp_exp))

cands = tf.nn.log_uniform_candidate_sampler(true_classes=labels, num_true=1, num_sampled=S, unique=True,
                                            range_max=V, seed=1)
ucands = tf.nn.uniform_candidate_sampler(labels, 1, S, True, V, seed=2)
fcands = tf.nn.fixed_unigram_candidate_sampler(labels, 1, 3, True, V, unigrams=[1.0] * V, seed=3)
RESULTS["cand_meta"] = [(t.dtype.name, t.shape.as_list()) for t in list(cands) + list(ucands) + list(fcands)]
RESULTS["shapes"] = [t.shape.as_list() for t in (nce, nce_hits, nce2, ssm, ssm_part)]
RESULTS["pvars"] = [(v.name, v.shape.as_list()) for v in tf.global_variables() if v.name.startswith("part")]

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run([list(pw)[0].assign(w_np[:5]), list(pw)[1].assign(w_np[5:]),
              list(pb)[0].assign(b_np[:5]), list(pb)[1].assign(b_np[5:])])
    RESULTS["nce"] = sess.run(nce)
    RESULTS["nce_hits"] = sess.run(nce_hits)
    RESULTS["nce2"] = sess.run(nce2)
    RESULTS["ssm"] = sess.run(ssm)
    RESULTS["ssm_nohits"] = sess.run(ssm_nohits)
    RESULTS["ssm_part"] = sess.run(ssm_part)
    RESULTS["grads"] = sess.run(grads)
    c = sess.run(cands)
    RESULTS["cand_unique"] = len(set(c[0].tolist())) == S
    RESULTS["cand_range"] = bool(np.all((c[0] >= 0) & (c[0] < V)))
    uc = sess.run(ucands)
    RESULTS["uniform_true_expected_shape"] = list(uc[1].shape)
    fc = sess.run(fcands)
    RESULTS["unigram_sampled_dtype"] = fc[0].dtype.name
