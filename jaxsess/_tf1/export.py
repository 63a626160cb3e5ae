"""Export and embedding: a graph's lowering as a ``jax.export`` artifact or a
pure JAX function.

* :func:`export` — ``jax.export.Exported`` of ``fetches`` as a function of
  ``feeds``, for several platforms at once (``cpu``, ``cuda``, ``tpu`` —
  possible on a CPU-only machine). ``None`` dimensions of the fed tensors
  become symbolic dimensions. The **variables' current values are baked in
  as constants** (the artifact is self-contained: ship one file); the
  function is pure, so assignments in the graph change nothing outside it.
  ``Exported.serialize()`` gives bytes; :func:`load_exported` reads them back.
* :func:`graph_function` — a pure JAX function ``f(variables, *feeds)`` with
  the variables as an explicit ``{name: array}`` argument, to ``jax.jit``,
  ``jax.grad``, ``jax.vmap`` or call from Flax/Equinox code;
  ``f.variables(session)`` gives the session's current values.

Random ops: each random op draws from its seeds and a counter (see
``jaxsess._core.graph._lowering``): for the ops that draw TF's Philox streams
(:mod:`jaxsess._tf1.ops.random_ops`), the number of values it drew before, so a
session's run ``k`` of an op drawing ``n`` values has counter ``k * n``. In an
exported function the counter is fixed at the session's current value when
:func:`export` is called (0 without a session), so every call of the artifact
draws the same values; a random op whose shape depends on a polymorphic
dimension draws JAX's values there, not TF's. In a :func:`graph_function` it
is the ``rng_counter`` argument (default 0): pass a different value (it may
be traced, or vmapped) for new draws.

Security: :func:`load_exported` deserialises with ``jax.export.deserialize``
(a flatbuffer holding StableHLO); it runs no Python code, but the artifact is
a program your process will execute: **load only artifacts from a trusted
source**.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import jax
import jax.export  # a submodule that older `import jax` does not load
import jax.numpy as jnp
import numpy as np

from jaxsess._core._context import VariableStore
from jaxsess._core.graph._graph import Graph, Operation, Tensor, get_default_graph
from jaxsess._core.graph._plan import Plan, build_plan
from jaxsess._core.runtime._fetch import Fetches, check_unique, feed_keys, split_leaves
from jaxsess._core.runtime._graph_session import Session
from jaxsess._core.runtime._session import get_default_session

__all__ = ["export", "load_exported", "graph_function", "GraphFunction"]

_DEFAULT_PLATFORMS = ("cpu", "cuda", "tpu")


# -- shared: fetches, feeds, plans -------------------------------------------------------


def _session_for(session: Any, graph_hint: Graph | None) -> Any:
    if session is None:
        session = get_default_session()
        if session is not None and not isinstance(session, Session):
            session = None
    elif not isinstance(session, Session):
        raise TypeError(f"session must be a jaxsess.Session, got {type(session).__name__}.")
    if session is not None:
        session._check_open()
        if graph_hint is not None and session.graph is not graph_hint:
            if session is get_default_session():
                return None  # the default session runs another graph: not ours
            raise ValueError("The session's graph is not the graph of the fetches.")
    return session


def _graph_of(fetches: Any, feeds: Sequence[Any]) -> Graph:
    for x in jax.tree_util.tree_leaves(
        (fetches, list(feeds)), is_leaf=lambda x: isinstance(x, Tensor | Operation) or hasattr(x, "_as_graph_element")
    ):
        x = getattr(x, "_as_graph_element", lambda x=x: x)()
        if isinstance(x, Tensor | Operation):
            return x.graph
    return get_default_graph()


def _normalise(x: Any) -> Any:
    """A fetch structure made of plain list/tuple/dict (what ``jax.export`` serialises)."""
    if isinstance(x, list):
        return [_normalise(v) for v in x]
    if isinstance(x, tuple):
        return tuple(_normalise(v) for v in x)
    if isinstance(x, Mapping):
        return {k: _normalise(v) for k, v in x.items()}
    return x


class _Signature:
    """Fetches and feeds resolved against a graph, and the plan that computes them."""

    def __init__(self, graph: Graph, fetches: Any, feeds: Sequence[Any]) -> None:
        self.graph = graph
        fm = Fetches(graph, fetches)
        self.rebuild = fm.rebuild
        tensors, targets, self.positions = split_leaves(fm.leaves)
        # Not a feed_dict: a tensor of another graph is a ValueError here.
        self.feeds: list[Tensor] = feed_keys(graph, feeds, _foreign_feed)
        check_unique(self.feeds)
        self.plan: Plan = build_plan(tensors, self.feeds, targets)

    def outputs(self, values: Sequence[Any]) -> Any:
        full = [None if p is None else values[p] for p in self.positions]
        return _normalise(self.rebuild(full))


def _foreign_feed(t: Tensor) -> ValueError:
    return ValueError(f"Tensor {t} is not an element of this graph.")


def _slot_value(session: VariableStore | None, slot: Any) -> Any:
    """The host value of a state slot the plan reads: a variable's value in
    ``session`` (read through its ``VariableStore`` interface, under its state
    lock: a run in another thread cannot donate the buffer while it is read),
    or a random op's counter (0 when the session has not drawn yet)."""
    if isinstance(slot, tuple):  # an rng counter
        if session is None or not session.is_initialized(slot):
            return np.uint32(0)
        return np.asarray(session.read(slot))
    if session is None:
        raise ValueError(
            f"The graph reads variable '{slot.name}': pass the session that holds its value "
            "(session=...) or make it the default session."
        )
    return np.asarray(session.read(slot))


# -- export ------------------------------------------------------------------------------

def _feed_spec(t: Tensor, poly: Any, scope: Any) -> jax.ShapeDtypeStruct:
    dtype = t.dtype.np_dtype
    if poly is not None:
        if not isinstance(poly, str):
            raise TypeError(f"polymorphic_shapes entries are strings like '(b, 3)' or None; got {poly!r:.60}.")
        shape = jax.export.symbolic_shape(poly, scope=scope)
        static = t.shape.as_tuple()
        if static is not None and (
            len(static) != len(shape) or any(d is not None and isinstance(s, int) and s != d for d, s in zip(static, shape))
        ):
            raise ValueError(f"polymorphic shape {poly!r} does not fit feed {t.name} of shape {t.shape}.")
        return jax.ShapeDtypeStruct(shape, dtype)
    dims = t.shape.as_tuple()
    if dims is None:
        raise ValueError(
            f"Feed {t.name} has an unknown rank: give its shape in polymorphic_shapes (e.g. '(b, 3)')."
        )
    if all(d is not None for d in dims):
        return jax.ShapeDtypeStruct(dims, dtype)
    names = ["b" if j == 0 else f"d{j}" for j in range(len(dims))]
    text = ", ".join(n if d is None else str(d) for n, d in zip(names, dims))
    return jax.ShapeDtypeStruct(jax.export.symbolic_shape(f"({text},)" if len(dims) == 1 else f"({text})", scope=scope), dtype)


def export(
    fetches: Any,
    feeds: Sequence[Any] = (),
    session: Any = None,
    platforms: Sequence[str] = _DEFAULT_PLATFORMS,
    *,
    polymorphic_shapes: Sequence[str | None] | None = None,
) -> jax.export.Exported:
    """``fetches`` as a function of ``feeds``, exported with ``jax.export``.

    The exported function takes the feed values positionally, in the order
    of ``feeds``, and returns ``fetches``' structure (namedtuples become
    tuples, mappings dicts; fetched operations give ``None``), the results
    :meth:`Session.run` would give. Variables are **constants** holding
    their values in ``session`` now (retrain, then export again); random ops
    draw with their counters fixed at the session's current values (every
    call gives the same draws). Device scopes and mesh shardings are not
    part of the artifact: it runs on one device of the platform it is
    called on.

    ``None`` dimensions of a feed become symbolic: by default dimension 0 is
    ``b`` in every feed (one batch size shared by all feeds) and dimension
    ``j > 0`` is ``dj``; ``polymorphic_shapes`` (one ``jax.export`` shape
    string such as ``'(b, 3)'`` per feed, or ``None`` for the default)
    names them otherwise.

    Args:
      fetches: as :meth:`Session.run` (tensors, ops, names, nested structures).
      feeds: tensors (or names) whose values are the arguments.
      session: the session holding the variables' values (default: the
        default session, if it runs the fetches' graph).
      platforms: the platforms to lower for, all in one artifact.
      polymorphic_shapes: optional shape strings, one per feed.

    Returns:
      A ``jax.export.Exported``: ``.call(*feed_values)`` runs it,
      ``.serialize()`` gives bytes for :func:`load_exported`,
      ``.mlir_module()`` the StableHLO text.

    Raises:
      ValueError: a placeholder the fetches need is not among ``feeds``
        (``InvalidArgumentError``), the graph reads variables and there is
        no session, a feed of unknown rank without a polymorphic shape.
      FailedPreconditionError: a variable the fetches read is not initialised.
    """
    feeds = list(feeds)
    graph = _graph_of(fetches, feeds)
    sess = _session_for(session, graph)
    sig = _Signature(graph, fetches, feeds)
    plan = sig.plan
    donated = tuple(_slot_value(sess, s) for s in plan.donated)
    kept = tuple(_slot_value(sess, s) for s in plan.kept)
    if polymorphic_shapes is not None and len(polymorphic_shapes) != len(sig.feeds):
        raise ValueError(f"polymorphic_shapes has {len(polymorphic_shapes)} entries for {len(sig.feeds)} feeds.")
    scope = jax.export.SymbolicScope()
    specs = [
        _feed_spec(t, None if polymorphic_shapes is None else polymorphic_shapes[i], scope)
        for i, t in enumerate(sig.feeds)
    ]
    pure = plan.pure_fn
    assert pure is not None
    dtypes = [t.dtype.np_dtype for t in sig.feeds]

    def fn(*feed_vals: Any) -> Any:
        vals = tuple(jnp.asarray(v, d) for v, d in zip(feed_vals, dtypes))
        out, _ = pure(donated, kept, vals)
        return sig.outputs(list(out))

    fn.__name__ = "jaxsess_export"
    return jax.export.export(jax.jit(fn), platforms=tuple(platforms))(*specs)


def load_exported(blob: bytes | bytearray) -> jax.export.Exported:
    """An artifact written by ``export(...).serialize()``, as ``jax.export.Exported``.

    ``.call(*feed_values)`` runs it (also inside ``jax.jit``). Only load
    artifacts from a **trusted source**: deserialising runs no Python code,
    but the artifact is a program your process will execute. The container
    and the signature are checked here; the StableHLO module inside only
    when it is called or printed.

    Raises:
      TypeError: ``blob`` is not bytes.
      ValueError: ``blob`` is not a ``jax.export`` artifact, or is
        truncated or corrupted (the message says which part failed).
      ImportError: the ``flatbuffers`` package is missing (``jax.export``
        needs it to (de)serialise).
    """
    if not isinstance(blob, bytes | bytearray | memoryview):
        raise TypeError(f"load_exported needs the bytes from Exported.serialize(), got {type(blob).__name__}.")
    data = bytearray(blob)
    try:
        exported = jax.export.deserialize(data)
    except ImportError:
        raise
    except Exception as e:  # flatbuffers reports bad bytes as struct.error, AttributeError, IndexError...
        raise ValueError(_corrupt(len(data), f"{type(e).__name__}: {e}")) from e
    # The signature is checked here; the StableHLO module only when it is
    # called or printed (parsing a corrupted module can hang in MLIR).
    try:
        for aval in (*exported.in_avals, *exported.out_avals):
            np.dtype(aval.dtype), tuple(aval.shape)  # noqa: B018 - raises on a corrupted aval
    except Exception as e:
        raise ValueError(_corrupt(len(data), f"{type(e).__name__}: {e}")) from e
    return exported


def _corrupt(size: int, why: str) -> str:
    return (
        f"load_exported: the {size} bytes are not a valid jax.export artifact (truncated, corrupted, "
        f"or not written by Exported.serialize()): {why:.300}"
    )


# -- graph_function -----------------------------------------------------------------------


class GraphFunction:
    """A graph's computation as a pure JAX function; see :func:`graph_function`.

    Calling ``f(variables, *feeds, rng_counter=0)`` returns the fetches'
    values (in their structure). ``f.apply(...)`` also returns the variables
    after the graph's assignments.

    Attributes:
      variable_names: names (``v.op.name``) of the variables the fetches
        read: the keys ``variables`` must have (extra keys are ignored).
      assigned_names: names of the variables the fetches assign.
      feeds: the fed tensors, in argument order.
    """

    def __init__(self, sig: _Signature) -> None:
        self._sig = sig
        plan = sig.plan
        self._reads: list[Operation] = list(plan.start_vars)
        self._writes: list[Operation] = list(plan.final_assign)
        self.variable_names: tuple[str, ...] = tuple(v.name for v in self._reads)
        self.assigned_names: tuple[str, ...] = tuple(v.name for v in self._writes)
        self.feeds: tuple[Tensor, ...] = tuple(sig.feeds)
        self.__name__ = "graph_function"
        self.__doc__ = (
            f"f(variables, {', '.join(t.op.name for t in sig.feeds)}, rng_counter=0): "
            f"variables {list(self.variable_names)}"
        )

    def __call__(self, variables: Mapping[str, Any], *feeds: Any, rng_counter: Any = 0) -> Any:
        return self.apply(variables, *feeds, rng_counter=rng_counter)[0]

    def apply(self, variables: Mapping[str, Any], *feeds: Any, rng_counter: Any = 0) -> tuple[Any, dict[str, Any]]:
        """``(outputs, new_variables)``: ``new_variables`` is ``variables``
        (those the graph reads) with the assigned ones replaced.

        Raises:
          TypeError: the wrong number of feeds.
          KeyError: a variable the graph reads is missing (names them).
        """
        sig = self._sig
        plan = sig.plan
        if len(feeds) != len(sig.feeds):
            raise TypeError(
                f"graph function takes {len(sig.feeds)} feed value(s) ({[t.name for t in sig.feeds]}), got {len(feeds)}."
            )
        missing = [n for n in self.variable_names if n not in variables]
        if missing:
            raise KeyError(f"graph function needs the values of variables {missing}.")
        state: dict[Any, Any] = {}
        for v in self._reads:
            state[v] = jnp.asarray(variables[v.name], dtype=v.attrs["dtype"].np_dtype)
        counter = jnp.asarray(rng_counter, dtype=jnp.uint32)
        for op in plan.rng_ops:
            state[("rng", op)] = counter
        vals = tuple(jnp.asarray(f, t.dtype.np_dtype) for f, t in zip(feeds, sig.feeds))
        out, new_state = plan.evaluate(state, vals)
        new_vars = {v.name: state[v] for v in self._reads}
        for slot, value in zip(plan.written, new_state):
            if not isinstance(slot, tuple):
                new_vars[slot.name] = value
        return sig.outputs(out), new_vars

    def variables(self, session: Any = None) -> dict[str, jax.Array]:
        """The current values of :attr:`variable_names` in ``session`` (default:
        the default session), as copies the caller owns (they survive the
        session's close and later runs).

        Raises:
          ValueError: no session.
          FailedPreconditionError: a variable is not initialised.
        """
        sess = _session_for(session, self._sig.graph)
        if sess is None:
            raise ValueError("No session: pass session=... (or make one the default) to read variable values.")
        store: VariableStore = sess
        # The session's copy is its own (freed under its strategy): the caller gets another.
        return {v.name: jnp.array(store.read(v), copy=True) for v in self._reads}

    def __repr__(self) -> str:
        return f"<jaxsess.GraphFunction {self.__doc__}>"


def graph_function(fetches: Any, feed_list: Sequence[Any] = (), session: Any = None) -> GraphFunction:
    """The computation of ``fetches`` from ``feed_list`` as a pure JAX function.

    ``f = graph_function(loss, [x, y])`` gives ``f(variables, x_value,
    y_value, rng_counter=0)``, where ``variables`` maps variable names
    (``v.op.name``, see ``f.variable_names``) to arrays; ``f.variables(sess)``
    gives the session's current values. ``f`` is traceable: ``jax.jit(f)``,
    ``jax.grad(lambda vs: f(vs, x, y))(vs)`` (gradients with respect to the
    variables), ``jax.vmap(f, in_axes=(None, 0, 0))`` (a batch of feeds), or a
    call inside a Flax/Equinox model. ``f.apply`` also returns the variables
    after the graph's assignments (e.g. of a train op), so a training step is
    ``outputs, variables = f.apply(variables, ...)``.

    Args:
      fetches: as :meth:`Session.run`.
      feed_list: tensors (or names) whose values are the positional arguments.
      session: only checked: the session's graph must be the fetches' graph.

    Returns:
      A :class:`GraphFunction`.

    Raises:
      InvalidArgumentError: a placeholder the fetches need is not in ``feed_list``.
    """
    feed_list = list(feed_list)
    graph = _graph_of(fetches, feed_list)
    if session is not None:
        _session_for(session, graph)
    return GraphFunction(_Signature(graph, fetches, feed_list))
