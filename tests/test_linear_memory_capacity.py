"""Tests for assocmem.linear_memory.capacity: load, eq. (9), finite-p estimate, RS theory."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from cases import BAD_P_D
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.integrate import quad
from scipy.optimize import brentq

from assocmem._validation import ConvergenceWarning
from assocmem.linear_memory import capacity
from assocmem.linear_memory.capacity import _energetic_G

# Note §3, "Table of p(α, d)", p = round(c / W₀(c)) with c = α d². Integers: compared exactly.
P_TABLE_ALPHAS = [0.125, 0.2, 0.3115, 0.4, 0.4469, 0.5, 0.6, 0.8, 1.0, 1.2]
P_TABLE = {
    15: [12, 16, 23, 27, 30, 32, 37, 47, 56, 65],
    20: [17, 25, 35, 43, 47, 51, 59, 74, 89, 103],
    30: [32, 47, 67, 82, 89, 98, 114, 145, 174, 203],
    40: [51, 74, 107, 131, 144, 158, 184, 235, 283, 331],
    50: [73, 107, 155, 190, 209, 230, 268, 343, 415, 485],
    60: [98, 145, 210, 259, 285, 313, 366, 468, 568, 665],
    80: [158, 235, 342, 423, 466, 513, 600, 770, 936, 1097],
    100: [230, 343, 501, 622, 685, 755, 884, 1137, 1383, 1623],
    150: [459, 689, 1013, 1261, 1389, 1534, 1801, 2322, 2831, 3329],
    300: [1534, 2322, 3442, 4303, 4751, 5253, 6186, 8010, 9794, 11546],
    500: [3792, 5773, 8596, 10771, 11905, 13177, 15542, 20177, 24715, 29179],
}

# Note §2.4 table: κ, α_c(κ) printed to 4 decimals.
KAPPA_TABLE = [
    (0.05, 0.0861),
    (0.1, 0.1568),
    (0.125, 0.1879),
    (0.2, 0.2678),
    (0.25, 0.3115),
    (1 / 3, 0.3703),
    (0.4, 0.4067),
    (0.5, 0.4469),
    (0.6, 0.4731),
    (0.75, 0.4935),
    (0.9, 0.4996),
    (1.0, 0.5000),
]

# Note §2.3 table: p, α_c(p) printed to 3 decimals.
FINITE_P_TABLE = [
    (50, 0.628),
    (100, 0.618),
    (200, 0.610),
    (400, 0.602),
    (10**3, 0.594),
    (3 * 10**3, 0.586),
    (10**4, 0.578),
    (10**5, 0.567),
    (10**6, 0.559),
    (10**8, 0.548),
    (10**12, 0.535),
]

ALPHA_GRID = [1e-4, 0.01, 0.05, 0.1, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.49, 0.495]


class TestLoad:
    def test_definition(self):
        # paper eqs. (3), (5): α = p ln p / d², natural log (note §6 item 1); float rounding only
        assert capacity.load(158, 40) == pytest.approx(158 * math.log(158) / 1600, rel=1e-15)
        assert capacity.load(2, 1) == pytest.approx(2 * math.log(2), rel=1e-15)

    @BAD_P_D
    def test_bad_input(self, args, exc, match):
        with pytest.raises(exc, match=match):
            capacity.load(*args)


class TestPAtLoad:
    @pytest.mark.parametrize("d", sorted(P_TABLE))
    def test_note_table_row(self, d):
        # note §3 "Table of p(α, d)": every entry, exact (integers, same rounding convention)
        got = [capacity.p_at_load(a, d) for a in P_TABLE_ALPHAS]
        assert got == P_TABLE[d]

    def test_solves_p_log_p(self):
        # the real solution exp(W₀(c)) satisfies p ln p = c; the integer is its nearest neighbour
        alpha, d = 0.5, 40
        p = capacity.p_at_load(alpha, d)
        c = alpha * d**2
        p_real = brentq(lambda x: x * math.log(x) - c, 1.5, c)
        assert abs(p - p_real) <= 0.5

    @settings(max_examples=300, deadline=None, derandomize=True)
    @given(p=st.integers(2, 10**6), d=st.integers(1, 10**4))
    def test_inverts_load(self, p, d):
        # property: p_at_load(load(p, d), d) == p for all p >= 2, d >= 1 (c = p ln p >= 2 ln 2,
        # always above the p >= 2 threshold 1.5 ln 1.5; float error p * 1e-15 << 1/2)
        assert capacity.p_at_load(capacity.load(p, d), d) == p

    def test_bad_input(self):
        for bad in (0.0, -1.0, math.nan, math.inf):
            with pytest.raises(ValueError, match="alpha"):
                capacity.p_at_load(bad, 10)
        with pytest.raises(TypeError, match="alpha"):
            capacity.p_at_load("0.5", 10)
        with pytest.raises(ValueError, match="alpha"):
            capacity.p_at_load(0.5, 1)  # c = 0.5 < 1.5 ln 1.5: p would round to 1
        with pytest.raises(ValueError, match="d"):
            capacity.p_at_load(0.5, 0)
        with pytest.raises(TypeError, match="d"):
            capacity.p_at_load(0.5, 10.0)

    def test_p_is_capped_at_exact_integers(self):
        # issue 9: alpha = 1e300 gave a 299-digit p (float rounding noise); p stays <= 2**53
        assert capacity.p_at_load(2.0**53 * math.log(2.0**53) * 0.999, 1) <= 2**53
        with pytest.raises(ValueError, match="alpha"):
            capacity.p_at_load(1e300, 4)


class TestCapacityTwoLayer:
    @pytest.mark.parametrize(("kappa", "expected"), KAPPA_TABLE)
    def test_note_table(self, kappa, expected):
        # note §2.4 table (4 decimals): tolerance is half a unit in the last printed digit
        assert capacity.capacity_two_layer(kappa) == pytest.approx(expected, abs=5e-5)

    def test_paper_fig2_values(self):
        # C1/C2: α_c(1) = 1/2 to 1e-12; 0.31146, 0.44687 (note §3, C2, 5 decimals, ±5e-6).
        # The paper's Fig. 2 caption says "≈ 0.46" at κ = 1/2: its own eq. (9) gives 0.4469.
        assert capacity.capacity_two_layer(1.0) == pytest.approx(0.5, abs=1e-12)
        assert capacity.capacity_two_layer(0.25) == pytest.approx(0.31146, abs=5e-6)
        assert capacity.capacity_two_layer(0.5) == pytest.approx(0.44687, abs=5e-6)
        assert abs(capacity.capacity_two_layer(0.5) - 0.46) > 0.01

    @pytest.mark.parametrize("kappa", [0.01, 0.25, 0.5, 0.75, 0.99])
    def test_matches_direct_quadrature_of_eq9(self, kappa):
        # eq. (9) by scipy quad: X_qc from the quarter-circle CDF by brentq, then ½ ∫ ρ_qc σ²
        def rho(s):
            return math.sqrt(max(4.0 - s * s, 0.0)) / math.pi

        lo = brentq(lambda x: quad(rho, 0.0, x)[0] - (1.0 - kappa), 0.0, 2.0, xtol=1e-14)
        expected = 0.5 * quad(lambda s: rho(s) * s * s, lo, 2.0, epsabs=1e-13)[0]
        assert capacity.capacity_two_layer(kappa) == pytest.approx(expected, abs=1e-9)

    def test_monotone_in_kappa(self):
        # C3: α_c(κ) increases with κ (more rank, more capacity)
        values = [capacity.capacity_two_layer(k) for k in np.linspace(1e-3, 1.0, 200)]
        assert np.all(np.diff(values) > 0)

    def test_small_kappa_slope(self):
        # C3 / note §2.4: α_c ≈ 2κ as κ → 0; 0.01 → 0.01903, 0.001 → 0.001979 (printed digits)
        assert capacity.capacity_two_layer(0.01) == pytest.approx(0.01903, abs=5e-6)
        assert capacity.capacity_two_layer(1e-3) / 1e-3 == pytest.approx(1.979, abs=5e-4)

    def test_bad_input(self):
        for bad in (0.0, -0.1, 1.5, math.nan):
            with pytest.raises(ValueError, match="kappa"):
                capacity.capacity_two_layer(bad)
        with pytest.raises(TypeError, match="kappa"):
            capacity.capacity_two_layer(True)


class TestFinitePCapacity:
    @pytest.mark.parametrize(("p", "expected"), FINITE_P_TABLE)
    def test_note_table(self, p, expected):
        # note §2.3 table / C24 (3 decimals): half a unit in the last digit plus 1e-4 for the
        # note's own quadrature; our trapezoid error is far smaller (see p = 2 below)
        assert capacity.finite_p_capacity(p) == pytest.approx(expected, abs=6e-4)

    def test_p_two_is_exact(self):
        # p = 2: M_1 - η₁ ~ N(0, 2), so E[(·)_+²] = 1 and α_c(2) = ln 2 exactly
        assert capacity.finite_p_capacity(2) == pytest.approx(math.log(2), rel=1e-10)

    def test_decreases_towards_one_half(self):
        # α_c(p) = 1/2 + Õ(1/log p), approached from above (paper eq. (C.25), note §2.3)
        values = [capacity.finite_p_capacity(10**k) for k in (2, 4, 8, 16, 32)]
        assert np.all(np.diff(values) < 0)
        assert values[-1] > 0.5

    def test_bad_input(self):
        with pytest.raises(ValueError, match="p"):
            capacity.finite_p_capacity(1)
        with pytest.raises(TypeError, match="p"):
            capacity.finite_p_capacity(100.0)


class TestEnergeticG:
    def test_g_at_zero(self):
        # C7: G(0) = -1 exactly (f_p(0) = 1/p, note §2.2)
        assert _energetic_G(0.0) == (-1.0, -1.0)
        assert _energetic_G(1e-12)[0] == pytest.approx(-1.0, abs=1e-10)

    @pytest.mark.parametrize("q", [0.1, 0.3, 0.5, 0.7, 0.9, 0.99])
    def test_within_paper_bounds(self, q):
        # (C.35): G >= -(1+β)²; (C.38) with k → ∞: G <= -β², β = √(q/(1-q))
        beta2 = q / (1 - q)
        g = _energetic_G(q)[0]
        assert -((1 + math.sqrt(beta2)) ** 2) <= g <= -beta2

    @pytest.mark.parametrize("q", [0.05, 0.3, 0.6, 0.9, 0.99])
    def test_derivative_matches_finite_difference(self, q):
        # envelope-theorem G' vs a central difference (step 1e-6, error O(h²) relative ~1e-8)
        h = 1e-6
        fd = (_energetic_G(q + h)[0] - _energetic_G(q - h)[0]) / (2 * h)
        assert _energetic_G(q)[1] == pytest.approx(fd, rel=1e-6)

    @pytest.mark.parametrize("q", [0.0, 0.2, 0.5, 0.8, 0.95])
    def test_derived_closed_form(self, q):
        # [OURS, note §2.2] G(q) = -1/(1-q): nested Brent solves to ~1e-15, so 1e-12 relative
        assert _energetic_G(q)[0] == pytest.approx(-1 / (1 - q), rel=1e-12)
        assert _energetic_G(q)[1] == pytest.approx(-1 / (1 - q) ** 2, rel=1e-9)


class TestRSOverlap:
    @pytest.mark.parametrize("alpha", ALPHA_GRID)
    def test_derived_closed_form(self, alpha):
        # [OURS, note §2.2 / C9] q* = 2α; Brent xtol 1e-13 on q, G' accurate to ~1e-13
        assert capacity.rs_overlap(alpha) == pytest.approx(2 * alpha, abs=1e-9)

    def test_overlap_tends_to_one_at_capacity(self):
        # Claim 1 / C9: q* ↑ 1 as α ↑ 1/2
        qs = [capacity.rs_overlap(a) for a in (0.4, 0.49, 0.499, 0.4999)]
        assert np.all(np.diff(qs) > 0) and qs[-1] > 0.999

    def test_warns_when_not_converged(self):
        with pytest.warns(ConvergenceWarning, match="iterations"):
            capacity.rs_overlap(0.2, max_iter=1)

    def test_no_warning_by_default(self):
        with warnings.catch_warnings():
            warnings.simplefilter("error", ConvergenceWarning)
            capacity.rs_overlap(0.3)

    def test_bad_input(self):
        for bad in (0.0, -0.1, 0.5, 0.7, math.nan):
            with pytest.raises(ValueError, match="alpha"):
                capacity.rs_overlap(bad)
        with pytest.raises(TypeError, match="alpha"):
            capacity.rs_overlap(None)
        with pytest.raises(ValueError, match="tol"):
            capacity.rs_overlap(0.2, tol=0.0)
        with pytest.raises(ValueError, match="max_iter"):
            capacity.rs_overlap(0.2, max_iter=0)


class TestRSFreeEntropy:
    @pytest.mark.parametrize("alpha", ALPHA_GRID)
    def test_derived_closed_form(self, alpha):
        # [OURS, note §2.2] φ = ½ log(1-2α); h_α is stationary at q*, so the q* error enters
        # only at second order and 1e-9 absolute is loose
        assert capacity.rs_free_entropy(alpha) == pytest.approx(
            0.5 * math.log1p(-2 * alpha), abs=1e-9
        )

    @pytest.mark.parametrize("alpha", ALPHA_GRID)
    def test_below_annealed_bound(self, alpha):
        # Jensen (note §2.2): φ <= log E V / d² = -α
        assert capacity.rs_free_entropy(alpha) <= -alpha

    def test_diverges_at_capacity(self):
        # Claim 1: φ → -∞ as α ↑ 1/2
        assert capacity.rs_free_entropy(0.49999) < -5.0

    def test_bad_input(self):
        for bad in (0.0, 0.5, 1.0, -1.0, math.inf):
            with pytest.raises(ValueError, match="alpha"):
                capacity.rs_free_entropy(bad)


class TestRSFreeEntropyCurve:
    def test_minimum_at_q_star(self):
        # eq. (7) is an inf over q: the curve is minimal at q* = 2α (grid contains it)
        q = np.linspace(0.0, 0.95, 96)
        r = capacity.rs_free_entropy_curve(0.3, q)
        assert r.q[np.argmin(r.h)] == pytest.approx(0.6, abs=1e-12)
        assert r.q_star == pytest.approx(0.6, abs=1e-9)
        assert r.phi == pytest.approx(r.h.min(), abs=1e-12)
        assert r.phi == pytest.approx(capacity.rs_free_entropy(0.3), abs=1e-12)

    def test_bad_input(self):
        with pytest.raises(ValueError, match="q_grid"):
            capacity.rs_free_entropy_curve(0.3, [0.2, 1.0])
        with pytest.raises(ValueError, match="q_grid"):
            capacity.rs_free_entropy_curve(0.3, [])
        with pytest.raises(ValueError, match="alpha"):
            capacity.rs_free_entropy_curve(0.6, [0.2])
