"""Write the example files that are not plain text: workbooks, zips and Parquet files.

    python docs/examples/make_binaries.py

They are shipped beside this script; it says what they hold. The INCEpTION project is the one of
tests/test_importers_inception.py (``_project``), the doccano zip holds tests/data/importers/doccano/ner/.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
STAMP = (2024, 1, 1, 0, 0, 0)  # a fixed date inside the zips, so that writing them again changes no byte


def _zip(path: Path, files: dict[str, str]) -> None:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name, text in files.items():
            z.writestr(zipfile.ZipInfo(name, STAMP), text.encode("utf-8"))


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
    # formulas written by a program that does not compute them: no value is stored beside them
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "long"
    for row in (("unit", "coder", "value"), ("q1", "ann", "yes"), ("q1", "bob", '=IF(1, "yes", "no")'),
                ("q2", "ann", "no"), ("q2", "bob", '=LOWER("NO")')):
        sheet.append(row)
    book.save(HERE / "importers" / "computed.xlsx")


HEADER = (
    "#FORMAT=WebAnno TSV 3.3\n"
    "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|value\n"
    "#T_SP=webanno.custom.Sentiment|polarity\n"
    "#T_RL=webanno.custom.Link|role|BT_de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity\n"
    "\n\n"
)
ALICE = HEADER + (
    "#Text=\N{WAVING HAND SIGN} Zoë Smith met Bob .\n"
    "1-1\t0-2\t\N{WAVING HAND SIGN}\t_\t_\t_\t_\n"
    "1-2\t3-6\tZoë\tPER[1]\tpos\t_\t_\n"
    "1-3\t7-12\tSmith\tPER[1]\t_\t_\t_\n"
    "1-4\t13-16\tmet\t_\t_\t_\t_\n"
    "1-5\t17-20\tBob\tPER|*[2]\t_\t_\t_\n"
    "1-6\t21-22\t.\t_\t_\t_\t_\n"
    "\n"
    "#Text=In New York .\n"
    "2-1\t23-25\tIn\t_\t_\t_\t_\n"
    "2-2\t26-29\tNew\tLOC[3]\t_\t_\t_\n"
    "2-3\t30-34\tYork\tLOC[3]\t_\t_\t_\n"
    "2-4\t35-36\t.\t_\t_\t_\t_\n"
)
BOB = ALICE.replace("LOC[3]", "GPE[3]").replace("PER|*[2]", "PER")
EMPTY = "".join(
    line if not line.startswith(("1-", "2-")) else "\t".join(line.split("\t")[:3] + ["_"] * 4) + "\n"
    for line in ALICE.splitlines(keepends=True)
)
PROJECT = """{
  "name" : "Émile's project",
  "slug" : "emiles-project",
  "mode" : "annotation",
  "source_documents" : [
    { "name" : "doc1.txt", "format" : "text", "state" : "ANNOTATION_IN_PROGRESS" },
    { "name" : "doc2.txt", "format" : "text", "state" : "ANNOTATION_IN_PROGRESS" },
    { "name" : "doc3.txt", "format" : "text", "state" : "NEW" },
    { "name" : "doc4.txt", "format" : "text", "state" : "ANNOTATION_FINISHED" }
  ],
  "annotation_documents" : [
    { "name" : "doc1.txt", "user" : "alice", "state" : "FINISHED", "annotatorState" : "FINISHED" },
    { "name" : "doc1.txt", "user" : "bob", "state" : "IN_PROGRESS" },
    { "name" : "doc1.txt", "user" : "CURATION_USER", "state" : "FINISHED" },
    { "name" : "doc2.txt", "user" : "alice", "state" : "FINISHED" },
    { "name" : "doc2.txt", "user" : "bob", "state" : "FINISHED" },
    { "name" : "doc3.txt", "user" : "alice", "state" : "IGNORE" },
    { "name" : "doc3.txt", "user" : "carol", "state" : "IGNORE" },
    { "name" : "doc4.txt", "user" : "bob", "state" : "NEW" },
    { "name" : "doc4.txt", "user" : "carol", "state" : "FINISHED", "annotatorState" : "IN_PROGRESS" }
  ],
  "version" : 1
}
"""


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
