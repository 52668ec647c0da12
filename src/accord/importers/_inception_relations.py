"""Relation layers of WebAnno TSV 3.x files (INCEpTION, WebAnno): each relation from its governor span to its
dependent span.

Follows the WebAnno TSV 3.3 format of INCEpTION's user guide ("WebAnno TSV 3.3", appendix of the INCEpTION
documentation): a relation layer is declared ``#T_RL=<layer>|<feature>...|BT_<span layer>``, one column per
feature and a last one for the governor. A relation stands on the first token of its dependent span: its
feature columns hold its values (stacked with ``|`` when several relations start on one token) and the
governor column the governor's token address, ``<sentence>-<token>``, followed by ``[<governor id>_<dependent
id>]`` when either span needs its annotation id to be told apart (``0`` for a span without one, which is then
the one span of the layer on that token). The relation's type is its first feature's value (``*`` or none:
the layer's short name).

An address or id that names no span of the layer is an error naming the file, the line and the relation.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["count_relations", "tsv_relations"]

_ITEM = re.compile(r"^(?P<label>.*?)(?:\[(?P<id>\d+)(?:_\d+)?\])?$", re.S)
_GOVERNOR = re.compile(r"^(?P<tok>\d+-\d+(?:\.\d+)?)(?:\[(?P<gov>\d+)_(?P<dep>\d+)\])?$")
_STACK = re.compile(r"(?<!\\)\|")

Span16 = tuple[int, int, str]  # (begin, end) in UTF-16 code units, and the label


def _layout(header: list[str]) -> tuple[dict[str, dict[str, int]], list[tuple[str, int, int | None, str]]]:
    """Each span layer's feature columns (``""``: its first column), and each relation layer's (name, governor
    column, type column or None, base span layer); columns counted as INCEpTION's reader counts them."""
    spans: dict[str, dict[str, int]] = {}
    rels = []
    col = 0
    for line in header:
        kind, _, rest = line.partition("=")
        names = rest.split("|")
        layer, feats = names[0], names[1:]
        if kind == "#T_SP":
            spans[layer] = {"": col, **{f: col + k for k, f in enumerate(feats) if f}}
            col += max(len(feats), 1)
        elif kind == "#T_CH":
            col += max(len(feats), 1)
        elif kind == "#T_RL":
            base = feats[-1][len("BT_"):] if feats and feats[-1].startswith("BT_") else ""
            rels.append((layer, col + len(feats) - 1, col if len(feats) > 1 else None, base))
            col += len(feats)
    return spans, rels


def _header(text: str) -> list[str]:
    return [ln for ln in text.splitlines()[1:] if ln.startswith(("#T_SP=", "#T_CH=", "#T_RL="))]


def count_relations(text: str, *, besides: str | None = None) -> int:
    """How many relations the file's relation layers hold (for the import report when they are not read); with
    *besides* (a span layer), those over other span layers only."""
    _, rels = _layout(_header(text))
    rels = [r for r in rels if besides is None or r[3] != besides]
    if not rels:
        return 0
    n = 0
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        cells = line.split("\t")
        for _, gcol, _, _ in rels:
            if 3 + gcol < len(cells) and cells[3 + gcol] not in ("_", ""):
                n += len(_STACK.split(cells[3 + gcol]))
    return n


def tsv_relations(text: str, where: str, span_key: str, fail: Callable[[str, str, int | None], Exception],
                  unescape: Callable[[str], str]) -> list[tuple[Span16, Span16, str]]:
    """The relations between the spans of the layer of *span_key* (``layer|feature``, labelled by the feature,
    or by the layer's name when the feature is empty) as (governor, dependent, type); *unescape* reads a value
    as the span reader does."""
    layer, _, feature = span_key.partition("|")
    short = layer.rsplit(".", 1)[-1]
    span_cols, rel_layers = _layout(_header(text))
    mine = [r for r in rel_layers if r[3] == layer]
    if layer not in span_cols or not mine:
        return []
    label_col = span_cols[layer].get(feature) if feature else None
    col = label_col if label_col is not None else span_cols[layer][""]
    by_id: dict[str, list[int | str]] = {}
    by_token: dict[str, list[Span16]] = {}
    pending = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line or line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) < 3 + col + 1:
            continue  # the span reader has refused a short line already
        address = cells[0]
        b16, e16 = (int(x) for x in cells[1].split("-"))
        for item in [] if cells[3 + col] == "_" else _STACK.split(cells[3 + col]):
            m = _ITEM.match(item)
            raw = m.group("label") if m else "*"
            label = short if label_col is None or raw in ("*", "") else unescape(raw)
            if m and m.group("id"):
                entry = by_id.setdefault(m.group("id"), [b16, e16, label])
                entry[0], entry[1] = min(int(entry[0]), b16), max(int(entry[1]), e16)
            else:
                by_token.setdefault(address, []).append((b16, e16, label))
        for name, gcol, tcol, _ in mine:
            if 3 + gcol >= len(cells) or cells[3 + gcol] in ("_", ""):
                continue
            govs = _STACK.split(cells[3 + gcol])
            types = _STACK.split(cells[3 + tcol]) if tcol is not None else []
            for k, gov in enumerate(govs):
                m = _GOVERNOR.match(gov)
                if m is None:
                    raise fail(where, f"relation layer {name}: cannot read the governor {gov!r} (SENTENCE-TOKEN, "
                                      "optionally [GOVERNOR_DEPENDENT])", lineno)
                typ = types[k] if k < len(types) else "*"
                pending.append((lineno, name, address, m.group("tok"), m.group("gov") or "0", m.group("dep") or "0",
                                name.rsplit(".", 1)[-1] if typ in ("*", "", "_") else unescape(typ)))
    out = []
    for lineno, name, address, gov_tok, gov_id, dep_id, typ in pending:
        ends = []
        for role, tok, ident in (("governor", gov_tok, gov_id), ("dependent", address, dep_id)):
            if ident != "0":
                span = by_id.get(ident)
                if span is None:
                    raise fail(where, f"relation layer {name}: its {role} id {ident} names no annotation of layer "
                                      f"{layer}", lineno)
                ends.append((int(span[0]), int(span[1]), str(span[2])))
            else:
                here = by_token.get(tok)
                if not here:
                    raise fail(where, f"relation layer {name}: its {role} at token {tok} names no annotation of "
                                      f"layer {layer} there", lineno)
                ends.append(here[0])
        out.append((ends[0], ends[1], typ))
    return out
