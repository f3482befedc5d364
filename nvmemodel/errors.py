"""Exceptions raised by nvmemodel.

Every error subclasses :class:`NvmeModelError` *and* the built-in it refines
(``ValueError``, ``LookupError``), so callers can catch either. Messages name
the offending parameter, the value received and what is allowed.
"""

from __future__ import annotations

__all__ = [
    "IngestError",
    "IngestWarning",
    "MissingDependencyError",
    "NvmeModelError",
    "ParameterError",
    "UnitError",
    "UnknownNameError",
]


class NvmeModelError(Exception):
    """Base class of every error nvmemodel raises on purpose."""


class ParameterError(NvmeModelError, ValueError):
    """A parameter is outside its allowed range or of the wrong kind.

    Parameters
    ----------
    parameter : str
        Name of the parameter, as the caller spelled it.
    value : object
        The rejected value.
    allowed : str
        Human-readable description of what is allowed.
    """

    def __init__(self, parameter: str, value: object, allowed: str) -> None:
        self.parameter = parameter
        self.value = value
        self.allowed = allowed
        super().__init__(f"{parameter}={_shown(value)} is not allowed: expected {allowed}")


def _shown(value) -> str:
    """A rejected value as a user typed it: numpy arrays and scalars as plain numbers (``[0.5, 1.0]``, not
    ``array([0.5, 1. ])``), everything else as repr."""
    tolist = getattr(value, "tolist", None)  # numpy, without importing it here
    if tolist is not None and type(value).__module__ == "numpy":
        return repr(tolist())
    return repr(value)


class UnitError(NvmeModelError, ValueError):
    """A quantity string could not be parsed or has the wrong dimension."""


class UnknownNameError(NvmeModelError, LookupError):
    """A catalog or preset name is not known.

    The message lists the closest known names.
    """

    def __init__(self, kind: str, name: str, known: list[str]) -> None:
        import difflib

        self.kind = kind
        self.name = name
        needle = name.strip().lower()
        close = [k for k in known if needle and needle in k.lower()][:3]
        close += [k for k in difflib.get_close_matches(name, known, n=3, cutoff=0.3) if k not in close]
        close = close[:3]
        hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
        super().__init__(
            f"unknown {kind} {name!r}{hint} (known: {', '.join(sorted(known))})"
        )

    def __str__(self) -> str:  # LookupError would repr() the message
        return self.args[0]


class IngestError(NvmeModelError, ValueError):
    """A benchmark result file cannot be read as what it claims (or seems) to be.

    Parameters
    ----------
    path : str
        The file.
    problem : str
        What was wrong, naming the field and what was expected.
    """

    def __init__(self, path: object, problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


class MissingDependencyError(NvmeModelError, ImportError):
    """An optional package that one feature needs is not installed (drawing needs matplotlib; the core install
    has none). The message names the package, what needs it and how to install it.

    Parameters
    ----------
    package : str
        The missing package, as ``pip install`` spells it.
    needed_for : str
        What needs it (``'nvmemodel plot'``, ``'fit --plot'``).
    extra : str
        The extra of nvmemodel that installs it (default ``notebooks``).
    """

    def __init__(self, package: str, needed_for: str, extra: str = "notebooks") -> None:
        self.package = package
        self.needed_for = needed_for
        super().__init__(f"{needed_for} needs {package}, which is not installed: pip install {package} (or "
                         f"pip install 'nvmemodel[{extra}]')", name=package)

    def __str__(self) -> str:
        return self.args[0]


class IngestWarning(UserWarning):
    """Something in a result file was unusual but the rows are still correct (e.g. unknown keys)."""
