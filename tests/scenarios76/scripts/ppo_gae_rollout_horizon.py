import torch
import torch.nn as nn

torch.manual_seed(0)

NUM_ENVS, OBS_DIM, N_ACTIONS = 8, 4, 3
GAMMA, LAM = 0.99, 0.95


class ToyEnv:
    """A batch of point masses that get reward for staying near the origin."""

    def __init__(self, num_envs):
        self.num_envs = num_envs
        self.state = torch.randn(num_envs, OBS_DIM)

    def step(self, action):
        push = (action.float() - 1.0).unsqueeze(1) * 0.1
        self.state = self.state * 0.95 + push + 0.05 * torch.randn_like(self.state)
        reward = -self.state.pow(2).sum(dim=1)
        done = reward < -12.0
        self.state[done] = torch.randn(int(done.sum()), OBS_DIM)
        return self.state.clone(), reward, done.float()


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(OBS_DIM, 32), nn.Tanh())
        self.pi = nn.Linear(32, N_ACTIONS)
        self.v = nn.Linear(32, 1)

    def forward(self, obs):
        h = self.body(obs)
        return self.pi(h), self.v(h).squeeze(-1)


@torch.compile(backend="aot_eager")
def compute_gae(rewards, values, dones, last_value):
    advantages = torch.zeros_like(rewards)
    last_adv = torch.zeros_like(last_value)
    next_value = last_value
    for t in reversed(range(rewards.shape[0])):
        not_done = 1.0 - dones[t]
        delta = rewards[t] + GAMMA * next_value * not_done - values[t]
        last_adv = delta + GAMMA * LAM * not_done * last_adv
        advantages[t] = last_adv
        next_value = values[t]
    returns = advantages + values
    return advantages, returns


def collect(env, model, horizon):
    obs_buf, act_buf, rew_buf, done_buf, val_buf = [], [], [], [], []
    obs = env.state.clone()
    with torch.no_grad():
        for _ in range(horizon):
            logits, value = model(obs)
            action = torch.distributions.Categorical(logits=logits).sample()
            next_obs, reward, done = env.step(action)
            obs_buf.append(obs); act_buf.append(action); rew_buf.append(reward)
            done_buf.append(done); val_buf.append(value)
            obs = next_obs
        _, last_value = model(obs)
    return (torch.stack(obs_buf), torch.stack(act_buf), torch.stack(rew_buf),
            torch.stack(done_buf), torch.stack(val_buf), last_value)


env = ToyEnv(NUM_ENVS)
model = ActorCritic()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

# horizon grows as the agent gets better; the final rollout is cut short by the time budget
schedule = [16, 16, 32, 32, 64, 64, 20]
for it, horizon in enumerate(schedule):
    obs, acts, rews, dones, vals, last_v = collect(env, model, horizon)
    adv, ret = compute_gae(rews, vals, dones, last_v)
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    logits, values = model(obs.flatten(0, 1))
    dist = torch.distributions.Categorical(logits=logits)
    loss = -(dist.log_prob(acts.flatten()) * adv.flatten()).mean() + 0.5 * (values - ret.flatten()).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"iter {it} horizon={horizon} return={rews.sum(0).mean().item():.2f}")
