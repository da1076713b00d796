"""Figures for the chapter section on reading the paper's public counting code.

Every function takes a result computed by :mod:`assocmem.dense_am.research_code` and returns a
plotly figure; none of them computes model quantities.

Public functions
----------------
plot_counting_survey
    Each public counting method's count minus the exact count, against the exact count, one
    marker per (instance, β), coloured by dimension: over-counts above zero, under-counts below.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import plotly.graph_objects as go

from assocmem._validation import check_instance
from assocmem.dense_am.research_code import CountingSurvey

from .._layout import tidied
from .._panels import _axis, _hline, _panels

__all__ = ["plot_counting_survey"]

_D_COLORS = ("#d62728", "#ff7f0e", "#2ca02c", "#1f77b4", "#9467bd", "#8c564b", "#e377c2")


@tidied
def plot_counting_survey(survey: CountingSurvey) -> go.Figure:
    """Public counts minus exact counts, per method (paper Sec. 4.1; public code).

    Parameters
    ----------
    survey : CountingSurvey
        From :func:`assocmem.dense_am.counting_survey`.

    Returns
    -------
    plotly.graph_objects.Figure
        Left: the brute force (``exp_LMIN0.py``); right: the neighbourhood search
        (``QBVAE_utils.py``). x: exact number of minima (log axis); y: reported minus exact.
        One trace per dimension d; hovering shows M, d, the β index and both counts.

    Raises
    ------
    TypeError
        If ``survey`` is not a :class:`~assocmem.dense_am.research_code.CountingSurvey`.

    Examples
    --------
    >>> from assocmem.dense_am import counting_survey
    >>> s = counting_survey(Ms=[4], ds=[1, 2], n_instances=1, beta_indices=[10])
    >>> [t.name for t in plot_counting_survey(s).data]
    ['d = 1', 'd = 2', 'd = 1', 'd = 2']
    """
    check_instance(survey, "survey", CountingSurvey)
    layout, refs = _panels(["brute force (exp_LMIN0.py)", "neighbourhood search (QBVAE_utils.py)"])
    traces: list[dict[str, Any]] = []
    dims = sorted({int(v) for v in survey.d})
    for panel, (reported, name) in enumerate(
        ((survey.n_brute, "brute force"), (survey.n_neighbourhood, "neighbourhood"))
    ):
        xref, yref, _ = refs[panel]
        for k, d in enumerate(dims):
            sel = survey.d == d
            diff = reported[sel] - survey.n_exact[sel]
            hover = [
                f"M = {M}, d = {d}, β index {i}<br>exact {e}, {name} {r}"
                for M, i, e, r in zip(
                    survey.M[sel],
                    survey.beta_index[sel],
                    survey.n_exact[sel],
                    reported[sel],
                    strict=True,
                )
            ]
            traces.append(
                {
                    "type": "scatter",
                    "mode": "markers",
                    "x": survey.n_exact[sel].astype(float),
                    "y": diff.astype(float),
                    "xaxis": xref,
                    "yaxis": yref,
                    "name": f"d = {d}",
                    "legendgroup": f"d = {d}",
                    "showlegend": panel == 0,
                    "marker": {"color": _D_COLORS[k % len(_D_COLORS)], "size": 7, "opacity": 0.7},
                    "text": hover,
                    "hovertemplate": "%{text}<extra></extra>",
                }
            )
        layout["shapes"].append(_hline(0.0, xref, yref, dash="dot"))
        layout[_axis(xref)].update(type="log", dtick=1, title={"text": "exact number of minima"})
    layout[_axis(refs[0][1])].update(title={"text": "reported − exact"})
    span = np.concatenate([survey.n_brute, survey.n_neighbourhood]) - np.tile(survey.n_exact, 2)
    pad = max(1.0, 0.08 * float(np.ptp(span)))
    for _, yref, _ in refs:
        layout[_axis(yref)].update(range=[float(span.min()) - pad, float(span.max()) + pad])
    layout.update(
        height=420,
        legend={"orientation": "h", "y": -0.22, "x": 0.5, "xanchor": "center"},
        margin={"t": 40},
    )
    return go.Figure(data=traces, layout=layout)
