"""A long number shown while it arrives (jiter mode), at a cost in proportion to its new
digits. Twin of `rust/core/number.rs`.

Converting the whole text at every fragment would cost its length each time (quadratic in a
number a byte at a time). A float's value depends only on its first `KEEP` significant digits,
whether any later digit is nonzero, and its decimal exponent: every value halfway between two
doubles has at most 767 significant digits, so the text cut after `KEEP` with a nonzero digit
standing for the rest rounds exactly as the whole text does. The digest reads each new
character once and writes that short text.
"""

from __future__ import annotations

KEEP = 800
"""Significant digits kept; enough to round as the whole text does (see above)."""
EXPONENT_CAP = 1_000_000_000
"""Past this magnitude the decimal exponent only says "overflow" or "underflow"."""

INTEGER, FRACTION, EXPONENT = range(3)


class NumberDigest:
    """What a float's text so far says about its value, read a character at a time."""

    __slots__ = (
        "digits",
        "exponent",
        "exponent_negative",
        "kept",
        "negative",
        "part",
        "read",
        "shift",
        "sticky",
    )

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Forget the number read: a new one begins."""
        self.read = 0  # pieces of the text read so far
        self.part = INTEGER
        self.negative = False
        self.digits: list[str] = []  # significant digits (no leading zeros), at most KEEP
        self.kept = 0
        self.sticky = False  # a nonzero digit past the ones kept
        self.shift = 0  # the value is 0.<digits> x 10^(shift + exponent)
        self.exponent_negative = False
        self.exponent = 0

    def short_text(self, pieces: list[str]) -> str:
        """A short text with the value of the float text in `pieces`, which this digest has
        followed since `reset` (pieces are only ever appended). Reads only the pieces it has
        not read (the Rust digest, holding the text in one buffer, counts bytes instead)."""
        for piece in pieces[self.read :]:
            for c in piece:
                self._read(c)
        self.read = len(pieces)
        sign = "-" if self.negative else ""
        if not self.digits:
            return f"{sign}0.0"
        exponent = -self.exponent if self.exponent_negative else self.exponent
        sticky = "1" if self.sticky else ""
        return f"{sign}0.{''.join(self.digits)}{sticky}e{self.shift + exponent}"

    def _read(self, c: str) -> None:
        part = self.part
        leading_zero = c == "0" and not self.digits
        if c == "-":
            if part == INTEGER:
                self.negative = True
            else:
                self.exponent_negative = True
        elif c == ".":
            self.part = FRACTION
        elif c in "eE":
            self.part = EXPONENT
        elif not "0" <= c <= "9":
            pass  # the exponent's '+'
        elif part == EXPONENT:
            self.exponent = min(self.exponent * 10 + ord(c) - 48, EXPONENT_CAP)
        elif part == INTEGER:
            # JSON's only leading zero before the point is a lone "0": not significant.
            if not leading_zero:
                self.shift += 1
                self._keep(c)
        elif leading_zero:
            self.shift -= 1
        else:
            self._keep(c)

    def _keep(self, digit: str) -> None:
        if self.kept < KEEP:
            self.digits.append(digit)
            self.kept += 1
        else:
            self.sticky = self.sticky or digit != "0"
