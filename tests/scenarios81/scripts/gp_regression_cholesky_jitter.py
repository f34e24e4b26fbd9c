import math

import torch

torch.manual_seed(0)


def rbf(a, b, lengthscale, variance):
    d2 = torch.cdist(a / lengthscale, b / lengthscale).pow(2)
    return variance * torch.exp(-0.5 * d2)


@torch.compile(backend="aot_eager")
def neg_mll(x, y, log_ls, log_var, log_noise, jitter):
    n = x.shape[0]
    K = rbf(x, x, log_ls.exp(), log_var.exp())
    K = K + (log_noise.exp() + jitter) * torch.eye(n)
    L, info = torch.linalg.cholesky_ex(K)
    alpha = torch.cholesky_solve(y.unsqueeze(1), L)
    fit = 0.5 * (y.unsqueeze(1) * alpha).sum()
    logdet = torch.log(torch.diagonal(L)).sum()
    return fit + logdet + 0.5 * n * math.log(2 * math.pi), info


def main():
    x = torch.rand(64, 1) * 6.0
    y = torch.sin(2.0 * x[:, 0]) + 0.05 * torch.randn(64)
    # near-duplicate inputs make the kernel matrix badly conditioned
    x = torch.cat([x, x[:8] + 1e-7])
    y = torch.cat([y, y[:8]])

    log_ls = torch.tensor(0.0, requires_grad=True)
    log_var = torch.tensor(2.0, requires_grad=True)
    log_noise = torch.tensor(-20.0, requires_grad=True)
    opt = torch.optim.Adam([log_ls, log_var, log_noise], lr=0.05)

    jitter = 1e-8
    for step in range(30):
        opt.zero_grad()
        loss, info = neg_mll(x, y, log_ls, log_var, log_noise, jitter)
        if int(info) != 0 or not torch.isfinite(loss):
            jitter *= 10.0
            print(f"step {step}: cholesky failed, jitter -> {jitter:g}")
            continue
        loss.backward()
        opt.step()
        if step % 10 == 0:
            print(f"step {step} nmll={loss.item():.3f} jitter={jitter:g}")
    print("lengthscale", log_ls.exp().item(), "noise", log_noise.exp().item())


if __name__ == "__main__":
    main()
