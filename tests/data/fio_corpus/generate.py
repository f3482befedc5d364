"""Regenerate the fio output corpus in this folder: one real fio run per option combination,
written as JSON (or json+), normal and terse output at once and split into three files.

    python tests/data/fio_corpus/generate.py [case …]   # needs fio on PATH; about 30 s for all

Each run is at most about a second (``ioengine=null`` or a small file in a temporary folder).
The command of every case is in ``CASES`` below and in ``commands.txt`` (written by this
script). Outputs are real measurements of the machine that ran it (see ../SOURCES.md), not
synthetic numbers; their values differ from run to run, so tests compare each file with the
JSON of the same run, never with constants.
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
NULL = ["--ioengine=null", "--size=64M", "--runtime=300ms", "--time_based"]
FILE = ["--filename=data.bin", "--size=8M", "--runtime=300ms", "--time_based"]

#: name → (fio arguments, output format with the JSON flavour first, setup arguments or None)
CASES: dict[str, tuple[list[str], str, list[str] | None]] = {
    "bs-1m": (["--name=j", *NULL, "--bs=1m", "--rw=read"], "json", None),
    "bs-4kb": (["--name=j", *NULL, "--bs=4kb", "--rw=randread"], "json", None),
    "bs-4kib": (["--name=j", *NULL, "--bs=4kib", "--rw=randread"], "json", None),
    "bs-128KiB": (["--name=j", *NULL, "--bs=128KiB", "--rw=read"], "json", None),
    "bs-1MiB": (["--name=j", *NULL, "--bs=1MiB", "--rw=read"], "json", None),
    "bs-4K-upper": (["--name=j", *NULL, "--bs=4K", "--rw=randwrite", "--iodepth=8"], "json", None),
    "kb_base-1000-4k": (["--name=j", *NULL, "--kb_base=1000", "--bs=4k", "--rw=randread"], "json", None),
    "kb_base-1000-after-bs": (["--name=j", *NULL, "--bs=4k", "--kb_base=1000", "--rw=randread"], "json", None),
    "bs-and-bssplit": (["--name=j", *NULL, "--bs=4k", "--bssplit=4k/50:128k/50", "--rw=randread"], "json", None),
    "bsrange": (["--name=j", *NULL, "--bsrange=4k-64k", "--rw=randread"], "json", None),
    "bs-per-direction": (["--name=j", *NULL, "--bs=4k,16k", "--rw=randrw", "--rwmixread=70"], "json", None),
    "rwmixread-30": (["--name=j", *NULL, "--bs=8k", "--rw=randrw", "--rwmixread=30", "--iodepth=4"], "json", None),
    "unified-rw-reporting": (["--name=j", *NULL, "--bs=4k", "--rw=randrw", "--unified_rw_reporting=1"], "json",
                             None),
    "numjobs-2": (["--name=j", *NULL, "--bs=4k", "--rw=randread", "--numjobs=2"], "json", None),
    "numjobs-3-group": (["--name=j", *NULL, "--bs=4k", "--rw=randread", "--numjobs=3", "--group_reporting"], "json",
                        None),
    "group-two-sections": (["two-sections.fio"], "json", None),
    "jobname-semicolon": (["--name=x;y;z", *NULL, "--bs=4k", "--rw=read"], "json", None),
    "status-interval": (["--name=si", "--ioengine=null", "--size=64M", "--bs=4k", "--rw=randread",
                         "--rate_iops=4000", "--runtime=1", "--time_based", "--status-interval=300ms"], "json", None),
    "json-plus": (["--name=jp", *NULL, "--bs=4k", "--rw=randread", "--iodepth=4"], "json+", None),
    "libaio-lat-percentiles": (["--name=lp", *FILE, "--bs=4k", "--rw=randread", "--ioengine=libaio", "--iodepth=4",
                                "--lat_percentiles=1"], "json", None),
    "psync-fsync": (["--name=fs", *FILE, "--bs=4k", "--rw=randwrite", "--ioengine=psync", "--fsync=4"], "json",
                    None),
    "terse-v5-randrw": (["--name=t5", *NULL, "--bs=8k", "--rw=randrw", "--rwmixread=60", "--iodepth=2",
                         "--terse-version=5"], "json", None),
    "terse-v2-trim": (["--name=t2", *NULL, "--bs=4k", "--rw=randtrim", "--terse-version=2"], "json", None),
    "failed-open": (["--name=noopen", "--filename=/proc/self/status", "--size=1M", "--rw=write"], "json", None),
    "failed-verify": (["--name=vfail", "--filename=data.bin", "--size=256k", "--bs=4k", "--rw=read", "--verify=md5",
                       "--verify_only=1"], "json",
                      ["--name=prep", "--filename=data.bin", "--size=256k", "--bs=4k", "--rw=write", "--verify=crc32c",
                       "--do_verify=0"]),
}
TWO_SECTIONS = ("[global]\nioengine=null\nsize=64M\nbs=4k\nruntime=300ms\ntime_based\ngroup_reporting\n"
                "[a]\nrw=randread\n[b]\nrw=randread\n")


def split(text: str) -> dict[str, str]:
    """fio's combined output → {'json': …, 'normal': …, 'terse': …} (documents in file order)."""
    decoder = json.JSONDecoder()
    docs, rest, pos = [], [], 0
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
    terse = [ln for ln in rest if ln[:2] in ("2;", "3;", "4;", "5;") and ln.count(";") > 40]
    normal = [ln for ln in rest if ln not in terse]
    return {"json": "".join(docs), "normal": "".join(normal), "terse": "".join(terse)}


def run_case(name: str, fio: str) -> None:
    args, flavour, setup = CASES[name]
    with tempfile.TemporaryDirectory() as tmp:
        (pathlib.Path(tmp) / "two-sections.fio").write_text(TWO_SECTIONS)
        if setup:
            subprocess.run([fio, *setup, "--output=/dev/null"], cwd=tmp, check=True, timeout=60)
        out = pathlib.Path(tmp) / "out.txt"
        subprocess.run([fio, *args, f"--output-format={flavour},normal,terse", f"--output={out}"], cwd=tmp,
                       timeout=60, capture_output=True, check=False)  # failing cases exit 1 and still write their report
        parts = split(out.read_text())
    suffix = "jsonplus" if flavour == "json+" else "json"
    for form, body in (("json", parts["json"]), ("normal", parts["normal"]), ("terse", parts["terse"])):
        (HERE / f"{name}.{suffix if form == 'json' else form}").write_text(body)


def main() -> int:
    fio = shutil.which("fio")
    if fio is None:
        print("fio is not installed", file=sys.stderr)
        return 1
    version = subprocess.run([fio, "--version"], capture_output=True, text=True, check=True).stdout.strip()
    lines = [f"# {version}; each: fio <args> --output-format=<json|json+>,normal,terse --output=out.txt"]
    only = set(sys.argv[1:])
    for name, (args, flavour, setup) in CASES.items():
        if not only or name in only:
            run_case(name, fio)
        prep = f"   (after: fio {shlex.join(setup)})" if setup else ""
        lines.append(f"{name}: fio {shlex.join(args)} --output-format={flavour},normal,terse{prep}")
    lines.append(f"two-sections.fio:\n{TWO_SECTIONS}")
    (HERE / "commands.txt").write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
