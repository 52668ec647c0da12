"""The documentation is tested: every block of README.md and docs/*.md runs under pytest (Sybil).

What a fenced block's language means here:

- ``python``: run, in one namespace per document (Sybil's ``PythonCodeBlockParser``); a block that starts
  with ``>>>`` is a doctest and its output is compared.
- ``console``: each ``$ COMMAND`` line runs through bash; the lines after it, up to the next ``$``, are what
  it prints (stdout and stderr as a terminal shows them), compared with whitespace normalised and ``...``
  matching anything, as doctest's ELLIPSIS; a command shown without output is checked for its status
  only. A command shown printing ``accord: error:`` must exit with status 2, any other with 0.
- ``bash``: the block runs as one bash script with ``set -e``: every command must succeed; its output is
  not compared.
- any other language (``text``, ``csv``, ``json``, ...) is shown text, not run. After
  ``<!-- file: NAME -->`` the block is the file NAME: written for the blocks below, or, when the examples
  ship NAME, checked equal to it.
- a fence without a language is an error: say what the block is.
- ``<!-- skip: next "reason" -->`` before a block skips it, with the reason (Sybil's skip parser).

Each document runs in a temporary folder of its own holding ``src`` and ``tests`` (links to this checkout),
a copy of ``docs/examples``, and, for ``docs/NAME.md``, the files of ``docs/examples/NAME/`` at the top:
commands read as written from the checkout's root, and those of ``docs/NAME.md`` from
``docs/examples/NAME/`` too. ``accord`` there runs this checkout's accord with this interpreter, forked
from a process that has imported SciPy and pandas once (tests/_docs_commands.py), so that a hundred
commands do not each pay seconds of imports.
"""

from __future__ import annotations

import atexit
import doctest
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from sybil import Document, Example, Region, Sybil
from sybil.parsers.markdown import PythonCodeBlockParser, SkipParser
from sybil.parsers.markdown.lexers import RawFencedCodeBlockLexer

ROOT = Path(__file__).resolve().parent
EXAMPLES = ROOT / "docs" / "examples"
SRC = ROOT / "src"
RUN = ("console", "bash")
COMMAND_TIMEOUT = 300
OPTIONFLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE

collect_ignore = ["docs/make_screenshots.py", "docs/examples"]

_INFO = re.compile(r"(?P<language>[^\n]*)$\n", re.MULTILINE)
_FILE_DIRECTIVE = re.compile(r"<!--\s*file:\s*(?P<name>[^\s>]+)\s*-->\s*$")


def _fenced_blocks(document: Document) -> Iterable[Region]:
    yield from RawFencedCodeBlockLexer(info_pattern=_INFO)(document)


def _language(region: Region) -> str:
    return region.lexemes["language"].strip().split()[0] if region.lexemes["language"].strip() else ""


# ---------------------------------------------------------------- working folder and environment


class MarkdownDocument(Document):
    """A document whose namespace knows its path, so that its working folder can hold its examples."""

    def __init__(self, text: str, path: str) -> None:
        super().__init__(text, path)
        self.namespace["__docs_path__"] = path


def _workdir(namespace: dict) -> Path:
    return namespace["__docs_workdir__"]


def _setup(namespace: dict) -> None:
    """A fresh folder for one document, which its Python blocks run in too."""
    path = Path(namespace["__docs_path__"]).resolve()
    work = Path(tempfile.mkdtemp(prefix=f"accord-docs-{path.stem}-"))
    (work / "src").symlink_to(SRC, target_is_directory=True)
    (work / "tests").symlink_to(ROOT / "tests", target_is_directory=True)
    if EXAMPLES.is_dir():
        shutil.copytree(EXAMPLES, work / "docs" / "examples", symlinks=True)
        own = EXAMPLES / path.stem
        if path.parent.name == "docs" and own.is_dir():
            shutil.copytree(own, work, symlinks=True, dirs_exist_ok=True)
    env = _environment()
    env["PATH"] = f"{_command_folder()}{os.pathsep}{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONUNBUFFERED"] = "1"  # stdout and stderr interleave as on a terminal
    env["COLUMNS"] = "200"
    env["NO_COLOR"] = "1"
    env.pop("FORCE_COLOR", None)
    namespace["__docs_workdir__"] = work
    namespace["__docs_env__"] = env
    namespace["__docs_cwd__"] = os.getcwd()
    os.chdir(work)


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(SRC), env.get("PYTHONPATH")) if p)
    return env


_SERVER: dict[str, object] = {}


def _command_folder() -> Path:
    """A folder holding ``accord``: a client of the forking server, or ``python -m accord`` without it."""
    if "folder" in _SERVER:
        return _SERVER["folder"]
    folder = Path(tempfile.mkdtemp(prefix="accord-docs-bin-"))
    address = str(folder / "server")
    shim = folder / "accord"
    try:
        server = subprocess.Popen(
            [sys.executable, str(ROOT / "tests" / "_docs_commands.py"), address, str(COMMAND_TIMEOUT)],
            cwd=folder, env=_environment(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True,
        )
        ready = server.stdout.readline().strip() == "ready"
    except OSError:
        server, ready = None, False
    if ready:
        shim.write_text(f"#!{sys.executable} -S\nimport sys\nsys.path.insert(0, {str(ROOT / 'tests')!r})\n"
                        f"from _docs_commands import client\nclient({address!r})\n")
    else:
        shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m accord "$@"\n')
    shim.chmod(0o755)

    def stop() -> None:
        if server is not None and server.poll() is None:
            server.terminate()
            server.wait(10)
        shutil.rmtree(folder, ignore_errors=True)

    atexit.register(stop)
    _SERVER["folder"] = folder
    return folder


def _teardown(namespace: dict) -> None:
    os.chdir(namespace.pop("__docs_cwd__", ROOT))
    work = namespace.pop("__docs_workdir__", None)
    if work is not None:
        shutil.rmtree(work, ignore_errors=True)


def _run(command: str, namespace: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", "-c", command], cwd=_workdir(namespace), env=namespace["__docs_env__"], stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=COMMAND_TIMEOUT,
    )


# ---------------------------------------------------------------- console and bash blocks


def _console_steps(source: str) -> list[tuple[str, str]]:
    """``(command, expected output)`` pairs of a console block."""
    steps: list[tuple[str, list[str]]] = []
    lines = source.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("$ "):
            command = line[2:]
            while command.endswith("\\") and i + 1 < len(lines):
                i += 1
                command = command[:-1] + "\n" + lines[i]
            steps.append((command, []))
        elif steps:
            steps[-1][1].append(line)
        elif line.strip():
            raise ValueError(f"a console block starts with '$ COMMAND'; got {line!r}")
        i += 1
    return [(command, "\n".join(out).strip("\n")) for command, out in steps]


def _evaluate_console(example: Example) -> str | None:
    checker = doctest.OutputChecker()
    for command, want in _console_steps(str(example.parsed)):
        done = _run(command, example.namespace)
        status = 2 if any(line.startswith("accord: error:") for line in want.splitlines()) else 0
        got = done.stdout.strip("\n")
        if done.returncode != status:
            return f"$ {command}\nexited with status {done.returncode}, expected {status}; it printed:\n{got}"
        if want and not checker.check_output(want + "\n", got + "\n", OPTIONFLAGS):
            return f"$ {command}\n" + checker.output_difference(doctest.Example(command, want + "\n"),
                                                                 got + "\n", OPTIONFLAGS)
    return None


def _evaluate_bash(example: Example) -> str | None:
    script = ("set -eo pipefail; trap 'echo \"failed: line $((LINENO - 1)): $BASH_COMMAND\"' ERR\n"
              + str(example.parsed))
    done = _run(script, example.namespace)
    if done.returncode:
        return f"the block failed (status {done.returncode}); it printed:\n{done.stdout}"
    return None


def shell_parser(document: Document) -> Iterable[Region]:
    for region in _fenced_blocks(document):
        language = _language(region)
        if language in RUN:
            region.parsed = region.lexemes["source"]
            region.evaluator = _evaluate_console if language == "console" else _evaluate_bash
            yield region


# ---------------------------------------------------------------- files a document shows, unlabelled fences


def file_parser(document: Document) -> Iterable[Region]:
    """A block after ``<!-- file: NAME -->`` is that file: written for later blocks, or checked."""
    for region in _fenced_blocks(document):
        before = document.text[:region.start].rstrip("\n").rsplit("\n", 1)[-1]
        match = _FILE_DIRECTIVE.search(before)
        if match is None:
            continue
        if _language(region) in RUN + ("python",):
            raise ValueError(f"{document.path}: <!-- file: --> names the text of a file, not a {_language(region)} "
                             "block")
        region.parsed = (match["name"], str(region.lexemes["source"]))
        region.evaluator = _evaluate_file
        yield region


def _evaluate_file(example: Example) -> str | None:
    name, text = example.parsed
    path = _workdir(example.namespace) / name
    if path.exists():
        shipped = path.read_text(encoding="utf-8")
        if shipped != text:
            return f"the block differs from the shipped {name}:\n--- shipped\n{shipped}--- block\n{text}"
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return None


def unlabelled_parser(document: Document) -> Iterable[Region]:
    for region in _fenced_blocks(document):
        if not _language(region):
            region.parsed = None
            region.evaluator = _unlabelled
            yield region


def _unlabelled(example: Example) -> str:
    return ("a fenced block without a language: label it console or bash (run), python (run), or what it shows "
            "(text, csv, json, ...) so that it is not run")


pytest_collect_file = Sybil(
    parsers=[
        SkipParser(),
        PythonCodeBlockParser(doctest_optionflags=OPTIONFLAGS),
        shell_parser,
        file_parser,
        unlabelled_parser,
    ],
    patterns=["README.md", "docs/*.md"],
    setup=_setup,
    teardown=_teardown,
    document_types={".md": MarkdownDocument},
    name="docs",
).pytest()
