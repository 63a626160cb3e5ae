"""Exporters that ``train_and_evaluate`` runs after evaluations, as
``tensorflow_estimator/python/estimator/exporter.py``: each writes
``Estimator.export_saved_model`` into ``model_dir/export/<name>/<timestamp>``."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Mapping
from typing import Any

from jaxsess._tf1 import logging as tf_logging

__all__ = ["Exporter", "LatestExporter", "FinalExporter", "BestExporter"]


class Exporter:
    """The interface ``EvalSpec(exporters=...)`` takes, as ``tf.estimator.Exporter``."""

    @property
    def name(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def export(self, estimator: Any, export_path: str, checkpoint_path: str | None,
               eval_result: Mapping[str, Any] | None, is_the_final_export: bool) -> bytes | None:
        """Exports ``checkpoint_path``'s model under ``export_path``; returns the
        directory written (``bytes``) or ``None``."""
        raise NotImplementedError  # pragma: no cover - abstract


class _SavedModelExporter(Exporter):
    def __init__(self, name: str, serving_input_receiver_fn: Callable[[], Any], assets_extra: Any = None,
                 as_text: bool = False) -> None:
        if not isinstance(name, str) or not name:
            raise ValueError("`name` must be a non-empty string.")
        self._name = name
        self._serving_input_receiver_fn = serving_input_receiver_fn
        self._assets_extra, self._as_text = assets_extra, as_text

    @property
    def name(self) -> str:
        return self._name

    def _export(self, estimator: Any, export_path: str, checkpoint_path: str | None) -> bytes:
        return estimator.export_saved_model(export_path, self._serving_input_receiver_fn, self._assets_extra,
                                            self._as_text, checkpoint_path)  # type: ignore[no-any-return]


def _keep_newest(export_path: str, keep: int | None) -> None:
    if keep is None or not os.path.isdir(export_path):
        return
    stamps = sorted((int(d) for d in os.listdir(export_path) if d.isdigit()), reverse=True)
    for stamp in stamps[keep:]:
        shutil.rmtree(os.path.join(export_path, str(stamp)), ignore_errors=True)


class LatestExporter(_SavedModelExporter):
    """Exports after every evaluation, keeping the newest ``exports_to_keep``
    (None: all), as ``tf.estimator.LatestExporter``.

    Raises:
      ValueError: an empty ``name`` or ``exports_to_keep`` below 1.
    """

    def __init__(self, name: str, serving_input_receiver_fn: Callable[[], Any], assets_extra: Any = None,
                 as_text: bool = False, exports_to_keep: int | None = 5) -> None:
        super().__init__(name, serving_input_receiver_fn, assets_extra, as_text)
        if exports_to_keep is not None and exports_to_keep <= 0:
            raise ValueError("`exports_to_keep`, if provided, must be a positive number. Got "
                             f"{exports_to_keep}")
        self._exports_to_keep = exports_to_keep

    def export(self, estimator: Any, export_path: str, checkpoint_path: str | None,
               eval_result: Mapping[str, Any] | None, is_the_final_export: bool) -> bytes | None:
        result = self._export(estimator, export_path, checkpoint_path)
        _keep_newest(export_path, self._exports_to_keep)
        return result


class FinalExporter(_SavedModelExporter):
    """Exports after the last evaluation only (at ``max_steps``), as ``tf.estimator.FinalExporter``."""

    def export(self, estimator: Any, export_path: str, checkpoint_path: str | None,
               eval_result: Mapping[str, Any] | None, is_the_final_export: bool) -> bytes | None:
        if not is_the_final_export:
            return None
        tf_logging.info("Performing the final export in the end of training.")
        return self._export(estimator, export_path, checkpoint_path)


def _loss_smaller(best_eval_result: Mapping[str, Any], current_eval_result: Mapping[str, Any]) -> bool:
    if "loss" not in best_eval_result or "loss" not in current_eval_result:
        raise ValueError("best_eval_result and current_eval_result cannot be empty or no loss is found in it.")
    return bool(best_eval_result["loss"] > current_eval_result["loss"])


class BestExporter(_SavedModelExporter):
    """Exports when an evaluation beats the best so far (``compare_fn``; default:
    a smaller ``loss``), keeping ``exports_to_keep``, as ``tf.estimator.BestExporter``
    (the best result is remembered in memory: evaluations of an earlier
    process in ``model_dir`` are not read back).
    """

    def __init__(self, name: str = "best_exporter", serving_input_receiver_fn: Callable[[], Any] | None = None,
                 event_file_pattern: str = "eval/*.tfevents.*",
                 compare_fn: Callable[..., bool] = _loss_smaller, assets_extra: Any = None, as_text: bool = False,
                 exports_to_keep: int | None = 5) -> None:
        if serving_input_receiver_fn is None:
            raise ValueError("`serving_input_receiver_fn` must be defined.")
        super().__init__(name, serving_input_receiver_fn, assets_extra, as_text)
        if exports_to_keep is not None and exports_to_keep <= 0:
            raise ValueError("`exports_to_keep`, if provided, must be a positive number. Got "
                             f"{exports_to_keep}")
        self._compare_fn, self._exports_to_keep = compare_fn, exports_to_keep
        self._best: Mapping[str, Any] | None = None

    def export(self, estimator: Any, export_path: str, checkpoint_path: str | None,
               eval_result: Mapping[str, Any] | None, is_the_final_export: bool) -> bytes | None:
        if eval_result is None:
            return None
        if self._best is None or self._compare_fn(best_eval_result=self._best, current_eval_result=eval_result):
            tf_logging.info("Exporting a better model (%s instead of %s)...", eval_result, self._best)
            self._best = dict(eval_result)
            result = self._export(estimator, export_path, checkpoint_path)
            _keep_newest(export_path, self._exports_to_keep)
            return result
        return None
