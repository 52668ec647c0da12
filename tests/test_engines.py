"""accord.engines: every coefficient equals the in-memory engine's, on DuckDB, Polars, Dask and Spark.

The oracle is accord's own in-memory engine (itself checked against the krippendorff package, NLTK and
irrCAC in the other test modules) on the same records, with missing cells.  Dask runs on a
LocalCluster(n_workers=2, threads_per_worker=1, processes=False); Spark on local[2] where Java is present.
"""

from __future__ import annotations

import json
import shutil
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import accord
from accord import engines
from accord._shared.errors import AccordError
from accord.coefficients._pairs import count_values, signature_counts
from accord.coefficients._signature_bootstrap import signature_resample_alphas

TOL = 1e-12


def _records(seed: int, *, coders: int = 4, units: int = 200, categories: int = 5, missing: float = 0.15
             ) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    m = rng.integers(1, categories + 1, size=(coders, units)).astype(float)
    agree = rng.random(m.shape) < 0.5
    m[agree] = np.broadcast_to(m[0], m.shape)[agree]
    m[rng.random(m.shape) < missing] = np.nan
    df = pd.DataFrame(
        {"unit": np.tile(np.arange(units), coders), "coder": np.repeat([f"c{i}" for i in range(coders)], units),
         "value": m.ravel()}
    )
    df = df[~df["value"].isna()].reset_index(drop=True)
    df["value"] = df["value"].astype(np.int64)
    return df


@pytest.fixture(scope="module")
def frames(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    d = tmp_path_factory.mktemp("engines")
    out: dict[str, object] = {}
    for name, df in (("missing", _records(7)), ("complete", _records(8, missing=0.0, coders=3))):
        path = d / f"{name}.parquet"
        df.to_parquet(path, index=False)
        out[name] = df
        out[f"{name}_path"] = path
        out[f"{name}_data"] = accord.read(path)
    return out


def _same(a: float, b: float) -> None:
    assert (np.isnan(a) and np.isnan(b)) or abs(a - b) <= TOL, (a, b)


def check_every_coefficient(red: engines.Reductions, data: accord.Annotations, complete: bool) -> None:
    """Each engine coefficient equals the in-memory one to 1e-12 (the comparisons the issue asks for)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for dist in ("nominal", "ordinal", "interval", "ratio"):
            a, b = engines.alpha(red, distance=dist), accord.alpha(data, distance=dist)
            _same(a.alpha, b.alpha)
            _same(a.expected_disagreement, b.expected_disagreement)
            assert (a.n_units, a.n_pairable_units, a.n_pairable, a.n_unpairable_values) == (
                b.n_units, b.n_pairable_units, b.n_pairable, b.n_unpairable_values)
        _same(engines.percent_agreement(red).percent_agreement, accord.percent_agreement(data).percent_agreement)
        assert engines.percent_agreement(red).n_units_unanimous == accord.percent_agreement(data).n_units_unanimous
        _same(engines.bennett_s(red).kappa, accord.bennett_s(data).kappa)
        for got, want in (
            (engines.gwet_ac1(red), accord.gwet_ac1(data)),
            (engines.gwet_ac2(red, distance="interval"), accord.gwet_ac2(data, distance="interval")),
        ):
            _same(got.ac, want.ac)
            _same(got.standard_error, want.standard_error)
        pair = tuple(data.coders[:2].tolist())
        for dist in ("nominal", "interval"):
            got, want = engines.cohen_kappa(red, coders=pair, distance=dist), accord.cohen_kappa(
                data, coders=pair, distance=dist)
            for f in ("kappa", "standard_error", "standard_error_null", "n_units_dropped"):
                _same(float(getattr(got, f)), float(getattr(want, f)))
            _same(engines.scott_pi(red, coders=pair, distance=dist).kappa,
                  accord.scott_pi(data, coders=pair, distance=dist).kappa)
        pw, pw0 = engines.pairwise_agreement(red), accord.pairwise_agreement(data)
        np.testing.assert_allclose(pw.alpha, pw0.alpha, atol=TOL, equal_nan=True)
        np.testing.assert_allclose(pw.percent_agreement, pw0.percent_agreement, atol=TOL, equal_nan=True)
        np.testing.assert_array_equal(pw.n_shared_units, pw0.n_shared_units)
        lo, lo0 = engines.coder_left_out(red, distance="interval"), accord.coder_left_out(data, distance="interval")
        np.testing.assert_allclose(lo.alpha_without, lo0.alpha_without, atol=TOL, equal_nan=True)
        top, top0 = engines.top_units(red, distance="interval"), accord.unit_disagreement(
            data, distance="interval").to_frame().head(10)
        np.testing.assert_allclose(top["disagreement"], top0["disagreement"], atol=TOL)
        np.testing.assert_allclose(top["share"], top0["share"], atol=TOL)
        if complete:
            _same(engines.fleiss_kappa(red).kappa, accord.fleiss_kappa(data).kappa)
            _same(engines.fleiss_kappa(red).standard_error_null, accord.fleiss_kappa(data).standard_error_null)
            _same(engines.multi_kappa(red, distance="interval").kappa,
                  accord.multi_kappa(data, distance="interval").kappa)


@pytest.mark.parametrize("case", ["missing", "complete"])
def test_duckdb_from_a_parquet_path_equals_memory(frames: dict, case: str) -> None:
    red = engines.reduce(frames[f"{case}_path"], engine="duckdb")
    assert red.engine == "duckdb"
    check_every_coefficient(red, frames[f"{case}_data"], case == "complete")


@pytest.mark.parametrize("case", ["missing", "complete"])
def test_polars_lazyframe_equals_memory(frames: dict, case: str) -> None:
    pl = pytest.importorskip("polars")
    red = engines.reduce(pl.scan_parquet(frames[f"{case}_path"]))
    assert red.engine == "polars"
    check_every_coefficient(red, frames[f"{case}_data"], case == "complete")


def test_duckdb_relation_and_csv_glob(frames: dict, tmp_path: Path) -> None:
    duckdb = pytest.importorskip("duckdb")
    df = frames["missing"]
    half = df["unit"] < 100
    df[half].to_csv(tmp_path / "a.csv", index=False)
    df[~half].to_csv(tmp_path / "b.csv", index=False)
    red = engines.reduce(str(tmp_path / "*.csv"))
    check_every_coefficient(red, frames["missing_data"], False)
    rel = duckdb.sql("SELECT * FROM df")
    _same(engines.alpha(rel).alpha, accord.alpha(frames["missing_data"]).alpha)


def test_missing_values_as_nulls_are_counted(frames: dict) -> None:
    pl = pytest.importorskip("polars")
    df = frames["missing"].astype({"value": float})
    df.loc[[0, 5], "value"] = np.nan
    red = engines.reduce(pl.from_pandas(df, nan_to_null=True).lazy())
    assert red.n_missing == 2 and red.n_rows == len(df)
    data = accord.Annotations.from_records(df)
    _same(engines.alpha(red).alpha, accord.alpha(data).alpha)


# ------------------------------------------------------------------ set values (list columns, JSON-list text)
SET_LABELS = ["PER", "LOC", "ORG", "déjà vu", "😀"]


def _set_records(seed: int, *, coders: int = 3, units: int = 120, missing: float = 0.15) -> pd.DataFrame:
    """Multi-label records: sets of 0-3 labels, coders often copying coder 0, some cells absent."""
    rng = np.random.default_rng(seed)
    rows = []
    for u in range(units):
        first = sorted(rng.choice(SET_LABELS, size=rng.integers(0, 4), replace=False).tolist())
        for c in range(coders):
            if rng.random() < missing:
                continue
            if c and rng.random() < 0.5:
                labels = list(reversed(first))  # the same set in another order
            else:
                labels = rng.choice(SET_LABELS, size=rng.integers(0, 4), replace=False).tolist()
            rows.append((u, f"c{c}", labels))
    return pd.DataFrame(rows, columns=["unit", "coder", "value"])


def check_set_coefficients(red: engines.Reductions, data: accord.Annotations, complete: bool) -> None:
    """Every coefficient that applies to sets equals the in-memory engine's to 1e-12."""
    assert data.is_set_valued and all(isinstance(v, frozenset) for v in red.values)
    assert sorted(map(sorted, red.values)) == sorted(map(sorted, data.values))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for dist in ("nominal", "jaccard", "masi-2006"):
            a, b = engines.alpha(red, distance=dist), accord.alpha(data, distance=dist)
            _same(a.alpha, b.alpha)
            _same(a.expected_disagreement, b.expected_disagreement)
            assert (a.n_units, a.n_pairable_units, a.n_pairable) == (b.n_units, b.n_pairable_units, b.n_pairable)
        _same(engines.percent_agreement(red).percent_agreement, accord.percent_agreement(data).percent_agreement)
        got, want = engines.gwet_ac2(red, distance="masi-2006"), accord.gwet_ac2(data, distance="masi-2006")
        _same(got.ac, want.ac)
        _same(got.standard_error, want.standard_error)
        _same(engines.gwet_ac1(red).ac, accord.gwet_ac1(data).ac)
        pair = tuple(data.coders[:2].tolist())
        got, want = engines.cohen_kappa(red, coders=pair, distance="masi-2006"), accord.cohen_kappa(
            data, coders=pair, distance="masi-2006")
        for f in ("kappa", "standard_error", "n_units_dropped"):
            _same(float(getattr(got, f)), float(getattr(want, f)))
        pw, pw0 = engines.pairwise_agreement(red, distance="jaccard"), accord.pairwise_agreement(
            data, distance="jaccard")
        np.testing.assert_allclose(pw.alpha, pw0.alpha, atol=TOL, equal_nan=True)
        lo, lo0 = engines.coder_left_out(red, distance="masi-2006"), accord.coder_left_out(
            data, distance="masi-2006")
        np.testing.assert_allclose(lo.alpha_without, lo0.alpha_without, atol=TOL, equal_nan=True)
        top, top0 = engines.top_units(red, distance="jaccard"), accord.unit_disagreement(
            data, distance="jaccard").to_frame().head(10)
        np.testing.assert_allclose(top["disagreement"], top0["disagreement"], atol=TOL)
        if complete:
            _same(engines.fleiss_kappa(red).kappa, accord.fleiss_kappa(data).kappa)
            _same(engines.multi_kappa(red, distance="masi-2006").kappa,
                  accord.multi_kappa(data, distance="masi-2006").kappa)


@pytest.fixture(scope="module")
def set_frames(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    d = tmp_path_factory.mktemp("sets")
    out: dict[str, object] = {}
    for name, df in (("missing", _set_records(11)), ("complete", _set_records(12, missing=0.0))):
        path = d / f"{name}.parquet"
        df.to_parquet(path, index=False)  # a Parquet list<string> column
        csv = d / f"{name}.csv"
        text = df.assign(value=[json.dumps(v, ensure_ascii=False) for v in df["value"]])
        text.to_csv(csv, index=False)  # JSON-list text, as accord.read reads it
        out[name], out[f"{name}_path"], out[f"{name}_csv"] = df, path, csv
        out[f"{name}_data"] = accord.read(path)
        assert len(accord.read(csv).values) == len(out[f"{name}_data"].values)
    return out


@pytest.mark.parametrize("case", ["missing", "complete"])
@pytest.mark.parametrize("engine", ["duckdb", "polars"])
def test_set_values_from_a_parquet_list_column_equal_memory(set_frames: dict, case: str, engine: str) -> None:
    red = engines.reduce(set_frames[f"{case}_path"], engine=engine)
    check_set_coefficients(red, set_frames[f"{case}_data"], case == "complete")


@pytest.mark.parametrize("engine", ["duckdb", "polars"])
def test_set_values_from_json_list_text_equal_memory(set_frames: dict, engine: str) -> None:
    """Two spellings of one set (["PER", "LOC"] and ["LOC", "PER"]) are one value, as accord.read has it."""
    red = engines.reduce(set_frames["missing_csv"], engine=engine)
    check_set_coefficients(red, accord.read(set_frames["missing_csv"]), False)


TRICKY_CSV = (
    "unit,coder,value\n"
    "1,a,01\n1,b,1\n2,a,2\n2,b,2\n3,a,NA\n3,b,NA\n4,a,nan\n4,b,01\n5,a, 2\n5,b,\n"
)


@pytest.mark.parametrize("engine", ["duckdb", "polars", "dask"])
def test_csv_text_is_read_by_accord_reads_rule(tmp_path: Path, engine: str) -> None:
    """'01' next to '1' keeps the column text, 'NA' and 'nan' are labels, only an empty cell is missing."""
    pytest.importorskip({"dask": "dask.dataframe"}.get(engine, engine))
    path = tmp_path / "tricky.csv"
    path.write_text(TRICKY_CSV)
    red, data = engines.reduce(path, engine=engine), accord.read(path)
    assert red.values.tolist() == data.values.tolist() == ["01", "1", "2", "NA", "nan"]
    assert red.n_missing == 1 and red.n_entries == 9
    _same(engines.alpha(red).alpha, accord.alpha(data).alpha)
    numbers = tmp_path / "numbers.csv"
    numbers.write_text("unit,coder,value\n1,a,1\n1,b, 1\n2,a,2.5\n2,b,+2\n3,a,3\n3,b,2\n")
    red, data = engines.reduce(numbers, engine=engine), accord.read(numbers)
    assert red.values.tolist() == data.values.tolist() == [1, 2, 2.5, 3]
    _same(engines.alpha(red, distance="interval").alpha, accord.alpha(data, distance="interval").alpha)


def test_set_values_in_any_order_are_interned_alike() -> None:
    pl = pytest.importorskip("polars")
    df = _set_records(13)
    a = engines.reduce(pl.DataFrame({c: df[c].tolist() for c in df}).lazy())
    b = engines.reduce(pl.DataFrame({c: df[c].tolist()[::-1] for c in df}).lazy())
    assert a.values.tolist() == b.values.tolist()
    assert a.values[0] == frozenset()  # the empty list is the empty set, a value


def test_set_values_bad_input_is_named() -> None:
    pl = pytest.importorskip("polars")
    holes = pl.LazyFrame({"unit": [1, 1], "coder": ["a", "b"], "value": [["x", None], ["y"]]})
    with pytest.raises(AccordError, match="a set value holds a missing element"):
        engines.reduce(holes)
    wide = pl.LazyFrame({"unit": [1, 1], "coder": ["a", "b"],
                         "value": [[f"e{i}" for i in range(40)], [f"f{i}" for i in range(30)]]})
    with pytest.raises(AccordError, match="70 distinct elements, more than the 62.*compute in memory"):
        engines.reduce(wide)
    dup = pl.LazyFrame({"unit": [1, 1, 1], "coder": ["a", "b", "b"], "value": [["x"], ["y"], ["y", "x"]]})
    with pytest.raises(AccordError, match=r"coder 'b' gave two values to unit 1"):
        engines.reduce(dup)
    dask = pytest.importorskip("dask")
    import dask.dataframe as dd

    with dask.config.set({"dataframe.convert-string": False}):  # else Dask makes the lists text itself
        objects = dd.from_pandas(pd.DataFrame({"unit": [1, 1], "coder": ["a", "b"], "value": [["x"], ["y"]]}),
                                 npartitions=1)
        with pytest.raises(AccordError, match="Python lists or arrays in an object column.*pyarrow list type"):
            engines.reduce(objects)


def test_dask_parquet_lists_without_the_pyarrow_backend_are_named(tmp_path: Path) -> None:
    """dd.read_parquet without dtype_backend="pyarrow" gives an object column of arrays: refused by name at
    once (hashing such a column for its unique cells was quadratic: minutes for 80,000 rows)."""
    dd = pytest.importorskip("dask.dataframe")
    n = 20_000
    pd.DataFrame({"unit": np.repeat(np.arange(n), 4), "coder": np.tile(list("abcd"), n),
                  "value": [["x", "y"] if i % 3 else ["x"] for i in range(4 * n)]}).to_parquet(tmp_path / "s.parquet")
    with pytest.raises(AccordError, match="object column.*pyarrow list type"):
        engines.reduce(dd.read_parquet(tmp_path / "s.parquet"))
    red = engines.reduce(dd.read_parquet(tmp_path / "s.parquet", dtype_backend="pyarrow"))
    assert red.n_units == n and set(red.values.tolist()) == {frozenset("x"), frozenset("xy")}


def test_cli_agree_on_set_values_through_duckdb(set_frames: dict) -> None:
    from typer.testing import CliRunner

    from accord.cli import app

    runner = CliRunner()
    args = ["agree", str(set_frames["missing_path"]), "--distance", "masi-2006", "--json", "--coefficient", "all"]
    lazy = runner.invoke(app, [*args, "--engine", "duckdb"])
    mem = runner.invoke(app, [*args, "--engine", "memory"])
    assert lazy.exit_code == 0 and mem.exit_code == 0, lazy.output + mem.output
    got, want = json.loads(lazy.stdout), json.loads(mem.stdout)
    assert got["engine"] == "duckdb"
    for name in ("alpha", "percent", "bennett", "gwet"):
        for key, value in want[name].items():
            if isinstance(value, float):
                assert abs(got[name][key] - value) <= 1e-12, (name, key)


# ------------------------------------------------------------------ dask and spark (small; sessions are slow)
@pytest.fixture(scope="module")
def dask_client():
    pytest.importorskip("dask.dataframe")
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def test_dask_on_a_local_cluster_equals_memory(frames: dict, dask_client) -> None:
    import dask.dataframe as dd

    red = engines.reduce(dd.read_parquet(str(frames["missing_path"])).repartition(npartitions=3))
    assert red.engine == "dask"
    check_every_coefficient(red, frames["missing_data"], False)
    # a path with --scheduler: the files are read by dask.dataframe on the cluster at that address
    by_path = engines.reduce(frames["missing_path"], engine="dask", scheduler=dask_client.scheduler.address)
    _same(engines.alpha(by_path).alpha, accord.alpha(frames["missing_data"]).alpha)


def test_dask_set_values_equal_memory(set_frames: dict, dask_client) -> None:
    red = engines.reduce(set_frames["missing_path"], engine="dask", scheduler=dask_client.scheduler.address)
    check_set_coefficients(red, set_frames["missing_data"], False)


@pytest.fixture(scope="module")
def spark():
    if shutil.which("java") is None:
        pytest.skip("Spark needs a Java runtime; none on PATH")
    pytest.importorskip("pyspark")
    session = engines.spark_session("local[2]")
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def test_spark_local_equals_memory(frames: dict, spark) -> None:
    sdf = spark.read.parquet(str(frames["missing_path"]))
    red = engines.reduce(sdf)
    assert red.engine == "pyspark"
    check_every_coefficient(red, frames["missing_data"], False)


def test_spark_set_values_equal_memory(set_frames: dict, spark, tmp_path: Path) -> None:
    red = engines.reduce(spark.read.parquet(str(set_frames["missing_path"])))
    check_set_coefficients(red, set_frames["missing_data"], False)
    red = engines.reduce(set_frames["missing_csv"], engine="spark")  # JSON-list text
    check_set_coefficients(red, accord.read(set_frames["missing_csv"]), False)
    path = tmp_path / "tricky.csv"
    path.write_text(TRICKY_CSV)
    red = engines.reduce(path, engine="spark")
    assert red.values.tolist() == accord.read(path).values.tolist() and red.n_missing == 1


# ------------------------------------------------------------------ spilling
def test_duckdb_with_a_memory_limit_below_the_data_spills_and_finishes(tmp_path: Path) -> None:
    duckdb = pytest.importorskip("duckdb")
    n_units = 1_500_000
    path = tmp_path / "big.parquet"
    con = duckdb.connect()
    con.execute(
        f"COPY (SELECT u AS unit, c AS coder, ((u * 7 + c * (u % 3)) % 10) AS value "
        f"FROM range({n_units}) r(u), range(4) s(c)) TO '{path}' (FORMAT parquet)"
    )
    # 6M rows (144 MB as three int64 columns; over 1 GB for the in-memory reader), 1.5M groups per unit
    spill = tmp_path / "spill"
    red = engines.reduce(path, engine="duckdb", memory_limit="128MB", temp_dir=spill)
    assert red.n_units == n_units and red.n_entries == 4 * n_units
    assert spill.exists()
    res = engines.alpha(red)
    assert -1 <= res.alpha <= 1


# ------------------------------------------------------------------ bootstrap
def test_signature_histogram_holds_the_units() -> None:
    data = accord.Annotations.from_records(_records(3))
    uc = count_values(data)
    sig = signature_counts(uc)
    assert sig.n_rows < uc.n_rows and sig.n_pairable_units == uc.n_pairable_units
    want = accord.alpha(data, distance="interval")
    from accord.coefficients._alpha import alpha_from_counts

    got = alpha_from_counts(sig, data.values, accord.get_distance("interval"), n_coders=data.n_coders)
    _same(got.alpha, want.alpha)


@pytest.mark.parametrize("distance", ["nominal", "ordinal"])
def test_signature_bootstrap_is_unit_resampling_in_distribution(distance: str) -> None:
    """Multinomial signature weights vs scipy's resampling of units: two-sample KS and quantiles, fixed seeds."""
    data = accord.Annotations.from_records(_records(11, coders=3, units=40, categories=3, missing=0.1))
    units = accord.alpha(data, distance=distance).bootstrap_distribution(n_resamples=4000, rng=1)
    sig = signature_counts(count_values(data))
    sigs = signature_resample_alphas(sig, data.values, accord.get_distance(distance), n_resamples=4000, rng=2)
    units, sigs = units[~np.isnan(units)], sigs[~np.isnan(sigs)]
    assert stats.ks_2samp(units, sigs).pvalue > 0.01
    q = [0.025, 0.25, 0.5, 0.75, 0.975]
    np.testing.assert_allclose(np.quantile(units, q), np.quantile(sigs, q), atol=0.03)


def test_engine_interval_comes_from_the_signature_bootstrap(frames: dict) -> None:
    red = engines.reduce(frames["missing_path"], engine="duckdb")
    res = engines.alpha(red)
    lo, hi = res.confidence_interval(n_resamples=500, rng=3)
    assert lo < res.alpha < hi
    assert res.confidence_interval(n_resamples=500, rng=3) == (lo, hi)
    blo, bhi = res.confidence_interval(n_resamples=500, rng=3, method="BCa")
    assert blo < bhi
    mem = accord.alpha(frames["missing_data"]).confidence_interval(n_resamples=2000, rng=3)
    assert abs(mem[0] - lo) < 0.03 and abs(mem[1] - hi) < 0.03


# ------------------------------------------------------------------ bad input
def test_missing_column_in_one_file_of_a_glob_names_the_file(frames: dict, tmp_path: Path) -> None:
    df = frames["missing"]
    df.to_parquet(tmp_path / "a.parquet", index=False)
    df.rename(columns={"value": "label"}).to_parquet(tmp_path / "b.parquet", index=False)
    with pytest.raises(AccordError, match=r"b\.parquet: missing column 'value'"):
        engines.reduce(str(tmp_path / "*.parquet"))


def test_wrong_type_and_nulls_are_named(tmp_path: Path) -> None:
    pl = pytest.importorskip("polars")
    nested = pl.LazyFrame({"unit": [1, 1], "coder": ["a", "b"], "value": [[["x"]], [["y"]]]})
    with pytest.raises(AccordError, match="column 'value' .* has type List.*a list of numbers or strings"):
        engines.reduce(nested)
    unit_lists = pl.LazyFrame({"unit": [[1], [1]], "coder": ["a", "b"], "value": ["x", "y"]})
    with pytest.raises(AccordError, match="column 'unit' .* has type List"):
        engines.reduce(unit_lists)
    nulls = pl.LazyFrame({"unit": [1, None], "coder": ["a", "b"], "value": ["x", "y"]})
    with pytest.raises(AccordError, match="column 'unit': the unit is missing in 1 row"):
        engines.reduce(nulls)


def test_duplicate_coder_unit_found_by_a_grouped_count(tmp_path: Path) -> None:
    pl = pytest.importorskip("polars")
    lf = pl.LazyFrame({"unit": [1, 1, 2, 2, 2], "coder": ["a", "b", "a", "b", "b"],
                       "value": ["x", "x", "y", "y", "z"]})
    with pytest.raises(AccordError, match=r"coder 'b' gave two values to unit 2"):
        engines.reduce(lf)


def test_agree_all_and_bad_options(frames: dict) -> None:
    res = engines.agree(frames["complete_path"], coefficients="all", engine="duckdb")
    assert set(res) == {"alpha", "percent", "bennett", "gwet", "fleiss", "multi-kappa"}
    with pytest.raises(AccordError, match="engine must be one of"):
        engines.reduce(frames["complete_path"], engine="sqlite")
    with pytest.raises(AccordError, match="no file matches"):
        engines.reduce("/nonexistent/*.parquet")
    with pytest.raises(AccordError, match="memory_limit must be a size"):
        engines.reduce(frames["complete_path"], engine="duckdb", memory_limit="lots")


# ------------------------------------------------------------------ CLI and benchmark script
def test_cli_agree_on_a_glob_goes_through_duckdb_and_equals_memory(frames: dict, tmp_path: Path) -> None:
    import json

    from typer.testing import CliRunner

    from accord.cli import app

    runner = CliRunner()
    df = frames["missing"]
    df[df["unit"] < 80].to_parquet(tmp_path / "part-1.parquet", index=False)
    df[df["unit"] >= 80].to_parquet(tmp_path / "part-2.parquet", index=False)
    res = runner.invoke(app, ["agree", str(tmp_path / "*.parquet"), "--coefficient", "all", "--json",
                              "--memory-limit", "256MB", "--temp-dir", str(tmp_path / "spill")])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["engine"] == "duckdb"
    mem = runner.invoke(app, ["agree", str(frames["missing_path"]), "--coefficient", "all", "--json"])
    want = json.loads(mem.stdout)
    for name in ("alpha", "percent", "bennett", "gwet"):
        for key, value in want[name].items():
            if isinstance(value, float):
                assert abs(out[name][key] - value) <= 1e-12, (name, key)
    res = runner.invoke(app, ["agree", str(frames["missing_path"]), "--engine", "polars", "--diagnostics",
                              "--bootstrap", "100", "--seed", "1"])
    assert res.exit_code == 0, res.output
    assert "engine polars" in res.stdout and "Alpha with each coder left out" in res.stdout
    assert "Units with most disagreement" in res.stdout
    bad = runner.invoke(app, ["agree", str(tmp_path / "*.parquet"), "--value", "label"])
    assert bad.exit_code == 2 and "missing column 'label'" in bad.output


def test_bench_engines_runs_tiny() -> None:
    import importlib.util
    import sys

    bench_path = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_engines.py"
    spec = importlib.util.spec_from_file_location("accord_benchmarks_bench_engines", bench_path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    records = module.main(["--units", "3000", "--contenders", "memory,duckdb,polars", "--big-units", "4000",
                           "--big-memory-limit", "200MB", "--repeat", "1", "--quiet"])
    assert not [r for r in records if "failed" in r]
    alphas = [r["result"] for r in records[:3]]
    assert np.ptp(alphas) < 1e-12
    floors = module.main(["--floor", "--units", "3000", "--threads", "1", "--rounds", "1", "--quiet"])
    assert [(r["spec"]["engine"], r["spec"]["threads"]) for r in floors] == [("duckdb", 1), ("polars", 1)]
    assert not [r for r in floors if "failed" in r] and abs(floors[0]["result"] - floors[1]["result"]) < 1e-12


def test_an_engine_failure_is_one_accord_error(frames: dict) -> None:
    with pytest.raises(AccordError, match=r"the duckdb engine failed: .*memory"):
        engines.reduce(frames["missing_path"], engine="duckdb", memory_limit="1KB")


@pytest.mark.parametrize("n_coders", [3, 70])  # the coder-bit sum (<= 62 coders) and the distinct count
def test_duplicates_found_whatever_the_number_of_coders(n_coders: int) -> None:
    pl = pytest.importorskip("polars")
    coders = [f"k{i:02d}" for i in range(n_coders)]
    units = [u for u in range(5) for _ in coders]
    lf = pl.LazyFrame({"unit": units + [3, 3], "coder": coders * 5 + [coders[1], coders[1]],
                       "value": ["x"] * (5 * n_coders) + ["x", "x"]})
    with pytest.raises(AccordError, match=rf"coder '{coders[1]}' gave two values to unit 3"):
        engines.reduce(lf)
    ok = engines.reduce(pl.LazyFrame({"unit": units, "coder": coders * 5, "value": ["x", "y"] * (5 * n_coders // 2)
                                      + ["x"] * (5 * n_coders % 2)}))
    assert ok.n_units == 5 and ok.n_coders == n_coders


def test_auto_engine_takes_duckdb_past_the_memory_share(frames: dict) -> None:
    import json

    from typer.testing import CliRunner

    from accord.cli import app

    path = frames["missing_path"]
    assert engines.choose_engine([path]) == "memory"
    assert engines.choose_engine([path], memory_share=1e-9) == "duckdb"
    res = CliRunner().invoke(app, ["agree", str(path), "--memory-share", "1e-9", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["engine"] == "duckdb"
    _same(out["alpha"], accord.alpha(frames["missing_data"]).alpha)
    with pytest.raises(AccordError, match="memory_share must be in"):
        engines.choose_engine([path], memory_share=0)
