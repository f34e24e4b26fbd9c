"""Intent classifier server: requests padded to multiples of 16 tokens, the
sequence dim marked dynamic within the model's 16..64 serving window; a rare
long-context request goes through without the mark."""
import torch
import torch.nn as nn

torch.manual_seed(0)
VOCAB, DIM, N_INTENTS = 500, 32, 6
MIN_LEN, MAX_LEN = 16, 64


class IntentNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM, padding_idx=0)
        self.proj = nn.Linear(DIM, DIM)
        self.norm = nn.LayerNorm(DIM)
        self.head = nn.Linear(DIM, N_INTENTS)

    def forward(self, ids, mask):
        h = self.norm(torch.relu(self.proj(self.emb(ids))))
        m = mask.unsqueeze(-1).to(h.dtype)
        pooled = (h * m).sum(1) / m.sum(1).clamp(min=1.0)
        return self.head(pooled)


model = IntentNet().eval()
serve = torch.compile(model, backend="aot_eager")


def pad_to_bucket(requests):
    longest = max(len(r) for r in requests)
    length = max(MIN_LEN, -(-longest // 16) * 16)
    ids = torch.zeros(len(requests), length, dtype=torch.long)
    for i, r in enumerate(requests):
        ids[i, : len(r)] = torch.tensor(r)
    return ids, (ids != 0).long()


def handle(requests):
    ids, mask = pad_to_bucket(requests)
    if ids.shape[1] <= MAX_LEN:
        torch._dynamo.mark_dynamic(ids, 1, min=MIN_LEN, max=MAX_LEN)
        torch._dynamo.mark_dynamic(mask, 1, min=MIN_LEN, max=MAX_LEN)
    with torch.no_grad():
        logits = serve(ids, mask)
    return logits.argmax(-1).tolist()


traffic_lengths = [[12, 9, 15, 7], [30, 22, 18, 27], [40, 41, 33, 12],
                   [55, 60, 20, 9], [90, 14, 30, 21], [25, 19, 11, 8]]
for step, lengths in enumerate(traffic_lengths):
    reqs = [torch.randint(1, VOCAB, (n,)).tolist() for n in lengths]
    print(f"batch {step}: max_len={max(lengths)} intents={handle(reqs)}")
