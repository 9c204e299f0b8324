r"""Patel & Montúfar, "On the Local Complexity of Linear Regions in Deep ReLU Networks" (ICML 2025).

The paper defines the local complexity of a piecewise-linear network as the density of its
linear regions over the input distribution, shows that it is lower for low-dimensional feature
representations, that it upper-bounds the total variation of the function over the data, and
that optimisation drives it down (abstract).  Only the abstract could be read; the definition
used here is the Hanin-Rolnick boundary density the abstract echoes,
$\mathrm{LC} = \sum_k \mathbb{E}_{x\sim p}[\|\nabla z_k(x)\|\,\delta(z_k(x))]$, and the total
variation statement is our reading (both reconstructed).  The low-dimensional-features and
optimisation statements are checked as paired comparisons (data on a $k$-dimensional subspace
against full-dimensional data for the same network; the same network before and after training
with weight decay), also reconstructed.
"""

from __future__ import annotations

import math

import numpy as np

from simulations.nets.relu import (
    ReLUNet,
    coarea_local_complexity,
    crofton_constant,
    crofton_counts,
    directional_slopes,
    first_layer_gaussian_lc,
    gradient_jump_bound,
    init_relu_net,
    mean_and_standard_error,
    random_segments,
    regression_task,
    restrict_to_subspace,
    smooth_total_variation,
    train_adam,
    walk_segment,
)
from workbench import Bound, Comparison, Identity, Paper, Param, claim

PAPER = Paper(
    slug="relu_local_complexity",
    title="On the Local Complexity of Linear Regions in Deep ReLU Networks",
    authors=("Niket Patel", "Guido Montúfar"),
    venue="ICML 2025",
    year=2025,
    arxiv="2412.18283",
    identifier="OpenReview id2CfAgEAk",
    url="https://openreview.net/forum?id=id2CfAgEAk",
    not_checked=(
        ("feature learning can be related to adversarial robustness (abstract)",
         "an interpretation drawn from the total-variation bound, with no quantitative statement "
         "of robustness in the text that could be read; the bound itself is checked", "supporting"),
    ),
)

Z_999 = 3.2905  # two-sided 99.9% normal quantile


# --------------------------------------------------------------------------- claim 1
def _segment_batch(rng, net, n, length):
    """Crossing counts on ``n`` random segments centred at x ~ N(0, I) (one Monte Carlo batch)."""
    starts, dirs = random_segments(rng, n, net.input_dim, length)
    return crofton_counts(net, starts, dirs, length)


def _estimates(ctx, net, label, crofton_factor):
    d = net.input_dim
    X = ctx.generator("coarea", label).standard_normal((ctx["samples"], d))
    a, se_a = mean_and_standard_error(coarea_local_complexity(net, X, ctx["bandwidth"]))
    batches = ctx.trials(_segment_batch, ctx["segments"] // 250, net, 250, ctx["length"],
                         label=f"segments {label}")
    counts = np.concatenate(batches) / (ctx["length"] * crofton_factor(d))
    b, se_b = mean_and_standard_error(counts)
    return (a, se_a), (b, se_b)


def _estimator_evidence(ctx, crofton_factor):
    d, width = ctx["input_dim"], ctx["width"]
    shallow = init_relu_net((d, width, 1), ctx.generator("net", "shallow"))
    deep = init_relu_net((d,) + (width,) * ctx["depth"] + (1,), ctx.generator("net", "deep"))
    (a1, sa1), (b1, sb1) = _estimates(ctx, shallow, "shallow", crofton_factor)
    (a2, sa2), (b2, sb2) = _estimates(ctx, deep, "deep", crofton_factor)
    exact = first_layer_gaussian_lc(shallow)
    measured = [a1, b1, b2]
    reference = [exact, exact, a2]
    atol = [Z_999 * sa1, Z_999 * sb1, Z_999 * math.hypot(sa2, sb2)]
    return Identity(
        measured, reference, atol=atol,
        why="99.9% normal interval of Monte Carlo estimates (standard errors from the samples); "
            "kernel bias O(h^2) and segment-length bias O(L^2) are below 1% here",
        quantity="local complexity (boundary density under N(0, I))",
        labels=[f"one hidden layer ({width}): co-area/kernel estimate vs exact sum phi(b/||w||)",
                f"one hidden layer ({width}): Crofton segment count vs exact sum phi(b/||w||)",
                f"{ctx['depth']} hidden layers ({width} each): Crofton count vs co-area estimate"])


SIZE_PARAMS = {
    "input_dim": Param(6, full=8, low=2, high=32, doc="input dimension d (data x ~ N(0, I_d))"),
    "width": Param(16, full=32, low=2, high=256, doc="hidden width of the random ReLU networks"),
    "depth": Param(2, full=3, low=1, high=8, doc="hidden layers of the deep network"),
}


@claim(PAPER, role="background", source="Definition of local complexity (Sec. 2; abstract: 'density of linear "
                     "regions over an input data distribution')",
       evidence="identity", reconstructed_from="the paper's definitions and abstract, as far as they could be read",
       statement=r"The local complexity $\mathrm{LC}=\sum_k\mathbb{E}_{x\sim p}[\|\nabla "
                 r"z_k(x)\|\delta(z_k(x))]$ is the density of region boundaries under $p$: "
                 r"for random segments of length $L$ through $x\sim p$ in uniform directions, "
                 r"$\mathbb{E}[\#\text{crossings}] = c_d\,L\,\mathrm{LC} + O(L^3)$ with "
                 r"$c_d=\Gamma(\tfrac d2)/(\sqrt\pi\,\Gamma(\tfrac{d+1}2))$; for one hidden layer "
                 r"and $p=N(0,I)$, $\mathrm{LC}=\sum_i\varphi(b_i/\|w_i\|)$.",
       method="He-initialised ReLU networks on $x\\sim N(0,I_d)$: a co-area (kernel) estimate, an "
              "exact region walk along random segments divided by $c_dL$, and the closed form for "
              "one hidden layer, compared within a 99.9\\% interval of their Monte Carlo errors.",
       params={**SIZE_PARAMS,
               "samples": Param(20000, full=40000, low=1000, high=10**7,
                                doc="inputs of the co-area estimate"),
               "segments": Param(2000, full=5000, low=250, high=10**6,
                                 doc="random segments of the Crofton estimate (batches of 250)"),
               "length": Param(0.4, full=0.3, low=0.01, high=2.0, doc="segment length L"),
               "bandwidth": Param(0.05, full=0.03, low=1e-3, high=0.5,
                                  doc="half-width h of the uniform kernel on z")})
def boundary_density_two_ways(ctx):
    """Local complexity computed two independent ways, region-boundary density (co-area) and
    linear regions crossed along random segments (Crofton), agree within their Monte Carlo
    intervals, and both match the exact value for one hidden layer."""
    return _estimator_evidence(ctx, crofton_constant)


@boundary_density_two_ways.control("the Crofton estimate without the factor c_d (counts / L)")
def crofton_without_constant(ctx):
    return _estimator_evidence(ctx, lambda d: 1.0)


# --------------------------------------------------------------------------- claim 2
def _tv_batch(rng, net, n, length):
    """(total variation of the directional derivative, crossings) on ``n`` random segments."""
    starts, dirs = random_segments(rng, n, net.input_dim, length)
    out = []
    for s, u in zip(starts, dirs, strict=True):
        if net.activation == "relu":
            walk = walk_segment(net, s, u, length)
            slopes = directional_slopes(net, s, u, walk.times, length)
            out.append((float(np.sum(np.abs(np.diff(slopes)))), walk.count))
        else:  # a smooth activation has no kinks: no region boundary is crossed
            out.append((smooth_total_variation(net, s, u, length), 0))
    return out


def _tv_evidence(ctx, net):
    batches = ctx.trials(_tv_batch, max(1, ctx["tv_segments"] // 50), net, 50, ctx["tv_length"],
                         label="total variation")
    rows = [r for b in batches for r in b]
    tv = np.array([r[0] for r in rows])
    crossings = np.array([r[1] for r in rows])
    # Segments with no variation and no crossing satisfy the bound as 0 <= 0: they are vacuous
    # and left out, so the reported margin is that of a non-trivial instance.
    keep = (tv > 0) | (crossings > 0)
    if not keep.any():
        raise RuntimeError("no segment crosses a boundary or has variation: lengthen the segments")
    jump = gradient_jump_bound(net)
    return Bound(tv[keep], jump * crossings[keep], relation="<=", rtol=1e-9, atol=1e-9,
                 why="float rounding of the slopes (gradients at piece midpoints, O(1e-12))",
                 quantity=f"TV of t -> d/dt f(x + t u) on the {int(keep.sum())} non-vacuous of "
                          f"{len(rows)} segments, against prod ||W_l||_2 x crossings",
                 x=np.flatnonzero(keep).tolist(), xlabel="segment")


@claim(PAPER, role="headline", source="Abstract ('the local complexity serves as an upper bound on the total "
                     "variation of the function over the input data distribution')",
       evidence="bound", reconstructed_from="the abstract",
       statement=r"Along any segment $x+tu$, the total variation of the directional derivative "
                 r"$t\mapsto\partial_u f(x+tu)$ of a ReLU network is at most "
                 r"$\prod_l\|W_l\|_2$ times the number of region boundaries crossed; averaging "
                 r"over segments through $x\sim p$ gives $\mathbb{E}\,\mathrm{TV}/L \le "
                 r"\prod_l\|W_l\|_2\, c_d\,\mathrm{LC}$.",
       method="Exact region walks on random segments through $x\\sim N(0,I)$; the slope on each "
              "linear piece from the output gradient at its midpoint; every segment is an instance "
              "of the bound (the report gives how many cross at least one boundary).",
       params={**SIZE_PARAMS,
               "tv_segments": Param(300, full=800, low=50, high=10**5,
                                    doc="random segments (batches of 50)"),
               "tv_length": Param(1.0, full=1.0, low=0.05, high=5.0, doc="segment length L")})
def total_variation_bounded_by_crossings(ctx):
    """Our reading of the total-variation statement: each crossed boundary of neuron k changes the
    gradient by (W_out D ... W_{l+1} e_k) grad z_k^T, of norm at most prod ||W_l||_2, so the
    variation of the slope along a segment is bounded by that constant times the number of
    boundaries crossed, whose mean is c_d L LC."""
    d, width = ctx["input_dim"], ctx["width"]
    net = init_relu_net((d,) + (width,) * ctx["depth"] + (1,), ctx.generator("net", "tv"))
    return _tv_evidence(ctx, net)


@total_variation_bounded_by_crossings.control(
    "an activation outside the class: softplus (sharpness 10) instead of ReLU, same weights; no "
    "linear regions, so the local complexity is zero while the variation is not")
def smooth_activation(ctx):
    d, width = ctx["input_dim"], ctx["width"]
    net = init_relu_net((d,) + (width,) * ctx["depth"] + (1,), ctx.generator("net", "tv"))
    smooth = ReLUNet(net.weights, net.biases, activation="softplus", sharpness=10.0)
    return _tv_evidence(ctx, smooth)


# --------------------------------------------------------------------------- claim 3
def _subspace_lc_pair(rng, widths, data_dim, samples, bandwidth, energy_matched):
    """(LC on the k-dimensional data, LC on full-dimensional data) for one random network.

    The k-dimensional data are ``x = Q y``, ``y ~ N(0, I_k)``, ``Q`` a random orthonormal
    ``(d, k)`` frame (unit variance along the data, as the full data ``x ~ N(0, I_d)``).  With
    ``energy_matched`` the first entry is instead the full-dimensional Gaussian with the same
    total variance ``k`` (covariance ``(k/d) I_d``): no low-dimensional structure.
    """
    net = init_relu_net(widths, rng)
    d = widths[0]
    Q = np.linalg.qr(rng.standard_normal((d, data_dim)))[0]
    Y = rng.standard_normal((samples, data_dim))
    X = rng.standard_normal((samples, d))
    full = float(np.mean(coarea_local_complexity(net, X, bandwidth)))
    if energy_matched:
        low = float(np.mean(coarea_local_complexity(net, math.sqrt(data_dim / d) * X, bandwidth)))
    else:
        low = float(np.mean(coarea_local_complexity(restrict_to_subspace(net, Q), Y, bandwidth)))
    return low, full


def _lowdim_evidence(ctx, energy_matched):
    widths = (ctx["input_dim"],) + (ctx["width"],) * ctx["depth"] + (1,)
    pairs = ctx.trials(_subspace_lc_pair, ctx["networks"], widths, ctx["data_dim"],
                       ctx["samples"], ctx["bandwidth"], energy_matched, label="networks")
    low, full = (np.array(v) for v in zip(*pairs, strict=True))
    return Comparison(
        low, full, direction="less", level=0.99,
        why="99% Student-t interval over independent random networks (pairs share the network); "
            "each LC is a co-area estimate whose O(h^2) kernel bias has the same sign in both",
        quantity=f"LC on {'full-rank data of total variance k' if energy_matched else 'k-dim data'}"
                 f" (k={ctx['data_dim']}) minus LC on N(0, I_{ctx['input_dim']})")


@claim(PAPER, role="headline", source="Abstract ('ReLU networks that learn low-dimensional feature "
                     "representations have a lower local complexity')",
       evidence="comparison", reconstructed_from="the abstract",
       sweeps=({"data_dim": [1, 2, 4, 8, 16]},),
       statement=r"For a ReLU network $f$ on $\mathbb{R}^d$ and data supported on a "
                 r"$k$-dimensional subspace, $x=Qy$, $y\sim N(0,I_k)$, $k<d$ (so every hidden "
                 r"representation of the data has local rank at most $k$; equivalently, full "
                 r"data through the rank-$k$ first layer $W_1QQ^\top$), the local complexity "
                 r"$\mathrm{LC}_k=\sum_z\mathbb{E}_y[\|\nabla_y z(Qy)\|\,\delta(z(Qy))]$ is lower "
                 r"than the local complexity of the same network on $x\sim N(0,I_d)$.",
       method="He-initialised networks with $N(0,0.5^2)$ biases; for each network a random "
              "$k$-frame $Q$; co-area estimates of both local complexities on fresh samples; the "
              "paired difference over networks with a 99\\% $t$ interval.",
       params={"input_dim": Param(16, full=32, low=2, high=256, doc="input dimension d"),
               "data_dim": Param(2, full=4, low=1, high=256, doc="dimension k of the data subspace"),
               "width": Param(32, full=32, low=2, high=256, doc="hidden width"),
               "depth": Param(2, full=3, low=1, high=8, doc="hidden layers"),
               "networks": Param(6, full=12, low=3, high=1000, doc="random networks (pairs)"),
               "samples": Param(5000, full=10000, low=1000, high=10**7,
                                doc="inputs of each co-area estimate"),
               "bandwidth": Param(0.05, full=0.03, low=1e-3, high=0.5,
                                  doc="half-width h of the uniform kernel on z")})
def lower_for_low_dimensional_data(ctx):
    """Our reading of the low-dimensional-features statement (only the abstract was read): the
    same random network has a lower boundary density on data of dimension k < d, with the data's
    scale per direction unchanged.  For one hidden layer the closed form shows why: neuron i
    contributes phi(b_i / ||Q^T w_i||) <= phi(b_i / ||w_i||)."""
    return _lowdim_evidence(ctx, energy_matched=False)


@lower_for_low_dimensional_data.control(
    "data without low-dimensional structure: full-rank N(0, (k/d) I_d), the same total variance "
    "as the k-dimensional data")
def full_rank_same_energy(ctx):
    return _lowdim_evidence(ctx, energy_matched=True)


# --------------------------------------------------------------------------- claim 4
def _training_pair(rng, widths, n, kind, steps, step_size, weight_decay, bandwidth):
    """(LC before, LC after) training on the task's inputs, for one network and one task."""
    net = init_relu_net(widths, rng)
    X, y = regression_task(rng, n, widths[0], kind)
    trained, _ = train_adam(net, X, y, steps, step_size, weight_decay)
    before = float(np.mean(coarea_local_complexity(net, X, bandwidth)))
    after = float(np.mean(coarea_local_complexity(trained, X, bandwidth)))
    return after, before


def _training_evidence(ctx, kind, weight_decay=None):
    widths = (ctx["input_dim"],) + (ctx["width"],) * ctx["depth"] + (1,)
    wd = ctx["weight_decay"] if weight_decay is None else weight_decay
    pairs = ctx.trials(_training_pair, ctx["runs"], widths, ctx["train_size"], kind, ctx["steps"],
                       ctx["step_size"], wd, ctx["bandwidth"], label="training")
    after, before = (np.array(v) for v in zip(*pairs, strict=True))
    return Comparison(
        after, before, direction="less", level=0.95,
        why="95% Student-t interval over independent (network, task) runs; both LCs of a run are "
            "co-area estimates at the same training inputs, so the kernel bias largely cancels",
        quantity=f"LC at the training inputs after minus before training ({kind.replace('_', ' ')}, "
                 f"weight decay {wd:g})")


@claim(PAPER, role="headline", source="Abstract ('we consider how optimization drives ReLU networks towards "
                     "solutions with lower local complexity')",
       evidence="comparison", reconstructed_from="the abstract",
       sweeps=({"weight_decay": [0.0, 1e-2]},),
       statement=r"Training a ReLU network with weight decay ($\lambda > 0$) on a task with "
                 r"low-dimensional structure (a single-index target $y=\sin(2\langle u,x\rangle)$) "
                 r"lowers its local complexity over the data: $\mathrm{LC}(\theta_T)<"
                 r"\mathrm{LC}(\theta_0)$. The decrease comes from the weight decay's shrinkage of the "
                 r"weights, not from optimisation alone: without weight decay the same training "
                 r"raises the LC on this task, and with weight decay, fitting the same label values "
                 r"shuffled over the inputs (no structure) raises it too (both are the controls).",
       method="Full-batch Adam with weight decay (weights only) on the squared loss from He "
              "initialisation; co-area LC at the training inputs before and after; the paired "
              "difference over independent runs with a 95\\% $t$ interval. Controls: the same runs "
              "with weight decay 0, and with the targets shuffled over the inputs.",
       params={"input_dim": Param(8, full=8, low=1, high=64, doc="input dimension d"),
               "width": Param(32, full=32, low=2, high=256, doc="hidden width"),
               "depth": Param(2, full=2, low=1, high=6, doc="hidden layers"),
               "train_size": Param(256, full=512, low=16, high=10**5, doc="training inputs"),
               "runs": Param(5, full=10, low=3, high=1000, doc="independent runs (pairs)"),
               "steps": Param(800, full=1500, low=10, high=10**6, doc="Adam steps"),
               "step_size": Param(6e-3, full=3e-3, low=1e-5, high=0.1, doc="Adam step size"),
               "weight_decay": Param(3e-3, full=3e-3, low=0.0, high=1.0,
                                     doc="weight decay lambda on the weight matrices"),
               "bandwidth": Param(0.05, full=0.05, low=1e-3, high=0.5,
                                  doc="half-width h of the uniform kernel on z")})
def training_lowers_local_complexity(ctx):
    """Our reading of the optimisation statement (the paper's mechanism could not be read): on a
    target that depends on one direction, training with weight decay moves the region boundaries
    away from the data.  The effect is weight-decay shrinkage: with weight decay 0 the LC rises
    on this task (the first control), and an all-zero target lowers it even more than the
    single-index one; so the claim is stated for training with weight decay, and it also needs
    the target's structure: the same label values shuffled over the inputs, which can only be
    fitted with boundaries near the data, raise the LC under the same weight decay (the second
    control)."""
    return _training_evidence(ctx, "single_index")


@training_lowers_local_complexity.control(
    "no weight decay (lambda = 0): the same single-index training without the shrinkage; the LC rises")
def no_weight_decay(ctx):
    return _training_evidence(ctx, "single_index", weight_decay=0.0)


@training_lowers_local_complexity.control(
    "a task without low-dimensional structure: the single-index targets shuffled over the same inputs "
    "(the same label values, their relation to x destroyed), with the same weight decay")
def shuffled_labels(ctx):
    return _training_evidence(ctx, "shuffled_labels")
