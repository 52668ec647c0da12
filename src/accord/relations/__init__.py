"""Agreement on relations and events: links between spans, with their types and directions.

The model (:class:`Relation`, :class:`RelationAnnotations`) is what the relation readers of
:mod:`accord.importers` return (brat ``R`` and ``E`` lines, INCEpTION relation layers, Label Studio, Prodigy and
doccano relations); an event
is a trigger span with one relation per role, from the trigger to the argument. The measures read it:

- :func:`agreement`: the arguments aligned (exact offsets, overlap, or gamma's best alignment), then per
  coder pair the F1 with and without the type and every unmatched relation with the reason; and
  Krippendorff's alpha (Cohen's kappa for two coders) over the candidate argument pairs, for any number
  of coders;
- :func:`read_relations`: a tool's export (or several) read into the model.

See ``docs/relations.md``.
"""

from accord.data._relations import Relation, RelationAnnotations
from accord.relations._agreement import NONE, UNMARKED, agreement
from accord.relations._align import MATCHES
from accord.relations._read import RELATION_TOOLS, read_relations
from accord.relations._results import (
    REASONS,
    RelationAgreement,
    RelationPairScores,
    RelationScore,
    UnmatchedRelation,
)

__all__ = [
    "MATCHES",
    "NONE",
    "REASONS",
    "RELATION_TOOLS",
    "UNMARKED",
    "Relation",
    "RelationAgreement",
    "RelationAnnotations",
    "RelationPairScores",
    "RelationScore",
    "UnmatchedRelation",
    "agreement",
    "read_relations",
]
