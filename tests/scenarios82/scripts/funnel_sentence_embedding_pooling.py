import torch
import torch.nn.functional as F
from transformers import FunnelConfig, FunnelBaseModel

torch.manual_seed(0)

cfg = FunnelConfig(vocab_size=100, block_sizes=[1, 1], d_model=32, n_head=2, d_head=16,
                   d_inner=64, max_position_embeddings=64)
encoder = FunnelBaseModel(cfg).eval()


@torch.compile(backend="aot_eager")
def embed(input_ids, attention_mask, pooling="mean"):
    hidden = encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
    if pooling == "cls":
        vec = hidden[:, 0]
    elif pooling == "max":
        vec = hidden.max(dim=1).values
    else:
        vec = hidden.mean(dim=1)
    return F.normalize(vec, dim=-1)


def corpus(g, n):
    ids = torch.randint(2, 100, (n, 24), generator=g)
    return ids, torch.ones_like(ids)


g = torch.Generator().manual_seed(3)
queries = corpus(g, 4)
docs = corpus(g, 16)

# compare pooling strategies on the same retrieval set
with torch.no_grad():
    for strategy in ["mean", "cls", "max", "mean"]:
        q = embed(*queries, pooling=strategy)
        d = embed(*docs, pooling=strategy)
        top = (q @ d.T).topk(3, dim=-1).indices
        print(strategy, top.tolist())
