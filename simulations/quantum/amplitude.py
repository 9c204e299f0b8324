r"""Canonical quantum amplitude estimation (Brassard, Hoyer, Mosca, Tapp 2002) as a qiskit circuit.

The state preparation ``A = R_y(2 theta)`` maps ``|0>`` to ``cos(theta)|0> + sin(theta)|1>``, so
the amplitude to estimate is ``a = sin^2(theta)`` (a Bernoulli mean).  The Grover iterate is
``Q = A Z A^dagger Z`` (reflection about the good state ``|1>``, then about ``A|0>``); it
rotates by ``2 theta``, with eigenphases ``+-2 theta``.  Phase estimation with ``m`` counting
qubits applies controlled-``Q`` ``2^m - 1`` times in total (each one call to A and one to
A^dagger) after one call to A, then the inverse ``QFTGate``; outcome ``y`` gives
``a_hat = sin^2(pi y / 2^m)``.  Error ``O(sqrt(a(1-a)) / M + 1 / M^2)`` with ``M = 2^m``
(Theorem 12 of BHMT) against ``sqrt(a(1-a)/M)`` for the classical mean of M samples; this is
the quantum mean-estimation primitive used by Gong, Zhang and Li (ICLR 2025) on the Gaussian
smoothing.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

Q_LABEL = "Q"
A_LABEL = "A"


def amplitude_estimation_circuit(a, m: int):
    """Circuit of canonical amplitude estimation for ``a = sin^2(theta)``.

    Args:
        a: amplitude in [0, 1], or a qiskit ``Parameter`` standing for ``theta`` itself (the
            circuit is then bound later, see :func:`qae_distributions`).
        m: counting qubits (M = 2^m).

    Returns:
        ``QuantumCircuit`` on ``m + 1`` qubits: counting register ``[0, m)``, target qubit ``m``.

    Raises:
        ValueError: for a outside [0, 1] or m < 1.
    """
    from qiskit import QuantumCircuit
    from qiskit.circuit import Parameter
    from qiskit.circuit.library import QFTGate

    if m < 1:
        raise ValueError(f"m must be at least 1, not {m}")
    if isinstance(a, Parameter):
        theta = a
    else:
        if not 0.0 <= a <= 1.0:
            raise ValueError(f"the amplitude a must lie in [0, 1], not {a}")
        theta = float(np.arcsin(np.sqrt(a)))
    prep = QuantumCircuit(1, name=A_LABEL)
    prep.ry(2 * theta, 0)
    A = prep.to_gate(label=A_LABEL)
    grover = QuantumCircuit(1, name=Q_LABEL)
    grover.z(0)
    grover.append(A.inverse(), [0])
    grover.z(0)
    grover.append(A, [0])
    cQ = grover.to_gate(label=Q_LABEL).control(1)
    qc = QuantumCircuit(m + 1)
    qc.append(A, [m])
    qc.h(range(m))
    for k in range(m):
        for _ in range(2**k):
            qc.append(cQ, [k, m])
    qc.append(QFTGate(m).inverse(), range(m))
    return qc


def qae_distributions(amplitudes, m: int, threads: int = 1) -> tuple[np.ndarray, int]:
    """Exact output distributions of the amplitude-estimation circuit for several amplitudes.

    One parametrised circuit is transpiled once and run on Aer's statevector method with one
    parameter binding per amplitude.

    Returns:
        (probabilities of shape (len(amplitudes), 2^(m+1)), calls to A per run counted on the
        circuit).
    """
    from qiskit.circuit import Parameter

    from .jordan import aer_backend

    amplitudes = np.asarray(amplitudes, dtype=float)
    if np.any((amplitudes < 0) | (amplitudes > 1)):
        raise ValueError("amplitudes must lie in [0, 1]")
    theta = Parameter("theta")
    qc = amplitude_estimation_circuit(theta, m)
    calls = count_state_preparation_calls(qc)
    sim, pm = aer_backend(threads, 1)  # imports qiskit_aer, which adds save_probabilities
    circ = qc.copy()
    circ.save_probabilities()
    tq = pm.run(circ)
    binds = [{tq.parameters[0]: float(np.arcsin(np.sqrt(a)))} for a in amplitudes]
    res = sim.run([tq.assign_parameters(b) for b in binds]).result()
    probs = np.array([res.data(i)["probabilities"] for i in range(len(binds))], dtype=float)
    return probs, calls


def count_state_preparation_calls(qc) -> int:
    """Calls to A or A^dagger on the circuit: one per A gate plus two per (controlled) Q."""
    ops = qc.count_ops()
    n_q = sum(v for k, v in ops.items() if str(k).endswith(Q_LABEL) or str(k).startswith("c" + Q_LABEL))
    return int(ops.get(A_LABEL, 0) + 2 * n_q)


def estimate_distribution(probs: np.ndarray, m: int) -> tuple[np.ndarray, np.ndarray]:
    """Estimates ``sin^2(pi y / 2^m)`` and their probabilities from the full output distribution.

    Args:
        probs: distribution over the m + 1 qubits (qiskit order: counting qubits least significant).
    """
    M = 2**m
    p_y = np.asarray(probs, dtype=float).reshape(2, M).sum(axis=0)
    return np.sin(np.pi * np.arange(M) / M) ** 2, p_y


def median_abs_error(values: np.ndarray, probs: np.ndarray, target: float) -> float:
    """Median of ``|value - target|`` under the discrete distribution ``probs`` (lower median)."""
    err = np.abs(np.asarray(values, dtype=float) - target)
    order = np.argsort(err, kind="stable")
    cdf = np.cumsum(np.asarray(probs, dtype=float)[order])
    return float(err[order][np.searchsorted(cdf, 0.5 - 1e-12)])


def classical_median_abs_error(a: float, samples: int) -> float:
    """Median of ``|k / samples - a|`` for ``k ~ Binomial(samples, a)`` (exact)."""
    if samples < 1:
        raise ValueError(f"samples must be at least 1, not {samples}")
    k = np.arange(samples + 1)
    return median_abs_error(k / samples, stats.binom.pmf(k, samples, a), a)
