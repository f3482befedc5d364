"""The README's "From a real machine" example runs and prints what it says."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_from_a_real_machine_example_runs(capsys, monkeypatch):
    text = (ROOT / "README.md").read_text()
    section = text.split("## From a real machine", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL).group(1)
    monkeypatch.chdir(ROOT)  # the example names a fixture relative to the repository
    exec(compile(code, "README.md", "exec"), {})  # noqa: S102 -- running our own README example is the test
    out = capsys.readouterr().out.splitlines()
    assert out[-2] == "['link_below_capability', 'link_below_capability', 'uplink_oversubscribed', 'mps_128']"
    assert out[-1] == "switch_uplink"
    assert any("switch upstream port" in line for line in out)
    # the commented expectations in the example are the printed values
    assert "# ['link_below_capability', 'link_below_capability', 'uplink_oversubscribed', 'mps_128']" in code
