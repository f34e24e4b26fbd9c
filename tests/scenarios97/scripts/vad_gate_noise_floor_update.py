"""Energy-based voice activity gate in front of a small frame classifier.
The gate's noise floor (in dB) is re-estimated from the quietest frames after
every block of chunks, as adaptive VADs do on a live stream."""
import torch
import torch.nn as nn

torch.manual_seed(0)
FRAME = 160


class EnergyVADGate(nn.Module):
    def __init__(self, noise_floor_db=-50.0, margin_db=6.0):
        super().__init__()
        self.noise_floor_db = noise_floor_db
        self.margin_db = margin_db

    def frame_db(self, wave):
        frames = wave.unfold(-1, FRAME, FRAME)
        return 10.0 * torch.log10(frames.pow(2).mean(-1) + 1e-10), frames

    def forward(self, wave):
        db, frames = self.frame_db(wave)
        speech = db > (self.noise_floor_db + self.margin_db)
        return frames * speech.unsqueeze(-1), speech


class FrameTagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.gate = EnergyVADGate()
        self.mlp = nn.Sequential(nn.Linear(FRAME, 64), nn.Tanh(), nn.Linear(64, 3))

    def forward(self, wave):
        frames, speech = self.gate(wave)
        return self.mlp(frames), speech


tagger = FrameTagger().eval()
run = torch.compile(tagger, backend="aot_eager")

# a live stream whose background noise level drifts upward
with torch.no_grad():
    for block in range(3):
        noise = 0.003 * (3 ** block)
        quiet = []
        for i in range(4):
            chunk = noise * torch.randn(1, FRAME * 50)
            chunk[:, 2000:5000] += 0.3 * torch.randn(1, 3000)
            tags, speech = run(chunk)
            db, _ = tagger.gate.frame_db(chunk)
            quiet.append(db.quantile(0.1).item())
        floor = round(sum(quiet) / len(quiet), 1)
        tagger.gate.noise_floor_db = floor
        print(f"block {block}: speech frames {int(speech.sum())}, new floor {floor} dB")
