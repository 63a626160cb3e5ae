# The program of the seed tutorial (shared/seeds/003_*.txt), with its import
# line `import tensorflow as tf` replaced by `import jaxsess as tf`.
import jaxsess as tf

a = tf.constant([1.0,2.0], name="a")
b = tf.constant([2.0,3.0], name="b")
result = a + b

sess = tf.Session()

with sess.as_default():
    print(result.eval())    
print(sess.run(result))
print(result.eval(session=sess))

sess.close()
