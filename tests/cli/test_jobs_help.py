"""fio-jobs' help says how the drive count is read back (QA F23: it promised 'no sidecar' but the fit needs
--path-pattern to know the drives)."""

import pytest

from nvmemodel import cli


def test_fio_jobs_help_names_the_path_pattern(capsys):
    with pytest.raises(SystemExit):
        cli.main(["fio-jobs", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--path-pattern '{drives}drives/*.json'" in out and "need no sidecar" not in out
