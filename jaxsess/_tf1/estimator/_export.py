"""Serving inputs and export outputs of ``Estimator.export_saved_model``, as
``tf.compat.v1.estimator.export`` (``tensorflow_estimator/python/estimator/export/``).

A ``serving_input_receiver_fn`` returns a :class:`ServingInputReceiver`: the
``features`` given to the ``model_fn`` and the ``receiver_tensors`` (usually
placeholders) the SavedModel's signatures take. The ``export_outputs`` of
the PREDICT ``EstimatorSpec`` (default: one :class:`PredictOutput` of its
``predictions``) become the signatures.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Mapping
from typing import Any

from jaxsess._core import dtypes as _dtypes
from jaxsess._core.graph._builder import placeholder
from jaxsess._core.graph._graph import Tensor
from jaxsess._tf1 import logging as tf_logging
from jaxsess._tf1.ops.parsing_ops import parse_example
from jaxsess._tf1.saved_model import signature_constants
from jaxsess._tf1.saved_model.signature_def_utils import build_signature_def, predict_signature_def
from jaxsess._tf1.saved_model.utils import build_tensor_info

__all__ = ["ServingInputReceiver", "TensorServingInputReceiver", "build_raw_serving_input_receiver_fn",
           "build_parsing_serving_input_receiver_fn", "ExportOutput", "PredictOutput", "ClassificationOutput",
           "RegressionOutput", "build_all_signature_defs", "export_outputs_for_predict"]

_SINGLE_FEATURE_KEY = "feature"
_SINGLE_RECEIVER_KEY = "input"


def _as_tensor_dict(value: Any, single_key: str, what: str) -> dict[str, Any]:
    if value is None:
        raise ValueError(f"{what} must be defined.")
    d = dict(value) if isinstance(value, Mapping) else {single_key: value}
    for key, t in d.items():
        if not isinstance(key, str):
            raise ValueError(f"{what} keys must be strings: {key}.")
        if not isinstance(t, Tensor):
            raise ValueError(f"{what} must be tensors: {key}: {t!r}.")
    return d


class ServingInputReceiver(collections.namedtuple(
        "ServingInputReceiver", ["features", "receiver_tensors", "receiver_tensors_alternatives"])):
    """The serving graph's inputs, as ``tf.estimator.export.ServingInputReceiver``.

    Attributes:
      features: a ``Tensor`` or ``{name: Tensor}`` given to the ``model_fn``
        (a single tensor becomes ``{"feature": t}``).
      receiver_tensors: a ``Tensor`` or ``{name: Tensor}``: the signatures'
        inputs (a single tensor becomes ``{"input": t}``).
      receiver_tensors_alternatives: accepted (no alternative signatures).

    Raises:
      ValueError: ``features`` or ``receiver_tensors`` missing or not tensors.
    """

    def __new__(cls, features: Any, receiver_tensors: Any, receiver_tensors_alternatives: Any = None
                ) -> ServingInputReceiver:
        features = _as_tensor_dict(features, _SINGLE_FEATURE_KEY, "features")
        receiver_tensors = _as_tensor_dict(receiver_tensors, _SINGLE_RECEIVER_KEY, "receiver_tensors")
        return super().__new__(cls, features, receiver_tensors, receiver_tensors_alternatives)


class TensorServingInputReceiver(collections.namedtuple(
        "TensorServingInputReceiver", ["features", "receiver_tensors", "receiver_tensors_alternatives"])):
    """As :class:`ServingInputReceiver` with one ``features`` tensor given to the
    ``model_fn`` as is, as ``tf.estimator.export.TensorServingInputReceiver``."""

    def __new__(cls, features: Any, receiver_tensors: Any, receiver_tensors_alternatives: Any = None
                ) -> TensorServingInputReceiver:
        if not isinstance(features, Tensor):
            raise ValueError(f"features must be a Tensor, got {features!r}.")
        receiver_tensors = _as_tensor_dict(receiver_tensors, _SINGLE_RECEIVER_KEY, "receiver_tensors")
        return super().__new__(cls, features, receiver_tensors, receiver_tensors_alternatives)


def build_raw_serving_input_receiver_fn(features: Mapping[str, Any] | Any, default_batch_size: int | None = None
                                        ) -> Callable[[], ServingInputReceiver]:
    """A ``serving_input_receiver_fn`` feeding placeholders shaped as ``features``
    (tensors or arrays; the batch dimension ``default_batch_size``), as
    ``tf.estimator.export.build_raw_serving_input_receiver_fn``."""

    def serving_input_receiver_fn() -> ServingInputReceiver:
        items = features.items() if isinstance(features, Mapping) else [(None, features)]
        receivers: dict[str, Tensor] = {}
        for name, t in items:
            shape = [default_batch_size, *list(t.shape)[1:]]
            dtype = t.dtype if isinstance(t, Tensor) else _dtypes.as_dtype(t.dtype)
            receivers[name or _SINGLE_RECEIVER_KEY] = placeholder(dtype, shape, name=name or "input")
        if not isinstance(features, Mapping):
            receivers = {_SINGLE_RECEIVER_KEY: receivers[_SINGLE_RECEIVER_KEY]}
            return ServingInputReceiver(receivers[_SINGLE_RECEIVER_KEY], receivers)
        return ServingInputReceiver(dict(receivers), receivers)

    return serving_input_receiver_fn


def build_parsing_serving_input_receiver_fn(feature_spec: Mapping[str, Any], default_batch_size: int | None = None
                                            ) -> Callable[[], ServingInputReceiver]:
    """A ``serving_input_receiver_fn`` taking serialized ``tf.Example`` strings
    (``"examples"``) parsed with ``feature_spec``, as
    ``tf.estimator.export.build_parsing_serving_input_receiver_fn``."""

    def serving_input_receiver_fn() -> ServingInputReceiver:
        serialized = placeholder(_dtypes.string, [default_batch_size], name="input_example_tensor")
        features = parse_example(serialized, dict(feature_spec))
        return ServingInputReceiver(features, {"examples": serialized})

    return serving_input_receiver_fn


class ExportOutput:
    """A signature of the exported model, as ``tf.estimator.export.ExportOutput``."""

    def as_signature_def(self, receiver_tensors: Mapping[str, Tensor]) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError


class PredictOutput(ExportOutput):
    """A predict signature of ``outputs`` (a ``Tensor`` or ``{name: Tensor}``; one
    tensor is named ``"output"``), as ``tf.estimator.export.PredictOutput``.

    Raises:
      ValueError: an output that is not a tensor, or a key that is not a string.
    """

    def __init__(self, outputs: Any) -> None:
        self.outputs = _as_tensor_dict(outputs, "output", "Prediction values")  # TF's single-output key

    def as_signature_def(self, receiver_tensors: Mapping[str, Tensor]) -> Any:
        return predict_signature_def(receiver_tensors, self.outputs)


def _single_string_input(receiver_tensors: Mapping[str, Tensor], what: str) -> Tensor:
    if len(receiver_tensors) != 1 or next(iter(receiver_tensors.values())).dtype != _dtypes.string:
        raise ValueError(f"{what} input must be a single string Tensor; got {receiver_tensors}")
    return next(iter(receiver_tensors.values()))


class ClassificationOutput(ExportOutput):
    """A classify signature (serialized ``tf.Example`` input; ``scores`` float,
    ``classes`` string), as ``tf.estimator.export.ClassificationOutput``."""

    def __init__(self, scores: Tensor | None = None, classes: Tensor | None = None) -> None:
        if scores is None and classes is None:
            raise ValueError("At least one of scores and classes must be set.")
        self.scores, self.classes = scores, classes

    def as_signature_def(self, receiver_tensors: Mapping[str, Tensor]) -> Any:
        examples = _single_string_input(receiver_tensors, "Classification")
        outputs = {}
        if self.classes is not None:
            outputs[signature_constants.CLASSIFY_OUTPUT_CLASSES] = build_tensor_info(self.classes)
        if self.scores is not None:
            outputs[signature_constants.CLASSIFY_OUTPUT_SCORES] = build_tensor_info(self.scores)
        return build_signature_def({signature_constants.CLASSIFY_INPUTS: build_tensor_info(examples)}, outputs,
                                   signature_constants.CLASSIFY_METHOD_NAME)


class RegressionOutput(ExportOutput):
    """A regress signature (serialized ``tf.Example`` input, float ``value``), as
    ``tf.estimator.export.RegressionOutput``."""

    def __init__(self, value: Tensor) -> None:
        if not isinstance(value, Tensor) or not value.dtype.is_floating:
            raise ValueError(f"Regression output value must be a float32 Tensor; got {value}")
        self.value = value

    def as_signature_def(self, receiver_tensors: Mapping[str, Tensor]) -> Any:
        examples = _single_string_input(receiver_tensors, "Regression")
        return build_signature_def({signature_constants.REGRESS_INPUTS: build_tensor_info(examples)},
                                   {signature_constants.REGRESS_OUTPUTS: build_tensor_info(self.value)},
                                   signature_constants.REGRESS_METHOD_NAME)


def export_outputs_for_predict(export_outputs: Mapping[str, ExportOutput] | None, predictions: Any
                               ) -> dict[str, ExportOutput]:
    """The PREDICT spec's signatures, as TF's ``export_lib.get_export_outputs``:
    none given: ``{"serving_default": PredictOutput(predictions)}``; a single
    one is also the default.

    Raises:
      ValueError: several outputs and none under ``"serving_default"``.
      TypeError: an output that is not an ``ExportOutput``.
    """
    default = signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY
    if export_outputs is None:
        return {default: PredictOutput(predictions)}
    outputs = dict(export_outputs)
    for key, out in outputs.items():
        if not isinstance(out, ExportOutput):
            raise TypeError(f"Values in export_outputs must be ExportOutput objects. Given: {key}: {out!r}")
    if default not in outputs:
        if len(outputs) != 1:
            raise ValueError("Multiple export_outputs were provided, but none of them is specified as the "
                             "default.  Do this by naming one of them with signature_constants."
                             "DEFAULT_SERVING_SIGNATURE_DEF_KEY.")
        outputs[default] = next(iter(outputs.values()))
    return outputs


def build_all_signature_defs(receiver_tensors: Mapping[str, Tensor], export_outputs: Mapping[str, ExportOutput]
                             ) -> dict[str, Any]:
    """``{key: SignatureDef}`` of the outputs, leaving out (with a log line) those
    the receiver tensors cannot feed (a classify or regress signature needs a
    single string input), as TF's ``export_lib.build_all_signature_defs``."""
    defs: dict[str, Any] = {}
    for key, out in export_outputs.items():
        try:
            defs[key] = out.as_signature_def(receiver_tensors)
        except ValueError as e:
            tf_logging.warning("Export includes no signature for %s: %s", key, e)
    if signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY not in defs:
        tf_logging.warning("Export includes no default signature!")
    return defs
