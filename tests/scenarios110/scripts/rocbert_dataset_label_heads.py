"""NER over several corpora with different label sets: one RoCBert encoder
shared by all datasets, one classification head per dataset."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import RoCBertConfig, RoCBertModel

torch.manual_seed(0)
DATASETS = {
    "conll03": ["O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC", "B-MISC", "I-MISC"],
    "wnut17": ["O", "B-corporation", "I-corporation", "B-person", "I-person", "B-product", "I-product"],
    "bc5cdr": ["O", "B-Chemical", "I-Chemical", "B-Disease", "I-Disease"],
}


class MultiCorpusTagger(nn.Module):
    def __init__(self):
        super().__init__()
        cfg = RoCBertConfig(vocab_size=150, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                            intermediate_size=64, max_position_embeddings=64,
                            enable_shape=False, enable_pronunciation=False)
        self.encoder = RoCBertModel(cfg)
        self.heads = nn.ModuleDict({k: nn.Linear(32, len(v)) for k, v in DATASETS.items()})
        self.dataset = "conll03"

    def forward(self, input_ids, attention_mask):
        h = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        return self.heads[self.dataset](h)


model = MultiCorpusTagger()
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)

for epoch in range(2):
    for name, labels in DATASETS.items():
        model.dataset = name
        for _ in range(2):
            ids = torch.randint(5, 150, (8, 14))
            mask = torch.ones_like(ids)
            y = torch.randint(0, len(labels), (8, 14))
            logits = cmodel(ids, mask)
            loss = F.cross_entropy(logits.flatten(0, 1), y.flatten())
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} {name} ({len(labels)} labels) loss {loss.item():.3f}")
