"""tf.gather of string tensors on the host (class names by predicted index)."""

from __future__ import annotations

import jaxsess.compat.v1 as tf
import numpy as np
import pytest


def test_gather_strings_by_a_computed_index_and_out_of_range():
    g = tf.Graph()
    with g.as_default():
        names = tf.constant([[b"a", b"b"], [b"c", b"d"]])
        scores = tf.placeholder(tf.float32, [None, 2])
        picked = tf.gather(names, tf.argmax(scores, 1), axis=1)
        rows = tf.gather(names, tf.placeholder_with_default(np.int64(5), []))
        assert picked.shape.as_list() == [2, None] and rows.shape.as_list() == [2]
        with tf.Session() as sess:
            out = sess.run(picked, {scores: [[0.1, 0.9], [0.8, 0.2], [0.0, 1.0]]})
            assert out.tolist() == [[b"b", b"a", b"b"], [b"d", b"c", b"d"]]
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[\] = 5 is not in \[0, 2\)"):
                sess.run(rows)
