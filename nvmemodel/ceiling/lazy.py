"""Parts of a result worked out on first read: a :class:`Lazy` mapping, and the :class:`_Worked` field that hands
it out as a plain ``dict`` (a curve's ceilings alone, sources and labels cost about as much as the curve itself)."""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["Lazy"]


class Lazy(Mapping):
    """A read-only mapping worked out on first use, ``compute(*args)``: a curve carries where every parameter comes
    from (``topology.sources(workload)``), each component's ceiling alone and the components' labels, but most
    callers (fits evaluating thousands of curves, a plot or a table of the system ceiling) never read them, and each
    costs about as much as the curve itself. A curve never hands it out: its field gives a plain ``dict`` on first
    read (:class:`_Worked`), so ``pd.DataFrame(curve.ceilings)``, ``json.dumps``, ``dataclasses.asdict`` and
    assignment behave as they do for a dict (DIFFQA D1, D2). Pickled as a dict."""

    __slots__ = ("_args", "_data")

    def __init__(self, compute, *args) -> None:
        self._args: tuple = (compute, *args)  # (emptied once worked out)
        self._data: dict | None = None

    def _get(self) -> dict:
        data = self._data
        if data is None:
            compute, *args = self._args
            data = self._data = compute(*args)
            self._args = ()
        return data

    def __getitem__(self, name):
        return self._get()[name]

    def __iter__(self):
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def __reduce__(self):
        return dict, (self._get(),)


class _Worked:
    """A curve's field that may hold a :class:`Lazy`: stored as given, handed out as a plain ``dict`` worked out on
    first read (then kept). A data descriptor, so a frozen dataclass's ``__init__`` stores through it."""

    def __init__(self, name: str) -> None:
        self.name, self.slot = name, "_" + name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        value = obj.__dict__[self.slot]
        if type(value) is Lazy:
            value = obj.__dict__[self.slot] = dict(value._get())
        return value

    def __set__(self, obj, value) -> None:
        obj.__dict__[self.slot] = value
