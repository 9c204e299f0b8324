"""Certified unlearning by noisy minimiser approximation (in- and out-of-distribution forget data).

Objects of Allouah, Kazdan, Guerraoui & Koyejo, "The Utility and Complexity of In- and
Out-of-Distribution Machine Unlearning" (ICLR 2025, arXiv 2412.09119), Algorithms 1 and 2 as far
as public sources describe them ("Unlearning via Noisy Minimizer Approximation"; "Unlearning via
Robust Training and Noisy Minimizer Approximation"; the unlearned model is brought within a
distance Delta of the retain-set minimiser, then released with Gaussian noise; utility is the
excess empirical risk on the retain set).  The constants below are our reconstruction:

* domain constants of ridge regression over ||x|| <= x_max, |y| <= y_max: every minimiser has
  ||theta|| <= x_max y_max / mu, every per-sample gradient there has norm <= G = x_max (x_max R + y_max),
  and the risk is beta = x_max^2 + mu smooth;
* utility radius: with noise sigma^2 = q Delta^2 / (2 eps) (so the Rényi divergence of order q
  between the released model and the retrained one, theta*_{retain} + N(0, sigma^2 I), is at
  most eps), the excess risk is at most beta Delta^2 / 2 + beta d sigma^2 / 2; Delta is the
  largest radius keeping this <= alpha;
* a-priori unlearning steps (in-distribution): ||theta_S - theta*_{retain}|| <= 2 f G / (mu n)
  contracts by (1 - mu/beta) per gradient step of size 1/beta;
* a-posteriori stopping (out-of-distribution, no bound on G): gradient descent stops when
  ||grad F_retain|| <= mu Delta, which certifies the distance by strong convexity.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from .erm import (
    _check_data,
    _check_mu,
    ridge_erm,
    ridge_per_sample_gradients,
    robust_gradient_descent,
    trimmed_mean,
)


# ----------------------------------------------------------------------------- domain constants
def ridge_domain_constants(x_max: float, y_max: float, mu: float) -> dict[str, float]:
    """Data-independent constants of ridge regression F = (1/2n)||X theta - y||^2 + mu/2 ||theta||^2
    over the domain ||x|| <= x_max, |y| <= y_max.

    Returns:
        ``{"radius": x_max y_max / mu`` (bound on the norm of every minimiser),
        ``"gradient": x_max (x_max radius + y_max)`` (bound G on every per-sample gradient at a
        minimiser), ``"smoothness": x_max^2 + mu`` (beta)``}``.
    Raises:
        ValueError: on negative radii or mu <= 0.
    """
    if x_max < 0 or y_max < 0:
        raise ValueError(f"domain radii must be non-negative, got x_max={x_max}, y_max={y_max}")
    mu = _check_mu(mu)
    radius = x_max * y_max / mu
    return {"radius": radius, "gradient": x_max * (x_max * radius + y_max), "smoothness": x_max**2 + mu}


def utility_radius(alpha: float, smoothness: float, dim: int, order: float, renyi_epsilon: float) -> float:
    """Largest Delta with smoothness Delta^2/2 + smoothness dim sigma^2/2 <= alpha, sigma^2 = order Delta^2/(2 eps).

    That is Delta^2 = 2 alpha / (smoothness (1 + dim order / (2 eps))).
    Raises:
        ValueError: on non-positive arguments or order <= 1.
    """
    if not (alpha > 0 and smoothness > 0 and dim >= 1 and order > 1 and renyi_epsilon > 0):
        raise ValueError("need alpha, smoothness, renyi_epsilon > 0, dim >= 1 and order > 1")
    return math.sqrt(2 * alpha / (smoothness * (1 + dim * order / (2 * renyi_epsilon))))


def noise_for_radius(radius: float, order: float, renyi_epsilon: float) -> float:
    """sigma = radius sqrt(order / (2 eps)): Gaussians whose means lie within ``radius`` have D_order <= eps."""
    if not (radius >= 0 and order > 1 and renyi_epsilon > 0):
        raise ValueError("need radius >= 0, order > 1 and renyi_epsilon > 0")
    return radius * math.sqrt(order / (2 * renyi_epsilon))


def apriori_unlearning_steps(n: int, n_forget: int, gradient_bound: float, mu: float, smoothness: float,
                             radius: float) -> int:
    """Fewest steps T with (1 - mu/beta)^T 2 f G / (mu n) <= radius (0 when already within)."""
    if not (0 <= n_forget < n and gradient_bound >= 0 and radius > 0 and smoothness >= mu > 0):
        raise ValueError("need 0 <= f < n, G >= 0, radius > 0 and beta >= mu > 0")
    start = 2 * n_forget * gradient_bound / (mu * n)
    if start <= radius:
        return 0
    if smoothness == mu:
        return 1
    return math.ceil(math.log(start / radius) / -math.log1p(-mu / smoothness))


# ----------------------------------------------------------------------------- instances
def aligned_ridge_instance(n: int, dim: int, n_forget: int, axis_fraction: float,
                           y_max: float = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Neighbouring ridge datasets where the sensitivity bound 2 f G / (mu n) nearly binds.

    A fraction ``axis_fraction`` of the n points sit at x = e_1; the first f of them (the forget
    set) have label -y_max, the others +y_max, so every retain gradient at the trained model
    points one way along e_1 and every forget gradient the other way.  The remaining points sit
    at x = e_2 with label 0: they raise the smoothness (along e_2) without moving the minimiser, so
    gradient steps of size 1/beta contract the e_1 error by little more than (1 - mu/beta).

    Returns:
        (X, y, forget): shapes (n, dim), (n,), (f,); every ||x|| = 1 and |y| <= y_max.
    Raises:
        ValueError: unless dim >= 2, 1 <= f and f + 1 <= round(axis_fraction n) <= n - 1.
    """
    n_axis = int(round(axis_fraction * n))
    if dim < 2 or n_forget < 1 or not n_forget + 1 <= n_axis <= n - 1:
        raise ValueError(f"need dim >= 2 and f + 1 <= round(axis_fraction n) <= n - 1, got dim={dim}, "
                         f"f={n_forget}, n_axis={n_axis}, n={n}")
    X = np.zeros((n, dim))
    X[:n_axis, 0] = 1.0
    X[n_axis:, 1] = 1.0
    y = np.zeros(n)
    y[:n_axis] = y_max
    y[:n_forget] = -y_max
    return X, y, np.arange(n_forget)


def coordinate_ridge_instance(rng: np.random.Generator, n: int, dim: int,
                              y_max: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Isotropic bounded ridge data: x_i = +-e_{i mod dim} (so X^T X / n = I / dim when dim divides n),
    labels uniform on [-y_max, y_max].  Returns (X, y), shapes (n, dim), (n,)."""
    if n < 1 or dim < 1 or y_max < 0:
        raise ValueError("need n >= 1, dim >= 1 and y_max >= 0")
    X = np.zeros((n, dim))
    X[np.arange(n), np.arange(n) % dim] = rng.choice((-1.0, 1.0), size=n)
    return X, rng.uniform(-y_max, y_max, size=n)


# ----------------------------------------------------------------------------- risks and descent
def ridge_hessian(X, mu: float) -> np.ndarray:
    """Hessian X^T X / n + mu I of the ridge risk, shape (d, d)."""
    X = np.asarray(X, dtype=float)
    return X.T @ X / X.shape[0] + _check_mu(mu) * np.eye(X.shape[1])


def ridge_noisy_excess_risk(X, y, mu: float, theta_mean, sigma: float) -> float:
    """E_xi[F(theta_mean + xi)] - min F for xi ~ N(0, sigma^2 I), exactly (F quadratic):
    (theta_mean - theta*)^T H (theta_mean - theta*) / 2 + sigma^2 tr(H) / 2."""
    X, y = _check_data(X, y)
    if sigma < 0:
        raise ValueError("sigma must be non-negative")
    H = ridge_hessian(X, mu)
    e = np.asarray(theta_mean, dtype=float) - ridge_erm(X, y, mu)
    return float(e @ H @ e / 2 + sigma**2 * np.trace(H) / 2)


def descend_until_certified(X, y, mu: float, theta0, radius: float, step: float,
                            max_iter: int = 100_000) -> tuple[np.ndarray, int]:
    """Gradient descent on the ridge risk from theta0 until ||grad F|| <= mu radius.

    Strong convexity then certifies ||theta - argmin F|| <= radius.
    Returns:
        (theta, iterations).
    Raises:
        ValueError: when max_iter steps do not reach the criterion.
    """
    X, y = _check_data(X, y)
    mu = _check_mu(mu)
    if not (radius > 0 and step > 0):
        raise ValueError("need radius > 0 and step > 0")
    n = X.shape[0]
    A, b = X.T @ X / n + mu * np.eye(X.shape[1]), X.T @ y / n
    theta = np.array(theta0, dtype=float)
    for t in range(max_iter + 1):
        g = A @ theta - b
        if np.linalg.norm(g) <= mu * radius:
            return theta, t
        theta = theta - step * g
    raise ValueError(f"the certified radius {radius:g} was not reached in {max_iter} gradient steps")


def trimmed_mean_distance_bound(X_retain, y_retain, mu: float, theta, n_total: int, trim: int) -> float:
    """Distance from a fixed point of trimmed-mean ridge GD to the retain minimiser, bounded from the retain data only.

    Lemma (ours): if at most f <= trim of the n_total points are not retain points, the coordinate-wise
    trimmed mean of any values lies between the mean of the n_total - 2 trim smallest and the mean of
    the n_total - 2 trim largest retain values (the r-th largest kept value is at most the (r - trim)-th
    largest retain value).  At a fixed point theta of trimmed-mean GD (trimmed mean of the per-sample
    loss gradients + mu theta = 0), the retain gradient is therefore a vector g with |g_j| <= dev_j,
    dev_j the larger distance of those two means from the retain mean, and theta - theta* = H^-1 g;
    the bound is max ||H^-1 g|| over that box (attained at a vertex; all 2^d are enumerated).  It
    uses neither the forget points' labels nor their positions, except through theta.

    Args:
        X_retain, y_retain: the retain points, shapes (m, d), (m,).
        mu: l2 regularisation (> 0).
        theta: the point (shape (d,)) at which the retain gradients are evaluated.
        n_total: number of points the trimmed mean was taken over (>= m).
        trim: entries trimmed at each end (the lemma needs trim >= n_total - m).
    Raises:
        ValueError: on n_total < m, a negative trim, n_total - 2 trim < 1 or d > 20.
    """
    X, y = _check_data(X_retain, y_retain)
    mu = _check_mu(mu)
    m, dim = X.shape
    kept = n_total - 2 * trim
    if n_total < m or trim < 0 or kept < 1 or dim > 20:
        raise ValueError(f"need n_total >= m = {m}, trim >= 0, n_total - 2 trim >= 1 and d <= 20, got "
                         f"n_total={n_total}, trim={trim}, d={dim}")
    kept = min(kept, m)
    grads = np.sort(ridge_per_sample_gradients(X, y, np.asarray(theta, dtype=float)), axis=0)
    mean = grads.mean(axis=0)
    dev = np.maximum(grads[-kept:].mean(axis=0) - mean, mean - grads[:kept].mean(axis=0))
    inverse = np.linalg.inv(ridge_hessian(X, mu))
    return float(max(np.linalg.norm(inverse @ (np.array(signs) * dev))
                     for signs in itertools.product((-1.0, 1.0), repeat=dim)))


def robust_noisy_unlearning(X, y, forget, mu: float, trim: int, alpha: float, order: float,
                            renyi_epsilon: float, train_steps: int, smoothness: float | None = None,
                            noise_factor: float = 1.0, start_offset: float = 0.0) -> dict[str, float]:
    """Algorithm 2 (robust training and noisy minimiser approximation) on ridge regression, exactly.

    Learning: gradient descent from 0 whose per-sample gradients are aggregated by the
    coordinate-wise trimmed mean (``trim`` at each end), ``train_steps`` steps of size 1/beta.
    Unlearning the forget set: plain gradient descent on the retain risk from the robust model
    until ||grad|| <= mu Delta (Delta = :func:`utility_radius` with beta the retain risk's
    smoothness), then Gaussian noise sigma = Delta sqrt(q / (2 eps)) (times ``noise_factor``, 1 for
    the method).  Reference (retraining): argmin of the retain risk plus the same noise.
    ``start_offset`` (0 for the method) adds that amount to every coordinate of the trained model
    before unlearning starts: a deliberately wrong start, for controls that must notice it.

    The certificate rests on two inequalities, whose slack is returned factor by factor:
    ||theta_U - theta*|| <= ||grad F(theta_U)|| / mu (strong convexity; equality when the error
    lies along a direction of curvature exactly mu) and ||grad F(theta_U)|| <= mu Delta (the
    stopping rule; equality when the last step lands on the threshold).  With noise_factor 1,
    divergence / eps = (strong_convexity_factor * stopping_factor)^2.

    Returns:
        dict with ``divergence`` (D_q of the two released Gaussians, exact), ``excess_risk``
        (expected excess retain risk of the released model, exact), ``unlearning_steps``,
        ``retraining_steps`` (the same descent from 0), ``radius`` (Delta), ``sigma`` (the
        released noise), ``start_distance`` (||theta_trained - theta*||, theta_trained the model
        unlearning starts from), ``start_distance_bound`` (:func:`trimmed_mean_distance_bound` at the
        robust model), ``training_residual`` (norm of the trimmed-mean gradient at the robust model:
        0 at a fixed point), ``distance``
        (||theta_U - theta*||), ``strong_convexity_factor`` (mu distance / ||grad F(theta_U)||, in
        (0, 1]), ``stopping_factor`` (||grad F(theta_U)|| / (mu Delta), in [0, 1]) and
        ``curvature_ratio`` (mu / lambda_min of the retain Hessian: the largest the strong-convexity
        factor can be).
    Raises:
        ValueError: on a non-positive ``noise_factor``, a non-finite ``start_offset`` (and as the
        functions called).
    """
    if not noise_factor > 0:
        raise ValueError(f"noise_factor must be positive (1 = the calibrated noise), got {noise_factor}")
    if not math.isfinite(start_offset):
        raise ValueError(f"start_offset must be finite (0 = the trained model), got {start_offset}")
    X, y = _check_data(X, y)
    n, dim = X.shape
    keep = np.setdiff1d(np.arange(n), np.asarray(forget, dtype=int))
    Xr, yr = X[keep], y[keep]
    beta = float(np.linalg.eigvalsh(ridge_hessian(Xr, mu))[-1]) if smoothness is None else smoothness
    step = 1.0 / beta
    robust = robust_gradient_descent(X, y, mu, trim, np.zeros(dim), step, train_steps)
    trained = robust + start_offset
    radius = utility_radius(alpha, beta, dim, order, renyi_epsilon)
    sigma = noise_factor * noise_for_radius(radius, order, renyi_epsilon)
    hessian = ridge_hessian(Xr, mu)
    target = np.linalg.solve(hessian, Xr.T @ yr / Xr.shape[0])
    unlearned, t_u = descend_until_certified(Xr, yr, mu, trained, radius, step)
    _, t_r = descend_until_certified(Xr, yr, mu, np.zeros(dim), radius, step)
    distance = float(np.linalg.norm(unlearned - target))
    gradient = float(np.linalg.norm(hessian @ unlearned - Xr.T @ yr / Xr.shape[0]))
    return {"divergence": order * distance**2 / (2 * sigma**2),
            "excess_risk": ridge_noisy_excess_risk(Xr, yr, mu, unlearned, sigma),
            "unlearning_steps": t_u, "retraining_steps": t_r, "radius": radius, "sigma": sigma,
            "start_distance": float(np.linalg.norm(trained - target)), "distance": distance,
            "start_distance_bound": trimmed_mean_distance_bound(Xr, yr, mu, robust, n, trim),
            "training_residual": float(np.linalg.norm(trimmed_mean(ridge_per_sample_gradients(X, y, robust), trim)
                                                      + mu * robust)),
            "strong_convexity_factor": mu * distance / gradient if gradient > 0 else 1.0,
            "stopping_factor": gradient / (mu * radius),
            "curvature_ratio": mu / float(np.linalg.eigvalsh(hessian)[0])}
