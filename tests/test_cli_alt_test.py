"""``accord alt-test``, the humans-and-models report page, and the commands of docs/models.md as written."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from accord import Annotations, read
from accord.cli import app
from accord.models_vs_humans import alt_test, panel_departures

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "reviews-with-models.csv"
DOC = ROOT / "docs" / "models.md"


def _majority_csv(tmp_path: Path, blocks: int = 10, copy: bool = True) -> Path:
    """Three humans who each depart from the other two once per block of four items; 'llm' always gives the
    majority label, 'copy' (with *copy*) gives h1's labels."""
    lines = ["unit,coder,value"]
    for b in range(blocks):
        for k, row in enumerate(["aaba", "abaa", "baaa", "aaaa"]):
            unit = f"u{4 * b + k:03d}"
            for coder, v in zip(["h1", "h2", "h3", "llm"], row, strict=True):
                lines.append(f"{unit},{coder},{v}")
            if copy:
                lines.append(f"{unit},copy,{row[0]}")
    f = tmp_path / "labels.csv"
    f.write_text("\n".join(lines) + "\n")
    return f


def _run(*args: str) -> str:
    res = runner.invoke(app, list(args))
    assert res.exit_code == 0, res.output
    return res.stdout


def test_json_equals_the_python_api(tmp_path: Path) -> None:
    f = _majority_csv(tmp_path)
    out = json.loads(_run("alt-test", str(f), "--models", "llm,copy", "--epsilon", "0.15", "--json"))
    ref = alt_test(read(f), models="llm,copy", epsilon=0.15)
    assert out["alt_test"] == json.loads(json.dumps(ref.to_dict()))
    assert [t["passes"] for t in out["alt_test"]["tests"]] == [True, True]
    assert out["panel_agreement"][0]["coders"] == "humans"
    assert out["panel_departures"]["n_departures"] == {"copy": 10, "llm": 0}


def test_tables_say_the_verdict_and_the_detail(tmp_path: Path) -> None:
    f = _majority_csv(tmp_path, copy=False)
    text = " ".join(_run("alt-test", str(f), "--models", "llm").split())
    assert "Alternative annotator test in labels.csv" in text
    assert "llm passes: it wins against 3 of 3 humans at epsilon 0.2 (half are needed); it may replace them." in text
    assert "llm against each human left out" in text and "p (BY)" in text
    assert "Agreement among the humans, and with each model added" in text
    assert "llm departs from a unanimous or all but 1 human panel on 0 of 40 items" in text


def test_guidance_runs_the_simulation_for_the_data(tmp_path: Path) -> None:
    f = _majority_csv(tmp_path, copy=False)
    out = json.loads(_run("alt-test", str(f), "--models", "llm", "--guidance", "--sim-sizes", "30,60",
                          "--sim-datasets", "2", "--sim-draws", "2", "--seed", "4", "--json"))
    g = out["guidance"]
    assert (g["n_categories"], g["n_humans"], g["seed"]) == (2, 3, 4)
    assert [r["size"] for r in g["rows"]] == [30, 60]
    again = json.loads(_run("alt-test", str(f), "--models", "llm", "--guidance", "--sim-sizes", "30,60",
                            "--sim-datasets", "2", "--sim-draws", "2", "--seed", "4", "--json"))
    assert again["guidance"] == g


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--models", "gpt"], "--models names 'gpt', which no coder matches"),
        (["--models", "llm", "--epsilon", "1.5"], "--epsilon must be a number in [0, 1)"),
        (["--models", "llm", "--scoring", "f1"], "--scoring must be one of"),
        (["--models", "llm", "--min-items", "50"], "only 0 humans share at least min_items=50"),
        (["--models", "llm", "--min-humans", "4"], "needs at least 4 humans"),
    ],
)
def test_errors_exit_2_with_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    f = _majority_csv(tmp_path, copy=False)
    res = runner.invoke(app, ["alt-test", str(f), *args])
    assert res.exit_code == 2, res.output
    line = res.stderr.strip()
    assert line.startswith("accord: error: ") and "\n" not in line and message in line, line


def test_report_page_of_humans_and_models(tmp_path: Path) -> None:
    f = _majority_csv(tmp_path)
    out = tmp_path / "r.html"
    doc = json.loads(_run("report", str(f), "--models", "llm,copy", "-o", str(out), "--quiet", "--json"))
    assert doc["kind"] == "models"
    html = out.read_text(encoding="utf-8")
    for section in ("verdict", "per-human", "agreement", "departures", "guidance"):
        assert f'id="{section}"' in html
    assert "May a model replace the humans?" in html
    ref = alt_test(read(f), models="llm,copy")
    cards = dict(re.findall(r'data-key="([^"]+)" data-value="([^"]*)"', html))
    assert float(cards["omega-llm"]) == ref["llm"].omega and float(cards["omega-copy"]) == ref["copy"].omega
    assert doc["headline"]["alt_test"][0]["model"] == "copy"
    # --kind models without --models, and --models with another kind, are refused
    res = runner.invoke(app, ["report", str(f), "--kind", "models", "-o", str(tmp_path / "x.html")])
    assert res.exit_code == 2 and "--kind models needs --models" in res.stderr


def test_report_of_a_result_alone(tmp_path: Path) -> None:
    from accord.reporting import build_report

    f = _majority_csv(tmp_path)
    res = alt_test(read(f), models="llm")
    rep = build_report(res)
    assert rep.kind == "models" and [s.id for s in rep.sections] == ["verdict", "per-human", "guidance"]
    data = build_report(read(f), kind="models", models="llm")
    assert [s.id for s in data.sections] == ["verdict", "per-human", "agreement", "departures", "guidance"]


def test_the_example_file() -> None:
    data = read(EXAMPLE, unit="item", layout="wide")
    assert isinstance(data, Annotations) and data.n_coders == 6
    res = alt_test(data, models="gpt-4o,small-llm", epsilon=0.2)
    assert res["gpt-4o"].rho > res["small-llm"].rho
    assert panel_departures(data, models="gpt-4o").n_departures["gpt-4o"] >= 0


def _doc_commands() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    return [line[2:] for block in re.findall(r"```console\n(.*?)```", text, flags=re.S)
            for line in block.splitlines() if line.startswith("$ accord ")]


def test_docs_commands_run_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    commands = _doc_commands()
    assert len(commands) >= 3
    monkeypatch.chdir(ROOT)
    for cmd in commands:
        args = shlex.split(cmd)[1:]
        args = [str(tmp_path / a) if a.endswith(".html") else a for a in args]
        res = runner.invoke(app, args)
        assert res.exit_code == 0, (cmd, res.output)


def _label_studio_export(tmp_path: Path) -> Path:
    """A Label Studio JSON export (the shape of https://labelstud.io/guide/export, 'Label Studio JSON format of
    annotated tasks'): three annotators and a model's pre-annotations as ``predictions`` with a
    ``model_version``; the labels of the majority block, three times."""
    def region(label: str) -> dict:
        return {"from_name": "sentiment", "to_name": "text", "type": "choices", "value": {"choices": [label]}}

    tasks = []
    for k, row in enumerate(["aaba", "abaa", "baaa", "aaaa"] * 3):
        tasks.append({"id": k + 1, "data": {"text": f"review {k + 1}"},
                      "annotations": [{"completed_by": who, "was_cancelled": False, "result": [region(v)]}
                                      for who, v in zip([1, 2, 3], row[:3], strict=True)],
                      "predictions": [{"model_version": "gpt-4o", "score": 0.9, "result": [region(row[3])]}]})
    f = tmp_path / "export.json"
    f.write_text(json.dumps(tasks))
    return f


def test_label_studio_predictions_read_as_the_model(tmp_path: Path) -> None:
    f = _label_studio_export(tmp_path)
    res = runner.invoke(app, ["alt-test", str(f), "--from", "label-studio", "--option", "predictions=true",
                              "--models", "gpt-4o", "--min-items", "12", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["alt_test"]["humans"] == ["1", "2", "3"] and out["alt_test"]["tests"][0]["passes"] is True
    assert any("read as the annotations of 1 coder named by their model_version: 'gpt-4o'" in n
               for n in out["import"]["report"]["notes"])
    # without the option the predictions are not read, and the model is not a coder
    res = runner.invoke(app, ["alt-test", str(f), "--from", "label-studio", "--models", "gpt-4o"])
    assert res.exit_code == 2 and "no coder matches" in res.stderr


def test_an_import_is_read_by_the_python_api(tmp_path: Path) -> None:
    from accord import read_export

    imp = read_export(_label_studio_export(tmp_path), tool="label-studio", predictions=True)
    res = alt_test(imp, models="gpt-4o", min_items=12)
    assert res.humans == ("1", "2", "3") and res["gpt-4o"].passes is True
    assert panel_departures(imp, models="gpt-4o").n_departures == {"gpt-4o": 0}
