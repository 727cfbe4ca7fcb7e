#!/usr/bin/env python3
"""Choose the sparsity by cross-validation: GraphSparseRegressionCV against LassoCV on a
regression whose coefficients form a connected blob on a grid of features.

    .venv/bin/python examples/python/cross_validation.py

The 400 features are the cells of a 20 x 20 grid (think of sensors, pixels or voxels);
the response depends on the 24 cells of one blob, with noise. GraphSparseRegressionCV
tries s along a path (each s warm-started from the previous one, 5 folds) with the head
model of the grid (at most s cells in one connected piece), picks the s of least
held-out error and refits; LassoCV picks its penalty the same way. Both are scored on
fresh data.
"""
import time

import numpy as np
from sklearn.linear_model import LassoCV

import gsfw

rng = np.random.default_rng(3)
h = w = 20
coef = np.zeros((h, w))
coef[6:10, 4:10] = rng.uniform(0.5, 1.5, size=(4, 6))   # a 4 x 6 blob: 24 cells
coef = coef.ravel()


def sample(n):
    X = rng.standard_normal((n, h * w))
    return X, X @ coef + 3.0 + 0.5 * rng.standard_normal(n)  # an offset, and noise


X, y = sample(150)
X_test, y_test = sample(1000)
grid = gsfw.Graph.grid(h, w)

start = time.perf_counter()
# 100 iterations per fit are enough to find the support; the polish refits on it
cv = gsfw.GraphSparseRegressionCV(graph=grid, s_values=[6, 12, 18, 24, 30, 40, 60],
                                  cv=5, max_iter=100).fit(X, y)
t_gsfw = time.perf_counter() - start
start = time.perf_counter()
lasso = LassoCV(cv=5, random_state=0).fit(X, y)
t_lasso = time.perf_counter() - start

print("s tried:", cv.s_values_.tolist())
print("mean held-out MSE:", np.round(cv.mse_path_.mean(axis=1), 2).tolist())
print("GraphSparseRegressionCV: s_ = %d, %d nonzeros, test R^2 = %.4f, coef error %.3f (%.1f s)"
      % (cv.s_, np.count_nonzero(cv.coef_), cv.score(X_test, y_test),
         np.linalg.norm(cv.coef_ - coef) / np.linalg.norm(coef), t_gsfw))
print("LassoCV:                 alpha = %.3g, %d nonzeros, test R^2 = %.4f, coef error %.3f "
      "(%.1f s)" % (lasso.alpha_, np.count_nonzero(lasso.coef_), lasso.score(X_test, y_test),
                    np.linalg.norm(lasso.coef_ - coef) / np.linalg.norm(coef), t_lasso))
assert cv.score(X_test, y_test) > lasso.score(X_test, y_test)
assert 18 <= cv.s_ <= 30
