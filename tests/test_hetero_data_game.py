"""Tests of simulations.games.hetero_data against closed forms, brute force and nashpy."""

from __future__ import annotations

import itertools
import math

import nashpy
import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from simulations.games import pure_nash_equilibria
from simulations.games.hetero_data import (
    DataGame,
    certify_no_pure_equilibrium,
    certify_regime,
    continuous_regret,
    duopoly_payoffs,
    grid_equilibria,
    monopoly_optimum,
    phase_diagram,
    refine_profile,
    regret_bounds,
    service_radius,
    sup_outside,
    zero_temperature_monopoly,
    zero_temperature_regime,
    zero_temperature_splits,
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


def _limit_game_regime(w1: float, outside: float, n: int = 31) -> str:
    """Regime of the tau -> 0 limit game on a grid, by brute force: each source goes to the
    provider with the strictly smaller loss below the outside option (ties split)."""
    grid = np.linspace(-1.5, 1.5, n)
    loss = 1 - np.exp(-((grid[:, None] - np.array([-1.0, 1.0])) ** 2) / 2)  # (n, 2)
    w = np.array([w1, 1 - w1])
    u1 = np.zeros((n, n))
    for a in range(n):
        for b in range(n):
            for j in range(2):
                la, lb = loss[a, j], loss[b, j]
                if min(la, lb) >= outside:
                    continue
                u1[a, b] += w[j] * (1.0 if la < lb - 1e-12 else 0.5 if abs(la - lb) <= 1e-12 else 0.0)
    eqs = [e.profile for e in pure_nash_equilibria(np.stack([u1, u1.T]), tol=1e-12)]
    hom = any(a == b for a, b in eqs)
    het = any(a != b for a, b in eqs)
    return {(True, True): "both", (True, False): "homogeneous", (False, True): "heterogeneous"}.get((hom, het), "none")


@pytest.mark.parametrize("w1", [0.5, 0.55, 0.6, 0.65, 0.7, 0.8, 0.9, 0.3])
@pytest.mark.parametrize("outside", [0.3, 0.5, 0.8])
def test_zero_temperature_prediction_matches_the_brute_forced_limit_game(w1, outside):
    assert zero_temperature_regime((w1, 1 - w1), (-1.0, 1.0), 1.0, outside) == _limit_game_regime(w1, outside)


def test_zero_temperature_prediction_rejects_a_served_far_source():
    with pytest.raises(ValueError):
        zero_temperature_regime((0.6, 0.4), (-1.0, 1.0), 1.0, 0.9)  # c > l_far = 1 - e^-2
    assert zero_temperature_regime((2 / 3, 1 / 3), (-1.0, 1.0), 1.0, 0.5) == "both"


def test_certified_regimes_at_low_temperature():
    het = certify_regime(DataGame((0.6, 0.4), (-1.0, 1.0), 0.05, 1.0, outside=0.5))
    assert (het.regime, het.homogeneous, het.heterogeneous) == ("heterogeneous", "absent", "present")
    a, b, upper = het.profiles[0]
    assert abs(a + 1) < 0.05 and abs(b - 1) < 0.05 and upper <= 1e-4
    hom = certify_regime(DataGame((0.8, 0.2), (-1.0, 1.0), 0.05, 1.0, outside=0.5))
    assert (hom.regime, hom.homogeneous, hom.heterogeneous) == ("homogeneous", "present", "absent")
    none = certify_regime(DataGame((0.55, 0.45), (-1.0, 1.0), 0.015, 1.0))
    assert none.regime == "none" and none.profiles == ()


def test_band_restricted_certificates_are_complementary():
    # a heterogeneous-only game: the diagonal band is certified empty, the off-band part is not
    g = DataGame((0.6, 0.4), (-1.0, 1.0), tau=0.05, width=1.0, outside=0.5)
    assert certify_no_pure_equilibrium(g, within_band=0.1).certified
    assert not certify_no_pure_equilibrium(g, exclude_band=0.1, max_cells=300_000).certified


def _limit_split_counts(w1: float, n: int, outside: float = 0.5, m: int = 13) -> list[int]:
    """Providers left of the midpoint in the pure equilibria of the tau -> 0 limit game with n
    providers on a grid of m models (brute force over all m^n profiles)."""
    grid = np.linspace(-1.5, 1.5, m)
    loss = 1 - np.exp(-((grid[:, None] - np.array([-1.0, 1.0])) ** 2) / 2)
    w = np.array([w1, 1 - w1])
    P = np.zeros((n,) + (m,) * n)
    for prof in itertools.product(range(m), repeat=n):
        for j in range(2):
            lj = loss[list(prof), j]
            if lj.min() >= outside:
                continue
            win = np.abs(lj - lj.min()) <= 1e-12
            for i in np.flatnonzero(win):
                P[(i,) + prof] += w[j] / win.sum()
    return sorted({sum(1 for a in e.profile if grid[a] < 0) for e in pure_nash_equilibria(P, tol=1e-12)})


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("w1", [0.55, 0.63, 0.7, 0.78, 0.87])
def test_zero_temperature_splits_match_the_brute_forced_limit_game(n, w1):
    assert zero_temperature_splits((w1, 1 - w1), n) == _limit_split_counts(w1, n)


def test_zero_temperature_splits_thresholds():
    # homogeneity needs w1 / n >= w2, i.e. w1 >= n / (n + 1); ties admit both neighbouring splits
    assert zero_temperature_splits((0.75, 0.25), 3) == [2, 3]
    assert zero_temperature_splits((0.8, 0.2), 4) == [3, 4]
    assert zero_temperature_splits((0.5, 0.5), 2) == [1]


def test_service_radius_and_monopoly_prediction():
    r = service_radius(1.0, 0.5)
    assert 1 - math.exp(-(r**2) / 2) == pytest.approx(0.5, abs=1e-15)
    label, lo, hi = zero_temperature_monopoly((0.8, 0.2), (-1.0, 1.0), 1.0, 0.5)
    assert label == "serves both sources" and (lo, hi) == pytest.approx((1 - r, r - 1))
    label, lo, hi = zero_temperature_monopoly((0.3, 0.7), (-1.0, 1.0), 1.0, 0.3)
    assert label == "serves source 2 only" and (lo + hi) / 2 == pytest.approx(1.0)
    with pytest.raises(ValueError):
        zero_temperature_monopoly((0.5, 0.5), (-1.0, 1.0), 1.0, 0.3)


def test_monopoly_optimum_brackets_a_multistart_optimum():
    g = DataGame((0.8, 0.2), (-1.0, 1.0), tau=0.05, width=1.0, outside=0.5)
    theta, lo, hi = monopoly_optimum(g, 20001)
    best = max(-minimize_scalar(lambda t: -float(g.utility(np.array(t), [])), bounds=(s - 0.25, s + 0.25),
                                method="bounded", options={"xatol": 1e-10}).fun for s in np.linspace(-1.25, 1.25, 11))
    assert lo - 1e-12 <= best <= hi + 1e-12
    # the certified bound on the complement of the optimum's neighbourhood stays below the optimum
    assert sup_outside(g, theta - 0.3, theta + 0.3, 20001) < lo
    with pytest.raises(ValueError):
        monopoly_optimum(DataGame((0.8, 0.2), (-1.0, 1.0), tau=0.05), 101)


def test_regret_bounds_agree_with_the_duopoly_certificate():
    g = DataGame((0.6, 0.4), (-1.0, 1.0), tau=0.1, width=1.0, outside=0.5)
    assert regret_bounds(g, (-0.3, 0.8), 20001) == pytest.approx(continuous_regret(g, (-0.3, 0.8), 20001), abs=1e-15)


def test_deviation_diagram_draws_the_zero_temperature_levels():
    from simulations.games.hetero_figures import duopoly_deviation_diagram

    fig = duopoly_deviation_diagram({"tau": 0.05, "w1": 0.6, "outside": 0.5})
    left, right = fig.axes
    assert len(left.lines) == 3
    levels = sorted(float(line.get_ydata()[0]) for line in right.lines[1:])
    assert levels == pytest.approx([0.3, 0.4])


def test_certify_regime_reports_why_it_is_undecided():
    g = DataGame((0.6, 0.4), (-1.0, 1.0), 0.05, 1.0, outside=0.8)
    cert = certify_regime(g, max_cells=20_000)
    assert cert.regime == "uncertified" and cert.undecided
    assert all("max_cells = 20000" in u for u in cert.undecided)
    assert certify_regime(DataGame((0.6, 0.4), (-1.0, 1.0), 0.05, 1.0, outside=0.5)).undecided == ()


def test_refinement_within_the_split_keeps_sides():
    # w1 = 0.7, three providers, one on source 1: an excluded split (at zero temperature a
    # provider of source 2 gains w1/2 - w2/2 = 0.2 by joining source 1)
    g = DataGame((0.7, 0.3), (-1.0, 1.0), 0.05, 1.0, outside=0.5)
    free = refine_profile(g, (-1.0, 1.0, 1.0), n_grid=4001)
    kept = refine_profile(g, (-1.0, 1.0, 1.0), n_grid=4001, keep_sides=True)
    assert sum(t < 0 for t in free) == 2            # unrestricted best responses leave the split
    assert [t < 0 for t in kept] == [True, False, False]
    lower, _ = regret_bounds(g, kept, 40001)
    assert lower == pytest.approx(0.2, abs=1e-3)    # zero-temperature gain w1/2 - w2/2
    with pytest.raises(ValueError):
        refine_profile(g, (0.0, 0.0), n_grid=1)
