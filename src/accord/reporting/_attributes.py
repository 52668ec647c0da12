"""The span report's section on the spans' attributes: alpha per attribute over the aligned spans."""

from __future__ import annotations

import math
import warnings
from typing import Any

from accord._shared.errors import plural
from accord.reporting._page import DataTable, Fact, Section

__all__ = ["attributes_section"]


def attributes_section(data: Any, *, match: str, max_rows: int) -> tuple[Section | None, dict[str, Any] | None]:
    """The section (and its JSON) when some span of *data* carries attributes, else ``(None, None)``."""
    if not any(s.attributes for s in data.spans):
        return None, None
    from accord.attributes._agreement import agreement

    with warnings.catch_warnings():  # an undefined alpha is said in its row
        warnings.simplefilter("ignore")
        res = agreement(data, match=match)
    rows = tuple((a.name, a.kind, a.distance, a.alpha if math.isfinite(a.alpha) else None, a.n_units,
                  a.n_pairable_units, a.n_values, a.n_unaligned, a.undefined_reason or "")
                 for a in res.attributes)
    unaligned = tuple((u.document, u.coder, u.label, f"[{u.start}, {u.end})", u.reason)
                      for u in res.unaligned[:max_rows])
    paras = (f"Krippendorff's alpha for each attribute over the spans two or more annotators marked alike ({match} "
             "match), on the labels the attribute was found on. A binary attribute (set or not) absent from an "
             "aligned span counts as false; a valued attribute left unset is missing. Spans only one annotator "
             "marked are listed, not scored.",)
    note = f"Showing {max_rows:,} of {len(res.unaligned):,} spans." if len(res.unaligned) > max_rows else ""
    section = Section(
        id="attributes", title="Attributes: agreement per attribute", paragraphs=paras,
        facts=(Fact("aligned spans", res.n_aligned), Fact("spans only one annotator marked", len(res.unaligned)),
               Fact("attributes", plural(len(res.attributes), "attribute"))),
        tables=(DataTable(name="attribute_alpha", title="Alpha per attribute",
                          columns=("attribute", "kind", "distance", "alpha", "units", "pairable units", "values",
                                   "unaligned", "undefined because"),
                          rows=rows, kinds=("text", "text", "text", "num", "num", "num", "num", "num", "text")),
                DataTable(name="attribute_unaligned", title="Spans only one annotator marked",
                          columns=("document", "coder", "label", "span", "why"), rows=unaligned, note=note)),
    )
    return section, res.to_dict()
