"""Every code block of README.md runs as pasted.

* Each ```python block is written to its own file and run in a fresh
  interpreter (``JAX_PLATFORMS=cpu``, this checkout importable, an empty
  working directory), as a reader who pastes it into a file would: it must
  exit 0. A block that needs several CPU devices sets them itself in its
  first lines (``XLA_FLAGS=--xla_force_host_platform_device_count=N``
  before JAX starts), so that it runs as pasted, too.
* Each ```bash block must parse (``bash -n``); every command in it must
  exist, ``python -m MODULE`` must name an importable module,
  ``python -m jaxsess ...`` must be accepted by the command-line parser, and
  ``pip install -e '.[EXTRA]'`` must name extras that ``pyproject.toml``
  declares. Nothing is installed.
* The only way out is the marker line ``<!-- readme-test: gpu-only -->``
  directly above a block, for code that cannot run on a CPU; the README's
  "Troubleshooting" section documents it.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from jaxsess.__main__ import build_parser

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
GPU_ONLY = "<!-- readme-test: gpu-only -->"
_FENCE = re.compile(r"^```(\w*)[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)


@dataclass(frozen=True)
class Block:
    language: str
    code: str
    line: int  # 1-based line of the opening fence
    gpu_only: bool

    @property
    def id(self) -> str:
        return f"{self.language}-line{self.line}"


def readme_blocks(text: str) -> list[Block]:
    """The fenced code blocks of ``text``, with the line they start on."""
    blocks = []
    for m in _FENCE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        before = text[: m.start()].rstrip("\n").rsplit("\n", 1)[-1].strip()
        blocks.append(Block(m.group(1).lower(), m.group(2), line, before == GPU_ONLY))
    return blocks


BLOCKS = readme_blocks(README.read_text(encoding="utf-8"))
PYTHON = [b for b in BLOCKS if b.language == "python"]
SHELL = [b for b in BLOCKS if b.language in ("bash", "sh", "shell", "console")]


def test_the_readme_has_code_blocks_and_each_has_a_known_language() -> None:
    assert len(PYTHON) >= 2 and SHELL
    unknown = [b.id for b in BLOCKS if b.language not in ("python", "bash", "sh", "shell", "console", "text")]
    assert not unknown, f"code blocks without a runnable language tag: {unknown}"


def test_block_extraction_sees_the_fences_and_the_marker() -> None:
    text = "intro\n\n```python\nprint(1)\n```\n\n" + GPU_ONLY + "\n```python\nx = 1\n```\n```bash\nls\n```\n"
    blocks = readme_blocks(text)
    assert [(b.language, b.code, b.line, b.gpu_only) for b in blocks] == [
        ("python", "print(1)\n", 3, False),
        ("python", "x = 1\n", 8, True),
        ("bash", "ls\n", 11, False),
    ]


@pytest.mark.parametrize("block", PYTHON, ids=[b.id for b in PYTHON])
def test_python_block_runs_as_pasted(block: Block, tmp_path: Path) -> None:
    if block.gpu_only:
        pytest.skip(f"README line {block.line} is marked {GPU_ONLY}")
    script = tmp_path / "snippet.py"
    script.write_text(block.code, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
    env["JAX_PLATFORMS"] = "cpu"
    env["MPLBACKEND"] = "Agg"
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    proc = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, f"README block at line {block.line} failed:\n{proc.stderr[-3000:]}"


def _extras() -> set[str]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return set(tomllib.load(f)["project"]["optional-dependencies"])


def _check_command(words: list[str], where: str) -> None:
    assert shutil.which(words[0]) is not None, f"{where}: command {words[0]!r} not found"
    if words[0] in ("python", "python3") and words[1:2] == ["-m"]:
        module = words[2]
        if module == "jaxsess":
            try:
                build_parser().parse_args(words[3:])
            except SystemExit as e:  # a usage error, or --help/--version
                assert e.code == 0, f"{where}: python -m jaxsess rejects {words[3:]}"
        else:
            proc = subprocess.run(
                [sys.executable, "-c", f"import importlib.util as u; assert u.find_spec({module!r})"],
                capture_output=True,
            )
            assert proc.returncode == 0, f"{where}: no module {module!r}"
    if words[0] == "pip" and words[1:2] == ["install"]:
        for word in words[2:]:
            m = re.fullmatch(r"\.\[([\w,-]+)\]", word)
            if m:
                missing = set(m.group(1).split(",")) - _extras()
                assert not missing, f"{where}: pyproject.toml declares no extra {missing}"


@pytest.mark.parametrize("block", SHELL, ids=[b.id for b in SHELL])
def test_shell_block_parses_and_names_real_commands(block: Block) -> None:
    proc = subprocess.run(["bash", "-n"], input=block.code, capture_output=True, text=True)
    assert proc.returncode == 0, f"README line {block.line}: {proc.stderr}"
    for i, line in enumerate(block.code.splitlines()):
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        for command in re.split(r"&&|\|\||;|\|", line):
            words = shlex.split(command)
            env_prefix = 0
            while env_prefix < len(words) and re.fullmatch(r"\w+=\S*", words[env_prefix]):
                env_prefix += 1
            if words[env_prefix:]:
                _check_command(words[env_prefix:], f"README line {block.line + 1 + i}")


def test_the_readme_is_short() -> None:
    """The README is the front page (and the PyPI page): what it is, the quick start, the two
    faces, the strategies, links. The rest lives in docs/ (the MkDocs site)."""
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250, f"README.md has {len(lines)} lines; move material to docs/"
    assert max(map(len, lines)) <= 600, "a README line (a table cell?) is too long to read"
