import torch
import torch.nn as nn

torch.manual_seed(0)

VOCAB = 64


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 32)
        self.mix = nn.GRU(32, 32, batch_first=True)
        self.lm_head = nn.Linear(32, VOCAB)

    def forward(self, ids):
        h, _ = self.mix(self.emb(ids))
        return self.lm_head(h[:, -1])


@torch.compile(backend="aot_eager")
def sample_candidates(logits, temperature, num_samples):
    probs = torch.softmax(logits / temperature, dim=-1)
    picks = torch.multinomial(probs, num_samples=num_samples, replacement=True)
    scores = torch.gather(probs, 1, picks).log()
    return picks, scores


model = TinyLM().eval()

requests = [
    {"prompt_len": 5, "n": 4},
    {"prompt_len": 5, "n": 4},
    {"prompt_len": 5, "n": 8},
    {"prompt_len": 5, "n": 1},
    {"prompt_len": 5, "n": 16},
    {"prompt_len": 5, "n": 4},
]

with torch.no_grad():
    for rid, req in enumerate(requests):
        prompt = torch.randint(0, VOCAB, (1, req["prompt_len"]))
        logits = model(prompt)
        picks, scores = sample_candidates(logits, 0.8, req["n"])
        best = picks[0, scores[0].argmax()].item()
        print(f"request {rid}: n={req['n']} best token {best}")
