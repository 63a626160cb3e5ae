"""jaxsess: sessions that own device memory, and TF1-style graphs lowered to XLA.

``import jaxsess as tf`` runs TF1 programs that use the covered subset of
``tf.compat.v1``; see the README's compatibility table.

The public names live in :mod:`jaxsess._api`, loaded on the first access to
one of them (PEP 562): ``import jaxsess._core.graph._graph`` imports nothing above
the graph layer, and ``tf.placeholder`` after the first access is a plain
attribute of the package.
"""

# ruff: noqa: A004 - TF1's public names shadow builtins (bool, abs, range, ...)
import builtins as _builtins
import importlib as _importlib
import sys as _sys
import threading as _threading
import typing as _typing
from importlib import util as _importlib_util

__version__ = "0.1.0"

if _typing.TYPE_CHECKING:  # the namespace the first attribute access loads, for type checkers
    from jaxsess._api import *  # noqa: F403

_API = "jaxsess._api"
_api_lock = _threading.RLock()
_api_loading = False
_api_names: list[str] | None = None


def _load_api() -> list[str] | None:
    """Imports :mod:`jaxsess._api` once and copies its names into this package.

    Returns the public names, or ``None`` while the import is still running
    in this thread (its own ``from jaxsess import x`` lookups must fall
    through to importing the submodule ``x``).
    """
    global _api_loading, _api_names
    with _api_lock:
        if _api_names is not None or _api_loading:
            return _api_names
        _api_loading = True
        try:
            api = _importlib.import_module(_API)
        finally:
            _api_loading = False
        names = {k: v for k, v in vars(api).items() if not k.startswith("__")}
        public = sorted(k for k in names if not k.startswith("_"))
        globals().update(names)  # from here on, TF1 names (tuple, range, ...) shadow the builtins
        _api_names = public
        return public


def _importing_jaxsess() -> _builtins.bool:  # (TF1 names shadow the builtins here)
    """Whether a jaxsess module is being imported (its ``from jaxsess import
    x`` runs): the public namespace must not load in the middle of it."""
    for key, module in list(_sys.modules.items()):
        if key.startswith("jaxsess.") and getattr(getattr(module, "__spec__", None), "_initializing", False):
            return True
    return False


if not _typing.TYPE_CHECKING:  # type checkers see the names above, not an Any-typed fallback

    def __getattr__(name: str) -> object:
        if name.startswith("__") and name != "__all__":
            raise AttributeError(f"module 'jaxsess' has no attribute {name!r}")
        if _importlib_util.find_spec(f"jaxsess.{name}") is not None:
            # A submodule: ``from jaxsess import dtypes`` inside the library
            # imports only it; a user's ``tf.nn`` loads the namespace too.
            module = _importlib.import_module(f"jaxsess.{name}")
            if not _importing_jaxsess():
                _load_api()
            return module
        names = _load_api()
        if names is not None:
            if name == "__all__":
                return list(names)
            if name in globals():
                return globals()[name]
        raise AttributeError(f"module 'jaxsess' has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted(set(globals()) | set(_load_api() or ()))
