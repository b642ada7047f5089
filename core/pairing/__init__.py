"""Pairing a Keizer round: the whole round as one exact optimisation (rules.md section 5).

The model and the request are imported at once; the engines (numpy, rustworkx) only when
one is used, so a command that only shows a pairing or a standings table starts fast."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from core.pairing.model import (
    Board,
    BrokenRule,
    Fixes,
    Meeting,
    Objective,
    Pairing,
    PairingImpossibleError,
    PairingRequest,
    Rule,
    Tier,
    Timings,
)
from core.pairing.request import before_pairing, request_for_round

if TYPE_CHECKING:
    from core.pairing.engine import (
        Engine,
        baseline,
        conflicting_tiers,
        pair,
    )
    from core.pairing.evaluate import EdgeTable
    from core.pairing.selection import Selection, objective

_LATER = {"Engine": "engine", "baseline": "engine",
          "conflicting_tiers": "engine", "pair": "engine", "EdgeTable": "evaluate",
          "Selection": "selection", "objective": "selection"}
"""Names read from their module when first asked for. (`evaluate` the function is not one of
them: its module has the same name; import it from `core.pairing.evaluate`.)"""


def __getattr__(name: str) -> Any:
    if name in _LATER:
        return getattr(importlib.import_module(f"core.pairing.{_LATER[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Board", "BrokenRule", "EdgeTable", "Engine", "Fixes", "Meeting", "Objective",
           "Pairing", "PairingImpossibleError", "PairingRequest", "Rule", "Selection", "Tier",
           "Timings", "baseline", "before_pairing", "conflicting_tiers", "objective",
           "pair", "request_for_round"]
