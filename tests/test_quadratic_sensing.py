"""Tests for assocmem.quadratic.sensing: teacher, network and GOE-surrogate data, sensing operators.

The identities are exact (the slides' "Quadratic networks" map, the adjoint relation) and are
checked to rounding; the moment checks (E Tr[G B]² = 2‖B‖²_F/d, the GOE(d) entry variances) are
Monte Carlo estimates with tolerances of several standard errors.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assocmem.backend import has_gpu
from assocmem.quadratic import sensing


def _explicit_G(X: np.ndarray) -> np.ndarray:
    """The (n, d, d) stack G_μ = (x_μ x_μᵀ − I)/√d, formed explicitly (small sizes only)."""
    d = X.shape[1]
    return (X[:, :, None] * X[:, None, :] - np.eye(d)) / math.sqrt(d)


def _sym(rng: np.random.Generator, d: int) -> np.ndarray:
    B = rng.standard_normal((d, d))
    return (B + B.T) / 2


class TestQuadnetOutput:
    def test_network_equals_trace_of_G_A(self) -> None:
        # Slides, "Quadratic networks": (1/√p) Σ_i [(w_i·x)² − ‖w_i‖²]/d = Tr[G A], exact.
        rng = np.random.default_rng(3)
        d, p, n = 12, 7, 30
        W, X = rng.standard_normal((p, d)), rng.standard_normal((n, d))
        A = W.T @ W / math.sqrt(p * d)
        traces = np.einsum("nij,ji->n", _explicit_G(X), A)
        np.testing.assert_allclose(sensing.quadnet_output(W, X), traces, rtol=0, atol=1e-12)

    def test_one_input_gives_a_float(self) -> None:
        rng = np.random.default_rng(0)
        W, X = rng.standard_normal((3, 5)), rng.standard_normal((4, 5))
        out = sensing.quadnet_output(W, X[1])
        assert isinstance(out, float)
        assert out == pytest.approx(sensing.quadnet_output(W, X)[1], abs=1e-14)

    def test_noiseless_labels_are_the_network_output(self) -> None:
        data = sensing.sample_sensing(15, 0.4, 0.5, rng=2)
        np.testing.assert_allclose(data.y, sensing.quadnet_output(data.W, data.X), atol=1e-12)


class TestSampleTeacher:
    def test_trace_and_second_moment(self) -> None:
        # A-units (slides' A = WᵀW/√(pd)): Tr A/d → √ρ and Tr A²/d → 1 + ρ; at finite d the
        # exact mean of Tr A²/d is 1 + (p + 1)/d, and the spread is O(1/d).
        d, rho = 300, 0.5
        A = sensing.sample_teacher(d, rho, rng=4)
        assert np.trace(A) / d == pytest.approx(math.sqrt(rho), abs=0.02)
        assert np.sum(A * A) / d == pytest.approx(1 + (round(rho * d) + 1) / d, abs=0.03)

    def test_psd_with_rank_p(self) -> None:
        A = sensing.sample_teacher(40, 0.25, rng=1)
        lam = np.linalg.eigvalsh(A)
        assert lam.min() > -1e-12
        assert np.sum(lam > 1e-10) == 10

    def test_same_seed_same_teacher_as_sample_sensing(self) -> None:
        # The sensing data draw W first, so a seed gives the same A* in both functions.
        A = sensing.sample_teacher(20, 0.5, rng=9)
        np.testing.assert_array_equal(A, sensing.sample_sensing(20, 0.5, 0.1, rng=9).A)

    def test_tiny_rho_keeps_one_neuron(self) -> None:
        A = sensing.sample_teacher(10, 1e-3, rng=0)
        assert np.linalg.matrix_rank(A) == 1


class TestSampleSensing:
    @pytest.mark.parametrize("surrogate", [False, True])
    def test_shapes_and_counts(self, surrogate: bool) -> None:
        data = sensing.sample_sensing(10, 0.3, 0.37, rng=0, surrogate=surrogate)
        assert data.n == 37 and data.d == 10 and data.W.shape == (3, 10)
        assert data.alpha == pytest.approx(0.37)
        assert data.y.shape == (37,) and data.A.shape == (10, 10)
        assert data.surrogate is surrogate
        if surrogate:
            assert data.X is None and data.G.shape == (37, 10, 10)
        else:
            assert data.G is None and data.X.shape == (37, 10)

    def test_seeds(self) -> None:
        a = sensing.sample_sensing(8, 0.5, 0.5, rng=5, noise=0.1)
        b = sensing.sample_sensing(8, 0.5, 0.5, rng=np.random.default_rng(5), noise=0.1)
        c = sensing.sample_sensing(8, 0.5, 0.5, rng=6, noise=0.1)
        np.testing.assert_array_equal(a.y, b.y)
        assert not np.allclose(a.y, c.y)

    @pytest.mark.parametrize("surrogate", [False, True])
    def test_label_noise_variance(self, surrogate: bool) -> None:
        # y − Tr[G A*] = √Δ ξ: the residual variance is Δ (4000 samples: 2.2% standard error).
        data = sensing.sample_sensing(10, 0.5, 40.0, rng=1, noise=0.25, surrogate=surrogate)
        resid = data.y - sensing.sensing_forward(data, data.A)
        assert np.var(resid) == pytest.approx(0.25, rel=0.1)

    def test_goe_normalisation(self) -> None:
        # GOE(d): symmetric, off-diagonal variance 1/d, diagonal variance 2/d (note conventions;
        # E[G_ij G_kl] = (δ_ik δ_jl + δ_il δ_jk)/d). 2000 × 10 diagonal and 2000 × 45
        # off-diagonal entries: standard errors 1% and 0.5%.
        d = 10
        G = sensing.sample_sensing(d, 0.5, 20.0, rng=2, surrogate=True).G
        np.testing.assert_array_equal(G, G.transpose(0, 2, 1))
        iu = np.triu_indices(d, 1)
        assert np.var(G[:, iu[0], iu[1]]) * d == pytest.approx(1.0, rel=0.03)
        assert np.var(np.diagonal(G, axis1=1, axis2=2)) * d == pytest.approx(2.0, rel=0.05)

    def test_surrogate_matches_network_second_moments(self) -> None:
        # Gaussian equivalence: E[G_ij G_kl] agree; the network G has E G_ii² = 2/d too.
        d = 6
        X = sensing.sample_sensing(d, 0.5, 300.0, rng=3).X
        G = _explicit_G(X)
        assert np.mean(G[:, 0, 0] ** 2) * d == pytest.approx(2.0, rel=0.05)
        assert np.mean(G[:, 0, 1] ** 2) * d == pytest.approx(1.0, rel=0.05)
        assert abs(np.mean(G[:, 0, 0] * G[:, 1, 1])) * d < 0.05

    def test_size_cap(self) -> None:
        with pytest.raises(ValueError, match="alpha"):
            sensing.sample_sensing(200, 0.5, 1e4, rng=0, surrogate=True)


class TestOperators:
    @pytest.mark.parametrize("surrogate", [False, True])
    def test_second_moment_of_the_trace(self, surrogate: bool) -> None:
        # E Tr[G B]² = 2‖B‖²_F/d for symmetric B (note conventions). 20000 samples: the
        # relative standard error of the mean square is about 1.5%; tolerance 6%.
        d = 10
        data = sensing.sample_sensing(d, 0.5, 200.0, rng=7, surrogate=surrogate)
        B = _sym(np.random.default_rng(1), d)
        got = np.mean(sensing.sensing_forward(data, B) ** 2)
        assert got == pytest.approx(2 * np.sum(B * B) / d, rel=0.06)

    @pytest.mark.parametrize("surrogate", [False, True])
    def test_forward_and_adjoint_match_explicit_G(self, surrogate: bool) -> None:
        data = sensing.sample_sensing(7, 0.5, 1.0, rng=8, surrogate=surrogate)
        G = data.G if surrogate else _explicit_G(data.X)
        rng = np.random.default_rng(2)
        B, g = rng.standard_normal((7, 7)), rng.standard_normal(data.n)
        fwd = np.einsum("nij,ji->n", G, B)
        np.testing.assert_allclose(sensing.sensing_forward(data, B), fwd, atol=1e-12)
        np.testing.assert_allclose(
            sensing.sensing_adjoint(data, g), np.tensordot(g, G, 1), atol=1e-12
        )

    @settings(max_examples=25, deadline=None)
    @given(
        d=st.integers(1, 12),
        alpha=st.floats(0.05, 3.0),
        surrogate=st.booleans(),
        seed=st.integers(0, 2**16),
    )
    def test_adjoint_identity(self, d: int, alpha: float, surrogate: bool, seed: int) -> None:
        # ⟨forward(B), g⟩ = Tr[B adjoint(g)] for any B (not only symmetric) and g.
        data = sensing.sample_sensing(d, 0.5, alpha, rng=seed, surrogate=surrogate)
        rng = np.random.default_rng(seed + 1)
        B, g = rng.standard_normal((d, d)), rng.standard_normal(data.n)
        lhs = sensing.sensing_forward(data, B) @ g
        rhs = np.trace(B @ sensing.sensing_adjoint(data, g))
        scale = np.linalg.norm(B) * np.linalg.norm(g) * max(d, 1)
        assert abs(lhs - rhs) <= 1e-12 * scale

    def test_adjoint_is_symmetric(self) -> None:
        data = sensing.sample_sensing(9, 0.5, 0.5, rng=1)
        M = sensing.sensing_adjoint(data, np.random.default_rng(0).standard_normal(data.n))
        np.testing.assert_allclose(M, M.T, atol=1e-13)


@pytest.mark.gpu
@pytest.mark.skipif(not has_gpu(), reason="needs CuPy and a GPU")
def test_cupy_matches_numpy() -> None:
    import cupy

    for surrogate in (False, True):
        a = sensing.sample_sensing(12, 0.5, 0.4, rng=3, surrogate=surrogate)
        b = sensing.sample_sensing(12, 0.5, 0.4, rng=3, surrogate=surrogate, xp=cupy)
        np.testing.assert_allclose(cupy.asnumpy(b.y), a.y, atol=1e-12)
        g = np.linspace(-1, 1, a.n)
        np.testing.assert_allclose(
            cupy.asnumpy(sensing.sensing_adjoint(b, cupy.asarray(g))),
            sensing.sensing_adjoint(a, g),
            atol=1e-12,
        )
