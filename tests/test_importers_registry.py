"""The importers' shared parts: the report of cell states, UTF-16 offsets and the --from registry."""

import pytest

from accord import AccordError
from accord.importers import TOOLS, ImportReport, guess_tool, read_export
from accord.importers._offsets import Utf16Index
from accord.importers._report import DroppedRecord


def test_report_counts_the_four_states_and_never_merges_them():
    r = ImportReport.from_cells(
        "t",
        "f.json",
        items=["a", "b", "c"],
        cells=[("a", "x", "annotated"), ("b", "x", "empty"), ("c", "x", "skipped"), ("a", "y", "annotated")],
        coders=["z"],
        dropped=[DroppedRecord("r9", "no annotator", line=4)],
    )
    assert r.counts == {
        "x": {"annotated": 1, "empty": 1, "skipped": 1, "unassigned": 0},
        "y": {"annotated": 1, "empty": 0, "skipped": 0, "unassigned": 2},
        "z": {"annotated": 0, "empty": 0, "skipped": 0, "unassigned": 3},
    }
    assert r.dropped_reasons() == {"no annotator": 1}
    assert list(r.to_frame().columns) == ["annotated", "empty", "skipped", "unassigned"]
    assert "dropped 1 record: no annotator" in r.summary()
    assert r.to_dict()["dropped"][0]["line"] == 4


def test_report_refuses_an_unknown_state():
    with pytest.raises(ValueError, match="cell state"):
        ImportReport.from_cells("t", "f", items=[], cells=[("a", "x", "seen")])


def test_utf16_offsets_after_an_emoji():
    text = "\N{GRINNING FACE}\N{GRINNING FACE} Zoë met Bob"
    ix = Utf16Index(text)
    start16 = len(text.encode("utf-16-le")[: 2 * 0]) + 5  # two emoji (4 units) and a space
    assert text[ix.to_codepoint(start16) :].startswith("Zoë")
    assert ix.to_codepoint(1) is None  # inside a surrogate pair
    assert ix.to_codepoint(ix.utf16_length) == len(text)
    assert ix.to_codepoint(ix.utf16_length + 1) is None


def test_unknown_tool_is_named_with_the_choices(tmp_path):
    f = tmp_path / "x.json"
    f.write_text("[]")
    with pytest.raises(AccordError, match="^tool must be one of label-studio") as err:  # the API's argument
        read_export(f, tool="excelsior")
    assert err.value.for_cli().startswith("--from must be one of label-studio")  # the CLI's flag
    assert "label-studio" in TOOLS


def test_missing_file_is_named(tmp_path):
    with pytest.raises(AccordError, match="no such file"):
        guess_tool(tmp_path / "nope.json")
