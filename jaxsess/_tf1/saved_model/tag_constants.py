"""Meta graph tags, as ``tf.compat.v1.saved_model.tag_constants``."""

SERVING = "serve"
TRAINING = "train"
EVAL = "eval"
GPU = "gpu"
TPU = "tpu"

__all__ = ["SERVING", "TRAINING", "EVAL", "GPU", "TPU"]
