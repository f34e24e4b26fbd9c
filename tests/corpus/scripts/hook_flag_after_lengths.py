import torch
from torch import nn

torch._dynamo.config.automatic_dynamic_shapes = False

torch.manual_seed(0)


class Metrics:
    def __init__(self):
        self.on = False
        self.norms = []


model = nn.Sequential(nn.Embedding(64, 32), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 64))


def make_norm_hook(metrics):
    def log_activation_norm(module, inputs, output):
        if metrics.on:
            metrics.norms.append(output.detach().norm())

    return log_activation_norm


metrics = Metrics()
model[2].register_forward_hook(make_norm_hook(metrics))
compiled = torch.compile(model, backend="aot_eager")


def train_step(seq_len):
    tokens = torch.randint(0, 64, (2, seq_len))
    loss = compiled(tokens).logsumexp(-1).mean()
    loss.backward()
    return loss.item()


for seq_len in (8, 12, 16):
    print(f"train seq_len {seq_len} loss {train_step(seq_len):.4f}")

with torch.no_grad():
    val = compiled(torch.randint(0, 64, (2, 16))).logsumexp(-1).mean()
print(f"eval loss {val.item():.4f}")

metrics.on = True  # turn activation logging on, back at a length seen before
print(f"train seq_len 8 loss {train_step(8):.4f} logged {len(metrics.norms)}")
