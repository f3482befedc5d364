"""What a notebook writes out, and the page that shows it all.

A notebook opens a :class:`Report` on its ``output_dir`` (resolved relative to the notebook's
folder, never the caller's working directory), saves each figure with :meth:`Report.figure`
(PNG + SVG + the CSV of the data drawn + a caption, listed in ``figures.json``) and ends with
:meth:`Report.key_numbers` (``key_numbers.json``, plain floats and ints). :func:`compare_to_paper`
prints, next to every number a whitepaper states (``data/whitepapers/anchors.csv``), the
model's value and the difference, and flags a measurement above a model ceiling.
:func:`write_index` builds ``index.html`` over the output folders of ``nvmemodel reproduce``.

Paths: the environment variable ``NVMEMODEL_OUTPUT_ROOT``, when set, redirects every *relative*
``output_dir`` into that folder (the notebook tests set it to a temporary folder, so a test run
never writes into a user's ``output/``).
"""

from __future__ import annotations

import html
import json
import math
import os
import pathlib

from .errors import NvmeModelError, ParameterError

__all__ = ["FIGURE_DPI", "MANIFEST", "Report", "anchors", "compare_to_paper", "format_comparison", "notebook_path",
           "read_user_results", "write_index"]

#: Figures are saved at this resolution: a ``figsize`` of (w, h) inches gives w·100 × h·100 pixels.
FIGURE_DPI = 100
#: Per-notebook list of the figures written (name, caption, files, pixel size).
MANIFEST = "figures.json"
#: A measurement this far above a ceiling (relative) counts as above it; below, it is rounding.
ABOVE_TOLERANCE = 1e-6


def repository_root() -> pathlib.Path:
    """The source checkout holding ``notebooks/`` and ``data/`` (notebooks need one)."""
    root = pathlib.Path(__file__).resolve().parents[1]
    if not (root / "notebooks").is_dir():
        raise NvmeModelError(f"{root}: no notebooks folder here; the notebooks need a source checkout of nvmemodel")
    return root


def notebook_path(path: str | os.PathLike, *, must_exist: bool = False, parameter: str = "path") -> pathlib.Path:
    """``path`` resolved relative to the notebooks' folder (absolute paths are kept).

    With ``must_exist`` a missing path raises :class:`ParameterError` naming ``parameter``.
    """
    p = pathlib.Path(os.path.expanduser(str(path)))
    if not p.is_absolute():
        p = repository_root() / "notebooks" / p
    p = p.resolve()
    if must_exist and not p.exists():
        raise ParameterError(parameter, str(path), f"an existing file or folder (looked for {p})")
    return p


def _output_folder(output_dir: str | os.PathLike) -> pathlib.Path:
    p = pathlib.Path(os.path.expanduser(str(output_dir)))
    root = os.environ.get("NVMEMODEL_OUTPUT_ROOT")
    if not p.is_absolute() and root:
        p = pathlib.Path(root) / p.name
    return notebook_path(p)


def plain(value):
    """numpy scalars/arrays and nested containers → JSON-able Python values (floats, ints, lists)."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if hasattr(value, "tolist"):  # numpy scalar or array
        return plain(value.tolist())
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


class Report:
    """The files one notebook writes: figures (PNG, SVG, CSV, caption) and its key numbers.

    Parameters
    ----------
    output_dir : str or path
        Where to write; a relative path is taken relative to the notebooks' folder.
    notebook : str
        The notebook's name (stem), recorded in the manifest.
    """

    def __init__(self, output_dir: str | os.PathLike, *, notebook: str) -> None:
        self.dir = _output_folder(output_dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.notebook = notebook
        self.figures: list[dict] = []
        (self.dir / MANIFEST).write_text(json.dumps({"notebook": notebook, "figures": []}, indent=1))

    def figure(self, fig, name: str, *, caption: str, data) -> pathlib.Path:
        """Save ``fig`` as ``name``.png/.svg, ``data`` (the numbers drawn, a DataFrame) as ``name``.csv.

        Returns the PNG's path. The figure stays open so the notebook still shows it.
        """
        if not caption.strip():
            raise ParameterError("caption", caption, "a caption saying what the figure shows and its sources")
        if data is None or len(data) == 0:
            raise ParameterError("data", "(empty)", f"the data behind figure {name!r}")
        png, svg, csv = (self.dir / f"{name}.{ext}" for ext in ("png", "svg", "csv"))
        fig.savefig(png, dpi=FIGURE_DPI)
        fig.savefig(svg)
        data.to_csv(csv, index=False)
        width, height = (round(v * FIGURE_DPI) for v in fig.get_size_inches())
        self.figures.append({"name": name, "caption": caption, "png": png.name, "svg": svg.name, "csv": csv.name,
                             "width_px": width, "height_px": height})
        (self.dir / MANIFEST).write_text(json.dumps({"notebook": self.notebook, "figures": self.figures}, indent=1))
        return png

    def key_numbers(self, numbers: dict) -> dict:
        """Write ``key_numbers.json`` (numpy values as plain numbers) and return what was written."""
        out = plain(numbers)
        (self.dir / "key_numbers.json").write_text(json.dumps(out, indent=2))
        return out


def anchors():
    """``data/whitepapers/anchors.csv``: every number a seed paper states, with its sentence, indexed by id."""
    import pandas as pd

    return pd.read_csv(repository_root() / "data" / "whitepapers" / "anchors.csv").set_index("id")


#: How a model value relates to a stated number.
KINDS = {
    "measurement": "the paper measured it; the model gives a ceiling, which must not lie below it",
    "ceiling": "the paper states a limit or theoretical value; the model should give the same",
    "upper_bound": "the paper says the result stays below it; the model's value must too",
}


def compare_to_paper(rows):
    """The paper's number, the model's, and the difference, one row per stated number.

    Parameters
    ----------
    rows : iterable of (anchor id, model value in SI units or None, kind[, note])
        ``kind`` is one of :data:`KINDS`; the model value is shown in the anchor's own unit; None
        means the number is not a model output (the note says why). ``note`` says e.g. that a
        preset was calibrated on this very number (then agreement is by construction, not a test).

    Returns
    -------
    pandas.DataFrame
        ``anchor``, ``unit``, ``paper``, ``model``, ``diff_pct`` (model − paper, % of the paper's
        value), ``verdict`` — e.g. "measured ABOVE the model ceiling (+0.26 %): a model assumption is
        wrong" — and ``note``.
    """
    import pandas as pd

    table = anchors()
    out = []
    for row in rows:
        anchor, model_si, kind, note = (*row, "")[:4]
        if anchor not in table.index:
            from .errors import UnknownNameError
            raise UnknownNameError("anchor", anchor, list(table.index))
        if kind not in KINDS:
            raise ParameterError("kind", kind, f"one of {', '.join(KINDS)}")
        a = table.loc[anchor]
        factor = float(a.value_si) / float(a.value)  # the anchor's unit in SI, from its own row
        paper = float(a.value)
        model = math.nan if model_si is None else float(model_si) / factor
        diff = (model - paper) / paper * 100.0
        if model_si is None:
            verdict = "not a model output"
        elif kind == "measurement":
            if paper > model * (1 + ABOVE_TOLERANCE):
                verdict = f"measured ABOVE the model ceiling ({paper / model - 1:+.2%}): a model assumption is wrong"
            else:
                verdict = f"measured at {paper / model:.1%} of the model ceiling"
        elif kind == "ceiling":
            verdict = f"model {'matches' if abs(diff) < 1 else 'differs'} ({_pct(diff)})"
        else:
            verdict = "model stays below it" if model <= paper * (1 + ABOVE_TOLERANCE) else "model EXCEEDS the bound"
        out.append({"anchor": anchor, "unit": a.unit, "paper": paper, "model": model, "diff_pct": diff,
                    "verdict": verdict, "note": note})
    return pd.DataFrame(out)


def _pct(x: float) -> str:
    return f"{round(x, 2) + 0.0:+.2f} %"  # + 0.0: no "-0.00 %" from rounding noise


def format_comparison(frame) -> str:
    """A :func:`compare_to_paper` table as plain text (numbers to 4 significant digits, notes below)."""
    lines = []
    for r in frame.itertuples():
        model = "-" if math.isnan(r.model) else f"{r.model:.4g}"
        diff = "" if math.isnan(r.diff_pct) else f" ({_pct(r.diff_pct)})"
        lines.append(f"{r.anchor}: paper {r.paper:g} {r.unit} | model {model} {r.unit}{diff} | {r.verdict}")
        if r.note:
            lines.append(f"    note: {r.note}")
    return "\n".join(lines)


def above_ceiling(frame) -> list[str]:
    """Anchors of a :func:`compare_to_paper` table measured above the model's ceiling."""
    return [r.anchor for r in frame.itertuples() if r.verdict.startswith("measured ABOVE")]


def write_index(output: str | os.PathLike, *, title: str = "nvmemodel: the notebooks, reproduced") -> pathlib.Path:
    """Write ``output/index.html``: per notebook folder, a link to the executed notebook and its key
    numbers, then every figure (from its ``figures.json``) with its caption and links to PNG, SVG and CSV.

    Links are relative, so the folder can be moved or served as it is.
    """
    output = pathlib.Path(output)
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>",
             ("<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}"
              "figure{margin:1.5em 0;border-top:1px solid #ccc;padding-top:1em}img{max-width:100%}"
              "figcaption{font-size:0.95em;color:#222}nav a{margin-right:1em}</style></head><body>"),
             f"<h1>{html.escape(title)}</h1>"]
    sections = []
    for folder in sorted(p for p in output.iterdir() if (p / MANIFEST).is_file()):
        manifest = json.loads((folder / MANIFEST).read_text())
        rel = folder.name
        links = [f"<a href='{html.escape(rel)}/{html.escape(nb.name)}'>executed notebook ({html.escape(nb.name)})</a>"
                 for nb in sorted(folder.glob("*.ipynb"))]
        if (folder / "key_numbers.json").is_file():
            links.append(f"<a href='{html.escape(rel)}/key_numbers.json'>key numbers (JSON)</a>")
        heading, audience = _heading(folder, manifest)
        body = [f"<section id='{html.escape(rel)}'><h2>{html.escape(heading)}</h2>",
                f"<p>{html.escape(audience)}</p>" if audience else "", "<nav>" + "".join(links) + "</nav>"]
        for f in manifest["figures"]:
            src = {key: f"{html.escape(rel)}/{html.escape(f[key])}" for key in ("png", "svg", "csv")}
            body.append(f"<figure id='{html.escape(rel)}-{html.escape(f['name'])}'>"
                        f"<img src='{src['png']}' width='{f['width_px']}' height='{f['height_px']}' "
                        f"alt='{html.escape(f['caption'], quote=True)}'>"
                        f"<figcaption>{html.escape(f['caption'])}<br>"
                        f"<a href='{src['png']}'>PNG</a> · <a href='{src['svg']}'>SVG</a> · "
                        f"<a href='{src['csv']}'>data (CSV)</a></figcaption></figure>")
        body.append("</section>")
        sections.append((rel, "".join(body)))
    if not sections:
        raise NvmeModelError(f"{output}: no notebook output folders (with {MANIFEST}) to index")
    parts.append("<nav>" + "".join(f"<a href='#{html.escape(r)}'>{html.escape(r)}</a>" for r, _ in sections)
                 + "</nav>")
    parts += [s for _, s in sections]
    parts.append("</body></html>")
    path = output / "index.html"
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


def _heading(folder: pathlib.Path, manifest: dict) -> tuple[str, str]:
    """The executed notebook's first markdown title and its "**For** …" line (else the folder name, "")."""
    for nb in sorted(folder.glob("*.ipynb")):
        try:
            cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        except (OSError, ValueError, KeyError):
            continue
        for cell in cells:
            if cell.get("cell_type") != "markdown":
                continue
            lines = "".join(cell.get("source", "")).splitlines()
            title = next((line[2:].strip() for line in lines if line.startswith("# ")), None)
            if title is not None:
                audience = next((line.replace("**", "") for line in lines if line.startswith("**For**")), "")
                return f"{folder.name}: {title}", audience
    return manifest.get("notebook", folder.name), ""


def read_user_results(results, *, x: str, y: str = "iops", by: str = "", path_pattern: str = "",
                      preset: str = "", free=()):
    """Read the result files a notebook's parameters name, and check every parameter before any fit.

    ``results`` are files, folders or globs (relative ones against the notebooks' folder). Returns
    ``(table, topology or None)``. Raises one :class:`ParameterError`/:class:`UnknownNameError` naming
    the parameter for: a path that does not exist, no readable result among them, ``x``/``y``/``by`` not
    columns of the table, an unknown preset, a ``free`` name not in the parameter table.
    """
    import glob

    from . import read_results
    from .parameters import PARAMETERS
    from .topology import preset as get_preset

    paths = []
    for item in [results] if isinstance(results, (str, os.PathLike)) else list(results):
        p = notebook_path(item)
        hits = sorted(glob.glob(str(p))) if any(ch in str(item) for ch in "*?[") else ([str(p)] if p.exists() else [])
        if not hits:
            raise ParameterError("results", str(item), f"an existing file, folder or glob (looked for {p})")
        paths += hits
    topology = get_preset(preset) if preset else None
    unknown = [n for n in free if n not in PARAMETERS]
    if unknown:
        from .errors import UnknownNameError
        raise UnknownNameError("free parameter", unknown[0], list(PARAMETERS))
    if free and topology is None:
        raise ParameterError("free", list(free), "a preset as well (the ceiling model needs a topology)")
    import warnings

    from .errors import IngestWarning

    with warnings.catch_warnings():  # skipped files are listed in table.attrs["skipped"], which notebooks print
        warnings.simplefilter("ignore", IngestWarning)
        table = read_results(paths, path_pattern=path_pattern or None)
    if len(table) == 0 or table["iops"].notna().sum() == 0:
        skipped = "; ".join(f"{pathlib.Path(s.path).name}: {s.reason}" for s in table.attrs.get("skipped", [])[:3])
        raise ParameterError("results", [str(r) for r in paths][:3],
                             f"at least one readable benchmark result with numbers (none found; skipped: {skipped or '-'})")
    from .fitting import Y_COLUMNS

    columns = [c for c in table.columns if table[c].notna().any()]
    if x != "outstanding" and x not in columns:
        raise ParameterError("x", x, f"'outstanding' or a column of the results with values: {', '.join(columns)}")
    if y not in Y_COLUMNS:
        raise ParameterError("y", y, f"one of {', '.join(Y_COLUMNS)}")
    for b in filter(None, by.split(",") if isinstance(by, str) else by):
        if b not in columns:
            raise ParameterError("by", b, f"a column of the results with values: {', '.join(columns)}")
    return table, topology
