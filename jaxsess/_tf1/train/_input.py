"""Queue-based input pipelines, as TF's ``tensorflow/python/training/input.py``:
``limit_epochs``, ``input_producer``, ``string_input_producer``,
``range_input_producer``, ``slice_input_producer``, ``batch``,
``shuffle_batch``, ``batch_join``, ``shuffle_batch_join`` and their
``maybe_*`` forms (``keep_input``).

Each builds queues (:mod:`jaxsess._tf1.ops.data_flow_ops`) and adds a
:class:`~jaxsess.train.QueueRunner` to ``GraphKeys.QUEUE_RUNNERS``; run
``train.start_queue_runners(sess, coord)`` to fill them. ``num_epochs``
counts with a local variable ``epochs`` (run ``local_variables_initializer()``);
once it is reached the producer's queue closes and the consumers get
``OutOfRangeError`` after the last element.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes, errors as errors
from jaxsess._core.graph._builder import apply_op, convert_to_tensor
from jaxsess._core.graph._graph import GraphKeys, Operation, name_scope
from jaxsess._core.graph._host import device_lowering, register_host
from jaxsess._core.graph._registry import register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops import math_ops as math_ops
from jaxsess._tf1.ops.data_flow_ops import FIFOQueue, PaddingFIFOQueue, QueueBase, RandomShuffleQueue
from jaxsess._tf1.ops.fill_ops import range as _range
from jaxsess._tf1.ops.gather_ops import gather
from jaxsess._tf1.ops.random_ops import random_shuffle
from jaxsess._tf1.ops.state_ops import Variable
from jaxsess._tf1.summary._ops import scalar as _summary_scalar
from jaxsess._tf1.train._queue_runners import QueueRunner, add_queue_runner

__all__ = ["limit_epochs", "input_producer", "string_input_producer", "range_input_producer",
           "slice_input_producer", "batch", "shuffle_batch", "batch_join", "shuffle_batch_join", "maybe_batch",
           "maybe_shuffle_batch", "maybe_batch_join", "maybe_shuffle_batch_join"]


def _same_as_input(specs: list[tuple[Any, Any]], attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape(specs[0][0]), specs[0][1])]


@register_op("LimitEpochs", infer=_same_as_input, lowering=device_lowering, stateful=True,
             default_name="limit_epochs")
def _limit_epochs_device(x: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("LimitEpochs runs on the host")


@register_host("LimitEpochs", always=True, infer=_same_as_input)
def _host_limit_epochs(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    # TF: epochs.count_up_to(num_epochs) under a control dependency of the tensor.
    var: Variable = op.attrs["epochs"]
    limit = op.attrs["num_epochs"]
    count = int(np.asarray(ctx.session.read(var.op)))
    if count >= limit:
        raise errors.OutOfRangeError(op.name, op, f"Reached limit of {limit}\n\t [[{{{{node {op.name}}}}}]]")
    var.load(count + 1, ctx.session)
    return (inputs[0],)


def limit_epochs(tensor: Any, num_epochs: int | None = None, name: str | None = None) -> Any:
    """``tensor``, but a run that evaluates it more than ``num_epochs`` times
    raises ``OutOfRangeError``, as ``tf.compat.v1.train.limit_epochs``.

    The count lives in the local variable ``<name>/epochs`` (int64):
    ``local_variables_initializer()`` must run first.

    Raises:
      ValueError: ``num_epochs`` is not positive.
    """
    if num_epochs is None:
        return tensor
    if num_epochs <= 0:
        raise ValueError(f"num_epochs must be > 0 not {num_epochs}.")
    with name_scope(name, "limit_epochs", [tensor]):
        tensor = convert_to_tensor(tensor)
        epochs = Variable(np.int64(0), name="epochs", trainable=False,
                          collections=[GraphKeys.LOCAL_VARIABLES])
        return apply_op("LimitEpochs", [tensor], {"epochs": epochs, "num_epochs": int(num_epochs)},
                        name="count_up_to")


def _add_summary(queue: QueueBase, capacity: int, summary_name: str | None = None) -> None:
    size = math_ops.cast(queue.size(), _dtypes.float32) * (1.0 / capacity)
    _summary_scalar(summary_name or f"fraction_of_{capacity}_full", size)


def input_producer(input_tensor: Any, element_shape: Any = None, num_epochs: int | None = None,
                   shuffle: bool = True, seed: int | None = None, capacity: int = 32,
                   shared_name: str | None = None, summary_name: str | None = None, name: str | None = None,
                   cancel_op: Operation | None = None) -> QueueBase:
    """A queue filled with the rows of ``input_tensor`` (shuffled each epoch
    when ``shuffle``), ``num_epochs`` times or forever, as
    ``tf.compat.v1.train.input_producer``.

    Returns:
      A ``FIFOQueue`` of elements of shape ``element_shape`` (default: the
      rows' static shape), filled by a ``QueueRunner``.

    Raises:
      ValueError: the rows' shape is not fully defined and no ``element_shape`` is given.
    """
    with name_scope(name, "input_producer", [input_tensor]):
        input_tensor = convert_to_tensor(input_tensor)
        shape = input_tensor.shape
        if shape.ndims is None or shape.ndims < 1:
            raise ValueError(f"input_producer: input_tensor must have rank >= 1, got shape {shape}.")
        rows = TensorShape(shape.as_list()[1:])
        element_shape = rows if element_shape is None else TensorShape(element_shape).merge_with(rows)
        if not element_shape.is_fully_defined():
            raise ValueError("Either `input_tensor` must have a fully defined shape or `element_shape` must be "
                             "specified")
        if shuffle:
            input_tensor = random_shuffle(input_tensor, seed=seed)
        input_tensor = limit_epochs(input_tensor, num_epochs)
        q = FIFOQueue(capacity=capacity, dtypes=[input_tensor.dtype], shapes=[element_shape],
                      shared_name=shared_name, name=name)
        enq = q.enqueue_many([input_tensor])
        add_queue_runner(QueueRunner(q, [enq], cancel_op=cancel_op))
        if summary_name is not None:
            _add_summary(q, capacity, summary_name)
        return q


def string_input_producer(string_tensor: Any, num_epochs: int | None = None, shuffle: bool = True,
                          seed: int | None = None, capacity: int = 32, shared_name: str | None = None,
                          name: str | None = None, cancel_op: Operation | None = None) -> QueueBase:
    """A queue of strings (file names) for a reader, as
    ``tf.compat.v1.train.string_input_producer``.

    Args:
      string_tensor: a 1-D string tensor or list of strings.
      num_epochs: how many times each string is produced (``None``: forever).
      shuffle: shuffle the strings within each epoch.

    Raises:
      ValueError: an empty list.
    """
    if isinstance(string_tensor, list | tuple) and not string_tensor:
        raise ValueError("string_input_producer requires a non-null input tensor")
    with name_scope(name, "input_producer", [string_tensor]) as scope:
        string_tensor = convert_to_tensor(string_tensor, dtype=_dtypes.string)
        return input_producer(string_tensor, [], num_epochs, shuffle, seed, capacity, shared_name,
                              f"fraction_of_{capacity}_full", scope, cancel_op)


def range_input_producer(limit: int, num_epochs: int | None = None, shuffle: bool = True,
                         seed: int | None = None, capacity: int = 32, shared_name: str | None = None,
                         name: str | None = None) -> QueueBase:
    """A queue of the ``int32`` integers ``0 .. limit-1``, as ``tf.compat.v1.train.range_input_producer``."""
    with name_scope(name, "input_producer", [limit]) as scope:
        rng = _range(limit, dtype=_dtypes.int32)
        return input_producer(rng, [], num_epochs, shuffle, seed, capacity, shared_name,
                              f"fraction_of_{capacity}_full", scope)


def slice_input_producer(tensor_list: Sequence[Any], num_epochs: int | None = None, shuffle: bool = True,
                         seed: int | None = None, capacity: int = 32, shared_name: str | None = None,
                         name: str | None = None) -> list[Any]:
    """One row (slice along dimension 0) of each tensor per run, the same row
    of every tensor, as ``tf.compat.v1.train.slice_input_producer``.

    Returns:
      A list of tensors: ``tensor_list[i][index]`` for a dequeued ``index``.

    Raises:
      ValueError: an empty ``tensor_list``, or a first dimension that is unknown.
    """
    with name_scope(name, "input_producer", tensor_list):
        ts = [convert_to_tensor(t) for t in tensor_list]
        if not ts:
            raise ValueError("Expected at least one tensor in slice_input_producer().")
        n = ts[0].shape.as_list()[0] if ts[0].shape.ndims else None
        if n is None:
            raise ValueError(f"slice_input_producer: the first dimension of {ts[0].name} must be known, "
                             f"got shape {ts[0].shape}.")
        queue = range_input_producer(n, num_epochs=num_epochs, shuffle=shuffle, seed=seed, capacity=capacity,
                                     shared_name=shared_name)
        index = queue.dequeue()
        return [gather(t, index) for t in ts]


# -- batching ---------------------------------------------------------------------


def _as_tensor_list(tensors: Any) -> list[Any]:
    if isinstance(tensors, dict):
        return [tensors[k] for k in sorted(tensors)]
    if isinstance(tensors, list | tuple):
        return list(tensors)
    return [tensors]


def _as_original_type(tensors: Any, dequeued: Any) -> Any:
    # As TF: a queue of one component dequeues one tensor, not a list.
    if isinstance(tensors, dict):
        if not isinstance(dequeued, list):
            dequeued = [dequeued]
        return dict(zip(sorted(tensors), dequeued))
    return dequeued


def _shapes(tensor_list_list: list[list[Any]], shapes: Any, enqueue_many: bool) -> list[TensorShape]:
    if shapes is not None:
        return [TensorShape(s) for s in shapes]
    out = []
    for i, t in enumerate(tensor_list_list[0]):
        s = t.shape
        if enqueue_many:
            if s.ndims is None or s.ndims < 1:
                raise ValueError(f"Shape must be at least rank 1 (enqueue_many): {t.name} has shape {s}.")
            s = TensorShape(s.as_list()[1:])
        for other in tensor_list_list[1:]:
            o = other[i].shape
            s = s.merge_with(TensorShape(o.as_list()[1:]) if enqueue_many and o.ndims else o)
        if not s.is_fully_defined():
            raise ValueError(f"All shapes must be fully defined: {[str(x.shape) for x in tensor_list_list[0]]}")
        out.append(s)
    return out


def _dtypes_of(tensor_list_list: list[list[Any]]) -> list[_dtypes.DType]:
    types = [t.dtype for t in tensor_list_list[0]]
    for other in tensor_list_list[1:]:
        if [t.dtype for t in other] != types:
            raise TypeError(f"Expected types to be {types}, got {[t.dtype for t in other]}")
    return types


def _batch_impl(tensors_list: list[Any], original: Any, batch_size: Any, capacity: int, enqueue_many: bool,
                shapes: Any, dynamic_pad: bool, allow_smaller_final_batch: bool, num_threads: int,
                name: str | None, default: str, shuffle: dict[str, Any] | None, keep_input: Any = None) -> Any:
    flat = [_as_tensor_list(ts) for ts in tensors_list]
    with name_scope(name, default, [t for ts in flat for t in ts]) as scope:
        flat = [[convert_to_tensor(t) for t in ts] for ts in flat]
        types = _dtypes_of(flat)
        if shuffle is not None:
            if dynamic_pad:
                raise ValueError("shuffle_batch does not support dynamic_pad.")
            qshapes = _shapes(flat, shapes, enqueue_many)
            queue: QueueBase = RandomShuffleQueue(capacity, shuffle["min_after_dequeue"], types, qshapes,
                                                  seed=shuffle["seed"])
        elif dynamic_pad:
            qshapes = [TensorShape(s) for s in shapes] if shapes is not None else \
                [TensorShape(t.shape.as_list()[1:] if enqueue_many else t.shape) for t in flat[0]]
            queue = PaddingFIFOQueue(capacity, types, qshapes)
        else:
            qshapes = _shapes(flat, shapes, enqueue_many)
            queue = FIFOQueue(capacity, types, qshapes)
        if len(flat) == 1:
            enqueue_ops = [queue._enqueue_op(flat[0], enqueue_many, keep_input, None)] * num_threads
        else:
            enqueue_ops = [queue._enqueue_op(ts, enqueue_many, keep_input, None) for ts in flat]
        add_queue_runner(QueueRunner(queue, enqueue_ops))
        if shuffle is not None:
            full = math_ops.cast(queue.size() - shuffle["min_after_dequeue"], _dtypes.float32) * \
                (1.0 / (capacity - shuffle["min_after_dequeue"]))
            _summary_scalar(f"fraction_over_{shuffle['min_after_dequeue']}_of_"
                           f"{capacity - shuffle['min_after_dequeue']}_full", full)
        else:
            _add_summary(queue, capacity)
        if allow_smaller_final_batch:
            dequeued = queue.dequeue_up_to(batch_size, name=scope)
        else:
            dequeued = queue.dequeue_many(batch_size, name=scope)
    return _as_original_type(original, dequeued)


def batch(tensors: Any, batch_size: Any, num_threads: int = 1, capacity: int = 32, enqueue_many: bool = False,
          shapes: Any = None, dynamic_pad: bool = False, allow_smaller_final_batch: bool = False,
          shared_name: str | None = None, name: str | None = None) -> Any:
    """Batches of ``batch_size`` elements, in order, as ``tf.compat.v1.train.batch``.

    Args:
      tensors: a tensor, list or dict of tensors (one element; with
        ``enqueue_many``, a batch of elements along dimension 0).
      num_threads: threads running the enqueue.
      capacity: the queue's capacity.
      shapes: the elements' shapes (default: the tensors' static shapes,
        which must be fully defined).
      dynamic_pad: pad elements of varying shape (``None`` dims) to the
        batch's largest (a ``PaddingFIFOQueue``).
      allow_smaller_final_batch: give the remaining elements as a smaller
        last batch (dimension 0 then ``None``).

    Returns:
      The batch, in the structure of ``tensors``: shape ``[batch_size] + shape``.

    Raises:
      ValueError: shapes not fully defined.
      OutOfRangeError (when run): the input ended and too few elements are left.
    """
    return _batch_impl([tensors], tensors, batch_size, capacity, enqueue_many, shapes, dynamic_pad,
                       allow_smaller_final_batch, num_threads, name, "batch", None)


def shuffle_batch(tensors: Any, batch_size: Any, capacity: int, min_after_dequeue: int, num_threads: int = 1,
                  seed: int | None = None, enqueue_many: bool = False, shapes: Any = None,
                  allow_smaller_final_batch: bool = False, shared_name: str | None = None,
                  name: str | None = None) -> Any:
    """Batches of randomly chosen elements, as ``tf.compat.v1.train.shuffle_batch``
    (a ``RandomShuffleQueue`` that keeps ``min_after_dequeue`` elements to
    mix). Arguments as :func:`batch`; the order differs from TF's for the same seed."""
    return _batch_impl([tensors], tensors, batch_size, capacity, enqueue_many, shapes, False,
                       allow_smaller_final_batch, num_threads, name, "shuffle_batch",
                       {"min_after_dequeue": min_after_dequeue, "seed": seed})


def batch_join(tensors_list: Sequence[Any], batch_size: Any, capacity: int = 32, enqueue_many: bool = False,
               shapes: Any = None, dynamic_pad: bool = False, allow_smaller_final_batch: bool = False,
               shared_name: str | None = None, name: str | None = None) -> Any:
    """As :func:`batch`, with one enqueue thread per entry of ``tensors_list``
    (each of the same structure), as ``tf.compat.v1.train.batch_join``."""
    return _batch_impl(list(tensors_list), tensors_list[0], batch_size, capacity, enqueue_many, shapes, dynamic_pad,
                       allow_smaller_final_batch, 1, name, "batch_join", None)


def shuffle_batch_join(tensors_list: Sequence[Any], batch_size: Any, capacity: int, min_after_dequeue: int,
                       seed: int | None = None, enqueue_many: bool = False, shapes: Any = None,
                       allow_smaller_final_batch: bool = False, shared_name: str | None = None,
                       name: str | None = None) -> Any:
    """As :func:`shuffle_batch`, with one enqueue thread per entry of
    ``tensors_list``, as ``tf.compat.v1.train.shuffle_batch_join``."""
    return _batch_impl(list(tensors_list), tensors_list[0], batch_size, capacity, enqueue_many, shapes, False,
                       allow_smaller_final_batch, 1, name, "shuffle_batch_join",
                       {"min_after_dequeue": min_after_dequeue, "seed": seed})



def maybe_batch(tensors: Any, keep_input: Any, batch_size: Any, num_threads: int = 1, capacity: int = 32,
                enqueue_many: bool = False, shapes: Any = None, dynamic_pad: bool = False,
                allow_smaller_final_batch: bool = False, shared_name: str | None = None,
                name: str | None = None) -> Any:
    """As :func:`batch`, enqueueing only the elements ``keep_input`` keeps, as
    ``tf.compat.v1.train.maybe_batch``.

    Args:
      keep_input: a ``bool`` scalar tensor, or with ``enqueue_many`` a vector
        (one per row).

    Raises:
      ValueError: ``keep_input`` of another rank.
    """
    return _batch_impl([tensors], tensors, batch_size, capacity, enqueue_many, shapes, dynamic_pad,
                       allow_smaller_final_batch, num_threads, name, "batch", None, keep_input)


def maybe_shuffle_batch(tensors: Any, batch_size: Any, capacity: int, min_after_dequeue: int, keep_input: Any,
                        num_threads: int = 1, seed: int | None = None, enqueue_many: bool = False,
                        shapes: Any = None, allow_smaller_final_batch: bool = False,
                        shared_name: str | None = None, name: str | None = None) -> Any:
    """As :func:`shuffle_batch` with ``keep_input`` (see :func:`maybe_batch`),
    as ``tf.compat.v1.train.maybe_shuffle_batch``."""
    return _batch_impl([tensors], tensors, batch_size, capacity, enqueue_many, shapes, False,
                       allow_smaller_final_batch, num_threads, name, "shuffle_batch",
                       {"min_after_dequeue": min_after_dequeue, "seed": seed}, keep_input)


def maybe_batch_join(tensors_list: Sequence[Any], keep_input: Any, batch_size: Any, capacity: int = 32,
                     enqueue_many: bool = False, shapes: Any = None, dynamic_pad: bool = False,
                     allow_smaller_final_batch: bool = False, shared_name: str | None = None,
                     name: str | None = None) -> Any:
    """As :func:`batch_join` with ``keep_input`` (see :func:`maybe_batch`),
    as ``tf.compat.v1.train.maybe_batch_join``."""
    return _batch_impl(list(tensors_list), tensors_list[0], batch_size, capacity, enqueue_many, shapes, dynamic_pad,
                       allow_smaller_final_batch, 1, name, "batch_join", None, keep_input)


def maybe_shuffle_batch_join(tensors_list: Sequence[Any], batch_size: Any, capacity: int, min_after_dequeue: int,
                             keep_input: Any, seed: int | None = None, enqueue_many: bool = False,
                             shapes: Any = None, allow_smaller_final_batch: bool = False,
                             shared_name: str | None = None, name: str | None = None) -> Any:
    """As :func:`shuffle_batch_join` with ``keep_input`` (see :func:`maybe_batch`),
    as ``tf.compat.v1.train.maybe_shuffle_batch_join``."""
    return _batch_impl(list(tensors_list), tensors_list[0], batch_size, capacity, enqueue_many, shapes, False,
                       allow_smaller_final_batch, 1, name, "shuffle_batch_join",
                       {"min_after_dequeue": min_after_dequeue, "seed": seed}, keep_input)
