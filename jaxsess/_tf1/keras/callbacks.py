"""``jaxsess._tf1.keras.callbacks``: ``Callback`` and ``History``, as ``tf.keras.callbacks``
(``fit`` calls ``on_train_begin/end``, ``on_epoch_begin/end`` and ``on_batch_end``)."""

from __future__ import annotations

import collections
import csv
import logging
import os
from typing import Any

import numpy as np

from jaxsess._core._tfproto import Summary
from jaxsess._tf1.keras import backend as K
from jaxsess._tf1.keras._progbar import Progbar
from jaxsess._tf1.summary._writer import FileWriter

__all__ = ["Callback", "History", "ProgbarLogger", "LambdaCallback", "EarlyStopping", "ModelCheckpoint", "LearningRateScheduler",
           "ReduceLROnPlateau", "CSVLogger", "TerminateOnNaN", "TensorBoard"]

_log = logging.getLogger("tensorflow")


class Callback:
    """The base of ``fit``'s callbacks: override the ``on_*`` hooks (``logs``: name -> float)."""

    def __init__(self) -> None:
        self.model: Any = None
        self.params: dict[str, Any] = {}

    def set_model(self, model: Any) -> None:
        self.model = model

    def on_train_begin(self, logs: dict[str, Any] | None = None) -> None:
        """Called once before the first epoch."""

    def on_train_end(self, logs: dict[str, Any] | None = None) -> None:
        """Called once after the last epoch."""

    def on_epoch_begin(self, epoch: int, logs: dict[str, Any] | None = None) -> None:
        """Called before each epoch (``epoch`` counts from 0)."""

    def on_epoch_end(self, epoch: int, logs: dict[str, Any] | None = None) -> None:
        """Called after each epoch with its loss and metrics (``val_*`` with validation data)."""

    def on_batch_begin(self, batch: int, logs: dict[str, Any] | None = None) -> None:
        """Called before each batch (``logs``: ``batch``, ``size``)."""

    def on_batch_end(self, batch: int, logs: dict[str, Any] | None = None) -> None:
        """Called after each training batch with that batch's loss and metrics."""

    def on_train_batch_begin(self, batch: int, logs: dict[str, Any] | None = None) -> None:
        """Called before each training batch; calls :meth:`on_batch_begin`, as Keras."""
        self.on_batch_begin(batch, logs)

    def on_train_batch_end(self, batch: int, logs: dict[str, Any] | None = None) -> None:
        """Called after each training batch; calls :meth:`on_batch_end`, as Keras."""
        self.on_batch_end(batch, logs)


class History(Callback):
    """Records each epoch's logs: ``history['loss'][epoch]``; ``epoch``: the epoch numbers.
    ``fit`` returns it, as ``tf.keras.callbacks.History``."""

    def __init__(self) -> None:
        super().__init__()
        self.history: dict[str, list[float]] = {}
        self.epoch: list[int] = []

    def on_train_begin(self, logs: dict[str, Any] | None = None) -> None:
        self.epoch = []

    def on_epoch_end(self, epoch: int, logs: dict[str, Any] | None = None) -> None:
        self.epoch.append(epoch)
        for k, v in (logs or {}).items():
            self.history.setdefault(k, []).append(v)


class ProgbarLogger(Callback):
    """Draws the live progress bar of ``fit(verbose=1)``, as ``tf.keras.callbacks.ProgbarLogger``
    in Keras 2's v1 (graph-mode) training loop, which adds it last, after ``History``.

    Each epoch gets a fresh :class:`~jaxsess.keras.utils.Progbar` over the epoch's samples
    (``count_mode='samples'``; ``'steps'`` for generators, ``Sequence``s and datasets), redrawn
    after each batch (at most every 0.05 s) with the batch's loss averaged over the samples
    seen and the metrics' running values, and finished at the epoch's end with the epoch's
    logs (validation values included). ``Epoch i/n`` is printed before each epoch when there
    are several, as Keras. With ``verbose=2`` only the finished line is printed. Recorded
    from tf_keras 2.21 by ``tests/tf_oracle/record_keras_progress.py``.

    Args:
      count_mode: ``'samples'`` or ``'steps'``: what the bar counts.
      stateful_metrics: names shown as given rather than averaged (default: the model's
        metrics, all names but ``loss``).

    Raises:
      ValueError: another ``count_mode``.
    """

    def __init__(self, count_mode: str = "samples", stateful_metrics: Any = None) -> None:
        super().__init__()
        if count_mode not in ("samples", "steps"):
            raise ValueError(f'Unknown `count_mode`: {count_mode}. Expected values are ["samples", "steps"]')
        self.use_steps = count_mode == "steps"
        self.stateful_metrics = set(stateful_metrics or ())
        self.seen = 0
        self.progbar: Progbar | None = None
        self.target: int | None = None
        self.verbose = 1
        self.epochs = 1

    def on_train_begin(self, logs: dict[str, Any] | None = None) -> None:
        self.verbose = int(self.params.get("verbose", 1))
        self.epochs = int(self.params.get("epochs", 1))
        self.target = self.params.get("steps") if self.use_steps else self.params.get("samples")
        if not self.stateful_metrics and self.model is not None:
            self.stateful_metrics = set(getattr(self.model, "metrics_names", [])[1:])

    def on_epoch_begin(self, epoch: int, logs: dict[str, Any] | None = None) -> None:
        self.seen = 0
        self.progbar = Progbar(self.target, verbose=self.verbose, stateful_metrics=self.stateful_metrics,
                               unit_name="step" if self.use_steps else "sample")
        if self.verbose and self.epochs > 1:
            print(f"Epoch {epoch + 1}/{self.epochs}", flush=True)

    def on_train_batch_end(self, batch: int, logs: dict[str, Any] | None = None) -> None:
        logs = dict(logs or {})
        size = logs.pop("size", 0)
        steps = logs.pop("num_steps", 1)
        logs.pop("batch", None)
        self.seen = batch + 1 if self.use_steps else self.seen + steps * size
        if self.verbose == 1 and self.progbar is not None:
            self.progbar.update(self.seen, list(logs.items()), finalize=False)

    def on_epoch_end(self, epoch: int, logs: dict[str, Any] | None = None) -> None:
        if self.progbar is None:
            return
        if self.target is None:  # unknown until the first epoch ends, as Keras
            self.target = self.seen
            self.progbar.target = self.target
        self.progbar.update(self.target, list((logs or {}).items()), finalize=True)


class LambdaCallback(Callback):
    """A callback from functions: ``on_epoch_end(epoch, logs)``, ``on_batch_end(batch, logs)``,
    ``on_train_begin(logs)``, ``on_train_end(logs)``."""

    def __init__(self, on_epoch_begin: Any = None, on_epoch_end: Any = None, on_batch_end: Any = None,
                 on_train_begin: Any = None, on_train_end: Any = None) -> None:
        super().__init__()
        for name, fn in (("on_epoch_begin", on_epoch_begin), ("on_epoch_end", on_epoch_end),
                         ("on_batch_end", on_batch_end), ("on_train_begin", on_train_begin),
                         ("on_train_end", on_train_end)):
            if fn is not None:
                setattr(self, name, fn)


def _monitor_op(monitor: str, mode: str) -> Any:
    if mode not in ("auto", "min", "max"):
        raise ValueError(f"mode must be 'auto', 'min' or 'max'; got {mode!r}")
    if mode == "max" or (mode == "auto" and ("acc" in monitor or monitor.startswith("fmeasure"))):
        return np.greater
    return np.less


class EarlyStopping(Callback):
    """Stops ``fit`` when ``monitor`` has not improved by more than ``min_delta`` for
    ``patience`` epochs, as ``tf.keras.callbacks.EarlyStopping`` (Keras 2's rule:
    ``mode='auto'`` maximises names containing ``acc``, minimises others; a
    missing ``monitor`` logs a warning and never stops).

    Args:
      monitor: a log name (``'val_loss'``).
      min_delta, patience, mode, baseline: as Keras.
      restore_best_weights: set the best epoch's weights back when stopping.
      verbose: log the stopping epoch.

    Attributes:
      stopped_epoch: the epoch (from 0) training stopped after, 0 if it did not.
    """

    def __init__(self, monitor: str = "val_loss", min_delta: float = 0.0, patience: int = 0, verbose: int = 0,
                 mode: str = "auto", baseline: float | None = None, restore_best_weights: bool = False) -> None:
        super().__init__()
        self.monitor = monitor
        self.patience = int(patience)
        self.verbose = verbose
        self.baseline = baseline
        self.restore_best_weights = restore_best_weights
        self.monitor_op = _monitor_op(monitor, mode)
        self.min_delta = abs(min_delta) if self.monitor_op is np.greater else -abs(min_delta)
        self.wait = 0
        self.stopped_epoch = 0
        self.best: float = np.inf
        self.best_weights: Any = None

    def on_train_begin(self, logs: dict[str, Any] | None = None) -> None:
        self.wait = 0
        self.stopped_epoch = 0
        self.best = -np.inf if self.monitor_op is np.greater else np.inf
        self.best_weights = None

    def _improves(self, value: float, reference: float) -> bool:
        return bool(self.monitor_op(value - self.min_delta, reference))

    def on_epoch_end(self, epoch: int, logs: dict[str, Any] | None = None) -> None:
        current = (logs or {}).get(self.monitor)
        if current is None:
            _log.warning("Early stopping conditioned on metric `%s` which is not available. Available metrics are: %s",
                         self.monitor, ",".join(logs or {}))
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()
        self.wait += 1
        if self._improves(current, self.best):
            self.best = current
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._improves(current, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True
            if self.restore_best_weights and self.best_weights is not None:
                self.model.set_weights(self.best_weights)

    def on_train_end(self, logs: dict[str, Any] | None = None) -> None:
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping")


class ModelCheckpoint(Callback):
    """Saves the model (``Model.save``) or only its weights (``save_weights_only``,
    ``Model.save_weights``) after each epoch, or only the best by ``monitor``, as
    ``tf.keras.callbacks.ModelCheckpoint``: ``filepath`` may hold ``{epoch:02d}`` and log
    names (``{val_loss:.2f}``).

    Raises:
      NotImplementedError: ``save_freq`` other than ``'epoch'``.
    """

    def __init__(self, filepath: str, monitor: str = "val_loss", verbose: int = 0, save_best_only: bool = False,
                 save_weights_only: bool = False, mode: str = "auto", save_freq: Any = "epoch") -> None:
        super().__init__()
        self.save_weights_only = save_weights_only
        if save_freq != "epoch":
            raise NotImplementedError("ModelCheckpoint: only save_freq='epoch' is supported.")
        self.filepath = str(filepath)
        self.monitor = monitor
        self.verbose = verbose
        self.save_best_only = save_best_only
        self.monitor_op = _monitor_op(monitor, mode)
        self.best: float = -np.inf if self.monitor_op is np.greater else np.inf

    def on_epoch_end(self, epoch: int, logs: dict[str, Any] | None = None) -> None:
        logs = logs or {}
        path = self.filepath.format(epoch=epoch + 1, **logs)
        if self.save_best_only:
            current = logs.get(self.monitor)
            if current is None:
                _log.warning("Can save best model only with %s available, skipping.", self.monitor)
                return
            if not self.monitor_op(current, self.best):
                return
            self.best = current
        if self.verbose > 0:
            print(f"Epoch {epoch + 1}: saving model to {path}")
        if self.save_weights_only:
            self.model.save_weights(path)
        else:
            self.model.save(path)


class LearningRateScheduler(Callback):
    """Sets the optimizer's learning rate to ``schedule(epoch, lr)`` (or ``schedule(epoch)``)
    before each epoch and logs it as ``lr``, as ``tf.keras.callbacks.LearningRateScheduler``.

    Raises:
      ValueError: ``schedule`` returns something other than a float.
    """

    def __init__(self, schedule: Any, verbose: int = 0) -> None:
        super().__init__()
        self.schedule = schedule
        self.verbose = verbose

    def on_epoch_begin(self, epoch: int, logs: dict[str, Any] | None = None) -> None:
        if not hasattr(self.model.optimizer, "lr"):
            raise ValueError('Optimizer must have a "lr" attribute.')
        try:  # new API
            lr = float(K.get_value(self.model.optimizer.lr))
            lr = self.schedule(epoch, lr)
        except TypeError:  # the old API: schedule(epoch)
            lr = self.schedule(epoch)
        if not isinstance(lr, float | np.float32 | np.float64):
            raise ValueError(f'The output of the "schedule" function should be float. Got: {lr}')
        K.set_value(self.model.optimizer.lr, lr)
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to {lr}.")

    def on_epoch_end(self, epoch: int, logs: dict[str, Any] | None = None) -> None:
        if logs is not None:
            logs["lr"] = K.get_value(self.model.optimizer.lr)


class ReduceLROnPlateau(Callback):
    """Multiplies the learning rate by ``factor`` (not below ``min_lr``) when ``monitor`` has not
    improved by ``min_delta`` for ``patience`` epochs, then waits ``cooldown`` epochs; logs
    ``lr``, as ``tf.keras.callbacks.ReduceLROnPlateau`` (``mode='auto'``: max for names with
    ``acc``, else min).

    Raises:
      ValueError: ``factor >= 1``.
    """

    def __init__(self, monitor: str = "val_loss", factor: float = 0.1, patience: int = 10, verbose: int = 0,
                 mode: str = "auto", min_delta: float = 1e-4, cooldown: int = 0, min_lr: float = 0.0,
                 **kwargs: Any) -> None:
        super().__init__()
        if factor >= 1.0:
            raise ValueError(f"ReduceLROnPlateau does not support a factor >= 1.0. Got {factor}")
        if "epsilon" in kwargs:
            min_delta = kwargs.pop("epsilon")
        self.monitor = monitor
        self.factor = factor
        self.min_lr = min_lr
        self.min_delta = min_delta
        self.patience = patience
        self.verbose = verbose
        self.cooldown = cooldown
        self.mode = mode if mode in ("auto", "min", "max") else "auto"
        self._reset()

    def _reset(self) -> None:
        if self.mode == "min" or (self.mode == "auto" and "acc" not in self.monitor):
            self.monitor_op = lambda a, b: np.less(a, b - self.min_delta)
            self.best = np.inf
        else:
            self.monitor_op = lambda a, b: np.greater(a, b + self.min_delta)
            self.best = -np.inf
        self.cooldown_counter = 0
        self.wait = 0

    def on_train_begin(self, logs: dict[str, Any] | None = None) -> None:
        self._reset()

    def in_cooldown(self) -> bool:
        return self.cooldown_counter > 0

    def on_epoch_end(self, epoch: int, logs: dict[str, Any] | None = None) -> None:
        logs = logs if logs is not None else {}
        logs["lr"] = K.get_value(self.model.optimizer.lr)
        current = logs.get(self.monitor)
        if current is None:
            _log.warning("Learning rate reduction is conditioned on metric `%s` which is not available. Available "
                         "metrics are: %s", self.monitor, ",".join(logs))
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.monitor_op(current, self.best):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                old_lr = K.get_value(self.model.optimizer.lr)
                if old_lr > np.float32(self.min_lr):
                    new_lr = max(old_lr * self.factor, self.min_lr)
                    K.set_value(self.model.optimizer.lr, new_lr)
                    if self.verbose > 0:
                        print(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate to {new_lr}.")
                    self.cooldown_counter = self.cooldown
                    self.wait = 0


class CSVLogger(Callback):
    """Writes one CSV row per epoch (``epoch`` then the sorted log names; ``val_*`` columns are
    added, ``NA``, when the first epoch has none), as ``tf.keras.callbacks.CSVLogger``."""

    def __init__(self, filename: str, separator: str = ",", append: bool = False) -> None:
        super().__init__()
        self.sep = separator
        self.filename = os.fspath(filename)
        self.append = append
        self.writer: Any = None
        self.keys: list[str] | None = None
        self.append_header = True
        self.csv_file: Any = None

    def on_train_begin(self, logs: dict[str, Any] | None = None) -> None:
        if self.append:
            if os.path.exists(self.filename):
                with open(self.filename) as f:
                    self.append_header = not bool(len(f.readline()))
            mode = "a"
        else:
            mode = "w"
        self.csv_file = open(self.filename, mode, newline="")  # noqa: SIM115 - closed in on_train_end

    def on_epoch_end(self, epoch: int, logs: dict[str, Any] | None = None) -> None:
        logs = logs or {}

        def handle_value(k: Any) -> Any:
            if isinstance(k, str):
                return k
            if isinstance(k, collections.abc.Iterable) and not (isinstance(k, np.ndarray) and k.ndim == 0):
                return f"\"[{', '.join(map(str, k))}]\""
            return k

        if self.keys is None:
            self.keys = sorted(logs)
            if not any(k.startswith("val_") for k in self.keys):
                self.keys.extend(["val_" + k for k in self.keys])
        if not self.writer:
            sep = self.sep

            class CustomDialect(csv.excel):
                delimiter = sep

            self.writer = csv.DictWriter(self.csv_file, fieldnames=["epoch", *self.keys], dialect=CustomDialect)
            if self.append_header:
                self.writer.writeheader()
        row: dict[str, Any] = collections.OrderedDict({"epoch": epoch})
        row.update((key, handle_value(logs.get(key, "NA"))) for key in self.keys)
        self.writer.writerow(row)
        self.csv_file.flush()

    def on_train_end(self, logs: dict[str, Any] | None = None) -> None:
        self.csv_file.close()
        self.writer = None


class TerminateOnNaN(Callback):
    """Stops training after a batch whose loss is NaN or infinite, as
    ``tf.keras.callbacks.TerminateOnNaN``."""

    def on_batch_end(self, batch: int, logs: dict[str, Any] | None = None) -> None:
        loss = (logs or {}).get("loss")
        if loss is not None and (np.isnan(loss) or np.isinf(loss)):
            print(f"Batch {batch}: Invalid loss, terminating training")
            self.model.stop_training = True


class TensorBoard(Callback):
    """Writes each epoch's logs as scalar summaries ``epoch_<name>`` (step: the epoch) to an
    event file in ``log_dir``, and the graph when ``write_graph``, as ``tf.compat.v1.keras``'s
    ``TensorBoard`` (``callbacks_v1``).

    Raises:
      NotImplementedError: ``histogram_freq``, ``embeddings_freq`` or a batch ``update_freq``.
    """

    def __init__(self, log_dir: str = "./logs", histogram_freq: int = 0, batch_size: int = 32,
                 write_graph: bool = True, write_grads: bool = False, write_images: bool = False,
                 embeddings_freq: int = 0, update_freq: Any = "epoch", profile_batch: Any = 2,
                 **kwargs: Any) -> None:
        super().__init__()
        if histogram_freq or embeddings_freq or update_freq != "epoch":
            raise NotImplementedError("keras.callbacks.TensorBoard: only epoch scalars and the graph are written "
                                      "(histogram_freq=0, embeddings_freq=0, update_freq='epoch').")
        self.log_dir = os.fspath(log_dir)
        self.write_graph = write_graph
        self.writer: FileWriter | None = None

    def on_train_begin(self, logs: dict[str, Any] | None = None) -> None:
        if self.writer is None:
            graph = K.get_session().graph if self.write_graph else None
            self.writer = FileWriter(self.log_dir, graph=graph)

    def on_epoch_end(self, epoch: int, logs: dict[str, Any] | None = None) -> None:
        if self.writer is None:
            return
        values = [Summary.Value(tag=f"epoch_{k}", simple_value=float(v)) for k, v in (logs or {}).items()
                  if k not in ("batch", "size", "num_steps")]
        self.writer.add_summary(Summary(value=values), epoch)
        self.writer.flush()

    def on_train_end(self, logs: dict[str, Any] | None = None) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None
