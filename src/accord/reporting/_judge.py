"""The 'judge audit' page: the verdict of each check per judge (position consistency, repeatability, agreement with
the humans, the pass rate corrected, the alternative annotator test), the flip lists, the disagreements with the
human majority, and the corrected pass rate beside the raw one.  Built from a :class:`accord.JudgeAuditResult`
(:func:`accord.judge_audit`)."""

from __future__ import annotations

import math
from typing import Any

from accord._shared.errors import AccordError
from accord.reporting._agreement import MAX_ROWS
from accord.reporting._page import DataTable, HeadlineNumber, Report, Section

__all__ = ["accepts", "judge_report"]


def accepts(obj: Any) -> bool:
    """Whether *obj* is a judge audit's result."""
    from accord.models_vs_humans._judge_results import JudgeAuditResult

    return isinstance(obj, JudgeAuditResult)


def _num(x: Any) -> float | None:
    return None if x is None or (isinstance(x, float) and (math.isnan(x) or math.isinf(x))) else float(x)


def _interval(p: Any) -> str:
    if p is None or p.n == 0:
        return "undefined"
    return f"{p.estimate:.3f} [{p.ci_low:.3f}, {p.ci_high:.3f}] ({p.count} of {p.n})"


def _checks(a: Any) -> list[tuple[str, str, str]]:
    """(check, what was measured, verdict) of one judge."""
    p, r, h, pr = a.position, a.repeatability, a.humans, a.pass_rate
    rows = []
    if p.undefined_reason:
        rows.append(("position consistency", "undefined", p.undefined_reason))
    else:
        rows.append(("position consistency", f"{_interval(p.consistency)}; biased first "
                     f"{_interval(p.biased_first)}, second {_interval(p.biased_second)}",
                     f"{p.verdict} (McNemar, {p.mcnemar.method}: p = {p.mcnemar.p_value:.3g})"))
    if r.all_agree is None:
        rows.append(("repeatability", "undefined", r.undefined_reason or ""))
    else:
        alpha = "undefined" if math.isnan(r.alpha) else f"{r.alpha:.3f}" + (
            "" if math.isnan(r.alpha_ci_low) else f" [{r.alpha_ci_low:.3f}, {r.alpha_ci_high:.3f}]")
        rows.append(("repeatability", f"alpha across {r.n_runs} runs {alpha}; every run agrees on "
                     f"{_interval(r.all_agree)}", f"{len(r.flips)} items flip between runs"))
    m = h.with_majority
    if m is None:
        rows.append(("agreement with humans", "undefined", h.undefined_reason or ""))
    else:
        ceiling = _interval(h.humans_pooled)
        if not math.isnan(h.humans_alpha):
            ceiling += f", alpha {h.humans_alpha:.3f}"
            if not math.isnan(h.humans_alpha_ci_low):
                ceiling += f" [{h.humans_alpha_ci_low:.3f}, {h.humans_alpha_ci_high:.3f}]"
        kappa = "undefined" if math.isnan(m.kappa) else f"{m.kappa:.3f}"
        rows.append(("agreement with humans", f"accuracy with the majority {_interval(m.accuracy)}, kappa {kappa}",
                     f"the humans among themselves: {ceiling}"))
    if pr.rogan_gladen is None and pr.ppi is None:
        rows.append(("pass rate", "undefined", pr.undefined_reason or ""))
    else:
        rg = pr.rogan_gladen
        ppi = pr.ppi
        parts = [f"raw {pr.raw_mean:.3f}" if not math.isnan(pr.raw_mean) else "raw undefined"]
        if rg is not None:
            parts.append(f"Rogan-Gladen {rg.estimate:.3f} [{rg.ci_low:.3f}, {rg.ci_high:.3f}] ({rg.method})"
                         if rg.undefined_reason is None else f"Rogan-Gladen undefined: {rg.undefined_reason}")
        if ppi is not None:
            kind = "PPI++" if ppi.power_tuned else "PPI"
            parts.append(f"prediction-powered ({kind}) {ppi.estimate:.3f} [{ppi.ci_low:.3f}, {ppi.ci_high:.3f}]"
                         if ppi.undefined_reason is None else f"prediction-powered undefined: {ppi.undefined_reason}")
        rows.append(("pass rate", "; ".join(parts), "report the corrected rate with its interval"))
    t = a.alt_test
    if t is None or t.passes is None:
        rows.append(("alternative annotator test", "not run", a.alt_test_reason or "undefined"))
    else:
        rows.append(("alternative annotator test", f"wins against {t.n_wins} of {t.n_humans} humans, omega "
                     f"{t.omega:.3f}", "passes: it may replace them" if t.passes else "fails: keep the humans"))
    return rows


def judge_report(result: Any, *, title: str | None = None, max_rows: int = MAX_ROWS, **_ignored: Any) -> Report:
    """The judge-audit page of a :class:`accord.JudgeAuditResult`.  Options the page has no use for (given to
    every kind by ``accord report``) are ignored."""
    if not accepts(result):
        raise AccordError(f"a judge-audit page needs the result of accord.judge_audit; got {type(result).__name__}")
    if isinstance(max_rows, bool) or not isinstance(max_rows, int) or max_rows < 1:
        raise AccordError(f"max_rows must be a positive integer; got {max_rows!r}")
    heads = []
    for a in result.audits:
        p = a.position.consistency
        if p is not None:
            heads.append(HeadlineNumber(f"consistency-{a.judge}", f"{a.judge}: position consistency", p.estimate,
                                        interval=(p.ci_low, p.ci_high), words=a.position.verdict))
        m = a.humans.with_majority
        if m is not None and not math.isnan(m.kappa):
            heads.append(HeadlineNumber(f"kappa-{a.judge}", f"{a.judge}: kappa with the human majority", m.kappa,
                                        interval=None if math.isnan(m.kappa_ci_low) else (m.kappa_ci_low,
                                                                                          m.kappa_ci_high)))
    check_rows = tuple((str(a.judge), *row) for a in result.audits for row in _checks(a))
    checks = DataTable(name="checks", title="The verdict of each check", columns=("judge", "check", "measured",
                                                                                  "verdict"),
                       rows=check_rows, kinds=("text", "text", "text", "text"),
                       caption=f"Intervals at {result.confidence_level:.0%}: Wilson's for shares, Fleiss, Cohen & "
                               "Everitt's for kappa, the bootstrap's for alpha"
                               + (f" ({result.n_boot:,} draws)." if result.n_boot else "."))
    sections = [Section(id="checks", title="Is the judge consistent, repeatable and right?", tables=(checks,),
                        paragraphs=("Position consistency follows Zheng et al. (2023): the share of items whose "
                                    "verdict names the same answer in both orders, beside the shares that follow the "
                                    "first or the second position. Repeatability reads the runs as coders. The "
                                    "judge's verdict on an item keeps a win only when both orders agree, and the "
                                    "majority across runs.",))]
    flips = [(str(a.judge), "position", _plain(f.unit), "" if f.run is None else str(f.run),
              f"{f.canonical} / {f.swapped} (leans {f.leans})") for a in result.audits for f in a.position.flips]
    flips += [(str(a.judge), "run", _plain(f.unit), "" if f.position is None else str(f.position),
               ", ".join(f"{k}: {v}" for k, v in f.verdicts)) for a in result.audits for f in a.repeatability.flips]
    sections.append(Section(id="flips", title="Items whose verdict flips", tables=(DataTable(
        name="flips", title="Flips between orders and between runs",
        columns=("judge", "flips between", "item", "run or order", "verdicts"), rows=tuple(flips[:max_rows]),
        kinds=("text", "text", "text", "text", "text"),
        note="" if len(flips) <= max_rows else f"Showing {max_rows:,} of {len(flips):,} rows.",
        caption="Between orders: the verdict in the canonical order / in the swapped one, as options. Between "
                "runs: each run's verdict."),)))
    dis = [(str(a.judge), _plain(d.unit), _plain(d.judge), _plain(d.majority), d.n_majority, d.n_humans)
           for a in result.audits for d in a.disagreements]
    sections.append(Section(id="disagreements", title="Where the judge and the human majority disagree",
                            tables=(DataTable(name="disagreements", title="Items to read",
                                              columns=("judge", "item", "judge's verdict", "majority",
                                                       "majority votes", "humans"),
                                              rows=tuple(dis[:max_rows]),
                                              kinds=("text", "text", "text", "text", "num", "num"),
                                              note="" if len(dis) <= max_rows else
                                              f"Showing {max_rows:,} of {len(dis):,} rows."),)))
    rates = []
    for a in result.audits:
        pr = a.pass_rate
        rg, ppi = pr.rogan_gladen, pr.ppi
        rates.append((str(a.judge), _num(pr.raw_mean),
                      _num(rg.estimate) if rg else None, _num(rg.ci_low) if rg else None,
                      _num(rg.ci_high) if rg else None, _num(ppi.estimate) if ppi else None,
                      _num(ppi.ci_low) if ppi else None, _num(ppi.ci_high) if ppi else None,
                      pr.undefined_reason or ""))
    sections.append(Section(id="pass-rate", title="The pass rate, raw and corrected", tables=(DataTable(
        name="pass-rate", title="Raw judge rate, Rogan-Gladen and prediction-powered estimates",
        columns=("judge", "raw", "Rogan-Gladen", "low", "high", "PPI", "low", "high", "note"), rows=tuple(rates),
        kinds=("text", "num", "num", "num", "num", "num", "num", "num", "text"),
        caption="Rogan & Gladen (1978): the judge's rate corrected by its sensitivity and specificity on the items "
                "people labelled; prediction-powered inference (Angelopoulos et al. 2023): its mean on the other "
                "items corrected by its mean error on the labelled ones."),)))
    n = len(result.audits)
    return Report(
        title=title or f"Judge audit{f' of {result.source}' if result.source else ''}",
        subtitle=f"{n} judge{'s' if n != 1 else ''}, {len(result.humans)} humans; {result.kind} verdicts",
        kind="judge", headline=tuple(heads), sections=tuple(sections),
        summary={"judges": [a.summary() for a in result.audits]})


def _plain(x: Any) -> Any:
    return x.item() if hasattr(x, "item") else x
