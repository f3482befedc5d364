"""A parameter fitted onto its bound: the standard errors of the others are taken without stepping past it.

DIFFQA s27 P4: a ceiling_smooth fit of ``memory.dma_fraction`` on two socket-pinned groups ended at the share's bound,
1, and the Jacobian's central difference asked the model for 1.000001 — ``ParameterError: memory.dma_fraction=1.000001
is not allowed`` — a value the user never gave. The series is synthetic: the model's own curve (share 0.3) times
seeded 1 % noise; the drives bind, so the share is not identifiable and the fit says so.
"""

import numpy as np

import nvmemodel as nm

from .conftest import table


def _noisy_reads(topo, overrides, n):
    """The model's own 128K-read curve of ``topo`` with ``overrides`` at drive counts ``n``, times seeded 1 % noise
    (synthetic), as a results table."""
    truth = nm.evaluate(topo, nm.Workload("read", "128K"), drives=n, overrides=overrides).iops
    y = truth * (1 + 0.01 * np.random.default_rng(3).standard_normal(n.size))
    return table("drives", n.astype(float), y, pattern="read", bs=131072.0)


def test_a_share_fitted_onto_its_bound_does_not_step_past_it():
    dell = nm.preset("dell-r7525")
    topo = nm.MixedTopology("pinned", dell.host, (nm.DriveGroup("samsung-pm1733-u2", 6, name="a", socket=0),
                                                  nm.DriveGroup("samsung-pm1743", 6, name="b", socket=1)),
                            extras=dict(dell.extras), order="interleaved")
    wl = nm.Workload("read", "128K")
    r = nm.fit(_noisy_reads(topo, {"memory.dma_fraction": 0.3}, np.arange(1, 13)), x="drives", y="iops", model="ceiling_smooth", topology=topo, workload=wl,
               free=["memory.dma_fraction"])
    text = r.explain()
    assert "memory.dma_fraction = 1 (no interval)" in text
    # the other parameter keeps its interval, from the one-sided difference at the bound
    assert "sharpness = " in text and "95 % CI" in text.split("sharpness = ", 1)[1][:40]


def test_a_held_parameter_at_its_upper_bound_is_moved_inward_for_the_derived_knee():
    """DIFFQA s27 P7: a ceiling_smooth fit of switch.efficiency on 8 Gen4 drives + 16 Gen3 drives behind two PEX9797
    (synthetic: the model's own 128K-read curve at efficiency 0.7, seeded 1 % noise) holds the efficiency at its
    bound 1 as unidentified; the derived knee's check of whether it moves with that parameter stepped it to 1.01,
    and ``to_dict()``/``derived()`` raised 'switch.efficiency=1.01 is not allowed'."""
    dell = nm.preset("dell-r7525")
    topo = nm.MixedTopology("gen4 + gen3", dell.host, (
        nm.DriveGroup("samsung-pm1733-u2", 8, name="gen4"),
        nm.DriveGroup("intel-p3700-800gb", 16, switch="broadcom-pex9797", switch_count=2, name="gen3")),
        extras=dict(dell.extras))
    wl = nm.Workload("read", "128K")
    r = nm.fit(_noisy_reads(topo, {"switch.efficiency": 0.7}, np.arange(1, 25)), x="drives", y="iops", model="ceiling_smooth", topology=topo, workload=wl,
               free=["switch.efficiency"])
    fit = r.fits[next(iter(r.fits))]["ceiling_smooth"]
    assert fit.values["switch__efficiency"] == 1.0 and fit.held == {"switch__efficiency": "unidentified"}
    assert "derived" in r.to_dict()
    derived = r.derived()
    assert list(derived["model"]) == ["ceiling_smooth"] and "knee" in derived["meaning"].iloc[0]
