"""Which coders of reliability data are models and which are humans.

Any input accord reads keeps its coders as they are; a study of humans and models only marks some of
them as models, by name or by a shell-style pattern (``gpt-*``), and reads every other coder as a human.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from accord._shared.errors import AccordError
from accord.data._annotations import Annotations

__all__ = ["CoderRoles", "ModelsArg", "as_rater_data", "coder_roles", "parse_models"]

#: How models are named: one name or pattern, a comma-separated string of them, or a sequence of them.
ModelsArg = str | Sequence[Any]

_WILDCARDS = "*?["


def as_rater_data(data: Any, *, layout: str = "coders-by-units") -> Annotations:
    """*data* as :class:`Annotations`: an import of an annotation tool's export (:func:`accord.read_export`) gives
    its annotations; anything else is read as :func:`accord.as_annotations` reads it."""
    from accord.data._annotations import as_annotations

    if type(data).__name__ == "Imported" and hasattr(data, "annotations"):
        if data.annotations is None:
            raise AccordError(f"the {data.tool} import holds spans; humans and models are compared on a label, rating "
                              "or label set per item (read another field)")
        return data.annotations
    return as_annotations(data, layout=layout)  # type: ignore[arg-type]


def parse_models(models: ModelsArg, *, what: str = "models") -> tuple[Any, ...]:
    """The names and patterns of *models*: a comma-separated string is split, a sequence taken as is.

    Examples
    --------
    >>> parse_models("gpt-4o, claude")
    ('gpt-4o', 'claude')
    >>> parse_models(["llm-*", 7])
    ('llm-*', 7)
    """
    if isinstance(models, str):
        items: tuple[Any, ...] = tuple(m.strip() for m in models.split(",") if m.strip())
    elif isinstance(models, Sequence) or isinstance(models, (set, frozenset, np.ndarray)):
        items = tuple(m.strip() if isinstance(m, str) else m for m in models)
        if any(isinstance(m, str) and not m for m in items):
            raise AccordError(f"{what} holds an empty name; got {list(models)!r}")
    else:
        raise AccordError(f"{what} must name the model coders: a name, a comma-separated string of names or "
                          f"patterns (gpt-*), or a list of them; got {type(models).__name__}")
    if not items:
        raise AccordError(f"{what} must name at least one model coder; got {models!r}",
                          cli=f"--{what} must name at least one model coder; got {models!r}")
    return items


@dataclass(frozen=True)
class CoderRoles:
    """The coders of some data split into humans and models (indices into ``data.coders``, in data order)."""

    humans: np.ndarray
    models: np.ndarray
    names: np.ndarray

    @property
    def human_names(self) -> list[Any]:
        return self.names[self.humans].tolist()

    @property
    def model_names(self) -> list[Any]:
        return self.names[self.models].tolist()


def coder_roles(data: Annotations, models: ModelsArg, *, what: str = "models", require_human: bool = True
                ) -> CoderRoles:
    """Mark the coders of *data* that *models* names (exactly, or by a pattern with ``*``, ``?``, ``[``).

    A name matches a coder whose label equals it or whose label's text equals it (``7`` and ``"7"``);
    a pattern matches coder labels as text (:func:`fnmatch.fnmatchcase`).  Every name and pattern must match
    a coder, and at least one coder must be left as a human (unless *require_human* is false: the judge audit
    reads a judge's order and run checks without humans).

    Examples
    --------
    >>> data = Annotations.from_records([(1, "ann", "a"), (1, "bob", "a"), (1, "gpt-4o", "b"), (1, "gpt-5", "a")])
    >>> coder_roles(data, "gpt-*").model_names
    ['gpt-4o', 'gpt-5']
    >>> coder_roles(data, "bob,gpt-5").human_names
    ['ann', 'gpt-4o']
    """
    items = parse_models(models, what=what)
    labels = data.coders.tolist()
    texts = [str(c) for c in labels]
    chosen = np.zeros(len(labels), dtype=bool)
    unmatched = []
    for item in items:
        text = str(item)
        if isinstance(item, str) and any(ch in item for ch in _WILDCARDS):
            hit = np.array([fnmatch.fnmatchcase(t, item) for t in texts], dtype=bool)
        else:
            hit = np.array([lab == item or t == text for lab, t in zip(labels, texts, strict=True)], dtype=bool)
        if not hit.any():
            unmatched.append(item)
        chosen |= hit
    if unmatched:
        from accord._shared.errors import did_you_mean

        shown = ", ".join(map(repr, texts[:20])) + (f", ... ({len(texts)} in all)" if len(texts) > 20 else "")
        hint = did_you_mean(str(unmatched[0]), texts) if len(unmatched) == 1 else ""
        where = f"{data.source}: " if data.source else ""
        raise AccordError(f"{where}{what} names {', '.join(map(repr, unmatched))}, which no coder matches{hint}; "
                          f"the coders are {shown}",
                          cli=f"{where}--{what} names {', '.join(map(repr, unmatched))}, which no coder matches"
                              f"{hint}; the coders are {shown}")
    if chosen.all() and require_human:
        raise AccordError(f"{what} names every coder ({', '.join(texts)}); the test compares models with humans, "
                          "so at least some coders must be humans")
    return CoderRoles(humans=np.flatnonzero(~chosen), models=np.flatnonzero(chosen), names=data.coders)
