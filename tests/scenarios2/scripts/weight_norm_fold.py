import torch
from torch import nn
from torch.nn.utils import parametrize
from torch.nn.utils.parametrizations import weight_norm

torch.manual_seed(0)


class TinyVocoder(nn.Module):
    """Weight-normalised 1-D conv stack, as in WaveNet/HiFi-GAN style vocoders."""

    def __init__(self, ch=16):
        super().__init__()
        self.pre = weight_norm(nn.Conv1d(8, ch, 5, padding=2))
        self.mid = weight_norm(nn.Conv1d(ch, ch, 3, padding=1))
        self.post = nn.Conv1d(ch, 1, 3, padding=1)

    def forward(self, mel):
        h = nn.functional.leaky_relu(self.pre(mel), 0.1)
        h = nn.functional.leaky_relu(self.mid(h), 0.1)
        return torch.tanh(self.post(h))


model = TinyVocoder()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for step in range(3):
    mel = torch.randn(4, 8, 40)
    loss = compiled(mel).abs().mean()
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(f"step {step} loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    print("val loss", compiled(torch.randn(4, 8, 40)).abs().mean().item())

# export for inference: fold the weight norm into plain weights
for conv in (model.pre, model.mid):
    parametrize.remove_parametrizations(conv, "weight")
with torch.no_grad():
    audio = compiled(torch.randn(4, 8, 40))
print("inference output", tuple(audio.shape))
