"""What an import found: the four states of every (item, annotator) cell, and every record dropped.

An annotation tool's export mixes four things that look alike in a table and must
never be merged (they change agreement differently):

``annotated``
    the annotator gave a value;
``empty``
    the annotator saw the item and chose nothing (an empty choice, no span in the
    document): for set values and spans this *is* a value, the empty set;
``skipped``
    the annotator skipped or cancelled the item (Label Studio ``was_cancelled``,
    Prodigy ``ignore``): missing, but the tool knows it was seen;
``unassigned``
    the item was never given to that annotator: missing.

Every record an importer does not turn into a cell (a malformed line, a control that
is not compared, a duplicate) is a :class:`DroppedRecord` with its reason, so that
nothing a user gave disappears without being counted and said.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from accord._shared.errors import for_cli, plural

__all__ = ["CELL_STATES", "CellState", "DroppedRecord", "ImportReport"]

CellState = Literal["annotated", "empty", "skipped", "unassigned"]
CELL_STATES: tuple[CellState, ...] = ("annotated", "empty", "skipped", "unassigned")


@dataclass(frozen=True)
class DroppedRecord:
    """One record of the export that did not become a cell, and why.

    Attributes
    ----------
    record : str
        The record's id in the export (task id, ``_input_hash``, line id...).
    reason : str
        Why it was dropped, in words a user can act on.
    line : int or None
        1-based line (JSONL, CSV, TSV) or record index (JSON array) where it stands.
    coder : str or None
        The annotator it belonged to, where known.
    """

    record: str
    reason: str
    line: int | None = None
    coder: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"record": self.record, "reason": self.reason, "line": self.line, "coder": self.coder}


@dataclass(frozen=True)
class ImportReport:
    """Counts per annotator of the four cell states, the records dropped, and notes.

    Build it with :meth:`from_cells`, which derives ``unassigned`` as the items an
    annotator has no cell for.

    Attributes
    ----------
    tool : str
        The importer's name (``"label-studio"``...).
    source : str
        The file or folder read.
    n_items : int
        Items (units or documents) in the export.
    counts : dict of str to dict of str to int
        For each annotator, the number of cells in each of :data:`CELL_STATES`.
    dropped : tuple of DroppedRecord
        Every record not turned into a cell.
    notes : tuple of str
        Choices the importer made that a user should know (the field picked, the
        format guessed, offsets re-anchored from UTF-16...).
    stripped : int
        Ids and category labels (unit, document, coder and annotator ids, categories, label names) read
        without the whitespace that surrounded them in the export; ``ann1 `` and ``ann1`` are one annotator.

    Examples
    --------
    >>> r = ImportReport.from_cells(
    ...     "demo", "x.json", items=["t1", "t2"],
    ...     cells=[("t1", "ann1", "annotated"), ("t2", "ann1", "skipped"), ("t1", "ann2", "empty")],
    ... )
    >>> r.counts["ann2"]
    {'annotated': 0, 'empty': 1, 'skipped': 0, 'unassigned': 1}
    >>> r.total("unassigned")
    1
    """

    tool: str
    source: str
    n_items: int
    counts: dict[str, dict[str, int]]
    dropped: tuple[DroppedRecord, ...] = ()
    notes: tuple[str, ...] = field(default=())
    stripped: int = 0

    @classmethod
    def from_cells(
        cls,
        tool: str,
        source: str,
        *,
        items: Iterable[Hashable],
        cells: Iterable[tuple[Hashable, Hashable, CellState]],
        coders: Iterable[Hashable] = (),
        dropped: Iterable[DroppedRecord] = (),
        notes: Iterable[str] = (),
        stripped: int = 0,
    ) -> ImportReport:
        """Count the cells per annotator; items with no cell of an annotator are ``unassigned``.

        Parameters
        ----------
        items : iterable
            Every item of the export (including those nobody annotated).
        cells : iterable of (item, coder, state)
            One per (item, coder) cell the export holds; *state* one of
            ``annotated``, ``empty``, ``skipped``.
        coders : iterable, optional
            Annotators known to the project who may hold no cell at all.
        stripped : int
            Ids and labels whose surrounding whitespace the importer removed.
        """
        item_set = set(items)
        per: dict[str, Counter[str]] = {}
        seen: dict[str, set[Hashable]] = {}
        for item, coder, state in cells:
            if state not in CELL_STATES[:3]:
                raise ValueError(f"cell state must be one of annotated, empty, skipped; got {state!r}")
            key = str(coder)
            per.setdefault(key, Counter())[state] += 1
            seen.setdefault(key, set()).add(item)
            item_set.add(item)
        for coder in coders:
            per.setdefault(str(coder), Counter())
            seen.setdefault(str(coder), set())
        counts = {
            c: {
                "annotated": per[c]["annotated"],
                "empty": per[c]["empty"],
                "skipped": per[c]["skipped"],
                "unassigned": len(item_set - seen[c]),
            }
            for c in sorted(per)
        }
        return cls(
            tool=tool,
            source=str(source),
            n_items=len(item_set),
            counts=counts,
            dropped=tuple(dropped),
            notes=tuple(notes),
            stripped=stripped,
        )

    @property
    def coders(self) -> tuple[str, ...]:
        """The annotators, sorted."""
        return tuple(self.counts)

    def total(self, state: CellState) -> int:
        """Cells in *state* over all annotators."""
        return sum(c[state] for c in self.counts.values())

    def dropped_reasons(self) -> dict[str, int]:
        """How many records were dropped for each reason."""
        return dict(Counter(d.reason for d in self.dropped))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "tool": self.tool,
            "source": self.source,
            "n_items": self.n_items,
            "counts": self.counts,
            "dropped": [d.to_dict() for d in self.dropped],
            "notes": list(self.notes),
            "stripped": self.stripped,
        }

    def to_frame(self) -> Any:
        """One row per annotator, one column per state (a pandas view)."""
        import pandas as pd

        frame = pd.DataFrame.from_dict(self.counts, orient="index", columns=list(CELL_STATES))
        frame.index.name = "coder"
        return frame

    def summary(self, *, cli: bool = False) -> str:
        """A few lines for the terminal: items, states per annotator, drops by reason, notes (in the command
        line's words with *cli*: ``pass --field``, not ``pass field=``)."""
        stripped = (f", {plural(self.stripped, 'id or label', 'ids or labels')} read without surrounding whitespace"
                    if self.stripped else "")
        lines = [f"{self.tool} export {self.source}: {plural(self.n_items, 'item')}, "
                 f"{plural(len(self.counts), 'annotator')}{stripped}"]
        for coder, c in self.counts.items():
            lines.append(
                f"  {coder}: {c['annotated']} annotated, {c['empty']} empty, {c['skipped']} skipped, "
                f"{c['unassigned']} unassigned"
            )
        for reason, n in self.dropped_reasons().items():
            lines.append(f"  dropped {plural(n, 'record')}: {reason}")
        lines.extend(f"  note: {for_cli(n) if cli else n}" for n in self.notes)
        return "\n".join(lines)
