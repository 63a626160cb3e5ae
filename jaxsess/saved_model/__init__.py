"""``tf.compat.v1.saved_model``: SavedModel directories written and loaded in TF1's
format (:mod:`~jaxsess.saved_model.builder`, :mod:`~jaxsess.saved_model.loader`)."""

from jaxsess._tf1.saved_model.load_v2 import load as load_v2, load_either as load
from jaxsess.saved_model import (
    builder as builder,
    constants as constants,
    loader as loader,
    main_op as main_op,
    signature_constants as signature_constants,
    signature_def_utils as signature_def_utils,
    tag_constants as tag_constants,
    utils as utils,
)
from jaxsess.saved_model.builder import SavedModelBuilder as Builder, simple_save as simple_save
from jaxsess.saved_model.constants import (
    ASSETS_DIRECTORY as ASSETS_DIRECTORY,
    ASSETS_KEY as ASSETS_KEY,
    DEBUG_DIRECTORY as DEBUG_DIRECTORY,
    DEBUG_INFO_FILENAME_PB as DEBUG_INFO_FILENAME_PB,
    LEGACY_INIT_OP_KEY as LEGACY_INIT_OP_KEY,
    MAIN_OP_KEY as MAIN_OP_KEY,
    SAVED_MODEL_FILENAME_PB as SAVED_MODEL_FILENAME_PB,
    SAVED_MODEL_FILENAME_PBTXT as SAVED_MODEL_FILENAME_PBTXT,
    SAVED_MODEL_SCHEMA_VERSION as SAVED_MODEL_SCHEMA_VERSION,
    VARIABLES_DIRECTORY as VARIABLES_DIRECTORY,
    VARIABLES_FILENAME as VARIABLES_FILENAME,
)
from jaxsess.saved_model.loader import maybe_saved_model_directory as maybe_saved_model_directory
from jaxsess.saved_model.main_op import main_op_with_restore as main_op_with_restore
from jaxsess.saved_model.signature_constants import (
    CLASSIFY_INPUTS as CLASSIFY_INPUTS,
    CLASSIFY_METHOD_NAME as CLASSIFY_METHOD_NAME,
    CLASSIFY_OUTPUT_CLASSES as CLASSIFY_OUTPUT_CLASSES,
    CLASSIFY_OUTPUT_SCORES as CLASSIFY_OUTPUT_SCORES,
    DEFAULT_SERVING_SIGNATURE_DEF_KEY as DEFAULT_SERVING_SIGNATURE_DEF_KEY,
    PREDICT_INPUTS as PREDICT_INPUTS,
    PREDICT_METHOD_NAME as PREDICT_METHOD_NAME,
    PREDICT_OUTPUTS as PREDICT_OUTPUTS,
    REGRESS_INPUTS as REGRESS_INPUTS,
    REGRESS_METHOD_NAME as REGRESS_METHOD_NAME,
    REGRESS_OUTPUTS as REGRESS_OUTPUTS,
)
from jaxsess.saved_model.signature_def_utils import (
    build_signature_def as build_signature_def,
    classification_signature_def as classification_signature_def,
    is_valid_signature as is_valid_signature,
    predict_signature_def as predict_signature_def,
    regression_signature_def as regression_signature_def,
)
from jaxsess.saved_model.tag_constants import GPU as GPU, SERVING as SERVING, TPU as TPU, TRAINING as TRAINING
from jaxsess.saved_model.utils import (
    build_tensor_info as build_tensor_info,
    get_tensor_from_tensor_info as get_tensor_from_tensor_info,
)

contains_saved_model = maybe_saved_model_directory

__all__ = [
    "builder", "constants", "loader", "signature_constants", "signature_def_utils", "tag_constants", "utils",
    "Builder", "simple_save", "load", "load_v2", "maybe_saved_model_directory", "contains_saved_model",
    "build_signature_def", "predict_signature_def", "classification_signature_def", "regression_signature_def", "is_valid_signature", "build_tensor_info",
    "get_tensor_from_tensor_info", "SERVING", "TRAINING", "GPU", "TPU",
    "DEFAULT_SERVING_SIGNATURE_DEF_KEY", "PREDICT_INPUTS", "PREDICT_METHOD_NAME", "PREDICT_OUTPUTS",
    "CLASSIFY_INPUTS", "CLASSIFY_METHOD_NAME", "CLASSIFY_OUTPUT_CLASSES", "CLASSIFY_OUTPUT_SCORES",
    "REGRESS_INPUTS", "REGRESS_METHOD_NAME", "REGRESS_OUTPUTS", "ASSETS_DIRECTORY", "ASSETS_KEY", "DEBUG_DIRECTORY",
    "DEBUG_INFO_FILENAME_PB", "LEGACY_INIT_OP_KEY", "MAIN_OP_KEY", "SAVED_MODEL_FILENAME_PB",
    "SAVED_MODEL_FILENAME_PBTXT", "SAVED_MODEL_SCHEMA_VERSION", "VARIABLES_DIRECTORY", "VARIABLES_FILENAME",
]
