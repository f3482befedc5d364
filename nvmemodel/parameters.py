"""The parameter table: every model parameter once — name, unit, kind, range, meaning, default source.

Every consumer reads this one table: the dataclasses' checks (``Drive``, ``Host`` …),
:func:`nvmemodel.evaluate` ``overrides=``, :func:`nvmemodel.sweep` ``grid=``, the CLI's
``--set NAME=VALUE`` (with units: ``3GHz``, ``80us``, ``4K``, ``100Gb/s``), ``nvmemodel parameters``
and the bounds of a fit. A parameter is one of five kinds:

``continuous``  a finite real number in ``[lo, hi]`` (``(lo, hi]`` when ``lo_open``)
``integer``     an integral number in ``[lo, hi]``
``choice``      one of a few numbers (MPS 128…4096, link widths, PCIe generations)
``flag``        0 or 1 (``True``/``False``)
``categorical`` one of a few *names* (I/O stack, transport, DLLP policy, drive model …); the
                kernel sees the position of the name in :attr:`Parameter.choices` (a code)

Names are dotted, ``"component.field"``; :func:`lmfit_name` maps them to identifiers
(``"host.cycles_per_io"`` ↔ ``"host__cycles_per_io"``) for lmfit and pandas.

>>> from nvmemodel.parameters import PARAMETERS
>>> p = PARAMETERS["pcie.mps"]
>>> p.kind, p.unit, p.choices
('choice', 'B', (128, 256, 512, 1024, 2048, 4096))
>>> PARAMETERS["host.clock_hz"].parse("2.25GHz")
2250000000.0
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import importlib
import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np

from . import units
from .errors import ParameterError, UnitError, UnknownNameError
from .standards import ethernet as eth
from .standards import pcie as sp

__all__ = [
    "PARAMETERS",
    "STATUSES",
    "Parameter",
    "Source",
    "check_values",
    "declare",
    "decode",
    "encode",
    "from_lmfit_name",
    "get",
    "lmfit_name",
]

#: How solid a value is: read off the machine itself (``measured``: lspci/sysfs discovery, a benchmark),
#: a spec sheet or standard, derived from one (``inferred``), fitted to a paper's sentence
#: (``calibrated``), a named guess (``assumption``, ``estimate``), remembered but not re-checked
#: (``recalled``), set by the user, or a fit.
STATUSES = ("measured", "spec", "inferred", "calibrated", "derived", "assumption", "estimate", "recalled", "default",
            "user", "fit")

KINDS = ("continuous", "integer", "choice", "flag", "categorical")

#: How ``--set`` text is parsed, by unit (everything else: a plain number or a decimal count).
_PARSERS: dict[str, Callable[[str], float]] = {
    "B": units.parse_block_size, "B/s": units.parse_bandwidth, "s": units.parse_time,
    "Hz": units.parse_frequency, "1/s": units.parse_count,
    "bit/s": lambda text: units.parse_bandwidth(text) * 8.0,
}


@dataclasses.dataclass(frozen=True)
class Source:
    """Where a value comes from: a status from :data:`STATUSES` and the citation or reason."""

    status: str
    text: str = ""

    def __str__(self) -> str:
        return f"{self.status}: {self.text}" if self.text else self.status

    @classmethod
    def parse(cls, text: str, default_status: str = "spec") -> Source:
        """``"calibrated on LP0865 …"`` / ``"spec: x16 uplink …"`` → a Source (status = the first word)."""
        text = (text or "").strip()
        head = text.split(":", 1)[0].split(" ", 1)[0].strip().lower()
        for status in STATUSES:
            if head == status or (head.startswith(status) and len(head) <= len(status) + 2):
                rest = text[len(head):].lstrip(" :")
                return cls(status, rest)
        if text.upper().startswith(("ASSUMPTION", "ESTIMATE")):
            return cls(text.split(":", 1)[0].split(" ", 1)[0].lower(), text)
        return cls(default_status, text)


@dataclasses.dataclass(frozen=True)
class Parameter:
    """One row of the table.

    Parameters
    ----------
    name : str
        ``"component.field"``.
    unit : str
        Unit of the SI value: ``B``, ``B/s``, ``bit/s``, ``1/s`` (IOPS), ``s``, ``Hz``, ``cycles``,
        ``lanes``, ``1`` (dimensionless) …; empty for categorical parameters.
    kind : str
        One of ``continuous``, ``integer``, ``choice``, ``flag``, ``categorical``.
    meaning : str
        What the parameter is, in a sentence.
    lo, hi, lo_open : float, float, bool
        Allowed range of continuous and integer parameters.
    choices : tuple
        Allowed numbers (``choice``) or names (``categorical``); see also ``choices_from``.
    default : float | str | None
        Value used when a topology does not set it (registered components' parameters).
    source : str
        Where the default (or the range) comes from.
    unknown_ok : bool
        NaN is a legal *stored* value meaning "unknown, not applied" (drive limits);
        a user can still not set NaN.
    inf_ok : bool
        +inf is legal ("no limit").
    choices_from : str
        ``"module:function"`` returning the choices lazily (catalog keys).
    aliases : dict
        Extra accepted spellings of categorical names (``"roce"`` → ``"rocev2"``).
    """

    name: str
    unit: str
    kind: str
    meaning: str
    lo: float = -math.inf
    hi: float = math.inf
    lo_open: bool = False
    choices: tuple = ()
    default: float | str | None = None
    source: str = ""
    unknown_ok: bool = False
    inf_ok: bool = False
    choices_from: str = ""
    aliases: Mapping[str, str] = dataclasses.field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"parameter {self.name}: kind {self.kind!r} not in {KINDS}")

    # ------------------------------------------------------------------ choices
    def allowed_choices(self) -> tuple:
        """The choices, resolving ``choices_from`` (catalog keys) on first use."""
        if self.choices_from:
            module, func = self.choices_from.split(":")
            return tuple(getattr(importlib.import_module(module), func)())
        return self.choices

    def describe_range(self) -> str:
        """The allowed values in words, e.g. ``"> 0 (Hz)"``, ``"one of 128, 256, …"``."""
        if self.kind == "flag":
            return "0 or 1"
        if self.kind in ("choice", "categorical"):
            return "one of " + ", ".join(str(c) for c in self.allowed_choices())
        def bound(x: float) -> str:
            if self.unit == "B" and x >= 1024 and x == 2 ** round(math.log2(x)):
                return f"{x / 2**30:g} GiB" if x >= 2**30 else f"{x / 1024:g} KiB"
            return f"{x:g}"

        rng = []
        if math.isfinite(self.lo):
            rng.append(f"{'>' if self.lo_open else '>='} {bound(self.lo)}")
        if math.isfinite(self.hi):
            rng.append(f"<= {bound(self.hi)}")
        kind = "an integer" if self.kind == "integer" else "a number"
        text = f"{kind} {' and '.join(rng)}".strip()
        if self.inf_ok:
            text += " or inf (no limit)"
        return text + (f" ({self.unit})" if self.unit and self.unit != "1" else "")

    # ------------------------------------------------------------------ codes
    def code(self, name: Any) -> int:  # a name (str, an enum such as Gen) or its code
        """Kernel code of a categorical name (its position in the choices)."""
        choices = self.allowed_choices()
        if type(name) is str:  # a listed spelling (choices, lower case, -/_ swapped, aliases): one dict lookup
            found = _spelling_dict(self.name, choices, tuple(self.aliases.items())).get(name)
            if found is not None:
                return found
        key = name.value if hasattr(name, "value") and not isinstance(name, (int, float)) else name
        key = str(key).strip().lower().replace("-", "_")
        key = self.aliases.get(key, key)
        for i, c in enumerate(choices):
            if key == str(c).lower().replace("-", "_"):
                return i
        raise ParameterError(self.name, name, self.describe_range())

    def name_of(self, code: float) -> str:
        """The categorical name of a kernel code."""
        return str(self.allowed_choices()[int(code)])

    # ------------------------------------------------------------------ checks
    def check(self, value: Any) -> np.ndarray:  # a number, a name or enum, or an array of them
        """Validate a scalar or array; return it as a float array (categorical: codes).

        Raises :class:`ParameterError` naming the parameter, the first bad value and what is allowed.
        """
        if self.kind == "categorical":
            if np.ndim(value) == 0:
                return np.asarray(float(self.code(value.item() if isinstance(value, np.ndarray) else value)))
            if isinstance(value, np.ndarray) and value.dtype.kind == "U":  # names as a numpy string array
                codes = self._codes_of_spelled(value)
                if codes is not None:
                    return codes
            values = np.asarray(value, dtype=object)
            keys = np.array([v.value if hasattr(v, "value") and not isinstance(v, (int, float)) else v
                             for v in values.ravel()], dtype=object).astype(str)
            uniq, inverse = np.unique(keys, return_inverse=True)  # one lookup per distinct name
            codes = np.array([self.code(u) for u in uniq], dtype=float)
            return codes[inverse].reshape(values.shape)
        if type(value) in _PLAIN and self._fits(float(value)):  # one good number (catalog rows, overrides)
            return np.asarray(float(value))
        if isinstance(value, (str, bytes)) or value is None:
            raise ParameterError(self.name, value, self.describe_range())
        try:
            arr = np.asarray(value, dtype=float)
        except (TypeError, ValueError):
            raise ParameterError(self.name, value, self.describe_range()) from None
        if self.kind == "flag":
            bad = ~np.isin(arr, (0.0, 1.0))
        elif self.kind == "choice":
            bad = ~np.isin(arr, np.asarray(self.allowed_choices(), dtype=float))
        else:
            if arr.size and self._all_fit(arr):  # a grid of good numbers: two reductions, no per-entry masks
                return arr
            finite = np.isfinite(arr) | (self.inf_ok & (arr == np.inf))
            with np.errstate(invalid="ignore"):
                bad = ~finite | (arr <= self.lo if self.lo_open else arr < self.lo) | (arr > self.hi)
                if self.kind == "integer":
                    bad |= np.isfinite(arr) & (arr != np.round(arr))
        if np.any(bad):
            first = arr[bad].flat[0] if arr.ndim else arr.item()
            shown = value if np.ndim(value) == 0 and not hasattr(value, "dtype") else (
                int(first) if np.isfinite(first) and first == int(first) else float(first))
            raise ParameterError(self.name, shown, self.describe_range())
        return arr

    def _codes_of_spelled(self, names: np.ndarray) -> np.ndarray | None:
        """Codes of a string array looked up among the spellings :meth:`code` accepts (each choice as written,
        lower case, ``-``/``_`` swapped, the aliases), each name then compared whole with the spelling found:
        ``None`` if any name is not among them (then the general path decides, and names the bad value).

        The lookup hashes the low bytes of the shortest run of characters in which the spellings all differ
        (cast from the array's UTF-32 buffer in one pass) into a slot of a small table; the names are then compared
        with the spellings found as UTF-32 code units, and only names that differ from them compared as strings
        (``-`` for ``_``). A million names cost a few tens of milliseconds, where sorting the strings costs
        seconds."""
        width = names.dtype.itemsize // 4
        if names.size == 0 or width == 0:
            return None
        spellings, codes, lookup, table = _spelling_keys(self.name, self.allowed_choices(),
                                                         tuple(self.aliases.items()), width)
        if spellings.size == 0:
            return None
        shape = names.shape
        names = np.ascontiguousarray(names.ravel(), dtype=f"U{width}")  # native byte order
        units = names.view(np.uint32).reshape(-1, width)  # a row of UTF-32 code units per name
        i = table[_slots(units, lookup)]
        if i.min() < 0:
            return None
        same = spellings.view(np.uint32).reshape(-1, width).take(i, axis=0) == units
        if not same.all():
            differ = ~same.all(axis=1)
            if not np.array_equal(np.char.replace(names[differ], "-", "_"),
                                  np.char.replace(spellings[i[differ]], "-", "_")):
                return None  # not a listed spelling ("-" for "_" and the other way round are)
        return codes[i].reshape(shape)

    def _all_fit(self, arr: np.ndarray) -> bool:
        """:meth:`check`'s test of a numeric array from its smallest and largest entry (NaN makes both NaN, which
        fits nothing); integers also compared with themselves rounded. False: let the masks say which is bad."""
        low, high = float(arr.min()), float(arr.max())
        if not math.isfinite(low) or not (math.isfinite(high) or self.inf_ok):
            return False
        if (low <= self.lo if self.lo_open else low < self.lo) or high > self.hi:
            return False
        return self.kind != "integer" or bool(np.array_equal(arr, np.round(arr)))

    def _fits(self, x: float) -> bool:
        """:meth:`check`'s test for one number, in Python arithmetic (False: let the array path say why)."""
        if self.kind == "flag":
            return x == 0.0 or x == 1.0
        if self.kind == "choice":
            return x in self.allowed_choices()
        if not (math.isfinite(x) or (self.inf_ok and x == math.inf)):
            return False
        if (x <= self.lo if self.lo_open else x < self.lo) or x > self.hi:
            return False
        return self.kind != "integer" or not math.isfinite(x) or x == round(x)

    def check_stored(self, value: Any) -> np.ndarray:
        """Like :meth:`check` but accepts NaN where ``unknown_ok`` (a value read from a catalog)."""
        if self.unknown_ok and type(value) in _PLAIN:
            return np.asarray(float(value)) if math.isnan(value) else self.check(value)
        if self.unknown_ok:
            arr = np.asarray(value, dtype=float)
            if np.all(np.isnan(arr)):
                return arr
            if np.any(np.isnan(arr)):
                return np.where(np.isnan(arr), np.nan, self.check(np.where(np.isnan(arr), self._any_valid(), arr)))
        return self.check(value)

    def _any_valid(self) -> float:
        return self.hi if math.isfinite(self.hi) else (self.lo + 1.0 if math.isfinite(self.lo) else 1.0)

    # ------------------------------------------------------------------ text at the edges
    def parse(self, text: str) -> float | str:
        """A value from user text, with units where the parameter has them.

        ``"3GHz"`` (Hz), ``"80us"`` (s), ``"4K"`` (B, storage convention 4096), ``"100Gb/s"`` (bit/s),
        ``"6200MB/s"`` (B/s), ``"2.5M"`` (1/s), ``"true"`` (flag), a name (categorical).
        The value is checked; errors name the parameter.
        """
        if self.kind == "categorical":
            return self.name_of(self.code(text))
        if not isinstance(text, str):
            return float(self.check(text))
        t = text.strip()
        if self.kind == "flag" and t.lower() in ("true", "false", "yes", "no", "on", "off"):
            return float(t.lower() in ("true", "yes", "on"))
        if t.lower() in ("inf", "+inf", "infinity") and self.inf_ok:
            return math.inf
        try:
            value = float(t)
            value = int(value) if value.is_integer() and abs(value) < 2**53 else value  # shown as written
        except ValueError:
            parser = _PARSERS.get(self.unit, units.parse_count)
            try:
                value = parser(t)
            except UnitError as exc:
                raise ParameterError(self.name, text, f"{self.describe_range()}; {exc}") from None
        return float(self.check(value))

    def format(self, value: Any) -> str:  # a value as the kernel or the user holds it
        """A value with its unit, for listings (``2.25 GHz``, ``256 B``, ``libaio``, ``unknown``)."""
        if self.kind == "categorical":
            return value if isinstance(value, str) else self.name_of(value)
        v = float(value)
        if math.isnan(v):
            return "unknown"
        if math.isinf(v):
            return "no limit"
        if self.kind == "flag":
            return "yes" if v else "no"
        unit = "" if self.unit in ("1", "") else self.unit
        if self.unit == "B/s":
            return f"{v / 1e9:.4g} GB/s"
        if self.unit == "bit/s":
            return f"{v / 1e9:.4g} Gb/s"
        if self.unit == "Hz":
            return f"{v / 1e9:.4g} GHz"
        if self.unit == "gen":
            return f"Gen{v:g}"
        if self.unit == "s":
            return f"{v * 1e9:.4g} ns" if 0 < v < 1e-6 else (f"{v * 1e6:.4g} us" if 0 < v < 1e-3 else f"{v:g} s")
        if self.unit == "1/s":
            return units.format_iops(v)
        if v == 1 and unit.endswith("s") and unit.isalpha():  # "1 socket", not "1 sockets"
            unit = unit[:-2] if unit.endswith(("ches", "shes", "xes")) else unit[:-1]
        return f"{v:,.6g} {unit}".strip()


#: Python and numpy scalar types :meth:`Parameter.check` tests without numpy.
_PLAIN = frozenset({float, int, bool, np.float64, np.float32, np.int64, np.int32})

#: name → Parameter. Declared below, in the order listings show them.
PARAMETERS: dict[str, Parameter] = {}


def declare(param: Parameter) -> Parameter:
    """Add a parameter (built-in below; a registered component adds its own)."""
    if param.name in PARAMETERS and PARAMETERS[param.name] != param:
        raise ValueError(f"parameter {param.name} declared twice, differently")
    PARAMETERS[param.name] = param
    return param


def get(name: str) -> Parameter:
    """The parameter called ``name``; :class:`UnknownNameError` with close matches otherwise."""
    try:
        return PARAMETERS[name]
    except KeyError:
        hint = {"attach.switch": "switch.model", "fabric.present": "fabric.transport",
                "pcie.flit_tlp_fraction": "pcie.flit"}.get(name)
        if hint:
            raise UnknownNameError("parameter", f"{name} (set {hint} instead)", [hint]) from None
        raise UnknownNameError("parameter", name, list(PARAMETERS)) from None


def lmfit_name(name: str) -> str:
    """An identifier for lmfit/pandas: ``"switch.efficiency"`` → ``"switch__efficiency"``."""
    return name.replace(".", "__")


def from_lmfit_name(ident: str) -> str:
    """Inverse of :func:`lmfit_name`."""
    return ident.replace("__", ".")


def check_values(values: Mapping[str, object]) -> dict[str, np.ndarray]:
    """Check user-supplied values (overrides or grids) by name; categorical names become codes."""
    return {name: get(name).check(value) for name, value in values.items()}


def encode(params: Mapping[str, object]) -> dict[str, np.ndarray]:
    """A public parameter mapping (names for categoricals) → the kernel's float arrays (codes)."""
    out = {}
    for name, value in params.items():
        param = PARAMETERS.get(name)
        if param is not None and param.kind == "categorical" and not _is_numeric(value):
            out[name] = param.check(value)
        else:
            out[name] = np.asarray(value, dtype=float)
    return out


def decode(name: str, value: Any) -> Any:  # a code becomes its name; anything else is returned as it is
    """A kernel value → what a person reads (categorical codes → names)."""
    param = PARAMETERS.get(name)
    if param is not None and param.kind == "categorical" and _is_numeric(value):
        return param.name_of(value)
    return value


def _is_numeric(value) -> bool:
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "biuf"
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool) or \
        isinstance(value, bool)


@functools.lru_cache(maxsize=256)
def _spellings(name: str, choices: tuple, aliases: tuple) -> tuple[np.ndarray, np.ndarray]:
    """``(sorted spellings, their codes)`` for :meth:`Parameter._codes_of_spelled`: every spelling listed maps to
    the code :meth:`Parameter.code` gives it (the same normalisation: lower case, ``-`` as ``_``, aliases)."""
    alias = dict(aliases)

    def norm(text: str) -> str:
        key = text.strip().lower().replace("-", "_")
        return alias.get(key, key)

    targets = [str(c).lower().replace("-", "_") for c in choices]
    table = {}
    for text in [*(str(c) for c in choices), *alias, *alias.values()]:
        for s in {text, text.lower(), text.replace("-", "_"), text.replace("_", "-"), text.lower().replace("-", "_"),
                  text.lower().replace("_", "-")}:
            key = norm(s)
            if key in targets:
                table[s] = targets.index(key)
    spellings = sorted(table)
    return np.array(spellings), np.array([table[s] for s in spellings], dtype=float)


@functools.lru_cache(maxsize=256)
def _spelling_dict(name: str, choices: tuple, aliases: tuple) -> dict[str, int]:
    """:func:`_spellings` as a dict, spelling → code."""
    spellings, codes = _spellings(name, choices, aliases)
    return dict(zip(spellings.tolist(), (int(c) for c in codes.tolist()), strict=True))


@functools.lru_cache(maxsize=256)
def _spelling_keys(name: str, choices: tuple, aliases: tuple, width: int):
    """The :func:`_spellings` that fit in ``width`` characters with ``_`` for ``-`` (the two are one to
    :meth:`Parameter.code`): ``(spellings as U<width>, codes, lookup, table)``; ``table[_slots(names, lookup)]`` is
    the index of the spelling in each name's slot (``-1``: none). The slot hashes the characters of the shortest run
    in which the spellings all differ (``-`` read as ``_``), and differs between any two spellings (a name in a
    spelling's slot is still compared with it whole)."""
    spellings, codes = _spellings(name, choices, aliases)
    # one entry per spelling up to "-"/"_", shown as the choice is written where it is one (what names usually are)
    by_key = {x.replace("-", "_"): (x, c) for x, c in zip(spellings.tolist(), codes.tolist()) if len(x) <= width}
    by_key.update({str(x).replace("-", "_"): (str(x), by_key[str(x).replace("-", "_")][1]) for x in choices
                   if str(x).replace("-", "_") in by_key})
    shown = sorted(by_key.values())
    spellings = np.array([x for x, _ in shown], dtype=f"U{width}")
    codes = np.array([c for _, c in shown], dtype=float)
    none = np.zeros(0, dtype=np.intp)
    if spellings.size == 0:
        return spellings, codes, (), none
    units = np.ascontiguousarray(spellings).view(np.uint32).reshape(-1, width)
    chars = np.where(units & 0xFF == 45, 95, units & 0xFF).tolist()  # low bytes, "-" read as "_" (as keys read them)
    window = next(((lo, lo + size) for size in range(1, min(width, _KEY_CHARS) + 1) for lo in range(width - size + 1)
                   if len({tuple(row[lo:lo + size]) for row in chars}) == spellings.size), None)
    if window is None:  # not told apart by that many characters in a row: the general path
        return spellings[:0], codes[:0], (), none
    for bits in range(max(spellings.size - 1, 1).bit_length(), 17):  # a table where the spellings land apart
        for mix in _MIX:
            lookup = (*window, mix, np.uint64(64 - bits))
            slot = _slots(units, lookup)
            if np.unique(slot).size == spellings.size:
                table = np.full(1 << bits, -1, dtype=np.intp)
                table[slot] = np.arange(spellings.size)
                return spellings, codes, lookup, table
    return spellings[:0], codes[:0], (), none


def _slots(units: np.ndarray, lookup: tuple) -> np.ndarray:
    """The table slots of :func:`_spelling_keys` for rows of UTF-32 code units (one row per name): the low bytes of
    the characters ``lo … hi - 1`` (``-`` read as ``_``; cast in one pass), eight to a 64-bit word, hashed by
    multiplying by an odd ``mix`` (modulo 2**64; the words one after the other) and keeping the top bits (``>>
    shift``). Characters beyond Latin-1 alias others here; the whole-name comparison that follows tells them apart."""
    lo, hi, mix, shift = lookup
    packed = np.zeros((units.shape[0], -(-(hi - lo) // 8) * 8), dtype=np.uint8)
    packed[:, :hi - lo] = units[:, lo:hi]  # uint32 → uint8: each code unit's low byte
    dash = np.equal(packed, 45).view(np.uint8)  # "-" → "_" as 45 + 50 (arithmetic: a tenth of putmask's time)
    np.multiply(dash, 50, out=dash)
    np.add(packed, dash, out=packed)
    words = packed.view(np.uint64)
    key = np.multiply(words[:, 0], mix)
    for j in range(1, words.shape[1]):
        key += words[:, j]
        key *= mix
    key >>= shift
    return key


#: Most characters in a lookup's run (four 64-bit words), and the odd multipliers tried for its hash.
_KEY_CHARS = 32
_MIX = tuple(np.uint64(x) for x in (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0xD6E8FEB86659FD93))


def close_names(name: str, names: Iterable[str]) -> list[str]:
    return difflib.get_close_matches(name, list(names), n=3, cutoff=0.5)


# =========================================================================== the table
def _p(name, unit, kind, meaning, **kw) -> None:
    declare(Parameter(name, unit, kind, meaning, **kw))


_GENS = tuple(int(g) for g in sp.Gen)

# --- workload: what the benchmark asks of each drive
_p("workload.block_size", "B", "continuous", "bytes per I/O", lo=512, hi=2**30, default=4096.0,
   source="user: the workload")
_p("workload.read_fraction", "1", "continuous", "share of I/Os that are reads (fio rwmixread/100)", lo=0, hi=1,
   default=1.0, source="user: the workload")
_p("workload.random", "1", "flag", "random access (names the pattern; the drive's IOPS limits apply to every pattern)",
   default=1.0, source="user: the workload")
_p("workload.iodepth", "I/Os", "integer", "outstanding I/Os per job (fio iodepth)", lo=1, hi=65536, default=32.0,
   source="user: the workload")
_p("workload.numjobs", "jobs", "integer", "jobs (fio numjobs), per drive when per_drive", lo=1, hi=65536,
   default=1.0, source="user: the workload")
_p("workload.per_drive", "1", "flag", "iodepth x numjobs is per drive (one job section per device) rather than "
   "for the whole system", default=1.0, source="user: the workload")
_p("workload.io_stack", "", "categorical", "host software path of an I/O; sets the default CPU cycles per I/O",
   choices=("libaio", "io_uring", "io_uring_polled", "spdk", "windows_storport", "io_uring_sqpoll", "psync"),
   default="libaio", source="user: the workload",
   aliases={"uring": "io_uring", "storport": "windows_storport", "sqpoll": "io_uring_sqpoll", "sync": "psync"})

# --- PCIe transaction layer (shared by every link)
_p("pcie.mps", "B", "choice", "Max Payload Size of a TLP", choices=sp.MPS_CHOICES, default=256.0,
   source="assumption: with 256 the Dell R7525's 128K-read ceiling is 0.26 % below its measured 80.41 GiB/s "
          "(docs/physics.md §7.1: the SKP/DLLP accounting is slightly conservative); "
          "read the real value from lspci DevCtl")
_p("pcie.mrrs", "B", "choice", "Max Read Request Size (write data is fetched in requests this large)",
   choices=sp.MRRS_CHOICES, default=512.0, source="default: Linux's usual 512 B")
_p("pcie.rcb", "B", "choice", "Read Completion Boundary", choices=sp.RCB_CHOICES, default=64.0,
   source="spec: PCIe Base spec allows 64 or 128 (pcie-model also 256/512)")
_p("pcie.rcb_chunks", "1", "flag", "the root complex returns read completions in RCB-sized pieces "
   "(older chipsets) instead of MPS-sized ones", default=0.0, source="assumption: MPS-sized completions (best case)")
_p("pcie.addr64", "1", "flag", "DMA addresses above 4 GB (4-DW memory request headers)", default=1.0,
   source="assumption: the usual case on servers")
_p("pcie.ecrc", "1", "flag", "a 4-byte ECRC digest on every TLP", default=0.0, source="default: off")
_p("pcie.dllp", "", "categorical", "how Ack/UpdateFC DLLP bytes are charged (docs/physics.md §2.4)",
   choices=tuple(d.value for d in sp.DllpPolicy), default="width_scaled",
   source="assumption: width-scaled on the reverse direction (docs/physics.md §2.4)")
_p("pcie.skp", "1", "flag", "charge SKP ordered sets (about 0.27 % at Gen3-5)", default=1.0,
   source="assumption: SKP interval read from the PCIe Base spec text (docs/physics.md §1)")
_p("pcie.flit", "", "categorical", "TLP share of a 256-byte Gen6/7 FLIT (docs/physics.md §1)",
   choices=tuple(f.value for f in sp.FlitConvention), default="tlp_bytes",
   source="spec: PCIe 6.2 flit layout, 236 TLP bytes of 256")

# --- NVMe driver behaviour, as averages per I/O (docs/physics.md §3)
for _field, _lo, _meaning in (
        ("sq_doorbells_per_io", 0.0, "SQ tail doorbell writes per I/O (below 1 with batching)"),
        ("cq_doorbells_per_io", 0.0, "CQ head doorbell writes per I/O"),
        ("sqes_per_fetch", 1.0, "submission entries the controller fetches per read request"),
        ("cqes_per_write", 1.0, "completion entries the controller writes per TLP"),
        ("msix_per_io", 0.0, "MSI-X interrupts per I/O (0 for a polled stack)")):
    _p(f"nvme.{_field}", "1", "continuous", _meaning, lo=_lo, hi=1024, default=1.0,
       source="assumption: the unbatched worst case (docs/physics.md §3)")
_p("nvme.sgl", "1", "flag", "the driver uses SGLs (not PRP lists) for large I/O", default=0.0,
   source="default: PRP lists")
_p("nvme.sgl_threshold_bytes", "B", "continuous", "smallest I/O for which the driver uses SGLs", lo=0, lo_open=True,
   hi=2**30, default=32768.0, source="spec: Linux nvme driver sgl_threshold default 32 KiB")
_p("nvme.bar_above_4g", "1", "flag", "the controller's BAR lies above 4 GB (4-DW doorbell headers)", default=1.0,
   source="assumption: the usual case on servers")

# --- the drive
_p("drive.model", "", "categorical", "drive model from the catalog (sets every drive.* limit)",
   choices_from="nvmemodel.topology.drive:catalog_keys", source="catalog: nvmemodel/catalog/drives.csv")
_p("drive.gen", "gen", "choice", "the drive's own PCIe generation", choices=_GENS, default=4.0, source="spec sheet")
_p("drive.lanes", "lanes", "choice", "the drive's own PCIe lanes", choices=sp.LINK_WIDTHS, default=4.0,
   source="spec sheet")
for _field, _unit, _meaning in (
        ("seq_read_bytes_per_s", "B/s", "sequential read bandwidth limit (applies at every block size)"),
        ("seq_write_bytes_per_s", "B/s", "sequential write bandwidth limit"),
        ("rand_read_iops", "1/s", "random read IOPS limit (the command-rate limit at every block size)"),
        ("rand_write_iops", "1/s", "random write IOPS limit"),
        ("read_latency_s", "s", "4 KiB QD1 read latency (R0 of Little's law)"),
        ("write_latency_s", "s", "4 KiB QD1 write latency")):
    _p(f"drive.{_field}", _unit, "continuous", _meaning, lo=0, lo_open=True, hi=1.0 if _unit == "s" else math.inf,
       unknown_ok=True, source="spec sheet (NaN = unknown: not applied)")

# --- the host
_p("host.sockets", "sockets", "integer", "CPU sockets", lo=1, hi=64, default=2.0, source="spec sheet")
_p("host.cores_per_socket", "cores", "integer", "cores per socket", lo=1, hi=4096, default=32.0, source="spec sheet")
_p("host.clock_hz", "Hz", "continuous", "sustained core clock", lo=1e8, hi=1e10, default=2.5e9, source="spec sheet")
_p("host.gen", "gen", "choice", "PCIe generation of the root ports", choices=_GENS, default=4.0, source="spec sheet")
_p("host.lanes_per_socket", "lanes", "integer", "PCIe lanes each socket offers", lo=1, hi=1024, default=128.0,
   source="spec sheet")
_p("host.reserved_lanes_per_socket", "lanes", "integer", "lanes per socket used by other devices (NICs, boot)",
   lo=0, hi=1024, default=0.0, source="assumption")
_p("host.port_lanes", "lanes", "choice", "root-port width given to each directly attached drive",
   choices=sp.LINK_WIDTHS, default=4.0, source="spec sheet")
_p("host.cpu_utilization_max", "1", "continuous", "fraction of all cores the I/O path may use", lo=0, lo_open=True,
   hi=1, default=1.0, source="assumption: all cores")
_p("host.cycles_per_io", "cycles", "continuous", "CPU cycles per I/O (submission, completion, interrupt, "
   "application); default from the I/O stack; on SPDK a 4 KiB cost, which the CPU ceiling scales to 0.911 of it at "
   "512 B (docs/physics.md §4)", lo=1, hi=1e9,
   source="estimate: by I/O stack, nvmemodel.topology.host.STACK_CYCLES (docs/physics.md §4): fio's libaio, "
          "io_uring, polled and SQPOLL measured (Ren & Trivedi CHEOPS'23 artifacts), SPDK and psync derived, "
          "StorPort estimated; each stack's own status is in its source")

# --- a PCIe switch (adapter) between root ports and drives
_p("switch.model", "", "categorical", "switch model from the catalog, or none (direct attach); sets every "
   "switch.* field", choices_from="nvmemodel.topology.switch:catalog_keys_with_none",
   source="catalog: nvmemodel/catalog/switches.csv")
_p("switch.count", "switches", "integer", "identical switches the drives are spread over (round-robin)",
   lo=1, hi=4096, default=1.0, source="user: the topology")
_p("switch.up_gen", "gen", "choice", "uplink PCIe generation", choices=_GENS, default=3.0, source="spec sheet")
_p("switch.up_lanes", "lanes", "choice", "uplink lanes, shared by every drive behind the switch",
   choices=sp.LINK_WIDTHS, default=16.0, source="spec sheet")
_p("switch.ports", "ports", "integer", "downstream ports, one drive each", lo=1, hi=256, default=4.0,
   source="spec sheet")
_p("switch.port_gen", "gen", "choice", "downstream port PCIe generation", choices=_GENS, default=3.0,
   source="spec sheet")
_p("switch.port_lanes", "lanes", "choice", "downstream port lanes", choices=sp.LINK_WIDTHS, default=4.0,
   source="spec sheet")
_p("switch.efficiency", "1", "continuous", "fraction of the uplink's TLP capacity the switch sustains",
   lo=0, lo_open=True, hi=1, default=1.0, source="default: no loss (usually fitted, docs/physics.md §9.3)")
_p("switch.per_command_s", "s", "continuous", "processing time per NVMe command through the switch "
   "(caps its IOPS at 1/this; 0 = no cap)", lo=0, hi=1e-3, default=0.0, source="default: no cap")
_p("switch.per_tlp_s", "s", "continuous", "processing time per upstream TLP (0 = none)", lo=0, hi=1e-3,
   default=0.0, source="default: none")

# --- NVMe over Fabrics, as seen from the storage target
_p("fabric.transport", "", "categorical", "NVMe-oF transport, or none (local storage)",
   choices=tuple(t.value for t in eth.Transport) + ("none",), default="none", source="user: the topology",
   aliases={"roce": "rocev2", "roce_v2": "rocev2", "nvme_tcp": "tcp", "ib": "infiniband"})
_p("fabric.line_rate_bits_per_s", "bit/s", "continuous", "MAC data rate of one target port", lo=0, lo_open=True,
   default=100e9, source="spec: IEEE 802.3 nominal rate")
_p("fabric.ports", "ports", "integer", "target network ports in use", lo=1, hi=1024, default=1.0,
   source="user: the topology")
_p("fabric.initiator_bits_per_s", "bit/s", "continuous", "total line rate of all initiators (inf = not limiting)",
   lo=0, lo_open=True, inf_ok=True, default=math.inf, source="user: the topology")
_p("fabric.eth_mtu", "B", "integer", "Ethernet MTU", lo=576, hi=9216, default=1500.0,
   source="default: standard Ethernet frames")
_p("fabric.roce_mtu", "B", "choice", "RoCE path MTU; 0 = the largest that fits the Ethernet MTU",
   choices=(0,) + eth.ROCE_MTU_CHOICES, default=0.0, source="spec: IBM RoCE Express docs (1024 at 1500, 4096 at "
   "jumbo frames)")
_p("fabric.vlan", "1", "flag", "802.1Q VLAN tag on every frame", default=0.0, source="default: off")
_p("fabric.ipv6", "1", "flag", "IPv6 headers (else IPv4)", default=0.0, source="default: IPv4")
_p("fabric.header_digest", "1", "flag", "NVMe/TCP header digest (HDGST)", default=0.0, source="default: off")
_p("fabric.data_digest", "1", "flag", "NVMe/TCP data digest (DDGST)", default=0.0, source="default: off")
_p("fabric.ack_per_command", "1", "flag", "charge one RoCE ACK packet per command", default=0.0,
   source="assumption: RC transport coalesces ACKs")
_p("fabric.added_latency_s", "s", "continuous", "latency the fabric adds per I/O (NIC, switch, target software)",
   lo=0, hi=1.0, default=10e-6, source="Broadcom Stingray paper: 'NVMe-oF latency of ~10 us'")
_p("fabric.loss", "1", "continuous", "fraction of TCP segments lost on each path of an NVMe/TCP fabric (0: no loss, "
   "the TCP loss ceiling off); at most 0.5, and the formula is for light to moderate loss without timeouts (Mathis "
   "et al. 1997; docs/physics.md §5.3)", lo=0, hi=0.5, default=0.0,
   source="default: off (no loss; set the loss you measure, e.g. from TCP retransmission counters)")
_p("fabric.rtt", "s", "continuous", "round-trip time of each NVMe/TCP path as TCP measures it (needed where "
   "fabric.loss > 0)", lo=0, lo_open=True, hi=10.0, unknown_ok=True, default=math.nan,
   source="default: unknown (set it where fabric.loss is set)")
_p("fabric.paths", "paths", "integer", "TCP connections or MPTCP subflows carrying the I/O, each with its own "
   "congestion window under the same loss and RTT (NVMe/TCP: one connection per I/O queue)", lo=1, hi=1e6,
   default=1.0, source="default: one path (set the connections or subflows in use)")

#: Parameters of a component that may be absent, and the parameter that makes it present.
PRESENCE = {"switch": ("switch.model", "none"), "fabric": ("fabric.transport", "none")}

# --- beyond the PCIe links (docs/physics.md §12): host tree, memory, software RAID, file sharing.
# Every default below is "no limit / not charged" unless a preset or the user sets it, so topologies
# that do not use these layers keep their results; the values presets use carry their own sources.
_p("tree.complexes_per_socket", "complexes", "integer", "PCIe root complexes (I/O-die quadrants) per socket the "
   "drives are spread over", lo=1, hi=64, default=1.0, source="default: one complex per socket (no tree)")
_p("tree.complex_bytes_per_s", "B/s", "continuous", "payload bandwidth one root complex carries to memory, "
   "shared by its drives (inf = unknown, no limit)", lo=0, lo_open=True, inf_ok=True, default=math.inf,
   source="assumption: no limit for a host built by hand; no published throughput of a root complex (EPYC "
          "I/O-die quadrant, Xeon PCIe stack) was found: a catalog host (nm.get_host) brings a labelled estimate, "
          "else set or fit it (docs/physics.md §12.1, §12.8)")
_p("tree.placement", "", "categorical", "how drives are placed over root complexes: round_robin (drive i on "
   "complex i mod M, alternating sockets) or fill_first (fill complex 0, then 1 ...)",
   choices=("round_robin", "fill_first"), default="round_robin", source="default: round-robin, the single-level "
   "model's assumption", aliases={"rr": "round_robin", "fill": "fill_first"})
_p("tree.slots_per_complex", "drives", "integer", "drives one root complex holds (fill_first fills this many "
   "before the next; overflow goes to the last complex)", lo=1, hi=4096, default=4.0,
   source="assumption: one x16 root complex split into four x4 ports")
_p("tree.remote_fraction", "1", "continuous", "share of DMA bytes that land on the far socket's memory and "
   "cross the inter-socket link (xGMI/UPI)", lo=0, hi=1, default=0.0,
   source="default: NUMA-local buffers (0)")
_p("tree.inter_socket_bytes_per_s", "B/s", "continuous", "inter-socket link bandwidth (xGMI/UPI, all links, one "
   "direction; inf = no limit)", lo=0, lo_open=True, inf_ok=True, default=math.inf,
   source="assumption: no limit; it is the CPU's, e.g. Xeon Scalable (Skylake-SP): 3 UPI links of 20 lanes at "
          "10.4 GT/s (ISSCC 2018) x 2 B per transfer = 3 x 20.8 = 62.4 GB/s per direction (inferred, "
          "docs/physics.md §12.1); a catalog host (nm.get_host) brings its own links' value (§12.8)")
_p("memory.peak_bytes_per_s", "B/s", "continuous", "peak memory bandwidth of one socket: channels x transfer "
   "rate x 8 B (inf = unknown, no limit)", lo=0, lo_open=True, inf_ok=True, default=math.inf,
   source="default: unknown (no limit) for a host built by hand; a catalog host's is channels x MT/s x 8 B "
          "(docs/physics.md §12.8)")
_p("memory.dma_fraction", "1", "continuous", "share of a socket's peak memory bandwidth (or of its I/O die) that "
   "device DMA can use", lo=0, lo_open=True, hi=1, default=1.0,
   source="assumption: all of it (an upper bound); catalog hosts carry their platform's share: AMD 0.68 (measured "
          "on a Zen 2 I/O die, carried over to Zen 3/4/5 as an estimate), the others a STREAM-class 0.75 (an "
          "estimate, an upper bound for device DMA) (docs/physics.md §12.8)")
_p("cpu.cycles_per_byte", "cycles/B", "continuous", "host CPU cycles per byte moved (copies, checksums of a "
   "buffered or copying stack; 0 for direct I/O)", lo=0, hi=1e3, default=0.0,
   source="default: 0, direct I/O with DMA into the application's buffers")
_p("raid.level", "", "categorical", "software RAID level the drives form (none: each drive used directly)",
   choices=("none", "raid0", "raid1", "raid5", "raid6", "raid10"), default="none", source="user: the topology",
   aliases={"0": "raid0", "1": "raid1", "5": "raid5", "6": "raid6", "10": "raid10"})
_p("raid.width", "drives", "integer", "drives per array (sets the full-stripe parity share and degraded reads)",
   lo=2, hi=256, default=4.0, source="user: the topology")
_p("raid.chunk_bytes", "B", "continuous", "chunk (strip) size: larger I/Os split into chunk-sized drive I/Os",
   lo=4096, hi=2**30, default=524288.0, source="spec: mdadm(8) default chunk 512 KiB")
_p("raid.stripe_batching", "1", "flag", "MD batches adjacent full-stripe writes into whole-chunk member writes "
   "(Linux 4.1 and later): a sequential write-only stream on RAID-5/6 reaches the drives as chunk-sized writes",
   default=1.0, source="spec: Linux commit 59fc630b 'RAID5: batch adjacent full stripe write' (Linux 4.1, 2015): a "
                       "batch 'can't cross chunk boundary'; 'IO size to under layer disk is exactly 32k' with 32k "
                       "chunks; set 0 for older kernels (docs/physics.md §12.2)")
_p("raid.degraded", "drives", "integer", "failed members per array (0 healthy; at most 1 for RAID-1/5, 2 for RAID-6 "
   "and for RAID-10 in two different mirror pairs): their chunks are read from the survivors, written around them "
   "(docs/physics.md §12.2)", lo=0, hi=2, default=0.0, source="default: healthy arrays")
_p("raid.rebuild", "1", "flag", "each degraded array is rebuilding onto replacement members (MD recovery): the "
   "survivors read, the replacements write, at raid.rebuild_bytes_per_s each, taken from foreground I/O",
   default=0.0, source="default: no rebuild running")
_p("raid.rebuild_bytes_per_s", "B/s", "continuous", "rebuild (recovery) rate per member device, MD's sync speed; "
   "200000 KiB/s = 204.8 MB/s is MD's ceiling (speed_limit_max) when the array is otherwise idle",
   lo=0, lo_open=True, hi=1e12, default=1000 * 1024.0,
   source="spec: Linux MD speed_limit_min default 1000 (drivers/md/md.c sysctl_speed_limit_min) in KiB/s "
          "(Documentation/admin-guide/md.rst: sync_speed_min/max 'in kibibytes-per-second') = 1.024 MB/s per "
          "member, the rate MD keeps a rebuild at while foreground I/O is busy (docs/physics.md §12.2)")
_p("raid.cycles_per_io", "cycles", "continuous", "CPU cycles the RAID layer adds per host I/O", lo=0, hi=1e9,
   default=0.0, source="default: 0, not charged unless set or fitted; for Linux MD set "
                        "nvmemodel.ceiling.raid.MD_CYCLES_PER_IO (27,700, derived from a CPU-bound MD RAID-0: "
                        "docs/physics.md §12.3; ION calibration in §7.5)")
_p("raid.max_iops", "1/s", "continuous", "the RAID layer's own I/O rate limit (single thread or lock; inf = none "
   "known)", lo=0, lo_open=True, inf_ok=True, default=math.inf,
   source="default: unknown (no limit); fit it (docs/physics.md §12.3)")
_p("raid.parity_bytes_per_s", "B/s", "continuous", "parity computation rate of the RAID layer (bytes of written "
   "data per second; inf = not limiting)", lo=0, lo_open=True, inf_ok=True, default=math.inf,
   source="assumption: no limit; it is the CPU's and the RAID layer's: Linux's raid6 boot benchmark gives one "
          "core 20,726-29,847 MiB/s of data (EPYC 7601, Xeon E5-2687W v3, linux-raid 2019/2021), MD computes on "
          "one raid5d thread per array by default, and a CPU-bound MD resync ran far below that "
          "(docs/physics.md §12.3): set arrays x the rate you measure")
_p("share.protocol", "", "categorical", "file-sharing or block-target protocol in front of the storage (none: "
   "local use; ceph_rbd: a Ceph OSD serving RBD, a user-space storage daemon); sets the default server cycles",
   choices=("none", "nfs3", "nfs4", "smb3", "smb3_rdma", "iscsi", "nvme_tcp", "ceph_rbd"),
   default="none", source="user: the topology", aliases={"nfs": "nfs3", "smb": "smb3", "smb_direct": "smb3_rdma",
                                                        "ceph": "ceph_rbd", "rbd": "ceph_rbd"})
_p("share.cycles_per_io", "cycles", "continuous", "server CPU cycles the protocol adds per host I/O (NaN: the "
   "protocol's default, its read and write costs mixed by the workload's read fraction)", lo=0, hi=1e9, unknown_ok=True, default=math.nan,
   source="estimate: by protocol, nvmemodel.ceiling.sharing.PROTOCOLS (docs/physics.md §12.4)")
_p("share.cycles_per_byte", "cycles/B", "continuous", "server CPU cycles the protocol adds per byte (copies, "
   "checksums; NaN: the protocol's default)", lo=0, hi=1e3, unknown_ok=True, default=math.nan,
   source="estimate: by protocol, nvmemodel.ceiling.sharing.PROTOCOLS (docs/physics.md §12.4)")
_p("share.link_bits_per_s", "bit/s", "continuous", "total line rate of the server's file-sharing network ports "
   "(inf = not limiting)", lo=0, lo_open=True, inf_ok=True, default=math.inf, source="default: unknown (no limit)")
_p("share.eth_mtu", "B", "integer", "Ethernet MTU of the file-sharing network", lo=576, hi=9216, default=1500.0,
   source="default: standard Ethernet frames")
_p("share.connections", "connections", "integer", "client connections in use (NFS nconnect x clients, SMB "
   "multichannel channels)", lo=1, hi=65536, default=1.0, source="default: one connection")
_p("share.connection_iops", "1/s", "continuous", "I/O rate one client connection sustains (inf = not limiting)",
   lo=0, lo_open=True, inf_ok=True, default=math.inf, source="default: unknown (no limit)")
