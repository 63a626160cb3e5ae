"""``tf.data.Dataset`` for TF1 graphs: input pipelines that run on the host.

A dataset is a recipe of host transformations over NumPy elements. Its
iterator's ``get_next()`` is a host op: each ``Session.run`` that needs it
pulls the next element on the host and feeds it to the device plan (see
:mod:`jaxsess._core.runtime._host_run`), so a training loop compiles once. Functions given
to ``map``/``filter`` are traced once into a private graph and compiled; each
element is one call of that compiled function.

Semantics follow ``tf.compat.v1.data`` (``shuffle`` with a graph or op seed
gives TF's order: TF's seeds, Philox streams and buffer algorithm) with these
differences: a tensor of the
enclosing graph that a dataset function reads (a placeholder, a variable) is
read once, when the iterator starts (TF reads a variable at each element),
and a one-shot iterator cannot read one (as TF); ``num_parallel_calls``,
``prefetch``, ``cache`` and ``with_options`` are accepted and change
nothing; ``ignore_errors`` ends the dataset at its first error (TF skips
the failing element).
"""

from __future__ import annotations

import glob as _glob
import os
import random as _pyrandom
from collections.abc import Callable, Iterator as PyIterator, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxsess._core import dtypes as _dtypes, errors as errors
from jaxsess._core.graph._builder import apply_op, constant_value, convert_to_tensor, placeholder, to_numpy
from jaxsess._core.graph._graph import Graph, Tensor, get_default_graph
from jaxsess._core.graph._host import host_impl, is_host_op
from jaxsess._core.graph._lowering import Slot, prune, rng_slot
from jaxsess._core.graph._plan import build_plan
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.data import _structure as nest
from jaxsess._tf1.data._iterator import Iterator
from jaxsess._tf1.data._options import Options
from jaxsess._tf1.ops._philox import HostPhilox
from jaxsess._tf1.ops.random_ops import get_seed

__all__ = ["Dataset", "AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "RunContext", "group_by_window", "bucket_by_sequence_length"]

AUTOTUNE = -1
INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2
Element = list[Any]  # the flat components of one element (arrays; lists of arrays in a window)


class RunContext:
    """One iterator initialization: the values of the captured tensors and
    per-dataset epoch counters (``shuffle`` reshuffles each epoch)."""

    def __init__(self, captured: dict[Tensor, Any], host: Any = None) -> None:
        self.captured = captured
        self.host = host  # the session's host context (its tables), for host ops in dataset functions
        self.epochs: dict[int, int] = {}
        # dataset functions -> their random ops' counters: each initialization starts the
        # streams anew, as TF instantiates the functions' kernels per iterator
        self.rng_counters: dict[int, dict[Any, int]] = {}

    def next_epoch(self, ds: Dataset) -> int:
        n = self.epochs.get(id(ds), 0)
        self.epochs[id(ds)] = n + 1
        return n


def _component(value: Any, what: str) -> tuple[Any, _dtypes.DType, TensorShape]:
    """A leaf of a source: ``(numpy value or captured Tensor, dtype, shape)``."""
    if isinstance(value, Tensor) or hasattr(value, "_as_graph_element"):
        t = convert_to_tensor(value)
        c = constant_value(t)
        if c is None:
            return t, t.dtype, t.shape
        value = c
    if isinstance(value, jax.Array):
        value = np.asarray(value)
    arr = to_numpy(value, None)
    d = _dtypes.canonical(_dtypes.as_dtype(arr.dtype)) if arr.dtype != object else _dtypes.string
    if arr.dtype != object:
        arr = arr.astype(d.np_dtype, copy=False)
    return arr, d, TensorShape(arr.shape)


class Dataset(nest.ElementSpec):
    """A sequence of elements, as ``tf.compat.v1.data.Dataset``.

    Attributes:
      output_types, output_shapes: the element structure with a ``DType`` /
        ``TensorShape`` per component (as TF1).
      output_classes: the structure with ``Tensor`` per component.
    """

    def __init__(self, structure: Any, types: Sequence[_dtypes.DType], shapes: Sequence[TensorShape],
                 captured: Sequence[Tensor] = ()) -> None:
        self._structure = structure
        self._types = list(types)
        self._shapes = [TensorShape(s) for s in shapes]
        self._captured = list(captured)
        self._nested = False  # True: each component of an element is a dataset (``window``)

    # Element spec (output_types/output_shapes/output_classes): nest.ElementSpec.

    def _iter(self, run: RunContext) -> PyIterator[Element]:  # pragma: no cover - abstract
        raise NotImplementedError

    def _iter_chunks(self, run: RunContext) -> PyIterator[Element]:
        """Elements in chunks (each component with a leading chunk dimension):
        one element per chunk unless a source can do better (``batch`` uses it)."""
        for el in self._iter(run):
            yield [np.asarray(v)[None] for v in el]

    def _run_context(self, captured: dict[Tensor, Any], host: Any = None) -> RunContext:
        return RunContext(captured, host)

    def _cardinality(self, run: RunContext) -> int:
        """The number of elements as TF's ``DatasetCardinality`` counts them
        without iterating: ``INFINITE`` (-1), ``UNKNOWN`` (-2), or a count.
        Unknown unless a transformation says otherwise (as TF's ``map`` and
        ``filter`` of ``tf.compat.v1``)."""
        return UNKNOWN_CARDINALITY

    def __repr__(self) -> str:
        return f"<{type(self).__name__} shapes: {self.output_shapes}, types: {self.output_types}>"

    # -- sources -------------------------------------------------------------------------

    @staticmethod
    def from_tensor_slices(tensors: Any) -> Dataset:
        """One element per slice of the first dimension of every component, as
        ``Dataset.from_tensor_slices``.

        Args:
          tensors: a NumPy array, list, tensor, or a tuple/dict of them, all
            with the same first dimension. A tensor that is not a constant
            (a placeholder) is read when an initializable iterator is
            initialized (feed it then).

        Raises:
          ValueError: components with different first dimensions, or a scalar.
        """
        return _Slices(tensors, slices=True)

    @staticmethod
    def from_tensors(tensors: Any) -> Dataset:
        """A single element holding ``tensors``, as ``Dataset.from_tensors``."""
        return _Slices(tensors, slices=False)

    @staticmethod
    def from_generator(generator: Callable[..., Any], output_types: Any, output_shapes: Any = None,
                       args: Any = None) -> Dataset:
        """The elements a Python generator yields, as ``Dataset.from_generator``.

        Args:
          generator: a callable returning an iterator (called again for each
            pass, with ``args``).
          output_types: the element structure with a dtype per component.
          output_shapes: the same structure with shapes (default unknown).

        Raises (when iterated):
          TypeError / ValueError: an element that does not fit the types or shapes.
        """
        return _Generator(generator, output_types, output_shapes, tuple(args or ()))

    @staticmethod
    def list_files(file_pattern: str | Sequence[str], shuffle: bool | None = None, seed: int | None = None) -> Dataset:
        """The names of the files matching glob patterns, as ``Dataset.list_files``:
        string scalars, matched when each pass over the dataset starts.

        Args:
          file_pattern: a pattern or a list of patterns (Python strings).
          shuffle: shuffle the names (the default, as TF: a ``shuffle`` with a
            buffer holding all of them; each pass anew); ``False``: sorted.
          seed: the shuffle's seed (with a graph seed or ``seed``, TF's order).

        No matching file gives an empty dataset (``OutOfRangeError`` at the
        first ``get_next``), as TF 2.21's graph mode does.
        """
        patterns = [file_pattern] if isinstance(file_pattern, str | bytes) else list(file_pattern)
        patterns = [p.decode("utf-8") if isinstance(p, bytes) else str(p) for p in patterns]

        def names() -> PyIterator[bytes]:
            found = sorted({n for p in patterns for n in _glob.glob(p)})  # none: empty, as TF 2.21 in graph mode
            yield from (n.encode("utf-8") for n in found)

        files = _Generator(names, _dtypes.string, TensorShape([]), ())
        if shuffle is None or shuffle:
            return _Shuffle(files, None, seed, True)
        return files

    @staticmethod
    def range(*args: Any, output_type: Any = _dtypes.int64, name: str | None = None) -> Dataset:  # noqa: A003
        """``start, stop, step`` (ints or int scalar tensors) as Python's
        ``range``, ``output_type`` (int64) elements, as ``Dataset.range``."""
        return _Range(*args, output_type=output_type)

    @staticmethod
    def zip(datasets: Any) -> Dataset:  # noqa: A003 - TF's name
        """Elements of several datasets side by side (a tuple or dict of
        datasets), ending with the shortest, as ``Dataset.zip``."""
        return _Zip(datasets)

    # -- transformations --------------------------------------------------------------------

    def map(self, map_func: Callable[..., Any], num_parallel_calls: Any = None, deterministic: Any = None,
            name: str | None = None) -> Dataset:
        """``map_func`` applied to each element, as ``Dataset.map``.

        ``map_func`` gets a tuple element's components as positional
        arguments, any other element as one argument; it is traced once
        into a private graph of placeholders and compiled. String components
        and the host ops that read them (``parse_single_example``,
        ``decode_csv``...) run on the host before the compiled part.

        Raises:
          NotImplementedError: the function reads variables, or a host op in
            it reads a value computed on the device.
        """
        return _Map(self, map_func)

    def filter(self, predicate: Callable[..., Any], name: str | None = None) -> Dataset:
        """The elements for which ``predicate`` (a scalar bool tensor function,
        traced as :meth:`map`) is true, as ``Dataset.filter``."""
        return _Filter(self, predicate)

    def batch(self, batch_size: int, drop_remainder: bool = False, num_parallel_calls: Any = None,
              deterministic: Any = None, name: str | None = None) -> Dataset:
        """Consecutive elements stacked into batches, as ``Dataset.batch``.

        The last batch is smaller unless ``drop_remainder``; the batch
        dimension is ``batch_size`` when ``drop_remainder`` else unknown.

        Raises:
          ValueError: ``batch_size`` < 1.
        """
        return _Batch(self, _count(batch_size), bool(drop_remainder))

    def shuffle(self, buffer_size: int, seed: int | None = None, reshuffle_each_iteration: bool | None = None,
                name: str | None = None) -> Dataset:
        """Elements drawn at random from a buffer of ``buffer_size``, as
        ``Dataset.shuffle``: with a graph seed (``set_random_seed``) or ``seed``,
        TF's order (TF's seeds, Philox streams and buffer algorithm). Each epoch
        (each pass under ``repeat``) is shuffled anew unless
        ``reshuffle_each_iteration`` is False; initialising the iterator again
        starts the same sequence of orders, as TF."""
        return _Shuffle(self, int(buffer_size), seed, reshuffle_each_iteration is not False)

    def repeat(self, count: int | None = None, name: str | None = None) -> Dataset:
        """The dataset ``count`` times (``None`` or -1: forever), as ``Dataset.repeat``."""
        return _Repeat(self, -1 if count is None else _count(count))

    def take(self, count: int, name: str | None = None) -> Dataset:
        """The first ``count`` elements (-1: all), as ``Dataset.take``."""
        return _Take(self, _count(count))

    def skip(self, count: int, name: str | None = None) -> Dataset:
        """All but the first ``count`` elements (-1: none), as ``Dataset.skip``."""
        return _Skip(self, _count(count))

    def concatenate(self, dataset: Dataset, name: str | None = None) -> Dataset:
        """This dataset's elements, then ``dataset``'s, as ``Dataset.concatenate``.

        Raises:
          TypeError: the element types differ.
        """
        return _Concatenate(self, dataset)

    def prefetch(self, buffer_size: Any, name: str | None = None) -> Dataset:
        """Accepted for compatibility: the same dataset (iteration runs on the host)."""
        return self

    def cache(self, filename: str = "", name: str | None = None) -> Dataset:
        """Accepted for compatibility: the same dataset."""
        return self

    def apply(self, transformation_func: Callable[[Dataset], Dataset]) -> Dataset:
        """``transformation_func(self)``, as ``Dataset.apply``."""
        return transformation_func(self)

    def flat_map(self, map_func: Callable[..., Any], name: str | None = None) -> Dataset:
        """The elements of the datasets ``map_func`` makes of each element, one
        dataset after the other, as ``Dataset.flat_map``.

        ``map_func`` is traced as :meth:`map` and must return a ``Dataset``;
        over a :meth:`window` dataset it gets each window's components as
        datasets.

        Raises:
          TypeError: ``map_func`` does not return a ``Dataset``.
        """
        return _FlatMap(self, map_func, "flat_map")

    def interleave(self, map_func: Callable[..., Any], cycle_length: int | None = None, block_length: int | None = None,
                   num_parallel_calls: Any = None, deterministic: Any = None, name: str | None = None) -> Dataset:
        """The datasets ``map_func`` makes of ``cycle_length`` elements at a time,
        ``block_length`` elements from each in turn, as ``Dataset.interleave``
        (TF's order; ``cycle_length`` None or ``AUTOTUNE``: the number of CPU
        cores, as TF).

        Raises:
          TypeError: ``map_func`` does not return a ``Dataset``.
          ValueError: ``cycle_length`` or ``block_length`` below 1.
        """
        cycle = (os.cpu_count() or 1) if cycle_length is None or cycle_length == AUTOTUNE else int(cycle_length)
        return _FlatMap(self, map_func, "interleave", cycle, 1 if block_length is None else int(block_length))

    def padded_batch(self, batch_size: int, padded_shapes: Any = None, padding_values: Any = None,
                     drop_remainder: bool = False, name: str | None = None) -> Dataset:
        """Consecutive elements padded to a common shape and stacked, as
        ``Dataset.padded_batch``.

        Args:
          padded_shapes: the element structure with a shape per component;
            an unknown dimension (``None`` or -1) pads to the longest in the
            batch. Default: the components' static shapes.
          padding_values: the structure with a scalar per component (default
            0, or ``b""`` for strings).

        Raises:
          ValueError: ``padded_shapes`` missing for a component of unknown rank.
          TypeError: a padding value of another dtype than its component.
          DataLossError (when iterated, as TF 2.21): an element longer than its
            padded shape ("Attempted to pad to a smaller size than the input
            element.").
        """
        return _PaddedBatch(self, int(batch_size), padded_shapes, padding_values, bool(drop_remainder))

    def unbatch(self, name: str | None = None) -> Dataset:
        """Each element split along its first dimension, as ``Dataset.unbatch``.

        Raises:
          ValueError: a scalar component.
        """
        return _Unbatch(self)

    def window(self, size: int, shift: int | None = None, stride: int = 1, drop_remainder: bool = False,
               name: str | None = None) -> Dataset:
        """Windows of ``size`` elements (every ``stride``-th), starting every
        ``shift`` elements (default ``size``), as ``Dataset.window``. Each
        element is the element structure with a dataset per component, to
        take apart with :meth:`flat_map` (``lambda w: w.batch(size)``)."""
        return _Window(self, int(size), int(size if shift is None else shift), int(stride), bool(drop_remainder))

    def shard(self, num_shards: int, index: int, name: str | None = None) -> Dataset:
        """Every ``num_shards``-th element from ``index`` on, as ``Dataset.shard``.

        Raises:
          InvalidArgumentError: ``num_shards`` < 1 or ``index`` out of range.
        """
        return _Shard(self, int(num_shards), int(index))

    def enumerate(self, start: int = 0, name: str | None = None) -> Dataset:  # noqa: A003 - TF's name
        """``(index, element)`` pairs, the index int64 from ``start``, as ``Dataset.enumerate``."""
        return _Enumerate(self, int(start))

    def take_while(self, predicate: Callable[..., Any], name: str | None = None) -> Dataset:
        """The elements until ``predicate`` (traced as :meth:`filter`) is first
        false, as ``Dataset.take_while``."""
        return _TakeWhile(self, predicate)

    def cardinality(self) -> Tensor:
        """An ``int64`` scalar tensor: the number of elements, ``-1``
        (``INFINITE_CARDINALITY``) or ``-2`` (``UNKNOWN_CARDINALITY``), as
        ``Dataset.cardinality`` / ``tf.data.experimental.cardinality`` in
        graph mode: counted without iterating, so after ``map``, ``filter``,
        ``flat_map`` or a generator it is unknown (``tf.compat.v1``'s ``map``
        does not preserve cardinality). Fed counts are read when it runs."""
        return apply_op("DatasetCardinality", list(self._captured), {"dataset": self})  # type: ignore[no-any-return]

    def get_single_element(self, name: str | None = None) -> Any:
        """The dataset's one element, as tensors of its structure, as
        ``Dataset.get_single_element`` / ``tf.data.experimental.get_single_element``.

        Raises (when run):
          InvalidArgumentError: the dataset is empty ("Dataset was empty.")
            or has more than one element.
        """
        outs = apply_op("DatasetToSingleElement", list(self._captured), {"dataset": self}, name=name)
        return nest.pack(self._structure, outs if isinstance(outs, list) else [outs])

    def reduce(self, initial_state: Any, reduce_func: Callable[..., Any], name: str | None = None) -> Any:
        """``reduce_func(state, element) -> new_state`` folded over the
        elements, as ``Dataset.reduce``: tensors of ``initial_state``'s
        structure (the initial state itself for an empty dataset).

        Raises:
          TypeError: the new state's structure or dtypes differ from the initial one.
          NotImplementedError: ``initial_state`` is not constant.
        """
        def step(state: Any, element: Any) -> tuple[Any, Any]:
            new = reduce_func(state, element)
            return new, new

        scanned = _Scan(self, initial_state, step)
        outs = apply_op("ReduceDataset", list(scanned._captured), {"dataset": scanned, "initial": scanned._state0},
                        name=name)
        return nest.pack(scanned._structure, outs if isinstance(outs, list) else [outs])

    def scan(self, initial_state: Any, scan_func: Callable[..., Any], name: str | None = None) -> Dataset:
        """``scan_func(state, element) -> (new_state, output)`` over the
        elements, as ``Dataset.scan`` (``initial_state`` a constant structure).

        Raises:
          TypeError: the new state's structure or dtypes differ from the initial one.
        """
        return _Scan(self, initial_state, scan_func)

    def unique(self, name: str | None = None) -> Dataset:
        """The elements without repeats (int or string scalars), as ``Dataset.unique``."""
        return _Unique(self)

    def group_by_window(self, key_func: Callable[..., Any], reduce_func: Callable[..., Any],
                        window_size: int | None = None, window_size_func: Callable[..., Any] | None = None,
                        name: str | None = None) -> Dataset:
        """Elements grouped by ``key_func`` (an int64 scalar); every ``window_size``
        elements of a group go to ``reduce_func(key, window_dataset)``, whose
        dataset's elements are the output, as ``Dataset.group_by_window``. At
        the end the partial groups are reduced in key order, as TF."""
        return group_by_window(self, key_func, reduce_func, window_size, window_size_func)

    def bucket_by_sequence_length(self, element_length_func: Callable[..., Any], bucket_boundaries: Sequence[int],
                                  bucket_batch_sizes: Sequence[int], padded_shapes: Any = None,
                                  padding_values: Any = None, pad_to_bucket_boundary: bool = False,
                                  no_padding: bool = False, drop_remainder: bool = False,
                                  name: str | None = None) -> Dataset:
        """Elements bucketed by length and padded-batched per bucket, as
        ``Dataset.bucket_by_sequence_length``: bucket ``i`` holds the lengths
        in ``[bucket_boundaries[i-1], bucket_boundaries[i])``, batched by
        ``bucket_batch_sizes[i]``.

        Raises:
          ValueError: ``len(bucket_batch_sizes) != len(bucket_boundaries) + 1``.
        """
        return bucket_by_sequence_length(self, element_length_func, bucket_boundaries, bucket_batch_sizes,
                                         padded_shapes, padding_values, pad_to_bucket_boundary, no_padding,
                                         drop_remainder)

    def ignore_errors(self, log_warning: bool = False, name: str | None = None) -> Dataset:
        """The elements up to the first error, as ``Dataset.ignore_errors``
        (TF skips only the failing element: jaxsess's host iterators cannot
        go on after an error)."""
        return _IgnoreErrors(self)

    def with_options(self, options: Options, name: str | None = None) -> Dataset:
        """The same dataset with ``options`` merged into its :meth:`options`,
        as ``Dataset.with_options`` (kept and read back; they change nothing
        in jaxsess's host pipelines).

        Raises:
          TypeError: ``options`` is not a ``tf.data.Options``.
        """
        if not isinstance(options, Options):
            raise TypeError(f"`options` must be a `tf.data.Options`, got {type(options).__name__}.")
        return _WithOptions(self, options)

    def options(self) -> Options:
        """The options set by :meth:`with_options` on this dataset and the
        datasets it is made of (later ones win), as ``Dataset.options``."""
        out = Options()
        for up in self._upstream():
            out = out.merge(up.options())
        return out

    def _upstream(self) -> list[Dataset]:
        """The datasets this one transforms (none for a source)."""
        up = getattr(self, "_input", None)
        if isinstance(up, Dataset):
            return [up]
        return [p for p in getattr(self, "_parts", ()) if isinstance(p, Dataset)]

    @staticmethod
    def choose_from_datasets(datasets: Sequence[Dataset], choice_dataset: Dataset,
                             stop_on_empty_dataset: bool = True) -> Dataset:
        """Elements of ``datasets[i]`` for each ``i`` of ``choice_dataset`` (int64
        scalars), as ``Dataset.choose_from_datasets``.

        Raises:
          TypeError: datasets of different element types, or a choice
            dataset that is not of int64 scalars.
        """
        if choice_dataset._types != [_dtypes.int64] or choice_dataset._shapes[0].ndims not in (0, None):
            raise TypeError("Invalid `choice_dataset`. Elements of `choice_dataset` must be scalar of "
                            f"`tf.int64` dtype, but got {choice_dataset.output_types}.")
        return _Choose(list(datasets), choice_dataset, None, None, stop_on_empty_dataset)

    @staticmethod
    def sample_from_datasets(datasets: Sequence[Dataset], weights: Sequence[float] | None = None,
                             seed: int | None = None, stop_on_empty_dataset: bool = False) -> Dataset:
        """Elements of ``datasets`` drawn at random with ``weights``, as
        ``Dataset.sample_from_datasets`` (NumPy's generator: another order
        than TF's for a seed)."""
        return _Choose(list(datasets), None, weights, seed, stop_on_empty_dataset)

    @staticmethod
    def counter(start: int = 0, step: int = 1, dtype: Any = _dtypes.int64, name: str | None = None) -> Dataset:
        """``start, start + step, ...`` forever, as ``Dataset.counter``."""
        return _Counter(int(start), int(step), dtype)

    # -- iterators ------------------------------------------------------------------------

    def make_one_shot_iterator(self) -> Any:
        """An iterator that initializes itself on first use, as
        ``tf.compat.v1.data.make_one_shot_iterator``.

        Raises:
          ValueError: the dataset reads a non-constant tensor (use
            :meth:`make_initializable_iterator` and feed it).
        """
        get_seed(None)  # as TF, which takes one of the graph's op seeds here (for its Defun)
        return Iterator.from_dataset(self, one_shot=True)

    def make_initializable_iterator(self, shared_name: str | None = None) -> Any:
        """An iterator to initialize with ``sess.run(iterator.initializer)``
        (which reads the dataset's fed tensors), as
        ``tf.compat.v1.data.make_initializable_iterator``."""
        return Iterator.from_dataset(self, one_shot=False)


class _Slices(Dataset):
    def __init__(self, tensors: Any, *, slices: bool) -> None:
        tensors = _lists_to_arrays(tensors)  # TF converts a list to one tensor
        leaves = nest.flatten(tensors)
        comps = [_component(v, "tensors") for v in leaves]
        self._values = [c[0] for c in comps]
        captured = [v for v in self._values if isinstance(v, Tensor)]
        shapes = [c[2] for c in comps]
        self._n: int | None = 1
        if slices:
            firsts = set()
            for s in shapes:
                if s.ndims == 0:
                    raise ValueError("Unbatching a tensor is only supported for rank >= 1")
                if s.ndims is not None and s[0] is not None:
                    firsts.add(s[0])
            if len(firsts) > 1:
                a, b = sorted(firsts)[:2]
                raise ValueError(f"Dimensions {a} and {b} are not compatible")
            self._n = firsts.pop() if firsts else None
            shapes = [TensorShape(None) if s.ndims is None else TensorShape(s.as_list()[1:]) for s in shapes]
        self._slices = slices
        super().__init__(nest.map_structure(lambda _: None, tensors), [c[1] for c in comps], shapes, captured)

    def _cardinality(self, run: RunContext) -> int:
        if not self._slices:
            return 1
        if self._n is not None:
            return self._n
        vals = [np.asarray(run.captured[v]) if isinstance(v, Tensor) else v for v in self._values]
        return int(vals[0].shape[0]) if vals else 0

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        vals = [np.asarray(run.captured[v]) if isinstance(v, Tensor) else v for v in self._values]
        if not self._slices:
            yield list(vals)
            return
        n = vals[0].shape[0] if vals else 0
        for v in vals:
            if v.shape[0] != n:
                raise ValueError(f"from_tensor_slices: components have first dimensions {v.shape[0]} and {n}.")
        for i in range(n):
            yield [v[i] for v in vals]

    def _iter_chunks(self, run: RunContext) -> PyIterator[Element]:
        if not self._slices:
            yield from Dataset._iter_chunks(self, run)
            return
        vals = [np.asarray(run.captured[v]) if isinstance(v, Tensor) else v for v in self._values]
        if vals and vals[0].shape[0]:
            for v in vals:
                if v.shape[0] != vals[0].shape[0]:
                    raise ValueError(
                        f"from_tensor_slices: components have first dimensions {v.shape[0]} and {vals[0].shape[0]}.")
            yield vals


class _Generator(Dataset):
    def __init__(self, generator: Callable[..., Any], types: Any, shapes: Any, args: tuple[Any, ...]) -> None:
        if not callable(generator):
            raise TypeError("`generator` must be callable.")
        flat_types = [_dtypes.canonical(t) for t in nest.flatten(types)]
        if shapes is None:
            flat_shapes = [TensorShape(None)] * len(flat_types)
        else:
            flat_shapes = [TensorShape(x) for x in _flatten_like(types, shapes)]
        self._generator, self._args = generator, args
        super().__init__(nest.map_structure(lambda _: None, types), flat_types, flat_shapes)

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        for item in self._generator(*self._args):
            leaves = _flatten_like(self._structure, item)
            out = []
            for v, d, s in zip(leaves, self._types, self._shapes):
                arr = to_numpy(v, d) if d == _dtypes.string else np.asarray(v, dtype=d.np_dtype)
                if not s.is_compatible_with(TensorShape(arr.shape)):
                    raise ValueError(f"from_generator: an element of shape {list(arr.shape)} does not fit the "
                                     f"declared shape {s}.")
                out.append(arr)
            yield out


def _flatten_like(template: Any, value: Any) -> list[Any]:
    """``value``'s leaves following ``template``'s structure (a shape list is a leaf)."""
    if isinstance(template, dict):
        return [x for k in sorted(template) for x in _flatten_like(template[k], value[k])]
    if isinstance(template, tuple):
        if not isinstance(value, tuple | list) or len(value) != len(template):
            raise TypeError(f"from_generator: expected a structure of {len(template)} components, got {value!r:.60}.")
        return [x for t, v in zip(template, value) for x in _flatten_like(t, v)]
    return [value]


class _Range(Dataset):
    def __init__(self, *args: Any, output_type: Any = _dtypes.int64) -> None:
        self._args = [_count(a) for a in args]
        d = _dtypes.canonical(output_type)
        super().__init__(None, [d], [TensorShape([])], [t for a in self._args for t in _tensors_of(a)])

    def _cardinality(self, run: RunContext) -> int:
        return len(range(*[_resolve(a, run) for a in self._args]))

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        d = self._types[0].np_dtype
        for i in range(*[_resolve(a, run) for a in self._args]):
            yield [np.asarray(i, d)]


class _Zip(Dataset):
    def __init__(self, datasets: Any) -> None:
        if isinstance(datasets, list):
            raise TypeError("Invalid input to `zip`. Inputs are expected to be (nested) structures of "
                            "`tf.data.Dataset` objects. Python `list` is not supported and you should use `tuple` "
                            "instead.")
        self._parts = nest.flatten(datasets)
        for p in self._parts:
            if not isinstance(p, Dataset):
                raise TypeError(f"zip expects a tuple or dict of datasets, got {type(p).__name__}.")
        structure = nest.pack(datasets, [p._structure for p in self._parts])
        captured = [t for p in self._parts for t in p._captured]
        super().__init__(structure, [t for p in self._parts for t in p._types],
                         [s for p in self._parts for s in p._shapes], captured)

    def _cardinality(self, run: RunContext) -> int:
        counts = [p._cardinality(run) for p in self._parts]
        finite = [c for c in counts if c >= 0]
        if finite:
            return min(finite)
        return UNKNOWN_CARDINALITY if UNKNOWN_CARDINALITY in counts else INFINITE_CARDINALITY

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        its = [p._iter(run) for p in self._parts]
        while True:
            out: Element = []
            for it in its:
                try:
                    out.extend(next(it))
                except StopIteration:
                    return
            yield out


class _FunctionGraph(Graph):
    """The private graph of a dataset function. A tensor of another graph that
    an op in it reads is captured (as TF's function graphs do): a constant is
    copied in; any other becomes a placeholder fed the tensor's value, which
    the dataset reads when its iterator starts (``captured``)."""

    def __init__(self) -> None:
        outer_seed = get_default_graph().seed
        super().__init__()
        self.seed = outer_seed  # as TF's function graphs: the graph seed, and an op-seed count of its own
        self.captured: dict[Tensor, Tensor] = {}  # outer tensor -> its placeholder here

    def capture(self, t: Tensor) -> Tensor:
        if t.graph is self:
            return t
        inner = self.captured.get(t)
        if inner is None:
            c = constant_value(t)
            with self.as_default():
                if c is not None and t.dtype != _dtypes.string:
                    return convert_to_tensor(np.asarray(c, t.dtype.np_dtype))
                inner = placeholder(t.dtype, t.shape, name="captured")
            self.captured[t] = inner
        return inner


class _Traced:
    """A function of one element traced into a private graph and compiled.

    String components and the host ops that read them (``parse_single_example``,
    ``decode_raw``, ``decode_csv``...) run on the host, in creation order, before
    the compiled function, which is fed their numeric outputs (as
    ``Session.run`` does for graphs with host ops, :mod:`jaxsess._core.runtime._host_run`).
    """

    def __init__(self, ds: Dataset, fn: Callable[..., Any], what: str, *, returns_dataset: bool = False,
                 lead: Sequence[tuple[_dtypes.DType, TensorShape]] = ()) -> None:
        graph = _FunctionGraph()
        with graph.as_default():
            phs = [placeholder(t, s, name=f"key{i}") for i, (t, s) in enumerate(lead)]
            lead_args = list(phs)
            comps: list[Any] = []
            for i, (t, s) in enumerate(zip(ds._types, ds._shapes)):
                if ds._nested:  # the components of a window are datasets
                    comps.append(_WindowSource(t, s))
                else:
                    phs.append(placeholder(t, s, name=f"arg{i}"))
                    comps.append(phs[-1])
            self.sources = [c for c in comps if isinstance(c, _WindowSource)]
            args = nest.pack(ds._structure, comps)
            if isinstance(args, tuple) and not hasattr(args, "_fields"):
                out = fn(*lead_args, *args)
            else:
                out = fn(*lead_args, args)
            if returns_dataset:
                if not isinstance(out, Dataset):
                    raise TypeError(f"The `map_func` argument of `{what}` must return a `Dataset` object, got "
                                    f"{type(out).__name__}.")
                self.dataset = out
                out = tuple(t for t in out._captured if isinstance(t, Tensor))
            elif self.sources:
                raise NotImplementedError(f"Dataset.{what}: jaxsess takes window datasets in flat_map, "
                                          "interleave and group_by_window only.")
            if isinstance(out, list):
                out = tuple(out)
            leaves = [graph.capture(t) if isinstance(t, Tensor) else t
                      for t in (convert_to_tensor(v) for v in nest.flatten(out))]
            self.captured_outer = list(graph.captured)  # the outer tensors it reads, fed after the element
            phs += list(graph.captured.values())
        self.structure = nest.map_structure(lambda _: None, out)
        self.types = [t.dtype for t in leaves]
        self.shapes = [t.shape for t in leaves]
        self._phs = phs
        self._leaves = leaves
        fed = set(phs)
        self._host_ops = [op for op in prune(leaves, [], fed) if is_host_op(op)]
        host_out = {t for op in self._host_ops for t in op.outputs}
        self._consts: dict[Tensor, Any] = {}  # numeric constants the host ops read (decode_csv's defaults)
        for op in self._host_ops:
            for t in op.inputs:
                if t not in fed and t not in host_out:
                    c = constant_value(t)
                    if c is None:
                        raise NotImplementedError(
                            f"Dataset.{what}: the host op '{op.name}' ({op.type}) reads '{t.name}', computed on "
                            "the device; jaxsess runs host ops of a dataset function on its arguments and "
                            "constants only.")
                    self._consts[t] = c
        # the compiled part: the numeric leaves, fed the numeric arguments and host outputs
        self._dev_leaves = [t for t in leaves if t not in host_out and t not in fed]
        dev_ops = prune(self._dev_leaves, [], fed | host_out)
        read = {t for op in dev_ops for t in op.inputs}
        self._dev_feeds = [t for t in phs if t.dtype != _dtypes.string] + [
            t for op in self._host_ops for t in op.outputs if t in read]
        for t in self._dev_feeds:
            if t.dtype == _dtypes.string:
                raise NotImplementedError(f"Dataset.{what}: the op that reads the string tensor '{t.name}' "
                                          "has no host implementation.")
        plan = build_plan(self._dev_leaves, self._dev_feeds, [])
        if plan.start_vars:
            raise NotImplementedError(
                f"Dataset.{what}: the function reads variables ({', '.join(v.name for v in plan.start_vars)}); "
                "jaxsess traces it into its own graph, which holds no variables."
            )
        self._plan = plan
        # Its state is its random ops' counters (in the order of plan.donated + plan.kept).
        self._counters: dict[Slot, int] = {
            rng_slot(op): 0 if op.attrs.get("seeded", True) else _pyrandom.randint(0, 2**31 - 1)
            for op in plan.rng_ops
        }

    def __call__(self, element: Element, run: RunContext | None = None) -> Element:
        env: dict[Tensor, Any] = dict(self._consts)
        if self.captured_outer:
            if run is None:
                raise ValueError("A dataset function that reads tensors of the enclosing graph needs their values.")
            element = list(element) + [run.captured[t] for t in self.captured_outer]
        env.update(zip(self._phs, element))
        host = run.host if run is not None else None
        for op in self._host_ops:
            env.update(zip(op.outputs, host_impl(op)(host, op, [env[t] for t in op.inputs])))
        plan = self._plan
        if not self._dev_leaves:
            return [np.asarray(env[t]) for t in self._leaves]
        counters = self._counters if run is None else run.rng_counters.setdefault(id(self), dict(self._counters))
        donated = tuple(jnp.asarray(counters[s], jnp.uint32) for s in plan.donated)
        kept = tuple(jnp.asarray(counters[s], jnp.uint32) for s in plan.kept)
        feeds = tuple(env[t] for t in self._dev_feeds)
        assert plan.jitted is not None
        if plan.x64:  # a 64-bit function runs under JAX's scoped x64 mode, as session plans do
            with _dtypes.x64_scope():
                outs, new_state = plan.jitted(donated, kept, feeds)
        else:
            outs, new_state = plan.jitted(donated, kept, feeds)
        for slot, v in zip(plan.written, new_state):
            if isinstance(slot, tuple):
                counters[slot] = int(v)
        env.update(zip(self._dev_leaves, outs))
        return [np.asarray(env[t]) for t in self._leaves]


class _WithOptions(Dataset):
    """``with_options``: the input's elements, with options attached."""

    def __init__(self, ds: Dataset, options: Options) -> None:
        self._input, self._own = ds, options
        Dataset.__init__(self, ds._structure, ds._types, ds._shapes, ds._captured)
        self._nested = ds._nested

    def options(self) -> Options:
        return self._input.options().merge(self._own)

    def _cardinality(self, run: RunContext) -> int:
        return self._input._cardinality(run)

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        return self._input._iter(run)

    def _iter_chunks(self, run: RunContext) -> PyIterator[Element]:
        return self._input._iter_chunks(run)


class _Map(Dataset):
    def __init__(self, ds: Dataset, fn: Callable[..., Any]) -> None:
        self._input = ds
        self._fn = _Traced(ds, fn, "map")
        Dataset.__init__(self, self._fn.structure, self._fn.types, self._fn.shapes,
                         ds._captured + self._fn.captured_outer)

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        for el in self._input._iter(run):
            yield self._fn(el, run)


class _Filter(Dataset):
    def __init__(self, ds: Dataset, fn: Callable[..., Any]) -> None:
        self._input = ds
        self._fn = _Traced(ds, fn, "filter")
        if self._fn.types != [_dtypes.bool] or self._fn.shapes[0].ndims not in (0, None):
            raise ValueError("Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor, but its "
                             f"return type is {self._fn.types[0].name} {self._fn.shapes[0]}.")
        Dataset.__init__(self, ds._structure, ds._types, ds._shapes, ds._captured + self._fn.captured_outer)

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        for el in self._input._iter(run):
            if bool(self._fn(el, run)[0]):
                yield el


class _Batch(Dataset):
    def __init__(self, ds: Dataset, n: int | Tensor, drop: bool) -> None:
        if isinstance(n, int) and n < 1:
            raise ValueError(f"batch_size must be at least 1, got {n}.")
        self._input, self._n, self._drop = ds, n, drop
        static = n if drop and isinstance(n, int) else None
        shapes = [TensorShape(None) if s.ndims is None else TensorShape([static, *s.as_list()])
                  for s in ds._shapes]
        Dataset.__init__(self, ds._structure, ds._types, shapes, ds._captured + _tensors_of(n))

    def _cardinality(self, run: RunContext) -> int:
        c, n = self._input._cardinality(run), _resolve(self._n, run)
        if c < 0:
            return c
        return c // n if self._drop else -(-c // n)

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        n = _resolve(self._n, run)
        if n < 1:
            raise errors.InvalidArgumentError(None, None, f"Batch size must be greater than zero, got {n}")
        pending: list[Element] = []
        count = 0
        for chunk in self._input._iter_chunks(run):
            m = chunk[0].shape[0] if chunk else 0
            start = 0
            while start < m:
                take = min(n - count, m - start)
                pending.append([c[start:start + take] for c in chunk])
                count += take
                start += take
                if count == n:
                    yield self._join(pending)
                    pending, count = [], 0
        if pending and not self._drop:
            yield self._join(pending)

    @staticmethod
    def _join(pieces: list[Element]) -> Element:
        if len(pieces) == 1:
            return [np.array(c) for c in pieces[0]]
        out = []
        for i in range(len(pieces[0])):
            parts = [p[i] for p in pieces]
            shapes = {p.shape[1:] for p in parts}
            if len(shapes) > 1:
                raise ValueError(f"Cannot batch tensors with different shapes in component {i}: {sorted(shapes)}.")
            out.append(np.concatenate(parts))
        return out


class _Shuffle(Dataset):
    """TF's ``ShuffleDataset``: its seeds, its Philox streams and its buffer algorithm, so
    a seeded pipeline gives TF's order (semantics source: ``shuffle_dataset_op.cc``)."""

    def __init__(self, ds: Dataset, buffer_size: int | None, seed: int | None, reshuffle: bool) -> None:
        """``buffer_size`` None: a buffer holding all the elements (``list_files``)."""
        if buffer_size is not None and buffer_size < 1:
            raise ValueError(f"buffer_size must be at least 1, got {buffer_size}.")
        self._input, self._size, self._reshuffle = ds, buffer_size, reshuffle
        s1, s2 = get_seed(seed)  # as tf.data's random_seed.get_seed: no seeds at all is (0, 0)
        if s1 is None or (s1 == 0 and s2 == 0):  # TF: nondeterministic, 64-bit random seeds
            self._seeds = (_pyrandom.getrandbits(64), _pyrandom.getrandbits(64))
        else:
            self._seeds = (int(s1), int(s2 or 0))
        Dataset.__init__(self, ds._structure, ds._types, ds._shapes, ds._captured)

    def _cardinality(self, run: RunContext) -> int:
        return self._input._cardinality(run)

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        if self._reshuffle:
            # each pass draws its seeds from a generator of the dataset's seeds (TF's
            # RandomSeedGenerator, made anew when the iterator is initialised)
            epoch = run.next_epoch(self)
            seeder = HostPhilox(*self._seeds)
            for _ in range(2 * epoch):
                seeder.next()
            generator = HostPhilox(seeder.next(), seeder.next())
        else:
            generator = HostPhilox(*self._seeds)
        upstream = self._input._iter(run)
        size = self._size
        if size is None:
            everything = list(upstream)
            upstream, size = iter(everything), max(len(everything), 1)
        ring: list[Element | None] = [None] * size  # live elements: positions start..end-1 (mod size)
        start = end = 0
        exhausted = False
        while True:
            while not exhausted and end - start < size:
                el = next(upstream, None)
                if el is None:
                    exhausted = True
                else:
                    ring[end % size] = el
                    end += 1
            if end == start:
                return
            index = (start + generator.next() % (end - start)) % size
            out = ring[index]
            ring[index], ring[start % size] = ring[start % size], None
            start += 1
            assert out is not None
            yield out


def _count(count: Any) -> int | Tensor:
    """A count argument: a Python int, or a tensor read when iteration starts."""
    if isinstance(count, Tensor) or hasattr(count, "_as_graph_element"):
        t = convert_to_tensor(count)
        c = constant_value(t)
        return t if c is None else int(c)
    return int(count)


def _tensors_of(count: int | Tensor) -> list[Tensor]:
    return [count] if isinstance(count, Tensor) else []


def _resolve(count: int | Tensor, run: RunContext) -> int:
    return int(run.captured[count]) if isinstance(count, Tensor) else count


class _Repeat(Dataset):
    def __init__(self, ds: Dataset, count: int | Tensor) -> None:
        self._input, self._count = ds, count
        Dataset.__init__(self, ds._structure, ds._types, ds._shapes, ds._captured + _tensors_of(count))

    def _cardinality(self, run: RunContext) -> int:
        c, count = self._input._cardinality(run), _resolve(self._count, run)
        if c == 0 or count == 0:
            return 0
        if count < 0:  # forever: infinite unless known empty, as TF's RepeatDataset
            return INFINITE_CARDINALITY
        return c * count if c >= 0 else c

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        count = _resolve(self._count, run)
        i = 0
        while count < 0 or i < count:
            empty = True
            for el in self._input._iter(run):
                empty = False
                yield el
            if empty:
                return
            i += 1

    def _iter_chunks(self, run: RunContext) -> PyIterator[Element]:
        count = _resolve(self._count, run)
        i = 0
        while count < 0 or i < count:
            empty = True
            for chunk in self._input._iter_chunks(run):
                empty = False
                yield chunk
            if empty:
                return
            i += 1


class _Take(Dataset):
    def __init__(self, ds: Dataset, count: int | Tensor) -> None:
        self._input, self._count = ds, count
        shapes = ds._shapes
        Dataset.__init__(self, ds._structure, ds._types, shapes, ds._captured + _tensors_of(count))

    def _cardinality(self, run: RunContext) -> int:
        c, count = self._input._cardinality(run), _resolve(self._count, run)
        if count < 0:
            return c
        if c == INFINITE_CARDINALITY:
            return count
        return min(c, count) if c >= 0 else c

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        count = _resolve(self._count, run)
        if count == 0:
            return
        for i, el in enumerate(self._input._iter(run)):
            yield el
            if count >= 0 and i + 1 >= count:
                return


class _Skip(Dataset):
    def __init__(self, ds: Dataset, count: int | Tensor) -> None:
        self._input, self._count = ds, count
        Dataset.__init__(self, ds._structure, ds._types, ds._shapes, ds._captured + _tensors_of(count))

    def _cardinality(self, run: RunContext) -> int:
        c, count = self._input._cardinality(run), _resolve(self._count, run)
        if c < 0:
            return c
        return 0 if count < 0 else max(c - count, 0)

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        count = _resolve(self._count, run)
        for i, el in enumerate(self._input._iter(run)):
            if count < 0 or i < count:
                continue
            yield el


class _Concatenate(Dataset):
    def __init__(self, a: Dataset, b: Dataset) -> None:
        if a._types != b._types:
            raise TypeError(f"Incompatible types of input datasets: {a.output_types} vs {b.output_types}.")
        self._a, self._b = a, b
        shapes = [s if s == t else TensorShape(None) if s.ndims != t.ndims else
                  TensorShape([x if x == y else None for x, y in zip(s.as_list(), t.as_list())])
                  for s, t in zip(a._shapes, b._shapes)]
        Dataset.__init__(self, a._structure, a._types, shapes, a._captured + b._captured)

    def _cardinality(self, run: RunContext) -> int:
        a, b = self._a._cardinality(run), self._b._cardinality(run)
        if INFINITE_CARDINALITY in (a, b):
            return INFINITE_CARDINALITY
        if UNKNOWN_CARDINALITY in (a, b):
            return UNKNOWN_CARDINALITY
        return a + b

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        yield from self._a._iter(run)
        yield from self._b._iter(run)


def _lists_to_arrays(s: Any) -> Any:
    """A source structure with its lists as arrays: ``tf.data`` converts a list
    to one tensor wherever it stands in a tuple or dict."""
    if isinstance(s, list):
        return convert_to_tensor(s) if any(isinstance(v, Tensor) for v in nest.flatten(s)) else to_numpy(s, None)
    if isinstance(s, dict):
        return type(s)((k, _lists_to_arrays(v)) for k, v in s.items())
    if isinstance(s, tuple) and hasattr(s, "_fields"):
        return type(s)(*[_lists_to_arrays(v) for v in s])
    if isinstance(s, tuple):
        return tuple(_lists_to_arrays(v) for v in s)
    return s


def _merge_shapes(s: TensorShape, t: TensorShape) -> TensorShape:
    """The most specific shape both ``s`` and ``t`` fit (unknown where they differ)."""
    if s == t:
        return s
    if s.ndims is None or t.ndims is None or s.ndims != t.ndims:
        return TensorShape(None)
    return TensorShape([x if x == y else None for x, y in zip(s.as_list(), t.as_list())])


class _WindowSource(Dataset):
    """One component of a window, as a dataset inside a function of ``flat_map``,
    ``interleave`` or ``group_by_window``: its values are the run's captured
    value under this source (a list of arrays)."""

    def __init__(self, dtype: _dtypes.DType, shape: TensorShape) -> None:
        self.name = "window"
        super().__init__(None, [dtype], [shape])
        self._captured = [self]  # type: ignore[list-item]

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        for v in run.captured[self]:  # type: ignore[index]
            yield [v]


class _DatasetFn:
    """A function from an element (and leading key tensors) to a dataset,
    traced once; each call gives the iterator of the dataset it makes."""

    def __init__(self, ds: Dataset, fn: Callable[..., Any], what: str,
                 lead: Sequence[tuple[_dtypes.DType, TensorShape]] = ()) -> None:
        self._traced = _Traced(ds, fn, what, returns_dataset=True, lead=lead)
        self.dataset: Dataset = self._traced.dataset
        self._tensors = [t for t in self.dataset._captured if isinstance(t, Tensor)]
        self._nested = ds._nested

    def __call__(self, element: Element, run: RunContext, lead: Sequence[Any] = ()) -> PyIterator[Element]:
        values = self._traced(list(lead) + ([] if self._nested else list(element)), run)
        captured: dict[Any, Any] = dict(zip(self._tensors, values))
        captured.update(zip(self._traced.sources, element if self._nested else ()))
        return self.dataset._iter(RunContext(captured, run.host))


class _FlatMap(Dataset):
    def __init__(self, ds: Dataset, fn: Callable[..., Any], what: str, cycle_length: int = 1,
                 block_length: int = 1) -> None:
        if cycle_length < 1 or block_length < 1:
            raise ValueError(f"`cycle_length` and `block_length` must be positive, got {cycle_length} and "
                             f"{block_length}.")
        self._input, self._cycle, self._block = ds, cycle_length, block_length
        self._fn = _DatasetFn(ds, fn, what)
        inner = self._fn.dataset
        Dataset.__init__(self, inner._structure, inner._types, inner._shapes,
                         ds._captured + self._fn._traced.captured_outer)

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        # the interleave loop of TF's InterleaveDatasetOp (flat_map: cycle and block length 1)
        upstream = self._input._iter(run)
        cycle: list[PyIterator[Element] | None] = [None] * self._cycle
        index = block = num_open = 0
        end_of_input = False
        while not end_of_input or num_open > 0:
            current = cycle[index]
            if current is not None:
                el = next(current, None)
                if el is not None:
                    block += 1
                    if block == self._block:
                        index, block = (index + 1) % self._cycle, 0
                    yield el
                    continue
                cycle[index] = None
                num_open -= 1
                index, block = (index + 1) % self._cycle, 0
            elif not end_of_input:
                nxt = next(upstream, None)
                if nxt is None:
                    end_of_input = True
                else:
                    cycle[index] = self._fn(nxt, run)
                    num_open += 1
            else:
                index, block = (index + 1) % self._cycle, 0


def _pad_target(padded: TensorShape, values: list[np.ndarray], i: int) -> list[int]:
    ranks = {v.ndim for v in values}
    if len(ranks) > 1 or (padded.ndims is not None and ranks != {padded.ndims}):
        raise errors.InvalidArgumentError(
            None, None, f"All elements in a batch must have the same rank as the padded shape for component{i}: "
            f"expected rank {padded.ndims} but got element with rank {sorted(ranks)[-1]}")
    rank = ranks.pop()
    dims = padded.as_list() if padded.ndims is not None else [None] * rank
    out = []
    for d, size in enumerate(dims):
        longest = max(v.shape[d] for v in values)
        if size is None:
            out.append(longest)
        elif longest > size:
            raise errors.DataLossError(  # TF 2.21's class for this message
                None, None, "Attempted to pad to a smaller size than the input element.")
        else:
            out.append(size)
    return out


class _PaddedBatch(Dataset):
    def __init__(self, ds: Dataset, n: int, padded_shapes: Any, padding_values: Any, drop: bool) -> None:
        if n < 1:
            raise ValueError(f"batch_size must be at least 1, got {n}.")
        if padded_shapes is None:
            for s in ds._shapes:
                if s.ndims is None:
                    raise ValueError("You must provide `padded_shapes` argument because component 0 has "
                                     "unknown rank.")
            pads = list(ds._shapes)
        else:
            pads = [TensorShape([None if d is not None and int(d) < 0 else d for d in x]
                                if isinstance(x, list | tuple) else x)
                    for x in _flatten_like(ds._structure, padded_shapes)]
            for p, s in zip(pads, ds._shapes):
                if p.ndims is not None and s.ndims is not None and (p.ndims != s.ndims or any(
                        a is not None and b is not None and a < b for a, b in zip(p.as_list(), s.as_list()))):
                    raise ValueError(f"The padded shape {p} is not compatible with the shape {s} of the "
                                     f"corresponding input component.")
        if padding_values is None:
            fills = [b"" if t == _dtypes.string else np.zeros((), t.np_dtype) for t in ds._types]  # type: list[Any]
        else:
            fills = []
            for v, t in zip(_flatten_like(ds._structure, padding_values), ds._types):
                c = constant_value(v) if isinstance(v, Tensor) else v
                if isinstance(v, Tensor) and v.dtype != t:
                    raise TypeError(f"Invalid `padding_values`. `padding_values` values should have the same "
                                    f"type as the input dataset's corresponding component type: {t.name}, "
                                    f"got {v.dtype.name}.")
                if c is None:  # computed in the graph: read when the iterator starts, as TF captures it
                    fills.append(convert_to_tensor(v))
                else:
                    fills.append(c if t == _dtypes.string else np.asarray(c, t.np_dtype))
        self._input, self._n, self._drop, self._pads, self._fills = ds, n, drop, pads, fills
        shapes = [TensorShape([n if drop else None, *p.as_list()]) if p.ndims is not None else TensorShape(None)
                  for p in pads]
        Dataset.__init__(self, ds._structure, ds._types, shapes,
                         ds._captured + [f for f in fills if isinstance(f, Tensor)])

    def _cardinality(self, run: RunContext) -> int:
        c = self._input._cardinality(run)
        if c < 0:
            return c
        return c // self._n if self._drop else -(-c // self._n)

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        fills = [run.captured[f] if isinstance(f, Tensor) else f for f in self._fills]
        pending: list[Element] = []
        for el in self._input._iter(run):
            pending.append(el)
            if len(pending) == self._n:
                yield self._pad(pending, fills)
                pending = []
        if pending and not self._drop:
            yield self._pad(pending, fills)

    def _pad(self, els: list[Element], fills: list[Any]) -> Element:
        out = []
        for i, (t, fill, pad) in enumerate(zip(self._types, fills, self._pads)):
            values = [np.asarray(e[i]) for e in els]
            target = _pad_target(pad, values, i)
            batch = np.full([len(values), *target], fill, dtype=object if t == _dtypes.string else t.np_dtype)
            for j, v in enumerate(values):
                batch[(j, *[slice(0, d) for d in v.shape])] = v  # type: ignore[index]
            out.append(batch)
        return out


class _Unbatch(Dataset):
    def __init__(self, ds: Dataset) -> None:
        for s in ds._shapes:
            if s.ndims == 0:
                raise ValueError("Cannot unbatch an input with scalar components.")
        self._input = ds
        shapes = [TensorShape(None) if s.ndims is None else TensorShape(s.as_list()[1:]) for s in ds._shapes]
        Dataset.__init__(self, ds._structure, ds._types, shapes, ds._captured)

    def _iter_chunks(self, run: RunContext) -> PyIterator[Element]:
        for el in self._input._iter(run):
            el = [np.asarray(v) for v in el]
            if len({v.shape[0] for v in el}) > 1:
                raise errors.InvalidArgumentError(
                    None, None, "Input element must have the same batch size in each component. Component 0 had "
                    f"size {el[0].shape[0]} but component {[v.shape[0] for v in el].index(el[-1].shape[0])} had "
                    f"size {el[-1].shape[0]}.")
            yield el

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        for el in self._iter_chunks(run):
            for i in range(el[0].shape[0] if el else 0):
                yield [v[i] for v in el]


class _Window(Dataset):
    def __init__(self, ds: Dataset, size: int, shift: int, stride: int, drop: bool) -> None:
        for name, v in (("size", size), ("shift", shift), ("stride", stride)):
            if v < 1:
                raise errors.InvalidArgumentError(None, None, f"Window {name} must be greater than zero, but got "
                                                  f"{v}.")
        self._input, self._size, self._shift, self._stride, self._drop = ds, size, shift, stride, drop
        Dataset.__init__(self, ds._structure, ds._types, ds._shapes, ds._captured)
        self._nested = True

    def _cardinality(self, run: RunContext) -> int:
        c = self._input._cardinality(run)
        if c < 0:
            return c
        if self._drop:
            rest = c - ((self._size - 1) * self._stride + 1)
            return 0 if rest < 0 else rest // self._shift + 1
        return -(-c // self._shift)

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        upstream = self._input._iter(run)
        buf: list[Element] = []
        base = start = 0
        done = False
        while True:
            end = start + (self._size - 1) * self._stride + 1
            while base + len(buf) < end and not done:
                el = next(upstream, None)
                if el is None:
                    done = True
                else:
                    buf.append(el)
            window = [buf[p - base] for p in range(start, min(end, base + len(buf)), self._stride)]
            if not window or (len(window) < self._size and self._drop):
                return
            yield [[e[i] for e in window] for i in range(len(self._types))]
            start += self._shift
            del buf[:start - base]
            base = start


class _GroupByWindow(Dataset):
    """Elements grouped by a key; each full group (and, at the end, each
    partial one in key order, as TF's ``std::map``) goes through ``reduce``."""

    def __init__(self, ds: Dataset, key: Callable[[Element, RunContext], int], window_size: Callable[[int], int],
                 reduce: Callable[[int, list[Element], RunContext], PyIterator[Element]], spec: Dataset,
                 captured: Sequence[Tensor] = ()) -> None:
        self._input, self._key, self._window_size, self._reduce = ds, key, window_size, reduce
        Dataset.__init__(self, spec._structure, spec._types, spec._shapes, ds._captured + list(captured))

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        groups: dict[int, list[Element]] = {}
        for el in self._input._iter(run):
            k = self._key(el, run)
            group = groups.setdefault(k, [])
            group.append(el)
            if len(group) == self._window_size(k):
                del groups[k]
                yield from self._reduce(k, group, run)
        for k in sorted(groups):
            yield from self._reduce(k, groups[k], run)


class _Elements(Dataset):
    """Given elements, as a dataset (the groups of ``bucket_by_sequence_length``)."""

    def __init__(self, spec: Dataset, elements: list[Element]) -> None:
        self._elements = elements
        Dataset.__init__(self, spec._structure, spec._types, spec._shapes)

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        yield from self._elements


def _scalar_key(traced: _Traced, what: str) -> None:
    if traced.types[0] != _dtypes.int64 or traced.shapes[0].ndims not in (0, None):
        raise ValueError(f"`{what}` must return a single tf.int64 scalar tensor, got {traced.types[0].name} "
                         f"{traced.shapes[0]}.")


def group_by_window(ds: Dataset, key_func: Callable[..., Any], reduce_func: Callable[..., Any],
                    window_size: int | None = None, window_size_func: Callable[..., Any] | None = None) -> Dataset:
    """As ``Dataset.group_by_window`` (see :meth:`Dataset.group_by_window`)."""
    if (window_size is None) == (window_size_func is None):
        raise ValueError("Either the `window_size` argument or the `window_size_func` argument must be "
                         "specified.")
    key = _Traced(ds, key_func, "group_by_window")
    _scalar_key(key, "key_func")
    int64 = _dtypes.int64, TensorShape([])
    spec = Dataset(ds._structure, ds._types, ds._shapes)
    spec._nested = True
    reduce = _DatasetFn(spec, reduce_func, "group_by_window", lead=[int64])
    if window_size_func is not None:
        size_fn = _Traced(Dataset(None, [int64[0]], [int64[1]]), window_size_func, "group_by_window")
        _scalar_key(size_fn, "window_size_func")

        def size_of(k: int) -> int:
            return int(size_fn([np.asarray(k, np.int64)])[0])
    else:
        def size_of(k: int) -> int:
            return int(window_size)  # type: ignore[arg-type]

    def reduce_group(k: int, group: list[Element], run: RunContext) -> PyIterator[Element]:
        comps = [[e[i] for e in group] for i in range(len(ds._types))]
        return reduce(comps, run, lead=[np.asarray(k, np.int64)])

    return _GroupByWindow(ds, lambda el, run: int(key(el, run)[0]), size_of, reduce_group, reduce.dataset,
                          key.captured_outer + reduce._traced.captured_outer)


def bucket_by_sequence_length(ds: Dataset, element_length_func: Callable[..., Any], bucket_boundaries: Sequence[int],
                              bucket_batch_sizes: Sequence[int], padded_shapes: Any = None,
                              padding_values: Any = None, pad_to_bucket_boundary: bool = False,
                              no_padding: bool = False, drop_remainder: bool = False) -> Dataset:
    """As ``Dataset.bucket_by_sequence_length`` (see :meth:`Dataset.bucket_by_sequence_length`)."""
    if len(bucket_batch_sizes) != len(bucket_boundaries) + 1:
        raise ValueError(
            f"`len(bucket_batch_sizes)` must equal `len(bucket_boundaries) + 1` but "
            f"`len(bucket_batch_sizes)={len(bucket_batch_sizes)}` and "
            f"`len(bucket_boundaries)={len(bucket_boundaries)}`.")
    length = _Traced(ds, element_length_func, "bucket_by_sequence_length")
    boundaries = [int(b) for b in bucket_boundaries]
    sizes = [int(b) for b in bucket_batch_sizes]
    lows = [int(np.iinfo(np.int32).min), *boundaries]
    highs = [*boundaries, int(np.iinfo(np.int32).max)]

    def bucket_of(el: Element, run: RunContext) -> int:
        n = int(length(el, run)[0])
        return next(i for i, (lo, hi) in enumerate(zip(lows, highs)) if lo <= n < hi)

    def batch_of(k: int, group: Dataset) -> Dataset:
        if no_padding:
            return group.batch(sizes[k], drop_remainder=drop_remainder)
        filler = None
        if pad_to_bucket_boundary:
            if k >= len(sizes) - 1:
                raise errors.InvalidArgumentError(
                    None, None, "When pad_to_bucket_boundary=True, elements must have length < "
                    "max(bucket_boundaries).")
            filler = boundaries[k] - 1
        shapes = [TensorShape(s) for s in (_flatten_like(ds._structure, padded_shapes) if padded_shapes is not None
                                          else ds._shapes)]
        dims = [[filler if d is None else d for d in s.as_list()] for s in shapes]
        return group.padded_batch(sizes[k], nest.pack(ds._structure, dims), padding_values,
                                  drop_remainder=drop_remainder)

    spec = batch_of(0, ds) if not pad_to_bucket_boundary else _PaddedBatch(
        ds, 1, padded_shapes, padding_values, drop_remainder)
    if pad_to_bucket_boundary:
        spec._shapes = [TensorShape([None, *([None] * (s.ndims or 0))]) for s in spec._shapes]

    def reduce_group(k: int, group: list[Element], run: RunContext) -> PyIterator[Element]:
        return batch_of(k, _Elements(ds, group))._iter(RunContext({}, run.host))

    return _GroupByWindow(ds, bucket_of, lambda k: sizes[k], reduce_group, spec, length.captured_outer)


class _Enumerate(Dataset):
    def __init__(self, ds: Dataset, start: int) -> None:
        self._input, self._start = ds, start
        d = _dtypes.canonical(_dtypes.int64)
        Dataset.__init__(self, (None, ds._structure), [d, *ds._types], [TensorShape([]), *ds._shapes], ds._captured)

    def _cardinality(self, run: RunContext) -> int:
        return self._input._cardinality(run)

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        d = self._types[0].np_dtype
        for i, el in enumerate(self._input._iter(run), self._start):
            yield [np.asarray(i, d), *el]


class _Shard(Dataset):
    def __init__(self, ds: Dataset, num_shards: int, index: int) -> None:
        if num_shards < 1:
            raise errors.InvalidArgumentError(None, None, f"Number of shards must be greater than zero (currently "
                                              f"num_shards = {num_shards}).")
        if not 0 <= index < num_shards:
            raise errors.InvalidArgumentError(None, None, f"Index must be between 0 and {num_shards - 1} "
                                              f"(currently index = {index}).")
        self._input, self._n, self._index = ds, num_shards, index
        Dataset.__init__(self, ds._structure, ds._types, ds._shapes, ds._captured)

    def _cardinality(self, run: RunContext) -> int:
        c = self._input._cardinality(run)
        if c < 0:
            return c
        return c // self._n + (1 if self._index < c % self._n else 0)

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        for i, el in enumerate(self._input._iter(run)):
            if i % self._n == self._index:
                yield el


class _TakeWhile(Dataset):
    def __init__(self, ds: Dataset, predicate: Callable[..., Any]) -> None:
        self._input = ds
        self._fn = _Traced(ds, predicate, "take_while")
        if self._fn.types != [_dtypes.bool] or self._fn.shapes[0].ndims not in (0, None):
            raise ValueError("`predicate` return type must be convertible to a scalar boolean tensor.")
        Dataset.__init__(self, ds._structure, ds._types, ds._shapes, ds._captured + self._fn.captured_outer)

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        for el in self._input._iter(run):
            if not bool(self._fn(el, run)[0]):
                return
            yield el


class _Scan(Dataset):
    def __init__(self, ds: Dataset, initial_state: Any, scan_func: Callable[..., Any]) -> None:
        state = _lists_to_arrays(initial_state)
        comps = [_component(v, "initial_state") for v in nest.flatten(state)]
        if any(isinstance(c[0], Tensor) for c in comps):
            raise NotImplementedError("Dataset.scan: jaxsess takes a constant `initial_state` only.")
        self._state0 = [c[0] for c in comps]
        n = len(comps)
        spec = Dataset((nest.map_structure(lambda _: None, state), ds._structure), [c[1] for c in comps] + ds._types,
                       [c[2] for c in comps] + ds._shapes)

        def step(s: Any, el: Any) -> Any:
            out = scan_func(s, el)  # as TF: the element whole, a tuple one not unpacked
            if not isinstance(out, tuple | list) or len(out) != 2:
                raise TypeError("The scan function must return a pair comprising the new state and the output "
                                "value.")
            return tuple(out)

        self._fn = _Traced(spec, step, "scan")
        self._input, self._n = ds, n
        out_structure = self._fn.structure[1]
        k = len(nest.flatten(self._fn.structure[0]))
        if k != n or [t for t in self._fn.types[:n]] != spec._types[:n]:
            raise TypeError("The element types for the new state must match the initial state.")
        Dataset.__init__(self, out_structure, self._fn.types[n:], self._fn.shapes[n:],
                         ds._captured + self._fn.captured_outer)

    def _cardinality(self, run: RunContext) -> int:
        return self._input._cardinality(run)

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        state = list(self._state0)
        for el in self._input._iter(run):
            out = self._fn(state + list(el), run)
            state = out[:self._n]
            yield out[self._n:]


class _Unique(Dataset):
    def __init__(self, ds: Dataset) -> None:
        if len(ds._types) != 1 or ds._shapes[0].ndims not in (0, None) or not (
                ds._types[0].is_integer or ds._types[0] == _dtypes.string):
            raise TypeError("`tf.data.Dataset.unique` does not support type "
                            f"{ds.output_types}: an integer or string scalar is needed.")
        self._input = ds
        Dataset.__init__(self, ds._structure, ds._types, ds._shapes, ds._captured)

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        seen: set[Any] = set()
        for el in self._input._iter(run):
            v = np.asarray(el[0]).item()
            if v not in seen:
                seen.add(v)
                yield el


class _Choose(Dataset):
    """Elements of ``datasets`` picked by an index dataset (``choice``) or by
    weighted draws (``weights`` with a seed)."""

    def __init__(self, datasets: Sequence[Dataset], choice: Dataset | None, weights: Sequence[float] | None,
                 seed: int | None, stop_on_empty: bool) -> None:
        first = datasets[0]
        for d in datasets[1:]:
            if d._types != first._types:
                raise TypeError(f"Invalid `datasets`. `datasets` must have compatible element specs.\n "
                                f"Dataset 0 types={first.output_types}; dataset types={d.output_types}.")
        shapes = list(first._shapes)
        for d in datasets[1:]:
            shapes = [_merge_shapes(s, t) for s, t in zip(shapes, d._shapes)]
        self._datasets, self._choice, self._stop = list(datasets), choice, stop_on_empty
        w = np.ones(len(datasets)) if weights is None else np.asarray(weights, np.float64)
        self._weights = w / w.sum()
        s1, s2 = get_seed(seed)
        self._seeds = (int(s1), int(s2 or 0)) if s1 is not None else (_pyrandom.randint(0, 2**31 - 1), 0)
        captured = [t for d in datasets for t in d._captured] + (choice._captured if choice else [])
        Dataset.__init__(self, first._structure, first._types, shapes, captured)

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        its: list[PyIterator[Element] | None] = [d._iter(run) for d in self._datasets]
        if self._choice is not None:
            picks: PyIterator[int] = (int(el[0]) for el in self._choice._iter(run))
        else:
            rng = np.random.default_rng([self._seeds[0], self._seeds[1], run.next_epoch(self)])

            def draws() -> PyIterator[int]:
                while any(it is not None for it in its):
                    w = np.array([p if it is not None else 0.0 for p, it in zip(self._weights, its)])
                    yield int(rng.choice(len(w), p=w / w.sum()))
            picks = draws()
        for i in picks:
            if not 0 <= i < len(its):
                raise errors.InvalidArgumentError(None, None, f"Selector index out of range: {i} >= {len(its)}")
            it = its[i]
            el = next(it, None) if it is not None else None
            if el is None:
                its[i] = None
                if self._stop:
                    return
                continue
            yield el


class _Counter(Dataset):
    def __init__(self, start: int, step: int, dtype: Any) -> None:
        self._start, self._step = start, step
        super().__init__(None, [_dtypes.canonical(dtype)], [TensorShape([])])

    def _cardinality(self, run: RunContext) -> int:
        return INFINITE_CARDINALITY

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        d = self._types[0].np_dtype
        i = self._start
        while True:
            yield [np.asarray(i, d)]
            i += self._step


class _IgnoreErrors(Dataset):
    def __init__(self, ds: Dataset) -> None:
        self._input = ds
        Dataset.__init__(self, ds._structure, ds._types, ds._shapes, ds._captured)

    def _iter(self, run: RunContext) -> PyIterator[Element]:
        try:
            yield from self._input._iter(run)
        except errors.OpError:
            return
