"""2:4 (N:M) semi-structured sparsity for a tiny text classifier.

After a dense warmup epoch, a 2-of-4 magnitude mask is computed for every
Linear weight and attached with torch.nn.utils.prune.custom_from_mask. The
compiled model is validated in eval mode after every epoch.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.prune as prune

torch.manual_seed(0)


class BagClassifier(nn.Module):
    def __init__(self, vocab=200, d=32, hidden=64, classes=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.fc1 = nn.Linear(d, hidden)
        self.drop = nn.Dropout(0.2)
        self.fc2 = nn.Linear(hidden, classes)

    def forward(self, tokens):
        h = self.emb(tokens).mean(dim=1)
        return self.fc2(self.drop(F.relu(self.fc1(h))))


def two_four_mask(weight):
    # keep the 2 largest-magnitude entries in every group of 4 along the input dim
    out_f, in_f = weight.shape
    groups = weight.detach().abs().reshape(out_f, in_f // 4, 4)
    keep = groups.topk(2, dim=-1).indices
    mask = torch.zeros_like(groups).scatter_(-1, keep, 1.0)
    return mask.reshape(out_f, in_f)


model = BagClassifier()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

train = [(torch.randint(0, 200, (32, 16)), torch.randint(0, 4, (32,))) for _ in range(4)]
val_x, val_y = torch.randint(0, 200, (64, 16)), torch.randint(0, 4, (64,))

for epoch in range(4):
    if epoch == 1:
        for lin in (model.fc1, model.fc2):
            prune.custom_from_mask(lin, "weight", mask=two_four_mask(lin.weight))
        print("applied 2:4 masks")
    model.train()
    for x, y in train:
        loss = F.cross_entropy(compiled(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        acc = (compiled(val_x).argmax(-1) == val_y).float().mean().item()
    density = model.fc1.weight.ne(0).float().mean().item()
    print(f"epoch {epoch} train loss {loss.item():.4f} val acc {acc:.3f} fc1 density {density:.2f}")
