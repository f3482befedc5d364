"""Where the inter-socket link binds, the explanation says the model charges one direction (QA round 4, F24)."""
import nvmemodel as nm


def test_binding_inter_socket_link_is_called_conservative():
    c = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("read", "128K"), drives=[24],
                    overrides={"tree.remote_fraction": 1.0})
    assert c.binding_at(24) == "inter_socket"
    assert "may be up to 2x higher" in c.explain(24)


def test_no_caveat_where_the_link_does_not_bind():
    c = nm.evaluate(nm.preset("dell-r7525"), nm.Workload("read", "128K"), drives=[24])
    assert "inter-socket link" not in c.explain(24).split("Headroom")[0]
