import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

FEAT = 30
N_SPEAKERS = 8


class XVector(nn.Module):
    def __init__(self, hidden=64, emb=32):
        super().__init__()
        self.frame = nn.Sequential(
            nn.Conv1d(FEAT, hidden, 5, padding=2), nn.ReLU(), nn.BatchNorm1d(hidden),
            nn.Conv1d(hidden, hidden, 3, dilation=2, padding=2), nn.ReLU(), nn.BatchNorm1d(hidden),
        )
        self.segment = nn.Linear(2 * hidden, emb)

    def forward(self, feats):
        h = self.frame(feats.transpose(1, 2))
        std, mean = torch.std_mean(h, dim=-1)
        return self.segment(torch.cat([mean, std], dim=-1))


class Verifier:
    def __init__(self, model, threshold=0.5):
        self.model = model
        self.threshold = threshold

    def decide(self, enroll, test):
        e = F.normalize(self.model(enroll), dim=-1)
        t = F.normalize(self.model(test), dim=-1)
        scores = (e * t).sum(-1)
        return scores, scores > self.threshold


def speaker_feats(spk, n, frames=50):
    g = torch.Generator().manual_seed(1000 + spk)
    centre = torch.randn(1, 1, FEAT, generator=g)
    return centre + 0.7 * torch.randn(n, frames, FEAT)


# quick pretraining of the embedding with a softmax speaker classifier
model = XVector()
clf = nn.Linear(32, N_SPEAKERS)
opt = torch.optim.Adam(list(model.parameters()) + list(clf.parameters()), lr=3e-3)
for step in range(6):
    spk = torch.randint(0, N_SPEAKERS, (16,))
    feats = torch.cat([speaker_feats(int(s), 1) for s in spk])
    loss = F.cross_entropy(clf(model(feats)), spk)
    opt.zero_grad()
    loss.backward()
    opt.step()
model.eval()

verifier = Verifier(model)
decide = torch.compile(verifier.decide, backend="aot_eager")

with torch.no_grad():
    for block in range(4):
        impostor_scores = []
        accepted = 0
        for trial in range(3):
            a = (block * 3 + trial) % N_SPEAKERS
            b = (a + 1 + trial) % N_SPEAKERS
            enroll = speaker_feats(a, 4)
            same, _ = decide(enroll, speaker_feats(a, 4))
            diff, acc = decide(enroll, speaker_feats(b, 4))
            accepted += int(acc.sum())
            impostor_scores.append(diff)
        # recalibrate the threshold on the impostor scores seen in this block
        imp = torch.cat(impostor_scores)
        k = max(1, int(0.9 * imp.numel()))
        verifier.threshold = round(float(torch.kthvalue(imp, k).values), 3)
        print(f"block {block}: false accepts {accepted}, new threshold {verifier.threshold}")
