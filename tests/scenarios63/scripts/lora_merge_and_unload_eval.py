import torch
import torch.nn as nn
from peft import LoraConfig, get_peft_model

torch.manual_seed(0)


class TextClassifier(nn.Module):
    def __init__(self, vocab=200, dim=32, num_classes=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, dim)
        self.mlp = nn.Linear(dim, dim)
        self.classifier = nn.Linear(dim, num_classes)

    def forward(self, ids):
        h = self.embed(ids).mean(1)
        h = torch.relu(self.proj(h))
        h = torch.relu(self.mlp(h))
        return self.classifier(h)


base = TextClassifier()
config = LoraConfig(r=4, lora_alpha=8, target_modules=["proj", "mlp"], lora_dropout=0.0,
                    modules_to_save=["classifier"])
model = get_peft_model(base, config)
opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-2)


def evaluate(net, ids, labels):
    logits = net(ids)
    return (logits.argmax(-1) == labels).float().mean()


compiled_eval = torch.compile(evaluate, backend="aot_eager")

val_ids = torch.randint(0, 200, (32, 12))
val_labels = torch.randint(0, 4, (32,))

for epoch in range(2):
    model.train()
    for _ in range(4):
        ids = torch.randint(0, 200, (16, 12))
        labels = torch.randint(0, 4, (16,))
        loss = nn.functional.cross_entropy(model(ids), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        acc = compiled_eval(model, val_ids, val_labels)
    print(f"epoch {epoch} loss={loss.item():.4f} val_acc={acc.item():.3f}")

# fold the adapters into the weights for deployment and check nothing moved
merged = model.merge_and_unload()
merged.eval()
with torch.no_grad():
    acc = compiled_eval(merged, val_ids, val_labels)
    acc2 = compiled_eval(merged, val_ids[:16], val_labels[:16])
print(f"merged val_acc={acc.item():.3f} half={acc2.item():.3f}")
