import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class DeeplySupervisedNet(nn.Module):
    def __init__(self, d_in=20, width=48, n_classes=5, depth=3):
        super().__init__()
        self.stem = nn.Linear(d_in, width)
        self.blocks = nn.ModuleList(
            nn.Sequential(nn.LayerNorm(width), nn.Linear(width, width), nn.SiLU()) for _ in range(depth)
        )
        self.heads = nn.ModuleList(nn.Linear(width, n_classes) for _ in range(depth))

    def forward(self, x):
        h = self.stem(x)
        outs = []
        for block, head in zip(self.blocks, self.heads):
            h = h + block(h)
            outs.append(head(h))
        return outs


model = DeeplySupervisedNet()


def supervised_loss(x, y, head_weights):
    outs = model(x)
    total = 0.0
    for w, logits in zip(head_weights, outs):
        total = total + w * F.cross_entropy(logits, y)
    return total, outs[-1]


step_fn = torch.compile(supervised_loss, backend="aot_eager")


def main():
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    proj = torch.randn(20, 5)
    aux_scale = 1.0
    for epoch in range(4):
        # auxiliary heads fade out, final head keeps weight 1
        head_weights = [0.3 * aux_scale, 0.6 * aux_scale, 1.0]
        correct = 0
        for _ in range(5):
            x = torch.randn(32, 20)
            y = (x @ proj).argmax(-1)
            opt.zero_grad()
            loss, logits = step_fn(x, y, head_weights)
            loss.backward()
            opt.step()
            correct += (logits.argmax(-1) == y).sum().item()
        print(f"epoch {epoch} weights {[round(w, 3) for w in head_weights]} loss {loss.item():.4f} acc {correct / 160:.3f}")
        aux_scale *= 0.5


if __name__ == "__main__":
    main()
