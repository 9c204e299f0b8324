r"""Taner, Wang & Studer, "Cauchy-Schwarz Regularizers" (ICLR 2025).

A Cauchy-Schwarz (CS) regularizer is $\ell(x) = \|u(x)\|^2\|v(x)\|^2 - \langle u(x), v(x)\rangle^2
\ge 0$, which vanishes exactly where $u(x) \parallel v(x)$; choosing $u, v$ places the zero set on
discrete-valued vectors, eigenvectors of a matrix or matrices with orthogonal columns (abstract
and Sec. 1-2).  Only the abstract and the opening of the introduction could be read; the
polynomials of the named instances (symmetric binary, one-sided binary, symmetric ternary,
eigenvector, orthogonal columns) agree with the authors' code (github.com/IIP-Group/CS_regularizers:
``binary_recovery.m``, ``osb_ternary_recovery.m``, ``eigvec_recovery.m``,
``orth_matrix_recovery.m``, ``quantized_nns/tools/regularization_modules.py``).  The algebraic
claims are exact (sympy); the recovery experiment of Sec. 3.1 is reproduced at a small size on
the same instances as its linear-programming baseline.
"""

from __future__ import annotations

import itertools

import numpy as np
import sympy as sp

from simulations.algebra.cauchy_schwarz import (
    DEGREES,
    binary_recovery_trial,
    lagrange_sum_of_squares,
    linf_success_probability,
    symbolic_pair,
    symbolic_regularizer,
)
from workbench import Comparison, NearMiss, NotChecked, Paper, Param, Symbolic, claim

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
        NotChecked("CS regularizers quantize the weights of neural networks with a simple training "
                   "procedure and competitive accuracy (ResNet-20 on CIFAR-10, ResNet-18 on ImageNet, "
                   "Sec. 3.4)",
                   "needs the CIFAR-10 and ImageNet data (no data are downloaded at run time) and "
                   "GPU-scale training; nothing of that size runs here",
                   role="headline"),
        NotChecked(r"recovery of one-sided binary and ternary vectors against $\ell^1$ minimisation, of "
                   "eigenvectors and of matrices with orthogonal columns from underdetermined linear "
                   "systems (Sec. 3.1-3.3, App. C)",
                   "not reproduced: the binary experiment is (same solver, same design); for these "
                   "the baselines' success probabilities have no closed form at the paper's "
                   "densities, so no undersampling ratio where the comparison binds could be fixed "
                   "before running",
                   role="supporting"),
        NotChecked("variations and generalisations (Hölder-type regularizers, b-bit alphabets, "
                   "non-polynomial variants, Sec. 4)",
                   "stated as possibilities with examples, without a result that a computation "
                   "could decide",
                   role="supporting"),
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


@claim(PAPER, role="headline", source="Abstract and Sec. 2 (the CS principle) with its instances (symmetric "
                                      "binary, one-sided binary, symmetric ternary, eigenvector, "
                                      "orthogonal columns)",
       evidence="symbolic",
       reconstructed_from="the abstract ('regularization functions that promote discrete-valued vectors, "
                          "eigenvectors of a given matrix, and orthogonal matrices'); the instances' "
                          "formulas from the authors' code (github.com/IIP-Group/CS_regularizers)",
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
       evidence="symbolic", reconstructed_from="the abstract; the instances' formulas from the authors' code",
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
def _indefinite(name, x, C=None):
    """The binary and orthogonal-column forms with N - 1 (K - 1) in place of N (K): still
    homogeneous, but indefinite ((N-1)||x||_4^4 - ||x||_2^4 = -N at x = 1) and unbounded below."""
    if name in ("binary", "orthogonal"):
        size = len(x) if name == "binary" else x.shape[1]
        return symbolic_regularizer(name, x, C, n_override=size - 1)
    return symbolic_regularizer(name, x, C)


def _stationarity_expressions(ctx, regularizer):
    """For each instance: the regularizer minus the Lagrange sum of squares of its CS pair (zero:
    l >= 0 with minimum 0 at x = 0) and <x, grad l> - k l (zero: Euler, so grad l = 0 forces
    l = 0).  Both are needed: Euler alone holds for every homogeneous polynomial, bounded below
    or not."""
    exprs, labels = [], []
    for label, name, x, C in _instances(ctx["n_max"], ctx["matrix_max"]):
        u, v = symbolic_pair(name, x, C)
        ell_expr = regularizer(name, x, C)
        exprs.append(_expanded(ell_expr - lagrange_sum_of_squares(u, v)))
        labels.append(f"{label}: l minus the sum of squared 2x2 minors of its CS pair (l >= 0)")
        variables = list(x)
        gens = variables + (list(C) if C is not None else [])
        ell = sp.Poly(ell_expr, *gens)
        radial = sum((ell.diff(w) * sp.Poly(w, *gens) for w in variables), sp.Poly(0, *gens))
        exprs.append((radial - DEGREES[name] * ell).as_expr())
        labels.append(f"{label}: <x, grad l(x)> - {DEGREES[name]} l(x) (Euler)")
    return exprs, labels


@claim(PAPER, role="headline", source="Abstract ('simple, differentiable, and can be free of spurious "
                                      "stationary points'); Sec. 2 (invexity)",
       evidence="symbolic",
       reconstructed_from="the abstract and the summary at https://www.sciencestack.ai/paper/2503.01639 "
                          "('invexity considerations and the potential absence of spurious stationary "
                          "points'); the instances' formulas from the authors' code",
       statement=r"Every stationary point of each CS regularizer (binary, one-sided, ternary, "
                 r"eigenvector, orthogonal columns) is a global minimiser: $\ell=\sum_{i<j}"
                 r"(u_iv_j-u_jv_i)^2\ge 0=\ell(0)$ and $\langle x,\nabla\ell(x)\rangle = k\,\ell(x)$ "
                 r"(Euler, $\ell$ homogeneous of degree $k$), so $\nabla\ell(x)=0$ implies "
                 r"$\ell(x)=0=\min\ell$: no spurious stationary points.",
       method="For every instance (vectors $N=2..$n_max, symbolic $C$ and $X$) sympy expands both "
              "halves of the argument to zero in one piece of evidence: the regularizer minus the "
              "sum of squared minors of its CS pair (nonnegativity, minimum 0) and "
              "$\\langle x,\\nabla\\ell\\rangle-k\\ell$ (Euler).",
       params=PARAMS)
def no_spurious_stationary_points(ctx):
    """Invexity of the CS regularizers: a stationary point has l = <x, grad l>/k = 0 by Euler's
    identity, and 0 is the minimum because l is a sum of squares.  Both halves are checked in the
    same evidence: Euler alone is true of every homogeneous polynomial, including indefinite ones
    that are unbounded below (the first control), and fails for the fixed-scale penalty
    sum (x_i^2 - 1)^2, whose gradient vanishes at x = (0, 1, ..., 1) where it is 1 > 0."""
    exprs, labels = _stationarity_expressions(ctx, _cs)
    return Symbolic(exprs, labels=labels,
                    why="exact polynomial identities: the sum-of-squares certificate of nonnegativity "
                        "and Euler's relation for each instance")


@no_spurious_stationary_points.control(
    "an indefinite homogeneous polynomial: (N - 1)||x||_4^4 - ||x||_2^4 (and K - 1 in the "
    "orthogonal-column form), for which Euler's relation still holds but which is unbounded below",
    near_miss=True)
def indefinite_homogeneous(ctx):
    exprs, labels = _stationarity_expressions(ctx, _indefinite)
    return Symbolic(exprs, labels=labels,
                    why="the same two identities for the mis-normalised, indefinite forms")


@no_spurious_stationary_points.control(
    "fixed-scale penalties (e.g. sum (x_i^2 - 1)^2), which have spurious stationary points "
    "such as x = (0, 1, ..., 1)")
def fixed_scale_stationary_points(ctx):
    exprs, labels = _stationarity_expressions(ctx, _fixed_scale)
    return Symbolic(exprs, labels=labels,
                    why="the same two identities for the non-homogeneous fixed-scale penalties")


# --------------------------------------------------------------------------- claim 4 (experiment)
def _recovery_batch(rng, N, M, regularizer, starts, count):
    """``count`` independent recovery instances: (CS recovered, l-infinity recovered) each."""
    return [binary_recovery_trial(rng, N, M, regularizer=regularizer, starts=starts) for _ in range(count)]


def _recovery_evidence(ctx, regularizer, trials=None):
    N = ctx["n"]
    M = N // 2
    batches = ctx.trials(_recovery_batch, max(1, (trials or ctx["trials"]) // 10), N, M, regularizer, ctx["starts"], 10,
                         label="recovery")
    pairs = np.array([p for b in batches for p in b], dtype=float)
    return Comparison(
        pairs[:, 0], pairs[:, 1], direction="greater", level=0.95,
        why="95% Student-t interval of the paired success indicators over independent instances "
            "(fresh A and x* per instance, both methods on the same one); the l-infinity program is "
            "solved exactly (HiGHS), whose success probability at M = N/2 is "
            f"{linf_success_probability(M, N):.2f} in closed form",
        quantity=f"recovery success of l_{regularizer} minus that of l-infinity minimisation "
                 f"(N = {N}, M = {M})")


@claim(PAPER, role="supporting", source="Sec. 3.1 and Fig. 1(a): recovering binary vectors from "
                                        "underdetermined linear systems",
       evidence="comparison",
       reconstructed_from="the abstract ('CS regularizers can outperform baseline methods for solving "
                          "underdetermined systems') and the authors' binary_recovery.m (instances, "
                          "restarts, success criterion, l-infinity baseline)",
       near_miss=NearMiss.none("the paper reports success curves, not a size of the improvement: "
                               "the claim is a direction at the baseline's phase transition"),
       statement=r"For Gaussian $A\in\mathbb{R}^{M\times N}$ and $x^\star$ uniform on $\{\pm1\}^N$, "
                 r"minimising $\ell_{\mathrm{bin}}(x)=N\|x\|_4^4-\|x\|_2^4$ over $\{x: Ax=Ax^\star\}$ "
                 r"from random starts recovers $x^\star$ more often than $\ell^\infty$ minimisation "
                 r"at $M=N/2$, the $\ell^\infty$ phase transition (success probability "
                 r"$2^{1-N}\sum_{k<M}\binom{N-1}{k}=\tfrac12$).",
       method="Per instance: fresh $A$ and $x^\\star$; $\\ell_{\\mathrm{bin}}$ minimised over the "
              "affine set by L-BFGS from up to ten random starts (the authors restart ten times); "
              "$\\ell^\\infty$ minimisation as a linear program (HiGHS); success when "
              "$\\|\\hat x-x^\\star\\|/\\|x^\\star\\|<10^{-2}$ (the authors' criterion).  "
              "Paired difference of the success indicators with a 95% $t$ interval.",
       params={"n": Param(32, full=64, low=8, high=256, doc="signal length N (M = N/2 measurements)"),
               "trials": Param(60, full=300, low=20, high=10000, doc="instances (batches of 10)"),
               "starts": Param(10, full=10, low=1, high=50, doc="random starts of the CS minimisation")})
def binary_recovery_beats_linf(ctx):
    """The recovery experiment of Sec. 3.1 at a small size: at the undersampling ratio where the
    convex l-infinity baseline succeeds half of the time, the nonconvex binary CS regularizer
    recovers the binary vector more often on the same instances."""
    return _recovery_evidence(ctx, "binary")


@binary_recovery_beats_linf.control(
    "the regularizer of the wrong alphabet: the one-sided binary regularizer (zero on {0, a}^N) on "
    "the +-1 signal (half the instances: every failing instance runs all its starts)")
def wrong_alphabet(ctx):
    return _recovery_evidence(ctx, "one_sided", trials=ctx["trials"] // 2)
