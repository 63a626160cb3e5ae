"""Queues, as ``tf.compat.v1.FIFOQueue``, ``RandomShuffleQueue`` and ``PaddingFIFOQueue``.

A queue is a host resource of the session that runs it (as TF's queue
resources live in a session's resource manager): its elements are tuples of
NumPy arrays (strings: object arrays of ``bytes``), guarded by a
``threading.Condition``. Its ops (``QueueEnqueueV2``, ``QueueDequeueManyV2``,
...) are host ops (see :mod:`jaxsess._core.graph._host`) run through
``Session.run``; a dequeued tensor feeds device ops as an iterator's
``get_next`` does. Blocking follows TF: a dequeue waits for elements, an
enqueue waits for room; ``close()`` makes waiting dequeues raise
``OutOfRangeError`` once too few elements are left and new enqueues raise
``CancelledError``; ``Session.close()`` cancels every waiting op
(``CancelledError``).

Shuffling uses NumPy seeded from the graph and op seeds, so the order differs
from TF's for the same seed.
"""

from __future__ import annotations

import collections
import random
import threading
from typing import Any

import numpy as np

from jaxsess._core import _context as _context, dtypes as _dtypes, errors as errors
from jaxsess._core.graph._builder import apply_op, convert_to_tensor
from jaxsess._core.graph._graph import Operation, get_default_graph
from jaxsess._core.graph._host import device_lowering, register_host
from jaxsess._core.graph._registry import register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.ops._philox import HostPhilox
from jaxsess._tf1.ops.random_ops import get_seed

__all__ = ["QueueBase", "FIFOQueue", "RandomShuffleQueue", "PaddingFIFOQueue", "queue_state"]

_STATE_LOCK = threading.Lock()


class _QueueState:
    """One queue's elements in one session (thread-safe)."""

    def __init__(self, queue: QueueBase, resource_name: str) -> None:
        self.queue = queue
        self.resource_name = resource_name
        self.items: collections.deque[tuple[np.ndarray, ...]] = collections.deque()
        self.cond = threading.Condition()
        self.closed = False
        self.cancel_pending = False
        self.cancelled = False  # the session closed
        self.waiting = 0  # ops waiting for elements or room
        seed = queue._seed
        # TF's RandomShuffleQueue: a Philox stream of its seeds (random ones when unseeded)
        self.rng = HostPhilox(*seed) if seed is not None and seed != (0, 0) else HostPhilox(
            random.getrandbits(64), random.getrandbits(64))

    def _node(self, op: Operation) -> str:
        return f"\n\t [[{{{{node {op.name}}}}}]]"

    def _wait(self) -> None:
        self.waiting += 1
        try:
            self.cond.wait()
        finally:
            self.waiting -= 1

    def enqueue(self, op: Operation, elements: list[tuple[np.ndarray, ...]]) -> None:
        """Appends ``elements``, waiting for room (as TF's enqueue).

        Raises:
          CancelledError: the queue is closed, or it was closed with
            ``cancel_pending_enqueues`` or the session closed while waiting.
        """
        with self.cond:
            if self.closed:
                raise errors.CancelledError(
                    op.name, op, f"{self.queue._kind} '{self.resource_name}' is closed.{self._node(op)}")
            cap = self.queue._capacity
            i = 0
            while i < len(elements):
                while len(self.items) >= cap:
                    if self.cancelled or self.cancel_pending:
                        raise errors.CancelledError(op.name, op, f"Enqueue operation was cancelled{self._node(op)}")
                    self._wait()
                room = cap - len(self.items)
                self.items.extend(elements[i:i + room])
                i += room
                if self.waiting:
                    self.cond.notify_all()

    def dequeue(self, op: Operation, n: int, up_to: bool) -> list[tuple[np.ndarray, ...]]:
        """Removes ``n`` elements (``up_to``: at least one once closed), waiting for them.

        Raises:
          OutOfRangeError: the queue is closed and holds too few elements
            (they stay in the queue).
          CancelledError: the session closed while waiting.
        """
        min_after = self.queue._min_after_dequeue or 0
        with self.cond:
            while True:
                if self.cancelled:
                    raise errors.CancelledError(op.name, op, f"Dequeue operation was cancelled{self._node(op)}")
                size = len(self.items)
                if self.closed:
                    if size >= n or (up_to and size > 0):
                        take = min(n, size)
                        break
                    raise errors.OutOfRangeError(
                        op.name, op,
                        f"{self.queue._kind} '{self.resource_name}' is closed and has insufficient elements "
                        f"(requested {n}, current size {size}){self._node(op)}",
                    )
                if size - n >= min_after and size >= n:
                    take = n
                    break
                self._wait()
            out = []
            for _ in range(take):
                if self.queue._shuffle:
                    i = self.rng.next() % len(self.items)
                    self.items[i], self.items[-1] = self.items[-1], self.items[i]
                    out.append(self.items.pop())
                else:
                    out.append(self.items.popleft())
            if self.waiting:
                self.cond.notify_all()
            return out

    def close(self, cancel_pending_enqueues: bool) -> None:
        with self.cond:
            self.closed = True
            self.cancel_pending = self.cancel_pending or cancel_pending_enqueues
            self.cond.notify_all()

    def cancel(self) -> None:
        """Cancels every waiting op (the session closes)."""
        with self.cond:
            self.cancelled = True
            self.closed = True
            self.cond.notify_all()


def queue_state(ctx: Any, queue: QueueBase) -> _QueueState:
    """The state of ``queue`` in the session of ``ctx`` (created empty on first use)."""
    with _STATE_LOCK:
        st = ctx.resources.get(queue)
        if st is None:
            k = ctx.resources.setdefault(_STATE_LOCK, [0])
            st = ctx.resources[queue] = _QueueState(queue, f"_{k[0]}_{queue.name}")
            k[0] += 1
    return st  # type: ignore[no-any-return]


# -- ops -------------------------------------------------------------------------


def _no_outputs(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    return []


def _scalar(dtype: _dtypes.DType) -> Any:
    return lambda specs, attrs: [(TensorShape([]), dtype)]


def _dequeue_infer(specs: Any, attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    q: QueueBase = attrs["queue"]
    mode, n = attrs["mode"], attrs["n"]
    out = []
    for s, d in zip(q._shapes, q._dtypes):
        if mode != "one":
            s = TensorShape([n if mode == "many" else None]).concatenate(s)
        out.append((s, d))
    return out


def _n_components(attrs: dict[str, Any]) -> int:
    return len(attrs["queue"]._dtypes)


for _t in ("FIFOQueueV2", "RandomShuffleQueueV2", "PaddingFIFOQueueV2"):
    register_op(_t, num_outputs=0, infer=_no_outputs, lowering=device_lowering, stateful=True,
                default_name=_t)(lambda **attrs: ())
    register_host(_t, always=True, infer=_no_outputs)(lambda ctx, op, inputs: ())

for _t in ("QueueEnqueueV2", "QueueEnqueueManyV2", "QueueCloseV2"):
    register_op(_t, num_outputs=0, infer=_no_outputs, lowering=device_lowering, stateful=True)(
        lambda *xs, **attrs: ())
register_op("QueueDequeueV2", num_outputs=_n_components, infer=_dequeue_infer, lowering=device_lowering,
            stateful=True)(lambda *xs, **attrs: ())
register_op("QueueSizeV2", infer=_scalar(_dtypes.int32), lowering=device_lowering, stateful=True)(
    lambda **attrs: ())
register_op("QueueIsClosedV2", infer=_scalar(_dtypes.bool), lowering=device_lowering, stateful=True)(
    lambda **attrs: ())


def _check_component(op: Operation, q: QueueBase, i: int, v: np.ndarray, many: bool) -> np.ndarray:
    if q._dtypes[i] == _dtypes.string and v.dtype != object:
        v = v.astype(object)
    s = q._shapes[i]
    shape = TensorShape(list(v.shape[1:] if many else v.shape))
    if not s.is_compatible_with(shape):
        raise errors.InvalidArgumentError(
            op.name, op, f"Shape mismatch in tuple component {i}. Expected {s.tf_str()}, got "
            f"{shape.tf_str()}")
    return v


@register_host("QueueEnqueueV2", always=True, blocking=True, infer=_no_outputs)
def _host_enqueue(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    q: QueueBase = op.attrs["queue"]
    if op.attrs.get("keep_input"):
        keep, inputs = inputs[-1], inputs[:-1]
        if not bool(np.asarray(keep)):
            return ()
    el = tuple(_check_component(op, q, i, np.asarray(v), False) for i, v in enumerate(inputs))
    queue_state(ctx, q).enqueue(op, [el])
    return ()


@register_host("QueueEnqueueManyV2", always=True, blocking=True, infer=_no_outputs)
def _host_enqueue_many(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    q: QueueBase = op.attrs["queue"]
    keep = None
    if op.attrs.get("keep_input"):
        keep, inputs = np.asarray(inputs[-1], dtype=bool), inputs[:-1]
    vals = [_check_component(op, q, i, np.asarray(v), True) for i, v in enumerate(inputs)]
    sizes = {v.shape[0] if v.ndim else None for v in vals}
    if len(sizes) != 1 or None in sizes:
        raise errors.InvalidArgumentError(
            op.name, op, f"Shape mismatch in tuple component: the components' first dimensions differ or are "
            f"missing: {[list(v.shape) for v in vals]}")
    n = int(sizes.pop() or 0)
    if keep is not None:
        if keep.ndim == 0:
            keep = np.full(n, bool(keep))
        if keep.shape != (n,):
            raise errors.InvalidArgumentError(
                op.name, op, f"keep_input has shape {list(keep.shape)}, expected [{n}] (one per enqueued row).")
        vals = [v[keep] for v in vals]
        n = int(keep.sum())
    queue_state(ctx, q).enqueue(op, [tuple(v[j] for v in vals) for j in range(n)])
    return ()


def _stack(q: QueueBase, i: int, parts: list[np.ndarray]) -> np.ndarray:
    d = q._dtypes[i]
    if not parts:
        shape = [0] + [0 if x is None else x for x in (q._shapes[i].as_list() if q._shapes[i].ndims is not None
                                                       else [])]
        return np.zeros(shape, dtype=object if d == _dtypes.string else d.np_dtype)
    if isinstance(q, PaddingFIFOQueue):
        full = np.max([p.shape for p in parts], axis=0)
        out = np.full([len(parts), *full], b"" if d == _dtypes.string else 0,
                      dtype=object if d == _dtypes.string else d.np_dtype)
        for j, p in enumerate(parts):
            idx: tuple[Any, ...] = (j, *(slice(0, k) for k in p.shape))
            out[idx] = p if p.ndim else p[()]
        return out
    if len({p.shape for p in parts}) != 1:
        raise errors.InvalidArgumentError(
            None, None, f"Cannot batch the elements of component {i} of {q.name}: shapes "
            f"{sorted({p.shape for p in parts})} differ (give the queue fully defined shapes).")
    if parts[0].dtype == object:  # strings: np.array would nest the 0-d object arrays
        return np.stack(parts)
    return np.array(parts, dtype=parts[0].dtype)  # several times faster than np.stack for many small parts


@register_host("QueueDequeueV2", always=True, blocking=True)
def _host_dequeue(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    q: QueueBase = op.attrs["queue"]
    mode = op.attrs["mode"]
    if mode != "one" and q._kind != "PaddingFIFOQueue" and not all(s.is_fully_defined() for s in q._shapes):
        raise errors.InvalidArgumentError(
            op.name, op, f"{q._kind}'s DequeueMany and DequeueUpTo require the components to have specified "
                         f"shapes.\n\t [[{{{{node {op.name}}}}}]]")
    n = 1 if mode == "one" else (op.attrs["n"] if not inputs else int(np.asarray(inputs[0])))
    got = queue_state(ctx, q).dequeue(op, n, mode == "up_to")
    if mode == "one":
        return got[0]
    return tuple(_stack(q, i, [el[i] for el in got]) for i in range(len(q._dtypes)))


@register_host("QueueCloseV2", always=True, infer=_no_outputs)
def _host_close(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    queue_state(ctx, op.attrs["queue"]).close(op.attrs["cancel_pending_enqueues"])
    return ()


@register_host("QueueSizeV2", always=True)
def _host_size(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    st = queue_state(ctx, op.attrs["queue"])
    with st.cond:
        return (np.int32(len(st.items)),)


@register_host("QueueIsClosedV2", always=True)
def _host_is_closed(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    st = queue_state(ctx, op.attrs["queue"])
    with st.cond:
        return (np.bool_(st.closed),)


# -- the Python classes ------------------------------------------------------------


class QueueBase:
    """A queue of tuples of tensors, as ``tf.compat.v1.QueueBase``.

    Attributes:
      name: the queue op's name (``'fifo_queue'``).
      dtypes: the components' dtypes.
      shapes: the components' shapes (``TensorShape(None)`` when not given).
      names: the components' names (dequeue gives dicts), or ``None``.
    """

    _kind = "FIFOQueue"
    _op_type = "FIFOQueueV2"

    def __init__(self, capacity: int, dtypes: Any, shapes: Any = None, names: Any = None,
                 shared_name: str | None = None, name: str | None = None, *,
                 min_after_dequeue: int | None = None, seed: int | None = None, shuffle: bool = False) -> None:
        if _context.current_eager_session() is not None:
            raise RuntimeError(f"{type(self).__name__}: jaxsess queues are graph-mode resources; inside an "
                               "EagerSession use tf.data (or a Python queue).")
        if not isinstance(dtypes, list | tuple):
            dtypes = [dtypes]
        self._dtypes = [_dtypes.canonical(d) for d in dtypes]
        if shapes is None:
            self._shapes = [TensorShape(None)] * len(self._dtypes)
        else:
            if isinstance(shapes, TensorShape) or not isinstance(shapes, list | tuple) or \
                    not shapes or not isinstance(shapes[0], list | tuple | TensorShape):
                shapes = [shapes]
            self._shapes = [TensorShape(s) for s in shapes]
            if len(self._shapes) != len(self._dtypes):
                raise ValueError("Queue shapes must have the same length as dtypes")
        if names is not None:
            if not isinstance(names, list | tuple):
                names = [names]
            if len(names) != len(self._dtypes):
                raise ValueError("Queue names must have the same length as dtypes")
        self._names = list(names) if names is not None else None
        self._capacity = int(capacity)
        self._min_after_dequeue = min_after_dequeue
        self._shuffle = shuffle
        # only a RandomShuffleQueue takes op seeds (TF's get_seed), the others none
        graph_seed, op_seed = get_seed(seed) if shuffle else (None, None)
        self._seed = None if graph_seed is None and op_seed is None else (graph_seed or 0, op_seed or 0)
        self._graph = get_default_graph()
        self._queue_op: Operation = apply_op(self._op_type, [], {"queue": self}, name=name)
        self._name = self._queue_op.name.rsplit("/", 1)[-1]  # TF's: the ops' default names start with it

    # -- properties
    @property
    def name(self) -> str:
        return self._queue_op.name

    @property
    def queue_ref(self) -> Operation:
        """The queue's op (jaxsess has no resource handles: ops take the queue as an attribute)."""
        return self._queue_op

    @property
    def dtypes(self) -> list[_dtypes.DType]:
        return list(self._dtypes)

    @property
    def shapes(self) -> list[TensorShape]:
        return list(self._shapes)

    @property
    def names(self) -> list[str] | None:
        return None if self._names is None else list(self._names)

    # -- ops
    def _components(self, vals: Any, many: bool) -> list[Any]:
        if self._names is not None:
            if not isinstance(vals, dict):
                raise ValueError(f"You must enqueue a dictionary in a Queue with names, got {type(vals).__name__}")
            if sorted(vals) != sorted(self._names):
                raise ValueError(f"Keys in dictionary to enqueue do not match names of Queue.  "
                                 f"Dictionary: {sorted(vals)}, Queue: {sorted(self._names)}")
            vals = [vals[k] for k in self._names]
        elif isinstance(vals, dict):
            raise ValueError("Queues with no names cannot be enqueued a dictionary")
        elif not isinstance(vals, list | tuple):
            vals = [vals]
        if len(vals) != len(self._dtypes):
            raise ValueError(f"Expected {len(self._dtypes)} components to enqueue in {self.name}, got {len(vals)}.")
        out = []
        for i, (v, d, s) in enumerate(zip(vals, self._dtypes, self._shapes)):
            t = convert_to_tensor(v, dtype=d, name=f"component_{i}")
            if t.dtype != d:
                raise TypeError(f"{self.name}: component {i} has dtype {t.dtype.name}, the queue holds {d.name}.")
            shape = t.shape
            if many:
                if shape.ndims == 0:
                    raise ValueError(f"Shape must be at least rank 1 but is rank 0 (component {i} of "
                                     f"{self.name}'s enqueue_many).")
                if shape.ndims is not None:
                    shape = TensorShape(shape.as_list()[1:])
            if not s.is_compatible_with(shape):
                raise ValueError(f"Shapes {shape} and {s} are incompatible (component {i} of {self.name}).")
            out.append(t)
        return out

    def enqueue(self, vals: Any, name: str | None = None) -> Operation:
        """An op that appends one element (blocks while the queue is full), as ``QueueBase.enqueue``.

        Args:
          vals: a tensor, a list/tuple of tensors (one per component) or,
            for a queue with names, a dict.

        Raises:
          ValueError / TypeError: component count, shapes or dtypes differ from the queue's.
          CancelledError (when run): the queue is closed.
        """
        return self._enqueue_op(vals, False, None, name)

    def enqueue_many(self, vals: Any, name: str | None = None) -> Operation:
        """An op that appends the slices of ``vals`` along dimension 0, as ``QueueBase.enqueue_many``.

        Raises:
          ValueError / TypeError: as :meth:`enqueue` (shapes without dimension 0).
          CancelledError (when run): the queue is closed.
        """
        return self._enqueue_op(vals, True, None, name)

    def _enqueue_op(self, vals: Any, many: bool, keep_input: Any, name: str | None) -> Operation:
        """``enqueue``/``enqueue_many``; with ``keep_input`` (a bool tensor:
        a scalar, or with ``many`` one per row) only the kept elements are
        enqueued (``train.maybe_batch``)."""
        g = self._graph
        with g.as_default(), g.name_scope(name or f"{self._name}_{'EnqueueMany' if many else 'enqueue'}") as scope:
            comps = self._components(vals, many)
            attrs: dict[str, Any] = {"queue": self}
            if keep_input is not None:
                keep = convert_to_tensor(keep_input, dtype=_dtypes.bool, name="keep_input")
                if keep.shape.ndims not in (0, 1) or (keep.shape.ndims == 1 and not many):
                    raise ValueError(f"keep_input must be a scalar (or, with enqueue_many, a vector), got shape "
                                     f"{keep.shape}.")
                comps.append(keep)
                attrs["keep_input"] = True
            return apply_op(  # type: ignore[no-any-return]
                "QueueEnqueueManyV2" if many else "QueueEnqueueV2", comps, attrs, name=scope)

    def _dequeue(self, mode: str, n: Any, name: str | None, default: str) -> Any:
        g = self._graph
        with g.as_default():
            inputs: list[Any] = []
            static_n = None
            if mode != "one":
                if isinstance(n, int | np.integer):
                    static_n = int(n)
                else:
                    inputs = [convert_to_tensor(n, dtype=_dtypes.int32)]
            outs = apply_op("QueueDequeueV2", inputs, {"queue": self, "mode": mode, "n": static_n},
                            name=name or f"{self._name}_{default}")
        if not isinstance(outs, list):
            outs = [outs]
        if self._names is not None:
            return dict(zip(self._names, outs))
        return outs[0] if len(outs) == 1 else outs

    def dequeue(self, name: str | None = None) -> Any:
        """One element (blocks while the queue is empty), as ``QueueBase.dequeue``.

        Returns:
          A tensor (one component), a list of tensors, or a dict (queue with names).

        Raises (when run):
          OutOfRangeError: the queue is closed and empty.
          CancelledError: the session closed while waiting.
        """
        return self._dequeue("one", None, name, "Dequeue")

    def dequeue_many(self, n: Any, name: str | None = None) -> Any:
        """``n`` elements stacked along a new dimension 0, as ``QueueBase.dequeue_many``.

        Raises (when run):
          OutOfRangeError: the queue is closed with fewer than ``n`` elements
            (which stay in the queue).
        """
        return self._dequeue("many", n, name, "DequeueMany")

    def dequeue_up_to(self, n: Any, name: str | None = None) -> Any:
        """As :meth:`dequeue_many`, but once the queue is closed gives the
        remaining elements (1 to ``n``), as ``QueueBase.dequeue_up_to``.
        Dimension 0 of the outputs is unknown (``None``)."""
        return self._dequeue("up_to", n, name, "DequeueUpTo")

    def close(self, cancel_pending_enqueues: bool = False, name: str | None = None) -> Operation:
        """An op that closes the queue, as ``QueueBase.close``: later enqueues
        raise ``CancelledError``; dequeues drain what is left, then raise
        ``OutOfRangeError``. With ``cancel_pending_enqueues``, waiting enqueues
        are cancelled too."""
        with self._graph.as_default():
            return apply_op("QueueCloseV2", [], {"queue": self,  # type: ignore[no-any-return]
                                                 "cancel_pending_enqueues": bool(cancel_pending_enqueues)},
                            name=name or f"{self._name}_Close")

    def size(self, name: str | None = None) -> Any:
        """The number of elements, an ``int32`` scalar, as ``QueueBase.size``."""
        with self._graph.as_default():
            return apply_op("QueueSizeV2", [], {"queue": self}, name=name or f"{self._name}_Size")

    def is_closed(self, name: str | None = None) -> Any:
        """Whether the queue is closed, a ``bool`` scalar, as ``QueueBase.is_closed``."""
        with self._graph.as_default():
            return apply_op("QueueIsClosedV2", [], {"queue": self}, name=name or f"{self._name}_Is_Closed")


class FIFOQueue(QueueBase):
    """A first-in first-out queue, as ``tf.compat.v1.FIFOQueue(capacity, dtypes, shapes, names)``.

    Args:
      capacity: the most elements it holds (enqueues then wait).
      dtypes: one dtype per component.
      shapes: the components' shapes, or ``None`` (any shape; then
        ``dequeue_many`` needs equal shapes at run time).
      names: component names (enqueue and dequeue then use dicts).
    """

    def __init__(self, capacity: int, dtypes: Any, shapes: Any = None, names: Any = None,
                 shared_name: str | None = None, name: str | None = "fifo_queue") -> None:
        super().__init__(capacity, dtypes, shapes, names, shared_name, name)


class PaddingFIFOQueue(QueueBase):
    """A FIFO queue whose ``dequeue_many`` pads components to the batch's
    largest shape (zeros, empty strings), as ``tf.compat.v1.PaddingFIFOQueue``.

    Raises:
      ValueError: ``shapes`` not given (their ranks are needed; ``None`` dims vary).
    """

    _kind = "PaddingFIFOQueue"
    _op_type = "PaddingFIFOQueueV2"

    def __init__(self, capacity: int, dtypes: Any, shapes: Any, names: Any = None,
                 shared_name: str | None = None, name: str | None = "padding_fifo_queue") -> None:
        if shapes is None:
            raise ValueError("PaddingFIFOQueue requires shapes (of known rank) for every component.")
        super().__init__(capacity, dtypes, shapes, names, shared_name, name)


class RandomShuffleQueue(QueueBase):
    """A queue that dequeues elements in random order, as ``tf.compat.v1.RandomShuffleQueue``.

    A dequeue waits until ``min_after_dequeue`` elements would remain after
    it (ignored once the queue is closed). Each dequeue takes the element at
    a random index from TF's Philox stream of the queue's seeds and moves the
    last element there, as TF: with a graph or op seed, the order of a queue
    filled before it is read is TF's (with queue runners, TF's own order varies
    with the threads' timing).
    """

    _kind = "RandomShuffleQueue"
    _op_type = "RandomShuffleQueueV2"

    def __init__(self, capacity: int, min_after_dequeue: int, dtypes: Any, shapes: Any = None,
                 names: Any = None, seed: int | None = None, shared_name: str | None = None,
                 name: str | None = "random_shuffle_queue") -> None:
        super().__init__(capacity, dtypes, shapes, names, shared_name, name,
                         min_after_dequeue=int(min_after_dequeue), seed=seed, shuffle=True)

