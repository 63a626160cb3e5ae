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


class _KeepNumpyRandomState:
    """A one-shot import hook: the first import of ``jax`` in this process runs between
    ``numpy.random.get_state()`` and ``set_state()``. ``import jax`` draws 10 words from NumPy's
    global generator (``jax._src.clusters.k8s_cluster``: ``np.random.rand`` in decorator
    arguments); TensorFlow draws none, so a TF1 program that seeds NumPy and then touches
    ``tf.`` (which imports JAX here) would get other numbers (issue 33; recorded by
    ``tests/tf1_corpus/programs/v33_numpy_seed_then_tf.py``). Installed only while ``jax`` is
    not imported; removes itself at that import. Kept in this file: ``import jaxsess`` loads
    nothing else."""

    def find_spec(self, fullname: str, path: object, target: object = None) -> object:
        if fullname != "jax":
            return None
        with _api_lock:
            if self in _sys.meta_path:
                _sys.meta_path.remove(self)  # type: ignore[arg-type]
        spec = _importlib_util.find_spec("jax")  # by the finders after this one
        loader = getattr(spec, "loader", None)
        if loader is not None and hasattr(loader, "exec_module"):
            spec.loader = _KeptStateLoader(loader)  # type: ignore[union-attr]
        return spec


class _KeptStateLoader:
    """JAX's own loader, its ``exec_module`` run with NumPy's global random state kept."""

    def __init__(self, loader: object) -> None:
        self._loader = loader

    def __getattr__(self, name: str) -> object:  # create_module, get_resource_reader, is_package, ...
        return getattr(self._loader, name)

    def exec_module(self, module: object) -> None:
        np = _sys.modules.get("numpy")  # not imported: nobody can have seeded it
        state = np.random.get_state() if np is not None else None
        try:
            self._loader.exec_module(module)  # type: ignore[attr-defined]
        finally:
            if state is not None:
                np.random.set_state(state)  # type: ignore[union-attr]


if "jax" not in _sys.modules and not any(type(f).__name__ == "_KeepNumpyRandomState" for f in _sys.meta_path):
    _sys.meta_path.insert(0, _KeepNumpyRandomState())  # type: ignore[arg-type]

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
