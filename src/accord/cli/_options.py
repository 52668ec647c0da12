"""Options several sub-commands share, and option groups: ``--order``, the order of ordered text labels.

``--order "Very Easy,Easy,Neutral,Difficult,Very Difficult"`` gives the labels from lowest to highest
for the ordinal, interval and ratio distances (the one mechanism of the Python API,
``get_distance(name, order=[...])``); without it, those distances refuse text labels, whose
alphabetical order is not a scale.  :func:`parse_order` reads the option and :func:`ordered_distance`
checks it against the values read, so every command says the same thing (both in
:mod:`accord.distances._ordered`, where the library uses them too).

An :class:`OptionGroup` is a set of options that commands share, defined once as a frozen dataclass; a
command declares one parameter of the group's type and is decorated with :func:`with_options`.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

import typer

from accord.distances._ordered import order_items, ordered_distance, parse_order

__all__ = ["OptionGroup", "OrderOption", "TableOptions", "order_items", "ordered_distance", "parse_order",
           "with_options"]

ORDER_HELP = ("The labels from lowest to highest, comma-separated (quote a label holding a comma), for the "
              "ordinal, interval and ratio distances: e.g. --order \"Very Easy,Easy,Neutral,Difficult,Very "
              "Difficult\". Needed for text labels (their alphabetical order is not a scale); numbers, and labels that "
              "are all numbers (\"1\"..\"5\"), need none.")

#: The ``--order`` option, as a type for a typer command's parameter.
OrderOption = Annotated[str | None, typer.Option("--order", help=ORDER_HELP)]



F = TypeVar("F", bound=Callable[..., Any])


class OptionGroup:
    """A group of options that commands share, as a frozen dataclass whose fields are typer options.

    A command declares one parameter annotated with the group (``table: TableOptions = TableOptions()``) and
    is decorated with :func:`with_options`: the command line shows the group's options in that parameter's
    place, each with its own help, and the command receives them as one object.  One definition, one help
    text, for every command that takes the group.
    """

    @classmethod
    def parameters(cls) -> list[inspect.Parameter]:
        """The group's options as keyword parameters of a command (name, typer annotation, default)."""
        hints = typing.get_type_hints(cls, include_extras=True)
        return [inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, annotation=hints[f.name],
                                  default=inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default)
                for f in dataclasses.fields(cls)]  # type: ignore[arg-type]

    @classmethod
    def from_options(cls, values: dict[str, Any]) -> Any:
        """The group from the values the command line parsed, by parameter name."""
        return cls(**values)

    def as_dict(self, *, exclude: tuple[str, ...] = ()) -> dict[str, Any]:
        """The options by name (a shallow copy), less *exclude*."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)  # type: ignore[arg-type]
                if f.name not in exclude}


def with_options(func: F) -> F:
    """Expand each parameter of *func* annotated with an :class:`OptionGroup` into the group's options.

    The command's signature is rewritten for Typer (the group's options in the parameter's place, every
    parameter keyword-only, as click passes them); at each call the options are gathered back into the group.
    The function itself is kept as ``__accord_command__`` (tests read its length).
    """
    sig = inspect.signature(func, eval_str=True)
    params: list[inspect.Parameter] = []
    groups: dict[str, tuple[Any, list[str]]] = {}
    for name, p in sig.parameters.items():
        ann = p.annotation
        if isinstance(ann, type) and issubclass(ann, OptionGroup):
            own = ann.parameters()
            groups[name] = (ann, [q.name for q in own])
            params += own
        else:
            params.append(p.replace(kind=inspect.Parameter.KEYWORD_ONLY))

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        for name, (group, names) in groups.items():
            kwargs[name] = group.from_options({n: kwargs.pop(n) for n in names if n in kwargs})
        return func(*args, **kwargs)

    wrapper.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {**{p.name: p.annotation for p in params}, "return": sig.return_annotation}
    del wrapper.__wrapped__  # Typer reads the signature above, not the wrapped function's
    wrapper.__accord_command__ = getattr(func, "__accord_command__", func)  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]


@dataclass(frozen=True)
class TableOptions(OptionGroup):
    """How to read a plain table: its columns and layout (told from the file where not given)."""

    unit: Annotated[str | None, typer.Option(help="Column holding the unit (item) id (default: told from the "
                                             "column names: unit, item, id, doc_id, question...).")] = None
    coder: Annotated[str | None, typer.Option(help="Column holding the coder (annotator) id (default: told from "
                                              "the column names: coder, annotator, rater, worker...).")] = None
    value: Annotated[str | None, typer.Option(
        help="Column holding the value; JSON lists for set values (default: told from the column names: value, "
             "label, score, rating, answer...).")] = None
    layout: Annotated[str | None, typer.Option(
        help="long: one row per (unit, coder, value); wide: one row per unit, a column per coder; counts: one row "
             "per unit, a column per category, each cell a count (default: told from the file).")] = None
    coders: Annotated[str | None, typer.Option(
        help="Wide layout: comma-separated coder columns (default: all but --unit).")] = None
    sep: Annotated[str | None, typer.Option(
        help="Text tables: the delimiter, one character or 'tab' (default: sniffed among comma, semicolon, tab "
             "and pipe).")] = None

    def read_options(self) -> dict[str, Any]:
        """The options as :func:`accord.read` takes them."""
        coders = [c.strip() for c in self.coders.split(",")] if self.coders else None
        return {"unit": self.unit, "coder": self.coder, "value": self.value, "layout": self.layout,
                "coders": coders, "sep": self.sep}
