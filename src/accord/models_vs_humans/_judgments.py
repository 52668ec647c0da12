"""Judgments as reliability data: the judges and humans as coders, with the order an item was shown in and the run.

A judge's verdicts are reliability data like any other: one row per (item, coder, verdict).  Two optional
columns say more about the judge's rows:

- the **presentation order** (``position=``): pairwise verdicts given with the two options in both orders; the
  column holds two values, the canonical order (option A shown first) and its swap.  A verdict names a
  position (``first`` is the answer shown first) or an option (``first`` is option A wherever it was shown),
  as ``verdict_refers_to`` says; accord maps positions back to options.
- the **run** (``run=``): repeated runs of the same judge on the same items.

Pairwise verdicts are ``first``, ``second`` or ``tie`` (any case; ``A`` and ``B`` name the options too when
the position column is given); ``error`` or an empty verdict on a judge's row is a verdict the judge failed to
give (Zheng et al.'s "error").  Pointwise verdicts are labels or scores.  :func:`read_judgments` reads a file,
a table or any reliability data accord reads into :class:`Judgments`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Literal

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError, choice_error

__all__ = ["OPTION_LABELS", "TIE", "ERROR", "Judgments", "read_judgments"]

#: The option codes of pairwise verdicts and how results name them: option A (shown first in the canonical
#: order), option B, a tie.
OPTION_LABELS = ("A", "B", "tie")
TIE = 2
#: a verdict the judge failed to give (unparseable, empty)
ERROR = -2
_WORDS = {"first": 0, "second": 1, "tie": 2, "error": ERROR}
_OPTION_ALIASES = {"a": 0, "b": 1}
RefersTo = Literal["position", "option"]


@dataclass(frozen=True)
class Judgments:
    """Judgments of judges and humans, coded.

    One entry per row read: ``unit``, ``coder``, ``run`` are codes into ``units``, ``coders``, ``runs`` (run -1:
    none); ``position`` is 0 (the canonical order), 1 (swapped) or -1 (not given); ``verdict`` is the option
    code (pairwise: 0 for A, 1 for B, 2 for a tie, mapped from positions) or the index into ``values``
    (pointwise), and ``ERROR`` (-2) for a verdict the judge failed to give.
    """

    unit: np.ndarray
    coder: np.ndarray
    position: np.ndarray
    run: np.ndarray
    verdict: np.ndarray
    units: np.ndarray
    coders: np.ndarray
    runs: np.ndarray
    values: np.ndarray
    judges: np.ndarray
    humans: np.ndarray
    kind: str
    positions: tuple[Any, ...] = ()
    refers_to: str | None = None
    position_column: str | None = None
    run_column: str | None = None
    source: str | None = None
    lines: np.ndarray | None = None
    n_missing: int = 0

    @property
    def numeric(self) -> bool:
        """Pointwise scores that are numbers."""
        return self.kind == "pointwise" and self.values.dtype != object and np.issubdtype(self.values.dtype,
                                                                                           np.number)

    def value_label(self, code: int) -> Any:
        """How a result names verdict *code*."""
        if code == ERROR:
            return "error"
        if code < 0:
            return None
        return OPTION_LABELS[code] if self.kind == "pairwise" else self.values[code].item() if hasattr(
            self.values[code], "item") else self.values[code]


def _where(source: str | None) -> str:
    return f"{source}: " if source else ""


def _line(lines: np.ndarray | None, i: int) -> str:
    return f" (line {int(lines[i])})" if lines is not None else f" (row {i + 1})"


def _text(x: Any) -> str:
    """A cell as text: whole floats without their ``.0``."""
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return str(x).strip()


def _factor(col: pd.Series) -> tuple[np.ndarray, list[Any], np.ndarray]:
    """A column coded once: the codes (-1: missing), the distinct cells, and which rows are empty (missing, or
    text of spaces only; each distinct cell looked at once)."""
    codes, uniques = pd.factorize(col, use_na_sentinel=True)
    cells = uniques.tolist()
    blank = np.array([isinstance(x, str) and not x.strip() for x in cells] + [True], dtype=bool)
    return codes, cells, blank[codes]


def _frame(data: Any) -> pd.DataFrame | None:
    if isinstance(data, pd.DataFrame):
        return data
    mod = type(data).__module__
    if mod.startswith("polars"):
        import narwhals as nw

        frame = nw.from_native(data)
        if hasattr(frame, "collect"):
            frame = frame.collect()
        return frame.to_pandas()
    return None


def _columns(frame: pd.DataFrame, source: str, raw: dict[str, str], unit: str | None, coder: str | None,
             value: str | None, extra: list[str]) -> tuple[str, str, str]:
    """The unit, coder and value columns: those given, the others told from the names (as accord.read)."""
    from accord._shared.errors import missing_column_error
    from accord.data._columns import plan

    for param, col in (("position", extra[0] if len(extra) > 0 else None), ("run", extra[1] if len(extra) > 1
                                                                              else None)):
        if col is not None and col not in frame.columns:
            raise missing_column_error(source, col, frame.columns, param=param)
    rest = frame.drop(columns=[c for c in extra if c is not None])
    ra = plan(rest, source=source, raw=raw, unit=unit, coder=coder, value=value, layout="long", coders=None)
    for param, col in (("unit", ra.unit), ("coder", ra.coder), ("value", ra.value)):
        if col not in frame.columns:
            raise missing_column_error(source, str(col), frame.columns, param=param)
    return str(ra.unit), str(ra.coder), str(ra.value)


def read_judgments(
    data: Any,
    *,
    judges: Any,
    position: str | None = None,
    run: str | None = None,
    verdict_refers_to: RefersTo | None = None,
    positions: tuple[Any, Any] | list[Any] | None = None,
    unit: str | None = None,
    coder: str | None = None,
    value: str | None = None,
    sep: str | None = None,
    layout: str = "coders-by-units",
) -> Judgments:
    """Read judgments: a file or a table (long: unit, coder, value, and the position and run columns), or any
    reliability data accord reads (:class:`accord.Annotations`, an import, a matrix; no position or run there).

    See :func:`accord.judge_audit` for the parameters; this is its one reading step.
    """
    if verdict_refers_to is not None and verdict_refers_to not in ("position", "option"):
        raise choice_error("verdict_refers_to", verdict_refers_to, ("position", "option"))
    if position is not None and verdict_refers_to is None:
        raise AccordError(
            f"position={position!r} gives the order the options were shown in; say whether a verdict names a "
            "position (first: the answer shown first) or an option (first: option A wherever it was shown) with "
            "verdict_refers_to='position' or 'option'",
            cli=f"--position {position} gives the order the options were shown in; say whether a verdict names a "
                "position (first: the answer shown first) or an option (first: option A wherever it was shown) "
                "with --verdict-refers-to position or option")
    if verdict_refers_to is not None and position is None:
        raise AccordError(f"verdict_refers_to={verdict_refers_to!r} says what a verdict names in a presentation order; "
                          "it needs the column of the order (position=)",
                          cli=f"--verdict-refers-to {verdict_refers_to} says what a verdict names in a presentation "
                              "order; it needs the column of the order (--position)")
    if positions is not None and (position is None or isinstance(positions, str) or len(positions) != 2):
        raise AccordError(f"positions must be two values of the position column, the canonical order first (and "
                          f"needs position=); got {positions!r}")
    frame = _frame(data)
    source = None
    lines = None
    raw: dict[str, str] = {}
    if isinstance(data, (str, os.PathLike)):
        if position is None and run is None:
            from accord.data._read import read

            try:
                ann = read(data, unit=unit, coder=coder, value=value, sep=sep)
            except AccordError as exc:
                if "twice" not in str(exc) and "two values" not in str(exc):
                    raise
                raise AccordError(f"{exc}; a judge that judges an item more than once needs the column of the "
                                  "run (run=) or of the presentation order (position=)",
                                  cli=f"{exc.for_cli()}; a judge that judges an item more than once needs the "
                                      "column of the run (--run) or of the presentation order (--position)"
                                  ) from None
            return _from_annotations(ann, judges)
        from accord.data._read import read_table

        frame, lines = read_table(data, sep=sep)
        raw = frame.attrs.get("read", {}).get("raw", {})
        source = str(data)
    if frame is None:
        if position is not None or run is not None:
            raise AccordError("position= and run= name columns of a table; give the judgments as a file or a "
                              f"DataFrame (got {type(data).__name__})")
        from accord.models_vs_humans._roles import as_rater_data

        return _from_annotations(as_rater_data(data, layout=layout), judges)
    frame = frame.reset_index(drop=True)
    ucol, ccol, vcol = _columns(frame, source or "data", raw, unit, coder, value, [position, run])
    return _from_frame(frame, lines, source, ucol, ccol, vcol, position, run, verdict_refers_to, positions, judges)


def _roles(coders: np.ndarray, source: str | None, judges: Any) -> tuple[np.ndarray, np.ndarray]:
    from accord.models_vs_humans._roles import coder_roles

    roles = coder_roles(SimpleNamespace(coders=coders, source=source), judges, what="judges",  # type: ignore[arg-type]
                        require_human=False)
    return roles.models, roles.humans


def _pairwise_codes(texts: np.ndarray, aliases: bool) -> np.ndarray:
    codes, cells, _ = _factor(pd.Series(texts, dtype=object))
    return _word_table(cells, aliases)[codes]


def _word_table(cells: list[Any], aliases: bool) -> np.ndarray:
    """The verdict code of each distinct cell (-9: not a verdict word; the last entry, for a missing cell: an
    error)."""
    words = dict(_WORDS, **(_OPTION_ALIASES if aliases else {}))
    return np.array([words.get(str(u).strip().lower(), -9) for u in cells] + [ERROR], dtype=np.int64)


def _is_pairwise(values: list[Any]) -> bool:
    texts = {str(v).strip().lower() for v in values if isinstance(v, str)}
    return bool(values) and len(texts) == len(values) and texts <= set(_WORDS) and bool(texts - {"error"})


def _from_annotations(ann: Any, judges: Any) -> Judgments:
    models, humans = _roles(ann.coders, ann.source, judges)
    values = ann.values
    n = len(ann.unit_index)
    none = np.full(n, -1, dtype=np.int64)
    if values.dtype == object and _is_pairwise(values.tolist()):
        codes = _pairwise_codes(values, aliases=False)
        verdict = codes[ann.value_index]
        keep = np.ones(n, dtype=bool)
        is_human = np.isin(ann.coder_index, humans)
        keep &= ~(is_human & (verdict == ERROR))  # a human's "error" carries no verdict
        return Judgments(ann.unit_index[keep], ann.coder_index[keep], none[keep], none[keep], verdict[keep],
                         ann.units, ann.coders, np.array([], dtype=object), np.array(OPTION_LABELS, dtype=object),
                         models, humans, "pairwise", source=ann.source, lines=_rows(ann, keep),
                         n_missing=int(ann.n_missing + (~keep).sum()))
    return Judgments(ann.unit_index, ann.coder_index, none, none, ann.value_index.astype(np.int64), ann.units,
                     ann.coders, np.array([], dtype=object), values, models, humans, "pointwise", source=ann.source,
                     lines=_rows(ann, None), n_missing=int(ann.n_missing))


def _rows(ann: Any, keep: np.ndarray | None) -> np.ndarray | None:
    rows = getattr(ann, "_row_numbers", None)
    if rows is None:
        return None
    return rows if keep is None else rows[keep]


def _ids(codes: np.ndarray, cells: list[Any]) -> tuple[np.ndarray, np.ndarray]:
    """Codes and labels of a factored id column (:func:`_factor`), ids compared as text (1, 1.0 and "1" are one
    id); empty cells get -1."""
    from accord._shared.ids import held_ids

    valid = [i for i, x in enumerate(cells) if not (isinstance(x, str) and not x.strip())]
    merged, labels = pd.factorize(pd.Series([_text(cells[i]) for i in valid], dtype=object), sort=False)
    table = np.full(len(cells) + 1, -1, dtype=np.int64)
    table[valid] = merged
    held = held_ids(list(labels))[0]
    return table[codes], np.asarray(held, dtype=object)


def _from_frame(frame: pd.DataFrame, lines: np.ndarray | None, source: str | None, ucol: str, ccol: str,
                vcol: str, position: str | None, run: str | None, refers_to: str | None,
                positions: Any, judges: Any) -> Judgments:
    where = _where(source)
    factored = {}
    for col, what in ((ucol, "unit"), (ccol, "coder")):
        codes, cells, miss = _factor(frame[col])
        if miss.any():
            i = int(np.flatnonzero(miss)[0])
            raise AccordError(f"{where}empty {what} in column {col!r}{_line(lines, i)}")
        factored[what] = _ids(codes, cells)
    ucodes, units = factored["unit"]
    ccodes, coders = factored["coder"]
    judge_codes, human_codes = _roles(coders, source, judges)
    is_judge = np.isin(ccodes, judge_codes)
    vfactor, vcells, vmiss = _factor(frame[vcol])
    pos = np.full(len(frame), -1, dtype=np.int64)
    pos_labels: tuple[Any, ...] = ()
    if position is not None:
        pos, pos_labels = _positions(frame[position], is_judge, coders, ccodes, lines, where, position, positions)
    runs_codes = np.full(len(frame), -1, dtype=np.int64)
    run_labels = np.array([], dtype=object)
    if run is not None:
        rcodes, rcells, rmiss = _factor(frame[run])
        bad = is_judge & rmiss
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise AccordError(f"{where}judge {coders[ccodes[i]]!r} has no run in column {run!r}{_line(lines, i)}; "
                              "every judge's row needs one (humans may leave it empty)")
        runs_codes, run_labels = _ids(rcodes, rcells)
    # humans' empty verdicts are missing values; a judge's is a verdict it failed to give
    keep = ~(vmiss & ~is_judge)
    raw_values = frame[vcol].to_numpy(dtype=object)
    distinct = list(dict.fromkeys(str(x).strip().lower() if isinstance(x, str) else x
                                  for x in vcells if not (isinstance(x, str) and not x.strip())))
    pairwise = position is not None or _is_pairwise(distinct)
    if pairwise:
        codes = _word_table(vcells, position is not None)[vfactor]
        codes[vmiss] = ERROR
        bad = codes == -9
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            allowed = "first, second, tie (or A, B), or error" if position is not None else "first, second, tie"
            raise AccordError(f"{where}coder {coders[ccodes[i]]!r} on unit {units[ucodes[i]]!r}{_line(lines, i)}: "
                              f"verdict {raw_values[i]!r} names neither a position nor an option; pairwise "
                              f"verdicts are {allowed}")
        keep &= ~(~is_judge & (codes == ERROR))
        if refers_to == "position":  # a position in the swapped order names the other option
            swap = (pos == 1) & (codes >= 0) & (codes < TIE)
            codes[swap] = 1 - codes[swap]
        values = np.array(OPTION_LABELS, dtype=object)
        kind = "pairwise"
    else:
        from accord.data._codes import _as_value_array

        codes = np.full(len(frame), ERROR, dtype=np.int64)
        vals, _ = _as_value_array(np.asarray(raw_values[~vmiss], dtype=object))
        vcodes, values = pd.factorize(pd.Series(vals, dtype=object if vals.dtype == object else vals.dtype),
                                      sort=True)
        codes[~vmiss] = vcodes
        values = np.asarray(values)
        if values.dtype == object:
            try:
                values = values.astype(float) if all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                                      for v in values.tolist()) else values
            except (TypeError, ValueError):  # pragma: no cover - mixed labels stay objects
                pass
        kind = "pointwise"
    j = Judgments(ucodes[keep], ccodes[keep], pos[keep], runs_codes[keep], codes[keep], units, coders, run_labels,
                  values, judge_codes, human_codes, kind, pos_labels, refers_to if position is not None else None,
                  position, run, source, None if lines is None else np.asarray(lines)[keep],
                  int((~keep).sum()))
    _refuse_repeats(j)
    return j


def _positions(col: pd.Series, is_judge: np.ndarray, coders: np.ndarray, ccodes: np.ndarray,
               lines: np.ndarray | None, where: str, name: str, given: Any) -> tuple[np.ndarray, tuple[Any, Any]]:
    codes, cells, miss = _factor(col)
    bad = is_judge & miss
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise AccordError(f"{where}judge {coders[ccodes[i]]!r} has no position in column {name!r}{_line(lines, i)}; "
                          "every judge's row names one of the two orders (humans may leave it empty)")
    utexts = [_text(x) for x in cells]
    distinct = list(dict.fromkeys(utexts[c] for c in np.unique(codes[~miss]).tolist()))
    if len(distinct) != 2:
        shown = ", ".join(map(repr, distinct[:10])) + (", ..." if len(distinct) > 10 else "")
        raise AccordError(f"{where}the position column {name!r} holds {len(distinct)} distinct values ({shown}); it "
                          "must hold two, the canonical order and its swap",
                          cli=f"{where}the position column {name!r} (--position) holds {len(distinct)} distinct "
                              f"values ({shown}); it must hold two, the canonical order and its swap")
    if given is not None:
        wanted = [_text(g) for g in given]
        if sorted(wanted) != sorted(distinct):
            raise AccordError(f"{where}positions={list(given)!r} must be the two values of the position column "
                              f"{name!r}: {', '.join(map(repr, distinct))}")
        order = wanted
    else:
        try:
            order = sorted(distinct, key=float)
        except ValueError:
            order = sorted(distinct)
    table = np.array([0 if t == order[0] else 1 if t == order[1] else -1 for t in utexts] + [-1], dtype=np.int64)
    return table[codes], (order[0], order[1])


def _refuse_repeats(j: Judgments) -> None:
    """One verdict per judge, item, order and run; one per human and item."""
    is_judge = np.isin(j.coder, j.judges)
    n_units, n_pos, n_runs = len(j.units), 3, max(len(j.runs), 1) + 1
    # a human's position and run do not tell two verdicts apart
    key = ((j.coder * n_units + j.unit) * n_pos + np.where(is_judge, j.position + 1, 0)) * n_runs + np.where(
        is_judge, j.run + 1, 0)
    order = np.argsort(key, kind="stable")
    dup = np.flatnonzero(key[order][1:] == key[order][:-1])
    if not len(dup):
        return
    a, b = int(order[dup[0]]), int(order[dup[0] + 1])
    who = j.coders[j.coder[a]]
    where = _where(j.source)
    lines = (f" (lines {int(j.lines[a])} and {int(j.lines[b])})" if j.lines is not None else "")
    if not is_judge[a]:
        raise AccordError(f"{where}human {who!r} judges unit {j.units[j.unit[a]]!r} twice{lines}; a human gives one "
                          "verdict per item")
    parts = []
    if j.run[a] >= 0:
        parts.append(f"in run {j.runs[j.run[a]]!r}")
    if j.position[a] >= 0:
        parts.append(f"in order {j.positions[j.position[a]]!r}")
    ctx = " ".join(parts)
    head = f"{where}judge {who!r} judges unit {j.units[j.unit[a]]!r} twice{' ' + ctx if ctx else ''}{lines}"
    columns = [(what, param) for what, param, col in (("run", "run", j.run_column),
                                                      ("presentation order", "position", j.position_column))
               if col is None]
    if not columns:
        raise AccordError(head)
    said = " or ".join(f"of the {what} ({param}=)" for what, param in columns)
    said_cli = " or ".join(f"of the {what} (--{param})" for what, param in columns)
    raise AccordError(f"{head}; name the column {said}", cli=f"{head}; name the column {said_cli}")
