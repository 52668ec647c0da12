"""Progress of long work on stderr (reports, bootstrap resamples): a rich progress bar, shown only on a terminal
and never with ``--quiet``."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any

__all__ = ["Progress", "progress_for"]


class Progress:
    """Steps of a report (counting, bootstrap resamples, coder pairs, writing) as a rich progress bar.

    ``Progress(enabled=False)`` (or stderr not a terminal) shows nothing; the
    builders call :meth:`step` either way.

    Examples
    --------
    >>> with Progress(enabled=False) as p, p.step("counting"):
    ...     pass
    """

    def __init__(self, *, enabled: bool = True, total: int | None = None, label: str = "accord report") -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self._label = label
        self._bar: Any = None
        self._task: Any = None
        self._total = total

    def __enter__(self) -> Progress:
        if self.enabled:
            from rich.console import Console
            from rich.progress import BarColumn, TextColumn, TimeElapsedColumn
            from rich.progress import Progress as RichProgress

            self._bar = RichProgress(
                TextColumn(f"[bold]{_shown(self._label)}[/bold] {{task.description}}"),
                BarColumn(),
                TextColumn("{task.completed}/{task.total}"),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self._bar.__enter__()
            self._task = self._bar.add_task("starting", total=self._total)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._bar is not None:
            self._bar.__exit__(*exc)
            self._bar = None

    def add(self, n: int) -> None:
        """Announce *n* more steps."""
        if self._bar is not None:
            task = self._bar.tasks[0]
            self._bar.update(self._task, total=(task.total or 0) + n)

    @contextlib.contextmanager
    def step(self, description: str) -> Iterator[None]:
        """One step: its description is shown while it runs, the bar advances when it ends."""
        if self._bar is not None:
            self._bar.update(self._task, description=_shown(description))
        yield
        if self._bar is not None:
            self._bar.advance(self._task)

    @contextlib.contextmanager
    def counter(self, description: str, total: int) -> Iterator[Any]:
        """A bar of its own for *total* items (bootstrap resamples); yields ``advance(n)``."""
        if self._bar is None:
            yield lambda n: None
            return
        task = self._bar.add_task(_shown(description), total=total)
        try:
            yield lambda n: self._bar.advance(task, n)
        finally:
            self._bar.remove_task(task)


def _shown(text: str) -> str:
    """*text* as the bar shows it: control and bidirectional characters escaped, markup brackets literal."""
    from rich.markup import escape

    from accord._shared.sanitize import terminal_safe

    return escape(terminal_safe(text))


def progress_for(progress: Progress | bool | None) -> Progress:
    """A :class:`Progress` from the ``progress`` option of the builders (None or False: silent)."""
    if isinstance(progress, Progress):
        return progress
    return Progress(enabled=bool(progress))
