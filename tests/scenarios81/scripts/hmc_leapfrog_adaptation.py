import torch

torch.manual_seed(0)

# banana-shaped posterior
def log_density(q):
    x, y = q[..., 0], q[..., 1]
    return -0.5 * (x * x / 4.0 + (y - 0.5 * x * x + 1.0) ** 2)


def grad_log_density(q):
    x, y = q[..., 0], q[..., 1]
    r = y - 0.5 * x * x + 1.0
    return torch.stack([-x / 4.0 + r * x, -r], dim=-1)


@torch.compile(backend="aot_eager")
def hmc_transition(q, step_size, n_leapfrog):
    p = torch.randn_like(q)
    h0 = -log_density(q) + 0.5 * (p * p).sum(-1)
    q_new = q.clone()
    p_new = p + 0.5 * step_size * grad_log_density(q_new)
    for i in range(n_leapfrog):
        q_new = q_new + step_size * p_new
        if i < n_leapfrog - 1:
            p_new = p_new + step_size * grad_log_density(q_new)
    p_new = p_new + 0.5 * step_size * grad_log_density(q_new)
    h1 = -log_density(q_new) + 0.5 * (p_new * p_new).sum(-1)
    accept_prob = torch.exp(torch.clamp(h0 - h1, max=0.0))
    accept = torch.rand_like(accept_prob) < accept_prob
    q = torch.where(accept.unsqueeze(-1), q_new, q)
    return q, accept_prob.mean()


def main():
    chains = torch.zeros(16, 2)
    step_size = torch.tensor(0.2)
    n_leapfrog = 4
    trajectory = 1.0
    samples = []
    for it in range(60):
        chains, acc = hmc_transition(chains, step_size, n_leapfrog)
        if it < 30:
            # warm-up: adapt step size, keep trajectory length fixed
            step_size = step_size * torch.exp(0.5 * (acc - 0.8))
            n_leapfrog = max(1, min(20, int(round(trajectory / step_size.item()))))
        else:
            samples.append(chains)
        if it % 10 == 0:
            print(f"iter {it} acc={acc.item():.2f} eps={step_size.item():.3f} L={n_leapfrog}")
    s = torch.cat(samples)
    print("posterior mean", s.mean(0).tolist())


if __name__ == "__main__":
    main()
