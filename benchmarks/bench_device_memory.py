"""Device memory per cleanup strategy, read from the device itself, against raw ``jax.jit``.

For each ``ResourceCleanupStrategy``, and for a raw ``jax.jit`` loop, a child process runs
``--iterations`` calls of one jitted function that returns a fresh ``--mib`` MiB float32 array,
keeps only the last result, and reports what the device says (``Device.memory_stats()``:
``bytes_in_use`` and ``peak_bytes_in_use``, which accelerators give):

* ``peak / one``: the peak of bytes in use during the loop over one result's bytes (raw
  ``jax.jit``: about 2, the result kept and the one being made);
* ``left``: bytes in use after the loop while the last result is still referenced, and
  ``closed``: after ``close()`` (raw JAX: after ``del``), both over one result's bytes.

``IN_BACKGROUND`` and ``ON_SAFE_POINTS`` should stay near raw JAX; ``ON_SESSION_CLOSE``
holds every result until ``close()`` by definition (about ``iterations``); every session
is back to zero after ``close()``, although user code still references its last result.

Each case runs in a process of its own: ``peak_bytes_in_use`` cannot be reset. On a
backend without ``memory_stats()`` (XLA:CPU) the figures are the session's own account of
its buffers (``Session.stats()``), and the raw-JAX row is left out; the table says which.

Usage:
  python benchmarks/bench_device_memory.py [--quick] [--iterations N] [--mib M]

Run it on the accelerator (``JAX_PLATFORMS=cuda``); the device is named in the header.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from typing import Any

CASES = ["jax", "IN_BACKGROUND", "ON_SAFE_POINTS", "ON_SESSION_CLOSE"]


def _device_bytes(dev: Any) -> tuple[int, int] | None:
    stats = dev.memory_stats()
    if not stats or "bytes_in_use" not in stats:
        return None
    return int(stats["bytes_in_use"]), int(stats.get("peak_bytes_in_use", stats["bytes_in_use"]))


def child(case: str, iterations: int, mib: int) -> dict[str, Any]:
    """One case in this process: the figures as a dict (bytes over one result's bytes)."""
    import jax
    import jax.numpy as jnp

    import jaxsess

    dev = jax.devices()[0]
    n = mib * 1024 * 1024 // 4
    one = n * 4
    x = jax.device_put(jnp.ones((n,), jnp.float32), dev)
    x.block_until_ready()
    base = _device_bytes(dev)
    on_device = base is not None

    def fn(a: Any, i: Any) -> Any:
        return a * i

    session = None if case == "jax" else jaxsess.EagerSession(cleanup=case)
    if session is None and not on_device:
        return {"case": case, "skipped": "no memory_stats() on this backend"}
    f = jax.jit(fn) if session is None else session.jit(fn)
    last = None
    for i in range(iterations):
        last = f(x, jnp.float32(i))
    assert last is not None
    last.block_until_ready()
    if on_device:
        during = _device_bytes(dev)
        assert base is not None and during is not None
        peak, left = (during[1] - base[0]) / one, (during[0] - base[0]) / one
    else:
        assert session is not None
        stats = session.stats()
        peak, left = stats.peak_bytes / one, stats.live_bytes / one
    if session is None:
        del last  # raw JAX frees what nothing references
    else:
        session.close()  # `last` is still referenced: the session deletes it anyway
        assert last.is_deleted()
    if on_device:
        after = _device_bytes(dev)
        assert base is not None and after is not None
        closed = (after[0] - base[0]) / one
    else:
        assert session is not None
        closed = session.stats().live_bytes / one
    return {"case": case, "source": "device" if on_device else "session", "peak": peak, "left": left,
            "closed": closed}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="50 iterations of 4 MiB")
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--mib", type=int, default=16, help="size of each result, MiB")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.quick:
        args.iterations, args.mib = 50, 4
    if args.child:
        print(json.dumps(child(args.child, args.iterations, args.mib)))
        return
    import jax

    dev = jax.devices()[0]
    print(f"# bench_device_memory: {dev.platform} {dev.device_kind}, jax {jax.__version__}, "
          f"{args.iterations} iterations of a {args.mib} MiB result")
    print(f"{'case':18s} {'source':8s} {'peak/one':>9s} {'left/one':>9s} {'closed/one':>11s}")
    for case in CASES:
        cmd = [sys.executable, os.path.abspath(__file__), "--child", case,
               "--iterations", str(args.iterations), "--mib", str(args.mib)]
        out = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if out.returncode != 0:
            raise RuntimeError(f"case {case} failed (status {out.returncode}):\n{out.stderr[-2000:]}")
        r = json.loads(out.stdout.strip().splitlines()[-1])
        if "skipped" in r:
            print(f"{case:18s} skipped: {r['skipped']}")
            continue
        print(f"{case:18s} {r['source']:8s} {r['peak']:9.2f} {r['left']:9.2f} {r['closed']:11.2f}")


if __name__ == "__main__":
    main()
