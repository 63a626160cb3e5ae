"""TF1's error classes (as ``tf.compat.v1.errors``).

Every run-time failure of a graph op is an :class:`OpError` subclass carrying
the offending ``node_def`` name (``None`` when not tied to one), the ``op``
(the :class:`~jaxsess.Operation`, when known), a ``message`` and an
``error_code`` equal to TensorFlow's canonical code.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "OK",
    "CANCELLED",
    "UNKNOWN",
    "INVALID_ARGUMENT",
    "DEADLINE_EXCEEDED",
    "NOT_FOUND",
    "ALREADY_EXISTS",
    "PERMISSION_DENIED",
    "RESOURCE_EXHAUSTED",
    "FAILED_PRECONDITION",
    "ABORTED",
    "OUT_OF_RANGE",
    "UNIMPLEMENTED",
    "INTERNAL",
    "UNAVAILABLE",
    "DATA_LOSS",
    "UNAUTHENTICATED",
    "OpError",
    "error_code_from_exception_type",
    "exception_type_from_error_code",
    "CancelledError",
    "UnknownError",
    "InvalidArgumentError",
    "DeadlineExceededError",
    "NotFoundError",
    "AlreadyExistsError",
    "PermissionDeniedError",
    "ResourceExhaustedError",
    "FailedPreconditionError",
    "AbortedError",
    "OutOfRangeError",
    "UnimplementedError",
    "InternalError",
    "UnavailableError",
    "DataLossError",
    "UnauthenticatedError",
]

OK = 0
CANCELLED = 1
UNKNOWN = 2
INVALID_ARGUMENT = 3
DEADLINE_EXCEEDED = 4
NOT_FOUND = 5
ALREADY_EXISTS = 6
PERMISSION_DENIED = 7
RESOURCE_EXHAUSTED = 8
FAILED_PRECONDITION = 9
ABORTED = 10
OUT_OF_RANGE = 11
UNIMPLEMENTED = 12
INTERNAL = 13
UNAVAILABLE = 14
DATA_LOSS = 15
UNAUTHENTICATED = 16


class OpError(Exception):
    """A failure while running a graph op, as ``tf.errors.OpError``.

    Args:
      node_def: the name of the node that failed, or ``None``.
      op: the failing :class:`~jaxsess.Operation`, or ``None``.
      message: what went wrong, naming the tensor or op.
      error_code: TensorFlow's canonical error code.
    """

    def __init__(self, node_def: Any, op: Any, message: str, error_code: int = UNKNOWN) -> None:
        super().__init__(message)
        self._node_def = node_def
        self._op = op
        self._message = message
        self._error_code = error_code

    @property
    def message(self) -> str:
        return self._message

    @property
    def op(self) -> Any:
        return self._op

    @property
    def node_def(self) -> Any:
        return self._node_def

    @property
    def error_code(self) -> int:
        return self._error_code

    def __str__(self) -> str:
        return self._message

    def __reduce__(self) -> Any:
        return (type(self), (self._node_def, None, self._message))


def _make(name: str, code: int, doc: str) -> type[OpError]:
    def __init__(self: OpError, node_def: Any, op: Any, message: str, *args: Any) -> None:
        OpError.__init__(self, node_def, op, message, code)

    return type(name, (OpError,), {"__init__": __init__, "__doc__": doc, "__module__": __name__})


CancelledError = _make("CancelledError", CANCELLED, "An operation was cancelled.")
UnknownError = _make("UnknownError", UNKNOWN, "An unknown error.")
InvalidArgumentError = _make(
    "InvalidArgumentError", INVALID_ARGUMENT, "An op received an invalid argument (e.g. a missing feed)."
)
DeadlineExceededError = _make("DeadlineExceededError", DEADLINE_EXCEEDED, "A deadline expired.")
NotFoundError = _make("NotFoundError", NOT_FOUND, "A requested entity (a file, a name) was not found.")
AlreadyExistsError = _make("AlreadyExistsError", ALREADY_EXISTS, "An entity to create already exists.")
PermissionDeniedError = _make("PermissionDeniedError", PERMISSION_DENIED, "Permission denied.")
ResourceExhaustedError = _make(
    "ResourceExhaustedError", RESOURCE_EXHAUSTED, "A resource (e.g. device memory) is exhausted."
)
FailedPreconditionError = _make(
    "FailedPreconditionError",
    FAILED_PRECONDITION,
    "The system is not in a state to run the op (e.g. an uninitialized variable).",
)
AbortedError = _make("AbortedError", ABORTED, "An operation was aborted.")
OutOfRangeError = _make("OutOfRangeError", OUT_OF_RANGE, "An operation iterated past the valid range.")
UnimplementedError = _make("UnimplementedError", UNIMPLEMENTED, "An operation is not implemented.")
InternalError = _make("InternalError", INTERNAL, "An internal invariant broke.")
UnavailableError = _make("UnavailableError", UNAVAILABLE, "A runtime is unavailable.")
DataLossError = _make("DataLossError", DATA_LOSS, "Unrecoverable data loss or corruption.")
UnauthenticatedError = _make("UnauthenticatedError", UNAUTHENTICATED, "The request is unauthenticated.")

_CODE_TO_CLASS: dict[int, type[OpError]] = {
    c(None, None, "").error_code: c
    for c in (CancelledError, UnknownError, InvalidArgumentError, DeadlineExceededError, NotFoundError,
              AlreadyExistsError, PermissionDeniedError, ResourceExhaustedError, FailedPreconditionError,
              AbortedError, OutOfRangeError, UnimplementedError, InternalError, UnavailableError, DataLossError,
              UnauthenticatedError)
}


def exception_type_from_error_code(error_code: int) -> type[OpError]:
    """The ``OpError`` subclass of a canonical code, as ``tf.errors.exception_type_from_error_code``.

    Raises:
      KeyError: not a code of an error class (``OK`` included), as TF.
    """
    return _CODE_TO_CLASS[error_code]


def error_code_from_exception_type(cls: type[OpError]) -> int:
    """The canonical code of an ``OpError`` subclass, as ``tf.errors.error_code_from_exception_type``
    (``UNKNOWN`` for any other class, as TF)."""
    for code, c in _CODE_TO_CLASS.items():
        if c is cls:
            return code
    return UNKNOWN
