"""Unit tests of simulations.privacy and simulations.unlearning against independent values."""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest
from scipy import integrate, optimize, stats

from simulations.privacy import (
    dp_tpr_bound,
    exact_privacy_loss,
    exponential_mechanism_probabilities,
    gaussian_delta,
    gaussian_mechanism_sigma,
    gaussian_sigma_for_renyi,
    gaussian_tradeoff_tpr,
    hockey_stick_divergence,
    laplace_scale,
    membership_inference_audit,
    randomized_response_probabilities,
    renyi_divergence_gaussians,
    renyi_to_dp,
)
from simulations.unlearning import (
    erm_sensitivity_bound,
    iterations_to_reach,
    logistic_data,
    logistic_erm,
    logistic_gradient,
    logistic_objective,
    ridge_data,
    ridge_erm,
    ridge_gradient,
    robust_gradient_descent,
    trimmed_mean,
    unlearning_distance_bound,
    unlearning_noise,
    warm_start_unlearning,
)


# ----------------------------------------------------------------------------- calibration
def test_classical_gaussian_sigma_hand_value():
    # Dwork & Roth Thm A.1: sigma = sqrt(2 ln(1.25/delta)) Delta / eps
    assert gaussian_mechanism_sigma(0.5, 1e-5, 2.0, method="classical") == pytest.approx(
        2.0 * math.sqrt(2 * math.log(125000.0)) / 0.5, rel=1e-14)


def test_classical_calibration_refuses_large_epsilon():
    with pytest.raises(ValueError, match="epsilon < 1"):
        gaussian_mechanism_sigma(1.5, 1e-5, 1.0, method="classical")


@pytest.mark.parametrize("eps,delta,sens", [(0.1, 1e-6, 1.0), (1.0, 1e-5, 1.0), (4.0, 1e-8, 3.0)])
def test_analytic_sigma_meets_profile_with_equality(eps, delta, sens):
    sigma = gaussian_mechanism_sigma(eps, delta, sens, method="analytic")
    assert gaussian_delta(eps, sigma, sens) == pytest.approx(delta, rel=1e-8)
    assert gaussian_delta(eps, sigma * 0.99, sens) > delta


def test_analytic_sigma_known_value_and_below_classical():
    # Balle & Wang (2018) report sigma ~ 3.73 for eps = 1, delta = 1e-5, Delta = 1.
    assert gaussian_mechanism_sigma(1.0, 1e-5, 1.0) == pytest.approx(3.7306, abs=1e-3)
    for eps in (0.05, 0.3, 0.9):
        assert gaussian_mechanism_sigma(eps, 1e-5, 1.0) < gaussian_mechanism_sigma(eps, 1e-5, 1.0, "classical")


@pytest.mark.parametrize("eps,sigma,sens", [(0.5, 2.0, 1.0), (2.0, 0.7, 1.5)])
def test_gaussian_delta_matches_direct_integration(eps, sigma, sens):
    p = stats.norm(0.0, sigma).pdf
    q = stats.norm(sens, sigma).pdf
    # p > e^eps q  <=>  x < sens/2 - eps sigma^2 / sens
    cut = sens / 2 - eps * sigma**2 / sens
    val, _ = integrate.quad(lambda x: p(x) - math.exp(eps) * q(x), -np.inf, cut, epsabs=1e-13)
    assert gaussian_delta(eps, sigma, sens) == pytest.approx(val, abs=1e-10)


def test_laplace_scale_and_bad_inputs():
    assert laplace_scale(0.5, 2.0) == 4.0
    with pytest.raises(ValueError):
        laplace_scale(0.0, 1.0)
    with pytest.raises(ValueError):
        gaussian_mechanism_sigma(1.0, 1.5, 1.0)
    with pytest.raises(ValueError):
        gaussian_mechanism_sigma(1.0, 1e-5, 1.0, method="nope")


# ----------------------------------------------------------------------------- Rényi
@pytest.mark.parametrize("m0,m1,s0,s1,alpha", [(0.0, 1.0, 1.0, 1.0, 2.0), (0.3, -0.4, 0.8, 1.1, 3.0),
                                               (1.0, 0.0, 1.2, 1.0, 1.5)])
def test_renyi_matches_mpmath_quadrature(m0, m1, s0, s1, alpha):
    with mp.workdps(30):  # never the process-wide precision: other tests share it
        p = lambda x: mp.npdf(x, m0, s0)  # noqa: E731
        q = lambda x: mp.npdf(x, m1, s1)  # noqa: E731
        integral = mp.quad(lambda x: p(x) ** alpha * q(x) ** (1 - alpha), [-mp.inf, 0, mp.inf])
        ref = float(mp.log(integral) / (alpha - 1))
    assert renyi_divergence_gaussians([m0], [m1], s0, s1, alpha) == pytest.approx(ref, rel=1e-12, abs=1e-14)


def test_renyi_isotropic_closed_form_and_conversion():
    a, b = np.array([1.0, 2.0, 2.0]), np.zeros(3)
    assert renyi_divergence_gaussians(a, b, 2.0, order=4.0) == pytest.approx(4 * 9 / 8)
    assert renyi_to_dp(3.0, 0.5, math.exp(-4)) == pytest.approx(0.5 + 2.0)
    sigma = gaussian_sigma_for_renyi(3.0, 4.0, 0.5)
    assert renyi_divergence_gaussians([3.0], [0.0], sigma, order=4.0) == pytest.approx(0.5)
    assert renyi_divergence_gaussians([0.0], [0.0], 1.0, 3.0, order=2.0) == pytest.approx(
        math.log(3.0) + math.log(9.0 / 17.0) / 2)
    assert renyi_divergence_gaussians([0.0], [0.0], 2.0, 1.0, order=2.0) == math.inf   # s^2 = 2 - 4 < 0
    with pytest.raises(ValueError):
        renyi_divergence_gaussians([0.0], [0.0], 1.0, order=1.0)


# ----------------------------------------------------------------------------- exact audits
def test_exponential_mechanism_hand_value_and_privacy():
    p = exponential_mechanism_probabilities([0.0, 1.0], epsilon=2.0, sensitivity=1.0)
    np.testing.assert_allclose(p, np.array([1.0, math.e]) / (1 + math.e), rtol=1e-15)
    rng = np.random.default_rng(3)
    u = rng.uniform(0, 5, 8)
    for _ in range(50):
        v = u + rng.uniform(-1, 1, 8)      # neighbouring utilities: each changes by <= 1
        loss = exact_privacy_loss(exponential_mechanism_probabilities(u, 0.7, 1.0),
                                  exponential_mechanism_probabilities(v, 0.7, 1.0))
        assert loss <= 0.7 + 1e-12


def test_randomized_response_loss_is_epsilon():
    p0, p1 = randomized_response_probabilities(0, 1.3), randomized_response_probabilities(1, 1.3)
    assert exact_privacy_loss(p0, p1) == pytest.approx(1.3, rel=1e-14)
    assert hockey_stick_divergence(p0, p1, 1.3) == pytest.approx(0.0, abs=1e-15)
    assert hockey_stick_divergence(p0, p1, 0.0) == pytest.approx(p0[0] - p1[0])


def test_hockey_stick_and_loss_hand_values():
    assert hockey_stick_divergence([0.5, 0.5], [0.25, 0.75], 0.0) == pytest.approx(0.25)
    assert exact_privacy_loss([0.5, 0.5], [0.25, 0.75]) == pytest.approx(math.log(2))
    assert exact_privacy_loss([1.0, 0.0], [0.5, 0.5]) == math.inf
    with pytest.raises(ValueError):
        exact_privacy_loss([0.5, 0.6], [0.5, 0.5])


def test_dp_tpr_bound_hand_values():
    assert dp_tpr_bound(0.01, math.log(3), 0.0) == pytest.approx(0.03)
    assert dp_tpr_bound(0.9, 1.0, 0.0) == pytest.approx(1 - math.exp(-1) * 0.1)
    assert dp_tpr_bound(0.5, 0.0, 0.0) == pytest.approx(0.5)


def test_gaussian_tradeoff_hand_values_and_dp_envelope():
    assert gaussian_tradeoff_tpr(0.3, 0.0) == pytest.approx(0.3)            # no shift: no test beats guessing
    assert gaussian_tradeoff_tpr(0.5, 1.959963984540054) == pytest.approx(0.975, rel=1e-9)
    assert gaussian_tradeoff_tpr(0.0, 2.0) == 0.0 and gaussian_tradeoff_tpr(1.0, 2.0) == 1.0
    # mu-GDP is (eps, delta(eps))-DP for every eps with delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)
    # (Dong, Roth & Su 2022, Cor. 2.13); the trade-off curve is the lower envelope of the DP bounds over eps.
    for fpr, mu in [(0.01, 0.4472), (0.1, 1.0), (0.3, 0.25)]:
        def dp_bound(eps, mu=mu, fpr=fpr):
            delta = stats.norm.cdf(-eps / mu + mu / 2) - math.exp(eps) * stats.norm.cdf(-eps / mu - mu / 2)
            return dp_tpr_bound(fpr, eps, min(max(delta, 0.0), 1.0))
        best = optimize.minimize_scalar(dp_bound, bounds=(0.0, 20.0), method="bounded", options={"xatol": 1e-10}).fun
        assert gaussian_tradeoff_tpr(fpr, mu) == pytest.approx(best, rel=1e-6)
    with pytest.raises(ValueError):
        gaussian_tradeoff_tpr(0.1, -1.0)


def test_membership_audit_on_known_gaussians():
    rng = np.random.default_rng(7)
    s, alpha, m = 1.0, 0.05, 40_000
    out = membership_inference_audit(rng.standard_normal(m), rng.standard_normal(m),
                                     s + rng.standard_normal(m), alpha)
    tpr = stats.norm.sf(stats.norm.isf(alpha) - s)          # Neyman-Pearson power, 0.26
    assert out.tpr_interval[0] - 0.01 <= tpr <= out.tpr_interval[1] + 0.01
    assert out.false_positives / out.n_out == pytest.approx(alpha, abs=0.01)
    null = membership_inference_audit(rng.standard_normal(m), rng.standard_normal(m), rng.standard_normal(m), alpha)
    assert null.epsilon_lower < 0.2


# ----------------------------------------------------------------------------- ERM and unlearning
def test_logistic_erm_matches_scipy_minimize():
    X, y = logistic_data(np.random.default_rng(0), 80, 4)
    mu = 0.1
    theta = logistic_erm(X, y, mu)
    ref = optimize.minimize(lambda t: logistic_objective(X, y, mu, t), np.zeros(4),
                            jac=lambda t: logistic_gradient(X, y, mu, t), method="BFGS",
                            options={"gtol": 1e-12}).x
    np.testing.assert_allclose(theta, ref, atol=1e-7)


def test_logistic_gradient_finite_differences():
    X, y = logistic_data(np.random.default_rng(1), 30, 3)
    t = np.array([0.3, -0.2, 0.5])
    num = optimize.approx_fprime(t, lambda z: logistic_objective(X, y, 0.2, z), 1e-7)
    np.testing.assert_allclose(logistic_gradient(X, y, 0.2, t), num, atol=1e-6)


def test_ridge_erm_matches_augmented_least_squares():
    X, y = ridge_data(np.random.default_rng(2), 50, 4)
    mu, n = 0.3, 50
    A = np.vstack([X / math.sqrt(n), math.sqrt(mu) * np.eye(4)])
    b = np.concatenate([y / math.sqrt(n), np.zeros(4)])
    np.testing.assert_allclose(ridge_erm(X, y, mu), np.linalg.lstsq(A, b, rcond=None)[0], atol=1e-12)
    np.testing.assert_allclose(ridge_gradient(X, y, mu, ridge_erm(X, y, mu)), 0.0, atol=1e-12)


def test_sensitivity_bound_holds_on_logistic_instances():
    rng = np.random.default_rng(4)
    X, y = logistic_data(rng, 60, 3)
    mu = 0.05
    theta = logistic_erm(X, y, mu)
    G = float(np.max(np.linalg.norm(X, axis=1)))
    for f in (1, 3, 10):
        forget = rng.choice(60, f, replace=False)
        keep = np.setdiff1d(np.arange(60), forget)
        assert np.linalg.norm(theta - logistic_erm(X[keep], y[keep], mu)) <= erm_sensitivity_bound(60, f, G, mu)
    assert erm_sensitivity_bound(100, 2, 3.0, 0.5) == pytest.approx(2 * 2 * 3.0 / (0.5 * 100))


def test_distance_bound_and_noise_hand_values():
    b = unlearning_distance_bound(100, 1, 1.0, 0.5, 2.0, 2)
    assert b == pytest.approx(0.75**2 * 2 / 50)
    assert unlearning_noise(100, 1, 1.0, 0.5, 2.0, 2, 8.0, 1.0) == pytest.approx(b * 2.0)


def test_warm_start_unlearning_reaches_retrained_model():
    X, y = ridge_data(np.random.default_rng(5), 40, 3)
    theta = ridge_erm(X, y, 0.1)
    out = warm_start_unlearning(X, y, 0.1, theta, [0, 1], 500, loss="ridge")
    np.testing.assert_allclose(out, ridge_erm(X[2:], y[2:], 0.1), atol=1e-10)


def test_trimmed_mean_matches_scipy():
    v = np.random.default_rng(6).standard_normal((20, 3))
    np.testing.assert_allclose(trimmed_mean(v, 2), stats.trim_mean(v, 0.1, axis=0), rtol=1e-14)
    with pytest.raises(ValueError):
        trimmed_mean(v, 10)


def test_robust_gd_without_trimming_is_ridge_gd():
    X, y = ridge_data(np.random.default_rng(8), 40, 3)
    out = robust_gradient_descent(X, y, 0.1, 0, np.zeros(3), 1.0, 2000)
    np.testing.assert_allclose(out, ridge_erm(X, y, 0.1), atol=1e-10)


def test_iterations_to_reach_hand_count():
    assert iterations_to_reach(lambda t: t / 2, np.array([1.0]), np.array([0.0]), 0.1) == 4
    with pytest.raises(ValueError):
        iterations_to_reach(lambda t: t, np.array([1.0]), np.array([0.0]), 0.1, max_iter=5)


# ----------------------------------------------------------------------------- deletion capacity
def test_sphere_ridge_data_is_bounded():
    from simulations.unlearning import sphere_ridge_data
    X, y, ts = sphere_ridge_data(np.random.default_rng(0), 300, 7, noise=0.5, feature_scale=2.0)
    np.testing.assert_allclose(np.linalg.norm(X, axis=1), 2.0, rtol=1e-12)
    assert np.linalg.norm(ts) == pytest.approx(1.0)
    assert np.max(np.abs(y)) <= 2.0 + 0.5


def test_noisy_excess_matches_monte_carlo():
    from simulations.unlearning import noisy_excess_population_risk
    rng = np.random.default_rng(1)
    d, c, sigma = 4, 0.25, 0.3
    ts, a, r = rng.standard_normal(d), rng.standard_normal(d), rng.standard_normal(d)
    xi = sigma * rng.standard_normal((200_000, d))
    mc = np.mean(c * np.sum((a + xi - ts) ** 2, axis=1) / 2) - c * np.sum((r - ts) ** 2) / 2
    assert noisy_excess_population_risk(a, r, sigma, c, ts) == pytest.approx(mc, rel=5e-3)


def test_deletion_capacity_of_a_known_curve():
    from simulations.unlearning import deletion_capacity
    # excess(f) = f^2 / 100 <= 0.5 <=> f <= sqrt(50) = 7.07
    assert deletion_capacity(lambda f: f**2 / 100, 0.5, 1000) == 7
    assert deletion_capacity(lambda f: f**2 / 100, 1e6, 30) == 30
    assert deletion_capacity(lambda f: 1.0 + f, 0.5, 30) == 0


def test_unlearning_nothing_costs_nothing():
    from simulations.unlearning import ridge_unlearning_excess, sphere_ridge_data
    X, y, ts = sphere_ridge_data(np.random.default_rng(2), 100, 3)
    assert ridge_unlearning_excess(X, y, 0.1, [], 0, 1.0, 2.0, 1.0, 1 / 3, ts) == pytest.approx(0.0, abs=1e-14)


def test_capacity_censored_at_the_search_cap_raises():
    # a strongly regularised instance whose risk budget never binds below n/2: the capacity check must
    # raise instead of fitting the cap n/2 (slope 1 by construction)
    import theorems.iclr2025.unlearning_in_out_distribution as module
    import workbench as wb

    res = wb.run_claim(module.deletion_capacity_linear_in_n, profile="quick", seed=0,
                       params={"mu": 1.0, "sizes": (250, 2500)})
    assert res.outcome.verdict is wb.Verdict.ERROR
    assert "censored at the search cap" in res.outcome.decision.summary


# ----------------------------------------------------------------------------- certified unlearning (Algorithms 1, 2)
from simulations.unlearning import (  # noqa: E402
    aligned_ridge_instance,
    apriori_unlearning_steps,
    coordinate_ridge_instance,
    descend_until_certified,
    noise_for_radius,
    ridge_domain_constants,
    ridge_noisy_excess_risk,
    ridge_smoothness,
    robust_noisy_unlearning,
    trimmed_mean_distance_bound,
    utility_radius,
)


def test_domain_constants_hand_values():
    c = ridge_domain_constants(2.0, 3.0, 0.5)
    assert c["radius"] == pytest.approx(12.0)            # 2 * 3 / 0.5
    assert c["gradient"] == pytest.approx(2.0 * (2.0 * 12.0 + 3.0))
    assert c["smoothness"] == pytest.approx(4.5)
    with pytest.raises(ValueError):
        ridge_domain_constants(1.0, 1.0, 0.0)


def test_domain_constants_bound_random_minimisers():
    rng = np.random.default_rng(3)
    for _ in range(20):
        n, d, mu = 30, 4, float(rng.uniform(0.01, 2.0))
        g = rng.standard_normal((n, d))
        X = g / np.linalg.norm(g, axis=1, keepdims=True) * rng.uniform(0, 1, (n, 1))
        y = rng.uniform(-1, 1, n)
        # minimiser by least squares on the augmented system [X/sqrt(n); sqrt(mu) I] theta = [y/sqrt(n); 0]
        A = np.vstack([X / math.sqrt(n), math.sqrt(mu) * np.eye(d)])
        theta = np.linalg.lstsq(A, np.concatenate([y / math.sqrt(n), np.zeros(d)]), rcond=None)[0]
        c = ridge_domain_constants(1.0, 1.0, mu)
        assert np.linalg.norm(theta) <= c["radius"] + 1e-12
        assert np.max(np.abs(X @ theta - y) * np.linalg.norm(X, axis=1)) <= c["gradient"] + 1e-12


def test_utility_radius_spends_the_budget_exactly():
    alpha, beta, d, q, eps = 0.3, 2.5, 7, 4.0, 0.5
    r = utility_radius(alpha, beta, d, q, eps)
    sigma = noise_for_radius(r, q, eps)
    assert q * r**2 / (2 * sigma**2) == pytest.approx(eps, rel=1e-12)
    assert beta * r**2 / 2 + beta * d * sigma**2 / 2 == pytest.approx(alpha, rel=1e-12)


def test_apriori_steps_is_the_smallest_count():
    for n, f, G, mu, beta, r in [(100, 3, 2.0, 0.1, 1.1, 1e-3), (50, 1, 1.0, 1.0, 2.0, 0.5), (80, 8, 5.0, 0.2, 3.0, 1e-6)]:
        t = apriori_unlearning_steps(n, f, G, mu, beta, r)
        start = 2 * f * G / (mu * n)
        brute = next(k for k in range(10**6) if start * (1 - mu / beta) ** k <= r)
        assert t == brute


def test_aligned_instance_displacement_closed_form():
    n, f, p, mu = 200, 3, 0.5, 2.0
    X, y, forget = aligned_ridge_instance(n, 3, f, p)
    assert np.all(np.isclose(np.linalg.norm(X, axis=1), 1.0)) and np.all(np.abs(y) <= 1)
    keep = np.setdiff1d(np.arange(n), forget)
    # along e_1 the minimiser is (sum of axis labels / n) / (share on e_1 + mu), by hand
    n_axis = int(round(p * n))
    t_full = ((n_axis - 2 * f) / n) / (n_axis / n + mu)
    t_ret = ((n_axis - f) / (n - f)) / ((n_axis - f) / (n - f) + mu)
    assert ridge_erm(X, y, mu) == pytest.approx([t_full, 0, 0], abs=1e-14)
    assert ridge_erm(X[keep], y[keep], mu) == pytest.approx([t_ret, 0, 0], abs=1e-14)


def test_noisy_excess_risk_matches_monte_carlo():
    rng = np.random.default_rng(5)
    X, y = coordinate_ridge_instance(rng, 40, 4)
    mu, sigma = 0.3, 0.2
    theta = ridge_erm(X, y, mu) + 0.1
    xi = sigma * rng.standard_normal((200_000, 4))
    vals = [np.mean((X @ t - y) ** 2) / 2 + mu * t @ t / 2 for t in theta + xi[:2000]]
    exact = ridge_noisy_excess_risk(X, y, mu, theta, sigma)
    opt = ridge_erm(X, y, mu)
    fmin = np.mean((X @ opt - y) ** 2) / 2 + mu * opt @ opt / 2
    assert np.mean(vals) - fmin == pytest.approx(exact, rel=0.05)
    # isotropic design: X^T X / n = I / d exactly
    assert X.T @ X / 40 == pytest.approx(np.eye(4) / 4)


def test_descend_until_certified_certifies_the_distance():
    rng = np.random.default_rng(6)
    X, y = ridge_data(rng, 60, 4, 0.3)
    mu, r = 0.05, 1e-3
    theta, t = descend_until_certified(X, y, mu, np.zeros(4), r, 1 / ridge_smoothness(X, mu))
    assert np.linalg.norm(theta - ridge_erm(X, y, mu)) <= r
    assert t > 0
    with pytest.raises(ValueError):
        descend_until_certified(X, y, mu, np.zeros(4), 1e-30, 1 / ridge_smoothness(X, mu), max_iter=5)


def test_robust_unlearning_outputs_are_consistent():
    rng = np.random.default_rng(7)
    X, y = ridge_data(rng, 100, 3, 0.3)
    y[:2] = 1e4
    out = robust_noisy_unlearning(X, y, [0, 1], 0.05, 2, 1e-3, 2.0, 1.0, 300)
    assert out["divergence"] <= 1.0 and out["excess_risk"] <= 1e-3
    assert out["sigma"] == pytest.approx(noise_for_radius(out["radius"], 2.0, 1.0))
    assert out["unlearning_steps"] <= out["retraining_steps"]


def test_robust_unlearning_divergence_matches_gaussian_renyi_and_noise_scaling():
    rng = np.random.default_rng(8)
    X, y = ridge_data(rng, 80, 3, 0.3)
    y[:2] = 1e3
    base = robust_noisy_unlearning(X, y, [0, 1], 0.05, 2, 1e-4, 4.0, 0.5, 200)
    cut = robust_noisy_unlearning(X, y, [0, 1], 0.05, 2, 1e-4, 4.0, 0.5, 200, noise_factor=0.8)
    # D_q of N(a, s^2 I) from N(b, s^2 I) is q ||a - b||^2 / (2 s^2): 1/0.8^2 times larger at 0.8 s
    assert cut["divergence"] == pytest.approx(base["divergence"] / 0.64, rel=1e-12)
    assert cut["sigma"] == pytest.approx(0.8 * base["sigma"], rel=1e-15)
    # the independent implementation (checked against mpmath quadrature above), on a 1-D projection
    ref = renyi_divergence_gaussians(np.array([base["distance"]]), np.array([0.0]), base["sigma"], order=4.0)
    assert base["divergence"] == pytest.approx(ref, rel=1e-12)
    # the certificate factors: D/eps is the square of their product; each is at most its ceiling
    assert base["divergence"] / 0.5 == pytest.approx((base["strong_convexity_factor"] * base["stopping_factor"]) ** 2,
                                                     rel=1e-9)
    assert 0 < base["strong_convexity_factor"] <= base["curvature_ratio"] + 1e-12 <= 1 + 1e-12
    assert base["stopping_factor"] <= 1
    with pytest.raises(ValueError, match="noise_factor"):
        robust_noisy_unlearning(X, y, [0, 1], 0.05, 2, 1e-4, 4.0, 0.5, 200, noise_factor=0.0)


def test_curvature_ratio_of_an_axis_design_by_hand():
    # rows +-e_1 and +-s e_2 in equal numbers: retain Hessian diag(1/2 + mu, s^2/2 + mu) exactly
    mu, s, n = 0.05, 0.1, 40
    X = np.zeros((n + 2, 2))
    X[:n:2, 0] = np.where(np.arange(n // 2) % 2 == 0, 1.0, -1.0)
    X[1:n:2, 1] = s * np.where(np.arange(n // 2) % 2 == 0, 1.0, -1.0)
    X[n:] = [1.0, 0.0]                                   # the two forget points
    y = np.concatenate([np.linspace(-1, 1, n), [500.0, 450.0]])
    out = robust_noisy_unlearning(X, y, [n, n + 1], mu, 2, 1e-6, 2.0, 1.0, 300)
    assert out["curvature_ratio"] == pytest.approx(mu / (s**2 / 2 + mu), rel=1e-12)
    # after enough steps the error lies along e_2, so strong convexity nearly binds
    assert out["strong_convexity_factor"] <= out["curvature_ratio"] + 1e-12


def test_robust_unlearning_from_an_offset_start_counts_steps_in_closed_form():
    # The descent's error obeys e_t = (I - H/beta)^t e_0, so its gradient H e_t reaches mu Delta after a number of
    # steps computed here from matrix powers of the retain Hessian, independently of the descent loop.
    rng = np.random.default_rng(11)
    X, y = ridge_data(rng, 60, 3, 0.3)
    y[:2] = 1e3
    mu, offset = 0.05, 1000.0
    out = robust_noisy_unlearning(X, y, [0, 1], mu, 2, 1e-4, 4.0, 0.5, 200, start_offset=offset)
    Xr, yr = X[2:], y[2:]
    H = Xr.T @ Xr / len(yr) + mu * np.eye(3)
    beta = float(np.linalg.eigvalsh(H)[-1])
    target = np.linalg.solve(H, Xr.T @ yr / len(yr))
    trained = robust_gradient_descent(X, y, mu, 2, np.zeros(3), 1 / beta, 200)
    e0 = trained + offset - target
    M = np.eye(3) - H / beta
    t = next(t for t in range(10_000) if np.linalg.norm(H @ np.linalg.matrix_power(M, t) @ e0) <= mu * out["radius"])
    assert out["unlearning_steps"] == t
    assert out["start_distance"] == pytest.approx(np.linalg.norm(e0), rel=1e-12)
    # the certificate holds whatever the start: the stopping rule certifies the distance a posteriori
    assert out["divergence"] <= 0.5 * (1 + 1e-9)
    with pytest.raises(ValueError, match="start_offset"):
        robust_noisy_unlearning(X, y, [0, 1], mu, 2, 1e-4, 4.0, 0.5, 200, start_offset=float("nan"))


def test_trimmed_mean_lies_between_the_extreme_inlier_means_by_brute_force():
    # The lemma behind trimmed_mean_distance_bound, checked on random columns with f <= trim outliers anywhere.
    rng = np.random.default_rng(12)
    for _ in range(200):
        m, f = 30, int(rng.integers(0, 4))
        trim = f + int(rng.integers(0, 3))
        inliers = rng.normal(size=m)
        values = np.concatenate([inliers, rng.choice((-1.0, 1.0), f) * 10 ** rng.uniform(0, 6, f)])
        tm = trimmed_mean(values[:, None], trim)[0]
        kept, s = m + f - 2 * trim, np.sort(inliers)
        assert s[:kept].mean() - 1e-12 <= tm <= s[-kept:].mean() + 1e-12


def test_trimmed_mean_distance_bound_in_one_dimension_and_at_a_robust_fixed_point():
    # d = 1: the bound is dev / H with H = mean(x^2) + mu, computed here by hand.
    x = np.array([[1.0], [0.5], [-0.8], [0.3], [0.9]])
    y = np.array([0.2, -1.0, 0.4, 2.0, -0.3])
    mu, theta, n_total, trim = 0.1, np.array([0.7]), 6, 1
    g = np.sort(x[:, 0] * (x[:, 0] * 0.7 - y))
    dev = max(g[-4:].mean() - g.mean(), g.mean() - g[:4].mean())
    assert trimmed_mean_distance_bound(x, y, mu, theta, n_total, trim) == pytest.approx(
        dev / (np.mean(x[:, 0] ** 2) + mu), rel=1e-12)
    # at the fixed point of trimmed-mean GD with far outliers the distance to the retain minimiser obeys the bound
    rng = np.random.default_rng(13)
    X, y = ridge_data(rng, 80, 3, 0.3)
    y[:2] = [3e3, -2e3]
    out = robust_noisy_unlearning(X, y, [0, 1], 0.05, 2, 1e-4, 4.0, 0.5, 400)
    assert out["training_residual"] < 1e-10
    assert out["start_distance"] <= out["start_distance_bound"] + out["training_residual"] / 0.05
    with pytest.raises(ValueError):
        trimmed_mean_distance_bound(x, y, mu, theta, 3, 1)
