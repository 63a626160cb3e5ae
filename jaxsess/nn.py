"""``jaxsess.nn``: neural-network functions with TF1's names, as ``tf.compat.v1.nn``.

Only re-exports; the ops live in :mod:`jaxsess._tf1.ops.nn_ops`.
"""

from jaxsess._tf1.ops.nn_ops import (
    avg_pool as avg_pool,
    bias_add as bias_add,
    conv2d as conv2d,
    elu as elu,
    embedding_lookup as embedding_lookup,
    in_top_k as in_top_k,
    l2_loss as l2_loss,
    l2_normalize as l2_normalize,
    leaky_relu as leaky_relu,
    log_softmax as log_softmax,
    max_pool as max_pool,
    moments as moments,
    relu as relu,
    relu6 as relu6,
    selu as selu,
    sigmoid as sigmoid,
    sigmoid_cross_entropy_with_logits as sigmoid_cross_entropy_with_logits,
    softmax as softmax,
    softmax_cross_entropy_with_logits as softmax_cross_entropy_with_logits,
    softmax_cross_entropy_with_logits_v2 as softmax_cross_entropy_with_logits_v2,
    softplus as softplus,
    softsign as softsign,
    sparse_softmax_cross_entropy_with_logits as sparse_softmax_cross_entropy_with_logits,
    tanh as tanh,
    top_k as top_k,
    xw_plus_b as xw_plus_b,
)

avg_pool2d = avg_pool
max_pool2d = max_pool
from jaxsess._tf1.ops import rnn_cell as rnn_cell  # noqa: E402
from jaxsess._tf1.ops.conv3d_ops import (  # noqa: E402
    avg_pool3d as avg_pool3d,
    conv3d as conv3d,
    conv3d_transpose as conv3d_transpose,
    max_pool3d as max_pool3d,
    max_pool_with_argmax as max_pool_with_argmax,
    pool as pool,
)
from jaxsess._tf1.ops.conv_ops import (  # noqa: E402
    conv1d as conv1d,
    conv2d_backprop_filter as conv2d_backprop_filter,
    conv2d_backprop_input as conv2d_backprop_input,
    conv2d_transpose as conv2d_transpose,
    depthwise_conv2d as depthwise_conv2d,
    depthwise_conv2d_native as depthwise_conv2d_native,
    separable_conv2d as separable_conv2d,
)
from jaxsess._tf1.ops.ctc_ops import (  # noqa: E402
    ctc_beam_search_decoder as ctc_beam_search_decoder,
    ctc_greedy_decoder as ctc_greedy_decoder,
    ctc_loss as ctc_loss,
)
from jaxsess._tf1.ops.nn_impl import (  # noqa: E402
    atrous_conv2d as atrous_conv2d,
    crelu as crelu,
    log_poisson_loss as log_poisson_loss,
    normalize_moments as normalize_moments,
    sufficient_statistics as sufficient_statistics,
    swish as swish,
    weighted_cross_entropy_with_logits as weighted_cross_entropy_with_logits,
    weighted_moments as weighted_moments,
    zero_fraction as zero_fraction,
)
from jaxsess._tf1.ops.nn_surface_ops import (  # noqa: E402
    avg_pool1d as avg_pool1d,
    convolution as convolution,
    max_pool1d as max_pool1d,
    relu_layer as relu_layer,
)
from jaxsess._tf1.ops.normalization import (  # noqa: E402
    batch_normalization as batch_normalization,
    fused_batch_norm as fused_batch_norm,
    local_response_normalization as local_response_normalization,
    lrn as lrn,
)
from jaxsess._tf1.ops.random_ops import dropout as dropout  # noqa: E402
from jaxsess._tf1.ops.rnn import (  # noqa: E402
    bidirectional_dynamic_rnn as bidirectional_dynamic_rnn,
    dynamic_rnn as dynamic_rnn,
    raw_rnn as raw_rnn,
    static_bidirectional_rnn as static_bidirectional_rnn,
    static_rnn as static_rnn,
)
from jaxsess._tf1.ops.sampled_losses import (  # noqa: E402
    compute_accidental_hits as compute_accidental_hits,
    fixed_unigram_candidate_sampler as fixed_unigram_candidate_sampler,
    log_uniform_candidate_sampler as log_uniform_candidate_sampler,
    nce_loss as nce_loss,
    sampled_softmax_loss as sampled_softmax_loss,
    uniform_candidate_sampler as uniform_candidate_sampler,
)
from jaxsess._tf1.ops.space_ops import (  # noqa: E402
    depth_to_space as depth_to_space,
    space_to_batch as space_to_batch,
    space_to_depth as space_to_depth,
)
from jaxsess._tf1.ops.sparse_embedding_ops import (  # noqa: E402
    embedding_lookup_sparse as embedding_lookup_sparse,
    safe_embedding_lookup_sparse as safe_embedding_lookup_sparse,
)

silu = swish  # TF 2's name of the same function (tf.nn.silu is tf.nn.swish)
from jaxsess._tf1.ops.candidate_samplers import all_candidate_sampler as all_candidate_sampler  # noqa: E402
from jaxsess._tf1.ops.conv_grad_ops import (  # noqa: E402
    atrous_conv2d_transpose as atrous_conv2d_transpose,
    conv3d_backprop_filter as conv3d_backprop_filter,
    conv3d_backprop_filter_v2 as conv3d_backprop_filter_v2,
    depthwise_conv2d_native_backprop_filter as depthwise_conv2d_native_backprop_filter,
    depthwise_conv2d_native_backprop_input as depthwise_conv2d_native_backprop_input,
    with_space_to_batch as with_space_to_batch,
)
from jaxsess._tf1.ops.morphology_ops import dilation2d as dilation2d, erosion2d as erosion2d  # noqa: E402
from jaxsess._tf1.ops.nn_surface_ops import (  # noqa: E402
    avg_pool_v2 as avg_pool_v2,
    batch_norm_with_global_normalization as batch_norm_with_global_normalization,
    compute_average_loss as compute_average_loss,
    conv1d_transpose as conv1d_transpose,
    conv_transpose as conv_transpose,
    max_pool_v2 as max_pool_v2,
    scale_regularization_loss as scale_regularization_loss,
)
