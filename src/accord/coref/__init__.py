"""Coreference: the chains data model, readers for the usual formats, and the standard scores.

Seed 003 (Passonneau 2004) turns coreference chains into reliability data: every
mention is a unit, and the value a coder gives it is the coder's equivalence class
(or that class less the mention).  This package holds the data model
(:class:`CorefAnnotations`), the readers (CoNLL-2012, CorefUD, brat, jsonlines, CSV) and the
comparison scores against a key (MUC, B-cubed, CEAF, BLANC, LEA).
"""

from __future__ import annotations

from accord.coref._model import CorefAnnotations, CorefClasses, MentionPresence, example_passonneau2004
from accord.coref._readers import read_coref
from accord.coref._run import CorefRun, coref_files
from accord.coref._scores import (
    BlancScore,
    CorefScore,
    CorefScores,
    b_cubed,
    blanc,
    ceaf,
    coref_scores,
    lea,
    muc,
)

__all__ = [
    "BlancScore",
    "CorefRun",
    "CorefAnnotations",
    "CorefClasses",
    "CorefScore",
    "CorefScores",
    "MentionPresence",
    "b_cubed",
    "blanc",
    "ceaf",
    "coref_files",
    "coref_scores",
    "example_passonneau2004",
    "lea",
    "muc",
    "read_coref",
]
