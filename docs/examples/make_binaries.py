"""Write the example files that are not plain text: workbooks, zips and Parquet files.

    python docs/examples/make_binaries.py

They are shipped beside this script; it says what they hold. The INCEpTION project is the one of
tests/test_importers_inception.py (``_project``), the doccano zip holds tests/data/importers/doccano/ner/.
"""

from __future__ import annotations

import re
import sys
import zipfile
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "tests"))

# the INCEpTION project's files: one copy, the test module's
from test_importers_inception import ALICE, BOB, EMPTY, PROJECT  # noqa: E402

STAMP = (2024, 1, 1, 0, 0, 0)  # a fixed date inside the zips, so that writing them again changes no byte


def _zip(path: Path, files: dict[str, str]) -> None:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name, text in files.items():
            z.writestr(zipfile.ZipInfo(name, STAMP), text.encode("utf-8"))


#: ISO date-times a workbook's writer stamps in its properties (openpyxl's docProps/core.xml, odfpy's meta.xml)
_WRITTEN_AT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z?")


def _unstamped(path: Path) -> None:
    """Rewrite the workbook *path* (a zip) with the fixed date in its entries and properties, so that writing it
    again changes no byte (openpyxl and odfpy stamp the time of writing)."""
    with zipfile.ZipFile(path) as z:
        entries = [(info, z.read(info)) for info in z.infolist()]
    stamp = "{:04d}-{:02d}-{:02d}T{:02d}:{:02d}:{:02d}".format(*STAMP)
    with zipfile.ZipFile(path, "w") as z:
        for info, data in entries:
            if info.filename in ("docProps/core.xml", "meta.xml"):
                data = _WRITTEN_AT.sub(stamp + ("Z" if info.filename.startswith("docProps") else ""),
                                       data.decode("utf-8")).encode("utf-8")
            fixed = zipfile.ZipInfo(info.filename, STAMP)
            fixed.compress_type, fixed.external_attr = info.compress_type, info.external_attr
            z.writestr(fixed, data)


def workbooks() -> None:
    long = pd.DataFrame({"unit": ["q1", "q1", "q2", "q2", "q3", "q4"],
                         "coder": ["ann", "bob", "ann", "bob", "ann", "bob"],
                         "label": ["yes", "yes", "no", None, "yes", "no"]})
    scores = pd.DataFrame({"item": ["i1", "i2", "i3", "i4", "i5", "i6"],
                           "ann": [4, 2, 5, 1, 3, 4], "bob": [4, 3, 5, 2, 3, 5]})
    for suffix, engine in (("xlsx", "openpyxl"), ("ods", "odf")):
        with pd.ExcelWriter(HERE / "importers" / f"round1.{suffix}", engine=engine) as w:
            long.to_excel(w, sheet_name="long", index=False)
            scores.to_excel(w, sheet_name="scores", index=False)
        _unstamped(HERE / "importers" / f"round1.{suffix}")
    # formulas written by a program that does not compute them: no value is stored beside them
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "long"
    for row in (("unit", "coder", "value"), ("q1", "ann", "yes"), ("q1", "bob", '=IF(1, "yes", "no")'),
                ("q2", "ann", "no"), ("q2", "bob", '=LOWER("NO")')):
        sheet.append(row)
    book.save(HERE / "importers" / "computed.xlsx")
    _unstamped(HERE / "importers" / "computed.xlsx")


def zips() -> None:
    _zip(HERE / "importers" / "project.zip", {
        "exportedproject.json": PROJECT,
        "annotation/doc1.txt/alice.tsv": ALICE,
        "annotation/doc1.txt/bob.tsv": BOB,
        "annotation/doc1.txt/INITIAL_CAS.tsv": EMPTY,
        "annotation/doc2.txt/alice.tsv": EMPTY,
        "annotation/doc3.txt/carol.tsv": ALICE,
        "annotation/doc4.txt/carol.tsv": EMPTY,
        "annotation/doc4.txt/dave.tsv": EMPTY,
    })
    doccano = ROOT / "tests" / "data" / "importers" / "doccano" / "ner"
    _zip(HERE / "importers" / "doccano.zip",
         {p.name: p.read_text(encoding="utf-8") for p in sorted(doccano.glob("*.jsonl"))})


def parquet() -> None:
    """Two Parquet files of one long table (unit, coder, value): 8 units, 3 coders, ratings 1 to 5."""
    ratings = {"u1": (4, 4, 5), "u2": (2, 2, 2), "u3": (5, 4, 5), "u4": (1, 2, 1),
               "u5": (3, 3, 4), "u6": (4, 5, 4), "u7": (2, 1, 2), "u8": (3, 3, 3)}
    rows = [(unit, coder, value) for unit, values in ratings.items()
            for coder, value in zip(("ann1", "ann2", "ann3"), values, strict=True)]
    frame = pd.DataFrame(rows, columns=["unit", "coder", "value"])
    folder = HERE / "engines" / "data"
    folder.mkdir(parents=True, exist_ok=True)
    frame.iloc[:12].to_parquet(folder / "part-0.parquet", index=False)
    frame.iloc[12:].to_parquet(folder / "part-1.parquet", index=False)


if __name__ == "__main__":
    workbooks()
    zips()
    parquet()
