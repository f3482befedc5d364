"""Ingest benchmark results (fio JSON/json+/terse/normal, IOmeter CSV, DiskSpd XML, fio logs) into one tidy table.

:func:`read_results` reads files and folders (:mod:`.api`; finding and reading files in
:mod:`.files`, several runs appended to one file and their echoed commands in :mod:`.runs`,
experiment labels in :mod:`.labels`); :mod:`.schema` documents every column;
one reader per format (:mod:`.fio_json`, :mod:`.fio_terse`, :mod:`.fio_normal`,
:mod:`.iometer`, :mod:`.diskspd`, shared fio option rules in :mod:`.fio_options`);
:func:`read_fio_logs` / :func:`merge_fio_logs` handle fio's time-series logs;
:func:`summarize` puts the measured numbers against the swept variable (for the charts in
:mod:`nvmemodel.plots.results`).
"""

from .api import MAX_FILE_BYTES, Skipped, detect_format, read_file, read_results
from .fio_log import merge_fio_logs, read_fio_log, read_fio_logs
from .schema import COLUMNS, schema_table
from .summary import summarize

__all__ = ["COLUMNS", "MAX_FILE_BYTES", "Skipped", "detect_format", "merge_fio_logs", "read_file", "read_fio_log",
           "read_fio_logs", "read_results", "schema_table", "summarize"]
