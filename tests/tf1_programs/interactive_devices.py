# An interactive, notebook-style session with Tensor.eval and Operation.run,
# device scopes and ConfigProto (soft placement for a GPU that is not there).
import jaxsess as tf

config = tf.ConfigProto(allow_soft_placement=True)
sess = tf.InteractiveSession(config=config)

with tf.device("/gpu:0"):
    a = tf.constant([[1.0, 2.0], [3.0, 4.0]], name="a")
    b = tf.matmul(a, a, name="b")
with tf.device("/cpu:0"):
    c = tf.reduce_sum(b, name="c")

p = tf.placeholder(tf.float32, [2], name="p")
q = p * 10.0

print(b.eval())
print(c.eval())
print(q.eval(feed_dict={p: [1.5, 2.5]}))
print(tf.get_default_session() is sess)
tf.group(b, c).run()
print(a.shape, a.dtype == tf.float32, a.dtype.name, b.op.device)
sess.close()
print(tf.get_default_session() is None)

strict = tf.Session(config=tf.ConfigProto(allow_soft_placement=False))
try:
    strict.run(b)
except tf.errors.InvalidArgumentError as e:
    print("InvalidArgumentError:", str(e).split(":")[0])
finally:
    strict.close()
