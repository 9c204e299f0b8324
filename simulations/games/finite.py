"""Finite n-player games in normal form: exact enumeration of pure Nash equilibria.

A finite game with players ``0..n-1`` and action counts ``a_0, ..., a_{n-1}`` is given as one
payoff array ``payoffs`` of shape ``(n, a_0, ..., a_{n-1})``: ``payoffs[i][s]`` is the payoff of
player ``i`` at the pure profile ``s``.  Everything here is exact enumeration over all
``prod(a_k)`` profiles (no sampling): the regret of player ``i`` at ``s`` is
``max_{s_i'} payoffs[i][s_i', s_{-i}] - payoffs[i][s]`` and a pure Nash equilibrium is a profile
where every regret is at most ``tol`` (Nash 1951; the definition in any game-theory text).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def _check_payoffs(payoffs: np.ndarray) -> np.ndarray:
    arr = np.asarray(payoffs, dtype=float)
    if arr.ndim < 2 or arr.shape[0] != arr.ndim - 1:
        raise ValueError(
            "payoffs must have shape (n_players, a_0, ..., a_{n-1}) with one axis per player, "
            f"got shape {arr.shape}"
        )
    if any(a < 1 for a in arr.shape[1:]):
        raise ValueError(f"every player needs at least one action, got action counts {arr.shape[1:]}")
    if not np.all(np.isfinite(arr)):
        raise ValueError("payoffs contain NaN or inf")
    return arr


def regrets(payoffs: np.ndarray) -> np.ndarray:
    """Regret of every player at every pure profile.

    Args:
        payoffs: array of shape ``(n, a_0, ..., a_{n-1})`` (payoff of player ``i`` at each
            profile), finite.

    Returns:
        Array of the same shape: ``out[i][s] = max_{s_i'} payoffs[i][s_i', s_{-i}] -
        payoffs[i][s] >= 0`` (the gain of player ``i``'s best unilateral deviation).

    Raises:
        ValueError: on a malformed or non-finite payoff array.
    """
    arr = _check_payoffs(payoffs)
    out = np.empty_like(arr)
    for i in range(arr.shape[0]):
        best = arr[i].max(axis=i, keepdims=True)
        out[i] = best - arr[i]
    return out


@dataclass(frozen=True)
class PureEquilibrium:
    """A pure profile certified as an equilibrium.

    Attributes:
        profile: one action index per player.
        max_regret: the largest gain of a unilateral deviation over all players and all their
            actions (exactly 0 for an exact equilibrium; at most ``tol`` for a ``tol``-equilibrium).
        payoffs: the players' payoffs at the profile.
    """

    profile: tuple[int, ...]
    max_regret: float
    payoffs: tuple[float, ...]


def pure_nash_equilibria(payoffs: np.ndarray, tol: float = 0.0) -> list[PureEquilibrium]:
    """All pure (``tol``-)Nash equilibria of a finite game, by exhaustive enumeration.

    Args:
        payoffs: array of shape ``(n, a_0, ..., a_{n-1})``; ``payoffs[i][s]`` is player ``i``'s
            payoff at pure profile ``s``.
        tol: a profile is reported when every player's regret is ``<= tol`` (``tol >= 0``;
            0 gives exact equilibria).

    Returns:
        The equilibria in lexicographic order of profiles, each with its maximum regret (the
        certificate: no player gains more than that by any unilateral deviation).  An empty
        list certifies that the game has no pure ``tol``-equilibrium.

    Raises:
        ValueError: on a malformed payoff array or a negative ``tol``.
    """
    if tol < 0:
        raise ValueError(f"tol must be non-negative, got {tol}")
    arr = _check_payoffs(payoffs)
    reg = regrets(arr).max(axis=0)
    out = []
    for s in zip(*np.nonzero(reg <= tol), strict=True):
        s = tuple(int(k) for k in s)
        out.append(PureEquilibrium(s, float(reg[s]), tuple(float(arr[(i, *s)]) for i in range(arr.shape[0]))))
    return out


def max_regret(payoffs: np.ndarray) -> np.ndarray:
    """Largest regret over players at every pure profile, shape ``(a_0, ..., a_{n-1})``.

    Raises:
        ValueError: on a malformed payoff array.
    """
    return regrets(payoffs).max(axis=0)
