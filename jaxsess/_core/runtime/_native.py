"""The optional C extension ``jaxsess._core.runtime._hot`` (see ``_hot.h``), or ``None``.

``setup.py`` builds it where a C compiler is available; without it, or with
the environment variable ``JAXSESS_C_HOT_PATH=0`` (read at import), jaxsess
runs the Python code it accelerates: ``Session.run``'s and
``make_callable``'s cache-hit paths (training steps included), the ownership
registry's safe point and variable swap, and the calls of ``session.wrap``/
``session.jit`` functions of a fresh callable (one C file each: ``_hot.c``,
``_hot_registry.c``, ``_hot_wrap.c``).
Both do the same thing; the Python code is the reference.
"""

from __future__ import annotations

import os

__all__ = ["hot"]

# mypy reads the extension's types from _hot.pyi; ``hot`` is that module or None.
try:
    from jaxsess._core.runtime import _hot as hot
except ImportError:  # pragma: no cover - built without a C compiler
    hot = None  # type: ignore[assignment]
if os.environ.get("JAXSESS_C_HOT_PATH", "1").strip().lower() in ("0", "false", "no", "off"):
    hot = None  # type: ignore[assignment]
