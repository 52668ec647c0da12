"""The parts of a WebAnno TSV 3.x file the span reader does not read: relation (``#T_RL``) and chain (``#T_CH``)
layers and slot (link) features, counted as the stacked items on token rows (the format's description in
INCEpTION's user guide, appendix "WebAnno TSV 3.3": a relation layer's columns are its features then the
governor; a chain layer's, its features; a slot feature's, the roles then the targets).

Not public: the INCEpTION importer's report and :func:`accord.importers.layers` use it.
"""

from __future__ import annotations

import re

__all__ = ["WHY", "unread_layers"]

#: Why each kind of part is not measured.
WHY = {"relation": "a relation layer: read by accord relations, over the span layer it links",
       "chain": "a chain layer (coreference): not read from INCEpTION (accord coref reads CoNLL and CorefUD)",
       "slot feature": "a slot (link) feature: its links are not compared"}
_STACK = re.compile(r"(?<!\\)\|")


def unread_layers(content: str) -> dict[tuple[str, str], int]:
    """``(name, kind) -> items`` for each relation layer, chain layer and slot feature the file declares
    (``kind``: ``relation``, ``chain``, ``slot feature``; a declared part with no item counts 0)."""
    lines = content.splitlines()
    columns: list[tuple[str, str, int]] = []  # (name, kind, column)
    col = 0
    for line in lines:
        kind, _, rest = line.partition("=")
        if kind not in ("#T_SP", "#T_CH", "#T_RL"):
            continue
        layer, *feats = rest.split("|")
        short = layer.rsplit(".", 1)[-1]
        if kind == "#T_SP":
            k = 0
            feats = feats or [""]
            while k < len(feats):
                if feats[k].startswith("ROLE_") and k + 1 < len(feats):
                    columns.append((f"{short}|{feats[k]}", "slot feature", col))
                    col, k = col + 2, k + 2
                else:
                    col, k = col + 1, k + 1
        else:
            columns.append((short, "chain" if kind == "#T_CH" else "relation", col))
            col += max(len(feats), 1) if kind == "#T_CH" else len(feats)
    counts = {(name, kind): 0 for name, kind, _ in columns}
    if not columns:
        return counts
    for line in lines:
        if not line or line.startswith("#"):
            continue
        cells = line.split("\t")
        for name, kind, c in columns:
            if 3 + c < len(cells) and cells[3 + c] not in ("_", ""):
                counts[(name, kind)] += len(_STACK.split(cells[3 + c]))
    return counts
