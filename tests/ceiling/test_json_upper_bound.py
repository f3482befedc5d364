"""`ceilings --json` tells an unknown host layer from an absent component (QA round 4, F15)."""
import nvmemodel as nm


def test_unknown_host_layers_are_named_in_the_json():
    d = nm.evaluate(nm.preset("ion-sr71mach5-linux"), nm.Workload("read", "128K")).to_dict()
    assert d["upper_bound"]["unknown_layers"] == ["root_complex", "socket_dma", "inter_socket"]
    assert d["upper_bound"]["note"].startswith("upper bound:")


def test_a_catalog_host_has_no_upper_bound_entry():
    d = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("read", "128K")).to_dict()
    assert d["upper_bound"] is None
    assert d["points"][0]["ceilings"]["switch_uplink"]["iops"] is None  # absent, and not listed as unknown


def test_a_catalog_hosts_removed_limit_is_not_sent_to_the_catalog():
    # COMPOSE2's note: "use a catalog host" was said to a user on a catalog host who removed its limit with --set
    c = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("read", "128K"), drives=[4],
                    overrides={"tree.complex_bytes_per_s": float("inf")})
    text = c.explain(4)
    assert "use a catalog host" not in text and "an override removed them" in text
