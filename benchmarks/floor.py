"""The floors the benchmarks measure against: a fused single pass of the sweep's composition (numba).

``compose`` is the sweep's per-point work written as one compiled loop — for each configuration and drive
count: ``n·d``, the drives placed round-robin (or fill-first) over the root complexes and, behind switches,
round-robin over each complex's switches; every level's sum in the kernel's order; the total; and the
binding component as the lexicographic (value, component index) minimum over the level candidates, ties to
the component nearer the drive. It reads the per-configuration limits of :class:`nvmemodel.ceiling.system.Levels`
(what does not depend on the drive count) and is written out by hand from the formulas in
``nvmemodel/ceiling/system.py`` — not calling them — so the benchmark can check that both give the same bits.

Two ways of charging the floor are reported (``bench_sweep.py``):

* *fused*: the per-point pass alone, the per-configuration limits given for free — a floor no implementation can
  reach (the sweep also validates, encodes names and computes every component's limits);
* *fused + levels*: plus the same per-configuration limits computed by the model's numpy code, and names turned
  into codes by the sweep's own lookup.
"""

from __future__ import annotations

import numpy as np

_INF = np.inf


def available() -> str | None:
    """``None`` when numba is importable, else the reason (``pip install -e .[bench]``)."""
    try:
        import numba  # noqa: F401
    except ImportError:
        return "numba is not installed (pip install -e '.[bench]')"
    return None


def per_config(lv, configs: int) -> dict[str, np.ndarray]:
    """The per-configuration inputs of :func:`compose` from a :class:`Levels`, broadcast to ``configs``."""
    p = lv.p

    def full(x, dtype=float):
        return np.ascontiguousarray(np.broadcast_to(np.asarray(x, dtype=dtype), (configs,)))

    if lv.tree and lv._flat is not False:
        raise ValueError("the fused floor does not mix host-tree and flat configurations")
    out = {"d": full(lv.drive), "g": full(lv.group), "c": full(lv.complex), "sk": full(lv.socket),
            "system": full(lv.system), "di": full(lv.drive_index, np.int8), "gi": full(lv.group_index, np.int8),
            "ci": full(lv.complex_index, np.int8), "si": full(lv.socket_index, np.int8),
            "yi": full(lv.system_index, np.int8), "m": full(lv.switches), "sockets": full(p["host.sockets"]),
            "cps": full(p["tree.complexes_per_socket"]), "slots": full(p["tree.slots_per_complex"]),
            "fill": full(p["tree.placement"]), "tree": full(float(lv.tree))}
    return out


def placement(drives: np.ndarray, inputs: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What a drive count's placement is, the same for every configuration of a benchmark grid (checked):
    ``(drives on complex j at each drive count, socket of complex j, switches on complex j)``, as
    ``nvmemodel/ceiling/tree.py`` places them (round-robin or fill-first; switches spread over the complexes)."""
    keys = ("sockets", "cps", "slots", "fill", "m")
    first = {k: float(inputs[k][0]) for k in keys}
    if any(np.any(inputs[k] != first[k]) for k in keys):
        raise ValueError("the floor needs one placement for every configuration")
    sockets, cps, slots, fill, m = (first[k] for k in keys)
    switched = bool(np.all(np.isfinite(inputs["g"])))
    M = int(min(sockets * cps, m) if switched else sockets * cps)
    loads = np.zeros((drives.size, M))
    for col, n in enumerate(drives):
        q = np.floor(n / M)
        r = n - q * M
        for j in range(M):
            if fill == 1.0:
                left = n - j * slots
                loads[col, j] = max(left, 0.0) if j == M - 1 else min(max(left, 0.0), slots)
            else:
                loads[col, j] = q + (1.0 if j < r else 0.0)
    j = np.arange(M)
    sock = (np.floor(j / cps) if fill == 1.0 else np.mod(j, sockets)).astype(np.int64)
    mq = np.floor(m / M)
    on = np.fmax(mq + (j < m - mq * M), 1.0) if switched else np.ones(M)
    return loads, sock, on


_KERNEL = None


def kernel():
    """The compiled pass (compiled on first use)."""
    global _KERNEL
    if _KERNEL is not None:
        return _KERNEL
    import numba

    @numba.njit(inline="always")
    def rr_local(k, d, g, m):  # Σ_switches min(G, k_j·d): k drives round-robin over m switches
        q = np.floor(k / m)
        r = k - q * m
        return r * min(g, (q + 1) * d) + (m - r) * min(g, q * d)

    @numba.njit(inline="always")
    def excess(k, d, g, m):  # what m caps take away from k·d
        q = np.floor(k / m)
        r = k - q * m
        return r * max((q + 1) * d - g, 0.0) + (m - r) * max(q * d - g, 0.0)

    @numba.njit(inline="always")
    def better(x, xi, best, index):
        return x < best or (x == best and xi < index)

    @numba.njit(inline="always")
    def pick(nd, d_index, g_alone, g_index, c_alone, c_index, s_alone, s_index, y, y_index):
        # the binding component: the lexicographic (value, index) minimum over the levels present (index >= 0)
        best, index = nd, d_index
        if g_index >= 0 and better(g_alone, g_index, best, index):
            best, index = g_alone, g_index
        if c_index >= 0 and better(c_alone, c_index, best, index):
            best, index = c_alone, c_index
        if s_index >= 0 and better(s_alone, s_index, best, index):
            best, index = s_alone, s_index
        if y_index >= 0 and better(y, y_index, best, index):
            index = y_index
        return index

    @numba.njit(cache=False, fastmath=False)
    def compose(n, d, g, c, sk, system, di, gi, ci, si, yi, m, sockets, cps, fill, tree, loads, sock_of, on_of,
                out, binding):
        # drive counts outer, configurations inner (the result is column-major, as the sweep's): the placement
        # of one drive count — drives per complex (loads[col, j]), its socket and switches — is the same for
        # every configuration (checked by placement()), so it is read, not recomputed, per point
        inner = np.zeros(64)
        drives_on = np.zeros(64)
        M = loads.shape[1]
        for col in range(n.size):
            nn = n[col]
            for i in range(d.size):
                D, G, C, K, Y = d[i], g[i], c[i], sk[i], system[i]
                switched = G != _INF
                nd = nn * D
                c_alone, s_alone, g_alone = _INF, _INF, _INF
                if tree[i] == 0.0:
                    if switched:
                        local = rr_local(nn, D, G, m[i])
                        g_alone = nd - excess(nn, D, G, m[i])
                    else:
                        local = nd
                elif not switched and fill[i] == 0.0 and (C == _INF or K == _INF):
                    if C == _INF:  # round-robin over sockets: the switch formula over them
                        local = nd - excess(nn, D, K, sockets[i])
                        s_alone = local
                    else:
                        local = nd - excess(nn, D, C, sockets[i] * cps[i])
                        c_alone = local
                else:
                    S = int(sockets[i])
                    for s in range(S):
                        inner[s] = 0.0
                        drives_on[s] = 0.0
                    cut, gx = 0.0, 0.0
                    last_k, last_on = -1.0, -1.0
                    lj, cj, xj, kd = 0.0, 0.0, 0.0, 0.0
                    for j in range(M):
                        k = loads[col, j]
                        if k == 0.0:
                            continue
                        on = on_of[j]
                        if k != last_k or on != last_on:  # a complex's terms depend on its load and switches only
                            last_k, last_on = k, on
                            kd = k * D
                            if switched:
                                lj = rr_local(k, D, G, on)
                                xj = excess(k, D, G, on)
                            else:
                                lj = kd
                            if C != _INF:
                                cj = max(kd - C, 0.0)
                                lj = min(C, lj)
                        if switched:
                            gx += xj
                        if C != _INF:
                            cut += cj
                        sock = sock_of[j]
                        inner[sock] += lj
                        drives_on[sock] += kd
                    local = 0.0
                    take = 0.0
                    for s in range(S):
                        if K == _INF:
                            local += inner[s]
                        else:
                            local += min(K, inner[s])
                            take += max(drives_on[s] - K, 0.0)
                    if K != _INF:
                        s_alone = nd - take
                    if C != _INF:
                        c_alone = nd - cut
                    if switched:
                        g_alone = nd - gx
                out[i, col] = min(local, Y)
                binding[i, col] = pick(nd, di[i], g_alone, gi[i], c_alone, ci[i], s_alone, si[i], Y, yi[i])

    @numba.njit(cache=False, fastmath=False)
    def compose_tree(n, d, g, c, sk, system, di, gi, ci, si, yi, sockets, loads, sock_of, on_of, out, binding):
        # every configuration a host tree of the general kind, one placement: per drive count, complex by complex,
        # each loop over the configurations (straight-line code the compiler can vectorize), the sums in the
        # kernel's order per configuration
        C, M, S = d.size, loads.shape[1], int(sockets[0])
        inner = np.zeros((S, C))
        drives_on = np.zeros((S, C))
        cut = np.zeros(C)
        gx = np.zeros(C)
        for col in range(n.size):
            nn = n[col]
            inner[:, :] = 0.0
            drives_on[:, :] = 0.0
            cut[:] = 0.0
            gx[:] = 0.0
            for j in range(M):
                k = loads[col, j]
                if k == 0.0:
                    continue
                on, s = on_of[j], sock_of[j]
                for i in range(C):
                    D, G, Cc = d[i], g[i], c[i]
                    kd = k * D
                    lj = kd
                    if G != _INF:
                        lj = rr_local(k, D, G, on)
                        gx[i] += excess(k, D, G, on)
                    if Cc != _INF:
                        cut[i] += max(kd - Cc, 0.0)
                        lj = min(Cc, lj)
                    inner[s, i] += lj
                    drives_on[s, i] += kd
            for i in range(C):
                D, G, Cc, K, Y = d[i], g[i], c[i], sk[i], system[i]
                nd = nn * D
                local, take = 0.0, 0.0
                for s in range(S):
                    if K == _INF:
                        local += inner[s, i]
                    else:
                        local += min(K, inner[s, i])
                        take += max(drives_on[s, i] - K, 0.0)
                s_alone = nd - take if K != _INF else _INF
                c_alone = nd - cut[i] if Cc != _INF else _INF
                g_alone = nd - gx[i] if G != _INF else _INF
                out[i, col] = min(local, Y)
                binding[i, col] = pick(nd, di[i], g_alone, gi[i], c_alone, ci[i], s_alone, si[i], Y, yi[i])

    _KERNEL = compose
    _TREE[0] = compose_tree
    return compose


_TREE = [None]


def general_tree(inputs: dict) -> bool:
    """True where every configuration is a host tree of the general kind (complexes and sockets, or switches in
    a tree): :func:`tree_kernel` applies."""
    t, fill, g, c, k = inputs["tree"], inputs["fill"], inputs["g"], inputs["c"], inputs["sk"]
    simple = (~np.isfinite(g)) & (fill == 0.0) & (np.isinf(c) | np.isinf(k))
    return bool(np.all(t == 1.0) and not np.any(simple) and np.all(inputs["sockets"] == inputs["sockets"][0]))


def tree_kernel():
    """The general host-tree pass (compiled with :func:`kernel`)."""
    kernel()
    return _TREE[0]


def names_to_codes(values: np.ndarray, parameter) -> np.ndarray:
    """Names → codes as the sweep looks them up (a few characters' key into a small table; the names are then
    compared with the spelling found, which the floor could skip but which costs little)."""
    codes = parameter._codes_of_spelled(values)
    if codes is None:
        raise ValueError(f"{parameter.name}: a name the fast lookup does not know")
    return codes
