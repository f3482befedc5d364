"""Regenerate the round-3 fio outputs in this folder (issue 17 failure classes, issue 16 appended runs).

    python tests/data/fio_round3/generate.py [case …]   # needs fio on PATH; about a minute for all

Every case is one real fio run (``ioengine=null`` or small files in a temporary folder, a second
or less) written as ``--output-format=<json|json+>,normal,terse`` at once: the raw file is kept
as ``<case>.combined`` and split into ``<case>.json`` (or ``.jsonplus``), ``<case>.normal`` and
``<case>.terse`` (terse version per case, v2–v5). Special cases:

* ``client``: fio in client/server mode, two ``fio --server`` processes on 127.0.0.1 (started
  and stopped here), one job each;
* ``cut-normal``: the normal output of a 3-job run cut right after its second complete job
  block (a run killed while printing), made from that run's own ``.normal``;
* ``appended-*``: a wrapper loop that runs fio several times, appending to one file, each run
  preceded by an echoed command line (``Fio command: fio … --filename=a:b:c …``) or by the job
  file it ran (``cat job.fio``), with 1…N target files: the ``ssd_scaling.txt`` shape of issue 16.

Outputs are real measurements of the machine that ran it (see ../SOURCES.md), not synthetic
numbers; their values differ from run to run, so tests compare each form with the JSON of the
same run, never with constants. ``commands.txt`` (written here) lists every command.
"""

from __future__ import annotations

import json
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent


NULL = ["--ioengine=null", "--size=64M", "--runtime=300ms", "--time_based"]
LONG_NAME = "n" * 200

#: name → (fio arguments, JSON flavour, terse version)
CASES: dict[str, tuple[list[str], str, int]] = {
    # 1. many clones without group_reporting: terse lines whose runtimes differ by a few %
    "terse-clones": (["--name=clone", "--ioengine=null", "--size=1G", "--bs=4k", "--rw=randread", "--numjobs=32"],
                     "json", 4),
    # 2. one reported group holding a 4 KiB and a 64 KiB job
    "mixed-bs-group": (["mixed-bs.fio"], "json", 3),
    # 3. status reports with two stonewalled groups
    "status-stonewall": (["stonewall.fio", "--status-interval=300ms"], "json", 5),
    "status-stonewall-plus": (["stonewall.fio", "--status-interval=300ms"], "json+", 3),
    # 5. unified reporting: both (read, write and mixed rows) and mixed only, 70/30
    "unified-both": (["--name=ub", *NULL, "--bs=4k", "--rw=randrw", "--rwmixread=70",
                      "--unified_rw_reporting=both"], "json", 3),
    "unified-mixed-70": (["--name=um", *NULL, "--bs=4k", "--rw=randrw", "--rwmixread=70",
                          "--unified_rw_reporting=mixed"], "json", 4),
    # 6. steady-state detection over one sample: fio writes "slope" : -nan
    "steadystate-nan": (["--name=ss", "--ioengine=null", "--size=64M", "--bs=4k", "--rw=randread", "--runtime=2",
                         "--time_based", "--ss=iops_slope:0.1%", "--ss_dur=1", "--ss_ramp=0"], "json", 3),
    # 7. latencies fio did not measure
    "gtod-reduce": (["--name=gr", *NULL, "--bs=4k", "--rw=randread", "--gtod_reduce=1"], "json", 3),
    "no-slat": (["--name=ns", *NULL, "--bs=4k", "--rw=randread", "--iodepth=4", "--disable_slat=1"], "json", 2),
    "null-qd1-no-slat": (["--name=q1", *NULL, "--bs=4k", "--rw=randwrite"], "json", 5),
    # 8. one reported group holding a reader and a writer
    "reader-writer-group": (["reader-writer.fio"], "json", 3),
    # 9. (cut-normal is made from this run)
    "three-jobs": (["--name=t", *NULL, "--bs=4k", "--rw=randread", "--numjobs=3"], "json", 3),
    # 10. lesser classes
    "percentage-random-50": (["--name=pr", *NULL, "--bs=4k", "--rw=randread", "--percentage_random=50"], "json", 3),
    "two-ios-slow": (["--name=slow", "--ioengine=null", "--size=8k", "--bs=4k", "--rw=read",
                      "--thinktime=1200ms"], "json", 3),
    "cpuio-beside-io": (["cpuio.fio"], "json", 3),
    "create-only-beside-io": (["create-only.fio"], "json", 3),
    "long-name": ([f"--name={LONG_NAME}", *NULL, "--bs=8k", "--rw=randwrite", "--iodepth=2"], "json", 3),
    # QA F6: a write job with verify=crc32c reads back what it wrote after the writes (a second phase)
    "verify-write": (["--name=vw", "--filename=vw.dat", "--size=8m", "--bs=4k", "--rw=write", "--verify=crc32c"],
                     "json", 3),
}

JOB_FILES = {
    "mixed-bs.fio": ("[global]\nioengine=null\nsize=64M\nruntime=300ms\ntime_based\nrw=randread\ngroup_reporting\n"
                     "[small]\nbs=4k\n[big]\nbs=64k\n"),
    "stonewall.fio": ("[global]\nioengine=null\nsize=64M\nbs=4k\nrw=randread\nrate_iops=2000\nruntime=1\n"
                      "time_based\n[first]\nstonewall\n[second]\nstonewall\n"),
    "reader-writer.fio": ("[global]\nioengine=null\nsize=64M\nbs=4k\nruntime=300ms\ntime_based\ngroup_reporting\n"
                          "[reader]\nrw=read\n[writer]\nrw=write\n"),
    "cpuio.fio": ("[global]\nruntime=300ms\ntime_based\n[burn]\nioengine=cpuio\ncpuload=50\n"
                  "[io]\nioengine=null\nsize=64M\nbs=4k\nrw=randread\n"),
    "create-only.fio": ("[make]\nfilename=made.bin\nsize=1M\ncreate_only=1\n"
                        "[io]\nioengine=null\nsize=64M\nbs=4k\nrw=randread\nruntime=300ms\ntime_based\n"),
}


def split(text: str) -> dict[str, str]:
    """fio's combined output → {'json': …, 'normal': …, 'terse': …}, each part in file order.

    JSON documents are found with the stdlib decoder on a copy where fio's ``-nan``/``nan``
    values read as ``NaN`` (same length, so positions hold); the parts are cut from the original."""
    probe = re.sub(r"(?<=: )-nan\b", "NaN ", text)
    probe = re.sub(r"(?<=: )nan\b", "NaN", probe)
    decoder = json.JSONDecoder()
    docs, rest, pos = [], [], 0
    while pos < len(text):
        if text.startswith("{", pos) and (pos == 0 or text[pos - 1] == "\n"):
            _, end = decoder.raw_decode(probe, pos)
            docs.append(text[pos:end] + "\n")
            pos = end + (text[end:end + 1] == "\n")
            continue
        nl = text.find("\n", pos)
        nl = len(text) if nl < 0 else nl + 1
        rest.append(text[pos:nl])
        pos = nl
    terse = [ln for ln in rest if ln[:2] in ("2;", "3;", "4;", "5;") and ln.count(";") > 40]
    normal = [ln for ln in rest if ln not in terse]
    return {"json": "".join(docs), "normal": "".join(normal), "terse": "".join(terse)}


def _write_job_files(tmp: pathlib.Path) -> None:
    for name, body in JOB_FILES.items():
        (tmp / name).write_text(body)


def _save(name: str, text: str, flavour: str) -> None:
    parts = split(text)
    (HERE / f"{name}.combined").write_text(text)
    (HERE / f"{name}.{'jsonplus' if flavour == 'json+' else 'json'}").write_text(parts["json"])
    (HERE / f"{name}.normal").write_text(parts["normal"])
    (HERE / f"{name}.terse").write_text(parts["terse"])


def run_case(name: str, fio: str) -> None:
    args, flavour, terse = CASES[name]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        _write_job_files(tmp)
        out = tmp / "out.txt"
        subprocess.run([fio, *args, f"--output-format={flavour},normal,terse", f"--terse-version={terse}",
                        f"--output={out}"], cwd=tmp, timeout=120, capture_output=True, check=False)
        _save(name, out.read_text(), flavour)


CLIENT_JOB = "[global]\nioengine=null\nsize=64M\nbs=4k\nruntime=300ms\ntime_based\n[cj]\nrw=randread\niodepth=2\n"


def run_client(fio: str, ports=(8871, 8872)) -> str:
    """Two fio servers on 127.0.0.1, one job each, written in every form at once."""
    job = CLIENT_JOB
    servers = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        (tmp / "client.fio").write_text(job)
        try:
            for port in ports:
                servers.append(subprocess.Popen([fio, f"--server=ip:127.0.0.1,{port}"], cwd=tmp,
                                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            time.sleep(1.0)
            out = tmp / "out.txt"
            clients = [a for port in ports for a in (f"--client=ip:127.0.0.1,{port}", "client.fio")]
            subprocess.run([fio, *clients, "--output-format=json,normal,terse", f"--output={out}"], cwd=tmp,
                           timeout=120, capture_output=True, check=True)
            _save("client", out.read_text(), "json")
            # normal output alone prefixes each server's lines with <hostname> (the combined form does not)
            subprocess.run([fio, *clients, "--output-format=normal", f"--output={out}"], cwd=tmp, timeout=120,
                           capture_output=True, check=True)
            (HERE / "client-prefixed.normal").write_text(out.read_text())
        finally:
            for s in servers:
                s.terminate()
                s.wait(timeout=10)
    return _client_command(ports, job)


def _client_command(ports=(8871, 8872), job=CLIENT_JOB) -> str:
    clients = " ".join(f"--client=ip:127.0.0.1,{port} client.fio" for port in ports)
    return (f"client: fio --server=ip:127.0.0.1,{ports[0]} & fio --server=ip:127.0.0.1,{ports[1]} & "
            f"fio {clients} --output-format=json,normal,terse; client-prefixed.normal: the same with "
            f"--output-format=normal   (client.fio: {job!r})")


def cut_normal() -> str:
    """three-jobs.normal cut right after its second complete job block."""
    text = (HERE / "three-jobs.normal").read_text()
    starts = [i for i in range(len(text)) if text.startswith("t: (groupid=", i)]
    (HERE / "cut-normal.normal").write_text(text[:starts[2]])
    return "cut-normal: three-jobs.normal cut before its third job block (a run killed while printing)"


#: appended runs: form → (number of runs, how the command is echoed)
APPENDED = {"appended-normal": ("normal", 8, "command"), "appended-json": ("json", 6, "command"),
            "appended-terse": ("terse", 5, "command"), "appended-jobfile": ("normal", 5, "jobfile")}


def appended(name: str, fio: str) -> str:
    """A wrapper loop: run k uses k target files, numjobs=4, output appended to one file."""
    form, runs, echo = APPENDED[name]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        out = tmp / "ssd_scaling.txt"
        for k in range(1, runs + 1):
            files = ":".join(f"t{i}" for i in range(k))
            args = ["--name=scale", "--ioengine=null", "--size=16M", f"--filename={files}", "--bs=128k", "--rw=read",
                    "--numjobs=4", "--iodepth=2", "--runtime=200ms", "--time_based", "--group_reporting",
                    f"--output-format={form}"]
            with out.open("a") as fh:
                if echo == "command":
                    fh.write(f"Fio command: fio {shlex.join(args)}\n")
                else:
                    job = "[global]\n" + "".join(f"{a[2:]}\n" for a in args if not a.startswith("--output"))
                    job = job.replace("name=scale\n", "").replace("[global]\n", "[scale]\n")
                    (tmp / "job.fio").write_text(job)
                    fh.write(f"$ cat job.fio\n{job}$ fio job.fio --output-format={form}\n")
            cmd = [fio, *args] if echo == "command" else [fio, "job.fio", f"--output-format={form}"]
            with out.open("a") as fh:
                subprocess.run(cmd, cwd=tmp, stdout=fh, stderr=subprocess.DEVNULL, timeout=60, check=True)
        (HERE / f"{name}.txt").write_text(out.read_text())
    return (f"{name}.txt: for k in 1..{runs}: echo the {echo} then fio --name=scale --ioengine=null --size=16M "
            f"--filename=t0:…:t(k-1) --bs=128k --rw=read --numjobs=4 --iodepth=2 --runtime=200ms --time_based "
            f"--group_reporting --output-format={form} >> {name}.txt")


#: QA F17/F18: runs of one job name appended with ``>>`` and no wrapper line, (iodepth, bs) per run
SAME_NAME = [("1", "4k"), ("4", "64k"), ("16", "1m")]


def appended_same_name(fio: str) -> str:
    """``fio --name=ap … --output-format=json,normal,terse >> file`` three times, no echo: the
    parts are appended to ``appended-same-name.{normal,terse,json}`` (the JSON is the reference)."""
    parts: dict[str, list[str]] = {"json": [], "normal": [], "terse": []}
    (HERE / "qa").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for qd, bs in SAME_NAME:
            out = pathlib.Path(tmp) / "out.txt"
            subprocess.run([fio, "--name=ap", *NULL, f"--bs={bs}", "--rw=randread", f"--iodepth={qd}",
                            "--output-format=json,normal,terse", f"--output={out}"], cwd=tmp, timeout=60,
                           capture_output=True, check=True)
            for form, text in split(out.read_text()).items():
                parts[form].append(text)
    for form, texts in parts.items():
        (HERE / "qa" / f"appended-same-name.{form}").write_text("".join(texts))
    return ("qa/appended-same-name.{json,normal,terse}: for (qd, bs) in " + repr(SAME_NAME) + ": fio --name=ap "
            f"{shlex.join(NULL)} --bs=$bs --rw=randread --iodepth=$qd --output-format=json,normal,terse, each "
            "part appended to its file (no wrapper line)")


#: QA F16: by-path style device names hold colons, written ``\:`` for fio
COLON_FILES = ["pci-0000:01:00.0", "pci-0000:02:00.0"]


def escaped_colons(fio: str) -> str:
    """A wrapper printing ``Fio command: fio … --filename=pci-0000\\:01\\:00.0:…`` (the string fio
    got) before each of 2 runs (1 and 2 files); normal output appended, JSON of each run beside."""
    normal, docs = [], []
    (HERE / "qa").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for k in (1, 2):
            names = ":".join(n.replace(":", "\\:") for n in COLON_FILES[:k])
            args = ["--name=c", f"--filename={names}", "--size=4M", "--bs=4k", "--rw=randread", "--runtime=200ms",
                    "--time_based"]
            out = pathlib.Path(tmp) / "out.txt"
            subprocess.run([fio, *args, "--output-format=json,normal", f"--output={out}"], cwd=tmp, timeout=60,
                           capture_output=True, check=True)
            found = split(out.read_text())
            normal.append(f"Fio command: fio {' '.join(args)}\n{found['normal']}")
            docs.append(found["json"])
    (HERE / "qa" / "escaped-colons.txt").write_text("".join(normal))
    (HERE / "qa" / "escaped-colons.json").write_text("".join(docs))
    return ("qa/escaped-colons.txt: for k in 1 2: echo 'Fio command: fio <args>' then fio --name=c "
            "--filename=pci-0000\\:01\\:00.0[:pci-0000\\:02\\:00.0] --size=4M --bs=4k --rw=randread "
            "--runtime=200ms --time_based (normal part appended; the JSON part to escaped-colons.json)")


def main() -> int:
    fio = shutil.which("fio")
    if fio is None:
        print("fio is not installed", file=sys.stderr)
        return 1
    version = subprocess.run([fio, "--version"], capture_output=True, text=True, check=True).stdout.strip()
    only = set(sys.argv[1:])
    lines = [(f"# {version}; each: fio <args> --output-format=<json|json+>,normal,terse --terse-version=<v> "
              "--output=out.txt")]
    for name, (args, flavour, terse) in CASES.items():
        if not only or name in only:
            run_case(name, fio)
        lines.append(f"{name}: fio {shlex.join(args)} --output-format={flavour},normal,terse --terse-version={terse}")
    for name, body in JOB_FILES.items():
        lines.append(f"{name}:\n{body}")
    client = run_client(fio) if not only or "client" in only else None
    lines.append(client or _client_command())
    lines.append(cut_normal())
    for name in APPENDED:
        if not only or name in only:
            lines.append(appended(name, fio))
    lines.append(appended_same_name(fio) if not only or "appended-same-name" in only else "")
    lines.append(escaped_colons(fio) if not only or "escaped-colons" in only else "")
    (HERE / "commands.txt").write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
