"""CTC loss with sparse labels, as ``tf.compat.v1.nn.ctc_loss``, on ``optax.ctc_loss``.

The labels are a ``SparseTensor`` (TF1's form): they become a dense
``[batch, max_label_length]`` matrix in the plan (its width is the labels'
dense shape, known when the graph is built or, for a ``sparse_placeholder``,
when the run is traced; see :mod:`jaxsess._tf1.ops.sparse_tensor`) with a padding
mask from each row's number of stored labels.
"""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp
import numpy as np
import optax

from jaxsess._core import dtypes as _dtypes, errors as errors
from jaxsess._core.graph._builder import apply_op, convert_to_tensor
from jaxsess._core.graph._graph import Operation
from jaxsess._core.graph._host import check_not_eager, device_lowering, register_host
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops import math_ops as math_ops
from jaxsess._tf1.ops._args import op_scope
from jaxsess._tf1.ops.sparse_host_ops import pack_sparse, sparse_outputs, sparse_result
from jaxsess._tf1.ops.sparse_ops import sparse_tensor_to_dense
from jaxsess._tf1.ops.sparse_tensor import SparseTensor, SparseTensorValue

__all__ = ["ctc_loss", "ctc_greedy_decoder", "ctc_beam_search_decoder"]


def _ctc_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    (shape, dtype) = specs[0]
    batch = None if shape is None else shape[1 if attrs["time_major"] else 0]
    return [(TensorShape([batch]), dtype)]


@register_op("CTCLossDense", default_name="CTCLoss", infer=_ctc_infer)
def _ctc_loss(logits: Any, labels: Any, sequence_length: Any, *, time_major: bool,
              ignore_longer_outputs_than_inputs: bool) -> Any:
    if time_major:
        logits = jnp.swapaxes(logits, 0, 1)  # [batch, time, classes]
    b, t, k = logits.shape
    logit_pad = (jnp.arange(t)[None, :] >= sequence_length[:, None]).astype(logits.dtype)
    label_pad = (labels < 0).astype(logits.dtype)
    loss = optax.ctc_loss(logits, logit_pad, jnp.maximum(labels, 0).astype(jnp.int32), label_pad, blank_id=k - 1)
    if ignore_longer_outputs_than_inputs:
        n_labels = jnp.sum(labels >= 0, axis=1)
        loss = jnp.where(n_labels > sequence_length, jnp.zeros((), loss.dtype), loss)
    return loss


def ctc_loss(labels: Any, inputs: Any = None, sequence_length: Any = None, preprocess_collapse_repeated: bool = False,
             ctc_merge_repeated: bool = True, ignore_longer_outputs_than_inputs: bool = False, time_major: bool = True,
             logits: Any = None) -> Any:
    """Connectionist temporal classification loss, as ``tf.compat.v1.nn.ctc_loss``.

    Args:
      labels: int32 ``SparseTensor`` ``[batch, max_label_length]``: row ``b``
        holds the label sequence of batch entry ``b`` (values in
        ``[0, num_classes - 1)``; class ``num_classes - 1`` is the blank).
      inputs: float logits ``[max_time, batch, num_classes]`` (``[batch,
        max_time, num_classes]`` with ``time_major=False``); alias ``logits``.
      sequence_length: int32 ``[batch]``: the number of valid time steps.
      ignore_longer_outputs_than_inputs: give 0 (and no gradient) for an
        entry whose label sequence is longer than its input.

    Returns:
      float ``[batch]``: the negative log-probability of each label sequence.
      A sequence with no valid alignment gives a large finite value (optax's
      ``log_epsilon``) where TF gives ``inf``; an entry with more labels than
      time steps is not an error (TF raises ``InvalidArgumentError`` without
      ``ignore_longer_outputs_than_inputs``).

    Raises:
      TypeError: ``labels`` is not a ``SparseTensor``.
      ValueError: ``inputs`` is not of rank 3.
      NotImplementedError: ``preprocess_collapse_repeated=True`` or ``ctc_merge_repeated=False``.
    """
    if not isinstance(labels, SparseTensor | SparseTensorValue):
        raise TypeError(f"Expected labels (first argument) to be a SparseTensor, got {type(labels).__name__}.")
    if preprocess_collapse_repeated or not ctc_merge_repeated:
        raise NotImplementedError("ctc_loss supports preprocess_collapse_repeated=False and "
                                  "ctc_merge_repeated=True only (optax's CTC).")
    inputs = logits if inputs is None else inputs
    if inputs is None or sequence_length is None:
        raise TypeError("ctc_loss needs inputs (or logits) and sequence_length.")
    labels = SparseTensor.from_value(labels)
    with op_scope(None, "CTCLoss", [labels.values, inputs]) as scope:
        x = convert_to_tensor(inputs)
        if TensorShape(x.shape).ndims not in (None, 3):
            raise ValueError(f"ctc_loss: inputs {getattr(x, 'name', '')} must have rank 3 ([max_time, batch, "
                             f"num_classes] or batch-major), got shape {TensorShape(x.shape)}.")
        if labels.dtype != _dtypes.int32:
            labels = SparseTensor(labels.indices, math_ops.cast(labels.values, _dtypes.int32), labels.dense_shape)
        dense = sparse_tensor_to_dense(labels, default_value=-1)  # -1: padding
        seq = math_ops.cast(convert_to_tensor(sequence_length), _dtypes.int32)
        return apply_op("CTCLossDense", (x, dense, seq),
                        {"time_major": bool(time_major),
                         "ignore_longer_outputs_than_inputs": bool(ignore_longer_outputs_than_inputs)},
                        name=scope)


# -- greedy decoding (host) -----------------------------------------------------------------------


def _greedy_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    shape = TensorShape(specs[0][0])
    batch = shape.as_list()[1] if shape.ndims == 3 else None
    return [*sparse_outputs(2, _dtypes.int64), (TensorShape([batch, 1]), specs[0][1])]


def _greedy_to_tf(attrs: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[Any]]:
    return {"merge_repeated": attrs["merge_repeated"], "blank_index": attrs["blank_index"]}, []


@register_op("CTCGreedyDecoder", num_outputs=5, infer=_greedy_infer, lowering=device_lowering,
             default_name="CTCGreedyDecoder", tf=TFOp(to_tf=_greedy_to_tf))
def _greedy_device(*xs: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("CTCGreedyDecoder runs on the host")


@register_host("CTCGreedyDecoder", always=True, infer=_greedy_infer)
def _host_greedy(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    logits, lengths = np.asarray(inputs[0]), np.asarray(inputs[1]).reshape(-1)
    t_max, batch, classes = logits.shape
    if len(lengths) != batch:
        raise errors.InvalidArgumentError(
            op.name, op, f"len(sequence_length) != batch_size.  len(sequence_length):  {len(lengths)} "
                         f"batch_size: {batch}")
    blank = op.attrs["blank_index"] % classes if classes else 0
    indices: list[tuple[int, int]] = []
    values: list[int] = []
    neg_sum = np.zeros((batch, 1), logits.dtype)
    width = 0
    for b in range(batch):
        n = int(lengths[b])
        if n > t_max:
            raise errors.InvalidArgumentError(
                op.name, op, f"sequence_length({b}) <= {t_max}")
        best = logits[:n, b].argmax(axis=-1)
        neg_sum[b, 0] = -logits[np.arange(n), b, best].sum(dtype=logits.dtype)
        prev = -1
        j = 0
        for label in best.tolist():
            if label != blank and not (op.attrs["merge_repeated"] and label == prev):
                indices.append((b, j))
                values.append(label)
                j += 1
            prev = label
        width = max(width, j)
    return (*pack_sparse(indices, values, (batch, width), _dtypes.int64), neg_sum)


def ctc_greedy_decoder(inputs: Any, sequence_length: Any, merge_repeated: bool = True,
                       blank_index: int | None = None) -> tuple[list[SparseTensor], Any]:
    """Greedy (best path) CTC decoding, as ``tf.compat.v1.nn.ctc_greedy_decoder``.

    At each step the most likely class; then repeated labels are merged
    (``merge_repeated``) and blanks dropped. Runs on the host (the number of
    decoded labels depends on the data).

    Args:
      inputs: float ``[max_time, batch, num_classes]`` logits.
      sequence_length: int32 ``[batch]``.
      blank_index: the blank class (default ``num_classes - 1``; negative counts from the end).

    Returns:
      ``([decoded], neg_sum_logits)``: a one-element list with an int64
      ``SparseTensor`` ``[batch, max decoded length]``, and ``[batch, 1]`` the
      negated sum of the best logit of each step.

    Raises:
      InvalidArgumentError (at run time): a sequence length beyond ``max_time``
        or a ``sequence_length`` of another batch size.
    """
    check_not_eager("ctc_greedy_decoder")
    x = convert_to_tensor(inputs)
    if x.dtype not in (_dtypes.float32, _dtypes.float64):
        raise TypeError(f"ctc_greedy_decoder: inputs must be float32 or float64, got {x.dtype.name} ({x.name}).")
    if x.shape.ndims not in (None, 3):
        raise ValueError(f"ctc_greedy_decoder: inputs must be [max_time, batch, num_classes], got {x.shape} "
                         f"({x.name}).")
    lengths = convert_to_tensor(sequence_length, dtype=_dtypes.int32)
    blank = -1 if blank_index is None else int(blank_index)
    idx, vals, _, carrier, neg_sum = apply_op(
        "CTCGreedyDecoder", (x, lengths), {"merge_repeated": bool(merge_repeated), "blank_index": blank})
    return [sparse_result(idx, vals, carrier)], neg_sum


# -- beam search decoding (host) ------------------------------------------------------------------

_LOG_ZERO = np.float32(-np.inf)


def _log_sum_exp(a: Any, b: Any) -> Any:
    if a == _LOG_ZERO:
        return b
    if b == _LOG_ZERO:
        return a
    hi, lo = (a, b) if a > b else (b, a)
    return np.float32(hi + np.log1p(np.exp(np.float32(lo - hi))))


class _Beam:
    """One prefix of TF's CTC beam search tree: probabilities ``[blank, label, total]``
    (log space) at the previous (``old``) and current (``new``) step."""

    __slots__ = ("label", "parent", "children", "old", "new")

    def __init__(self, parent: _Beam | None, label: int) -> None:
        self.label = label
        self.parent = parent
        self.children: dict[int, _Beam] = {}
        self.old = [_LOG_ZERO] * 3
        self.new = [_LOG_ZERO] * 3

    def active(self) -> bool:
        return bool(self.new[2] != _LOG_ZERO)

    def child(self, label: int) -> _Beam:
        c = self.children.get(label)
        if c is None:
            c = self.children[label] = _Beam(self, label)
        return c

    def labels(self, merge_repeated: bool) -> list[int]:
        out: list[int] = []
        prev = -1
        c: _Beam | None = self
        while c is not None and c.parent is not None:
            if not merge_repeated or c.label != prev:
                out.append(c.label)
            prev = c.label
            c = c.parent
        return out[::-1]


def _beam_search(steps: np.ndarray, beam_width: int, top_paths: int, merge_repeated: bool,
                 op: Operation) -> list[tuple[list[int], Any]]:
    """TF's ``CTCBeamSearchDecoder`` (no scorer, every label considered) over ``steps``
    ``[time, num_classes]`` (the last class is the blank): the ``top_paths`` best prefixes."""
    classes = steps.shape[1]
    blank = classes - 1
    root = _Beam(None, -1)
    root.new = [np.float32(0.0), _LOG_ZERO, np.float32(0.0)]
    leaves: list[_Beam] = [root]

    def bottom() -> _Beam:
        return min(leaves, key=lambda e: e.new[2])

    def candidate(p: list[Any]) -> bool:
        return bool(p[2] > _LOG_ZERO and (len(leaves) < beam_width or p[2] > bottom().new[2]))

    for raw in steps:
        # TF normalizes each step to log probabilities (log-softmax) first
        top = np.float32(raw.max())
        x = (raw - (top + np.log(np.exp(raw - top).sum(dtype=np.float32)))).astype(np.float32)
        branches = sorted(leaves, key=lambda e: -e.new[2])
        leaves = []
        for b in branches:
            b.old = list(b.new)
        for b in branches:
            if b.parent is not None:
                if b.parent.active():
                    prev = b.parent.old[0] if b.label == b.parent.label else b.parent.old[2]
                    b.new[1] = _log_sum_exp(b.new[1], prev)
                b.new[1] = np.float32(b.new[1] + x[b.label])
            b.new[0] = np.float32(b.old[2] + x[blank])
            b.new[2] = _log_sum_exp(b.new[0], b.new[1])
            leaves.append(b)
        for b in branches:
            if not candidate(b.old):
                continue
            for label in range(classes - 1):
                c = b.child(label)
                if c.active():
                    continue
                prev = b.old[0] if c.label == b.label else b.old[2]
                c.new = [_LOG_ZERO, np.float32(x[label] + prev), _LOG_ZERO]
                c.new[2] = c.new[1]
                if candidate(c.new):
                    if len(leaves) == beam_width:
                        low = bottom()
                        low.new = [_LOG_ZERO] * 3
                        leaves.remove(low)
                    leaves.append(c)
                else:
                    c.old = [_LOG_ZERO] * 3
                    c.new = [_LOG_ZERO] * 3
    if top_paths > len(leaves):
        raise errors.InvalidArgumentError(op.name, op, "Less leaves in the beam search than requested.")
    best = sorted(leaves, key=lambda e: -e.new[2])[:top_paths]
    return [(e.labels(merge_repeated), e.new[2]) for e in best]


def _beam_infer(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    shape = TensorShape(specs[0][0])
    batch = shape.as_list()[1] if shape.ndims == 3 else None
    k = attrs["top_paths"]
    spec = sparse_outputs(2, _dtypes.int64)
    return [spec[0]] * k + [spec[1]] * k + [spec[2]] * k + [spec[3]] * k + [(TensorShape([batch, k]), specs[0][1])]


def _beam_to_tf(attrs: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[Any]]:
    return {k: attrs[k] for k in ("beam_width", "top_paths", "merge_repeated")}, []


@register_op("CTCBeamSearchDecoder", num_outputs=lambda a: 4 * a["top_paths"] + 1, infer=_beam_infer,
             lowering=device_lowering, default_name="CTCBeamSearchDecoder", tf=TFOp(to_tf=_beam_to_tf))
def _beam_device(*xs: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("CTCBeamSearchDecoder runs on the host")


@register_host("CTCBeamSearchDecoder", always=True, infer=_beam_infer)
def _host_beam(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    logits, lengths = np.asarray(inputs[0]), np.asarray(inputs[1]).reshape(-1)
    t_max, batch, _ = logits.shape
    k = op.attrs["top_paths"]
    if len(lengths) != batch:
        raise errors.InvalidArgumentError(
            op.name, op, f"len(sequence_length) != batch_size.  len(sequence_length):  {len(lengths)} "
                         f"batch_size: {batch}")
    paths: list[list[list[int]]] = [[] for _ in range(k)]
    log_prob = np.zeros((batch, k), logits.dtype)
    for b in range(batch):
        n = int(lengths[b])
        if n > t_max:
            raise errors.InvalidArgumentError(op.name, op, f"sequence_length({b}) <= {t_max}")
        best = _beam_search(logits[:n, b].astype(np.float32), op.attrs["beam_width"], k,
                            op.attrs["merge_repeated"], op)
        for p, (labels, score) in enumerate(best):
            paths[p].append(labels)
            log_prob[b, p] = score
    outs: list[list[Any]] = [[], [], [], []]
    for p in range(k):
        indices = [(b, j) for b, seq in enumerate(paths[p]) for j in range(len(seq))]
        values = [v for seq in paths[p] for v in seq]
        part = pack_sparse(indices, values, (batch, max((len(s) for s in paths[p]), default=0)), _dtypes.int64)
        for j in range(4):
            outs[j].append(part[j])
    return (*(x for group in outs for x in group), log_prob)


def ctc_beam_search_decoder(inputs: Any, sequence_length: Any, beam_width: int = 100, top_paths: int = 1,
                            merge_repeated: bool = True) -> tuple[list[SparseTensor], Any]:
    """Beam search CTC decoding, as ``tf.compat.v1.nn.ctc_beam_search_decoder`` (TF's
    ``CTCBeamSearchDecoder`` prefix search; the blank is the last class).

    Runs on the host (the number of decoded labels depends on the data).

    Args:
      inputs: float ``[max_time, batch, num_classes]`` logits.
      sequence_length: int32 ``[batch]``.
      beam_width: the number of prefixes kept (>= 1).
      top_paths: how many of the best prefixes to return (1 to ``beam_width``).
      merge_repeated: merge repeated labels of a prefix in the output.

    Returns:
      ``(decoded, log_probabilities)``: ``top_paths`` int64 ``SparseTensor``s
      ``[batch, max decoded length]``, and ``[batch, top_paths]`` the prefixes'
      log probabilities (relative to the best logit at each step, as TF's).

    Raises:
      ValueError: ``top_paths`` or ``beam_width`` out of range.
      InvalidArgumentError (at run time): a sequence length beyond ``max_time``,
        or fewer prefixes than ``top_paths``.
    """
    check_not_eager("ctc_beam_search_decoder")
    if int(beam_width) < 1 or not 1 <= int(top_paths) <= int(beam_width):
        raise ValueError(f"ctc_beam_search_decoder: need 1 <= top_paths ({top_paths}) <= beam_width ({beam_width}).")
    x = convert_to_tensor(inputs)
    if x.dtype not in (_dtypes.float32, _dtypes.float64):
        raise TypeError(f"ctc_beam_search_decoder: inputs must be float32 or float64, got {x.dtype.name} ({x.name}).")
    lengths = convert_to_tensor(sequence_length, dtype=_dtypes.int32)
    k = int(top_paths)
    outs = apply_op("CTCBeamSearchDecoder", (x, lengths),
                    {"beam_width": int(beam_width), "top_paths": k, "merge_repeated": bool(merge_repeated)})
    return [sparse_result(outs[i], outs[k + i], outs[3 * k + i]) for i in range(k)], outs[4 * k]
