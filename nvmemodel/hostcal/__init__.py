"""The host's own cost per I/O, measured on the user's machine (issue 29, items 1 and 2).

Above the PCIe links, software decides how fast a system goes, and its cost per I/O moves by tens of percent
with the CPU, the kernel, mitigations, virtualisation and fio's options (docs/physics.md §4, §12.8). This
package measures that cost where the user is instead of assuming it:

* :func:`~nvmemodel.hostcal.costs.io_costs` — CPU seconds (and cycles, where the clock is known) per I/O from
  the usr/sys CPU fio reports for every job of the user's own runs, by engine, direction and block size, with
  the spread over runs and the files each figure came from (``nvmemodel ingest --costs``).
* :mod:`~nvmemodel.hostcal.calibrate` — ``nvmemodel calibrate``: short, bounded, resumable fio runs on this
  machine (fio's null engine, each kernel I/O stack fio offers on a null character device, optionally a file
  or device the user names, read-only unless told otherwise) written to a host profile (JSON,
  :mod:`~nvmemodel.hostcal.profile`; schema in docs/hosts.md).
* :func:`~nvmemodel.hostcal.apply.with_costs` — a topology whose host is charged those measured costs per I/O
  stack (``--costs FILE`` / ``--profile FILE`` in ``ceilings``, ``sweep``, ``plan``, ``fit``, ``discover``;
  ``costs=`` / ``profile=`` in Python), each figure labelled with where it was measured.

Nothing here is imported by ``import nvmemodel`` (pandas is loaded only by :func:`io_costs`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # for annotations only (pandas loads with io_costs)
    import pandas as pd

    from ..topology import Topology
    from ..topology.mixed import MixedTopology
    from .costs import ResultsInput
    from ..topology.host import Host

__all__ = ["io_costs", "run_costs", "with_costs"]


def io_costs(table: ResultsInput, *, host: str | Host | None = None,
             clock_hz: float | str | None = None) -> pd.DataFrame:
    """See :func:`nvmemodel.hostcal.costs.io_costs`."""
    from .costs import io_costs as _io_costs

    return _io_costs(table, host=host, clock_hz=clock_hz)


def run_costs(table: ResultsInput, *, host: str | Host | None = None,
              clock_hz: float | str | None = None) -> pd.DataFrame:
    """See :func:`nvmemodel.hostcal.costs.run_costs`."""
    from .costs import run_costs as _run_costs

    return _run_costs(table, host=host, clock_hz=clock_hz)


def with_costs(topology: Topology | MixedTopology, *, costs: Any = None,
               profile: Any = None) -> Topology | MixedTopology:
    """See :func:`nvmemodel.hostcal.apply.with_costs`."""
    from .apply import with_costs as _with_costs

    return _with_costs(topology, costs=costs, profile=profile)
