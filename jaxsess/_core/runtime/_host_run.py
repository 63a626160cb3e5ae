"""``Session.run`` for graphs with host ops (strings, ``tf.data`` iterators).

For one ``run``: the ops the fetches need are pruned as the device plan
prunes them; the host ops among them (see :mod:`jaxsess._core.graph._host`) run in
creation order on NumPy values; tensors they need from the device are computed
first by a plain run; then the device plan runs with the host ops' outputs
fed, so it compiles once per signature (a training loop that pulls batches
from an iterator compiles once). Host results are returned as TF1 returns
them: NumPy arrays, NumPy scalars, and ``bytes`` for scalar strings.

Host resources (iterator states) belong to the session, as TF1's resources:
a new session starts every iterator afresh.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

import numpy as np

from jaxsess._core import dtypes as _dtypes, errors as errors
from jaxsess._core.graph._graph import Graph, Operation, Tensor
from jaxsess._core.graph._host import HOST_GRAPHS, host_impl, is_blocking, is_host_op
from jaxsess._core.graph._lowering import prune
from jaxsess._core.runtime._fetch import Fetches, feed_key, has_sparse_keys, sparse_feeds
from jaxsess._core.types import FeedDict, FetchStructure, HostArray

__all__ = ["needs_host_pass", "run", "HostContext", "cancel_resources"]

_local = threading.local()


class HostContext:
    """What host implementations see: the session and its host resources.

    Attributes:
      session: the running session.
      resources: ``{key: state}`` owned by the session (iterator states).
    """

    def __init__(self, session: Any, resources: dict[Any, Any]) -> None:
        self.session = session
        self.resources = resources


class _Analysis:
    __slots__ = ("host_ops", "host_out", "dev_inputs", "feed_out", "dev_after", "consts", "rng_out")

    def __init__(self, host_ops: list[Operation], host_out: set[Tensor], dev_inputs: list[Tensor],
                 feed_out: list[Tensor], dev_after: dict[Tensor, int], consts: list[Tensor],
                 rng_out: list[Tensor]) -> None:
        self.host_ops = host_ops
        self.host_out = host_out
        self.dev_inputs = dev_inputs
        self.feed_out = feed_out
        # dev_after[t]: the index of the last host op that device input t needs (-1: none)
        self.dev_after = dev_after
        self.consts = consts  # constant inputs of host ops, read from the graph
        # the outputs of the random ops the device runs before host ops compute: fetched there
        # and fed to the later runs, so each draws once per run, as TF (not again in the last run)
        self.rng_out = rng_out


_RESOURCES: weakref.WeakKeyDictionary[Any, dict[Any, Any]] = weakref.WeakKeyDictionary()
_LOCKS: weakref.WeakKeyDictionary[Any, threading.Lock] = weakref.WeakKeyDictionary()
_LOCKS_LOCK = threading.Lock()
_ANALYSES: weakref.WeakKeyDictionary[Any, dict[Any, _Analysis]] = weakref.WeakKeyDictionary()


def cancel_resources(session: object) -> None:
    """Cancels the ops waiting on ``session``'s host resources (queues), as TF
    does when a session closes: they raise ``CancelledError``."""
    with _LOCKS_LOCK:
        resources = list(_RESOURCES.get(session, {}).values())
    for r in resources:
        cancel = getattr(r, "cancel", None)
        if cancel is not None:
            cancel()


def needs_host_pass(graph: Graph) -> bool:
    """Whether ``Session.run`` on ``graph`` goes through :func:`run` (the graph
    holds host ops and this thread is not already inside the host pass)."""
    return graph in HOST_GRAPHS and not getattr(_local, "active", False)


@contextmanager
def _device_only() -> Iterator[None]:
    prev = getattr(_local, "active", False)
    _local.active = True
    try:
        yield
    finally:
        _local.active = prev


def _analyze(leaves: list[Any], fed: set[Tensor]) -> _Analysis:
    tensors = [e for e in leaves if isinstance(e, Tensor)]
    targets = [e for e in leaves if isinstance(e, Operation)]
    needed = prune(tensors, targets, fed)
    host_ops = [op for op in needed if is_host_op(op)]
    host_out = {t for op in host_ops for t in op.outputs}
    dev_inputs: dict[Tensor, None] = {}
    consts: dict[Tensor, None] = {}
    feed_out: dict[Tensor, None] = {}
    for op in needed:
        if op in host_ops:
            for t in op.inputs:
                if t not in fed and t not in host_out:
                    if t.op.type == "Const":  # a constant input needs no device run (queue enqueues)
                        consts[t] = None
                    else:
                        dev_inputs[t] = None
            continue
        for t in op.inputs:
            if t in host_out and t not in fed:
                if t.dtype == _dtypes.string:
                    raise errors.InvalidArgumentError(
                        None, op,
                        f"Op '{op.name}' (type {op.type}) needs the string tensor '{t.name}' on the device; "
                        "jaxsess keeps strings on the host (only host ops such as Identity, Print and "
                        "string ops take them).",
                    )
                feed_out[t] = None
    index = {op: i for i, op in enumerate(host_ops)}
    upstream = prune(list(dev_inputs), [], fed) if dev_inputs else []
    rng_out = [t for op in upstream if op not in index and op._op_def.random for t in op.outputs]
    dev_after = {}
    for t in [*dev_inputs, *rng_out]:
        deps = [index[op] for op in prune([t], [], fed) if op in index]
        dev_after[t] = max(deps, default=-1)
    return _Analysis(host_ops, host_out, list(dev_inputs), list(feed_out), dev_after, list(consts), rng_out)


def host_value(t: Tensor, value: object) -> HostArray:
    """A fed value for ``t`` as the host ops see it (NumPy, strings as bytes)."""
    if t.dtype == _dtypes.string:
        if isinstance(value, np.ndarray) and value.dtype == object:
            return value
        arr = np.asarray(value, dtype=object)
        out = np.empty(arr.shape, dtype=object)
        for idx, v in np.ndenumerate(arr):
            out[idx] = v.encode("utf-8") if isinstance(v, str) else bytes(v)
        return out
    return np.asarray(value, dtype=t.dtype.np_dtype)


def _result(value: Any) -> Any:
    arr = value if isinstance(value, np.ndarray) else np.asarray(value)
    if arr.dtype.kind == "S":  # strings as TF1 returns them: bytes (object arrays of bytes)
        arr = arr.astype(object)
    return arr[()] if arr.ndim == 0 else arr


class RunningSession(Protocol):
    """The graph session :func:`run` runs in (``Session``, found structurally: it imports this module)."""

    @property
    def graph(self) -> Graph: ...

    def run(
        self, fetches: FetchStructure, feed_dict: FeedDict | None = None, options: object = None,
        run_metadata: object = None,
    ) -> Any: ...


_NO_HOST_KEYS_MAX = 4096


def _note_no_host(session: Any, leaves: list[Any], feed_dict: Any) -> None:
    """Remembers that a run of ``leaves`` fed ``feed_dict``'s keys needs no host op, so the
    session's plan-cache hit path takes it next time (``_no_host_keys``, keyed as that path keys
    plans: the leaves and the feed dict's own keys)."""
    keys = getattr(session, "_no_host_keys", None)
    if keys is None or not (feed_dict is None or type(feed_dict) is dict):
        return
    if len(keys) >= _NO_HOST_KEYS_MAX:
        keys.clear()
    keys.add((tuple(leaves), tuple(feed_dict) if feed_dict else ()))


def run(
    session: RunningSession,
    fetches: FetchStructure,
    feed_dict: FeedDict | None,
    options: object = None,
    run_metadata: object = None,
) -> Any:
    """``session.run(fetches, feed_dict)`` with the host pass (see the module docstring).

    Raises:
      InvalidArgumentError: a device op needs a string tensor.
      OutOfRangeError: an iterator is exhausted (before any device state changes).
      and whatever ``Session.run`` raises.
    """
    graph = session.graph
    fm = Fetches(graph, fetches)
    leaves = list(fm.leaves)
    feeds: dict[Tensor, Any] = {}
    if feed_dict and has_sparse_keys(feed_dict):
        feed_dict = sparse_feeds(feed_dict)
    for k, v in (feed_dict or {}).items():
        feeds[k if type(k) is Tensor else feed_key(graph, k)] = v
    cache = _ANALYSES.setdefault(session, {})
    key = (tuple(leaves), tuple(feeds))
    an = cache.get(key)
    if an is None:
        an = cache[key] = _analyze(leaves, set(feeds))
    with _device_only():
        if not an.host_ops:
            _note_no_host(session, leaves, feed_dict)
            return session.run(fetches, feed_dict, options, run_metadata)
        env: dict[Tensor, Any] = {t: host_value(t, v) for t, v in feeds.items()}
        env.update((t, t.op.attrs["value"]) for t in an.consts)
        # Strings stay on the host: the device runs get only numeric feeds.
        dev_feeds = {t: v for t, v in feeds.items() if t.dtype != _dtypes.string}
        with _LOCKS_LOCK:
            lock = _LOCKS.setdefault(session, threading.Lock())
            ctx = HostContext(session, _RESOURCES.setdefault(session, {}))
        lock.acquire()  # iterators are shared by the threads that run the session
        try:
            for i, op in enumerate(an.host_ops):
                if any(t not in env for t in op.inputs):
                    # One device run computes every device input that needs no later
                    # host op (usually all of them: one run per step), fed the host
                    # outputs computed so far (e.g. a check on an iterator's batch).
                    ready = [t for t in (*an.dev_inputs, *an.rng_out) if an.dev_after[t] < i and t not in env]
                    feeds_now = dict(dev_feeds)
                    feeds_now.update((t, env[t]) for h in an.host_ops[:i] for t in h.outputs
                                     if t.dtype != _dtypes.string)
                    feeds_now.update((t, env[t]) for t in an.rng_out if t in env)
                    vals = session.run(ready, feeds_now)
                    env.update((t, np.array(v)) for t, v in zip(ready, vals))
                if is_blocking(op):  # a queue op waits for other threads' runs: without the lock
                    lock.release()
                    try:
                        outs = host_impl(op)(ctx, op, [env[t] for t in op.inputs])
                    finally:
                        lock.acquire()
                else:
                    outs = host_impl(op)(ctx, op, [env[t] for t in op.inputs])
                env.update(zip(op.outputs, outs))
        finally:
            lock.release()
        dev_leaves = [e for e in leaves
                      if not (isinstance(e, Tensor) and e in an.host_out)
                      and not (isinstance(e, Operation) and e in an.host_ops)]
        for t in an.feed_out:
            dev_feeds[t] = env[t]
        dev_feeds.update((t, env[t]) for t in an.rng_out if t in env)
        if len(dev_leaves) == 1 and isinstance(dev_leaves[0], Tensor):  # the fast path of Session.run
            dev_vals = iter([session.run(dev_leaves[0], dev_feeds)])
        else:
            dev_vals = iter(session.run(dev_leaves, dev_feeds) if dev_leaves else [])
    out = []
    for e in leaves:
        if isinstance(e, Tensor) and e in an.host_out:
            out.append(_result(env[e]))
        elif isinstance(e, Operation) and e in an.host_ops:
            out.append(None)
        else:
            out.append(next(dev_vals))
    return fm.rebuild(out)
