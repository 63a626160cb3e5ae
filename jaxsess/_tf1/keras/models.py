"""``jaxsess._tf1.keras.models``: ``Model`` (functional), ``Sequential`` and their
training loop in TF1 graph mode, as ``tf.compat.v1.keras.models`` (Keras 2's
``training_v1``).

``compile`` builds, once: a target placeholder per output
(``<output layer>_target``), the total loss (the batch mean of the loss
function plus the layers' regularizer losses) and the metric tensors (batch
means); the train op (``optimizer.minimize`` on the trainable weights, run
with the layers' updates) is built on the first training call. ``fit``,
``evaluate``, ``predict`` and ``*_on_batch`` run these in
:func:`~jaxsess._tf1.keras.backend.get_session`, feeding the learning phase
``True`` for training. Epoch values are batch values averaged weighted by
batch size, as Keras.
"""

from __future__ import annotations

import inspect
import json
import math
import os
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from jaxsess._core import dtypes as _dtypes, errors as _errors
from jaxsess._core.graph import _tf2_behavior as _tf2
from jaxsess._core.graph._builder import constant, convert_to_tensor, placeholder, placeholder_with_default
from jaxsess._core.graph._graph import GraphKeys, Tensor, get_default_graph
from jaxsess._core.graph._shape import TensorShape
from jaxsess._tf1.data._dataset import INFINITE_CARDINALITY, Dataset
from jaxsess._tf1.keras import (
    _custom_objects as _custom_objects,
    _hdf5 as _hdf5,
    _optimizers as _optimizers,
    _serialization as _serialization,
    _tf_saved_model as _tf_saved_model,
    backend as K,
    layers as _layers,
    losses as _losses,
    metrics as _metrics,
    utils as _utils,
)
from jaxsess._tf1.keras._layers_core import Input, InputLayer, Layer, Node, keras_history
from jaxsess._tf1.keras.callbacks import Callback, History, ProgbarLogger
from jaxsess._tf1.ops import math_ops as _math, shape_ops as _shape_ops
from jaxsess._tf1.train._saver import Saver

__all__ = ["Model", "Sequential", "load_model", "save_model", "model_from_json", "model_from_config", "clone_model"]

def _flat(x: Any) -> list[Any]:
    return list(x) if isinstance(x, list | tuple) else [x]


def _readable_size(n: float) -> str:
    units = ["Byte", "KB", "MB", "GB", "TB", "PB"]
    i = 0
    while n >= 1024 and i < len(units) - 1:
        n /= 1024
        i += 1
    return f"{n:.2f} {units[i]}"


class _DatasetFeed:
    """A ``tf.data.Dataset`` given to ``fit``/``evaluate``/``predict``, read as Keras' v1
    loops read one: an initializable iterator, ``steps`` batches per epoch (without
    ``steps``: the dataset's cardinality when known, else until it runs out, and the
    iterator is re-initialized after each epoch).

    Raises:
      ValueError: an infinite dataset without ``steps`` (Keras' message).
    """

    def __init__(self, dataset: Dataset, steps: int | None, what: str) -> None:
        session = K.get_session()
        self.reset = steps is None
        if steps is None:
            size = int(session.run(dataset.cardinality()))
            if size == INFINITE_CARDINALITY:
                raise ValueError(f"When passing an infinitely repeating dataset, you must specify the `{what}` "
                                 "argument.")
            steps = size if size >= 0 else None
        self.steps = steps
        self._iterator = dataset.make_initializable_iterator()
        self._next = self._iterator.get_next()
        session.run(self._iterator.initializer)

    def epoch(self) -> Iterator[Any]:
        """The elements of one epoch (each a tuple: ``(x, y[, sample_weight])``, or ``x``)."""
        session = K.get_session()
        n = 0
        while self.steps is None or n < self.steps:
            try:
                item = session.run(self._next)
            except _errors.OutOfRangeError:
                if self.steps is not None:
                    print("WARNING: Your dataset ran out of data; interrupting training.", file=sys.stderr)
                return
            n += 1
            yield tuple(item) if isinstance(item, list) else item

    def restart(self) -> None:
        K.get_session().run(self._iterator.initializer)


class _SequencePasses:
    """A ``keras.utils.Sequence``'s batches as Keras' ``OrderedEnqueuer`` hands them to the v1
    loops: full passes over the sequence one after another, across ``fit``'s epochs (an epoch of
    ``steps < len(data)`` batches goes on where the last one stopped); ``shuffle`` reshuffles
    the order of the last pass in place (Python's ``random``) before each pass; the sequence's
    ``on_epoch_end`` runs after each full pass."""

    def __init__(self, data: Any, shuffle: bool) -> None:
        self.data = data
        self.shuffle = shuffle
        self.order = list(range(len(data)))
        self.pos = len(self.order)
        self.ended = True  # on_epoch_end has run for the last full pass (none yet)

    def take(self, steps: int) -> Iterator[Any]:
        """The next ``steps`` batches."""
        for _ in range(steps):
            if not self.order:
                return
            if self.pos >= len(self.order):
                self.end_pass()
                if self.shuffle:
                    random.shuffle(self.order)
                self.pos, self.ended = 0, False
            self.pos += 1
            yield self.data[self.order[self.pos - 1]]

    def end_pass(self) -> None:
        """Runs ``on_epoch_end`` if a full pass has just been taken."""
        if self.pos >= len(self.order) and not self.ended:
            self.ended = True
            self.data.on_epoch_end()


def _steps(steps: float | None) -> int | None:
    """A step count as Keras' v1 loops count (``step < steps``): a fraction rounds up."""
    return None if steps is None else int(math.ceil(steps))


def _epoch_order(n: int, batch_size: int, shuffle: bool | str) -> np.ndarray | None:
    """The order of the samples in an epoch, as Keras' v1 loops draw it from
    ``np.random``: ``np.random.shuffle`` of all indices (``shuffle=True``), or of
    whole batches, the last partial batch kept last (``'batch'``); ``None``: in order."""
    if not shuffle:
        return None
    index = np.arange(n)
    if shuffle == "batch":
        count = n // batch_size
        head = index[: count * batch_size].reshape(count, batch_size)
        np.random.shuffle(head)
        return np.append(head.reshape(-1), index[count * batch_size:])
    np.random.shuffle(index)
    return index


# -- metrics ---------------------------------------------------------------------------------


def _accuracy_fn(loss_fn: Any, output: Any) -> tuple[Callable[[Any, Any], Any], str]:
    name = getattr(loss_fn, "__name__", "") or getattr(getattr(loss_fn, "fn", None), "__name__", "")
    last = TensorShape(output.shape).as_list()[-1] if TensorShape(output.shape).ndims else None
    if name == "sparse_categorical_crossentropy":
        return _metrics.sparse_categorical_accuracy, "sparse"
    if name == "binary_crossentropy" or last == 1:
        return _metrics.binary_accuracy, "binary"
    return _metrics.categorical_accuracy, "categorical"


def _keras_graph_map(inputs: list[Any], outputs: list[Any]) -> tuple[list[Layer], dict[int, int], list[Node]]:
    """The layers between ``inputs`` and ``outputs`` in Keras' order, the depth of each node (by
    ``id``) and the nodes, as Keras' ``functional._map_graph_network``: layers by decreasing depth
    from the outputs, ties by first visit of a depth-first walk from the outputs."""
    finished: set[int] = set()
    nodes: list[Node] = []
    layer_index: dict[int, int] = {}
    by_id: dict[int, Layer] = {}

    def walk(t: Any) -> None:
        node = keras_history(t)
        if node is None or id(node) in finished:
            return
        if id(node.layer) not in layer_index:
            layer_index[id(node.layer)] = len(layer_index)
            by_id[id(node.layer)] = node.layer
        for x in node.input_tensors:
            walk(x)
        finished.add(id(node))
        nodes.append(node)

    for t in outputs:
        walk(t)
    node_depth: dict[int, int] = {}
    layer_depth: dict[int, int] = {}
    for node in reversed(nodes):
        depth = max(node_depth.setdefault(id(node), 0), layer_depth.get(id(node.layer), 0))
        layer_depth[id(node.layer)] = node_depth[id(node)] = depth
        for x in node.input_tensors:
            parent = keras_history(x)
            if parent is not None:
                node_depth[id(parent)] = max(depth + 1, node_depth.get(id(parent), 0))
    for t in inputs:
        in_node = keras_history(t)
        if in_node is not None and id(in_node.layer) not in layer_depth:
            layer_depth[id(in_node.layer)] = 0
            layer_index[id(in_node.layer)] = -1
            by_id[id(in_node.layer)] = in_node.layer
            node_depth[id(in_node)] = 0
            nodes.append(in_node)
    ordered = sorted(layer_depth, key=lambda k: (-layer_depth[k], layer_index[k]))
    return [by_id[k] for k in ordered], node_depth, nodes


# -- the model -------------------------------------------------------------------------------


class Model(Layer):
    """A graph of layers from ``inputs`` to ``outputs``, trainable with ``compile``/``fit``,
    as ``tf.compat.v1.keras.Model`` (functional API).

    Args:
      inputs: the input tensor(s) (``keras.Input``).
      outputs: the output tensor(s), made from the inputs by Keras layers.
      name: default ``model``, ``model_1``, ...

    Raises:
      ValueError: an output does not depend on the inputs through Keras
        layers ("Graph disconnected").
    """

    def __init__(self, inputs: Any = None, outputs: Any = None, name: str | None = None, **kwargs: Any) -> None:
        super().__init__(name=name, **kwargs)
        self._model_layers: list[Layer] = []
        self._nodes: list[Node] = []
        self.inputs: list[Any] = []
        self.outputs: list[Any] = []
        self.optimizer: Any = None
        self._compiled: dict[str, Any] | None = None
        self._train_op: Any = None
        self._saver: Any = None
        self._metric_totals: tuple[np.ndarray, np.ndarray] | None = None
        self._collected_trainable_weights: list[Any] | None = None
        self.history: History | None = None
        self.stop_training = False  # set by a callback (EarlyStopping) to end fit after the epoch
        if inputs is not None and outputs is not None:
            self._init_graph_network(_flat(inputs), _flat(outputs))
        elif inputs is not None or outputs is not None:
            raise ValueError("Model: give both `inputs` and `outputs`.")

    def __setattr__(self, name: str, value: Any) -> None:
        # Layers assigned to attributes of a subclassed model are its layers.
        if isinstance(value, Layer) and not name.startswith("_") and "_model_layers" in self.__dict__:
            if all(value is not x for x in self._model_layers):
                self._model_layers.append(value)
        super().__setattr__(name, value)

    def _init_graph_network(self, inputs: list[Any], outputs: list[Any]) -> None:
        for t in inputs:
            node = keras_history(t)
            if node is None or not isinstance(node.layer, InputLayer):
                raise ValueError(f"Model inputs must come from `keras.Input` (an InputLayer); got {t}.")
        input_set = set(inputs)
        order: list[Node] = []
        seen: set[int] = set()

        def visit(t: Any) -> None:
            node = keras_history(t)
            if node is None:
                raise ValueError(
                    f"Graph disconnected: cannot obtain value for tensor {t} at layer {self.name!r}: it was not "
                    "made by a Keras layer from the model's inputs."
                )
            if id(node) in seen:
                return
            if isinstance(node.layer, InputLayer) and t not in input_set:
                raise ValueError(f"Graph disconnected: cannot obtain value for tensor {t}: the input is not one "
                                 "of the model's inputs.")
            seen.add(id(node))
            for x in node.input_tensors:
                visit(x)
            order.append(node)

        for t in inputs:
            visit(t)
        for t in outputs:
            visit(t)
        self._nodes = order
        self.inputs = list(inputs)
        self.outputs = list(outputs)
        for layer in _keras_graph_map(inputs, outputs)[0]:
            if all(layer is not x for x in self._model_layers):
                self._model_layers.append(layer)
        self.built = True

    # -- structure --------------------------------------------------------------------------

    @property
    def layers(self) -> list[Layer]:
        """The model's layers (a functional model's ``InputLayer`` included), in call order."""
        return list(self._model_layers)

    def get_layer(self, name: str | None = None, index: int | None = None) -> Layer:
        """The layer called ``name`` or at ``index``.

        Raises:
          ValueError: no such layer.
        """
        if index is not None:
            return self.layers[index]
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise ValueError(f"No such layer: {name}. Existing layers are: {[x.name for x in self.layers]}.")

    def _collect(self, attr: str) -> list[Any]:
        out: list[Any] = []
        for layer in self.layers:
            for w in getattr(layer, attr):
                if all(w is not x for x in out):
                    out.append(w)
        return out

    @property
    def weights(self) -> list[Any]:
        """The layers' variables, layer by layer (each layer's trainable ones first)."""
        return self._collect("weights")

    @property
    def trainable_weights(self) -> list[Any]:
        return self._collect("trainable_weights") if self.trainable else []

    @property
    def non_trainable_weights(self) -> list[Any]:
        if not self.trainable:
            return self.weights
        return self._collect("non_trainable_weights")

    variables = weights
    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    @property
    def losses(self) -> list[Any]:
        """The layers' regularizer losses (and those given to :meth:`add_loss`)."""
        return self._collect("losses") + list(self._losses)

    @property
    def updates(self) -> list[Any]:
        return self._collect("updates") + list(self._updates)

    @property
    def input(self) -> Any:
        if not self.inputs:
            raise AttributeError(f"Model {self.name} has no input yet (build it or call it on a tensor).")
        return self.inputs[0] if len(self.inputs) == 1 else list(self.inputs)

    @property
    def output(self) -> Any:
        if not self.outputs:
            raise AttributeError(f"Model {self.name} has no output yet (build it or call it on a tensor).")
        return self.outputs[0] if len(self.outputs) == 1 else list(self.outputs)

    @property
    def input_shape(self) -> Any:
        """The shape (a tuple, ``None`` for unknown sizes) of the model's input, a list of them for
        several inputs, as ``tf.keras.Model.input_shape``.

        Raises:
          AttributeError: a model without inputs yet.
        """
        return self._shapes_of(self.inputs, "input")

    @property
    def output_shape(self) -> Any:
        """The shape of the model's output (a list of them for several outputs), as
        ``tf.keras.Model.output_shape``.

        Raises:
          AttributeError: a model without outputs yet.
        """
        return self._shapes_of(self.outputs, "output")

    def _shapes_of(self, tensors: Any, what: str) -> Any:
        if not tensors:
            raise AttributeError(f"Model {self.name} has no {what} yet (build it or call it on a tensor).")
        shapes = [tuple(TensorShape(t.shape).as_list()) for t in tensors]  # type: ignore[arg-type]
        return shapes[0] if len(shapes) == 1 else shapes

    def count_params(self) -> int:
        return int(sum(layer.count_params() for layer in self.layers))

    # -- calling ------------------------------------------------------------------------------

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        """Re-applies the model's layers to ``inputs`` (a functional model), in order."""
        if not self._nodes:
            raise NotImplementedError(f"Model {self.name}: a subclassed model must define `call`.")
        given = _flat(inputs)
        if len(given) != len(self.inputs):
            raise ValueError(f"Model {self.name} expects {len(self.inputs)} input(s), got {len(given)}.")
        value: dict[Any, Any] = dict(zip(self.inputs, given, strict=True))
        for node in self._nodes:
            if isinstance(node.layer, InputLayer):
                continue
            ins = [value[t] for t in node.input_tensors]
            outs = _flat(node.layer(ins if len(ins) > 1 else ins[0]))
            value.update(zip(node.output_tensors, outs, strict=True))
        result = [value[t] for t in self.outputs]
        return result[0] if len(result) == 1 else result

    def _build_from_data(self, x: np.ndarray, name: str | None = None) -> None:
        """Builds a model without inputs yet (subclassed, or a Sequential without ``input_shape``) on
        ``Input(batch_shape=(None, *x.shape[1:]))``, as Keras does on the first ``fit``/``predict``."""
        inp = Input(batch_shape=(None, *x.shape[1:]), name=name,
                    dtype=_dtypes.as_dtype(x.dtype) if x.dtype.kind == "f" else None)
        out = Layer.__call__(self, inp)
        self.inputs = [inp]
        self.outputs = _flat(out)
        self.built = True

    # -- summary ------------------------------------------------------------------------------

    def summary(self, line_length: int | None = None, positions: Sequence[float] | None = None,
                print_fn: Callable[[str], Any] | None = None) -> None:
        """Prints the layers, their output shapes and parameter counts, as Keras 2's ``summary``
        (``layer_utils.print_summary``): three columns (65 characters) for sequential-like models,
        a fourth, "Connected to", for other functional models (98), long cells wrapped.

        Raises:
          ValueError: the model is not built.
        """
        if not self.built and not self.outputs:
            raise ValueError("This model has not yet been built. Build the model first by calling it on a "
                             "tensor or by giving the first layer an `input_shape`.")
        out = print_fn or print
        own: list[Node] = []
        sequential_like = True
        if not isinstance(self, Sequential) and self._nodes:
            _, node_depth, own = _keras_graph_map(self.inputs, self.outputs)
            per_depth: dict[int, int] = {}
            for node in own:
                per_depth[node_depth[id(node)]] = per_depth.get(node_depth[id(node)], 0) + 1
                if len(node.input_tensors) > 1:
                    sequential_like = False
            if any(n > 1 for n in per_depth.values()):
                sequential_like = False
            ids = {id(n) for n in own}
            if any(sum(id(n) in ids for n in layer._inbound_nodes) > 1 for layer in self.layers):
                sequential_like = False
        if sequential_like:
            line_length = line_length or 65
            pos = list(positions or [0.45, 0.85, 1.0])
            header = ["Layer (type)", "Output Shape", "Param #"]
        else:
            line_length = line_length or 98
            pos = list(positions or [0.3, 0.6, 0.70, 1.0])
            header = ["Layer (type)", "Output Shape", "Param #", "Connected to"]
        cols = [int(line_length * p) for p in pos] if pos[-1] <= 1 else [int(p) for p in pos]

        def print_row(fields: Sequence[Any]) -> None:
            left = [str(x) for x in fields]
            while any(left):
                line = ""
                for col in range(len(left)):
                    start = cols[col - 1] if col > 0 else 0
                    space = 2 if col != len(cols) - 1 else 0
                    cutoff = cols[col] - start - space - (1 if col != len(cols) - 1 else 0)
                    fit = left[col][:cutoff]
                    breaks = [fit.find(x) + len(x) for x in ("),", "},", "],", "',") if fit.find(x) >= 0]
                    if breaks:
                        cutoff = min(breaks)
                        fit = fit[:cutoff]
                    if col == 0:
                        line += " "
                    line += fit + (" " * space if space else "")
                    left[col] = left[col][cutoff:]
                    line += " " * (cols[col] - len(line))
                out(line)

        out(f'Model: "{self.name}"')
        out("_" * line_length)
        print_row(header)
        out("=" * line_length)
        own_ids = {id(n) for n in own}
        for layer in self.layers:
            if isinstance(layer, InputLayer) and isinstance(self, Sequential):
                continue
            try:
                shape: Any = layer.output_shape
                shape = [shape] if isinstance(layer, InputLayer) else shape
            except AttributeError:
                shape = "multiple"
            fields = [f"{layer.name} ({type(layer).__name__})", shape, layer.count_params()]
            if not sequential_like:
                connections = []
                for node in layer._inbound_nodes:
                    if id(node) not in own_ids:
                        continue
                    for t in node.input_tensors:
                        src = keras_history(t)
                        if src is not None:
                            connections.append(f"{src.layer.name}[{src.layer._inbound_nodes.index(src)}]"
                                               f"[{src.output_tensors.index(t)}]")
                fields.append(connections)
            print_row(fields)
            out(" " * line_length)
        out("=" * line_length)
        size = {id(w): np.dtype(w.dtype.as_numpy_dtype).itemsize for w in self.weights}
        collected = self._collected_trainable_weights
        trainable_weights = collected if collected is not None else self.trainable_weights
        trainable = sum(int(np.prod(w.shape.as_list())) for w in trainable_weights)
        non_trainable = sum(int(np.prod(w.shape.as_list())) for w in self.non_trainable_weights)
        t_bytes = sum(int(np.prod(w.shape.as_list())) * size[id(w)] for w in trainable_weights)
        n_bytes = sum(int(np.prod(w.shape.as_list())) * size[id(w)] for w in self.non_trainable_weights)
        out(f"Total params: {trainable + non_trainable} ({_readable_size(t_bytes + n_bytes)})")
        out(f"Trainable params: {trainable} ({_readable_size(t_bytes)})")
        out(f"Non-trainable params: {non_trainable} ({_readable_size(n_bytes)})")
        out("_" * line_length)

    # -- compile ------------------------------------------------------------------------------

    def compile(self, optimizer: Any = "rmsprop", loss: Any = None, metrics: Any = None,
                loss_weights: Any = None, **kwargs: Any) -> None:
        """Sets the optimizer, loss and metrics, as ``tf.keras.Model.compile``.

        Args:
          optimizer: ``'adam'``, ``'sgd'``, a ``keras.optimizers`` object or a
            ``jaxsess.train`` optimizer (``tf.train.AdamOptimizer(0.01)``).
          loss: a name (``'sparse_categorical_crossentropy'``, ``'mse'``...), a
            ``keras.losses`` function or object, or ``fn(y_true, y_pred)``; for a
            model with several outputs also a list (one per output) or a dict
            keyed by output layer name (one loss given alone applies to every output).
          metrics: names (``'accuracy'``/``'acc'``: binary, categorical or
            sparse accuracy chosen from the loss and output, as Keras;
            ``'mse'``, ``'mae'``) or functions; with several outputs a list
            (for every output), a list of lists or a dict keyed by output name.
          loss_weights: a list or a dict of scalars weighting each output's loss
            in the total loss (default 1).

        Raises:
          ValueError: no loss, an unknown name or output name, or the model is not built.
          NotImplementedError: other arguments (``sample_weight_mode``, ...).
        """
        if loss is None:
            raise ValueError("The model must be compiled with a `loss`.")
        if kwargs:
            raise NotImplementedError(f"Model.compile: unsupported arguments {sorted(kwargs)}.")
        self.optimizer = _optimizers.get(optimizer)
        self.loss = loss
        self.loss_weights = loss_weights
        self._metric_specs = metrics
        self._compiled = None
        self._train_op = None
        self._collected_trainable_weights = None  # taken when compiled (Keras' compile), as Keras
        if self.outputs:
            self._build_compiled()

    @property
    def output_names(self) -> list[str]:
        """The names of the layers making the outputs, as Keras."""
        names = []
        for t in self.outputs:
            node = keras_history(t)
            names.append(node.layer.name if node is not None else "output")
        return names

    @property
    def input_names(self) -> list[str]:
        """The names of the input layers, as Keras."""
        names = []
        for t in self.inputs:
            node = keras_history(t)
            names.append(node.layer.name if node is not None else "input")
        return names

    def _per_output(self, spec: Any, what: str, default: Any) -> list[Any]:
        """``spec`` (one value, a list with one value per output, or a dict by output name)
        as a list with one entry per output."""
        names = self.output_names
        if isinstance(spec, dict):
            unknown = sorted(set(spec) - set(names))
            if unknown:
                raise ValueError(f"Unknown entries in {what} dictionary: {unknown}. Only expected following keys: "
                                 f"{names}")
            return [spec.get(n, default) for n in names]
        if isinstance(spec, list | tuple) and what != "metrics":
            if len(spec) != len(names):
                raise ValueError(f"When passing a list as {what}, it should have one entry per model output. The "
                                 f"model has {len(names)} outputs, but you passed {what}={spec!r}")
            return list(spec)
        if what == "metrics" and isinstance(spec, list | tuple) and spec and all(
                isinstance(m, list | tuple) for m in spec):
            if len(spec) != len(names):
                raise ValueError(f"When passing a list of lists as metrics, it should have one entry per model "
                                 f"output. The model has {len(names)} outputs, but you passed metrics={spec!r}")
            return [list(m) for m in spec]
        return [spec] * len(names)

    def _build_compiled(self) -> dict[str, Any]:
        if self._compiled is not None:
            return self._compiled
        graph = get_default_graph()
        names = self.output_names
        several = len(self.outputs) > 1
        loss_fns = [_losses.get(spec) for spec in self._per_output(self.loss, "loss", None)]
        weights = self._per_output(self.loss_weights, "loss_weights", 1.0) if self.loss_weights is not None \
            else [1.0] * len(names)
        metric_specs = [_flat(m) if m is not None else [] for m in self._per_output(self._metric_specs or [],
                                                                                     "metrics", [])]
        targets, sample_weights, losses, ranks, weighted = [], [], [], [], []
        with graph.name_scope(None):
            for output, out_name, loss_fn in zip(self.outputs, names, loss_fns, strict=True):
                rank = TensorShape(output.shape).ndims or 2
                target = placeholder(_dtypes.as_dtype(output.dtype), shape=[None] * rank, name=f"{out_name}_target")
                # Keras' per-sample weights (ones unless fit/evaluate are given sample_weight or class_weight)
                sw = placeholder_with_default(constant([1.0], _dtypes.as_dtype(output.dtype)), shape=[None],
                                              name=f"{out_name}_sample_weights")
                with graph.name_scope("loss"):
                    with graph.name_scope(out_name + "_loss"):
                        per_sample = convert_to_tensor(loss_fn(target, output))
                        losses.append(self._weighted_loss(per_sample, sw))
                targets.append(target)
                sample_weights.append(sw)
                ranks.append(rank)
                weighted.append(TensorShape(per_sample.shape).ndims != 0)
            with graph.name_scope("loss"):
                terms = [loss if w == 1.0 else _math.multiply(loss, _math.cast(w, loss.dtype))
                         for loss, w in zip(losses, weights, strict=True)]
                total = terms[0] if len(terms) == 1 else _math.add_n(terms)
                reg = self.losses
                total = _math.add(total, _math.add_n(reg)) if reg else total
            fetch_names = ["loss"] + ([f"{n}_loss" for n in names] if several else [])
            fetches = [total] + (losses if several else [])
            stateful: list[tuple[int, _metrics.Metric]] = []
            with graph.name_scope("metrics"):
                for output, out_name, loss_fn, target, specs in zip(self.outputs, names, loss_fns, targets,
                                                                    metric_specs, strict=True):
                    for spec in specs:
                        if isinstance(spec, _metrics.Metric):  # stateful: updated each batch, reset per loop
                            name = f"{out_name}_{spec.name}" if several else spec.name
                            if name in fetch_names:
                                continue
                            with graph.name_scope(name):
                                fetches.append(spec(target, output))
                            fetch_names.append(name)
                            stateful.append((len(fetches) - 1, spec))
                            continue
                        if spec in ("accuracy", "acc"):
                            fn, _ = _accuracy_fn(loss_fn, output)
                            name = str(spec) if _tf2.enabled() else "acc"
                        elif isinstance(spec, str):
                            fn = _metrics.get(spec)
                            # TF1's Keras (after disable_v2_behavior) names it by its function: 'mae' is
                            # 'mean_absolute_error'
                            name = spec if _tf2.enabled() else fn.__name__.lstrip("_")
                        elif callable(spec):
                            fn = spec
                            name = getattr(spec, "__name__", "metric")
                        else:
                            raise ValueError(f"Unknown metric: {spec!r}")
                        name = f"{out_name}_{name}" if several else name
                        if name in fetch_names:  # as Keras: metrics are keyed by name, a repeat is dropped
                            continue
                        with graph.name_scope(name):
                            fetches.append(_math.reduce_mean(fn(target, output)))
                        fetch_names.append(name)
        if self._collected_trainable_weights is None:
            # what the train op updates: the trainable weights when compiled (a model frozen later,
            # the GAN recipe's `discriminator.trainable = False`, still trains), as Keras
            self._collected_trainable_weights = self.trainable_weights
        self._compiled = {"targets": targets, "fetches": fetches, "names": fetch_names, "ranks": ranks,
                          "stateful": stateful,
                          "sample_weights": sample_weights, "weighted": weighted,
                          "n_output_losses": len(losses) if several else 0}
        return self._compiled

    @staticmethod
    def _weighted_loss(per_sample: Any, sample_weights: Any) -> Any:
        """``sum(loss * weight) / size(loss)`` (Keras' ``SUM_OVER_BATCH_SIZE``): the mean when all
        weights are 1; a loss that is already a scalar (a ``keras.losses`` object) is kept as it is."""
        rank = TensorShape(per_sample.shape).ndims
        if rank == 0:
            return per_sample
        w = _math.cast(sample_weights, per_sample.dtype)
        if rank is not None and rank > 1:
            w = _shape_ops.reshape(w, [-1] + [1] * (rank - 1))
        size = _math.cast(_shape_ops.size(per_sample), per_sample.dtype)
        return _math.truediv(_math.reduce_sum(_math.multiply(per_sample, w)), size)

    def _sample_weights_of(self, sample_weight: Any, class_weight: Any, ys: list[np.ndarray]) -> np.ndarray | None:
        """The per-sample weights ``[n]`` from ``sample_weight`` and/or ``class_weight``
        (``{class: weight}``, the class being the argmax of one-hot targets or the label), as Keras;
        the same weights apply to every output."""
        y = ys[0]
        n = y.shape[0]
        weights = None
        if sample_weight is not None:
            weights = np.asarray(sample_weight, dtype=np.float64)
            if weights.shape != (n,):
                raise ValueError(f"Found a sample_weight array with shape {weights.shape} for an input with shape "
                                 f"{y.shape}. sample_weight must be a 1-D array of {n} entries (one per sample).")
        if class_weight is not None:
            classes = np.argmax(y, axis=-1) if y.ndim > 1 and y.shape[-1] > 1 else y.reshape(n, -1)[:, 0]
            if classes.ndim != 1:
                raise ValueError("class_weight is not supported for targets with a time dimension (3-D targets).")
            missing = {int(c) for c in classes} - {int(k) for k in class_weight}
            if missing:
                raise ValueError(f"`class_weight` must contain all classes in the data. The classes {sorted(missing)} "
                                 "exist in the data but not in `class_weight`.")
            cw = np.array([class_weight[int(c)] for c in classes], dtype=np.float64)
            weights = cw if weights is None else weights * cw
        if weights is not None and not all(self._build_compiled()["weighted"]):
            raise NotImplementedError("Model: sample_weight/class_weight need a loss function giving per-sample "
                                      "losses (a loss name or function), not a keras.losses object.")
        return weights

    def _make_train_op(self) -> Any:
        if self._train_op is None:
            graph = get_default_graph()
            before = {id(v) for v in graph.get_collection(GraphKeys.GLOBAL_VARIABLES)}
            total = self._build_compiled()["fetches"][0]
            with graph.name_scope(None), graph.name_scope("training"):
                self._train_op = self.optimizer.minimize(total, var_list=self._collected_trainable_weights)
            for v in graph.get_collection(GraphKeys.GLOBAL_VARIABLES):
                if id(v) not in before:
                    K.track_variable(v)
        return self._train_op

    @property
    def metrics_names(self) -> list[str]:
        """``['loss', <output>_loss..., <metric names>...]`` after ``compile``, as Keras."""
        if self.optimizer is None:
            return []
        if self.outputs:
            return list(self._build_compiled()["names"])
        specs = _flat(self._metric_specs) if self._metric_specs is not None else []
        names = [s if isinstance(s, str) else s.name if isinstance(s, _metrics.Metric) else
                 getattr(s, "__name__", "metric") for s in specs]
        return ["loss"] + list(dict.fromkeys(names))

    # -- data ---------------------------------------------------------------------------------

    def _inputs_of(self, x: Any) -> list[np.ndarray]:
        if isinstance(x, dict):
            if not self.outputs:
                raise ValueError(f"Model {self.name}: dict inputs need a model built on named `keras.Input`s.")
            missing = [n for n in self.input_names if n not in x]
            if missing:
                raise ValueError(f"No data provided for {missing[0]!r}. Need data for each key in: "
                                 f"{self.input_names}")
            xs = [np.asarray(x[n]) for n in self.input_names]
        elif isinstance(x, list | tuple):
            several = len(self.inputs) > 1 or (len(x) == 1 and isinstance(x[0], np.ndarray))
            xs = [np.asarray(a) for a in x] if several else [np.asarray(x)]  # nested lists: one array
        else:
            xs = [np.asarray(x)]
        if not self.outputs:
            self._build_from_data(xs[0])
        if len(xs) != len(self.inputs):
            raise ValueError(f"Model {self.name} expects {len(self.inputs)} input array(s), got {len(xs)}.")
        if len({a.shape[0] for a in xs}) != 1:
            raise ValueError(f"Input arrays should have the same number of samples; got {[a.shape[0] for a in xs]}.")
        return xs

    def _targets_of(self, y: Any, n: int) -> list[np.ndarray]:
        compiled = self._build_compiled()
        names = self.output_names
        if isinstance(y, dict):
            missing = [k for k in names if k not in y]
            if missing:
                raise ValueError(f"No data provided for {missing[0]!r}. Need data for each key in: {names}")
            ys = [y[k] for k in names]
        elif len(names) > 1:
            if not isinstance(y, list | tuple) or len(y) != len(names):
                raise ValueError(f"Error when checking model target: the list of Numpy arrays that you are passing "
                                 f"to your model is not the size the model expected. Expected to see {len(names)} "
                                 f"array(s), but instead got {y!r:.100}")
            ys = list(y)
        else:
            ys = [y[0] if isinstance(y, list | tuple) and len(y) == 1 and isinstance(y[0], np.ndarray) else y]
        out = []
        for arr, target, rank in zip(ys, compiled["targets"], compiled["ranks"], strict=True):
            arr = np.asarray(arr)
            if arr.ndim == rank - 1:
                arr = arr.reshape(*arr.shape, 1)
            if arr.shape[0] != n:
                raise ValueError(f"Input arrays should have the same number of samples as target arrays. Found {n} "
                                 f"input samples and {arr.shape[0]} target samples.")
            out.append(arr.astype(target.dtype.as_numpy_dtype))
        return out

    def _feed(self, xs: list[np.ndarray], ys: list[np.ndarray] | None, training: bool,
              sample_weights: np.ndarray | None = None) -> dict[Any, Any]:
        feed: dict[Any, Any] = dict(zip(self.inputs, xs, strict=True))
        if ys is not None:
            assert self._compiled is not None
            feed.update(zip(self._compiled["targets"], ys, strict=True))
            if sample_weights is not None:
                feed.update((sw, sample_weights) for sw in self._compiled["sample_weights"])
        phase = K._learning_phase_placeholder()
        if phase is not None:
            feed[phase] = training
        return feed

    def _check_compiled(self) -> None:
        if self.optimizer is None:
            raise RuntimeError("You must compile your model before training/testing. Use `model.compile(optimizer, "
                               "loss)`.")

    # -- training and inference -----------------------------------------------------------------

    def _array_batches(self, xs: list[np.ndarray], ys: list[np.ndarray], batch_size: int,
                       index: np.ndarray | None = None, sample_weights: np.ndarray | None = None) -> Any:
        n = xs[0].shape[0]
        order = np.arange(n) if index is None else index
        for start in range(0, n, batch_size):
            idx = order[start:start + batch_size]
            yield [a[idx] for a in xs], [a[idx] for a in ys], None if sample_weights is None else sample_weights[idx]

    def _run_batches(self, batches: Any, train: bool, callbacks: Sequence[Callback] = (),
                     reset_metrics: bool = True, loss_per_step: bool = False) -> list[float]:
        """Runs ``(xs, ys, sample_weights)`` batches; returns the epoch values as Keras' v1 loops:
        the loss averaged over samples, each output's loss over steps, metrics over samples (the
        batch logs give the batch's loss and the running values of the others, as Keras).

        The running values of the metrics and output losses are the model's state, as Keras'
        stateful metrics: a loop starts from zero (``reset_metrics``) and leaves its totals, which a
        following ``train_on_batch``/``test_on_batch`` (``reset_metrics=False``) adds to, then resets.

        ``loss_per_step``: the loss is averaged over batches instead (Keras' v1 test loop over a
        generator or ``Sequence``, and its loops over a dataset: uneven batches weigh alike)."""
        self._check_compiled()
        compiled = self._build_compiled()
        ops = [self._make_train_op(), *self.updates] if train else []
        session = K.get_session()
        n_out_losses = compiled["n_output_losses"]
        sums = np.zeros(len(compiled["fetches"]))
        div = np.zeros(len(compiled["fetches"]))
        if not reset_metrics and self._metric_totals is not None and len(self._metric_totals[0]) == len(sums):
            sums[1:], div[1:] = self._metric_totals[0][1:], self._metric_totals[1][1:]
        else:
            for _, metric in compiled["stateful"]:
                metric.reset_states()
        # stateful metrics give their running value: the last one is the loop's
        last = np.zeros(len(sums), dtype=bool)
        last[[i for i, _ in compiled["stateful"]]] = True
        for b, (bx, by, bw) in enumerate(batches):
            size = bx[0].shape[0]
            for cb in callbacks:
                cb.on_train_batch_begin(b, {"batch": b, "size": size})
            values, _ = session.run([compiled["fetches"], ops], feed_dict=self._feed(bx, by, train, bw))
            values = np.asarray(values, dtype=np.float64)
            weights = np.full(len(values), float(size))
            weights[1:1 + n_out_losses] = 1.0
            if loss_per_step:
                weights[0] = 1.0
            sums += values * weights
            div += weights
            sums[last], div[last] = values[last], 1.0
            if callbacks:
                running = [float(values[0]), *(float(v) for v in (sums / div)[1:])]
                logs = {"batch": b, "size": size, **dict(zip(compiled["names"], running, strict=True))}
                for cb in callbacks:
                    cb.on_train_batch_end(b, logs)
            if train and self.stop_training:
                break
        self._metric_totals = (sums, div)
        return [float(v) for v in sums / np.maximum(div, 1.0)]

    def _generator_batches(self, data: Any, steps: float | None, what: str, shuffle: bool = False,
                           with_targets: bool = True, passes: _SequencePasses | None = None) -> Any:
        """Batches from a ``keras.utils.Sequence`` (``steps`` default ``len(data)``) or a Python
        generator yielding ``(x, y)`` / ``(x, y, sample_weight)`` (``x`` alone when predicting).

        A ``Sequence``'s batches come from ``passes`` (``fit`` keeps one for all its epochs; by
        default a new one, in order unless ``shuffle``)."""
        steps = _steps(steps)
        if isinstance(data, _utils.Sequence):
            passes = _SequencePasses(data, shuffle) if passes is None else passes
            steps = len(data) if steps is None else steps
            source: Any = passes.take(steps)
        else:
            if steps is None:
                raise ValueError(f"`{what}=None` is only valid for a generator based on the `keras.utils.Sequence` "
                                 "class. Please specify `" + what + "` or use the `keras.utils.Sequence` class.")
            source = data
        for _, item in zip(range(steps), source, strict=False):
            if not with_targets:
                x = item[0] if isinstance(item, tuple) and len(item) in (1, 2, 3) else item
                yield self._inputs_of(x), None, None
                continue
            if not isinstance(item, tuple) or len(item) not in (2, 3):
                raise ValueError(f"Output of generator should be a tuple `(x, y, sample_weight)` or `(x, y)`. "
                                 f"Found: {item!r:.100}")
            xs = self._inputs_of(item[0])
            ys = self._targets_of(item[1], xs[0].shape[0])
            sw = self._sample_weights_of(item[2], None, ys) if len(item) == 3 else None
            yield xs, ys, sw

    @staticmethod
    def _is_generator(x: Any) -> bool:
        return isinstance(x, _utils.Sequence | Iterator | _DatasetFeed)

    def fit(self, x: Any = None, y: Any = None, batch_size: int | None = None, epochs: int = 1, verbose: int = 1,
            callbacks: Sequence[Callback] | None = None, validation_split: float = 0.0,
            validation_data: Any = None, shuffle: bool | str = True, class_weight: dict[int, float] | None = None,
            sample_weight: Any = None, initial_epoch: int = 0, steps_per_epoch: int | None = None,
            validation_steps: int | None = None, **kwargs: Any) -> History:
        """Trains for ``epochs`` passes over ``(x, y)`` in batches of ``batch_size`` (32),
        as ``tf.keras.Model.fit`` on NumPy arrays (a list or a dict by input name for
        several inputs; a list or a dict by output name for several outputs), or on
        a ``keras.utils.Sequence`` / Python generator of ``(x, y[, sample_weight])``
        batches (``steps_per_epoch`` batches per epoch, default ``len(sequence)``; a fraction
        rounds up). As Keras' enqueuer, a ``Sequence`` is read in full passes that run on across
        epochs (``on_epoch_end`` after each pass; ``shuffle`` reshuffles the batch order in
        place with Python's ``random`` before each pass).

        Returns:
          A :class:`History`: ``history['loss']``, ``history[<metric>]`` and, with
          validation, ``history['val_loss']``... (one float per epoch).

        ``sample_weight`` (``[n]``) and ``class_weight`` (``{class: weight}``)
        weight each sample's loss: the batch loss is ``sum(loss * weight) /
        batch_size``, as Keras; metrics are not weighted.

        ``shuffle`` (``True``, ``'batch'`` or ``False``) orders each epoch's
        samples with ``np.random`` as Keras' v1 loop does, and the validation pass
        shuffles its samples too, so a program that seeds NumPy sees Keras' orders.

        Raises:
          RuntimeError: not compiled.
          ValueError: inputs and targets differ in length; a ``sample_weight`` not
            of shape ``[n]``; a class missing from ``class_weight``; a generator
            without ``steps_per_epoch``.
        """
        if kwargs.pop("max_queue_size", None) is not None or kwargs.pop("workers", None) is not None:
            pass  # batches are made in this thread, one at a time
        kwargs.pop("use_multiprocessing", None)
        if kwargs:
            raise NotImplementedError(f"Model.fit: unsupported arguments {sorted(kwargs)}.")
        self._check_compiled()
        if isinstance(x, Dataset):
            if y is not None:
                raise ValueError("`y` argument is not supported when using dataset as input.")
            x = _DatasetFeed(x, steps_per_epoch, "steps_per_epoch")
            steps_per_epoch = x.steps
        if isinstance(validation_data, Dataset):
            validation_data = _DatasetFeed(validation_data, validation_steps, "validation_steps")
        generator = self._is_generator(x)
        if generator:
            n = steps_per_epoch if steps_per_epoch is not None else (
                len(x) if isinstance(x, _utils.Sequence) else None)
            xs: list[np.ndarray] = []
            ys: list[np.ndarray] = []
            sws = None
        else:
            xs = self._inputs_of(x)
            n = xs[0].shape[0]
            ys = self._targets_of(y, n)
            sws = self._sample_weights_of(sample_weight, class_weight, ys)
        if validation_data is None and validation_split and not generator:
            split = int(xs[0].shape[0] * (1.0 - validation_split))
            validation_data = ([a[split:] for a in xs], [a[split:] for a in ys])
            xs, ys, n = [a[:split] for a in xs], [a[:split] for a in ys], split
            sws = None if sws is None else sws[:split]
        batch_size = batch_size or 32
        self.stop_training = False
        history = History()
        cbs: list[Callback] = [*(callbacks or []), history]  # History last, as Keras
        by_steps = generator or isinstance(x, _DatasetFeed)
        if verbose:  # Keras' v1 loop adds the bar after History: it draws after the others ran
            cbs.append(ProgbarLogger("steps" if by_steps else "samples"))
        for cb in cbs:
            cb.set_model(self)
            cb.params = {"batch_size": batch_size, "epochs": epochs, "steps": steps_per_epoch if by_steps else None,
                         "samples": n, "verbose": verbose, "do_validation": validation_data is not None}
            cb.on_train_begin({})
        names = self._build_compiled()["names"]
        if verbose and not generator:
            n_val = None if validation_data is None or self._is_generator(validation_data) else len(
                np.asarray(_flat(validation_data[1])[0]))
            print(f"Train on {n} samples" + ("" if n_val is None else f", validate on {n_val} samples"), file=sys.stdout)
        passes = _SequencePasses(x, bool(shuffle)) if isinstance(x, _utils.Sequence) else None
        for epoch in range(initial_epoch, epochs):
            if self.stop_training:
                break
            for cb in cbs:
                cb.on_epoch_begin(epoch, {})
            if isinstance(x, _DatasetFeed):
                batches = self._generator_batches(x.epoch(), sys.maxsize if x.steps is None else x.steps,
                                                  "steps_per_epoch")
            elif generator:
                batches = self._generator_batches(x, steps_per_epoch, "steps_per_epoch", passes=passes)
            else:
                index = _epoch_order(xs[0].shape[0], batch_size, shuffle)
                batches = self._array_batches(xs, ys, batch_size, index, sws)
            values = self._run_batches(batches, True, cbs, loss_per_step=isinstance(x, _DatasetFeed))
            if passes is not None:
                passes.end_pass()
            if isinstance(x, _DatasetFeed) and x.reset and epoch < epochs - 1:
                x.restart()
            logs = dict(zip(names, values, strict=True))
            if validation_data is not None and not self.stop_training:
                # as Keras' v1 loop, whose validation pass shuffles its samples (np.random) every epoch
                val = self._evaluate_values(validation_data, batch_size, validation_steps, shuffle=True)
                logs.update({f"val_{k}": v for k, v in zip(names, val, strict=True)})
            for cb in cbs:
                cb.on_epoch_end(epoch, logs)
        for cb in cbs:
            cb.on_train_end({})
        self.history = history
        return history

    def _evaluate_values(self, data: Any, batch_size: int, steps: int | None, shuffle: bool = False) -> list[float]:
        if isinstance(data, Dataset):
            data = _DatasetFeed(data, steps, "steps")
        if isinstance(data, _DatasetFeed):
            values = self._run_batches(self._generator_batches(
                data.epoch(), sys.maxsize if data.steps is None else data.steps, "steps"), False, loss_per_step=True)
            if data.reset:
                data.restart()
            return values
        if self._is_generator(data):
            return self._run_batches(self._generator_batches(data, steps, "validation_steps"), False,
                                     loss_per_step=True)
        vx, vy = data[0], data[1]
        vxs = self._inputs_of(vx)
        vys = self._targets_of(vy, vxs[0].shape[0])
        vsw = self._sample_weights_of(data[2], None, vys) if len(data) == 3 else None
        index = _epoch_order(vxs[0].shape[0], batch_size, shuffle)
        return self._run_batches(self._array_batches(vxs, vys, batch_size, index, sample_weights=vsw), False)

    def fit_generator(self, generator: Any, steps_per_epoch: int | None = None, epochs: int = 1, verbose: int = 1,
                      callbacks: Sequence[Callback] | None = None, validation_data: Any = None,
                      validation_steps: int | None = None, class_weight: Any = None, max_queue_size: int = 10,
                      workers: int = 1, use_multiprocessing: bool = False, shuffle: bool = True,
                      initial_epoch: int = 0) -> History:
        """:meth:`fit` on a generator or ``keras.utils.Sequence``, as ``tf.keras.Model.fit_generator``.

        Raises:
          ValueError: a generator that is not a ``Sequence`` without ``steps_per_epoch``.
          NotImplementedError: ``class_weight``.
        """
        if class_weight is not None:
            raise NotImplementedError("Model.fit_generator: class_weight is not supported.")
        return self.fit(generator, steps_per_epoch=steps_per_epoch, epochs=epochs, verbose=verbose,
                        callbacks=callbacks, validation_data=validation_data, validation_steps=validation_steps,
                        shuffle=shuffle, initial_epoch=initial_epoch)

    def evaluate(self, x: Any = None, y: Any = None, batch_size: int | None = None, verbose: int = 1,
                 sample_weight: Any = None, steps: int | None = None, **kwargs: Any) -> Any:
        """The loss (and metrics) over ``(x, y)`` (or a generator / ``Sequence``, ``steps``
        batches) in the test phase: a ``float32`` scalar, or ``[loss, *metrics]`` when
        compiled with metrics or several outputs, as ``tf.keras.Model.evaluate``
        (``sample_weight`` as :meth:`fit`)."""
        for k in ("max_queue_size", "workers", "use_multiprocessing", "callbacks"):
            kwargs.pop(k, None)
        if kwargs:
            raise NotImplementedError(f"Model.evaluate: unsupported arguments {sorted(kwargs)}.")
        self._check_compiled()
        if isinstance(x, Dataset) or self._is_generator(x):
            values = self._evaluate_values(x, batch_size or 32, steps)
        else:
            data = (x, y) if sample_weight is None else (x, y, sample_weight)
            values = self._evaluate_values(data, batch_size or 32, None)
        out: list[np.floating[Any]] = [np.float32(v) for v in values]
        if isinstance(x, Dataset):  # Keras' loop over a dataset sums the step losses in Python floats
            out[0] = np.float64(values[0])
        return out[0] if len(out) == 1 else out

    def evaluate_generator(self, generator: Any, steps: int | None = None, callbacks: Any = None,
                           max_queue_size: int = 10, workers: int = 1, use_multiprocessing: bool = False,
                           verbose: int = 0) -> Any:
        """:meth:`evaluate` on a generator or ``keras.utils.Sequence``, as
        ``tf.keras.Model.evaluate_generator``."""
        return self.evaluate(generator, steps=steps)

    def predict(self, x: Any, batch_size: int | None = None, verbose: int = 0, steps: int | None = None,
                **kwargs: Any) -> Any:
        """The outputs for ``x`` (arrays, or a generator / ``Sequence`` of input batches,
        ``steps`` of them) in the test phase, batch by batch (32), concatenated, as
        ``tf.keras.Model.predict``: one array, or a list for several outputs."""
        for k in ("max_queue_size", "workers", "use_multiprocessing", "callbacks"):
            kwargs.pop(k, None)
        if kwargs:
            raise NotImplementedError(f"Model.predict: unsupported arguments {sorted(kwargs)}.")
        if isinstance(x, Dataset):
            feed = _DatasetFeed(x, steps, "steps")
            batches = [b[0] for b in self._generator_batches(
                feed.epoch(), sys.maxsize if feed.steps is None else feed.steps, "steps", with_targets=False)]
        elif self._is_generator(x):
            batches = [b[0] for b in self._generator_batches(x, steps, "steps", with_targets=False)]
        else:
            xs = self._inputs_of(x)
            bs = batch_size or 32
            batches = [[a[s:s + bs] for a in xs] for s in range(0, xs[0].shape[0], bs)]
        session = K.get_session()
        parts = [session.run(self.outputs, feed_dict=self._feed(b, None, False)) for b in batches]
        outs = [np.concatenate([p[i] for p in parts], axis=0) for i in range(len(self.outputs))]
        return outs[0] if len(outs) == 1 else outs

    def predict_generator(self, generator: Any, steps: int | None = None, callbacks: Any = None,
                          max_queue_size: int = 10, workers: int = 1, use_multiprocessing: bool = False,
                          verbose: int = 0) -> Any:
        """:meth:`predict` on a generator or ``keras.utils.Sequence``, as
        ``tf.keras.Model.predict_generator``."""
        return self.predict(generator, steps=steps)

    def _on_batch(self, x: Any, y: Any, train: bool, sample_weight: Any = None, class_weight: Any = None) -> Any:
        self._check_compiled()
        xs = self._inputs_of(x)
        ys = self._targets_of(y, xs[0].shape[0])
        sws = self._sample_weights_of(sample_weight, class_weight, ys)
        values = self._run_batches(self._array_batches(xs, ys, xs[0].shape[0], sample_weights=sws), train,
                                   reset_metrics=False)
        self._metric_totals = None  # Keras' reset_metrics=True, after the batch
        out = [np.float32(v) for v in values]
        return out[0] if len(out) == 1 else out

    def train_on_batch(self, x: Any, y: Any, sample_weight: Any = None,
                       class_weight: dict[int, float] | None = None) -> Any:
        """One training step on ``(x, y)``; returns the loss (and metrics) of that batch, as Keras
        (``sample_weight``/``class_weight`` as :meth:`fit`)."""
        return self._on_batch(x, y, True, sample_weight, class_weight)

    def test_on_batch(self, x: Any, y: Any, sample_weight: Any = None) -> Any:
        """The loss (and metrics) of ``(x, y)`` in the test phase."""
        return self._on_batch(x, y, False, sample_weight)

    def predict_on_batch(self, x: Any) -> Any:
        xs = self._inputs_of(x)
        return self.predict(xs if len(xs) > 1 else xs[0], batch_size=xs[0].shape[0])

    # -- config ----------------------------------------------------------------------------------

    def get_config(self) -> dict[str, Any]:
        """The functional model's layers and how they connect, as Keras' ``Functional.get_config``:
        ``name``, ``layers`` (``class_name``, ``config``, ``name``, ``inbound_nodes``: per call
        ``[[layer name, node index, tensor index, {}], ...]``), ``input_layers``, ``output_layers``.

        Raises:
          NotImplementedError: a subclassed model (its ``call`` is Python code).
        """
        if not self._nodes:
            raise NotImplementedError(f"Model {self.name}: get_config of a subclassed model is not supported "
                                      "(its call is Python code); override get_config.")
        own = {id(node) for node in self._nodes}

        def ref(t: Any) -> list[Any]:
            node = keras_history(t)
            assert node is not None
            return [node.layer.name, node.layer._inbound_nodes.index(node), node.output_tensors.index(t)]

        layers = []
        for layer in self.layers:
            nodes = [n for n in layer._inbound_nodes if id(n) in own and not isinstance(layer, InputLayer)]
            layers.append({"class_name": type(layer).__name__, "config": layer.get_config(), "name": layer.name,
                           "inbound_nodes": [[[*ref(t), {}] for t in n.input_tensors] for n in nodes]})
        return {"name": self.name, "trainable": bool(self.trainable), "layers": layers,
                "input_layers": [ref(t) for t in self.inputs], "output_layers": [ref(t) for t in self.outputs]}

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: dict[str, Any] | None = None) -> Any:
        """The functional model of :meth:`get_config`'s output (its layers made anew, with
        new weights), as ``tf.keras.Model.from_config``.

        Raises:
          ValueError: a layer class that is not known (pass it in ``custom_objects``) or a
            node whose inputs never appear.
        """
        made: dict[str, Layer] = {}
        outputs: dict[tuple[str, int], list[Any]] = {}
        pending: list[tuple[Layer, list[Any]]] = []
        for item in config["layers"]:
            layer = deserialize_layer(item, custom_objects)
            made[item["name"] if "name" in item else layer.name] = layer
            if isinstance(layer, InputLayer):
                outputs[(layer.name, 0)] = [layer.output]
            pending.append((layer, list(item.get("inbound_nodes") or [])))
        counts: dict[str, int] = {}
        progress = True
        while progress and any(nodes for _, nodes in pending):
            progress = False
            for layer, nodes in pending:
                while nodes:
                    data = nodes[0]
                    refs = [(r[0], r[1], r[2], r[3] if len(r) > 3 else {}) for r in data]
                    if not all((name, ni) in outputs for name, ni, _, _ in refs):
                        break
                    ins = [outputs[(name, ni)][ti] for name, ni, ti, _ in refs]
                    kwargs = refs[0][3] or {}
                    out = layer(ins if len(ins) > 1 else ins[0], **kwargs)
                    index = counts.get(layer.name, 0)
                    counts[layer.name] = index + 1
                    outputs[(layer.name, index)] = _flat(out)
                    nodes.pop(0)
                    progress = True
        if any(nodes for _, nodes in pending):
            raise ValueError("Model.from_config: the layers' inbound nodes cannot be connected.")
        ins = [outputs[(r[0], r[1])][r[2]] for r in config["input_layers"]]
        outs = [outputs[(r[0], r[1])][r[2]] for r in config["output_layers"]]
        return Model(inputs=ins if len(ins) > 1 else ins[0], outputs=outs if len(outs) > 1 else outs[0],
                     name=config.get("name"))

    def to_json(self, **kwargs: Any) -> str:
        """The model's config as JSON (``class_name``, ``config``, ``keras_version``, ``backend``),
        as ``tf.keras.Model.to_json`` (``kwargs`` go to ``json.dumps``)."""
        return json.dumps(_model_config(self), **kwargs)

    # -- weights on disk -------------------------------------------------------------------------

    def _checkpoint_saver(self) -> Saver:
        """A :class:`~jaxsess.train.Saver` keyed as TF's object-based Keras checkpoints
        (``layer_with_weights-<i>/<attribute>/.ATTRIBUTES/VARIABLE_VALUE``), so that a model
        with other layer names restores them and checkpoints of TF's ``save_weights`` read."""
        if self._saver is None:
            keys: dict[str, Any] = {}
            for i, layer in enumerate(x for x in self.layers if x.weights):
                for w in layer.weights:
                    name = str(w.op.name)
                    rel = name.split(layer.name + "/")[-1] if layer.name + "/" in name else name.rsplit("/", 1)[-1]
                    if hasattr(layer, "cell") and rel.count("/") == 1:
                        rel = "cell/" + rel.rsplit("/", 1)[-1]
                    keys[f"layer_with_weights-{i}/{rel}/.ATTRIBUTES/VARIABLE_VALUE"] = w
            self._saver = Saver(var_list=keys)
        return self._saver

    @staticmethod
    def _is_h5(filepath: Any, save_format: str | None = None) -> bool:
        return save_format in ("h5", "hdf5", "keras") or str(filepath).endswith((".h5", ".keras", ".hdf5"))

    def save_weights(self, filepath: str, overwrite: bool = True, save_format: str | None = None) -> None:
        """Writes the weights, as ``tf.keras.Model.save_weights``: HDF5 in Keras' layout for an
        ``.h5``/``.hdf5``/``.keras`` path or ``save_format='h5'``, else a TF checkpoint
        (``<filepath>.index`` + data) keyed as TF's Keras (``layer_with_weights-0/kernel/...``)."""
        if self._is_h5(filepath, save_format):
            with _hdf5.h5py.File(str(filepath), "w") as f:
                _hdf5.save_weights_to_group(f, self.layers)
            return
        self._checkpoint_saver().save(K.get_session(), str(filepath), write_meta_graph=False)

    def load_weights(self, filepath: str, by_name: bool = False, skip_mismatch: bool = False) -> None:
        """Restores weights written by :meth:`save_weights` (or by TF's Keras), as
        ``tf.keras.Model.load_weights``: HDF5 files layer by layer in order (or by layer name,
        ``by_name``), TF checkpoints by ``layer_with_weights-<i>`` position.

        Raises:
          ValueError: the numbers of layers or weights, or a shape, differ.
        """
        path = str(filepath)
        if self._is_h5(path) or (_is_file(path) and _hdf5.h5py.is_hdf5(path)):
            if not self.outputs:
                raise ValueError("Unable to load weights saved in HDF5 format into a subclassed Model which has "
                                 "not created its variables yet. Call the Model first, then load the weights.")
            with _hdf5.h5py.File(path, "r") as f:
                group = f["model_weights"] if "model_weights" in f else f
                _hdf5.load_weights_from_group(group, self.layers, by_name=by_name, skip_mismatch=skip_mismatch)
            return
        self._checkpoint_saver().restore(K.get_session(), path)

    def save(self, filepath: str, overwrite: bool = True, include_optimizer: bool = True,
             save_format: str | None = None, **kwargs: Any) -> None:
        """Writes the whole model, as ``tf.keras.Model.save`` in Keras' HDF5 layout: attributes
        ``model_config`` and ``training_config`` (JSON), group ``model_weights``. A path that is
        not ``.h5``/``.hdf5``/``.keras`` is a directory holding ``keras_model.h5`` (TF writes a
        SavedModel there; jaxsess' ``load_model`` reads it back, TF does not).

        Raises:
          NotImplementedError: a subclassed model (no config).
        """
        save_model(self, filepath, overwrite, include_optimizer, save_format)


class Sequential(Model):
    """A linear stack of layers, as ``tf.compat.v1.keras.Sequential``.

    When the first layer has an ``input_shape`` (or is an ``InputLayer``), the
    model is built at once on the placeholder ``<first layer>_input``;
    otherwise on its first call (the layers' variables then live under
    the model's name scope, ``sequential/dense/kernel``, as Keras) or on the
    first ``fit``/``predict`` (a placeholder shaped like the data).

    Args:
      layers: the layers, in order.
      name: default ``sequential``, ``sequential_1``, ...
    """

    def __init__(self, layers: Sequence[Any] | None = None, name: str | None = None) -> None:
        super().__init__(name=name)
        for layer in layers or []:
            self.add(layer)

    def add(self, layer: Any) -> None:
        """Appends ``layer`` (a ``keras.Input`` tensor starts the model).

        Raises:
          TypeError: not a Keras layer.
        """
        if isinstance(layer, Tensor):
            node = keras_history(layer)
            if node is None or not isinstance(node.layer, InputLayer):
                raise TypeError(f"The added layer must be an instance of class Layer. Found: {layer}")
            layer = node.layer
        if not isinstance(layer, Layer):
            raise TypeError(f"The added layer must be an instance of class Layer. Found: {layer!r}")
        if isinstance(layer, InputLayer):
            if self._model_layers or self.outputs:
                raise ValueError("An InputLayer can only be the first layer of a Sequential model.")
            self.inputs = [layer.output]
            self.outputs = [layer.output]
            return
        if not self.outputs and not self._model_layers and layer._batch_input_shape is not None:
            x = Input(batch_shape=layer._batch_input_shape, name=f"{layer.name}_input")
            self.inputs = [x]
            self.outputs = [x]
        self._model_layers.append(layer)
        if self.outputs:
            self.outputs = [layer(self.outputs[0])]
            self.built = True

    def pop(self) -> None:
        """Removes the last layer.

        Raises:
          TypeError: no layers.
        """
        if not self._model_layers:
            raise TypeError("There are no layers in the model.")
        self._model_layers.pop()
        if self.inputs:
            self.outputs = [self._model_layers[-1].output] if self._model_layers else list(self.inputs)

    def _build_from_data(self, x: np.ndarray, name: str | None = None) -> None:
        if not self._model_layers:
            raise ValueError("Sequential: add layers before training.")
        super()._build_from_data(x, name=f"{self._model_layers[0].name}_input")

    def _build_on(self, inp: Any) -> None:
        out = Layer.__call__(self, inp)
        self.inputs = [inp]
        self.outputs = [out]
        self.built = True

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        """Applies the layers in order."""
        x = inputs
        for layer in self._model_layers:
            x = layer(x, **kwargs) if getattr(layer, "_takes_training", False) and kwargs else layer(x)
        return x

    def __call__(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        if not self.outputs and isinstance(inputs, Tensor):
            self._build_on(inputs)
            return self.outputs[0]
        return super().__call__(inputs, *args, **kwargs)

    @property
    def layers(self) -> list[Layer]:
        """The layers added (no ``InputLayer``)."""
        return list(self._model_layers)

    def get_config(self) -> dict[str, Any]:
        """``name`` and ``layers`` (``{"class_name", "config"}``, the ``InputLayer`` first when the
        model has an input), as Keras' ``Sequential.get_config``."""
        layers = []
        node = keras_history(self.inputs[0]) if self.inputs else None
        if node is not None and isinstance(node.layer, InputLayer):
            layers.append({"class_name": "InputLayer", "config": node.layer.get_config()})
        layers += [{"class_name": type(x).__name__, "config": x.get_config()} for x in self._model_layers]
        return {"name": self.name, "layers": layers}

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: dict[str, Any] | None = None) -> Any:
        """A new ``Sequential`` (new weights) from :meth:`get_config`'s output (or TF's)."""
        items = config["layers"] if isinstance(config, dict) else config
        model = cls(name=config.get("name") if isinstance(config, dict) else None)
        for item in items:
            model.add(deserialize_layer(item, custom_objects))
        return model


def _is_file(path: str) -> bool:
    return os.path.isfile(path)


def _model_config(model: Model) -> dict[str, Any]:
    class_name = "Sequential" if isinstance(model, Sequential) else "Functional"
    return {"class_name": class_name, "config": model.get_config(), "keras_version": _hdf5.KERAS_VERSION,
            "backend": "tensorflow"}


def deserialize_layer(item: dict[str, Any], custom_objects: dict[str, Any] | None = None) -> Any:
    """The layer (or model) of a ``{"class_name", "config"}`` config, as
    ``tf.keras.layers.deserialize``: classes of ``jaxsess._tf1.keras.layers``, models, or ``custom_objects``
    (and those of the open ``keras.utils.custom_object_scope`` s).

    Raises:
      ValueError: an unknown class name.
    """
    name = item["class_name"]
    custom = {**_custom_objects.active_custom_objects(), **(custom_objects or {})}
    if name in custom:
        cls = custom[name]
    elif name == "Sequential":
        return Sequential.from_config(item["config"], custom_objects)
    elif name in ("Functional", "Model"):
        return Model.from_config(item["config"], custom_objects)
    else:
        cls = getattr(_layers, name, None)
        if not (isinstance(cls, type) and issubclass(cls, Layer)):
            raise ValueError(f"Unknown layer: {name}. Please ensure this object is passed to the `custom_objects` "
                             "argument.")
    if "custom_objects" in inspect.signature(cls.from_config).parameters:
        return cls.from_config(item["config"], custom_objects=custom_objects)
    return cls.from_config(item["config"])


def model_from_config(config: dict[str, Any], custom_objects: dict[str, Any] | None = None,
                      safe_mode: bool = True) -> Model:
    """A model (new weights) from ``{"class_name", "config"}``, as ``tf.keras.models.model_from_config``.

    Args:
      safe_mode: refuse ``Lambda`` layers whose function is Python bytecode in the config
        (running it would run code from the file); ``False`` allows them, for configs you
        trust (as Keras' ``safe_mode``; also ``keras.config.enable_unsafe_deserialization()``).
        An enclosing ``SafeModeScope`` decides instead.

    Raises:
      ValueError: an unknown class; a config of the wrong shape (a missing key, a wrong
        type); a ``Lambda`` with bytecode in safe mode (Keras' message).
    """
    scoped = _serialization.scoped_safe_mode()
    with _serialization.SafeModeScope(safe_mode if scoped is None else scoped):
        try:
            return deserialize_layer(config, custom_objects)  # type: ignore[no-any-return]
        except (KeyError, TypeError, AttributeError, IndexError, RecursionError) as e:
            # a config of the wrong shape (a damaged file): Keras raises ValueError for what it checks
            raise ValueError(f"Malformed Keras model config: {type(e).__name__}: {e}") from None


def model_from_json(json_string: str, custom_objects: dict[str, Any] | None = None, safe_mode: bool = True) -> Model:
    """A model (new weights) from :meth:`Model.to_json`'s output (or TF's), as
    ``tf.keras.models.model_from_json``.

    Args:
      safe_mode: as :func:`model_from_config` (default: ``Lambda`` bytecode is refused, as Keras).

    Raises:
      ValueError: not JSON; an unknown class; a ``Lambda`` with bytecode in safe mode.
    """
    return model_from_config(json.loads(json_string), custom_objects, safe_mode=safe_mode)


def _clone_layer(layer: Layer) -> Layer:
    """A new layer of ``layer``'s class and config (new weights), as tf_keras' ``_clone_layer``
    (a ``Lambda``'s bytecode comes from this process, not a file: safe mode is off here)."""
    with _serialization.SafeModeScope(False):
        return type(layer).from_config(layer.get_config())  # type: ignore[no-any-return]


def clone_model(model: Model, input_tensors: Any = None, clone_function: Any = None) -> Model:
    """A new model with ``model``'s structure and new layers (new weights, drawn from the layers'
    initializers: copy values with ``clone.set_weights(model.get_weights())``), as
    ``tf.keras.models.clone_model``. Shared layers stay shared; the clone is not compiled.

    Args:
      model: a ``Sequential`` or functional ``Model``.
      input_tensors: tensors to build the clone on instead of new ``keras.Input`` s (one for a
        ``Sequential``; as many as the model has inputs otherwise).
      clone_function: ``layer -> new layer`` (default: the layer's class ``from_config(get_config())``);
        the input layers are always cloned by config.

    Returns:
      A ``Sequential`` for a ``Sequential``, else a functional ``Model`` (same name).

    Raises:
      ValueError: a subclassed model (no layer graph), ``clone_function`` that is not callable,
        or ``input_tensors`` of the wrong number.
    """
    fn = _clone_layer if clone_function is None else clone_function
    if not callable(fn):
        raise ValueError(f"Expected `clone_function` argument to be a callable. Received: {clone_function!r}")
    given = None if input_tensors is None else _flat(input_tensors)
    if isinstance(model, Sequential):
        layers = [fn(layer) for layer in model.layers]
        if given is None:
            node = keras_history(model.inputs[0]) if model.inputs else None
            if node is not None and isinstance(node.layer, InputLayer):
                return Sequential([_clone_layer(node.layer), *layers], name=model.name)
            return Sequential(layers, name=model.name)
        if len(given) != 1:
            raise ValueError("To clone a `Sequential` model, we expect at most one tensor as part of "
                             f"`input_tensors`. Received: input_tensors={input_tensors}")
        x = given[0]
        node = keras_history(x)
        if node is None or not isinstance(node.layer, InputLayer):
            x = Input(tensor=x)
        clone = Sequential(name=model.name)
        clone.add(x)
        for layer in layers:
            clone.add(layer)
        return clone
    if not model.inputs or not model._nodes:
        raise ValueError(f"clone_model: {model.name!r} is a subclassed model without a graph of layers; only "
                         "Sequential and functional models can be cloned.")
    if given is not None and len(given) != len(model.inputs):
        raise ValueError(f"input_tensors should have the same number of tensors as the model's inputs "
                         f"({len(model.inputs)}). Received: {len(given)}.")
    tensors: dict[Any, Any] = {}
    for i, t in enumerate(model.inputs):
        layer = keras_history(t).layer  # type: ignore[union-attr]
        if given is None:
            tensors[t] = _clone_layer(layer).output
        else:
            x = given[i]
            origin = keras_history(x)
            tensors[t] = x if origin is not None and isinstance(origin.layer, InputLayer) else Input(tensor=x)
    cloned: dict[int, Layer] = {}
    for node in model._nodes:
        if isinstance(node.layer, InputLayer):
            continue
        if id(node.layer) not in cloned:
            cloned[id(node.layer)] = fn(node.layer)
        ins = [tensors[t] for t in node.input_tensors]
        out = cloned[id(node.layer)](ins if len(ins) > 1 else ins[0])
        for t, new in zip(node.output_tensors, _flat(out), strict=True):
            tensors[t] = new
    outs = [tensors[t] for t in model.outputs]
    ins = [tensors[t] for t in model.inputs]
    return Model(inputs=ins if len(ins) > 1 else ins[0], outputs=outs if len(outs) > 1 else outs[0],
                 name=model.name)


def _serialize_fn(fn: Any) -> Any:
    if isinstance(fn, str) or fn is None:
        return fn
    if isinstance(fn, dict):
        return {k: _serialize_fn(v) for k, v in fn.items()}
    if isinstance(fn, list | tuple):
        return [_serialize_fn(v) for v in fn]
    if isinstance(fn, _metrics.Metric):  # as Keras: the class name and its config
        return {"class_name": type(fn).__name__, "config": fn.get_config()}
    return getattr(fn, "__name__", None) or getattr(getattr(fn, "fn", None), "__name__", None) or type(fn).__name__


def _optimizer_config(optimizer: Any) -> dict[str, Any]:
    if isinstance(optimizer, _optimizers._KerasOptimizer):
        return _optimizers.serialize(optimizer)
    return {"class_name": type(optimizer).__name__,
            "config": {"name": getattr(optimizer, "_name", type(optimizer).__name__)}}


def save_model(model: Model, filepath: str, overwrite: bool = True, include_optimizer: bool = True,
               save_format: str | None = None) -> None:
    """Writes ``model`` (config, weights, training config), as ``tf.keras.models.save_model``
    in Keras' HDF5 layout; see :meth:`Model.save`.

    Raises:
      NotImplementedError: a subclassed model (no config).
    """
    path = str(filepath)
    if not Model._is_h5(path, save_format):
        os.makedirs(path, exist_ok=True)
        path = os.path.join(path, _DIR_MODEL_FILE)
    with _hdf5.h5py.File(path, "w") as f:
        f.attrs["backend"] = "tensorflow"
        f.attrs["keras_version"] = _hdf5.KERAS_VERSION
        f.attrs["model_config"] = json.dumps(_model_config(model))
        if include_optimizer and model.optimizer is not None:
            f.attrs["training_config"] = json.dumps({
                "loss": _serialize_fn(model.loss), "metrics": _serialize_fn(model._metric_specs),
                "loss_weights": model.loss_weights, "sample_weight_mode": None, "weighted_metrics": None,
                "optimizer_config": _optimizer_config(model.optimizer)})
        _hdf5.save_weights_to_group(f.create_group("model_weights"), model.layers)


#: The file a model saved to a directory (TF's SavedModel path) is written to.
_DIR_MODEL_FILE = "keras_model.h5"


def load_model(filepath: str, custom_objects: dict[str, Any] | None = None, compile: bool = True,  # noqa: A002
               options: Any = None, safe_mode: bool = True) -> Model:
    """The model written by :meth:`Model.save` (or TF's Keras ``model.save('x.h5')``), with its
    weights and, when ``compile`` and the file has a training config, compiled with its
    optimizer (fresh slots), loss and metrics, as ``tf.keras.models.load_model``.

    Args:
      safe_mode: refuse ``Lambda`` layers stored as Python bytecode (loading them runs code
        from the file), as Keras 3 and the ``.keras`` format of ``tf_keras``; ``False``
        allows them for files you trust. (``tf_keras`` 2.21 ignores ``safe_mode`` for
        ``.h5`` files and runs their bytecode; jaxsess refuses it there too.)

    Raises:
      OSError: no such file, or not an HDF5 file.
      ValueError: an unknown layer, loss or metric (pass it in ``custom_objects``); a
        damaged file (names it); a ``Lambda`` with bytecode in safe mode (Keras' message).
    """
    path = os.fspath(filepath)
    custom = {**_custom_objects.active_custom_objects(), **(custom_objects or {})}
    training: Any = None
    try:
        if os.path.isdir(path) and _tf_saved_model.is_keras_saved_model(path):
            meta = _tf_saved_model.read_keras_metadata(path)
            model = model_from_config({"class_name": meta["class_name"], "config": meta["config"]}, custom,
                                      safe_mode=safe_mode)
            _tf_saved_model.restore_weights(path, model)
            training = meta.get("training_config")
        else:
            if os.path.isdir(path):
                if not os.path.exists(os.path.join(path, _DIR_MODEL_FILE)):
                    raise OSError(f"No file or directory found at {path} (a directory jaxsess reads holds "
                                  f"{_DIR_MODEL_FILE}, or TF Keras' keras_metadata.pb + saved_model.pb).")
                path = os.path.join(path, _DIR_MODEL_FILE)
            if not os.path.exists(path):
                raise OSError(f"No file or directory found at {path}")
            with _hdf5.h5py.File(path, "r") as f:
                raw = f.attrs.get("model_config")
                if raw is None:
                    raise ValueError(f"No model config found in the file at {path}.")
                config = json.loads(raw.decode("utf8") if isinstance(raw, bytes) else raw)
                model = model_from_config(config, custom, safe_mode=safe_mode)
                _hdf5.load_weights_from_group(f["model_weights"], model.layers)
                training = f.attrs.get("training_config")
    except (OSError, ValueError):
        raise
    except Exception as e:  # a damaged file: h5py's KeyError/RuntimeError, a config of the wrong shape
        raise ValueError(f"Unable to load the model file {path}: {type(e).__name__}: {e}") from None
    if compile and training is not None:
        try:
            tc = training if isinstance(training, dict) else \
                json.loads(training.decode("utf8") if isinstance(training, bytes) else training)
            optimizer = _optimizers.deserialize(tc["optimizer_config"], custom)
        except ValueError:
            raise
        except Exception as e:  # a damaged training config
            raise ValueError(f"Unable to load the training config of {path}: {type(e).__name__}: {e}") from None

        def resolve(spec: Any) -> Any:
            if isinstance(spec, str) and spec in custom:
                return custom[spec]
            if isinstance(spec, dict) and set(spec) == {"class_name", "config"}:  # a metric object
                cls_ = custom.get(spec["class_name"]) or getattr(_metrics, spec["class_name"], None)
                if cls_ is None:
                    raise ValueError(f"Unknown metric: {spec['class_name']} (pass it in custom_objects).")
                cfg = dict(spec["config"])
                if isinstance(cfg.get("fn"), str):  # tf_keras' MeanMetricWrapper names its function
                    fn = custom.get(cfg["fn"]) or getattr(_metrics, cfg["fn"], None)
                    if fn is None:
                        raise ValueError(f"Unknown metric function: {cfg['fn']} (pass it in custom_objects).")
                    cfg["fn"] = fn
                return cls_(**cfg)
            if isinstance(spec, dict):
                return {k: resolve(v) for k, v in spec.items()}
            if isinstance(spec, list):
                return [resolve(v) for v in spec]
            return spec

        try:
            loss, metrics = resolve(tc["loss"]), resolve(tc.get("metrics"))
        except ValueError:
            raise
        except Exception as e:  # a damaged training config
            raise ValueError(f"Unable to load the training config of {path}: {type(e).__name__}: {e}") from None
        model.compile(optimizer=optimizer, loss=loss, metrics=metrics, loss_weights=tc.get("loss_weights"))
    return model
