"""Exact numbers: everything is a `Fraction`; decimals in files are read as written."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction


def to_fraction(raw: object) -> Fraction | None:
    """`0.333` (a Decimal or int from a file) is 333/1000, `"1/3"` is 1/3; None: not a number.

    Floats are taken by their shortest decimal spelling, so a float that a caller wrote as
    0.333 also means 333/1000 rather than its binary approximation.
    """
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int | Decimal):
        return Fraction(raw)
    if isinstance(raw, float):
        return Fraction(Decimal(repr(raw))) if math.isfinite(raw) else None
    if isinstance(raw, str):
        try:
            text = raw.strip()
            value = Fraction(Decimal(text)) if "/" not in text else Fraction(text)
        except (ValueError, ZeroDivisionError, ArithmeticError):
            return None
        return value
    return None


def round_half_up(value: Fraction, decimals: int = 0) -> Fraction:
    """Round to `decimals` places, halves away from zero for positives (how clubs publish)."""
    scale = 10**decimals
    return Fraction(math.floor(value * scale + Fraction(1, 2)), scale)


def format_number(value: Fraction, decimals: int, *, comma: bool = False) -> str:
    """`format_number(Fraction(59, 3), 1)` is `'19.7'`; with `comma=True` the Dutch `'19,7'`."""
    rounded = round_half_up(value, decimals)
    scaled = rounded.numerator * 10**decimals // rounded.denominator
    sign = "-" if scaled < 0 else ""
    whole, frac = divmod(abs(scaled), 10**decimals)
    text = f"{sign}{whole}"
    if decimals:
        text += ("," if comma else ".") + str(frac).zfill(decimals)
    return text


def exact_text(value: Fraction | int | None) -> str:
    """`Fraction(1, 3)` as `1/3`, `Fraction(33, 100)` as `0.33`, `Fraction(60)` as `60`."""
    if value is None:
        return "-"
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    denominator = value.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator == 1:
        return str(Decimal(value.numerator) / Decimal(value.denominator))
    return f"{value.numerator}/{value.denominator}"


def to_grid(value: Fraction, grid: Fraction, *, down: bool = False) -> Fraction:
    """`value` on a grid of `grid` (1/2, 1): the nearest point, ties away from zero; with
    `down`, the point at or below it."""
    steps = value / grid
    if down:
        return math.floor(steps) * grid
    whole = math.floor(abs(steps) + Fraction(1, 2))
    return (whole if steps >= 0 else -whole) * grid
