# Fine-tune a small intent classifier with a LoHa adapter, then merge the
# adapter into the base weights before putting the model behind the API.
import torch
import torch.nn as nn
import torch.nn.functional as F
from peft import LoHaConfig, get_peft_model

torch.manual_seed(0)


class IntentNet(nn.Module):
    def __init__(self, vocab=500, dim=48, n_intents=7):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.fc1 = nn.Linear(dim, dim)
        self.fc2 = nn.Linear(dim, dim)
        self.cls = nn.Linear(dim, n_intents)

    def forward(self, ids):
        h = self.emb(ids).mean(1)
        h = F.relu(self.fc1(h))
        h = F.relu(self.fc2(h))
        return self.cls(h)


base = IntentNet()
cfg = LoHaConfig(r=4, alpha=8, target_modules=["fc1", "fc2"], modules_to_save=["cls"])
model = get_peft_model(base, cfg)
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=5e-3)

for step in range(4):
    ids = torch.randint(0, 500, (16, 12))
    y = torch.randint(0, 7, (16,))
    loss = F.cross_entropy(compiled(ids), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("train", step, round(loss.item(), 4))

model.eval()
with torch.no_grad():
    print("pre-merge check", compiled(torch.randint(0, 500, (4, 12))).argmax(-1).tolist())
    # bake the adapter into fc1/fc2 for serving
    model.merge_adapter()
    for req in range(3):
        ids = torch.randint(0, 500, (4, 12))
        print("request", req, compiled(ids).argmax(-1).tolist())
