"""Plots (matplotlib only here; the model never imports this). Functions take ``ax=None`` and return Axes."""

from .curves import plot_scaling, plot_waterfall

__all__ = ["plot_scaling", "plot_waterfall"]
