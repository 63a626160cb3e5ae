"""The C extension ``jaxsess._core.runtime._hot`` (the cache-hit path of ``Session.run``
and ``make_callable``); everything else is declared in ``pyproject.toml``.

It is optional: where it cannot be built, jaxsess runs its Python hot paths,
which do the same thing more slowly.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("jaxsess._core.runtime._hot", ["jaxsess/_core/runtime/_hot.c"], optional=True)])
