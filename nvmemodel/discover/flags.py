"""A finding of discovery: what a planner must know about the machine (a link below its capability, a
simplification the topology made, a drive or platform identified or not). Its own module so that every
discovery step (``build``, ``platform``) can raise one without importing another step."""

from __future__ import annotations

import dataclasses

__all__ = ["Flag"]


@dataclasses.dataclass(frozen=True)
class Flag:
    """One finding. ``code`` is stable (for scripts); ``severity`` is ``warn`` (costs performance or
    makes the model wrong) or ``info`` (a simplification or an unknown)."""

    code: str
    severity: str
    message: str
    devices: tuple[str, ...] = ()

    def __str__(self) -> str:
        where = f" [{', '.join(self.devices[:6])}{', …' if len(self.devices) > 6 else ''}]" if self.devices else ""
        return f"{self.severity.upper():4} {self.code}: {self.message}{where}"
