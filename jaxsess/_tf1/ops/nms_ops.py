"""More of TF's non-max suppression, as ``tf.image``: ``non_max_suppression_with_scores``
(``NonMaxSuppressionV5`` without soft-NMS), ``non_max_suppression_overlaps``
(``NonMaxSuppressionWithOverlaps``) and ``combined_non_max_suppression``
(``CombinedNonMaxSuppression``), on the greedy loop of
:mod:`jaxsess._tf1.ops.image_ops_impl` (a candidate is dropped when its similarity
to a kept box is above the threshold, or its score is not above ``score_threshold``).

``non_max_suppression_overlaps``'s length depends on the data: it is a host op
(as ``non_max_suppression`` of run-time boxes). ``combined_non_max_suppression``
has TF's fixed shapes and runs on the device: per batch and class the greedy
NMS keeps at most ``max_output_size_per_class`` boxes, then the kept boxes of all
classes are ordered by decreasing score (ties: lower class first) and the first
``max_total_size`` are returned, zero-padded, boxes clipped to ``[0, 1]`` when
``clip_boxes``.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes, errors as errors
from jaxsess._core.graph._builder import apply_op, convert_to_tensor
from jaxsess._core.graph._graph import Operation
from jaxsess._core.graph._host import device_lowering, register_host, require_no_assign_before
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._tf1.ops import gather_ops
from jaxsess._tf1.ops._args import op_scope, static_int
from jaxsess._tf1.ops.image_ops_impl import _nms, _nms_host_infer, non_max_suppression

__all__ = ["non_max_suppression_with_scores", "non_max_suppression_overlaps", "combined_non_max_suppression"]


def non_max_suppression_with_scores(boxes: Any, scores: Any, max_output_size: Any, iou_threshold: Any = 0.5,
                                    score_threshold: Any = float("-inf"), soft_nms_sigma: Any = 0.0,
                                    name: str | None = None) -> tuple[Any, Any]:
    """:func:`~jaxsess.image.non_max_suppression` and the kept boxes' scores, as
    ``tf.image.non_max_suppression_with_scores``.

    Returns:
      ``(selected_indices int32 [M], selected_scores float32 [M])``.

    Raises:
      NotImplementedError: ``soft_nms_sigma`` other than 0 (Soft-NMS is not computed).
      ValueError: as :func:`~jaxsess.image.non_max_suppression`.
    """
    if float(np.asarray(soft_nms_sigma)) != 0.0:
        raise NotImplementedError("non_max_suppression_with_scores: soft_nms_sigma other than 0 (Soft-NMS) is not "
                                  "implemented in jaxsess.")
    with op_scope(name, "non_max_suppression_with_scores", [boxes, scores]) as scope:
        s = convert_to_tensor(scores, _dtypes.float32, name="scores")
        idx = non_max_suppression(boxes, s, max_output_size, iou_threshold, score_threshold)
        return idx, gather_ops.gather(s, idx, name=scope)


@register_op("NonMaxSuppressionWithOverlaps", infer=_nms_host_infer, lowering=device_lowering,
             default_name="NonMaxSuppressionWithOverlaps")
def _overlaps_device(*inputs: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("NonMaxSuppressionWithOverlaps runs on the host")


@register_host("NonMaxSuppressionWithOverlaps", always=True, infer=_nms_host_infer)
def _host_overlaps(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    overlaps, scores, threshold, score_threshold = (np.asarray(v, np.float32) for v in inputs)
    if overlaps.ndim != 2 or overlaps.shape[0] != overlaps.shape[1] or overlaps.shape[0] != scores.shape[0]:
        raise errors.InvalidArgumentError(op.name, op, f"overlaps must be square [num_boxes, num_boxes] and scores "
                                                       f"[num_boxes]: got {list(overlaps.shape)} and "
                                                       f"{list(scores.shape)}")
    picked, count = _nms(None, jnp.asarray(scores), op.attrs["max_output_size"], jnp.asarray(threshold),
                         jnp.asarray(score_threshold), overlaps=jnp.asarray(overlaps))
    return (np.asarray(picked)[:int(count)],)


def non_max_suppression_overlaps(overlaps: Any, scores: Any, max_output_size: Any, overlap_threshold: Any = 0.5,
                                 score_threshold: Any = float("-inf"), name: str | None = None) -> Any:
    """The indices (int32, by decreasing score) kept by greedy non-max suppression whose similarity
    is ``overlaps[candidate, kept]`` (``[num_boxes, num_boxes]``), as
    ``tf.image.non_max_suppression_overlaps``: a candidate is dropped when its overlap with a kept
    box is above ``overlap_threshold`` or its score is not above ``score_threshold``.

    A host op (the length depends on the data), as TF's ``NonMaxSuppressionWithOverlaps``.

    Raises:
      ValueError: ``max_output_size`` negative or not known when the graph is built.
      InvalidArgumentError (at run time): shapes that do not fit.
    """
    fn = "non_max_suppression_overlaps"
    with op_scope(name, fn, [overlaps, scores]) as scope:
        o = convert_to_tensor(overlaps, _dtypes.float32, name="overlaps")
        s = convert_to_tensor(scores, _dtypes.float32, name="scores")
        m = static_int(max_output_size, fn, "max_output_size")
        if m < 0:
            raise ValueError(f"{fn}: max_output_size must be non-negative, got {m}.")
        t = convert_to_tensor(overlap_threshold, _dtypes.float32, name="overlap_threshold")
        st = convert_to_tensor(score_threshold, _dtypes.float32, name="score_threshold")
        require_no_assign_before([o, s, t, st], "tf.image.non_max_suppression_overlaps")
        return apply_op("NonMaxSuppressionWithOverlaps", (o, s, t, st), {"max_output_size": m}, name=scope)


def _combined_to_tf(a: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[np.ndarray]]:
    return ({"pad_per_class": a["pad_per_class"], "clip_boxes": a["clip_boxes"]},
            [np.asarray(a["max_output_size_per_class"], np.int32), np.asarray(a["max_total_size"], np.int32)])


def _combined_from_tf(a: dict[str, Any], c: list[Any]) -> dict[str, Any]:
    return {"max_output_size_per_class": int(c[0]), "max_total_size": int(c[1]),
            "pad_per_class": bool(a.get("pad_per_class", False)), "clip_boxes": bool(a.get("clip_boxes", True))}


# TF: CombinedNonMaxSuppression(boxes, scores, max_output_size_per_class, max_total_size, iou_threshold,
# score_threshold), the two sizes constants between the data inputs
@register_op("CombinedNonMaxSuppression", num_outputs=4, default_name="CombinedNonMaxSuppression", tf=TFOp(
    types={}, to_tf=_combined_to_tf, from_tf=_combined_from_tf, n_const=2, const_pos=2))
def _combined(boxes: Any, scores: Any, iou_threshold: Any, score_threshold: Any, *, max_output_size_per_class: int,
              max_total_size: int, pad_per_class: bool, clip_boxes: bool) -> Any:
    if boxes.ndim != 4 or boxes.shape[3] != 4 or scores.ndim != 3 or scores.shape[:2] != boxes.shape[:2]:
        raise ValueError(f"boxes must be [batch, num_boxes, q, 4] and scores [batch, num_boxes, num_classes], got "
                         f"{list(boxes.shape)} and {list(scores.shape)}")
    batch, n, q, _ = boxes.shape
    classes = scores.shape[2]
    if q not in (1, classes):
        raise ValueError(f"third dimension of boxes must be either 1 or num_classes {classes}, got {q}")
    per = min(max_output_size_per_class, n)
    total = min(per * classes, max_total_size) if pad_per_class else max_total_size
    b = boxes.astype(jnp.float32)
    sc = scores.astype(jnp.float32)

    def one_class(bx: Any, s: Any) -> tuple[Any, Any]:  # bx [n, 4], s [n]
        idx, count = _nms(bx, s, per, iou_threshold, score_threshold)
        return idx[:per], count

    def one_image(bi: Any, si: Any) -> tuple[Any, Any, Any, Any]:  # bi [n, q, 4], si [n, C]
        per_class_boxes = jnp.broadcast_to(jnp.moveaxis(bi, 1, 0), (classes, n, 4))  # [C, n, 4]
        idx, count = jax.vmap(one_class)(per_class_boxes, si.T)  # [C, per], [C]
        valid = jnp.arange(per)[None, :] < count[:, None]
        cand_scores = jnp.where(valid, jnp.take_along_axis(si.T, idx, axis=1), -jnp.inf).reshape(-1)
        cand_boxes = jnp.take_along_axis(per_class_boxes, idx[..., None], axis=1).reshape(-1, 4)
        cand_class = jnp.broadcast_to(jnp.arange(classes)[:, None], (classes, per)).reshape(-1)
        order = jnp.argsort(-cand_scores, stable=True)
        k = min(total, order.shape[0])
        top = order[:k]
        ok = jnp.isfinite(cand_scores[top])
        out_boxes = jnp.where(ok[:, None], cand_boxes[top], 0.0)
        if clip_boxes:
            out_boxes = jnp.clip(out_boxes, 0.0, 1.0)
        out_scores = jnp.where(ok, cand_scores[top], 0.0)
        out_class = jnp.where(ok, cand_class[top], 0).astype(jnp.float32)
        pad = total - k
        if pad:
            out_boxes = jnp.concatenate([out_boxes, jnp.zeros((pad, 4), jnp.float32)])
            out_scores = jnp.concatenate([out_scores, jnp.zeros((pad,), jnp.float32)])
            out_class = jnp.concatenate([out_class, jnp.zeros((pad,), jnp.float32)])
        return out_boxes, out_scores, out_class, jnp.sum(ok).astype(jnp.int32)

    if batch == 0:
        return (jnp.zeros((0, total, 4), jnp.float32), jnp.zeros((0, total), jnp.float32),
                jnp.zeros((0, total), jnp.float32), jnp.zeros((0,), jnp.int32))
    return jax.vmap(one_image)(b, sc)


def combined_non_max_suppression(boxes: Any, scores: Any, max_output_size_per_class: Any, max_total_size: Any,
                                 iou_threshold: Any = 0.5, score_threshold: Any = float("-inf"),
                                 pad_per_class: bool = False, clip_boxes: bool = True,
                                 name: str | None = None) -> tuple[Any, Any, Any, Any]:
    """Greedy non-max suppression per batch and class, then the best boxes over the classes, as
    ``tf.image.combined_non_max_suppression``.

    Args:
      boxes: float32 ``[batch, num_boxes, q, 4]`` (``q`` 1: shared by the classes, or ``num_classes``).
      scores: float32 ``[batch, num_boxes, num_classes]``.
      max_output_size_per_class, max_total_size: ints known when the graph is built.

    Returns:
      ``(nmsed_boxes [batch, D, 4], nmsed_scores [batch, D], nmsed_classes [batch, D] (float32),
      valid_detections int32 [batch])`` with ``D = max_total_size``, or with ``pad_per_class``
      ``min(max_output_size_per_class * num_classes, max_total_size)``; entries past the valid
      ones are 0.

    Raises:
      ValueError: bad shapes or sizes (names the node).
    """
    fn = "combined_non_max_suppression"
    with op_scope(name, "combined_non_max_suppression", [boxes, scores]) as scope:
        b = convert_to_tensor(boxes, _dtypes.float32, name="boxes")
        s = convert_to_tensor(scores, _dtypes.float32, name="scores")
        per = static_int(max_output_size_per_class, fn, "max_output_size_per_class")
        total = static_int(max_total_size, fn, "max_total_size")
        if per <= 0 or total <= 0:
            raise ValueError(f"{fn}: max_output_size_per_class and max_total_size must be positive, got {per} and "
                             f"{total}.")
        iou = convert_to_tensor(iou_threshold, _dtypes.float32, name="iou_threshold")
        st = convert_to_tensor(score_threshold, _dtypes.float32, name="score_threshold")
        out = apply_op("CombinedNonMaxSuppression", (b, s, iou, st),
                       {"max_output_size_per_class": per, "max_total_size": total,
                        "pad_per_class": bool(pad_per_class), "clip_boxes": bool(clip_boxes)}, name=scope)
        return out[0], out[1], out[2], out[3]
