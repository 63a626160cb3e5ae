"""Types of the C extension ``jaxsess._core.runtime._hot`` (built from ``_hot.c`` and
its sibling ``_hot_*.c`` files, one per Python twin: see ``_hot.h``)."""

from collections.abc import Callable, Sequence
from typing import Any

import jax

from jaxsess._core.runtime._resources import OwnershipRegistry
from jaxsess._core.runtime._session import BaseSession

class HotRun:
    __wrapped__: Callable[..., Any]
    def __init__(self, slow: Callable[..., Any], /) -> None: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...
    def __get__(self, obj: object, objtype: type | None = None) -> Any: ...

class HotRunner:
    __wrapped__: Callable[..., Any]
    def __init__(
        self,
        slow: Callable[..., Any],
        session: BaseSession | OwnershipRegistry,  # (the registry: its _adopter, never called)
        registry: OwnershipRegistry,
        entry: tuple[Any, ...],
        n: int,
        device: bool,
        rebuild: Callable[[list[Any]], Any] | None,
    ) -> None: ...
    def __call__(self, *args: Any) -> Any: ...

def configure(
    *,
    np_array: Callable[..., Any],
    ndarray: type,
    tensor: type,
    host_data: set[Any],
    flat_failed: Callable[..., Any],
    operation: type,
    defer: Callable[[], Any],
    deliver: Callable[[Any], None],
    to_host: Callable[[Sequence[Any]], list[Any]],
    step_failed: Callable[..., Any],
    feed_values: Callable[[Sequence[Any], Sequence[Any]], list[Any]],
    run_entry: Callable[..., Any],
    i_plan: int,
    i_positions: int,
    i_fits: int,
    i_spec: int,
    i_direct: int,
    i_direct_one: int,
    i_by_buffer: int,
    i_step: int,
    i_feeds: int,
) -> None: ...

def configure_registry(
    *,
    nbytes_cache: dict[Any, int],
    nbytes_of_cache: dict[tuple[int, ...], tuple[tuple[Any, ...], tuple[int, ...], int]],
    concrete: set[type],
    noop: Callable[[OwnershipRegistry], None],
    assist: Callable[[OwnershipRegistry], None],
    sweep: Callable[[OwnershipRegistry], None],
    reap_at: int,
) -> None: ...
def swap_pinned(registry: OwnershipRegistry, olds: Sequence[jax.Array], news: Sequence[jax.Array], /) -> bool: ...

class WrapCall:
    _python: Callable[..., Any]
    _fn: Callable[..., Any]
    __wrapped__: Callable[..., Any]
    def __init__(
        self,
        slow: Callable[..., Any],
        session: BaseSession | OwnershipRegistry,  # (the registry: its _adopter, never called)
        registry: OwnershipRegistry,
        fn: Callable[..., Any],
        producer: str,
        tree_leaves: Callable[[Any], list[Any]],
    ) -> None: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...

class OwnedTable:
    """The registry's owned arrays, ``id(ref) -> (ref, nbytes, producer)``, and its counters."""

    allocated: int
    freed: int
    live: int
    peak: int
    def __len__(self) -> int: ...
    def __contains__(self, key: object) -> bool: ...
    def __getitem__(self, key: int) -> tuple[Any, int, str]: ...
    def __setitem__(self, key: int, entry: tuple[Any, int, str]) -> None: ...
    def __delitem__(self, key: int) -> None: ...
    def __iter__(self) -> Any: ...
    def get(self, key: int, default: Any = None, /) -> Any: ...
    def pop(self, key: int, default: Any = ..., /) -> Any: ...
    def update(self, pairs: Any, /) -> None: ...
    def keys(self) -> list[int]: ...
    def values(self) -> list[tuple[Any, int, str]]: ...
    def items(self) -> list[tuple[int, tuple[Any, int, str]]]: ...
    def clear(self) -> None: ...
