"""TF1 programs that must run unchanged with ``import jaxsess as tf``.

Each program in ``tests/tf1_programs/`` is written as a TF1 user would write
it with ``import tensorflow.compat.v1 as tf``, except for that import line. It
runs in a fresh interpreter (``sys.executable``), as a user would run it; the
test checks its exit status, its stdout and that nothing unexpected reached
stderr (with Python's warnings shown).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

PROGRAMS = Path(__file__).parent / "tf1_programs"
ROOT = Path(__file__).parent.parent
PLACEMENT = re.compile(r"^\S+: \(\w+\): /job:localhost/replica:0/task:0/device:CPU:\d+$")


def run_program(name: str) -> tuple[str, str]:
    env = dict(os.environ)
    env["JAX_PLATFORMS"] = "cpu"
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.pop("XLA_FLAGS", None)
    proc = subprocess.run(
        [sys.executable, "-W", "default", str(PROGRAMS / name)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, f"{name} failed:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout, proc.stderr


def assert_quiet(stderr: str) -> None:
    """Only placement log lines (if any) may reach stderr."""
    noise = [line for line in stderr.splitlines() if line.strip() and not PLACEMENT.match(line)]
    assert noise == [], "\n".join(noise)


def test_programs_use_only_the_tf_import() -> None:
    for path in sorted(PROGRAMS.glob("*.py")):
        imports = [
            line.strip()
            for line in path.read_text(encoding="utf-8").splitlines()
            if re.match(r"\s*(import|from)\s", line)
        ]
        assert "import jaxsess as tf" in imports, path.name
        others = [i for i in imports if "jaxsess" in i and i != "import jaxsess as tf"]
        assert others == [], f"{path.name} reaches past the tf face: {others}"


def test_seed_program_prints_the_sum_three_times() -> None:
    stdout, stderr = run_program("seed_003_session_modes.py")
    assert stdout.splitlines() == ["[3. 5.]", "[3. 5.]", "[3. 5.]"]
    assert_quiet(stderr)


def test_seed_interactive_session_and_config() -> None:
    stdout, stderr = run_program("seed_003_interactive_config.py")
    assert stdout.splitlines() == ["[3. 5.]", "[3. 5.]", "[3. 5.]"]
    # log_device_placement: each of the two sessions logs its plan's ops once.
    lines = [line for line in stderr.splitlines() if PLACEMENT.match(line)]
    assert lines.count("add: (AddV2): /job:localhost/replica:0/task:0/device:CPU:0") == 2
    assert lines.count("a: (Const): /job:localhost/replica:0/task:0/device:CPU:0") == 2
    assert_quiet(stderr)


def test_feed_loop_program() -> None:
    stdout, stderr = run_program("feed_loop.py")
    lines = stdout.splitlines()
    assert lines[0] == "sqrt: [1.414199948310852, 3.0, 3.1623001098632812, 12.0]"
    steps = int(re.fullmatch(r"converged in (\d+) steps", lines[1]).group(1))  # type: ignore[union-attr]
    assert 3 <= steps <= 50
    assert lines[2] == "mean ok, var ok"
    assert_quiet(stderr)


def test_scopes_and_control_dependencies_program() -> None:
    stdout, stderr = run_program("scopes_and_deps.py")
    assert stdout.splitlines() == [
        "['layer1/weights', 'layer1/bias', 'layer1/MatMul', 'layer1/add', 'layer1/activation']",
        "layer1/activation:0 loss/total:0 check NoOp",
        "True",
        "step -> None",
        "loss = 3.9349",
        "done",
    ]
    assert_quiet(stderr)


def test_interactive_session_with_devices_program() -> None:
    stdout, stderr = run_program("interactive_devices.py")
    assert stdout.splitlines() == [
        "[[ 7. 10.]",
        " [15. 22.]]",
        "54.0",
        "[15. 25.]",
        "True",
        "(2, 2) True float32 /device:GPU:0",
        "True",
        "InvalidArgumentError: Cannot assign a device for operation a",
    ]
    assert_quiet(stderr)

