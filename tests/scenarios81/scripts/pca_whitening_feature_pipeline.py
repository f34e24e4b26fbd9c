import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


@torch.compile(backend="aot_eager")
def project(x, mean, components, singular, whiten):
    z = (x - mean) @ components
    if whiten:
        z = z / (singular / (x.shape[0] - 1) ** 0.5 + 1e-5)
    return z


def fit_pca(x, q):
    mean = x.mean(0, keepdim=True)
    U, S, V = torch.pca_lowrank(x, q=q, center=True, niter=3)
    return mean, V, S


def main():
    latent = torch.randn(2000, 6)
    mixing = torch.randn(6, 40)
    feats = latent @ mixing + 0.1 * torch.randn(2000, 40)
    labels = (latent[:, 0] + latent[:, 1] > 0).long()
    mean, V, S = fit_pca(feats[:1000], q=6)

    # quick look at the projected data before training
    z = project(feats[:100], mean, V, S, False)
    print("projection var per comp:", [round(v, 2) for v in z.var(0).tolist()])

    clf = nn.Linear(6, 2)
    opt = torch.optim.SGD(clf.parameters(), lr=0.1)
    for epoch in range(3):
        for i in range(0, 1000, 100):
            z = project(feats[i:i + 100], mean, V, S, True)
            loss = F.cross_entropy(clf(z), labels[i:i + 100])
            opt.zero_grad()
            loss.backward()
            opt.step()
        zt = project(feats[1000:1100], mean, V, S, True)
        acc = (clf(zt).argmax(1) == labels[1000:1100]).float().mean().item()
        print(f"epoch {epoch} loss={loss.item():.3f} acc={acc:.2f}")


if __name__ == "__main__":
    main()
