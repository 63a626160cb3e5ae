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

A second table runs a training loop — an MLP 784-512-512-10 with optax's Adam,
``p, s, l = step(p, s, x, y)``, ``block_until_ready`` each step — under plain
``jax.jit`` and under each strategy's ``session.jit``, and reports its peak: the
device's ``peak_bytes_in_use`` above what was in use before the loop, or on XLA:CPU the
peak of ``sum(a.nbytes for a in jax.live_arrays())`` sampled after every step (then all
cases run in this process); the ratio is
to plain ``jax.jit``'s (target <= 1.10 for ``IN_BACKGROUND`` and ``ON_SAFE_POINTS``), and
the losses must be identical.

Each case runs in a process of its own: ``peak_bytes_in_use`` cannot be reset. On a
backend without ``memory_stats()`` (XLA:CPU) the figures are the session's own account of
its buffers (``Session.stats()``), and the raw-JAX row is left out; the table says which.

Usage:
  python benchmarks/bench_device_memory.py [--quick] [--iterations N] [--mib M] [--steps S]

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


MLP_PEAK_TARGET = 1.10


def child_mlp(case: str, steps: int) -> dict[str, Any]:
    """The optax MLP + Adam loop in this process: its peak bytes and losses."""
    import jax
    import jax.numpy as jnp
    import optax

    import jaxsess

    dev = jax.devices()[0]
    keys = jax.random.split(jax.random.PRNGKey(0), 4)
    sizes = [784, 512, 512, 10]
    params = [(jax.random.normal(keys[i], (a, b)) * 0.05, jnp.zeros(b)) for i, (a, b) in
              enumerate(zip(sizes, sizes[1:]))]
    opt = optax.adam(1e-3)
    state = opt.init(params)
    x = jax.random.normal(keys[3], (128, 784))
    y = jax.nn.one_hot(jnp.arange(128) % 10, 10)

    def step(p: Any, s: Any, x: Any, y: Any) -> Any:
        def loss_fn(p: Any) -> Any:
            h = x
            for w, b in p[:-1]:
                h = jax.nn.relu(h @ w + b)
            w, b = p[-1]
            return optax.softmax_cross_entropy(h @ w + b, y).mean()

        loss, g = jax.value_and_grad(loss_fn)(p)
        upd, s = opt.update(g, s, p)
        return optax.apply_updates(p, upd), s, loss

    session = None if case == "jax" else jaxsess.EagerSession(cleanup=case)
    f = jax.jit(step) if session is None else session.jit(step)
    jax.block_until_ready((params, state, x, y))
    base = _device_bytes(dev)
    on_device = base is not None
    peak_live = 0
    losses = []
    for _ in range(steps):
        params, state, loss = f(params, state, x, y)
        jax.block_until_ready((params, state, loss))
        losses.append(float(loss))
        peak_live = max(peak_live, sum(a.nbytes for a in jax.live_arrays()))
        del loss
    if on_device:
        now = _device_bytes(dev)
        assert base is not None and now is not None
        peak = now[1] - base[0]
    else:
        peak = peak_live  # the measure: all live arrays, sampled after each step
    if session is not None:
        session.close()
    return {"case": case, "source": "device" if on_device else "live_arrays", "peak": peak,
            "peak_total": peak_live, "losses": losses}


def _run_child(args: list[str]) -> dict[str, Any]:
    cmd = [sys.executable, os.path.abspath(__file__), *args]
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"{args} failed (status {out.returncode}):\n{out.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="50 iterations of 4 MiB")
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--mib", type=int, default=16, help="size of each result, MiB")
    ap.add_argument("--steps", type=int, default=60, help="training steps of the MLP loop")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--child-mlp", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.quick:
        args.iterations, args.mib, args.steps = 50, 4, 10
    if args.child:
        print(json.dumps(child(args.child, args.iterations, args.mib)))
        return
    if args.child_mlp:
        print(json.dumps(child_mlp(args.child_mlp, args.steps)))
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
    print()
    print(f"# MLP 784-512-512-10 + optax Adam, batch 128, {args.steps} steps: peak over plain jax.jit's")
    print(f"{'case':18s} {'source':11s} {'peak MiB':>9s} {'ratio':>6s} {'target':>7s} {'losses':>9s}")
    plain: dict[str, Any] | None = None
    in_process = _device_bytes(dev) is None  # no device peak to reset: no process per case
    for case in CASES:
        r = child_mlp(case, args.steps) if in_process else _run_child(["--child-mlp", case, "--steps", str(args.steps)])
        if plain is None:
            plain = r
        ratio = r["peak"] / plain["peak"] if plain["peak"] else float("nan")
        target = MLP_PEAK_TARGET if case in ("IN_BACKGROUND", "ON_SAFE_POINTS") else None
        mark = "" if target is None else ("ok" if ratio <= target else "MISS")
        same = "identical" if r["losses"] == plain["losses"] else "DIFFER"
        print(f"{case:18s} {r['source']:11s} {r['peak'] / 2**20:9.2f} {ratio:6.2f} "
              f"{'<=' + format(target, 'g') if target else '':>7s} {same:>9s} {mark}")


if __name__ == "__main__":
    main()
