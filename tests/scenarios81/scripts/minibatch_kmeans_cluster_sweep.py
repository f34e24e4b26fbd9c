import torch

torch.manual_seed(0)


def make_blobs(n, centers, dim=8, spread=0.4):
    means = torch.randn(centers, dim) * 3.0
    labels = torch.randint(0, centers, (n,))
    return means[labels] + spread * torch.randn(n, dim)


@torch.compile(backend="aot_eager")
def kmeans_step(x, centroids, counts):
    d = (x * x).sum(1, keepdim=True) - 2.0 * x @ centroids.T + (centroids * centroids).sum(1)
    assign = d.argmin(1)
    onehot = torch.nn.functional.one_hot(assign, centroids.shape[0]).to(x.dtype)
    batch_counts = onehot.sum(0)
    sums = onehot.T @ x
    new_counts = counts + batch_counts
    lr = (batch_counts / new_counts.clamp_min(1.0)).unsqueeze(1)
    batch_means = sums / batch_counts.clamp_min(1.0).unsqueeze(1)
    centroids = torch.where(batch_counts.unsqueeze(1) > 0, centroids + lr * (batch_means - centroids), centroids)
    inertia = d.gather(1, assign.unsqueeze(1)).sum()
    return centroids, new_counts, inertia


def fit(data, k, epochs=3, batch=128):
    g = torch.Generator().manual_seed(k)
    centroids = data[torch.randperm(data.shape[0], generator=g)[:k]].clone()
    counts = torch.zeros(k)
    for _ in range(epochs):
        perm = torch.randperm(data.shape[0], generator=g)
        total = 0.0
        for i in range(0, data.shape[0] - batch + 1, batch):
            centroids, counts, inertia = kmeans_step(data[perm[i:i + batch]], centroids, counts)
            total += float(inertia)
    return centroids, total


def main():
    data = make_blobs(1024, centers=6)
    scores = {}
    # elbow sweep over the number of clusters
    for k in (4, 6, 8, 10):
        _, inertia = fit(data, k)
        scores[k] = inertia
        print(f"k={k:2d} inertia={inertia:.1f}")
    best = min(scores, key=lambda k: scores[k] * (1 + 0.05 * k))
    print("chosen k:", best)


if __name__ == "__main__":
    main()
