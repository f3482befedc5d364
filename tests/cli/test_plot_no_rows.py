"""``nvmemodel plot`` of paths that give no row says which paths and why, in one line (as ``ingest`` does), and
writes no figure. Before, the line named no path: "nvmemodel: error: (plot): no final, error-free rows to
summarise" (docs/cli.md: bad input gets one line naming the value)."""

import pathlib

from nvmemodel import cli

QD = pathlib.Path(__file__).parents[1] / "data" / "fit" / "local" / "qd"


def _error(capsys) -> list[str]:
    return [line for line in capsys.readouterr().err.splitlines() if line.startswith("nvmemodel: error:")]


def test_an_empty_folder_is_named(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    out = tmp_path / "a.png"
    assert cli.main(["plot", str(empty), "--x", "iodepth", "-o", str(out)]) == 2
    errors = _error(capsys)
    assert len(errors) == 1 and f"paths='{empty}'" in errors[0] and "no files found" in errors[0], errors
    assert not out.exists()


def test_a_file_that_is_no_result_is_named_with_the_skip_reason(tmp_path, capsys):
    binary = tmp_path / "blob.json"
    binary.write_bytes(b"\x00\x01\x02 not a benchmark")
    assert cli.main(["plot", str(binary), "--x", "iodepth", "-o", str(tmp_path / "a.png")]) == 2
    captured = capsys.readouterr().err
    assert f"skipped {binary}" in captured
    assert f"paths='{binary}' is not allowed" in captured and "1 skipped, reasons above" in captured


def test_one_empty_set_of_several_is_the_one_named(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    assert cli.main(["plot", str(QD), str(empty), "--x", "iodepth", "-o", str(tmp_path / "a.png")]) == 2
    errors = _error(capsys)
    assert len(errors) == 1 and f"paths='{empty}'" in errors[0] and str(QD) not in errors[0], errors
