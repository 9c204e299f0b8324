"""3-CNF formulas: families of small formulas and satisfiability by enumerating assignments.

This module knows nothing of graphs or teaching maps: it is the formula side of the check of a
reduction from 3-SAT (:mod:`simulations.combinatorics.teaching_reduction`), kept apart so that the
two sides share no code.  A formula is a tuple of clauses; a clause is a tuple of non-zero
integers (DIMACS literals: ``v`` is the variable v, ``-v`` its negation, variables 1..n).
"""

from __future__ import annotations

import itertools

import numpy as np


def validate_cnf(clauses, n_variables: int) -> tuple[tuple[int, ...], ...]:
    """The formula as a tuple of tuples, after checking it is a 3-CNF over variables 1..n_variables.

    Every clause must hold exactly three literals on three distinct variables.
    Raises:
        ValueError: on n_variables < 1, a literal 0 or out of range, or a clause that is not on three
            distinct variables.
    """
    if n_variables < 1:
        raise ValueError(f"n_variables must be >= 1, got {n_variables}")
    out = []
    for clause in clauses:
        clause = tuple(int(lit) for lit in clause)
        variables = [abs(lit) for lit in clause]
        if len(clause) != 3 or len(set(variables)) != 3:
            raise ValueError(f"clause {clause} must have three literals on three distinct variables")
        if any(lit == 0 or abs(lit) > n_variables for lit in clause):
            raise ValueError(f"clause {clause}: literals must be +-v with 1 <= v <= {n_variables}")
        out.append(clause)
    return tuple(out)


def satisfying_assignment(clauses, n_variables: int) -> tuple[bool, ...] | None:
    """A satisfying assignment (index v - 1 holds variable v), found by trying all 2^n, or None.

    Exponential in n_variables; meant for n_variables <= 20.
    """
    clauses = validate_cnf(clauses, n_variables)
    for bits in itertools.product((False, True), repeat=n_variables):
        if all(any(bits[abs(lit) - 1] == (lit > 0) for lit in clause) for clause in clauses):
            return bits
    return None


def satisfying_assignments(clauses, n_variables: int, limit: int | None = None) -> list[tuple[bool, ...]]:
    """All satisfying assignments in lexicographic order (False < True), at most ``limit`` of them."""
    clauses = validate_cnf(clauses, n_variables)
    out = []
    for bits in itertools.product((False, True), repeat=n_variables):
        if limit is not None and len(out) >= limit:
            break
        if all(any(bits[abs(lit) - 1] == (lit > 0) for lit in clause) for clause in clauses):
            out.append(bits)
    return out


def evaluates_true(clauses, assignment) -> bool:
    """Whether the assignment (sequence of bools, index v - 1 for variable v) satisfies every clause."""
    return all(any(bool(assignment[abs(lit) - 1]) == (lit > 0) for lit in clause) for clause in clauses)


def all_clauses_on_three_variables() -> list[tuple[int, int, int]]:
    """The 8 clauses on the variables 1, 2, 3 (every sign pattern)."""
    return [tuple(s * v for s, v in zip(signs, (1, 2, 3), strict=True))
            for signs in itertools.product((1, -1), repeat=3)]


def _canonical(formula) -> tuple:
    # the hyperoctahedral group on 3 variables: permutations and sign flips (order 48)
    best = None
    for perm in itertools.permutations((1, 2, 3)):
        for flips in itertools.product((1, -1), repeat=3):
            image = tuple(sorted(tuple(sorted(flips[abs(lit) - 1] * (1 if lit > 0 else -1) * perm[abs(lit) - 1]
                                              for lit in clause)) for clause in formula))
            if best is None or image < best:
                best = image
    return best


def three_variable_formulas(up_to_symmetry: bool) -> list[tuple[tuple[int, int, int], ...]]:
    """Every non-empty 3-CNF formula with distinct clauses on the variables 1, 2, 3.

    There are 2^8 - 1 = 255 of them (subsets of the 8 possible clauses).  With ``up_to_symmetry``
    one representative per class under renaming and negating variables (the 48 symmetries of the
    cube): 21 classes besides the empty formula.  Exactly one formula (all 8 clauses) is
    unsatisfiable.
    """
    clauses = all_clauses_on_three_variables()
    formulas = [sub for r in range(1, 9) for sub in itertools.combinations(clauses, r)]
    if not up_to_symmetry:
        return formulas
    seen, out = set(), []
    for f in formulas:
        key = _canonical(f)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def two_level_unsatisfiable_formulas(up_to_symmetry: bool) -> list[tuple[tuple[int, int, int], ...]]:
    """Unsatisfiable 3-CNF over 4 variables with 8 clauses, one per choice of a branching variable per branch.

    For each sign pattern (a, b) of (x1, x2) the two clauses (a x1 or b x2 or y) and (a x1 or b x2 or not y),
    y = x3 or x4 chosen per pattern: 2^4 = 16 formulas.  Each is unsatisfiable: an assignment falsifies
    a x1 and b x2 for exactly one pattern (a, b), and then needs both y and not y.  With ``up_to_symmetry``,
    one per class under negating x1 or x2, swapping x1 with x2, and swapping x3 with x4 (4 classes: the same
    branching variable in 4 or in 3 branches, or 2 and 2, the pairs sharing a sign of x1 or diagonal).
    """
    patterns = list(itertools.product((1, -1), repeat=2))
    out, seen = [], set()
    for choice in itertools.product((3, 4), repeat=4):
        if up_to_symmetry:
            key = _two_level_class(dict(zip(patterns, choice, strict=True)))
            if key in seen:
                continue
            seen.add(key)
        out.append(tuple(clause for (a, b), y in zip(patterns, choice, strict=True)
                         for clause in ((a * 1, b * 2, y), (a * 1, b * 2, -y))))
    return out


def _two_level_class(choice: dict) -> tuple:
    images = []
    for fa, fb, swap, other in itertools.product((1, -1), (1, -1), (False, True), (False, True)):
        image = {}
        for (a, b), y in choice.items():
            a2, b2 = a * fa, b * fb
            key = (b2, a2) if swap else (a2, b2)
            image[key] = (7 - y) if other else y
        images.append(tuple(sorted(image.items())))
    return min(images)


def random_3cnf(rng: np.random.Generator, n_variables: int, n_clauses: int) -> tuple[tuple[int, int, int], ...]:
    """A random 3-CNF: each clause three distinct variables drawn uniformly, each negated with probability 1/2.

    Raises:
        ValueError: on n_variables < 3 or n_clauses < 1.
    """
    if n_variables < 3 or n_clauses < 1:
        raise ValueError(f"need n_variables >= 3 and n_clauses >= 1, got {n_variables}, {n_clauses}")
    out = []
    for _ in range(n_clauses):
        variables = rng.choice(np.arange(1, n_variables + 1), size=3, replace=False)
        signs = rng.choice(np.array([-1, 1]), size=3)
        out.append(tuple(int(v * s) for v, s in zip(variables, signs, strict=True)))
    return tuple(out)
