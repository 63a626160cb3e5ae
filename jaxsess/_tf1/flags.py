"""``tf.flags`` / ``tf.app.flags``: command-line flags on :mod:`absl.flags`, the
library TF1 itself used.

``FLAGS`` parses ``sys.argv`` (unknown flags are left alone) the first time
a flag is read before ``tf.app.run`` parsed them, as TF1's wrapper does, so
programs that read flags without ``tf.app.run`` (notebooks) work.
"""

from __future__ import annotations

import sys
from typing import Any

from absl import flags as _absl_flags
from absl.flags import (
    DEFINE_bool as DEFINE_bool,
    DEFINE_boolean as DEFINE_boolean,
    DEFINE_enum as DEFINE_enum,
    DEFINE_float as DEFINE_float,
    DEFINE_integer as DEFINE_integer,
    DEFINE_list as DEFINE_list,
    DEFINE_multi_float as DEFINE_multi_float,
    DEFINE_multi_integer as DEFINE_multi_integer,
    DEFINE_multi_string as DEFINE_multi_string,
    DEFINE_string as DEFINE_string,
    Error as Error,
    FlagValues as FlagValues,
    mark_flag_as_required as mark_flag_as_required,
    mark_flags_as_required as mark_flags_as_required,
)

__all__ = [
    "FLAGS", "DEFINE_bool", "DEFINE_boolean", "DEFINE_enum", "DEFINE_float", "DEFINE_integer", "DEFINE_list",
    "DEFINE_multi_float", "DEFINE_multi_integer", "DEFINE_multi_string", "DEFINE_string", "Error",
    "FlagValues", "mark_flag_as_required", "mark_flags_as_required",
]


class _FlagValuesWrapper:
    """absl's ``FLAGS`` that parses ``sys.argv`` on first read, as TF1's ``tf.flags.FLAGS``."""

    def __init__(self, flags_object: FlagValues) -> None:
        self.__dict__["_wrapped"] = flags_object

    def __getattr__(self, name: str) -> Any:
        wrapped = self.__dict__["_wrapped"]
        if not wrapped.is_parsed():
            wrapped(sys.argv, known_only=True)
        return getattr(wrapped, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self.__dict__["_wrapped"], name, value)

    def __delattr__(self, name: str) -> None:
        delattr(self.__dict__["_wrapped"], name)

    def __dir__(self) -> list[str]:
        return dir(self.__dict__["_wrapped"])

    def __getitem__(self, name: str) -> Any:
        return self.__dict__["_wrapped"][name]

    def __setitem__(self, name: str, flag: Any) -> None:
        self.__dict__["_wrapped"][name] = flag

    def __len__(self) -> int:
        return len(self.__dict__["_wrapped"])

    def __iter__(self) -> Any:
        return iter(self.__dict__["_wrapped"])

    def __str__(self) -> str:
        return str(self.__dict__["_wrapped"])

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.__dict__["_wrapped"](*args, **kwargs)


FLAGS: Any = _FlagValuesWrapper(_absl_flags.FLAGS)


def __getattr__(name: str) -> Any:
    """The rest of :mod:`absl.flags` (``DEFINE_multi_enum``, ``register_validator``, the flag and
    parser classes...), as TF's ``tf.flags`` re-exports all of it."""
    if not name.startswith("_") and hasattr(_absl_flags, name):
        return getattr(_absl_flags, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | {n for n in dir(_absl_flags) if not n.startswith("_")})
