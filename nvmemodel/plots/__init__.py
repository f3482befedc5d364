"""Plots (matplotlib only here; the model never imports this). Functions take ``ax=None`` and return Axes."""

from .curves import plot_scaling, plot_waterfall
from .results import plot_fio_log, plot_latency_histogram, plot_results  # matplotlib imported when called

__all__ = ["plot_fio_log", "plot_latency_histogram", "plot_results", "plot_scaling", "plot_waterfall"]
