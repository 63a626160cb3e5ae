"""The command line, ``python -m jaxsess``: help, version, usage errors, ``info``.

Each row runs the real command in a subprocess (as a user types it) and checks
the exit status and what it printed. Usage errors are one line on stderr with
exit status 2; the demo itself is covered by ``tests/test_demo.py``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

import jaxsess
from jaxsess import __main__ as cli


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m jaxsess ARGS`` on the CPU, without a terminal."""
    full_env = {**os.environ, "JAX_PLATFORMS": "cpu", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "jaxsess", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=full_env,
        stdin=subprocess.DEVNULL,
    )


# (arguments, exit status, stream, regex it must contain)
TABLE = [
    ((), 0, "stdout", r"usage: python -m jaxsess .*COMMAND(.|\n)*demo(.|\n)*info"),
    (("--help",), 0, "stdout", r"usage: python -m jaxsess"),
    (("demo", "--help"), 0, "stdout", r"--steps N(.|\n)*--cleanup"),
    (("--version",), 0, "stdout", rf"^jaxsess {re.escape(jaxsess.__version__)} \(jax \S+, jaxlib \S+\)$"),
    (("demo", "--steps", "-3"), 2, "stderr", r"argument --steps: expected a positive integer, got -3"),
    (("demo", "--steps", "0"), 2, "stderr", r"argument --steps: expected a positive integer, got 0"),
    (("demo", "--steps", "many"), 2, "stderr", r"argument --steps: expected a positive integer, got 'many'"),
    (
        ("demo", "--cleanup", "SOMETIMES"),
        2,
        "stderr",
        r"argument --cleanup: unknown strategy 'SOMETIMES'; expected one of: IN_BACKGROUND, ON_SAFE_POINTS, "
        r"ON_SESSION_CLOSE",
    ),
    (("demo", "--frobnicate"), 2, "stderr", r"unrecognized arguments: --frobnicate"),
    (("launch-rockets",), 2, "stderr", r"argument COMMAND: invalid choice: 'launch-rockets'"),
]


@pytest.mark.parametrize(("args", "status", "stream", "pattern"), TABLE, ids=[" ".join(r[0]) or "bare" for r in TABLE])
def test_command_line_table(args: tuple[str, ...], status: int, stream: str, pattern: str) -> None:
    proc = run_cli(*args)
    assert proc.returncode == status, (proc.stdout, proc.stderr)
    text = getattr(proc, stream)
    assert re.search(pattern, text.strip(), re.M), text
    if status == 2:  # a usage error: exactly one line, saying where to look
        assert proc.stdout == ""
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1, proc.stderr
        assert lines[0].startswith("python -m jaxsess") and "error:" in lines[0] and "--help" in lines[0]


def test_help_has_no_restructuredtext_markup() -> None:
    for args in ((), ("demo", "--help"), ("info", "--help")):
        out = run_cli(*args).stdout
        assert out.strip()
        assert "``" not in out and ":class:" not in out and ":func:" not in out, out


def test_info_reports_versions_backend_devices_and_x64() -> None:
    proc = run_cli("info", env={"XLA_FLAGS": "--xla_force_host_platform_device_count=2", "JAX_ENABLE_X64": "1"})
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert f"jaxsess {jaxsess.__version__}" in out
    assert re.search(r"^jax +\S+, jaxlib \S+, numpy \S+, optax \S+$", out, re.M)
    assert re.search(r"^backend cpu$", out, re.M)
    assert re.search(r"^x64 +enabled", out, re.M)
    assert re.search(r"^devices 2$", out, re.M)
    assert "/job:localhost/replica:0/task:0/device:CPU:1" in out


def test_info_says_when_x64_is_off() -> None:
    proc = run_cli("info", env={"JAX_ENABLE_X64": "0"})
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^x64 +disabled", proc.stdout, re.M)


def test_info_says_which_hot_path_runs() -> None:
    assert re.search(r"^hot +C \(jaxsess\._core\.runtime\._hot:", run_cli("info").stdout, re.M)
    off = run_cli("info", env={"JAXSESS_C_HOT_PATH": "0"}).stdout
    assert re.search(r"^hot +Python \(JAXSESS_C_HOT_PATH=0\)$", off, re.M)


def test_a_failing_command_prints_one_line_and_exits_1(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def broken(args: object) -> int:
        raise ValueError("the digits file is unreadable:\n  truncated")

    monkeypatch.setattr(cli, "_info", broken)
    assert cli.main(["info"]) == 1
    err = capsys.readouterr().err
    assert err == "python -m jaxsess info: error: ValueError: the digits file is unreadable: truncated\n"


def test_plain_progress_lines_when_stdout_is_not_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    progress = cli._Progress(20, enabled=True)  # pytest's captured stdout is not a TTY
    for step in range(20):
        progress.update(step, lambda: 0.5)
    progress.close()
    out = capsys.readouterr().out
    assert "\r" not in out
    lines = out.strip().splitlines()
    assert len(lines) == 10
    assert lines[-1].startswith("training: step 20/20, loss 0.5000, ")

    quiet = cli._Progress(20, enabled=False)
    for step in range(20):
        quiet.update(step, lambda: 0.5)
    quiet.close()
    assert capsys.readouterr().out == ""
