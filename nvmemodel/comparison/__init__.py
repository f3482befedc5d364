"""Did a change make it faster or slower? Two result sets compared point by point, with the noise of the repeats.

:func:`compare` (``nm.compare``) matches the points of two result sets by workload (:mod:`.points`), gives
each metric's change with a Welch interval on the log scale and a verdict (:mod:`.stats`, :mod:`.core`);
``nvmemodel compare BASE NEW`` prints it, draws it (:func:`nvmemodel.plots.compare.plot_comparison`) and
exits 1 when a point is slower beyond noise. docs/compare.md.
"""

from __future__ import annotations

from .core import VERDICTS, Comparison, compare

__all__ = ["VERDICTS", "Comparison", "compare"]
