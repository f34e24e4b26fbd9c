import torch
import torch.nn as nn
from torchmetrics.functional import kl_divergence

torch.manual_seed(0)

N_CLASSES = 6
model = nn.Sequential(nn.Linear(20, 64), nn.Tanh(), nn.Linear(64, N_CLASSES)).eval()
reference = nn.Sequential(nn.Linear(20, 64), nn.Tanh(), nn.Linear(64, N_CLASSES)).eval()


def report_kl(x, log_prob, reduction):
    with torch.no_grad():
        p_logits = model(x)
        q_logits = reference(x)
    if log_prob:
        p = torch.log_softmax(p_logits, dim=-1)
        q = torch.log_softmax(q_logits, dim=-1)
    else:
        p = torch.softmax(p_logits, dim=-1)
        q = torch.softmax(q_logits, dim=-1)
    return kl_divergence(p, q, log_prob=log_prob, reduction=reduction)


report_kl_c = torch.compile(report_kl, backend="aot_eager")

# each report section has its own settings
sections = [
    ("summary", {"log_prob": False, "reduction": "mean"}),
    ("summary_log", {"log_prob": True, "reduction": "mean"}),
    ("totals", {"log_prob": True, "reduction": "sum"}),
    ("per_sample", {"log_prob": True, "reduction": "none"}),
]

eval_sets = {
    "val": torch.randn(32, 20),
    "test": torch.randn(32, 20),
    "ood": torch.randn(32, 20) * 3.0,
}

for split, x in eval_sets.items():
    lines = []
    for name, kw in sections:
        value = report_kl_c(x, **kw)
        if value.numel() > 1:
            lines.append(f"{name}: max={value.max().item():.4f}")
        else:
            lines.append(f"{name}: {value.item():.4f}")
    print(split, " | ".join(lines))
