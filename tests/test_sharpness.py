"""How much a verdict proves: fail-closed one-sided rates, sharpness, near misses, several pieces
of evidence, roles, parameter controls and the adversarial search.

Expected values come from closed forms computed here by hand or from scipy (``linregress`` for
the fitted slope and its standard error), never from the engine's own arithmetic.
"""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest
from scipy import stats

from workbench import (
    AllOf,
    Bound,
    Comparison,
    Identity,
    NearMiss,
    Paper,
    Param,
    Proportion,
    Rate,
    Symbolic,
    claim,
)
from workbench.context import Context
from workbench.evidence import EvidenceError, Verdict, assess_near_miss, decide
from workbench.execute import run_claim
from workbench.model import ClaimDefinitionError, NotChecked, Registry

V = Verdict
SIZES = np.geomspace(10, 10_000, 8)


def _costs_with_interval(slope: float, residual: float) -> np.ndarray:
    """Costs whose log-log fit has the given slope, with alternating residuals of +-residual."""
    signs = np.array([1, -1, -1, 1, 1, -1, -1, 1], dtype=float)  # orthogonal to 1 and to log-size's trend
    return np.exp(slope * np.log(SIZES) + residual * signs)


def _scipy_interval(costs: np.ndarray, level: float = 0.95) -> tuple[float, float, float]:
    fit = stats.linregress(np.log(SIZES), np.log(costs))
    half = stats.t.ppf(0.5 + level / 2, SIZES.size - 2) * fit.stderr
    return fit.slope, fit.slope - half, fit.slope + half


# ------------------------------------------------------------------ fail-closed one-sided rates
def test_one_sided_rate_straddling_the_claim_is_inconclusive_not_verified():
    # A fit of -0.67 with interval about [-0.71, -0.63] does not verify "decays at least as fast
    # as T^-0.7": most of the interval lies on the wrong side.
    costs = _costs_with_interval(-0.67, 0.09)
    slope, lo, hi = _scipy_interval(costs)
    assert slope == pytest.approx(-0.67) and lo < -0.7 < hi
    d = decide(Rate(SIZES, costs, exponent=-0.7, relation="<=", why="synthetic"))
    assert d.verdict is V.INCONCLUSIVE


@pytest.mark.parametrize("claimed, relation, expected", [
    (-0.5, "<=", V.VERIFIED),     # the whole interval below -0.5
    (-0.75, "<=", V.REFUTED),     # the whole interval above -0.75
    (-0.62, "<=", V.INCONCLUSIVE),  # inside the interval
    (-0.75, ">=", V.VERIFIED),
    (-0.5, ">=", V.REFUTED),
    (-0.62, ">=", V.INCONCLUSIVE),
])
def test_one_sided_rate_rules_against_the_scipy_interval(claimed, relation, expected):
    costs = _costs_with_interval(-0.62, 0.02)
    slope, lo, hi = _scipy_interval(costs)
    assert lo < -0.62 < hi and hi < -0.5 and lo > -0.75  # the premises of the table above
    d = decide(Rate(SIZES, costs, exponent=claimed, relation=relation, why="synthetic"))
    assert d.verdict is expected
    assert d.headline["ci_low"] == pytest.approx(lo, abs=1e-12)
    assert d.headline["ci_high"] == pytest.approx(hi, abs=1e-12)


def test_rate_tolerance_is_the_allowance_of_the_one_sided_rule():
    costs = _costs_with_interval(-0.5, 0.02)
    _, lo, hi = _scipy_interval(costs)
    tol = (hi - (-0.5)) + 1e-6  # just enough for hi <= e + tol
    assert decide(Rate(SIZES, costs, exponent=-0.5, relation="<=", tolerance=tol, why="x")).verdict is V.VERIFIED
    assert decide(Rate(SIZES, costs, exponent=-0.5, relation="<=", why="x")).verdict is V.INCONCLUSIVE


R = 2000


@pytest.mark.parametrize("relation", ["<=", ">="])
def test_one_sided_rate_calibration_at_the_claimed_exponent(relation):
    """On data exactly at the claimed exponent (no tolerance), each one-sided verdict comes out
    at its stated rate: REFUTED and VERIFIED each with probability (1 - level)/2, INCONCLUSIVE
    otherwise."""
    rng = np.random.default_rng(777)
    verdicts = []
    for _ in range(R):
        costs = 3.0 * SIZES**-0.5 * np.exp(rng.normal(scale=0.1, size=SIZES.size))
        verdicts.append(decide(Rate(SIZES, costs, exponent=-0.5, relation=relation, why="synthetic")).verdict)
    alpha = 0.025
    lo_count, hi_count = stats.binom.ppf(0.0005, R, alpha), stats.binom.ppf(0.9995, R, alpha)
    for v in (V.REFUTED, V.VERIFIED):
        n = sum(x is v for x in verdicts)
        assert lo_count <= n <= hi_count, f"{n} {v} of {R}; Binomial({R}, {alpha}) allows [{lo_count}, {hi_count}]"


def test_comparison_at_its_margin_is_decided_either_way_at_most_at_the_stated_rate():
    """Paired differences whose mean is exactly -margin: the claim 'less by more than the margin'
    is on its boundary, so VERIFIED and REFUTED each come out with probability about
    (1 - level)/2 (the t interval is exact for Gaussian differences)."""
    rng = np.random.default_rng(99)
    verdicts = [decide(Comparison(rng.normal(-0.5, 1.0, 30), np.zeros(30), margin=0.5, why="synthetic")).verdict
                for _ in range(R)]
    lo_count, hi_count = stats.binom.ppf(0.0005, R, 0.025), stats.binom.ppf(0.9995, R, 0.025)
    for v in (V.REFUTED, V.VERIFIED):
        assert lo_count <= sum(x is v for x in verdicts) <= hi_count


def test_comparison_with_constant_differences_uses_the_sign_test():
    # 20 pairs, all -1, margin 0.9: every pair beyond the margin, 0.5^20 << 0.025.
    d = decide(Comparison(np.zeros(20), np.ones(20), margin=0.9, why="x"))
    assert d.verdict is V.VERIFIED and "sign test" in d.summary and "median" in d.summary
    assert decide(Comparison(np.zeros(20), np.zeros(20), margin=0.1, why="x")).verdict is V.REFUTED  # identical
    assert decide(Comparison(np.zeros(4), np.ones(4), why="x")).verdict is V.INCONCLUSIVE  # 0.5^4 > 0.025


def test_rate_with_a_claimed_constant():
    costs = 4.0 * SIZES**-0.5 * np.exp(0.01 * np.array([1, -1, -1, 1, 1, -1, -1, 1]))
    ok = Rate(SIZES, costs, exponent=-0.5, constant=4.0, why="x")
    assert decide(ok).verdict is V.VERIFIED
    assert decide(Rate(SIZES, costs, exponent=-0.5, constant=3.0, why="x")).verdict is V.REFUTED
    # Near misses: the exponent moved by 0.25 both ways and the constant halved and doubled.
    nm = assess_near_miss(ok)
    assert nm["outcome"] == "refuted" and len(nm["cases"]) == 4
    with pytest.raises(EvidenceError, match="Bound"):
        Rate(SIZES, costs, exponent=-0.5, relation="<=", constant=4.0, why="x")


def test_rate_fields_are_validated_when_made():
    with pytest.raises(EvidenceError, match="finite"):
        Rate(SIZES, SIZES, exponent=float("nan"), why="x")
    with pytest.raises(EvidenceError, match="tolerance"):
        Rate(SIZES, SIZES, exponent=1.0, tolerance=-0.1, why="x")
    with pytest.raises(EvidenceError, match="level"):
        Rate(SIZES, SIZES, exponent=1.0, level=1.5, why="x")


# ------------------------------------------------------------------ sharpness
def test_bound_tightness_is_the_largest_ratio():
    m, b = np.array([1.0, 3.0, 2.0]), np.array([4.0, 4.0, 8.0])
    d = decide(Bound(m, b, why="x"))
    assert d.sharpness["value"] == pytest.approx(0.75)  # 3/4, by hand
    assert "0.75 times the claimed one" in d.sharpness["sentence"]
    lower = decide(Bound([4.0, 6.0], [2.0, 2.0], relation=">=", why="x"))
    assert lower.sharpness["value"] == pytest.approx(0.5)  # bound/measured: max(2/4, 2/6)
    assert "2 times the claimed one" in lower.sharpness["sentence"]


def test_bound_attained():
    assert decide(Bound([0.9, 0.2], [1.0, 1.0], attained=0.8, why="x")).verdict is V.VERIFIED
    d = decide(Bound([0.5, 0.2], [1.0, 1.0], attained=0.8, why="x"))
    assert d.verdict is V.REFUTED and "not attained" in d.summary


def test_proportion_and_comparison_sharpness_from_their_intervals():
    lo, hi = stats.binomtest(95, 100).proportion_ci(0.95, method="wilson")
    d = decide(Proportion(95, 100, 0.9, why="x"))
    assert d.sharpness["value"] == pytest.approx(lo)
    a, b = np.array([1.0, 2.0, 3.0, 4.0]), np.array([2.0, 3.1, 4.0, 5.2])
    diff = a - b
    half = stats.t.ppf(0.975, 3) * diff.std(ddof=1) / 2
    c = decide(Comparison(a, b, margin=0.5, why="x"))
    assert c.sharpness["range"] == pytest.approx([diff.mean() - half, diff.mean() + half])
    assert c.sharpness["value"] == pytest.approx(-(diff.mean() + half))


def test_identity_sharpness_is_the_tolerance_relative_to_the_values():
    d = decide(Identity([2.0, 4.0], [2.0, 4.0], rtol=1e-9, atol=1e-8, why="x"))
    # A scaling of the references shows first where the tolerance is finest: (1e-8 + 4e-9)/4, by hand.
    assert d.sharpness["value"] == pytest.approx((1e-8 + 1e-9 * 4.0) / 4.0)


# ------------------------------------------------------------------ near misses
def test_default_near_misses_per_kind():
    tight = Bound([3.0, 1.0], [4.0, 4.0], why="x")      # tightness 0.75 > 1/2: halving the bound fails
    loose = Bound([1.0, 1.0], [4.0, 4.0], why="x")      # tightness 0.25 < 1/2: slack
    assert assess_near_miss(tight)["outcome"] == "refuted"
    assert assess_near_miss(loose)["outcome"] == "verified"
    assert assess_near_miss(Bound([0.0], [0.0], why="x"))["outcome"] == "underivable"
    # Proportion >= 0.9: the near miss asks >= 0.95, which 990/1000 verifies too and 930/1000 refutes.
    assert assess_near_miss(Proportion(990, 1000, 0.9, why="x"))["outcome"] == "verified"
    assert assess_near_miss(Proportion(930, 1000, 0.9, why="x"))["outcome"] == "refuted"
    assert assess_near_miss(Comparison([1.0, 2.0], [2.0, 3.5], why="x"))["outcome"] == "underivable"
    x = __import__("sympy").symbols("x")
    assert assess_near_miss(Symbolic(x - x, why="x"))["outcome"] == "exact"
    assert assess_near_miss(Identity(1.0, 1.0, rtol=1e-12, why="x"))["outcome"] == "refuted"
    assert assess_near_miss(Identity(1.0, 1.0, rtol=0.1, why="x"))["outcome"] == "verified"


def test_declared_near_miss_and_none():
    b = Bound([1.0, 1.0], [4.0, 4.0], why="x")
    assert assess_near_miss(b, NearMiss(scale=0.2, why="the constant is known to 20 %"))["outcome"] == "refuted"
    assert assess_near_miss(b, NearMiss(to=0.5, why="x"))["outcome"] == "refuted"
    assert assess_near_miss(b, NearMiss(to=1.5, why="x"))["outcome"] == "verified"
    r = Rate(SIZES, _costs_with_interval(-0.5, 0.01), exponent=-0.5, why="x")
    assert assess_near_miss(r, NearMiss(shift=0.05, why="x"))["outcome"] == "refuted"
    none = assess_near_miss(b, NearMiss.none("an existence statement"))
    assert none["outcome"] == "none" and "existence" in none["sentence"]
    with pytest.raises(EvidenceError, match="why"):
        NearMiss(scale=0.5)
    with pytest.raises(EvidenceError, match="exactly one"):
        NearMiss(scale=0.5, shift=1.0, why="x")


def test_all_of_needs_every_piece_and_is_sharp_when_one_piece_is():
    good = Bound([3.0], [4.0], why="x")
    loose = Bound([1.0], [4.0], why="x")
    bad = Bound([5.0], [4.0], why="x")
    assert decide(AllOf([good, loose], labels=["a", "b"])).verdict is V.VERIFIED
    assert decide(AllOf([good, bad])).verdict is V.REFUTED
    assert decide(AllOf([good, Proportion(5, 10, 0.5, why="x")])).verdict is V.INCONCLUSIVE
    # A near miss moves one piece's number with the others unchanged: every piece must refute its own.
    assert assess_near_miss(AllOf([good, good]))["outcome"] == "refuted"
    assert assess_near_miss(AllOf([good, loose]))["outcome"] == "verified"
    assert assess_near_miss(AllOf([good, Bound([0.0], [0.0], why="x")]))["outcome"] == "refuted"  # no number: neutral
    with pytest.raises(EvidenceError):
        AllOf([])


# ------------------------------------------------------------------ claims: roles, controls, grades
def _paper(**kw):
    return Paper(slug="sharp_paper", title="T", authors=("A",), venue="V", year=2025, arxiv="0", **kw)


def test_role_is_required_and_reconstruction_names_its_source():
    reg = Registry()
    with pytest.raises(ClaimDefinitionError, match="role"):
        claim(_paper(), source="s", evidence="bound", statement="s", registry=reg)(lambda ctx: None)
    with pytest.raises(ClaimDefinitionError, match="reconstructed_from"):
        claim(_paper(), role="headline", source="s", evidence="bound", statement="s", reconstructed=True,
              registry=reg)(lambda ctx: None)
    c = claim(_paper(), role="headline", source="s", evidence="bound", statement="s", registry=reg,
              reconstructed_from="the abstract")(lambda ctx: None)
    assert c.reconstructed and c.reconstructed_from == "the abstract"


def test_not_checked_entries_carry_a_role():
    p = _paper(not_checked=(NotChecked("a lower bound", "over all algorithms", "headline"),
                            ("an experiment", "too large here", "supporting")))
    assert [e.role for e in p.not_checked] == ["headline", "supporting"]
    assert _paper().not_checked is None and _paper(not_checked=()).not_checked == ()
    with pytest.raises(ClaimDefinitionError, match="role"):
        _paper(not_checked=(("a statement", "a reason"),))


def _scaled_bound(ctx):
    """measured = 3, bound = 4 c: tight for c = 1."""
    return Bound([3.0], [4.0 * ctx["c"]], why="exact arithmetic")


def test_parameter_control_runs_the_claims_function_outside_the_range():
    reg = Registry()
    c = claim(_paper(), role="headline", source="s", evidence="bound", statement="s", registry=reg,
              params={"c": Param(1.0, low=0.9, high=2.0, doc="scale of the bound")})(_scaled_bound)
    ctl = c.control("the bound scaled by 0.5", params={"c": 0.5}, near_miss=True)
    assert ctl.near_miss and ctl.params == {"c": 0.5} and ctl.func is _scaled_bound
    result = run_claim(c)
    assert result.outcome.verdict is V.VERIFIED and result.controls[0][1].verdict is V.REFUTED
    assert result.verdict is V.VERIFIED and result.grade == "sharp"  # tightness 0.75 > 1/2
    with pytest.raises(ClaimDefinitionError, match="not a declared parameter"):
        c.control("x", params={"nope": 1})
    with pytest.raises(ClaimDefinitionError, match="float"):
        c.control("x", params={"c": "abc"})


def test_slack_claim_is_graded_slack():
    reg = Registry()
    c = claim(_paper(), role="headline", source="s", evidence="bound", statement="s", registry=reg,
              params={"c": Param(3.0, low=0.1, high=10.0, doc="scale")})(_scaled_bound)
    c.control("a bound below the measured value", params={"c": 0.5})
    result = run_claim(c)
    assert result.verdict is V.VERIFIED and result.grade == "slack"  # tightness 0.25
    assert result.outcome.decision.near_miss["outcome"] == "verified"


# ------------------------------------------------------------------ adversarial search
def _parabola(params):
    x = params["x"]
    return x * (1 - x), 0.25  # maximum 1/4 at x = 1/2


def test_worst_case_finds_where_the_bound_binds_and_is_worker_independent():
    one = Context("search.claim", seed=3, jobs=1).worst_case(_parabola, {"x": (0.0, 1.0)}, evaluations=80)
    two = Context("search.claim", seed=3, jobs=2).worst_case(_parabola, {"x": (0.0, 1.0)}, evaluations=80)
    assert np.array_equal(one.measured, two.measured) and one.worst == two.worst
    assert abs(one.worst["x"] - 0.5) < 0.05
    d = decide(Bound(one.measured, one.bound, why="exact", found_by=one.method))
    assert d.verdict is V.VERIFIED and d.sharpness["value"] > 0.99
    assert "differential evolution" in d.rows[-1]["measured"]


def test_worst_case_rejects_a_bad_space():
    ctx = Context("c")
    with pytest.raises(ValueError, match="low > 0"):
        ctx.worst_case(_parabola, {"x": (0.0, 1.0, "log")})
    with pytest.raises(ValueError, match="at least one"):
        ctx.worst_case(_parabola, {})


# ------------------------------------------------------------------ the store, old and new
V1_CLAIMS = """CREATE TABLE claims (run_id INTEGER NOT NULL, claim_id TEXT NOT NULL, paper TEXT NOT NULL,
 name TEXT NOT NULL, statement TEXT NOT NULL, source TEXT NOT NULL, description TEXT NOT NULL, method TEXT NOT NULL,
 evidence_kind TEXT NOT NULL, reconstructed INTEGER NOT NULL, params TEXT NOT NULL, verdict TEXT NOT NULL,
 note TEXT NOT NULL, seconds REAL NOT NULL, finished TEXT NOT NULL, provenance TEXT NOT NULL, expect TEXT NOT NULL,
 expect_reason TEXT NOT NULL, PRIMARY KEY (run_id, claim_id));
CREATE TABLE outcomes (run_id INTEGER NOT NULL, claim_id TEXT NOT NULL, role TEXT NOT NULL, outcome_id TEXT NOT NULL,
 broken TEXT NOT NULL, verdict TEXT NOT NULL, decision TEXT NOT NULL, evidence TEXT, traceback TEXT NOT NULL,
 seconds REAL NOT NULL, PRIMARY KEY (run_id, outcome_id));
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta VALUES ('schema', '1');
INSERT INTO claims VALUES (1, 'p.c', '{"slug": "p"}', 'c', 's', 's', 'd', 'm', 'bound', 1, '{}', 'VERIFIED', '',
 0.1, 'now', 'ran', 'VERIFIED', '');
INSERT INTO outcomes VALUES (1, 'p.c', 'claim', 'p.c', '', 'VERIFIED', '{"verdict": "VERIFIED", "summary": "ok"}',
 NULL, '', 0.1);"""


def test_a_schema_one_database_is_migrated_and_read(tmp_path):
    from workbench.store import Store

    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript(V1_CLAIMS)
    conn.commit()
    conn.close()
    store = Store(path)
    try:
        (row,) = store.results(1)
    finally:
        store.close()
    assert row["role"] == "supporting" and row["reconstructed_from"] == "not recorded"
    assert row["outcome"]["decision"]["sharpness"] is None  # filled in for the template
    assert row["grade"] == "slack"  # verified without a near-miss assessment: its sharpness is not shown
    assert row["outcome"]["near_miss"] is False


def test_a_family_of_certificates_needs_every_solve():
    from workbench import Certificate

    assert decide(Certificate(["optimal", "optimal"], [1.0, 2.0], [1.0, 2.0], accuracy=0.0, why="x")).verdict is V.VERIFIED
    d = decide(Certificate(["optimal", "optimal_inaccurate"], [1.0, 2.0], [1.0, 2.0], accuracy=0.0, why="x", labels=["a", "b"]))
    assert d.verdict is V.ERROR and "'optimal_inaccurate' for b" in d.summary
    d = decide(Certificate("optimal", [1.0, 2.5], [1.0, 2.0], accuracy=0.0, why="x", labels=["a", "b"]))
    assert d.verdict is V.REFUTED and d.counterexample["solve"] == "b"


def test_a_schema_one_database_is_reported(tmp_path):
    """A run stored before roles and near misses existed still renders (as the report's .tex)."""
    from workbench.report import write_report
    from workbench.store import Store

    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript(V1_CLAIMS.replace("'{\"slug\": \"p\"}'", "'{\"slug\": \"p\", \"title\": \"T\", "
                                         "\"authors\": [\"A\"], \"venue\": \"V\", \"year\": 2025}'"))
    conn.execute("CREATE TABLE runs (id INTEGER PRIMARY KEY, started TEXT, finished TEXT, status TEXT, seed INTEGER, "
                 "profile TEXT, jobs INTEGER, backend TEXT, selection TEXT, metadata TEXT)")
    conn.execute("INSERT INTO runs VALUES (1, 'now', 'now', 'finished', 0, 'quick', 1, 'loky', '[\"p.c\"]', "
                 "'{\"versions\": {}, \"git_revision\": null, \"host\": \"h\", \"python\": \"3\", "
                 "\"platform\": \"x\", \"cpus\": 2}')")
    conn.commit()
    conn.close()
    store = Store(path)
    try:
        paths, _ = write_report(store, 1, tmp_path / "out", pdf=False)
    finally:
        store.close()
    assert "VERIFIED" in paths["tex"].read_text()


def test_a_small_claimed_exponent_gets_a_proportionate_near_miss():
    from workbench.evidence.rate import rate_near_miss_shift

    assert rate_near_miss_shift(-0.5) == 0.25 and rate_near_miss_shift(2.0) == 0.25
    assert rate_near_miss_shift(-1 / 7) == pytest.approx(1 / 14) and rate_near_miss_shift(0.0) == 0.25
    # A fit of -0.106 with an allowance 0.067 "verifies" -1/7, and also its near misses at -1/7 +- 1/14.
    costs = _costs_with_interval(-0.106, 0.001)
    r = Rate(SIZES, costs, exponent=-1 / 7, tolerance=0.067, why="x")
    assert decide(r).verdict is V.VERIFIED and assess_near_miss(r)["outcome"] == "verified"


def test_all_of_takes_a_near_miss_per_piece():
    loose = Bound([1.0], [4.0], why="x")
    good = Bound([3.0], [4.0], why="x")
    assert assess_near_miss(AllOf([good, loose]))["outcome"] == "verified"
    marked = AllOf([good, loose], near_misses=[None, NearMiss.none("the second piece is a limit")])
    assert assess_near_miss(marked)["outcome"] == "refuted"
    with pytest.raises(EvidenceError, match="one NearMiss or None per piece"):
        AllOf([good, loose], near_misses=[None])
