"""Humans and models: may a model replace the human annotators, and where does it depart from them?

Most annotation projects now have a model in the loop (an LLM pre-annotates, or judges outputs in place of
people).  The question their leads must answer is whether the model is as good an annotator as the people it
would replace; adding the model as one more coder to alpha does not answer it.  This package marks some
coders of any reliability data as models (by name or pattern; every other coder is a human) and reads:

- :func:`alt_test`: the alternative annotator test of Calderon, Reichart & Dror (2025): leave one human out,
  ask item by item whether the model or that human better represents the remaining humans, give the model
  its cost advantage epsilon, a one-sided t-test per human, the Benjamini-Yekutieli correction across
  humans; the winning rate omega (the model passes when omega >= 0.5) and the advantage probability rho
  (to compare models); several models side by side.
- :func:`judge_audit`: the audit of an LLM judge before it replaces anyone: position consistency (Zheng et al.
  2023), repeatability across runs, agreement with the humans beside theirs, the pass rate corrected
  (Rogan-Gladen, prediction-powered inference) and the alternative annotator test; one
  :class:`JudgeAudit` per judge.
- :func:`panel_agreement`: Krippendorff's alpha among the humans and with each model added.
- :func:`panel_departures`: the items where a model departs from a unanimous or near-unanimous human panel,
  the list to adjudicate.
- :func:`alt_test_guidance`: the paper's simulation for choosing epsilon and the number of items;
- :func:`alt_test_study` (:func:`alt_test_file` for a file): all of these at once, as ``accord alt-test`` runs
  them.

References
----------
Calderon, N., Reichart, R., & Dror, R. (2025). The Alternative Annotator Test for LLM-as-a-Judge: How to
Statistically Justify Replacing Human Annotators with LLMs. *Proceedings of the 63rd Annual Meeting of the
ACL (Volume 1: Long Papers)*, 16051-16081. https://aclanthology.org/2025.acl-long.782/
"""

from __future__ import annotations

from accord.models_vs_humans._alt_test import (
    AltTestResult,
    HumanComparison,
    ModelAltTest,
    NotTested,
    alt_test,
    benjamini_yekutieli,
    one_sided_t_test,
)
from accord.models_vs_humans._guidance import EPSILON_RULES, AltTestGuidance, alt_test_guidance
from accord.models_vs_humans._judge import judge_audit
from accord.models_vs_humans._judge_file import judge_audit_file
from accord.models_vs_humans._judge_results import JudgeAudit, JudgeAuditResult
from accord.models_vs_humans._panel import PanelAgreement, PanelDepartures, panel_agreement, panel_departures
from accord.models_vs_humans._roles import CoderRoles, coder_roles
from accord.models_vs_humans._scoring import SCORINGS, jaccard_similarity
from accord.models_vs_humans._study import AltTestStudy, alt_test_file, alt_test_study

__all__ = [
    "EPSILON_RULES",
    "SCORINGS",
    "AltTestGuidance",
    "AltTestResult",
    "AltTestStudy",
    "CoderRoles",
    "HumanComparison",
    "JudgeAudit",
    "JudgeAuditResult",
    "ModelAltTest",
    "NotTested",
    "PanelAgreement",
    "PanelDepartures",
    "alt_test",
    "alt_test_file",
    "alt_test_guidance",
    "alt_test_study",
    "benjamini_yekutieli",
    "coder_roles",
    "jaccard_similarity",
    "judge_audit",
    "judge_audit_file",
    "one_sided_t_test",
    "panel_agreement",
    "panel_departures",
]
