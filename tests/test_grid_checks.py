"""Numeric grid columns are checked from their smallest and largest entries first (``Parameter._all_fit``); what
that accepts must be exactly what the per-entry masks accept — the bad cases, one per parameter, are in
``tests/test_parameters.py``; these are the edges that are good."""

import math

import numpy as np
import pytest

from nvmemodel.errors import ParameterError
from nvmemodel.parameters import PARAMETERS


def test_inf_where_it_means_no_limit_is_accepted_and_the_array_returned_as_given():
    param = PARAMETERS["fabric.initiator_bits_per_s"]
    assert param.inf_ok and param.hi == math.inf
    grid = np.array([100e9, math.inf, 400e9])
    np.testing.assert_array_equal(param.check(grid), grid)
    assert param._all_fit(grid)


def test_the_bounds_themselves_and_minus_zero():
    rf = PARAMETERS["workload.read_fraction"]  # closed [0, 1]
    out = rf.check(np.array([-0.0, 0.0, 1.0]))
    assert np.signbit(out[0]) and out[1] == 0.0 and out[2] == 1.0  # values untouched, bit for bit
    line = PARAMETERS["fabric.line_rate_bits_per_s"]  # open at 0
    assert not line._all_fit(np.array([0.0, 1e9]))
    with pytest.raises(ParameterError, match="fabric.line_rate_bits_per_s=0"):
        line.check(np.array([1e9, 0.0]))


@pytest.mark.parametrize("bad", [math.nan, -math.inf, math.inf, 2.5])
def test_an_integer_column_with_one_bad_entry_names_it(bad):
    param = PARAMETERS["workload.iodepth"]  # integer, finite
    grid = np.array([1.0, 32.0, bad, 128.0])
    assert not param._all_fit(grid)
    with pytest.raises(ParameterError, match="workload.iodepth="):
        param.check(grid)
