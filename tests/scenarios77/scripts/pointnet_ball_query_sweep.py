"""PointNet++-style set abstraction classifier, then a test-time sweep of the ball-query settings."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_POINTS, N_CENTERS, N_SAMPLE, N_CLASSES = 96, 16, 8, 3


def make_cloud(label, gen):
    pts = torch.randn(N_POINTS, 3, generator=gen)
    if label == 0:
        pts = pts / pts.norm(dim=-1, keepdim=True)
    elif label == 1:
        pts = pts * torch.tensor([1.5, 0.3, 0.3])
    else:
        pts[:, 2] = 0.05 * pts[:, 2]
    return pts


def ball_query(xyz, centers, radius, nsample):
    # xyz: (B, N, 3), centers: (B, M, 3) -> (B, M, nsample) indices
    B, N, _ = xyz.shape
    d2 = (centers.unsqueeze(2) - xyz.unsqueeze(1)).square().sum(-1)
    idx = torch.arange(N).expand_as(d2).clone()
    idx = idx.masked_fill(d2 > radius * radius, N)
    idx = idx.sort(dim=-1).values[..., :nsample]
    first = idx[..., :1].expand_as(idx)
    empty = idx == N
    return idx * ~empty + first * empty


class SetAbstraction(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(c_in + 3, c_out), nn.ReLU(), nn.Linear(c_out, c_out))

    def forward(self, xyz, feats, centers, radius, nsample):
        idx = ball_query(xyz, centers, radius, nsample)
        B, M, S = idx.shape
        flat = idx.reshape(B, M * S, 1)
        g_xyz = torch.gather(xyz, 1, flat.expand(-1, -1, 3)).view(B, M, S, 3) - centers.unsqueeze(2)
        g_xyz = g_xyz / radius
        if feats is not None:
            g_f = torch.gather(feats, 1, flat.expand(-1, -1, feats.shape[-1])).view(B, M, S, -1)
            g_xyz = torch.cat([g_xyz, g_f], dim=-1)
        return self.mlp(g_xyz).amax(dim=2)


class PointNet2(nn.Module):
    def __init__(self):
        super().__init__()
        self.sa1 = SetAbstraction(0, 32)
        self.sa2 = nn.Sequential(nn.Linear(32 + 3, 64), nn.ReLU(), nn.Linear(64, 128))
        self.head = nn.Sequential(nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, N_CLASSES))

    def forward(self, xyz, center_idx, radius, nsample=N_SAMPLE):
        centers = torch.gather(xyz, 1, center_idx.unsqueeze(-1).expand(-1, -1, 3))
        f = self.sa1(xyz, None, centers, radius, nsample)
        g = self.sa2(torch.cat([centers, f], dim=-1)).amax(dim=1)
        return self.head(g)


def main():
    gen = torch.Generator().manual_seed(7)
    labels = torch.randint(0, N_CLASSES, (64,), generator=gen)
    clouds = torch.stack([make_cloud(int(c), gen) for c in labels])
    model = PointNet2()
    predict = torch.compile(model, backend="aot_eager")
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    train_radius = 0.4
    for epoch in range(4):
        for i in range(0, 48, 16):
            center_idx = torch.stack([torch.randperm(N_POINTS, generator=gen)[:N_CENTERS] for _ in range(16)])
            loss = F.cross_entropy(predict(clouds[i:i + 16], center_idx, train_radius), labels[i:i + 16])
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.3f}")

    test_x, test_y = clouds[48:], labels[48:]
    center_idx = torch.stack([torch.randperm(N_POINTS, generator=gen)[:N_CENTERS] for _ in range(16)])
    for radius, nsample in ((0.3, 4), (0.4, 8), (0.5, 12), (0.6, 16)):
        pred = predict(test_x, center_idx, radius, nsample).argmax(-1)
        acc = (pred == test_y).float().mean()
        print(f"radius {radius} nsample {nsample}: acc {acc.item():.3f}")


if __name__ == "__main__":
    main()
