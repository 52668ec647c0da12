"""What every sub-command shares: error handling, JSON output, the console."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import typer
from rich.console import Console

from accord.errors import AccordError
from accord.results import jsonable

__all__ = ["cli_errors", "console", "err_console", "print_json"]

console = Console()
err_console = Console(stderr=True)

F = TypeVar("F", bound=Callable[..., Any])


def cli_errors(func: F) -> F:
    """Turn an :class:`~accord.AccordError` (or a missing file) into one line on stderr and exit status 2."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (AccordError, FileNotFoundError, IsADirectoryError, PermissionError) as exc:
            text = exc.for_cli() if isinstance(exc, AccordError) else str(exc)
            msg = text.splitlines()[0] if text else type(exc).__name__
            print(f"accord: error: {msg}", file=sys.stderr)
            raise typer.Exit(code=2) from None

    return wrapper  # type: ignore[return-value]


def print_json(obj: Any) -> None:
    """Print *obj* as one JSON object on stdout (NaN as null)."""
    sys.stdout.write(json.dumps(jsonable(obj), indent=2, allow_nan=False) + "\n")
