import torch
import torch.nn as nn
import torch.nn.functional as F
import timm

torch.manual_seed(0)


class Classifier(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.backbone = timm.create_model(
            "resnet18", pretrained=False, num_classes=0, global_pool="avg"
        )
        feat = self.backbone.num_features
        self.head = nn.Linear(feat, num_classes)
        self.aux_head = nn.Sequential(nn.Linear(feat, 64), nn.ReLU(), nn.Linear(64, num_classes))

    def forward(self, x):
        f = self.backbone(x)
        logits = self.head(f)
        if hasattr(self, "aux_head"):
            return logits, self.aux_head(f)
        return logits, None


model = Classifier()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

warmup_epochs = 2
for epoch in range(4):
    if epoch == warmup_epochs:
        # auxiliary supervision only helps early on
        del model.aux_head
        opt = torch.optim.AdamW(model.parameters(), lr=5e-4)
    for _ in range(2):
        x = torch.randn(4, 3, 32, 32)
        y = torch.randint(0, 5, (4,))
        logits, aux = compiled(x)
        loss = F.cross_entropy(logits, y)
        if aux is not None:
            loss = loss + 0.3 * F.cross_entropy(aux, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss={loss.item():.4f} aux={'yes' if aux is not None else 'no'}")
