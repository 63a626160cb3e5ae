"""A plan compile that outlasts ``ConfigProto.compile_notice_after_s`` says so on stderr,
once: what is compiling, then how long it took; shorter compiles, cache hits and
``Session.lower`` say nothing; ``None`` or ``JAXSESS_COMPILE_NOTICE=0`` turns it off.

Each program runs in a fresh interpreter (stderr as a user sees it; the suite's conftest
turns notices off). The threshold is 1 ms, so every compile outlasts it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import jaxsess as tf
from jaxsess._core.runtime import _compile_notice

ROOT = Path(__file__).resolve().parent.parent

PROGRAM = textwrap.dedent(
    """
    import numpy as np
    import jaxsess as tf

    x = tf.placeholder(tf.float32, [None, 8], name="x")
    w = tf.Variable(tf.ones([8, 4]), name="w")
    y = tf.nn.relu(tf.matmul(x, w), name="y")
    with tf.Session(config=tf.ConfigProto(compile_notice_after_s=AFTER)) as sess:
        sess.run(w.initializer)
        for _ in range(3):
            sess.run(y, {x: np.ones((2, 8), np.float32)})
    print("done")
    """
)


def run(after: str, **env: str) -> str:
    full = {k: v for k, v in os.environ.items() if k != "JAXSESS_COMPILE_NOTICE"}
    full.update(env, JAX_PLATFORMS="cpu", JAXSESS_COMPILATION_CACHE="0")
    full["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    proc = subprocess.run([sys.executable, "-c", PROGRAM.replace("AFTER", after)], capture_output=True,
                          text=True, env=full, timeout=300, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0 and proc.stdout == "done\n", proc.stderr[-3000:]
    return proc.stderr


def test_a_long_compile_says_what_then_how_long_once_per_compile() -> None:
    lines = [line for line in run("0.001").splitlines() if line.startswith("jaxsess: compil")]
    # two plans compile (the initializer, then y); the three runs of y compile once
    assert len(lines) == 4, lines
    for start, end in (lines[0:2], lines[2:4]):
        m = re.fullmatch(r"jaxsess: compiling (the plan of \[[^\]]+\] \(session '[^']*'\)) \(XLA; later runs reuse the program\) \.\.\.", start)
        assert m, start
        assert re.fullmatch(re.escape(f"jaxsess: compiled {m.group(1)} in ") + r"\d+\.\d s", end), end
    assert "[y:0]" in lines[2] and "[w/Assign]" in lines[0]


def test_off_by_config_or_environment() -> None:
    assert "jaxsess: compil" not in run("None")
    assert "jaxsess: compil" not in run("0.001", JAXSESS_COMPILE_NOTICE="0")


def test_a_compile_shorter_than_the_threshold_says_nothing(capsys: object) -> None:
    notice = _compile_notice.CompileNotice("a quick one", after_s=3600.0)
    assert notice.finish() < 3600.0
    out = capsys.readouterr()  # type: ignore[attr-defined]
    assert out.err == "" and out.out == ""


def test_lowering_ends_the_notice_it_started() -> None:
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        y = x * 2.0
    with tf.Session(graph=g, config=tf.ConfigProto(compile_notice_after_s=3600.0)) as sess:
        sess._compile_notice_after_s = 3600.0  # the suite's JAXSESS_COMPILE_NOTICE=0 turned it off
        sess.lower(y, {x: [1.0, 2.0]})
        assert getattr(_compile_notice._local, "notice", None) is None
