import torch
import torch.nn.functional as F
from transformers import ConvBertConfig, ConvBertForTokenClassification

torch.manual_seed(0)

LABELS = ["O", "B-PER", "I-PER", "B-ORG", "I-ORG"]
cfg = ConvBertConfig(vocab_size=120, hidden_size=32, embedding_size=32, num_hidden_layers=2,
                     num_attention_heads=4, intermediate_size=64, head_ratio=2,
                     conv_kernel_size=5, max_position_embeddings=64, num_labels=len(LABELS))
model = ConvBertForTokenClassification(cfg)
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)


def make_sentence(g):
    n = int(torch.randint(5, 30, (1,), generator=g))
    words = torch.randint(3, 120, (n,), generator=g)
    tags = torch.randint(0, len(LABELS), (n,), generator=g)
    # first sub-token of each word keeps its tag, continuation pieces get -100
    first = torch.rand(n, generator=g) > 0.3
    first[0] = True
    tags = torch.where(first, tags, torch.full_like(tags, -100))
    return words, tags


def collate(items):
    longest = max(len(w) for w, _ in items)
    ids = torch.zeros(len(items), longest, dtype=torch.long)
    mask = torch.zeros(len(items), longest, dtype=torch.long)
    labels = torch.full((len(items), longest), -100, dtype=torch.long)
    for i, (w, t) in enumerate(items):
        ids[i, :len(w)] = w
        mask[i, :len(w)] = 1
        labels[i, :len(t)] = t
    return ids, mask, labels


@torch.compile(backend="aot_eager")
def train_step(ids, mask, labels):
    logits = model(input_ids=ids, attention_mask=mask).logits
    loss = F.cross_entropy(logits.view(-1, logits.size(-1)), labels.view(-1), ignore_index=-100)
    loss.backward()
    return loss.detach()


g = torch.Generator().manual_seed(1)
data = [make_sentence(g) for _ in range(48)]
model.train()
for epoch in range(2):
    for b in range(0, len(data), 8):
        ids, mask, labels = collate(data[b:b + 8])
        loss = train_step(ids, mask, labels)
        opt.step()
        opt.zero_grad()
    print(f"epoch {epoch} loss {loss.item():.4f}")
