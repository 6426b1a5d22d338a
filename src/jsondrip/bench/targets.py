"""Named performance targets: what a ratio measures, the band it must fall in, and its verdict.

Every benchmark script (``benches/``) declares its targets as module-level ``Target`` values
instead of numbers inline, so a reader sees in one place what is promised and why, and every
script prints its verdicts the same way (``pass`` / ``FAIL``, ``n/a`` when a figure is missing).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["Target", "verdict_line"]


@dataclass(frozen=True)
class Target:
    """A ratio (or growth factor) that must lie within ``lo`` .. ``hi``.

    ``measures`` says what the ratio compares, in words a reader can check against the code.
    """

    name: str
    measures: str
    lo: float = 0.0
    hi: float = math.inf

    @property
    def band(self) -> str:
        """The band as text: ``>= 25x``, ``<= 1.3x`` or ``1.6x .. 2.4x``."""
        if self.hi == math.inf:
            return f">= {self.lo:g}x"
        if self.lo <= 0:
            return f"<= {self.hi:g}x"
        return f"{self.lo:g}x .. {self.hi:g}x"

    def met(self, value: float | None) -> bool | None:
        """True or False for a measured value, None when there is none."""
        if value is None or math.isnan(value):
            return None
        return self.lo <= value <= self.hi


def verdict_line(target: Target, value: float | None, note: str = "") -> str:
    """One line of a script's verdicts: ``- pass: name: 48.7x (target >= 25x)``."""
    ok = target.met(value)
    word = "n/a" if ok is None else "pass" if ok else "FAIL"
    shown = "-" if value is None else f"{value:.2f}x"
    extra = f"; {note}" if note else ""
    return f"- {word}: {target.name}: {shown} (target {target.band}{extra})"
