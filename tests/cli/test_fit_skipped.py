"""``nvmemodel fit`` says which files it skipped and why, as ``ingest`` and ``plot`` do (docs/fitting.md: what
reading the result files warned of — a skipped file among it — is printed on stderr by ``nvmemodel fit``). Before,
the skipped files went unsaid, and where every file was skipped the one error line ("table='0 rows'") gave no
reason."""

import pathlib
import shutil

from nvmemodel import cli

QD = pathlib.Path(__file__).parents[1] / "data" / "fit" / "local" / "qd"


def test_a_skipped_file_beside_results_is_said(tmp_path, capsys):
    for f in sorted(QD.glob("qd*_r1.json")):
        shutil.copy(f, tmp_path)
    (tmp_path / "notes.txt").write_text("hello\n")
    assert cli.main(["fit", str(tmp_path), "--x", "iodepth"]) == 0
    err = capsys.readouterr().err
    assert "nvmemodel: warning: skipped 1 of 9 file(s)" in err and "notes.txt" in err, err


def test_every_file_skipped_says_why_before_the_error(tmp_path, capsys):
    blob = tmp_path / "blob.json"
    blob.write_bytes(b"\x00\x01 not a result")
    assert cli.main(["fit", str(blob), "--x", "iodepth"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith("nvmemodel: warning: skipped 1 of 1 file(s)") and "blob.json" in lines[0], lines
    assert lines[-1].startswith("nvmemodel: error:") and len(lines) == 2, lines
