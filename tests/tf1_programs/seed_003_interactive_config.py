# The second and third snippets of the seed tutorial (shared/seeds/003_*.txt):
# InteractiveSession as the default session, and ConfigProto.
import jaxsess as tf

a = tf.constant([1.0,2.0], name="a")
b = tf.constant([2.0,3.0], name="b")
result = a + b

#自动将生成的会话注册为默认会话
sess = tf.InteractiveSession()
print(result.eval())

sess.close()

config = tf.ConfigProto(allow_soft_placement=True, log_device_placement=True)
sess1 = tf.InteractiveSession(config=config)
sess2 = tf.Session(config=config)

print(sess2.run(result))
print(result.eval())
sess2.close()
sess1.close()
