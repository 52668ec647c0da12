"""INCEpTION's agreement "Diagnosis" export: one row per position, one column per annotator.

The Agreement page of INCEpTION (project > Agreement; INCEpTION user guide, section "Agreement",
https://inception-project.github.io/releases/35.0/docs/user-guide.html#sect_agreement) offers under
*Export...* a *CSV* (one row per position and label), a *JSON* and a *Diagnosis* download; the
Diagnosis file (``<project-slug>-diff.csv``) "exports the labels for all selected annotators and
documents in a tabular format where each labelled position is a row and there is one column for each
annotator", with the flags of INCEpTION's agreement preprocessing. This module reads the Diagnosis file.

The format was read from INCEpTION's source (https://github.com/inception-project/inception, commit
55ba8ba6adf808116b518a227194694850b65259): ``inception/inception-agreement/src/main/java/de/tudarmstadt/
ukp/clarin/webanno/agreement/AgreementServiceImpl.java`` (``exportDiff``,
``configurationSetsWithItemsToCsv``), ``CodingStudyUtils.java`` (``makeCodingStudy``, the flags),
``inception-curation-legacy/.../casdiff/Tag.java`` (the flag names), ``SpanPosition.java``,
``RelationPosition.java`` and ``DocumentPosition.java`` (``toMinimalString``, the *Position* column),
the expected lines in ``AgreementServiceImplTest.java``, and the user guide's source
``inception-ui-agreement/src/main/resources/META-INF/asciidoc/user-guide/agreement.adoc``.

The file is RFC 4180 CSV (Apache Commons CSV): a header ``Type, Collection, Document, Layer, Feature,
Position, Flags`` then one column per annotator (INCEpTION's display name of the user, annotators
sorted by user name); one row per position where some selected annotator has an annotation of the
layer (positions nobody annotated are not written). ``Type`` is ``SpanPosition``, ``RelationPosition``
or ``DocumentPosition``; ``Position`` is ``8-12 [John]`` for a span (character offsets and covered text),
``(0-3)[Joe] -> (8-12) [John]`` for a relation, ``Document`` for document metadata; ``Flags`` lists
``INCOMPLETE_LABEL``, ``INCOMPLETE_POSITION``, ``STACKED``, ``DIFFERENCE``, ``COMPLETE``, ``USED``
joined by ``", "``. An annotator's cell is the label, ``<no annotation>`` (no annotation at this
position), ``<no label>`` (an annotation whose feature is empty or null, which INCEpTION compares as a
label of its own), or, for a ``STACKED`` row, that annotator's labels sorted and joined by ``", "``.

Cell states: a label or ``<no label>`` is *annotated* (``<no label>`` is kept as that value);
``<no annotation>`` is *empty* (for nominal labels: no value, missing, as INCEpTION's own measures
treat it). A blank cell is written only for an empty-string label in a row INCEpTION did not use
(``Objects.toString`` of ``""``); it is read as ``<no label>`` and counted in a note. The file cannot
show *skipped* or *unassigned*: INCEpTION reads an annotator's ``FINISHED`` (and, unless limited to
finished documents, ``IN_PROGRESS``) documents and falls back to the document's initial state for the
others, so ``<no annotation>`` also stands for a document the annotator never finished or was never
given (pre-annotations of the initial state then appear as that annotator's labels). Read the project
export (``--from inception``) for the document states.

``STACKED`` rows (an annotator with several labels at one position) are dropped and counted, as
INCEpTION does not compare them either; rows INCEpTION did not use (incomplete positions it excluded)
are read and counted in a note, or dropped with ``used_only=True``.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from accord._shared.errors import plural, words
from accord.importers import Imported
from accord.importers._common import Cells, Tidy, fail, opt, quote, read_text

__all__ = ["read", "sniff"]

TOOL = "inception-agreement"
COLUMNS = ("Type", "Collection", "Document", "Layer", "Feature", "Position", "Flags")
FLAGS = ("INCOMPLETE_LABEL", "INCOMPLETE_POSITION", "STACKED", "IRRELEVANT", "DIFFERENCE", "COMPLETE", "USED")
NO_ANNOTATION = "<no annotation>"
NO_LABEL = "<no label>"
_ERROR = "Unexpected error during export"


def sniff(path: Path, head: str) -> bool:
    """A file whose header starts with INCEpTION's Diagnosis columns ``Type,Collection,...,Flags``."""
    if not path.is_file():
        return False
    first = head.lstrip("\ufeff").split("\n", 1)[0].rstrip("\r")
    try:  # the header as CSV: a writer may quote every field
        fields = next(csv.reader([first]), [])
    except csv.Error:
        return False
    return tuple(fields[:len(COLUMNS)]) == COLUMNS


def _records(text: str) -> list[tuple[int, list[str]]]:
    """``(line where the record starts, fields)`` for each CSV record (quoted fields may hold newlines)."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    out: list[tuple[int, list[str]]] = []
    last = 0
    for row in reader:
        start = last + 1
        last = reader.line_num
        if row:
            out.append((start, row))
    return out


def _matches(field: str, layer: str, feature: str) -> bool:
    short = layer.rsplit(".", 1)[-1]
    return field in (f"{layer}|{feature}", layer, feature, short, f"{short}|{feature}", f"{short}.{feature}")


def read(path: str | Path, *, field: str | None = None, used_only: bool = False) -> Imported:
    """Read INCEpTION's agreement Diagnosis export (``<project>-diff.csv``) into nominal labels.

    Parameters
    ----------
    path : str or Path
        The CSV file the Agreement page's *Export... > Diagnosis* writes.
    field : str, optional
        The layer / feature to read (``NamedEntity``, ``value``, ``NamedEntity|value``, the full layer
        name) when the file holds several; one export holds one.
    used_only : bool
        Read only the positions INCEpTION used in its calculation (flag ``USED``); by default the
        incomplete positions it excluded are read too and counted in a note.

    Returns
    -------
    Imported
        Units are ``"<document>: <position>"`` (``doc1.txt: 8-12 [John]``), coders the annotator columns,
        values the labels (kind ``nominal``).

    Raises
    ------
    AccordError
        When a column is missing, a row has too few or too many fields, a flag is unknown, or INCEpTION
        wrote its error message into the file; the message names the tool, file, line and field.
    """
    path = Path(path)
    if path.is_dir():
        raise fail(TOOL, path, words("is a folder; the agreement Diagnosis export is one CSV file (a project "
                                     "export is read with ", opt("tool", "inception"), ")"))
    text = read_text(TOOL, path)
    try:
        records = _records(text)
    except csv.Error as exc:
        raise fail(TOOL, path, f"not valid CSV ({exc})") from None
    if not records:
        raise fail(TOOL, path, "empty file")
    for line, row in records:
        if row[0].startswith(_ERROR):
            raise fail(TOOL, path, f"INCEpTION wrote {quote(row[0])} into the export instead of data; see INCEpTION's "
                       "log and export again", line=line)
    line, header = records[0]
    for col in COLUMNS:
        if col not in header:
            raise fail(TOOL, path, words(f"no column {quote(col)}: the header of INCEpTION's agreement Diagnosis "
                                         f"export is {', '.join(COLUMNS)}, then one column per annotator (is it "
                                         "another tool's CSV? choose it with ", opt("tool"), ")"), line=line, field=col)
    if tuple(header[:7]) != COLUMNS:
        raise fail(TOOL, path, f"the columns must come in the order {', '.join(COLUMNS)}; got "
                   f"{', '.join(header[:7])}", line=line)
    tidy = Tidy()
    coders = [tidy.id(c) for c in header[7:]]
    if not coders:
        raise fail(TOOL, path, "no annotator column after 'Flags'", line=line)
    for k, c in enumerate(coders):
        if c in coders[:k] or not c:
            raise fail(TOOL, path, f"annotator column {quote(c)} is blank or repeated", line=line, field=c)
    keys: dict[tuple[str, str], int] = {}
    for line, row in records[1:]:
        if len(row) != len(header):
            raise fail(TOOL, path, f"{plural(len(row), 'field')} where the header has {len(header)}", line=line,
                       field=header[min(len(row), len(header) - 1)])
        keys.setdefault((row[3], row[4]), line)
    chosen = [k for k in keys if field is None or _matches(field, *k)]
    if field is not None and not chosen:
        raise fail(TOOL, path, f"no layer or feature {quote(field)}; the file has "
                   f"{', '.join(f'{a}|{b}' for a, b in keys)}", field=field)
    if len(chosen) > 1:
        raise fail(TOOL, path, words(f"several layers/features ({', '.join(f'{a}|{b}' for a, b in chosen)}); pass ",
                                     opt("field")))
    cells = Cells(TOOL, str(path), tidy=tidy)
    cells.coders.update(coders)
    first: dict[str, int] = {}
    blanks = unused = 0
    for line, row in records[1:]:
        kind, _, document, layer, feature, position, flags_text = row[:7]
        record = f"{tidy.id(document)}: {position}"
        flags = [f for f in flags_text.split(", ") if f]
        for f in flags:
            if f not in FLAGS:
                raise fail(TOOL, path, f"unknown flag {quote(f)}; INCEpTION writes {', '.join(FLAGS)}", line=line,
                           record=record, field="Flags")
        if (layer, feature) not in chosen:
            cells.drop(record, "another layer or feature than the one read", line=line)
            continue
        if "STACKED" in flags:
            cells.drop(record, "stacked: an annotator has several labels at this position (INCEpTION does not "
                       "compare it either)", line=line)
            continue
        if "USED" not in flags:
            if used_only:
                cells.drop(record, "not used by INCEpTION's calculation (incomplete, excluded by its settings)",
                           line=line)
                continue
            unused += 1
        if record in first:
            cells.drop(record, f"the same document and position as line {first[record]}", line=line)
            continue
        first[record] = line
        for coder, value in zip(coders, row[7:], strict=True):
            value = tidy.label(value)
            if value == NO_ANNOTATION:
                cells.cell(record, coder, "empty", line=line)
                continue
            if value == "":
                blanks += 1
                value = NO_LABEL
            cells.cell(record, coder, "annotated", value, line=line)
    (layer, feature) = chosen[0] if chosen else ("", "")
    cells.notes.append(f"layer {layer}, feature {feature or '(none: positions only)'}; units are "
                       "'<document>: <position>'")
    cells.notes.append(words("<no annotation> read as empty (no value); INCEpTION writes it too for an annotator "
                             "whose document was not finished or not assigned (it then reads the initial document): "
                             "read the project export (", opt("tool", "inception"), ") for document states"))
    if unused:
        cells.notes.append(words(f"{plural(unused, 'position')} INCEpTION did not use (incomplete, excluded by its "
                                 "settings) read; pass ", opt("used_only", True), " to leave them out"))
    if blanks:
        cells.notes.append(f"{plural(blanks, 'blank cell')} read as <no label> (INCEpTION writes an empty label "
                           "so in rows "
                           "it did not use)")
    return cells.imported(f"{layer}|{feature}" if chosen else None, "nominal")
