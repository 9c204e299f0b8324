"""Tests of simulations.games.hetero_data against closed forms, brute force and nashpy."""

from __future__ import annotations

import math

import nashpy
import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from simulations.games import pure_nash_equilibria
from simulations.games.hetero_data import (
    DataGame,
    certify_no_pure_equilibrium,
    continuous_regret,
    duopoly_payoffs,
    grid_equilibria,
    phase_diagram,
)


def test_utility_closed_forms():
    g = DataGame((0.3, 0.7), (-1.0, 1.0), tau=0.2, width=1.0)
    # equal models split every source in half
    assert float(g.utility(np.array(0.4), [np.array(0.4)])) == pytest.approx(0.5, abs=1e-15)
    go = DataGame((0.3, 0.7), (-1.0, 1.0), tau=0.2, width=1.0, outside=0.5)
    loss = [1 - math.exp(-((0.4 - m) ** 2) / 2) for m in (-1.0, 1.0)]
    ref = sum(w * math.exp(-lj / 0.2) / (math.exp(-0.5 / 0.2) + 2 * math.exp(-lj / 0.2))
              for w, lj in zip((0.3, 0.7), loss, strict=True))
    assert float(go.utility(np.array(0.4), [np.array(0.4)])) == pytest.approx(ref, rel=1e-13)
    # without outside option the duopoly is constant-sum
    u = duopoly_payoffs(g, np.linspace(-1.5, 1.5, 9))
    np.testing.assert_allclose(u[0] + u[1], 1.0, atol=1e-14)


@pytest.mark.parametrize("outside", [None, 0.4])
def test_lipschitz_bound_dominates_finite_differences(outside):
    g = DataGame((0.6, 0.4), (-1.0, 1.0), tau=0.05, width=0.7, outside=outside)
    rng = np.random.default_rng(0)
    a, b = rng.uniform(-1.5, 1.5, size=(2, 2000))
    h = 1e-6
    d_own = (g.utility(a + h, [b]) - g.utility(a - h, [b])) / (2 * h)
    d_other = (g.utility(a, [b + h]) - g.utility(a, [b - h])) / (2 * h)
    assert np.abs(d_own).max() <= g.lipschitz() and np.abs(d_other).max() <= g.lipschitz()


def test_continuous_regret_brackets_a_multistart_optimum():
    g = DataGame((0.5, 0.5), (-1.0, 1.0), tau=0.1, width=1.0, outside=0.5)
    prof = (-0.3, 0.8)
    lo, hi = continuous_regret(g, prof, n_grid=20001)
    best = -np.inf
    for i in range(2):
        other = prof[1 - i]
        base = float(g.utility(np.array(prof[i]), [np.array(other)]))
        for s in np.linspace(-1.5, 1.5, 13):
            res = minimize_scalar(lambda t, o=other: -float(g.utility(np.array(t), [np.array(o)])),
                                  bounds=(max(-1.5, s - 0.25), min(1.5, s + 0.25)), method="bounded",
                                  options={"xatol": 1e-10})
            best = max(best, -res.fun - base)
    assert lo - 1e-12 <= best <= hi + 1e-12


def test_grid_equilibria_agree_with_nashpy_on_a_coarse_grid():
    g = DataGame((0.5, 0.5), (-1.0, 1.0), tau=0.1, width=1.0, outside=0.5)
    grid = np.linspace(-1.5, 1.5, 7)
    P = duopoly_payoffs(g, grid)
    ours = {e.profile for e in pure_nash_equilibria(P, tol=1e-12)}
    theirs = set()
    for sx, sy in nashpy.Game(P[0], P[1]).vertex_enumeration():
        if np.count_nonzero(sx > 1e-9) == 1 and np.count_nonzero(sy > 1e-9) == 1:
            theirs.add((int(np.argmax(sx)), int(np.argmax(sy))))
    assert ours == theirs == {(1, 5), (5, 1)}
    assert grid_equilibria(g, 7) == [(-1.0, 1.0), (1.0, -1.0)]


def test_nonexistence_certificate_succeeds_and_fails_where_it_should():
    none = DataGame((0.55, 0.45), (-1.0, 1.0), tau=0.015, width=1.0)
    assert grid_equilibria(none, 121) == []
    assert certify_no_pure_equilibrium(none).certified
    some = DataGame((0.5, 0.5), (-1.0, 1.0), tau=0.05, width=1.0, outside=0.5)
    res = certify_no_pure_equilibrium(some, max_cells=200_000)
    assert not res.certified and res.uncertified is not None


def test_certificate_never_covers_a_certified_near_equilibrium():
    # (-1, 1) is a 3e-5-equilibrium of this game (continuous certificate); the band-restricted
    # non-existence certificate must therefore fail
    g = DataGame((0.6, 0.4), (-1.0, 1.0), tau=0.05, width=1.0, outside=0.5)
    _, hi = continuous_regret(g, (-1.0, 1.0), n_grid=200001)
    assert hi < 1e-4
    assert not certify_no_pure_equilibrium(g, exclude_band=0.1, max_cells=300_000).certified


def test_cell_lower_bound_is_valid_against_brute_force():
    g = DataGame((0.55, 0.45), (-1.0, 1.0), tau=0.05, width=1.0)
    dev = np.linspace(-1.5, 1.5, 3001)
    rng = np.random.default_rng(3)
    for _ in range(20):
        c, r = rng.uniform(-1.4, 1.4, size=2), 0.02
        pts = c + rng.uniform(-r, r, size=(200, 2))
        # regret of player 1 at the cell's points (fine deviation grid) >= centre bound - 3 L r
        reg = np.max(g.utility(dev[None, :], [pts[:, 1:2]]), axis=1) - g.utility(pts[:, 0], [pts[:, 1]])
        centre = np.max(g.utility(dev, [np.full(1, c[1])])) - float(g.utility(np.array(c[0]), [np.array(c[1])]))
        assert reg.min() >= centre - 3 * g.lipschitz() * r - 1e-12


def test_phase_diagram_regimes():
    # balanced sources specialise, a dominant source attracts both providers (grid level);
    # without outside option and w1 = 0.55 at tau = 0.01 there is no pure equilibrium at all
    assert phase_diagram([0.5, 0.9], [0.05]) == [["heterogeneous"], ["homogeneous"]]
    assert phase_diagram([0.55], [0.01], outside=None) == [["none"]]


def test_bad_parameters_raise():
    with pytest.raises(ValueError):
        DataGame((0.5, 0.6), (-1.0, 1.0), tau=0.1)
    with pytest.raises(ValueError):
        DataGame((0.5, 0.5), (-1.0, 1.0), tau=0.0)
