"""Reproduce the notebooks headless (papermill), and keep their stored outputs reviewable.

``nvmemodel reproduce`` runs every ``notebooks/NN_*.ipynb`` with papermill into an output
folder (executed notebooks, figures, ``key_numbers.json`` per notebook).

Stored-output policy (enforced by ``tests/test_notebooks.py``): the committed notebooks keep
outputs **only** in cells marked ``# NBVAL_CHECK_OUTPUT`` — small text tables of the key
numbers, which ``pytest --nbval-lax`` re-computes and compares — and nothing else (no images;
execution counts only where nbval needs them). ``nvmemodel reproduce --refresh`` re-executes the notebooks in place and
applies that policy; run it after changing a notebook or the model, and review the diff.
"""

from __future__ import annotations

import pathlib
import sys

from .errors import NvmeModelError

CHECK_MARK = "# NBVAL_CHECK_OUTPUT"


def notebooks_dir() -> pathlib.Path:
    """The repository's ``notebooks/`` folder (a source checkout is required)."""
    path = pathlib.Path(__file__).resolve().parents[1] / "notebooks"
    if not path.is_dir():
        raise NvmeModelError(f"{path}: no notebooks folder here; run from a source checkout of nvmemodel")
    return path


def notebook_paths() -> list[pathlib.Path]:
    return sorted(notebooks_dir().glob("[0-9][0-9]_*.ipynb"))


def run_notebooks(output: str | pathlib.Path = "output", *, quick: bool = False,
                  names: list[str] | None = None, progress: bool = True) -> list[pathlib.Path]:
    """Execute the notebooks with papermill; each writes into ``output/<notebook name>/``.

    Returns the paths of the executed notebooks.
    """
    try:
        import papermill as pm
    except ImportError:
        raise NvmeModelError("papermill is needed: pip install 'nvmemodel[notebooks]'") from None

    output = pathlib.Path(output).resolve()
    output.mkdir(parents=True, exist_ok=True)
    done = []
    for nb in notebook_paths():
        if names and nb.stem not in names:
            continue
        target = output / nb.stem
        target.mkdir(exist_ok=True)
        if progress:
            print(f"running {nb.name} -> {target}", file=sys.stderr)
        executed = target / nb.name
        pm.execute_notebook(str(nb), str(executed), parameters={"quick": quick, "output_dir": str(target)},
                            cwd=str(nb.parent), progress_bar=False, kernel_name="python3")
        done.append(executed)
    return done


def strip_to_checked_outputs(nb) -> None:
    """Apply the stored-output policy to an in-memory notebook (nbformat node)."""
    nb.metadata.pop("papermill", None)
    for cell in nb.cells:
        cell.metadata.pop("papermill", None)
        cell.metadata.pop("execution", None)
        if cell.cell_type != "code":
            continue
        if CHECK_MARK in cell.source:
            # nbval needs the execution count of a cell whose stored output it compares
            cell.outputs = [o for o in cell.outputs if o.get("output_type") == "stream"]
            for o in cell.outputs:
                o.pop("execution_count", None)
        else:
            cell.outputs = []
            cell.execution_count = None


def refresh_stored_outputs(names: list[str] | None = None) -> None:
    """Re-execute the notebooks (all, or those whose stem is in ``names``) in place with their stored
    parameters and keep only the checked outputs."""
    import nbformat
    from nbclient import NotebookClient

    for path in notebook_paths():
        if names and path.stem not in names:
            continue
        nb = nbformat.read(path, as_version=4)
        NotebookClient(nb, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
        strip_to_checked_outputs(nb)
        nbformat.write(nb, path)
        print(f"refreshed {path.name}", file=sys.stderr)
