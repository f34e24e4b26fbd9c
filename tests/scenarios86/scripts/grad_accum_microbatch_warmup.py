import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

GLOBAL_BATCH = 48
# memory grows with sequence length, so later epochs split the batch further
accum_by_epoch = [1, 1, 2, 2, 3, 4]
seq_len = 12


class TinyTagger(nn.Module):
    def __init__(self, vocab=200, d=32, n_tags=6):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.conv = nn.Conv1d(d, d, kernel_size=3, padding=1)
        self.proj = nn.Linear(d, n_tags)

    def forward(self, tokens):
        h = self.emb(tokens).transpose(1, 2)
        h = F.gelu(self.conv(h)).transpose(1, 2)
        return self.proj(h)


def micro_step(model, tokens, tags):
    logits = model(tokens)
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tags.reshape(-1))


model = TinyTagger()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
step_fn = torch.compile(micro_step, backend="aot_eager")

tokens_all = torch.randint(0, 200, (GLOBAL_BATCH * 4, seq_len))
tags_all = tokens_all % 6

for epoch, n_micro in enumerate(accum_by_epoch):
    running = 0.0
    for b in range(0, tokens_all.shape[0], GLOBAL_BATCH):
        tok = tokens_all[b:b + GLOBAL_BATCH]
        tag = tags_all[b:b + GLOBAL_BATCH]
        opt.zero_grad(set_to_none=True)
        for tok_mb, tag_mb in zip(torch.tensor_split(tok, n_micro), torch.tensor_split(tag, n_micro)):
            loss = step_fn(model, tok_mb, tag_mb) / n_micro
            loss.backward()
            running += loss.item()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
    print(f"epoch {epoch} micro-batches {n_micro} loss {running / 4:.4f}")
