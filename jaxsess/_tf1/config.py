"""``tf.config`` (as ``tf.compat.v1.config``): the devices JAX sees, in TF's words.

Physical and logical devices are JAX's devices of the platform: GPUs (and
TPUs) one each, named ``/physical_device:GPU:0`` and ``/device:GPU:0``; the
CPU shows as one device, as TF (JAX's virtual CPU devices are placement
targets, not separate physical devices). Listing devices starts JAX's backend.

The settings TF makes here are JAX's to make at start-up:
``set_memory_growth(gpu, True)`` sets ``XLA_PYTHON_CLIENT_PREALLOCATE=false``
when the backend has not started yet and is otherwise recorded only (JAX's
allocator is fixed once it runs); ``set_visible_devices`` and logical device
configurations are recorded and reported back by their getters, without
changing what JAX uses; ``optimizer.set_jit`` is recorded (XLA compiles every
plan anyway); threading settings are recorded (XLA schedules its threads).
"""

from __future__ import annotations

import os
import types
from typing import Any, NamedTuple

import jax

from jaxsess._core import _config as _config

__all__ = [
    "PhysicalDevice", "LogicalDevice", "LogicalDeviceConfiguration", "list_physical_devices",
    "list_logical_devices", "get_visible_devices", "set_visible_devices", "get_logical_device_configuration",
    "set_logical_device_configuration", "get_soft_device_placement", "set_soft_device_placement",
    "experimental", "optimizer", "threading", "run_functions_eagerly", "functions_run_eagerly",
]


class PhysicalDevice(NamedTuple):
    """A device of the machine, as ``tf.config.PhysicalDevice``."""

    name: str
    device_type: str


class LogicalDevice(NamedTuple):
    """A device as placement sees it, as ``tf.config.LogicalDevice``."""

    name: str
    device_type: str


class LogicalDeviceConfiguration(NamedTuple):
    """A logical device's settings (recorded only), as ``tf.config.LogicalDeviceConfiguration``."""

    memory_limit: int | None = None
    experimental_priority: int | None = None
    experimental_device_ordinal: int | None = None


VirtualDeviceConfiguration = LogicalDeviceConfiguration

_STATE: dict[str, Any] = {"visible": {}, "growth": {}, "logical": {}, "soft": True, "jit": False,
                          "inter": 0, "intra": 0, "eager": False}


def _types() -> list[str]:
    out = ["CPU"]
    for platform, kind in (("gpu", "GPU"), ("tpu", "TPU")):
        try:
            if jax.devices(platform):
                out.append(kind)
        except RuntimeError:
            pass
    return out


def _count(kind: str) -> int:
    if kind == "CPU":
        return 1
    try:
        return len(jax.devices(kind.lower()))
    except RuntimeError:
        return 0


def list_physical_devices(device_type: str | None = None) -> list[PhysicalDevice]:
    """The machine's devices of ``device_type`` (``'CPU'``, ``'GPU'``, ``'TPU'``; all when
    ``None``), as ``tf.config.list_physical_devices``; ``[]`` for a type JAX lacks."""
    kinds = _types() if device_type is None else [device_type.upper()]
    return [PhysicalDevice(f"/physical_device:{k}:{i}", k) for k in kinds for i in range(_count(k))]


def list_logical_devices(device_type: str | None = None) -> list[LogicalDevice]:
    """The visible devices as placement names them (``/device:GPU:0``), as
    ``tf.config.list_logical_devices``."""
    return [LogicalDevice(d.name.replace("/physical_device:", "/device:"), d.device_type)
            for d in get_visible_devices(device_type)]


def _check(device: Any, fn: str) -> PhysicalDevice:
    if not isinstance(device, PhysicalDevice) or device not in list_physical_devices(device.device_type):
        raise ValueError(f"{fn}: unrecognized device {device!r}; pass one of tf.config.list_physical_devices().")
    return device


def get_visible_devices(device_type: str | None = None) -> list[PhysicalDevice]:
    """The devices :func:`set_visible_devices` left visible (default: all), as
    ``tf.config.get_visible_devices``."""
    out = []
    for d in list_physical_devices(device_type):
        chosen = _STATE["visible"].get(d.device_type)
        if chosen is None or d in chosen:
            out.append(d)
    return out


def set_visible_devices(devices: Any, device_type: str | None = None) -> None:
    """Records which devices of a type are visible, as ``tf.config.set_visible_devices``
    (JAX keeps using all of them; see the module docstring).

    Raises:
      ValueError: a device that :func:`list_physical_devices` does not list.
    """
    devs = [devices] if isinstance(devices, PhysicalDevice) else list(devices)
    for d in devs:
        _check(d, "set_visible_devices")
    kinds = {device_type.upper()} if device_type else {d.device_type for d in devs} or {"GPU"}
    for k in kinds:
        _STATE["visible"][k] = [d for d in devs if d.device_type == k]


def get_memory_growth(device: PhysicalDevice) -> bool:
    """Whether memory growth was asked for ``device``, as ``tf.config.experimental.get_memory_growth``."""
    return bool(_STATE["growth"].get(_check(device, "get_memory_growth"), False))


def set_memory_growth(device: PhysicalDevice, enable: bool) -> None:
    """Asks JAX's GPU allocator to grow instead of preallocating, as
    ``tf.config.experimental.set_memory_growth`` (effective before JAX's backend starts).

    Raises:
      ValueError: ``device`` is not a listed physical device, or is a CPU (TF's rule).
    """
    _check(device, "set_memory_growth")
    if device.device_type == "CPU":
        raise ValueError("Cannot set memory growth on non-GPU and non-Pluggable devices")
    _STATE["growth"][device] = bool(enable)
    if enable and not _config._backend_started():
        os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"


def get_logical_device_configuration(device: PhysicalDevice) -> list[LogicalDeviceConfiguration] | None:
    """The recorded configuration of ``device``, as ``tf.config.get_logical_device_configuration``."""
    return _STATE["logical"].get(_check(device, "get_logical_device_configuration"))


def set_logical_device_configuration(device: PhysicalDevice, logical_devices: Any) -> None:
    """Records ``logical_devices`` for ``device`` (JAX does not split devices), as
    ``tf.config.set_logical_device_configuration``."""
    _STATE["logical"][_check(device, "set_logical_device_configuration")] = (
        None if logical_devices is None else list(logical_devices))


def get_soft_device_placement() -> bool:
    """As ``tf.config.get_soft_device_placement`` (sessions follow ``ConfigProto``)."""
    return bool(_STATE["soft"])


def set_soft_device_placement(enabled: bool) -> None:
    """Recorded, as ``tf.config.set_soft_device_placement``; graph sessions take
    ``ConfigProto(allow_soft_placement=...)``."""
    _STATE["soft"] = bool(enabled)


def run_functions_eagerly(run_eagerly: bool) -> None:
    """Recorded, as ``tf.config.run_functions_eagerly`` (jaxsess has no ``tf.function``)."""
    _STATE["eager"] = bool(run_eagerly)


def functions_run_eagerly() -> bool:
    """What :func:`run_functions_eagerly` recorded."""
    return bool(_STATE["eager"])


def _setter(key: str) -> Any:
    def set_(value: Any) -> None:
        _STATE[key] = value

    return set_


def _getter(key: str) -> Any:
    def get() -> Any:
        return _STATE[key]

    return get


optimizer = types.SimpleNamespace(
    set_jit=_setter("jit"), get_jit=_getter("jit"),
    set_experimental_options=lambda options: None, get_experimental_options=dict,
)
threading = types.SimpleNamespace(
    set_inter_op_parallelism_threads=_setter("inter"), get_inter_op_parallelism_threads=_getter("inter"),
    set_intra_op_parallelism_threads=_setter("intra"), get_intra_op_parallelism_threads=_getter("intra"),
)
experimental = types.SimpleNamespace(
    list_physical_devices=list_physical_devices, list_logical_devices=list_logical_devices,
    get_visible_devices=get_visible_devices, set_visible_devices=set_visible_devices,
    get_memory_growth=get_memory_growth, set_memory_growth=set_memory_growth,
    get_virtual_device_configuration=get_logical_device_configuration,
    set_virtual_device_configuration=set_logical_device_configuration,
    VirtualDeviceConfiguration=VirtualDeviceConfiguration,
)
