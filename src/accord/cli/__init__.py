"""The ``accord`` command line.

Each sub-command lives in its own module of this package and exposes
``register(app)``; this module only assembles them.  Errors a user can cause
print one line on stderr and exit with status 2 (see :mod:`accord.cli._common`).
"""

from __future__ import annotations

import importlib

import typer

__all__ = ["app", "main"]

app = typer.Typer(
    name="accord",
    help=(
        "Measure how far annotators agree on complex annotations (Krippendorff's alpha with any "
        "distance, the kappa family, coreference, multi-label, pyramids) and turn agreement into "
        "gold standards with a known noise level."
    ),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)



def _version(value: bool) -> None:
    if value:
        from accord import __version__

        typer.echo(f"accord {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version."
    ),
) -> None:
    """Agreement on complex annotations, and gold standards with a known noise level."""


# Sub-command modules, each with a ``register(app)`` function.
_COMMANDS: tuple[str, ...] = ("agree", "coref", "multilabel", "pyramid", "noise", "significance", "demo", "report")

for _name in _COMMANDS:
    importlib.import_module(f"accord.cli.{_name}").register(app)


def main() -> None:
    """Entry point of the ``accord`` script."""
    app()
