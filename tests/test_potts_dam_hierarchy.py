"""Tests of ``assocmem.potts_dam.hierarchy``: duplication, splitting matrices, splitting descent.

"note" below is ``shared/notes/04-dam-saddle-hierarchy.md`` (checks D5, D7, D11 of its §3.2 and
the P9 analogue of §3.1); the paper is Thériault & Tantari (2025).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_potts_dam_model import _digits, _sphere

from assocmem.potts_dam import hierarchy, model
from assocmem.potts_dam.model import DamState


def _instance(seed: int, B: int = 40, N: int = 8, P: int = 5, C: int = 3):
    rng = np.random.default_rng(seed)
    X, w = _sphere(rng, B, N), _sphere(rng, P, N)
    p = rng.random((C + 1, P + 1)) + 0.02
    p /= p.sum()
    Q = rng.dirichlet(np.ones(C + 1), size=B)
    return X, Q, DamState(w=w, p=p, beta=float(rng.uniform(0.5, 20.0)))


def _two_groups(seed: int = 0, N: int = 60, n: int = 12):
    """Note D4/D11 toy: 12 patterns in two noisy groups; one unit at their normalised mean."""
    rng = np.random.default_rng(seed)
    centres = _sphere(rng, 2, N)
    X = np.repeat(centres, n // 2, axis=0) + 0.6 * rng.standard_normal((n, N)) / np.sqrt(N)
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    mean = X.mean(axis=0)
    R_bar = np.linalg.norm(mean)
    w = (mean / R_bar)[None, :]
    perp = np.eye(N) - w.T @ w
    lam_max = np.linalg.eigvalsh(perp @ (X.T @ X / n) @ perp)[-1]
    p = np.array([[0.0, 0.0], [0.0, 1.0]])  # one class, no outside weight: responsibility 1
    return X, model.soft_labels(np.zeros(n, dtype=int), 1), w, p, R_bar / lam_max, R_bar, lam_max


class TestDuplicateUnits:
    """Note D7 (P10): Eq. 13 leaves the loss unchanged and embeds stationary points; 1e-10."""

    @settings(max_examples=40, deadline=None)
    @given(seed=st.integers(0, 2**31 - 1), data=st.data())
    def test_duplication_identity(self, seed: int, data: st.DataObject) -> None:
        X, Q, s = _instance(seed)
        units = data.draw(st.lists(st.integers(0, 4), min_size=1, max_size=5, unique=True))
        vs = data.draw(st.floats(0.1, 1.0))
        d = hierarchy.duplicate_units(s, units)
        a = model.loss_gradients(X, Q, s.w, s.p, s.beta, vs)
        b = model.loss_gradients(X, Q, d.w, d.p, d.beta, vs)
        np.testing.assert_allclose(
            model.log_density(X, d.w, d.p, d.beta, vs),
            model.log_density(X, s.w, s.p, s.beta, vs),
            rtol=0,
            atol=1e-10,
        )
        assert b.loss == pytest.approx(a.loss, abs=1e-10)
        order = sorted(units)
        half = np.ones(5)
        half[order] = 0.5
        # untouched units keep their w-gradient; each copy carries half of the original's
        np.testing.assert_allclose(b.w[:5], a.w * half[:, None], atol=1e-10)
        np.testing.assert_allclose(b.w[5:], 0.5 * a.w[order], atol=1e-10)
        # the p-gradient of both copies equals the original's, γ = 0 included
        np.testing.assert_allclose(b.p[:, :6], a.p, atol=1e-10)
        np.testing.assert_allclose(b.p[:, 6:], a.p[:, np.array(order) + 1], atol=1e-10)
        np.testing.assert_allclose(d.p.sum(axis=1), s.p.sum(axis=1), atol=1e-15)
        assert b.beta == pytest.approx(a.beta, abs=1e-10)

    def test_copies_follow_the_original(self) -> None:
        s = DamState(w=np.eye(3)[:2], p=np.array([[0, 0, 0], [0.1, 0.3, 0.6]]), beta=1.0)
        d = hierarchy.duplicate_units(s, [1])
        np.testing.assert_array_equal(d.w, np.eye(3)[[0, 1, 1]])
        np.testing.assert_allclose(d.p, [[0, 0, 0, 0], [0.1, 0.3, 0.3, 0.3]])


class TestSplittingMatrices:
    def test_d5_single_cluster_closed_form(self) -> None:
        # With responsibility 1, λ_min(𝒮) = β(R̄ − β λ_max(P⊥M₂P⊥)) exactly (note §2.6-2.7):
        # the sign flips at β_c = R̄/λ_max (D5: ≥ 0 at 0.9β_c, < 0 at 1.1β_c).
        X, Q, w, p, beta_c, R_bar, lam_max = _two_groups()
        for f in (0.9, 1.1):
            beta = f * beta_c
            spec = hierarchy.splitting_spectrum(X, Q, DamState(w=w, p=p, beta=beta))
            expected = beta * (R_bar - beta * lam_max)
            assert spec.eigenvalues[0] == pytest.approx(expected, rel=1e-10)
            assert (spec.eigenvalues[0] < 0) == (f > 1)
            assert abs(spec.vectors[0] @ w[0]) < 1e-12

    def test_d11_curvature_matches_the_loss_change(self) -> None:
        # Note D11: replacing the unit by copies w ± δu with p/2 each changes the loss by
        # (δ²/2) uᵀ𝒮u + O(δ⁴); relative agreement 1e-3 at δ <= 3e-3 (note: −0.09036,
        # −0.09040, −0.09040 vs −0.09041 at δ = 1e-2, 3e-3, 1e-3 for its seed).
        X, Q, w, p, beta_c, _, _ = _two_groups()
        s = DamState(w=w, p=p, beta=1.1 * beta_c)
        spec = hierarchy.splitting_spectrum(X, Q, s)
        base = model.loss(X, Q, w, p, s.beta)
        for delta in (3e-3, 1e-3):
            d = hierarchy.split_units(s, [0], spec.vectors, delta)
            ratio = (model.loss(X, Q, d.w, d.p, d.beta) - base) / (delta**2 / 2)
            assert ratio == pytest.approx(spec.eigenvalues[0], rel=1e-3)

    @pytest.mark.parametrize("varsigma", [1.0, 0.5])
    def test_curvature_at_a_generic_state(self, varsigma: float) -> None:
        # The same second-order identity for any unit and tangent u of a random multi-unit,
        # multi-class state with an outside unit (the compact form of 𝒮_μ, note §2.7).
        X, Q, s = _instance(3)
        S = hierarchy.splitting_matrices(X, Q, s, varsigma)
        np.testing.assert_allclose(S, np.transpose(S, (0, 2, 1)), atol=1e-12)
        rng = np.random.default_rng(4)
        base = model.effective_loss(X, Q, s.w, s.p, s.beta, varsigma)
        for mu in (0, 3):
            u = rng.standard_normal(s.w.shape[1])
            u -= (u @ s.w[mu]) * s.w[mu]
            u /= np.linalg.norm(u)
            delta = 1e-3
            d = hierarchy.split_units(s, [mu], u[None, :], delta)
            change = model.effective_loss(X, Q, d.w, d.p, d.beta, varsigma) - base
            assert change / (delta**2 / 2) == pytest.approx(u @ S[mu] @ u, rel=1e-3, abs=1e-8)

    def test_memory_is_in_the_kernel(self) -> None:
        X, Q, s = _instance(5)
        S = hierarchy.splitting_matrices(X, Q, s, 0.7)
        np.testing.assert_allclose(np.einsum("mij,mj->mi", S, s.w), 0.0, atol=1e-12)


class TestSplittingDescent:
    def test_grows_to_p_max_with_counted_work(self) -> None:
        Xtr, _, ytr, _ = _digits()
        X, y = Xtr[:400], ytr[:400]
        res = hierarchy.splitting_descent(
            X, y, P_init=4, P_max=16, beta=16.0, epochs_first=4, epochs_after=2, rng=0
        )
        assert res.P[0] == 4 and res.P[-1] == res.state.w.shape[0] == 16
        assert np.all(np.diff(res.P) >= 0) and np.all(np.diff(res.work) > 0)
        # work = Σ P_cur per epoch + P_cur per split round (note §4.6 work units)
        assert res.work[-1] == pytest.approx(np.sum(res.P[1:]) + res.split_work)
        assert res.split_work == sum(int(res.P[e]) for e in res.split_epochs)
        for e, R in zip(res.split_epochs, res.split_sizes, strict=True):
            if e + 1 < res.P.size:
                assert res.P[e + 1] == res.P[e] + R
        assert len(res.lambda_min) == len(res.split_sizes)

    def test_stops_when_no_unit_is_a_saddle(self) -> None:
        # At small β every λ_min > 0 (β_eff below each cluster's β_split, App. G): Alg. 1
        # returns after one round of splitting matrices without splitting.
        Xtr, _, ytr, _ = _digits()
        res = hierarchy.splitting_descent(
            Xtr[:400], ytr[:400], P_init=4, P_max=16, epochs_first=4, epochs_after=2, rng=0
        )
        assert res.split_sizes == (0,) and res.state.w.shape[0] == 4
        assert np.all(res.lambda_min[0] > 0)

    @pytest.mark.slow
    def test_p9_less_work_for_the_same_accuracy(self) -> None:
        # Note P9 analogue (digits, ς = 0.5, β trained, P_init = 10, 20 + 8 epochs per split vs
        # 40 epochs from scratch): accuracy parity ±1.5 %; work 1858 vs 3200 at P_max = 80 in
        # the note (58 %). The target is <= 60 %; we allow 65 % for BLAS-order noise
        # in the λ_min <= 0 decisions (note pitfall 24).
        Xtr, Xte, ytr, yte = _digits()
        split = hierarchy.splitting_descent(
            Xtr, ytr, P_init=10, P_max=80, X_test=Xte, labels_test=yte, rng=0
        )
        state = model.init_state(Xtr, ytr, 80, beta=4.0, rng=0)
        scratch = model.train(
            Xtr, ytr, state, varsigma=0.5, train_beta=True, X_test=Xte, labels_test=yte, rng=0
        )
        assert split.P[-1] == 80
        assert split.test_accuracy[-1] == pytest.approx(scratch.test_accuracy[-1], abs=0.015)
        assert split.work[-1] <= 0.65 * scratch.work[-1]
