"""QA5 G8: a read-share sweep is not a load. tests/data/qa5/mix (fio 3.33, io_uring randrw 4 KiB, rwmixread
0/30/50/70/100) has a flat total rate; read_iops is that total times the share. Fitting Little's law, USL or a
"linear scaling per read_fraction" along it is refused with one sentence, in Python and on the command line."""
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


@pytest.mark.parametrize("model", ["auto", "linear", "usl", "littles"])
def test_fit_along_read_fraction_is_refused(model):
    with pytest.raises(ParameterError, match="read_fraction is a share, not a load: plot it, or fit along "
                                             "iodepth, numjobs or drives"):
        nm.fit(nm.read_results(MIX), x="read_fraction", y="read_iops", model=model)


def test_cli_refuses_with_one_line(capsys):
    assert main(["fit", str(MIX), "--x", "read_fraction", "--y", "read_iops"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("nvmemodel: error:") and "share, not a load" in err[0]
