"""Tests for ``assocmem.quadratic._optim`` (Adam on batched array tensors)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from assocmem.quadratic._optim import adam_init, adam_step


def _reference_adam(theta, grads, lr, beta1=0.9, beta2=0.999, eps=1e-8):
    """Kingma and Ba, Algorithm 1, written scalar by scalar as an independent oracle."""
    theta = [float(x) for x in theta]
    m = [0.0] * len(theta)
    v = [0.0] * len(theta)
    for t, g in enumerate(grads, start=1):
        for i, gi in enumerate(g):
            m[i] = beta1 * m[i] + (1 - beta1) * gi
            v[i] = beta2 * v[i] + (1 - beta2) * gi * gi
            mh = m[i] / (1 - beta1**t)
            vh = v[i] / (1 - beta2**t)
            theta[i] -= lr * mh / (vh**0.5 + eps)
    return np.array(theta)


class TestAdamStep:
    def test_matches_scalar_reference_over_several_steps(self) -> None:
        rng = np.random.default_rng(0)
        grads = rng.normal(size=(5, 4))
        p, s = np.zeros(4), adam_init(np.zeros(4))
        for g in grads:
            p, s = adam_step(p, g, s, lr=0.03)
        assert s.t == 5
        np.testing.assert_allclose(p, _reference_adam(np.zeros(4), grads, 0.03), rtol=1e-12)

    def test_first_step_has_size_lr(self) -> None:
        # Bias correction makes the first update lr·g/(|g| + ε), i.e. lr against sign(g).
        p, _ = adam_step(np.zeros(3), np.array([2.0, -1e-3, 5.0]), adam_init(np.zeros(3)), lr=0.1)
        np.testing.assert_allclose(p, [-0.1, 0.1, -0.1], rtol=1e-4)

    def test_inputs_are_not_modified(self) -> None:
        p0 = np.ones((2, 3))
        s0 = adam_init(p0)
        adam_step(p0, np.ones((2, 3)), s0, lr=0.5)
        assert np.all(p0 == 1.0) and np.all(s0.m == 0.0) and s0.t == 0

    def test_minimises_a_quadratic(self) -> None:
        target = np.array([1.0, -2.0, 0.5])
        p, s = np.zeros(3), adam_init(np.zeros(3))
        for _ in range(2000):
            p, s = adam_step(p, 2 * (p - target), s, lr=0.01)
        np.testing.assert_allclose(p, target, atol=1e-3)

    @settings(max_examples=20, deadline=None)
    @given(seed=st.integers(0, 2**31 - 1), k=st.integers(1, 4))
    def test_batch_equals_loop_over_runs(self, seed: int, k: int) -> None:
        rng = np.random.default_rng(seed)
        p0 = rng.normal(size=(k, 3, 2))
        grads = rng.normal(size=(4, k, 3, 2))
        pb, sb = p0, adam_init(p0)
        for g in grads:
            pb, sb = adam_step(pb, g, sb, lr=0.02)
        for j in range(k):
            pj, sj = p0[j], adam_init(p0[j])
            for g in grads:
                pj, sj = adam_step(pj, g[j], sj, lr=0.02)
            np.testing.assert_array_equal(pb[j], pj)
