"""Two curves' model ceilings are told apart (issue 31): with a topology per --by curve and no free parameter, each
component's ceiling line keeps the component's colour and takes the curve's dash, and its legend names the curve
(both curves' lines were one style and one label)."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

import nvmemodel as nm  # noqa: E402


def test_two_curves_ceiling_lines_differ():
    # synthetic, computed here: Little's law curves, QD / 20 µs up to 1.30 M and 1.40 M IOPS, two repeats 1 % apart
    rows = [{"source_path": f"{g}_qd{q}_{k}.json", "iodepth": q, "iops": s * min(q / 20e-6, 1.3e6) * (1 + 0.01 * k),
             "host": g} for g, s in (("a", 1.0), ("b", 1.08)) for q in (1, 2, 4, 8, 16, 32, 64) for k in range(2)]
    r = nm.fit(pd.DataFrame(rows), x="iodepth", by="host",
               topology={"a": nm.preset("dell-r7525"), "b": nm.preset("dell-r7525")})
    fig = r.plot()
    ax = fig.axes[0] if hasattr(fig, "axes") and not hasattr(fig, "get_lines") else fig
    drive = [ln for ln in ax.get_lines() if ln.get_label().startswith("ceiling: drive")]
    try:
        assert [ln.get_label() for ln in drive] == ["ceiling: drive (host=a) (model, no free parameter)",
                                                    "ceiling: drive (host=b) (model, no free parameter)"]
        assert drive[0].get_color() == drive[1].get_color()  # the component's colour
        assert drive[0]._unscaled_dash_pattern != drive[1]._unscaled_dash_pattern  # each curve's dash
    finally:
        plt.close("all")
