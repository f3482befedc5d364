"""``nvmemodel reproduce``: run the notebooks headless."""

from __future__ import annotations


def register(sub) -> None:
    r = sub.add_parser("reproduce", help="run every notebook headless (papermill): figures and key numbers",
                       description="Execute notebooks/NN_*.ipynb with papermill. Each writes its executed copy, "
                                   "figures and key_numbers.json into OUTPUT/<notebook>/.")
    r.add_argument("--output", default="output", help="output folder (default: %(default)s)")
    r.add_argument("--quick", action="store_true", help="pass quick=True (no figures, small grids)")
    r.add_argument("--only", nargs="*", help="notebook names to run (default: all)")
    r.add_argument("--refresh", action="store_true",
                   help="developers: re-execute the notebooks in place and keep only the nbval-checked outputs")

    r.set_defaults(run=_reproduce)


def _reproduce(args) -> int:
    from .. import reproduce

    if args.refresh:
        reproduce.refresh_stored_outputs()
    else:
        done = reproduce.run_notebooks(args.output, quick=args.quick, names=args.only)
        print(f"{len(done)} notebook(s) executed into {args.output}/")
    return 0
