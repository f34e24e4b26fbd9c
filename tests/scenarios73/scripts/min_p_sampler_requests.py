import torch
import torch.nn as nn

torch.manual_seed(0)

VOCAB = 64


class TinyLM(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, dim)
        self.rnn = nn.Linear(dim, dim)
        self.head = nn.Linear(dim, VOCAB)

    def forward(self, ids):
        h = self.emb(ids).mean(1)
        return self.head(torch.tanh(self.rnn(h)))


lm = TinyLM().eval()


@torch.compile(backend="aot_eager")
def next_token(ids, params):
    logits = lm(ids)
    logits = logits / params["temperature"]
    if params["top_k"] is not None:
        kth = torch.topk(logits, params["top_k"], dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    probs = logits.softmax(-1)
    if params["min_p"] is not None:
        floor = params["min_p"] * probs.max(-1, keepdim=True).values
        probs = torch.where(probs < floor, torch.zeros_like(probs), probs)
        probs = probs / probs.sum(-1, keepdim=True)
    return torch.multinomial(probs, 1)


def generate(prompt, params, max_new=6):
    ids = prompt
    for _ in range(max_new):
        ids = torch.cat([ids, next_token(ids[:, -8:], params)], dim=1)
    return ids


REQUESTS = [
    {"temperature": 0.8, "top_k": None, "min_p": 0.1},
    {"temperature": 0.8, "top_k": None, "min_p": 0.1},
    {"temperature": 1.0, "top_k": 20, "min_p": None},
    {"temperature": 0.7, "top_k": None, "min_p": 0.05},
    {"temperature": 1.0, "top_k": 10, "min_p": None},
]

with torch.no_grad():
    for i, params in enumerate(REQUESTS):
        prompt = torch.randint(0, VOCAB, (2, 8))
        out = generate(prompt, params)
        print(i, out[:, 8:].tolist())
