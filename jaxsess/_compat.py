"""No-op switches kept so unmodified TF1 programs run.

jaxsess always builds graphs outside an ``EagerSession`` (TF1's graph mode),
so the calls TF2 users add to get TF1 behaviour change nothing here.
"""

from __future__ import annotations

__all__ = ["disable_eager_execution", "disable_v2_behavior", "enable_v2_behavior"]


def disable_eager_execution() -> None:
    """No-op: op functions build graph nodes unless inside an ``EagerSession``."""


def disable_v2_behavior() -> None:
    """No-op: jaxsess has TF1 (graph, reference-variable) semantics."""


def enable_v2_behavior() -> None:
    """No-op kept for symmetry; jaxsess does not emulate TF2 behaviour."""
