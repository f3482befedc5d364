"""Engines that go around the page cache and the block layer (round 13, classes QB and PA): the engine explains the
empty disk statistics once, and a defaulted direct=0 is no buffered I/O; files on btrfs or tmpfs keep their sentence."""

import warnings

from tests.fitting import corpus_score as cs


def _layer(case_id, split):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = cs.fit_case_id(case_id, split)
        return res, [c for c in res.claims() if c["kind"] == "layer"]


def _no_file_words(res):
    text = res.explain()
    for words in ("page cache (memory)", "through the page cache", "buffered I/O", "overlayfs", "beneath the files"):
        assert words not in text, words
    return text


def test_spdk_engine_explains_the_empty_disk_stats_r13():
    res, (layer,) = _layer("r13_krien-nvmebench_nvme-a-spdk_4k-write_qd", "blind13")
    assert layer["facts"]["layer"] == "bypass" and "from user space" in layer["text"]
    assert "disk statistics are empty" in layer["text"]
    assert _no_file_words(res).count("disk statistics") == 1


def test_io_uring_cmd_direct0_is_not_buffered_r13():
    res, (layer,) = _layer("r13_confznspp_zns-ssd-passthru_4k-randread_qd", "blind13")
    assert layer["facts"]["layer"] == "bypass" and layer["facts"]["engine"] == "io_uring_cmd"
    assert "whatever direct says" in layer["text"]
    _no_file_words(res)


def test_files_on_btrfs_keep_the_unknown_layer_r10():
    _, (layer,) = _layer("r10_swissknife_lvm-nvme-btrfs_4k-randrw5050_qd", "blind10")
    assert layer["facts"].get("layer") != "bypass" and "unknown from them" in layer["text"]


def test_buffered_tmpfs_keeps_the_page_cache_r9():
    _, (layer,) = _layer("r9_here-mmap_tmpfs_randread_bs_repeats", "blind9")
    assert layer["facts"]["layer"] != "bypass" and "page cache" in layer["text"]
