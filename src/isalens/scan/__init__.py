"""Corpus scans: every kernel x target of many files (ISA text, sources, code objects, fat binaries,
libraries) into one table (Parquet or DuckDB), in parallel on this machine or a Dask cluster; queries, diffs
and budgets over such tables.

Modules: :mod:`~isalens.scan.rows` (the analyze document flattened into columns), :mod:`~isalens.scan.units`
(what to analyse: one unit per text file or code object), :mod:`~isalens.scan.split` (a code object's kernels
as several units), :mod:`~isalens.scan.work` (one unit -> rows, run by
every engine), :mod:`~isalens.scan.store` (shards, resume, the final table), :mod:`~isalens.scan.run` (the
local process pool), :mod:`~isalens.scan.dask_engine`, :mod:`~isalens.scan.diff`, :mod:`~isalens.scan.budget`.
"""
