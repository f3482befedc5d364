"""Fit and explain measured scaling curves (lmfit on scipy; imported lazily by ``nm.fit``).

Layers, each usable alone:

``curves``   results table → measured points (one per run; repeats → mean ± spread and weights)
``shapes``   pure formulas: linear, Amdahl, USL, Little's law hard/soft knee, exact MVA, soft minimum
``models``   :class:`Shape` (formula + bounds + units + ``guess``) → bounded ``lmfit.Model``
``ceiling``  the topology's own ceiling model with chosen free parameters; what would reconcile a
             measurement above it
``engine``   one model on one curve: fit, 95 % intervals (profile, bootstrap, t), diagnostics
``select``   AICc, Akaike weights, BIC
``derived``  peak, limit, knee, contention/coherency split with intervals
``result``   :class:`FitResult`; ``explain`` its text
``api``      :func:`fit`
"""

from .api import MODEL_CHOICES, fit
from .curves import Y_COLUMNS, measured_points
from .engine import CurveFit, fit_shape
from .models import SHAPES, Shape
from .result import FitResult

__all__ = [
    "MODEL_CHOICES",
    "SHAPES",
    "Y_COLUMNS",
    "CurveFit",
    "FitResult",
    "Shape",
    "fit",
    "fit_shape",
    "measured_points",
]
