"""Speech-command keyword spotter: the server does a warm-up pass at start-up
with a single dummy clip, then serves real traffic batched to 8 clips; later
the feature front-end is reconfigured to 64 mel bins after a model reload."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class KWS(nn.Module):
    def __init__(self, n_mels=40, n_words=10):
        super().__init__()
        self.n_mels = n_mels
        self.conv = nn.Conv1d(n_mels, 32, kernel_size=3, padding=1)
        self.gru_in = nn.Linear(32, 32)
        self.head = nn.Linear(32, n_words)

    def forward(self, feats):
        h = torch.relu(self.conv(feats))          # (B, 32, T)
        h = torch.tanh(self.gru_in(h.transpose(1, 2))).mean(1)
        return self.head(h)


def log_mel(wave, n_mels):
    frames = wave.unfold(-1, 160, 80)              # (B, T, 160)
    spec = torch.fft.rfft(frames, dim=-1).abs()[..., :n_mels]
    return torch.log1p(spec).transpose(1, 2)       # (B, n_mels, T)


model = KWS().eval()


@torch.compile(backend="aot_eager")
def infer(wave, n_mels):
    return model(log_mel(wave, n_mels)).argmax(-1)


with torch.no_grad():
    print("warm-up:", infer(torch.zeros(1, 8000), model.n_mels).tolist())
    for i in range(3):
        print("batch", i, infer(torch.randn(8, 8000), model.n_mels).tolist())
    # model reload: new checkpoint trained on 64 mel bins
    state = {k: v for k, v in KWS(n_mels=64).state_dict().items()}
    model = KWS(n_mels=64).eval()
    model.load_state_dict(state)
    for i in range(2):
        print("batch v2", i, infer(torch.randn(8, 8000), model.n_mels).tolist())
