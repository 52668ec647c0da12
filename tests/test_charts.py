"""Tests of the charts Altair saves through vl-convert, and of the file modes the safe writes give."""

from __future__ import annotations

import os
import stat

import pytest

from accord._shared.charts import check_chart_path, save_chart
from accord._shared.errors import AccordError
from accord._shared.output import write_output

alt = pytest.importorskip("altair")
pytest.importorskip("vl_convert")


def _chart():
    data = alt.Data(values=[{"x": 0, "y": 1.0}, {"x": 1, "y": 2.0}, {"x": 2, "y": 1.5}])
    return alt.Chart(data).mark_line(point=True).encode(x="x:Q", y="y:Q")


def test_save_chart_each_format(tmp_path):
    svg = save_chart(_chart(), tmp_path / "c.svg").read_text()
    assert svg.startswith("<svg") and "mark-line" in svg and "mark-symbol" in svg
    assert save_chart(_chart(), tmp_path / "c.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert save_chart(_chart(), tmp_path / "c.pdf").read_bytes()[:5] == b"%PDF-"
    html = save_chart(_chart(), tmp_path / "c.html").read_text()
    assert "<html" in html and "<script src=" not in html
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.html", "c.pdf", "c.png", "c.svg"]


def test_save_chart_refusals(tmp_path):
    with pytest.raises(AccordError, match=r"must end in \.svg, \.png, \.pdf or \.html; got 'c\.jpg'"):
        save_chart(_chart(), tmp_path / "c.jpg")
    with pytest.raises(AccordError, match="chart must be an Altair chart; got dict"):
        save_chart({"mark": "line"}, tmp_path / "c.svg")
    out = tmp_path / "c.svg"
    out.write_text("keep")
    with pytest.raises(AccordError, match="exists; pass force=True"):
        save_chart(_chart(), out)
    assert out.read_text() == "keep"
    inp = tmp_path / "in.svg"
    inp.write_text("input")
    with pytest.raises(AccordError, match="input of this command"):
        save_chart(_chart(), inp, force=True, inputs=[inp])
    assert inp.read_text() == "input"
    assert save_chart(_chart(), out, force=True).read_text().startswith("<svg")
    with pytest.raises(AccordError, match="sweep.gif"):
        check_chart_path("sweep.gif")


def test_save_chart_makes_no_network_request(tmp_path):
    chart = alt.Chart("https://example.invalid/data.csv").mark_line().encode(x="x:Q", y="y:Q")
    with pytest.raises(AccordError, match="External data url not allowed"):
        save_chart(chart, tmp_path / "c.svg")
    assert list(tmp_path.iterdir()) == []


def test_written_files_get_the_usual_mode(tmp_path):
    # the temporary file of an atomic write is 0600; the result must not be
    mask = os.umask(0o022)
    try:
        new = write_output(tmp_path / "new.txt", "x")
        assert stat.S_IMODE(new.stat().st_mode) == 0o644
        kept = tmp_path / "kept.txt"
        kept.write_text("old")
        kept.chmod(0o640)
        write_output(kept, "new", force=True)
        assert stat.S_IMODE(kept.stat().st_mode) == 0o640 and kept.read_text() == "new"
    finally:
        os.umask(mask)


@pytest.mark.parametrize("samples", [
    [0.7, 0.7 + 1e-16, 0.7 - 1e-16, 0.7],   # resamples equal up to rounding: NumPy 2.4 refuses 40 bins there
    [0.25] * 10,
    [],
])
def test_bootstrap_chart_draws_resamples_that_coincide(samples):
    import numpy as np

    from accord.reporting._charts import bootstrap_chart

    spec = bootstrap_chart(np.array(samples), estimate=0.7, interval=(0.7, 0.7))
    counts = [row["resamples"] for ds in spec["datasets"].values() for row in ds if "resamples" in row]
    assert sum(counts) == len(samples)
