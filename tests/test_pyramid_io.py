"""DUCView .pyr/.pan and JSON reading and writing: round trips, known defects, safe XML."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from accord._shared.errors import AccordError
from accord.pyramid import (
    PeerAnnotation,
    Pyramid,
    Span,
    load_schema,
    peer_annotation_from_json,
    peer_annotation_to_json,
    pyramid_from_json,
    pyramid_to_json,
    read_json,
    read_peer_annotation,
    read_pyramid,
    score_peer,
    write_json,
    write_peer_annotation,
    write_pyramid,
)

DATA = Path(__file__).parent / "data" / "pyramid"


def _structure(p: Pyramid):
    return (
        p.text,
        [(m.start, m.end) for m in p.models],
        [(s.id, s.label, [c.spans for c in s.contributors]) for s in p.scus],
        p.start_regex,
    )


def test_read_small_pyramid():
    p = read_pyramid(DATA / "small.pyr")
    assert p.n_models == 3 and p.weights() == {1: 3, 2: 2, 3: 1}
    assert p.model_text(1).startswith("----- D1.M.B\nPlaid Cymru, whose policy")
    # The part spanning a line break has a label without the newline (DUCView strips it): info only.
    assert [d.kind for d in p.defects] == ["label-newline"]
    assert p.check().ok


def test_round_trip_pyr(tmp_path):
    p = read_pyramid(DATA / "small.pyr")
    out = tmp_path / "copy.pyr"
    write_pyramid(p, out)
    q = read_pyramid(out)
    assert _structure(q) == _structure(p)
    assert q == replace(p, name=q.name)


def test_round_trip_built_pyramid(tmp_path):
    p = Pyramid.from_models(
        [
            "== 1\nSaudi officials, under American pressure, asked Afghan leaders",
            "== 2\nsought help from Saudi officials",
        ],
        [
            {
                "id": 1,
                "label": "Americans asked Saudis for help",
                "contributors": [
                    {"model": 0, "parts": ["Saudi officials, under American pressure"]},
                    {"model": 1, "parts": ["sought help from Saudi officials"]},
                ],
            },
            {
                "id": 2,
                "label": "Saudis asked Afghans",
                "contributors": [{"model": 0, "parts": ["asked Afghan leaders"]}],
            },
        ],
        separator="\n",
    )
    with pytest.raises(AccordError, match="start_regex"):
        write_pyramid(p)
    xml = write_pyramid(replace(p, start_regex=r"== \d"), tmp_path / "b.pyr")
    assert "<!DOCTYPE pyramid [" in xml
    q = read_pyramid(tmp_path / "b.pyr")
    assert q.n_models == 2 and not q.defects
    assert [(s.id, s.label) for s in q.scus] == [
        (1, "Americans asked Saudis for help"),
        (2, "Saudis asked Afghans"),
    ]
    assert [[c.spans for c in s.contributors] for s in q.scus] == [
        [c.spans for c in s.contributors] for s in p.scus
    ]
    assert q.weights() == p.weights() == {1: 2, 2: 1}


def test_defects_file_reports_each_defect_with_file_scu_and_offsets():
    p = read_pyramid(DATA / "defects.pyr")
    by_kind = {d.kind: d for d in p.defects}
    assert set(by_kind) == {
        "crlf",
        "offset-off-by-one",
        "label-newline",
        "offset-mismatch",
        "end-before-start",
        "duplicate-model-contributor",
        "contributor-spans-models",
    }
    d = by_kind["offset-off-by-one"]
    assert (d.scu_id, d.start, d.end, d.repaired) == (1, 14, 49, True) and "defects.pyr" in str(d)
    assert (by_kind["end-before-start"].scu_id, by_kind["end-before-start"].start) == (2, 276)
    assert by_kind["offset-mismatch"].scu_id == 2 and by_kind["offset-mismatch"].start == 0
    assert by_kind["duplicate-model-contributor"].scu_id == 3
    assert "'lost seats' at 158-168" in by_kind["duplicate-model-contributor"].message
    assert by_kind["contributor-spans-models"].scu_id == 4
    assert not by_kind["contributor-spans-models"].repaired
    # Repairs pinned by the labels: the spans now hold the label text.
    clean = read_pyramid(DATA / "small.pyr")
    assert [c.spans for c in p.scu(1).contributors] == [c.spans for c in clean.scu(1).contributors]
    assert [c.spans for c in p.scu(2).contributors] == [c.spans for c in clean.scu(2).contributors]
    # Without repair the offsets stay as written.
    raw = read_pyramid(DATA / "defects.pyr", repair=False)
    assert raw.scu(1).contributors[0].spans == (Span(14, 49),)
    # Duplicates merged on request.
    merged = read_pyramid(DATA / "defects.pyr", duplicates="merge")
    assert len(merged.scu(3).contributors) == 1
    assert any(d.kind == "duplicate-model-contributor" and d.repaired for d in merged.defects)


def test_no_start_regex_falls_back_to_blank_lines():
    p = read_pyramid(DATA / "no_regex.pyr")
    assert [d.kind for d in p.defects] == ["no-start-regex"]
    assert p.n_models == 2 and p.weights() == {1: 2, 3: 1}
    q = read_pyramid(DATA / "no_regex.pyr", start_regex=r"(?m)^Plaid Cymru")
    assert q.n_models == 2 and not q.defects


def test_pan_read_score_and_round_trip(tmp_path):
    peer = read_peer_annotation(DATA / "small_peer.pan")
    assert [p.scu_id for p in peer.pses] == [1, 2, 0]
    assert peer.text.endswith("Turnout was low.")
    s = score_peer(peer)
    # Weights 3, 2, 1; X = 3 -> Max 6; raw 3 + 2 = 5; X_a = 6 / 3 = 2 -> Max 5.
    assert (s.raw, s.max_original, s.x_a, s.max_modified) == (5, 6, 2, 5)
    write_peer_annotation(peer, tmp_path / "x.pan")
    again = read_peer_annotation(tmp_path / "x.pan")
    assert again.pses == peer.pses and again.text == peer.text
    assert _structure(again.pyramid) == _structure(peer.pyramid)


def test_pan_with_unmarked_uid0_is_reported():
    peer = read_peer_annotation(DATA / "uid0_unmarked.pan")
    d = [d for d in peer.defects if d.kind == "uid0-unmarked"]
    assert len(d) == 1 and d[0].scu_id == 0 and "never marked" in d[0].message
    assert peer.text[d[0].start : d[0].end].startswith("for Wales")


@pytest.mark.parametrize("name", ["bomb.pyr", "xxe.pyr"])
def test_entity_bomb_and_external_entity_refused(name):
    with pytest.raises(AccordError, match="refused"):
        read_pyramid(DATA / name)


def test_external_dtd_refused_and_bad_xml():
    # An external DTD is never fetched (expat does not load it); the document itself is read.
    xml = '<?xml version="1.0"?><!DOCTYPE pyramid SYSTEM "http://example.invalid/x.dtd"><pyramid/>'
    assert read_pyramid(xml).scus == ()
    with pytest.raises(AccordError, match="not well-formed"):
        read_pyramid("<pyramid><text>")
    with pytest.raises(AccordError, match="uid"):
        read_pyramid(
            '<pyramid><text><line>a</line></text><scu uid="x" label=""><contributor label="">'
            '<part label="a" start="0" end="1"/></contributor></scu></pyramid>'
        )
    with pytest.raises(AccordError, match="no such file or folder"):
        read_pyramid(DATA / "missing.pyr")


def test_json_round_trip_and_schema(tmp_path):
    p = read_pyramid(DATA / "small.pyr")
    assert pyramid_from_json(json.loads(json.dumps(pyramid_to_json(p)))) == replace(p, name=p.name)
    peer = read_peer_annotation(DATA / "small_peer.pan")
    back = peer_annotation_from_json(json.loads(json.dumps(peer_annotation_to_json(peer))))
    assert back.pses == peer.pses and _structure(back.pyramid) == _structure(peer.pyramid)
    write_json(peer, tmp_path / "peer.json")
    assert isinstance(read_json(tmp_path / "peer.json"), PeerAnnotation)
    schema = load_schema()
    assert schema["$defs"]["pyramid"]["required"] == ["format", "text", "models", "scus"]
    assert set(pyramid_to_json(p)) <= set(schema["$defs"]["pyramid"]["properties"])
    assert set(peer_annotation_to_json(peer)) <= set(schema["$defs"]["peerAnnotation"]["properties"])
    with pytest.raises(AccordError, match="format"):
        read_json('{"format": "other"}')


def test_writers_are_atomic_and_need_force_to_replace(tmp_path):
    p = read_pyramid(DATA / "small.pyr")
    out = tmp_path / "p.pyr"
    write_pyramid(p, out)
    with pytest.raises(AccordError, match="exists; pass force=True"):
        write_pyramid(p, out)
    write_pyramid(p, out, force=True)
    peer = read_peer_annotation(DATA / "small_peer.pan")
    write_peer_annotation(peer, tmp_path / "x.pan")
    with pytest.raises(AccordError, match="exists"):
        write_peer_annotation(peer, tmp_path / "x.pan")
    write_json(p, tmp_path / "p.json")
    with pytest.raises(AccordError, match="exists"):
        write_json(p, tmp_path / "p.json")
    assert read_json(tmp_path / "p.json").text == p.text
    assert sorted(f.name for f in tmp_path.iterdir()) == ["p.json", "p.pyr", "x.pan"]  # no temporary files left
