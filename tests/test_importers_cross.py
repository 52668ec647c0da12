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
    from accord.importers import doccano, labelstudio, prodigy

    for src, read in ((FIXTURES["label-studio"][0], labelstudio.read), (FIXTURES["prodigy"][0], prodigy.read),
                      (DATA / "doccano" / "cls" / "alice.jsonl", doccano.read)):
        f = tmp_path / src.name
        f.write_bytes(b"\xef\xbb\xbf" + src.read_bytes())
        kw = {"field": "sentiment"} if read is labelstudio.read else {}
        assert read(f, **kw).report.n_items > 0
