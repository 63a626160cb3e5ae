"""Clusters in one process: ``tf.train.ClusterSpec``, ``tf.train.Server`` and
``tf.train.replica_device_setter``, as ``tf.compat.v1.train``.

jaxsess runs a graph in the process that calls ``Session.run`` (several
processes are JAX's multi-controller runtime, :mod:`jaxsess._core.distributed`), so
a :class:`Server` here serves nothing over the network: it records its cluster,
job and task, and its :attr:`Server.target` (``'grpc://host:port'``) is
accepted by ``Session(target)`` while the server lives, the session then
running in-process as with ``target=''``. Device strings naming cluster jobs
(``/job:ps/task:1``, ``/job:worker``) stay on the ops (``op.device``) as TF
sets them; placement only reads their device type and index (see
:func:`jaxsess._core.graph._device.resolve_device`), so every job's variables live
in this process.
"""

from __future__ import annotations

import dataclasses
import socket
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tensorboard.compat.proto import cluster_pb2

from jaxsess._core._context import add_server_target
from jaxsess._core.graph._device import parse_device
from jaxsess._tf1 import logging as tf_logging

__all__ = ["ClusterSpec", "Server", "replica_device_setter", "STANDARD_PS_OPS"]

# The op types a replica device setter puts on the ps job, as TF1's ``STANDARD_PS_OPS``.
STANDARD_PS_OPS = (
    "Variable", "VariableV2", "AutoReloadVariable", "MutableHashTable", "MutableHashTableV2",
    "MutableHashTableOfTensors", "MutableHashTableOfTensorsV2", "MutableDenseHashTable",
    "MutableDenseHashTableV2", "VarHandleOp", "BoostedTreesEnsembleResourceHandleOp",
    "BoostedTreesQuantileStreamResourceHandleOp", "ResourceConditionalAccumulator", "DecisionTreeResource",
)


def _no_job(job_name: Any) -> ValueError:
    return ValueError(f"No such job in cluster: {job_name!r}")


class ClusterSpec:
    """The jobs of a cluster and their tasks' addresses, as ``tf.train.ClusterSpec``.

    Args:
      cluster: ``{job_name: [address, ...]}`` (task ``i`` at position ``i``),
        ``{job_name: {task_index: address}}`` (sparse), a ``ClusterDef`` proto
        or another :class:`ClusterSpec`.

    Raises:
      TypeError: anything else, or a job's tasks neither a list nor a dict.
    """

    def __init__(self, cluster: Any) -> None:
        self._spec: dict[str, dict[int, str]] = {}
        if isinstance(cluster, dict):
            for job_name, tasks in cluster.items():
                if isinstance(tasks, list | tuple):
                    self._spec[job_name] = dict(enumerate(tasks))
                elif isinstance(tasks, dict):
                    self._spec[job_name] = {int(i): t for i, t in tasks.items()}
                else:
                    raise TypeError(f"The tasks for job {job_name!r} must be a list or a dictionary "
                                    "from integers to strings.")
            self._def = self._make_cluster_def()
        elif isinstance(cluster, cluster_pb2.ClusterDef | ClusterSpec):
            self._def = cluster_pb2.ClusterDef()
            self._def.MergeFrom(cluster if isinstance(cluster, cluster_pb2.ClusterDef) else cluster.as_cluster_def())
            for job_def in self._def.job:
                self._spec[job_def.name] = dict(job_def.tasks.items())
        else:
            raise TypeError("`cluster` must be a dictionary mapping one or more job names to lists of network "
                            "addresses, or a `ClusterDef` protocol buffer")

    def _make_cluster_def(self) -> Any:
        cluster_def = cluster_pb2.ClusterDef()
        for job_name, tasks in sorted(self._spec.items()):
            if not isinstance(job_name, str | bytes):
                raise TypeError(f"Job name {job_name!r} must be bytes or unicode")
            job_def = cluster_def.job.add()
            job_def.name = job_name if isinstance(job_name, str) else job_name.decode()
            for i, address in sorted(tasks.items()):
                if not isinstance(address, str | bytes):
                    raise TypeError(f"Task address {address!r} must be bytes or unicode")
                job_def.tasks[i] = address if isinstance(address, str) else address.decode()
        return cluster_def

    def __bool__(self) -> bool:
        return bool(self._spec)

    def __eq__(self, other: object) -> bool:
        return self._spec == other

    def __ne__(self, other: object) -> bool:
        return self._spec != other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        d = self.as_dict()
        return "ClusterSpec({" + ", ".join(f"{k!r}: {d[k]!r}" for k in sorted(d)) + "})"

    def as_dict(self) -> dict[str, Any]:
        """``{job: [addresses]}``, or ``{job: {index: address}}`` for a job whose indices are sparse."""
        out: dict[str, Any] = {}
        for job in self.jobs:
            indices = self.task_indices(job)
            if not indices:
                out[job] = {}
            elif max(indices) + 1 == len(indices):
                out[job] = self.job_tasks(job)
            else:
                out[job] = {i: self.task_address(job, i) for i in indices}
        return out

    def as_cluster_def(self) -> Any:
        """The ``tf.train.ClusterDef`` proto (jobs and tasks sorted)."""
        return self._def

    @property
    def jobs(self) -> list[str]:
        """The job names, in the order given."""
        return list(self._spec)

    def _job(self, job_name: str) -> dict[int, str]:
        try:
            return self._spec[job_name]
        except KeyError:
            raise _no_job(job_name) from None

    def num_tasks(self, job_name: str) -> int:
        """The number of tasks of ``job_name``. Raises ``ValueError`` for an unknown job."""
        return len(self._job(job_name))

    def task_indices(self, job_name: str) -> list[int]:
        """The task indices of ``job_name``, sorted. Raises ``ValueError`` for an unknown job."""
        return sorted(self._job(job_name))

    def task_address(self, job_name: str, task_index: int) -> str:
        """The address of one task.

        Raises:
          ValueError: an unknown job, or no task ``task_index`` in it.
        """
        job = self._job(job_name)
        try:
            return job[task_index]
        except KeyError:
            raise ValueError(f"No task with index {task_index!r} in job {job_name!r}") from None

    def job_tasks(self, job_name: str) -> list[str | None]:
        """The addresses of ``job_name``'s tasks by index (``None`` where a sparse job has a gap)."""
        job = self._job(job_name)
        out: list[str | None] = [None] * (max(job) + 1)
        for i, address in job.items():
            out[i] = address
        return out


class Server:
    """An in-process "server" of a cluster task, as ``tf.train.Server``.

    It serves nothing over the network (see the module docstring): a
    ``Session(server.target)`` runs in this process, with its own variables.
    An address with port 0 (``create_local_server``) gets a port that is
    free at creation, as TF's does.

    Args:
      server_or_cluster_def: a :class:`ClusterSpec`, a dict for one, or a
        ``ClusterDef`` proto.
      job_name, task_index: this server's task; inferred when the cluster has
        one job, or the job one task.
      protocol: ``'grpc'`` (default); recorded only.
      config: a ``ConfigProto``; recorded only.
      start: accepted; the server is usable at once.

    Raises:
      TypeError: ``server_or_cluster_def`` is not a cluster description.
      ValueError: ``job_name``/``task_index`` missing and not inferable, or
        not in the cluster.
    """

    def __init__(self, server_or_cluster_def: Any, job_name: str | None = None, task_index: int | None = None,
                 protocol: str | None = None, config: Any = None, start: bool = True) -> None:
        try:
            cluster = ClusterSpec(server_or_cluster_def)
        except TypeError:
            raise TypeError("Could not convert `server_or_cluster_def` to a `tf.train.ServerDef` or "
                            "`tf.train.ClusterSpec`.") from None
        if job_name is None:
            if len(cluster.jobs) != 1:
                raise ValueError("Must specify an explicit `job_name`.")
            job_name = cluster.jobs[0]
        if task_index is None:
            indices = cluster.task_indices(job_name)
            if len(indices) != 1:
                raise ValueError("Must specify an explicit `task_index`.")
            task_index = indices[0]
        address = cluster.task_address(job_name, task_index)
        self._cluster = cluster
        self._job_name = job_name
        self._task_index = int(task_index)
        self._protocol = protocol or "grpc"
        self._config = config
        host, _, port = address.rpartition(":")
        if port == "0":
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
                sock.bind(("127.0.0.1", 0))
                address = f"{host}:{sock.getsockname()[1]}"
        self._target = f"{self._protocol}://{address}"
        add_server_target(self._target)  # as TF1, a server lives as long as its process

    @staticmethod
    def create_local_server(config: Any = None, start: bool = True) -> Server:
        """A one-task server (job ``'localhost'``) on a free port of this host,
        as ``tf.train.Server.create_local_server``."""
        return Server({"localhost": ["localhost:0"]}, protocol="grpc", config=config, start=start)

    @property
    def target(self) -> str:
        """``'grpc://host:port'``: pass it to ``Session(target)`` or as ``master``."""
        return self._target

    @property
    def cluster_spec(self) -> ClusterSpec:
        return self._cluster

    @property
    def job_name(self) -> str:
        return self._job_name

    @property
    def task_index(self) -> int:
        return self._task_index

    def start(self) -> None:
        """Does nothing: the server is usable from its creation."""

    def join(self) -> None:
        """Blocks forever, as ``tf.train.Server.join`` (a parameter-server
        task ends with its process)."""
        threading.Event().wait()


class _RoundRobinStrategy:
    """Cycles the ps tasks, as TF1's ``device_setter._RoundRobinStrategy``."""

    def __init__(self, num_tasks: int) -> None:
        self._num_tasks = num_tasks
        self._next_task = 0

    def __call__(self, unused_op: Any) -> int:
        task = self._next_task
        self._next_task = (self._next_task + 1) % self._num_tasks
        return task


class _ReplicaDeviceChooser:
    def __init__(self, ps_tasks: int, ps_device: str, worker_device: str, merge_devices: bool,
                 ps_ops: Sequence[str], ps_strategy: Callable[[Any], int]) -> None:
        self._ps_tasks = ps_tasks
        self._ps_device = ps_device
        self._worker_device = worker_device
        self._merge_devices = merge_devices
        self._ps_ops = tuple(ps_ops)
        self._ps_strategy = ps_strategy

    def device_function(self, op: Any) -> str:
        """The device of ``op``: ps ops on ``ps_device`` (task by the
        strategy), others on ``worker_device``, merged under ``op.device``."""
        if not self._merge_devices and op.device:
            return str(op.device)
        current = parse_device(op.device or "")
        if self._ps_tasks and self._ps_device and op.type in self._ps_ops:
            ps = parse_device(self._ps_device)
            if ps.job and (not current.job or current.job == ps.job):
                ps = dataclasses.replace(ps, task=int(self._ps_strategy(op)))
            return ps.merge(current).to_string()
        return parse_device(self._worker_device or "").merge(current).to_string()


def replica_device_setter(
    ps_tasks: int = 0, ps_device: str = "/job:ps", worker_device: str = "/job:worker", merge_devices: bool = True,
    cluster: ClusterSpec | Mapping[str, Any] | None = None, ps_ops: Sequence[str] | None = None,
    ps_strategy: Callable[[Any], int] | None = None,
) -> Callable[[Any], str] | None:
    """A device function for ``tf.device`` that puts variables on the ps
    tasks (round robin) and every other op on ``worker_device``, as
    ``tf.compat.v1.train.replica_device_setter``.

    Args:
      ps_tasks: the number of ps tasks (taken from ``cluster`` when given).
      ps_device, worker_device: device strings (``'/job:ps'``, ``'/job:worker/task:0'``).
      merge_devices: merge with devices already set by inner scopes.
      cluster: a :class:`ClusterSpec` or its dict; its ``ps`` job's size is ``ps_tasks``.
      ps_ops: op types placed on ps (default :data:`STANDARD_PS_OPS`).
      ps_strategy: ``fn(op) -> task index`` (default round robin).

    Returns:
      The device function, or ``None`` when there are no ps tasks (``tf.device(None)``).

    Raises:
      TypeError: ``ps_strategy`` is not callable; ``cluster`` is not a cluster description.
    """
    if cluster is not None:
        spec = (cluster if isinstance(cluster, ClusterSpec) else ClusterSpec(cluster)).as_dict()
        ps_job = parse_device(ps_device).job
        if ps_job not in spec or spec[ps_job] is None:
            return None
        ps_tasks = len(spec[ps_job])
    if ps_tasks == 0:
        return None
    if not merge_devices:
        tf_logging.warning("DEPRECATION: It is recommended to set merge_devices=true in replica_device_setter")
    if ps_strategy is None:
        ps_strategy = _RoundRobinStrategy(ps_tasks)
    if not callable(ps_strategy):
        raise TypeError("ps_strategy must be callable")
    chooser = _ReplicaDeviceChooser(ps_tasks, ps_device, worker_device, merge_devices,
                                    list(STANDARD_PS_OPS) if ps_ops is None else ps_ops, ps_strategy)
    return chooser.device_function
