import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

# toy tokenizers from two upstream projects, each with its own pad id
TOKENIZERS = {
    "bert_like": {"pad_id": 0, "vocab": 100},
    "gpt_like": {"pad_id": 99, "vocab": 100},
}


class BagEncoder(nn.Module):
    def __init__(self, vocab=100, dim=16, classes=3):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(vocab, dim) * 0.1)
        self.cls = nn.Linear(dim, classes)

    def forward(self, ids, pad_id):
        emb = F.embedding(ids, self.weight, padding_idx=pad_id)
        keep = (ids != pad_id).unsqueeze(-1).float()
        pooled = (emb * keep).sum(1) / keep.sum(1).clamp_min(1.0)
        return self.cls(pooled)


def collate(samples, pad_id, max_len=12):
    out = torch.full((len(samples), max_len), pad_id, dtype=torch.long)
    for i, s in enumerate(samples):
        out[i, : len(s)] = s[:max_len]
    return out


encoder = BagEncoder()
encode = torch.compile(encoder, backend="aot_eager")
opt = torch.optim.AdamW(encoder.parameters(), lr=1e-2)

for epoch in range(2):
    for tok_name, tok in TOKENIZERS.items():
        for step in range(3):
            lengths = torch.randint(3, 12, (8,)).tolist()
            samples = [torch.randint(1, tok["vocab"] - 1, (n,)) for n in lengths]
            ids = collate(samples, tok["pad_id"])
            labels = torch.randint(0, 3, (8,))
            loss = F.cross_entropy(encode(ids, tok["pad_id"]), labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} {tok_name}: loss={loss.item():.4f}")
