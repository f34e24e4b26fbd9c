import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

teacher = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 10)).eval()
for p in teacher.parameters():
    p.requires_grad_(False)
student = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 10))
opt = torch.optim.Adam(student.parameters(), lr=3e-3)


def distill_loss(student_logits, teacher_out, labels, temperature, log_target):
    s = F.log_softmax(student_logits / temperature, dim=-1)
    if log_target:
        t = F.log_softmax(teacher_out / temperature, dim=-1)
    else:
        t = F.softmax(teacher_out / temperature, dim=-1)
    soft = F.kl_div(s, t, reduction="batchmean", log_target=log_target) * temperature ** 2
    hard = F.cross_entropy(student_logits, labels)
    return 0.7 * soft + 0.3 * hard


loss_fn = torch.compile(distill_loss, backend="aot_eager")

# stage schedule: warm stage with soft targets, then sharper targets; the
# last stage works in log space for numerical stability
stages = [
    {"name": "warm", "epochs": 2, "temperature": 4.0, "log_target": False},
    {"name": "mid", "epochs": 2, "temperature": 2.0, "log_target": False},
    {"name": "sharp", "epochs": 2, "temperature": 1.0, "log_target": True},
]

data = [(torch.randn(16, 32), torch.randint(0, 10, (16,))) for _ in range(4)]
for stage in stages:
    for epoch in range(stage["epochs"]):
        running = 0.0
        for x, y in data:
            with torch.no_grad():
                t_logits = teacher(x)
            loss = loss_fn(student(x), t_logits, y, stage["temperature"], stage["log_target"])
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
        print(f"{stage['name']} epoch {epoch} loss {running / len(data):.4f}")
