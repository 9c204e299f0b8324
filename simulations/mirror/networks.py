r"""Wide shallow univariate networks trained by mirror descent, and their infinite-width limits.

The network is :math:`f(x;\theta) = n^{-1/2}\sum_{k=1}^n a_k\,\sigma(w_k x - b_k) + d` with
:math:`\sigma` the ReLU or the absolute value, initialised as in Liang & Montufar, "Implicit Bias of
Mirror Flow for Shallow Neural Networks in Univariate Regression" (ICLR 2025, arXiv:2410.03988),
Figure 1: output weights and bias zero, input biases uniform on :math:`[-B, B]`, input weights
:math:`\pm 1` (half each).  Mirror descent with a separable potential
:math:`\Phi(\theta) = \sum_j \phi(\theta_j - \hat\theta_j)` (*unscaled*) or
:math:`\Phi(\theta) = \sum_j n^{-1}\phi(\sqrt n(\theta_j - \hat\theta_j))` (*scaled*) updates
:math:`\nabla\Phi(\theta_{t+1}) = \nabla\Phi(\theta_t) - \eta\nabla L(\theta_t)` on the squared loss
:math:`L = \frac12\sum_i (f(x_i) - y_i)^2`.  The NTK parametrisation (the factor :math:`n^{-1/2}`) and
the form of the scaled potential are our reading of the paper.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["POTENTIALS", "MirrorRun", "Potential", "abs_kernel_interpolant", "bregman_limit", "init_network",
           "kernel_interpolant", "mirror_descent", "network_output", "relu_kernel", "variational_solution"]


@dataclass(frozen=True)
class Potential:
    """A strictly convex even potential :math:`\\phi` with :math:`\\phi'(0) = 0`, its derivative and
    the inverse of the derivative.

    Attributes:
        name: for reports.
        grad: :math:`\\phi'`, elementwise.
        grad_inverse: :math:`(\\phi')^{-1}`, elementwise.
        curvature0: :math:`\\phi''(0)`.
    """

    name: str
    grad: object
    grad_inverse: object
    curvature0: float


def _cubic_root_inverse(y: np.ndarray, a: float) -> np.ndarray:
    """Solve a u^3 + 2u = y (a > 0) by Cardano's formula (one real root)."""
    y = np.asarray(y, dtype=float)
    p, q = 2.0 / a, -y / a
    disc = np.sqrt((q / 2) ** 2 + (p / 3) ** 3)
    return np.cbrt(-q / 2 + disc) + np.cbrt(-q / 2 - disc)


def _quad_abs_inverse(y: np.ndarray) -> np.ndarray:
    """Solve 3u|u| + 2u = y: u = sign(y)(-2 + sqrt(4 + 12|y|))/6."""
    y = np.asarray(y, dtype=float)
    return np.sign(y) * (-2.0 + np.sqrt(4.0 + 12.0 * np.abs(y))) / 6.0


POTENTIALS = {
    "x^2": Potential("x^2", lambda u: 2.0 * np.asarray(u), lambda y: 0.5 * np.asarray(y), 2.0),
    "|x|^3+x^2": Potential("|x|^3+x^2", lambda u: 3.0 * np.asarray(u) * np.abs(u) + 2.0 * np.asarray(u),
                           _quad_abs_inverse, 2.0),
    "x^4+x^2": Potential("x^4+x^2", lambda u: 4.0 * np.asarray(u) ** 3 + 2.0 * np.asarray(u),
                         lambda y: _cubic_root_inverse(y, 4.0), 2.0),
}
"""The three unscaled potentials of the paper's Figure 1: :math:`x^2`, :math:`|x|^3 + x^2`, :math:`x^4 + x^2`."""


def _activation(name: str):
    if name == "relu":
        return lambda z: np.maximum(z, 0.0), lambda z: (z > 0).astype(float)
    if name == "abs":
        return np.abs, np.sign
    raise ValueError(f"activation must be 'relu' or 'abs', not {name!r}")


def init_network(rng: np.random.Generator, width: int, bias_range: float) -> dict:
    """The initial parameters: a = 0, d = 0, w = +-1 (half each, in random order), b ~ U[-B, B].

    Raises:
        ValueError: for a width below 2 or a non-positive B.
    """
    if width < 2 or bias_range <= 0:
        raise ValueError("width must be >= 2 and the bias range B > 0")
    w = np.where(rng.permutation(width) % 2 == 0, 1.0, -1.0)
    b = rng.uniform(-bias_range, bias_range, size=width)
    return {"a": np.zeros(width), "w": w, "b": b, "d": 0.0}


def network_output(params: dict, x: np.ndarray, activation: str = "relu") -> np.ndarray:
    """:math:`f(x) = n^{-1/2}\\sum_k a_k\\sigma(w_k x - b_k) + d` at the points ``x`` (shape ``(m,)``)."""
    act, _ = _activation(activation)
    x = np.asarray(x, dtype=float)
    n = params["a"].size
    pre = np.outer(x, params["w"]) - params["b"]
    return act(pre) @ params["a"] / np.sqrt(n) + params["d"]


@dataclass
class MirrorRun:
    """The result of :func:`mirror_descent`: final parameters, steps taken, final loss and the
    largest displacement of any parameter from its initial value."""

    params: dict
    steps: int
    loss: float
    displacement: float


def mirror_descent(params0: dict, x: np.ndarray, y: np.ndarray, potential: Potential, step: float,
                   scaled: bool = False, activation: str = "relu", train_bias: bool = True,
                   train_hidden: bool = True, tol: float = 1e-10, max_steps: int = 200_000) -> MirrorRun:
    """Mirror descent on every parameter (a, w, b and, with ``train_bias``, d) until the loss is
    below ``tol`` times its initial value.

    The dual variable :math:`\\nabla\\Phi(\\theta)` is updated and mapped back through
    :math:`(\\phi')^{-1}`; with ``scaled``, :math:`\\nabla\\Phi(\\theta) = n^{-1/2}\\phi'(\\sqrt n(\\theta - \\hat\\theta))`.

    Args:
        params0: initial parameters from :func:`init_network`.
        x, y: training data ``(m,)``.
        potential: a :class:`Potential`.
        step: step size eta.
        scaled: the scaled potential instead of the unscaled one.
        activation: ``"relu"`` or ``"abs"``.
        train_bias: train the output bias d (else it stays 0).
        train_hidden: train the input weights and biases (else only the output layer).
        tol: relative loss at which to stop.
        max_steps: give up after this many steps.

    Returns:
        a :class:`MirrorRun`.

    Raises:
        RuntimeError: when the loss has not reached the tolerance after ``max_steps`` or diverges.
    """
    act, dact = _activation(activation)
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    n = params0["a"].size
    root = np.sqrt(n)
    hat = np.concatenate([params0["a"], params0["w"], params0["b"], [params0["d"]]])
    theta = hat.copy()
    mask = np.ones_like(theta)
    if not train_bias:
        mask[-1] = 0.0
    if not train_hidden:
        mask[n:3 * n] = 0.0
    if scaled:
        grad_phi = lambda u: potential.grad(root * u) / root  # noqa: E731
        grad_phi_inv = lambda z: potential.grad_inverse(root * z) / root  # noqa: E731
    else:
        grad_phi, grad_phi_inv = potential.grad, potential.grad_inverse
    dual = grad_phi(theta - hat)
    loss0 = None
    for t in range(max_steps + 1):
        a, w, b, d = theta[:n], theta[n:2 * n], theta[2 * n:3 * n], theta[-1]
        pre = np.outer(x, w) - b  # (m, n)
        h = act(pre)
        r = h @ a / root + d - y
        loss = 0.5 * float(r @ r)
        if loss0 is None:
            loss0 = max(loss, 1e-300)
        if not np.isfinite(loss) or loss > 1e6 * loss0:
            raise RuntimeError(f"mirror descent diverged at step {t} (loss {loss:g}); lower the step size")
        if loss <= tol * loss0:
            disp = float(np.max(np.abs(theta[:-1] - hat[:-1])))
            return MirrorRun({"a": a.copy(), "w": w.copy(), "b": b.copy(), "d": float(d)}, t, loss, disp)
        g_pre = (r[:, None] * dact(pre)) * a / root  # dL/dpre (m, n)
        grad = np.concatenate([h.T @ r / root, g_pre.T @ x, -g_pre.sum(axis=0), [r.sum()]]) * mask
        dual = dual - step * grad
        theta = hat + grad_phi_inv(dual)
    raise RuntimeError(f"mirror descent did not reach relative loss {tol:g} in {max_steps} steps")


def relu_kernel(x: np.ndarray, z: np.ndarray, bias_range: float, constant: float = 1.0) -> np.ndarray:
    """:math:`K(x, z) = E_{w,b}[\\sigma(wx - b)\\sigma(wz - b)] + c` for :math:`w = \\pm1` (probability
    1/2 each), :math:`b \\sim U[-B, B]`, ReLU :math:`\\sigma`, in closed form (our integration).

    For w = +1 the integrand is :math:`(x - b)(z - b)` for :math:`b < \\min(x, z)`; w = -1 mirrors
    the points.  Valid for any real x, z.

    Returns:
        array ``(len(x), len(z))``.
    """
    x = np.asarray(x, dtype=float)[:, None]
    z = np.asarray(z, dtype=float)[None, :]
    B = float(bias_range)

    def one_side(x: np.ndarray, z: np.ndarray) -> np.ndarray:
        top = np.clip(np.minimum(x, z), -B, B)  # integrate b from -B to top
        lo = -B
        val = (x * z * (top - lo) - (x + z) * (top**2 - lo**2) / 2 + (top**3 - lo**3) / 3) / (2 * B)
        return val

    return 0.5 * (one_side(x, z) + one_side(-x, -z)) + constant


def kernel_interpolant(x_train: np.ndarray, y_train: np.ndarray, x_eval: np.ndarray, bias_range: float,
                       constant: float = 1.0) -> np.ndarray:
    """The minimum-norm interpolant of the kernel of :func:`relu_kernel` (the infinite-width limit
    of gradient flow from a = d = 0 in the NTK parametrisation) at ``x_eval``."""
    K = relu_kernel(x_train, x_train, bias_range, constant)
    c = np.linalg.solve(K, np.asarray(y_train, dtype=float))
    return relu_kernel(x_eval, x_train, bias_range, constant) @ c


def _feature_quadrature(activation: str, bias_range: float, nodes: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Quadrature of the initialisation law: (w, b, weights) for w = +-1 (1/2 each), b ~ U[-B, B],
    by the midpoint rule on ``nodes`` cells per sign (exact for the kinked integrands up to O(h^2))."""
    h = 2.0 * bias_range / nodes
    b = -bias_range + h * (np.arange(nodes) + 0.5)
    w = np.concatenate([np.ones(nodes), -np.ones(nodes)])
    return w, np.concatenate([b, b]), np.full(2 * nodes, 0.5 / nodes)


def bregman_limit(x_train: np.ndarray, y_train: np.ndarray, x_eval: np.ndarray, potential: Potential,
                  bias_range: float, activation: str = "abs", nodes: int = 20000,
                  tol: float = 1e-12) -> np.ndarray:
    """The infinite-width limit of scaled-potential mirror descent on the output layer:
    :math:`g = E[u(w,b)\\sigma(w\\cdot - b)]` with :math:`u` minimising :math:`E[\\phi(u)]` subject to
    :math:`g(x_i) = y_i` (the Bregman projection of the initialisation u = 0; Gunasekar, Lee, Soudry &
    Srebro 2018 for the finite linear model).  Solved in the dual: :math:`u = (\\phi')^{-1}(\\sum_i
    \\lambda_i\\sigma(w x_i - b))`, with Newton's method on the m multipliers :math:`\\lambda` and the
    initialisation law by quadrature (:func:`_feature_quadrature`).

    Returns:
        g at ``x_eval``.

    Raises:
        RuntimeError: when Newton's method does not converge.
    """
    act, _ = _activation(activation)
    w, b, q = _feature_quadrature(activation, bias_range, nodes)
    H = act(np.outer(np.asarray(x_train, dtype=float), w) - b)  # (m, N)
    y = np.asarray(y_train, dtype=float)
    lam = np.linalg.solve((H * q) @ H.T * potential.curvature0 ** -1, y)  # the quadratic (kernel) start
    eps = 1e-7
    for _ in range(100):
        z = lam @ H
        u = potential.grad_inverse(z)
        r = (H * q) @ u - y
        if np.max(np.abs(r)) <= tol * max(1.0, np.max(np.abs(y))):
            break
        du = (potential.grad_inverse(z + eps) - potential.grad_inverse(z - eps)) / (2 * eps)  # 1/phi''(u)
        J = (H * (q * du)) @ H.T
        lam = lam - np.linalg.solve(J, r)
    else:
        raise RuntimeError("Newton's method for the dual multipliers did not converge")
    E = act(np.outer(np.asarray(x_eval, dtype=float), w) - b)
    return (E * q) @ u


def abs_kernel_interpolant(x_train: np.ndarray, y_train: np.ndarray, x_eval: np.ndarray, bias_range: float,
                           nodes: int = 20000) -> np.ndarray:
    """The minimum-norm interpolant of :math:`K(x, z) = E[|wx - b||wz - b|]` (quadrature), the kernel
    (gradient-flow) limit of the absolute-value network without output bias."""
    w, b, q = _feature_quadrature("abs", bias_range, nodes)
    H = np.abs(np.outer(np.asarray(x_train, dtype=float), w) - b)
    c = np.linalg.solve((H * q) @ H.T, np.asarray(y_train, dtype=float))
    E = np.abs(np.outer(np.asarray(x_eval, dtype=float), w) - b)
    return (E * q) @ H.T @ c


def variational_solution(x_train: np.ndarray, y_train: np.ndarray, x_eval: np.ndarray, bias_range: float,
                         cells: int = 4000) -> np.ndarray:
    """The solution of the function-space problem that characterises the infinite-width limit of
    (mirror) gradient flow on the ReLU network from a = d = 0 with input biases U[-B, B], w = +-1:

    .. math:: \\min_g\\ \\frac{1}{p_B}\\int_{-B}^{B} g''(x)^2\\,dx + \\big(g'(+\\infty) + g'(-\\infty)\\big)^2
              + \\frac{12}{12 + B^2}\\Big(g(0) - \\frac12\\int |x| g''(x)\\,dx\\Big)^2
              \\quad\\text{s.t. } g(x_i) = y_i,

    with :math:`p_B = 1/(2B)` and g affine outside :math:`[-B, B]`: a curvature penalty weighted by the
    inverse density of the initial biases, plus two terms for the affine part (our derivation of the
    RKHS norm of the limit kernel in function space, the form of the paper's Theorem 2 for uniform
    biases; the unit tests check it against :func:`kernel_interpolant`).  Discretised by finite
    differences on ``cells`` equal cells of :math:`[-B, B]` and solved through its KKT system;
    evaluated by linear interpolation (error :math:`O(h^2)`).

    Raises:
        ValueError: when a training point is not a grid node or lies outside [-B, B].
    """
    B = float(bias_range)
    h = 2 * B / cells
    t = -B + h * np.arange(cells + 1)
    x_train = np.asarray(x_train, dtype=float)
    idx = np.rint((x_train + B) / h).astype(int)
    if np.any(np.abs(t[np.clip(idx, 0, cells)] - x_train) > 1e-9 * max(B, 1.0)) or np.any(np.abs(x_train) > B):
        raise ValueError("training points must be grid nodes inside [-B, B]: choose cells so that they are")
    N = cells + 1
    D2 = np.zeros((cells - 1, N))  # second differences at interior nodes
    rows = np.arange(cells - 1)
    D2[rows, rows] = 1.0
    D2[rows, rows + 1] = -2.0
    D2[rows, rows + 2] = 1.0
    D2 /= h**2
    s_row = np.zeros(N)  # g'(B) + g'(-B) by one-sided differences
    s_row[[cells - 1, cells]] = [-1.0 / h, 1.0 / h]
    s_row[[0, 1]] += [-1.0 / h, 1.0 / h]
    t_row = np.zeros(N)  # g(0) - 1/2 int |x| g'' dx
    t_row[int(round(B / h))] = 1.0
    t_row -= 0.5 * h * (np.abs(t[1:-1]) @ D2)
    Q = 2 * B * h * D2.T @ D2 + np.outer(s_row, s_row) + 12.0 / (12.0 + B**2) * np.outer(t_row, t_row)
    A = np.zeros((x_train.size, N))
    A[np.arange(x_train.size), idx] = 1.0
    kkt = np.block([[2 * Q, A.T], [A, np.zeros((x_train.size, x_train.size))]])
    rhs = np.concatenate([np.zeros(N), np.asarray(y_train, dtype=float)])
    g = np.linalg.solve(kkt, rhs)[:N]
    return np.interp(np.asarray(x_eval, dtype=float), t, g)
