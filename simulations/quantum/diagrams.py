"""Figures of small instances for the report (plain functions of a claim's parameters)."""

from __future__ import annotations

import numpy as np

from .jordan import jordan_circuit, oracle_phases

DIAGRAM_D = 2  # registers drawn
DIAGRAM_N = 3  # qubits per register drawn


def jordan_circuit_diagram(params: dict | None = None):
    """Jordan's gradient circuit for $d = 2$ registers of 3 qubits: Hadamards, one oracle gate $O_f$
    (the single query), an inverse QFT per register, measurement of every qubit.

    The instance is the linear f(x) = 0.25 x_1 - 0.5 x_2 around x0 = 0 (grid width 1e-3, M = 1);
    ``params`` (the claim's parameters) is accepted for the report's interface and not needed.

    Returns:
        A matplotlib Figure drawn by qiskit's ``QuantumCircuit.draw("mpl")``.
    """
    del params
    grad = np.array([0.25, -0.5])
    phases = oracle_phases(lambda X: X @ grad, np.zeros(DIAGRAM_D), DIAGRAM_N, 1e-3, 1.0)
    qc = jordan_circuit(phases, DIAGRAM_D, DIAGRAM_N, measure=True)
    # The drawer renders $...$ as math and numbers the qubits inside a box at its left edge.
    labels = {"O_f": "$O_f$", "qft_dg": "    QFT$^\\dagger$"}
    for instruction in qc.data:
        if instruction.operation.name in labels:
            instruction.operation.label = labels[instruction.operation.name]
    return qc.draw("mpl", fold=-1)
