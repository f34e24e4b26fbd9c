"""Explicit heat equation on an irregular triangle mesh.

The compiled step uses a graph Laplacian built from mesh edges with
index_add. Production runs are float32; every few blocks a float64
reference run of the same step checks the error.
"""
import torch

torch.manual_seed(0)

N_VERTS = 200
pts = torch.rand(N_VERTS, 2)
# k-nearest-neighbour "mesh" edges
d = torch.cdist(pts, pts)
knn = d.topk(7, largest=False).indices[:, 1:]
src = torch.arange(N_VERTS).repeat_interleave(6)
dst = knn.reshape(-1)
w = 1.0 / (d[src, dst] + 1e-3)
w = w / w.max()


@torch.compile(backend="aot_eager")
def heat_step(u, src, dst, w, alpha):
    flux = w * (u[dst] - u[src])
    lap = torch.zeros_like(u).index_add(0, src, flux)
    deg = torch.zeros_like(u).index_add(0, src, w)
    return u + alpha * lap / deg.clamp_min(1e-6)


u32 = torch.exp(-((pts - 0.5) ** 2).sum(-1) / 0.02)
alpha = 0.2
for block in range(3):
    for _ in range(20):
        u32 = heat_step(u32, src, dst, w, alpha)
    # reference in double precision from the same state
    u64 = u32.double()
    ref = u64
    for _ in range(5):
        ref = heat_step(ref, src, dst, w.double(), alpha)
    check = u32
    for _ in range(5):
        check = heat_step(check, src, dst, w, alpha)
    err = (check.double() - ref).abs().max().item()
    print(f"block {block} total heat {u32.sum().item():.4f} fp32 vs fp64 err {err:.2e}")
