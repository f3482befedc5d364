"""For tests that check fio's CPU-cost figures on series whose jobs were far from their CPU limit: round 19's band
(TE, ``nvmemodel.fitting.cpu_band``) no longer says that cost line, and ``cpu_claims.unsaid_cost`` gives it; here it is
put back where it used to stand, at the end of each curve's last CPU claim. tests/fitting/test_cost_band_r19.py tests
the band itself."""

from __future__ import annotations

from nvmemodel.fitting.cpu_claims import unsaid_cost


def with_unsaid_cost(fit) -> list[dict]:
    """``fit.claims()`` with each curve's withheld cost line appended to that curve's last CPU claim."""
    claims = [dict(c) for c in fit.claims()]
    for key in fit.fits:
        extra = unsaid_cost(fit, key)
        mine = [c for c in claims if c["kind"] == "cpu" and tuple(c["group"]) == tuple(key)]
        if extra and mine:
            mine[-1]["text"] = f"{mine[-1]['text']} {extra}"
    return claims
