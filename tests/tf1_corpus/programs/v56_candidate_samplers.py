import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

# word2vec-style negative sampling from a unigram^0.75 table; draws differ from TF's, so check
# shapes, dtypes, supports, expected counts of the deterministic parts.
RESULTS = {}
TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}

counts = [5, 1, 1, 2, 3, 1]
labels = tf.constant([[1], [3]], tf.int64)
fixed = tf.nn.fixed_unigram_candidate_sampler(labels, 1, 4, True, 6, unigrams=counts, distortion=0.75, seed=3)
fixed_rep = tf.random.fixed_unigram_candidate_sampler(labels, 1, 50, False, 7, num_reserved_ids=1,
                                                       unigrams=counts, seed=4)
everything = tf.random.all_candidate_sampler(labels, 1, 5, True)
with tf.Session() as sess:
    f, r, a = sess.run([fixed, fixed_rep, everything])
RESULTS["unique_distinct"] = len(set(f.sampled_candidates.tolist())) == 4
RESULTS["unique_in_range"] = bool(f.sampled_candidates.min() >= 0 and f.sampled_candidates.max() < 6)
RESULTS["reserved_never"] = bool(r.sampled_candidates.min() >= 1)
p = np.concatenate([[0.0], np.power(counts, 1.0)])
p = p / p.sum()
RESULTS["rep_true_expected"] = r.true_expected_count
RESULTS["rep_sampled_expected_ok"] = bool(np.allclose(r.sampled_expected_count, 50 * p[r.sampled_candidates],
                                                      rtol=1e-5))
RESULTS["unique_expected_range"] = bool(np.all((f.true_expected_count > 0) & (f.true_expected_count <= 1)))
for k, t in [("fixed", fixed), ("all", everything)]:
    RESULTS[k + "/dtypes"] = [x.dtype.name for x in t]
    RESULTS[k + "/shapes"] = [x.shape.as_list() for x in t]
    RESULTS[k + "/type"] = type(t).__name__
RESULTS["all"] = list(a)
