"""Shared fixtures: where ../shared lives, and the default parameter mapping."""

from __future__ import annotations

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]

# tests/data holds fixtures and the scripts that generated them, not tests (several are called generate.py).
collect_ignore = ["data"]
SHARED = ROOT.parent / "shared"


@pytest.fixture
def shared_dir() -> pathlib.Path:
    """../shared, or skip: a user's clone does not have it (CI and developers do)."""
    if not SHARED.is_dir():
        pytest.skip("../shared is absent (only developers' machines and CI have it)")
    return SHARED


def default_params(**overrides):
    """PcieConfig() + NvmeConfig() parameters as numpy scalars, with overrides."""
    from nvmemodel import NvmeConfig, PcieConfig
    from nvmemodel.ceiling.derive import prepare

    return prepare({**PcieConfig().parameters(), **NvmeConfig().parameters(), **overrides})
