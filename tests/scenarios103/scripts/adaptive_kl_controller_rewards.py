"""PPO-style reward shaping with an adaptive KL controller (Ziegler et al.)."""
import torch

torch.manual_seed(0)


class AdaptiveKLController:
    def __init__(self, init_kl_coef, target, horizon):
        self.value = init_kl_coef
        self.target = target
        self.horizon = horizon

    def update(self, current_kl, n_steps):
        proportional_error = max(min(current_kl / self.target - 1, 0.2), -0.2)
        self.value *= 1 + proportional_error * n_steps / self.horizon


kl_ctl = AdaptiveKLController(init_kl_coef=0.2, target=0.01, horizon=64)


@torch.compile(backend="aot_eager")
def compute_rewards(scores, logprobs, ref_logprobs, mask):
    kl = (logprobs - ref_logprobs) * mask
    non_score = -kl_ctl.value * kl
    rewards = non_score.clone()
    last = mask.sum(-1).long() - 1
    rewards[torch.arange(scores.size(0)), last] += scores
    return rewards, kl.sum(-1).mean()


policy_head = torch.nn.Linear(16, 40)
ref_head = torch.nn.Linear(16, 40)
ref_head.load_state_dict(policy_head.state_dict())
opt = torch.optim.SGD(policy_head.parameters(), lr=0.5)
for it in range(4):
    h = torch.randn(8, 12, 16)
    actions = torch.randint(0, 40, (8, 12))
    mask = torch.ones(8, 12)
    lp = torch.log_softmax(policy_head(h), -1).gather(-1, actions[..., None]).squeeze(-1)
    with torch.no_grad():
        ref_lp = torch.log_softmax(ref_head(h), -1).gather(-1, actions[..., None]).squeeze(-1)
    scores = torch.randn(8)
    rewards, mean_kl = compute_rewards(scores, lp.detach(), ref_lp, mask)
    loss = -(lp * rewards).sum(-1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    kl_ctl.update(mean_kl.item(), n_steps=8)
    print(f"iter {it} kl {mean_kl.item():.4f} kl_coef {kl_ctl.value:.4f}")
