"""The rules conftest.py (at the root) applies to the blocks of README.md and docs/*.md, on a made-up document.

Every kind of block is run in a copy of the machinery (conftest.py and tests/_docs_commands.py) by a pytest
of its own: a block that shows the wrong output, a failing command, a file block that differs from the
shipped file, an unlabelled fence fail; a skip is reported with its reason.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

DOC = '''# probe

```console
$ accord noise --n 1000 --d 100 --p 0.5 --json
{...
$ accord noise --n 10 --d 100 --p 0.5
accord: error: ...
```

```console
$ echo hello
goodbye
```

```bash
true
false
```

<!-- file: made.csv -->
```csv
a,b
```

```bash
test "$(cat made.csv)" = "a,b"
```

<!-- file: shipped.csv -->
```csv
x,y
```

```
accord noise --n 1000 --d 100 --p 0.5
```

<!-- skip: next "needs a service this test does not have" -->
```bash
false
```

```python
>>> 1 + 1
2
```

```python
import os
assert os.path.exists("made.csv")  # Python blocks run in the document's folder too
```
'''


def test_each_kind_of_block_passes_or_fails_as_the_conventions_say(tmp_path):
    (tmp_path / "tests").mkdir()
    shutil.copy(ROOT / "conftest.py", tmp_path / "conftest.py")
    shutil.copy(ROOT / "tests" / "_docs_commands.py", tmp_path / "tests" / "_docs_commands.py")
    (tmp_path / "docs" / "examples" / "probe").mkdir(parents=True)
    (tmp_path / "docs" / "examples" / "probe" / "shipped.csv").write_text("x,z\n")
    (tmp_path / "docs" / "probe.md").write_text(DOC)
    (tmp_path / "pyproject.toml").write_text("[tool.pytest.ini_options]\naddopts = '-p no:cacheprovider'\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT / "src"), env.get("PYTHONPATH")) if p)
    done = subprocess.run([sys.executable, "-m", "pytest", "-rA", "docs"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    out = done.stdout
    results = {line.split(" ", 1)[0] + " " + line.split("line:")[1].split(",")[0]
               for line in out.splitlines() if line.startswith(("PASSED docs", "FAILED docs"))}
    assert results == {
        "PASSED 3",  # accord's JSON and its one-line error, status 2
        "FAILED 10",  # hello is not goodbye
        "FAILED 15",  # false fails the block
        "PASSED 21", "PASSED 25",  # a file block is written, a later block reads it
        "FAILED 30",  # differs from the shipped file
        "FAILED 34",  # no language
        "PASSED 38",  # the skip directive; the block after it is skipped
        "PASSED 44", "PASSED 48",  # a doctest, a Python block in the document's folder
    }, out
    assert "Expected:\n    goodbye\nGot:\n    hello" in out
    assert "failed: line 2: false" in out
    assert "the block differs from the shipped shipped.csv" in out
    assert "a fenced block without a language" in out
    assert "SKIPPED [1]" in out and "needs a service this test does not have" in out
