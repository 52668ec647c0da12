"""Long coreference records read into arrays: the columns of tuples or a frame, mentions grouped into chains
by their codes, a value per mention, codes ranked as pandas sorts them (the steps :class:`CorefAnnotations`
is built with)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError


def _sort_rank(uniques: np.ndarray) -> np.ndarray:
    """Rank of each unique value in sorted order, or appearance order if the values do not sort."""
    try:
        order = np.argsort(uniques, kind="stable")
    except TypeError:
        return np.arange(len(uniques), dtype=np.int64)
    rank = np.empty(len(uniques), dtype=np.int64)
    rank[order] = np.arange(len(uniques), dtype=np.int64)
    return rank


def _factorize(values: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """Codes (-1 for null) and uniques (in order of first appearance) of hashable values, tuples included."""
    codes, uniques = pd.factorize(values, sort=False, use_na_sentinel=True)
    out = np.empty(len(uniques), dtype=object)
    out[:] = list(uniques)
    return np.asarray(codes, dtype=np.int64), out


def _kept(tokens: Mapping[Hashable, Any], documents: set[Hashable]) -> dict[Hashable, Any]:
    return {d: t for d, t in tokens.items() if d in documents}


def _group(chain_row: np.ndarray, ids: np.ndarray) -> list[frozenset[Hashable]]:
    """Group mention ids by chain code (>= 0), classes ordered by their first mention."""
    valid = np.flatnonzero(chain_row >= 0)
    if valid.size == 0:
        return []
    codes = chain_row[valid]
    _, first, inv = np.unique(codes, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    groups: list[list[Hashable]] = [[] for _ in range(len(order))]
    for pos, g in zip(valid.tolist(), rank[inv].tolist(), strict=True):
        groups[g].append(ids[pos])
    return [frozenset(g) for g in groups]


def _per_mention(values: pd.Series | None, global_idx: np.ndarray, n_mentions: int) -> np.ndarray | None:
    """The first non-empty value of each mention among its records (object array), or None when there is none."""
    if values is None:
        return None
    arr = values.to_numpy(dtype=object)
    ok = values.notna().to_numpy() & (values.astype(str).str.strip() != "").to_numpy()
    if not ok.any():
        return None
    idx = np.flatnonzero(ok)
    mentions, first = np.unique(global_idx[idx], return_index=True)
    out = np.full(n_mentions, None, dtype=object)
    out[mentions] = arr[idx[first]]
    out.setflags(write=False)
    return out


def _columns(
    records: Any, document: str, mention: str, coder: str, chain: str, text: str | None = None,
    sentence: str | None = None,
) -> tuple[pd.Series, pd.Series, pd.Series, pd.Series, pd.Series | None, pd.Series | None]:
    """The four columns of long records given as tuples or a DataFrame, as pandas Series, and the optional
    text and sentence columns of a DataFrame (None when not asked for or absent)."""
    if not isinstance(records, (pd.DataFrame, Mapping)) and hasattr(records, "columns"):
        try:
            import narwhals as nw

            records = nw.from_native(records, eager_only=True).to_pandas()
        except TypeError as exc:  # pragma: no cover - exotic frame
            raise AccordError(f"records: cannot read a {type(records).__name__} as a table") from exc
    if isinstance(records, pd.DataFrame):
        missing = [c for c in (document, mention, coder, chain) if c not in records.columns]
        if missing:
            raise AccordError(
                f"records: column(s) {missing} not found (columns: {list(records.columns)}); "
                "name them with document=, mention=, coder=, chain="
            )
        cols = [records[c].reset_index(drop=True) for c in (document, mention, coder, chain)]
        if cols[1].dtype == object:
            cols[1] = cols[1].map(lambda m: tuple(m) if isinstance(m, list) else m)
        extra = [records[c].reset_index(drop=True).astype(object) if c is not None and c in records.columns
                 else None for c in (text, sentence)]
        return cols[0], cols[1], cols[2], cols[3], extra[0], extra[1]
    if isinstance(records, (str, bytes, Mapping)):
        raise AccordError(
            f"records must be an iterable of (document, mention, coder, chain) tuples or a DataFrame, "
            f"got {type(records).__name__}"
        )
    docs: list[Any] = []
    ments: list[Any] = []
    cods: list[Any] = []
    chs: list[Any] = []
    for i, rec in enumerate(records):
        try:
            d, m, c, h = rec
        except (TypeError, ValueError):
            raise AccordError(
                f"records: record {i} is not a (document, mention, coder, chain) 4-tuple: {rec!r}"
            ) from None
        docs.append(d)
        ments.append(tuple(m) if isinstance(m, list) else m)
        cods.append(c)
        chs.append(h)
    return (*(_object_series(x) for x in (docs, ments, cods, chs)), None, None)  # type: ignore[return-value]


def _object_series(values: list[Any]) -> pd.Series:
    arr = np.empty(len(values), dtype=object)
    arr[:] = values
    return pd.Series(arr, dtype=object)
