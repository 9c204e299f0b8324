"""Peak memory of kernel solvers, measured with :mod:`tracemalloc` (numpy reports its buffers to it).

Two solvers of kernel ridge regression with M features/centres on n points:

- the lightweight DBCD-TR of :mod:`.dbcd` with random Fourier features formed one block at a time
  (it holds alpha (n), beta (M), the feature map (M x d + M), one block's features (b x M) and
  K_BB (b x b)): Zhang & Lai, "Joker", ICML 2025;
- a Falkon-style solver (Rudi, Carratino & Rosasco, NeurIPS 2017, Alg. 1): Nystrom centres, the
  preconditioner T = chol(K_MM), A = chol(T T^T / M + lambda I) (M x M each), and conjugate
  gradient on the preconditioned normal equations with K_nM formed in row blocks.

The peak counts what each solver allocates beyond the data (X, y), in bytes.
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable

import numpy as np
from scipy.linalg import cho_solve, cholesky, solve_triangular

from .dbcd import dbcd_tr
from .features import fourier_features, gaussian_kernel
from .losses import make_loss


def peak_bytes(run: Callable[[], object], warm_up: bool = True) -> int:
    """Peak bytes allocated (as traced by tracemalloc) while ``run()`` executes, beyond what was
    allocated when it started.

    With ``warm_up`` (default) ``run`` is called once untraced first, so that one-off allocations
    of a fresh process (lazy imports, numpy's and LAPACK's caches) are not counted and the number
    is the same in any process.

    Raises:
        RuntimeError: when tracemalloc is already tracing (nested measurements would mix).
    """
    if tracemalloc.is_tracing():
        raise RuntimeError("tracemalloc is already tracing: peak measurements cannot be nested")
    if warm_up:
        run()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        run()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return int(peak - base)


def falkon_krr(X: np.ndarray, y: np.ndarray, centres: np.ndarray, lam: float, lengthscale: float,
               iterations: int, row_block: int = 256) -> np.ndarray:
    """Nystrom kernel ridge regression by Falkon's preconditioned conjugate gradient.

    Solves $(K_{nM}^T K_{nM} + \\lambda n K_{MM})\\beta = K_{nM}^T y$ (the Nystrom KRR normal equations)
    with the preconditioner $B = n^{-1/2} T^{-1} A^{-1}$, $T = \\mathrm{chol}(K_{MM} + 10^{-10} M I)$,
    $A = \\mathrm{chol}(TT^T/M + \\lambda I)$ (Rudi et al. 2017, Alg. 1).

    Args:
        X: (n, d) data; y: (n,) targets; centres: (M, d) Nystrom centres; lam: lambda > 0;
        lengthscale: of the Gaussian kernel; iterations: CG steps; row_block: rows of K_nM per block.
    Returns:
        beta: (M,) coefficients of the centres.
    """
    if not lam > 0:
        raise ValueError(f"lambda must be positive, not {lam!r}")
    n, M = len(X), len(centres)
    KMM = gaussian_kernel(centres, centres, lengthscale)
    T = cholesky(KMM + 1e-10 * M * np.eye(M), lower=False)          # T^T T = K_MM
    A = cholesky(T @ T.T / M + lam * np.eye(M), lower=False)         # A^T A = T T^T / M + lam I

    def knm_t_knm(v: np.ndarray) -> np.ndarray:
        out = np.zeros(M)
        for i in range(0, n, row_block):
            Kb = gaussian_kernel(X[i:i + row_block], centres, lengthscale)
            out += Kb.T @ (Kb @ v)
        return out

    def B(u: np.ndarray) -> np.ndarray:            # B u = T^{-1} A^{-1} u / sqrt(n)
        return solve_triangular(T, solve_triangular(A, u, lower=False), lower=False) / np.sqrt(n)

    def Bt(u: np.ndarray) -> np.ndarray:
        return solve_triangular(A, solve_triangular(T, u, trans="T", lower=False), trans="T", lower=False) / np.sqrt(n)

    def W(u: np.ndarray) -> np.ndarray:            # B^T (K_nM^T K_nM + lam n K_MM) B u
        v = B(u)
        return Bt(knm_t_knm(v) + lam * n * (KMM @ v))

    rhs = np.zeros(M)
    for i in range(0, n, row_block):
        rhs += gaussian_kernel(X[i:i + row_block], centres, lengthscale).T @ y[i:i + row_block]
    b = Bt(rhs)
    u = np.zeros(M)
    r = b.copy()
    p = r.copy()
    rr = r @ r
    for _ in range(iterations):
        Wp = W(p)
        step = rr / (p @ Wp)
        u += step * p
        r -= step * Wp
        rr_new = r @ r
        if rr_new <= 1e-30 * (b @ b):
            break
        p = r + (rr_new / rr) * p
        rr = rr_new
    return B(u)


def nystrom_krr_direct(X: np.ndarray, y: np.ndarray, centres: np.ndarray, lam: float, lengthscale: float) -> np.ndarray:
    """The Nystrom KRR coefficients by a direct solve of the same normal equations (for tests)."""
    KnM = gaussian_kernel(X, centres, lengthscale)
    KMM = gaussian_kernel(centres, centres, lengthscale)
    H = KnM.T @ KnM + lam * len(X) * KMM
    return cho_solve((cholesky(H + 1e-12 * np.trace(H) / len(H) * np.eye(len(H))), False), KnM.T @ y)


def dbcd_peak(X: np.ndarray, y: np.ndarray, M: int, block_size: int, lengthscale: float, c: float,
              seed: int, epochs: int = 1) -> int:
    """Peak bytes of lightweight DBCD-TR (squared loss, M random Fourier features, one block's
    features at a time) over ``epochs`` passes, beyond the data."""
    def run() -> None:
        fmap = fourier_features(np.random.default_rng(seed), X.shape[1], M, lengthscale)
        dbcd_tr((fmap, X), y, make_loss("squared"), c, block_size=block_size, epochs=epochs,
                rng=np.random.default_rng(seed + 1))
    return peak_bytes(run)


def primal_newton_peak(X: np.ndarray, y: np.ndarray, M: int, lengthscale: float, c: float, seed: int,
                       row_block: int = 256) -> int:
    """Peak bytes of the primal route with the same M random features: form the M x M matrix
    $I + c\\Phi^T\\Phi$ (in row blocks) and solve for $\\theta$ (the squared-loss primal's Newton step)."""
    def run() -> None:
        fmap = fourier_features(np.random.default_rng(seed), X.shape[1], M, lengthscale)
        G = np.eye(M)
        rhs = np.zeros(M)
        for i in range(0, len(X), row_block):
            Pb = fmap(X[i:i + row_block])
            G += c * (Pb.T @ Pb)
            rhs += c * (Pb.T @ y[i:i + row_block])
        np.linalg.solve(G, rhs)
    return peak_bytes(run)


def falkon_peak(X: np.ndarray, y: np.ndarray, M: int, lengthscale: float, lam: float, seed: int,
                iterations: int = 3) -> int:
    """Peak bytes of :func:`falkon_krr` with M centres drawn from the data (``iterations`` CG steps);
    for M > n the centres are fresh N(0, I) points (the data's distribution in :func:`synthetic_data`)."""
    def run() -> None:
        rng = np.random.default_rng(seed)
        if M <= len(X):
            centres = X[rng.choice(len(X), size=M, replace=False)]
        else:  # more centres than points: fresh points from the data's distribution N(0, I)
            centres = rng.normal(size=(M, X.shape[1]))
        falkon_krr(X, y, centres, lam, lengthscale, iterations)
    return peak_bytes(run)


SOLVERS = ("dbcd", "dbcd_block_as_features", "primal", "falkon")


def peak_series(solver: str, n: int, features: list[int], block_size: int, seed: int) -> list[int]:
    """Peaks of ``solver`` (one of :data:`SOLVERS`) for each number of features/centres M, on
    ``n`` points of :func:`synthetic_data` drawn with ``seed`` (run in this process).

    ``"dbcd_block_as_features"`` runs DBCD-TR with the block size grown with M (b = M/4), so that
    its b x M block features and b x b matrix grow as M^2 (a control)."""
    from .features import synthetic_data

    if solver not in SOLVERS:
        raise ValueError(f"solver must be one of {SOLVERS}, not {solver!r}")
    X, y = synthetic_data(np.random.default_rng(seed), n, 3, "regression")
    if solver == "dbcd":
        return [dbcd_peak(X, y, M, block_size, 1.0, 1.0, seed) for M in features]
    if solver == "dbcd_block_as_features":  # the block size grown with M (b = M / 4)
        return [dbcd_peak(X, y, M, max(1, M // 4), 1.0, 1.0, seed) for M in features]
    if solver == "primal":
        return [primal_newton_peak(X, y, M, 1.0, 1.0, seed) for M in features]
    return [falkon_peak(X, y, M, 1.0, 1e-3, seed) for M in features]


def peak_series_fresh(solver: str, n: int, features: list[int], block_size: int, seed: int,
                      timeout: float = 120.0) -> list[int]:
    """:func:`peak_series` in a fresh Python process with a fixed hash seed.

    The small Python objects a computation allocates (a few hundred bytes beside megabytes of
    arrays) depend on what the process did before and on its hash seed; a fresh interpreter with
    PYTHONHASHSEED=0 running the same sequence gives the same byte counts every time.

    Raises:
        RuntimeError: when the child process fails (its error output is included).
    """
    import json
    import os
    import subprocess
    import sys

    code = ("import json, sys; from simulations.kernel_machines.memory import peak_series; "
            "a = json.loads(sys.argv[1]); print(json.dumps(peak_series(*a)))")
    env = dict(os.environ, PYTHONHASHSEED="0", OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    args = json.dumps([solver, int(n), [int(m) for m in features], int(block_size), int(seed)])
    done = subprocess.run([sys.executable, "-c", code, args], capture_output=True, text=True, env=env, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"the memory measurement failed in its process: {done.stderr[-2000:]}")
    return [int(v) for v in json.loads(done.stdout.strip().splitlines()[-1])]
