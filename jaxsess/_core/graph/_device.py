"""Device strings: parsing, merging, resolving to JAX devices, logging.

Accepted forms, as TF1: ``/cpu:0``, ``/gpu:1``, ``/device:GPU:1``,
``CPU:0``, ``/job:localhost/replica:0/task:0/device:CPU:0`` and partial
specs such as ``/job:localhost`` or ``/device:GPU:*``.
"""

from __future__ import annotations

import dataclasses
import logging
import re
import sys
from dataclasses import dataclass
from typing import Any

import jax

from jaxsess._core import errors as errors

__all__ = ["DeviceSpec", "parse_device", "merge_device", "resolve_device", "default_device", "log_placement"]

logger = logging.getLogger("jaxsess")

_PART = re.compile(r"^(job|replica|task|device|cpu|gpu|tpu|CPU|GPU|TPU):(.+)$")
_TYPES = {"cpu": "CPU", "gpu": "GPU", "tpu": "TPU", "cuda": "GPU", "rocm": "GPU"}


@dataclass(frozen=True)
class DeviceSpec:
    """A parsed device string, as ``tf.DeviceSpec``. ``None`` fields are unspecified."""

    job: str | None = None
    replica: int | None = None
    task: int | None = None
    device_type: str | None = None
    device_index: int | None = None

    def to_string(self) -> str:
        parts = []
        if self.job is not None:
            parts.append(f"/job:{self.job}")
        if self.replica is not None:
            parts.append(f"/replica:{self.replica}")
        if self.task is not None:
            parts.append(f"/task:{self.task}")
        if self.device_type is not None:
            idx = "*" if self.device_index is None else str(self.device_index)
            parts.append(f"/device:{self.device_type}:{idx}")
        return "".join(parts)

    @classmethod
    def from_string(cls, spec: str) -> DeviceSpec:
        """Parses ``spec`` (see :func:`parse_device`), as ``tf.DeviceSpec.from_string``."""
        return parse_device(spec)

    def make_merged_spec(self, dev: DeviceSpec) -> DeviceSpec:
        """This spec with ``dev``'s specified fields on top, as ``tf.DeviceSpec.make_merged_spec``."""
        return self.merge(dev)

    def replace(self, **kwargs: str | int | None) -> DeviceSpec:
        """A copy with the named fields changed, as ``tf.DeviceSpec.replace``."""
        return dataclasses.replace(self, **kwargs)  # type: ignore[arg-type]  # job/device_type str, the rest int

    def __str__(self) -> str:
        return self.to_string()

    def merge(self, inner: DeviceSpec) -> DeviceSpec:
        return DeviceSpec(
            inner.job if inner.job is not None else self.job,
            inner.replica if inner.replica is not None else self.replica,
            inner.task if inner.task is not None else self.task,
            inner.device_type if inner.device_type is not None else self.device_type,
            inner.device_index
            if inner.device_type is not None or inner.device_index is not None
            else self.device_index,
        )


def _bad(spec: str, why: str) -> ValueError:
    return ValueError(
        f"Malformed device specification {spec!r}: {why}. Expected forms like '/cpu:0', "
        "'/device:GPU:1' or '/job:localhost/replica:0/task:0/device:CPU:0'."
    )


def parse_device(spec: str) -> DeviceSpec:
    """Parses a TF device string.

    Raises:
      ValueError: the string is malformed (names it and the expected forms).
    """
    if not isinstance(spec, str):
        raise TypeError(f"A device specification is a string, got {type(spec).__name__}.")
    s = spec.strip()
    if not s:
        return DeviceSpec()
    job = replica = task = dtype = index = None
    parts = [p for p in s.split("/") if p]
    if not parts:
        raise _bad(spec, "no components")
    i = 0
    while i < len(parts):
        p = parts[i]
        m = _PART.match(p)
        if m is None:
            # A bare "CPU:0" style is handled above; 'device:CPU:0' splits fine.
            raise _bad(spec, f"cannot parse component {p!r}")
        key, val = m.group(1), m.group(2)
        lk = key.lower()
        if lk == "job":
            job = val
        elif lk in ("replica", "task"):
            if not val.isdigit():
                raise _bad(spec, f"{lk} must be a non-negative integer, got {val!r}")
            if lk == "replica":
                replica = int(val)
            else:
                task = int(val)
        elif lk == "device":
            tname, _, idx = val.partition(":")
            dtype = _TYPES.get(tname.lower())
            if dtype is None:
                raise _bad(spec, f"unknown device type {tname!r}")
            if idx in ("", "*"):
                index = None
            elif idx.isdigit():
                index = int(idx)
            else:
                raise _bad(spec, f"device index must be an integer or '*', got {idx!r}")
        else:
            dtype = _TYPES[lk]
            if val == "*":
                index = None
            elif val.isdigit():
                index = int(val)
            else:
                raise _bad(spec, f"device index must be an integer or '*', got {val!r}")
        i += 1
    return DeviceSpec(job, replica, task, dtype, index)


def merge_device(outer: str, inner: str) -> str:
    """The device string of an inner ``device`` scope nested in an outer one."""
    return parse_device(outer).merge(parse_device(inner)).to_string()


def tf_device_name(dev: jax.Device) -> str:
    """TF's full name of a JAX device: ``/job:localhost/replica:0/task:0/device:CPU:0``
    (the task is the device's process, the index its index in that process)."""
    kind = _TYPES.get(dev.platform.lower(), dev.platform.upper())
    idx = _local_index(dev)
    return f"/job:localhost/replica:0/task:{dev.process_index}/device:{kind}:{idx}"


def _local_index(dev: jax.Device) -> int:
    """A device's index among its process's devices (``CPU:0`` in every process)."""
    local = getattr(dev, "local_hardware_id", None)
    return dev.id if local is None else int(local)


def resolve_device(spec: str, op_name: str, *, allow_soft_placement: bool) -> jax.Device | None:
    """The JAX device for a TF device string, or ``None`` for "default". A
    spec with no ``/task:`` means this process's devices (``jax.process_index()``).

    Raises:
      InvalidArgumentError: no such device and soft placement is off; the
        message names the op and lists the available devices.
    """
    if not spec:
        return None
    ds = parse_device(spec)
    if ds.device_type is None:
        return None
    want = ds.device_type
    try:
        candidates = [
            d for d in jax.devices(_platform_for(want))
            if d.process_index == (jax.process_index() if ds.task is None else ds.task)
        ]
    except RuntimeError:
        candidates = []
    if ds.device_index is None and candidates:
        return candidates[0]
    for d in candidates:
        if _local_index(d) == ds.device_index:
            return d
    if allow_soft_placement:
        return None
    available = ", ".join(tf_device_name(d) for d in jax.devices())
    cpu = [d for d in _all_devices() if d.platform == "cpu"]
    if cpu and cpu[0] not in jax.devices():
        available += ", " + ", ".join(tf_device_name(d) for d in cpu)
    raise errors.InvalidArgumentError(
        op_name,
        None,
        f"Cannot assign a device for operation {op_name}: Operation was explicitly assigned "
        f"to {ds.to_string()} but available devices are [ {available} ]. Make sure the device "
        "specification refers to a valid device, or set allow_soft_placement=True.",
    )


def default_device() -> jax.Device:
    """The device unplaced ops run on: ``jax_default_device``, else this process's first device."""
    dev = getattr(jax.config, "jax_default_device", None)
    if isinstance(dev, str):
        return jax.devices(dev)[0]
    return dev or jax.local_devices()[0]


def _platform_for(kind: str) -> str:
    return {"CPU": "cpu", "GPU": "gpu", "TPU": "tpu"}[kind]


def _all_devices() -> list[Any]:
    out = list(jax.devices())
    try:
        out += [d for d in jax.devices("cpu") if d not in out]
    except RuntimeError:
        pass
    return out


def log_placement(lines: list[str]) -> None:
    """Writes placement lines as TF1 does (stderr) and to the ``jaxsess`` logger."""
    for line in lines:
        logger.info(line)
        print(line, file=sys.stderr)
