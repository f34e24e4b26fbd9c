import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

# Configs as they come in the checkpoints' config.json files.
CONFIGS = {
    "bert-mini-ft": {"hidden": 32, "ffn": 64, "hidden_act": "gelu"},
    "gpt-mini-ft": {"hidden": 32, "ffn": 64, "hidden_act": "gelu_new"},
}

ACT_TO_APPROX = {"gelu": "none", "gelu_new": "tanh", "gelu_pytorch_tanh": "tanh"}


class MLPBlock(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.norm = nn.LayerNorm(cfg["hidden"])
        self.fc1 = nn.Linear(cfg["hidden"], cfg["ffn"])
        self.fc2 = nn.Linear(cfg["ffn"], cfg["hidden"])
        self.approximate = ACT_TO_APPROX[cfg["hidden_act"]]

    def forward(self, x):
        h = F.gelu(self.fc1(self.norm(x)), approximate=self.approximate)
        return x + self.fc2(h)


def mlp_step(block, x):
    return block(x)


compiled_mlp = torch.compile(mlp_step, backend="aot_eager")

blocks = {name: MLPBlock(cfg) for name, cfg in CONFIGS.items()}
opts = {name: torch.optim.Adam(b.parameters(), lr=1e-3) for name, b in blocks.items()}

# alternate between the two fine-tuning jobs sharing one worker
for epoch in range(3):
    for name, block in blocks.items():
        x = torch.randn(8, 16, 32)
        target = torch.randn(8, 16, 32)
        out = compiled_mlp(block, x)
        loss = F.mse_loss(out, target)
        opts[name].zero_grad()
        loss.backward()
        opts[name].step()
        print(f"epoch {epoch} {name}: loss {loss.item():.4f}")
