"""One composition for every topology (issue 22): ``nm.evaluate`` and ``nm.sweep`` of a single-model ``Topology`` and
of a ``MixedTopology`` turn the groups' levels into a curve or a sweep's columns in one function,
:func:`nvmemodel.ceiling.compose.compose`; a single-model topology is one group, computed by the kernel's fast paths
inside it. Checked by who runs the kernel's passes over the drive counts, and by the numbers: one unpinned group of
a mixed topology sweeps to the single-model sweep's numbers bit for bit (the same path, not another order)."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import nvmemodel as nm
from nvmemodel.ceiling import compose as compose_module
from nvmemodel.ceiling import system

DELL = nm.preset("dell-r7525")
WL = nm.Workload("randread", "4K")
MIXED = nm.MixedTopology("two", DELL.host, (
    nm.DriveGroup("samsung-pm1733-u2", 8, name="gen4"),
    nm.DriveGroup("intel-p3700-800gb", 8, switch="broadcom-pex9797", switch_count=2, name="gen3")),
    extras=dict(DELL.extras))


#: a drive sweep the ceiling model fits (the fits' path: compose.evaluate_prepared at every step)
FIT_TABLE = __import__("pandas").DataFrame({"source_path": [f"r{n}" for n in (1, 2, 4, 8, 12)],
                                             "drives": [1, 2, 4, 8, 12],
                                             "iops": [1.40e6, 2.80e6, 5.60e6, 11.0e6, 15.5e6]})


@pytest.fixture
def callers(monkeypatch):
    """The functions that call the kernel's passes (Levels.total_and_binding, Levels.fill) and the general
    composition (compose._compose), by (module, name)."""
    seen = set()

    def spy(name):
        original = getattr(system.Levels, name) if name != "_compose" else compose_module._compose

        def wrapped(*args, **kwargs):
            f = sys._getframe(1)
            seen.add((f.f_globals.get("__name__"), f.f_code.co_name))
            return original(*args, **kwargs)

        return wrapped

    for name in ("total_and_binding", "fill"):
        monkeypatch.setattr(system.Levels, name, spy(name))
    monkeypatch.setattr(compose_module, "_compose", spy("_compose"))
    return seen


@pytest.mark.parametrize("call", [
    lambda: nm.evaluate(DELL, WL, drives=range(1, 25)),
    lambda: nm.sweep(DELL, WL, drives=range(1, 25), grid={"host.cycles_per_io": [3000.0, 30000.0]}),
    lambda: nm.evaluate(MIXED, WL),
    lambda: nm.sweep(MIXED, WL, drives=range(1, 17), grid={"host.cycles_per_io": [3000.0, 30000.0]}),
    lambda: nm.sweep(nm.MixedTopology.from_topology(DELL), WL, drives=range(1, 25),
                     grid={"host.cycles_per_io": [3000.0, 30000.0]}),
    lambda: nm.fit(FIT_TABLE, x="drives", y="iops", topology=DELL, model="ceiling", free=["host.cycles_per_io"]),
    lambda: nm.plan([nm.Target(WL, iops=3e6), nm.Target(nm.Workload("read", "128K"), bytes_per_s=20e9)],
                    nm.DesignSpace(DELL, {"host.gen": [4, 5], "workload.io_stack": ["libaio", "spdk"]})),
    lambda: nm.plan([nm.Target(WL, iops=3e6)], nm.DesignSpace(MIXED, {"workload.io_stack": ["libaio", "spdk"]})),
], ids=["evaluate Topology", "sweep Topology", "evaluate mixed", "sweep mixed", "sweep one group", "fit (ceiling)",
        "plan Topology", "plan mixed"])
def test_every_entry_composes_in_one_function(callers, call):
    call()
    assert callers and callers <= {("nvmemodel.ceiling.compose", "compose")}, callers


@pytest.mark.parametrize("preset", ["dell-r7525", "lenovo-sr850-810-4p", "broadcom-stingray"])
def test_one_group_sweeps_to_the_single_model_bits(preset):
    topo = nm.preset(preset)
    rng = np.random.default_rng(7)
    grid = {"host.cycles_per_io": rng.uniform(1000.0, 30000.0, 40), "workload.iodepth": rng.choice([1.0, 32.0], 40),
            "tree.placement": rng.choice(["round_robin", "fill_first"], 40),
            "workload.block_size": rng.choice([4096.0, 131072.0], 40)}
    drives = range(1, topo.max_drives + 1)
    a = nm.sweep(topo, WL, drives=drives, grid=grid)
    b = nm.sweep(nm.MixedTopology.from_topology(topo), WL, drives=drives, grid=grid)
    np.testing.assert_array_equal(b.iops, a.iops)
    np.testing.assert_array_equal(b.binding_index, a.binding_index)
    assert len({tuple(r) for r in a.iops}) > 1  # the grid matters


# ------------------------------------------------------------------- the one-group fast path is the composition's arithmetic
# compose() gives one single-model group to Levels' fast paths (total_and_binding for a curve, fill for a sweep's
# columns) and any other set of groups to the general _compose. Measured (docs/benchmarks.md, issue 22): _compose on
# one group costs 5-9x the fast path per curve, so the fast path stays; these tests hold it to the same numbers as
# _compose on every preset x read / write / mixed workloads x every drive count x the host layers.
WORKLOADS = (nm.Workload("read", "128K"), nm.Workload("write", "128K"), nm.Workload("randread", "4K"),
             nm.Workload("randwrite", "4K"), nm.Workload("randrw", "8K", read_fraction=0.7))
LAYERS = {
    "as shipped": {},
    "fill-first complexes": {"host.sockets": 1, "tree.complexes_per_socket": 2, "tree.complex_bytes_per_s": 16e9,
                             "tree.placement": "fill_first", "tree.slots_per_complex": 3},
    "complexes+socket DMA": {"tree.complexes_per_socket": 4, "tree.complex_bytes_per_s": 9e9,
                             "memory.peak_bytes_per_s": 60e9, "memory.dma_fraction": 0.5},
    "raid5": {"raid.level": "raid5", "raid.width": 4},
    "shared queue depth": {"workload.per_drive": 0, "workload.iodepth": 64},
    "inter-socket": {"tree.remote_fraction": 0.5, "tree.inter_socket_bytes_per_s": 30e9},
}


def _one_level_round_robin(lv) -> bool:
    """Drives round-robin over one host-tree level (sockets or complexes), no switches: the fast path writes the
    level's sum as n·d minus what its caps take (:func:`nvmemodel.ceiling.system._capped`, so that it ties n·d
    exactly where no cap binds and the drive keeps "binding"), _compose as Σ_units k_u·d — equal but for the last bit."""
    p = lv.p
    return bool(lv.tree and np.all(np.isinf(lv.group)) and np.all(np.asarray(p["tree.placement"]) == 0.0)
                and (np.all(np.isinf(lv.complex)) or np.all(np.isinf(lv.socket))))


def _assert_same_bits(lv, fast_iops, fast_binding, general):
    np.testing.assert_array_equal(general["binding"], fast_binding)
    if _one_level_round_robin(lv):
        np.testing.assert_array_max_ulp(general["iops"], fast_iops, maxulp=1)  # see _one_level_round_robin
    else:
        np.testing.assert_array_equal(general["iops"], fast_iops)


@pytest.mark.parametrize("layers", list(LAYERS.values()), ids=list(LAYERS))
@pytest.mark.parametrize("preset", sorted(nm.PRESETS))
def test_the_fast_path_of_a_curve_is_the_general_composition(preset, layers):
    for workload in WORKLOADS:
        topo, wl = nm.preset(preset).with_parameters(layers, workload)
        lv = system.levels_of(topo.parameters(wl))
        n = np.arange(1.0, topo.max_drives + 1)
        fast = compose_module.compose((lv,), n, groups=False)  # one single-model group: Levels.total_and_binding
        general = compose_module._compose([lv], n[None], [None], [0.0], None, alone=False)
        _assert_same_bits(lv, fast["iops"], fast["binding"], general)


@pytest.mark.parametrize("placement", ["round_robin", "fill_first"])
@pytest.mark.parametrize("layers", list(LAYERS.values()), ids=list(LAYERS))
@pytest.mark.parametrize("preset", sorted(nm.PRESETS))
def test_the_fast_path_of_a_sweep_is_the_general_composition(preset, layers, placement):
    """nm.sweep of one group (Levels.fill, one drive count at a time over 1-D configurations) against _compose on the
    same configurations as (configurations, 1) columns, every drive count at once."""
    from nvmemodel.ceiling.grid import sweep_parameters

    wl = nm.Workload("randrw", "8K", read_fraction=0.7)
    topo = nm.preset(preset).with_parameters({**layers, "tree.placement": placement}, wl)[0]
    rng = np.random.default_rng(3)
    grid = {"host.cycles_per_io": rng.uniform(1000.0, 30000.0, 48), "workload.iodepth": rng.choice([1.0, 32.0], 48),
            "workload.block_size": rng.choice([4096.0, 131072.0], 48),
            "workload.read_fraction": rng.choice([0.0, 0.7, 1.0], 48)}
    n = np.arange(1.0, topo.max_drives + 1)
    res = nm.sweep(topo, wl, drives=n.astype(int), grid=grid)
    p, _, configs = sweep_parameters(topo, wl, grid)
    lv = system.Levels({k: (v[:, None] if np.ndim(v) == 1 and np.shape(v)[0] == configs else v) for k, v in p.items()})
    general = compose_module._compose([lv], n[None], [None], [0.0], None, alone=False)
    _assert_same_bits(lv, res.iops, res.binding_index, general)
    assert len({tuple(r) for r in res.iops}) > 1  # the grid matters
