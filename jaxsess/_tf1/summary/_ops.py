"""Summary ops, as ``tf.compat.v1.summary``: the values are computed on the device inside the
run's plan; the ``Summary`` protocol buffer is serialized on the host after the run (the op's
``host_output``), so ``sess.run(summary_op)`` gives TF's serialized bytes.

============================  ==========================================  ===================================
function                      device value (the op's output)              host: ``Summary.Value``
============================  ==========================================  ===================================
``scalar(name, x)``           ``x`` as float32, shape ``[]``              ``simple_value``
``histogram(name, values)``   float32 ``[5 + B]``: min, max, count, sum,  ``histo`` (TF's default buckets,
                              sum of squares, the counts of TF's ``B``    runs of empty buckets dropped as TF)
                              default buckets
``image(name, t, max_outputs)`` uint8 ``[k, H, W, C]`` (TF's scaling)     ``image`` (PNG, by Pillow)
``text(name, s)``             none (a constant of the graph)              ``tensor`` (``string_val``, text plugin)
``tensor_summary(name, t)``   ``t``                                       ``tensor`` (``tensor_content``), metadata
``merge(inputs)``             its inputs' ranks, dims and values,         their values, concatenated
                              flattened, float32
============================  ==========================================  ===================================

A summary tensor is TF's: a ``string`` scalar, whose value (made on the host after the run)
only ``sess.run`` and ``merge`` see. Differences from TF: it is only meant to be fetched or
merged; ``text`` takes a Python string or a constant scalar string tensor.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Sequence
from typing import Any

import jax.numpy as jnp
import numpy as np
from PIL import Image

from jaxsess._core import _tfproto as _tfproto, dtypes as _dtypes
from jaxsess._core.graph._builder import apply_op, constant_value, convert_to_tensor
from jaxsess._core.graph._graph import GraphKeys, Operation, Tensor, get_default_graph
from jaxsess._core.graph._registry import TFOp, register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops.audio_ops import wav_bytes

__all__ = ["scalar", "histogram", "image", "audio", "text", "tensor_summary", "merge", "merge_all"]


def _summary_bytes(values: list[Any]) -> bytes:
    s = _tfproto.Summary()
    for v in values:
        s.value.add().CopyFrom(v)
    return s.SerializeToString()


def _tag_of(c: np.ndarray) -> str:
    v = np.ravel(c)[0]
    return v.decode("utf-8") if isinstance(v, bytes) else str(v)


def _tag_const(a: dict[str, Any]) -> np.ndarray:
    return np.array(a["tag"].encode("utf-8"), dtype=object)


def _summary_infer(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    """TF's output: a serialized ``Summary``, a ``string`` scalar (the device value differs)."""
    return [(TensorShape([]), _dtypes.string)]


# The dtype of a summary op's device value (float32 unless named here), which merge restores.
_DEVICE_DTYPES = {"ImageSummary": np.uint8}


# TF: XSummary(tag: string, values), the tag a string Const
_TAGGED_TF = TFOp(types={"T": 1}, to_tf=lambda a, s: ({}, [_tag_const(a)]),
                  from_tf=lambda a, c: {"tag": _tag_of(c[0])}, n_const=1, const_pos=0, shapes=False)


# -- scalar -----------------------------------------------------------------------------


def _scalar_host(value: np.ndarray, op: Operation) -> bytes:
    return _summary_bytes([_tfproto.Summary.Value(tag=op.attrs["tag"], simple_value=float(value))])


@register_op("ScalarSummary", default_name="ScalarSummary", infer=_summary_infer, host_output=_scalar_host,
             tf=_TAGGED_TF)
def _scalar_impl(x: Any, *, tag: str) -> Any:
    if x.ndim != 0:
        raise ValueError(f"tags and values are not the same shape: [] != {list(x.shape)} (a scalar summary needs a scalar)")
    return x.astype(jnp.float32)


# -- histogram -------------------------------------------------------------------------


def _default_limits() -> np.ndarray:
    """TF's default histogram bucket limits (``histogram.cc``): ±1e-12·1.1^k up to 1e20, 0, DBL_MAX."""
    pos = []
    v = 1e-12
    while v < 1e20:
        pos.append(v)
        v *= 1.1
    return np.array([-x for x in reversed(pos)] + [0.0] + pos + [np.finfo(np.float64).max])


_LIMITS = _default_limits()
_LIMITS32 = np.concatenate([_LIMITS[:-1].astype(np.float32), [np.inf]]).astype(np.float32)


def _histogram_host(value: np.ndarray, op: Operation) -> bytes:
    lo, hi, num, total, squares = (float(v) for v in value[:5])
    counts = value[5:]
    h = _tfproto.HistogramProto(min=lo if num else 0.0, max=hi if num else 0.0, num=num, sum=total, sum_squares=squares)
    n = len(counts)
    for i in range(n):
        if counts[i] == 0 and i != n - 1 and counts[i + 1] == 0:
            continue  # as TF: runs of empty buckets collapse
        h.bucket_limit.append(float(_LIMITS[i]))
        h.bucket.append(float(counts[i]))
    return _summary_bytes([_tfproto.Summary.Value(tag=op.attrs["tag"], histo=h)])


@register_op("HistogramSummary", default_name="HistogramSummary", infer=_summary_infer,
             host_output=_histogram_host, tf=_TAGGED_TF)
def _histogram_impl(x: Any, *, tag: str) -> Any:
    v = jnp.ravel(x).astype(jnp.float32)
    idx = jnp.searchsorted(jnp.asarray(_LIMITS32), v, side="right")
    counts = jnp.zeros(len(_LIMITS32), jnp.float32).at[jnp.minimum(idx, len(_LIMITS32) - 1)].add(1.0)
    if v.size:
        lo, hi = jnp.min(v), jnp.max(v)
    else:
        lo = hi = jnp.float32(0)
    stats = jnp.stack([lo, hi, jnp.float32(v.size), jnp.sum(v), jnp.sum(v * v)])
    return jnp.concatenate([stats, counts])


# -- image -------------------------------------------------------------------------------


def _image_host(value: np.ndarray, op: Operation) -> bytes:
    tag = op.attrs["tag"]
    out = []
    k = value.shape[0]
    for i in range(k):
        img = value[i].astype(np.uint8)
        h, w, c = img.shape
        mode = {1: "L", 3: "RGB", 4: "RGBA"}[c]
        buf = io.BytesIO()
        Image.fromarray(img[:, :, 0] if c == 1 else img, mode=mode).save(buf, format="PNG")
        name = f"{tag}/image" if k == 1 and op.attrs["max_outputs"] == 1 else f"{tag}/image/{i}"
        enc = _tfproto.Summary.Image(height=h, width=w, colorspace=c, encoded_image_string=buf.getvalue())
        out.append(_tfproto.Summary.Value(tag=name, image=enc))
    return _summary_bytes(out)


@register_op("ImageSummary", default_name="ImageSummary", infer=_summary_infer, host_output=_image_host, tf=TFOp(
    types={"T": 1}, to_tf=lambda a, s: ({"max_images": a["max_outputs"]}, [_tag_const(a)]),
    from_tf=lambda a, c: {"tag": _tag_of(c[0]), "max_outputs": int(a.get("max_images", 3))},
    n_const=1, const_pos=0, shapes=False))
def _image_impl(x: Any, *, tag: str, max_outputs: int) -> Any:
    if x.ndim != 4 or x.shape[-1] not in (1, 3, 4):
        raise ValueError(f"Tensor must be 4-D with last dim 1, 3, or 4, not {list(x.shape)}")
    x = x[:max_outputs]
    if x.dtype == jnp.uint8:
        return x
    f = x.astype(jnp.float32)
    lo = jnp.min(f, axis=(1, 2, 3), keepdims=True)
    hi = jnp.max(f, axis=(1, 2, 3), keepdims=True)
    # as TF: all non-negative: the largest value becomes 255; else 0.0 becomes 128 and the
    # values are scaled so that the smallest is 0 or the largest 255
    pos_scale = jnp.where(hi > 0, 255.0 / jnp.where(hi > 0, hi, 1.0), 0.0)
    neg_bound = jnp.maximum(-lo, hi)
    neg_scale = jnp.where(neg_bound > 0, 127.0 / jnp.where(neg_bound > 0, neg_bound, 1.0), 0.0)
    scaled = jnp.where(lo >= 0, f * pos_scale, f * neg_scale + 128.0)
    return jnp.clip(jnp.floor(scaled), 0, 255).astype(jnp.uint8)  # TF truncates


# -- audio -------------------------------------------------------------------------------


def _audio_host(value: np.ndarray, op: Operation) -> bytes:
    tag, rate = op.attrs["tag"], op.attrs["sample_rate"]
    out = []
    for i in range(value.shape[0]):
        clip = np.asarray(value[i], np.float32)
        name = f"{tag}/audio" if op.attrs["max_outputs"] == 1 else f"{tag}/audio/{i}"
        enc = _tfproto.Summary.Audio(sample_rate=rate, num_channels=clip.shape[1], length_frames=clip.shape[0],
                                     encoded_audio_string=wav_bytes(clip, int(rate)), content_type="audio/wav")
        out.append(_tfproto.Summary.Value(tag=name, audio=enc))
    return _summary_bytes(out)


@register_op("AudioSummaryV2", default_name="AudioSummaryV2", infer=_summary_infer, host_output=_audio_host)
def _audio_impl(x: Any, *, tag: str, max_outputs: int, sample_rate: float) -> Any:
    if x.ndim not in (2, 3):
        raise ValueError(f"Tensor must be 2-D or 3-D (batch, frames[, channels]), not {list(x.shape)}")
    x = x[:max_outputs].astype(jnp.float32)
    return x[..., None] if x.ndim == 2 else x


# -- text -------------------------------------------------------------------------------


def _text_host(value: np.ndarray, op: Operation) -> bytes:
    meta = _tfproto.SummaryMetadata()
    meta.plugin_data.plugin_name = "text"
    tensor = _tfproto.TensorProto(dtype=7)  # DT_STRING
    tensor.string_val.append(op.attrs["text"].encode("utf-8"))
    return _summary_bytes([_tfproto.Summary.Value(tag=op.attrs["tag"], metadata=meta, tensor=tensor)])


def _text_to_tf(a: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[np.ndarray]]:
    meta = _tfproto.SummaryMetadata()
    meta.plugin_data.plugin_name = "text"
    string = _tfproto.AttrValue(type=7)  # DT_STRING
    consts = [_tag_const(a), np.array(a["text"].encode("utf-8"), dtype=object),
              np.array(meta.SerializeToString(), dtype=object)]
    return {"T": string}, consts


# TF: TensorSummaryV2(tag, tensor, serialized_summary_metadata), all strings
@register_op("TextSummary", default_name="TextSummary", infer=_summary_infer, host_output=_text_host, tf=TFOp(
    op="TensorSummaryV2", types={"T": 1}, to_tf=_text_to_tf,
    from_tf=lambda a, c: {"tag": _tag_of(c[0]), "text": _tag_of(c[1])}, n_const=3, shapes=False))
def _text_impl(*, tag: str, text: str) -> Any:
    return jnp.zeros((0,), jnp.float32)


# -- tensor -------------------------------------------------------------------------------


def _tensor_host(value: np.ndarray, op: Operation) -> bytes:
    meta = _tfproto.SummaryMetadata.FromString(bytes.fromhex(op.attrs["metadata"]))
    dt = op.inputs[0].dtype.np_dtype
    tensor = _tfproto.ndarray_to_tensor_proto(np.asarray(value).astype(dt), typed_scalars=False)
    return _summary_bytes([_tfproto.Summary.Value(tag=op.attrs["tag"], metadata=meta, tensor=tensor)])


def _tensor_to_tf(a: dict[str, Any], specs: Any) -> tuple[dict[str, Any], list[np.ndarray]]:
    meta = _tfproto.SummaryMetadata.FromString(bytes.fromhex(a["metadata"]))
    return {"description": meta.summary_description, "display_name": meta.display_name, "labels": ()}, []


# TF's TensorSummaryV2(tag, tensor, metadata) has constants on both sides of the tensor: written as
# TF's TensorSummary(tensor) (description, display_name), the exact attributes kept privately
@register_op("TensorSummary", default_name="TensorSummary", infer=_summary_infer, host_output=_tensor_host, tf=TFOp(
    to_tf=_tensor_to_tf, from_tf=lambda a, c: {"tag": "", "metadata": ""}, shapes=False))
def _tensor_impl(x: Any, *, tag: str, metadata: str) -> Any:  # metadata: the serialized SummaryMetadata, hex
    return x


# -- merge --------------------------------------------------------------------------------


def _merge_host(value: np.ndarray, op: Operation) -> bytes:
    merged = _tfproto.Summary()
    offset = 0
    for t in op.inputs:  # each input: its rank, its dims, its values (see _merge_impl)
        ndim = int(value[offset])
        dims = [int(d) for d in value[offset + 1:offset + 1 + ndim]]
        offset += 1 + ndim
        n = math.prod(dims)
        dt = t.op.inputs[0].dtype.np_dtype if t.op.type == "TensorSummary" else _DEVICE_DTYPES.get(t.op.type,
                                                                                                     np.float32)
        part = value[offset:offset + n].reshape(dims).astype(dt)
        offset += n
        host = t.op._op_def.host_output
        assert host is not None  # merge() takes summary tensors only
        merged.MergeFromString(host(part, t.op))
    return merged.SerializeToString()


@register_op("MergeSummary", default_name="MergeSummary", infer=_summary_infer, host_output=_merge_host, tf=TFOp(
    types={}, to_tf=lambda a, s: ({"N": len(s)}, []), from_tf=lambda a, c: {}, shapes=False))
def _merge_impl(*xs: Any) -> Any:
    parts = [jnp.zeros((0,), jnp.float32)]
    for x in xs:  # shapes are static when traced: a header of rank and dims, then the values
        parts.append(jnp.asarray([x.ndim, *x.shape], jnp.float32))
        parts.append(jnp.ravel(x).astype(jnp.float32))
    return jnp.concatenate(parts)


# -- public functions ----------------------------------------------------------------------


_INVALID_TAG_CHARACTERS = re.compile(r"[^-/\w\.]")


def clean_tag(name: str | None) -> str | None:
    """``name`` with the characters a tag cannot hold replaced by ``_`` and leading
    slashes dropped, as TF's ``summary_op_util.clean_tag``."""
    if name is None:
        return None
    return _INVALID_TAG_CHARACTERS.sub("_", name).lstrip("/")


def _summary_op(op_type: str, name: str, inputs: Sequence[Any], attrs: dict[str, Any], collections: Any,
                family: str | None = None) -> Tensor:
    graph = get_default_graph()
    name, family = _INVALID_TAG_CHARACTERS.sub("_", name).lstrip("/"), clean_tag(family)  # as TF's summary_scope
    with graph.name_scope(f"{family}/{name}" if family else name) as scope:
        tag = f"{family}/{scope.rstrip('/')}" if family else scope.rstrip("/")
    out = apply_op(op_type, tuple(inputs), {"tag": tag, **attrs}, name=scope)
    for key in collections if collections is not None else [GraphKeys.SUMMARIES]:
        graph.add_to_collection(key, out)
    return out


def scalar(name: str, tensor: Any, collections: Sequence[str] | None = None, family: str | None = None) -> Tensor:
    """A summary of one scalar value, as ``tf.compat.v1.summary.scalar``.

    Args:
      name: the tag (under the current name scope, made unique as TF1).
      tensor: a real number of shape ``[]``.
      collections: where to add the summary (default ``[GraphKeys.SUMMARIES]``).
      family: a prefix for the tag, as TF.

    Returns:
      A tensor whose fetched value is a serialized ``Summary`` (``bytes``).

    Raises:
      ValueError: ``tensor`` is not a scalar (names the node).
    """
    x = convert_to_tensor(tensor)
    return _summary_op("ScalarSummary", name, [x], {}, collections, family)


def histogram(name: str, values: Any, collections: Sequence[str] | None = None, family: str | None = None) -> Tensor:
    """A histogram of ``values`` (any shape), as ``tf.compat.v1.summary.histogram``: TF's
    default buckets; the fetched value is a serialized ``Summary`` (``bytes``)."""
    x = convert_to_tensor(values)
    return _summary_op("HistogramSummary", name, [x], {}, collections, family)


def image(name: str, tensor: Any, max_outputs: int = 3, collections: Sequence[str] | None = None,
          family: str | None = None) -> Tensor:
    """Up to ``max_outputs`` images of ``tensor`` (``[N, H, W, C]``, ``C`` in 1, 3, 4; uint8 or
    float, scaled as TF) as PNGs, as ``tf.compat.v1.summary.image``; tags ``'<name>/image/<i>'``.

    Raises:
      ValueError: not 4-D with 1, 3 or 4 channels (names the node).
    """
    x = convert_to_tensor(tensor)
    return _summary_op("ImageSummary", name, [x], {"max_outputs": int(max_outputs)}, collections, family)


def audio(name: str, tensor: Any, sample_rate: Any, max_outputs: int = 3, collections: Sequence[str] | None = None,
          family: str | None = None) -> Tensor:
    """Up to ``max_outputs`` clips of ``tensor`` (``float[N, frames]`` or ``[N, frames, channels]``
    in [-1, 1]) as 16-bit WAV files, as ``tf.compat.v1.summary.audio``; tags
    ``'<name>/audio/<i>'`` (``'<name>/audio'`` when ``max_outputs`` is 1).

    Raises:
      TypeError: ``sample_rate`` is a tensor computed in the run (jaxsess takes a number, or a
        tensor known when the graph is built).
      ValueError: not 2-D or 3-D (names the node).
    """
    rate = constant_value(sample_rate) if isinstance(sample_rate, Tensor) else sample_rate
    if rate is None:
        raise TypeError(f"jaxsess's summary.audio takes a sample_rate known when the graph is built, got "
                        f"{sample_rate.name} (summary {name!r}).")
    x = convert_to_tensor(tensor, dtype=_dtypes.float32)
    return _summary_op("AudioSummaryV2", name, [x], {"max_outputs": int(max_outputs), "sample_rate": float(rate)},
                       collections, family)


def text(name: str, tensor: Any, collections: Sequence[str] | None = None) -> Tensor:
    """A text summary, as ``tf.compat.v1.summary.text`` (TensorBoard's text plugin).

    Args:
      tensor: a Python ``str`` (or ``bytes``), or a scalar string tensor whose
        value is known when the graph is built (``tf.constant("...")``).

    Raises:
      TypeError: ``tensor`` is not a string, or a string tensor computed in
        the run (fed or formatted).
    """
    if isinstance(tensor, Tensor) and tensor.dtype == _dtypes.string:
        known = constant_value(tensor)
        if known is None or np.ndim(known) != 0:
            raise TypeError(f"jaxsess's summary.text takes a scalar string known when the graph is built, got "
                            f"{tensor.name} of shape {tensor.shape} (summary {name!r}).")
        tensor = known.item() if isinstance(known, np.ndarray) else known
    if isinstance(tensor, bytes):
        tensor = tensor.decode("utf-8")
    if not isinstance(tensor, str):
        raise TypeError(f"jaxsess's summary.text takes a Python string, got {type(tensor).__name__} (summary {name!r}).")
    return _summary_op("TextSummary", name, [], {"text": tensor}, collections)


def tensor_summary(name: str, tensor: Any, summary_description: str | None = None,
                   collections: Sequence[str] | None = None, summary_metadata: Any = None,
                   family: str | None = None, display_name: str | None = None) -> Tensor:
    """A summary holding the whole ``tensor`` (a ``TensorProto``, its bytes in ``tensor_content``),
    as ``tf.compat.v1.summary.tensor_summary`` (TF's ``TensorSummaryV2``).

    Args:
      summary_metadata: a ``SummaryMetadata`` (or none: a new one); ``summary_description`` and
        ``display_name`` are set on it when given (on the caller's object, as TF).

    Returns:
      A tensor whose fetched value is a serialized ``Summary`` (``bytes``). Merged with
      :func:`merge`, the values travel as float32 (integers past 2**24 lose digits).

    Raises:
      TypeError: a string tensor (jaxsess's summaries of strings are ``text`` only).
    """
    meta = _tfproto.SummaryMetadata() if summary_metadata is None else summary_metadata  # TF sets fields on it
    if summary_description is not None:
        meta.summary_description = summary_description
    if display_name is not None:
        meta.display_name = display_name
    x = convert_to_tensor(tensor)
    if x.dtype == _dtypes.string:
        raise TypeError(f"jaxsess's tensor_summary takes numeric tensors, got a string tensor {x.name} (summary "
                        f"{name!r}); use summary.text.")
    return _summary_op("TensorSummary", name, [x], {"metadata": meta.SerializeToString().hex()}, collections, family)


def merge(inputs: Sequence[Any], collections: Sequence[str] | None = None, name: str | None = None) -> Tensor:
    """One summary holding the values of ``inputs`` (summary tensors), as ``tf.compat.v1.summary.merge``.

    Raises:
      TypeError: an input is not a summary tensor (names it).
    """
    tensors = []
    for t in inputs:
        if not isinstance(t, Tensor) or t.op._op_def.host_output is None:
            raise TypeError(f"merge takes summary tensors, got {t!r:.80}.")
        tensors.append(t)
    graph = get_default_graph()
    name = clean_tag(name)
    with graph.name_scope(name or "Merge"):  # as TF: 'Merge/MergeSummary', 'Merge_1/MergeSummary'
        out = apply_op("MergeSummary", tuple(tensors), {}, name=name)
    for key in collections or ():
        graph.add_to_collection(key, out)
    return out


def merge_all(key: str = GraphKeys.SUMMARIES, scope: str | None = None, name: str | None = None) -> Tensor | None:
    """The merge of every summary in collection ``key`` (``None`` if empty), as
    ``tf.compat.v1.summary.merge_all``."""
    items = get_default_graph().get_collection(key, scope)
    if not items:
        return None
    return merge(items, name=name)
