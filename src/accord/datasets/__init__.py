"""Example data bundled with accord, each from a published source (or said to be synthetic).

======================  ===========================================================
file                    what it is
======================  ===========================================================
krippendorff2011.csv    Krippendorff (2011), *Computing Krippendorff's
                        Alpha-Reliability*, example C: 4 observers, 12 units,
                        values 1-5, missing cells.  Printed alphas: nominal .743,
                        ordinal .815, interval .849, ratio .797.
passonneau2004_coref.csv  Passonneau (2004), Table 1: 11 noun phrases of a
                        newswire text indexed for coreference by three coders
                        (RA.1-RA.3); the empty chain of RA.2 on J is NIL.  Each
                        NP's words (Table 1) and the sentence of Figure 1 it
                        sits in (``text``, ``sentence``).
multilabel_example.csv  A small synthetic e-mail labelling set with primary and
                        secondary labels (see :mod:`accord.multilabel`).
shroutfleiss1979.csv    Shrout & Fleiss (1979), Table 2: four judges rate six
                        targets (one row per target, a column per judge).
                        Printed ICCs: (1,1) .17, (2,1) .29, (3,1) .71, (1,4) .44,
                        (2,4) .62, (3,4) .91.
gwet2014_abstractors.csv  Gwet (2014), Handbook of Inter-Rater Reliability: 100
                        pregnant women classified by two abstractors (Ectopic,
                        AIU, NIU), as a confusion matrix (rows: abstractor A).
                        Printed AC1 .8493 (irrCAC's vignette).
judge_pairs.csv         Synthetic (made up for docs/judges.md by a seeded
                        script; no study): 40 questions, two LLM judges
                        (gpt-a, gpt-b) giving pairwise verdicts (first, second,
                        tie: positions) in both orders (order AB, BA), twice
                        (run 1, 2), and three humans (ana, ben, cai) without
                        order or run.  gpt-b leans to the answer shown first.
judge_passfail.csv      Synthetic, as above: 300 answers judged pass or fail by
                        gpt-a, the first 60 also labelled by ana, ben and cai.
======================  ===========================================================
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from accord.data._annotations import Annotations

if TYPE_CHECKING:
    from accord.coref._model import CorefAnnotations

__all__ = ["dataset_path", "load_krippendorff2011", "load_passonneau2004_coref"]


def dataset_path(name: str) -> Path:
    """Path of a bundled data file, e.g. ``dataset_path("krippendorff2011.csv")``."""
    from accord._shared.errors import AccordError

    p = Path(str(resources.files("accord.datasets").joinpath(name)))
    if not p.is_file():
        available = sorted(x.name for x in Path(p.parent).iterdir() if x.suffix in (".csv", ".jsonl", ".pyr"))
        raise AccordError(f"no bundled dataset {name!r}; available: {', '.join(available)}")
    return p


def load_krippendorff2011() -> Annotations:
    """Krippendorff's (2011) example C: 4 coders x 12 units with missing values.

    Examples
    --------
    >>> from accord import alpha
    >>> round(alpha(load_krippendorff2011()).alpha, 3)
    0.743
    """
    from accord.data._read import read

    return read(dataset_path("krippendorff2011.csv"))


def load_passonneau2004_coref() -> CorefAnnotations:
    """Passonneau's (2004) Table 1 as printed: RA.2's NIL on J is a missing value.

    Table 2 codes that NIL as the singleton {J}; with it missing, nominal alpha
    on the classes is 187/404 rather than the printed .45 (49/109).
    :func:`accord.coref.example_passonneau2004` builds Table 2's reading.

    Examples
    --------
    >>> from accord import coref_alpha
    >>> round(coref_alpha(load_passonneau2004_coref()).alpha, 4)
    0.4629
    """
    from accord.coref._readers import read_coref

    return read_coref(dataset_path("passonneau2004_coref.csv"), format="csv")
