# RocketQA-style dense passage retrieval: one tiny ERNIE encoder shared by
# queries and passages; queries are padded to 16 tokens, passages to 40.
import torch
import torch.nn.functional as F
from transformers import ErnieConfig, ErnieModel

torch.manual_seed(0)

QUERY_MAX_LEN, DOC_MAX_LEN = 16, 40
config = ErnieConfig(vocab_size=500, hidden_size=32, num_hidden_layers=1,
                     num_attention_heads=2, intermediate_size=64,
                     max_position_embeddings=64, pad_token_id=0)
backbone = ErnieModel(config, add_pooling_layer=False)
opt = torch.optim.AdamW(backbone.parameters(), lr=5e-4)


@torch.compile(backend="aot_eager")
def embed(input_ids, attention_mask):
    hidden = backbone(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
    m = attention_mask.unsqueeze(-1).to(hidden.dtype)
    pooled = (hidden * m).sum(1) / m.sum(1).clamp(min=1e-6)
    return F.normalize(pooled, dim=-1)


def tokenize(lengths, max_len):
    # fake tokenizer output: random ids, right padding to max_len
    ids = torch.full((len(lengths), max_len), config.pad_token_id)
    mask = torch.zeros(len(lengths), max_len, dtype=torch.long)
    for i, n in enumerate(lengths):
        n = min(n, max_len)
        ids[i, :n] = torch.randint(1, config.vocab_size, (n,))
        mask[i, :n] = 1
    return ids, mask


backbone.train()
for step in range(4):
    q_ids, q_mask = tokenize(torch.randint(4, 20, (8,)).tolist(), QUERY_MAX_LEN)
    d_ids, d_mask = tokenize(torch.randint(20, 60, (8,)).tolist(), DOC_MAX_LEN)
    q = embed(q_ids, q_mask)
    d = embed(d_ids, d_mask)
    loss = F.cross_entropy(q @ d.T / 0.05, torch.arange(8))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")
