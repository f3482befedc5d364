"""Plots (matplotlib only here; the model never imports this). Functions take ``ax=None`` and return Axes.

- :mod:`.results`: charts of measured results (:func:`plot_results`, :func:`plot_percentiles`,
  :func:`plot_fio_log`, :func:`plot_latency_histogram`), each saying what was run;
- :mod:`.curves`: a model :class:`~nvmemodel.ScalingCurve` (:func:`plot_scaling`) and the PCIe waterfall;
- :mod:`.whitepapers`: the notebooks' model-vs-paper figures; :mod:`.teaching`: the primer's lessons;
- :mod:`.style`: what every figure shares (human ticks, throughput units, series styles, the binding strip).
"""

from .curves import plot_scaling, plot_waterfall
from .results import plot_fio_log, plot_latency_histogram, plot_percentiles, plot_results  # matplotlib when called

__all__ = ["plot_fio_log", "plot_latency_histogram", "plot_percentiles", "plot_results", "plot_scaling", "plot_waterfall"]
