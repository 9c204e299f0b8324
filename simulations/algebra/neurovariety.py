"""Neurovarieties of polynomial networks: the parameter-to-coefficient map and its generic rank.

A polynomial network with widths ``(d_0, d_1, ..., d_h)`` and activation ``z -> z**r`` is

    p_W(x) = W_h s(W_{h-1} s( ... s(W_1 x))),   s(z) = z**r (entrywise, hidden layers only),

with ``W_i`` of shape ``(d_i, d_{i-1})`` and no biases (Kileel, Trager & Bruna, "On the
expressive power of deep polynomial neural networks", NeurIPS 2019; the setting reviewed by
Marchetti, Shahverdi, Mereta, Trager & Kohn, "Position: Algebra unveils deep learning", ICML
2025).  Each output is a homogeneous form of degree ``D = r**(h-1)`` in ``d_0`` variables, so
the network is a point of the ambient space ``(Sym^D R^{d_0})^{d_h}`` of dimension
``d_h * C(d_0 + D - 1, D)``.  The *neurovariety* is the Zariski closure of the image of the
parameter-to-coefficient map ``W -> coefficients of p_W``; its dimension is the generic rank of
the Jacobian of that map.

The Jacobian is reached through samples: at ``N`` inputs ``x_1..x_N`` the sample Jacobian
``G = d(p_W(x_s))_{k,s} / dW`` (rows: output ``k`` then sample ``s``) factors as
``G = (I_{d_h} kron V) J`` with ``V`` the ``N x M`` monomial Vandermonde matrix and ``J`` the
Jacobian of the coefficient map.  When ``V`` has full column rank ``M``, ``rank G = rank J``.
Three ways to compute the rank are provided:

* ``"numeric"``: float64 sample Jacobian at Gaussian weights and inputs on the unit sphere;
  the rank is placed at the largest gap of the log singular values (reported in decades).
* ``"modular"``: integer weights and inputs reduced modulo a prime ``p``, elimination over
  GF(p).  ``rank_GF(p) <= rank_Q(point) <= generic rank``: a certified *lower* bound on the
  dimension.
* ``"rational"``: the same integer matrix ranked exactly over Q (fraction-free Bareiss
  elimination on Python integers), for small cases; also a certified lower bound.

The upper bound comes from :func:`expected_neurovariety_dimension` (parameters minus the
rescaling symmetries, capped by the ambient dimension), from :func:`composition_upper_bound`
(the first layer composed with the tail network) or, where a theorem gives the dimension, from
:func:`known_dimension` (Alexander-Hirschowitz, bottlenecks, Finkel et al.'s equi-width and
high-degree theorems).  :func:`certified_rank` computes the GF(p) lower bound from only as many
samples as the dimension needs, so activation degrees in the tens stay cheap.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations_with_replacement

import numpy as np

DEFAULT_PRIME = 1_000_003  # p**2 * 1e6 < 2**63: int64 products of reduced entries stay exact

# The four sporadic Alexander-Hirschowitz cases, as (number of variables n, degree r, rank s):
# the s-th secant of the degree-r Veronese embedding of P^{n-1} has dimension one less than
# expected (Alexander & Hirschowitz, J. Algebraic Geom. 4 (1995) 201-222).
AH_SPORADIC = ((3, 4, 5), (4, 4, 9), (5, 4, 14), (5, 3, 7))


# --------------------------------------------------------------------------- architecture
def _check_architecture(widths, degree) -> tuple[tuple[int, ...], int]:
    widths = tuple(int(w) for w in widths)
    if len(widths) < 2:
        raise ValueError(f"widths must list at least input and output sizes, got {widths}")
    if any(w < 1 for w in widths):
        raise ValueError(f"every width must be a positive integer, got {widths}")
    degree = int(degree)
    if degree < 1:
        raise ValueError(f"the activation degree r must be a positive integer, got {degree}")
    return widths, degree


def output_degree(widths, degree) -> int:
    """Degree ``D = r**(h-1)`` of the output forms (``h = len(widths) - 1`` weight matrices)."""
    widths, degree = _check_architecture(widths, degree)
    return degree ** (len(widths) - 2)


def monomial_exponents(n_vars: int, deg: int) -> list[tuple[int, ...]]:
    """Exponent vectors of the degree-``deg`` monomials in ``n_vars`` variables.

    Ordered by ``itertools.combinations_with_replacement`` of the variable indices; there are
    ``C(n_vars + deg - 1, deg)`` of them.

    Raises:
        ValueError: when ``n_vars < 1`` or ``deg < 0``.
    """
    if n_vars < 1 or deg < 0:
        raise ValueError(f"need n_vars >= 1 and deg >= 0, got {n_vars}, {deg}")
    out = []
    for combo in combinations_with_replacement(range(n_vars), deg):
        e = [0] * n_vars
        for i in combo:
            e[i] += 1
        out.append(tuple(e))
    return out


def ambient_dimension(widths, degree) -> int:
    """``d_h * C(d_0 + D - 1, D)``: dimension of the space of output polynomial tuples."""
    widths, degree = _check_architecture(widths, degree)
    D = output_degree(widths, degree)
    return widths[-1] * math.comb(widths[0] + D - 1, D)


def parameter_count(widths) -> int:
    """``sum_i d_{i-1} d_i``: number of weights (no biases)."""
    widths = tuple(int(w) for w in widths)
    return sum(a * b for a, b in zip(widths[:-1], widths[1:], strict=False))


def expected_neurovariety_dimension(widths, degree) -> int:
    """Expected dimension of the neurovariety (Kileel, Trager & Bruna 2019, the "naive bound").

    ``min(d_h + sum_{i=1}^{h} (d_{i-1} - 1) d_i, d_h * C(d_0 + D - 1, D))``: the parameter count
    minus one rescaling symmetry per hidden neuron (multiply the neuron's incoming weights by
    ``t`` and its outgoing weights by ``t**-r``), capped by the ambient dimension.  Always an
    upper bound on the dimension; equality fails in the defective cases (Alexander-Hirschowitz,
    width-one bottlenecks, some deep quadratic networks).

    Raises:
        ValueError: on an empty or non-positive architecture, or a degree below 1.
    """
    widths, degree = _check_architecture(widths, degree)
    if degree == 1:
        # Linear networks: the image is the set of d_h x d_0 matrices of rank <= min width.
        return linear_network_dimension(widths)
    hidden = sum(widths[1:-1])
    return min(parameter_count(widths) - hidden, ambient_dimension(widths, degree))


def linear_network_dimension(widths) -> int:
    """Dimension of the determinantal variety of ``d_h x d_0`` matrices of rank <= min width."""
    widths = tuple(int(w) for w in widths)
    m, n, k = widths[-1], widths[0], min(widths)
    return k * (m + n - k)


def alexander_hirschowitz_dimension(n_vars: int, degree: int, rank: int) -> int:
    """Dimension of the affine cone over the ``rank``-th secant of the Veronese ``nu_degree(P^{n-1})``.

    This is the neurovariety of the shallow single-output network ``(n_vars, rank, 1)`` with
    activation ``z**degree``: the forms ``sum_{i<=rank} a_i (w_i . x)**degree``.  By the
    Alexander-Hirschowitz theorem it equals ``min(rank * n, C(n + degree - 1, degree))`` except
    for ``degree = 2`` and ``2 <= rank <= n - 1`` (quadrics of rank ``<= s``:
    ``s n - C(s, 2)``) and the four sporadic cases :data:`AH_SPORADIC` (one less).

    Raises:
        ValueError: for ``n_vars < 1``, ``degree < 2`` or ``rank < 1``.
    """
    if n_vars < 1 or degree < 2 or rank < 1:
        raise ValueError(f"need n_vars >= 1, degree >= 2, rank >= 1; got {n_vars}, {degree}, {rank}")
    ambient = math.comb(n_vars + degree - 1, degree)
    if degree == 2:
        return min(rank * n_vars - math.comb(rank, 2), ambient) if rank < n_vars else ambient
    generic = min(rank * n_vars, ambient)
    return generic - 1 if (n_vars, degree, rank) in AH_SPORADIC else generic


def first_bottleneck(widths) -> int | None:
    """Index ``k`` (1-based layer index, ``1 <= k <= h - 1``) of the first hidden layer of width 1,
    or None when no hidden layer has width 1."""
    widths = tuple(int(w) for w in widths)
    for k in range(1, len(widths) - 1):
        if widths[k] == 1:
            return k
    return None


def bottleneck_dimension(widths, degree, prefix_dimension: int | None = None) -> int:
    """Dimension when some hidden width is 1: ``dim V(d_0, ..., d_{k-1}, 1) + d_h - 1``.

    With ``k`` the first hidden layer of width 1, the network is ``x -> v q(x)**e`` with
    ``q`` the single-output prefix network ``(d_0, ..., d_{k-1}, 1)``, ``e = r**(h-k)`` and
    ``v`` in ``R^{d_h}``: the image is ``{v q^e}`` with ``q`` in the prefix's neurovariety (a cone:
    its last layer is linear) and one shared scale, so its dimension is the prefix's plus
    ``d_h - 1``.  For a bottleneck in the first hidden layer the prefix is the space of linear
    forms and this is ``d_0 + d_h - 1``.

    Args:
        prefix_dimension: the dimension of the prefix neurovariety when it is known from
            elsewhere; by default :func:`known_dimension` of the prefix.

    Raises:
        ValueError: when no hidden layer has width 1, or when the prefix's dimension is not
            given and no theorem gives it.
    """
    widths, degree = _check_architecture(widths, degree)
    k = first_bottleneck(widths)
    if k is None:
        raise ValueError(f"architecture {widths} has no hidden layer of width 1")
    if prefix_dimension is None:
        prefix_dimension = known_dimension(widths[: k + 1], degree)
    return int(prefix_dimension) + widths[-1] - 1


def is_equi_width(widths) -> bool:
    """True when every width, input and output included, is the same (``d_0 = ... = d_h``)."""
    widths = tuple(int(w) for w in widths)
    return len(set(widths)) == 1


def activation_threshold_bound(widths) -> int:
    """Finkel, Rodriguez, Wu & Yahl's universal bound ``6 m**2 - 6 m + 1`` on the activation
    degree threshold, ``m`` the largest width (Algebraic Statistics 16 (2025); arXiv 2408.04569).

    For an architecture without hidden layers of width 1, the neurovariety has the expected
    dimension for every activation degree ``r`` above this bound.
    """
    m = max(int(w) for w in widths)
    return 6 * m * m - 6 * m + 1


def known_dimension(widths, degree) -> int:
    """The dimension of the neurovariety where a theorem gives it.

    In order: one layer (all ``d_1 x d_0`` matrices); linear networks (determinantal variety);
    a hidden layer of width 1 (:func:`bottleneck_dimension`); shallow single-output networks
    (Alexander-Hirschowitz); equi-width architectures (expected dimension for every ``r >= 2``,
    Finkel et al.); activation degrees above :func:`activation_threshold_bound` (expected
    dimension, Finkel et al.).

    Raises:
        ValueError: when none of these applies (the dimension is then only computable).
    """
    widths, degree = _check_architecture(widths, degree)
    if len(widths) == 2:
        return widths[0] * widths[1]
    if degree == 1:
        return linear_network_dimension(widths)
    if first_bottleneck(widths) is not None:
        return bottleneck_dimension(widths, degree)
    if len(widths) == 3 and widths[-1] == 1:
        return alexander_hirschowitz_dimension(widths[0], degree, widths[1])
    if is_equi_width(widths) or degree > activation_threshold_bound(widths):
        return expected_neurovariety_dimension(widths, degree)
    raise ValueError(f"no theorem gives the dimension of {widths} with r = {degree}")


def composition_upper_bound(widths, degree, tail_dimension: int) -> int:
    """Upper bound from splitting off the first layer: ``dim V(d) <= dim V(d_1..d_h) + d_1 (d_0 - 1)``.

    The network is the tail network ``(d_1, ..., d_h)`` evaluated at ``(W_1 x)**r``.  Rescaling
    row ``i`` of ``W_1`` by ``t_i`` and column ``i`` of the tail's first weight matrix by
    ``t_i**-r`` leaves the function unchanged, so the map ``(W_1, tail function)`` to functions has
    fibres of dimension at least ``d_1`` and its image dimension is at most
    ``d_0 d_1 + dim V(tail) - d_1``.  The expected count satisfies the same recursion with
    equality, so a tail that is defective, or that fills its ambient space with parameters to
    spare, makes the whole network defective.  Returned capped by the expected count and the
    ambient dimension (both upper bounds too).

    Args:
        tail_dimension: ``dim V(d_1, ..., d_h)`` (from :func:`known_dimension` or a certificate).

    Raises:
        ValueError: for a network with fewer than two weight matrices.
    """
    widths, degree = _check_architecture(widths, degree)
    if len(widths) < 3:
        raise ValueError(f"the composition bound needs at least two weight matrices, got {widths}")
    split = int(tail_dimension) + widths[1] * (widths[0] - 1)
    return min(split, expected_neurovariety_dimension(widths, degree), ambient_dimension(widths, degree))


def architectures(widths, depths, *, min_input: int = 2, bottlenecks: bool = False):
    """Every architecture ``(d_0, ..., d_h)`` with ``h`` in ``depths`` and every ``d_i`` in ``widths``.

    An enumeration of a box of architectures (no selection): inputs below ``min_input`` are
    left out (a single input variable gives univariate forms), and architectures with a hidden
    layer of width 1 unless ``bottlenecks``.

    Returns:
        list of width tuples, by depth then lexicographically.
    """
    from itertools import product

    widths = sorted({int(w) for w in widths})
    out = []
    for h in sorted({int(h) for h in depths}):
        if h < 1:
            raise ValueError(f"depths must be >= 1, got {h}")
        for w in product(widths, repeat=h + 1):
            if w[0] < min_input or (not bottlenecks and first_bottleneck(w) is not None):
                continue
            out.append(tuple(w))
    return out


def is_alexander_hirschowitz_defective(n_vars: int, degree: int, rank: int) -> bool:
    """True when the AH dimension is below ``min(rank * n, C(n + degree - 1, degree))``."""
    generic = min(rank * n_vars, math.comb(n_vars + degree - 1, degree))
    return alexander_hirschowitz_dimension(n_vars, degree, rank) < generic


# --------------------------------------------------------------------------- weights, points
def random_weights(widths, rng: np.random.Generator, *, modulus: int | None = None,
                   integer_range: int | None = None) -> list[np.ndarray]:
    """Random weight matrices ``W_i`` of shape ``(d_i, d_{i-1})``.

    Args:
        widths: the architecture.
        rng: a numpy Generator.
        modulus: if given, entries uniform in ``1..modulus-1`` (int64), for GF(p) work.
        integer_range: if given (and no modulus), nonzero integers uniform in
            ``[-integer_range, integer_range]`` as Python ints (object arrays), for exact work.
        Otherwise standard Gaussian float64 entries.
    """
    widths = tuple(int(w) for w in widths)
    out = []
    for a, b in zip(widths[:-1], widths[1:], strict=False):
        if modulus is not None:
            out.append(rng.integers(1, modulus, size=(b, a), dtype=np.int64))
        elif integer_range is not None:
            vals = rng.integers(1, integer_range + 1, size=(b, a)) * rng.choice([-1, 1], size=(b, a))
            out.append(np.array([[int(v) for v in row] for row in vals], dtype=object))
        else:
            out.append(rng.standard_normal((b, a)))
    return out


def random_inputs(n_vars: int, n_points: int, rng: np.random.Generator, *,
                  modulus: int | None = None, integer_range: int | None = None) -> np.ndarray:
    """``n_points x n_vars`` sample inputs: unit-sphere floats, residues mod p, or integers."""
    if modulus is not None:
        return rng.integers(1, modulus, size=(n_points, n_vars), dtype=np.int64)
    if integer_range is not None:
        vals = rng.integers(-integer_range, integer_range + 1, size=(n_points, n_vars))
        return np.array([[int(v) for v in row] for row in vals], dtype=object)
    X = rng.standard_normal((n_points, n_vars))
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def _check_weights(widths, weights) -> None:
    if len(weights) != len(widths) - 1:
        raise ValueError(f"{len(widths) - 1} weight matrices expected, got {len(weights)}")
    for i, W in enumerate(weights):
        if W.shape != (widths[i + 1], widths[i]):
            raise ValueError(f"W_{i + 1} must have shape {(widths[i + 1], widths[i])}, got {W.shape}")


# --------------------------------------------------------------------------- the network
def _mm(A, B, modulus):
    if modulus is None:
        return A @ B
    return (A @ B) % modulus


def _pow(z, k, modulus):
    if modulus is None:
        return z ** k
    out = np.ones_like(z)
    for _ in range(k):
        out = (out * z) % modulus
    return out


def network_forward(weights, X, degree: int, modulus: int | None = None) -> np.ndarray:
    """Outputs ``p_W(x_s)`` as an ``(N, d_h)`` array for inputs ``X`` of shape ``(N, d_0)``.

    Works for float arrays, Python-int object arrays (exact) and, with ``modulus``, int64
    residues (every product reduced mod ``modulus``).
    """
    a = X.T % modulus if modulus is not None else X.T
    for i, W in enumerate(weights):
        a = _mm(W, a, modulus)
        if i < len(weights) - 1:
            a = _pow(a, degree, modulus)
    return a.T


def sample_jacobian(weights, X, degree: int, modulus: int | None = None) -> np.ndarray:
    """Jacobian of the evaluation map ``W -> (p_W(x_s))`` by back-propagation.

    Rows are ordered output ``k`` major, sample ``s`` minor (``d_h * N`` rows); columns are the
    entries of ``W_1, ..., W_h``, each row-major (``sum d_{i-1} d_i`` columns).  Arithmetic is
    float, exact Python ints (object arrays) or residues mod ``modulus``.

    Raises:
        ValueError: on weight shapes that do not chain, or inputs of the wrong width.
    """
    widths = tuple([weights[0].shape[1]] + [W.shape[0] for W in weights])
    _check_weights(widths, weights)
    if X.ndim != 2 or X.shape[1] != widths[0]:
        raise ValueError(f"inputs must have shape (N, {widths[0]}), got {X.shape}")
    h, N = len(weights), X.shape[0]
    acts = [X.T % modulus if modulus is not None else X.T]
    pre = []
    for i, W in enumerate(weights):
        z = _mm(W, acts[-1], modulus)
        pre.append(z)
        acts.append(_pow(z, degree, modulus) if i < h - 1 else z)
    dtype = acts[0].dtype
    blocks = []
    for k in range(widths[-1]):
        delta = np.zeros((widths[-1], N), dtype=dtype)
        delta[k] = 1
        grads = [None] * h
        for i in range(h - 1, -1, -1):
            g = delta[:, None, :] * acts[i][None, :, :]
            grads[i] = (g % modulus if modulus is not None else g).reshape(-1, N)
            if i > 0:
                back = _mm(weights[i].T, delta, modulus)
                dsig = degree * _pow(pre[i - 1], degree - 1, modulus)
                if modulus is not None:
                    dsig %= modulus
                delta = back * dsig
                if modulus is not None:
                    delta %= modulus
        blocks.append(np.concatenate(grads, axis=0).T)
    return np.concatenate(blocks, axis=0)


def vandermonde(X, deg: int, modulus: int | None = None) -> np.ndarray:
    """``N x M`` matrix of the degree-``deg`` monomials (order of :func:`monomial_exponents`)."""
    exps = monomial_exponents(X.shape[1], deg)
    cols = []
    for e in exps:
        col = None
        for j, k in enumerate(e):
            if k:
                f = _pow(X[:, j], k, modulus)
                col = f if col is None else (col * f if modulus is None else (col * f) % modulus)
        if col is None:
            col = np.ones(X.shape[0], dtype=X.dtype)
        cols.append(col)
    return np.stack(cols, axis=1)


# --------------------------------------------------------------------------- coefficient map
def _poly_mul(p: dict, q: dict) -> dict:
    out: dict = {}
    for e1, c1 in p.items():
        for e2, c2 in q.items():
            e = tuple(a + b for a, b in zip(e1, e2, strict=True))
            out[e] = out.get(e, 0) + c1 * c2
    return out


def _poly_pow(p: dict, k: int) -> dict:
    out = {tuple(0 for _ in next(iter(p))): 1} if p else {}
    for _ in range(k):
        out = _poly_mul(out, p)
    return out


def coefficient_map(weights, degree: int) -> np.ndarray:
    """The parameter-to-coefficient map: coefficients of each output form of ``p_W``.

    Expands the network as polynomials (dicts of monomial -> coefficient), so it is exact for
    Python ints or ``Fraction`` weights and float for float weights.

    Returns:
        array of shape ``(d_h, M)``: row ``k`` holds the coefficients of output ``k`` on the
        monomials of :func:`monomial_exponents` ``(d_0, D)``.  Intended for small networks
        (the expansion costs about ``d_1 * M^2`` operations per layer).
    """
    widths = tuple([weights[0].shape[1]] + [W.shape[0] for W in weights])
    _check_weights(widths, weights)
    n = widths[0]
    layer = [{tuple(int(i == j) for i in range(n)): 1} for j in range(n)]
    for li, W in enumerate(weights):
        new = []
        for row in W:
            acc: dict = {}
            for c, poly in zip(row, layer, strict=True):
                for e, v in poly.items():
                    acc[e] = acc.get(e, 0) + c * v
            new.append(_poly_pow(acc, degree) if li < len(weights) - 1 else acc)
        layer = new
    D = output_degree(widths, degree)
    exps = monomial_exponents(n, D)
    obj = any(isinstance(x, (int, Fraction)) for x in np.asarray(weights[0]).ravel()[:1]) \
        and weights[0].dtype == object
    out = np.empty((widths[-1], len(exps)), dtype=object if obj else float)
    for k, poly in enumerate(layer):
        for j, e in enumerate(exps):
            out[k, j] = poly.get(e, 0)
    return out


def coefficient_jacobian(weights, degree: int, rng: np.random.Generator,
                         extra_points: int = 10) -> np.ndarray:
    """Float Jacobian ``J`` of the coefficient map, ``(d_h * M) x n_params``.

    Solves ``G = (I kron V) J`` by least squares at ``M + extra_points`` inputs on the unit
    sphere (``V`` has full column rank for generic inputs).
    """
    widths = tuple([weights[0].shape[1]] + [W.shape[0] for W in weights])
    D = output_degree(widths, degree)
    M = math.comb(widths[0] + D - 1, D)
    X = random_inputs(widths[0], M + extra_points, rng)
    G = sample_jacobian(weights, X, degree)
    V = vandermonde(X, D)
    N = X.shape[0]
    blocks = [np.linalg.lstsq(V, G[k * N:(k + 1) * N], rcond=None)[0] for k in range(widths[-1])]
    return np.concatenate(blocks, axis=0)


# --------------------------------------------------------------------------- ranks
def rank_mod_p(A, p: int = DEFAULT_PRIME) -> int:
    """Rank of the integer matrix ``A`` over GF(p) (Gaussian elimination on int64 residues).

    Raises:
        ValueError: when ``p`` is too large for exact int64 products (``p >= 3e9``) or < 2.
    """
    if p < 2 or p >= 3_000_000_000:
        raise ValueError(f"prime must be in [2, 3e9) for exact int64 elimination, got {p}")
    A = np.asarray(A)
    A = A % p if A.dtype == np.int64 else np.array(np.asarray(A, dtype=object) % p, dtype=np.int64)
    m, n = A.shape
    r = 0
    for col in range(n):
        if r == m:
            break
        nz = np.flatnonzero(A[r:, col])
        if nz.size == 0:
            continue
        i = r + int(nz[0])
        if i != r:
            A[[r, i]] = A[[i, r]]
        A[r] = (A[r] * pow(int(A[r, col]), p - 2, p)) % p
        f = A[r + 1:, col].copy()
        if f.any():
            A[r + 1:] = (A[r + 1:] - (np.outer(f, A[r]) % p)) % p
        r += 1
    return r


def rank_rational(A) -> int:
    """Exact rank over Q of an integer (or ``Fraction``) matrix: fraction-free Bareiss elimination."""
    rows = [[Fraction(x) for x in row] for row in np.asarray(A, dtype=object)]
    if rows and any(x.denominator != 1 for row in rows for x in row):
        lcm = 1
        for row in rows:
            for x in row:
                lcm = lcm * x.denominator // math.gcd(lcm, x.denominator)
        rows = [[x * lcm for x in row] for row in rows]
    M = [[int(x) for x in row] for row in rows]
    m = len(M)
    n = len(M[0]) if m else 0
    r, prev = 0, 1
    for col in range(n):
        piv = next((i for i in range(r, m) if M[i][col] != 0), None)
        if piv is None:
            continue
        M[r], M[piv] = M[piv], M[r]
        for i in range(r + 1, m):
            M[i] = [(M[r][col] * M[i][j] - M[i][col] * M[r][j]) // prev for j in range(n)]
        prev = M[r][col]
        r += 1
        if r == m:
            break
    return r


@dataclass
class NumericalRank:
    """Rank of a float matrix decided at the largest gap of its log10 singular values.

    Attributes:
        rank: number of singular values above the gap.
        gap_decades: size of that gap in decades (log10 of the ratio across it).
        singular_values: all singular values, descending.
        floor: ``s_max * eps * max(shape)``, the level below which values are rounding noise
            (values are clipped to it and it is appended, so a full-rank matrix has its gap at the end).
    """

    rank: int
    gap_decades: float
    singular_values: np.ndarray = field(repr=False)
    floor: float = 0.0


def numerical_rank(A) -> NumericalRank:
    """Rank of ``A`` at the largest gap of the log10 singular values (see :class:`NumericalRank`)."""
    A = np.asarray(A, dtype=float)
    s = np.linalg.svd(A, compute_uv=False)
    if s.size == 0 or s[0] == 0:
        return NumericalRank(0, math.inf, s, 0.0)
    floor = s[0] * np.finfo(float).eps * max(A.shape)
    logs = np.log10(np.append(np.maximum(s, floor), floor))
    gaps = logs[:-1] - logs[1:]
    k = int(np.argmax(gaps))
    return NumericalRank(k + 1, float(gaps[k]), s, float(floor))


@dataclass
class DimensionResult:
    """Outcome of :func:`neurovariety_dimension`.

    Attributes:
        widths, degree, method: what was computed and how.
        dimension: the generic Jacobian rank found (max over the points tried).
        ranks: the rank at each random point.
        gap_decades: for ``"numeric"``, the singular-value gap (decades) at the best point.
        vandermonde_full: True when the monomial Vandermonde had full column rank at every point
            (so the sample-Jacobian rank is the coefficient-Jacobian rank).
        prime: the prime of the ``"modular"`` method.
    """

    widths: tuple[int, ...]
    degree: int
    method: str
    dimension: int
    ranks: list[int]
    gap_decades: float | None = None
    vandermonde_full: bool = True
    prime: int | None = None


def _sample_count(widths, degree, extra: int) -> tuple[int, int]:
    D = output_degree(widths, degree)
    M = math.comb(widths[0] + D - 1, D)
    return M, M + extra


def neurovariety_dimension(widths, degree, method: str = "numeric", *, rng: np.random.Generator,
                           points: int = 2, prime: int = DEFAULT_PRIME, integer_range: int = 50,
                           extra_samples: int = 5, weights=None) -> DimensionResult:
    """Generic rank of the Jacobian of the parameter-to-coefficient map.

    Args:
        widths: ``(d_0, ..., d_h)``, ``h >= 1``.
        degree: activation degree ``r >= 1``.
        method: ``"numeric"`` (float SVD, rank at the largest singular-value gap),
            ``"modular"`` (exact over GF(``prime``)) or ``"rational"`` (exact over Q; small cases).
        rng: random generator for the parameter points and sample inputs.
        points: number of random parameter points; the maximum rank is returned (a single
            point may be non-generic and under-count).
        integer_range: nonzero weights and inputs are drawn from ``[-integer_range,
            integer_range]`` for ``"rational"``.
        prime: the prime of ``"modular"``; also used to certify the Vandermonde's full column
            rank in ``"rational"`` (full rank mod p implies full rank over Q).
        extra_samples: inputs beyond the number ``M`` of monomials.
        weights: optional fixed parameter point (list of arrays in the method's arithmetic);
            then ``points`` is ignored and the rank *at that point* is returned.

    Returns:
        :class:`DimensionResult`.  For the exact methods the rank at any point is a certified
        lower bound on the dimension (``vandermonde_full`` is checked in the same arithmetic).

    Raises:
        ValueError: on an unknown method or a malformed architecture.
    """
    widths, degree = _check_architecture(widths, degree)
    if method not in ("numeric", "modular", "rational"):
        raise ValueError(f"method must be 'numeric', 'modular' or 'rational', not {method!r}")
    D = output_degree(widths, degree)
    M, N = _sample_count(widths, degree, extra_samples)
    ranks, gaps, vfull = [], [], True
    trials = [weights] if weights is not None else [None] * int(points)
    for W in trials:
        if method == "numeric":
            W = W if W is not None else random_weights(widths, rng)
            X = random_inputs(widths[0], N, rng)
            nr = numerical_rank(sample_jacobian(W, X, degree))
            ranks.append(nr.rank)
            gaps.append(nr.gap_decades)
            vfull &= numerical_rank(vandermonde(X, D)).rank == M
        elif method == "modular":
            W = W if W is not None else random_weights(widths, rng, modulus=prime)
            X = random_inputs(widths[0], N, rng, modulus=prime)
            ranks.append(rank_mod_p(sample_jacobian(W, X, degree, modulus=prime), prime))
            vfull &= rank_mod_p(vandermonde(X, D, modulus=prime), prime) == M
        else:
            W = W if W is not None else random_weights(widths, rng, integer_range=integer_range)
            X = random_inputs(widths[0], N, rng, integer_range=integer_range)
            ranks.append(rank_rational(sample_jacobian(W, X, degree)))
            # Full column rank mod p implies full column rank over Q (a nonzero minor mod p is
            # a nonzero integer), and elimination mod p is far cheaper than over Q.
            vfull &= rank_mod_p(vandermonde(X, D) % prime, prime) == M
    best = int(np.argmax(ranks))
    return DimensionResult(widths, degree, method, int(ranks[best]), [int(r) for r in ranks],
                           gaps[best] if gaps else None, bool(vfull),
                           prime if method == "modular" else None)


def certified_rank(widths, degree, rng: np.random.Generator, *, points: int = 2, extra: int = 3,
                   samples: int | None = None, prime: int = DEFAULT_PRIME, weights=None) -> int:
    """A certified lower bound on the neurovariety's dimension from few samples: the largest
    GF(``prime``) rank of the sample Jacobian over ``points`` random parameter points.

    ``rank_GF(p) G <= rank_Q G <= rank J(W) <= dim V`` for any inputs: the sample Jacobian
    ``G = (I kron V) J`` factors through the coefficient Jacobian ``J``.  Generic inputs reach
    ``rank J``: the columns of ``J`` span a space of polynomials of dimension ``rank J``, which
    generic points separate as soon as there are ``rank J / d_h`` of them.  So
    ``ceil(min(expected, ambient) / d_h) + extra`` inputs suffice whatever the number of monomials,
    and high activation degrees cost only the powers (mod ``prime``) in the forward pass.

    Args:
        points: random parameter points (the maximum rank is returned).
        extra: inputs beyond ``min(expected, ambient) / d_h``.
        samples: the number of inputs, overriding ``extra``.
        weights: a fixed parameter point (residues mod ``prime``); then ``points`` is ignored.

    Raises:
        ValueError: on a malformed architecture or fewer than one input.
    """
    widths, degree = _check_architecture(widths, degree)
    if samples is None:
        target = min(expected_neurovariety_dimension(widths, degree), ambient_dimension(widths, degree))
        samples = math.ceil(target / widths[-1]) + int(extra)
    if samples < 1:
        raise ValueError(f"need at least one input, got {samples}")
    trials = [weights] if weights is not None else [None] * int(points)
    best = 0
    for W in trials:
        W = W if W is not None else random_weights(widths, rng, modulus=prime)
        X = random_inputs(widths[0], int(samples), rng, modulus=prime)
        best = max(best, rank_mod_p(sample_jacobian(W, X, degree, modulus=prime), prime))
    return best


def switch_off_neuron(weights, layer: int, neuron: int):
    """Copy of ``weights`` with hidden neuron ``neuron`` of hidden layer ``layer`` (1-based)
    switched off: its outgoing weights (column of ``W_{layer+1}``) set to zero.

    The network then computes a function of the sub-architecture with that neuron removed: a
    subnetwork point of the parameter space.

    Raises:
        ValueError: when ``layer`` is not a hidden layer or ``neuron`` is out of range.
    """
    if not 1 <= layer <= len(weights) - 1:
        raise ValueError(f"layer must be a hidden layer in 1..{len(weights) - 1}, got {layer}")
    if not 0 <= neuron < weights[layer].shape[1]:
        raise ValueError(f"neuron must be in 0..{weights[layer].shape[1] - 1}, got {neuron}")
    out = [W.copy() for W in weights]
    out[layer][:, neuron] = 0
    return out
