"""``nvmemodel compare BASE NEW``: did a change make the measured points faster or slower, beyond the noise?"""

from __future__ import annotations

import argparse
import math
import pathlib
import sys

from ..errors import ParameterError

_EPILOG = """\
examples:
  nvmemodel compare before/ after/                                 # folders of fio results
  nvmemodel compare psync/ libaio/ --ignore ioengine -o change.png   # the engine is what changed
  nvmemodel compare base.csv new.csv --threshold 5% --json > diff.json   # tables from 'nvmemodel ingest -o'
  nvmemodel compare old/ new/ --path-pattern '{drives}drives/*.json' --by drives

exit status: 0 no point slower beyond noise; 1 a point slower beyond noise and the threshold in some metric
(verdict 'slower' or 'mixed'); 2 bad input (one 'nvmemodel: error:' line, docs/cli.md)
"""


def register(sub) -> None:
    p = sub.add_parser(
        "compare", help="did it change? two result sets compared point by point, with the noise of the repeats",
        description="Match the points of BASE and NEW by workload (pattern, block size, iodepth, numjobs, read share, "
                    "engine, O_DIRECT, pacing, targets), and give each point's change in IOPS, bandwidth and latency "
                    "(mean, p99) with a Welch interval on the log scale from the repeats, a verdict (faster, slower, "
                    "mixed, change below threshold, no change beyond noise, or cannot be told from noise with one run "
                    "a side, with the repeats a change of --detect would need) and an overall verdict. Points of one "
                    "side only are listed. Inputs: a result file or folder, or a .csv/.parquet table written by "
                    "'nvmemodel ingest -o'. docs/compare.md.",
        epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("base", help="the results before the change: a file, a folder or a table")
    p.add_argument("new", help="the results after it")
    p.add_argument("--ignore", help="workload columns that are the change itself, comma-separated (ioengine, "
                                    "direct, …): not matched on")
    p.add_argument("--by", help="label columns that also tell points apart, comma-separated (e.g. drives)")
    p.add_argument("--metrics", default="iops,bw,lat_mean,p99",
                   help="what to compare and judge, of iops, bw, lat_mean, p99 (default: %(default)s)")
    p.add_argument("--threshold", default="2%", help="smallest change that counts (default: %(default)s)")
    p.add_argument("--confidence", default="95%", help="of the intervals (default: %(default)s)")
    p.add_argument("--detect", default="5%", help="the change the repeats needed are worked out for "
                                                  "(default: %(default)s)")
    p.add_argument("--cv", help="run-to-run coefficient of variation to assume for the repeats needed (default: "
                                "pooled from the points with repeats, else 5%%, said which)")
    p.add_argument("--labels", help="sidecar mapping file globs to labels (YAML or CSV), for both sides")
    p.add_argument("--path-regex", help="regex whose named groups become labels")
    p.add_argument("--path-pattern", help="path pattern with {name} fields that become labels")
    p.add_argument("--json", action="store_true", help="the comparison as JSON (schema nvmemodel.compare/1)")
    p.add_argument("-o", "--output", help="also draw the changes and their intervals: .png, .svg or .pdf")
    p.add_argument("--title", help="chart title")
    p.set_defaults(run=_compare)


def _share(text: str, name: str) -> float:
    """'2%' or '0.02' → 0.02."""
    t = text.strip()
    try:
        value = float(t[:-1]) / 100 if t.endswith("%") else float(t)
    except ValueError:
        raise ParameterError(name, text, "a share such as '2%' or '0.02'") from None
    if not math.isfinite(value):
        raise ParameterError(name, text, "a finite share such as '2%' or '0.02'")
    return value


def _names(text: str | None, name: str) -> list[str]:
    if text is None:
        return []
    parts = [x.strip() for x in text.split(",")]
    if not all(parts):
        raise ParameterError(name, text, "column names separated by commas, without empty parts")
    return parts


def _compare(args) -> int:
    import warnings

    from ..comparison import compare
    from ..errors import IngestWarning
    from ._common import say_warnings

    out = None
    if args.output is not None:
        from ._common import need_packages
        from .plot import _check_output

        out = _check_output(args.output)
        need_packages("nvmemodel compare -o", "matplotlib")
    options = {"labels": args.labels, "path_regex": args.path_regex, "path_pattern": args.path_pattern}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", IngestWarning)
        result = compare(args.base, args.new, by=_names(args.by, "--by"), ignore=_names(args.ignore, "--ignore"),
                         metrics=_names(args.metrics, "--metrics"), threshold=_share(args.threshold, "--threshold"),
                         confidence=_share(args.confidence, "--confidence"), detect=_share(args.detect, "--detect"),
                         cv=_share(args.cv, "--cv") if args.cv is not None else None,
                         **{k: v for k, v in options.items() if v})
    say_warnings(caught)
    if args.json:
        import json

        print(json.dumps(result.to_dict(), indent=1))
    else:
        _print(result, args)
    if out is not None:
        import matplotlib

        matplotlib.use("Agg")
        from ..plots.compare import plot_comparison

        ax = plot_comparison(result, title=args.title, base=_short(args.base), new=_short(args.new))
        ax.figure.savefig(out, dpi=130, bbox_inches="tight")
        print(f"wrote {out}", file=sys.stderr)
    return result.exit_status


def _short(path: str) -> str:
    p = pathlib.Path(path)
    return p.name or str(p)


def _print(result, args) -> None:
    import pandas as pd

    with pd.option_context("display.width", 200, "display.max_colwidth", 60):
        print(result.table().to_string(index=False))
    for r in result.changes.to_dict("records"):
        if r["repeats_needed"] is not None and r["verdict"] == "cannot be told from noise":
            break
    else:
        r = None
    settings = result.settings
    if r is not None or (result.changes["verdict"] == "no change beyond noise").any():
        parts = []
        for m in settings["metrics"]:
            sub = result.changes[result.changes["metric"] == m]
            need = sub["repeats_needed"].dropna()
            if need.empty:
                continue
            parts.append(f"{m}: {int(need.iloc[0])} runs a side" if not math.isnan(need.iloc[0]) else
                         f"{m}: more than 10,000 runs a side")
            parts[-1] += f" ({result.spread[f'{m}_source']}, spread of the logarithm "\
                         f"{result.spread[f'{m}_sd_log']:.3g})"
        if parts:
            print(f"\nto see a change of {settings['detect']:.0%} with probability {settings['power']:.0%} at "
                  f"{settings['confidence']:.0%} confidence: " + "; ".join(parts))
    if result.unmatched:
        print(f"\nnot matched ({len(result.unmatched)} point(s) of one side only):")
        for u in result.unmatched:
            print(f"  only in {u['side']}: {u['label']} ({u['direction']})")
    for n in result.notes:
        if not n.endswith("(listed under 'unmatched')"):
            print(f"note: {n}")
    print(f"\nverdict: {result.verdict} ({len(result.points)} point(s) matched on "
          f"{', '.join(settings['match'])}; threshold {settings['threshold']:.0%})")
