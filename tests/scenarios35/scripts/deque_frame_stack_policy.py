"""Run a small policy network on a toy environment; the policy sees the
last few observations, kept in a deque."""

from collections import deque

import torch
from torch import nn

OBS_DIM = 8
HISTORY = 4


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.frame = nn.Linear(OBS_DIM, 32)
        self.act = nn.Linear(32, 3)

    def forward(self, frames):
        # average the encoded frames we have so far
        enc = [torch.relu(self.frame(f)) for f in frames]
        h = torch.stack(enc, dim=0).mean(0)
        return self.act(h)


def env_step(state, action):
    drift = torch.tensor([-0.1, 0.0, 0.1])[action]
    nxt = state * 0.95 + drift + 0.01 * torch.randn_like(state)
    return nxt, -nxt.pow(2).sum().item()


def main():
    torch.manual_seed(0)
    policy = Policy().eval()
    act = torch.compile(policy, backend="aot_eager")

    for episode in range(2):
        state = torch.randn(OBS_DIM)
        frames = deque(maxlen=HISTORY)
        total = 0.0
        for t in range(8):
            frames.append(state.unsqueeze(0))
            with torch.no_grad():
                logits = act(frames)
            action = int(logits.argmax(-1))
            state, reward = env_step(state, action)
            total += reward
        print(f"episode {episode}: return {total:.2f}")


if __name__ == "__main__":
    main()
