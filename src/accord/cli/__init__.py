"""The ``accord`` command line.

Each sub-command lives in its own module of this package and exposes
``register(app)``; this module only assembles them, lazily: ``accord --help``
lists the commands from :data:`COMMANDS` without importing any of them, and
``accord agree ...`` imports the ``agree`` module alone, so every command pays
only for the libraries it uses.  Errors a user can cause print one line on
stderr and exit with status 2 (see :mod:`accord.cli._common`).
"""

from __future__ import annotations

import importlib
from typing import Any

import typer
import typer.main
from typer.core import TyperCommand, TyperGroup

__all__ = ["COMMANDS", "app", "main"]

#: command name -> (module of :mod:`accord.cli` that registers it, the one-line help ``accord --help`` shows).
COMMANDS: dict[str, tuple[str, str]] = {
    "agree": ("_agree", "Agreement (Krippendorff's alpha, the kappa family) of annotations in a file."),
    "coref": (
        "_coref",
        "Reliability of coreference chains (Passonneau 2004): alpha over the mentions, both value conventions.",
    ),
    "multilabel": (
        "_multilabel",
        "K', the augmented kappa for a primary and an optional secondary label (Rosenberg & Binkowski 2004).",
    ),
    "pyramid": ("_pyramid", "Pyramids of summary content units: tiers, validation, peer scores, agreement."),
    "gold": (
        "_noise",
        "Keep the items all annotators agree on and bound their noise (Beigman Klebanov & Beigman 2009).",
    ),
    "noise": ("_noise", "Noise bound of the agreed items for n items, d disagreements and chance agreement p."),
    "significance": (
        "_significance", "Significance tests of the scores that two annotations give to the same systems."
    ),
    "spans": ("_spans", "Agreement on spans: pairwise F1, token alpha and kappa, unitizing alpha."),
    "relations": ("_relations", "Agreement on relations and events: F1 per coder pair, alpha over the related pairs."),
    "report": (
        "_report",
        "One HTML page of reliability to read, share and act on (works offline, prints to PDF).",
    ),
    "demo": ("_demo", "Print reliability reports for the example data bundled with accord."),
    "alt-test": (
        "_alt_test",
        "May a model replace the human annotators? The alternative annotator test (Calderon, Reichart & Dror 2025).",
    ),
    "judge": (
        "_judge",
        "Audit LLM judges: consistent across orders, repeatable across runs, right against the humans?",
    ),
    "import": ("_import", "Turn an annotation tool's export into accord's long table (unit, coder, value; or spans)."),
    "attributes": (
        "_attributes", "Agreement on each attribute or feature of a span layer, over the spans the annotators align on."
    ),
    "layers": (
        "_layers", "Every layer or control of an export: each annotator's count, and what accord measures on it."
    ),
}


def load_command(name: str) -> Any:
    """Import the module of command *name* and return its click command (or group)."""
    module, _ = COMMANDS[name]
    sub = typer.Typer()
    importlib.import_module(f"accord.cli.{module}").register(sub)
    group = typer.main.get_group(sub)
    command = group.commands.get(name)
    if command is None:  # pragma: no cover - a COMMANDS entry out of step with its module
        raise RuntimeError(f"accord.cli.{module}.register does not register the command {name!r}")
    conventional_metavars(command)
    return command


#: a parameter's type -> the metavar help shows for it (click's own conventions).
_METAVARS = {"text": "TEXT", "str": "TEXT", "integer": "INTEGER", "int": "INTEGER", "float": "FLOAT",
             "path": "PATH", "boolean": "BOOLEAN", "bool": "BOOLEAN"}


def _type_name(param: Any) -> str:
    """The name of *param*'s type, from click's ``type`` or (typer >= 0.26) its ``type_descriptor``."""
    ptype = getattr(param, "type", None)
    if getattr(ptype, "name", None):
        return str(ptype.name)
    desc = getattr(param, "type_descriptor", None)
    if desc is None:
        return "text"
    if getattr(desc, "is_path", False):
        return "path"
    annotation = getattr(desc, "annotation", None)
    args = getattr(annotation, "__args__", None)
    if getattr(desc, "is_list", False) and args:
        annotation = args[0]
    return getattr(annotation, "__name__", "text").lower()


def _set_metavar(param: Any) -> None:
    if param.metavar is not None:
        return
    if getattr(param, "param_type_name", "") == "argument":
        param.metavar = param.name.upper()
        if hasattr(param, "_usage_display_name"):  # typer >= 0.26 writes a required argument as {file}
            param._usage_display_name = lambda p=param: (
                (p.metavar if p.required else f"[{p.metavar}]") + ("..." if p.nargs != 1 else ""))
        if hasattr(param, "display_type_rich"):  # and its type as <path>, <list[Path]>
            kind = _METAVARS.get(_type_name(param), "TEXT")
            param.display_type_rich = lambda ctx, kind=kind: kind
    elif getattr(param, "is_flag", False) or getattr(param, "count", False):
        param.metavar = ""
    else:
        param.metavar = _METAVARS.get(_type_name(param), "TEXT")


def conventional_metavars(command: Any) -> Any:
    """Give every parameter of *command* (and of its sub-commands) the metavar help conventionally shows.

    Typer's releases since 0.26 print the Python type (``{file}``, ``<str>``, ``<bool>``) where click
    printed ``FILE``, ``TEXT`` and nothing for a flag; a flag shown as ``<bool>`` reads as if it took a
    value (``--diagnostics true``).  An argument shows its name in capitals, a flag nothing, any other
    option its type's conventional name; a metavar a command sets itself is kept.  The help option is
    made when help is shown, so the command's ``get_params`` is wrapped to name it too.
    """
    for sub in getattr(command, "commands", {}).values():
        conventional_metavars(sub)
    if getattr(command, "_accord_metavars", False):
        return command
    get_params = command.get_params

    def _get_params(ctx: Any) -> list[Any]:
        params = get_params(ctx)
        for param in params:
            _set_metavar(param)
        return params

    command.get_params = _get_params
    command._accord_metavars = True
    for param in command.params:
        _set_metavar(param)
    return command


class _LazyGroup(TyperGroup):
    """A command group that imports a command's module only when that command runs."""

    _listing = False

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in COMMANDS:
            return None
        if self._listing:  # help text only: a stand-in with the one-line help, nothing imported
            return TyperCommand(cmd_name, help=COMMANDS[cmd_name][1], short_help=COMMANDS[cmd_name][1])
        return load_command(cmd_name)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name = args[0] if args else ""
        if name and not name.startswith("-") and name not in COMMANDS:
            from accord._shared.errors import did_you_mean

            ctx.fail(f"No such command {name!r}.{did_you_mean(name, COMMANDS)}")
        return super().resolve_command(ctx, args)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        # the list of commands in click's plain layout: typer's rich layout imports rich's Markdown and
        # markdown-it (about 0.1 s, as long as numpy's whole import) for a page of one-line summaries; each
        # command's own help keeps the rich layout
        self._listing, markup = True, self.rich_markup_mode
        self.rich_markup_mode = None
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing, self.rich_markup_mode = False, markup


app = typer.Typer(
    name="accord",
    cls=_LazyGroup,
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
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Show the version."),
) -> None:
    """Agreement on complex annotations, and gold standards with a known noise level."""


def _show_warning(message: Any, category: type[Warning], filename: str, lineno: int, file: Any = None,
                  line: str | None = None) -> None:
    """Print a warning as one line, ``accord: warning: MESSAGE``, once per run (:func:`accord.cli._common.warn`).

    No file, line number or source line: they are accord's, not the user's.  An
    :class:`~accord.AccordWarning` is said in the command line's words; another library's
    warning (numpy's RuntimeWarning...) keeps its text, after its category's name.
    """
    from accord.cli._common import warn

    warn(message, category=category, file=file)


def main() -> None:
    """Entry point of the ``accord`` script."""
    import warnings

    warnings.showwarning = _show_warning
    command = typer.main.get_command(app)
    conventional_metavars(command)
    command(prog_name="accord")
