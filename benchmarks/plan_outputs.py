"""Record the planner's outputs and compare two records: a speed change must change no answer.

Run:  python benchmarks/plan_outputs.py record before.pkl      (on the code before the change)
      python benchmarks/plan_outputs.py record after.pkl       (after it)
      python benchmarks/plan_outputs.py compare before.pkl after.pkl

Recorded: ``bench_plan.py``'s own four spaces (a quarter and all of its 1,327,104 configurations, with and without
the preset's memory-DMA extras) under its five targets, ranked by drives, lanes and headroom — each table of the
:class:`~nvmemodel.plan.Plan` (answers, unverified, closest misses per family) as pickled DataFrames, compared
exactly, and its text — and the ``nvmemodel plan`` command lines of the docs and the CLI tests, each printed plain,
``--json`` and ``--csv`` (stdout, stderr and exit status; the "in 1.23 s" of a run's time left out). About a
minute. The pickles are this script's own, read back only by it (``compare``). Record both sides against the same
catalogs and model: a change elsewhere (a drive's field, a component) shows as a difference too.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import pickle
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

_TIME = re.compile(r"in \d+\.\d\d s")
_MIX = ["--group", "drive=intel-p3700-800gb,count=8", "--group", "drive=intel-p5800x-800gb,count=8"]
_QA5 = ["--preset", "dell-r7525", "--group", "drive=samsung-pm1733-u2,count=8,name=g4",
        "--group", "drive=intel-p3700-800gb,count=16,switch=broadcom-pex9797,switches=2,name=g3"]
_MIRROR = ["--group", "drive=samsung-pm1733-u2,count=4,name=a", "--group", "drive=intel-p3700-800gb,count=4,mirror=a"]
_DOCS = ["--iops", "10M", "--read-bw", "60GB/s", "--gen", "4,5", "--sockets", "1,2", "--drive",
         "samsung-pm1743,samsung-pm1733-u2", "--max-drives", "24"]
#: ``nvmemodel plan`` arguments: README, docs/planning.md, docs/hosts.md, docs/topologies.md, tests/cli and tests/plan
COMMANDS = [
    ["--iops", "10M", "--read-bw", "60GB/s", "--drive", "intel-p5800x-800gb,samsung-pm1733-u2", "--rank", "cost",
     "--price", "drive=1100"],
    _DOCS, [*_DOCS, "--rank", "lanes"], [*_DOCS, "--rank", "headroom"],
    ["--iops", "10M", "--read-bw", "60GB/s", "--latency", "200us", "--drive", "intel-p5800x-800gb,samsung-pm1733-u2",
     "--max-drives", "24", "--rank", "cost", "--price", "drive.intel-p5800x-800gb=2400",
     "--price", "drive.samsung-pm1733-u2=1100"],
    ["--iops", "20M", "--host", "amd-epyc-7742,amd-epyc-7742:1,intel-xeon-platinum-8380", "--max-drives", "24",
     "--rank", "cost", "--price", "drive=1000", "--price", "socket.amd-epyc-7742=6950",
     "--price", "socket.intel-xeon-platinum-8380=8100"],
    ["--preset", "lenovo-sr850-direct", "--read-bw", "12GB/s", "--iops", "2.4M", "--connection",
     "direct-x4,direct-x2,lenovo-1610-4p,lenovo-810-4p", "--max-drives", "4"],
    ["--host", "intel-xeon-6980p", "--iops", "20M"],
    ["--iops", "2M", "--latency", "50us", *_MIX, "--io-stack", "libaio,spdk", "--rank", "cost",
     "--price", "drive.intel-p3700-800gb=600", "--price", "drive.intel-p5800x-800gb=2400", "--price", "socket=4000"],
    ["--iops", "12M", "--axis", "host.cycles_per_io=3000,30000", "--group", "drive=samsung-pm1733-u2,count=8,name=gen4",
     "--group", "drive=intel-p3700-800gb,count=16,switch=broadcom-pex9797,switches=2,name=gen3",
     "--order", "interleaved"],
    ["--host", "amd-epyc-9654", "--iops", "30M", "--top", "1"], ["--iops", "1000M", "--max-drives", "24"],
    ["--iops", "10M", "--host", "amd-epyc-7742"], ["--iops", "10M", "--latency", "1ns"],
    ["--iops", "1M", "--max-drives", "0"], ["--iops", "1e30"],
    ["--iops", "2M", "--latency", "50us", "--group", "drive=intel-p3700-800gb,count=8"], ["--iops", "2M", *_MIX],
    ["--iops", "16M", *_MIX, "--sockets", "2"], ["--iops", "30M", "--top", "1"],
    ["--read-bw", "10GB/s", "--latency", "200us"], ["--read-bw", "60GB/s", *_QA5, "--host", "amd-epyc-7742:1"],
    ["--iops", "12M", *_QA5, "--host", "amd-epyc-7742:1"], ["--read-bw", "4KB/s"], ["--read-bw", "60GB/s"],
    ["--preset", "ion-sr71mach5-linux", "--write-iops", "300K", *_MIRROR],
    ["--preset", "ion-sr71mach5-linux", "--write-iops", "300K", *_MIRROR, "--axis", "raid.level=raid10"],
    ["--iops", "5M", "--write-iops", "1M", "--gen", "3,4,5", "--sockets", "1,2", "--io-stack", "libaio,io_uring,spdk",
     "--rank", "cost", "--price", "drive=900"],
]


def record() -> dict:
    import bench_plan as b

    from nvmemodel import cli
    from nvmemodel.plan import plan

    out: dict = {}
    for argv in COMMANDS:
        for extra in ([], ["--json"], ["--csv"]):
            stdout, stderr = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
                try:
                    status = cli.main(["plan", *argv, *extra])
                except SystemExit as e:
                    status = ("exit", e.code)
            out[("cli", *argv, *extra)] = (status, _TIME.sub("in T s", stdout.getvalue()),
                                           _TIME.sub("in T s", stderr.getvalue()))
    for tree in (False, True):
        for fraction in (0.25, 1.0):
            for rank in ("drives", "lanes", "headroom"):
                p = plan(b.TARGETS, b.space(fraction, tree=tree), rank=rank)
                out[("bench", tree, fraction, rank)] = (
                    {k: getattr(p, k) for k in ("frame", "unverified", "rejected", "near_misses")},
                    (p.feasible, p.n_unverified, p.evaluated, p.evidence), _TIME.sub("in T s", p.explain(top=10)))
    return out


def _differences(a, b, where: tuple) -> list[str]:
    import pandas as pd

    if isinstance(a, pd.DataFrame) or isinstance(b, pd.DataFrame):
        try:
            pd.testing.assert_frame_equal(a, b, check_exact=True)
        except AssertionError as e:
            return [f"{where}: {str(e).splitlines()[0]}"]
        return []
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        return [d for k in a for d in _differences(a[k], b[k], (*where, k))]
    if isinstance(a, tuple | list) and isinstance(b, tuple | list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in _differences(x, y, (*where, i))]
    same = a == b or (a is None and b is None) or (isinstance(a, float) and a != a and b != b)
    return [] if same else [f"{where}: {str(a)[:200]!r} != {str(b)[:200]!r}"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    sub.add_parser("record").add_argument("out")
    cmp = sub.add_parser("compare")
    cmp.add_argument("before")
    cmp.add_argument("after")
    args = ap.parse_args(argv)
    if args.command == "record":
        outputs = record()
        with open(args.out, "wb") as f:
            pickle.dump(outputs, f)
        print(f"{len(outputs)} cases recorded in {args.out}")
        return 0
    with open(args.before, "rb") as f:
        before = pickle.load(f)
    with open(args.after, "rb") as f:
        after = pickle.load(f)
    diffs = [f"case only in one record: {k}" for k in before.keys() ^ after.keys()]
    for key in before.keys() & after.keys():
        diffs += _differences(before[key], after[key], key[:4])
    print("\n".join(diffs[:40]))
    print(f"{len(before.keys() & after.keys())} cases compared, {len(diffs)} differences")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
