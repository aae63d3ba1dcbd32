"""Every ```python block in README.md and docs/ runs as written.

Each block is a complete program, run in a fresh namespace with the working directory
in a temporary folder (a block that writes a file writes it there). A block whose fence
is preceded by the line

    <!-- continues the previous block -->

runs in the namespace the previous block of the same file left (a chained example).
Blocks in other languages (```sh, ```text) are not run.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONTINUES = "<!-- continues the previous block -->"
_FENCE = re.compile(r"^(```+|~~~+)\s*([\w+-]*)")


def markdown_files():
    """README.md and every Markdown file under docs/, in a stable order."""
    return [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))


def python_blocks(path: Path):
    """[(first_line_number, code, continues_previous)] for the file's python blocks."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks, i = [], 0
    while i < len(lines):
        match = _FENCE.match(lines[i].lstrip())
        if not match:
            i += 1
            continue
        fence, lang = match.group(1), match.group(2).lower()
        indent = len(lines[i]) - len(lines[i].lstrip())
        start, j = i + 1, i + 1
        while j < len(lines) and not lines[j].lstrip().startswith(fence):
            j += 1
        if lang in ("python", "py", "python3"):
            code = "\n".join(line[indent:] for line in lines[start:j])
            k = i - 1
            while k >= 0 and not lines[k].strip():
                k -= 1
            continues = k >= 0 and lines[k].strip() == CONTINUES
            blocks.append((start + 1, code, continues))
        i = j + 1
    return blocks


def _cases():
    out = []
    for path in markdown_files():
        rel = path.relative_to(ROOT).as_posix()
        blocks = python_blocks(path)
        # A chain runs as one test (its blocks in order), so each test stands alone.
        chain = []
        for line, code, continues in blocks:
            if continues and chain:
                chain.append((line, code))
                continue
            if chain:
                out.append(pytest.param(rel, chain, id=f"{rel}:{chain[0][0]}"))
            chain = [(line, code)]
        if chain:
            out.append(pytest.param(rel, chain, id=f"{rel}:{chain[0][0]}"))
    return out


@pytest.mark.parametrize("rel, chain", _cases())
def test_python_block_runs(rel, chain, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__docs_snippet__"}
    for line, code in chain:
        # Padded so that a traceback names the line in the Markdown file.
        exec(compile("\n" * (line - 1) + code, str(ROOT / rel), "exec"), namespace)


def test_collector_finds_the_blocks(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("text\n```python\nx = 1\n```\n\n" + CONTINUES + "\n\n```python\n"
                    "assert x == 1\n```\n```sh\nls\n```\n    ```python\n    y = 2\n    ```\n",
                    encoding="utf-8")
    assert python_blocks(page) == [(3, "x = 1", False), (9, "assert x == 1", True),
                                   (15, "y = 2", False)]
    assert len(python_blocks(ROOT / "README.md")) >= 1
