"""Unit tests of simulations.quantum against values computed another way: closed forms,
brute-force enumeration, scipy special functions and Aer circuits against numpy FFT."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats
from scipy.special import j0

from simulations.quantum import (
    GradientOracle,
    RampSaddle,
    SmoothedMeanEstimator,
    aer_probabilities,
    amplitude_estimation_circuit,
    binary_oracle_unitary,
    boosting_runs,
    classical_median_abs_error,
    cosine_noise,
    count_oracle_queries,
    count_state_preparation_calls,
    emulated_probabilities,
    estimate_distribution,
    exact_median_success,
    fejer_kernel,
    hoeffding_samples,
    input_register_probabilities,
    is_sosp,
    jordan_circuit,
    jordan_gradient,
    kickback_circuit,
    linear_phases,
    median_gradient_estimate,
    median_runs,
    median_success,
    mode_estimate,
    numpy_probabilities,
    oracle_phases,
    perturbed_agd,
    perturbed_gd,
    phase_scale,
    qae_distributions,
    qae_grid_size,
    qae_median_estimates,
    quantum_oracle,
    ramp_hitting_factor,
    rounded_oracle_values,
    sample_median_outcomes,
    smoothed_moments,
    smoothed_sgd,
    smoothing_parameters,
    worst_case_success,
)
from simulations.quantum.emulator import EXACT_QUANTILE_MAX_N, _sinc2_cdf
from workbench import factor_slope


# --------------------------------------------------------------------------- Jordan circuit
def test_aer_matches_numpy_fft_and_counts_one_query():
    rng = np.random.default_rng(0)
    for d, n in [(1, 3), (2, 3), (3, 3), (2, 5)]:
        H = rng.normal(size=(d, d))
        H = (H + H.T) / 4
        b = rng.uniform(-0.4, 0.4, size=d)
        f = lambda X, H=H, b=b: X @ b + 0.5 * np.einsum("ij,jk,ik->i", X, H, X)  # noqa: E731
        phases = oracle_phases(f, rng.normal(size=d), n, 1e-3, 1.0)
        qc = jordan_circuit(phases, d, n)
        assert count_oracle_queries(qc) == 1
        assert np.max(np.abs(aer_probabilities(qc) - numpy_probabilities(phases, d, n))) < 1e-12


def test_linear_gradient_recovered_and_reversed_qft_flips_sign():
    g = np.array([0.25, -0.625])  # grid values 2M m / N with N = 16, M = 1
    f = lambda X: X @ g  # noqa: E731
    res = jordan_gradient(f, [0.1, -0.2], n=4, h=1e-3, M=1.0, rng=np.random.default_rng(1), runs=5)
    np.testing.assert_allclose(res.estimate, g, atol=1e-12)
    assert res.queries == 5 and res.resolution == 2 / 16
    rev = jordan_circuit(oracle_phases(f, np.zeros(2), 4, 1e-3, 1.0), 2, 4, reverse_qft=True)
    np.testing.assert_allclose(mode_estimate(aer_probabilities(rev), 2, 4, 1.0), -g, atol=1e-12)


def test_kickback_equals_phase_oracle_and_transpose_negates():
    d, n, n_out, h = 1, 4, 5, 0.05
    x = 0.3 + h * (np.arange(16) - 8) / 16
    S = phase_scale(n, h, 1.0)
    F = rounded_oracle_values(0.2 * (x - 0.3), S, n_out)  # slope 0.2: bin 0.2 * 16 / 2 = 1.6
    phase = aer_probabilities(jordan_circuit(2 * np.pi * F / 2**n_out, d, n))
    kick = input_register_probabilities(aer_probabilities(kickback_circuit(F, d, n, n_out)), d * n)
    np.testing.assert_allclose(kick, phase, atol=1e-12)
    kick_t = input_register_probabilities(
        aer_probabilities(kickback_circuit(F, d, n, n_out, transpose=True)), d * n)
    np.testing.assert_allclose(kick_t, phase[(-np.arange(16)) % 16], atol=1e-12)  # g -> -g


def test_binary_oracle_is_a_permutation_adding_F():
    U = binary_oracle_unitary(np.array([3, 1]), 1, 2)
    # |k=1, y=2> (index 1 + 2*2 = 5) -> |k=1, y=3> (index 7)
    assert U[7, 5] == 1 and np.allclose(U @ U.T, np.eye(8))
    with pytest.raises(ValueError):
        binary_oracle_unitary(np.zeros(3, dtype=int), 1, 2)


def test_cosine_noise_gives_bessel_law():
    n, d, h = 4, 2, 1e-3
    g = np.array([0.375, -0.25])
    x0 = np.array([0.2, 0.1])
    S = phase_scale(n, h, 1.0)
    for a in (0.7, 2.404825557695773):
        ph = oracle_phases(lambda X: X @ g, x0, n, h, 1.0, cosine_noise(x0, n, h, a / (2 * np.pi * S)))
        P = numpy_probabilities(ph, d, n).reshape(16, 16)
        assert abs(P[(-2) % 16, 3] - j0(a) ** 2) < 1e-9  # bins m = N g / 2 = (3, -2)


# --------------------------------------------------------------------------- emulator
def test_emulator_matches_aer_on_every_size_both_run():
    rng = np.random.default_rng(2)
    for d in range(1, 5):
        for n in range(1, 12 // d + 1):
            N = 2**n
            ms = rng.uniform(-N / 2, N / 2, size=d)
            pa = aer_probabilities(jordan_circuit(linear_phases(ms, n), d, n))
            assert np.max(np.abs(pa - emulated_probabilities(ms, n))) < 1e-12, (d, n)


def test_fejer_kernel_normalised_and_worst_case_closed_form():
    for N in (2, 16, 1024):
        assert abs(fejer_kernel(0.37 - np.arange(N), N).sum() - 1) < 1e-12
        assert abs(worst_case_success(N) - 2 / (N**2 * np.sin(np.pi / (2 * N)) ** 2)) < 1e-14
    assert abs(worst_case_success(2**30) - 8 / np.pi**2) < 1e-12
    offsets = np.linspace(0, 0.99, 100)
    worst = min(exact_median_success(f, 256, 7) for f in offsets)
    assert abs(worst - exact_median_success(0.5, 256, 7)) < 1e-12


def test_median_success_by_enumeration():
    p_lo, p_hi = 0.1, 0.07
    p_mid = 1 - p_lo - p_hi
    total = 0.0
    for outcome in itertools.product((0, 1, 2), repeat=5):  # below, inside, above
        pr = np.prod([(p_lo, p_mid, p_hi)[o] for o in outcome])
        if np.median(outcome) == 1:
            total += pr
    assert abs(total - median_success(p_lo, p_hi, 5)) < 1e-14


def test_boosting_runs_matches_the_research_table():
    # R(d) at delta = 0.01 from the feasibility study (section A.5), N -> infinity.
    assert [boosting_runs(d, 0.01, 2**30) for d in (1, 4, 16, 64, 256, 4096)] == [7, 9, 11, 13, 17, 21]
    with pytest.raises(ValueError):
        boosting_runs(4, 1.5, 2**10)


def _median_law(m, N, R):
    g = np.arange(-N // 2, N // 2)
    F = np.minimum(np.cumsum(fejer_kernel(m - g, N)), 1.0)
    k = (R + 1) // 2
    return g, np.diff(np.concatenate([[0.0], stats.beta.cdf(F, k, k)]))


@pytest.mark.parametrize("n,m,R", [(6, 3.37, 5), (8, -7.5, 3), (14, 2.2, 3), (20, -11.9, 1)])
def test_median_sampler_follows_order_statistic_law(n, m, R):
    N = 2**n
    rng = np.random.default_rng(3)
    draws = sample_median_outcomes(np.full(40000, m), n, R, rng)
    g, p = _median_law(m, N, R) if N <= 2**14 else _median_law(m, 2**14, R)
    near = np.abs(g - m) < 30
    emp = np.array([np.mean(draws == x) for x in g[near]])
    # 40000 draws: total-variation sampling error ~ sqrt(K / draws) / 2 with K <= 60 outcomes
    assert 0.5 * np.abs(emp - p[near]).sum() < 0.03


def test_sinc_law_total_variation_below_half_over_N():
    for n in (12, 16):
        N = 2**n
        assert N > EXACT_QUANTILE_MAX_N
        for m in (3.37, -7.5, 0.5):
            g = np.arange(-N // 2, N // 2)
            m0 = np.floor(m)
            C = _sinc2_cdf((g - m0).astype(np.int64), np.full(N, m - m0))
            C[-1] = 1.0
            p = np.diff(np.concatenate([[0.0], C]))
            assert 0.5 * np.abs(p - fejer_kernel(m - g, N)).sum() <= 0.5 / N


def test_median_estimate_is_within_one_bin_mostly():
    rng = np.random.default_rng(4)
    grad = np.array([0.01234, -0.3])
    est = np.array([median_gradient_estimate(grad, 20, 1.0, 11, rng) for _ in range(300)])
    assert np.mean(np.all(np.abs(est - grad) <= 2 / 2**20, axis=1)) > 0.97


# --------------------------------------------------------------------------- amplitude estimation
def test_amplitude_estimation_half_and_call_count():
    qc = amplitude_estimation_circuit(0.5, 3)
    assert count_state_preparation_calls(qc) == 2 * (2**3 - 1) + 1
    values, p = estimate_distribution(aer_probabilities(qc), 3)
    # a = 1/2: theta = pi/4, eigenphases +-1/4 of a turn: y = 2 and 6 with probability 1/2 each
    np.testing.assert_allclose(p[[2, 6]], [0.5, 0.5], atol=1e-12)
    np.testing.assert_allclose(values[[2, 6]], [0.5, 0.5], atol=1e-12)
    probs, calls = qae_distributions([0.5, 0.2], 3)
    np.testing.assert_allclose(probs[0], aer_probabilities(qc), atol=1e-12)
    assert calls == 15


def test_classical_median_error_brute_force():
    a, n = 0.3, 4
    errs = np.array([abs(k / n - a) for k in range(n + 1)])
    pmf = stats.binom.pmf(np.arange(n + 1), n, a)
    order = np.argsort(errs)
    expected = errs[order][np.searchsorted(np.cumsum(pmf[order]), 0.5)]
    assert classical_median_abs_error(a, n) == pytest.approx(expected)


# --------------------------------------------------------------------------- SOSP algorithms
def test_ramp_saddle_derivatives_and_sosp_test():
    pr = RampSaddle(4, 0.02, w=0.05)
    rng = np.random.default_rng(5)
    for _ in range(5):
        x = rng.normal(size=4)
        e = 1e-6
        fd = np.array([(pr.value(x + e * v) - pr.value(x - e * v)) / (2 * e) for v in np.eye(4)])
        np.testing.assert_allclose(pr.gradient(x), fd, atol=1e-7)
        assert pr.is_sosp(x) == is_sosp(pr.gradient(x), pr.hessian(x), pr.eps, pr.rho)
    assert not pr.is_sosp(np.zeros(4)) and pr.is_sosp(np.array([0, 0, 0, 1.0]))


def test_gd_without_perturbation_stays_on_saddle_and_pgd_escapes():
    pr = RampSaddle(2, 0.04, w=0.05)
    rng = np.random.default_rng(6)
    plain = perturbed_gd(pr, GradientOracle("first_order"), rng, perturb=False, max_iter=3000)
    assert plain.hit_iteration is None and plain.output[-1] == 0.0
    oracle = quantum_oracle(pr)
    run = perturbed_gd(pr, oracle, rng)
    assert run.hit_iteration is not None and run.output_is_sosp
    # queries: R per gradient plus one per function value (PGD perturbation test)
    assert run.hit_queries >= oracle.runs * run.hit_iteration
    # ramp traversal: at least ell Delta / (4 eps^2) iterations of gradient descent
    assert run.hit_iteration >= pr.ell * pr.delta_f / (4 * pr.eps**2)


def test_pagd_reaches_sosp_faster_than_pgd():
    pr = RampSaddle(2, 0.02, w=0.05)
    a = perturbed_agd(pr, GradientOracle("first_order"), np.random.default_rng(7))
    b = perturbed_gd(pr, GradientOracle("first_order"), np.random.default_rng(7))
    assert a.output_is_sosp and b.output_is_sosp and a.hit_iteration < b.hit_iteration


def test_coarse_quantum_estimator_returns_the_saddle():
    pr = RampSaddle(2, 0.04, w=0.05)
    coarse = GradientOracle("quantum", runs=11, n=12, M=1.0)
    run = perturbed_gd(pr, coarse, np.random.default_rng(8), stop_at_hit=False, max_iter=20000)
    assert not run.output_is_sosp and abs(run.output[-1]) < 1e-3


def test_bad_inputs_raise():
    with pytest.raises(ValueError):
        RampSaddle(1, 0.01)
    with pytest.raises(ValueError):
        jordan_circuit(np.zeros(3), 1, 2)
    with pytest.raises(ValueError):
        sample_median_outcomes(np.array([10.0]), 4, 3, np.random.default_rng(0))
    with pytest.raises(ValueError):
        GradientOracle("classical")


# --------------------------------------------------------------------------- noise robustness
from simulations.quantum import (  # noqa: E402
    bisect_threshold,
    curvature_grid_width,
    escape_trial,
    jordan_circuit_diagram,
    noise_per_bin,
    pgd_log_factor,
    pgd_parameters,
    register_distribution,
    zeroth_order_noise,
)


@pytest.mark.parametrize("K", [1, 3, -2])
def test_sawtooth_of_the_cube_period_shifts_by_integer_bins_on_aer(K):
    """Zeroth-order trap: a sawtooth of period h with 2 S nu = K shifts the Fejer law by exactly K bins."""
    n, h, M = 4, 1e-3, 1.0
    S = phase_scale(n, h, M)
    nu = K / (2 * S)
    m = 2.3
    grad = np.array([2 * M * m / 2**n])
    x0 = np.array([0.123456e-3])

    def saw(points):
        return nu * (2 * np.mod(points[:, 0] / h, 1.0) - 1)

    probs = aer_probabilities(jordan_circuit(oracle_phases(lambda X: X @ grad, x0, n, h, M, saw), 1, n))
    np.testing.assert_allclose(probs, register_distribution(m + K, n), atol=1e-10)


def test_curvature_grid_width_closed_form():
    # pi N ell d h / (8 M) = phase
    h = curvature_grid_width(5, 2.0, 3, 1.0, 0.3)
    assert np.isclose(np.pi * 32 * 2.0 * 3 * h / 8, 0.3)
    p = RampSaddle(2, 0.04)
    o = quantum_oracle(p)
    assert np.isclose(noise_per_bin(p, o), o.M * curvature_grid_width(o.n, p.ell, 2) / 2**o.n)
    assert np.isclose(zeroth_order_noise(0.04, 2, 5), 5 * noise_per_bin(p, o))


def test_bisection_finds_a_step_threshold():
    # deterministic success rate: 1 below 1e-4, 0.4 from there on
    res = bisect_threshold(lambda lvl: (5 if lvl < 1e-4 else 4, 10), 1e-9, 1e-2, steps=40)
    assert res.lower < 1e-4 <= res.upper and res.upper / res.lower < 1.001
    # the two ends were measured first
    assert res.levels[:2] == [1e-2, 1e-9]


def test_bisection_refuses_a_bracket_it_did_not_see_straddle():
    with pytest.raises(ValueError, match="upper level"):
        bisect_threshold(lambda lvl: (10, 10), 1.0, 1024.0, steps=3)
    with pytest.raises(ValueError, match="lower level"):
        bisect_threshold(lambda lvl: (0, 10), 1.0, 1024.0, steps=3)
    res = bisect_threshold(lambda lvl: (10, 10), 1.0, 1024.0, steps=3, check_bracket=False)
    assert len(res.levels) == 3


def test_escape_trial_succeeds_without_noise_and_fails_under_a_large_trap():
    rng = np.random.default_rng(0)
    bin_noise = zeroth_order_noise(0.04, 2, 1)
    assert sum(escape_trial(rng, "first", 0.04, 2, 0.0) for _ in range(10)) == 10
    assert sum(escape_trial(rng, "first", 0.04, 2, 1e-3) for _ in range(10)) == 0
    assert sum(escape_trial(rng, "zeroth", 0.04, 2, 0.0) for _ in range(10)) >= 8
    assert sum(escape_trial(rng, "zeroth", 0.04, 2, 500 * bin_noise) for _ in range(10)) == 0
    with pytest.raises(ValueError):
        escape_trial(rng, "zeroth", 0.04, 2, -1.0)
    with pytest.raises(ValueError):
        escape_trial(rng, "second", 0.04, 2, 0)


def test_zeroth_order_level_plays_the_largest_whole_bin_trap():
    """A budget of 1.9 bins plays the 1-bin trap: same outcomes as exactly 1 bin, same stream."""
    one = zeroth_order_noise(0.04, 2, 1)
    a = [escape_trial(np.random.default_rng(i), "zeroth", 0.04, 2, 1.9 * one) for i in range(6)]
    b = [escape_trial(np.random.default_rng(i), "zeroth", 0.04, 2, one) for i in range(6)]
    assert a == b


def test_factor_slope_of_pgd_chi_squared():
    eps = np.array([0.08, 0.04, 0.02])
    chi = np.array([pgd_parameters(RampSaddle(2, e))["chi"] for e in eps])
    assert np.allclose([pgd_log_factor(e, 2) for e in eps], chi**2)
    slope = factor_slope(1 / eps, chi**2)
    # chi = 3 ln(C / eps^2): d ln chi^2 / d ln(1/eps) = 4 / ln(C/eps^2), between its end values
    C = 2 * 2.0 * 1.0 / 0.1
    ends = 4 / np.log(C / eps**2)
    assert ends.min() <= slope <= ends.max()


def test_circuit_diagram_has_one_oracle_gate():
    import matplotlib

    matplotlib.use("Agg")
    fig = jordan_circuit_diagram({})
    assert fig.axes


def test_pagd_tolerates_a_larger_trap_than_pgd():
    rng = np.random.default_rng(1)
    one = zeroth_order_noise(0.08, 2, 1)
    assert all(escape_trial(rng, "zeroth", 0.08, 2, 1024 * one, "pagd") for _ in range(3))
    assert not any(escape_trial(rng, "zeroth", 0.08, 2, 1024 * one, "pgd") for _ in range(3))
    assert not any(escape_trial(rng, "zeroth", 0.08, 2, 2**17 * one, "pagd") for _ in range(3))


# --------------------------------------------------------------------------- smoothed SGD (claim iii)
def _two_branch_law(a: float, M: int) -> np.ndarray:
    """Outcome law of amplitude estimation over Z_M from the state itself (numpy FFT): after
    Lambda_M(Q) the counting register carries exp(+-2 i theta j) on two orthogonal branches of
    weight 1/2, and the inverse Fourier transform over Z_M is applied to each."""
    theta = np.arcsin(np.sqrt(a))
    j = np.arange(M)
    p = np.zeros(M)
    for sign in (1, -1):
        amp = np.fft.fft(np.exp(sign * 2j * theta * j)) / M  # F_M^{-1}: sum_j e^{-2 pi i j y / M} ...
        p += 0.5 * np.abs(amp) ** 2
    return p


def test_two_branch_law_matches_aer_for_a_power_of_two():
    for a in (0.2, 0.5, 0.731):
        probs, _ = qae_distributions([a], 4)
        _, p_aer = estimate_distribution(probs[0], 4)
        np.testing.assert_allclose(p_aer, _two_branch_law(a, 16), atol=1e-10)


@pytest.mark.parametrize("M", [12, 37, 1500])
def test_qae_single_run_estimates_follow_the_law_over_any_integer_grid(M):
    rng = np.random.default_rng(M)
    a = 0.5 + 0.0137
    law = _two_branch_law(a, M)
    values = np.sin(np.pi * np.arange(M) / M) ** 2
    est = qae_median_estimates(np.full(200000, a), M, 1, rng)
    # compare the laws of the estimate on a few quantiles of its value (values repeat for y, M - y)
    for t in np.quantile(values[law > 1e-4], [0.2, 0.5, 0.8]):
        expected = law[values <= t + 1e-12].sum()
        tv_allowance = 2 / M if M > EXACT_QUANTILE_MAX_N else 0.0  # documented sinc approximation
        assert abs(np.mean(est <= t + 1e-12) - expected) < 5 * np.sqrt(0.25 / est.size) + tv_allowance


def test_qae_grid_size_is_the_least_integer_meeting_the_radius():
    for acc, B in [(0.1, 1.0), (0.0123, 2.0), (1e-3, 2.0)]:
        M = qae_grid_size(acc, B)
        radius = lambda k, B=B: 2 * B * (np.pi / k + np.pi**2 / k**2)  # noqa: E731
        assert radius(M) <= acc < radius(M - 1)
    assert qae_grid_size(0.1, 1.0) != 2 ** int(np.log2(qae_grid_size(0.1, 1.0)))  # not a power of 2
    for acc in (0.0123, 1e-3, 7e-4):  # the least multiple of 4 meeting the radius
        M4 = qae_grid_size(acc, 2.0, 4)
        assert M4 % 4 == 0 and qae_grid_size(acc, 2.0) <= M4 < qae_grid_size(acc, 2.0) + 4


def test_a_zero_mean_is_estimated_exactly_on_a_grid_of_multiples_of_four():
    """The amplitude 1/2 (a zero mean), eigenphase theta = pi/4 at outcome M/4: on a grid M = 0 mod 4
    one run returns it with probability 1 (a grid point); on M = 2 mod 4 it falls half-way between
    two outcomes (4/pi^2 each in the limit) and on M = 1, 3 mod 4 a quarter of a bin off: the
    estimator's law at a saddle then changes with M mod 4."""
    from simulations.quantum.emulator import fejer_kernel

    y = np.arange(1028)
    assert fejer_kernel(1024 / 4 - y[:1024], 1024)[256] == pytest.approx(1.0, abs=1e-12)
    half = fejer_kernel(1026 / 4 - y[:1026], 1026)
    assert np.sort(half)[-2:] == pytest.approx([4 / np.pi**2] * 2, rel=1e-5)
    assert fejer_kernel(1025 / 4 - y[:1025], 1025).max() < 0.9


def test_hoeffding_samples_and_median_runs_by_hand():
    assert hoeffding_samples(0.1, 1.0, 0.05) == 738  # 2 ln(40) / 0.01 = 737.78
    q = 1 - 8 / np.pi**2
    for delta in (0.1, 1e-3):
        R = median_runs(delta)
        tail = lambda r: sum(math.comb(r, k) * q**k * (1 - q) ** (r - k) for k in range(r // 2 + 1, r + 1))  # noqa: E731
        assert R % 2 == 1 and tail(R) <= delta and (R == 1 or tail(R - 2) > delta)
    assert median_runs(1e-3) == 21


def test_smoothed_moments_against_closed_form_and_quad():
    pr = RampSaddle(2, 0.03, w=0.05)
    x, sigma = np.array([0.02, 0.4]), 0.016  # the largest smoothing radius the runs use (eps = 0.05, d = 2)
    mean, var = smoothed_moments(pr, x, sigma, B=100.0)
    z = x[1]
    assert mean[1] == pytest.approx(z**3 + 3 * sigma**2 * z - z, abs=1e-12)  # E[(z + s u)^3 - (z + s u)]
    from scipy.integrate import quad

    def ramp(t):
        u = (x[0] + sigma * t) / pr.w
        return 2 * pr.eps * u / np.sqrt(1 + u * u)

    m0 = quad(lambda t: ramp(t) * stats.norm.pdf(t), -12, 12, points=[-x[0] / sigma])[0]
    v0 = quad(lambda t: (ramp(t) - m0) ** 2 * stats.norm.pdf(t), -12, 12, points=[-x[0] / sigma])[0]
    assert mean[0] == pytest.approx(m0, abs=1e-12)
    assert var[0] == pytest.approx(v0, rel=1e-3)
    clipped, _ = smoothed_moments(pr, np.array([0.0, 3.0]), 0.0, B=2.0)
    assert clipped[1] == 2.0  # 3^3 - 3 = 24 clipped to B


def test_smoothed_sgd_reaches_sosp_and_counts_queries_exactly():
    for estimator in ("quantum", "classical"):
        pr = RampSaddle(2, 0.05, delta_f=0.25, w=0.05)
        run = smoothed_sgd(pr, estimator, np.random.default_rng(3))
        assert run.hit_iteration is not None
        p = smoothing_parameters(pr)
        M, n, R = qae_grid_size(p["accuracy"], 2.0, 4), hoeffding_samples(p["accuracy"], 2.0), 21
        per_step = 2 * R * (2 * M - 1) if estimator == "quantum" else R * n
        assert run.calls_per_step == per_step
        assert run.hit_queries == run.hit_iteration * per_step
        # the ramp of length delta_f / (2 eps) = 2.5 at speed eta * 2 eps = eps per step: ~50 steps
        assert 40 <= run.hit_iteration <= 65


def test_ramp_hitting_factor_closed_form():
    # s(eps) = 2 w eps / (sqrt 3 delta_f) with w = 0.05, delta_f = 0.25
    np.testing.assert_allclose(ramp_hitting_factor([0.04, 0.004], 0.05, 0.25),
                               [1 - 0.004 / (0.25 * np.sqrt(3)), 1 - 0.0004 / (0.25 * np.sqrt(3))],
                               rtol=1e-12)
    with pytest.raises(ValueError):
        ramp_hitting_factor([0.5], 1.0, 0.25)


def test_smoothing_bad_inputs_raise():
    with pytest.raises(ValueError):
        qae_grid_size(0.0, 1.0)
    with pytest.raises(ValueError):
        hoeffding_samples(0.1, 1.0, 1.5)
    with pytest.raises(ValueError):
        median_runs(0.1, success=0.4)
    with pytest.raises(ValueError):
        qae_median_estimates([0.5], 16, 4, np.random.default_rng(0))
    with pytest.raises(ValueError):
        SmoothedMeanEstimator("magic", 0.1, 2.0, 0.01)
    with pytest.raises(ValueError):
        smoothed_moments(RampSaddle(2, 0.05), np.zeros(2), -1.0, 2.0)


def test_budgets_deliver_the_accuracy_and_match_the_circuit_count():
    rng = np.random.default_rng(11)
    acc, B = 0.005, 2.0
    for m in (3, 5):  # 2M - 1 calls per run, as counted on the amplitude-estimation circuit
        est = SmoothedMeanEstimator("quantum", 0.0, B, 2 * B * (np.pi / 2**m + np.pi**2 / 4**m), runs=1)
        assert est.M == 2**m and est.calls_per_step(1) == count_state_preparation_calls(
            amplitude_estimation_circuit(0.5, m))
    M, R = qae_grid_size(acc, B), median_runs(1e-3)
    means = rng.uniform(-0.1, 0.1, size=4000)
    est = 2 * B * qae_median_estimates((means + B) / (2 * B), M, R, rng) - B
    # BHMT Theorem 12 per run (>= 8/pi^2) and the median over R runs: failure <= 1e-3
    assert np.mean(np.abs(est - means) > acc) <= 1e-3 + 3 * np.sqrt(1e-3 / means.size)
    n = hoeffding_samples(acc, B)
    assert n == math.ceil(2 * B * B * math.log(2 / (1 - 8 / np.pi**2)) / acc**2)


def test_a_smaller_perturbation_radius_tolerates_less_first_order_noise():
    """A restoring bias of a tenth of PGD's radius r is escaped from; with the radius 100 times
    smaller the same bias exceeds the perturbation's pull and PGD stays at the saddle."""
    eps, d = 0.04, 2
    b = 0.1 * pgd_parameters(RampSaddle(d, eps))["r"]
    rng = np.random.default_rng(3)
    assert sum(escape_trial(rng, "first", eps, d, b) for _ in range(10)) >= 7
    assert sum(escape_trial(rng, "first", eps, d, b, radius_factor=0.01) for _ in range(10)) == 0


# --------------------------------------------------------------------------- border saddle, batched PGD
from simulations.quantum.noise import first_order_escapes  # noqa: E402


@pytest.mark.parametrize("eps", [0.01, 0.001])
def test_border_saddle_curvature_width_and_hessian_lipschitz(eps):
    """Curvature -ratio sqrt(rho eps) at the saddle, minima at +-s, |f'''| at most rho on the well
    (central differences of the Hessian), and the exact SOSP test at both points."""
    ratio, rho = 8.0, 6.0
    p = RampSaddle.border_saddle(3, eps, ratio, rho)
    assert p.hessian(np.zeros(3))[-1, -1] == pytest.approx(-ratio * math.sqrt(rho * eps), rel=1e-12)
    assert p.rho == pytest.approx(rho, rel=1e-12)
    well = np.array([0.0, 0.0, p.s])
    np.testing.assert_allclose(p.gradient(well), 0.0, atol=1e-14)
    assert p.is_sosp(well) and not p.is_sosp(np.zeros(3))
    z = np.linspace(-p.s, p.s, 2001)
    h = 1e-6 * p.s
    third = [(p.hessian(np.array([0, 0, t + h]))[-1, -1] - p.hessian(np.array([0, 0, t - h]))[-1, -1]) / (2 * h)
             for t in z]
    assert max(abs(v) for v in third) == pytest.approx(rho, rel=1e-6)
    rng = np.random.default_rng(11)
    for _ in range(4):
        x = rng.normal(scale=p.s, size=3)
        fd = np.array([(p.value(x + 1e-7 * v) - p.value(x - 1e-7 * v)) / 2e-7 for v in np.eye(3)])
        np.testing.assert_allclose(p.gradient(x), fd, atol=1e-8)
        assert p.is_sosp(x) == is_sosp(p.gradient(x), p.hessian(x), p.eps, p.rho)
    with pytest.raises(ValueError):
        RampSaddle.border_saddle(3, eps, ratio=1.0)


def test_start_off_the_saddle_sits_in_the_well():
    p = RampSaddle(3, 0.02, s=0.5)
    assert p.start()[-1] == 0.0 and p.start(on_saddle=False)[-1] == 0.5
    assert p.start(on_saddle=False)[0] == -p.delta_f / (2 * p.eps)


@pytest.mark.parametrize(("eps", "d", "level", "radius_factor"),
                         [(0.04, 2, 1.0e-5, 1.0), (0.04, 16, 3.0e-6, 0.5), (0.02, 5, 2.0e-6, 1.0)])
def test_batched_first_order_escapes_agree_in_law_with_the_scalar_runs(eps, d, level, radius_factor):
    """The batched, d-reduced PGD runs against escape_trial (one full d-dimensional PGD run at a
    time): success proportions of 300 and 3000 runs agree within four standard errors."""
    k1 = sum(escape_trial(np.random.default_rng(1000 + i), "first", eps, d, level, radius_factor=radius_factor)
             for i in range(300))
    k2, n2 = first_order_escapes(np.random.default_rng(7), eps, d, level, 3000, radius_factor)
    p = (k1 + k2) / (300 + n2)
    assert 0.05 < p < 0.95  # a level where the success rate is informative
    assert abs(k1 / 300 - k2 / n2) <= 4 * math.sqrt(p * (1 - p) * (1 / 300 + 1 / n2))


def test_batched_first_order_escapes_ends_and_inputs():
    assert first_order_escapes(np.random.default_rng(0), 0.04, 8, 0.0, 50) == (50, 50)
    assert first_order_escapes(np.random.default_rng(0), 0.04, 8, 1e-3, 50) == (0, 50)
    with pytest.raises(ValueError):
        first_order_escapes(np.random.default_rng(0), 0.04, 8, -1.0, 50)


def test_trigamma_against_scipy_polygamma():
    from scipy.special import polygamma

    from simulations.quantum.emulator import trigamma

    x = np.concatenate([np.geomspace(1e-6, 1e8, 20001), np.linspace(1e-9, 3.0, 20000)])
    np.testing.assert_allclose(trigamma(x), polygamma(1, x), rtol=1e-12)
    with pytest.raises(ValueError):
        trigamma(np.array([1.0, 0.0]))
