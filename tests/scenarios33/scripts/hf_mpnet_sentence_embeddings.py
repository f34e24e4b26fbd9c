"""Semantic search index built with a (tiny, randomly initialised) MPNet.

Documents arrive in batches from a queue; each batch is tokenised and padded
to its longest document, embedded with mean pooling over the attention mask,
and added to an in-memory index. At the end a few queries are searched.
"""

import torch
from transformers import MPNetConfig, MPNetModel

torch.manual_seed(0)

config = MPNetConfig(
    vocab_size=500,
    hidden_size=64,
    num_hidden_layers=2,
    num_attention_heads=4,
    intermediate_size=128,
    max_position_embeddings=130,
)
encoder = MPNetModel(config).eval()
encoder = torch.compile(encoder, backend="aot_eager")


def fake_tokenise(docs_lengths):
    # stand-in for the tokenizer: random ids, padded to the longest doc
    longest = max(docs_lengths)
    ids = torch.full((len(docs_lengths), longest), config.pad_token_id)
    mask = torch.zeros(len(docs_lengths), longest, dtype=torch.long)
    for i, n in enumerate(docs_lengths):
        ids[i, :n] = torch.randint(5, config.vocab_size, (n,))
        mask[i, :n] = 1
    return ids, mask


@torch.no_grad()
def embed(ids, mask):
    out = encoder(input_ids=ids, attention_mask=mask).last_hidden_state
    m = mask[..., None].float()
    vec = (out * m).sum(1) / m.sum(1).clamp(min=1)
    return torch.nn.functional.normalize(vec, dim=-1)


index = []
queue = [
    [20, 31, 18, 32],
    [32, 12, 7, 25],
    [40, 22, 9, 11],
    [17, 28, 28, 6],
    [64, 33, 21, 50],
]
for batch_lengths in queue:
    ids, mask = fake_tokenise(batch_lengths)
    index.append(embed(ids, mask))
    print(f"indexed batch padded to {ids.shape[1]} tokens")

index = torch.cat(index)
for q_len in [8, 8]:
    q_ids, q_mask = fake_tokenise([q_len])
    scores = embed(q_ids, q_mask) @ index.T
    print("top hits", scores.topk(3).indices.tolist())
