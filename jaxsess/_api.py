"""The public TF1-style namespace of ``jaxsess`` (the faces layer).

``jaxsess/__init__.py`` loads this module on the first access to one of its
names and copies them into the package, so that ``import jaxsess`` (or
``import jaxsess._core.graph._graph``) imports nothing but the package itself, and
``jaxsess.placeholder`` then costs a plain attribute lookup. Importing it
installs the ``Tensor`` operators and the notebook displays.
"""

# ruff: noqa: A004 - TF1's public names shadow builtins (bool, abs, range, ...)
from jaxsess import (
    app as app,
    audio as audio,
    bitwise as bitwise,
    config as config,
    contrib as contrib,
    data as data,
    debugging as debugging,
    distributions as distributions,
    dtypes as dtypes,
    errors as errors,
    estimator as estimator,
    feature_column as feature_column,
    flags as flags,
    gfile as gfile,
    graph_util as graph_util,
    image as image,
    initializers as initializers,
    io as io,
    keras as keras,
    layers as layers,
    linalg as linalg,
    logging as logging,
    lookup as lookup,
    losses as losses,
    manip as manip,
    math as math,
    metrics as metrics,
    nest as nest,
    nn as nn,
    python_io as python_io,
    queue as queue,
    random as random,
    saved_model as saved_model,
    sets as sets,
    signal as signal,
    sparse as sparse,
    spectral as spectral,
    strings as strings,
    summary as summary,
    test as test,
    train as train,
    version as version,
)
from jaxsess._core._config import ConfigProto as ConfigProto, GPUOptions as GPUOptions
from jaxsess._core._tfproto import (
    AttrValue as AttrValue,
    Event as Event,
    GraphDef as GraphDef,
    GraphOptions as GraphOptions,
    HistogramProto as HistogramProto,
    MetaGraphDef as MetaGraphDef,
    NodeDef as NodeDef,
    OptimizerOptions as OptimizerOptions,
    RunMetadata as RunMetadata,
    RunOptions as RunOptions,
    SessionLog as SessionLog,
    Summary as Summary,
    SummaryMetadata as SummaryMetadata,
    TensorProto as TensorProto,
)
from jaxsess._core.graph._builder import (  # noqa: F401 - TF1 name
    constant as constant,
    constant_value as constant_value,
    convert_to_tensor as convert_to_tensor,
    executing_eagerly as executing_eagerly,
    group as group,
    identity as identity,
    is_tensor as is_tensor,
    no_op as no_op,
    placeholder as placeholder,
    placeholder_with_default as placeholder_with_default,
    stop_gradient as stop_gradient,
    tuple_ as tuple,
)
from jaxsess._core.graph._device import DeviceSpec as DeviceSpec
from jaxsess._core.graph._graph import (
    Graph as Graph,
    GraphKeys as GraphKeys,
    Operation as Operation,
    Tensor as Tensor,
    add_to_collection as add_to_collection,
    add_to_collections as add_to_collections,
    colocate_with as colocate_with,
    control_dependencies as control_dependencies,
    device as device,
    get_collection as get_collection,
    get_collection_ref as get_collection_ref,
    get_default_graph as get_default_graph,
    name_scope as name_scope,
    reset_default_graph as reset_default_graph,
)
from jaxsess._core.graph._graph_def import import_graph_def as import_graph_def
from jaxsess._core.graph._shape import Dimension as Dimension, TensorShape as TensorShape
from jaxsess._core.runtime._eager import EagerSession as EagerSession
from jaxsess._core.runtime._graph_session import InteractiveSession as InteractiveSession, Session as Session
from jaxsess._core.runtime._resources import (
    DeviceStats as DeviceStats,
    HeldArrays as HeldArrays,
    ResourceCleanupStrategy as ResourceCleanupStrategy,
    SessionStats as SessionStats,
)
from jaxsess._core.runtime._session import (
    BaseSession as BaseSession,
    get_default_session as get_default_session,
)
from jaxsess._tf1._compat import (
    control_flow_v2_enabled as control_flow_v2_enabled,
    disable_control_flow_v2 as disable_control_flow_v2,
    disable_eager_execution as disable_eager_execution,
    disable_tensor_equality as disable_tensor_equality,
    disable_v2_behavior as disable_v2_behavior,
    disable_v2_tensorshape as disable_v2_tensorshape,
    enable_control_flow_v2 as enable_control_flow_v2,
    enable_eager_execution as enable_eager_execution,
    enable_tensor_equality as enable_tensor_equality,
    enable_v2_behavior as enable_v2_behavior,
    enable_v2_tensorshape as enable_v2_tensorshape,
    executing_eagerly_outside_functions as executing_eagerly_outside_functions,
    newaxis as newaxis,
)
from jaxsess._tf1.ops.array_ops import (
    broadcast_dynamic_shape as broadcast_dynamic_shape,
    broadcast_static_shape as broadcast_static_shape,
    broadcast_to as broadcast_to,
    concat as concat,
    ensure_shape as ensure_shape,
    expand_dims as expand_dims,
    fill as fill,
    gather as gather,
    gather_nd as gather_nd,
    histogram_fixed_width_bins as histogram_fixed_width_bins,
    invert_permutation as invert_permutation,
    one_hot as one_hot,
    ones as ones,
    ones_like as ones_like,
    pad as pad,
    parallel_stack as parallel_stack,
    range as range,
    rank as rank,
    repeat as repeat,
    reshape as reshape,
    reverse as reverse,
    searchsorted as searchsorted,
    shape as shape,
    shape_n as shape_n,
    size as size,
    slice as slice,
    split as split,
    squeeze as squeeze,
    stack as stack,
    tile as tile,
    transpose as transpose,
    unravel_index as unravel_index,
    unstack as unstack,
    zeros as zeros,
    zeros_like as zeros_like,
)
from jaxsess._tf1.ops.check_ops import (
    Assert as Assert,
    add_check_numerics_ops as add_check_numerics_ops,
    assert_equal as assert_equal,
    assert_greater as assert_greater,
    assert_greater_equal as assert_greater_equal,
    assert_integer as assert_integer,
    assert_less as assert_less,
    assert_less_equal as assert_less_equal,
    assert_near as assert_near,
    assert_negative as assert_negative,
    assert_non_negative as assert_non_negative,
    assert_non_positive as assert_non_positive,
    assert_none_equal as assert_none_equal,
    assert_positive as assert_positive,
    assert_proper_iterable as assert_proper_iterable,
    assert_rank as assert_rank,
    assert_rank_at_least as assert_rank_at_least,
    assert_rank_in as assert_rank_in,
    assert_same_float_dtype as assert_same_float_dtype,
    assert_scalar as assert_scalar,
    assert_type as assert_type,
    check_numerics as check_numerics,
    count_up_to as count_up_to,
    is_numeric_tensor as is_numeric_tensor,
    verify_tensor_all_finite as verify_tensor_all_finite,
)
from jaxsess._tf1.ops.clip_ops import (
    clip_by_global_norm as clip_by_global_norm,
    clip_by_norm as clip_by_norm,
    global_norm as global_norm,
)
from jaxsess._tf1.ops.control_flow import (
    case as case,
    cond as cond,
    switch_case as switch_case,
    while_loop as while_loop,
)
from jaxsess._tf1.ops.custom_gradient import (
    NotDifferentiable as NotDifferentiable,
    RegisterGradient as RegisterGradient,
    custom_gradient as custom_gradient,
    grad_pass_through as grad_pass_through,
    identity_n as identity_n,
    no_gradient as no_gradient,
    recompute_grad as recompute_grad,
)
from jaxsess._tf1.ops.data_flow_ops import (
    FIFOQueue as FIFOQueue,
    PaddingFIFOQueue as PaddingFIFOQueue,
    QueueBase as QueueBase,
    RandomShuffleQueue as RandomShuffleQueue,
)
from jaxsess._tf1.ops.functional_ops import (
    einsum as einsum,
    foldl as foldl,
    foldr as foldr,
    function as function,
    map_fn as map_fn,
    scan as scan,
    vectorized_map as vectorized_map,
)
from jaxsess._tf1.ops.gradients import (
    AggregationMethod as AggregationMethod,
    GradientTape as GradientTape,
    UnconnectedGradients as UnconnectedGradients,
    gradients as gradients,
    hessians as hessians,
)
from jaxsess._tf1.ops.graph_scopes import (
    container as container,
    init_scope as init_scope,
)
from jaxsess._tf1.ops.image_io_ops import read_file as read_file, write_file as write_file
from jaxsess._tf1.ops.image_ops import random_crop as random_crop
from jaxsess._tf1.ops.indexed_slices import (
    IndexedSlices as IndexedSlices,
    convert_to_tensor_or_indexed_slices as convert_to_tensor_or_indexed_slices,
)
from jaxsess._tf1.ops.indexing_ops import (
    dimension_value as dimension_value,
    meshgrid as meshgrid,
    roll as roll,
    scatter_nd as scatter_nd,
    sequence_mask as sequence_mask,
    strided_slice as strided_slice,
    tensor_scatter_nd_add as tensor_scatter_nd_add,
    tensor_scatter_nd_max as tensor_scatter_nd_max,
    tensor_scatter_nd_min as tensor_scatter_nd_min,
    tensor_scatter_nd_sub as tensor_scatter_nd_sub,
    tensor_scatter_nd_update as tensor_scatter_nd_update,
)
from jaxsess._tf1.ops.init_ops import (
    constant_initializer as constant_initializer,
    glorot_normal_initializer as glorot_normal_initializer,
    glorot_uniform_initializer as glorot_uniform_initializer,
    ones_initializer as ones_initializer,
    orthogonal_initializer as orthogonal_initializer,
    random_normal_initializer as random_normal_initializer,
    random_uniform_initializer as random_uniform_initializer,
    truncated_normal_initializer as truncated_normal_initializer,
    uniform_unit_scaling_initializer as uniform_unit_scaling_initializer,
    variance_scaling_initializer as variance_scaling_initializer,
    zeros_initializer as zeros_initializer,
)
from jaxsess._tf1.ops.io_ops import (
    FixedLengthRecordReader as FixedLengthRecordReader,
    IdentityReader as IdentityReader,
    ReaderBase as ReaderBase,
    TextLineReader as TextLineReader,
    TFRecordReader as TFRecordReader,
    WholeFileReader as WholeFileReader,
)
from jaxsess._tf1.ops.linalg_ops import (
    acos as acos,
    acosh as acosh,
    asin as asin,
    asinh as asinh,
    atan as atan,
    atanh as atanh,
    cholesky as cholesky,
    conj as conj,
    cosh as cosh,
    cross as cross,
    diag as diag,
    diag_part as diag_part,
    digamma as digamma,
    erfc as erfc,
    eye as eye,
    lgamma as lgamma,
    lin_space as lin_space,
    linspace as linspace,
    matrix_band_part as matrix_band_part,
    matrix_determinant as matrix_determinant,
    matrix_diag as matrix_diag,
    matrix_diag_part as matrix_diag_part,
    matrix_inverse as matrix_inverse,
    matrix_set_diag as matrix_set_diag,
    matrix_transpose as matrix_transpose,
    norm as norm,
    qr as qr,
    rint as rint,
    sinh as sinh,
    tensordot as tensordot,
    to_bfloat16 as to_bfloat16,
    to_double as to_double,
    to_int64 as to_int64,
    trace as trace,
)
from jaxsess._tf1.ops.linalg_solvers import (
    cholesky_solve as cholesky_solve,
    matrix_solve as matrix_solve,
    matrix_solve_ls as matrix_solve_ls,
    matrix_triangular_solve as matrix_triangular_solve,
    self_adjoint_eig as self_adjoint_eig,
    self_adjoint_eigvals as self_adjoint_eigvals,
    svd as svd,
)
from jaxsess._tf1.ops.logging_ops import Print as Print, print_v2 as print  # noqa: F401 - TF1 names
from jaxsess._tf1.ops.math_ops import (
    abs as abs,
    add as add,
    add_n as add_n,
    arg_max as arg_max,
    arg_min as arg_min,
    argmax as argmax,
    argmin as argmin,
    atan2 as atan2,
    cast as cast,
    ceil as ceil,
    clip_by_value as clip_by_value,
    cos as cos,
    count_nonzero as count_nonzero,
    cumprod as cumprod,
    cumsum as cumsum,
    div as div,
    divide as divide,
    equal as equal,
    erf as erf,
    exp as exp,
    expm1 as expm1,
    floor as floor,
    floor_div as floor_div,
    floordiv as floordiv,
    floormod as floormod,
    greater as greater,
    greater_equal as greater_equal,
    is_finite as is_finite,
    is_inf as is_inf,
    is_nan as is_nan,
    less as less,
    less_equal as less_equal,
    log as log,
    log1p as log1p,
    logical_and as logical_and,
    logical_not as logical_not,
    logical_or as logical_or,
    logical_xor as logical_xor,
    matmul as matmul,
    maximum as maximum,
    minimum as minimum,
    mod as mod,
    multiply as multiply,
    negative as negative,
    not_equal as not_equal,
    pow as pow,
    realdiv as realdiv,
    reciprocal as reciprocal,
    reduce_all as reduce_all,
    reduce_any as reduce_any,
    reduce_logsumexp as reduce_logsumexp,
    reduce_max as reduce_max,
    reduce_mean as reduce_mean,
    reduce_min as reduce_min,
    reduce_prod as reduce_prod,
    reduce_sum as reduce_sum,
    round as round,
    rsqrt as rsqrt,
    scalar_mul as scalar_mul,
    sigmoid as sigmoid,
    sign as sign,
    sin as sin,
    sparse_matmul as sparse_matmul,
    sqrt as sqrt,
    square as square,
    squared_difference as squared_difference,
    subtract as subtract,
    tan as tan,
    tanh as tanh,
    to_float as to_float,
    to_int32 as to_int32,
    truediv as truediv,
    where as where,
    where_v2 as where_v2,
)
from jaxsess._tf1.ops.math_special_ops import (
    betainc as betainc,
    bitcast as bitcast,
    igamma as igamma,
    igammac as igammac,
    is_non_decreasing as is_non_decreasing,
    is_strictly_increasing as is_strictly_increasing,
    lbeta as lbeta,
    log_sigmoid as log_sigmoid,
    polygamma as polygamma,
    saturate_cast as saturate_cast,
    sparse_segment_mean as sparse_segment_mean,
    sparse_segment_sqrt_n as sparse_segment_sqrt_n,
    sparse_segment_sum as sparse_segment_sum,
    to_complex64 as to_complex64,
    to_complex128 as to_complex128,
    truncatediv as truncatediv,
    truncatemod as truncatemod,
    unsorted_segment_sqrt_n as unsorted_segment_sqrt_n,
    zeta as zeta,
)
from jaxsess._tf1.ops.nn_impl import (
    accumulate_n as accumulate_n,
    argsort as argsort,
    batch_gather as batch_gather,
    clip_by_average_norm as clip_by_average_norm,
    div_no_nan as div_no_nan,
    histogram_fixed_width as histogram_fixed_width,
    sort as sort,
)
from jaxsess._tf1.ops.parsing_ops import (
    FixedLenFeature as FixedLenFeature,
    FixedLenSequenceFeature as FixedLenSequenceFeature,
    VarLenFeature as VarLenFeature,
    decode_csv as decode_csv,
    decode_raw as decode_raw,
    parse_example as parse_example,
    parse_single_example as parse_single_example,
    string_to_number as string_to_number,
)
from jaxsess._tf1.ops.partitioned_variables import (
    PartitionedVariable as PartitionedVariable,
    fixed_size_partitioner as fixed_size_partitioner,
    min_max_variable_partitioner as min_max_variable_partitioner,
    variable_axis_size_partitioner as variable_axis_size_partitioner,
)
from jaxsess._tf1.ops.random_ops import (
    get_seed as get_seed,
    multinomial as multinomial,
    random_gamma as random_gamma,
    random_normal as random_normal,
    random_poisson as random_poisson,
    random_shuffle as random_shuffle,
    random_uniform as random_uniform,
    set_random_seed as set_random_seed,
    truncated_normal as truncated_normal,
)
from jaxsess._tf1.ops.rnn import reverse_sequence as reverse_sequence
from jaxsess._tf1.ops.script_ops import (
    numpy_function as numpy_function,
    py_func as py_func,
    py_function as py_function,
    timestamp as timestamp,
)
from jaxsess._tf1.ops.segment_ops import (
    bincount as bincount,
    boolean_mask as boolean_mask,
    confusion_matrix as confusion_matrix,
    dynamic_partition as dynamic_partition,
    dynamic_stitch as dynamic_stitch,
    segment_max as segment_max,
    segment_mean as segment_mean,
    segment_min as segment_min,
    segment_prod as segment_prod,
    segment_sum as segment_sum,
    setdiff1d as setdiff1d,
    unique as unique,
    unique_with_counts as unique_with_counts,
    unsorted_segment_max as unsorted_segment_max,
    unsorted_segment_mean as unsorted_segment_mean,
    unsorted_segment_min as unsorted_segment_min,
    unsorted_segment_prod as unsorted_segment_prod,
    unsorted_segment_sum as unsorted_segment_sum,
)
from jaxsess._tf1.ops.sequence_parsing_ops import (
    parse_sequence_example as parse_sequence_example,
    parse_single_sequence_example as parse_single_sequence_example,
)
from jaxsess._tf1.ops.serialization_ops import (
    decode_compressed as decode_compressed,
    matching_files as matching_files,
    parse_tensor as parse_tensor,
    serialize_tensor as serialize_tensor,
)
from jaxsess._tf1.ops.space_ops import (
    batch_to_space as batch_to_space,
    batch_to_space_nd as batch_to_space_nd,
    depth_to_space as depth_to_space,
    extract_image_patches as extract_image_patches,
    space_to_batch as space_to_batch,
    space_to_batch_nd as space_to_batch_nd,
    space_to_depth as space_to_depth,
)
from jaxsess._tf1.ops.sparse_host_ops import (
    edit_distance as edit_distance,
    sparse_fill_empty_rows as sparse_fill_empty_rows,
    sparse_maximum as sparse_maximum,
    sparse_minimum as sparse_minimum,
    sparse_split as sparse_split,
)
from jaxsess._tf1.ops.sparse_ops import (
    sparse_add as sparse_add,
    sparse_concat as sparse_concat,
    sparse_reduce_max as sparse_reduce_max,
    sparse_reduce_sum as sparse_reduce_sum,
    sparse_reorder as sparse_reorder,
    sparse_reshape as sparse_reshape,
    sparse_retain as sparse_retain,
    sparse_slice as sparse_slice,
    sparse_softmax as sparse_softmax,
    sparse_tensor_dense_matmul as sparse_tensor_dense_matmul,
    sparse_tensor_to_dense as sparse_tensor_to_dense,
    sparse_to_dense as sparse_to_dense,
    sparse_transpose as sparse_transpose,
    string_split as string_split,
)
from jaxsess._tf1.ops.sparse_surface_ops import to_indicator as _sparse_to_indicator
from jaxsess._tf1.ops.sparse_tensor import (
    SparseTensor as SparseTensor,
    SparseTensorValue as SparseTensorValue,
    convert_to_tensor_or_sparse_tensor as convert_to_tensor_or_sparse_tensor,
    sparse_placeholder as sparse_placeholder,
)
from jaxsess._tf1.ops.spectral_ops import (
    angle as angle,
    complex as complex,
    fft as fft,
    fft2d as fft2d,
    fft3d as fft3d,
    ifft as ifft,
    ifft2d as ifft2d,
    ifft3d as ifft3d,
    imag as imag,
    irfft as irfft,
    irfft2d as irfft2d,
    irfft3d as irfft3d,
    real as real,
    rfft as rfft,
    rfft2d as rfft2d,
    rfft3d as rfft3d,
)
from jaxsess._tf1.ops.state_ops import (
    Variable as Variable,
    VariableAggregation as VariableAggregation,
    VariableSynchronization as VariableSynchronization,
    VariableV1 as VariableV1,
    all_variables as all_variables,
    assign as assign,
    assign_add as assign_add,
    assign_sub as assign_sub,
    disable_resource_variables as disable_resource_variables,
    enable_resource_variables as enable_resource_variables,
    global_variables as global_variables,
    global_variables_initializer as global_variables_initializer,
    initialize_all_variables as initialize_all_variables,
    initialize_local_variables as initialize_local_variables,
    initialize_variables as initialize_variables,
    local_variables as local_variables,
    local_variables_initializer as local_variables_initializer,
    model_variables as model_variables,
    moving_average_variables as moving_average_variables,
    resource_variables_enabled as resource_variables_enabled,
    scatter_add as scatter_add,
    scatter_div as scatter_div,
    scatter_max as scatter_max,
    scatter_min as scatter_min,
    scatter_mul as scatter_mul,
    scatter_nd_add as scatter_nd_add,
    scatter_nd_sub as scatter_nd_sub,
    scatter_nd_update as scatter_nd_update,
    scatter_sub as scatter_sub,
    scatter_update as scatter_update,
    trainable_variables as trainable_variables,
    variables_initializer as variables_initializer,
)
from jaxsess._tf1.ops.string_ops import (
    as_string as as_string,
    decode_base64 as decode_base64,
    encode_base64 as encode_base64,
    reduce_join as reduce_join,
    regex_replace as regex_replace,
    string_join as string_join,
    string_strip as string_strip,
    string_to_hash_bucket as string_to_hash_bucket,
    string_to_hash_bucket_fast as string_to_hash_bucket_fast,
    string_to_hash_bucket_strong as string_to_hash_bucket_strong,
    substr as substr,
)
from jaxsess._tf1.ops.template import make_template as make_template
from jaxsess._tf1.ops.tensor_array_ops import TensorArray as TensorArray
from jaxsess._tf1.ops.tensor_spec import TensorSpec as TensorSpec
from jaxsess._tf1.ops.tensor_util import make_ndarray as make_ndarray, make_tensor_proto as make_tensor_proto
from jaxsess._tf1.ops.variable_checks import (
    assert_variables_initialized as assert_variables_initialized,
    initialize_all_tables as initialize_all_tables,
    is_variable_initialized as is_variable_initialized,
    report_uninitialized_variables as report_uninitialized_variables,
    tables_initializer as tables_initializer,
)
from jaxsess._tf1.ops.variable_scope import (
    AUTO_REUSE as AUTO_REUSE,
    VariableScope as VariableScope,
    get_local_variable as get_local_variable,
    get_variable as get_variable,
    get_variable_scope as get_variable_scope,
    no_regularizer as no_regularizer,
    variable_scope as variable_scope,
)
from jaxsess.dtypes import (
    DType as DType,
    as_dtype as as_dtype,
    bfloat16 as bfloat16,
    bool as bool,
    complex64 as complex64,
    complex128 as complex128,
    double as double,
    float16 as float16,
    float32 as float32,
    float64 as float64,
    half as half,
    int8 as int8,
    int16 as int16,
    int32 as int32,
    int64 as int64,
    string as string,
    uint8 as uint8,
    uint16 as uint16,
    uint32 as uint32,
    uint64 as uint64,
)
from jaxsess.export import export as export, graph_function as graph_function, load_exported as load_exported
from jaxsess.ipython import (
    load_ipython_extension as load_ipython_extension,
    unload_ipython_extension as unload_ipython_extension,
)
from jaxsess.version import GIT_VERSION as GIT_VERSION, VERSION as VERSION

get_static_value = constant_value
sparse_to_indicator = _sparse_to_indicator
get_logger = logging.get_logger
# tf.dtypes also holds these ops (dtypes.py sits below the ops layer, so they are set here)
dtypes.cast, dtypes.complex, dtypes.as_string, dtypes.saturate_cast = (  # type: ignore[attr-defined]
    cast, complex, as_string, saturate_cast)
reverse_v2 = reverse
tensor_scatter_update = tensor_scatter_nd_update
tensor_scatter_add = tensor_scatter_nd_add
tensor_scatter_sub = tensor_scatter_nd_sub

from jaxsess import (  # noqa: E402 - tf.compat.v1 is the jaxsess package (complete once loaded)
    compat as compat,
)
from jaxsess._tf1.ops import sparse_surface_ops as _sparse_surface  # noqa: E402

dimension_at_index = compat.dimension_at_index  # tf.dimension_at_index: a Dimension, as TF's
sparse_mask = _sparse_surface.mask
sparse_reduce_max_sparse = _sparse_surface.reduce_max_sparse
sparse_reduce_sum_sparse = _sparse_surface.reduce_sum_sparse
sparse_reset_shape = _sparse_surface.reset_shape
