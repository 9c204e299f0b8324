"""Empirical risk minimisation, certified unlearning by output perturbation, and robust noisy GD.

Objects of Allouah, Kazdan, Guerraoui & Koyejo, "The Utility and Complexity of In- and
Out-of-Distribution Machine Unlearning" (ICLR 2025, arXiv 2412.09119), as read from the
abstract and summary (the exact theorems were not available):

* training: A(D) = argmin F_D + N(0, sigma^2 I), F_D(theta) = (1/n) sum_i h(theta; z_i) + (mu/2)||theta||^2;
* unlearning a forget set F: T gradient steps on F_{D \\ F} warm-started at argmin F_D, then
  N(0, sigma^2 I); certified in the (q, epsilon)-Rényi sense against A(D \\ F);
* the sensitivity it rests on (standard; Chaudhuri, Monteleoni & Sarwate, JMLR 2011, for f = 1):
  ||argmin F_D - argmin F_{D\\F}|| <= 2 f G / (mu n) when every per-sample gradient of h has norm <= G;
* the robust variant for out-of-distribution forget data: gradient descent whose per-sample
  gradients are aggregated by the coordinate-wise trimmed mean.

Losses: logistic h = ln(1 + exp(-y x^T theta)) with labels y in {-1, +1} (gradient norm <= ||x||,
Hessian <= x x^T / 4), and squared h = (x^T theta - y)^2 / 2 (ridge regression).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special


def _check_data(X, y) -> tuple[np.ndarray, np.ndarray]:
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    if X.ndim != 2 or y.shape != (X.shape[0],) or X.shape[0] == 0:
        raise ValueError(f"need X of shape (n, d) and y of shape (n,), got {X.shape} and {y.shape}")
    return X, y


def _check_mu(mu: float) -> float:
    if not mu > 0:
        raise ValueError(f"the regularisation (strong convexity) mu must be positive, got {mu}")
    return float(mu)


# ----------------------------------------------------------------------------- logistic loss
def logistic_gradient(X, y, mu: float, theta) -> np.ndarray:
    """Gradient of F(theta) = mean_i ln(1 + exp(-y_i x_i^T theta)) + mu/2 ||theta||^2, shape (d,)."""
    X, y = _check_data(X, y)
    m = y * (X @ theta)
    return -(X.T @ (y * special.expit(-m))) / X.shape[0] + mu * theta


def logistic_objective(X, y, mu: float, theta) -> float:
    """F(theta) = mean_i ln(1 + exp(-y_i x_i^T theta)) + mu/2 ||theta||^2."""
    X, y = _check_data(X, y)
    return float(np.mean(np.logaddexp(0.0, -y * (X @ theta))) + 0.5 * mu * theta @ theta)


def logistic_erm(X, y, mu: float, tol: float = 1e-13, max_iter: int = 100) -> np.ndarray:
    """Minimiser of the l2-regularised logistic risk by Newton's method.

    Args:
        X: (n, d) features; y: (n,) labels in {-1, +1}; mu > 0.
        tol: stop when the gradient norm is below tol (the distance to the minimiser is then
            below tol / mu by strong convexity).
    Raises:
        ValueError: on malformed data, labels outside {-1, +1}, mu <= 0, or no convergence.
    """
    X, y = _check_data(X, y)
    mu = _check_mu(mu)
    if not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError("logistic labels must be -1 or +1")
    n, d = X.shape
    theta = np.zeros(d)
    for _ in range(max_iter):
        g = logistic_gradient(X, y, mu, theta)
        if np.linalg.norm(g) <= tol:
            return theta
        s = special.expit(y * (X @ theta))
        H = (X.T * (s * (1 - s))) @ X / n + mu * np.eye(d)
        theta = theta - np.linalg.solve(H, g)
    raise ValueError("Newton's method did not converge")


def logistic_smoothness(X, mu: float) -> float:
    """Smoothness constant beta = lambda_max(X^T X) / (4 n) + mu of the logistic risk."""
    X = np.asarray(X, dtype=float)
    return float(np.linalg.eigvalsh(X.T @ X / X.shape[0])[-1] / 4 + _check_mu(mu))


def logistic_gradient_bound(X) -> float:
    """G = max_i ||x_i||: bound on the norm of every per-sample logistic gradient (any theta)."""
    return float(np.max(np.linalg.norm(np.asarray(X, dtype=float), axis=1)))


def gradient_descent(grad, theta0, step: float, n_steps: int) -> np.ndarray:
    """n_steps iterations theta <- theta - step grad(theta) from theta0."""
    if n_steps < 0 or not step > 0:
        raise ValueError("need n_steps >= 0 and step > 0")
    theta = np.array(theta0, dtype=float)
    for _ in range(n_steps):
        theta = theta - step * grad(theta)
    return theta


# ----------------------------------------------------------------------------- certification
def erm_sensitivity_bound(n: int, n_forget: int, gradient_bound: float, mu: float) -> float:
    """2 f G / (mu n): bound on ||argmin F_D - argmin F_{D minus F}|| for f forgotten points of n.

    Derivation: at theta_D, grad F_{D\\F} = (f / (n (n - f))) sum_{retain} grad h - (1/n) sum_F grad h,
    of norm <= 2 f G / n; strong convexity of F_{D\\F} turns it into a distance.
    Raises:
        ValueError: unless 0 <= f < n, G >= 0 and mu > 0.
    """
    if not (0 <= n_forget < n and gradient_bound >= 0):
        raise ValueError(f"need 0 <= f < n and G >= 0, got f={n_forget}, n={n}, G={gradient_bound}")
    return 2 * n_forget * gradient_bound / (_check_mu(mu) * n)


def unlearning_distance_bound(n: int, n_forget: int, gradient_bound: float, mu: float,
                              beta: float, n_steps: int) -> float:
    """(1 - mu/beta)^T 2 f G / (mu n): distance to argmin F_{D\\F} after T warm-started GD steps of size 1/beta.

    GD with step 1/beta on a mu-strongly convex, beta-smooth function contracts the distance to
    the minimiser by (1 - mu/beta) per step (Nesterov 2004, Thm 2.1.15 gives the sharper
    (1 - mu/beta)^(1/2) rate in squared distance; this is its consequence in distance).
    """
    if not beta >= mu:
        raise ValueError(f"the smoothness beta={beta} must be at least mu={mu}")
    return (1 - mu / beta) ** n_steps * erm_sensitivity_bound(n, n_forget, gradient_bound, mu)


def unlearning_noise(n: int, n_forget: int, gradient_bound: float, mu: float, beta: float,
                     n_steps: int, order: float, renyi_epsilon: float) -> float:
    """sigma making warm-started unlearning (order, renyi_epsilon)-Rényi certified.

    sigma = bound sqrt(order / (2 renyi_epsilon)), so that order bound^2 / (2 sigma^2) = renyi_epsilon.
    """
    if not (order > 1 and renyi_epsilon > 0):
        raise ValueError("need order > 1 and renyi_epsilon > 0")
    bound = unlearning_distance_bound(n, n_forget, gradient_bound, mu, beta, n_steps)
    return bound * math.sqrt(order / (2 * renyi_epsilon))


def warm_start_unlearning(X, y, mu: float, theta_trained, forget, n_steps: int,
                          beta: float | None = None, loss: str = "logistic") -> np.ndarray:
    """T gradient steps (size 1/beta) on the retain-set risk, warm-started at the trained minimiser.

    Args:
        forget: indices of the forget set F.
        beta: step size 1/beta (default: the smoothness constant of the retain-set risk).
        loss: ``"logistic"`` or ``"ridge"``.
    Returns:
        The noiseless unlearned parameter (add N(0, sigma^2 I) for the released model).
    Raises:
        ValueError: on an unknown loss.
    """
    X, y = _check_data(X, y)
    keep = np.setdiff1d(np.arange(X.shape[0]), np.asarray(forget, dtype=int))
    Xr, yr = X[keep], y[keep]
    if loss == "logistic":
        grad, smooth = logistic_gradient, logistic_smoothness
    elif loss == "ridge":
        grad, smooth = ridge_gradient, ridge_smoothness
    else:
        raise ValueError(f"unknown loss {loss!r}; use 'logistic' or 'ridge'")
    beta = smooth(Xr, mu) if beta is None else beta
    return gradient_descent(lambda t: grad(Xr, yr, mu, t), theta_trained, 1 / beta, n_steps)


# ----------------------------------------------------------------------------- ridge and robust GD
def ridge_erm(X, y, mu: float) -> np.ndarray:
    """argmin (1/2n) ||X theta - y||^2 + mu/2 ||theta||^2 = (X^T X / n + mu I)^-1 X^T y / n."""
    X, y = _check_data(X, y)
    n, d = X.shape
    return np.linalg.solve(X.T @ X / n + _check_mu(mu) * np.eye(d), X.T @ y / n)


def ridge_gradient(X, y, mu: float, theta) -> np.ndarray:
    """Gradient X^T (X theta - y) / n + mu theta of the ridge risk."""
    X, y = _check_data(X, y)
    return X.T @ (X @ theta - y) / X.shape[0] + mu * theta


def ridge_smoothness(X, mu: float) -> float:
    """Smoothness constant lambda_max(X^T X / n) + mu of the ridge risk (also its exact curvature range top)."""
    X = np.asarray(X, dtype=float)
    return float(np.linalg.eigvalsh(X.T @ X / X.shape[0])[-1] + _check_mu(mu))


def ridge_gradient_bound(theta, x_max: float, y_max: float) -> float:
    """x_max (x_max ||theta|| + y_max): bound on ||(x^T theta - y) x|| over the domain ||x|| <= x_max, |y| <= y_max."""
    if x_max < 0 or y_max < 0:
        raise ValueError("domain radii must be non-negative")
    return float(x_max * (x_max * np.linalg.norm(theta) + y_max))


def ridge_per_sample_gradients(X, y, theta) -> np.ndarray:
    """(x_i^T theta - y_i) x_i for every sample, shape (n, d) (regulariser excluded)."""
    X, y = _check_data(X, y)
    return (X @ theta - y)[:, None] * X


def trimmed_mean(values, trim: int) -> np.ndarray:
    """Coordinate-wise trimmed mean: per column, drop the ``trim`` smallest and largest entries, average.

    Raises:
        ValueError: unless 0 <= 2 trim < number of rows.
    """
    v = np.asarray(values, dtype=float)
    if v.ndim != 2 or not 0 <= 2 * trim < v.shape[0]:
        raise ValueError(f"need a 2-D array with more than 2*trim={2 * trim} rows, got shape {v.shape}")
    s = np.sort(v, axis=0)
    return s[trim: v.shape[0] - trim].mean(axis=0)


def robust_gradient_descent(X, y, mu: float, trim: int, theta0, step: float, n_steps: int,
                            rng: np.random.Generator | None = None, noise: float = 0.0) -> np.ndarray:
    """GD on the ridge risk with per-sample gradients aggregated by the coordinate-wise trimmed mean.

    theta <- theta - step (trimmed_mean_trim(grad h_i(theta)) + mu theta + noise xi), xi ~ N(0, I).
    With trim = 0 this is plain (noisy) gradient descent on the ridge risk.

    Args:
        trim: entries trimmed at each end of every coordinate (>= the number of forget points
            for the robust method).
        rng, noise: Gaussian noise of standard deviation ``noise`` per step (needs rng when > 0).
    """
    X, y = _check_data(X, y)
    if noise > 0 and rng is None:
        raise ValueError("a noisy run needs a random generator")
    if n_steps < 0 or not step > 0:
        raise ValueError("need n_steps >= 0 and step > 0")
    theta = np.array(theta0, dtype=float)
    for _ in range(n_steps):
        g = trimmed_mean(ridge_per_sample_gradients(X, y, theta), trim) + mu * theta
        if noise > 0:
            g = g + noise * rng.standard_normal(theta.shape)
        theta = theta - step * g
    return theta


def iterations_to_reach(update, theta0, target, tolerance: float, max_iter: int = 100_000) -> int:
    """Smallest t with ||update^t(theta0) - target|| <= tolerance (update: theta -> next theta).

    Raises:
        ValueError: when max_iter iterations do not reach the tolerance.
    """
    theta = np.array(theta0, dtype=float)
    target = np.asarray(target, dtype=float)
    for t in range(max_iter + 1):
        if np.linalg.norm(theta - target) <= tolerance:
            return t
        theta = update(theta)
    raise ValueError(f"tolerance {tolerance} not reached in {max_iter} iterations")


# ----------------------------------------------------------------------------- data
def logistic_data(rng: np.random.Generator, n: int, d: int, radius: float = 1.0,
                  signal: float = 3.0) -> tuple[np.ndarray, np.ndarray]:
    """n points uniform in the ball of ``radius`` in R^d, labels y ~ 2 Bernoulli(sigmoid(x^T theta*)) - 1.

    theta* is a random direction scaled to ``signal`` / radius.  Returns (X, y), shapes (n, d), (n,).
    """
    if n < 1 or d < 1 or not radius > 0:
        raise ValueError("need n >= 1, d >= 1 and radius > 0")
    g = rng.standard_normal((n, d))
    X = radius * g / np.linalg.norm(g, axis=1, keepdims=True) * rng.uniform(size=(n, 1)) ** (1 / d)
    theta_star = rng.standard_normal(d)
    theta_star *= signal / (radius * np.linalg.norm(theta_star))
    y = np.where(rng.uniform(size=n) < special.expit(X @ theta_star), 1.0, -1.0)
    return X, y


def ridge_data(rng: np.random.Generator, n: int, d: int, noise: float = 0.1) -> tuple[np.ndarray, np.ndarray]:
    """Gaussian design X (n, d) with N(0, I/d) rows and y = X theta* + noise, ||theta*|| = 1."""
    if n < 1 or d < 1 or noise < 0:
        raise ValueError("need n >= 1, d >= 1 and noise >= 0")
    X = rng.standard_normal((n, d)) / math.sqrt(d)
    theta_star = rng.standard_normal(d)
    theta_star /= np.linalg.norm(theta_star)
    return X, X @ theta_star + noise * rng.standard_normal(n)


# ----------------------------------------------------------------------------- deletion capacity
def sphere_ridge_data(rng: np.random.Generator, n: int, d: int, noise: float = 0.5,
                      feature_scale: float = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Bounded ridge data: rows uniform on the sphere of radius ``feature_scale`` in R^d, labels
    y = x^T theta* + u with u uniform on [-noise, noise] and ||theta*|| = 1.

    The population covariance is E[x x^T] = feature_scale^2 I / d (trace feature_scale^2), the
    per-sample data radius is exactly feature_scale and |y| <= feature_scale + noise.
    Returns (X, y, theta_star), shapes (n, d), (n,), (d,).
    """
    if n < 1 or d < 1 or noise < 0 or not feature_scale > 0:
        raise ValueError("need n >= 1, d >= 1, noise >= 0 and feature_scale > 0")
    g = rng.standard_normal((n, d))
    X = feature_scale * g / np.linalg.norm(g, axis=1, keepdims=True)
    theta_star = rng.standard_normal(d)
    theta_star /= np.linalg.norm(theta_star)
    return X, X @ theta_star + noise * rng.uniform(-1.0, 1.0, size=n), theta_star


def noisy_excess_population_risk(theta_mean, theta_reference, sigma: float, covariance_scale: float,
                                 theta_star) -> float:
    """E_xi[R(theta_mean + xi)] - R(theta_reference) for the population squared loss, exactly.

    R(theta) = E (x^T theta - y)^2 / 2 with E[x x^T] = c I (c = ``covariance_scale``) and
    y = x^T theta* + independent noise, so R(theta) = c ||theta - theta*||^2 / 2 + const and the
    Gaussian noise xi ~ N(0, sigma^2 I_d) adds c d sigma^2 / 2 = sigma^2 tr(E[x x^T]) / 2.
    """
    a, r, s = (np.asarray(v, dtype=float) for v in (theta_mean, theta_reference, theta_star))
    if sigma < 0 or covariance_scale <= 0:
        raise ValueError("need sigma >= 0 and covariance_scale > 0")
    return float(covariance_scale * (np.sum((a - s) ** 2) - np.sum((r - s) ** 2) + a.size * sigma**2) / 2)


def ridge_unlearning_excess(X, y, mu: float, forget, n_steps: int, gradient_bound: float, order: float,
                            renyi_epsilon: float, covariance_scale: float, theta_star) -> float:
    """Excess population risk of the certified unlearned model over the retrained minimiser.

    Trains argmin F_D, unlearns ``forget`` by ``n_steps`` warm-started GD steps of size 1/beta on the
    retain risk, adds the noise of :func:`unlearning_noise` for f = |forget| (certificate
    (order, renyi_epsilon)), and returns :func:`noisy_excess_population_risk` against argmin F_{D minus F}.
    """
    X, y = _check_data(X, y)
    n = X.shape[0]
    forget = np.asarray(forget, dtype=int)
    keep = np.setdiff1d(np.arange(n), forget)
    theta = ridge_erm(X, y, mu)
    beta = ridge_smoothness(X[keep], mu)
    unlearned = warm_start_unlearning(X, y, mu, theta, forget, n_steps, beta, loss="ridge")
    sigma = unlearning_noise(n, forget.size, gradient_bound, mu, beta, n_steps, order, renyi_epsilon)
    return noisy_excess_population_risk(unlearned, ridge_erm(X[keep], y[keep], mu), sigma,
                                        covariance_scale, theta_star)


def deletion_capacity(excess, alpha: float, f_max: int) -> int:
    """Largest f in [0, f_max] with excess(f) <= alpha, by bisection (excess must be nondecreasing in f).

    Deletion capacity (Sekhari et al. 2021): the most forget points an unlearning method can process
    while keeping its excess risk below alpha.  ``excess(0)`` is taken as 0 (nothing to forget).
    Raises:
        ValueError: unless alpha > 0 and f_max >= 0.
    """
    if not alpha > 0 or f_max < 0:
        raise ValueError("need alpha > 0 and f_max >= 0")
    lo, hi = 0, f_max          # invariant: excess(lo) <= alpha; answer in [lo, hi]
    if f_max > 0 and excess(f_max) <= alpha:
        return f_max
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if excess(mid) <= alpha:
            lo = mid
        else:
            hi = mid
    return lo
