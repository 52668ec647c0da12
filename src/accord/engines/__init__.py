"""Agreement where the data live: DuckDB, Polars, Dask and Spark, through narwhals reductions.

Every coefficient of the alpha and kappa families needs only a few additive
reductions of the long data, small whatever the number of rows (see
:mod:`accord.engines._reductions`): the signature histogram (units grouped by
their value-count vector), per-coder value counts, pair contingency tables
and, for coder-left-out alpha, the coder-signature table.  They are computed
as lazy narwhals queries on whichever engine holds the data; only they come
back to numpy, where the in-memory estimators' cores compute the
coefficients (:mod:`accord.engines._coefficients`).  The bootstrap resamples
the signature histogram with multinomial weights
(:mod:`accord.coefficients._signature_bootstrap`).

Examples
--------
>>> import duckdb
>>> from accord import engines
>>> rel = duckdb.sql("SELECT * FROM (VALUES (1, 'a', 'x'), (1, 'b', 'x'), (2, 'a', 'y'), (2, 'b', 'y'),"
...                  " (3, 'a', 'x'), (3, 'b', 'y')) t(unit, coder, value)")
>>> round(engines.alpha(rel).alpha, 4)
0.4444
"""

from __future__ import annotations

from accord.engines._agree import agree_file
from accord.engines._api import COEFFICIENTS, agree, applicable, compute, reduce
from accord.engines._coefficients import (
    alpha,
    bennett_s,
    coder_left_out,
    cohen_kappa,
    fleiss_kappa,
    gwet_ac1,
    gwet_ac2,
    multi_kappa,
    pairwise_agreement,
    percent_agreement,
    scott_pi,
    top_units,
)
from accord.engines._fields import ALL_FIELDS, AgreementByField, FieldNotMeasured, agree_fields
from accord.engines._reductions import Reductions, reduce_frame
from accord.engines._sources import ENGINES, choose_engine, duckdb_connection, spark_session

__all__ = [
    "ALL_FIELDS",
    "AgreementByField",
    "FieldNotMeasured",
    "agree_fields",
    "COEFFICIENTS",
    "ENGINES",
    "Reductions",
    "agree",
    "agree_file",
    "alpha",
    "applicable",
    "bennett_s",
    "choose_engine",
    "coder_left_out",
    "cohen_kappa",
    "compute",
    "duckdb_connection",
    "fleiss_kappa",
    "gwet_ac1",
    "gwet_ac2",
    "multi_kappa",
    "pairwise_agreement",
    "percent_agreement",
    "reduce",
    "reduce_frame",
    "scott_pi",
    "spark_session",
    "top_units",
]
