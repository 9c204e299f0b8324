"""The report's figures (matplotlib): evidence of a rate or a bound, and sweeps.

Rules every figure follows:

- labels are the evidence's own words, with math typeset as in the report's tables: ``$...$``
  spans (and formulas written without ``$``, found by :func:`workbench.texsafe.auto_math`) are
  drawn by matplotlib's mathtext; a label mathtext cannot parse is drawn as plain text;
- independent instances are points; lines join only a sequence (a trajectory, sizes in order);
- each family of instances (``Bound(series=...)``) has its colour, named in the legend;
- a sweep shows the claimed value or threshold beside the measured one;
- an axis whose values span decades is logarithmic, and symmetric-logarithmic when they also
  change sign (a margin); tick labels that would overlap are thinned out.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

VERDICT_RGB = {"VERIFIED": "#00763e", "REFUTED": "#be1e2d", "INCONCLUSIVE": "#c47800", "ERROR": "#961e96"}
MAX_LEGEND_SERIES = 10


def plt() -> Any:
    """matplotlib's pyplot on the Agg backend, with embeddable fonts."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as pyplot

    matplotlib.rcParams.update({"pdf.fonttype": 42, "font.size": 9})
    import logging

    logging.getLogger("fontTools").setLevel(logging.ERROR)  # it reports the fonts' old timestamps
    return pyplot


def figure_label(text: Any, width: int = 0) -> str:
    """``text`` as a matplotlib label: math in ``$...$`` (see :func:`workbench.texsafe.auto_math`)
    for mathtext, wrapped at ``width`` characters between words (never inside math); plain text
    when mathtext cannot parse it."""
    from matplotlib.mathtext import MathTextParser

    from .texsafe import _unescape, auto_math

    label = auto_math(_unescape(str(text)))
    if label.count("$") % 2:
        label = label.replace("$", "")
    parts = label.split("$")  # relations written in plain text, as signs (outside math only)
    for i in range(0, len(parts), 2):
        for rel, sign in (("<=", r"$\leq$"), (">=", r"$\geq$"), ("+-", r"$\pm$")):
            parts[i] = parts[i].replace(rel, sign)
    label = "$".join(parts)
    try:
        MathTextParser("path").parse(label) if "$" in label else None
    except Exception:  # noqa: BLE001 - mathtext rejects what it does not know: draw the text as written
        label = label.replace("$", "")
    if width:
        label = _wrap(label, width)
    return label


def _wrap(label: str, width: int) -> str:
    """Wrap at spaces outside ``$...$`` spans."""
    words, current, inside = [], "", False
    for ch in label:
        if ch == "$":
            inside = not inside
        if ch == " " and not inside:
            words.append(current)
            current = ""
        else:
            current += ch
    words.append(current)
    lines, line = [], ""
    for w in words:
        if line and len(_visible(line + " " + w)) > width:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    return "\n".join(lines + [line])


def _visible(label: str) -> str:
    return label.replace("$", "").replace("\\", "")


def label_at_values(axis: Any, values: Any) -> None:
    """Label a numeric axis at the measured values (at most 12 distinct) and blank its minor
    labels: on short log axes matplotlib labels every minor tick, and they overlap."""
    from matplotlib.ticker import NullFormatter

    ticks = sorted({float(v) for v in values})
    if len(ticks) <= 12:
        axis.set_ticks(ticks, [tick_text(v) for v in ticks])
        axis.set_minor_formatter(NullFormatter())


def tick_text(v: float) -> str:
    """A tick label: integers below 10^5 as they are, other values with 3 significant digits,
    as a decimal between 0.001 and 10^5 and as mathtext ``m x 10^e`` outside."""
    if v == 0:
        return "0"
    if v.is_integer() and abs(v) < 1e5:
        return f"{v:.0f}"
    if 1e-3 <= abs(v) < 1e5:
        digits = max(0, 2 - math.floor(math.log10(abs(v))))
        return f"{v:.{digits}f}".rstrip("0").rstrip(".") if digits else f"{v:.0f}"
    mantissa, exponent = f"{v:.2e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".")
    power = f"10^{{{int(exponent)}}}"
    if mantissa in ("1", "-1"):
        return f"${mantissa[:-1]}{power}$"
    return f"${mantissa}\\times {power}$"


def _overlaps(labels: list[Any], renderer: Any) -> bool:
    boxes = [t.get_window_extent(renderer) for t in labels if t.get_visible() and t.get_text()]
    boxes.sort(key=lambda b: (b.x0, b.y0))
    return any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])


def thin_ticks(fig: Any, ax: Any, drawn: bool = False) -> None:
    """Make sure no two tick labels of ``ax`` overlap: drop the minor labels first, then keep
    every k-th major label for the smallest k that separates them.  (One layout pass without
    rendering when nothing overlaps, which is the common case; none when ``drawn`` says the
    figure was just laid out.)"""
    from matplotlib.ticker import FuncFormatter, NullFormatter

    if not drawn:
        fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    crowded = [axis for axis in (ax.xaxis, ax.yaxis) if _overlaps(axis.get_ticklabels(which="both"), renderer)]
    for axis in crowded:
        axis.set_minor_formatter(NullFormatter())
        original = axis.get_major_formatter()
        for k in range(1, 12):
            if k > 1:
                axis.set_major_formatter(FuncFormatter(
                    lambda v, pos, k=k, f=original: f(v, pos) if pos is None or pos % k == 0 else ""))
            fig.draw_without_rendering()
            if not _overlaps(axis.get_ticklabels(which="both"), fig.canvas.get_renderer()):
                break


def _span_scale(values: np.ndarray) -> str:
    """'log' for positive values spanning more than two decades; 'symlog' for values of both
    signs (or 0) whose sizes span more than three decades in bulk (from the 10th to the 90th
    percentile of the nonzero sizes, so that a few values near 0 do not decide it); else
    'linear'."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if v.size < 2:
        return "linear"
    if np.all(v > 0):
        return "log" if v.max() / v.min() > 100 else "linear"
    nz = np.abs(v[v != 0])
    if nz.size >= 2 and np.quantile(nz, 0.9) / np.quantile(nz, 0.1) > 1000:
        return "symlog"
    return "linear"


def _set_scale(ax: Any, which: str, values: np.ndarray) -> None:
    scale = _span_scale(values)
    setter = ax.set_yscale if which == "y" else ax.set_xscale
    if scale == "symlog":
        nz = np.abs(np.asarray(values, dtype=float))
        nz = nz[(nz > 0) & np.isfinite(nz)]
        setter("symlog", linthresh=float(np.quantile(nz, 0.1)) if nz.size else 1.0)
    elif scale == "log":
        setter("log")


def _headroom(ax: Any, reference: float) -> None:
    """Room above a reference line that the instances reach (measured/bound = 1), so that the
    line is drawn inside the axes, not on their edge."""
    lo, hi = ax.get_ylim()
    if ax.get_yscale() == "log":
        if reference > 0 and hi < 1.15 * reference:
            ax.set_ylim(lo, 1.15 * reference)
    elif hi < reference + 0.06 * (hi - lo):
        ax.set_ylim(lo, reference + 0.06 * (max(hi, reference) - lo))


def _series(fig_data: dict[str, Any], n: int) -> tuple[list[str], dict[str, str]]:
    names = fig_data.get("series") or [""] * n
    colours = {name: f"C{i % 10}" for i, name in enumerate(dict.fromkeys(names))}
    return names, colours


def _legend(ax: Any, **kw: Any) -> None:
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        ax.legend(frameon=False, fontsize=8, **kw)


def draw_bound(fig_data: dict[str, Any]) -> Any:
    """The figure of a :class:`workbench.Bound` (see the module docstring): families of a sequence
    as lines (measured solid, bound dashed, one colour per family); independent instances against
    x as points of measured/bound with the bound at 1 (or of the excess over the bound when a
    bound is not positive); independent instances without x as points of measured against bound
    beside the line measured = bound."""
    pyplot = plt()
    x = np.asarray(fig_data["x"], dtype=float)
    m, b = np.asarray(fig_data["measured"], dtype=float), np.asarray(fig_data["bound"], dtype=float)
    rel = fig_data.get("relation", "<=")
    names, colours = _series(fig_data, m.size)
    many = len(colours) > 1
    fig, ax = pyplot.subplots(figsize=(5.2, 3.0))
    quantity = figure_label(fig_data.get("ylabel", "value"), 60)
    sym = r"$\leq$" if rel == "<=" else r"$\geq$"
    has_x = fig_data.get("has_x", True)
    sequence = fig_data.get("sequence", has_x and len(np.unique(x)) == len(x) and len(x) <= 400)
    small = 3 if m.size > 200 else 4
    if has_x and sequence:
        for name, colour in colours.items():
            idx = [i for i, s in enumerate(names) if s == name]
            order = np.asarray(idx)[np.argsort(x[idx], kind="stable")]
            ax.plot(x[order], m[order], "-o", ms=small - 1, lw=1.2, color=colour,
                    label=(f"{name}: measured" if many else "measured"), zorder=3)
            ax.plot(x[order], b[order], "--", lw=1.0, color=colour, alpha=0.8,
                    label=(f"{name}: bound" if many else f"bound ({sym})"))
        _set_scale(ax, "y", np.concatenate([m, b]))
        ax.set_ylabel(quantity)
        ax.set_xlabel(figure_label(fig_data.get("xlabel", ""), 70))
    elif has_x:
        positive = np.all(b > 0)
        y = m / b if positive else m - b
        for name, colour in colours.items():
            idx = [i for i, s in enumerate(names) if s == name]
            ax.scatter(x[idx], y[idx], s=small * 3, color=colour, alpha=0.7 if m.size > 100 else 1.0,
                       label=name if many else "instances", zorder=3, linewidths=0)
        ax.axhline(1.0 if positive else 0.0, color="k", ls="--", lw=1.0,
                   label="the bound" + (" (measured/bound = 1)" if positive else " (excess 0)"))
        _set_scale(ax, "y", y)
        _headroom(ax, 1.0 if positive else 0.0)
        ax.set_ylabel(figure_label(("measured / bound" if positive else "measured - bound") + f" ({rel} holds "
                                   + ("below" if rel == "<=" else "above") + ")", 40))
        ax.set_xlabel(figure_label(fig_data.get("xlabel", ""), 70))
        ax.set_title(quantity, fontsize=8)
    else:
        for name, colour in colours.items():
            idx = [i for i, s in enumerate(names) if s == name]
            ax.scatter(b[idx], m[idx], s=small * 3, color=colour, alpha=0.7 if m.size > 100 else 1.0,
                       label=name if many else "instances", zorder=3, linewidths=0)
        both = np.concatenate([m, b])
        lo, hi = float(np.min(both)), float(np.max(both))
        scale = _span_scale(both)
        line = np.geomspace(lo, hi, 200) if scale == "log" else np.linspace(lo, hi, 200)
        side = "above" if rel == "<=" else "below"
        ax.plot(line, line, "k--", lw=1.0, label=f"measured = bound ({side}: a violation)")
        _set_scale(ax, "x", both)
        _set_scale(ax, "y", both)
        ax.set_xlabel("bound")
        ax.set_ylabel(quantity)
    if has_x and all(float(v).is_integer() for v in x) and ax.get_xscale() == "linear":
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if len(colours) <= MAX_LEGEND_SERIES:
        # beside the axes, not over the instances (which often crowd the bound)
        _legend(ax, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.grid(True, which="both", alpha=0.25)
    return fig


def draw_rate(fig_data: dict[str, Any]) -> Any:
    """The figure of a :class:`workbench.Rate`: the measured costs, the fitted line and a line of
    the claimed slope through the data's centre, on log-log axes."""
    pyplot = plt()
    fig, ax = pyplot.subplots(figsize=(5.2, 3.0))
    x, y = np.asarray(fig_data["x"], dtype=float), np.asarray(fig_data["y"], dtype=float)
    ax.loglog(x, y, "o", ms=4, color="C0", label="measured", zorder=3)
    xs = np.geomspace(x.min(), x.max(), 50)
    ax.loglog(xs, np.exp(fig_data["intercept"]) * xs ** fig_data["slope"], "-", color="C0", lw=1,
              label=f"fit: slope {fig_data['slope']:.3f}")
    gx, gy = np.exp(np.mean(np.log(x))), np.exp(np.mean(np.log(y)))
    ax.loglog(xs, gy * (xs / gx) ** fig_data["claimed"], "--", color="C1", label=f"claimed slope {fig_data['claimed']:.3g}")
    label_at_values(ax.xaxis, x)
    ax.set_xlabel(figure_label(fig_data.get("xlabel", ""), 70))
    ax.set_ylabel(figure_label(fig_data.get("ylabel", ""), 36))
    _legend(ax)
    ax.grid(True, which="both", alpha=0.25)
    return fig


def evidence_figure(fig_data: dict[str, Any], path: Path) -> Path | None:
    """Draw one figure of evidence (a rate or a bound) to ``path``; None for another kind, or for a
    bound whose instances are all one point."""
    draw = {"rate": draw_rate, "bound": draw_bound}.get(fig_data.get("type"))
    if draw is None:
        return None
    if fig_data["type"] == "bound" and len(set(zip(fig_data["measured"], fig_data["bound"], strict=True))) < 2 \
            and (not fig_data.get("has_x", True) or len(set(fig_data["x"])) < 2):
        return None  # every instance the same point: the table says it all
    fig = draw(fig_data)
    _finish(fig, path)
    return path


def _finish(fig: Any, path: Path) -> None:
    # One layout pass (thin_ticks') sets the tick labels and the tight bounding box the figure is
    # saved in, which takes in the labels: no tight_layout, no second pass of savefig's own.
    from matplotlib.ticker import ScalarFormatter

    for ax in fig.axes:  # an axis' common factor as x 10^e, not 1e-11
        for axis in (ax.xaxis, ax.yaxis):
            if isinstance(axis.get_major_formatter(), ScalarFormatter):
                axis.get_major_formatter().set_useMathText(True)
    fig.draw_without_rendering()
    for ax in fig.axes:
        thin_ticks(fig, ax, drawn=True)
    box = fig.get_tightbbox(fig.canvas.get_renderer()).padded(0.05)
    fig.savefig(path, bbox_inches=box)
    plt().close(fig)


def _numeric(values: list[Any]) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def claimed_line(points: list[dict[str, Any]], key: str | None) -> tuple[list[float] | None, str]:
    """What a sweep's headline number ``key`` is held to at each point (the claimed exponent, the
    margin 0 of a bound, the tolerance of an identity, the claimed probability, the margin of a
    comparison, the reference of a certificate), and its name; (None, "") when the evidence
    states none."""
    def ev(p: dict[str, Any]) -> dict[str, Any]:
        return p.get("evidence") or {}

    def number(v: Any) -> float | None:
        return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) else None

    values: list[float | None]
    if key == "slope":
        values, name = [number(ev(p).get("exponent")) for p in points], "claimed exponent"
    elif key == "smallest_margin":
        values, name = [0.0] * len(points), "margin 0: the bound"
    elif key == "max_rel_error":  # a relative tolerance of 0 is no threshold for the relative error
        values = [number(ev(p).get("rtol")) or None for p in points]
        name = "tolerance (relative)"
    elif key == "max_abs_error":
        values = [number(ev(p).get("atol")) or None for p in points]
        name = "tolerance (absolute)"
    elif key == "estimate":
        values = [number((p.get("headline") or {}).get("claimed", ev(p).get("probability"))) for p in points]
        name = "claimed probability"
    elif key == "mean_difference":
        values = [None if number(ev(p).get("margin")) is None else
                  (-1 if ev(p).get("direction", "less") == "less" else 1) * number(ev(p).get("margin"))
                  for p in points]
        name = "claimed margin"
    elif key == "value":
        values, name = [number((p.get("headline") or {}).get("reference")) for p in points], "claimed value"
    else:
        return None, ""
    if any(v is None for v in values):
        return None, ""
    return [float(v) for v in values], name


def sweep_key(points: list[dict[str, Any]]) -> str | None:
    """The headline number a one-axis sweep plots: the first (by
    :data:`workbench.sweeps.HEADLINE_PRIORITY`) that every point has and whose claimed value
    the evidence states, else the first that every point has."""
    from .sweeps import HEADLINE_PRIORITY, headline_key

    for key in HEADLINE_PRIORITY:
        if points and all(isinstance((p.get("headline") or {}).get(key), (int, float)) for p in points) \
                and claimed_line(points, key)[0] is not None:
            return key
    return headline_key(points)


def draw_sweep(sweep: dict[str, Any]) -> Any:
    """The figure of a stored sweep.

    Two varying axes: a phase diagram, each point coloured by the evidence's ``finding`` when
    every point has one (a black cross where the claim is not verified), else by its verdict.
    One axis: the headline number against it with the claimed value or threshold, each point
    coloured by its verdict (symmetric-log when the numbers span decades across 0).
    """
    from matplotlib.lines import Line2D

    pyplot = plt()
    grid, points = sweep["grid"], sweep["points"]
    varying = [n for n, v in grid.items() if len(v) > 1] or list(grid)
    fig, ax = pyplot.subplots(figsize=(5.2, 3.2))
    colours = [VERDICT_RGB[p["claim_verdict"]] for p in points]
    seen = [v for v in VERDICT_RGB if any(p["claim_verdict"] == v for p in points)]
    handles = [Line2D([], [], ls="", marker="s" if len(varying) >= 2 else "o", color=VERDICT_RGB[v]) for v in seen]
    labels = [v.lower() for v in seen]

    def axis_values(name: str) -> tuple[list[Any], bool]:
        vals = [p["params"][name] for p in points]
        if _numeric(grid[name]):
            return vals, True
        order = {v: i for i, v in enumerate(grid[name])}
        return [order[v] for v in vals], False

    if len(varying) >= 2:
        (xn, yn) = varying[:2]
        xs, xnum = axis_values(xn)
        ys, ynum = axis_values(yn)
        findings = [(p.get("evidence") or {}).get("finding") for p in points]
        if all(isinstance(f, str) for f in findings):
            palette = {f: f"C{i % 10}" for i, f in enumerate(dict.fromkeys(findings))}
            ax.scatter(xs, ys, c=[palette[f] for f in findings], s=90, marker="s")
            bad = [i for i, p in enumerate(points) if p["claim_verdict"] != "VERIFIED"]
            ax.scatter([xs[i] for i in bad], [ys[i] for i in bad], c="k", marker="x", s=40, zorder=3)
            handles = [Line2D([], [], ls="", marker="s", color=c) for c in palette.values()]
            labels = [figure_label(f) for f in palette]
            if bad:
                handles.append(Line2D([], [], ls="", marker="x", color="k"))
                labels.append("claim not verified")
            ax.set_title("what the measurement found over the grid", fontsize=9)
        else:
            ax.scatter(xs, ys, c=colours, s=60, marker="s")
            ax.set_title("claim verdict over the grid", fontsize=9)
        ax.set_xlabel(figure_label(xn))
        ax.set_ylabel(figure_label(yn))
        for name, num, setter, axis in ((xn, xnum, ax.set_xscale, ax.xaxis), (yn, ynum, ax.set_yscale, ax.yaxis)):
            if num and min(grid[name]) > 0 and max(grid[name]) / min(grid[name]) >= 10:
                setter("log")
            if not num:
                axis.set_ticks(range(len(grid[name])), [str(v) for v in grid[name]])
            else:
                label_at_values(axis, grid[name])
    else:
        xn = varying[0]
        xs, xnum = axis_values(xn)
        key = sweep_key(points)
        ys = [p["headline"][key] for p in points] if key else [list(VERDICT_RGB).index(p["claim_verdict"]) for p in points]
        ax.plot(xs, ys, "-", color="0.6", lw=1)
        ax.scatter(xs, ys, c=colours, s=30, zorder=3)
        claimed, name = claimed_line(points, key)
        if claimed is not None:
            ax.plot(xs, claimed, "--", color="C1", lw=1.2, zorder=2)
            handles.append(Line2D([], [], ls="--", color="C1"))
            labels.append(name)
        ax.set_xlabel(figure_label(xn))
        ax.set_ylabel({"estimate": "estimated probability", "smallest_margin": "smallest margin of the bound",
                       "slope": "fitted exponent", "max_rel_error": "largest relative error",
                       "max_abs_error": "largest absolute error", "mean_difference": "mean difference",
                       }.get(key, key.replace("_", " ")) if key else "verdict")
        if key:
            _set_scale(ax, "y", np.asarray(ys + (claimed or []), dtype=float))
        else:
            ax.set_yticks(range(len(VERDICT_RGB)), list(VERDICT_RGB))
        if xnum and min(grid[xn]) > 0 and max(grid[xn]) / min(grid[xn]) >= 10:
            ax.set_xscale("log")
        if xnum:
            label_at_values(ax.xaxis, grid[xn])
        else:
            ax.set_xticks(range(len(grid[xn])), [str(v) for v in grid[xn]])
    ax.legend(handles, labels, frameon=False, fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.grid(True, which="both", alpha=0.25)
    return fig


def sweep_figure(sweep: dict[str, Any], path: Path) -> Path:
    """Draw a stored sweep (:func:`draw_sweep`) to ``path``."""
    _finish(draw_sweep(sweep), path)
    return path
