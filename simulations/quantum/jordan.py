r"""Jordan's quantum gradient estimation as a qiskit circuit, with an independent numpy reference.

Source: S. P. Jordan, "Fast quantum algorithm for numerical gradient estimation", PRL 95,
050501 (2005); the noisy-oracle version used by Gong, Zhang and Li, "Robustness of Quantum
Algorithms for Nonconvex Optimization" (ICLR 2025, arXiv:2212.02548) through Chakrabarti,
Childs, Li and Wu (Quantum 4, 221, 2020).

Conventions (qiskit, little endian):

* ``d`` registers of ``n`` qubits each; register ``j`` holds qubits ``[j n, (j+1) n)`` and the
  basis index of the whole device is ``I = sum_j k_j N^j`` with ``N = 2^n``.
* Register value ``k`` samples the cube of side ``h`` centred at ``x0``:
  ``x(k) = x0 + h (k - N/2) / N`` (componentwise).
* The phase oracle multiplies ``|k>`` by ``exp(2 pi i S (f(x(k)) - f(x0)))`` with
  ``S = N / (2 M h)``, where ``M`` bounds ``|d_j f|`` near ``x0``.  One application of this
  gate is one oracle query; it is appended as one named gate ``"O_f"`` so that queries are
  counted on the circuit itself (before transpilation unrolls it).
* After the oracle each register goes through the inverse ``QFTGate``; the outcome ``g_j``
  (signed: ``g - N`` when ``g >= N/2``) estimates ``d_j f(x0) ~ 2 M g_j / N``; the resolution is
  ``2 M / N`` and the range ``|d_j f| < M``.

For ``f`` linear with ``N d_j f / (2M)`` an integer the output is that integer with probability
one; otherwise each register follows the Fejer kernel (see :mod:`simulations.quantum.emulator`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

ORACLE_LABEL = "O_f"


def _check_sizes(d: int, n: int) -> None:
    if int(d) != d or d < 1:
        raise ValueError(f"the number of registers d must be a positive integer, not {d!r}")
    if int(n) != n or n < 1:
        raise ValueError(f"the qubits per register n must be a positive integer, not {n!r}")


def grid_points(x0, n: int, h: float) -> np.ndarray:
    """Sample points of the Jordan grid, in qiskit basis order.

    Args:
        x0: centre, shape (d,).
        n: qubits per register (N = 2^n points per axis).
        h: side of the sampled cube (> 0), same unit as x0.

    Returns:
        Array of shape (N^d, d): row ``I`` is ``x(k)`` for ``I = sum_j k_j N^j``.

    Raises:
        ValueError: on a non-positive ``h`` or bad sizes.
    """
    x0 = np.atleast_1d(np.asarray(x0, dtype=float))
    d = x0.size
    _check_sizes(d, n)
    if not h > 0:
        raise ValueError(f"the grid width h must be positive, not {h!r}")
    N = 2**n
    idx = np.arange(N**d)
    ks = np.stack([(idx // N**j) % N for j in range(d)], axis=1)
    return x0 + h * (ks - N / 2) / N


def phase_scale(n: int, h: float, M: float) -> float:
    """The oracle's phase scale ``S = N / (2 M h)`` (phase per unit of f is ``2 pi S``)."""
    if not (h > 0 and M > 0):
        raise ValueError(f"h and M must be positive, got h={h!r}, M={M!r}")
    return 2**n / (2.0 * M * h)


def oracle_phases(f: Callable[[np.ndarray], np.ndarray], x0, n: int, h: float, M: float,
                  noise: Callable[[np.ndarray], np.ndarray] | None = None) -> np.ndarray:
    """Phases ``2 pi S (f(x(k)) + e(x(k)) - f(x0))`` on the grid, in qiskit basis order.

    Args:
        f: vectorised function, points of shape (m, d) -> values of shape (m,).
        x0, n, h, M: grid and scale (see the module docstring).
        noise: optional bounded perturbation ``e`` of the evaluation oracle (same signature as f).

    Returns:
        Real array of shape (N^d,), radians.
    """
    pts = grid_points(x0, n, h)
    S = phase_scale(n, h, M)
    x0 = np.atleast_1d(np.asarray(x0, dtype=float))
    vals = np.asarray(f(pts), dtype=float) - float(np.asarray(f(x0[None, :]), dtype=float)[0])
    if noise is not None:
        vals = vals + np.asarray(noise(pts), dtype=float)
    if vals.shape != (pts.shape[0],):
        raise ValueError(f"f must map ({pts.shape[0]}, d) points to ({pts.shape[0]},) values, got {vals.shape}")
    return 2 * np.pi * S * vals


def jordan_circuit(phases: np.ndarray, d: int, n: int, *, reverse_qft: bool = False,
                   measure: bool = False):
    """Jordan's circuit: H on every qubit, one phase-oracle gate ``O_f``, inverse QFT per register.

    Args:
        phases: oracle phases, shape (N^d,), qiskit basis order (from :func:`oracle_phases`).
        d, n: registers and qubits per register.
        reverse_qft: apply the forward QFT instead of its inverse (a deliberately wrong circuit,
            which returns the negated gradient).
        measure: add measurements of every qubit.

    Returns:
        A ``qiskit.QuantumCircuit`` on ``d n`` qubits.
    """
    from qiskit import QuantumCircuit
    from qiskit.circuit.library import DiagonalGate, QFTGate

    _check_sizes(d, n)
    phases = np.asarray(phases, dtype=float)
    if phases.shape != (2 ** (d * n),):
        raise ValueError(f"phases must have shape ({2 ** (d * n)},), got {phases.shape}")
    q = d * n
    qc = QuantumCircuit(q, q if measure else 0)
    qc.h(range(q))
    oracle = QuantumCircuit(q, name=ORACLE_LABEL)
    oracle.append(DiagonalGate(list(np.exp(1j * phases))), range(q))
    qc.append(oracle.to_gate(label=ORACLE_LABEL), range(q))
    for j in range(d):
        gate = QFTGate(n) if reverse_qft else QFTGate(n).inverse()
        qc.append(gate, range(j * n, (j + 1) * n))
    if measure:
        qc.measure(range(q), range(q))
    return qc


def count_oracle_queries(qc, label: str = ORACLE_LABEL) -> int:
    """Number of oracle gates named ``label`` on the (untranspiled) circuit."""
    return int(qc.count_ops().get(label, 0))


@lru_cache(maxsize=8)
def aer_backend(threads: int = 1, optimization_level: int = 1):
    """An Aer statevector simulator and a preset pass manager for it, built once per process.

    Building the pass manager dominates the cost of small circuits (about 0.5 s), so it is
    cached.  ``optimization_level=0`` keeps the QFT's final swaps (no permuted layout).
    """
    import qiskit_aer  # noqa: F401  (patches QuantumCircuit.save_probabilities)
    from qiskit.transpiler import generate_preset_pass_manager
    from qiskit_aer import AerSimulator

    sim = AerSimulator(method="statevector", max_parallel_threads=threads)
    return sim, generate_preset_pass_manager(optimization_level=optimization_level, backend=sim)


def aer_probabilities(qc, threads: int = 1) -> np.ndarray:
    """Exact output distribution of ``qc`` (no measurements) from Aer's statevector method.

    Returns:
        Array of shape (2^q,), qiskit basis order, summing to one.
    """
    sim, pm = aer_backend(threads, 1)  # imports qiskit_aer, which adds save_probabilities
    circ = qc.copy()
    circ.save_probabilities()
    return np.asarray(sim.run(pm.run(circ)).result().data()["probabilities"], dtype=float)


def aer_statevector(qc, threads: int = 1) -> np.ndarray:
    """Output statevector of ``qc`` from Aer, in qiskit basis order (global phase kept)."""
    sim, pm = aer_backend(threads, 0)
    circ = qc.copy()
    circ.save_statevector()
    return np.asarray(sim.run(pm.run(circ)).result().get_statevector(), dtype=complex)


def numpy_probabilities(phases: np.ndarray, d: int, n: int) -> np.ndarray:
    """Reference output distribution of Jordan's circuit by FFT, with no qiskit involved.

    The state after H and the oracle is ``exp(i phases) / N^{d/2}``; the inverse QFT on each
    register is ``fft / sqrt(N)`` along that axis.  Axis ``j`` of the reshaped array is
    register ``d-1-j`` (little endian), which the flat qiskit order keeps.
    """
    _check_sizes(d, n)
    N = 2**n
    psi = np.exp(1j * np.asarray(phases, dtype=float)).reshape((N,) * d)
    amp = np.fft.fftn(psi) / N**d
    return (np.abs(amp) ** 2).ravel()


def register_marginals(probs: np.ndarray, d: int, n: int) -> np.ndarray:
    """Per-register marginal distributions, shape (d, N); row j is register j."""
    N = 2**n
    P = np.asarray(probs, dtype=float).reshape((N,) * d)
    out = np.empty((d, N))
    for j in range(d):
        axis = d - 1 - j
        other = tuple(a for a in range(d) if a != axis)
        out[j] = P.sum(axis=other) if other else P
    return out


def signed_outcome(g, n: int):
    """Outcome ``g`` in [0, N) read as a signed integer in [-N/2, N/2)."""
    N = 2**n
    g = np.asarray(g)
    return np.where(g >= N // 2, g - N, g)


def mode_estimate(probs: np.ndarray, d: int, n: int, M: float) -> np.ndarray:
    """Gradient read from the most likely outcome of each register: ``2 M signed(g_j) / N``."""
    marg = register_marginals(probs, d, n)
    return 2.0 * M * signed_outcome(np.argmax(marg, axis=1), n) / 2**n


@dataclass
class JordanResult:
    """Result of :func:`jordan_gradient`.

    Attributes:
        estimate: coordinatewise median of the runs' estimates, shape (d,).
        resolution: ``2 M / N``, the bin width of one register.
        queries: oracle queries used, counted on the circuit (gates ``O_f``) times the runs.
        runs: number of circuit executions (shots) combined.
        probabilities: exact output distribution of one run, shape (N^d,).
        circuit: the (untranspiled) circuit of one run.
    """

    estimate: np.ndarray
    resolution: float
    queries: int
    runs: int
    probabilities: np.ndarray
    circuit: object


def jordan_gradient(f: Callable[[np.ndarray], np.ndarray], x, *, n: int, h: float, M: float,
                    rng: np.random.Generator, runs: int = 1, noise=None, backend: str = "aer",
                    reverse_qft: bool = False) -> JordanResult:
    """Estimate ``grad f(x)`` with Jordan's circuit: ``runs`` executions, coordinatewise median.

    The circuit's exact output distribution is computed (Aer statevector, or the numpy
    reference with ``backend="numpy"``) and ``runs`` outcomes are drawn from it with ``rng``.
    Each run costs the number of ``O_f`` gates on the circuit, which is one whatever ``d``.

    Args:
        f: vectorised objective, (m, d) -> (m,).
        x: point, shape (d,).
        n: qubits per register; h: grid width; M: bound on ``|d_j f|`` near x.
        rng: numpy Generator used to sample the outcomes.
        runs: number of independent executions (odd values make the median one outcome).
        noise: optional bounded oracle perturbation e(x), as in :func:`oracle_phases`.
        backend: ``"aer"`` or ``"numpy"``.
        reverse_qft: build the deliberately wrong circuit (forward QFT).

    Raises:
        ValueError: on an unknown backend or ``runs < 1``.
    """
    if runs < 1:
        raise ValueError(f"runs must be at least 1, not {runs}")
    if backend not in ("aer", "numpy"):
        raise ValueError(f"backend must be 'aer' or 'numpy', not {backend!r}")
    x = np.atleast_1d(np.asarray(x, dtype=float))
    d = x.size
    phases = oracle_phases(f, x, n, h, M, noise)
    qc = jordan_circuit(phases, d, n, reverse_qft=reverse_qft)
    if backend == "aer":
        probs = aer_probabilities(qc)
    else:
        if reverse_qft:
            raise ValueError("the numpy reference implements only the correct (inverse) QFT")
        probs = numpy_probabilities(phases, d, n)
    probs = np.clip(probs, 0.0, None)
    idx = rng.choice(probs.size, size=runs, p=probs / probs.sum())
    N = 2**n
    g = np.stack([(idx // N**j) % N for j in range(d)], axis=1)
    est = np.median(2.0 * M * signed_outcome(g, n) / N, axis=0)
    return JordanResult(estimate=est, resolution=2.0 * M / N, queries=count_oracle_queries(qc) * runs,
                        runs=runs, probabilities=probs, circuit=qc)


# --------------------------------------------------------------------------- binary oracle
def rounded_oracle_values(values: np.ndarray, S: float, n_out: int) -> np.ndarray:
    """Integer outputs ``F = round(2^{n_out} S f) mod 2^{n_out}`` of an ``n_out``-bit oracle."""
    if n_out < 1:
        raise ValueError(f"n_out must be at least 1, not {n_out}")
    return np.mod(np.rint(2**n_out * S * np.asarray(values, dtype=float)), 2**n_out).astype(np.int64)


def binary_oracle_unitary(F: np.ndarray, n_in: int, n_out: int, *, transpose: bool = False) -> np.ndarray:
    r"""Permutation matrix of the binary evaluation oracle ``U|k>|y> = |k>|y + F(k) mod 2^{n_out}>``.

    Input qubits are ``[0, n_in)``, output qubits ``[n_in, n_in + n_out)``; the basis index is
    ``k + 2^{n_in} y``.  The matrix follows qiskit's ``U[out, in] = 1``; ``transpose=True``
    returns ``U^T`` (which subtracts F: a deliberately wrong oracle).

    Raises:
        ValueError: when F does not have ``2^{n_in}`` entries, or the matrix would exceed 12 qubits.
    """
    F = np.asarray(F, dtype=np.int64)
    if F.shape != (2**n_in,):
        raise ValueError(f"F must have {2**n_in} entries, got shape {F.shape}")
    if n_in + n_out > 12:
        raise ValueError(f"a dense {n_in + n_out}-qubit permutation is too large (limit 12 qubits)")
    K, Y = 2**n_in, 2**n_out
    k = np.tile(np.arange(K), Y)
    y = np.repeat(np.arange(Y), K)
    src = k + K * y
    dst = k + K * np.mod(y + F[k], Y)
    U = np.zeros((K * Y, K * Y))
    U[dst, src] = 1.0
    return U.T.copy() if transpose else U


def kickback_circuit(F: np.ndarray, d: int, n: int, n_out: int, *, transpose: bool = False,
                     reverse_qft: bool = False):
    """Jordan's circuit with the binary oracle and phase kickback (the ICLR paper's query model).

    The output register is prepared in ``QFT^dagger |1>``, an eigenvector of ``y -> y + c`` with
    eigenvalue ``exp(2 pi i c / 2^{n_out})``; one binary query then imprints the phase
    ``2 pi F(k) / 2^{n_out}`` on the input registers, i.e. the phase oracle of the rounded f.

    Returns:
        A ``QuantumCircuit`` on ``d n + n_out`` qubits (input registers first).
    """
    from qiskit import QuantumCircuit
    from qiskit.circuit.library import QFTGate, UnitaryGate

    _check_sizes(d, n)
    q_in = d * n
    qc = QuantumCircuit(q_in + n_out)
    qc.x(q_in)
    qc.append(QFTGate(n_out).inverse(), range(q_in, q_in + n_out))
    qc.h(range(q_in))
    U = binary_oracle_unitary(F, q_in, n_out, transpose=transpose)
    oracle = QuantumCircuit(q_in + n_out, name=ORACLE_LABEL)
    oracle.append(UnitaryGate(U, check_input=False), range(q_in + n_out))
    qc.append(oracle.to_gate(label=ORACLE_LABEL), range(q_in + n_out))
    for j in range(d):
        gate = QFTGate(n) if reverse_qft else QFTGate(n).inverse()
        qc.append(gate, range(j * n, (j + 1) * n))
    return qc


def input_register_probabilities(probs: np.ndarray, q_in: int) -> np.ndarray:
    """Marginal distribution of the first ``q_in`` qubits of a distribution over more qubits."""
    probs = np.asarray(probs, dtype=float)
    return probs.reshape(-1, 2**q_in).sum(axis=0)


def cosine_noise(x0, n: int, h: float, nu: float, register: int = 0):
    """Bounded oracle noise ``e(x) = nu cos(2 pi k_r / N)`` along one register's grid index.

    On the grid it adds the phase ``a cos(2 pi k_r / N)`` with ``a = 2 pi S nu``; since
    ``exp(i a cos t) = sum_m i^m J_m(a) exp(i m t)``, the correct outcome of an integer-aligned
    gradient then has probability ``J_0(a)^2`` up to aliasing terms ``|J_{lN}(a)|`` (Jacobi-Anger).

    Returns:
        A vectorised callable, points (m, d) -> noise values (m,).
    """
    x0 = np.atleast_1d(np.asarray(x0, dtype=float))
    N = 2**n

    def noise(points: np.ndarray) -> np.ndarray:
        k = np.rint((points[:, register] - x0[register]) * N / h + N / 2)
        return nu * np.cos(2 * np.pi * k / N)

    return noise
