r"""One-dimensional functions built from their derivative, piece by piece: worst-case instances.

A function $f:\mathbb{R}\to\mathbb{R}$ is given by $f'$ on consecutive intervals (each with a
closed-form antiderivative and second derivative); :class:`Profile1D` glues the pieces into a
continuous $f$ and evaluates $f$, $f'$ and $f''$.  The builders place the pieces so that a given
first-order method meets the curvature bound of its function class at every step:

* :func:`v_staircase` ($\ell(s) = L_0 + L_1 s$): gradient descent with a step rule $h(g)$ sees
  the gradient $g$ at each of its first $T$ iterates.  Between two iterates $f'$ first falls and
  then rises as fast as $|f''| \le \ell(|f'|)$ allows (a "V"), so each step decreases $f$ as
  little as the class permits while the gradient stays $g$; after the last iterate $f'$ falls to
  0 at the global minimiser.  For $\ell \equiv L$ and $h = 1/L$ this attains the exact worst case
  $\min_{k<T}\|\nabla f(x_k)\|^2 = 4L(f(x_0) - f^\star)/(3T - 1)$ of gradient descent over
  $L$-smooth functions (the performance-estimation value; see
  :func:`v_staircase_corner_value`).  With $T = 1$ it is the steepest-decay profile
  $f'' = \ell(f')$, the one-step worst case of the descent inequalities.
* :func:`reference_v_staircase` (a reference kernel $h$ of the nonlinearly preconditioned method
  $x^+ = x - \frac1L h^{*\prime}(f'(x)/\bar L)$): the same construction with curvature
  $f'' = \bar L L h''(L(x - c))$, where the second-order condition
  $h^{*\prime\prime}(f'/\bar L)\,f'' \le L\bar L$ holds with equality.
* :func:`huber_wall` ($\ell(s) = L_0 + L_1 s$, convex): a Huber function (quadratic up to
  $\delta$, then linear) with an exponential wall beyond $\rho$ ($f'' = L_0 + L_1 f'$), the
  convex instance on which gradient methods need order $L_0 R^2/\varepsilon$ steps.

Every profile here is ours (constructed for the checks); the classes and methods are those of
Tyurin (ICML 2025), Vankov et al. (ICLR 2025) and Oikonomidis et al. (ICML 2025).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

__all__ = [
    "Piece", "Profile1D", "Kernel", "clipping_kernel", "cosh_kernel", "gradient_descent_1d", "huber_wall",
    "preconditioned_descent_1d",
    "reference_v_staircase", "v_staircase", "v_staircase_corner_value",
]

Array = np.ndarray
PLATEAU = 1e-9  # half-width of the flat piece at each designed iterate, relative to the step


@dataclass(frozen=True)
class Piece:
    r"""$f'$ on the interval $[lo, hi]$ with an antiderivative and $f''$ (all vectorised).

    Attributes:
        lo, hi: the interval ($lo$ may be $-\infty$, $hi$ may be $+\infty$).
        fprime: $f'$; antideriv: some $F$ with $F' = f'$ (its constant is irrelevant);
        fsecond: $f''$.
    """

    lo: float
    hi: float
    fprime: Callable[[Array], Array]
    antideriv: Callable[[Array], Array]
    fsecond: Callable[[Array], Array]


class Profile1D:
    r"""A continuous $f$ on $\mathbb{R}$ glued from :class:`Piece` objects.

    The pieces must tile $\mathbb{R}$ in order ($-\infty = lo_0 < hi_0 = lo_1 < \dots$,
    $hi_{\text{last}} = +\infty$); $f$ is made continuous by choosing each piece's constant, with
    $f(\text{minimiser}) = 0$ when ``x_min`` is given.  $f'$ is continuous when the pieces'
    end values agree (the builders ensure it; :meth:`jumps` reports the largest mismatch).

    Args:
        pieces: the pieces in increasing order.
        name: a short description.
        x_min: the global minimiser when known (then ``f_min = f(x_min) = 0``).

    Raises:
        ValueError: when the pieces do not tile the real line in order.
    """

    def __init__(self, pieces: list[Piece], name: str, x_min: float | None = None) -> None:
        if not pieces or pieces[0].lo != -math.inf or pieces[-1].hi != math.inf:
            raise ValueError("the pieces must cover the real line, from -inf to +inf")
        for a, b in zip(pieces, pieces[1:], strict=False):
            if a.hi != b.lo or not a.lo < a.hi:
                raise ValueError(f"pieces must be consecutive and non-empty: [{a.lo}, {a.hi}] then [{b.lo}, {b.hi}]")
        self.pieces = list(pieces)
        self.name = name
        self.breaks = np.array([p.hi for p in pieces[:-1]], dtype=float)
        # constants c_i with f = F_i + c_i continuous at every break
        c = [0.0]
        for i, b in enumerate(self.breaks):
            c.append(c[-1] + float(pieces[i].antideriv(np.array([b]))[0])
                     - float(pieces[i + 1].antideriv(np.array([b]))[0]))
        self._const = np.array(c)
        self.x_min = x_min
        if x_min is not None:
            self._const -= float(self.f(x_min)[0])
        self.f_min = 0.0 if x_min is not None else None

    def _index(self, x: Array) -> Array:
        return np.searchsorted(self.breaks, x, side="right")

    def _eval(self, x: float | Array, which: str) -> Array:
        xa = np.atleast_1d(np.asarray(x, dtype=float))
        out = np.empty_like(xa)
        idx = self._index(xa)
        for i in np.unique(idx):
            sel = idx == i
            p = self.pieces[int(i)]
            if which == "f":
                out[sel] = p.antideriv(xa[sel]) + self._const[int(i)]
            elif which == "g":
                out[sel] = p.fprime(xa[sel])
            else:
                out[sel] = p.fsecond(xa[sel])
        return out

    def f(self, x: float | Array) -> Array:
        """$f(x)$ (array of the shape of ``np.atleast_1d(x)``)."""
        return self._eval(x, "f")

    def grad(self, x: float | Array) -> Array:
        """$f'(x)$."""
        return self._eval(x, "g")

    def hess(self, x: float | Array) -> Array:
        """$f''(x)$ (one-sided at a break: the piece to the right's value)."""
        return self._eval(x, "h")

    def jumps(self) -> float:
        """Largest jump of $f'$ across a break, relative to $1 + |f'|$ there (0 for a $C^1$ $f$)."""
        worst = 0.0
        for i, b in enumerate(self.breaks):
            left = float(self.pieces[i].fprime(np.array([b]))[0])
            right = float(self.pieces[i + 1].fprime(np.array([b]))[0])
            worst = max(worst, abs(left - right) / (1.0 + abs(left)))
        return worst


# --------------------------------------------------------------------------- (L0, L1) pieces
def _check_l0l1(L0: float, L1: float) -> tuple[float, float]:
    L0, L1 = float(L0), float(L1)
    if not (L0 >= 0 and L1 >= 0 and math.isfinite(L0) and math.isfinite(L1)) or (L0 == 0 and L1 == 0):
        raise ValueError(f"need L0, L1 >= 0 finite and not both zero, got ({L0!r}, {L1!r})")
    if L0 == 0:
        raise ValueError("L0 = 0 has no bottom: the profile needs L0 > 0 to reach f' = 0 in finite distance")
    return L0, L1


def _curved_piece(lo: float, hi: float, anchor: float, u: float, sign: int, L0: float, L1: float) -> Piece:
    r"""$f'$ with $f'(anchor) = u \ge 0$ and $f'' = sign\cdot(L_0 + L_1 f')$ (valid while $f' \ge 0$).

    $L_1 > 0$: $f'(x) = (u + a)e^{sign L_1 (x - anchor)} - a$, $a = L_0/L_1$;
    $L_1 = 0$: $f'(x) = u + sign L_0 (x - anchor)$.
    """
    if L1 == 0:
        return Piece(lo, hi, lambda x: u + sign * L0 * (x - anchor),
                     lambda x: u * (x - anchor) + sign * L0 * (x - anchor) ** 2 / 2,
                     lambda x: np.full_like(x, sign * L0))
    a = L0 / L1
    A = u + a

    def fp(x: Array) -> Array:
        with np.errstate(over="ignore"):
            return A * np.exp(sign * L1 * (x - anchor)) - a

    def F(x: Array) -> Array:
        with np.errstate(over="ignore"):
            return A * np.expm1(sign * L1 * (x - anchor)) / (sign * L1) - a * (x - anchor)

    def fs(x: Array) -> Array:
        with np.errstate(over="ignore"):
            return sign * L1 * A * np.exp(sign * L1 * (x - anchor))

    return Piece(lo, hi, fp, F, fs)


def _mirrored(p: Piece, lo: float, hi: float, center: float, negate: bool) -> Piece:
    r"""The piece $x \mapsto \pm p.f'(2c - x)$ on $[lo, hi]$ (``negate``: the minus sign).

    With the minus sign ($f'$ odd about $c$) the antiderivative is $F(2c - x)$ and $f''$ is
    unchanged; with the plus sign ($f'$ even about $c$) it is $-F(2c - x)$ and $f''$ flips sign.
    """
    if negate:
        return Piece(lo, hi, lambda x: -p.fprime(2 * center - x), lambda x: p.antideriv(2 * center - x),
                     lambda x: p.fsecond(2 * center - x))
    return Piece(lo, hi, lambda x: p.fprime(2 * center - x), lambda x: -p.antideriv(2 * center - x),
                 lambda x: -p.fsecond(2 * center - x))


def _linear_piece(lo: float, hi: float, slope: float) -> Piece:
    return Piece(lo, hi, lambda x: np.full_like(x, slope), lambda x: slope * x, lambda x: np.zeros_like(x))


def _bottom_distance(g: float, L0: float, L1: float) -> float:
    """Distance over which f'' = L0 + L1 f' brings f' from g down to 0."""
    return g / L0 if L1 == 0 else math.log1p(g * L1 / L0) / L1


def v_staircase(L0: float, L1: float, g: float, T: int, step_size: Callable[[float], float]) -> Profile1D:
    r"""The V-staircase for gradient descent $x_{k+1} = x_k - h(|f'(x_k)|) f'(x_k)$ under
    $\ell(s) = L_0 + L_1 s$.

    The iterates are $x_k = -k\,h(g)\,g$, $k < T$, each with $f'(x_k) = g$; between $x_k$ and
    $x_{k+1}$, $f'$ falls with $f'' = \ell(f')$ over the first half of the step and rises with
    $f'' = -\ell(f')$ over the second (the two halves are equal for this $\ell$).  From
    $x_{T-1}$ on, $f'' = \ell(f')$ until $f' = 0$ at the global minimiser $x^\star$; to its left
    $f' < 0$ with $f'' = \ell(|f'|)$ (capped to linear after the distance of one bottom, to avoid
    overflow), and to the right of $x_0$ the function is linear with slope $g$.  Every piece
    satisfies $|f''| \le \ell(|f'|)$ (with equality on the curved pieces), so $f$ is
    $\ell$-smooth (and $(L_0, L_1)$-smooth), and $f^\star = f(x^\star) = 0$.

    Args:
        L0, L1: the constants ($L_0 > 0$, $L_1 \ge 0$).
        g: the gradient level at the iterates, $> 0$.
        T: number of iterates kept at level $g$ ($T \ge 1$; $T = 1$ is the steepest-decay
            profile, the one-step worst case).
        step_size: $h(g)$, the method's step size at gradient norm $g$.

    Returns:
        The :class:`Profile1D` (``x_min`` set); start the method at $x_0 = 0$.

    Raises:
        ValueError: on invalid constants, $g \le 0$, $T < 1$, a non-positive step, or a step so
            long that $f'$ would reach 0 inside a V (the construction needs $f' > 0$ there).
    """
    L0, L1 = _check_l0l1(L0, L1)
    if not (g > 0 and math.isfinite(g)):
        raise ValueError(f"the gradient level g must be positive and finite, got {g!r}")
    if int(T) != T or T < 1:
        raise ValueError(f"T must be a positive integer, got {T!r}")
    T = int(T)
    h = float(step_size(g))
    if not (h > 0 and math.isfinite(h)):
        raise ValueError(f"the step size at g = {g} must be positive and finite, got {h!r}")
    S = h * g
    if T > 1 and S / 2 >= _bottom_distance(g, L0, L1):  # the V's low point must stay above 0
        raise ValueError(f"the step {h:.4g} is too long for a V at g = {g:.4g}: f' would reach 0 before its middle")
    pieces: list[Piece] = []
    # Each iterate sits on a short plateau (f' = g exactly, half-width w): a rounding-sized offset
    # of an iterate then changes neither its gradient nor its step, where a kink would double it
    # at every step.
    w = PLATEAU * S if T > 1 else 0.0
    xs = [-k * S for k in range(T)]
    x_last = xs[-1] - w
    D = _bottom_distance(g, L0, L1)
    x_star = x_last - D
    down = _curved_piece(x_star, x_last, x_last, g, +1, L0, L1)  # f'' = +ell, f'(x_last) = g, f'(x_star) = 0
    wall = _mirrored(down, x_star - D, x_star, x_star, negate=True)  # f' = -f'(2x* - x) < 0, f'' > 0
    pieces += [_linear_piece(-math.inf, x_star - D, -g), wall, down]
    for k in range(T - 2, -1, -1):  # plateau at x_{k+1}, then the V up to the plateau at x_k
        lo, hi = xs[k + 1] + w, xs[k] - w
        pieces.append(_linear_piece(xs[k + 1] - w, lo, g))
        mid = (lo + hi) / 2
        fall = _curved_piece(mid, hi, hi, g, +1, L0, L1)  # going left from the plateau, f' falls
        rise = _mirrored(fall, lo, mid, mid, negate=False)  # even about the middle: f' back to g
        pieces += [rise, fall]
    pieces.append(_linear_piece(-w, math.inf, g))
    return Profile1D(pieces, f"V-staircase (L0={L0:g}, L1={L1:g}, g={g:.4g}, T={T})", x_min=x_star)


def v_staircase_corner_value(L: float, delta: float, T: int) -> float:
    r"""$4L\Delta/(3T - 1)$: $\min_{k<T}\|\nabla f(x_k)\|^2$ on :func:`v_staircase` with
    $\ell \equiv L$, step $1/L$ and $f(x_0) - f^\star = \Delta$.

    Each V step decreases $f$ by $3g^2/(4L)$ and the last by $g^2/(2L)$, so
    $\Delta = (3T - 1)g^2/(4L)$.  It equals the performance-estimation worst case of gradient
    descent with step $1/L$ over all $L$-smooth functions (our PEPit computations for
    $T \le 20$), so the V-staircase attains it.

    Raises:
        ValueError: unless $L, \Delta > 0$ and $T \ge 1$.
    """
    if not (L > 0 and delta > 0) or int(T) != T or T < 1:
        raise ValueError(f"need L, delta > 0 and a positive integer T, got {L!r}, {delta!r}, {T!r}")
    return 4.0 * L * delta / (3 * int(T) - 1)


# --------------------------------------------------------------------------- convex Huber with a wall
def huber_wall(L0: float, L1: float, delta: float, rho: float) -> Profile1D:
    r"""Even convex $f$ with $f' = L_0 x$ on $|x| \le \delta$, $f' = L_0\delta\,\mathrm{sign}(x)$
    on $\delta \le |x| \le \rho$ and $f'' = L_0 + L_1|f'|$ beyond $\rho$.

    $(L_0, L_1)$-smooth ($f'' \in \{L_0, 0, L_0 + L_1|f'|\}$), convex, minimiser 0 with
    $f^\star = 0$, not strongly convex (flat curvature on the linear part), and not
    Lipschitz-smooth when $L_1 > 0$ (the wall's curvature grows like $e^{L_1|x|}$).  With
    $\delta = 2\varepsilon/(L_0 R)$ and a start at $R \le \rho$, gradient descent with step
    $1/L_0$ needs about $L_0R^2/(4\varepsilon)$ steps to reach $f - f^\star \le \varepsilon$.

    Raises:
        ValueError: unless $L_0 > 0$, $L_1 \ge 0$ and $0 < \delta < \rho$.
    """
    L0, L1 = _check_l0l1(L0, L1)
    if not (0 < delta < rho and math.isfinite(rho)):
        raise ValueError(f"need 0 < delta < rho < inf, got delta={delta!r}, rho={rho!r}")
    c = L0 * delta
    quad = Piece(-delta, delta, lambda x: L0 * x, lambda x: L0 * x * x / 2, lambda x: np.full_like(x, L0))
    lin_r = _linear_piece(delta, rho, c)
    lin_l = _linear_piece(-rho, -delta, -c)
    wall_r = _curved_piece(rho, math.inf, rho, c, +1, L0, L1)
    wall_l = _mirrored(wall_r, -math.inf, -rho, 0.0, negate=True)
    return Profile1D([wall_l, lin_l, quad, lin_r, wall_r],
                     f"Huber with a wall (L0={L0:g}, L1={L1:g}, delta={delta:.3g}, rho={rho:.3g})", x_min=0.0)


# --------------------------------------------------------------------------- reference kernels
@dataclass(frozen=True)
class Kernel:
    r"""A kernel $h$ of an isotropic or separable reference function (Oikonomidis et al.).

    Attributes:
        name: short name.
        h, dh, d2h: $h$, $h'$, $h''$ on $t \ge 0$ inside the domain (vectorised).
        dh_conj: $h^{*\prime}$ (the inverse of $h'$), vectorised.
        t_max: the end of the domain of $h$ ($1$ for the clipping kernel, $\infty$ otherwise).
    """

    name: str
    h: Callable[[Array], Array]
    dh: Callable[[Array], Array]
    d2h: Callable[[Array], Array]
    dh_conj: Callable[[Array], Array]
    t_max: float

    def d2h_conj(self, y: Array) -> Array:
        r"""$h^{*\prime\prime}(y) = 1/h''(h^{*\prime}(y))$ (inverse-function rule), $y \ge 0$."""
        return 1.0 / self.d2h(self.dh_conj(np.asarray(y, dtype=float)))

    def hessian_conj(self, y: Array) -> Array:
        r"""$\nabla^2\phi^*(y)$ for the isotropic $\phi = h(\|\cdot\|)$, $y$ of shape ``(d,)``.

        $\nabla\phi^*(y) = h^{*\prime}(r)\,y/r$ ($r = \|y\|$, Lemma 1.3 of Oikonomidis et al.), so
        $\nabla^2\phi^*(y) = h^{*\prime\prime}(r)\,uu^\top + \frac{h^{*\prime}(r)}{r}(I - uu^\top)$,
        $u = y/r$; at $y = 0$ it is $h^{*\prime\prime}(0) I$.
        """
        y = np.asarray(y, dtype=float)
        r = float(np.linalg.norm(y))
        eye = np.eye(y.size)
        if r == 0:
            return float(self.d2h_conj(np.array([0.0]))[0]) * eye
        u = y / r
        along = float(self.d2h_conj(np.array([r]))[0])
        across = float(self.dh_conj(np.array([r]))[0]) / r
        return along * np.outer(u, u) + across * (eye - np.outer(u, u))


def clipping_kernel() -> Kernel:
    r"""$h(t) = -t - \ln(1 - t)$ on $[0, 1)$: $h'(t) = t/(1-t)$, $h'' = 1/(1-t)^2$,
    $h^{*\prime}(y) = y/(1+y)$ (a smooth gradient clipping)."""
    return Kernel("clipping -t - ln(1-t)", h=lambda t: -t - np.log1p(-t), dh=lambda t: t / (1 - t),
                  d2h=lambda t: 1 / (1 - t) ** 2, dh_conj=lambda y: y / (1 + y), t_max=1.0)


def cosh_kernel() -> Kernel:
    r"""$h(t) = \cosh t - 1$: $h' = \sinh$, $h'' = \cosh$, $h^{*\prime} = \operatorname{arcsinh}$."""
    return Kernel("cosh t - 1", h=lambda t: 2 * np.sinh(t / 2) ** 2, dh=np.sinh, d2h=np.cosh,
                  dh_conj=np.arcsinh, t_max=math.inf)


def _model_piece(lo: float, hi: float, center: float, kernel: Kernel, L: float, Lbar: float) -> Piece:
    r"""$f'(x) = \bar L h'(L(x - c))$ for $x \ge c$: the model of Definition 2.1 about $c$."""
    return Piece(lo, hi, lambda x: Lbar * kernel.dh(L * (x - center)),
                 lambda x: Lbar / L * kernel.h(L * (x - center)),
                 lambda x: Lbar * L * kernel.d2h(L * (x - center)))


def reference_v_staircase(kernel: Kernel, L: float, Lbar: float, g: float, T: int,
                          L_method: float | None = None) -> Profile1D:
    r"""V-staircase for $x^+ = x - \frac{1}{L_m} h^{*\prime}(f'(x)/\bar L)$ (the preconditioned
    method with $\gamma = 1/L_m$, $\lambda = 1/\bar L$, in one dimension).

    The iterates are $x_k = -k\,t/L_m$, $t = h^{*\prime}(g/\bar L)$, $k < T$, each with
    $f'(x_k) = g$.  Over the first half of each step $f'$ falls along the model
    $f'(x) = \bar L h'(L(x - c))$ (whose curvature makes
    $h^{*\prime\prime}(f'/\bar L)\,f'' = L\bar L$, the second-order condition with equality) and
    rises symmetrically over the second half; from $x_{T-1}$ on, $f'$ follows the model down to
    0 at the minimiser $c$, is odd about $c$ further left, and is linear beyond.  With
    $L_m = L$ the last step lands exactly on $c$.

    Args:
        kernel: the reference kernel.
        L, Lbar: the constants of the second-order condition met with equality.
        g: the gradient level at the iterates, $> 0$.
        T: iterates kept at level $g$, $\ge 1$.
        L_method: the method's $L$ (default $L$).  Below $L$ the method steps too far for the
            class (a misspecified constant, for controls); it must stay above $L/2$, else a V would
            reach $f' = 0$.

    Raises:
        ValueError: on non-positive constants, $g \le 0$, $T < 1$ or $L_m \le L/2$.
    """
    if not (L > 0 and Lbar > 0 and g > 0 and math.isfinite(g)):
        raise ValueError(f"need L, Lbar, g > 0, got {L!r}, {Lbar!r}, {g!r}")
    if int(T) != T or T < 1:
        raise ValueError(f"T must be a positive integer, got {T!r}")
    Lm = float(L if L_method is None else L_method)
    if T > 1 and not Lm > L / 2:
        raise ValueError(f"the method's L ({Lm}) must exceed half the profile's L ({L}): a V would reach f' = 0")
    T = int(T)
    t = float(kernel.dh_conj(np.array([g / Lbar]))[0])
    S = t / Lm  # the method's displacement
    pieces: list[Piece] = []
    w = PLATEAU * S if T > 1 else 0.0  # plateaus at the iterates, as in v_staircase
    xs = [-k * S for k in range(T)]
    x_last = xs[-1] - w
    c = x_last - t / L  # the model about c has f'(x_last) = Lbar h'(t) = g
    down = _model_piece(c, x_last, c, kernel, L, Lbar)
    wall = _mirrored(down, c - t / L, c, c, negate=True)
    pieces += [_linear_piece(-math.inf, c - t / L, -g), wall, down]
    for k in range(T - 2, -1, -1):
        lo, hi = xs[k + 1] + w, xs[k] - w
        pieces.append(_linear_piece(xs[k + 1] - w, lo, g))
        mid = (lo + hi) / 2
        fall = _model_piece(mid, hi, hi - t / L, kernel, L, Lbar)  # the model about hi - t/L: f'(hi) = g
        rise = _mirrored(fall, lo, mid, mid, negate=False)
        pieces += [rise, fall]
    pieces.append(_linear_piece(-w, math.inf, g))
    return Profile1D(pieces, f"{kernel.name} V-staircase (L={L:g}, Lbar={Lbar:g}, g={g:.4g}, T={T})", x_min=c)


# --------------------------------------------------------------------------- runs on a profile
def gradient_descent_1d(profile: Profile1D, x0: float, n_steps: int,
                        step_size: Callable[[float], float]) -> tuple[Array, Array, Array]:
    r"""$x_{k+1} = x_k - h(|f'(x_k)|)\,f'(x_k)$ on a :class:`Profile1D`, $k < n$.

    Returns:
        ``(x, f, g)``: iterates $x_0..x_n$, values $f(x_k)$ and derivatives $f'(x_k)$, each of
        shape ``(n + 1,)``.

    Raises:
        ValueError: on a negative ``n_steps``.
    """
    if int(n_steps) != n_steps or n_steps < 0:
        raise ValueError(f"n_steps must be a non-negative integer, got {n_steps!r}")
    xs = [float(x0)]
    gs = [float(profile.grad(xs[0])[0])]
    for _ in range(int(n_steps)):
        g = gs[-1]
        xs.append(xs[-1] - float(step_size(abs(g))) * g if g != 0 else xs[-1])
        gs.append(float(profile.grad(xs[-1])[0]))
    x = np.array(xs)
    return x, profile.f(x), np.array(gs)


def preconditioned_descent_1d(profile: Profile1D, kernel: Kernel, L: float, Lbar: float, x0: float,
                              n_steps: int) -> tuple[Array, Array, Array]:
    r"""$x_{k+1} = x_k - \frac1L h^{*\prime}(|f'(x_k)|/\bar L)\,\mathrm{sign} f'(x_k)$ (the
    nonlinearly preconditioned method with $\gamma = 1/L$, $\lambda = 1/\bar L$, one dimension).

    Returns:
        ``(x, f, g)`` as :func:`gradient_descent_1d`.

    Raises:
        ValueError: unless $L, \bar L > 0$ and ``n_steps`` >= 0.
    """
    if not (L > 0 and Lbar > 0) or int(n_steps) != n_steps or n_steps < 0:
        raise ValueError(f"need L, Lbar > 0 and n_steps >= 0, got {L!r}, {Lbar!r}, {n_steps!r}")
    xs = [float(x0)]
    gs = [float(profile.grad(xs[0])[0])]
    for _ in range(int(n_steps)):
        g = gs[-1]
        t = float(kernel.dh_conj(np.array([abs(g) / Lbar]))[0])
        xs.append(xs[-1] - math.copysign(t, g) / L if g != 0 else xs[-1])
        gs.append(float(profile.grad(xs[-1])[0]))
    x = np.array(xs)
    return x, profile.f(x), np.array(gs)
