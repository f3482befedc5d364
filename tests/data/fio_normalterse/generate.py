"""Regenerate the ``--output-format=normal,terse`` fio outputs in this folder (QA finding F7).

    python tests/data/fio_normalterse/generate.py     # needs fio on PATH; a few seconds

fio keeps one buffer per output form and writes them terse, JSON, normal, in that order, after
each report (fio stat.c, ``__show_run_stats``), so the output of ``--output-format=json,normal,terse``
with its JSON documents taken out is what ``--output-format=normal,terse`` writes for that run,
and the JSON is fio's own numbers of the same run (the reference the tests compare with):

* ``appended-qd.normalterse``: three runs of one job ``app`` (libaio, 4 KiB randread on a 16 MiB
  file in a temporary folder, iodepth 1, 4, 16) appended to one file with no wrapper line;
  ``appended-qd.json``: the three runs' JSON documents;
* ``status-clones.normalterse``: one run of ``numjobs=2`` without ``group_reporting`` and
  ``--status-interval=300ms`` (null engine, 1 s): clones and status reports; ``.json`` beside it;
* ``one.normalterse``: QA's single run, written by fio with ``--output-format=normal,terse``
  itself (no JSON taken out): ``fio --name=one --ioengine=null --size=16M --rw=randread --bs=4k
  --iodepth=8 --runtime=300ms --time_based --output-format=normal,terse``.

``commands.txt`` lists every command. Real measurements of the machine that ran it (see
../SOURCES.md); the values differ from run to run, so tests compare with the JSON of the same run.
"""

from __future__ import annotations

import json
import pathlib
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent

QD_RUN = ["--name=app", "--filename=f.bin", "--size=16M", "--rw=randread", "--bs=4k", "--ioengine=libaio",
          "--runtime=300ms", "--time_based"]
CLONES = ["--name=cl", "--ioengine=null", "--size=64M", "--rw=randread", "--bs=4k", "--numjobs=2", "--runtime=1",
          "--time_based", "--status-interval=300ms"]
ONE = ["--name=one", "--ioengine=null", "--size=16M", "--rw=randread", "--bs=4k", "--iodepth=8", "--runtime=300ms",
       "--time_based"]


def without_json(text: str) -> tuple[str, str]:
    """(the text with every JSON document taken out, the documents): a document starts with '{'
    at the start of a line (fio writes them so) and ends where the JSON decoder says."""
    decoder = json.JSONDecoder()
    rest, docs, pos = [], [], 0
    while pos < len(text):
        if text.startswith("{", pos) and (pos == 0 or text[pos - 1] == "\n"):
            _, end = decoder.raw_decode(text, pos)
            docs.append(text[pos:end] + "\n")
            pos = end + (text[end:end + 1] == "\n")
            continue
        nl = text.find("\n", pos)
        nl = len(text) if nl < 0 else nl + 1
        rest.append(text[pos:nl])
        pos = nl
    return "".join(rest), "".join(docs)


def run(fio: str, args: list[str], tmp: pathlib.Path, form: str) -> str:
    out = tmp / "out.txt"
    subprocess.run([fio, *args, f"--output-format={form}", f"--output={out}"], cwd=tmp, timeout=60,
                   capture_output=True, check=True)
    return out.read_text()


def main() -> int:
    fio = shutil.which("fio")
    if fio is None:
        print("fio is not installed", file=sys.stderr)
        return 1
    version = subprocess.run([fio, "--version"], capture_output=True, text=True, check=True).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        parts = [without_json(run(fio, [*QD_RUN, f"--iodepth={qd}"], tmp, "json,normal,terse")) for qd in (1, 4, 16)]
        (HERE / "appended-qd.normalterse").write_text("".join(p[0] for p in parts))
        (HERE / "appended-qd.json").write_text("".join(p[1] for p in parts))
        text, docs = without_json(run(fio, CLONES, tmp, "json,normal,terse"))
        (HERE / "status-clones.normalterse").write_text(text)
        (HERE / "status-clones.json").write_text(docs)
        (HERE / "one.normalterse").write_text(run(fio, ONE, tmp, "normal,terse"))
    (HERE / "commands.txt").write_text(
        f"# {version}, run by generate.py in a temporary folder\n"
        f"appended-qd: for qd in 1 4 16: fio {shlex.join(QD_RUN)} --iodepth=$qd --output-format=json,normal,terse"
        " (JSON documents to appended-qd.json, the rest appended to appended-qd.normalterse)\n"
        f"status-clones: fio {shlex.join(CLONES)} --output-format=json,normal,terse (JSON to status-clones.json)\n"
        f"one: fio {shlex.join(ONE)} --output-format=normal,terse\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
