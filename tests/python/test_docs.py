"""The documentation runs and agrees with its sources.

Every ```python block of README.md and docs/**/*.md is executed: the blocks of one file run in order in
one fresh Python process (a page sets up what its snippets need in a visible block of its own), from the
repository root. Every generated table (between `<!-- generated: NAME -->` and `<!-- end generated -->`)
must equal what tools/doc_tables.py makes from its source files.
"""
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def python_blocks(page):
    return [textwrap.dedent(block) for block in FENCE.findall(page.read_text())]


PAGES_WITH_CODE = [page for page in PAGES if python_blocks(page)]


def test_the_pages_have_python_blocks():
    names = {page.relative_to(ROOT).as_posix() for page in PAGES_WITH_CODE}
    assert {"README.md", "docs/migrating-from-plumed.md", "docs/migrating-from-customcv.md"} <= names


@pytest.mark.parametrize("page", PAGES_WITH_CODE, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_python_block_runs(page, tmp_path):
    blocks = python_blocks(page)
    if any("import cvpack" in block for block in blocks):
        pytest.importorskip("cvpack", reason="cvpack (PyPI) is not installed: this page's blocks call it")
    # Each block is compiled on its own, so that an error names the block it is in.
    program = ["import sys", "sys.path.insert(0, 'examples')", "__blocks = []"]
    for number, block in enumerate(blocks, 1):
        program.append(f"__blocks.append(({number}, {block!r}))")
    program.append("for __number, __block in __blocks:\n"
                   "    try:\n"
                   "        exec(compile(__block, f'{sys.argv[1]}, python block {__number}', 'exec'))\n"
                   "    except BaseException:\n"
                   "        print(f'python block {__number} of {sys.argv[1]} failed', file=sys.stderr)\n"
                   "        raise")
    script = tmp_path / "blocks.py"
    script.write_text("\n".join(program) + "\n")
    result = subprocess.run([sys.executable, str(script), page.relative_to(ROOT).as_posix()], cwd=ROOT,
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-5000:]


def test_generated_tables_equal_their_sources():
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "doc_tables.py"), "--check"], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "generated tables checked:" in result.stdout
