r"""Taner, Wang & Studer, "Cauchy-Schwarz Regularizers" (ICLR 2025).

A Cauchy-Schwarz (CS) regularizer is $\ell(x) = \|u(x)\|^2\|v(x)\|^2 - \langle u(x), v(x)\rangle^2
\ge 0$, which vanishes exactly where $u(x) \parallel v(x)$; choosing $u, v$ places the zero set on
discrete-valued vectors, eigenvectors of a matrix or matrices with orthogonal columns (abstract
and Sec. 1-2).  The principle is stated in the paper; the concrete polynomials are our reading of
its named instances (symmetric binary, one-sided binary, symmetric ternary, eigenvector,
orthogonal columns) and the paper may normalise them differently, so the claims built on them are
marked reconstructed.  All checks are exact (sympy).
"""

from __future__ import annotations

import itertools

import sympy as sp

from simulations.algebra.cauchy_schwarz import (
    DEGREES,
    lagrange_sum_of_squares,
    symbolic_pair,
    symbolic_regularizer,
)
from workbench import Paper, Param, Symbolic, claim

PAPER = Paper(
    slug="cauchy_schwarz_regularizers",
    title="Cauchy-Schwarz Regularizers",
    authors=("Sueda Taner", "Ziyi Wang", "Christoph Studer"),
    venue="ICLR 2025",
    year=2025,
    arxiv="2503.01639",
    identifier="ICLR 2025 (OpenReview)",
    url="https://arxiv.org/abs/2503.01639",
    not_checked=(
        ('The experiments: Cauchy-Schwarz regularizers recover binary and ternary vectors from linear measurements and quantize neural-network weights with little loss of accuracy.',
         'not yet reproduced here; the recovery experiment fits this machine at small size and is planned',
         'headline'),
    ),
)

VECTOR_REGULARIZERS = ("binary", "one_sided", "ternary")


def _expanded(expr):
    """``expr`` expanded in its symbols through sympy's polynomial arithmetic (much faster than
    ``expand`` on these sizes); the zero polynomial comes back as ``0``."""
    expr = sp.sympify(expr)
    gens = sorted(expr.free_symbols, key=str)
    return sp.Poly(expr, *gens).as_expr() if gens else sp.expand(expr)
ALPHABETS = {"binary": (-1, 1), "one_sided": (0, 1), "ternary": (-1, 0, 1)}


# Symbols without assumptions: every identity below is polynomial (or rational) and holds over
# any commutative ring, and assumption-free symbols keep sympy's expansion fast.
def _symbols(n):
    return list(sp.symbols(f"x1:{n + 1}"))


def _matrix_C(n):
    return sp.Matrix(n, n, lambda i, j: sp.Symbol(f"c{i + 1}{j + 1}"))


def _matrix_X(m, k):
    return sp.Matrix(m, k, lambda i, j: sp.Symbol(f"X{i + 1}{j + 1}"))


def _instances(n_max, matrix_max):
    """(label, name, variable(s), C) for every regularizer and size checked."""
    out = []
    for name in VECTOR_REGULARIZERS:
        for n in range(2, n_max + 1):
            out.append((f"{name}, N={n}", name, _symbols(n), None))
    for n in range(2, matrix_max + 1):
        out.append((f"eigenvector, N={n}, general C", "eigenvector", _symbols(n), _matrix_C(n)))
    for m, k in [(2, 2), (3, 2), (3, 3), (4, 3)][: max(1, matrix_max - 1)]:
        out.append((f"orthogonal, X {m}x{k}", "orthogonal", _matrix_X(m, k), None))
    return out


PARAMS = {
    "n_max": Param(4, full=6, low=2, high=8, doc="largest vector length N of the symbolic checks"),
    "matrix_max": Param(3, full=4, low=2, high=5,
                        doc="largest matrix size for the eigenvector (N x N general C) and "
                            "orthogonal-column (M x K) regularizers"),
}


# --------------------------------------------------------------------------- claim 1
# Pairwise 2x2 minors u_i v_j - u_j v_i, factored: their zero sets are the target relations.
def _minor_factorisations():
    a, b = sp.symbols("a b")
    return [
        ((a**2) * 1 - (b**2) * 1, (a - b) * (a + b), "binary minor a^2 - b^2 = (a - b)(a + b): zero iff |a| = |b|"),
        (a * b**2 - b * a**2, a * b * (b - a), "one-sided minor a b^2 - b a^2 = a b (b - a): zero iff a = 0, b = 0 or a = b"),
        (a * b**3 - b * a**3, a * b * (b - a) * (b + a),
         "ternary minor a b^3 - b a^3 = a b (b - a)(b + a): zero iff a = 0, b = 0 or |a| = |b|"),
    ]


def _sos_expressions(ctx, binary_n_shift=0):
    exprs, labels = [], []
    for label, name, x, C in _instances(ctx["n_max"], ctx["matrix_max"]):
        u, v = symbolic_pair(name, x, C)
        override = None
        if binary_n_shift and name in ("binary", "orthogonal"):
            override = (len(x) if name == "binary" else x.shape[1]) + binary_n_shift
        closed = symbolic_regularizer(name, x, C, n_override=override)
        exprs.append(_expanded(closed - lagrange_sum_of_squares(u, v)))
        labels.append(f"{label}: closed form minus the Lagrange sum of squares of its CS pair")
    for minor, factored, text in _minor_factorisations():
        exprs.append(_expanded(minor - factored))
        labels.append(text)
    return exprs, labels


@claim(PAPER, role="supporting", source="Sec. 2 (the CS principle) and its instances (symmetric binary, one-sided "
                     "binary, symmetric ternary, eigenvector, orthogonal columns)",
       evidence="symbolic", reconstructed_from="the paper's definitions and abstract, as far as they could be read",
       statement=r"For each instance, $\ell(x)=\|u\|^2\|v\|^2-\langle u,v\rangle^2 = \sum_{i<j}"
                 r"(u_iv_j-u_jv_i)^2 \ge 0$, with $\ell_{\mathrm{bin}}=N\|x\|_4^4-\|x\|_2^4$ "
                 r"($u=x\circ x$, $v=\mathbf 1$), $\ell_{\mathrm{one}}=\|x\|_2^2\|x\|_4^4-(\sum_i "
                 r"x_i^3)^2$, $\ell_{\mathrm{ter}}=\|x\|_2^2\|x\|_6^6-\|x\|_4^8$, "
                 r"$\ell_{\mathrm{eig}}=\|x\|^2\|Cx\|^2-(x^\top Cx)^2$, $\ell_{\mathrm{orth}}="
                 r"K\|X^\top X\|_F^2-\|X\|_F^4$; the pairwise minors factor so that $\ell=0$ exactly "
                 r"on $\{\pm\alpha\}^N$, $\{0,\alpha\}^N$, $\{0,\pm\alpha\}^N$, the eigenvectors of "
                 r"$C$, and the $X$ with $X^\top X=\alpha^2 I_K$.",
       method="Sympy expands each closed form minus the Lagrange sum of squares of its CS pair "
              "(vectors $N=2..$n_max, a general symbolic $C$, symbolic $X$) to zero, and checks the "
              "factorisations of the $2\\times2$ minors whose common zeros are the targets.",
       params=PARAMS)
def regularizers_are_cauchy_schwarz_gaps(ctx):
    """Nonnegativity and zero sets (abstract; Sec. 2): each named regularizer equals the
    Lagrange sum of squares of its Cauchy-Schwarz pair, hence is >= 0 and vanishes exactly when
    every 2x2 minor u_i v_j - u_j v_i vanishes, i.e. on the target set; the minors' factorisations
    identify those sets."""
    exprs, labels = _sos_expressions(ctx)
    return Symbolic(exprs, labels=labels,
                    why="exact polynomial identities: closed form = sum of squared minors, and the "
                        "minors' factorisations")


@regularizers_are_cauchy_schwarz_gaps.control(
    "a mis-normalised binary (and orthogonal) regularizer: N - 1 (K - 1) in place of N (K)")
def wrong_normalisation(ctx):
    exprs, labels = _sos_expressions(ctx, binary_n_shift=-1)
    return Symbolic(exprs, labels=labels,
                    why="the same identities for (N-1)||x||_4^4 - ||x||_2^4, which takes negative "
                        "values (at x = 1 it is -N)")


# --------------------------------------------------------------------------- claim 2
def _scale_expressions(ctx, regularizer):
    alpha, t = sp.symbols("alpha t")
    exprs, labels = [], []
    for name in VECTOR_REGULARIZERS:
        x = _symbols(ctx["n_max"])
        ell = regularizer(name, x)
        for s in itertools.product(ALPHABETS[name], repeat=len(x)):
            exprs.append(_expanded(ell.xreplace(dict(zip(x, [alpha * si for si in s], strict=True)))))
            labels.append(f"{name}: l(alpha * {s})")
        exprs.append(_expanded(ell.xreplace({xi: t * xi for xi in x}) - t ** DEGREES[name] * ell))
        labels.append(f"{name}: l(t x) - t^{DEGREES[name]} l(x)")
    n = ctx["matrix_max"]
    x, C = _symbols(n), _matrix_C(n)
    lam = sp.Symbol("lambda")
    # An eigenvector of C: any x with Cx = lambda x; substitute C x = lambda x through a C built
    # from a symbolic eigenpair (C = lambda e1 e1^T + columns 2.. free, x = alpha e1).
    C_eig = C.copy()
    C_eig[:, 0] = sp.Matrix([lam] + [0] * (n - 1))
    e1 = [alpha] + [0] * (n - 1)
    ell_eig = regularizer("eigenvector", x, C_eig)
    exprs.append(_expanded(ell_eig.xreplace(dict(zip(x, e1, strict=True)))))
    labels.append("eigenvector: l(alpha e1) with C e1 = lambda e1")
    k = min(n, 3)
    X = _matrix_X(n, k)
    Q = sp.Matrix(n, k, lambda i, j: 1 if i == j else 0)
    if k >= 2:  # a rotation by the Cayley (rational) parametrisation, exact in t
        c, s_ = (1 - t**2) / (1 + t**2), 2 * t / (1 + t**2)
        Q[:2, :2] = sp.Matrix([[c, -s_], [s_, c]])
    ell_orth = regularizer("orthogonal", X)
    exprs.append(sp.cancel(ell_orth.xreplace(dict(zip(list(X), list(alpha * Q), strict=True)))))
    labels.append(f"orthogonal: l(alpha Q), Q^T Q = I_{k} (a Cayley rotation by t in the first two columns)")
    return exprs, labels


def _cs(name, x, C=None):
    return symbolic_regularizer(name, x, C)


def _fixed_scale(name, x, C=None):
    """The classical fixed-scale penalties: sum (x_i^2 - 1)^2 (binary), sum (x_i^2 - x_i)^2
    (one-sided), sum x_i^2 (x_i^2 - 1)^2 (ternary), with the same construction for the others."""
    if name == "binary":
        return sum((xi**2 - 1) ** 2 for xi in x)
    if name == "one_sided":
        return sum((xi**2 - xi) ** 2 for xi in x)
    if name == "ternary":
        return sum(xi**2 * (xi**2 - 1) ** 2 for xi in x)
    if name == "eigenvector":
        return symbolic_regularizer(name, x, C)
    if name == "orthogonal":
        G = x.T * x
        return sum((G - sp.eye(G.shape[0])).applyfunc(lambda g: g**2))
    raise ValueError(name)


@claim(PAPER, role="headline", source="Abstract ('CS regularizers automatically adapt to the appropriate scale')",
       evidence="symbolic", reconstructed_from="the abstract",
       statement=r"Scale adaptivity: each CS regularizer is homogeneous, $\ell(tx)=t^{k}\ell(x)$ "
                 r"($k=4,6,8$ for binary, one-sided, ternary), and vanishes on the whole target "
                 r"set at every scale: $\ell(\alpha s)=0$ for all $\alpha$ and all "
                 r"$s\in\{\pm1\}^N$, $\{0,1\}^N$, $\{0,\pm1\}^N$ respectively, on $\alpha e_1$ "
                 r"when $Ce_1=\lambda e_1$, and on $\alpha Q$ with $Q^\top Q=I$.",
       method="Sympy substitutes $\\alpha s$ (symbolic $\\alpha$) for every pattern $s$ of the "
              "alphabet at $N=$n_max, a symbolic eigenpair and a rotated orthonormal frame, and "
              "expands $\\ell(tx)-t^k\\ell(x)$.",
       params=PARAMS)
def zero_sets_hold_at_every_scale(ctx):
    """Scale adaptivity (abstract): the regularizers vanish on the target set for every scale
    alpha, with no scale parameter, because they are homogeneous polynomials whose zero sets are
    cones; a fixed-scale penalty such as sum (x_i^2 - 1)^2 only vanishes at alpha = 1."""
    exprs, labels = _scale_expressions(ctx, _cs)
    return Symbolic(exprs, labels=labels,
                    why="exact polynomial identities in the scale alpha (and t) for every pattern")


@zero_sets_hold_at_every_scale.control(
    "fixed-scale penalties (sum (x_i^2 - 1)^2 and kin, ||X^T X - I||_F^2) instead of CS regularizers")
def fixed_scale_penalties(ctx):
    exprs, labels = _scale_expressions(ctx, _fixed_scale)
    return Symbolic(exprs, labels=labels,
                    why="the same identities for penalties with the scale fixed at 1")


# --------------------------------------------------------------------------- claim 3
def _euler_expressions(ctx, regularizer):
    exprs, labels = [], []
    for label, name, x, C in _instances(ctx["n_max"], ctx["matrix_max"]):
        variables = list(x)
        gens = variables + (list(C) if C is not None else [])
        ell = sp.Poly(regularizer(name, x, C), *gens)
        radial = sum((ell.diff(v) * sp.Poly(v, *gens) for v in variables), sp.Poly(0, *gens))
        exprs.append((radial - DEGREES[name] * ell).as_expr())
        labels.append(f"{label}: <x, grad l(x)> - {DEGREES[name]} l(x)")
    return exprs, labels


@claim(PAPER, role="headline", source="Abstract ('can be free of spurious stationary points'); Sec. on stationary "
                     "points",
       evidence="symbolic", reconstructed_from="the abstract",
       statement=r"Every stationary point of each CS regularizer is a global minimiser: "
                 r"$\langle x,\nabla\ell(x)\rangle = k\,\ell(x)$ (Euler's identity for the "
                 r"degree-$k$ homogeneous $\ell$), so $\nabla\ell(x)=0$ implies $\ell(x)=0=\min\ell$ "
                 r"(with $\ell\ge0$ from the first claim): no spurious stationary points.",
       method="Sympy expands $\\langle x,\\nabla\\ell\\rangle-k\\ell$ to zero for every "
              "instance of the first claim (vectors up to $N=$n_max, symbolic $C$ and $X$).",
       params=PARAMS)
def no_spurious_stationary_points(ctx):
    """Our reading of "free of spurious stationary points": by Euler's identity a stationary
    point of a homogeneous regularizer has l = <x, grad l>/k = 0, the global minimum.  The
    fixed-scale penalty sum (x_i^2 - 1)^2 fails this: its gradient 4x(x^2 - 1) vanishes at
    x = (0, 1, ..., 1), where the penalty is 1 > 0."""
    exprs, labels = _euler_expressions(ctx, _cs)
    return Symbolic(exprs, labels=labels,
                    why="exact polynomial identities (Euler's relation for homogeneous polynomials)")


@no_spurious_stationary_points.control(
    "fixed-scale penalties (e.g. sum (x_i^2 - 1)^2), which have spurious stationary points "
    "such as x = (0, 1, ..., 1)")
def fixed_scale_stationary_points(ctx):
    exprs, labels = _euler_expressions(ctx, _fixed_scale)
    return Symbolic(exprs, labels=labels,
                    why="the same Euler relation for the non-homogeneous fixed-scale penalties")
