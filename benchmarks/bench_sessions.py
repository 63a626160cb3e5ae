"""Benchmarks of session-owned memory against raw JAX, per cleanup strategy.

Prints one table with, for each ``ResourceCleanupStrategy``:

(a) call overhead: per-call time of a ``session.jit`` function divided by the
    per-call time of the same raw ``jax.jit`` function on a float32[3] input
    (target <= 1.10). Both are measured in the same run, in interleaved
    batches (the order of the two alternates per repeat), in process CPU time
    (``time.process_time_ns``: other processes' load does not count; the
    cleaner thread's does), and the ratio is of the medians.
(a2) a step taking and returning a 16-array pytree, fed back 300 times per
    batch, interleaved the same way: the session's speed relative to raw
    ``jax.jit`` (raw time / session time; target >= 0.95).
(b) peak owned bytes of an n*m loop (n outputs of 256 KiB per iteration,
    each iteration's outputs blocked on and dropped) divided by one
    iteration's bytes: ``stats().peak_bytes / (n * 256 KiB)`` (weak holding:
    1, as plain JAX; ``ON_SESSION_CLOSE``: m).
(c) IN_BACKGROUND only: time from dropping the last reference to an owned
    array to its buffer being freed (a weakref callback on the array; the
    session holds it weakly, so this is plain JAX's deallocation, not a
    cleaner poll); the median of many samples in milliseconds, with the main
    thread (1) idle, (2) idle while the session owns 1,000 other live
    arrays, and (3) busy running Python code.
(d) cost independent of the session's size: per-call time of a graph
    ``Session.run(assign_add)`` when the session holds 3,000 other
    initialised variables, divided by the time when it holds only that one
    (interleaved batches, ratio of medians; target <= 1.1).

Usage:
  python benchmarks/bench_sessions.py [--quick] [--only-state]
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import statistics
import sys
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import jaxsess  # noqa: E402
from jaxsess import EagerSession, ResourceCleanupStrategy  # noqa: E402

IN_BACKGROUND = ResourceCleanupStrategy.IN_BACKGROUND
ON_SAFE_POINTS = ResourceCleanupStrategy.ON_SAFE_POINTS
ON_SESSION_CLOSE = ResourceCleanupStrategy.ON_SESSION_CLOSE

CALL_RATIO_TARGET = {IN_BACKGROUND: 1.10, ON_SAFE_POINTS: 1.10, ON_SESSION_CLOSE: 1.10}
TREE_SPEED_TARGET = 0.95  # (a2): raw time / session time, at least
PEAK_RATIO_TARGET: dict[ResourceCleanupStrategy, float | None] = {
    IN_BACKGROUND: 1.0,
    ON_SAFE_POINTS: 1.0,
    ON_SESSION_CLOSE: None,  # holds n*m by design
}
LATENCY_TARGET_MS = 1.0
STATE_RATIO_TARGET = 1.1


def _batch_ns(fn: Callable[[Any], Any], x: Any, calls: int) -> float:
    """CPU nanoseconds (this process) per call of ``fn(x)`` over ``calls`` calls, outputs dropped."""
    t0 = time.process_time_ns()
    for _ in range(calls):
        y = fn(x)
    y.block_until_ready()
    t1 = time.process_time_ns()
    del y
    return (t1 - t0) / calls


def _fed_back_ns(fn: Callable[[Any], Any], tree: Any, calls: int) -> float:
    """CPU nanoseconds per call of ``tree = fn(tree)`` over ``calls`` calls."""
    t0 = time.process_time_ns()
    for _ in range(calls):
        tree = fn(tree)
    jax.block_until_ready(tree)
    return (time.process_time_ns() - t0) / calls


def bench_tree_step(strategy: ResourceCleanupStrategy, repeats: int, calls: int = 300) -> dict[str, float]:
    """(a2): a 16-array pytree step fed back ``calls`` times; speed relative to raw jax.jit."""

    def step(p: dict[str, jax.Array]) -> dict[str, jax.Array]:
        return {k: v * 1.0001 for k, v in p.items()}

    tree = {f"w{i}": jnp.ones((8,), jnp.float32) for i in range(16)}
    raw = jax.jit(step)
    with EagerSession(cleanup=strategy, name=f"bench-tree-{strategy.name}") as s:
        wrapped = s.jit(step)
        for _ in range(3):
            _fed_back_ns(raw, tree, calls)
            _fed_back_ns(wrapped, tree, calls)
        raw_ns: list[float] = []
        wrapped_ns: list[float] = []
        for r in range(repeats):
            order: list[tuple[Callable[[Any], Any], list[float]]] = [(raw, raw_ns), (wrapped, wrapped_ns)]
            if r % 2:
                order.reverse()
            for f, out in order:
                out.append(_fed_back_ns(f, tree, calls))
    a, b = statistics.median(raw_ns), statistics.median(wrapped_ns)
    return {"raw_us": a / 1e3, "session_us": b / 1e3, "speed": a / b}


def bench_call_overhead(strategy: ResourceCleanupStrategy, repeats: int, calls: int) -> dict[str, float]:
    """(a): medians of per-call ns of raw jax.jit and session.jit, and their ratio."""

    def fn(v: jax.Array) -> jax.Array:
        return v * 2.0 + 1.0

    raw = jax.jit(fn)
    x = jnp.ones(3, jnp.float32)
    with EagerSession(cleanup=strategy, name=f"bench-call-{strategy.name}") as s:
        wrapped = s.jit(fn)
        for _ in range(3):  # compile and warm up both
            _batch_ns(raw, x, calls)
            _batch_ns(wrapped, x, calls)
        raw_ns: list[float] = []
        wrapped_ns: list[float] = []
        for r in range(repeats):
            order: list[tuple[Callable[[Any], Any], list[float]]] = [(raw, raw_ns), (wrapped, wrapped_ns)]
            if r % 2:
                order.reverse()
            for f, out in order:
                time.sleep(0.001)  # the same idle gap before every batch
                out.append(_batch_ns(f, x, calls))
    raw_med = statistics.median(raw_ns)
    wrapped_med = statistics.median(wrapped_ns)
    return {"raw_us": raw_med / 1e3, "session_us": wrapped_med / 1e3, "ratio": wrapped_med / raw_med}


def bench_peak(strategy: ResourceCleanupStrategy, n: int, m: int, nbytes: int) -> dict[str, float]:
    """(b): peak owned bytes of an n*m loop over one iteration's bytes."""
    size = nbytes // 4

    def step(v: jax.Array) -> tuple[jax.Array, ...]:
        return tuple(v * float(k + 1) for k in range(n))

    x = jnp.ones(size, jnp.float32)
    with EagerSession(cleanup=strategy, name=f"bench-peak-{strategy.name}") as s:
        f = s.jit(step)
        for _ in range(m):
            outs = f(x)
            jax.block_until_ready(outs)
            del outs
        stats = s.stats()
    per_iter = n * nbytes
    return {"peak_ratio": stats.peak_bytes / per_iter, "peak_mib": stats.peak_bytes / 2**20}


def _free_latencies(samples: int, *, extra_live: int, busy: bool) -> list[float]:
    """(c): seconds from ``del y`` to the weakref callback that follows its deletion."""
    freed_at: list[float] = []
    event = threading.Event()

    def on_gone(_: Any) -> None:
        freed_at.append(time.perf_counter())
        event.set()

    latencies: list[float] = []
    rng = random.Random(0)
    with EagerSession(cleanup=IN_BACKGROUND, name="bench-latency") as s:
        make = s.jit(lambda v: v + 1.0)
        x = jnp.ones(1024, jnp.float32)
        others = [make(x) for _ in range(extra_live)]
        jax.block_until_ready(others)
        for _ in range(samples):
            event.clear()
            freed_at.clear()
            y = make(x)
            y.block_until_ready()
            ref = weakref.ref(y, on_gone)
            time.sleep(rng.uniform(0.0, 0.002))  # a random phase of the cleaner's polling
            t0 = time.perf_counter()
            del y
            if busy:
                spins = 0
                while not freed_at:
                    spins += 1  # pure-Python work: the cleaner waits for the GIL
                    if spins % 1_000_000 == 0 and time.perf_counter() - t0 > 5.0:
                        break
            elif not event.wait(5.0):
                pass
            if freed_at:
                latencies.append(freed_at[0] - t0)
            del ref
        del others
    return latencies


def _assign_add_session(n_other: int) -> tuple[jaxsess.Session, Callable[[], Any]]:
    """A graph session whose ``run(assign_add)`` updates one variable while
    ``n_other`` other variables are initialised in the same session."""
    g = jaxsess.Graph()
    with g.as_default():
        v = jaxsess.Variable(jnp.zeros(4, jnp.float32), name="v")
        others = [jaxsess.Variable(jnp.zeros(2, jnp.float32), name=f"w{i}") for i in range(n_other)]
        step = v.assign_add(jnp.ones(4, jnp.float32))
        init = jaxsess.global_variables_initializer()
    s = jaxsess.Session(graph=g, cleanup=ON_SAFE_POINTS, name=f"bench-state-{n_other}")
    s.run(init)
    del others
    return s, lambda: s.run(step)


def bench_state_scaling(repeats: int, calls: int, n_vars: int = 3000) -> dict[str, float]:
    """(d): per-call us of run(assign_add) with 1 and with ``n_vars`` variables, and their ratio."""
    small, run_small = _assign_add_session(0)
    large, run_large = _assign_add_session(n_vars)
    try:
        for _ in range(3):
            for f in (run_small, run_large):
                for _ in range(calls):
                    f()
        small_ns: list[float] = []
        large_ns: list[float] = []
        for r in range(repeats):
            order = [(run_small, small_ns), (run_large, large_ns)]
            if r % 2:
                order.reverse()
            for f, out in order:
                t0 = time.perf_counter_ns()
                for _ in range(calls):
                    f()
                out.append((time.perf_counter_ns() - t0) / calls)
    finally:
        small.close()
        large.close()
    a, b = statistics.median(small_ns), statistics.median(large_ns)
    return {"one_us": a / 1e3, "many_us": b / 1e3, "ratio": b / a, "n_vars": float(n_vars)}


def _print_state(state: dict[str, float]) -> None:
    print(
        f"(d) run(assign_add): 1 variable {state['one_us']:.2f} us/call, {int(state['n_vars']):,} variables "
        f"{state['many_us']:.2f} us/call, ratio {state['ratio']:.3f} (target <={STATE_RATIO_TARGET:g}) "
        f"{_mark(state['ratio'], STATE_RATIO_TARGET)}"
    )


def bench_latency(samples: int) -> dict[str, float]:
    out: dict[str, float] = {}
    for label, extra, busy in (("idle", 0, False), ("idle_1000_live", 1000, False), ("busy", 0, True)):
        lat = _free_latencies(samples, extra_live=extra, busy=busy)
        out[label] = statistics.median(lat) * 1e3 if lat else float("nan")
        out[label + "_p90"] = statistics.quantiles(lat, n=10)[-1] * 1e3 if len(lat) >= 10 else float("nan")
        out[label + "_n"] = len(lat)
    return out


def _mark(value: float, target: float | None) -> str:
    if target is None or value != value:  # NaN
        return ""
    return "ok" if value <= target else "MISS"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a short run (fewer repeats)")
    parser.add_argument("--only-state", action="store_true", help="only (d), the session-size scaling")
    args = parser.parse_args(argv)
    if args.only_state:
        _print_state(bench_state_scaling(21 if args.quick else 61, 50 if args.quick else 100))
        return 0
    if args.quick:
        repeats, calls, m, samples = 41, 100, 50, 50
    else:
        repeats, calls, m, samples = 201, 200, 200, 300
    n, nbytes = 4, 256 * 1024

    print(
        f"jaxsess {jaxsess.__version__} | jax {jax.__version__} | python {platform.python_version()} | "
        f"{jax.default_backend()} x{jax.device_count()} | {os.cpu_count()} cores | "
        f"load {os.getloadavg()[0]:.1f} | "
        f"switch interval {sys.getswitchinterval() * 1e3:.0f} ms | {'quick' if args.quick else 'full'} run"
    )
    print(
        f"(a) float32[3] calls: {repeats} interleaved repeats x {calls} calls, medians | "
        f"(b) n={n} outputs x {nbytes // 1024} KiB, m={m} iterations | (c) {samples} samples"
    )
    gc.collect()
    rows = []
    trees = []
    for strategy in ResourceCleanupStrategy:
        call = bench_call_overhead(strategy, repeats, calls)
        peak = bench_peak(strategy, n, m, nbytes)
        rows.append((strategy, call, peak))
        trees.append((strategy, bench_tree_step(strategy, 11 if args.quick else 31, 100 if args.quick else 300)))
    latency = bench_latency(samples)

    header = (
        f"{'strategy':<17} {'raw us/call':>11} {'sess us/call':>12} {'call ratio':>10} {'target':>7} {'':>4}  "
        f"{'peak/iter':>9} {'target':>7} {'':>4}  {'free latency ms (median)':>24} {'target':>7}"
    )
    print()
    print(header)
    print("-" * len(header))
    for strategy, call, peak in rows:
        ct = CALL_RATIO_TARGET[strategy]
        pt = PEAK_RATIO_TARGET[strategy]
        pt_s = f"<={pt:g}" if pt is not None else f"={m:g}"
        if strategy is IN_BACKGROUND:
            lat_s = f"{latency['idle']:.3f}"
            lat_t = f"<={LATENCY_TARGET_MS:g}"
            lat_mark = _mark(latency["idle"], LATENCY_TARGET_MS)
        else:
            lat_s, lat_t, lat_mark = "n/a", "", ""
        print(
            f"{strategy.name:<17} {call['raw_us']:>11.2f} {call['session_us']:>12.2f} "
            f"{call['ratio']:>10.3f} {'<=' + format(ct, 'g'):>7} {_mark(call['ratio'], ct):>4}  "
            f"{peak['peak_ratio']:>9.2f} {pt_s:>7} {_mark(peak['peak_ratio'], pt):>4}  "
            f"{lat_s:>24} {lat_t:>7} {lat_mark}"
        )
    print()
    print("(a2) 16-array pytree step fed back, speed = raw jax.jit time / session time:")
    for strategy, tree in trees:
        print(
            f"  {strategy.name:<17} raw {tree['raw_us']:8.2f} us  session {tree['session_us']:8.2f} us  "
            f"speed {tree['speed']:.3f} (target >={TREE_SPEED_TARGET:g}) "
            f"{'ok' if tree['speed'] >= TREE_SPEED_TARGET else 'MISS'}"
        )
    print()
    print("IN_BACKGROUND free latency, ms (median / p90 / samples):")
    for label, desc in (
        ("idle", "main thread idle, 1 owned array"),
        ("idle_1000_live", "main thread idle, 1,000 other live owned arrays"),
        ("busy", "main thread busy in Python (GIL held)"),
    ):
        print(
            f"  {desc:<50} {latency[label]:8.3f} / {latency[label + '_p90']:8.3f} / "
            f"{int(latency[label + '_n'])}"
        )
    print()
    _print_state(bench_state_scaling(21 if args.quick else 61, 50 if args.quick else 100))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
