"""``jaxsess.keras.models``: ``Model`` (functional), ``Sequential`` and their
training loop in TF1 graph mode, as ``tf.compat.v1.keras.models`` (Keras 2's
``training_v1``).

``compile`` builds, once: a target placeholder per output
(``<output layer>_target``), the total loss (the batch mean of the loss
function plus the layers' regularizer losses) and the metric tensors (batch
means); the train op (``optimizer.minimize`` on the trainable weights, run
with the layers' updates) is built on the first training call. ``fit``,
``evaluate``, ``predict`` and ``*_on_batch`` run these in
:func:`~jaxsess.keras.backend.get_session`, feeding the learning phase
``True`` for training. Epoch values are batch values averaged weighted by
batch size, as Keras.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from jaxsess import dtypes as _dtypes
from jaxsess.graph._graph import GraphKeys, Tensor, get_default_graph
from jaxsess.graph._shape import TensorShape
from jaxsess.keras import (
    backend as K,
    losses as _losses,
    metrics as _metrics,
    optimizers as _optimizers,
    utils as _utils,
)
from jaxsess.keras._layers_core import Input, InputLayer, Layer, Node, keras_history
from jaxsess.keras.callbacks import Callback, History
from jaxsess.ops import math_ops as _math, shape_ops as _shape_ops
from jaxsess.ops._core import constant, convert_to_tensor, placeholder, placeholder_with_default
from jaxsess.train._saver import Saver

__all__ = ["Model", "Sequential", "load_model", "save_model"]

_NO_MODEL_FILES = ("Saving or loading a whole Keras model (HDF5 or SavedModel) is not supported by jaxsess.keras; "
                   "use model.save_weights(prefix) / model.load_weights(prefix) and build the model in code.")


def _flat(x: Any) -> list[Any]:
    return list(x) if isinstance(x, list | tuple) else [x]


def _epoch_line(n: int, seconds: float, logs: dict[str, float]) -> str:
    """Keras' end-of-epoch progress line: ``10/10 [=====] - 0s 45ms/sample - loss: 2.2894 - ...``."""
    per = seconds / max(n, 1)
    rate = f"{per:.0f}s" if per >= 1 else f"{per * 1e3:.0f}ms" if per >= 1e-3 else f"{per * 1e6:.0f}us"
    values = "".join(f" - {k}: {v:.4f}" for k, v in logs.items())
    return f"{n}/{n} [{'=' * 30}] - {seconds:.0f}s {rate}/sample{values}"


def _readable_size(n: float) -> str:
    units = ["Byte", "KB", "MB", "GB", "TB", "PB"]
    i = 0
    while n >= 1024 and i < len(units) - 1:
        n /= 1024
        i += 1
    return f"{n:.2f} {units[i]}"


# -- metrics ---------------------------------------------------------------------------------


def _accuracy_fn(loss_fn: Any, output: Any) -> tuple[Callable[[Any, Any], Any], str]:
    name = getattr(loss_fn, "__name__", "") or getattr(getattr(loss_fn, "fn", None), "__name__", "")
    last = TensorShape(output.shape).as_list()[-1] if TensorShape(output.shape).ndims else None
    if name == "sparse_categorical_crossentropy":
        return _metrics.sparse_categorical_accuracy, "sparse"
    if name == "binary_crossentropy" or last == 1:
        return _metrics.binary_accuracy, "binary"
    return _metrics.categorical_accuracy, "categorical"


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
        for node in order:
            if all(node.layer is not x for x in self._model_layers):
                self._model_layers.append(node.layer)
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

    def summary(self, line_length: int = 65, print_fn: Callable[[str], Any] | None = None) -> None:
        """Prints the layers, their output shapes and parameter counts, as Keras 2's ``summary``
        (three columns; functional models' "Connected to" column is left out).

        Raises:
          ValueError: the model is not built.
        """
        if not self.built and not self.outputs:
            raise ValueError("This model has not yet been built. Build the model first by calling it on a "
                             "tensor or by giving the first layer an `input_shape`.")
        out = print_fn or print
        widths = [int(line_length * 0.45), int(line_length * 0.85) - int(line_length * 0.45),
                  line_length - int(line_length * 0.85)]

        def row(cells: Sequence[str]) -> str:
            text = ""
            for i, (cell, w) in enumerate(zip(cells, widths, strict=True)):
                cell = (" " if i == 0 else "") + cell
                text += cell[:w].ljust(w)
            return text

        out(f'Model: "{self.name}"')
        out("_" * line_length)
        out(row(["Layer (type)", "Output Shape", "Param #"]))
        out("=" * line_length)
        layers = [x for x in self.layers if not (isinstance(x, InputLayer) and isinstance(self, Sequential))]
        for layer in layers:
            try:
                shape = str(layer.output_shape).replace("None", "None")
                shape = f"[{shape}]" if isinstance(layer, InputLayer) else shape
            except AttributeError:
                shape = "multiple"
            out(row([f"{layer.name} ({type(layer).__name__})", shape, str(layer.count_params())]))
            out(" " * line_length)
        trainable = sum(int(np.prod(w.shape.as_list())) for w in self.trainable_weights)
        total = self.count_params()
        size = {id(w): np.dtype(w.dtype.as_numpy_dtype).itemsize for w in self.weights}
        t_bytes = sum(int(np.prod(w.shape.as_list())) * size[id(w)] for w in self.trainable_weights)
        all_bytes = sum(int(np.prod(w.shape.as_list())) * size[id(w)] for w in self.weights)
        out("=" * line_length)
        out(f"Total params: {total} ({_readable_size(all_bytes)})")
        out(f"Trainable params: {trainable} ({_readable_size(t_bytes)})")
        out(f"Non-trainable params: {total - trainable} ({_readable_size(all_bytes - t_bytes)})")
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
            with graph.name_scope("metrics"):
                for output, out_name, loss_fn, target, specs in zip(self.outputs, names, loss_fns, targets,
                                                                    metric_specs, strict=True):
                    for spec in specs:
                        if spec in ("accuracy", "acc"):
                            fn, _ = _accuracy_fn(loss_fn, output)
                            name = str(spec)
                        elif isinstance(spec, str):
                            fn = _losses.get(spec)
                            name = spec
                        elif callable(spec):
                            fn = spec
                            name = getattr(spec, "__name__", "metric")
                        else:
                            raise ValueError(f"Unknown metric: {spec!r}")
                        name = f"{out_name}_{name}" if several else name
                        with graph.name_scope(name):
                            fetches.append(_math.reduce_mean(fn(target, output)))
                        fetch_names.append(name)
        self._compiled = {"targets": targets, "fetches": fetches, "names": fetch_names, "ranks": ranks,
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
                self._train_op = self.optimizer.minimize(total, var_list=self.trainable_weights)
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
        return ["loss"] + [s if isinstance(s, str) else getattr(s, "__name__", "metric") for s in specs]

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
                     reset_metrics: bool = True) -> list[float]:
        """Runs ``(xs, ys, sample_weights)`` batches; returns the epoch values as Keras' v1 loops:
        the loss averaged over samples, each output's loss over steps, metrics over samples (the
        batch logs give the batch's loss and the running values of the others, as Keras).

        The running values of the metrics and output losses are the model's state, as Keras'
        stateful metrics: a loop starts from zero (``reset_metrics``) and leaves its totals, which a
        following ``train_on_batch``/``test_on_batch`` (``reset_metrics=False``) adds to, then resets."""
        self._check_compiled()
        compiled = self._build_compiled()
        ops = [self._make_train_op(), *self.updates] if train else []
        session = K.get_session()
        n_out_losses = compiled["n_output_losses"]
        sums = np.zeros(len(compiled["fetches"]))
        div = np.zeros(len(compiled["fetches"]))
        if not reset_metrics and self._metric_totals is not None and len(self._metric_totals[0]) == len(sums):
            sums[1:], div[1:] = self._metric_totals[0][1:], self._metric_totals[1][1:]
        for b, (bx, by, bw) in enumerate(batches):
            size = bx[0].shape[0]
            for cb in callbacks:
                cb.on_train_batch_begin(b, {"batch": b, "size": size})
            values, _ = session.run([compiled["fetches"], ops], feed_dict=self._feed(bx, by, train, bw))
            values = np.asarray(values, dtype=np.float64)
            weights = np.full(len(values), float(size))
            weights[1:1 + n_out_losses] = 1.0
            sums += values * weights
            div += weights
            if callbacks:
                running = [float(values[0]), *(float(v) for v in (sums / div)[1:])]
                logs = {"batch": b, "size": size, **dict(zip(compiled["names"], running, strict=True))}
                for cb in callbacks:
                    cb.on_train_batch_end(b, logs)
            if train and self.stop_training:
                break
        self._metric_totals = (sums, div)
        return [float(v) for v in sums / np.maximum(div, 1.0)]

    def _generator_batches(self, data: Any, steps: int | None, what: str, shuffle: bool = False,
                           with_targets: bool = True) -> Any:
        """Batches from a ``keras.utils.Sequence`` (``steps`` default ``len(data)``) or a Python
        generator yielding ``(x, y)`` / ``(x, y, sample_weight)`` (``x`` alone when predicting)."""
        if isinstance(data, _utils.Sequence):
            order = list(range(len(data)))
            if shuffle:
                random.shuffle(order)
            source: Any = (data[i] for i in order)
            steps = len(data) if steps is None else steps
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
        return isinstance(x, _utils.Sequence) or isinstance(x, Iterator)

    def fit(self, x: Any = None, y: Any = None, batch_size: int | None = None, epochs: int = 1, verbose: int = 1,
            callbacks: Sequence[Callback] | None = None, validation_split: float = 0.0,
            validation_data: Any = None, shuffle: bool = True, class_weight: dict[int, float] | None = None,
            sample_weight: Any = None, initial_epoch: int = 0, steps_per_epoch: int | None = None,
            validation_steps: int | None = None, **kwargs: Any) -> History:
        """Trains for ``epochs`` passes over ``(x, y)`` in batches of ``batch_size`` (32),
        as ``tf.keras.Model.fit`` on NumPy arrays (a list or a dict by input name for
        several inputs; a list or a dict by output name for several outputs), or on
        a ``keras.utils.Sequence`` / Python generator of ``(x, y[, sample_weight])``
        batches (``steps_per_epoch`` batches per epoch, default ``len(sequence)``).

        Returns:
          A :class:`History`: ``history['loss']``, ``history[<metric>]`` and, with
          validation, ``history['val_loss']``... (one float per epoch).

        ``sample_weight`` (``[n]``) and ``class_weight`` (``{class: weight}``)
        weight each sample's loss: the batch loss is ``sum(loss * weight) /
        batch_size``, as Keras; metrics are not weighted.

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
        for cb in cbs:
            cb.set_model(self)
            cb.params = {"batch_size": batch_size, "epochs": epochs, "steps": steps_per_epoch if generator else None,
                         "samples": n, "verbose": verbose, "do_validation": validation_data is not None}
            cb.on_train_begin({})
        names = self._build_compiled()["names"]
        if verbose and not generator:
            n_val = None if validation_data is None or self._is_generator(validation_data) else len(
                np.asarray(_flat(validation_data[1])[0]))
            print(f"Train on {n} samples" + ("" if n_val is None else f", validate on {n_val} samples"), file=sys.stdout)
        for epoch in range(initial_epoch, epochs):
            if self.stop_training:
                break
            for cb in cbs:
                cb.on_epoch_begin(epoch, {})
            if verbose:
                print(f"Epoch {epoch + 1}/{epochs}", file=sys.stdout)
            started = time.perf_counter()
            if generator:
                batches = self._generator_batches(x, steps_per_epoch, "steps_per_epoch", shuffle)
            else:
                index = np.random.permutation(xs[0].shape[0]) if shuffle else None
                batches = self._array_batches(xs, ys, batch_size, index, sws)
            values = self._run_batches(batches, True, cbs)
            if isinstance(x, _utils.Sequence):
                x.on_epoch_end()
            logs = dict(zip(names, values, strict=True))
            if validation_data is not None and not self.stop_training:
                val = self._evaluate_values(validation_data, batch_size, validation_steps)
                logs.update({f"val_{k}": v for k, v in zip(names, val, strict=True)})
            if verbose:
                print(_epoch_line(n or 0, time.perf_counter() - started, logs), file=sys.stdout)
            for cb in cbs:
                cb.on_epoch_end(epoch, logs)
        for cb in cbs:
            cb.on_train_end({})
        self.history = history
        return history

    def _evaluate_values(self, data: Any, batch_size: int, steps: int | None) -> list[float]:
        if self._is_generator(data):
            return self._run_batches(self._generator_batches(data, steps, "validation_steps"), False)
        vx, vy = data[0], data[1]
        vxs = self._inputs_of(vx)
        vys = self._targets_of(vy, vxs[0].shape[0])
        vsw = self._sample_weights_of(data[2], None, vys) if len(data) == 3 else None
        return self._run_batches(self._array_batches(vxs, vys, batch_size, sample_weights=vsw), False)

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
        if self._is_generator(x):
            values = self._evaluate_values(x, batch_size or 32, steps)
        else:
            data = (x, y) if sample_weight is None else (x, y, sample_weight)
            values = self._evaluate_values(data, batch_size or 32, None)
        out = [np.float32(v) for v in values]
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
        if self._is_generator(x):
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

    # -- weights on disk -------------------------------------------------------------------------

    def _weights_saver(self) -> Saver:
        if self._saver is None:
            self._saver = Saver(var_list=self.weights)
        return self._saver

    def save_weights(self, filepath: str, overwrite: bool = True, save_format: str | None = None) -> None:
        """Writes the weights as a TF checkpoint (``<filepath>.index`` + data) with
        :class:`~jaxsess.train.Saver` (keys: the variable names).

        Raises:
          NotImplementedError: an ``.h5`` path or ``save_format='h5'``.
        """
        if save_format == "h5" or str(filepath).endswith((".h5", ".keras", ".hdf5")):
            raise NotImplementedError("Model.save_weights: the HDF5 format is not supported; use a TF checkpoint "
                                      "prefix.")
        self._weights_saver().save(K.get_session(), str(filepath), write_meta_graph=False, write_state=False)

    def load_weights(self, filepath: str) -> None:
        """Restores the weights written by :meth:`save_weights`."""
        self._weights_saver().restore(K.get_session(), str(filepath))

    def save(self, filepath: str, *args: Any, **kwargs: Any) -> None:
        """Not supported (HDF5 / SavedModel of a whole model).

        Raises:
          NotImplementedError: always; use :meth:`save_weights` and rebuild the model in code.
        """
        raise NotImplementedError(_NO_MODEL_FILES)


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


def save_model(model: Model, filepath: str, *args: Any, **kwargs: Any) -> None:
    """Not supported.

    Raises:
      NotImplementedError: always (see :meth:`Model.save`).
    """
    raise NotImplementedError(_NO_MODEL_FILES)


def load_model(filepath: str, *args: Any, **kwargs: Any) -> Model:
    """Not supported.

    Raises:
      NotImplementedError: always (see :meth:`Model.save`).
    """
    raise NotImplementedError(_NO_MODEL_FILES)
