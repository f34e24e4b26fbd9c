import torch

torch.manual_seed(0)

N = 8  # masses on a chain


class SpringChain:
    def __init__(self, dt=0.02, substeps=4):
        self.dt = dt
        self.substeps = substeps
        self.rest = 1.0
        self.damping = 0.02
        self.gravity = torch.tensor([0.0, -9.8])

    def advance(self, x, v, stiffness):
        h = self.dt / self.substeps
        for _ in range(self.substeps):
            d = x[1:] - x[:-1]
            length = d.norm(dim=1, keepdim=True).clamp_min(1e-6)
            f_spring = stiffness * (length - self.rest) * d / length
            f = torch.zeros_like(x)
            f[:-1] += f_spring
            f[1:] -= f_spring
            f = f + self.gravity
            v = (v + h * f) * (1.0 - self.damping)
            v = torch.cat([torch.zeros_like(v[:1]), v[1:]], dim=0)  # first mass pinned
            x = x + h * v
        return x, v


sim = SpringChain()
step = torch.compile(sim.advance, backend="aot_eager")

x0 = torch.stack([torch.arange(N, dtype=torch.float32), torch.zeros(N)], dim=1)
target_tip = torch.tensor([6.5, 1.5])
v_init = torch.zeros(N, 2, requires_grad=True)
opt = torch.optim.Adam([v_init], lr=0.2)
stiffness = torch.tensor(200.0)

# coarse-to-fine: cheap substeps first, finer integration once the throw is roughly right
for stage, substeps in enumerate([2, 4, 8]):
    sim.substeps = substeps
    for it in range(3):
        x, v = x0.clone(), v_init
        for _ in range(15):
            x, v = step(x, v, stiffness)
        loss = (x[-1] - target_tip).pow(2).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        ke = 0.5 * v.detach().pow(2).sum().item()
        print(f"stage {stage} iter {it} substeps={sim.substeps} loss={loss.item():.3f} ke={ke:.2f}")
