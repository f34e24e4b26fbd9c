import math

import torch

torch.manual_seed(0)


def rbf_kernel(a, b, ls):
    r2 = ((a.unsqueeze(1) - b.unsqueeze(0)) / ls).pow(2).sum(-1)
    return torch.exp(-0.5 * r2)


def matern52_kernel(a, b, ls):
    r = ((a.unsqueeze(1) - b.unsqueeze(0)) / ls).pow(2).sum(-1).clamp_min(1e-12).sqrt()
    s = math.sqrt(5.0) * r
    return (1.0 + s + s * s / 3.0) * torch.exp(-s)


def rational_quadratic_kernel(a, b, ls, alpha=2.0):
    r2 = ((a.unsqueeze(1) - b.unsqueeze(0)) / ls).pow(2).sum(-1)
    return (1.0 + r2 / (2.0 * alpha)).pow(-alpha)


@torch.compile(backend="aot_eager")
def predictive(kernel, x, z, log_ls, log_noise):
    ls = log_ls.exp()
    kzz = kernel(z, z, ls) + 1e-3 * torch.eye(z.shape[0])
    kxz = kernel(x, z, ls)
    L = torch.linalg.cholesky(kzz)
    w = torch.linalg.solve_triangular(L, kxz.T, upper=False).T
    noise = log_noise.exp().expand(x.shape[0])
    return torch.distributions.LowRankMultivariateNormal(
        torch.zeros(x.shape[0]), w, noise, validate_args=False)


def train(kernel, x, y, z, steps=15):
    log_ls = torch.zeros(x.shape[1], requires_grad=True)
    log_noise = torch.tensor(-2.0, requires_grad=True)
    opt = torch.optim.Adam([log_ls, log_noise], lr=0.05)
    for _ in range(steps):
        opt.zero_grad()
        loss = -predictive(kernel, x, z, log_ls, log_noise).log_prob(y) / x.shape[0]
        loss.backward()
        opt.step()
    return loss.item()


def main():
    x = torch.rand(96, 2) * 4.0
    y = torch.sin(x[:, 0]) * torch.cos(x[:, 1]) + 0.1 * torch.randn(96)
    z = x[torch.randperm(96)[:16]].clone()
    results = {}
    for name, kernel in [("rbf", rbf_kernel), ("matern52", matern52_kernel), ("ratquad", rational_quadratic_kernel)]:
        results[name] = train(kernel, x, y, z)
        print(f"{name:9s} nll/point={results[name]:.4f}")
    print("best kernel:", min(results, key=results.get))


if __name__ == "__main__":
    main()
