"""Every importer refuses every other tool's export with an AccordError (never another exception),
and the guess names the right tool for each fixture."""

from pathlib import Path

import pytest

from accord import AccordError
from accord.importers import guess_tool, read_export

DATA = Path(__file__).parent / "data" / "importers"
FIXTURES = {
    "label-studio": [DATA / "labelstudio" / "export.json", DATA / "labelstudio" / "export_min.json"],
    "prodigy": [DATA / "prodigy" / "ner.jsonl", DATA / "prodigy" / "choice.jsonl", DATA / "prodigy" / "binary.jsonl"],
    "doccano": [DATA / "doccano" / "ner", DATA / "doccano" / "cls", DATA / "doccano" / "old.jsonl"],
    "argilla": [DATA / "argilla" / "dataset", DATA / "argilla" / "dataset" / "records.json",
                DATA / "argilla" / "records_flat.jsonl"],
}
MINE = ("label-studio", "prodigy", "doccano", "argilla", "spreadsheet")
CASES = [(tool, f) for tool in MINE for owner, files in FIXTURES.items() if owner != tool for f in files]


@pytest.mark.parametrize("tool, export", CASES, ids=[f"{t}-{f.parent.name}-{f.name}" for t, f in CASES])
def test_another_tools_export_is_an_accord_error(tool, export):
    with pytest.raises(AccordError, match=tool if tool != "spreadsheet" else "spreadsheet|directory|sheet"):
        read_export(export, tool=tool)


@pytest.mark.parametrize("owner, export", [(o, f) for o, fs in FIXTURES.items() for f in fs],
                         ids=lambda x: x if isinstance(x, str) else x.name)
def test_guess_names_the_tool(owner, export):
    assert guess_tool(export) == owner


def test_a_byte_order_mark_is_read_past(tmp_path):
    from accord.importers import _doccano as doccano
    from accord.importers import _labelstudio as labelstudio
    from accord.importers import _prodigy as prodigy

    for src, read in ((FIXTURES["label-studio"][0], labelstudio.read), (FIXTURES["prodigy"][0], prodigy.read),
                      (DATA / "doccano" / "cls" / "alice.jsonl", doccano.read)):
        f = tmp_path / src.name
        f.write_bytes(b"\xef\xbb\xbf" + src.read_bytes())
        kw = {"field": "sentiment"} if read is labelstudio.read else {}
        assert read(f, **kw).report.n_items > 0


def test_a_file_that_is_not_utf8_is_named_by_every_importer(tmp_path):
    """A file saved in Latin-1 (é as the byte 0xE9) is an AccordError naming the tool and the file, whichever
    importer reads it, files inside folders and zips included: never a UnicodeDecodeError."""
    import zipfile

    from accord import AccordError
    from accord.importers import read_export

    latin = '{"id": 1, "text": "caf\xe9", "label": ["A"]}\n'.encode("latin-1")
    (tmp_path / "doccano.jsonl").write_bytes(latin)
    users = tmp_path / "users"
    users.mkdir()
    (users / "alice.jsonl").write_bytes(latin)
    with zipfile.ZipFile(tmp_path / "doccano.zip", "w") as z:
        z.writestr("alice.jsonl", latin)
    tsv = "#FORMAT=WebAnno TSV 3.3\n#T_SP=webanno.custom.X|value\n\n\n#Text=caf\xe9\n1-1\t0-4\tcaf\xe9\t_\t\n"
    project = tmp_path / "project" / "annotation" / "d1.txt"
    project.mkdir(parents=True)
    (project / "alice.tsv").write_bytes(tsv.encode("latin-1"))
    (tmp_path / "diff.csv").write_bytes("Type,Collection,Document,Layer,Feature,Position,Flags,al\n"
                                        "SpanPosition,p,d,L,f,0-4 [caf\xe9],USED,X\n".encode("latin-1"))
    (tmp_path / "ls.json").write_bytes('[{"id": 1, "data": {"text": "caf\xe9"}, "annotations": []}]'.encode("latin-1"))
    cases = [("doccano", tmp_path / "doccano.jsonl", "doccano.jsonl"),
             ("doccano", users, "alice.jsonl"),
             ("doccano", tmp_path / "doccano.zip", "doccano.zip:alice.jsonl"),
             ("inception", tmp_path / "project", "annotation/d1.txt/alice.tsv"),
             ("inception-agreement", tmp_path / "diff.csv", "diff.csv"),
             ("label-studio", tmp_path / "ls.json", "ls.json")]
    for tool, path, named in cases:
        with pytest.raises(AccordError, match=rf"{tool} export .*{named}.*not UTF-8 text"):
            read_export(path, tool=tool)
