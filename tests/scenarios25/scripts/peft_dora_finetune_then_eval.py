"""Fine-tuning a small text classifier with a DoRA adapter (peft).

The base MLP is frozen; only the DoRA magnitude and low-rank factors train.
After each epoch we run the held-out split to watch accuracy.
"""

import torch
from peft import LoraConfig, get_peft_model
from torch import nn

torch.manual_seed(0)


class Classifier(nn.Module):
    def __init__(self, vocab=500, dim=64, classes=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, classes)

    def forward(self, tokens):
        h = torch.tanh(self.proj(self.embed(tokens).mean(dim=1)))
        return self.out(h)


base = Classifier()
config = LoraConfig(r=4, lora_alpha=8, target_modules=["proj", "out"], use_dora=True)
model = get_peft_model(base, config)
model.print_trainable_parameters()

compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=3e-3)

# synthetic "documents": 20 tokens each, label depends on the token range
train_x = torch.randint(0, 500, (256, 20))
train_y = (train_x.float().mean(dim=1) // 125).long().clamp(max=3)
val_x = torch.randint(0, 500, (64, 20))
val_y = (val_x.float().mean(dim=1) // 125).long().clamp(max=3)

for epoch in range(3):
    model.train()
    for i in range(0, 256, 32):
        logits = compiled(train_x[i : i + 32])
        loss = nn.functional.cross_entropy(logits, train_y[i : i + 32])
        opt.zero_grad()
        loss.backward()
        opt.step()

    model.eval()
    correct = 0
    with torch.no_grad():
        for i in range(0, 64, 32):
            pred = compiled(val_x[i : i + 32]).argmax(dim=-1)
            correct += (pred == val_y[i : i + 32]).sum().item()
    print(f"epoch {epoch} loss {loss.item():.3f} val acc {correct / 64:.2f}")
