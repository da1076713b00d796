"""Tests for explore.epanechnikov.research: the figure of the public counting code's errors."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from assocmem.dense_am import counting_survey
from assocmem.explore.epanechnikov import research as epa_research


@pytest.fixture(scope="module")
def survey():
    return counting_survey(Ms=[6, 12], ds=[1, 4], n_instances=1, beta_indices=[5, 25], rng=0)


class TestPlotCountingSurvey:
    def test_one_trace_per_dimension_and_panel(self, survey):
        fig = epa_research.plot_counting_survey(survey)
        assert isinstance(fig, go.Figure)
        assert [t.name for t in fig.data] == ["d = 1", "d = 4", "d = 1", "d = 4"]
        # the legend lists each dimension once
        assert [t.showlegend for t in fig.data] == [True, True, False, False]

    def test_y_is_reported_minus_exact(self, survey):
        fig = epa_research.plot_counting_survey(survey)
        sel = survey.d == 1
        assert np.array_equal(fig.data[0].x, survey.n_exact[sel])
        assert np.array_equal(fig.data[0].y, (survey.n_brute - survey.n_exact)[sel])
        assert np.array_equal(fig.data[2].y, (survey.n_neighbourhood - survey.n_exact)[sel])

    def test_log_x_axes_with_decade_ticks(self, survey):
        fig = epa_research.plot_counting_survey(survey)
        assert fig.layout.xaxis.type == "log" and fig.layout.xaxis2.type == "log"
        assert fig.layout.xaxis.dtick == 1

    @pytest.mark.parametrize("bad", [None, "survey", [1, 2]])
    def test_refuses_other_objects(self, bad):
        with pytest.raises(TypeError, match="survey"):
            epa_research.plot_counting_survey(bad)
