"""Every span statistic at once: span F1, token alpha and kappa, unitizing alpha, and their intervals.

What ``accord spans`` prints and the span report draws, computed once for both.
"""

from __future__ import annotations

from typing import Any

from accord._shared.errors import AccordError

__all__ = ["MATCHES", "TOKENISATIONS", "span_statistics"]

MATCHES = ("exact", "overlap")
TOKENISATIONS = ("whitespace", "export")


def span_statistics(
    data: Any,
    *,
    match: str = "exact",
    tokens: str = "whitespace",
    scheme: str = "label",
    ignore_labels: bool = False,
    bootstrap: int = 0,
    confidence: float = 0.95,
    seed: int | None = None,
    quiet: bool = True,
) -> dict[str, Any]:
    """Span F1, token agreement and unitizing alpha of *data*, with bootstrap intervals over documents.

    Parameters
    ----------
    data : SpanAnnotations
        The spans.
    match : {'exact', 'overlap'}
        Span matching for F1.
    tokens : {'whitespace', 'export'}
        The tokenisation of token alpha and kappa (``export``: the tokens the export carries).
    scheme : {'label', 'bio'}
        A covered token's value.
    ignore_labels : bool
        F1 on offsets only.
    bootstrap : int
        Resamples of documents for the intervals (0: none).
    confidence : float
        The intervals' confidence level, in (0, 1).
    seed : int, optional
        Seed of the bootstrap.
    quiet : bool
        No progress bar on stderr.

    Returns
    -------
    dict
        ``f1`` (:class:`~accord.spans.SpanF1Result`), ``tokens`` (:class:`~accord.spans.TokenAgreement`) and
        ``unitizing`` (:class:`~accord.spans.UnitizingAlphaResult`), each replaced by
        ``{"undefined_reason": ...}`` when undefined; ``confidence_intervals``: statistic name -> ``[low, high]``
        or ``{"undefined_reason": ...}`` (empty without bootstrap).
    """
    from accord.data._spans import SpanAnnotations

    if not isinstance(data, SpanAnnotations):
        raise AccordError(f"data must be accord.spans.SpanAnnotations; got {type(data).__name__}")
    if match not in MATCHES:
        raise AccordError(f"match must be one of {', '.join(MATCHES)}; got {match!r}")
    if tokens not in TOKENISATIONS:
        raise AccordError(f"tokens must be one of {', '.join(TOKENISATIONS)}; got {tokens!r}")
    if scheme not in ("label", "bio"):
        raise AccordError(f"scheme must be one of label, bio; got {scheme!r}")
    if isinstance(bootstrap, bool) or not isinstance(bootstrap, int) or bootstrap < 0:
        raise AccordError(f"bootstrap must be an integer >= 0; got {bootstrap!r}")
    if not (isinstance(confidence, (int, float)) and 0 < confidence < 1):
        raise AccordError(f"confidence must be a number in (0, 1); got {confidence!r}")
    if tokens == "export" and data.tokens is None:
        raise AccordError(f"tokens 'export': {data.source or 'the input'} carries no tokenisation; use whitespace")
    from accord.spans._matching import span_f1
    from accord.spans._tokens import token_agreement
    from accord.spans._unitizing import unitizing_alpha

    out: dict[str, Any] = {"f1": span_f1(data, match=match, ignore_labels=ignore_labels)}  # type: ignore[arg-type]
    for key, func in (("tokens", lambda: token_agreement(data, tokens=tokens, scheme=scheme)),  # type: ignore[arg-type]
                      ("unitizing", lambda: unitizing_alpha(data))):
        try:
            out[key] = func()
        except AccordError as exc:
            out[key] = {"undefined_reason": str(exc)}
    intervals: dict[str, Any] = {}
    if bootstrap:
        targets = {"span micro F1": out["f1"]}
        if not isinstance(out["tokens"], dict):
            targets["token alpha"] = out["tokens"]
        if not isinstance(out["unitizing"], dict):
            targets["unitizing alpha"] = out["unitizing"]
        from accord._shared.progress import Progress

        with Progress(enabled=not quiet, total=len(targets), label="accord spans") as prog:
            for name, res in targets.items():
                with prog.step(f"bootstrap of {name}: {bootstrap} resamples of documents"):
                    try:
                        intervals[name] = list(res.confidence_interval(confidence, n_resamples=bootstrap, rng=seed))
                    except AccordError as exc:
                        intervals[name] = {"undefined_reason": str(exc)}
    out["confidence_intervals"] = intervals
    return out
