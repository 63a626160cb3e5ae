"""The one place the core hands a function to XLA: :func:`compile_function`.

Every compiled function of the session layer is made here: a plan's single
program (donating the state it overwrites), its SPMD program over a mesh,
its per-device parts, the flat function of a stateless plan, the program
``Session.lower`` lowers, an eager op with its attributes bound, and the
probe of whether JAX forwards an input buffer to an output. The only other
call of ``jax.jit`` in the core is ``session.jit``, which is the user's own,
with the user's arguments. So the options the library compiles with (and
which it never uses: static arguments, inlining) are read in one place.

Compiling is lazy, as ``jax.jit`` is: nothing is traced or compiled until the
first call (or ``lower``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeAlias, cast

import jax
import numpy as np

__all__ = [
    "Compiled", "CompilerOptions", "ShardingTree", "bind_leading", "compile_function", "supported_compiler_options",
]

# Shardings of a function's arguments or results: a tree of tuples that
# follows the structure of the arguments (``None``: left to XLA), or one
# sharding for all of them.
ShardingTree: TypeAlias = "jax.sharding.Sharding | None | tuple[ShardingTree, ...]"

# XLA compiler options (``xla_backend_optimization_level``, ...), as
# ``jax.jit``'s ``compiler_options`` takes them.
CompilerOptions: TypeAlias = Mapping[str, "str | bool | int | float"]


class Compiled(Protocol):
    """What :func:`compile_function` returns: a function compiled on first
    call for each new argument signature (shapes, dtypes, shardings)."""

    def __call__(self, *args: Any) -> Any: ...

    def lower(self, *args: Any) -> jax.stages.Lowered:
        """JAX's ``Lowered`` for these arguments (arrays or ``ShapeDtypeStruct``s)."""
        ...

    def clear_cache(self) -> None:
        """Frees the executables compiled so far."""
        ...


def compile_function(
    fn: Callable[..., Any],
    *,
    donate_argnums: tuple[int, ...] = (),
    in_shardings: ShardingTree = None,
    out_shardings: ShardingTree = None,
    compiler_options: CompilerOptions | None = None,
) -> Compiled:
    """``fn`` compiled by XLA (``jax.jit``), with the options the core uses.

    Args:
      fn: a pure function of arrays (or of tuples of arrays).
      donate_argnums: the positional arguments whose buffers the call may
        reuse for its results (they are deleted by the call).
      in_shardings, out_shardings: where the arguments and results live, as
        ``jax.jit`` takes them; ``None`` (default): as the arguments come /
        chosen by XLA.
      compiler_options: XLA options for this function's executables only
        (``None``: JAX's defaults).

    Returns:
      The compiled function: call it, ``lower`` it, ``clear_cache`` it.
    """
    options: dict[str, Any] = {}
    if donate_argnums:
        options["donate_argnums"] = donate_argnums
    if in_shardings is not None:
        options["in_shardings"] = in_shardings
    if out_shardings is not None:
        options["out_shardings"] = out_shardings
    if compiler_options is not None:
        options["compiler_options"] = dict(compiler_options)
    return cast(Compiled, jax.jit(fn, **options))


class _Bound(functools.partial):  # type: ignore[type-arg]
    """A compiled function with its leading arguments bound. A call is
    ``functools.partial``'s, in C: no Python frame between the caller and
    JAX's C++ dispatch (the plan's hot path)."""

    def lower(self, *args: Any) -> jax.stages.Lowered:
        return cast(Compiled, self.func).lower(*self.args, *args)

    def clear_cache(self) -> None:
        cast(Compiled, self.func).clear_cache()


def bind_leading(compiled: Compiled, *leading: Any) -> Compiled:
    """``compiled`` called, lowered and cleared with ``leading`` before the
    arguments it is given: ``bind_leading(f, c)(x) == f(c, x)``, and
    ``.lower(x)`` is ``f.lower(c, x)`` (a plan's program of its big
    constants and its state and feeds, called as the program of the state and
    feeds)."""
    return cast(Compiled, _Bound(compiled, *leading))


@functools.cache
def _accepts(backend: str, name: str, value: str | bool | int | float) -> bool:
    """Whether XLA on ``backend`` compiles with the option ``name=value``:
    compiles a one-op program with it, once per process."""
    probe = compile_function(lambda x: x + 1, compiler_options={name: value})
    try:
        probe.lower(jax.ShapeDtypeStruct((), np.float32)).compile()
    except Exception:  # XLA refuses an option it does not know: INVALID_ARGUMENT 'No such compile option'
        return False
    return True


def supported_compiler_options(options: CompilerOptions) -> CompilerOptions:
    """The options of ``options`` that this jaxlib's XLA accepts on the default backend.

    XLA's options come and go between jaxlib versions (``xla_cpu_use_fusion_emitters``
    is refused by jax 0.11/0.12's XLA with ``INVALID_ARGUMENT: No such compile
    option``), so options the core chooses for speed alone are probed once
    each, and those XLA refuses are left out: the program is the same, only
    compiled with that version's defaults.

    Args:
      options: XLA compiler options, as ``jax.jit``'s ``compiler_options``.

    Returns:
      The accepted options (all of them, in the common case).
    """
    backend = jax.default_backend()
    return {k: v for k, v in options.items() if _accepts(backend, k, v)}
