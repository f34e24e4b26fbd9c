import contextvars

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

request_temperature = contextvars.ContextVar("request_temperature", default=1.0)


class TinyLM(nn.Module):
    def __init__(self, vocab=64, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.mix = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim))
        self.out = nn.Linear(dim, vocab)

    def forward(self, ids):
        h = self.emb(ids)
        h = h + self.mix(h)
        return self.out(h[:, -1])


model = TinyLM().eval()


@torch.compile(backend="aot_eager")
def next_token_probs(ids):
    logits = model(ids)
    t = request_temperature.get()
    return F.softmax(logits / t, dim=-1)


def handle_request(req):
    token = request_temperature.set(req["temperature"])
    try:
        ids = req["ids"]
        out = []
        with torch.no_grad():
            for _ in range(3):
                probs = next_token_probs(ids)
                nxt = torch.multinomial(probs, 1)
                ids = torch.cat([ids[:, 1:], nxt], dim=1)
                out.append(nxt)
        return torch.cat(out, dim=1)
    finally:
        request_temperature.reset(token)


requests = [
    {"temperature": 0.7, "ids": torch.randint(0, 64, (2, 8))},
    {"temperature": 0.7, "ids": torch.randint(0, 64, (2, 8))},
    {"temperature": 1.0, "ids": torch.randint(0, 64, (2, 8))},
    {"temperature": 0.2, "ids": torch.randint(0, 64, (2, 8))},
    {"temperature": 0.7, "ids": torch.randint(0, 64, (2, 8))},
]

for i, req in enumerate(requests):
    ctx = contextvars.copy_context()
    tokens = ctx.run(handle_request, req)
    print(f"request {i} temperature={req['temperature']} tokens={tokens.tolist()}")
