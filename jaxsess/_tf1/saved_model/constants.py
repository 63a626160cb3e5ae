"""File names and collection keys of a SavedModel, as ``tf.compat.v1.saved_model.constants``."""

SAVED_MODEL_SCHEMA_VERSION = 1
SAVED_MODEL_FILENAME_PB = "saved_model.pb"
SAVED_MODEL_FILENAME_PBTXT = "saved_model.pbtxt"
VARIABLES_DIRECTORY = "variables"
VARIABLES_FILENAME = "variables"
ASSETS_DIRECTORY = "assets"
ASSETS_KEY = "saved_model_assets"
MAIN_OP_KEY = "saved_model_main_op"
LEGACY_INIT_OP_KEY = "legacy_init_op"
TRAIN_OP_KEY = "saved_model_train_op"
INIT_OP_SIGNATURE_KEY = "__saved_model_init_op"
TRAIN_OP_SIGNATURE_KEY = "__saved_model_train_op"
DEBUG_DIRECTORY = "debug"
DEBUG_INFO_FILENAME_PB = "saved_model_debug_info.pb"

__all__ = [
    "SAVED_MODEL_SCHEMA_VERSION", "SAVED_MODEL_FILENAME_PB", "SAVED_MODEL_FILENAME_PBTXT", "VARIABLES_DIRECTORY",
    "VARIABLES_FILENAME", "ASSETS_DIRECTORY", "ASSETS_KEY", "MAIN_OP_KEY", "LEGACY_INIT_OP_KEY", "TRAIN_OP_KEY",
    "INIT_OP_SIGNATURE_KEY", "TRAIN_OP_SIGNATURE_KEY", "DEBUG_DIRECTORY", "DEBUG_INFO_FILENAME_PB",
]
