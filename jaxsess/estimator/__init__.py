"""TF1's Estimator API, as ``tf.compat.v1.estimator``: ``Estimator`` (train, evaluate,
predict with a ``model_fn`` and checkpoints in ``model_dir``), ``EstimatorSpec``,
``ModeKeys``, ``RunConfig``, ``inputs.numpy_input_fn`` and the premade ``DNNClassifier``/
``DNNRegressor``, ``LinearClassifier``/``LinearRegressor`` and ``DNNLinearCombinedClassifier``/
``DNNLinearCombinedRegressor``."""

from jaxsess._tf1.estimator._dnn import DNNClassifier as DNNClassifier, DNNRegressor as DNNRegressor
from jaxsess._tf1.estimator._estimator import Estimator as Estimator, WarmStartSettings as WarmStartSettings
from jaxsess._tf1.estimator._exporter import (
    BestExporter as BestExporter,
    Exporter as Exporter,
    FinalExporter as FinalExporter,
    LatestExporter as LatestExporter,
)
from jaxsess._tf1.estimator._linear import (
    DNNLinearCombinedClassifier as DNNLinearCombinedClassifier,
    DNNLinearCombinedRegressor as DNNLinearCombinedRegressor,
    LinearClassifier as LinearClassifier,
    LinearRegressor as LinearRegressor,
)
from jaxsess._tf1.estimator._model_fn import EstimatorSpec as EstimatorSpec, ModeKeys as ModeKeys
from jaxsess._tf1.estimator._run_config import RunConfig as RunConfig
from jaxsess._tf1.estimator._training import (
    EvalSpec as EvalSpec,
    TrainSpec as TrainSpec,
    train_and_evaluate as train_and_evaluate,
)
from jaxsess._tf1.train._hooks import (  # TF's estimator namespace re-exports the training hooks
    CheckpointSaverHook as CheckpointSaverHook,
    CheckpointSaverListener as CheckpointSaverListener,
    LoggingTensorHook as LoggingTensorHook,
    NanTensorHook as NanTensorHook,
    SessionRunArgs as SessionRunArgs,
    SessionRunContext as SessionRunContext,
    SessionRunHook as SessionRunHook,
    SessionRunValues as SessionRunValues,
    StepCounterHook as StepCounterHook,
    StopAtStepHook as StopAtStepHook,
    SummarySaverHook as SummarySaverHook,
)
from jaxsess._tf1.train._warm_start import VocabInfo as VocabInfo
from jaxsess.estimator import export as export, inputs as inputs
