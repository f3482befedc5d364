"""Ingest benchmark results (fio JSON/json+/terse/normal, IOmeter CSV, fio logs) into one tidy table.

:func:`read_results` reads files and folders; :mod:`.schema` documents every column;
:func:`read_fio_logs` / :func:`merge_fio_logs` handle fio's time-series logs.
"""

from .api import Skipped, detect_format, read_file, read_results
from .fio_log import merge_fio_logs, read_fio_log, read_fio_logs
from .schema import COLUMNS, schema_table

__all__ = ["COLUMNS", "Skipped", "detect_format", "merge_fio_logs", "read_file", "read_fio_log", "read_fio_logs",
           "read_results", "schema_table"]
