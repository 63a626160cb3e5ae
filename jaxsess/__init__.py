"""jaxsess: sessions that own device memory, and TF1-style graphs lowered to XLA.

``import jaxsess as tf`` runs TF1 programs that use the covered subset of
``tf.compat.v1``; see the README's compatibility table.
"""

from jaxsess import dtypes as dtypes
from jaxsess import errors as errors
from jaxsess._config import ConfigProto as ConfigProto
from jaxsess._config import GPUOptions as GPUOptions
from jaxsess._eager import EagerSession as EagerSession
from jaxsess._graph_session import InteractiveSession as InteractiveSession
from jaxsess._graph_session import Session as Session
from jaxsess._resources import DeviceStats as DeviceStats
from jaxsess._resources import ResourceCleanupStrategy as ResourceCleanupStrategy
from jaxsess._resources import SessionStats as SessionStats
from jaxsess._session import BaseSession as BaseSession
from jaxsess._session import get_default_session as get_default_session
from jaxsess.dtypes import (
    DType as DType,
)
from jaxsess.dtypes import (
    as_dtype as as_dtype,
)
from jaxsess.dtypes import (
    bfloat16 as bfloat16,
)
from jaxsess.dtypes import (
    bool as bool,  # noqa: A004
)
from jaxsess.dtypes import (
    complex64 as complex64,
)
from jaxsess.dtypes import (
    complex128 as complex128,
)
from jaxsess.dtypes import (
    double as double,
)
from jaxsess.dtypes import (
    float16 as float16,
)
from jaxsess.dtypes import (
    float32 as float32,
)
from jaxsess.dtypes import (
    float64 as float64,
)
from jaxsess.dtypes import (
    half as half,
)
from jaxsess.dtypes import (
    int8 as int8,
)
from jaxsess.dtypes import (
    int16 as int16,
)
from jaxsess.dtypes import (
    int32 as int32,
)
from jaxsess.dtypes import (
    int64 as int64,
)
from jaxsess.dtypes import (
    uint8 as uint8,
)
from jaxsess.dtypes import (
    uint16 as uint16,
)
from jaxsess.dtypes import (
    uint32 as uint32,
)
from jaxsess.dtypes import (
    uint64 as uint64,
)
from jaxsess.graph._graph import (
    Dimension as Dimension,
)
from jaxsess.graph._graph import (
    Graph as Graph,
)
from jaxsess.graph._graph import (
    GraphKeys as GraphKeys,
)
from jaxsess.graph._graph import (
    Operation as Operation,
)
from jaxsess.graph._graph import (
    Tensor as Tensor,
)
from jaxsess.graph._graph import (
    TensorShape as TensorShape,
)
from jaxsess.graph._graph import (
    add_to_collection as add_to_collection,
)
from jaxsess.graph._graph import (
    add_to_collections as add_to_collections,
)
from jaxsess.graph._graph import (
    control_dependencies as control_dependencies,
)
from jaxsess.graph._graph import (
    device as device,
)
from jaxsess.graph._graph import (
    get_collection as get_collection,
)
from jaxsess.graph._graph import (
    get_collection_ref as get_collection_ref,
)
from jaxsess.graph._graph import (
    get_default_graph as get_default_graph,
)
from jaxsess.graph._graph import (
    name_scope as name_scope,
)
from jaxsess.graph._graph import (
    reset_default_graph as reset_default_graph,
)
from jaxsess.ops import _operators
from jaxsess.ops._core import (
    constant as constant,
)
from jaxsess.ops._core import (
    constant_value as get_static_value,
)
from jaxsess.ops._core import (
    convert_to_tensor as convert_to_tensor,
)
from jaxsess.ops._core import (
    executing_eagerly as executing_eagerly,
)
from jaxsess.ops._core import (
    group as group,
)
from jaxsess.ops._core import (
    identity as identity,
)
from jaxsess.ops._core import (
    is_tensor as is_tensor,
)
from jaxsess.ops._core import (
    no_op as no_op,
)
from jaxsess.ops._core import (
    placeholder as placeholder,
)
from jaxsess.ops._core import (
    placeholder_with_default as placeholder_with_default,
)
from jaxsess.ops._core import (
    stop_gradient as stop_gradient,
)
from jaxsess.ops._core import (
    tuple_ as tuple,  # noqa: A004
)
from jaxsess.ops.math_ops import (
    abs as abs,  # noqa: A004
)
from jaxsess.ops.math_ops import (
    add as add,
)
from jaxsess.ops.math_ops import (
    add_n as add_n,
)
from jaxsess.ops.math_ops import (
    argmax as argmax,
)
from jaxsess.ops.math_ops import (
    argmin as argmin,
)
from jaxsess.ops.math_ops import (
    atan2 as atan2,
)
from jaxsess.ops.math_ops import (
    cast as cast,
)
from jaxsess.ops.math_ops import (
    ceil as ceil,
)
from jaxsess.ops.math_ops import (
    clip_by_value as clip_by_value,
)
from jaxsess.ops.math_ops import (
    cos as cos,
)
from jaxsess.ops.math_ops import (
    count_nonzero as count_nonzero,
)
from jaxsess.ops.math_ops import (
    cumprod as cumprod,
)
from jaxsess.ops.math_ops import (
    cumsum as cumsum,
)
from jaxsess.ops.math_ops import (
    div as div,
)
from jaxsess.ops.math_ops import (
    divide as divide,
)
from jaxsess.ops.math_ops import (
    equal as equal,
)
from jaxsess.ops.math_ops import (
    erf as erf,
)
from jaxsess.ops.math_ops import (
    exp as exp,
)
from jaxsess.ops.math_ops import (
    expm1 as expm1,
)
from jaxsess.ops.math_ops import (
    floor as floor,
)
from jaxsess.ops.math_ops import (
    floor_div as floor_div,
)
from jaxsess.ops.math_ops import (
    floordiv as floordiv,
)
from jaxsess.ops.math_ops import (
    floormod as floormod,
)
from jaxsess.ops.math_ops import (
    greater as greater,
)
from jaxsess.ops.math_ops import (
    greater_equal as greater_equal,
)
from jaxsess.ops.math_ops import (
    is_finite as is_finite,
)
from jaxsess.ops.math_ops import (
    is_inf as is_inf,
)
from jaxsess.ops.math_ops import (
    is_nan as is_nan,
)
from jaxsess.ops.math_ops import (
    less as less,
)
from jaxsess.ops.math_ops import (
    less_equal as less_equal,
)
from jaxsess.ops.math_ops import (
    log as log,
)
from jaxsess.ops.math_ops import (
    log1p as log1p,
)
from jaxsess.ops.math_ops import (
    logical_and as logical_and,
)
from jaxsess.ops.math_ops import (
    logical_not as logical_not,
)
from jaxsess.ops.math_ops import (
    logical_or as logical_or,
)
from jaxsess.ops.math_ops import (
    logical_xor as logical_xor,
)
from jaxsess.ops.math_ops import (
    matmul as matmul,
)
from jaxsess.ops.math_ops import (
    maximum as maximum,
)
from jaxsess.ops.math_ops import (
    minimum as minimum,
)
from jaxsess.ops.math_ops import (
    mod as mod,
)
from jaxsess.ops.math_ops import (
    multiply as multiply,
)
from jaxsess.ops.math_ops import (
    negative as negative,
)
from jaxsess.ops.math_ops import (
    not_equal as not_equal,
)
from jaxsess.ops.math_ops import (
    pow as pow,  # noqa: A004
)
from jaxsess.ops.math_ops import (
    realdiv as realdiv,
)
from jaxsess.ops.math_ops import (
    reciprocal as reciprocal,
)
from jaxsess.ops.math_ops import (
    reduce_all as reduce_all,
)
from jaxsess.ops.math_ops import (
    reduce_any as reduce_any,
)
from jaxsess.ops.math_ops import (
    reduce_logsumexp as reduce_logsumexp,
)
from jaxsess.ops.math_ops import (
    reduce_max as reduce_max,
)
from jaxsess.ops.math_ops import (
    reduce_mean as reduce_mean,
)
from jaxsess.ops.math_ops import (
    reduce_min as reduce_min,
)
from jaxsess.ops.math_ops import (
    reduce_prod as reduce_prod,
)
from jaxsess.ops.math_ops import (
    reduce_sum as reduce_sum,
)
from jaxsess.ops.math_ops import (
    round as round,  # noqa: A004
)
from jaxsess.ops.math_ops import (
    rsqrt as rsqrt,
)
from jaxsess.ops.math_ops import (
    sigmoid as sigmoid,
)
from jaxsess.ops.math_ops import (
    sign as sign,
)
from jaxsess.ops.math_ops import (
    sin as sin,
)
from jaxsess.ops.math_ops import (
    sqrt as sqrt,
)
from jaxsess.ops.math_ops import (
    square as square,
)
from jaxsess.ops.math_ops import (
    squared_difference as squared_difference,
)
from jaxsess.ops.math_ops import (
    subtract as subtract,
)
from jaxsess.ops.math_ops import (
    tan as tan,
)
from jaxsess.ops.math_ops import (
    tanh as tanh,
)
from jaxsess.ops.math_ops import (
    to_float as to_float,
)
from jaxsess.ops.math_ops import (
    to_int32 as to_int32,
)
from jaxsess.ops.math_ops import (
    truediv as truediv,
)
from jaxsess.ops.math_ops import (
    where as where,
)
from jaxsess.ops.control_flow import case as case, cond as cond, while_loop as while_loop
from jaxsess.ops.gradients import gradients as gradients
from jaxsess.ops.random_ops import (
    get_seed as get_seed,
    multinomial as multinomial,
    random_normal as random_normal,
    random_shuffle as random_shuffle,
    random_uniform as random_uniform,
    set_random_seed as set_random_seed,
    truncated_normal as truncated_normal,
)
from jaxsess.ops.state_ops import (
    Variable as Variable,
    VariableV1 as VariableV1,
    all_variables as all_variables,
    assign as assign,
    assign_add as assign_add,
    assign_sub as assign_sub,
    global_variables as global_variables,
    global_variables_initializer as global_variables_initializer,
    initialize_all_variables as initialize_all_variables,
    initialize_local_variables as initialize_local_variables,
    initialize_variables as initialize_variables,
    local_variables as local_variables,
    local_variables_initializer as local_variables_initializer,
    model_variables as model_variables,
    moving_average_variables as moving_average_variables,
    trainable_variables as trainable_variables,
    variables_initializer as variables_initializer,
)

_operators.install()

__version__ = "0.1.0"
