"""Each evidence kind decided on inputs whose answer is known independently."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from scipy import stats

from workbench.evidence import (
    Bound,
    Certificate,
    Comparison,
    EvidenceError,
    Identity,
    Proportion,
    Rate,
    Symbolic,
    Verdict,
    decide,
    final_verdict,
    proportion_interval,
)

V = Verdict


def test_identity_within_and_beyond_tolerance():
    assert decide(Identity([1.0, 2.0], [1.0, 2.0 + 1e-13], rtol=1e-12, why="float")).verdict is V.VERIFIED
    d = decide(Identity([1.0, 2.0, 3.0], [1.0, 2.1, 3.0], rtol=1e-12, why="float", labels=["a", "b", "c"]))
    assert d.verdict is V.REFUTED and d.counterexample["entry"] == "b"


def test_identity_normwise_decides_on_the_frobenius_norm():
    m, r = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([[1.0, 0.3], [0.4, 1.0]])
    # ||m - r||_F = 0.5 and ||r||_F = sqrt(2.25) = 1.5 (by hand).
    assert decide(Identity(m, r, rtol=0.34, normwise=True, why="x")).verdict is V.VERIFIED
    d = decide(Identity(m, r, rtol=0.33, normwise=True, why="x"))
    assert d.verdict is V.REFUTED and d.counterexample["entry"] == "entry 2"


def test_tolerances_may_be_given_per_entry():
    assert decide(Identity([1.0, 2.0], [1.1, 2.0], atol=[0.2, 0.0], why="x")).verdict is V.VERIFIED
    assert decide(Identity([1.0, 2.0], [1.0, 2.1], atol=[0.2, 0.0], why="x")).verdict is V.REFUTED
    assert decide(Bound([1.0, 2.0], [0.9, 2.0], atol=[0.2, 0.0], why="x")).verdict is V.VERIFIED
    assert decide(Bound([1.0, 2.1], [0.9, 2.0], atol=[0.2, 0.0], why="x")).verdict is V.REFUTED


def test_identity_nan_is_error_and_shape_mismatch_raises():
    assert decide(Identity([np.nan], [1.0], why="x")).verdict is V.ERROR
    with pytest.raises(EvidenceError):
        decide(Identity([1.0, 2.0], [1.0], why="x"))
    with pytest.raises(EvidenceError, match="why"):
        Identity(1.0, 1.0)  # refused when it is made, not when it is decided


def test_symbolic_proves_refutes_and_finds_witness():
    x, y = sp.symbols("x y")
    assert decide(Symbolic(sp.sin(x) ** 2 + sp.cos(x) ** 2 - 1, why="Pythagoras")).verdict is V.VERIFIED
    assert decide(Symbolic(sp.Integer(2) - 1, why="constant")).verdict is V.REFUTED
    d = decide(Symbolic((x + y) ** 2 - x**2 - y**2, why="missing cross term"))
    assert d.verdict is V.REFUTED
    at = {sp.Symbol(k): sp.Rational(v) for k, v in d.counterexample["at"].items()}
    assert ((x + y) ** 2 - x**2 - y**2).subs(at) != 0
    assert decide(Symbolic(sp.Eq(x + x, 2 * x), why="relation")).verdict is V.VERIFIED


def test_bound_keeps_worst_violation():
    d = decide(Bound([0.1, 0.5, 0.3], [0.2, 0.2, 0.2], why="exact", instances=["p", "q", "r"]))
    assert d.verdict is V.REFUTED
    assert d.counterexample == {"instance": "q", "index": 1, "measured": 0.5, "bound": 0.2}
    assert d.headline["violations"] == 2
    assert decide(Bound([1.0, 2.0], 0.5, relation=">=", why="exact")).verdict is V.VERIFIED
    assert decide(Bound([1.0 + 1e-15], 1.0, rtol=1e-14, why="rounding")).verdict is V.VERIFIED


def test_rate_slope_matches_polyfit_and_t_interval():
    rng = np.random.default_rng(1)
    n = np.array([10, 20, 50, 100, 200, 500, 1000.0])
    cost = 3 * n**-0.5 * np.exp(rng.normal(scale=0.05, size=n.size))
    ev = Rate(n, cost, exponent=-0.5, max_halfwidth=0.2, why="synthetic")
    slope, _, se, half = ev.fit()
    assert slope == pytest.approx(np.polyfit(np.log(n), np.log(cost), 1)[0], rel=1e-12)
    resid = np.log(cost) - np.polyval(np.polyfit(np.log(n), np.log(cost), 1), np.log(n))
    se_ref = np.sqrt(resid @ resid / (n.size - 2) / np.sum((np.log(n) - np.log(n).mean()) ** 2))
    assert se == pytest.approx(se_ref, rel=1e-10)
    assert half == pytest.approx(stats.t.ppf(0.975, n.size - 2) * se_ref, rel=1e-10)
    assert decide(ev).verdict is V.VERIFIED


def test_rate_refutes_wrong_exponent_and_needs_a_decade():
    n = np.array([10, 100, 1000, 10000.0])
    assert decide(Rate(n, n**-1.0, exponent=-0.5, why="exact")).verdict is V.REFUTED
    assert decide(Rate(n, n**-1.0, exponent=-0.5, relation="<=", why="exact")).verdict is V.VERIFIED
    short = np.array([10, 12, 14, 16.0])
    assert decide(Rate(short, short**-1.0, exponent=-1.0, why="exact")).verdict is V.INCONCLUSIVE


def test_proportion_values_are_tabled_and_leave_the_decision_alone():
    plain = decide(Proportion(9, 10, 0.5, why="synthetic"))
    tabled = decide(Proportion(9, 10, 0.5, why="synthetic", values=np.linspace(0.5, 1.4, 10), value_name="ratio"))
    assert tabled.verdict is plain.verdict and tabled.summary == plain.summary
    assert len(tabled.rows) == 11 and tabled.rows[1]["quantity"] == "trial 0: ratio"
    assert tabled.headline["smallest_value"] == 0.5 and tabled.headline["largest_value"] == pytest.approx(1.4)
    same = decide(Proportion(9, 10, 0.5, why="synthetic", values=np.ones(10), value_name="ratio"))
    assert [r["quantity"] for r in same.rows[1:]] == ["every trial: ratio"]
    with pytest.raises(EvidenceError, match="one number per trial"):
        decide(Proportion(9, 10, 0.5, why="synthetic", values=[1.0, 2.0]))


def test_rate_of_constant_costs_is_an_exact_zero_slope():
    n = np.array([10, 100, 1000, 10000.0])
    flat = np.full(n.shape, 3.0)
    assert decide(Rate(n, flat, exponent=1.0, why="exact")).verdict is V.REFUTED
    assert decide(Rate(n, flat, exponent=0.0, relation="<=", why="exact")).verdict is V.VERIFIED
    exact = decide(Rate(n, 5.0 / n**2, exponent=-2.0, why="exact power law"))
    assert exact.verdict is V.VERIFIED and exact.sharpness["short"] == "exponent -2 (exact fit)"


def test_rate_too_noisy_is_inconclusive():
    rng = np.random.default_rng(3)
    n = np.array([10, 100, 1000.0])
    cost = n**-0.5 * np.exp(rng.normal(scale=1.0, size=3))
    assert decide(Rate(n, cost, exponent=-0.5, max_halfwidth=0.05, tolerance=10, why="noise")).verdict is V.INCONCLUSIVE


def test_proportion_intervals_against_closed_forms():
    # Wilson 95% for 8/10: centre (p + z^2/2n)/(1 + z^2/n), half-width z sqrt(p(1-p)/n + z^2/4n^2)/(1 + z^2/n)
    z = stats.norm.ppf(0.975)
    centre = (0.8 + z * z / 20) / (1 + z * z / 10)
    half = z * np.sqrt(0.8 * 0.2 / 10 + z * z / 400) / (1 + z * z / 10)
    assert proportion_interval(8, 10) == pytest.approx((centre - half, centre + half), rel=1e-12)
    # Clopper-Pearson at the ends: [0, 1 - (a/2)^(1/n)] for 0/n and [(a/2)^(1/n), 1] for n/n
    assert proportion_interval(0, 20, 0.95, "clopper-pearson") == pytest.approx((0.0, 1 - 0.025 ** (1 / 20)))
    assert proportion_interval(20, 20, 0.95, "clopper-pearson") == pytest.approx((0.025 ** (1 / 20), 1.0))
    with pytest.raises(ValueError, match="'wilson' or 'clopper-pearson'"):
        proportion_interval(1, 2, 0.95, "jeffreys")


def test_proportion_rules():
    assert decide(Proportion(990, 1000, 0.95, why="x")).verdict is V.VERIFIED
    assert decide(Proportion(900, 1000, 0.95, why="x")).verdict is V.REFUTED
    assert decide(Proportion(95, 100, 0.95, why="x")).verdict is V.INCONCLUSIVE
    assert decide(Proportion(500, 1000, 0.5, relation="=", why="x")).verdict is V.VERIFIED
    assert decide(Proportion(5, 100, 0.2, relation="<=", why="x")).verdict is V.VERIFIED


def test_certificate_needs_the_solvers_accuracy():
    with pytest.raises(EvidenceError, match="accuracy"):
        Certificate("optimal", 1.0, 1.0, why="x")


def test_certificate_needs_optimal_status():
    assert decide(Certificate("optimal", 1.0 + 1e-9, 1.0, rtol=1e-7, accuracy=0.0, why="x")).verdict is V.VERIFIED
    assert decide(Certificate("optimal_inaccurate", 1.0, 1.0, accuracy=0.0, why="x")).verdict is V.ERROR
    assert decide(Certificate("infeasible", 1.0, 1.0, accuracy=0.0, why="x")).verdict is V.ERROR
    assert decide(Certificate("optimal", 1.1, 1.0, relation="<=", accuracy=0.0, why="x")).verdict is V.REFUTED
    assert decide(Certificate("optimal", 0.9, 1.0, relation="<=", accuracy=0.0, why="x")).verdict is V.VERIFIED


def test_certificate_from_a_real_lp():
    import cvxpy as cp

    # max x + y s.t. x + 2y <= 4, 3x + y <= 6, x, y >= 0: optimum at (8/5, 6/5), value 14/5.
    x = cp.Variable(2)
    prob = cp.Problem(cp.Maximize(cp.sum(x)), [x[0] + 2 * x[1] <= 4, 3 * x[0] + x[1] <= 6, x >= 0])
    prob.solve(solver=cp.CLARABEL)
    assert decide(Certificate(prob.status, prob.value, 14 / 5, rtol=1e-7, accuracy=1e-9, why="interior point", solver="CLARABEL")).verdict is V.VERIFIED


def test_comparison_directions():
    rng = np.random.default_rng(0)
    base = rng.normal(size=40)
    assert decide(Comparison(base - 1.0 + rng.normal(scale=0.1, size=40), base, why="x")).verdict is V.VERIFIED
    assert decide(Comparison(base + 1.0, base + rng.normal(scale=0.1, size=40), why="x")).verdict is V.REFUTED
    noise = rng.normal(scale=1.0, size=40)
    assert decide(Comparison(base + noise * 0.01, base, direction="greater", margin=5, why="x")).verdict is not V.VERIFIED
    assert decide(Comparison(base - 1.0, base, bootstrap=True, why="x")).verdict is V.VERIFIED


def test_final_verdict_combinations():
    assert final_verdict(V.VERIFIED, [V.REFUTED, V.REFUTED], False)[0] is V.VERIFIED
    assert final_verdict(V.VERIFIED, [V.REFUTED, V.VERIFIED], False)[0] is V.INCONCLUSIVE
    assert final_verdict(V.VERIFIED, [], False)[0] is V.INCONCLUSIVE
    assert final_verdict(V.VERIFIED, [V.ERROR], False)[0] is V.INCONCLUSIVE
    assert final_verdict(V.REFUTED, [V.REFUTED], False)[0] is V.REFUTED
    # A refuted reconstruction is shown as refuted, with a note naming it a reconstruction.
    verdict, note = final_verdict(V.REFUTED, [V.REFUTED], True)
    assert verdict is V.REFUTED and "reconstructed" in note
    assert final_verdict(V.ERROR, [V.REFUTED], False)[0] is V.ERROR
    assert final_verdict(V.INCONCLUSIVE, [V.REFUTED], False)[0] is V.INCONCLUSIVE


def test_decide_rejects_non_evidence():
    with pytest.raises(EvidenceError):
        decide("VERIFIED")
    with pytest.raises(EvidenceError, match="declares"):
        decide(Identity(1.0, 1.0, why="x"), expected_kind="bound")


def test_labelled_instances_make_a_results_table():
    d = decide(Identity([3, 5], [3, 5], why="exact ranks", labels=["(2,2,1)", "(3,3,1)"]))
    assert [(r["quantity"], r["measured"], r["claimed"]) for r in d.rows] == [("(2,2,1)", "3", "3"), ("(3,3,1)", "5", "5")]
    d = decide(Bound([0.1, 0.2], [1.0, 1.0], why="x", instances=["a", "b"]))
    assert [r["quantity"] for r in d.rows] == ["a", "b"] and d.rows[1]["claimed"] == "<= 1"
    many = decide(Identity(list(range(100)), list(range(100)), why="x", labels=[str(i) for i in range(100)]))
    assert len(many.rows) == 1


def test_factor_slope_closed_forms_and_rate_fit():
    from workbench import factor_slope

    # two sizes: the secant slope; ln N over [100, 10^4] rises by ln 2 over ln 100
    assert factor_slope([1, 10], [3, 300]) == pytest.approx(2.0, rel=1e-12)
    n = np.array([100.0, 10000.0])
    assert factor_slope(n, np.log(n)) == pytest.approx(np.log(2.0) / np.log(100.0), rel=1e-12)
    # an exact power law gives its exponent, and a Rate fit of the factor itself the same slope
    sizes = np.geomspace(2, 2000, 7)
    assert factor_slope(sizes, 5 * sizes**-0.75) == pytest.approx(-0.75, rel=1e-12)
    factors = np.log(sizes) ** 2
    rate = Rate(sizes, factors, exponent=0.0, why="fit of a known factor")
    assert factor_slope(sizes, factors) == pytest.approx(rate.fit()[0], rel=1e-12)
    with pytest.raises(ValueError):
        factor_slope([3, 3], [1, 2])
    with pytest.raises(ValueError):
        factor_slope([1, 2], [0, 1])
