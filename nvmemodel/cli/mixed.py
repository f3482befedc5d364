"""The ``--group`` option of ``ceilings``, ``sweep`` and ``plan``: its text parsed into a
:class:`~nvmemodel.topology.mixed.DriveGroup`, several of them into a
:class:`~nvmemodel.topology.mixed.MixedTopology` under the preset's host (:func:`mixed_from`; docs/topologies.md),
its errors in the option's words."""

from __future__ import annotations

from ..errors import ParameterError

#: Keys of a ``--group`` specification and what each takes.
GROUP_KEYS = {"drive": "a drive catalog key ('nvmemodel drives')", "count": "drives in the group",
              "lanes": "root-port lanes per direct drive", "switch": "a switch catalog key",
              "switches": "number of switches", "socket": "socket index to pin the group to", "name": "a label",
              "share": "the name of an earlier group whose switches these drives share",
              "mirror": "the name of the other group: drive i of each is an md RAID-1/10 mirrored pair "
                        "(needs --set raid.level=raid10 or raid1)",
              "write_mostly": "yes: md --write-mostly on this group's mirror members (reads go to the other)"}

GROUP_HELP = ("a group of identical drives under the preset's host (repeatable; with it the preset's own drives "
              "are replaced by the groups): comma-separated KEY=VALUE with keys drive and count (required), "
              "lanes, switch, switches, socket, name, share (another group's name: its switches), mirror (the "
              "other of two groups' name: drive i of each is an md mirrored pair; with --set raid.level=raid10 or "
              "raid1), write_mostly (yes: md --write-mostly on this group's mirror members), e.g. --group "
              "drive=samsung-pm1733-u2,count=8 --group drive=intel-p3700-800gb,count=16,switch=broadcom-pex9797,"
              "switches=2")

#: DriveGroup's field names (as its errors spell them) → the --group key the user typed
_KEY_OF = {"drive": "drive", "count": "count", "switch": "switch", "switch_count": "switches", "lanes": "lanes",
           "socket": "socket", "switch_with": "share"}


def _cli_words(e: ParameterError, raid_option: str | None = None) -> ParameterError:
    """A DriveGroup/MixedTopology error re-worded in the options' words (QA5 G13): the ``--group`` key the user
    typed, not the Python field, the keyword or the class."""
    if not hasattr(e, "parameter"):  # a subclass with its own sentence
        return e
    field = e.parameter.rpartition(": ")[2].removeprefix("group.")
    allowed = e.allowed.replace("None for", "no lanes= for")
    if field in _KEY_OF:
        return ParameterError(f"--group {_KEY_OF[field]}", e.value, allowed)
    if field == "raid.level" and raid_option:  # plan re-words it for its --axis itself
        return ParameterError(raid_option, e.value, "raid1 or raid10 for a mirror (a --group mirror= key)")
    if field == "mirror":
        return ParameterError("--group count", e.allowed.rpartition("got ")[2].replace(" + ", " and "),
                              "the same count= in both mirrored groups (drive i of each is a mirrored pair)")
    if field == "write_mostly":
        return ParameterError("--group write_mostly", "yes", "a mirror (the other group named by a mirror= key)")
    return e


def _check_shares(parsed) -> None:
    """The share= keys in the options' words: an earlier group's name= with a switch= of its own, and room on
    its switches' ports for the count= typed (the count the user gave, with what is already on them)."""
    groups = [g for g, _ in parsed]
    for i, g in enumerate(groups):
        if g.switch_with is None:
            continue
        hosts = [h for h in groups[:i] if h.switch is not None and h.switch_with is None]
        host = next((h for h in hosts if h.name == g.switch_with), None)
        if host is None:
            have = ", ".join(f"name={h.name}" for h in hosts if h.name) or "no earlier --group has a switch="
            raise ParameterError("--group share", g.switch_with,
                                 f"the name= of an earlier --group with a switch= of its own ({have})")
        slots = host.switch_count * host.switch.ports
        used = host.count + sum(h.count for h in groups[:i] if h.switch_with == host.name)
        if used + g.count > slots:
            raise ParameterError("--group count", g.count,
                                 f"at most {slots - used} drives sharing {host.name}'s switches ({host.switch_count} "
                                 f"x {host.switch.name}, {slots} ports; {used} already on them)")


def parse_group(text: str):
    """``"drive=samsung-pm1733-u2,count=8,lanes=4"`` → :class:`~nvmemodel.topology.mixed.DriveGroup`."""
    return _parse(text)[0]


def _parse(text: str):
    """``(DriveGroup, the group named by its mirror= key or None)``."""
    from ..topology.mixed import DriveGroup

    fields: dict[str, str] = {}
    for part in text.split(","):
        key, sep, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or key not in GROUP_KEYS or not value:
            raise ParameterError("--group", text, "comma-separated KEY=VALUE with keys "
                                 + ", ".join(GROUP_KEYS) + " (drive and count required)")
        if key in fields:  # the last value would silently win
            raise ParameterError("--group", text, f"each key once ({key} is given {fields[key]!r} and {value!r})")
        fields[key] = value
    missing = [k for k in ("drive", "count") if k not in fields]
    if missing:
        raise ParameterError("--group", text, "the keys " + " and ".join(missing)
                             + " as well (e.g. drive=samsung-pm1733-u2,count=8)")

    def integer(key):
        if key not in fields:
            return None
        try:
            return int(fields[key])
        except ValueError:
            raise ParameterError(f"--group {key}", fields[key], "an integer") from None

    wm = fields.get("write_mostly")
    if wm is not None and wm not in ("yes", "no"):
        raise ParameterError("--group write_mostly", wm, "yes or no")
    try:
        group = DriveGroup(fields["drive"], integer("count"), switch=fields.get("switch"),
                           switch_count=integer("switches") or 1, lanes=integer("lanes"), socket=integer("socket"),
                           name=fields.get("name", ""), switch_with=fields.get("share"), write_mostly=wm == "yes")
    except ParameterError as e:
        raise _cli_words(e) from None
    return group, fields.get("mirror")


def mixed_from(topo, groups, *, order: str = "sequential", overrides: dict | None = None,
               raid_option: str | None = None):
    """The ``--group`` texts under ``topo``'s host (its fabric, PCIe/NVMe settings and extras shared).

    A ``mirror=`` key makes the two groups one md mirror (``MixedTopology(mirror=True)``, added interleaved); the
    ``raid.*`` entries of ``overrides`` (``--set raid.level=raid10``) then move into the topology (taken out of
    ``overrides``). Errors name the ``--group`` keys; a mirror's RAID level the option ``raid_option`` (e.g.
    ``"--set raid.level"``) when given, else ``raid.level`` as the caller's own option words it."""
    from ..topology.mixed import MixedTopology

    parsed = [_parse(g) for g in groups]
    extras = dict(topo.extras)
    mirror = any(m is not None for _, m in parsed)
    if mirror:
        names = [g.name or f"group {i}" for i, (g, _) in enumerate(parsed)]
        for i, (_, m) in enumerate(parsed):
            if m is not None and (len(parsed) != 2 or m != names[1 - i]):
                raise ParameterError("--group mirror", m, "the name of the other of two groups (" + ", ".join(names)
                                     + ")")
        order = "interleaved"
        if overrides is not None:
            extras.update({k: overrides.pop(k) for k in list(overrides) if k.startswith("raid.")})
    _check_shares(parsed)
    try:
        return MixedTopology(f"{topo.name} (mixed)", topo.host, tuple(g for g, _ in parsed), fabric=topo.fabric,
                             pcie=topo.pcie, nvme=topo.nvme, extras=extras, extras_sources=dict(topo.extras_sources),
                             order=order, notes=topo.notes, mirror=mirror)
    except ParameterError as e:
        raise _cli_words(e, raid_option) from None

