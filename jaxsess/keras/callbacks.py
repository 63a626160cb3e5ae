"""``jaxsess.keras.callbacks``: ``Callback`` and ``History``, as ``tf.keras.callbacks``
(``fit`` calls ``on_train_begin/end``, ``on_epoch_begin/end`` and ``on_batch_end``)."""

from __future__ import annotations

import logging
from typing import Any

import numpy as np

__all__ = ["Callback", "History", "LambdaCallback", "EarlyStopping", "ModelCheckpoint"]

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
    """Saves the weights after each epoch (or only the best by ``monitor``), as
    ``tf.keras.callbacks.ModelCheckpoint(save_weights_only=True)``: ``filepath`` may hold
    ``{epoch:02d}`` and log names (``{val_loss:.2f}``); see ``Model.save_weights``.

    Raises:
      NotImplementedError: ``save_weights_only=False`` (whole-model files are not supported).
    """

    def __init__(self, filepath: str, monitor: str = "val_loss", verbose: int = 0, save_best_only: bool = False,
                 save_weights_only: bool = False, mode: str = "auto", save_freq: Any = "epoch") -> None:
        super().__init__()
        if not save_weights_only:
            raise NotImplementedError("ModelCheckpoint: only save_weights_only=True is supported (whole-model files "
                                      "are not).")
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
        self.model.save_weights(path)
