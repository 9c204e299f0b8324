"""Unit tests of simulations.streaming (l_p regression costs, Lewis weights, column sampling)."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
from scipy import optimize

from simulations.streaming import (
    barbell_with_bridges,
    coherent_instance,
    holder_conjugate,
    incidence_matrix,
    lewis_weights,
    lp_regression_cost,
    sample_columns,
    sampling_probabilities,
    st_demand,
)


def test_holder_conjugates():
    assert holder_conjugate(2) == 2 and holder_conjugate(math.inf) == 1 and holder_conjugate(1) == math.inf
    assert holder_conjugate(4) == pytest.approx(4 / 3)


def test_costs_on_a_hand_instance():
    # min ||x|| s.t. x1 + x2 = 2: p=1 -> 2, p=2 -> sqrt(2), p=inf -> 1
    A, b = np.array([[1.0, 1.0]]), np.array([2.0])
    assert lp_regression_cost(A, b, 1) == pytest.approx(2.0)
    assert lp_regression_cost(A, b, 2) == pytest.approx(math.sqrt(2))
    assert lp_regression_cost(A, b, math.inf) == pytest.approx(1.0)
    assert lp_regression_cost(A, b, 4) == pytest.approx(2 * 2 ** -0.75, rel=1e-6)   # x = (1, 1)
    assert lp_regression_cost(np.array([[1.0, 0.0]]), np.array([0.0]), math.inf) == 0.0


def test_infeasible_system_costs_inf():
    A, b = np.array([[1.0, 0.0], [1.0, 0.0]]), np.array([1.0, 2.0])
    for p in (1, 2, math.inf):
        assert lp_regression_cost(A, b, p) == math.inf


def test_general_p_matches_holder_dual():
    rng = np.random.default_rng(0)
    A, b = rng.standard_normal((3, 12)), rng.standard_normal(3)
    p, q = 3.0, 1.5
    dual = -optimize.minimize(lambda y: -(b @ y) / np.linalg.norm(A.T @ y, q), rng.standard_normal(3),
                              method="Nelder-Mead", options={"xatol": 1e-10, "fatol": 1e-12, "maxiter": 20000}).fun
    assert lp_regression_cost(A, b, p) == pytest.approx(dual, rel=1e-5)


def test_leverage_scores_and_lewis_weights():
    rng = np.random.default_rng(1)
    A = rng.standard_normal((4, 30))
    lev = lewis_weights(A, 2.0)
    Q, _ = np.linalg.qr(A.T)
    np.testing.assert_allclose(lev, np.sum(Q**2, axis=1), rtol=1e-10)
    for q in (1.0, 1.5, 3.0):
        w = lewis_weights(A, q)
        assert w.sum() == pytest.approx(4.0, rel=1e-6)
        # fixed point: w_j = (a_j^T (A W^{1-2/q} A^T)^-1 a_j)^{q/2}
        G = np.linalg.inv((A * w ** (1 - 2 / q)) @ A.T)
        np.testing.assert_allclose(w, np.einsum("ij,ik,kj->j", A, G, A) ** (q / 2), rtol=1e-6)
    with pytest.raises(ValueError):
        lewis_weights(A, 4.0)


def test_lewis_weights_of_incidence_are_effective_resistances():
    G = nx.cycle_graph(6)
    B = incidence_matrix(G)
    np.testing.assert_allclose(lewis_weights(B, 2.0), np.full(6, 5 / 6), rtol=1e-10)   # R_eff(edge) = 1*5/6


def test_sampling_keeps_probability_one_columns_unscaled():
    rng = np.random.default_rng(2)
    A = rng.standard_normal((2, 50))
    As, kept = sample_columns(rng, A, np.ones(50), 2.0)
    np.testing.assert_array_equal(kept, np.arange(50))
    np.testing.assert_allclose(As, A)
    pi = sampling_probabilities(np.full(50, 0.01), 10.0)
    np.testing.assert_allclose(pi, 0.1)
    As, kept = sample_columns(rng, A, pi, 1.0)
    np.testing.assert_allclose(As, A[:, kept] * 10.0)


def test_flow_special_cases_closed_forms():
    # K_n: R_eff = 2/n; cycle C_n at distance k: k(n-k)/n
    G = nx.complete_graph(7)
    assert lp_regression_cost(incidence_matrix(G), st_demand(G, 0, 1), 2) ** 2 == pytest.approx(2 / 7)
    C = nx.cycle_graph(9)
    assert lp_regression_cost(incidence_matrix(C), st_demand(C, 0, 3), 2) ** 2 == pytest.approx(3 * 6 / 9)
    assert lp_regression_cost(incidence_matrix(C), st_demand(C, 0, 3), math.inf) == pytest.approx(0.5)
    assert lp_regression_cost(incidence_matrix(C), st_demand(C, 0, 3), 1) == pytest.approx(3.0)
    Bb = barbell_with_bridges(5, 2)
    assert Bb.number_of_edges() == 2 * 10 + 2
    assert lp_regression_cost(incidence_matrix(Bb), st_demand(Bb, 2, 7), math.inf) == pytest.approx(0.5)


def test_coherent_instance_shape_and_balance():
    A, b = coherent_instance(np.random.default_rng(3), 5, 1005, q=1.0)
    assert A.shape == (5, 1005) and b.shape == (5,)
    np.testing.assert_allclose(A[:, -5:], np.sqrt(1000) * np.eye(5))


# ----------------------------------------------------------------------------- one pass (online Lewis weights)
def test_online_weights_solve_the_frozen_lewis_fixed_point():
    from simulations.streaming import online_weights
    rng = np.random.default_rng(7)
    G = rng.standard_normal((3, 10))
    M = G @ G.T
    for a in rng.standard_normal((5, 3)):
        s = a @ np.linalg.solve(M, a)
        w2 = online_weights(np.array([s]), 2.0)[0]
        assert w2 == pytest.approx(a @ np.linalg.solve(M + np.outer(a, a), a), rel=1e-12)
        w1 = online_weights(np.array([s]), 1.0)[0]
        # q = 1: w = (a^T (M + a a^T / w)^{-1} a)^{1/2}
        assert w1 == pytest.approx(math.sqrt(a @ np.linalg.solve(M + np.outer(a, a) / w1, a)), rel=1e-10)
    with pytest.raises(ValueError):
        online_weights(np.ones(2), 3.0)


def test_online_sampler_with_huge_oversampling_keeps_every_column_unscaled():
    from simulations.streaming import online_lewis_sampling
    rng = np.random.default_rng(0)
    A = rng.standard_normal((4, 50))
    for q in (1.0, 2.0):
        kept, scale = online_lewis_sampling(rng.uniform(size=50), A, 1e12, q, first_block=7)
        np.testing.assert_array_equal(kept, np.arange(50))
        np.testing.assert_allclose(scale, 1.0)


def test_online_sampler_column_by_column_matches_direct_scores():
    # growth 0, first_block 1: column j is scored against M = sum over kept i of a_i a_i^T / pi_i (q = 2);
    # recompute the probabilities directly from the kept set and compare the rescalings pi^(-1/2)
    from simulations.streaming import online_lewis_sampling
    rng = np.random.default_rng(1)
    A = rng.standard_normal((3, 40))
    u = rng.uniform(size=40)
    kept, scale = online_lewis_sampling(u, A, 2.0, 2.0, growth=0.0, first_block=1, ridge=1e-9)
    M, k = np.zeros((3, 3)), 0
    for j in range(40):
        a = A[:, j]
        reg = M + 1e-9 * max(1.0, np.trace(M) / 3) * np.eye(3)
        w = a @ np.linalg.solve(reg + np.outer(a, a), a)
        pi = min(1.0, 2.0 * w)
        if u[j] < pi:
            assert kept[k] == j and scale[k] == pytest.approx(pi ** -0.5, rel=1e-7)
            M += np.outer(a, a) / pi
            k += 1
    assert k == kept.size


def test_l2_cost_ratio_range_bounds_and_attains_the_ratio_of_every_b():
    from simulations.streaming import inverse_sqrt_gram, l2_cost_ratio_range
    rng = np.random.default_rng(2)
    A = rng.standard_normal((4, 300))
    As = A[:, ::3] * math.sqrt(3.0) * (1 + 0.1 * rng.standard_normal(100))
    lo, hi = l2_cost_ratio_range(inverse_sqrt_gram(A), As)
    ratios = [lp_regression_cost(As, b, 2) / lp_regression_cost(A, b, 2) for b in rng.standard_normal((200, 4))]
    assert lo - 1e-12 <= min(ratios) and max(ratios) <= hi + 1e-12
    # the extreme b: b = G^{1/2} v for the eigenvector v of G^{-1/2} G' G^{-1/2} with the smallest eigenvalue
    G = A @ A.T
    lam, V = np.linalg.eigh(G)
    root = (V * np.sqrt(lam)) @ V.T
    mu, W = np.linalg.eigh(np.linalg.inv(root) @ (As @ As.T) @ np.linalg.inv(root))
    b = root @ W[:, 0]
    assert lp_regression_cost(As, b, 2) / lp_regression_cost(A, b, 2) == pytest.approx(hi, rel=1e-9)


def test_cut_enumeration_against_networkx_cut_sizes():
    from simulations.streaming import cut_indicators, cut_weights, edge_weight_matrix
    G = nx.petersen_graph()
    pairs = np.array(list(G.edges))
    W = edge_weight_matrix(10, pairs, np.ones(len(pairs)))
    X = cut_indicators(10)
    assert X.shape == (2**9 - 1, 10)
    w = cut_weights(W, X)
    rng = np.random.default_rng(3)
    for row in rng.integers(0, X.shape[0], size=20):
        S = [v for v in range(10) if X[row, v]]
        assert w[row] == nx.cut_size(G, S)


def test_linf_cost_ratio_range_against_linear_programmes():
    # a dense multigraph on 5 vertices and a reweighted half of it: OPT_inf by HiGHS for random demands lies
    # within the cut range, and the demand across the extreme single cut of a tree attains it
    from simulations.streaming import (
        cut_indicators,
        edge_weight_matrix,
        linf_cost_ratio_range,
        random_edge_stream,
    )
    rng = np.random.default_rng(4)
    B, pairs = random_edge_stream(rng, 5, 60)
    keep = np.arange(0, 60, 2)
    weights = 2.0 * (1 + 0.3 * rng.uniform(size=keep.size))
    W, Ws = edge_weight_matrix(5, pairs, np.ones(60)), edge_weight_matrix(5, pairs[keep], weights)
    lo, hi = linf_cost_ratio_range(W, Ws, cut_indicators(5))
    for _ in range(30):
        b = rng.standard_normal(5)
        b -= b.mean()
        r = lp_regression_cost(B[:, keep] * weights, b, math.inf) / lp_regression_cost(B, b, math.inf)
        assert lo - 1e-7 <= r <= hi + 1e-7
    # a path 0-1-2 with weights (1, 1) against (2, 0.5): the cuts are the edges; demand e_0 - e_1 crosses edge 0 only
    P = np.array([[0, 1], [1, 2]])
    lo, hi = linf_cost_ratio_range(edge_weight_matrix(3, P, [1, 1]), edge_weight_matrix(3, P, [2.0, 0.5]),
                                   cut_indicators(3))
    assert (lo, hi) == pytest.approx((0.5, 2.0))
    Bp = incidence_matrix(nx.path_graph(3))
    b = np.array([1.0, -1.0, 0.0])
    assert lp_regression_cost(Bp * [2.0, 0.5], b, math.inf) / lp_regression_cost(Bp, b, math.inf) == pytest.approx(0.5)


def test_random_edge_stream_is_an_incidence_matrix():
    from simulations.streaming import random_edge_stream
    B, pairs = random_edge_stream(np.random.default_rng(5), 6, 100)
    assert B.shape == (6, 100) and pairs.shape == (100, 2)
    np.testing.assert_allclose(B.sum(axis=0), 0.0)
    np.testing.assert_allclose(np.abs(B).sum(axis=0), 2.0)
    assert np.all(pairs[:, 0] < pairs[:, 1])


def test_smallest_budget_finds_the_crossing_of_a_known_error_curve():
    from simulations.streaming import smallest_budget
    # error 1/sqrt(c): the smallest c with error <= 0.1 is 100
    for start in (1.0, 100.0, 1e4):
        c = smallest_budget(lambda c: c ** -0.5, 0.1, start, rtol=0.02)
        assert 100.0 <= c <= 102.0
    # a step error: fails below 7.3, exact from there on
    assert 7.3 <= smallest_budget(lambda c: 0.0 if c >= 7.3 else 1.0, 0.5, 1.0) <= 7.3 * 1.02
    with pytest.raises(ValueError):
        smallest_budget(lambda c: 1.0, 0.5, 1.0)


def test_flow_costs_against_networkx():
    # transshipment = distance, electrical = sqrt(effective resistance), max flow (unit capacities) = 1/OPT_inf
    rng = np.random.default_rng(6)
    graphs = [nx.petersen_graph(), nx.convert_node_labels_to_integers(nx.grid_2d_graph(3, 4)),
              barbell_with_bridges(5, 2)]
    G = nx.gnp_random_graph(12, 0.35, seed=int(rng.integers(2**31)))
    while not nx.is_connected(G):
        G = nx.gnp_random_graph(12, 0.35, seed=int(rng.integers(2**31)))
    for H in graphs + [G]:
        s, t = 0, H.number_of_nodes() - 1
        B, b = incidence_matrix(H), st_demand(H, s, t)
        unit = nx.Graph(H)
        nx.set_edge_attributes(unit, 1.0, "capacity")
        assert lp_regression_cost(B, b, 1) == pytest.approx(nx.shortest_path_length(H, s, t), rel=1e-8)
        assert lp_regression_cost(B, b, 2) ** 2 == pytest.approx(nx.resistance_distance(H, s, t), rel=1e-8)
        assert lp_regression_cost(B, b, math.inf) == pytest.approx(1 / nx.maximum_flow_value(unit, s, t), rel=1e-8)


def test_dual_cost_matches_cvxpy_and_the_p2_closed_form():
    from simulations.streaming import lp_regression_cost_dual
    rng = np.random.default_rng(2)
    A, b = rng.standard_normal((5, 40)), rng.standard_normal(5)
    for p in (1.3, 1.5, 3.0):
        assert lp_regression_cost_dual(A, b, p) == pytest.approx(lp_regression_cost(A, b, p), rel=1e-6)
    assert lp_regression_cost_dual(A, b, 2.0) == pytest.approx(math.sqrt(b @ np.linalg.solve(A @ A.T, b)), rel=1e-9)


def test_dual_cost_is_infinite_when_infeasible():
    from simulations.streaming import lp_regression_cost_dual
    A = np.zeros((3, 5))
    A[:2] = np.random.default_rng(3).standard_normal((2, 5))
    assert math.isinf(lp_regression_cost_dual(A, np.ones(3), 1.5))


def test_isolated_rows_instance_structure():
    from simulations.streaming import isolated_rows_instance
    A, b = isolated_rows_instance(np.random.default_rng(4), 6, 100, 2, 3)
    assert A.shape == (6, 100) and b.shape == (6,)
    for i, row in enumerate((4, 5)):
        support = np.nonzero(A[row])[0]
        np.testing.assert_array_equal(support, 94 + 3 * i + np.arange(3))
        assert not np.any(A[:, support][np.arange(6) != row])


def test_p2_cost_through_the_gram_matrix_matches_the_wide_least_squares_solution():
    rng = np.random.default_rng(5)
    A, b = rng.standard_normal((6, 500)), rng.standard_normal(6)
    x, *_ = np.linalg.lstsq(A, b, rcond=None)                      # minimum-norm solution (SVD)
    assert lp_regression_cost(A, b, 2.0) == pytest.approx(np.linalg.norm(x), rel=1e-10)
    # rank-deficient A (a path graph's incidence) with b in its range: resistance distance 3 between ends
    B = incidence_matrix(nx.path_graph(4))
    assert lp_regression_cost(B, st_demand(nx.path_graph(4), 0, 3), 2.0) == pytest.approx(math.sqrt(3.0), rel=1e-10)


def test_wrong_rescaling_biases_the_q_norm():
    # keeping every column with probability pi = 1/8 and rescaling by pi^(-1/2) instead of pi^(-1/q), q = 3:
    # E ||A'^T y||_q^q = pi^(1 - q/2) ||A^T y||_q^q = 8^(1/2) ||A^T y||_q^q
    rng = np.random.default_rng(6)
    A, y = rng.standard_normal((3, 40_000)), rng.standard_normal(3)
    pi = np.full(A.shape[1], 1 / 8)
    right, _ = sample_columns(rng, A, pi, 3.0)
    wrong, _ = sample_columns(rng, A, pi, 3.0, rescale_power=0.5)
    full = np.sum(np.abs(A.T @ y) ** 3)
    assert np.sum(np.abs(right.T @ y) ** 3) / full == pytest.approx(1.0, rel=0.05)
    assert np.sum(np.abs(wrong.T @ y) ** 3) / full == pytest.approx(math.sqrt(8.0), rel=0.05)


# ----------------------------------------------------------------------------- exact shortcuts, form deviation
def _reference_pass(u, A, c, q, growth=0.25, first_block=16, ridge=1e-6):
    """The block schedule written out plainly: every column's score computed, no pruning."""
    from simulations.streaming import online_weights
    n, d = A.shape
    M, Minv, kept, scale, start = np.zeros((n, n)), np.eye(n) / ridge, [], [], 0
    while start < d:
        stop = min(d, start + max(first_block, math.ceil(growth * start)))
        for j in range(start, stop):
            w = online_weights(np.array([max(A[:, j] @ Minv @ A[:, j], 0.0)]), q)[0]
            pi = min(1.0, c * w)
            if u[j] < pi:
                kept.append(j)
                scale.append(pi ** (-1.0 / q))
                M = M + w ** (1.0 - 2.0 / q) / pi * np.outer(A[:, j], A[:, j])
        Minv = np.linalg.inv(M + ridge * max(1.0, np.trace(M) / n) * np.eye(n))
        start = stop
    return np.array(kept), np.array(scale)


def test_pruned_pass_keeps_the_columns_of_the_plain_pass():
    # the pruning by ||a||^2 lambda_max(M^-1) only skips columns whose coin exceeds an upper bound of pi
    from simulations.streaming import online_lewis_sampling
    rng = np.random.default_rng(11)
    A = rng.standard_normal((5, 3000)) * rng.uniform(0.2, 3.0, size=3000)      # columns of unequal norm
    u = rng.uniform(size=3000)
    for q, c in ((2.0, 3.0), (2.0, 40.0), (1.0, 5.0)):
        kept, scale = online_lewis_sampling(u, A, c, q)
        ref_kept, ref_scale = _reference_pass(u, A, c, q)
        np.testing.assert_array_equal(kept, ref_kept)
        np.testing.assert_allclose(scale, ref_scale, rtol=1e-9)


def test_column_ids_give_the_same_pass_on_a_graph_stream():
    from simulations.streaming import online_lewis_sampling, pair_ids, random_edge_stream
    rng = np.random.default_rng(12)
    B, pairs = random_edge_stream(rng, 6, 4000)
    ids, all_pairs = pair_ids(6, pairs)
    np.testing.assert_array_equal(all_pairs[ids], pairs)
    assert len(all_pairs) == 15
    u = rng.uniform(size=4000)
    for c in (2.0, 30.0):
        kept, scale = online_lewis_sampling(u, B, c, 1.0, column_ids=ids)
        ref_kept, ref_scale = _reference_pass(u, B, c, 1.0)
        np.testing.assert_array_equal(kept, ref_kept)
        np.testing.assert_allclose(scale, ref_scale, rtol=1e-9)
    with pytest.raises(ValueError):
        pair_ids(3, [[1, 1]])


def test_form_deviation_against_generalised_eigenvalues_and_networkx_cuts():
    from scipy.linalg import eigh

    from simulations.streaming import (
        cut_indicators,
        edge_weight_matrix,
        form_deviation,
        inverse_sqrt_gram,
        l2_cost_ratio_range,
        linf_cost_ratio_range,
        random_edge_stream,
    )
    rng = np.random.default_rng(13)
    # q = 2: the range of y^T A'A'^T y / y^T A A^T y is the generalised eigenvalues of (A'A'^T, A A^T)
    A = rng.standard_normal((4, 400))
    As = A[:, ::2] * math.sqrt(2.0) * (1 + 0.2 * rng.standard_normal(200))
    lam = eigh(As @ As.T, A @ A.T, eigvals_only=True)
    expected = max(lam[-1] - 1, 1 - lam[0])
    assert form_deviation(*l2_cost_ratio_range(inverse_sqrt_gram(A), As), 2.0) == pytest.approx(expected, rel=1e-9)
    # q = 1: the largest |w'(S)/w(S) - 1| over all cuts, cut weights from networkx
    B, pairs = random_edge_stream(rng, 5, 80)
    weights = 2.0 * rng.uniform(0.3, 1.7, size=40)
    keep = np.arange(0, 80, 2)
    G, Gs = nx.MultiGraph(), nx.MultiGraph()
    G.add_edges_from((int(a), int(b), {"weight": 1.0}) for a, b in pairs)
    Gs.add_nodes_from(range(5))
    Gs.add_edges_from((int(a), int(b), {"weight": float(w)}) for (a, b), w in zip(pairs[keep], weights, strict=True))
    cuts = cut_indicators(5)
    devs = []
    for row in cuts:
        S = [v for v in range(5) if row[v]]
        devs.append(abs(nx.cut_size(Gs, S, weight="weight") / nx.cut_size(G, S, weight="weight") - 1))
    lo, hi = linf_cost_ratio_range(edge_weight_matrix(5, pairs, np.ones(80)),
                                   edge_weight_matrix(5, pairs[keep], weights), cuts)
    assert form_deviation(lo, hi, 1.0) == pytest.approx(max(devs), rel=1e-12)
    # a sparse instance missing a direction: the deviation is 1
    assert form_deviation(1.0, math.inf, 2.0) == 1.0
    with pytest.raises(ValueError):
        form_deviation(2.0, 1.0, 2.0)


def test_clustered_edge_stream_has_a_bridge_cut_of_the_stated_size():
    from simulations.streaming import clustered_edge_stream, online_lewis_sampling, pair_ids

    rng = np.random.default_rng(3)
    B, pairs = clustered_edge_stream(rng, 10, 3000, 2)
    assert B.shape == (10, 3000) and np.all(B.sum(axis=0) == 0) and np.all(np.abs(B).sum(axis=0) == 2)
    graph = nx.Graph()
    for u, v in pairs:
        w = graph.get_edge_data(u, v, {"weight": 0})["weight"]
        graph.add_edge(int(u), int(v), weight=w + 1)
    cut, (side, _) = nx.stoer_wagner(graph)          # the global minimum cut (networkx)
    assert cut == 2 and set(side) in ({0, 1, 2, 3, 4}, {5, 6, 7, 8, 9})
    bridge = np.nonzero((pairs[:, 0] < 5) != (pairs[:, 1] < 5))[0]
    assert sorted(map(tuple, np.sort(pairs[bridge], axis=1))) == [(0, 5), (1, 6)]
    # the online l_1 weights of the bridges are near 1: kept unscaled already at oversampling 4
    ids, _ = pair_ids(10, pairs)
    kept, scale = online_lewis_sampling(rng.uniform(size=3000), B, 4.0, 1.0, column_ids=ids)
    assert set(bridge) <= set(kept.tolist())
    assert np.allclose(scale[np.isin(kept, bridge)], 1.0)
    assert kept.size < 3000 // 4                    # and far from the whole stream
    with pytest.raises(ValueError):
        clustered_edge_stream(rng, 10, 100, 6)
