"""Pyramids shaped like DUC 2006/2007's without ``<startDocumentRegEx>`` (issue 10, part 1).

The fixtures ``duc_noregex.pyr``, ``duc_peer1.pan`` and ``duc_peer2.pan`` are written by hand in the
DUCView 1.4 format (the DTD each file carries, as read by ``accord/pyramid/_ducview.py``), in the shape of
DUC 2006 D0608: four models, each introduced by a dashed line, a model id such as ``D0608.M.250.H.D`` and a
dashed line, with a blank line inside every model; the ``.pyr`` has no start regex, the ``.pan`` files embed
the same pyramid with DUCView 1.4's ``[-]*\\n(\\s*)D[0-9]*\\.M\\.250\\.[A-Z]\\.[A-Z]\\n[-]*\\n``.

Hand computation (``nist-duc``: weight = contributors, X_a rounded half up, no cap):

- SCU weights 4 (SCU 1), 3 (SCU 2), 1, 1, 1 (SCUs 3-5): tiers T4 = 1, T3 = 1, T2 = 0, T1 = 3; n = 4 models.
- X_a = (4 + 3 + 1 + 1 + 1) / 4 = 2.5, rounded half up to 3 (banker's rounding would give 2);
  Max(3) = 4 + 3 + 1 = 8.
- Peer 1 expresses SCUs 1 and 2 and one zero-weight PSE: raw 7, X = 3, Max(X) = 8:
  original 7/8 = 0.875, modified 7/8 = 0.875.
- Peer 2 expresses SCU 4 and one zero-weight PSE: raw 1, X = 2, Max(2) = 4 + 3 = 7:
  original 1/7, modified 1/8 = 0.125.
- The ``paper`` convention keeps X_a = 2.5: Max(2.5) = 4 + 3 + 0.5 * 1 = 7.5, peer 1 modified 7/7.5.
- Split at blank lines instead (the old fallback) the text gives 5 "models": X_a = 10/5 = 2, Max(2) = 7 and
  peer 1's modified score would be 7/7 = 1.0.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from accord._shared.errors import AccordError
from accord.cli import app
from accord.pyramid import read_peer_annotation, read_pyramid, score_peers
from accord.pyramid._ducview import models_from_peers, split_models

DATA = Path(__file__).parent / "data" / "pyramid"
runner = CliRunner()


def _peers():
    return [read_peer_annotation(DATA / "duc_peer1.pan"), read_peer_annotation(DATA / "duc_peer2.pan")]


def test_duc_header_lines_find_the_four_models():
    p = read_pyramid(DATA / "duc_noregex.pyr")
    assert p.start_regex is None and p.models_found_by == "duc-headers"
    assert p.n_models == 4
    assert [p.model_text(i).splitlines()[1] for i in range(4)] == [
        "D0608.M.250.H.D", "D0608.M.250.H.F", "D0608.M.250.H.G", "D0608.M.250.H.J"]
    assert [d.kind for d in p.defects] == ["no-start-regex"] and p.defects[0].severity == "info"
    # The header rule puts each model where the embedded DUCView 1.4 regex does.
    copy = _peers()[0].pyramid
    assert copy.models_found_by == "start-regex" and copy.models == p.models
    # Without headers the blank lines split it: the old, wrong answer.
    models, rule = split_models(p.text.replace("D0608.M.250", "X0608.M.250"), None)
    assert (len(models), rule) == (5, "blank-lines")


def test_scores_by_hand_with_the_embedded_regex():
    pyr = read_pyramid(DATA / "duc_noregex.pyr")
    res = score_peers(_peers(), pyr, convention="nist-duc")
    assert res.models_found_by == "peer-start-regex" and res.n_models == 4
    s1, s2 = res.scores
    assert (s1.raw, s1.n_pses, s1.max_original, s1.original) == (7, 3, 8, 0.875)
    assert (s1.x_a, s1.x_a_used, s1.max_modified, s1.modified) == (2.5, 3, 8, 0.875)
    assert (s2.raw, s2.n_pses, s2.max_original) == (1, 2, 7)
    assert s2.original == pytest.approx(1 / 7) and s2.modified == pytest.approx(1 / 8)
    assert s1.models_found_by == "peer-start-regex" and s1.n_models == 4
    paper = score_peers(_peers(), pyr, convention="paper").scores[0]
    assert (paper.x_a_used, paper.max_modified) == (2.5, 7.5) and paper.modified == pytest.approx(7 / 7.5)
    # Scored with the header rule alone (no peer copy with a regex), the same numbers.
    alone = score_peers([], pyr)
    assert alone.scores == ()
    from dataclasses import replace

    bare = [replace(p, pyramid=None) for p in _peers()]
    res2 = score_peers(bare, pyr, convention="nist-duc")
    assert res2.models_found_by == "duc-headers"
    assert [s.modified for s in res2.scores] == [s.modified for s in res.scores]


def test_embedded_regex_used_over_blank_lines_and_defect_named(tmp_path):
    # Model ids the header rule does not know: the pyramid falls back to blank lines (5 blocks); the peers'
    # copy has a start regex for them, and scoring takes its 4 models.
    pyr = read_pyramid((DATA / "duc_noregex.pyr").read_text().replace("D0608.M", "X0608.M"))
    assert (pyr.models_found_by, pyr.n_models) == ("blank-lines", 5)
    pans = []
    for name in ("duc_peer1.pan", "duc_peer2.pan"):
        pan = (DATA / name).read_text().replace("D0608.M", "X0608.M").replace("D[0-9]*", "X[0-9]*")
        (tmp_path / name).write_text(pan)
        pans.append(read_peer_annotation(tmp_path / name))
    used = models_from_peers(pyr, pans)
    assert used.models_found_by == "peer-start-regex" and used.n_models == 4
    assert used.start_regex.startswith("[-]*") and any(d.kind == "peer-start-regex" for d in used.defects)
    res = score_peers(pans, pyr, convention="nist-duc")
    assert [s.modified for s in res.scores] == [0.875, 0.125]
    pyr = read_pyramid(DATA / "duc_noregex.pyr")
    # A copy that differs in one SCU is refused, naming the file and the SCU.
    pan = (DATA / "duc_peer1.pan").read_text().replace('start="313" end="325"', 'start="314" end="325"', 1)
    pan = pan.replace('label="for research" start="314"', 'label="or research" start="314"', 1)
    bad = tmp_path / "bad.pan"
    bad.write_text(pan)
    with pytest.raises(AccordError, match=r"bad\.pan, SCU 3: .*differs"):
        score_peers([read_peer_annotation(bad)], pyr)


def test_cli_show_and_score_say_which_rule_found_the_models():
    r = runner.invoke(app, ["pyramid", "show", str(DATA / "duc_noregex.pyr")])
    assert r.exit_code == 0, r.output
    assert "4 models" in r.stdout and "DUC model header lines" in r.stdout
    r = runner.invoke(app, ["pyramid", "show", str(DATA / "duc_noregex.pyr"), "--peer", str(DATA / "duc_peer1.pan"),
                            "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["n_models"] == 4 and out["models_found_by"] == "peer-start-regex"
    args = ["pyramid", "score", str(DATA / "duc_noregex.pyr"), str(DATA / "duc_peer1.pan"),
            str(DATA / "duc_peer2.pan"), "--convention", "nist-duc"]
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    assert "peer annotation's embedded copy" in r.stdout and "0.8750" in r.stdout and "0.1250" in r.stdout
    r = runner.invoke(app, [*args, "--json"])
    out = json.loads(r.stdout)
    assert out["models_found_by"] == "peer-start-regex" and out["scores"][0]["modified"] == 0.875


def test_jackknife_takes_the_models_from_the_peers_too():
    from accord.pyramid import jackknife_scores

    res = jackknife_scores(read_pyramid(DATA / "duc_noregex.pyr"), _peers(), convention="nist-duc")
    assert len(res.model_scores) == 4
    assert {s.models_found_by for s in res.model_scores} == {"peer-start-regex"}


def test_a_header_found_pyramid_is_written_with_ducviews_regex(tmp_path):
    from accord.pyramid import write_pyramid
    from accord.pyramid._ducview import DUCVIEW_14_REGEX

    p = read_pyramid(DATA / "duc_noregex.pyr")
    write_pyramid(p, tmp_path / "with_regex.pyr")
    q = read_pyramid(tmp_path / "with_regex.pyr")
    assert q.start_regex == DUCVIEW_14_REGEX and q.models_found_by == "start-regex" and q.models == p.models
    assert q.start_regex == _peers()[0].pyramid.start_regex  # the regex of the hand-written .pan files
