"""``SignatureDef`` protos, as ``tf.compat.v1.saved_model.signature_def_utils``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jaxsess._core import _tfproto as _tfproto
from jaxsess._core.graph._graph import Tensor
from jaxsess._tf1.saved_model import signature_constants
from jaxsess._tf1.saved_model.utils import build_tensor_info

__all__ = ["build_signature_def", "predict_signature_def", "is_valid_signature", "classification_signature_def",
           "regression_signature_def"]


def build_signature_def(inputs: Mapping[str, Any] | None = None, outputs: Mapping[str, Any] | None = None,
                        method_name: str | None = None, defaults: Any = None) -> Any:
    """A ``SignatureDef`` of ``TensorInfo`` maps, as
    ``tf.compat.v1.saved_model.signature_def_utils.build_signature_def``.

    Args:
      inputs, outputs: ``{key: TensorInfo}`` (see :func:`~jaxsess._tf1.saved_model.utils.build_tensor_info`).
      method_name: e.g. ``signature_constants.PREDICT_METHOD_NAME``.
      defaults: accepted for compatibility.
    """
    sig = _tfproto.SignatureDef()
    for key, info in (inputs or {}).items():
        sig.inputs[key].CopyFrom(info)
    for key, info in (outputs or {}).items():
        sig.outputs[key].CopyFrom(info)
    if method_name is not None:
        sig.method_name = method_name
    return sig


def predict_signature_def(inputs: Mapping[str, Any], outputs: Mapping[str, Any]) -> Any:
    """A predict ``SignatureDef`` of ``{key: Tensor}`` inputs and outputs, as
    ``tf.compat.v1.saved_model.signature_def_utils.predict_signature_def``.

    Raises:
      ValueError: ``inputs`` or ``outputs`` is empty.
      TypeError: a value is not a graph tensor.
    """
    if not inputs:
        raise ValueError("Prediction inputs cannot be None or empty.")
    if not outputs:
        raise ValueError("Prediction outputs cannot be None or empty.")
    return build_signature_def(
        {k: build_tensor_info(t) for k, t in inputs.items()},
        {k: build_tensor_info(t) for k, t in outputs.items()},
        signature_constants.PREDICT_METHOD_NAME,
    )


def is_valid_signature(signature_def: Any) -> bool:
    """Whether a ``SignatureDef`` is a valid predict, classify or regress signature (names
    tensors; a classify/regress one with TF's keys and dtypes), as
    ``tf.compat.v1.saved_model.is_valid_signature``."""
    if signature_def is None:
        return False
    infos = list(signature_def.inputs.values()) + list(signature_def.outputs.values())
    if not signature_def.inputs or not signature_def.outputs or not all(i.name for i in infos):
        return False
    method = signature_def.method_name
    if method == signature_constants.PREDICT_METHOD_NAME:
        return True
    ins, outs = signature_def.inputs, signature_def.outputs
    if method == signature_constants.CLASSIFY_METHOD_NAME:
        known = {signature_constants.CLASSIFY_OUTPUT_CLASSES: _DT_STRING,
                 signature_constants.CLASSIFY_OUTPUT_SCORES: _DT_FLOAT}
        return (set(ins) == {signature_constants.CLASSIFY_INPUTS}
                and ins[signature_constants.CLASSIFY_INPUTS].dtype == _DT_STRING
                and all(k in known and v.dtype == known[k] for k, v in outs.items()))
    if method == signature_constants.REGRESS_METHOD_NAME:
        return (set(ins) == {signature_constants.REGRESS_INPUTS}
                and ins[signature_constants.REGRESS_INPUTS].dtype == _DT_STRING
                and set(outs) == {signature_constants.REGRESS_OUTPUTS}
                and outs[signature_constants.REGRESS_OUTPUTS].dtype == _DT_FLOAT)
    return False


_DT_STRING, _DT_FLOAT = 7, 1


def _string_examples(examples: Any, what: str) -> Any:
    if examples is None:
        raise ValueError(f"{what} `examples` cannot be None.")
    if not isinstance(examples, Tensor):
        raise ValueError(f"{what} `examples` must be a string Tensor. Found `examples` of type {type(examples)}.")
    info = build_tensor_info(examples)
    if info.dtype != _DT_STRING:
        raise ValueError(f"{what} input tensors must be of type string. Found tensors of type {info.dtype}")
    return info


def classification_signature_def(examples: Tensor, classes: Tensor | None, scores: Tensor | None) -> Any:
    """A classify ``SignatureDef`` (``inputs``: serialized ``tf.Example`` strings; ``classes``
    strings and/or ``scores`` floats), as ``tf.compat.v1.saved_model.classification_signature_def``.

    Raises:
      ValueError: ``examples`` missing or not a string tensor, both outputs missing, or an
        output of the wrong dtype (TF's messages).
    """
    inputs = {signature_constants.CLASSIFY_INPUTS: _string_examples(examples, "Classification")}
    if classes is None and scores is None:
        raise ValueError("Classification `classes` and `scores` cannot both be None.")
    outputs = {}
    if classes is not None:
        info = build_tensor_info(classes)
        if info.dtype != _DT_STRING:
            raise ValueError(f"Classification classes must be of type string Tensor. Found tensors of type "
                             f"{info.dtype}.`")
        outputs[signature_constants.CLASSIFY_OUTPUT_CLASSES] = info
    if scores is not None:
        info = build_tensor_info(scores)
        if info.dtype != _DT_FLOAT:
            raise ValueError(f"Classification scores must be a float Tensor. Found tensors of type {info.dtype}")
        outputs[signature_constants.CLASSIFY_OUTPUT_SCORES] = info
    return build_signature_def(inputs, outputs, signature_constants.CLASSIFY_METHOD_NAME)


def regression_signature_def(examples: Tensor, predictions: Tensor) -> Any:
    """A regress ``SignatureDef`` (``inputs``: serialized ``tf.Example`` strings; ``outputs``
    floats), as ``tf.compat.v1.saved_model.regression_signature_def``.

    Raises:
      ValueError: ``examples`` missing or not a string tensor, or ``predictions`` missing or not
        float (TF's messages).
    """
    inputs = {signature_constants.REGRESS_INPUTS: _string_examples(examples, "Regression")}
    if predictions is None:
        raise ValueError("Regression `predictions` cannot be None.")
    info = build_tensor_info(predictions)
    if info.dtype != _DT_FLOAT:
        raise ValueError(f"Regression output tensors must be of type float. Found tensors with type {info.dtype}.")
    return build_signature_def(inputs, {signature_constants.REGRESS_OUTPUTS: info},
                               signature_constants.REGRESS_METHOD_NAME)
