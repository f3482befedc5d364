"""Reproduce the notebooks headless (papermill), and keep their stored outputs reviewable.

``nvmemodel reproduce [--out DIR] [--only N,…] [--quick]`` runs every ``notebooks/NN_*.ipynb``
with papermill (a progress bar per notebook) into ``DIR/<notebook>/``: the executed notebook,
every figure as PNG and SVG with the CSV of the data drawn (listed with its caption in
``figures.json``), and ``key_numbers.json``; then ``DIR/index.html`` shows every figure with its
caption and links each notebook, figure file and CSV (:func:`nvmemodel.report.write_index`).
Relative paths given to a notebook resolve against the notebooks' folder, never the caller's
working directory.

Stored-output policy (enforced by ``tests/test_notebooks.py``): the committed notebooks keep
outputs **only** in cells marked ``# NBVAL_CHECK_OUTPUT`` — small text tables of the key
numbers, which ``pytest --nbval-lax`` re-computes and compares — and nothing else (no images;
execution counts only where nbval needs them). ``nvmemodel reproduce --refresh`` re-executes the
notebooks in place and applies that policy; run it after changing a notebook or the model, and
review the diff.
"""

from __future__ import annotations

import os
import pathlib
import sys

from .errors import NvmeModelError, UnknownNameError

CHECK_MARK = "# NBVAL_CHECK_OUTPUT"


def notebooks_dir() -> pathlib.Path:
    """The repository's ``notebooks/`` folder (a source checkout is required)."""
    path = pathlib.Path(__file__).resolve().parents[1] / "notebooks"
    if not path.is_dir():
        raise NvmeModelError(f"{path}: no notebooks folder here; run from a source checkout of nvmemodel")
    return path


def notebook_paths() -> list[pathlib.Path]:
    return sorted(notebooks_dir().glob("[0-9][0-9]_*.ipynb"))


def select(only: str | list[str] | None) -> list[pathlib.Path]:
    """The notebooks named by ``only``: numbers (``"2"``, ``"02"``) or stems (``"02_lenovo_lp0865"``),
    as a list or one comma-separated string; all when ``only`` is empty. Unknown names raise
    :class:`UnknownNameError` listing the known ones."""
    paths = notebook_paths()
    if not only:
        return paths
    items = only.split(",") if isinstance(only, str) else [p for item in only for p in str(item).split(",")]
    by_key = {}
    for p in paths:
        number = p.stem.split("_", 1)[0]
        by_key.update({p.stem: p, number: p, str(int(number)): p, p.stem.split("_", 1)[1]: p})
    chosen = []
    for item in (i.strip() for i in items):
        if not item:
            continue
        if item.removesuffix(".ipynb") not in by_key:
            raise UnknownNameError("notebook", item, [p.stem for p in paths])
        chosen.append(by_key[item.removesuffix(".ipynb")])
    if not chosen:
        raise UnknownNameError("notebook", ",".join(items), [p.stem for p in paths])
    return sorted(set(chosen))


#: parameters ``reproduce`` sets itself for every notebook (``--quick``, ``--out``): not taken from ``-p``
OWN_PARAMETERS = {"quick": "--quick", "output_dir": "--out"}


def declared_parameters(path: pathlib.Path) -> list[str]:
    """The names the notebook's cell tagged ``parameters`` assigns, in order (papermill's own inspection)."""
    from papermill.inspection import inspect_notebook

    return list(inspect_notebook(str(path)))


def parse_parameter(value: str):
    """A ``-p NAME VALUE`` value as papermill's command line reads it: ``True``/``False``/``None``, an int, a float,
    else the text itself (papermill's ``_resolve_type``)."""
    from papermill.cli import _resolve_type

    return _resolve_type(value)


def assign_parameters(paths: list[pathlib.Path], pairs) -> dict[pathlib.Path, dict]:
    """``{notebook: {name: value}}`` from ``-p NAME VALUE`` pairs (text): each value parsed as papermill does,
    given to the notebooks among ``paths`` whose parameters cell declares its name. A name none of them declares,
    one ``reproduce`` sets itself (quick, output_dir) or one given twice raises :class:`ParameterError`, the
    first naming the names that exist."""
    from .errors import ParameterError

    declared = {path: declared_parameters(path) for path in paths}
    known = sorted({n for names in declared.values() for n in names} - set(OWN_PARAMETERS))
    out: dict[pathlib.Path, dict] = {path: {} for path in paths}
    seen = set()
    for name, text in pairs or []:
        if name in OWN_PARAMETERS:
            raise ParameterError("-p", name, f"a notebook parameter other than quick and output_dir ({name} is set "
                                             f"by reproduce: use {OWN_PARAMETERS[name]})")
        if name in seen:
            raise ParameterError("-p", name, "each parameter once")
        seen.add(name)
        owners = [path for path in paths if name in declared[path]]
        if not owners:
            import difflib

            close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
            elsewhere = [p.stem[:2] for p in notebook_paths() if p not in paths and name in declared_parameters(p)]
            raise ParameterError("-p", name, "a parameter the parameters cell of a chosen notebook ("
                                 f"{', '.join(p.stem[:2] for p in paths)}) declares"
                                 + (f"; did you mean {', '.join(close)}?" if close else "")
                                 + (f"; notebook {', '.join(elsewhere)} declares {name}: add it to --only" if elsewhere
                                    else "") + f" (they declare: {', '.join(known)})")
        for path in owners:
            out[path][name] = parse_parameter(text)
    return out


#: the five TCP ports of a kernel's connection, as jupyter_client names its ``KernelManager.<name>_port`` options
KERNEL_PORTS = ("shell", "iopub", "stdin", "control", "hb")


def distinct_ports(n: int) -> list[int]:
    """``n`` different TCP ports on 127.0.0.1 that are free now: each socket stays bound until all ``n`` are chosen,
    so no two of them coincide (kernels started at once by parallel workers, each picking its own ports, could
    pick the same one and die: "Kernel died before replying to kernel_info")."""
    import socket

    held = []
    try:
        for _ in range(n):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("127.0.0.1", 0))
            held.append(s)
        return [s.getsockname()[1] for s in held]
    finally:
        for s in held:
            s.close()


def kernel_config(ports: dict[str, int] | None = None):
    """The kernels' configuration: TCP on localhost with CurveZMQ transport encryption.

    An ipykernel listening on TCP without CurveZMQ keys logs "Kernel is running over TCP without
    encryption …" to its stderr, which landed in the middle of the progress bar, once per notebook.
    jupyter_client ≥ 8.7 provisions CurveZMQ keys for kernels whose kernelspec declares
    ``supported_encryption: curve`` (ipykernel's does) when ``KernelManager.transport_encryption`` is
    ``"auto"``: the connection is then encrypted and the kernel has nothing to warn about. (IPC sockets,
    the warning's other suggestion, once seemed to stall a notebook with widgets: that was nbclient's
    Output-widget echo, whatever the transport; see :func:`nvmemodel.plots.teaching.live_controls`.)
    An older jupyter_client, without that option, runs as before. ``ports`` ({"shell": 50001, …}, the names of
    :data:`KERNEL_PORTS`) fixes the connection's ports instead of letting jupyter_client pick them.
    """
    from jupyter_client.manager import KernelManager
    from traitlets.config import Config

    config = Config()
    if KernelManager.class_traits().get("transport_encryption") is not None:
        config.KernelManager.transport_encryption = "auto"
    if ports:  # ports chosen by the parent for every notebook at once (distinct_ports), not by each worker
        config.KernelManager.cache_ports = False
        for name, port in ports.items():
            setattr(config.KernelManager, f"{name}_port", int(port))
    return config


#: the kernel's own stderr (ipykernel's log lines: "[IPKernelApp] ERROR | KeyboardInterrupt caught in kernel" when
#: nbclient interrupts it at shutdown) goes to this file in the notebook's output folder, not into the progress bar
KERNEL_LOG = "kernel-stderr.log"


def _execute_in_worker(nb: pathlib.Path, target: pathlib.Path, quick: bool, parameters: dict | None = None,
                       ports: dict | None = None) -> str | None:
    """:func:`_execute` in a spawned worker process whose standard error — which the kernel it starts
    inherits — is the file :data:`KERNEL_LOG` in ``target``, so a kernel's log lines do not land in the
    middle of the progress bar (only the worker's fd 2 changes: the parent keeps the terminal)."""
    target.mkdir(exist_ok=True)
    sys.stderr.flush()
    fd = os.open(target / KERNEL_LOG, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(fd, 2)
    os.close(fd)
    problem = _execute(nb, target, quick, parameters, ports)
    return None if problem is None else f"{problem} (the kernel's own messages: {target / KERNEL_LOG})"


def _execute(nb: pathlib.Path, target: pathlib.Path, quick: bool, parameters: dict | None = None,
             ports: dict | None = None) -> str | None:
    """Run one notebook into ``target`` with papermill (``parameters`` on top of ``quick`` and ``output_dir``);
    the error message if it stopped, else None. Run once: no cell time limit and no second attempt (the lost
    replies an earlier retry loop hid were nbclient's Output-widget echo, removed at its cause in
    :func:`nvmemodel.plots.teaching.live_controls`)."""
    import papermill as pm

    target.mkdir(exist_ok=True)
    executed = target / nb.name
    try:
        pm.execute_notebook(str(nb), str(executed),
                            parameters={**(parameters or {}), "quick": quick, "output_dir": str(target)},
                            cwd=str(nb.parent), progress_bar=False, kernel_name="python3", config=kernel_config(ports))
    except pm.PapermillExecutionError as exc:
        return f"{nb.name} stopped in cell {exc.exec_count}: {exc.ename}: {exc.evalue} (executed copy: {executed})"
    except RuntimeError as exc:  # "Kernel died before replying to kernel_info" and the like
        return f"{nb.name}: the kernel could not start or died ({exc})"
    return None


def run_notebooks(output: str | os.PathLike = "output", *, quick: bool = False, names: str | list[str] | None = None,
                  progress: bool = True, index: bool = True, jobs: int | None = None,
                  parameters=None) -> list[pathlib.Path]:
    """Execute the notebooks with papermill; each writes into ``output/<notebook name>/``.

    ``output`` is taken relative to the caller's working directory (it is the caller's choice);
    the notebooks themselves run in their own folder. ``jobs`` notebooks run at a time, each with its
    own kernel, in worker processes started with "spawn" (no fork of a threaded parent; default: the
    number of CPUs, at most 4). ``parameters``: ``(NAME, VALUE)`` text pairs, as ``-p NAME VALUE`` on papermill's
    command line, each given to the notebooks that declare NAME (:func:`assign_parameters`). Returns the executed
    notebooks' paths; with ``index`` also writes ``output/index.html``.
    """
    try:
        import papermill  # noqa: F401
        from tqdm.auto import tqdm
    except ImportError:
        raise NvmeModelError("papermill is needed: pip install 'nvmemodel[notebooks]'") from None
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from .report import write_index

    chosen = select(names)
    given = assign_parameters(chosen, parameters) if parameters else {nb: {} for nb in chosen}
    output = pathlib.Path(output).resolve()
    output.mkdir(parents=True, exist_ok=True)
    jobs = max(1, min(jobs or min(os.cpu_count() or 1, 4), len(chosen)))
    errors: list[str] = []
    with tqdm(total=len(chosen), desc="notebooks", unit="nb", disable=not progress, file=sys.stderr) as bar, \
            ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        free = iter(distinct_ports(len(KERNEL_PORTS) * len(chosen)))  # no two kernels on one port
        running = {pool.submit(_execute_in_worker, nb, output / nb.stem, quick, given[nb],
                               {name: next(free) for name in KERNEL_PORTS}): nb for nb in chosen}
        for done in as_completed(running):
            bar.set_postfix_str(running[done].stem)
            bar.update()
            if (error := done.result()) is not None:
                errors.append(error)
    if errors:
        raise NvmeModelError("; ".join(sorted(errors)))
    if index:
        write_index(output)
    return [output / nb.stem / nb.name for nb in chosen]


def strip_to_checked_outputs(nb) -> None:
    """Apply the stored-output policy to an in-memory notebook (nbformat node)."""
    nb.metadata.pop("papermill", None)
    nb.metadata.pop("widgets", None)  # ipywidgets state of an executed run: large, and not reviewable
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


def refresh_stored_outputs(names: str | list[str] | None = None) -> None:
    """Re-execute the notebooks (all, or those named as in :func:`select`) in place with their stored
    parameters and keep only the checked outputs. Their own files go to a temporary folder."""
    import tempfile

    import nbformat
    from nbclient import NotebookClient

    with tempfile.TemporaryDirectory() as tmp:
        old = os.environ.get("NVMEMODEL_OUTPUT_ROOT")
        os.environ["NVMEMODEL_OUTPUT_ROOT"] = tmp  # the kernels inherit it: nothing lands in output/
        try:
            for path in select(names):
                nb = nbformat.read(path, as_version=4)
                NotebookClient(nb, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}},
                               config=kernel_config()).execute()
                strip_to_checked_outputs(nb)
                nbformat.write(nb, path)
                print(f"refreshed {path.name}", file=sys.stderr)
        finally:
            if old is None:
                os.environ.pop("NVMEMODEL_OUTPUT_ROOT", None)
            else:
                os.environ["NVMEMODEL_OUTPUT_ROOT"] = old
