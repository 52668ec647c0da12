"""Free-text, ranking and pairwise answers as the tools write them, made into accord's values.

Shared by the Label Studio, Argilla and Prodigy readers, which each call one
function per answer with the place (file, record, coder) for messages:

- free text is a ``str`` (kind ``text``; the ``levenshtein`` distance by default);
- a ranking is a tuple of tie groups, best first (:func:`accord.distances.ranking`; kind ``ranking``,
  the ``kendall`` distance by default);
- a pairwise preference is the nominal ``"first"``, ``"second"`` or ``"tie"``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from accord._shared.errors import AccordError
from accord.importers._common import fail, quote

__all__ = ["argilla_ranking", "label_studio_buckets", "label_studio_min_text", "label_studio_pairwise",
           "label_studio_ranker", "label_studio_text", "label_studio_value", "text_answer"]

#: Label Studio's ``Pairwise`` control: which side was chosen -> the preference
_SIDES = {"left": "first", "right": "second"}


def text_answer(tool: str, path: Path, value: Any, kw: dict[str, Any]) -> str | None:
    """A free-text answer: the text, or None when there is none (an empty text is no answer)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise fail(tool, path, f"a text answer must be text; got {quote(value)}", **kw)
    return value if value.strip() else None


def label_studio_text(path: Path, regions: list[dict[str, Any]], kw: dict[str, Any]) -> str | None:
    """A ``textarea`` control's answer: its regions' ``value.text`` lists, joined line by line.

    Label Studio keeps each line the annotator submitted as one element of ``text`` (and each region of a
    ``perRegion`` textarea apart, which the reader leaves out before this).
    """
    lines: list[str] = []
    for r in regions:
        texts = (r.get("value") or {}).get("text")
        if isinstance(texts, str):
            texts = [texts]
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            raise fail("label-studio", path, f"a textarea value must be a list of texts; got {quote(texts)}", **kw)
        lines.extend(texts)
    return text_answer("label-studio", path, "\n".join(lines), kw) if lines else None


def label_studio_min_text(path: Path, value: Any, kw: dict[str, Any]) -> str | None:
    """A textarea in Label Studio's JSON-MIN export: one line bare, several as ``{"text": [lines]}`` (or a list
    of such regions)."""
    if isinstance(value, str):
        return text_answer("label-studio", path, value, kw)
    regions = [value] if isinstance(value, dict) else value
    if not isinstance(regions, list) or not all(isinstance(r, dict) for r in regions):
        raise fail("label-studio", path, f"a text answer must be text or {{'text': [...]}}; got {quote(value)}", **kw)
    return label_studio_text(path, [{"value": r} for r in regions], kw)


def label_studio_ranker(path: Path, regions: list[dict[str, Any]], kw: dict[str, Any]) -> tuple[frozenset, ...] | None:
    """A ``Ranker`` control's answer: ``value.ranker`` maps the List's name to its item ids in the order given.

    With ``Bucket`` tags the map has one key per bucket (and ``_`` for the items left in the list): buckets
    sort items into groups, not into an order, and are read by :func:`label_studio_buckets` instead.
    """
    from accord.distances._rank import ranking

    if len(regions) > 1:
        raise fail("label-studio", path, f"{len(regions)} ranker regions in one annotation; a ranker answers once",
                   **kw)
    ranked = (regions[0].get("value") or {}).get("ranker")
    if isinstance(ranked, dict):
        if len(ranked) != 1 or "_" in ranked:
            raise fail("label-studio", path, "a Ranker with buckets sorts items into groups "
                       f"({', '.join(map(quote, ranked))}), which are not a ranking; accord reads a Ranker "
                       "without buckets", **kw)
        ranked = next(iter(ranked.values()))
    if not isinstance(ranked, list) or not all(isinstance(x, (str, int)) and not isinstance(x, bool)
                                               for x in ranked):
        raise fail("label-studio", path, f"a ranker value must list item ids; got {quote(ranked)}", **kw)
    if not ranked:
        return None
    try:
        return ranking([str(x) for x in ranked])
    except AccordError as exc:
        raise fail("label-studio", path, str(exc), **kw) from None


def label_studio_buckets(path: Path, regions: list[dict[str, Any]], kw: dict[str, Any]) -> frozenset | None:
    """A ``Ranker`` with ``Bucket`` tags: the set of ``(bucket, item id)`` pairs the annotator placed.

    Label Studio's Ranker documentation (https://labelstud.io/tags/ranker): with buckets, items "can be moved to
    these buckets, and resulting groups will be exported as a dict ``{ bucket-name-1: [array of ids in this
    bucket], ... }``"; the items left in the list are stored under ``_``, "an internal value".  The buckets are
    groups with no order among them, so the answer is which item went to which bucket (a set, compared as
    sets are), not a ranking; the items under ``_`` were placed nowhere and are left out.
    """
    if len(regions) > 1:
        raise fail("label-studio", path, f"{len(regions)} ranker regions in one annotation; a ranker answers once",
                   **kw)
    ranked = (regions[0].get("value") or {}).get("ranker")
    if not isinstance(ranked, dict) or not all(
            isinstance(ids, list) and all(isinstance(x, (str, int)) and not isinstance(x, bool) for x in ids)
            for ids in ranked.values()):
        raise fail("label-studio", path, "a Ranker with buckets must map each bucket to a list of item ids; got "
                   f"{quote(ranked)}", **kw)
    placed: dict[str, str] = {}
    for bucket, ids in ranked.items():
        if bucket == "_":
            continue
        for item in map(str, ids):
            if item in placed:
                raise fail("label-studio", path, f"item {quote(item)} is in two buckets, {quote(placed[item])} and "
                           f"{quote(bucket)}", **kw)
            placed[item] = str(bucket)
    return frozenset((bucket, item) for item, bucket in placed.items())


def label_studio_pairwise(path: Path, regions: list[dict[str, Any]], kw: dict[str, Any]) -> str | None:
    """A ``Pairwise`` control's answer: ``value.selected`` is ``left`` or ``right`` -> ``first`` or ``second``."""
    chosen = {(r.get("value") or {}).get("selected") for r in regions}
    chosen.discard(None)
    if len(chosen) > 1:
        raise fail("label-studio", path, f"several pairwise choices {sorted(map(str, chosen))} in one annotation",
                   **kw)
    if not chosen:
        return None
    side = chosen.pop()
    if side not in _SIDES:
        raise fail("label-studio", path, f"a pairwise choice must be 'left' or 'right'; got {quote(side)}", **kw)
    return _SIDES[side]


def argilla_ranking(path: Path, value: Any, kw: dict[str, Any]) -> tuple[frozenset, ...] | None:
    """A ``ranking`` question's answer: a list of ``{"value", "rank"}`` (equal ranks tie), or of values in order.

    Argilla's RankingQuestion lets annotators give two options the same rank; a rank left empty leaves the
    option out of the answer.
    """
    from accord.distances._rank import ranking

    if value is None or value == []:
        return None
    if not isinstance(value, list):
        raise fail("argilla", path, f"a ranking answer must be a list; got {quote(value)}", **kw)
    try:
        if all(isinstance(x, dict) for x in value):
            ranks: dict[str, float] = {}
            for x in value:
                if "value" not in x:
                    raise AccordError(f"a ranking entry must be {{value, rank}}; got {quote(x)}")
                if x.get("rank") is None:
                    continue  # an option the annotator left unranked
                if str(x["value"]) in ranks:
                    raise AccordError(f"a ranking names option {quote(x['value'])} twice")
                ranks[str(x["value"])] = x["rank"]
            return ranking(ranks) if ranks else None
        if all(isinstance(x, str) for x in value):
            return ranking(value)
    except AccordError as exc:
        raise fail("argilla", path, str(exc), **kw) from None
    raise fail("argilla", path, f"a ranking answer must list {{value, rank}} objects or option values; got "
               f"{quote(value)}", **kw)


def label_studio_value(path: Path, ctype: str, regions: list[dict[str, Any]], kw: dict[str, Any]) -> Any:
    """The answer of a ``textarea``, ``ranker`` (``ranker-buckets``: with buckets) or ``pairwise`` control (one
    annotation's regions of it)."""
    read = {"textarea": label_studio_text, "ranker": label_studio_ranker, "ranker-buckets": label_studio_buckets,
            "pairwise": label_studio_pairwise}[ctype]
    return read(path, regions, kw)
