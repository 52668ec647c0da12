"""The coefficients, on one pair engine, and the registry that names them.

- Krippendorff's alpha: :func:`alpha`, :func:`scale_hint`;
- the kappa family: :func:`cohen_kappa`, :func:`weighted_kappa`, :func:`scott_pi`, :func:`fleiss_kappa`,
  :func:`multi_kappa`, :func:`bennett_s`, :func:`percent_agreement`, :func:`siegel_castellan_k`;
- Gwet's :func:`gwet_ac1` and :func:`gwet_ac2`; by their authors' names :func:`brennan_prediger`,
  :func:`conger_kappa`, :func:`light_kappa`; kappa weights :func:`kappa_weights`;
- numeric ratings: :func:`icc`, :func:`icc_table`, :func:`kendall_w`, :func:`lin_ccc` (also
  :mod:`accord.rating_coefficients`);
- diagnostics: :func:`unit_disagreement`, :func:`pairwise_agreement`, :func:`coder_left_out`;
- the registry by name that ``--coefficient`` and the report share: :data:`COEFFICIENTS`,
  :func:`resolve`, :func:`applicable`, :func:`choose`, :func:`compute` and the rest;
- :func:`agree`: every coefficient asked for, with its intervals and notes, as ``accord agree`` computes
  them (an :class:`Agreement`).

Every coefficient counts its pairs through one engine (``_pairs``); none re-counts. Each name is
imported on first use.
"""

from __future__ import annotations

from accord._shared.lazy import exports

_P = "accord.coefficients."
_NAMES = {
    **dict.fromkeys(["AlphaResult", "ScaleHint", "alpha", "scale_hint"], _P + "_alpha"),
    **dict.fromkeys(["AgreementResult", "KappaResult", "cohen_kappa", "percent_agreement", "weighted_kappa"],
                    _P + "_kappa"),
    **dict.fromkeys(["bennett_s", "fleiss_kappa", "multi_kappa", "scott_pi", "siegel_castellan_k"], _P + "_fleiss"),
    **dict.fromkeys(["GwetResult", "gwet_ac1", "gwet_ac2"], _P + "_gwet"),
    **dict.fromkeys(["ChanceCorrectedResult", "LightKappaResult", "brennan_prediger", "conger_kappa",
                     "light_kappa"], _P + "_cac"),
    **dict.fromkeys(["WEIGHT_NAMES", "WEIGHT_SCORES", "kappa_weights"], _P + "_weights"),
    **dict.fromkeys(["CoderLeftOut", "CoderPairs", "UnitDisagreement", "coder_left_out", "pairwise_agreement",
                     "unit_disagreement"], _P + "_diagnostics"),
    **dict.fromkeys(["ICC_FORMS", "ICCResult", "ICCTable", "icc", "icc_table"], _P + "_icc"),
    **dict.fromkeys(["CCCResult", "KendallWResult", "kendall_w", "lin_ccc"], _P + "_concordance"),
    **dict.fromkeys(["ALIASES", "ALL_COEFFICIENTS", "COEFFICIENTS", "KAPPAS", "LABELS", "MEMORY_COEFFICIENTS",
                     "WEIGHTED", "applicable", "choose", "compute", "compute_chosen", "kappas_that_apply", "label",
                     "resolve", "same_coefficients"], _P + "_registry"),
    **dict.fromkeys(["Agreement", "agree"], _P + "_agree"),
}
__all__ = sorted(_NAMES)
__getattr__, __dir__ = exports(__name__, _NAMES)
