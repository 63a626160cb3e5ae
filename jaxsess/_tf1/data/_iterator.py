"""Iterators over ``tf.data`` datasets, as ``tf.compat.v1.data.Iterator``.

``get_next()`` adds an ``IteratorGetNext`` host op; ``initializer`` /
``make_initializer(dataset)`` a ``MakeIterator`` host op whose inputs are the
tensors the dataset reads (placeholders fed at initialization). The
iterator's position is a host resource of the session that runs it.
"""

from __future__ import annotations

import itertools
import weakref
from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes, errors as errors
from jaxsess._core.graph._builder import apply_op, convert_to_tensor
from jaxsess._core.graph._graph import Operation, Tensor, get_default_graph
from jaxsess._core.graph._host import device_lowering, register_host
from jaxsess._core.graph._registry import register_op
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.data import _structure as nest

__all__ = ["Iterator"]

_IDS = itertools.count()


def _next_infer(specs: Any, attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    it = attrs["iterator"]
    return list(zip(it._shapes, it._types))


def _no_outputs(specs: Any, attrs: dict[str, Any]) -> list[Any]:
    return []


@register_op("IteratorGetNext", num_outputs=lambda attrs: len(attrs["iterator"]._types), infer=_next_infer,
             lowering=device_lowering, default_name="IteratorGetNext")
def _get_next_device(**attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("IteratorGetNext runs on the host")


@register_op("MakeIterator", num_outputs=0, infer=_no_outputs, lowering=device_lowering,
             default_name="MakeIterator")
def _make_iterator_device(*inputs: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("MakeIterator runs on the host")


def _start(ctx: Any, it: Iterator, dataset: Any, captured_values: dict[Tensor, Any]) -> None:
    from_run = dataset._run_context(captured_values, ctx)
    ctx.resources[it] = dataset._iter(from_run)


@register_host("MakeIterator", always=True, infer=_no_outputs)
def _host_make_iterator(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    ds = op.attrs["dataset"]
    _start(ctx, op.attrs["iterator"], ds, dict(zip(ds._captured, inputs)))
    return ()


def _handle_infer(specs: Any, attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape([]), _dtypes.string)]


@register_op("IteratorToStringHandle", num_outputs=1, infer=_handle_infer, lowering=device_lowering,
             default_name="IteratorToStringHandle")
def _to_handle_device(**attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("IteratorToStringHandle runs on the host")


_HANDLES: weakref.WeakValueDictionary[bytes, Iterator] = weakref.WeakValueDictionary()


@register_host("IteratorToStringHandle", always=True, infer=_handle_infer)
def _host_to_handle(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    it: Iterator = op.attrs["iterator"]
    _HANDLES[it._handle_name] = it
    return (np.asarray(it._handle_name, dtype=object),)


def _from_handle(op: Operation, feedable: Iterator, handle: Any) -> Iterator:
    """The iterator a handle names, checked against the feedable iterator's structure."""
    key = handle.item() if isinstance(handle, np.ndarray) else handle
    key = key.encode("utf-8") if isinstance(key, str) else bytes(key)
    it = _HANDLES.get(key)
    if it is None:
        raise errors.InvalidArgumentError(op.name, op, f"Could not find the iterator of string handle {key!r}: "
                                          "feed the value of an iterator's string_handle().")
    if it._types != feedable._types or any(not s.is_compatible_with(t) for s, t in zip(feedable._shapes,
                                                                                         it._shapes)):
        raise errors.InvalidArgumentError(
            op.name, op, f"Number of components does not match or types differ: expected {feedable.output_types} "
            f"{feedable.output_shapes}, the iterator of the handle has {it.output_types} {it.output_shapes}.")
    return it


@register_host("IteratorGetNext", always=True, infer=_next_infer)
def _host_get_next(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    it: Iterator = op.attrs["iterator"]
    if inputs:  # an iterator from_string_handle: the fed handle picks the iterator
        it = _from_handle(op, it, inputs[0])
    gen = ctx.resources.get(it)
    if gen is None:
        if it._one_shot is None:
            raise errors.FailedPreconditionError(
                op.name, op,
                "GetNext() failed because the iterator has not been initialized. Ensure that you have run the "
                "initializer operation for this iterator before getting the next element.",
            )
        _start(ctx, it, it._one_shot, {})
        gen = ctx.resources[it]
    try:
        element = next(gen)
    except StopIteration:
        ctx.resources[it] = iter(())
        raise errors.OutOfRangeError(op.name, op, f"End of sequence\n\t [[{{{{node {op.name}}}}}]]") from None
    out = []
    for v, d, s in zip(element, it._types, it._shapes):
        v = np.asarray(v, dtype=d.np_dtype) if d != _dtypes.string else np.asarray(v, dtype=object)
        if not s.is_compatible_with(TensorShape(v.shape)):
            raise errors.InvalidArgumentError(
                op.name, op, f"The iterator produced a component of shape {list(v.shape)}, expected {s}.")
        out.append(v)
    return tuple(out)


def _cardinality_infer(specs: Any, attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape([]), _dtypes.int64)]


@register_op("DatasetCardinality", num_outputs=1, infer=_cardinality_infer, lowering=device_lowering,
             default_name="DatasetCardinality")
def _cardinality_device(*inputs: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("DatasetCardinality runs on the host")


@register_host("DatasetCardinality", always=True, infer=_cardinality_infer)
def _host_cardinality(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    ds = op.attrs["dataset"]
    return (np.asarray(ds._cardinality(ds._run_context(dict(zip(ds._captured, inputs)), ctx)), np.int64),)


def _element_infer(specs: Any, attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    ds = attrs["dataset"]
    return list(zip(ds._shapes, ds._types))


def _host_values(op: Operation, element: list[Any], types: list[Any]) -> tuple[Any, ...]:
    return tuple(np.asarray(v, dtype=object) if d == _dtypes.string else np.asarray(v, dtype=d.np_dtype)
                 for v, d in zip(element, types))


@register_op("DatasetToSingleElement", num_outputs=lambda attrs: len(attrs["dataset"]._types),
             infer=_element_infer, lowering=device_lowering, default_name="DatasetToSingleElement")
def _single_device(*inputs: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("DatasetToSingleElement runs on the host")


@register_host("DatasetToSingleElement", always=True, infer=_element_infer)
def _host_single(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    ds = op.attrs["dataset"]
    elements = ds._iter(ds._run_context(dict(zip(ds._captured, inputs)), ctx))
    first = next(elements, None)
    if first is None:
        raise errors.InvalidArgumentError(op.name, op, "Dataset was empty.")
    if next(elements, None) is not None:
        raise errors.InvalidArgumentError(op.name, op, "Dataset had more than one element.")
    return _host_values(op, first, ds._types)


def _reduce_infer(specs: Any, attrs: dict[str, Any]) -> list[tuple[TensorShape, Any]]:
    return [(TensorShape(np.shape(v)), t) for v, t in zip(attrs["initial"], attrs["dataset"]._types)]


@register_op("ReduceDataset", num_outputs=lambda attrs: len(attrs["initial"]), infer=_reduce_infer,
             lowering=device_lowering, default_name="ReduceDataset")
def _reduce_device(*inputs: Any, **attrs: Any) -> Any:  # pragma: no cover - host only
    raise AssertionError("ReduceDataset runs on the host")


@register_host("ReduceDataset", always=True, infer=_reduce_infer)
def _host_reduce(ctx: Any, op: Operation, inputs: list[Any]) -> tuple[Any, ...]:
    # ``dataset`` scans the reduce function, each element its new state: the last one is the result
    ds = op.attrs["dataset"]
    last = list(op.attrs["initial"])
    for last in ds._iter(ds._run_context(dict(zip(ds._captured, inputs)), ctx)):  # noqa: B007 - the last one
        pass
    return _host_values(op, last, ds._types)


class Iterator(nest.ElementSpec):
    """An iterator over a dataset's elements, as ``tf.compat.v1.data.Iterator``.

    Attributes:
      output_types, output_shapes, output_classes: the element structure.
    """

    def __init__(self, structure: Any, types: list[_dtypes.DType], shapes: list[TensorShape],
                 one_shot: Any = None) -> None:
        self._structure = structure
        self._types = types
        self._shapes = shapes
        self._one_shot = one_shot
        self._initializer: Operation | None = None
        self._handle: Tensor | None = None  # from_string_handle: the tensor naming the iterator to read
        self._handle_name = f"jaxsess-iterator-{next(_IDS)}".encode()

    @classmethod
    def from_dataset(cls, dataset: Any, one_shot: bool) -> Iterator:
        """An iterator over ``dataset`` (one-shot: initialized on first use).

        Raises:
          ValueError: a one-shot iterator over a dataset that reads
            non-constant tensors.
        """
        if one_shot and dataset._captured:
            raise ValueError(
                f"Failed to capture resource: a one-shot iterator cannot read the tensor "
                f"{dataset._captured[0].name!r}; use make_initializable_iterator() and feed it when running "
                "iterator.initializer."
            )
        it = cls(dataset._structure, list(dataset._types), list(dataset._shapes), dataset if one_shot else None)
        if not one_shot:
            it._initializer = it.make_initializer(dataset)
        return it

    @staticmethod
    def from_structure(output_types: Any, output_shapes: Any = None, shared_name: str | None = None,
                       output_classes: Any = None) -> Iterator:
        """An uninitialized iterator for elements of this structure, to bind to
        datasets with :meth:`make_initializer`, as ``Iterator.from_structure``."""
        types = [_dtypes.canonical(t) for t in nest.flatten(output_types)]
        shapes = ([TensorShape(None)] * len(types) if output_shapes is None
                  else [TensorShape(s) for s in _flatten_shapes(output_types, output_shapes)])
        return Iterator(nest.map_structure(lambda _: None, output_types), types, shapes)

    @staticmethod
    def from_string_handle(string_handle: Any, output_types: Any, output_shapes: Any = None,
                           output_classes: Any = None) -> Iterator:
        """A feedable iterator: each run reads the iterator whose
        :meth:`string_handle` value is fed to ``string_handle`` (a string
        scalar placeholder), as ``Iterator.from_string_handle``.

        Raises (when run):
          InvalidArgumentError: the handle names no iterator, or one whose
            element types or shapes differ.
        """
        it = Iterator.from_structure(output_types, output_shapes)
        it._handle = convert_to_tensor(string_handle)
        if it._handle.dtype != _dtypes.string:
            raise TypeError(f"string_handle must be a tf.string tensor, got {it._handle.dtype.name}.")
        return it

    def string_handle(self, name: str | None = None) -> Tensor:
        """A string scalar naming this iterator, to feed to an iterator made by
        :meth:`from_string_handle`, as ``Iterator.string_handle``."""
        return apply_op("IteratorToStringHandle", [], {"iterator": self}, name=name)  # type: ignore[no-any-return]

    @property
    def initializer(self) -> Operation:
        """The op (re)starting the iterator at the first element.

        Raises:
          ValueError: a one-shot iterator or one made by ``from_structure``.
        """
        if self._initializer is None:
            raise ValueError(
                "The iterator does not have an initializer. This means it was likely created using "
                "`tf.data.Dataset.make_one_shot_iterator()`. For an initializable iterator, use "
                "`tf.data.Dataset.make_initializable_iterator()` instead.")
        return self._initializer

    def make_initializer(self, dataset: Any, name: str | None = None) -> Operation:
        """An op that starts this iterator over ``dataset``.

        Raises:
          TypeError: the dataset's element types differ from the iterator's.
        """
        if list(dataset._types) != self._types:
            raise TypeError(
                f"Expected output types {self.output_types} but got dataset with output types "
                f"{dataset.output_types}."
            )
        for s, t in zip(self._shapes, dataset._shapes):
            if not s.is_compatible_with(t):
                raise TypeError(f"Expected output shapes compatible with {self.output_shapes} but got dataset "
                                f"with output shapes {dataset.output_shapes}.")
        graph = get_default_graph()
        with graph.as_default():
            op = apply_op("MakeIterator", list(dataset._captured), {"iterator": self, "dataset": dataset},
                          name=name)
        return op  # type: ignore[no-any-return]

    def get_next(self, name: str | None = None) -> Any:
        """The next element as tensors (the iterator's structure). Each run that
        needs them advances the iterator.

        Raises (when run):
          OutOfRangeError: the dataset is exhausted ("End of sequence").
          FailedPreconditionError: an initializable iterator not initialized.
        """
        inputs = [] if self._handle is None else [self._handle]
        outs = apply_op("IteratorGetNext", inputs, {"iterator": self}, name=name)
        if not isinstance(outs, list):
            outs = [outs]
        return nest.pack(self._structure, outs)


def _flatten_shapes(types: Any, shapes: Any) -> list[Any]:
    if isinstance(types, dict):
        return [s for k in sorted(types) for s in _flatten_shapes(types[k], shapes[k])]
    if isinstance(types, tuple | list):
        return [s for t, sh in zip(types, shapes) for s in _flatten_shapes(t, sh)]
    return [shapes]
