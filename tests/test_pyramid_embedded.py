"""A peer annotation's embedded pyramid that differs from the pyramid given (issue 18, part C).

In DUC 2007 a ``.pan`` file's embedded pyramid can differ from the distributed ``.pyr``: one SCU has four
contributors in the ``.pan``, three in the ``.pyr``; NIST's official scores used the embedded one.  The
fixtures ``duc07.pyr``, ``duc07_peer1.pan`` and ``duc07_peer2.pan`` are written by hand in the DUCView 1.4
format (the DTD each file carries; the shape of ``duc_noregex.pyr``, see tests/test_pyramid_nist_shape.py),
four models D0701.M.250.A.A-D introduced by DUC's header lines, with DUCView 1.4's start regex in the
``.pyr`` and in the copies.  The copies differ from the ``.pyr`` in SCU 2 only: model C's "farmers who lost
land" is a fourth contributor.

Hand computation (each contributor comes from a distinct model, so weight by models = by contributors):

- ``.pyr``: weights SCU 1 = 4, SCU 2 = 3, SCU 3 = 2, SCU 4 = 1; tiers T4 = T3 = T2 = T1 = 1; n = 4;
  X_a = (4 + 3 + 2 + 1) / 4 = 2.5.  Max(2) = 4 + 3 = 7, Max(3) = 4 + 3 + 2 = 9, Max(2.5) = 7 + 0.5 x 2 = 8.
- embedded: weights 4, 4, 2, 1; tiers T4 = 2, T2 = 1, T1 = 1; X_a = 11 / 4 = 2.75.
  Max(2) = 8, Max(3) = 4 + 4 + 2 = 10, Max(2.75) = 8 + 0.75 x 2 = 9.5.
- Peer 1 expresses SCUs 1 and 2 and one zero-weight PSE (X = 3).
  Against the ``.pyr``: raw 4 + 3 = 7; original 7 / Max(3) = 7/9; nist-duc (X_a 2.5 rounded half up to 3)
  modified 7/9; paper (X_a 2.5 kept) modified 7/8.
  Against its copy: raw 4 + 4 = 8; original 8/10; nist-duc (2.75 -> 3) modified 8/10; paper 8/9.5.
- Peer 2 expresses SCUs 3 and 4 (X = 2): raw 2 + 1 = 3 against either.
  Against the ``.pyr``: original 3/7, nist-duc modified 3/9, paper 3/8.
  Against its copy: original 3/8, nist-duc modified 3/10, paper 3/9.5.
"""

from __future__ import annotations

import json
import warnings
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from accord._shared.errors import AccordError, AccordWarning
from accord.cli import app
from accord.pyramid import (
    embedded_notes,
    pyramid_differences,
    read_peer_annotation,
    read_pyramid,
    score_peer,
    score_peers,
)

DATA = Path(__file__).parent / "data" / "pyramid"
PYR = DATA / "duc07.pyr"
PANS = [DATA / "duc07_peer1.pan", DATA / "duc07_peer2.pan"]
runner = CliRunner()


def _peers():  # type: ignore[no-untyped-def]
    return [read_peer_annotation(p) for p in PANS]


def test_the_fixtures_are_clean_and_differ_in_scu_2_only() -> None:
    pyr = read_pyramid(PYR)
    peers = _peers()
    assert pyr.defects == () and all(p.defects == () for p in peers)
    assert pyr.n_models == 4 and pyr.weights() == {1: 4, 2: 3, 3: 2, 4: 1}
    assert peers[0].pyramid.weights() == {1: 4, 2: 4, 3: 2, 4: 1}
    assert pyramid_differences(pyr, peers[0].pyramid, a_name="the .pyr", b_name="the copy") == (
        (2, "3 contributors in the .pyr, 4 in the copy"),)
    assert pyramid_differences(pyr, pyr) == ()


@pytest.mark.parametrize(
    ("convention", "given", "embedded"),
    [
        ("nist-duc", [(7 / 9, 7 / 9), (3 / 7, 3 / 9)], [(8 / 10, 8 / 10), (3 / 8, 3 / 10)]),
        ("paper", [(7 / 9, 7 / 8), (3 / 7, 3 / 8)], [(8 / 10, 8 / 9.5), (3 / 8, 3 / 9.5)]),
    ],
)
def test_scores_by_hand_against_either_pyramid(convention: str, given: list, embedded: list) -> None:
    pyr = read_pyramid(PYR)
    with pytest.warns(AccordWarning, match=r"2 peer annotations \(.*duc07_peer1\.pan, .*duc07_peer2\.pan\) embed a "
                                           r"pyramid that differs from .*duc07\.pyr in SCU 2 \(3 contributors in "
                                           r".*duc07\.pyr, 4 in the embedded pyramid\); scored against .*duc07\.pyr"):
        res = score_peers(_peers(), pyr, convention=convention)
    assert [x for s in res.scores for x in (s.original, s.modified)] == pytest.approx(sum(given, ()))
    assert [s.raw for s in res.scores] == [7, 3] and res.against == "given"
    assert [s.pyramid_used for s in res.scores] == ["given", "given"]
    assert len(res.notes) == 1 and "SCU 2" in res.notes[0] and "against='embedded'" in res.notes[0]
    with warnings.catch_warnings():
        warnings.simplefilter("error", AccordWarning)  # the user chose the copies: a note, no warning
        emb = score_peers(_peers(), pyr, convention=convention, against="embedded")
    assert [x for s in emb.scores for x in (s.original, s.modified)] == pytest.approx(sum(embedded, ()))
    assert [s.raw for s in emb.scores] == [8, 3] and emb.against == "embedded"
    assert [s.pyramid_used for s in emb.scores] == ["embedded", "embedded"]
    assert [s.x_a for s in emb.scores] == [2.75, 2.75]
    assert len(emb.notes) == 1 and "scored against their embedded pyramid, which differs from" in emb.notes[0]
    # without a pyramid, each peer's own copy (as before), and nothing to compare
    own = score_peers(_peers(), convention=convention)
    assert [x for s in own.scores for x in (s.original, s.modified)] == pytest.approx(sum(embedded, ()))
    assert own.notes == ()


def test_score_peer_says_so_too() -> None:
    peer = _peers()[0]
    with pytest.warns(AccordWarning, match=r"peer annotation .*duc07_peer1\.pan embeds a pyramid that differs .* "
                                           r"SCU 2"):
        s = score_peer(peer, read_pyramid(PYR), convention="nist-duc")
    assert s.modified == pytest.approx(7 / 9)
    assert score_peer(peer, read_pyramid(PYR), convention="nist-duc", against="embedded").modified == 0.8


def test_identical_copies_say_nothing() -> None:
    pyr = read_pyramid(DATA / "duc_noregex.pyr")
    peers = [read_peer_annotation(DATA / "duc_peer1.pan"), read_peer_annotation(DATA / "duc_peer2.pan")]
    assert embedded_notes(peers, pyr) == ()
    with warnings.catch_warnings():
        warnings.simplefilter("error", AccordWarning)
        assert score_peers(peers, pyr, convention="nist-duc").notes == ()


def test_embedded_needs_an_embedded_pyramid_and_a_known_choice() -> None:
    bare = replace(_peers()[0], pyramid=None)
    with pytest.raises(AccordError, match=r"peer .*duc07_peer1\.pan' embeds no pyramid.*against='embedded'"):
        score_peers([bare], read_pyramid(PYR), against="embedded")
    with pytest.raises(AccordError, match=r"against: must be 'given' or 'embedded', got 'pan'"):
        score_peers(_peers(), read_pyramid(PYR), against="pan")  # type: ignore[arg-type]


def test_a_copy_that_cannot_give_the_models_points_to_embedded(tmp_path: Path) -> None:
    """The .pyr has no start regex and a copy differs: its models cannot come from the copy (refused, naming
    --pyramid embedded), while each peer scored against its own copy is well defined."""
    pan = (DATA / "duc_peer1.pan").read_text().replace('start="313" end="325"', 'start="314" end="325"', 1)
    pan = pan.replace('label="for research" start="314"', 'label="or research" start="314"', 1)
    bad = tmp_path / "bad.pan"
    bad.write_text(pan)
    pyr = read_pyramid(DATA / "duc_noregex.pyr")
    with pytest.raises(AccordError, match=r"bad\.pan, SCU 3: .*against='embedded'"):
        score_peers([read_peer_annotation(bad)], pyr)
    res = score_peers([read_peer_annotation(bad)], pyr, convention="nist-duc", against="embedded")
    assert res.scores[0].modified == 0.875  # peer 1 of duc_peer1.pan: 7/8 (tests/test_pyramid_nist_shape.py)
    assert "SCU 3" in res.notes[0]


# ---------------------------------------------------------------------------------------------- the CLI
def test_cli_names_the_scus_on_stderr_and_scores_against_the_pyr() -> None:
    r = runner.invoke(app, ["pyramid", "score", str(PYR), *map(str, PANS), "--convention", "nist-duc"])
    assert r.exit_code == 0, r.output
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("accord: note: 2 peer annotations")
    assert "SCU 2 (3 contributors in" in err[0] and "--pyramid embedded" in err[0]
    assert "0.7778" in r.stdout and "0.3333" in r.stdout


def test_cli_pyramid_embedded() -> None:
    base = ["pyramid", "score", str(PYR), *map(str, PANS), "--convention", "nist-duc", "--pyramid", "embedded"]
    r = runner.invoke(app, base)
    assert r.exit_code == 0, r.output
    assert "0.8000" in r.stdout and "0.3000" in r.stdout and "against its embedded pyramid" in r.stdout
    assert "scored against their embedded pyramid" in r.stderr
    r = runner.invoke(app, [*base, "--json"])
    out = json.loads(r.stdout)
    assert out["against"] == "embedded" and len(out["notes"]) == 1
    assert [s["modified"] for s in out["scores"]] == pytest.approx([0.8, 0.3])
    r = runner.invoke(app, [*base, "--csv"])
    assert r.stdout.splitlines()[0].endswith(",pyramid_used") and r.stdout.splitlines()[1].endswith(",embedded")
    r = runner.invoke(app, ["pyramid", "score", str(PYR), str(PANS[0]), "--pyramid", "pan"])
    assert r.exit_code == 2 and "--pyramid must be 'given' or 'embedded'; got 'pan'" in r.stderr


def test_report_page_carries_the_note(tmp_path: Path) -> None:
    out = tmp_path / "p.html"
    r = runner.invoke(app, ["report", str(PYR), *map(str, PANS), "-o", str(out), "--quiet"])
    assert r.exit_code == 0, r.output
    page = out.read_text(encoding="utf-8")
    assert "embed a pyramid that differs from" in page and "SCU 2 (3 contributors in" in page
