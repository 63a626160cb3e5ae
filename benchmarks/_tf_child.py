"""What the benchmarks that time real TensorFlow share: finding an interpreter with TF, and a TF
child process driven over a pipe (TF and jaxsess never share a process: both claim the CPU's
threads and their own allocators). Imported by bench_convs.py and bench_models.py; not a benchmark.

The protocol: the child prints one JSON line when it is ready (what it built), then answers each
line of words it reads on stdin with one JSON line ``{"s": seconds per call}``.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from collections.abc import Callable
from typing import Any

__all__ = ["tf_python", "TFChild", "serve"]


def tf_python(arg: str | None) -> tuple[str | None, str]:
    """The interpreter that runs TF (``arg``, else this one if it has TF), or None and why not."""
    if arg:
        return arg, ""
    if importlib.util.find_spec("tensorflow") is not None:
        return sys.executable, ""
    return None, "tensorflow is not importable here (pip install 'jaxsess[bench]', or pass --tf-python)"


def serve(ready: dict[str, Any], answer: Callable[..., float]) -> None:
    """The child's side: prints ``ready``, then ``answer(*words)`` for each line on stdin."""
    print(json.dumps(ready), flush=True)
    for line in sys.stdin:
        print(json.dumps({"s": answer(*line.split())}), flush=True)


class TFChild:
    """The parent's side: starts ``cmd``, reads its ready line (``self.info``); ``block(*words)``
    asks for one timing.

    Raises:
      RuntimeError: the child exited before it was ready (the message says how to see why).
    """

    def __init__(self, cmd: list[str], env: dict[str, str] | None = None, close_timeout_s: float = 60) -> None:
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, env=env)
        self.close_timeout_s = close_timeout_s
        assert self.proc.stdout is not None
        first = self.proc.stdout.readline()
        if not first:
            raise RuntimeError(f"the TF child failed to start; run it to see why: {' '.join(cmd)}")
        self.info: dict[str, Any] = json.loads(first)

    def block(self, *words: object) -> float:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(" ".join(str(w) for w in words) + "\n")
        self.proc.stdin.flush()
        return float(json.loads(self.proc.stdout.readline())["s"])

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=self.close_timeout_s)
