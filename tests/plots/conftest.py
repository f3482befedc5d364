"""Every plot test draws on the Agg backend and closes its figures (pyplot keeps them open otherwise)."""

import matplotlib
import pytest

matplotlib.use("Agg")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt

    plt.close("all")
