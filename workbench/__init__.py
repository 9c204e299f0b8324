"""workbench: executable checks of the claims of machine-learning theory papers.

A paper module declares a :class:`Paper` and registers claims with :func:`claim`; each claim
returns evidence (:class:`Identity`, :class:`Symbolic`, :class:`Bound`, :class:`Rate`,
:class:`Proportion`, :class:`Certificate`, :class:`Comparison`, or several of them in an
:class:`AllOf`) and the engine decides the verdict, its sharpness and whether it tells the claim
from a near miss (:class:`NearMiss`).  :func:`run` runs a selection, stores it and writes the report.
"""

from .context import Context
from .evidence import (
    AllOf,
    Bound,
    Certificate,
    Comparison,
    Decision,
    Identity,
    NearMiss,
    Proportion,
    Rate,
    Symbolic,
    Verdict,
    decide,
    factor_slope,
)
from .execute import ClaimResult, run_claim
from .model import REGISTRY, Claim, NotChecked, Paper, Param, claim

__all__ = [
    "AllOf", "Bound", "Certificate", "Claim", "ClaimResult", "Comparison", "Context", "Decision",
    "Identity", "NearMiss", "NotChecked", "Paper", "Param", "Proportion", "REGISTRY", "Rate", "Symbolic",
    "Verdict", "claim", "decide", "factor_slope", "run", "run_claim", "search", "sweep",
]


def __getattr__(name: str):
    # The runner pulls in the store, the report and joblib's machinery: import it lazily so
    # that paper modules importing ``workbench`` stay light.
    if name in ("run", "sweep", "search"):
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'workbench' has no attribute {name!r}")
