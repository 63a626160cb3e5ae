"""The documentation site's pages (``docs/*.md``): their code runs, and the site lists them.

* Each page's ```python blocks run in order, as one script in one fresh
  interpreter (``JAX_PLATFORMS=cpu``, this checkout importable, an empty working
  directory), as a reader who follows the page top to bottom: a later block may
  use what an earlier one made. The script must exit 0. A block marked
  ``<!-- readme-test: gpu-only -->`` (the line directly above it) is left out.
* Each ```bash block must parse and name real commands, as README blocks do
  (``tests/test_readme.py``).
* ``mkdocs.yml``'s ``nav`` names every page, and every page it names exists
  (``mkdocs build --strict``, which CI runs, checks the rest).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_readme import Block, readme_blocks, test_shell_block_parses_and_names_real_commands

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))


def page_blocks(page: Path) -> list[Block]:
    return readme_blocks(page.read_text(encoding="utf-8"))


def page_script(page: Path) -> str:
    """The page's runnable Python blocks, in order, each headed by where it comes from."""
    parts = [
        f"# --- {page.name}, block at line {b.line}\n{b.code}"
        for b in page_blocks(page)
        if b.language == "python" and not b.gpu_only
    ]
    return "\n".join(parts)


RUNNABLE = [p for p in PAGES if page_script(p)]
SHELL = [(p, b) for p in PAGES for b in page_blocks(p) if b.language in ("bash", "sh", "shell", "console")]


def test_the_site_has_pages_with_code() -> None:
    names = {p.name for p in RUNNABLE}
    assert {"index.md", "strategies-reference.md", "export-and-devices.md"} <= names


def test_page_script_keeps_order_and_leaves_out_gpu_only_blocks(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text(
        "```python\na = 1\n```\n\n<!-- readme-test: gpu-only -->\n```python\nimport cupy\n```\n"
        "```python\nassert a == 1\n```\n",
        encoding="utf-8",
    )
    script = page_script(page)
    assert "cupy" not in script and script.index("a = 1") < script.index("assert a == 1")


@pytest.mark.parametrize("page", RUNNABLE, ids=[p.name for p in RUNNABLE])
def test_page_code_runs_top_to_bottom(page: Path, tmp_path: Path) -> None:
    script = tmp_path / f"{page.stem}.py"
    script.write_text(page_script(page), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
    env.update(JAX_PLATFORMS="cpu", MPLBACKEND="Agg")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    proc = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, f"docs/{page.name} failed:\n{proc.stderr[-3000:]}"


@pytest.mark.parametrize("page_block", SHELL, ids=[f"{p.name}-line{b.line}" for p, b in SHELL])
def test_shell_blocks_parse_and_name_real_commands(page_block: tuple[Path, Block]) -> None:
    test_shell_block_parses_and_names_real_commands(page_block[1])


def test_the_nav_lists_every_page_and_only_pages_that_exist() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").split("\nnav:", 1)[1]
    listed = set(re.findall(r":\s*([\w./-]+\.md)\s*$", nav, re.M))
    assert listed == {p.name for p in PAGES}
