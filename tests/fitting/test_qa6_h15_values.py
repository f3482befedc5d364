"""QA s25 H15 (last note): a fit's refusal shows the values as a user wrote them — ``iodepth=1, 4, 16, 64``,
not a Python list of strings in text order (``['1', '16', '4', '64']``), nor ``[np.float64(4096.0), …]``.

Data: tests/data/qa6/grid (numjobs {1,2,4} x iodepth {1,4,16,64}) and tests/data/qa6/rwbs (``--bs=4k,64k``:
4 KiB reads, 64 KiB writes), tests/data/qa6/README.md."""

import pytest

import nvmemodel as nm


def test_iodepths_of_one_point_in_numeric_order():
    with pytest.raises(nm.ParameterError) as exc:
        nm.fit("tests/data/qa6/grid", x="numjobs", y="iops")
    text = str(exc.value)
    assert text.startswith("iodepth=1, 4, 16, 64 is not allowed: expected one iodepth among the runs of a point")
    assert "'1'" not in text
    # the runs behind each value in the same numeric order
    assert text.index("; 4 in 1 run(s)") < text.index("; 16 in 1 run(s)") < text.index("; 64 in 1 run(s)")


def test_block_sizes_of_one_run_as_numbers_with_the_directions():
    with pytest.raises(nm.ParameterError) as exc:
        nm.fit("tests/data/qa6/rwbs", x="block_size_bytes", y="bytes_per_s")
    text = str(exc.value)
    assert text.startswith("block_size_bytes=4096, 65536 is not allowed: expected one value per run")
    assert "np.float64" not in text and "reads at 4096, writes at 65536" in text
