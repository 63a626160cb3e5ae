# Keras refuses a Lambda layer's Python bytecode when it rebuilds a model from its JSON or
# config (safe mode), with its message naming the opt-out.
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()

RESULTS = {}
K = tf.keras
model = K.Sequential([K.layers.Lambda(lambda t: t * 2.0, input_shape=(3,))])
try:
    K.models.model_from_json(model.to_json())
    RESULTS["model_from_json"] = "loaded"
except ValueError as e:
    RESULTS["model_from_json"] = ["ValueError", str(e)]
try:
    K.models.model_from_config({"class_name": "Sequential", "config": model.get_config()})
    RESULTS["model_from_config"] = "loaded"
except ValueError as e:
    RESULTS["model_from_config"] = ["ValueError", str(e)]
