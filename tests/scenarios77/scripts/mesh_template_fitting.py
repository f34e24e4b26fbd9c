"""Fit a deformable template mesh (a subdivided octahedron) to a target point cloud."""
import torch

torch.manual_seed(0)


def octahedron(levels=2):
    verts = torch.tensor([[1., 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]])
    faces = torch.tensor([[0, 2, 4], [2, 1, 4], [1, 3, 4], [3, 0, 4],
                          [2, 0, 5], [1, 2, 5], [3, 1, 5], [0, 3, 5]])
    for _ in range(levels):
        verts, faces = subdivide(verts, faces)
    return verts / verts.norm(dim=-1, keepdim=True), faces


def subdivide(verts, faces):
    edges = torch.cat([faces[:, [0, 1]], faces[:, [1, 2]], faces[:, [2, 0]]]).sort(dim=1).values
    uniq, inverse = torch.unique(edges, dim=0, return_inverse=True)
    mids = (verts[uniq[:, 0]] + verts[uniq[:, 1]]) / 2
    m = inverse.view(3, -1) + verts.shape[0]
    a, b, c = faces.unbind(1)
    new_faces = torch.cat([torch.stack([a, m[0], m[2]], 1), torch.stack([b, m[1], m[0]], 1),
                           torch.stack([c, m[2], m[1]], 1), torch.stack([m[0], m[1], m[2]], 1)])
    return torch.cat([verts, mids]), new_faces


def uniform_laplacian(faces, n):
    i = torch.cat([faces[:, 0], faces[:, 1], faces[:, 2], faces[:, 1], faces[:, 2], faces[:, 0]])
    j = torch.cat([faces[:, 1], faces[:, 2], faces[:, 0], faces[:, 0], faces[:, 1], faces[:, 2]])
    adj = torch.sparse_coo_tensor(torch.stack([i, j]), torch.ones(i.numel()), (n, n)).coalesce().to_dense()
    adj = (adj > 0).float()
    return adj / adj.sum(1, keepdim=True) - torch.eye(n)


def mesh_losses(verts, faces, lap, target):
    v0, v1, v2 = verts[faces[:, 0]], verts[faces[:, 1]], verts[faces[:, 2]]
    normals = torch.linalg.cross(v1 - v0, v2 - v0, dim=-1)
    normals = normals / normals.norm(dim=-1, keepdim=True).clamp_min(1e-8)
    # chamfer distance between mesh vertices and the target samples
    d = (verts.unsqueeze(1) - target.unsqueeze(0)).square().sum(-1)
    chamfer = d.amin(1).mean() + d.amin(0).mean()
    smooth = (lap @ verts).norm(dim=-1).mean()
    # normal consistency between neighbouring faces in the face list
    normal_var = (1 - (normals[:-1] * normals[1:]).sum(-1)).mean()
    edge_len = torch.stack([(v1 - v0).norm(dim=-1), (v2 - v1).norm(dim=-1), (v0 - v2).norm(dim=-1)])
    return {"chamfer": chamfer, "laplacian": smooth, "normal": normal_var, "edge": edge_len.var()}


def main():
    verts0, faces = octahedron(levels=2)
    lap = uniform_laplacian(faces, verts0.shape[0])
    # target: an ellipsoid with a bump
    t = torch.randn(400, 3)
    t = t / t.norm(dim=-1, keepdim=True)
    target = t * torch.tensor([1.4, 0.8, 0.6]) + 0.3 * torch.relu(t[:, :1]) ** 4
    offsets = torch.zeros_like(verts0, requires_grad=True)
    opt = torch.optim.Adam([offsets], lr=0.02)
    weights = {"chamfer": 1.0, "laplacian": 0.1, "normal": 0.01, "edge": 0.1}
    losses_fn = torch.compile(mesh_losses, backend="aot_eager")

    for step in range(60):
        losses = losses_fn(verts0 + offsets, faces, lap, target)
        total = sum(weights[k] * v for k, v in losses.items())
        opt.zero_grad()
        total.backward()
        opt.step()
        if step % 20 == 19:
            with torch.no_grad():
                report = losses_fn(verts0 + offsets, faces, lap, target)
            print(step, {k: round(v.item(), 4) for k, v in report.items()})


if __name__ == "__main__":
    main()
