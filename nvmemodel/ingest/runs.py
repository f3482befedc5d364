"""Several runs in one file: outputs appended by a wrapper script, each run a point.

A wrapper that runs fio in a loop and appends its output to one file often echoes what it ran
before each run: a command line (``Fio command: fio --name=x --filename=a:b:c --numjobs=4 …``,
``$ fio job.fio``) or the job file itself (``[job]`` / ``filename=…`` lines). Those echoes cut
the file into *chunks*; each chunk is read by the reader of its own form (JSON, normal, terse),
its runs are numbered on from the previous chunk's (the ``run`` column, in file order), and the
options the echo gives fill what the output did not say (terse output says nothing of pattern,
depth or jobs; normal output nothing of ``filename``). What the output itself says wins over
the echo (it is what fio did).

``targets`` is then set per run: the number of distinct files or devices (``filename=a:b:c``
→ 3) over all the run's jobs, where every job's are known.
"""

from __future__ import annotations

import functools
import math
import operator
import re
import shlex
import warnings

from ..errors import IngestError, IngestWarning
from .fio_options import PACING_OPTIONS, engine_fields, pacing_fields, split_filenames, workload_fields

__all__ = ["apply_echo", "apply_targets", "echoed_runs", "has_results"]

#: Where a command line that runs fio may be: ``fio --x=…``, ``sudo /usr/bin/fio job.fio …``,
#: ``Fio command: fio …`` (fio's own messages, "fio: …" and "fio-3.33", are not followed by a blank).
_FIO_WORD = re.compile(r"(?<![\w.-])fio(?:\.exe)?[ \t]", re.IGNORECASE)
#: The rest of such a line must hold an option (--name=…) or a job file.
_ARGUMENTS = re.compile(r"--[a-z_]|\.fio\b|\.ini\b")
#: Longer lines are not echoed commands (and are not looked at: the search stays linear).
_MAX_COMMAND = 8192
#: One line of an echoed job file: a [section], key=value, a bare option word, or a comment.
_JOB_LINE = re.compile(r"[ \t]*(?:\[[^\]\n]+\]|[a-z_][a-z0-9_]*[ \t]*=[^\n;]*|[a-z_][a-z0-9_]*|[#;][^\n]*)[ \t]*")
_SECTION = re.compile(r"^[ \t]*\[[^\]\n]+\][ \t]*$", re.MULTILINE)
#: fio results begin here (normal, JSON, terse v3-5 and v2): what makes a chunk hold a run.
_RESULT = re.compile(r"\(groupid=\d+, jobs=\d+\)|\"jobs\"\s*:|\"client_stats\"\s*:|^[3-5];fio-|^2;[^;\n]*;\d+;\d+;",
                     re.MULTILINE)


def _echo_spans(text: str) -> list[tuple[int, int, dict]]:
    """(start, end, options) of every echoed command line and job file, in file order."""
    spans = []
    end = -1
    for m in _FIO_WORD.finditer(text):
        if m.start() < end:
            continue  # a second "fio " on a line already looked at
        start = text.rfind("\n", 0, m.start()) + 1
        end = text.find("\n", m.end())
        end = len(text) if end < 0 else end
        if end - start > _MAX_COMMAND or any(c in text[start:m.start()] for c in '{}"'):
            continue  # a JSON line or a long line, not a command
        args = text[m.end():end]
        if _ARGUMENTS.search(args):
            spans.append((start, end, _command_options(args)))
    for m in _SECTION.finditer(text):
        start = end = m.start()
        if any(s <= start < e for s, e, _ in spans):
            continue
        while True:  # the block of job-file lines from this section on
            nl = text.find("\n", end)
            line_end = len(text) if nl < 0 else nl
            if not _JOB_LINE.fullmatch(text, end, line_end) or end == line_end:
                break
            end = line_end + 1 if nl >= 0 else line_end
        spans.append((start, end, _job_file_options(text[start:end])))
    return sorted(spans, key=lambda s: s[0])


@functools.lru_cache(maxsize=1024)
def _command_options(args: str) -> dict:
    """``--name=a --rw=read --name=b …`` → {"global": {…}, "jobs": {name: {…}}} (shared: not modified)."""
    # Quotes group words as the shell does, but a backslash is kept: echoes print the string fio got,
    # where '\:' is fio's escaped colon in filename= (by-path names, C\:\ on Windows), not a shell escape.
    lexer = shlex.shlex(args, posix=True)
    lexer.whitespace_split, lexer.escape, lexer.commenters = True, "", ""
    try:
        words = list(lexer)
    except ValueError:
        words = args.split()
    out: dict = {"global": {}, "jobs": {}}
    section = out["global"]
    for w in words:
        if not w.startswith("--"):
            continue
        key, eq, value = w[2:].partition("=")
        key = key.replace("-", "_") if key in ("output-format", "terse-version", "status-interval") else key
        if key == "name":
            section = out["jobs"].setdefault(value, {})
        else:
            section[key] = value if eq else "1"
    return out


def _job_file_options(block: str) -> dict:
    out: dict = {"global": {}, "jobs": {}}
    section = out["global"]
    for line in block.splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            name = line[1:-1].strip()
            section = out["global"] if name == "global" else out["jobs"].setdefault(name, {})
            continue
        key, eq, value = line.partition("=")
        section[key.strip()] = value.strip() if eq else "1"
    return out


def _merge(a: dict, b: dict) -> dict:
    jobs = {**a["jobs"]}
    for name, opts in b["jobs"].items():
        jobs[name] = {**jobs.get(name, {}), **opts}
    return {"global": {**a["global"], **b["global"]}, "jobs": jobs}


def echoed_runs(text: str) -> list[tuple[str, dict | None, int]] | None:
    """The file cut at its echoed commands: [(chunk text without the echoes, options, first
    line number)], or None when nothing is echoed (the whole text is one chunk)."""
    spans = _echo_spans(text)
    if not spans:
        return None
    chunks: list[tuple[str, dict | None, int]] = []
    pieces: list[str] = []
    opts, pos, line, has_result = None, 0, 1, False
    counted, lines = 0, 1  # line numbers counted on from the last count (linear in the file)
    for start, end, found in spans:
        between = text[pos:start]
        pieces.append(between)  # output after the last echo belongs to the run that echo began
        has_result = has_result or bool(_RESULT.search(between))
        if has_result:  # this echo begins the next run
            chunks.append(("".join(pieces), opts, line))
            lines += text.count("\n", counted, start)
            counted = start
            pieces, opts, has_result, line = [], None, False, lines
        opts = found if opts is None or opts is found else _merge(opts, found)
        pos = end
    pieces.append(text[pos:])
    chunks.append(("".join(pieces), opts, line))
    return chunks


def has_results(chunk: str) -> bool:
    return bool(_RESULT.search(chunk))


def _missing(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


#: job options that start a new reporting group (fio HOWTO "stonewall", "new_group"): sections after them
#: are reported apart from those before
_NEW_GROUP = ("stonewall", "wait_for_previous", "new_group")


def _group_files(options: dict, first: str | None) -> list[str] | None:
    """The files of the echoed job sections that one ``group_reporting`` row sums: the sections from the one
    named ``first`` (fio names a group after its first job) up to the next that starts a new group
    (``stonewall``, ``new_group``; all of them where the global section sets one), each section's own
    ``filename=`` or the global one. None where a section names none or no section is named ``first``."""
    glob, jobs = options["global"], options["jobs"]
    every = any(k in glob for k in _NEW_GROUP)
    names = list(jobs)
    if first not in jobs:
        return None
    files: list[str] = []
    for i in range(names.index(first), len(names)):
        opts = jobs[names[i]]
        if i > names.index(first) and (every or any(k in opts for k in _NEW_GROUP)):
            break
        section = split_filenames(opts.get("filename", glob.get("filename")))
        if not section:
            return None
        files += section
    return files


#: what fio's output itself states of a run and an echo also gives: where they differ the echo is not that run's
#: command (a terminal log with outputs pasted out of order after a command: Ingimarsson/iouring-perf-analysis
#: exp_17 output.txt, an ioengine=liburing run under an io_uring command with --sqthread_poll)
_STATED = ("ioengine", "iodepth", "pattern")


def _disagrees(row: dict, fields: dict, defaulted) -> str:
    """"column: output X, echo Y" for the first stated field where the run's own output and the echo differ, else ""."""
    own_default = set(filter(None, (row.get("defaulted") or "").split(";")))
    for col in _STATED:
        mine, echoed = row.get(col), fields.get(col)
        if _missing(mine) or _missing(echoed) or col in own_default or col in defaulted:
            continue
        if str(mine) != str(echoed):
            return f"{col}: output {mine}, echo {echoed}"
    return ""


def apply_echo(rows: list[dict], options: dict, path) -> None:
    """Fill what a chunk's rows leave unknown (or took from fio's defaults) from its echo."""
    jobs = options["jobs"]
    only = next(iter(jobs.values())) if len(jobs) == 1 else None
    cache: dict = {}
    for row in rows:
        job = jobs.get(row.get("job_name"), only if only is not None else {})
        key = id(job)
        if key not in cache:
            opts = {**options["global"], **job}
            try:
                fields, defaulted = workload_fields(opts, path)
                # (an echoed command or job file shows a bare flag: --hipri, a 'hipri' line)
                fields.update(engine_fields(opts, path, iodepth=fields.get("iodepth"), bare_echoed=True))
                pacing = pacing_fields(opts, path) if not PACING_OPTIONS.isdisjoint(opts) else {}
            except IngestError as exc:
                raise IngestError(path, f"the echoed command: {exc.problem}") from None
            cache[key] = (opts, fields, defaulted, pacing)
        opts, fields, defaulted, pacing = cache[key]
        clash = _disagrees(row, fields, defaulted)
        if clash:  # the output says another run than the echo: a pasted log, not this command's output
            warnings.warn(f"{path}: a run's output ({clash}) disagrees with the fio command echoed before it: that "
                          f"command's options are not applied to it", IngestWarning, stacklevel=3)
            continue
        if row.get("level") == "group" and len(jobs) > 1:  # a group_reporting row: its sections' files, not one's
            files = _group_files(options, row.get("job_name"))
            fields = {**fields, "target_names": ";".join(files) if files else None,
                      "targets": len(set(files)) if files else None}
        for col, value in pacing.get(row.get("direction"), {}).items():
            if _missing(row.get(col)):
                row[col] = value
        was_default = set(filter(None, (row.get("defaulted") or "").split(";")))
        for col, value in fields.items():
            if _missing(row.get(col)) or (col in was_default and col not in defaulted):
                row[col] = value
                if col in defaulted:
                    was_default.add(col)
                else:
                    was_default.discard(col)
        row["defaulted"] = ";".join(sorted(was_default)) or None
        if row.get("level") is None and "group_reporting" in opts and (fields.get("numjobs") or 1) > 1:
            row["level"] = "group"


def apply_targets(rows: list[dict]) -> None:
    """``targets`` per run: distinct files/devices over the run's jobs that completed (a failed job's file carried
    none of the run's I/O: QA s25, H2), over all of them where every job failed; only where all are known."""
    if len(rows) < 2:
        return
    for row in rows:
        if row.get("target_names") is not None:
            break
    else:  # no row names its targets: no run's can be counted
        return
    by_run: dict = {}
    for row in rows:
        by_run.setdefault(row.get("run"), []).append(row)
    for run_rows in by_run.values():
        names = [r.get("target_names") for r in run_rows]
        if len(run_rows) < 2 or any(n is None for n in names):
            continue
        done = [n for n, r in zip(names, run_rows) if not r.get("error")] or names
        count = len({t for n in done for t in n.split(";")})
        for r in run_rows:
            r["targets"] = count


def warn_empty(path, line: int) -> None:
    warnings.warn(f"{path}: the run echoed at line {line} wrote no results (failed?); nothing read for it",
                  IngestWarning, stacklevel=4)


#: What makes two runs the same measurement (QA s25 H24): the tool's own identity of each row and its
#: numbers, to the last digit fio wrote (a different run never repeats all of them).
_IDENTITY = ("tool", "tool_version", "format", "job_name", "hostname", "group_id", "final", "direction", "pattern",
             "block_size_bytes", "iodepth", "numjobs", "ios", "runtime_s", "io_bytes", "lat_mean_s", "clat_mean_s",
             "slat_mean_s", "lat_max_s", "clat_p50_s", "clat_p99_s", "cpu_usr", "cpu_sys", "error")


def drop_copies(rows: list, columns, label_columns=()) -> tuple[list, list[tuple[str, str]]]:
    """``rows`` without the runs that are copies of a run read before them (a results folder and its
    backup copy, the same output appended twice), and (copy, original) names of each dropped run.

    Two runs are the same when every row of one, in order, equals the other's in the tool's identity
    columns and numbers (:data:`_IDENTITY`: job names, host, I/O counts, run times, latencies, CPU)
    and in the labels given to them; a run that measured nothing (only failed jobs) is never taken
    for a copy. Rows are dicts or tuples of ``columns``' values (labels: dicts only). About a
    microsecond a row: the keys are taken at C speed (a NaN of another object than its twin's can
    only hide a copy, never make one)."""
    index = {c: i for i, c in enumerate(columns)}
    key_of = operator.itemgetter(*(index[c] for c in _IDENTITY))
    where_of = operator.itemgetter(index["source_path"], index["run"])
    names = list(_IDENTITY) + [c for c in label_columns if c not in index]
    def dict_key(row: dict) -> tuple:
        return tuple(None if isinstance(v, float) and math.isnan(v) else v for v in (row.get(c) for c in names))

    # first each run's first row: only runs whose first rows are equal can be copies, and those are compared whole
    # (most reads have none: one cheap pass, ingest speed)
    heads: dict[tuple, tuple] = {}
    sp, rn = index["source_path"], index["run"]
    last_path, last_run = None, None
    for row in rows:
        if type(row) is tuple:
            if row[sp] is last_path and row[rn] == last_run:  # the run of the row before (a file's rows are together)
                continue
            last_path, last_run = row[sp], row[rn]
            where = (last_path, last_run)
            if where not in heads:
                heads[where] = key_of(row)
        else:
            last_path = None
            where = (row.get("source_path"), row.get("run"))
            if where not in heads:
                heads[where] = dict_key(row)
    if len(heads) < 2:
        return rows, []
    seen: dict[tuple, tuple] = {}
    suspects: set[tuple] = set()  # (path, run) of the runs whose heads repeat another's
    for where, head in heads.items():
        other = seen.setdefault(head, where)
        if other != where:
            suspects.update((where, other))
    if not suspects:
        return rows, []
    runs: dict[tuple, list] = {}
    for row in rows:
        where = where_of(row) if type(row) is tuple else (row.get("source_path"), row.get("run"))
        if where in suspects:
            runs.setdefault(where, []).append(key_of(row) if type(row) is tuple else dict_key(row))
    ios = _IDENTITY.index("ios")
    first: dict[tuple, tuple] = {}
    copies: dict[tuple, tuple] = {}
    for where, keys in runs.items():
        original = first.setdefault(tuple(keys), where)
        if original != where and any(k[ios] is not None and k[ios] > 0 for k in keys):  # (a measurement)
            copies[where] = original
    if not copies:
        return rows, []
    per_file: dict = {}
    for path, _ in heads:  # every run read, for the names
        per_file[path] = per_file.get(path, 0) + 1

    def name(where: tuple) -> str:  # 'path' for a file of one run, 'path (run N)' for one of several
        return f"{where[0]} (run {where[1]})" if per_file[where[0]] > 1 else str(where[0])

    kept = [r for r in rows if (where_of(r) if type(r) is tuple else (r.get("source_path"), r.get("run")))
            not in copies]
    return kept, [(name(c), name(o)) for c, o in copies.items()]
