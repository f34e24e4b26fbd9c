import torch
import torch.nn as nn

torch.manual_seed(0)


class CausalDenoiser(nn.Module):
    def __init__(self, channels=8, kernel=5):
        super().__init__()
        self.context = kernel - 1
        self.conv1 = nn.Conv1d(1, channels, kernel)
        self.conv2 = nn.Conv1d(channels, 1, 1)

    def forward(self, chunk, state):
        if state is None:
            state = chunk.new_zeros(chunk.shape[0], 1, self.context)
        x = torch.cat([state, chunk], dim=-1)
        new_state = x[..., -self.context:]
        y = self.conv2(torch.tanh(self.conv1(x)))
        return y, new_state


model = CausalDenoiser().eval()
step = torch.compile(model, backend="aot_eager")


def stream(signal, chunk_size=160):
    state = None
    outputs = []
    for start in range(0, signal.shape[-1], chunk_size):
        chunk = signal[..., start:start + chunk_size]
        out, state = step(chunk, state)
        outputs.append(out)
    return torch.cat(outputs, dim=-1)


with torch.no_grad():
    for utt in range(3):
        length = 800 + 50 * utt
        noisy = torch.sin(torch.linspace(0, 40, length)).view(1, 1, -1) + 0.1 * torch.randn(1, 1, length)
        clean = stream(noisy)
        print(f"utterance {utt}: {clean.shape[-1]} samples, rms {clean.pow(2).mean().sqrt():.4f}")
