"""The TF1 hooks into TF2's summary writers, as ``tf.compat.v1.summary.initialize`` and
``all_v2_summary_ops``: jaxsess has no TF2 (``tf.contrib.summary``) summary writers, so
there is never a default one to initialize and no v2 summary op in a graph."""

from __future__ import annotations

from typing import Any

from jaxsess._core.graph._graph import get_default_graph

__all__ = ["initialize", "all_v2_summary_ops"]

_SUMMARY_V2_COLLECTION = "_SUMMARY_V2"  # TF's ops.GraphKeys._SUMMARY_COLLECTION


def initialize(graph: Any = None, session: Any = None) -> None:
    """Initializes the default TF2 summary writer, as ``tf.compat.v1.summary.initialize``.

    Raises:
      RuntimeError: always, with TF's message for the case of no default writer
        (jaxsess has no TF2 summary writers; use ``tf.summary.FileWriter``).
    """
    raise RuntimeError("No default tf.contrib.summary.SummaryWriter found")


def all_v2_summary_ops() -> list[Any]:
    """The TF2 summary ops of the default graph, as ``tf.compat.v1.summary.all_v2_summary_ops``:
    ``[]`` (jaxsess builds none)."""
    return list(get_default_graph().get_collection(_SUMMARY_V2_COLLECTION))
