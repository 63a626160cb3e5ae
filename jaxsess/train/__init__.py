"""Training, as ``tf.compat.v1.train``: optimizers built on optax, learning-rate
schedules, the global step, ``Saver`` (TF's V2 checkpoints), the checkpoint utilities,
queue runners and the queue-based input pipelines (``string_input_producer``, ``batch``, ...)."""

from jaxsess._core._tfproto import (
    BytesList as BytesList,
    Example as Example,
    Feature as Feature,
    FeatureList as FeatureList,
    FeatureLists as FeatureLists,
    Features as Features,
    FloatList as FloatList,
    Int64List as Int64List,
    SequenceExample as SequenceExample,
)
from jaxsess._core.graph._graph_def import write_graph as write_graph
from jaxsess._tf1.ops.serialization_ops import match_filenames_once as match_filenames_once
from jaxsess._tf1.summary._writer import summary_iterator as summary_iterator
from jaxsess._tf1.train._adadelta import AdadeltaOptimizer as AdadeltaOptimizer
from jaxsess._tf1.train._checkpoint_utils import (
    CheckpointReader as CheckpointReader,
    NewCheckpointReader as NewCheckpointReader,
    checkpoints_iterator as checkpoints_iterator,
    init_from_checkpoint as init_from_checkpoint,
    list_variables as list_variables,
    load_checkpoint as load_checkpoint,
    load_variable as load_variable,
    wait_for_new_checkpoint as wait_for_new_checkpoint,
)
from jaxsess._tf1.train._cluster import (
    ClusterSpec as ClusterSpec,
    Server as Server,
    replica_device_setter as replica_device_setter,
)
from jaxsess._tf1.train._coordinator import Coordinator as Coordinator, LooperThread as LooperThread
from jaxsess._tf1.train._global_step import (
    assert_global_step as assert_global_step,
    create_global_step as create_global_step,
    get_global_step as get_global_step,
    get_or_create_global_step as get_or_create_global_step,
    global_step as global_step,
)
from jaxsess._tf1.train._hooks import (
    CheckpointSaverHook as CheckpointSaverHook,
    CheckpointSaverListener as CheckpointSaverListener,
    FeedFnHook as FeedFnHook,
    FinalOpsHook as FinalOpsHook,
    GlobalStepWaiterHook as GlobalStepWaiterHook,
    LoggingTensorHook as LoggingTensorHook,
    NanLossDuringTrainingError as NanLossDuringTrainingError,
    NanTensorHook as NanTensorHook,
    SecondOrStepTimer as SecondOrStepTimer,
    SessionRunArgs as SessionRunArgs,
    SessionRunContext as SessionRunContext,
    SessionRunHook as SessionRunHook,
    SessionRunValues as SessionRunValues,
    StepCounterHook as StepCounterHook,
    StopAtStepHook as StopAtStepHook,
    SummarySaverHook as SummarySaverHook,
)
from jaxsess._tf1.train._input import (
    batch as batch,
    batch_join as batch_join,
    input_producer as input_producer,
    limit_epochs as limit_epochs,
    maybe_batch as maybe_batch,
    maybe_batch_join as maybe_batch_join,
    maybe_shuffle_batch as maybe_shuffle_batch,
    maybe_shuffle_batch_join as maybe_shuffle_batch_join,
    range_input_producer as range_input_producer,
    shuffle_batch as shuffle_batch,
    shuffle_batch_join as shuffle_batch_join,
    slice_input_producer as slice_input_producer,
    string_input_producer as string_input_producer,
)
from jaxsess._tf1.train._meta_graph import export_meta_graph as export_meta_graph
from jaxsess._tf1.train._monitored import (
    ChiefSessionCreator as ChiefSessionCreator,
    MonitoredSession as MonitoredSession,
    MonitoredTrainingSession as MonitoredTrainingSession,
    Scaffold as Scaffold,
    SessionCreator as SessionCreator,
    SingularMonitoredSession as SingularMonitoredSession,
)
from jaxsess._tf1.train._moving_averages import ExponentialMovingAverage as ExponentialMovingAverage
from jaxsess._tf1.train._optimizers import (
    AdagradOptimizer as AdagradOptimizer,
    AdamOptimizer as AdamOptimizer,
    GradientDescentOptimizer as GradientDescentOptimizer,
    MomentumOptimizer as MomentumOptimizer,
    OptaxOptimizer as OptaxOptimizer,
    Optimizer as Optimizer,
    RMSPropOptimizer as RMSPropOptimizer,
    TransformationSpec as TransformationSpec,
)
from jaxsess._tf1.train._proximal import (
    AdagradDAOptimizer as AdagradDAOptimizer,
    FtrlOptimizer as FtrlOptimizer,
    ProximalAdagradOptimizer as ProximalAdagradOptimizer,
    ProximalGradientDescentOptimizer as ProximalGradientDescentOptimizer,
)
from jaxsess._tf1.train._queue_runners import (
    QueueRunner as QueueRunner,
    add_queue_runner as add_queue_runner,
    start_queue_runners as start_queue_runners,
)
from jaxsess._tf1.train._saver import (
    CheckpointState as CheckpointState,
    Saver as Saver,
    checkpoint_exists as checkpoint_exists,
    generate_checkpoint_state_proto as generate_checkpoint_state_proto,
    get_checkpoint_mtimes as get_checkpoint_mtimes,
    get_checkpoint_state as get_checkpoint_state,
    import_meta_graph as import_meta_graph,
    latest_checkpoint as latest_checkpoint,
    remove_checkpoint as remove_checkpoint,
    update_checkpoint_state as update_checkpoint_state,
)
from jaxsess._tf1.train._schedules import (
    cosine_decay as cosine_decay,
    cosine_decay_restarts as cosine_decay_restarts,
    exponential_decay as exponential_decay,
    inverse_time_decay as inverse_time_decay,
    linear_cosine_decay as linear_cosine_decay,
    natural_exp_decay as natural_exp_decay,
    noisy_linear_cosine_decay as noisy_linear_cosine_decay,
    piecewise_constant as piecewise_constant,
    polynomial_decay as polynomial_decay,
)
from jaxsess._tf1.train._supervisor import (
    SessionManager as SessionManager,
    Supervisor as Supervisor,
    basic_train_loop as basic_train_loop,
)
from jaxsess._tf1.train._sync_replicas import SyncReplicasOptimizer as SyncReplicasOptimizer
from jaxsess._tf1.train._warm_start import VocabInfo as VocabInfo, warm_start as warm_start
from jaxsess.train import queue_runner as queue_runner

piecewise_constant_decay = piecewise_constant  # TF1's other name for it
