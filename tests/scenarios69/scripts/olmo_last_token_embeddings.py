"""Decoder-only sentence embeddings (last-token pooling) for a small retrieval index."""
import torch
import torch.nn.functional as F
from transformers import OlmoConfig, OlmoModel

torch.manual_seed(0)

config = OlmoConfig(
    vocab_size=300,
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=2,
    num_attention_heads=4,
    max_position_embeddings=128,
    pad_token_id=0,
)
encoder = OlmoModel(config).eval()


class Tokenizer:
    """Stand-in for a HF tokenizer: pads a list of id lists on the configured side."""

    def __init__(self, pad_id=0, padding_side="right"):
        self.pad_id = pad_id
        self.padding_side = padding_side

    def __call__(self, seqs):
        width = max(len(s) for s in seqs)
        ids = torch.full((len(seqs), width), self.pad_id, dtype=torch.long)
        mask = torch.zeros((len(seqs), width), dtype=torch.long)
        for i, s in enumerate(seqs):
            if self.padding_side == "right":
                ids[i, : len(s)] = torch.tensor(s)
                mask[i, : len(s)] = 1
            else:
                ids[i, width - len(s) :] = torch.tensor(s)
                mask[i, width - len(s) :] = 1
        return {"input_ids": ids, "attention_mask": mask}


def embed(input_ids, attention_mask, padding_side):
    hidden = encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
    if padding_side == "left":
        pooled = hidden[:, -1]
    else:
        last = attention_mask.sum(dim=1) - 1
        pooled = hidden[torch.arange(hidden.shape[0]), last]
    return F.normalize(pooled, dim=-1)


embed = torch.compile(embed, backend="aot_eager")
tokenizer = Tokenizer()


def random_texts(n, lo, hi):
    return [torch.randint(1, 300, (int(torch.randint(lo, hi, ())),)).tolist() for _ in range(n)]


with torch.no_grad():
    # index the document collection with the default (right) padding
    docs = random_texts(32, 8, 20)
    index = []
    for i in range(0, len(docs), 8):
        batch = tokenizer(docs[i : i + 8])
        index.append(embed(batch["input_ids"], batch["attention_mask"], tokenizer.padding_side))
    index = torch.cat(index)

    # the query service shares the tokenizer with the generation code, which pads left
    tokenizer.padding_side = "left"
    for q in range(3):
        batch = tokenizer(random_texts(8, 4, 10))
        queries = embed(batch["input_ids"], batch["attention_mask"], tokenizer.padding_side)
        top = (queries @ index.T).topk(3, dim=-1).indices
        print(f"query batch {q}: top docs {top[0].tolist()}")
