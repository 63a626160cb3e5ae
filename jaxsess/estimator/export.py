"""``tf.estimator.export``: serving input receivers and export outputs (see
:mod:`jaxsess._tf1.estimator._export`)."""

from jaxsess._tf1.estimator._export import (
    ClassificationOutput as ClassificationOutput,
    ExportOutput as ExportOutput,
    PredictOutput as PredictOutput,
    RegressionOutput as RegressionOutput,
    ServingInputReceiver as ServingInputReceiver,
    TensorServingInputReceiver as TensorServingInputReceiver,
    build_parsing_serving_input_receiver_fn as build_parsing_serving_input_receiver_fn,
    build_raw_serving_input_receiver_fn as build_raw_serving_input_receiver_fn,
)
