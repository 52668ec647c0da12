"""The document states of an INCEpTION project export's ``exportedproject.json``.

Read from INCEpTION's source (https://github.com/inception-project/inception, commit
55ba8ba6adf808116b518a227194694850b65259):

- ``inception-model-export/.../export/model/ExportedProject.java``: the top-level object holds
  ``source_documents`` and ``annotation_documents`` (Jackson property names);
- ``ExportedSourceDocument.java``: ``name``, ``format``, ``state`` (a ``SourceDocumentState``);
- ``ExportedAnnotationDocument.java``: ``name`` (the source document's name, which is also the folder
  ``annotation/<name>/`` of the export), ``user``, ``state``, ``annotatorState`` (the state the annotator
  set; ``state`` is the effective one), ``annotatorComment``, timestamps;
- ``inception-model/.../model/AnnotationDocumentState.java``: ``NEW`` (not started; INCEpTION's default
  for a document with no annotation document), ``IN_PROGRESS`` (opened), ``FINISHED``, ``IGNORE`` (locked:
  the document is not offered to the annotator);
- ``SourceDocumentState.java``: ``NEW``, ``ANNOTATION_IN_PROGRESS``, ``ANNOTATION_FINISHED``,
  ``CURATION_IN_PROGRESS``, ``CURATION_FINISHED`` (and the aliases ``ANNOTATION_INPROGRESS``,
  ``CURATION_INPROGRESS`` Jackson accepts);
- ``inception-schema/.../exporters/AnnotationDocumentExporter.java``: an annotator's file is exported
  when the annotation document has a CAS and is not ``NEW``; the ``INITIAL_CAS`` pseudo user is left out
  of ``annotation_documents``, ``CURATION_USER`` is kept.

Not public: :mod:`accord.importers._inception` is the API.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from accord._shared.errors import plural
from accord.importers._common import check, fail, json_loads, quote

__all__ = ["ANNOTATION_STATES", "ProjectStates", "parse_project", "state_notes"]

TOOL = "inception"
#: The values of ``annotation_documents[].state`` (``AnnotationDocumentState``'s JSON names).
ANNOTATION_STATES = ("NEW", "IN_PROGRESS", "FINISHED", "IGNORE")
#: The values of ``source_documents[].state`` (``SourceDocumentState``'s JSON names and aliases).
SOURCE_STATES = ("NEW", "ANNOTATION_IN_PROGRESS", "ANNOTATION_INPROGRESS", "ANNOTATION_FINISHED",
                 "CURATION_IN_PROGRESS", "CURATION_INPROGRESS", "CURATION_FINISHED")
_WS = re.compile(r"[ \t\n\r]*")


@dataclass
class ProjectStates:
    """What ``exportedproject.json`` says about documents and annotators.

    Attributes
    ----------
    documents : list of str
        The source documents, in the file's order.
    states : dict of (str, str) to (str, int)
        ``(document, user)`` -> (effective state, line of the annotation document in the file).
    annotator_states : dict of (str, str) to str
        ``(document, user)`` -> the state the annotator set, where it differs from the effective one.
    lines : dict of str to int
        Line of each source document in the file.
    """

    documents: list[str] = field(default_factory=list)
    states: dict[tuple[str, str], tuple[str, int]] = field(default_factory=dict)
    annotator_states: dict[tuple[str, str], str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)


def _array_lines(text: str, keys: tuple[str, ...]) -> dict[str, list[int]]:
    """For each top-level key in *keys* holding an array, the 1-based line where each element starts.

    *text* is known to be valid JSON (it was parsed first); the walk decodes the top-level object value
    by value with ``raw_decode`` and counts newlines as it goes.
    """
    dec = json.JSONDecoder()
    out: dict[str, list[int]] = {}
    i = _WS.match(text, 0).end()  # type: ignore[union-attr]
    if i >= len(text) or text[i] != "{":
        return out
    line, last = 1, 0

    def at(pos: int) -> int:
        nonlocal line, last
        line += text.count("\n", last, pos)
        last = pos
        return line

    i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
    while i < len(text) and text[i] != "}":
        key, i = dec.raw_decode(text, i)
        i = _WS.match(text, i).end()  # type: ignore[union-attr]
        i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]  # past ':'
        if key in keys and text[i] == "[":
            lines: list[int] = []
            i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
            while text[i] != "]":
                lines.append(at(i))
                _, i = dec.raw_decode(text, i)
                i = _WS.match(text, i).end()  # type: ignore[union-attr]
                if text[i] == ",":
                    i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
            out[key] = lines
            i += 1
        else:
            _, i = dec.raw_decode(text, i)
        i = _WS.match(text, i).end()  # type: ignore[union-attr]
        if i < len(text) and text[i] == ",":
            i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
    return out


def parse_project(text: str, source: str) -> ProjectStates | None:
    """Read ``exportedproject.json``.

    Parameters
    ----------
    text : str
        The file's content.
    source : str
        The file, for messages (``<export>/exportedproject.json``).

    Returns
    -------
    ProjectStates or None
        None when the file has neither ``source_documents`` nor ``annotation_documents``.

    Raises
    ------
    AccordError
        When the file is not JSON, an entry lacks its name, user or state, or a state is not one
        INCEpTION writes; the message names the file, the line and the field.
    """
    obj = json_loads(TOOL, source, text)
    if not isinstance(obj, dict):
        raise fail(TOOL, source, f"expected a JSON object (INCEpTION's ExportedProject), found a "
                   f"{type(obj).__name__}", line=1)
    if "source_documents" not in obj and "annotation_documents" not in obj:
        return None
    lines = _array_lines(text, ("source_documents", "annotation_documents"))
    out = ProjectStates()
    for key in ("source_documents", "annotation_documents"):
        entries = obj.get(key, [])
        check(TOOL, source, entries, "list", field=key)
        for n, entry in enumerate(entries):
            line = lines.get(key, [])[n] if n < len(lines.get(key, [])) else None
            where = f"{key}[{n}]"
            if not isinstance(entry, dict):
                raise fail(TOOL, source, f"expected an object, found a {type(entry).__name__}", line=line,
                           field=where)
            name = entry.get("name")
            if not isinstance(name, str) or not name:
                raise fail(TOOL, source, "no document name", line=line, field=f"{where}.name")
            allowed = SOURCE_STATES if key == "source_documents" else ANNOTATION_STATES
            for k in ("state", "annotatorState"):
                check(TOOL, source, entry.get(k), "text", field=f"{where}.{k}", null=True, line=line)
            state = entry.get("state")
            if key == "source_documents":
                if state is not None and state not in allowed:
                    raise fail(TOOL, source, f"unknown source document state {quote(state)}; INCEpTION writes "
                               f"{', '.join(allowed)}", line=line, field=f"{where}.state")
                if name not in out.lines:
                    out.documents.append(name)
                    out.lines[name] = line or 0
                continue
            user = entry.get("user")
            if not isinstance(user, str) or not user:
                raise fail(TOOL, source, "no user", line=line, field=f"{where}.user")
            if state not in allowed:
                raise fail(TOOL, source, f"unknown annotation document state {quote(state)}; INCEpTION writes "
                           f"{', '.join(allowed)}", line=line, field=f"{where}.state")
            mine = entry.get("annotatorState")
            if mine is not None and mine not in allowed:
                raise fail(TOOL, source, f"unknown annotation document state {quote(mine)}; INCEpTION writes "
                           f"{', '.join(allowed)}", line=line, field=f"{where}.annotatorState")
            if (name, user) in out.states:
                raise fail(TOOL, source, f"a second annotation document of {quote(name)} for user {quote(user)} (the "
                           f"first is at line {out.states[(name, user)][1]})", line=line, field=where)
            out.states[(name, user)] = (state, line or 0)
            if mine is not None and mine != state:
                out.annotator_states[(name, user)] = mine
    return out


def state_notes(states: ProjectStates | None) -> list[str]:
    """Notes on what the states say that the cells do not (annotators' own states that differ)."""
    if states is None or not states.annotator_states:
        return []
    pairs = sorted(states.annotator_states.items())
    shown = ", ".join(f"{d}/{u}: {states.states[(d, u)][0]} (annotator: {s})" for (d, u), s in pairs[:5])
    more = f" and {len(pairs) - 5} more" if len(pairs) > 5 else ""
    return [f"{plural(len(pairs), 'annotation document')} whose annotator set another state than the effective one, "
            f"which is used: {shown}{more}"]

