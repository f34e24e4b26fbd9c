import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class BayesLinear(nn.Module):
    def __init__(self, fan_in, fan_out, prior_std=1.0):
        super().__init__()
        self.w_mu = nn.Parameter(torch.randn(fan_out, fan_in) * 0.1)
        self.w_rho = nn.Parameter(torch.full((fan_out, fan_in), -4.0))
        self.b_mu = nn.Parameter(torch.zeros(fan_out))
        self.b_rho = nn.Parameter(torch.full((fan_out,), -4.0))
        self.prior = torch.distributions.Normal(0.0, prior_std)

    def forward(self, x):
        if self.training:
            w_post = torch.distributions.Normal(self.w_mu, F.softplus(self.w_rho))
            b_post = torch.distributions.Normal(self.b_mu, F.softplus(self.b_rho))
            w = w_post.rsample()
            b = b_post.rsample()
            self.kl = (w_post.log_prob(w).sum() + b_post.log_prob(b).sum()
                       - self.prior.log_prob(w).sum() - self.prior.log_prob(b).sum())
        else:
            w, b = self.w_mu, self.b_mu
        return F.linear(x, w, b)


class BayesMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = BayesLinear(10, 32)
        self.l2 = BayesLinear(32, 3)

    def forward(self, x):
        out = self.l2(torch.relu(self.l1(x)))
        if self.training:
            return out, self.l1.kl + self.l2.kl
        return out


def main():
    x = torch.randn(600, 10)
    y = (x[:, 0] > 0).long() + (x[:, 1] > 0.5).long()
    xtr, ytr, xva, yva = x[:480], y[:480], x[480:], y[480:]
    model = BayesMLP()
    cmodel = torch.compile(model, backend="aot_eager")
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(4):
        model.train()
        for i in range(0, 480, 60):
            logits, kl = cmodel(xtr[i:i + 60])
            loss = F.cross_entropy(logits, ytr[i:i + 60]) + kl / 480.0
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            acc = (cmodel(xva).argmax(1) == yva).float().mean().item()
        print(f"epoch {epoch} loss={loss.item():.3f} val_acc={acc:.3f}")


if __name__ == "__main__":
    main()
