"""Agreement where the data lives: DuckDB, Polars, Dask and Spark through narwhals reductions."""
