"""Fetch and feed handling of the graph session, written once.

``Session.run``, ``Session.make_callable``, ``Session.lower``, the host pass
(``_host_run``) and :mod:`jaxsess._tf1.export` all resolve fetch structures and
feeds here, with the semantics and error classes of
``tf.compat.v1.Session.run``:

* :class:`Fetches` flattens a fetch structure (tensors, operations, names,
  nested lists, tuples, namedtuples, dicts) to unique graph elements and
  rebuilds it from their values;
* :func:`feed_items` / :func:`feed_keys` resolve ``feed_dict`` keys (tensors,
  names, variables) against a graph; :func:`feed_value` converts and checks
  one fed value;
* :func:`to_host` / :func:`host_value` are the host copies ``run`` returns.
"""

from __future__ import annotations

import functools
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeGuard, cast

import jax
import numpy as np

from jaxsess._core.graph._graph import Graph, Operation, Tensor
from jaxsess._core.graph._sparse import SHAPE_CARRIERS, SparseTensor, SparseTensorValue
from jaxsess._core.types import (
    ArrayLike,
    FeedDict,
    FeedKey,
    FeedValue,
    FetchStructure,
    GraphElementLike,
    HostArray,
)

__all__ = [
    "Fetches",
    "feed_items",
    "feed_key",
    "feed_keys",
    "feed_value",
    "has_sparse_keys",
    "host_value",
    "not_a_mapping",
    "sparse_callable",
    "sparse_feeds",
    "sparse_parts",
    "other_graph_feed",
    "split_leaves",
    "to_host",
]


def _is_namedtuple(x: object) -> TypeGuard[tuple[FetchStructure, ...]]:
    return isinstance(x, tuple) and hasattr(x, "_fields")


class Fetches:
    """A fetch structure flattened to unique graph elements, and its rebuild.

    Attributes:
      leaves: the unique ``Tensor``s and ``Operation``s, in first-seen order.
      rebuild: ``rebuild(values)`` gives the fetch structure with each leaf
        replaced by ``values[i]`` (``values`` indexed as ``leaves``).

    Raises:
      TypeError: a ``None`` fetch, or one that is not a tensor, operation or name.
      ValueError: a name not in the graph, or an element of another graph.
    """

    __slots__ = ("leaves", "rebuild")

    def __init__(self, graph: Graph, fetches: FetchStructure) -> None:
        leaves: list[Any] = []
        index: dict[Any, int] = {}

        def elem(x: object) -> int:
            if x is None:
                raise TypeError('Argument `fetch` = None has invalid type "NoneType". Cannot be None')
            try:
                e = graph.as_graph_element(cast("GraphElementLike", x))  # anything else: TypeError
            except TypeError:
                raise TypeError(
                    f'Argument `fetch` = {x!s:.80} has invalid type "{type(x).__name__}" must be a string or '
                    "Tensor. (Can not convert a " + type(x).__name__ + " into a Tensor or Operation.)"
                ) from None
            except KeyError as err:  # as TF1: a name not in the graph is a ValueError
                raise ValueError(
                    f"Argument `fetch` = {x!s:.80} cannot be interpreted as a Tensor. ({err})"
                ) from None
            except ValueError as err:
                raise ValueError(
                    f"Argument `fetch` = {x!s:.80} cannot be interpreted as a Tensor. ({err})"
                ) from None
            i = index.get(e)
            if i is None:
                i = index[e] = len(leaves)
                leaves.append(e)
            return i

        def build(x: FetchStructure) -> Callable[[Sequence[Any]], Any]:
            if isinstance(x, list):
                parts = [build(v) for v in x]
                return lambda vals: [p(vals) for p in parts]
            if _is_namedtuple(x):
                parts = [build(v) for v in x]
                make: Callable[..., Any] = type(x)
                return lambda vals: make(*[p(vals) for p in parts])
            if isinstance(x, tuple):
                parts = [build(v) for v in x]
                return lambda vals: tuple(p(vals) for p in parts)
            if isinstance(x, Mapping):
                items = [(k, build(v)) for k, v in x.items()]
                cls: Callable[..., Any] = type(x)
                if cls in (dict, OrderedDict):
                    return lambda vals: cls((k, p(vals)) for k, p in items)
                if isinstance(x, defaultdict):  # as TF1: keep the default factory
                    factory = x.default_factory
                    return lambda vals: cls(factory, ((k, p(vals)) for k, p in items))
                return lambda vals: cls({k: p(vals) for k, p in items})
            if type(x) is SparseTensor:  # as TF1: fetched as a SparseTensorValue of host arrays
                sparts = [build(x.indices), build(x.values), build(x.dense_shape)]
                return lambda vals: SparseTensorValue(*[p(vals) for p in sparts])
            i = elem(x)
            return lambda vals: vals[i]

        self.rebuild = build(fetches)
        self.leaves = leaves


def split_leaves(leaves: Iterable[Any]) -> tuple[list[Tensor], list[Operation], list[int | None]]:
    """Fetch leaves split into the tensors a plan computes and the operations
    it runs as targets.

    Returns:
      ``(tensors, targets, positions)``: ``positions[i]`` is the index in
      ``tensors`` of leaf ``i``, or ``None`` for an operation (fetched as ``None``).
    """
    tensors: list[Tensor] = []
    targets: list[Operation] = []
    positions: list[int | None] = []
    for e in leaves:
        if isinstance(e, Tensor):
            positions.append(len(tensors))
            tensors.append(e)
        else:
            positions.append(None)
            targets.append(e)
    return tensors, targets, positions


def not_a_mapping(feed_dict: object) -> TypeError:
    """TF1's error for a ``feed_dict`` that is not a mapping (a list of pairs, a set...)."""
    # As TF1 (nest.flatten_dict_items).
    return TypeError(
        "feed_dict must be a dictionary or collections.abc.Mapping type object ({tensor: value}), "
        f"instead of {type(feed_dict).__name__!r}."
    )


def other_graph_feed(t: Tensor) -> Exception:
    """TF1's error for a feed key of another graph (a ``TypeError``, as TF)."""
    return TypeError(f"Cannot interpret feed_dict key as Tensor: Tensor {t} is not an element of this graph.")


def feed_key(graph: Graph, k: object, foreign: Callable[[Tensor], Exception] = other_graph_feed) -> Tensor:
    """The tensor a feed key names: a ``Tensor``, a name (``'x:0'``) or an
    object with ``_as_graph_element`` (a ``tf.Variable``), as TF1.

    Raises:
      TypeError: the key is not a tensor (TF1's message).
      ``foreign(tensor)``: a tensor of another graph (default: TF1's ``TypeError``).
    """
    if isinstance(k, str):
        try:
            e = graph.as_graph_element(k, allow_operation=False)
        except (KeyError, ValueError) as err:
            raise TypeError(f"Cannot interpret feed_dict key as Tensor: {err}") from None
        return cast(Tensor, e)  # allow_operation=False: a tensor
    conv = getattr(k, "_as_graph_element", None)
    if conv is not None and not isinstance(k, Tensor):
        k = conv()
    if not isinstance(k, Tensor):
        raise TypeError(f"Cannot interpret feed_dict key as Tensor: Can not convert a {type(k).__name__} into a Tensor.")
    if k._op._graph is not graph:
        raise foreign(k)
    return k


def feed_keys(
    graph: Graph, keys: Iterable[Any], foreign: Callable[[Tensor], Exception] = other_graph_feed
) -> list[Tensor]:
    """:func:`feed_key` of each key, in order (a ``feed_list``)."""
    return [k if type(k) is Tensor and k._op._graph is graph else feed_key(graph, k, foreign) for k in keys]


def feed_items(graph: Graph, feed_dict: FeedDict | None) -> tuple[list[Tensor], list[Any]]:
    """A ``feed_dict`` resolved against ``graph``: its tensors and their
    (unconverted) values, in the mapping's order.

    Raises:
      TypeError: ``feed_dict`` is not a mapping, or a key is not a tensor of ``graph``.
    """
    if not feed_dict:  # as TF1: None, {} and other empty values feed nothing
        return [], []
    if type(feed_dict) is not dict and not isinstance(feed_dict, Mapping):
        raise not_a_mapping(feed_dict)
    if any(type(k) is not Tensor for k in feed_dict) and any(isinstance(k, tuple) for k in feed_dict):
        feed_dict = dict(zip(*_flatten_feed_dict(feed_dict), strict=True))
    if has_sparse_keys(feed_dict):
        feed_dict = sparse_feeds(feed_dict)
    return feed_keys(graph, feed_dict.keys()), list(feed_dict.values())


def _flatten_nest(x: Any) -> list[Any]:
    # As TF's ``nest.flatten`` for what a feed holds: lists, tuples
    # (namedtuples included) and dicts (by sorted key) nest; all else is a leaf.
    if isinstance(x, (list, tuple)):
        return [leaf for e in x for leaf in _flatten_nest(e)]
    if isinstance(x, dict):
        return [leaf for k in sorted(x) for leaf in _flatten_nest(x[k])]
    return [x]


def _flatten_feed_dict(feed_dict: Mapping[Any, Any]) -> tuple[list[Any], list[Any]]:
    """A ``feed_dict`` whose keys may be nested tuples of tensors (an RNN's
    ``LSTMStateTuple`` state), each fed with a value of the same structure,
    flattened to one key per tensor, as TF's ``nest.flatten_dict_items`` in
    ``tf.compat.v1.Session.run``.

    Raises:
      ValueError: a key and its value have different numbers of elements, or a
        tensor is a key twice (TF's messages).
    """
    keys: list[Any] = []
    values: list[Any] = []
    seen: set[Any] = set()
    for k, v in feed_dict.items():
        if isinstance(k, tuple):
            flat_k, flat_v = _flatten_nest(k), _flatten_nest(v)
            if len(flat_k) != len(flat_v):
                raise ValueError(
                    f"Could not flatten dictionary. Key had {len(flat_k)} elements, but value had "
                    f"{len(flat_v)} elements. Key: {flat_k}, value: {flat_v}."
                )
        else:
            flat_k, flat_v = [k], [v]
        for fk, fv in zip(flat_k, flat_v, strict=True):
            if fk in seen:
                raise ValueError(f"Cannot flatten dict because this key is not unique: {fk}")
            seen.add(fk)
            keys.append(fk)
            values.append(fv)
    return keys, values


def has_sparse_keys(feed_dict: Mapping[Any, Any]) -> bool:
    """Whether ``feed_dict`` feeds a ``SparseTensor`` or the ``dense_shape`` of a
    ``sparse_placeholder`` without a full shape (see :func:`sparse_feeds`)."""
    carriers = SHAPE_CARRIERS
    for k in feed_dict:
        t = type(k)
        if t is SparseTensor or (t is Tensor and carriers and k in carriers):
            return True
    return False


def sparse_parts(sp: SparseTensor) -> list[Tensor]:
    """The tensors a fed ``SparseTensor`` feeds, in :func:`sparse_feeds`' order:
    ``indices``, ``values``, and ``dense_shape`` (or the empty array whose shape
    carries it, for a ``sparse_placeholder`` without a full shape)."""
    return [sp.indices, sp.values, sp.dense_shape if sp._shape_carrier is None else sp._shape_carrier]


def sparse_callable(make: Callable[..., Callable[..., Any]], fetches: FetchStructure, feed_list: Sequence[FeedKey],
                    *args: object) -> Callable[..., Any]:
    """``make(fetches, feed_list, *args)`` (``Session.make_callable``) for a
    ``feed_list`` holding ``SparseTensor``s: the callable takes one
    ``SparseTensorValue`` (or triple) for each, as TF1.

    Raises:
      TypeError: the callable is called with the wrong number of arguments.
    """
    flat = [t for k in feed_list for t in (sparse_parts(k) if type(k) is SparseTensor else [k])]
    inner = make(fetches, flat, *args)
    n = len(feed_list)

    def call(*values: FeedValue) -> Any:
        if len(values) != n:
            raise TypeError(f"Callable takes {n} feed value(s), got {len(values)}.")
        vals: list[Any] = []
        for k, v in zip(feed_list, values, strict=True):
            if type(k) is SparseTensor:
                vals.extend(sparse_feeds({k: v}).values())
            else:
                vals.append(v)
        return inner(*vals)

    return call


def _carrier_value(dense_shape: Any, name: str) -> np.ndarray:
    try:
        dims = [int(d) for d in np.asarray(dense_shape).reshape(-1)]
        return np.zeros((*dims, 0), np.bool_)
    except (TypeError, ValueError) as e:
        raise ValueError(f"Cannot feed dense_shape {dense_shape!r:.80} for {name}: {e}") from None


def sparse_feeds(feed_dict: Mapping[Any, Any]) -> dict[Any, Any]:
    """``feed_dict`` with each ``SparseTensor`` key replaced by its three
    tensors, fed from a ``SparseTensorValue`` or an ``(indices, values,
    dense_shape)`` tuple, as TF1.

    Raises:
      TypeError: the value of a ``SparseTensor`` key is not such a triple.
    """
    out: dict[Any, Any] = {}
    for k, v in feed_dict.items():
        if type(k) is Tensor and k in SHAPE_CARRIERS:  # a dense_shape fed as the shape of an empty array
            out[SHAPE_CARRIERS[k]] = _carrier_value(v, k.name)
            continue
        if type(k) is not SparseTensor:
            out[k] = v
            continue
        if not isinstance(v, SparseTensorValue | tuple | list) or len(v) != 3:
            raise TypeError(
                f"The value fed to the SparseTensor with values {k.values.name} must be a SparseTensorValue "
                f"or an (indices, values, dense_shape) tuple, got {type(v).__name__}."
            )
        out[k.indices], out[k.values] = v[0], v[1]
        carrier = k._shape_carrier
        if carrier is None:
            out[k.dense_shape] = v[2]
        else:  # the dense shape as the shape of an empty array (see sparse_placeholder)
            out[carrier] = _carrier_value(v[2], k.dense_shape.name)
        static = k.shape.as_tuple()
        if static is not None:
            try:
                fed = tuple(int(d) for d in np.asarray(v[2]).reshape(-1))
            except (TypeError, ValueError):
                continue  # feed_value reports it
            if len(fed) != len(static) or any(d is not None and d != f for d, f in zip(static, fed, strict=False)):
                # the ops read the static shape when the graph is built; another fed shape would be ignored
                raise ValueError(
                    f"Cannot feed dense_shape {list(fed)} for the SparseTensor with values {k.values.name}, "
                    f"whose dense shape is {k.shape} when the graph is built."
                )
    return out


def check_unique(feeds: Sequence[Tensor]) -> None:
    """Raises ``ValueError`` naming a tensor that is fed more than once."""
    if len(set(feeds)) != len(feeds):
        seen: set[Tensor] = set()
        for t in feeds:
            if t in seen:
                raise ValueError(f"Tensor {t.name} is fed more than once.")
            seen.add(t)


def feeds_fit_spec(feeds: Sequence[Tensor]) -> tuple[tuple[np.dtype[Any], tuple[int | None, ...]], ...] | None:
    """What :func:`feeds_fit` checks, as data for the C hot path
    (``jaxsess._core.runtime._hot``): ``(dtype, dims)`` per feed when every fed tensor's
    rank is known (a fitting value is a ``numpy.ndarray`` of exactly that
    dtype object, of that rank, with each dimension that is not ``None``),
    else ``None`` (the predicate decides)."""
    dims = tuple(t._shape._dims for t in feeds)
    if any(d is None for d in dims):
        return None
    return tuple((t._dtype._np, tuple(d)) for t, d in zip(feeds, dims, strict=True))  # type: ignore[arg-type]


def feeds_fit(feeds: Sequence[Tensor]) -> Callable[[Sequence[Any]], bool]:
    """A predicate over the values fed to ``feeds`` (in that order): whether
    each is a ``numpy.ndarray`` of its tensor's dtype whose shape fits the
    tensor's static shape, so that it needs no conversion or check (the hot
    path of a cached plan; anything else goes through :func:`feed_value`).

    Fully known shapes of up to three feeds get an unrolled predicate: a
    ``Session.run`` cache hit spends about 0.2 us on it, against 0.6 us for
    the general loop, which also handles ``None`` dimensions.
    """
    nd = np.ndarray
    wants = tuple(t._dtype._np for t in feeds)
    dims = tuple(t._shape._dims for t in feeds)
    if all(d is not None and None not in d for d in dims):
        if not feeds:
            return _always
        if len(feeds) == 1:
            (w0,), (d0,) = wants, dims

            def fit1(values: Sequence[Any]) -> bool:
                (a,) = values
                return type(a) is nd and a.dtype is w0 and a.shape == d0

            return fit1
        if len(feeds) == 2:
            (w0, w1), (d0, d1) = wants, dims

            def fit2(values: Sequence[Any]) -> bool:
                a, b = values
                return (
                    type(a) is nd and type(b) is nd and a.dtype is w0 and b.dtype is w1
                    and a.shape == d0 and b.shape == d1
                )

            return fit2
        if len(feeds) == 3:
            (w0, w1, w2), (d0, d1, d2) = wants, dims

            def fit3(values: Sequence[Any]) -> bool:
                a, b, c = values
                return (
                    type(a) is nd and type(b) is nd and type(c) is nd
                    and a.dtype is w0 and b.dtype is w1 and c.dtype is w2
                    and a.shape == d0 and b.shape == d1 and c.shape == d2
                )

            return fit3
    # rank (None: any) and the known dimensions (index, size) of each feed
    ranks = tuple(None if d is None else len(d) for d in dims)
    known = tuple(() if d is None else tuple((i, n) for i, n in enumerate(d) if n is not None) for d in dims)

    def fit(values: Sequence[Any]) -> bool:
        for v, w, r, kn in zip(values, wants, ranks, known, strict=False):
            if type(v) is not nd or v.dtype is not w:
                return False
            if r is not None:
                s = v.shape
                if len(s) != r:
                    return False
                for i, n in kn:
                    if s[i] != n:
                        return False
        return True

    return fit


def _always(values: Sequence[Any]) -> bool:
    return True


def feed_values(feeds: Sequence[Tensor], values: Sequence[Any]) -> list[Any]:
    """:func:`feed_value` of each value for its tensor of ``feeds``."""
    return [feed_value(t, v) for t, v in zip(feeds, values, strict=False)]


def feed_value(t: Tensor, value: object) -> jax.Array | HostArray:
    """Converts one feed value for ``t``, as TF1 (``np.asarray(v, dtype)``);
    a ``jax.Array`` stays on its device (cast when its dtype differs).

    Raises:
      TypeError: ``value`` is a graph tensor, or of a type that cannot be
        converted (NumPy's ``TypeError``, as TF1).
      ValueError: its shape does not fit ``t``'s static shape, or its
        elements cannot be converted (a string for a number, a ragged list,
        NaN or an out-of-range integer for an integer tensor).
    """
    want = t._dtype._np
    arr: jax.Array | HostArray
    if type(value) is np.ndarray and (value.dtype is want or value.dtype == want):
        if value.shape == t._shape._dims:  # the common case: nothing to convert or check
            return value
        arr = value
        shape = arr.shape
    elif isinstance(value, jax.Array):
        arr = value if value.dtype == want else value.astype(want)
        shape = arr.shape
    else:
        if isinstance(value, Tensor | Operation) or hasattr(value, "_as_graph_element"):  # a tf.Variable too
            raise TypeError(
                "The value of a feed cannot be a tf.Tensor object. Acceptable feed values include "
                f"Python scalars, strings, lists, numpy ndarrays, or TensorHandles. (feed for {t.name})"
            )
        try:
            arr = np.asarray(value, dtype=want)
        except (TypeError, ValueError, OverflowError) as e:  # NumPy's class, as TF1 (overflow: ValueError)
            raise (TypeError if isinstance(e, TypeError) else ValueError)(
                f"Cannot interpret feed_dict key as Tensor value for {t.name}: cannot convert "
                f"{type(value).__name__} to {t.dtype.name} ({e})"
            ) from None
        shape = arr.shape
    static = t.shape.as_tuple()
    if static is not None and (
        len(static) != len(shape) or any(d is not None and d != s for d, s in zip(static, shape, strict=False))
    ):
        raise ValueError(
            f"Cannot feed value of shape {tuple(shape)} for Tensor {t.name}, which has shape "
            f"{t.shape}"
        )
    return arr


def host_value(v: ArrayLike) -> HostArray | np.generic | bytes:
    """The host value of one device result, as ``tf.compat.v1.Session.run``
    returns it: a writable ``numpy.ndarray`` that belongs to the caller, a
    NumPy scalar (``np.float32``, ``np.bool_``, ...) for a 0-d result, and
    ``bytes`` (a serialized ``Summary``, a string scalar) unchanged."""
    if type(v) is bytes:
        return v
    a = np.array(v)
    return a if a.ndim else a[()]


@functools.cache
def _async_host_copies() -> bool:
    """Whether :func:`to_host` starts every device-to-host copy before it
    waits on the first: in a process with an accelerator. On CPU a device
    buffer is host memory and there is no transfer to overlap, while
    ``copy_to_host_async`` of a fresh result costs more than the copy itself
    (29 against 11 µs for a scalar with ``np.array``, jax 0.10.2)."""
    return any(d.platform != "cpu" for d in jax.devices())


def to_host(out: Sequence[Any]) -> list[Any]:
    """:func:`host_value` of each of a run's device results.

    On an accelerator every device-to-host copy is started before the first
    is waited on (see :func:`_async_host_copies`). The device arrays are not
    kept: once the caller drops ``out`` the intermediate buffers are freed
    (state and fed arrays are never deleted here; they are only copied).
    """
    if _async_host_copies():
        for v in out:
            if isinstance(v, jax.Array):
                v.copy_to_host_async()
    return [host_value(v) for v in out]
