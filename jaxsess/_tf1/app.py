"""``tf.app``: ``run`` and ``flags``, as ``tf.compat.v1.app`` (on :mod:`absl.app`)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, NoReturn

from absl import app as _absl_app

from jaxsess._tf1 import flags as flags

__all__ = ["run", "flags"]


def _parse_flags_tolerate_undef(argv: list[str]) -> Any:
    """Parses known flags, leaving the others in the returned argv (as TF1)."""
    return flags.FLAGS(sys.argv if argv is None else argv, known_only=True)


def run(main: Callable[[list[str]], Any] | None = None, argv: list[str] | None = None) -> NoReturn:
    """Parses the flags and runs ``main(argv)`` (default: ``__main__.main``),
    then exits with its return value, as ``tf.compat.v1.app.run``.

    Raises:
      SystemExit: always, with ``main``'s return value.
    """
    main = main or sys.modules["__main__"].main
    _absl_app.run(main=main, argv=argv, flags_parser=_parse_flags_tolerate_undef)
    raise SystemExit(0)  # pragma: no cover - absl's run exits
