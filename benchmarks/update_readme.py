"""Rewrites the benchmark table of docs/benchmarks.md from the benchmarks' own printed output.

    python benchmarks/update_readme.py               # full runs of each benchmark (minutes)
    python benchmarks/update_readme.py --quick       # their --quick runs (a smoke check, noisy)
    python benchmarks/update_readme.py --from DIR    # parse saved outputs DIR/<script>.txt instead
    python benchmarks/update_readme.py --dry-run     # print the table, leave docs/benchmarks.md alone

The table lies between the ``<!-- benchmarks:begin -->`` and
``<!-- benchmarks:end -->`` lines of docs/benchmarks.md. Every figure in it is parsed
from the output of the script its row names (``bench_sessions.py``,
``bench_run.py``, ``bench_train.py --no-profile``, ``bench_sharding.py`` with
``--optimizer adam`` and ``sgd``, and ``python -m jaxsess demo --steps 5``), so
nothing is copied by hand; a line above the table says how and where it was
measured. A benchmark whose output no longer matches the patterns here stops
the script with the pattern and the output, so the table never mixes runs.
Run it on a quiet machine: the ratios are medians, but a loaded machine still
skews them.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
README = ROOT / "docs" / "benchmarks.md"
BEGIN, END = "<!-- benchmarks:begin -->", "<!-- benchmarks:end -->"
STRATEGIES = ("IN_BACKGROUND", "ON_SAFE_POINTS", "ON_SESSION_CLOSE")

#: name -> command line (after the Python interpreter); ``{quick}`` is ``--quick`` or dropped.
COMMANDS: dict[str, list[str]] = {
    "bench_sessions": ["benchmarks/bench_sessions.py", "{quick}"],
    "bench_run": ["benchmarks/bench_run.py", "{quick}"],
    "bench_train": ["benchmarks/bench_train.py", "{quick}", "--no-profile"],
    "bench_sharding_adam": ["benchmarks/bench_sharding.py", "{quick}", "--optimizer", "adam"],
    "bench_sharding_sgd": ["benchmarks/bench_sharding.py", "{quick}", "--optimizer", "sgd"],
    "demo": ["-m", "jaxsess", "demo", "--steps", "5", "--no-progress"],
}


class OutputChanged(RuntimeError):
    """A benchmark's output does not match the pattern this script expects."""


def find(pattern: str, text: str, source: str) -> re.Match[str]:
    """The first match of ``pattern`` (multi-line) in ``text``; :class:`OutputChanged` if none."""
    m = re.search(pattern, text, re.M)
    if m is None:
        raise OutputChanged(f"{source}: no line matches {pattern!r}; its output was:\n{text}")
    return m


def per_strategy(pattern: str, text: str, source: str, fmt: Callable[[str], str]) -> str:
    """``pattern`` (with ``{s}`` for the strategy name and one group) for each strategy, joined."""
    return ", ".join(f"{fmt(find(pattern.format(s=s), text, source).group(1))} `{s}`" for s in STRATEGIES)


def table(out: dict[str, str]) -> list[str]:
    """The table rows (markdown lines) from the outputs of :data:`COMMANDS`."""
    ses, run, train, demo = out["bench_sessions"], out["bench_run"], out["bench_train"], out["demo"]
    call = per_strategy(r"^{s}\s+[\d.]+\s+[\d.]+\s+([\d.]+)\s", ses, "bench_sessions", str)
    peak = per_strategy(r"^{s}\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+\S+\s+(?:ok|MISS)?\s*([\d.]+)\s", ses, "bench_sessions",
                        lambda v: f"{float(v):g}")
    tree = per_strategy(
        r"^\s+{s}\s+raw\s+[\d.]+ us\s+session\s+[\d.]+ us\s+speed ([\d.]+)", ses, "bench_sessions", str
    )
    latency = find(r"main thread idle, 1 owned array\s+([\d.]+) /", ses, "bench_sessions").group(1)
    rebind = per_strategy(r"^{s}\s+\d+\s+([\d.]+)\s+\d+$", demo, "demo", lambda v: f"{float(v):g}")
    r_run = find(r"^Session\.run / \(jax\.jit \+ np\.array\):\s+([\d.]+)", run, "bench_run").group(1)
    r_call = find(r"^make_callable / \(jax\.jit \+ np\.array\):\s+([\d.]+)", run, "bench_run").group(1)
    r_dev = find(r"^device-fetch run / jax\.jit:\s+([\d.]+)", run, "bench_run").group(1)
    r_dev_call = find(r"^device-fetch callable / jax\.jit:\s+([\d.]+)", run, "bench_run").group(1)
    r_build = find(r"^build\+first run / jax\.jit first:\s+([\d.]+)", run, "bench_run").group(1)
    tf1 = find(r"^TF1 Session\.run / jaxsess Session\.run:\s+(.*)$", run, "bench_run").group(1).strip()
    ratios = [float(m.group(1)) for m in re.finditer(r"^(?:run|callable)\[\w+\]\s+\d+\s+[\d.]+\s+\S+\s+([\d.]+)", train, re.M)]
    if len(ratios) != 2 * len(STRATEGIES):
        raise OutputChanged(f"bench_train: expected {2 * len(STRATEGIES)} run/callable rows; its output was:\n{train}")
    shard = {
        opt: find(r"^8 devices / 1 device:\s+([\d.]+)", out[f"bench_sharding_{opt}"], f"bench_sharding {opt}").group(1)
        for opt in ("adam", "sgd")
    }
    return [
        "| benchmark | measured | target | printed by |",
        "| --- | --- | --- | --- |",
        f"| `session.jit` call / raw `jax.jit` (float32[3]) | {call} | ≤ 1.10 | "
        "`bench_sessions.py`, column `call ratio` |",
        f"| a 16-array pytree step fed back 300 times: raw `jax.jit` time / `session.jit` time | {tree} | ≥ 0.95 | "
        "`bench_sessions.py`, (a2) `speed` |",
        "| peak owned bytes / one iteration, n·m loop that drops each iteration's outputs (`del outs`) "
        f"before the next call | {peak} | ≤ 2 (m for `ON_SESSION_CLOSE`) | `bench_sessions.py`, column `peak/iter` |",
        "| the same, loop that rebinds `outs = step(x)` (the previous outputs are still referenced during "
        f"the call) | {rebind} | ≤ 2 | `python -m jaxsess demo`, column `peak / iteration`; notebook 02 |",
        f"| `IN_BACKGROUND` drop-to-delete latency, median | {latency} ms (idle main thread) | ≤ 1 ms | "
        "`bench_sessions.py`, `free latency` |",
        f"| `Session.run` (host values) / raw `jax.jit` + `np.array` (two fed float32[3], add; 10th percentile "
        f"of interleaved blocks) | {r_run} | ≤ 1.25 | `bench_run.py` |",
        f"| `make_callable` (host values) / raw `jax.jit` + `np.array` | {r_call} | ≤ 1.10 | `bench_run.py` |",
        f"| `Session(device_fetches=True).run` / raw `jax.jit`; its `make_callable` / the same | {r_dev}; "
        f"{r_dev_call} | ≤ 1.25 | `bench_run.py` |",
        f"| build a 10,000-op graph + first run / `jax.jit` first call | {r_build} | ≤ 2 | `bench_run.py` |",
        "| training steps/s, `sess.run(train_op)` / hand-written `jax.jit` + optax with donation "
        f"(MLP 64-128-10, Adam, batch 128) | {min(ratios):.2f}–{max(ratios):.2f} (all strategies, `run` and "
        "`make_callable`) | ≥ 0.95 | `bench_train.py --no-profile`, column `ratio` |",
        f"| data-parallel step over 8 CPU devices / 1 device | {shard['adam']} (Adam), {shard['sgd']} (SGD); "
        "same parameters | report | `bench_sharding.py --optimizer adam`, `--optimizer sgd` |",
        f"| TF1 `Session.run` / jaxsess | {tf1} | ≥ 10 | `bench_run.py` (needs `tensorflow`) |",
    ]


def run_all(quick: bool) -> dict[str, str]:
    """Runs every command of :data:`COMMANDS`; returns their standard output by name."""
    out = {}
    for name, args in COMMANDS.items():
        argv = [sys.executable, *[a for a in (a.replace("{quick}", "--quick" if quick else "") for a in args) if a]]
        print(f"running {' '.join(argv[1:])} ...", file=sys.stderr, flush=True)
        proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env={**os.environ, "JAX_PLATFORMS": "cpu"})
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(argv[1:])} failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}")
        out[name] = proc.stdout
    return out


def caption(out: dict[str, str], how: str) -> str:
    """The line above the table: how, when and where the figures were measured."""
    jax_version = find(r"\| jax (\S+) \|", out["bench_sessions"], "bench_sessions").group(1)
    cores = find(r"\| (\d+) cores \|", out["bench_sessions"], "bench_sessions").group(1)
    load = find(r"load average at the end: ([\d.]+)", out["bench_train"], "bench_train").group(1)
    return (
        f"Figures written by `python benchmarks/update_readme.py` ({how}) on "
        f"{time.strftime('%Y-%m-%d', time.gmtime())}: JAX {jax_version}, Python {platform.python_version()}, "
        f"{cores} CPU cores, load average {load} at the end of `bench_train.py`."
    )


def rewrite(readme: str, lines: list[str]) -> str:
    """``readme`` with the lines between the markers replaced by ``lines``."""
    start, end = readme.find(BEGIN), readme.find(END)
    if start < 0 or end < start:
        raise ValueError(f"docs/benchmarks.md has no {BEGIN} ... {END} section")
    return readme[: start + len(BEGIN)] + "\n" + "\n".join(lines) + "\n" + readme[end:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the benchmarks' --quick runs")
    parser.add_argument("--from", dest="source", type=Path, help="parse DIR/<name>.txt instead of running")
    parser.add_argument("--dry-run", action="store_true", help="print the table, do not write docs/benchmarks.md")
    args = parser.parse_args(argv)
    if args.source is not None:
        out = {name: (args.source / f"{name}.txt").read_text(encoding="utf-8") for name in COMMANDS}
        how = f"outputs saved in {args.source.name}/"
    else:
        out = run_all(args.quick)
        how = "`--quick` runs" if args.quick else "full runs"
    lines = [caption(out, how), "", *table(out)]
    if args.dry_run:
        print("\n".join(lines))
        return 0
    README.write_text(rewrite(README.read_text(encoding="utf-8"), lines), encoding="utf-8")
    print(f"rewrote the benchmark table of {README}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
