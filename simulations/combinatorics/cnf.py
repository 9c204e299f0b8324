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


def relabel(clauses, n_variables: int, permutation, signs, clause_order=None, literal_orders=None) -> tuple:
    """The formula with variable v renamed to permutation[v - 1] and negated when signs[v - 1] = -1.

    A symmetry of 3-SAT: an assignment a satisfies the formula iff the assignment b with
    b[permutation[v - 1] - 1] = a[v - 1] xor (signs[v - 1] = -1) satisfies the image.  Optionally the
    clauses are listed in ``clause_order`` (a permutation of range(m)) and the literals of clause j in
    ``literal_orders[j]`` (a permutation of range(3)); neither changes the formula as a Boolean function.

    Args:
        permutation: the images of the variables 1..n_variables, a permutation of them.
        signs: +1 or -1 per variable.
    Raises:
        ValueError: on a malformed formula, a permutation that is not one of 1..n_variables, a sign other
            than +-1, or orders that are not permutations of the right size.
    """
    clauses = validate_cnf(clauses, n_variables)
    permutation = [int(p) for p in permutation]
    signs = [int(s) for s in signs]
    if sorted(permutation) != list(range(1, n_variables + 1)):
        raise ValueError(f"permutation must be a permutation of 1..{n_variables}, got {permutation}")
    if len(signs) != n_variables or any(s not in (1, -1) for s in signs):
        raise ValueError(f"signs must be {n_variables} values +1 or -1, got {signs}")
    m = len(clauses)
    clause_order = list(range(m)) if clause_order is None else [int(j) for j in clause_order]
    literal_orders = [(0, 1, 2)] * m if literal_orders is None else [tuple(int(i) for i in o) for o in literal_orders]
    if sorted(clause_order) != list(range(m)) or len(literal_orders) != m or any(
            sorted(o) != [0, 1, 2] for o in literal_orders):
        raise ValueError("clause_order must permute range(m) and literal_orders hold a permutation of (0, 1, 2) "
                         "per clause")

    def image(lit: int) -> int:
        v = abs(lit)
        return (1 if lit > 0 else -1) * signs[v - 1] * permutation[v - 1]

    return tuple(tuple(image(clauses[j][i]) for i in literal_orders[j]) for j in clause_order)


def random_relabelling(rng: np.random.Generator, clauses, n_variables: int) -> tuple:
    """The formula under a uniformly random renaming and negation of its variables (one element of the
    hyperoctahedral group), its clauses and each clause's literals in random order; see :func:`relabel`."""
    m = len(clauses)
    return relabel(clauses, n_variables, rng.permutation(n_variables) + 1, rng.choice(np.array([-1, 1]), n_variables),
                   rng.permutation(m), [rng.permutation(3) for _ in range(m)])


def with_sparse_clauses(rng: np.random.Generator, clauses, n_variables: int, extra: int) -> tuple[int, tuple]:
    """The formula plus ``extra`` clauses, each on one variable of the formula and two new variables.

    Each new variable occurs exactly once (negated with probability 1/2), so the extra clauses are
    satisfiable on their own and the result is satisfiable iff the formula is.
    Returns:
        (number of variables, n_variables + 2 extra; the formula).
    Raises:
        ValueError: on a malformed formula or extra < 0.
    """
    clauses = validate_cnf(clauses, n_variables)
    if extra < 0:
        raise ValueError(f"extra must be >= 0, got {extra}")
    out = list(clauses)
    for i in range(extra):
        old = int(rng.integers(1, n_variables + 1))
        new = (n_variables + 2 * i + 1, n_variables + 2 * i + 2)
        signs = rng.choice(np.array([-1, 1]), 3)
        out.append(tuple(int(s * v) for s, v in zip(signs, (old, *new), strict=True)))
    return n_variables + 2 * extra, tuple(out)


def critical_3cnf(rng: np.random.Generator, n_variables: int) -> tuple[tuple[bool, ...], tuple]:
    """A 3-CNF with a unique satisfying assignment sigma, most of whose clauses sigma satisfies by one literal only.

    sigma is drawn uniformly.  Clauses with exactly one literal true under sigma are taken in random
    order, each kept when it excludes an assignment not yet excluded.  An assignment tau that no such
    clause excludes differs from sigma on at least n - 1 variables (when tau agrees with sigma on two
    variables y, y' and differs on x, the clause true under sigma on x only, with literals on y and y',
    excludes it).  While such assignments are left, a clause on three variables where the first of
    them differs from sigma, all three literals true under sigma, is added.  Deleting the true literal
    of a clause of the first kind leaves an unsatisfiable formula, and so does forcing a variable to
    the value sigma does not give: the formulas on which a reduction that deletes a literal or fixes a
    variable must fail.
    Returns:
        (sigma, index v - 1 for variable v; the formula).
    Raises:
        ValueError: on n_variables < 4 (on three variables an assignment can differ from sigma on just two
            variables and agree on the third, and no clause true under sigma on one literal excludes it).
    """
    if n_variables < 4:
        raise ValueError(f"need n_variables >= 4, got {n_variables}")
    sigma = tuple(bool(b) for b in rng.integers(0, 2, n_variables))

    def literal(v: int, true: bool) -> int:
        return v if sigma[v - 1] == true else -v

    def satisfies(tau, clause) -> bool:
        return any(tau[abs(lit) - 1] == (lit > 0) for lit in clause)

    left = [tau for tau in itertools.product((False, True), repeat=n_variables) if tau != sigma]
    pool = [tuple(literal(v, i == a) for i, v in enumerate(triple))
            for triple in itertools.combinations(range(1, n_variables + 1), 3) for a in range(3)]
    clauses = []
    for i in rng.permutation(len(pool)):
        if any(not satisfies(tau, pool[int(i)]) for tau in left):
            clauses.append(pool[int(i)])
            left = [tau for tau in left if satisfies(tau, pool[int(i)])]
    while left:
        differ = [v for v in range(1, n_variables + 1) if left[0][v - 1] != sigma[v - 1]]
        triple = sorted(int(v) for v in rng.choice(np.array(differ), 3, replace=False))
        clauses.append(tuple(literal(v, True) for v in triple))
        left = [tau for tau in left if satisfies(tau, clauses[-1])]
    return sigma, tuple(clauses)
