"""Every configuration the planner evaluates is accounted for; hostile targets read sensibly (QA F10, F12)."""

import pytest

import nvmemodel as nm
from nvmemodel import cli
from nvmemodel.errors import ParameterError
from nvmemodel.plan import DesignSpace, Target, plan

RR4K = nm.Workload("randread", "4K")
ADAPTERS = {"connection": ["lenovo-810-4p", "lenovo-1610-4p", "direct-x4"], "switch.count": [1, 2]}


def test_a_miss_inside_a_family_with_an_answer_is_listed():
    # one 1610-4P (4 drives, its switch processing 1.82 M) misses 3 M IOPS where two meet it: "why not one adapter?"
    p = plan(Target(RR4K, iops=3e6), DesignSpace("lenovo-sr850-810-4p", ADAPTERS))
    assert p.evaluated == p.feasible + p.n_unverified + p.n_missed and p.n_missed == 3
    assert p.rejected["configurations_missing"].sum() + p.near_misses["configurations_missing"].sum() == 3
    near = p.near_misses.iloc[0]
    assert (near["connection"], near["switch.count"]) == ("lenovo-1610-4p", 1)
    assert "4 drives is the most it can attach" in near["reason"]
    text = p.explain()
    assert "3 miss the targets" in text and "their closest configuration that misses" in text
    assert "connection=lenovo-810-4p, switch.count=2 switches (closest of 2 that miss)" in text


def test_json_counts_add_up(capsys):
    assert cli.main(["plan", "--iops", "3M", "--preset", "lenovo-sr850-810-4p", "--connection",
                     "lenovo-810-4p,lenovo-1610-4p,direct-x4", "--switch-count", "1,2", "--json"]) == 0
    import json

    doc = json.loads(capsys.readouterr().out)
    assert doc["evaluated"] == doc["feasible"] + doc["unverified_count"] + doc["missed_count"]
    assert sum(r["configurations_missing"] for r in doc["rejected"] + doc["near_misses"]) == doc["missed_count"]


def test_a_near_miss_is_not_rounded_up_to_the_target():
    from nvmemodel.plan.result import _short_of

    assert _short_of(0.998) == "99.8%" and _short_of(0.9999) == "99.9%" and _short_of(0.5) == "50%"
    assert _short_of(2.9e-23) == "2.9e-21%"


def test_max_drives_zero_names_the_option(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["plan", "--iops", "1M", "--max-drives", "0"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--max-drives" in err and "switch.ports" not in err
    with pytest.raises(ParameterError, match="max_drives=0"):
        DesignSpace("lenovo-sr850-direct", {}, max_drives=0)


def test_an_absurd_target_is_written_with_an_exponent(capsys):
    assert cli.main(["plan", "--iops", "1e30"]) == 0
    out = capsys.readouterr().out
    assert "Targets: 4K randread: 1e+30 IOPS." in out and "the target is 1e+30 IOPS" in out
    assert "000000000" not in out and "reaching 0%" not in out
