"""The C extension ``jaxsess._core.runtime._hot`` (the C twins of the per-call paths:
the cache-hit path of ``Session.run`` and ``make_callable``, the ownership registry's safe
point and variable swap, ``session.jit``'s call); everything else is declared in ``pyproject.toml``.

One extension module built from one C file per twin (see ``_hot.h``, which the sdist ships
as a dependency of the extension).

It is optional: where it cannot be built, jaxsess runs its Python hot paths,
which do the same thing more slowly.
"""

from setuptools import Extension, setup

_HOT = "jaxsess/_core/runtime/"

setup(
    ext_modules=[
        Extension(
            "jaxsess._core.runtime._hot",
            [
                _HOT + name
                for name in ("_hot.c", "_hot_registry.c", "_hot_wrap.c", "_hot_owned.c", "_hot_common.c", "_hot_module.c")
            ],
            depends=[_HOT + "_hot.h"],
            optional=True,
        )
    ]
)
