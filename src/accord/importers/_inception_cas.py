"""INCEpTION's UIMA CAS JSON annotation files: the span layers, their features, the tokens and the text.

Follows the UIMA JSON CAS draft specification (Apache UIMA, ``uima-uimaj-io-jsoncas``, ``SPECIFICATION.adoc``)
as INCEpTION writes it (its "UIMA CAS JSON" export format, ``annotation/<document>/<user>.json``): a JSON
object with ``%TYPES`` (the type system: each type's ``%SUPER_TYPE`` and features), ``%FEATURE_STRUCTURES`` (an
array of objects, each with ``%ID``, ``%TYPE`` and its features; a feature whose name starts with ``@`` holds
the ``%ID`` of another feature structure; an array holds its values under ``%ELEMENTS``) and ``%VIEWS`` (each
view's ``%SOFA`` and ``%MEMBERS``). The text is the ``sofaString`` of the ``_InitialView``'s Sofa; an
annotation has ``begin`` and ``end`` into it, counted, as INCEpTION (Java) counts them, in UTF-16 code units.

A span layer is a type of the view's members with ``begin`` and ``end``, other than the document's own
annotations, tokens and sentences, and other than relation layers (a ``Governor`` and a ``Dependent``) and
chains (``next`` links, ``first`` elements): its fields are ``<type>|<feature>`` for each primitive feature
(a string array is a multi-valued feature, read as the tuple of its values), or ``<type>|`` when it has none,
as the WebAnno TSV reader names them. The feature asked for is the label; the others are the span's features.

A relation layer (INCEpTION's relation layers, ``webanno.custom.<Name>`` with ``Governor`` and ``Dependent``
features) is a type whose feature structures reference two annotations: ``"@Governor": <%ID>`` and
``"@Dependent": <%ID>``, the ``@`` marking a reference. Asked for (``relations=True``), each relation whose
governor and dependent are annotations of the span layer read is the relation from the governor's span to
the dependent's, typed, as the TSV reader types it, by the value of the layer's first feature (declared in
``%TYPES``, else the first met), or by the layer's short name when that is unset or ``*``; a relation over
another layer's annotations (tokens, say) is counted, not read.

Not public: :mod:`accord.importers._inception` reads an export with it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from accord._shared.errors import AccordError

__all__ = ["is_cas_json", "parse_cas"]

Span16 = tuple[int, int, str]  # (begin, end) in UTF-16 code units, and the label

_NOT_LAYERS = {"uima.tcas.Annotation", "uima.tcas.DocumentAnnotation",
               "de.tudarmstadt.ukp.dkpro.core.api.metadata.type.DocumentMetaData",
               "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Token",
               "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Sentence"}
_NOT_SPANS = _NOT_LAYERS - {"uima.tcas.Annotation"}  # their subtypes are not layers either
_TOKEN = "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Token"
_PRIMITIVE = {"uima.cas.String", "uima.cas.Boolean", "uima.cas.Integer", "uima.cas.Long", "uima.cas.Short",
              "uima.cas.Byte", "uima.cas.Float", "uima.cas.Double", "uima.cas.StringArray"}
_OWN = {"begin", "end", "sofa"}
_LINKS = ({"Governor", "Dependent"}, {"next"}, {"first"})  # relation layers, chain links, chains


def is_cas_json(text: str) -> bool:
    """Whether *text* looks like a UIMA CAS JSON document (an object whose keys include ``%FEATURE_STRUCTURES``)."""
    head = text.lstrip("\ufeff \t\r\n")[:4096]
    return head.startswith("{") and '"%FEATURE_STRUCTURES"' in text[:1_000_000]


def _supers(types: dict[str, Any], name: str) -> list[str]:
    out, seen = [name], {name}
    while isinstance(types.get(out[-1]), dict) and isinstance(types[out[-1]].get("%SUPER_TYPE"), str):
        nxt = types[out[-1]]["%SUPER_TYPE"]
        if nxt in seen:
            break
        seen.add(nxt)
        out.append(nxt)
    return out


def parse_cas(text: str, where: str, field: str | None, fail: Callable[..., AccordError],
              pick: Callable[[dict[str, Any], str | None, str], str] | None, *, relations: bool = False) -> tuple[
                  str, str, list[tuple[int, int, str, dict[str, Any]]], list[tuple[int, int]],
                  dict[tuple[str, str], int], tuple[list[tuple[Span16, Span16, str]], int]]:
    """``(field key, text, spans as (begin16, end16, label, features), tokens, unread, (relations, elsewhere))``
    of one CAS JSON file; *unread* counts the relations and chain links of each relation and chain layer
    (``(layer, "relation" or "chain")``), which are not spans.

    *pick* chooses the field among the layer keys as the TSV reader does (an ambiguous or unknown field is its
    error); without it no field is read (the key is empty, the spans none: what :func:`accord.importers.layers`
    asks for the counts). *fail* makes an error naming *where*. With *relations*, the relations over the span
    layer read are returned as (governor, dependent, type), each argument as (begin16, end16, label), and
    counted in *elsewhere* when over another layer's annotations, instead of in *unread*.
    """
    try:
        doc = json.loads(text.lstrip("\ufeff"))
    except ValueError as exc:
        raise fail(where, f"not valid JSON ({exc})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("%FEATURE_STRUCTURES"), list):
        raise fail(where, "not a UIMA CAS JSON document (no %FEATURE_STRUCTURES array)")
    types = doc.get("%TYPES") if isinstance(doc.get("%TYPES"), dict) else {}
    by_id: dict[Any, dict[str, Any]] = {}
    for n, fs in enumerate(doc["%FEATURE_STRUCTURES"]):
        if not isinstance(fs, dict) or not _int(fs.get("%ID")) or not isinstance(fs.get("%TYPE"), str):
            raise fail(where, f"feature structure {n} has no %ID (an integer) or %TYPE")
        by_id[fs["%ID"]] = fs
    views = doc.get("%VIEWS") if isinstance(doc.get("%VIEWS"), dict) else {}
    view = views.get("_InitialView") if isinstance(views.get("_InitialView"), dict) else {}
    sofa = by_id.get(view.get("%SOFA")) if _int(view.get("%SOFA")) else None
    if sofa is None:  # no view says which: the initial view's Sofa
        sofa = next((fs for fs in by_id.values() if fs["%TYPE"] == "uima.cas.Sofa"
                     and fs.get("sofaID", "_InitialView") == "_InitialView"), None)
    if sofa is None or not isinstance(sofa.get("sofaString"), str):
        raise fail(where, "no text: the _InitialView has no Sofa with a sofaString")
    members = view.get("%MEMBERS")
    pool = ([by_id[i] for i in members if _int(i) and i in by_id] if isinstance(members, list)
            else list(by_id.values()))
    layers: dict[str, list[str]] = {}  # span layer -> its primitive features, in the order first met
    tokens: list[tuple[int, int]] = []
    anchored = []
    unread: dict[tuple[str, str], int] = {}
    links: list[dict[str, Any]] = []  # the relation layers' feature structures, read once the spans are
    for fs in pool:
        if relations and "@Governor" in fs and "@Dependent" in fs:
            links.append(fs)
            continue
        if "^begin" in fs or "^end" in fs:  # the specification's anchor marker, where a writer uses it
            fs = {**fs, "begin": fs.get("begin", fs.get("^begin")), "end": fs.get("end", fs.get("^end"))}
        if not _int(fs.get("begin")) or not _int(fs.get("end")):
            continue
        if not 0 <= fs["begin"] <= fs["end"]:
            raise fail(where, f"feature structure {fs['%ID']} ({fs['%TYPE']}) has begin {fs['begin']} and end "
                       f"{fs['end']}: they must be offsets into the text, begin first")
        kind = fs["%TYPE"]
        if kind == _TOKEN:
            tokens.append((fs["begin"], fs["end"]))
        declared = types.get(kind) if isinstance(types.get(kind), dict) else {}
        names = {k.lstrip("@^") for k in fs if not k.startswith("%")} | {k for k in declared if not k.startswith("%")}
        if kind in _NOT_LAYERS or set(_supers(types, kind)[1:]) & _NOT_SPANS:
            continue
        if any(link <= names for link in _LINKS):
            what = "relation" if _LINKS[0] <= names else "chain"
            unread[(kind.rsplit(".", 1)[-1], what)] = unread.get((kind.rsplit(".", 1)[-1], what), 0) + 1
            continue
        own = layers.setdefault(kind, [])
        for name in (*(k for k in declared if not k.startswith("%") and _primitive(types, declared[k])),
                     *(k.lstrip("^") for k in fs if not k.startswith(("%", "@"))),
                     *(k[1:] for k in fs if k.startswith("@") and _strings(by_id, fs[k]) is not None)):
            if name not in own and name not in _OWN:
                own.append(name)
        anchored.append(fs)
    if pick is None:
        return "", sofa["sofaString"], [], sorted(tokens), unread, ([], 0)
    keys = {f"{layer}|{f}": (layer, f) for layer, fs_ in layers.items() for f in (fs_ or [""])}
    key = pick(keys, field, where)
    layer, label_feature = keys[key]
    short = layer.rsplit(".", 1)[-1]
    spans = []
    span_at: dict[int, Span16] = {}
    for fs in anchored:
        if fs["%TYPE"] != layer:
            continue
        values = {}
        for name in layers[layer]:
            value = fs.get(name, fs.get(f"^{name}"))
            if f"@{name}" in fs:
                value = _strings(by_id, fs[f"@{name}"])
            if isinstance(value, list):
                value = tuple(str(v) for v in value if v is not None) or None
            elif value is not None and not isinstance(value, (str, int, float, bool)):
                raise fail(where, f"feature structure {fs['%ID']} ({layer}): feature {name!r} holds a JSON "
                           f"{type(value).__name__}, not a value")
            if value is not None and value != "":
                values[name] = value
        raw = values.pop(label_feature, None) if label_feature else None
        label = short if raw is None else ("|".join(raw) if isinstance(raw, tuple) else str(raw))
        spans.append((fs["begin"], fs["end"], label, values))
        span_at[fs["%ID"]] = (fs["begin"], fs["end"], label)
    return key, sofa["sofaString"], spans, sorted(tokens), unread, _relations(links, span_at, by_id, types, where,
                                                                               fail)


def _relations(links: list[dict[str, Any]], span_at: dict[int, Span16], by_id: dict[Any, dict[str, Any]],
               types: dict[str, Any], where: str, fail: Callable[..., AccordError],
               ) -> tuple[list[tuple[Span16, Span16, str]], int]:
    """The relations among *links* between spans of the layer read (*span_at*: %ID -> span), typed by their
    layer's first feature; and how many join other annotations."""
    first: dict[str, str | None] = {}  # each relation layer's first feature
    for fs in links:
        kind = fs["%TYPE"]
        if kind not in first:
            declared = types.get(kind) if isinstance(types.get(kind), dict) else {}
            names = [k for k in declared if not k.startswith("%") and _primitive(types, declared[k])]
            names += [k for k in fs if not k.startswith(("%", "@", "^")) and k not in _OWN]
            first[kind] = next((n for n in names if n not in ("Governor", "Dependent")), None)
    out, elsewhere = [], 0
    for fs in links:
        ends = []
        for role in ("Governor", "Dependent"):
            ref = fs[f"@{role}"]
            if not _int(ref) or ref not in by_id:
                raise fail(where, f"relation {fs['%ID']} ({fs['%TYPE']}): its {role} {ref!r} names no feature "
                           "structure of the file")
            ends.append(span_at.get(ref))
        if ends[0] is None or ends[1] is None:
            elsewhere += 1
            continue
        feature = first[fs["%TYPE"]]
        value = fs.get(feature) if feature is not None else None
        if value is not None and not isinstance(value, (str, int, float, bool)):
            raise fail(where, f"relation {fs['%ID']} ({fs['%TYPE']}): feature {feature!r} holds a JSON "
                       f"{type(value).__name__}, not a value")
        typ = fs["%TYPE"].rsplit(".", 1)[-1] if value in (None, "", "*") else str(value)
        out.append((ends[0], ends[1], typ))
    return out, elsewhere


def _primitive(types: dict[str, Any], feature: Any) -> bool:
    """Whether a declared feature holds values (a string, a number, a string array, a tagset's string subtype),
    not links to other feature structures."""
    rng = feature.get("%RANGE") if isinstance(feature, dict) else None
    return isinstance(rng, str) and bool({*_supers(types, rng)} & _PRIMITIVE)


def _int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _strings(by_id: dict[Any, dict[str, Any]], ref: Any) -> list[Any] | None:
    """The elements of the string array *ref* points to (None when it is not one: a link to an annotation)."""
    target = by_id.get(ref) if _int(ref) else None
    if target is None or target.get("%TYPE") != "uima.cas.StringArray":
        return None
    elements = target.get("%ELEMENTS")
    return elements if isinstance(elements, list) else None
