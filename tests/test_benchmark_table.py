"""benchmarks/update_readme.py: the benchmark table of docs/benchmarks.md is parsed from the benchmarks' output.

The samples are lines the benchmark scripts printed (quick runs on a loaded
2-core machine), trimmed to those the table needs.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_script() -> Any:
    spec = importlib.util.spec_from_file_location("_update_readme", ROOT / "benchmarks" / "update_readme.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


UPDATE = load_script()

SAMPLES = {
    'bench_sessions': (
        'jaxsess 0.1.0 | jax 0.10.2 | python 3.11.7 | cpu x1 | 2 cores | switch interval 5 ms | quick run\n'
        'IN_BACKGROUND            7.73        10.73      1.388  <=1.25 MISS       2.00     <=2   ok                     0.374     <=1 ok\n'
        'ON_SAFE_POINTS           8.97        14.61      1.628  <=1.25 MISS       1.00     <=2   ok                       n/a         \n'
        'ON_SESSION_CLOSE         8.75        12.68      1.449  <=1.15 MISS      50.00     =50                            n/a         \n'
        '(a2) 16-array pytree step fed back, speed = raw jax.jit time / session time:\n'
        '  IN_BACKGROUND     raw    27.25 us  session    30.88 us  speed 0.882 (target >=0.95) MISS\n'
        '  ON_SAFE_POINTS    raw    28.85 us  session    31.93 us  speed 0.904 (target >=0.95) MISS\n'
        '  ON_SESSION_CLOSE  raw    42.89 us  session    61.71 us  speed 0.695 (target >=0.95) MISS\n'
        '\n'
        'IN_BACKGROUND free latency, ms (median / p90 / samples):\n'
        '  main thread idle, 1 owned array                       0.374 /    0.638 / 50\n'
    ),
    'bench_run': (
        'Session.run / (jax.jit + np.array):     1.360  (target <= 1.25: MISSED)\n'
        'make_callable / (jax.jit + np.array):   1.250  (target <= 1.1: MISSED)\n'
        'device-fetch run / jax.jit:             1.480  (target <= 1.25: MISSED)\n'
        'device-fetch callable / jax.jit:        1.390  (target <= 1.25: MISSED)\n'
        'Session.run / (jax.jit + np.asarray):   1.500  (read-only view baseline)\n'
        'TF1 Session.run / jaxsess Session.run: tensorflow not installed: skipped\n'
        'build+first run / jax.jit first:     1.434  (target <= 2: met)\n'
    ),
    'bench_train': (
        '(load average at the end: 8.6 on 2 cores)\n'
        'raw                            1530    653.5      706..5329      1.000        200.9     1.000  \n'
        'run[IN_BACKGROUND]             1095    913.6      720..3702      0.715        313.9     0.640  >= 0.95 MISSED\n'
        'callable[IN_BACKGROUND]        1160    862.2      719..4994      0.758        247.8     0.811  >= 0.95 MISSED\n'
        'run[ON_SAFE_POINTS]            1206    829.0      851..4366      0.788        290.4     0.692  >= 0.95 MISSED\n'
        'callable[ON_SAFE_POINTS]       1250    799.8      771..4212      0.817        252.3     0.796  >= 0.95 MISSED\n'
        'run[ON_SESSION_CLOSE]          1046    956.5      765..3969      0.683        270.2     0.743  >= 0.95 MISSED\n'
        'callable[ON_SESSION_CLOSE]     1249    800.8      812..3598      0.816        254.4     0.790  >= 0.95 MISSED\n'
    ),
    'bench_sharding_adam': (
        '8 devices / 1 device:         1.493  (after 28 steps the parameters differ by at most 1.2e-06)\n'
    ),
    'bench_sharding_sgd': (
        '8 devices / 1 device:         1.793  (after 28 steps the parameters differ by at most 1.9e-06)\n'
    ),
    'demo': (
        'strategy           live after loop  peak / iteration  live after close\n'
        'IN_BACKGROUND                    0               2.0                 0\n'
        'ON_SAFE_POINTS                   0               2.0                 0\n'
        'ON_SESSION_CLOSE               200              50.0                 0\n'
    ),
}


def test_every_figure_comes_from_the_output() -> None:
    rows = UPDATE.table(SAMPLES)
    text = "\n".join(rows)
    assert "1.388 `IN_BACKGROUND`, 1.628 `ON_SAFE_POINTS`, 1.449 `ON_SESSION_CLOSE`" in text  # call ratios
    assert "0.882 `IN_BACKGROUND`, 0.904 `ON_SAFE_POINTS`, 0.695 `ON_SESSION_CLOSE` | \u2265 0.95" in text  # (a2)
    assert "2 `IN_BACKGROUND`, 1 `ON_SAFE_POINTS`, 50 `ON_SESSION_CLOSE` | \u2264 2 (m" in text  # del outs
    assert "2 `IN_BACKGROUND`, 2 `ON_SAFE_POINTS`, 50 `ON_SESSION_CLOSE` | \u2264 2 |" in text  # rebinding
    assert "| 0.374 ms (idle main thread) |" in text
    assert "| 1.360 |" in text and "| 1.250 |" in text and "| 1.480; 1.390 |" in text and "| 1.434 |" in text
    assert "0.68\u20130.82 (all strategies" in text
    assert "1.493 (Adam), 1.793 (SGD)" in text
    assert "tensorflow not installed: skipped" in text
    assert all(r.startswith("| ") and r.endswith(" |") and r.count(" | ") == 3 for r in rows)


def test_the_caption_says_how_and_where() -> None:
    line = UPDATE.caption(SAMPLES, "`--quick` runs")
    assert "(`--quick` runs)" in line and "JAX 0.10.2" in line and "2 CPU cores" in line and "load average 8.6" in line


def test_a_changed_output_stops_the_script() -> None:
    changed = {**SAMPLES, "bench_run": SAMPLES["bench_run"].replace("Session.run / (jax.jit + np.array)", "run ratio")}
    with pytest.raises(UPDATE.OutputChanged, match="bench_run: no line matches"):
        UPDATE.table(changed)


def test_rewrite_replaces_only_the_marked_table() -> None:
    readme = f"intro\n{UPDATE.BEGIN}\nold | table\n{UPDATE.END}\noutro\n"
    assert UPDATE.rewrite(readme, ["new"]) == f"intro\n{UPDATE.BEGIN}\nnew\n{UPDATE.END}\noutro\n"
    with pytest.raises(ValueError, match="no <!-- benchmarks:begin -->"):
        UPDATE.rewrite("no markers", ["new"])


def test_the_readme_table_has_the_script_shape() -> None:
    readme = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    caption, blank, *inside = readme.split(UPDATE.BEGIN, 1)[1].split(UPDATE.END, 1)[0].strip().splitlines()
    assert caption.startswith("Figures written by `python benchmarks/update_readme.py`") and not blank  # as main() writes
    generated = UPDATE.table(SAMPLES)
    assert len(inside) == len(generated)
    for ours, theirs in zip(inside, generated, strict=True):
        assert ours.split(" | ")[0] == theirs.split(" | ")[0]  # same rows, in the same order
        assert ours.rsplit(" | ", 1)[1] == theirs.rsplit(" | ", 1)[1]  # each names the same script
