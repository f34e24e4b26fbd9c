import torch
import torch.nn.functional as F
from transformers import GPT2Config, GPT2LMHeadModel

torch.manual_seed(0)

config = GPT2Config(vocab_size=256, n_positions=64, n_embd=32, n_layer=2, n_head=2)
model = GPT2LMHeadModel(config).eval()
PAD = 0
SEQ = 16


def encode(text):
    ids = [min(ord(c), 255) for c in text][:SEQ]
    return ids


def make_batch(texts):
    encoded = [encode(t) for t in texts]
    lengths = [len(e) for e in encoded]
    if all(n == SEQ for n in lengths):
        return torch.tensor(encoded), None
    ids = torch.full((len(texts), SEQ), PAD, dtype=torch.long)
    mask = torch.zeros((len(texts), SEQ), dtype=torch.long)
    for i, e in enumerate(encoded):
        ids[i, : len(e)] = torch.tensor(e)
        mask[i, : len(e)] = 1
    return ids, mask


@torch.compile(backend="aot_eager")
def score(input_ids, attention_mask):
    out = model(input_ids=input_ids, attention_mask=attention_mask)
    logp = F.log_softmax(out.logits[:, :-1], dim=-1)
    tok = logp.gather(-1, input_ids[:, 1:, None]).squeeze(-1)
    if attention_mask is not None:
        tok = tok * attention_mask[:, 1:]
        return tok.sum(-1) / attention_mask[:, 1:].sum(-1)
    return tok.mean(-1)


corpus = [
    ["the quick brown fox jumps over", "a lazy dog sleeps in the sunny"],
    ["packing boxes with care is hard", "language models score text well"],
    ["short one", "a slightly longer sentence here"],
    ["every sentence here is sixteen!", "and so is this one, exactly ok"],
    ["tiny", "mid-length text"],
    ["compile the model once and reuse", "scoring batches at inference ok"],
]

with torch.no_grad():
    for step, texts in enumerate(corpus):
        ids, mask = make_batch(texts)
        s = score(ids, mask)
        print(step, "padded" if mask is not None else "full", [round(v, 3) for v in s.tolist()])
