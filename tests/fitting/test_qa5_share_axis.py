"""QA5 G8: a read-share sweep is not a load. tests/data/qa5/mix (fio 3.33, io_uring randrw 4 KiB, rwmixread
0/30/50/70/100) has a flat total rate; read_iops is that total times the share. Fitting Little's law, USL or a
"linear scaling per read_fraction" along it is refused with one sentence, in Python and on the command line; the
total rate is described against the harmonic mix of the pure runs (issue 28)."""
import json
import pathlib

import pytest

import nvmemodel as nm
from nvmemodel.cli import main
from nvmemodel.errors import ParameterError

MIX = pathlib.Path(__file__).parents[1] / "data" / "qa5" / "mix"


def test_the_data_are_a_share_sweep():
    # what the refusal says of them: the read rate is the total rate times the share (fio's own numbers)
    job = json.loads((MIX / "mix_r30.json").read_text())["jobs"][0]
    total = job["read"]["iops"] + job["write"]["iops"]
    assert job["read"]["iops"] / total == pytest.approx(0.30, abs=0.01)


@pytest.mark.parametrize("model", ["linear", "usl", "littles"])
def test_a_scaling_law_along_read_fraction_is_refused(model):
    with pytest.raises(ParameterError, match="a share is not a load, so no scaling law"):
        nm.fit(nm.read_results(MIX), x="read_fraction", y="iops", model=model)


def test_one_directions_rate_along_its_own_share_is_refused():
    # read_iops along read_fraction is the total times the share by construction (the QA's finding): not described
    with pytest.raises(ParameterError, match="one direction's rate is the total times the share by construction"):
        nm.fit(nm.read_results(MIX), x="read_fraction", y="read_iops")


def test_the_total_along_read_fraction_is_described_against_the_harmonic_mix():
    # issue 28: a read-share sweep is described, not refused: 1/X = r/R + (1 - r)/W from the pure runs (fio's numbers)
    jobs = {r: json.loads((MIX / f"mix_r{r}.json").read_text())["jobs"][0] for r in (0, 30, 50, 70, 100)}
    total = {r: j["read"]["iops"] + j["write"]["iops"] for r, j in jobs.items()}
    R, W = total[100], total[0]
    res = nm.fit(nm.read_results(MIX), x="read_fraction", y="iops")
    (mix,) = [c for c in res.claims() if c["kind"] == "mix"]
    assert mix["facts"]["read"] == pytest.approx(R, rel=1e-6) and mix["facts"]["write"] == pytest.approx(W, rel=1e-6)
    for r, h in zip(mix["facts"]["shares"], mix["facts"]["harmonic"]):
        assert h == pytest.approx(1 / (r / R + (1 - r) / W), rel=1e-9)
    worst = max(1 - total[r] / (1 / (r / 100 / R + (1 - r / 100) / W)) for r in (30, 50, 70))
    assert mix["facts"]["deficit"] == pytest.approx(worst, rel=1e-6)
    assert mix["facts"]["below_harmonic"] == (worst > 0.10)
    assert "harmonic mix" in res.explain() and "share, not a load" not in res.explain()


def test_cli_refuses_a_scaling_law_with_one_line(capsys):
    assert main(["fit", str(MIX), "--x", "read_fraction", "--y", "read_iops"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("nvmemodel: error:") and "by construction" in err[0]
