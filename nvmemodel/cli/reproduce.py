"""``nvmemodel reproduce``: run the notebooks headless, with an index page of every figure."""

from __future__ import annotations

import re

from ..errors import ParameterError
from ._common import positive_int

#: what ``reproduce`` writes into its output folder: one folder per notebook and the index page
_OURS = re.compile(r"\d\d_\w+|index\.html")


def register(sub) -> None:
    r = sub.add_parser("reproduce", help="run every notebook headless (papermill): figures, data, index.html",
                       description="Execute notebooks/NN_*.ipynb with papermill. Each writes its executed copy, "
                                   "figures (PNG, SVG and the CSV of the data drawn) and key_numbers.json into "
                                   "OUT/<notebook>/; OUT/index.html shows every figure with its caption and links.")
    r.add_argument("--out", "--output", dest="out", default="output",
                   help="output folder, relative to the current directory (default: %(default)s)")
    r.add_argument("--quick", action="store_true", help="pass quick=True (small grids, as the tests do)")
    r.add_argument("--only", action="append", metavar="N,...",
                   help="notebooks to run, by number or name, comma-separated (default: all), e.g. --only 2,03")
    r.add_argument("--jobs", type=positive_int, default=None, metavar="N",
                   help="notebooks run at a time, one kernel each (default: the CPU count, at most 4)")
    r.add_argument("-p", "--parameter", nargs=2, action="append", metavar=("NAME", "VALUE"), dest="parameters",
                   help="set a notebook parameter, as papermill's -p does (True/False/None, a number, else text; "
                        "repeatable): given to each chosen notebook whose parameters cell declares NAME, e.g. "
                        "-p mps 512 -p iodepth 64")
    r.add_argument("--refresh", action="store_true",
                   help="developers: re-execute the notebooks in place and keep only the nbval-checked outputs")
    r.set_defaults(run=_reproduce)


def _reproduce(args) -> int:
    import time

    from .. import reproduce

    chosen = reproduce.select(args.only)  # unknown names: one line, exit 2, before anything runs
    if args.parameters and args.refresh:
        raise ParameterError("-p", " ".join(args.parameters[0]), "no -p with --refresh (the stored outputs are "
                                                                 "those of the notebooks' own parameters)")
    if args.parameters:
        reproduce.assign_parameters(chosen, args.parameters)  # an unknown name: one line, exit 2, before anything runs
    if args.refresh:
        reproduce.refresh_stored_outputs(args.only)
        return 0
    _check_out(args.out)
    start = time.perf_counter()
    done = reproduce.run_notebooks(args.out, quick=args.quick, names=args.only, jobs=args.jobs,
                                   parameters=args.parameters)
    print(f"{len(done)} notebook(s) executed into {args.out}/ in {time.perf_counter() - start:.0f} s; "
          f"open {args.out}/index.html")
    return 0


def _check_out(out: str) -> None:
    """Before any notebook runs: ``out`` is a new folder, or an existing one holding only what reproduce
    writes (``NN_name/`` notebook folders and ``index.html``), so no unrelated file is overwritten."""
    from ..userfiles import check_output_folder

    expected = "a new folder or one written by 'nvmemodel reproduce'"
    foreign = [e for e in check_output_folder(out, what="--out", expected=expected) or [] if not _OURS.fullmatch(e)]
    if foreign:
        shown = ", ".join(foreign[:3]) + (", …" if len(foreign) > 3 else "")
        raise ParameterError("--out", out, f"{expected} (it holds {shown}: not written by reproduce); choose "
                                           "another folder")
