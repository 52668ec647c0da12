"""INCEpTION / WebAnno: a project export's per-annotator WebAnno TSV 3.x files (or UIMA CAS JSON files,
read by :mod:`accord.importers._inception_cas`).

Follows the WebAnno TSV 3.3 format of INCEpTION's user guide ("WebAnno TSV 3.3", appendix of the
INCEpTION documentation, https://inception-project.github.io/releases/latest/docs/user-guide.html) and
the layout of an INCEpTION project export: ``annotation/<document>/<user>.tsv`` (or, as older WebAnno
exports write it, ``annotation/<document>/<user>.zip`` holding that file), as a zip or an unpacked folder.

A TSV file starts with ``#FORMAT=WebAnno TSV 3.x`` and one header line per layer: ``#T_SP=<layer>|<feature>...``
for span layers (one column per feature), ``#T_CH=`` for chains (one column per feature) and ``#T_RL=``
for relations (one column per feature and one for the governor). Each sentence is ``#Text=<sentence>``
then one line per token: ``<sentence>-<token>  <begin>-<end>  <token text>  <column>...``, where
``_`` is no annotation, ``*`` an annotation with no feature value, ``PER[3]`` a token of the multi-token
annotation 3, and ``|`` separates stacked annotations. Offsets count UTF-16 code units; they are
re-anchored to code points. The document text is rebuilt from the ``#Text=`` lines.

Cell states. An INCEpTION project export also holds ``exportedproject.json`` with each annotator's
annotation document and its state (``annotation_documents[].state``: ``NEW``, ``IN_PROGRESS``,
``FINISHED``, ``IGNORE``; see :mod:`accord.importers._inception_project` for the source files read):

- ``FINISHED``: the file is read, *annotated* with spans of the field, *empty* without;
- ``IN_PROGRESS``: read as it stands and counted in a note (``in_progress="skip"`` counts it *skipped*);
- ``IGNORE`` (locked): *skipped*, file or not (spans in it are counted in a note, not read);
- ``NEW``, or no annotation document for the annotator: *unassigned* (INCEpTION exports no file for a
  ``NEW`` document; one found anyway is dropped and said).

Where the states and the files disagree it is counted and said: a ``FINISHED`` or ``IN_PROGRESS``
document with no file is a dropped record (read as *unassigned*), a file with no annotation document
or for a document not among ``source_documents`` is read and named in a note. Without
``exportedproject.json`` (a WebAnno export, or a folder of TSV files), the files alone are the states,
as the report's notes say: a file with spans is *annotated*, one without *empty*, a document with no
file *unassigned*. INCEpTION's system users (``INITIAL_CAS``, ``CURATION_USER``) are not annotators:
their files are counted as dropped. Relation and chain layers are not spans and are not compared. Slot
(link) features (a ``ROLE_...`` column and its targets' column) are not labels: a layer whose features are all
slots is read as ``layer|``, labelled with the layer's name.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from typing import Any, NamedTuple

from accord._shared.errors import AccordError, plural, words
from accord._shared.zips import ZipArchive, is_zip
from accord.importers import AmbiguousField, Imported
from accord.importers._common import Tidy, opt, quote, read_text, symlink_note, walk_files
from accord.importers._inception_cas import is_cas_json, parse_cas
from accord.importers._inception_layers import unread_layers
from accord.importers._inception_project import parse_project, state_notes
from accord.importers._inception_relations import count_relations, tsv_relations
from accord.importers._offsets import Utf16Index
from accord.importers._report import DroppedRecord, ImportReport

__all__ = ["read", "sniff"]

TOOL = "inception"
_SYSTEM_USERS = {"INITIAL_CAS", "CURATION_USER"}
_MAX_GAP = 2**30  # characters between two sentences (rebuilt as spaces)
_ITEM = re.compile(r"^(?P<label>.*?)(?:\[(?P<id>\d+)(?:_\d+)?\])?$", re.S)
# INCEpTION's Escaping.unescapeValue: one pass over these sequences; any other backslash stays as written
_VALUE_ESCAPES = {"\\": "\\", "[": "[", "]": "]", "|": "|", "_": "_", "->": "->", ";": ";", "t": "\t", "n": "\n",
                  "*": "*"}
_VALUE_ESCAPE = re.compile(r"\\(\\|\[|\]|\||_|->|;|t|n|\*)")
# Escaping.unescapeText (TSV 3.2+): \t \n \f \r \b \\, and a backslash before any other control character
_TEXT_ESCAPES = {"t": "\t", "n": "\n", "f": "\f", "r": "\r", "b": "\b", "\\": "\\"}
_TEXT_ESCAPE = re.compile(r"\\([tnfrb\\\x00-\x07\x0e-\x1f])")


def _unescape_value(raw: str) -> str:
    return _VALUE_ESCAPE.sub(lambda m: _VALUE_ESCAPES[m.group(1)], raw)


def _unescape_text(raw: str) -> str:
    return _TEXT_ESCAPE.sub(lambda m: _TEXT_ESCAPES.get(m.group(1), m.group(1)), raw)


def _files(path: Path, follow_symlinks: bool = False, skipped: list[Path] | None = None,
           ) -> Iterator[tuple[str, str, str]]:
    """(document, user, TSV text) for every annotation file of the export."""
    def member(name: str) -> str:  # a file of the export, for messages
        return f"{path}/{name}" if path.is_dir() else f"{path}:{name}"

    def parse(name: str, data: Callable[[], bytes], archive: ZipArchive | None) -> Iterator[tuple[str, str, str]]:
        parts = PurePosixPath(name).parts
        if "annotation" not in parts:
            return
        i = parts.index("annotation")
        if len(parts) != i + 3:
            return
        doc, fname = parts[i + 1], parts[i + 2]
        user, suffix = fname.rsplit(".", 1) if "." in fname else (fname, "")
        if suffix in ("tsv", "json"):  # WebAnno TSV 3, or UIMA CAS JSON (_inception_cas)
            yield doc, user, read_text(TOOL, member(name), data())
        elif suffix == "zip":
            with ZipArchive(TOOL, member(name), data(), parent=archive) as inner:
                for n in inner.names():
                    if n.endswith((".tsv", ".json")):
                        yield doc, user, read_text(TOOL, f"{member(name)}:{n}", inner.read(n))

    if path.is_dir():
        for f in walk_files(path, follow_symlinks=follow_symlinks, skipped=skipped):
            yield from parse(f.relative_to(path).as_posix(), f.read_bytes, None)
    else:
        with ZipArchive(TOOL, path) as z:
            for n in sorted(z.names()):
                yield from parse(n, functools.partial(z.read, n), z)


def sniff(path: Path, head: str) -> bool:
    """A project export (zip or folder) holding ``annotation/<document>/<user>.tsv``, or one TSV file."""
    if path.is_file() and (head.startswith("#FORMAT=WebAnno TSV 3") or is_cas_json(head)):
        return True
    try:
        if path.is_dir():
            return (path / "annotation").is_dir() and not (path / "annotation").is_symlink()
        if is_zip(path):
            with ZipArchive(TOOL, path) as z:
                return any(n.startswith("annotation/") for n in z.names())
    except (OSError, AccordError):
        return False
    return False


def _fail(where: str, message: str, line: int | None = None) -> AccordError:
    return AccordError(words(f"inception export {where}" + (f", line {line}" if line else "") + ": ", message))


class _Field(NamedTuple):
    """Where a span field lives among the annotation columns.

    ``label``: the feature's column (None for a layer read by its presence only, labelled with its name);
    ``present``: the columns whose stacked items are the layer's annotations on a token; ``ids``: those of
    them whose items carry the multi-token annotation id (a slot target's ``[n]`` is its target's).
    """

    label: int | None
    present: tuple[int, ...]
    ids: tuple[int, ...]
    features: tuple[tuple[str, int], ...] = ()  # the layer's other features and their columns (its attributes)


def _columns(header: list[str]) -> dict[str, _Field]:
    """``layer|feature`` -> its :class:`_Field`, span layers only.

    Follows INCEpTION's reader (``Tsv3XDeserializer``): a span feature named ``ROLE_...`` is a slot
    (link) feature, its column holding the roles and the next one the targets; neither is a label. A
    layer whose features are all slots is read as ``layer|`` from those columns. A relation layer
    declares its features and then the governor (``BT_<type>``), one column each.
    """
    out: dict[str, _Field] = {}
    col = 0
    for line in header:
        kind, _, rest = line.partition("=")
        names = rest.split("|")
        layer, feats = names[0], names[1:]
        if kind == "#T_SP":
            roles: list[int] = []
            targets: list[int] = []
            plain = 0
            own: list[tuple[str, int]] = []
            k = 0
            feats = feats or [""]
            while k < len(feats):
                if feats[k].startswith("ROLE_") and k + 1 < len(feats):
                    roles.append(col)
                    targets.append(col + 1)
                    col += 2
                    k += 2
                    continue
                out[f"{layer}|{feats[k]}"] = _Field(col, (col,), (col,))
                own.append((feats[k], col))
                plain += 1
                col += 1
                k += 1
            if not plain:
                out[f"{layer}|"] = _Field(None, tuple(roles + targets), tuple(roles))
            for name, c in own if len(own) > 1 else ():
                out[f"{layer}|{name}"] = out[f"{layer}|{name}"]._replace(
                    features=tuple((n, k) for n, k in own if k != c and n))
        elif kind == "#T_CH":
            col += max(len(feats), 1)
        elif kind == "#T_RL":
            col += len(feats)
    return out


def _pick(columns: dict[str, _Field], field: str | None, where: str) -> str:
    if field is None:
        if len(columns) > 1:
            raise AmbiguousField(_fail(where, words(f"several span layers/features ({', '.join(columns)}); pass ",
                                                    opt("field"))), dict.fromkeys(columns, "spans"))
        if not columns:
            raise _fail(where, "no span layer (#T_SP=) in the file")
        return next(iter(columns))
    for key in columns:
        layer, feat = key.split("|")
        short = layer.rsplit(".", 1)[-1]
        if field in (key, layer, short, f"{short}|{feat}", f"{short}.{feat}"):
            return key
    raise _fail(where, f"no span layer or feature {quote(field)}; the file has {', '.join(columns)}")


def _parse(text: str, where: str, field: str | None) -> tuple[str, str, list[tuple[int, int, str, dict[str, str]]],
                                                              list[tuple[int, int]]]:
    """(field key, document text, spans as (start16, end16, label, the layer's other features), tokens as
    (start16, end16)).

    The other features of the field's layer are ``{feature: value}`` for the features with a value (an item
    ``*`` has none), read from the same stacked item as the label; the caller keeps them as the spans'
    attributes, or counts them.
    """
    lines = text.splitlines()
    if not lines or not lines[0].startswith("#FORMAT=WebAnno TSV 3"):
        raise _fail(where, "not a WebAnno TSV 3.x file (no #FORMAT=WebAnno TSV 3.x line)", 1)
    header = [ln for ln in lines[1:] if ln.startswith(("#T_SP=", "#T_CH=", "#T_RL="))]
    columns = _columns(header)
    key = _pick(columns, field, where)
    fld = columns[key]
    layer_short = key.split("|")[0].rsplit(".", 1)[-1]
    pieces: list[str] = []
    pos16 = 0
    sentence_text: list[str] = []
    tokens: list[tuple[int, int]] = []
    single: list[tuple[int, int, str, dict[str, str]]] = []
    multi: dict[str, list[Any]] = {}
    for lineno, line in enumerate(lines, start=1):
        if line.startswith("#Text="):
            sentence_text.append(_unescape_text(line[len("#Text="):]))
            continue
        if not line or line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) < 3:
            raise _fail(where, f"a token line needs id, offsets and text; got {quote(line[:60])}", lineno)
        try:
            if len(cells[1]) > 40:  # past any document's length (and past what int() reads, at 4300 digits)
                raise ValueError
            b16, e16 = (int(x) for x in cells[1].split("-"))
        except ValueError:
            raise _fail(where, f"offsets {quote(cells[1])} are not begin-end (two offsets into the document)",
                        lineno) from None
        if sentence_text:  # the first token of a sentence: place the sentence text
            s = "\n".join(sentence_text)
            sentence_text = []
            if b16 < pos16:
                raise _fail(where, f"token at {b16} overlaps the previous sentence", lineno)
            if b16 - pos16 > _MAX_GAP:  # the text between sentences is rebuilt as spaces: refuse a gigabyte of them
                raise _fail(where, f"token at {b16} lies {b16 - pos16:,} characters past the previous sentence; "
                            f"offsets that far apart are not a document's", lineno)
            pieces.append(" " * (b16 - pos16))
            pieces.append(s)
            pos16 = b16 + len(s.encode("utf-16-le")) // 2
        if "." not in cells[0]:
            tokens.append((b16, e16))
        if len(cells) <= 3 + max((*fld.present, *(c for _, c in fld.features))):
            raise _fail(where, f"no column for {key} (the line has {len(cells) - 3} annotation columns)", lineno)
        # the k-th stacked item of each of the layer's columns is the layer's k-th annotation on this token
        stacks = {c: [] if cells[3 + c] == "_" else re.split(r"(?<!\\)\|", cells[3 + c])
                  for c in (*fld.present, *(c for _, c in fld.features))}
        for k in range(max(len(items) for items in stacks.values())):
            ident = next((m.group("id") for c in fld.ids if k < len(stacks[c])
                          for m in [_ITEM.match(stacks[c][k])] if m is not None and m.group("id")), None)
            label = layer_short
            if fld.label is not None:
                m = _ITEM.match(stacks[fld.label][k])
                assert m is not None
                raw = m.group("label")  # "*" is no value; an escaped "\*" is the value "*"
                label = layer_short if raw in ("*", "") else _unescape_value(raw)
            features = {}
            for name, c in fld.features:
                m = _ITEM.match(stacks[c][k]) if k < len(stacks[c]) else None
                if m is not None and m.group("label") not in ("*", ""):
                    features[name] = _unescape_value(m.group("label"))
            if ident:
                entry = multi.setdefault(ident, [b16, e16, label, features])
                entry[0], entry[1] = min(entry[0], b16), max(entry[1], e16)
            else:
                single.append((b16, e16, label, features))
    spans = single + [(b, e, lab, feats) for b, e, lab, feats in multi.values()]
    return key, "".join(pieces), spans, tokens


def _project_json(path: Path, follow_symlinks: bool = False) -> tuple[str, str] | None:
    """(name in the export, text) of ``exportedproject.json``, the one nearest the export's root."""
    if path.is_dir():
        found = sorted((f for f in walk_files(path, follow_symlinks=follow_symlinks)
                        if f.name == "exportedproject.json"), key=lambda f: len(f.relative_to(path).parts))
        found = [f for f in found if "annotation" not in f.relative_to(path).parts]
        return (found[0].relative_to(path).as_posix(), read_text(TOOL, found[0])) if found else None
    with ZipArchive(TOOL, path) as z:
        names = sorted((n for n in z.names() if PurePosixPath(n).name == "exportedproject.json"
                        and "annotation" not in PurePosixPath(n).parts), key=lambda n: len(PurePosixPath(n).parts))
        return (names[0], read_text(TOOL, f"{path}:{names[0]}", z.read(names[0]))) if names else None


# Java's File.createTempFile(prefix, suffix) names a file prefix + an unsigned random long + suffix
_TEMP_NAME = re.compile(r"(?P<prefix>.{3,}?)(?P<number>\d{15,20})")


def _padded(user: str) -> str:
    """The prefix of INCEpTION's temporary file for *user*: the name right-padded with '_' to three characters."""
    return user.ljust(3, "_")


def _file_users(files: list[tuple[str, str]], states: dict[tuple[str, str], Any],
                has_project: bool) -> tuple[dict[tuple[str, str], str], list[str]]:
    """The user of each annotation file ``(document, file stem)``, and the notes saying how they were told.

    INCEpTION names a user's file ``<user>.tsv`` when the user name passes its own rules, and otherwise keeps
    the name of the temporary file its writer made (``AnnotationDocumentExporter.exportAdditionalFormat``,
    inception-schema, lines 323-340, and ``UimaReaderWriterFormatSupport_ImplBase.write``, inception-api-formats,
    lines 146-149, at commit 55ba8ba6adf808116b518a227194694850b65259):
    ``File.createTempFile(rightPad(<user>, 3, "_"), ".tsv")``, the name padded to three characters with ``_``
    then a random number, e.g. ``sm_4343257511917352145.tsv`` for the user ``sm`` (a name shorter than four
    characters, INCEpTION's default minimum, fails its rules; older versions kept the temporary name for every
    user).  The users ``exportedproject.json`` names are matched first (one with an annotation document for
    the file's document before others); without them, the number is cut off the name and a padding ``_``
    dropped, said in a note.  A temporary name that fits no named user is left out (the caller drops it).
    """
    named = sorted({u for _, u in states})
    owners: dict[tuple[str, str], str] = {}
    mapped: dict[str, list[str]] = {}
    for doc, stem in files:
        if stem in named or stem in _SYSTEM_USERS:
            owners[doc, stem] = stem
            continue
        temporary = _TEMP_NAME.fullmatch(stem)
        if named:
            fits = [u for u in named if stem.startswith(_padded(u)) and stem[len(_padded(u)):].isascii()
                    and stem[len(_padded(u)):].isdigit()]
            if len(fits) > 1:
                fits = [u for u in fits if (doc, u) in states] or fits
            if len(fits) > 1:
                raise _fail(f"annotation/{doc}/{stem}", "the file name is INCEpTION's temporary name for a user's "
                            f"file and fits several users of exportedproject.json: {', '.join(fits)}")
            if fits:
                owners[doc, stem] = fits[0]
                mapped.setdefault(fits[0], []).append(stem)
            elif temporary is None:
                owners[doc, stem] = stem  # a user exportedproject.json does not name: read, said in a note
            continue
        if temporary is not None:
            prefix = temporary.group("prefix")
            user = (prefix.rstrip("_") or prefix) if len(prefix) == 3 else prefix
            owners[doc, stem] = user
            mapped.setdefault(user, []).append(stem)
        else:
            owners[doc, stem] = stem
    notes = []
    if mapped:
        how = ("the users exportedproject.json names" if named else
               "users read from the names (no exportedproject.json naming users: the number cut off and a padding "
               "'_' dropped; check them)")
        shown = ", ".join(f"{u} ({plural(len(stems), 'file')}, e.g. "
                          f"{stems[0]}.tsv)" for u, stems in sorted(mapped.items()))
        notes.append(f"{plural(sum(map(len, mapped.values())), 'annotation file')} carry INCEpTION's temporary "
                     "file name (the "
                     "user name padded to three characters with '_', then a random number; INCEpTION writes it for "
                     f"a user name its rules refuse, such as one shorter than four characters), read as {how}: "
                     f"{shown}")
    return owners, notes


def _some(pairs: list[str]) -> str:
    return ", ".join(pairs[:5]) + (f" and {len(pairs) - 5} more" if len(pairs) > 5 else "")


def read(path: str | Path, *, field: str | None = None, in_progress: str = "read",
         follow_symlinks: bool = False, relations: bool = False, attributes: bool = False) -> Imported:
    """Read an INCEpTION / WebAnno project export (zip or folder) of WebAnno TSV 3.x files into spans.

    Parameters
    ----------
    path : str or Path
        The project export (zip or unpacked folder), or one WebAnno TSV file.
    field : str, optional
        The span layer or ``layer|feature`` to read; required when the files hold several.
    in_progress : {"read", "skip"}
        What to do with an annotation document ``exportedproject.json`` marks ``IN_PROGRESS`` (the
        annotator opened it and has not finished): ``"read"`` (default) reads its spans as they stand
        and says how many such documents there are; ``"skip"`` counts it as *skipped*.
    follow_symlinks : bool
        Read the files of an export folder that are symbolic links, and enter linked folders (default: left
        out, and counted in a note).
    relations : bool
        Also read the relation layers over the span layer read (:mod:`accord.importers._inception_relations`
        for TSV files, :mod:`accord.importers._inception_cas` for CAS JSON ones; ``kind="relations"``);
        otherwise each relation is counted (as dropped, or in a note for CAS JSON files).
    attributes : bool
        Read the other features of the field's layer (the ``identifier`` of a named entity beside its
        ``value``...) as the spans' attributes (:attr:`accord.spans.Span.attributes`), for
        :func:`accord.attributes.agreement`; by default their values are counted in a note, not read.

    Returns
    -------
    Imported
        Spans, and a report whose cell states follow ``exportedproject.json`` when the export holds it:
        ``FINISHED`` (and ``IN_PROGRESS``) documents are *annotated* or *empty*, ``IGNORE`` (locked) ones
        *skipped*, ``NEW`` ones and documents with no annotation document *unassigned*.

    Raises
    ------
    AccordError
        On a file that is not WebAnno TSV 3.x, a state INCEpTION does not write, offsets outside the text.
    """
    from accord.data._relations import Relation, RelationAnnotations
    from accord.data._spans import Span, SpanAnnotations

    if in_progress not in ("read", "skip"):
        raise _fail(str(path), f"in_progress must be 'read' or 'skip'; got {quote(in_progress)}")
    path = Path(path)
    project = None
    project_file: str | None = None
    skipped: list[Path] = []
    if path.is_file() and not is_zip(path):
        head = path.read_text(encoding="utf-8-sig", errors="replace")[:65536]
        if not head.startswith("#FORMAT=WebAnno TSV 3") and not is_cas_json(head):
            raise _fail(str(path), "expected a project export (zip or folder with annotation/), a WebAnno TSV file "
                        "or a UIMA CAS JSON file")
        files: list[tuple[str, str, str]] = [(path.stem, "annotator", read_text(TOOL, path))]
    else:
        files = list(_files(path, follow_symlinks, skipped))
        found = _project_json(path, follow_symlinks)
        if found is not None:
            project_file = found[0]
            project = parse_project(found[1], f"{path}, {found[0]}")
    if not files and project is None:
        raise _fail(str(path), "no annotation/<document>/<user>.tsv file (export the project as WebAnno TSV 3)")
    states = project.states if project is not None else {}
    texts: dict[str, str] = {}
    tokens: dict[str, tuple[tuple[int, int], ...]] = {}
    spans: list[Any] = []
    seen: list[tuple[str, str]] = []
    cells: list[tuple[str, str, str]] = []
    dropped: list[DroppedRecord] = []
    documents: list[str] = list(project.documents) if project is not None else []
    users: set[str] = {u for _, u in states if u not in _SYSTEM_USERS}
    chosen: str | None = None
    with_file: set[tuple[str, str]] = set()
    no_entry: list[str] = []
    not_listed: set[str] = set()
    progress: list[str] = []
    locked_spans = 0
    unread: Counter[str] = Counter()  # values of the layer's other features, when not read as attributes
    unread_parts: Counter[tuple[str, str]] = Counter()  # relation and chain layers, slot features: items
    seen_files: dict[tuple[str, str], str] = {}
    rels: list[Any] = []
    tidy = Tidy()  # labels in one form (accord._shared.ids); document and user names are file names, kept as written
    owners, name_notes = _file_users([(d, u) for d, u, _ in files], states, project is not None)
    for doc, stem, content in files:
        where = f"{path}, annotation/{doc}/{stem}"
        if doc not in documents:
            documents.append(doc)
            if project is not None:
                not_listed.add(doc)
        user = owners.get((doc, stem))
        if user is None:
            dropped.append(DroppedRecord(
                f"{doc}/{stem}", "file name is INCEpTION's temporary name for a user's file (a name padded to three "
                "characters with '_', then a number) but no user of exportedproject.json fits it: not read", None,
                stem))
            continue
        if (doc, user) in seen_files:
            raise _fail(where, f"a second annotation file of user {quote(user)} for document {quote(doc)} (the other "
                        f"is annotation/{doc}/{seen_files[(doc, user)]})")
        seen_files[(doc, user)] = stem
        if user in _SYSTEM_USERS:
            dropped.append(DroppedRecord(f"{doc}/{user}", "system user, not an annotator", None, user))
            continue
        cas = is_cas_json(content)
        if cas:
            key, text, raw, toks, links, (cas_rels, elsewhere) = parse_cas(
                content, where, field if chosen is None else chosen, _fail, _pick, relations=relations)
            unread_parts.update(links)
        else:
            key, text, raw, toks = _parse(content, where, field if chosen is None else chosen)
            # a TSV file's relations are read, or counted one by one as dropped records, below: the note counts
            # its chain layers and slot features
            unread_parts.update({part: n for part, n in unread_layers(content).items() if part[1] != "relation"})
        chosen = key
        if doc in texts and texts[doc] != text:
            raise _fail(where, f"the text of document {quote(doc)} differs from another annotator's")
        texts[doc] = text
        ix = Utf16Index(text)

        def cp(offset: int, where: str = where, ix: Utf16Index = ix) -> int:
            out = ix.to_codepoint(offset)
            if out is None:
                raise _fail(where, f"offset {offset} is outside the text or inside a character")
            return out

        if doc not in tokens:
            tokens[doc] = tuple((cp(b), cp(e)) for b, e in toks)
        users.add(user)
        with_file.add((doc, user))
        state, line = states.get((doc, user), (None, None))
        if project is not None and state is None:
            no_entry.append(f"{doc}/{user}")
        if state == "NEW":
            dropped.append(DroppedRecord(f"{doc}/{user}", "state NEW (not started) in exportedproject.json but "
                                         "the export has a file: not read", line, user))
            continue
        if state == "IGNORE" or (state == "IN_PROGRESS" and in_progress == "skip"):
            locked_spans += len(raw) if state == "IGNORE" else 0
            cells.append((doc, user, "skipped"))
            continue
        if state == "IN_PROGRESS":
            progress.append(f"{doc}/{user}")
        for b, e, label, features in raw:
            spans.append(Span(doc, cp(b), cp(e), tidy.label(label), user, attributes=features if attributes else {}))
            if features and not attributes:
                unread.update(features.keys())
        # (without relations=True, a CAS file's relation links are counted with the other parts the CAS reader
        # does not read: the note)
        if relations and cas:
            rels += [Relation(doc, user, tidy.label(t), *(Span(doc, cp(b), cp(e), tidy.label(lab), user)
                                                        for b, e, lab in (g, d)))
                     for g, d, t in cas_rels]
            dropped.extend([DroppedRecord(f"{doc}/{user}", "relation over another span layer than the one read (not "
                                          "compared)", None, user)] * elsewhere)
        elif relations:
            rels += [Relation(doc, user, tidy.label(t), *(Span(doc, cp(b), cp(e), tidy.label(lab), user)
                                                        for b, e, lab in (g, d)))
                     for g, d, t in tsv_relations(content, where, key, _fail, _unescape_value)]
            elsewhere = count_relations(content, besides=key.split("|")[0])
            dropped.extend([DroppedRecord(f"{doc}/{user}", "relation over another span layer than the one read (not "
                                          "compared)", None, user)] * elsewhere)
        elif not cas:
            dropped.extend([DroppedRecord(f"{doc}/{user}", "relation (not compared; relations=True reads it)", None,
                                          user)] * count_relations(content))
        seen.append((doc, user))
        cells.append((doc, user, "annotated" if raw else "empty"))
    for (doc, user), (state, line) in sorted(states.items()):
        if user in _SYSTEM_USERS or (doc, user) in with_file:
            continue
        if doc not in documents:
            documents.append(doc)
            not_listed.add(doc)
        if state == "IGNORE" or (state == "IN_PROGRESS" and in_progress == "skip"):
            cells.append((doc, user, "skipped"))
        elif state in ("IN_PROGRESS", "FINISHED"):
            dropped.append(DroppedRecord(f"{doc}/{user}", f"state {state} in exportedproject.json but no "
                                         "annotation file: read as unassigned", line, user))
    if not texts:
        raise _fail(str(path), "no annotation file of an annotator (export the project as WebAnno TSV 3)")
    data = SpanAnnotations.from_spans(spans, texts=texts, seen=seen, tokens=tokens, source=str(path))
    notes = [f"field: {chosen}", "offsets re-anchored from UTF-16 code units", *name_notes]
    if +unread_parts:
        parts = sorted((+unread_parts).items())
        notes.append("not read (relation and chain layers, slot features, with their items; accord layers lists "
                     "them): " + ", ".join(f"{kind} {name} ({n})" for (name, kind), n in parts))
    if unread:
        notes.append(words(f"{plural(sum(unread.values()), 'value')} of the layer's other features not read ("
                           f"{', '.join(f'{n}: {c}' for n, c in sorted(unread.items()))}); pass ",
                           opt("attributes", True), " to compare them (accord attributes)"))
    if project is None:
        if path.is_file() and not is_zip(path):
            notes.append("one annotation file: no document states (a file without spans reads as empty)")
        elif project_file is not None:
            notes.append(f"{project_file} lists no source or annotation documents: document states not read (a "
                         "file without spans reads as empty, a document without a file as unassigned)")
        else:
            notes.append("no exportedproject.json: document states not read (a file without spans reads as empty, "
                         "a document without a file as unassigned)")
    else:
        notes.append("cell states from exportedproject.json: FINISHED and IN_PROGRESS read, IGNORE (locked) "
                     "skipped, NEW or no annotation document unassigned")
        if progress:
            notes.append(words(f"{plural(len(progress), 'annotation document')} IN_PROGRESS read as they stand "
                               "(pass ", opt("in_progress", "skip"), f" to count them as skipped): {_some(progress)}"))
        if in_progress == "skip":
            notes.append(words("IN_PROGRESS annotation documents counted as skipped (", opt("in_progress", "skip"),
                               ")"))
        if locked_spans:
            notes.append(f"{plural(locked_spans, 'span')} in locked (IGNORE) documents not read")
        if no_entry:
            notes.append(f"{plural(len(no_entry), 'file has', 'files have')} no annotation document in "
                         "exportedproject.json, read "
                         f"from the file: {_some(no_entry)}")
        if not_listed:
            notes.append(f"{plural(len(not_listed), 'document')} not among exportedproject.json's source documents: "
                         f"{_some(sorted(not_listed))}")
        notes.extend(state_notes(project))
    note = symlink_note(path, skipped)
    if note:
        notes.append(note)
    report = ImportReport.from_cells(TOOL, str(path), items=documents, cells=cells, coders=sorted(users),
                                     dropped=dropped, notes=notes, stripped=tidy.stripped)
    if relations:
        return Imported(tool=TOOL, field=chosen, kind="relations", annotations=None, spans=data, report=report,
                        relations=RelationAnnotations.from_relations(rels, spans=data))
    return Imported(tool=TOOL, field=chosen, kind="spans", annotations=None, spans=data, report=report)
