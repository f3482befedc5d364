"""`sweep --grid` errors on a --group topology in the command line's words (QA2 G13, sweep part): no numpy array
reprs, no '(grid)', no DriveGroup."""
import pytest

from nvmemodel.cli import main

GROUPS = ["--preset", "dell-r7525", "--group", "drive=samsung-pm1733-u2,count=4,name=a",
          "--group", "drive=intel-p3700-800gb,count=4,name=b", "--drives", "8"]


@pytest.mark.parametrize("grid, words", [("switch.efficiency=0.5,1", "a --group with switch="),
                                         ("drive.model=samsung-pm1743", "no drive.* grid with --group")])
def test_mixed_grid_errors_speak_cli(capsys, grid, words):
    assert main(["sweep", *GROUPS, "--grid", grid]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0] and f"--grid {grid.split('=')[0]}" in err[0]
    for python in ("array(", "(grid)", "DriveGroup", "switch_with"):
        assert python not in err[0]


def test_a_numpy_value_in_any_error_is_shown_as_numbers():
    import numpy as np

    from nvmemodel.errors import ParameterError

    assert "x=[0.5, 1.0] is not allowed" in str(ParameterError("x", np.array([0.5, 1.0]), "y"))
