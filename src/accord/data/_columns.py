"""Which column is which: the layout of a table and the column of each role, told from names and content.

:func:`accord.read` calls :func:`plan` when the unit, coder or value column or the layout is not given.
A column is a role's by its name, in any case and with any separator (``item``, ``Item ID``,
``sentence_id``, ``workerId``, ``ASSIGNMENT:worker_id``): the tables :data:`UNIT_NAMES`,
:data:`CODER_NAMES` and :data:`VALUE_NAMES`.  A table with a coder column is long (one row per unit,
coder and value); one without is wide (one row per unit, one column per coder) when its first column
(or a pandas index dump: an empty or ``Unnamed: 0`` header) holds one id per row and the other columns
hold codes.  Whatever cannot be told apart is refused in one message that lists every column and names
every option that settles it; nothing is guessed between a wide sheet of numeric codes and a table of
counts.  What was read is said in a :class:`ReadAs`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError, plural

__all__ = ["CODER_NAMES", "UNIT_NAMES", "VALUE_NAMES", "ReadAs", "plan", "role_of", "words"]

#: Names of a unit column, alone or before ``id``, ``no``, ``key``...: ``item``, ``doc_id``, ``sentenceId``.
UNIT_NAMES = frozenset({
    "unit", "item", "id", "doc", "document", "sentence", "question", "task", "instance", "segment", "subject",
    "case", "example", "sample", "passage", "utterance", "stimulus", "query", "uid", "qid", "docid", "itemid",
    "unitid", "taskid",
})
#: Words that name a unit only before ``id`` (and its kin): ``text_id``, ``tweet_id``, ``HITId``.
_UNIT_STEMS = frozenset({
    "text", "tweet", "post", "image", "record", "hit", "entry", "q", "sent", "snippet", "pair", "turn", "message",
    "review", "article", "page", "file", "clip", "video", "audio", "comment", "object", "input", "row", "data",
})
#: Names of a coder column, alone or before ``id``, ``name``...: ``annotator``, ``worker_id``, ``userName``.
CODER_NAMES = frozenset({
    "coder", "annotator", "rater", "user", "worker", "judge", "labeler", "labeller", "reviewer", "assessor",
    "evaluator", "participant", "respondent", "observer", "expert", "username", "workerid", "userid", "raterid",
    "annotatorid", "coderid", "judgeid",
})
#: Names of a value column: ``label``, ``score``, ``OUTPUT:result``.
VALUE_NAMES = frozenset({
    "value", "label", "labels", "score", "rating", "answer", "tag", "tags", "category", "categories", "class",
    "code", "response", "judgment", "judgement", "annotation", "grade", "choice", "choices", "decision", "result",
    "verdict",
})
_ID_SUFFIXES = frozenset({"id", "ids", "no", "nr", "num", "number", "key", "idx", "index"})
_CODER_SUFFIXES = _ID_SUFFIXES | {"name", "email", "login"}
#: Words of a column that is not annotation: times, comments, free text, bookkeeping.  Such a column is left
#: alone when the value column is told by elimination, and in a wide sheet it is not a coder.
_EXTRA_WORDS = frozenset({
    "time", "timestamp", "date", "datetime", "created", "updated", "modified", "submitted", "started", "duration",
    "seconds", "lead", "comment", "comments", "note", "notes", "remark", "remarks", "text", "url", "link",
    "source", "batch", "round", "lang", "language", "meta", "metadata", "status", "feedback", "explanation",
    "reason", "rationale", "confidence", "title", "body", "content", "context", "version", "split",
})
#: Prefixes of crowd platforms' column names (Toloka's ``INPUT:``, ``GOLDEN:``): a column under these is
#: never the coder's value or the coder.
_NOT_ANSWER_PREFIXES = frozenset({"input", "golden", "hint", "known_answer"})
_ROLES = ("unit", "coder", "value")
_FLAGS = {"unit": "--unit", "coder": "--coder", "value": "--value"}
_EXAMPLES = {"unit": "unit, item, id, doc_id, question or task", "coder": "coder, annotator, rater, worker, user "
             "or judge", "value": "value, label, score, rating, answer or category"}


def words(name: str) -> tuple[str, ...]:
    """The lower-case words of a column name: any separator, and camelCase split.

    >>> words("Item ID"), words("sentence_id"), words("workerId"), words("HITId"), words("doc-ID")
    (('item', 'id'), ('sentence', 'id'), ('worker', 'id'), ('hit', 'id'), ('doc', 'id'))
    """
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", str(name).strip())
    return tuple(w for w in re.split(r"[\W_]+", s.lower()) if w)


def role_of(name: str) -> str | None:
    """The role (``"unit"``, ``"coder"``, ``"value"``) a column's name gives it, or None.

    >>> [role_of(n) for n in ("item", "Annotator", "score", "sentence_id", "worker_id", "ASSIGNMENT:task_id",
    ...                       "OUTPUT:result", "GOLDEN:result", "ann1", "comment")]
    ['unit', 'coder', 'value', 'unit', 'coder', 'unit', 'value', None, None, None]
    """
    text = str(name)
    prefix = ""
    if ":" in text:
        prefix, text = text.rsplit(":", 1)
        prefix = "_".join(words(prefix))
    w = words(text)
    if not w:
        return None
    if prefix in ("golden", "hint", "known_answer"):
        return None
    joined = "".join(w)
    unit = (len(w) == 1 and (w[0] in UNIT_NAMES)) or (
        len(w) == 2 and w[1] in _ID_SUFFIXES and (w[0] in UNIT_NAMES or w[0] in _UNIT_STEMS))
    if unit or (len(w) > 1 and joined in UNIT_NAMES):
        return "unit"
    if prefix in _NOT_ANSWER_PREFIXES:
        return None
    if (len(w) == 1 and w[0] in CODER_NAMES) or (len(w) == 2 and w[0] in CODER_NAMES and w[1] in _CODER_SUFFIXES):
        return "coder"
    if len(w) == 1 and w[0] in VALUE_NAMES:
        return "value"
    return None


def _is_extra(name: str) -> bool:
    w = words(str(name).rsplit(":", 1)[-1])
    return bool(w) and (any(x in _EXTRA_WORDS for x in w) or w[-1] == "at" or (len(w) > 1 and w[-1] in _ID_SUFFIXES))


def _index_dump(name: str, position: int) -> bool:
    """A pandas index written into the file: the first column, with an empty, ``Unnamed: 0`` or ``index`` header."""
    return position == 0 and (name == "" or re.fullmatch(r"Unnamed: 0(_level_0)?", name) is not None
                              or name == "index")


def show(name: str) -> str:
    """A column name as a message shows it: quoted."""
    return repr(str(name))


def _names(cols: Sequence[str], limit: int = 8) -> str:
    """Column names for a sentence: as they are, quoted where a name could be misread (empty, spaces around,
    commas, semicolons, brackets, pandas' ``Unnamed: 0``)."""
    def one(c: str) -> str:
        plain = c and c.strip() == c and not re.search(r"[,;()]", c) and not c.startswith("Unnamed: ")
        return c if plain else repr(c)

    shown = ", ".join(one(str(c)) for c in cols[:limit])
    return shown + (f" and {len(cols) - limit} more" if len(cols) > limit else "")


@dataclass(frozen=True)
class ReadAs:
    """How :func:`accord.read` read a table: the layout, the column of each role, and what it left alone.

    Attributes
    ----------
    layout : {"long", "wide", "counts"}
    unit, coder, value : str or None
        The columns read (``coder`` and ``value`` in the long layout only; ``unit`` None when a table of
        counts has no unit column and its units are its line numbers).
    coders : tuple of str
        Wide layout: the coder columns; counts: the category columns.
    inferred : tuple of str
        What was told from the file rather than given: ``"layout"``, ``"unit"``, ``"coder"``, ``"value"``,
        ``"coders"``, ``"sep"``.
    left_alone : tuple of str
        Columns not read (timestamps, comments, a pandas index, repeated columns not used).
    repeated : tuple of str
        Header names that occur more than once (none of them read).
    sep : str or None
        The delimiter of a text table.
    bom : bool
        The file began with a UTF-8 byte-order mark (skipped).
    stripped : int
        Header names whose surrounding spaces were removed.
    files : tuple of str
        A folder read as one table: its files.
    """

    layout: str
    unit: str | None = None
    coder: str | None = None
    value: str | None = None
    coders: tuple[str, ...] = ()
    inferred: tuple[str, ...] = ()
    left_alone: tuple[str, ...] = ()
    repeated: tuple[str, ...] = ()
    sep: str | None = None
    default_sep: str | None = field(default=None, repr=False)
    bom: bool = False
    stripped: int = 0
    files: tuple[str, ...] = ()

    def __str__(self) -> str:
        unit = "line number" if self.unit is None else _names([self.unit])
        if self.layout == "long":
            head = f"long: unit={unit}, coder={_names([self.coder or ''])}, value={_names([self.value or ''])}"
        elif self.layout == "wide":
            head = f"wide: unit={unit}, {plural(len(self.coders), 'coder column')}: {_names(list(self.coders))}"
        else:
            head = f"counts: unit={unit}, {plural(len(self.coders), 'category', 'categories')}: " \
                   f"{_names(list(self.coders))}"
        said = []
        if self.left_alone:
            said.append(f"{plural(len(self.left_alone), 'column')} left alone: {_names(list(self.left_alone))}")
        if self.repeated:
            said.append(f"{plural(len(self.repeated), 'repeated column')} left alone: {_names(list(self.repeated))}")
        if self.sep is not None and self.sep != self.default_sep:
            said.append("separator " + {"\t": "tab", ",": "comma", ";": "semicolon", "|": "pipe"}.get(
                self.sep, repr(self.sep)))
        if self.bom:
            said.append("a byte-order mark skipped")
        if self.stripped:
            said.append(f"{plural(self.stripped, 'column name')} stripped of spaces")
        if self.files:
            said.append(f"{plural(len(self.files), 'file')}: {_names(list(self.files), 4)}")
        return head + (f" ({'; '.join(said)})" if said else "")

    def to_dict(self) -> dict[str, Any]:
        """The fields, and ``text``: the sentence :func:`str` gives."""
        return {"layout": self.layout, "unit": self.unit, "coder": self.coder, "value": self.value,
                "coders": list(self.coders), "inferred": list(self.inferred), "left_alone": list(self.left_alone),
                "repeated": list(self.repeated), "sep": self.sep, "bom": self.bom, "stripped": self.stripped,
                "files": list(self.files), "text": str(self)}


# ------------------------------------------------------------------------------------------------- planning


def _refusal(source: str, columns: Sequence[str], problems: Sequence[str]) -> AccordError:
    head = f"{source}: cannot tell which column is which ({'; '.join(problems)}); the columns are " \
           f"{', '.join(map(show, columns))}: "
    long_api = "name them with unit=, coder= and value= (long: one row per unit, coder and value)"
    long_cli = "name them with --unit, --coder and --value (long: one row per unit, coder and value)"
    tail_api = (", or pass layout='wide' (one row per unit, one column per coder; unit= names the unit column) "
                "or layout='counts' (one row per unit, one column per category, each cell a count)")
    tail_cli = (", or pass --layout wide (one row per unit, one column per coder; --unit names the unit column) "
                "or --layout counts (one row per unit, one column per category, each cell a count)")
    return AccordError(head + long_api + tail_api, cli=head + long_cli + tail_cli)


def repeated_error(source: str, name: str, role: str, positions: Sequence[int]) -> AccordError:
    """The error for a repeated header name of a column accord would read."""
    where = ", ".join(str(p + 1) for p in positions)
    return AccordError(f"{source}: the header names {show(name)} {len(positions)} times (columns {where}), and "
                       f"accord reads it as the {role}: keep one of them, or rename the others")


def refuse_repeated(frame: pd.DataFrame, source: str, read: Mapping[str, str | None] | Sequence[tuple[str, Any]], *,
                    info: Mapping[str, Any] | None = None) -> None:
    """Refuse a column of *frame* (as :func:`accord.data._read.read_table` read it) that accord reads as a role when the
    file names it more than once: a repeated header name (pandas renames the second ``x.1``) or a JSON-lines key a
    record gives twice.  *read* maps each role (``"unit"``, ``"coder"``, ...) to its column (None: not read);
    *info* is how the file was read (default ``frame.attrs["read"]``)."""
    info = frame.attrs.get("read", {}) if info is None else info
    raw = info.get("raw", {})
    raw_names = [raw.get(str(c), str(c)) for c in frame.columns]
    twice = info.get("repeated_keys") or {}
    for role, col in (read.items() if isinstance(read, Mapping) else read):
        if col is None:
            continue
        name = raw.get(col, col)
        positions = [i for i, r in enumerate(raw_names) if r == name]
        if len(positions) > 1:
            raise repeated_error(source, name, role, positions)
        if col in twice:
            raise AccordError(f"{source}, line {twice[col]}: the record gives the key {show(col)} twice (JSON keeps "
                              f"the last, silently), and accord reads it as the {role}: keep one")


def _convert(col: pd.Series) -> pd.Series:
    from accord.data._cells import _convert_column

    return _convert_column(col.astype(object)) if col.dtype == object else col


def _whole_count(x: Any) -> bool:
    if isinstance(x, (bool, np.bool_)):
        return False
    if isinstance(x, (int, np.integer)):
        return x >= 0
    if isinstance(x, (float, np.floating)):
        return bool(np.isfinite(x) and x >= 0 and float(x).is_integer())
    return False


def _key(x: Any) -> Any:
    if isinstance(x, (list, tuple, np.ndarray)):
        return tuple(_key(v) for v in x)
    if isinstance(x, dict):
        return str(x)
    if isinstance(x, np.generic):
        return x.item()
    return x


def _codes_problem(frame: pd.DataFrame, cols: Sequence[str]) -> str | None:
    """Why the columns *cols* do not look like coders' codes (None when they do): each text column shares a
    value with another; numbers are codes."""
    sets: dict[str, set[Any]] = {}
    for c in cols:
        col = _convert(frame[c]).dropna()
        if len(col) and pd.api.types.infer_dtype(col, skipna=True) in ("integer", "floating", "mixed-integer-float"):
            continue
        sets[c] = {_key(x) for x in col.tolist()}
    if not sets:
        return None
    everything: Counter[Any] = Counter()
    for s in sets.values():
        everything.update(s)
    lonely = [c for c, s in sets.items() if s and not any(everything[x] > 1 for x in s)]
    if lonely and len(cols) > 1:
        return (f"{plural(len(lonely), 'column')} beside the unit share no value with the others, so they are "
                f"not one column per coder: {', '.join(map(show, lonely))}")
    return None


def plan(
    frame: pd.DataFrame,
    *,
    source: str,
    raw: Mapping[str, str],
    unit: str | None,
    coder: str | None,
    value: str | None,
    layout: str | None,
    coders: Sequence[str] | None,
) -> ReadAs:
    """The layout and columns to read *frame* with: those given, the others told from names and content.

    *raw* maps each column of *frame* to its name in the file's header (pandas renames a second ``x`` to
    ``x.1``): a repeated name that accord would read is an error naming it; one it does not read is left
    alone and counted.  A given name that is not a column is left for the reader's own error ("missing
    column").
    """
    columns = [str(c) for c in frame.columns]
    raw_names = [raw.get(c, c) for c in columns]
    counts = Counter(raw_names)
    positions = {n: [i for i, r in enumerate(raw_names) if r == n] for n in counts if counts[n] > 1}
    first_of = {c for c in columns if raw.get(c, c) == c}  # the first column of each header name
    dump = [c for i, c in enumerate(columns) if _index_dump(raw.get(c, c), i)]

    def check_repeat(col: str | None, role: str) -> None:
        if col is not None and raw.get(col, col) in positions:
            raise repeated_error(source, raw.get(col, col), role, positions[raw.get(col, col)])

    def left(used: Sequence[str | None]) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The columns not read, and the repeated header names not read (said apart)."""
        alone = [c for c in columns if c not in used]
        rep = tuple(dict.fromkeys(raw.get(c, c) for c in alone if raw.get(c, c) in positions))
        return tuple(c for c in alone if raw.get(c, c) not in positions), rep

    if layout in ("wide", "counts"):
        coder = value = None  # the long layout's columns
    given_cols = [c for c in (unit, coder, value) if c is not None]
    if any(c not in columns for c in given_cols):
        # a given name the file does not have: the reader's own message names it (as before inference existed)
        if layout in ("wide", "counts"):
            return ReadAs(layout, unit, coders=tuple(coders if coders is not None else
                                                     [c for c in columns if c != unit]))
        return ReadAs("long", unit or "unit", coder or "coder", value or "value")
    if layout is None and (coder is not None or value is not None):
        layout = "long"
    elif layout is None and coders is not None:
        layout = "wide"
    inferred: list[str] = []

    # candidates by name (each header name once; the index dump is never a candidate)
    named: dict[str, list[str]] = {r: [] for r in _ROLES}
    for c in columns:
        if c in given_cols or c in dump or c not in first_of:
            continue
        r = role_of(raw.get(c, c))
        if r is not None:
            named[r].append(c)
    for r in _ROLES:  # a column named as the role itself (accord's own default name) is that role, as it always was
        if len(named[r]) > 1 and r in named[r]:
            named[r] = [r]

    if layout in (None, "long"):
        problems: list[str] = []
        chosen: dict[str, str | None] = {"unit": unit, "coder": coder, "value": value}
        for r in ("unit", "coder"):
            if chosen[r] is None:
                if len(named[r]) == 1:
                    chosen[r] = named[r][0]
                    inferred.append(r)
                elif len(named[r]) > 1:
                    problems.append(f"{len(named[r])} columns could be the {r}: {', '.join(map(show, named[r]))}")
                else:
                    problems.append(f"no column has a name of the {r} such as {_EXAMPLES[r]}")
        if value is None:
            if len(named["value"]) == 1:
                chosen["value"] = named["value"][0]
                inferred.append("value")
            elif len(named["value"]) > 1:
                problems.append(f"{len(named['value'])} columns could be the value: "
                                f"{', '.join(map(show, named['value']))}")
            else:
                taken = {chosen["unit"], chosen["coder"], *named["unit"], *named["coder"]}
                rest = [c for c in columns if c not in taken and c not in dump and c in first_of
                        and raw.get(c, c) not in positions and not _is_extra(raw.get(c, c))
                        and frame[c].notna().any()]
                if len(rest) == 1:
                    chosen["value"] = rest[0]
                    inferred.append("value")
                else:
                    what = f"; {len(rest)} others could be: {', '.join(map(show, rest))}" if rest else ""
                    problems.append(f"no column has a name of the value such as {_EXAMPLES['value']}{what}")
        coder_found = coder is not None or len(named["coder"]) >= 1
        if not problems or layout == "long" or coder_found or named["value"]:
            if problems:
                raise _refusal(source, columns, problems)
            for r in _ROLES:
                check_repeat(chosen[r], r)
            alone, rep = left([chosen["unit"], chosen["coder"], chosen["value"]])
            if inferred and layout is None:
                inferred.insert(0, "layout")
            return ReadAs("long", chosen["unit"], chosen["coder"], chosen["value"], inferred=tuple(inferred),
                          left_alone=alone, repeated=rep)
        long_problems = problems
    else:
        long_problems = []

    # wide or counts: one row per unit
    inferred = []
    problems = []
    unit_col = unit
    if unit_col is None:
        if len(named["unit"]) == 1:
            unit_col = named["unit"][0]
        elif len(named["unit"]) > 1:
            problems.append(f"{len(named['unit'])} columns could be the unit: {', '.join(map(show, named['unit']))}")
        elif dump:
            unit_col = dump[0]
        elif layout == "counts":
            first = _convert(frame[columns[0]]).dropna()
            unit_col = None if len(first) and all(_whole_count(x) for x in first.tolist()) else columns[0]
        else:
            unit_col = columns[0]
        if unit_col is not None or layout == "counts":
            inferred.append("unit")
    if problems:
        raise _refusal(source, columns, problems)
    if layout in ("wide", "counts"):
        check_repeat(unit_col, "unit")
        others = [c for c in columns if c != unit_col] if coders is None else list(coders)
        if coders is None and unit_col not in dump and dump:
            others = [c for c in others if c not in dump]
        role = "coder" if layout == "wide" else "category"
        for c in others:
            check_repeat(c, f"column of a {role}")
        if coders is None:
            inferred.append("coders")
        alone, rep = left([unit_col, *others])
        return ReadAs(layout, unit_col, coders=tuple(others), inferred=tuple(inferred), left_alone=alone,
                      repeated=rep)

    # layout not given and no coder column: wide when the first column holds one id per row and the others codes
    assert unit_col is not None
    ids = frame[unit_col]
    if ids.isna().any() or ids.astype(str).duplicated().any():
        raise _refusal(source, columns, long_problems)
    others = [c for c in columns if c != unit_col and c not in dump and c in first_of
              and not _is_extra(raw.get(c, c)) and frame[c].notna().any()]
    rest_named = [c for c in others if role_of(raw.get(c, c)) is not None]
    if len(others) < 2 or rest_named:
        raise _refusal(source, columns, long_problems)
    codes = _codes_problem(frame, others)
    if codes is not None:
        raise _refusal(source, columns, [*long_problems, codes])
    for c in others:
        check_repeat(c, "column of a coder")
    cells = pd.concat([_convert(frame[c]) for c in others], ignore_index=True)
    if cells.notna().all() and all(_whole_count(x) for x in cells.tolist()):
        head = (f"{source}: every cell beside the unit column {show(unit_col)} is a whole number of 0 or more: the "
                f"file may be a table of counts (one row per unit, one column per category) as easily as a wide sheet "
                f"of numeric codes (one column per coder); say which with ")
        raise AccordError(head + "layout='counts' or layout='wide'", cli=head + "--layout counts or --layout wide")
    alone, rep = left([unit_col, *others])
    return ReadAs("wide", unit_col, coders=tuple(others), inferred=("layout", *inferred, "coders"),
                  left_alone=alone, repeated=rep)
