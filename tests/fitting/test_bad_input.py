"""Bad input gives one clear NvmeModelError naming the problem (the CLI turns it into one line, exit 2)."""

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.errors import NvmeModelError
from nvmemodel.fitting import SHAPES, fit, fit_shape

from .conftest import table


@pytest.mark.parametrize("xs, ys, kwargs, needle", [
    ([1, 2], [1.0, 2.0], {"model": "usl"}, "more points than its 3 free parameters"),
    ([1, 2, 3, 4], [5.0, 5.0, 5.0, 5.0], {"model": "usl"}, "constant"),
    ([1, 2, 3], [1.0, np.nan, 3.0], {}, "NaN"),
    ([1, 2, 3], [1.0, -2.0, 3.0], {}, "non-negative"),
    ([4, 4, 4], [1.0, 2.0, 3.0], {}, "at least two different x values"),
    ([1, 2, 3], [1.0, 2.0, 3.0], {"model": "nope"}, "model='nope'"),
    ([1, 2, 3], [1.0, 2.0, 3.0], {"model": "ceiling"}, "a topology"),
])
def test_fit_refuses_with_a_named_reason(xs, ys, kwargs, needle):
    with pytest.raises(NvmeModelError, match=needle):
        fit(table("drives", xs, ys), x="drives", y="iops", **kwargs)


def test_auto_with_too_few_points_names_every_model():
    # two points: only the one-parameter line can be fitted (with one degree of freedom); every other model is
    # named with the reason
    r = fit(table("drives", [1, 2], [1.0, 2.0]), x="drives", y="iops")
    cmp = r.compare().set_index("model")
    assert r.chosen[()] == "linear"
    assert all("cannot support" in cmp.loc[m, "not_fitted"] for m in ("amdahl", "usl", "littles", "mva"))


def test_auto_skips_models_the_points_cannot_support():
    r = fit(table("drives", [1, 2, 3], [1.0, 1.9, 2.7]), x="drives", y="iops")
    cmp = r.compare()
    assert "cannot support 3 parameters" in cmp.set_index("model").loc["usl", "not_fitted"]


def test_small_n_uses_bic_and_the_fewest_parameters_instead_of_excluding_models():
    # the 4-point numjobs sweep that flattens at 2 jobs: AICc is undefined for the 2- and 3-parameter
    # models at n = 4, and excluding them let a straight line with R² = −0.80 "win" and claim "no bend"
    r = fit(table("numjobs", [1, 2, 4, 8], [100e3, 190e3, 195e3, 193e3]), x="numjobs", y="iops")
    assert r.chosen[()] != "linear" and r.selection[()]["criterion"] == "BIC"
    assert "linear" in r.selection[()]["excluded"]
    text = r.explain()
    assert "no bend" not in text and text.startswith("Measured IOPS flattens at 192.67 K IOPS")
    assert "at numjobs = 2–8)" in text[:120]  # the plateau, with where it starts, in the first sentence


def test_unknown_free_parameter_and_single_group():
    lenovo = nm.preset("lenovo-sr850-810-4p")
    df = table("drives", [1, 2, 3], [1e5, 2e5, 3e5])
    with pytest.raises(NvmeModelError, match="switch.efficency"):
        fit(df, x="drives", y="iops", model="ceiling", topology=lenovo, free=["switch.efficency"])
    with pytest.raises(NvmeModelError, match="free"):
        fit(df, x="drives", y="iops", model="ceiling", topology=lenovo, free=[])
    with pytest.raises(NvmeModelError, match=r"the curve c=a \(1 point"):  # a group with a single point (not a dict: QA s25 H32)
        fit(df.assign(c=["a", "b", "b"]), x="drives", y="iops", by="c", model="linear")
    two = fit(table("drives", [1, 2, 1, 2], [1.0, 2.1, 1.0, 1.9]).assign(c=["a", "a", "b", "b"]), x="drives",
              y="iops", by="c", model="linear")
    with pytest.raises(NvmeModelError, match="group"):
        two.predict([1])  # which curve? say so rather than guess


def test_fit_shape_direct_checks():
    with pytest.raises(NvmeModelError, match="ci='x'"):
        fit_shape(SHAPES["linear"], [1, 2, 3], [1, 2, 3], ci="x")
    with pytest.raises(NvmeModelError, match="inf"):
        fit_shape(SHAPES["linear"], [1, 2, np.inf], [1, 2, 3])
