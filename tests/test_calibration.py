"""Statistical verdicts are calibrated: on data drawn from the claimed law, REFUTED comes out at
about the stated error probability, not more.

Each test draws R synthetic data sets from the claimed law, decides each, and compares the
number of refutations with the stated probability alpha through an exact binomial test
bound: with R = 2000, the count must not exceed the 0.999 quantile of Binomial(R, alpha).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from workbench.evidence import Proportion, Rate, Verdict, decide

R = 2000


def _refuted(decisions) -> int:
    return sum(d.verdict is Verdict.REFUTED for d in decisions)


def _check(count: int, alpha: float) -> None:
    upper = stats.binom.ppf(0.999, R, alpha)
    lower = stats.binom.ppf(0.001, R, alpha)
    assert count <= upper, f"{count} refutations of {R} true claims; alpha {alpha} allows at most {upper}"
    # Not grossly conservative either: the rule should use about the error it states.
    assert count >= lower * 0.5, f"only {count} refutations; alpha {alpha} suggests about {alpha * R}"


@pytest.mark.parametrize("relation", ["=", "<="])
def test_rate_refutes_true_power_laws_at_the_stated_rate(relation):
    rng = np.random.default_rng(12345)
    sizes = np.geomspace(10, 10_000, 8)
    decisions = []
    for _ in range(R):
        costs = 2.0 * sizes**-0.5 * np.exp(rng.normal(scale=0.1, size=sizes.size))
        decisions.append(decide(Rate(sizes, costs, exponent=-0.5, relation=relation, max_halfwidth=1.0,
                                     why="synthetic log-normal noise")))
    alpha = decisions[0].error_probability
    assert alpha == pytest.approx(0.05 if relation == "=" else 0.025)
    _check(_refuted(decisions), alpha)


@pytest.mark.parametrize("method", ["wilson", "clopper-pearson"])
@pytest.mark.parametrize("relation", ["=", ">="])
def test_proportion_refutes_true_claims_at_most_at_the_stated_rate(method, relation):
    rng = np.random.default_rng(54321)
    p, n = 0.3, 400
    decisions = [decide(Proportion(int(k), n, p, relation=relation, method=method, why="synthetic"))
                 for k in rng.binomial(n, p, size=R)]
    alpha = decisions[0].error_probability
    count = _refuted(decisions)
    assert count <= stats.binom.ppf(0.999, R, alpha)
    if method == "wilson" and relation == "=":
        _check(count, alpha)  # Wilson is close to nominal; Clopper-Pearson is conservative by design
