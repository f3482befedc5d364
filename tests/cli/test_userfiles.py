"""nvmemodel.userfiles: the one helper that reads a file a user named (issue 17 item 12)."""

import io
import os

import pytest

from nvmemodel.errors import ParameterError
from nvmemodel.userfiles import check_input, read_input, read_input_text, read_table


def test_only_regular_files_within_the_limit(tmp_path):
    f = tmp_path / "a.txt"
    f.write_bytes(b"x" * 100)
    assert read_input(f, what="--in", max_bytes=100) == b"x" * 100  # exactly the limit is fine
    with pytest.raises(ParameterError, match="at most 99 bytes"):
        read_input(f, what="--in", max_bytes=99)
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(ParameterError, match=r"--in='.*fifo' .*not a FIFO"):  # refused without opening: no hang
        read_input(tmp_path / "fifo", what="--in")
    with pytest.raises(ParameterError, match="not a device"):
        read_input("/dev/zero", what="--in")  # would never end
    with pytest.raises(ParameterError, match="not a folder"):
        read_input(tmp_path, what="--in")
    with pytest.raises(ParameterError, match="no such file"):
        read_input(tmp_path / "missing", what="--in")
    (tmp_path / "link").symlink_to(tmp_path / "gone")
    with pytest.raises(ParameterError, match="broken symbolic link"):
        read_input(tmp_path / "link", what="--in")
    assert check_input(tmp_path, what="paths", folders=True) == tmp_path


def test_stdin_only_where_allowed_and_bounded(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"y" * 10)))
    assert read_input("-", what="--in", stdin=True, max_bytes=10) == b"y" * 10
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"y" * 11)))
    with pytest.raises(ParameterError, match="standard input"):
        read_input("-", what="--in", stdin=True, max_bytes=10)
    with pytest.raises(ParameterError, match="no such file"):  # '-' is a file name unless stdin is documented
        read_input("-", what="--in")


def test_text_and_tables_name_what_is_wrong(tmp_path):
    (tmp_path / "bin.txt").write_bytes(b"\x00\x01\x02")
    with pytest.raises(ParameterError, match="NUL bytes"):
        read_input_text(tmp_path / "bin.txt", what="plan")
    (tmp_path / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    with pytest.raises(ParameterError, match="byte 3"):
        read_input_text(tmp_path / "latin1.txt", what="plan")
    (tmp_path / "bom.txt").write_bytes("\ufeffok".encode("utf-8"))
    assert read_input_text(tmp_path / "bom.txt", what="plan") == "ok"
    (tmp_path / "t.csv").write_text("drives,iops\n1,100\n2,200\n")
    assert read_table(tmp_path / "t.csv", what="paths")["iops"].tolist() == [100, 200]
    (tmp_path / "empty.csv").write_text("")
    with pytest.raises(ParameterError, match="empty.csv"):
        read_table(tmp_path / "empty.csv", what="paths")
    (tmp_path / "bad.parquet").write_text("not parquet")
    with pytest.raises(ParameterError, match="bad.parquet"):
        read_table(tmp_path / "bad.parquet", what="paths")


@pytest.mark.parametrize("path", ["/proc/self/status", "/sys/class", "/"])
def test_kernel_state_is_not_a_user_file(path):
    with pytest.raises(ParameterError, match="kernel state"):
        check_input(path, what="paths", folders=True)
