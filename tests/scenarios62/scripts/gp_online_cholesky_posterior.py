import math

import torch

torch.manual_seed(0)


def rbf(a, b, lengthscale, variance):
    d2 = torch.cdist(a, b).pow(2)
    return variance * torch.exp(-0.5 * d2 / lengthscale**2)


class GaussianProcess:
    def __init__(self, lengthscale=0.6, variance=1.0, noise=1e-2):
        self.lengthscale = lengthscale
        self.variance = variance
        self.noise = noise

    def posterior(self, x_train, y_train, x_test):
        k = rbf(x_train, x_train, self.lengthscale, self.variance)
        k = k + self.noise * torch.eye(x_train.shape[0])
        chol = torch.linalg.cholesky(k)
        alpha = torch.cholesky_solve(y_train.unsqueeze(-1), chol)
        k_s = rbf(x_train, x_test, self.lengthscale, self.variance)
        mean = (k_s.transpose(0, 1) @ alpha).squeeze(-1)
        v = torch.linalg.solve_triangular(chol, k_s, upper=False)
        var = self.variance - (v * v).sum(0)
        return mean, var.clamp_min(1e-9)


gp = GaussianProcess()
posterior = torch.compile(gp.posterior, backend="aot_eager")


def objective(x):
    return torch.sin(3.0 * x[:, 0]) + 0.5 * torch.cos(5.0 * x[:, 1])


# Bayesian optimisation loop: evaluate the objective at the best-UCB
# candidate and add it to the observed set.
x_obs = torch.rand(4, 2)
y_obs = objective(x_obs)
candidates = torch.rand(64, 2)
for it in range(6):
    mean, var = posterior(x_obs, y_obs, candidates)
    ucb = mean + 2.0 * var.sqrt()
    best = int(ucb.argmax())
    x_new = candidates[best : best + 1]
    x_obs = torch.cat([x_obs, x_new])
    y_obs = torch.cat([y_obs, objective(x_new)])
    print(f"iter {it}: n_obs={x_obs.shape[0]} best_y={y_obs.max():.3f} ucb={ucb[best]:.3f}")
print("done", math.isfinite(float(y_obs.sum())))
