"""Auctions: Myerson's optimal auction (ironing, revenue), private quantile estimation."""

from .myerson import (
    IronedCurve,
    PiecewiseUniform,
    VirtualValueAuction,
    auction_from_curves,
    deviation_gains,
    discrete_ironed_curve,
    expected_max_positive,
    expected_revenue,
    ironed_curve,
    myerson_revenue,
    quantile_grid,
)

__all__ = [
    "IronedCurve", "PiecewiseUniform", "deviation_gains", "VirtualValueAuction", "auction_from_curves", "discrete_ironed_curve",
    "expected_max_positive", "expected_revenue", "ironed_curve", "myerson_revenue", "quantile_grid",
]
from .private_quantiles import (  # noqa: E402
    max_log_ratio,
    privacy_audit,
    private_quantiles,
    quantile_auction,
    quantile_output_density,
    sample_quantile,
)

__all__ += [
    "max_log_ratio", "privacy_audit", "private_quantiles", "quantile_auction",
    "quantile_output_density", "sample_quantile",
]
from .procurement import (  # noqa: E402
    best_benchmark,
    cost_blind_greedy,
    distorted_greedy,
    seller_utility,
    threshold_payment,
    weighted_coverage,
)

__all__ += [
    "best_benchmark", "cost_blind_greedy", "distorted_greedy", "seller_utility", "threshold_payment",
    "weighted_coverage",
]
from .private_quantiles import (  # noqa: E402
    cap_log_probabilities,
    capped_clustered_neighbours,
    capped_pair_privacy_loss,
    capped_privacy_audit,
    capped_private_quantiles,
    clustered_neighbours,
    geometric_caps,
    pair_privacy_loss,
    posted_price_utility,
    repeated_auction_audit,
    utility_log_ratio,
)

__all__ += ["cap_log_probabilities", "capped_clustered_neighbours", "capped_pair_privacy_loss",
            "capped_privacy_audit", "capped_private_quantiles", "clustered_neighbours", "geometric_caps",
            "pair_privacy_loss", "posted_price_utility", "repeated_auction_audit", "utility_log_ratio"]
from .procurement import (  # noqa: E402
    WeightedCoverage,
    auctioneer_surplus,
    bicriteria_alpha,
    descending_auction,
    greedy_tight_instance,
    least_efficient_first,
    online_posted_prices,
    two_seller_instance,
)

__all__ += ["WeightedCoverage", "auctioneer_surplus", "bicriteria_alpha", "descending_auction",
            "greedy_tight_instance", "least_efficient_first", "online_posted_prices", "two_seller_instance"]
