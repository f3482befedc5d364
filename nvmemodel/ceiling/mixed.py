"""Kept only until ``nvmemodel/cli/mixed.py`` imports :func:`~nvmemodel.ceiling.evaluate.evaluate_mixed` from
:mod:`nvmemodel.ceiling.evaluate` (issue 22: a mixed topology is evaluated and swept by ``nm.evaluate`` and
``nm.sweep`` themselves)."""

from .evaluate import evaluate_mixed  # noqa: F401
