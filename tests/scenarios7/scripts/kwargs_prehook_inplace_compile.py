"""Sequence tagger compiled in place; a padding-mask hook is added later.

The tagger is compiled with `model.compile()`. After the first few steps
the user notices padded positions leak into the attention, and rather
than change every call site adds a forward pre-hook (with kwargs) that
fills in `key_padding_mask` from the token ids whenever the caller did
not pass one.
"""

import torch
from torch import nn

torch.manual_seed(0)

VOCAB, DIM, TAGS, PAD = 200, 48, 7, 0


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM, padding_idx=PAD)
        self.attn = nn.MultiheadAttention(DIM, 4, batch_first=True)
        self.norm = nn.LayerNorm(DIM)
        self.head = nn.Linear(DIM, TAGS)

    def forward(self, ids, key_padding_mask=None):
        h = self.emb(ids)
        a, _ = self.attn(h, h, h, key_padding_mask=key_padding_mask, need_weights=False)
        return self.head(self.norm(h + a))


def add_padding_mask(module, args, kwargs):
    if kwargs.get("key_padding_mask") is None:
        kwargs = dict(kwargs, key_padding_mask=args[0].eq(PAD))
    return args, kwargs


def make_batch():
    ids = torch.randint(1, VOCAB, (16, 20))
    lengths = torch.randint(8, 21, (16,))
    ids[torch.arange(20)[None, :] >= lengths[:, None]] = PAD
    tags = torch.randint(0, TAGS, (16, 20))
    tags[ids.eq(PAD)] = -100
    return ids, tags


model = Tagger()
model.compile(backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

for step in range(8):
    if step == 3:
        model.register_forward_pre_hook(add_padding_mask, with_kwargs=True)
    ids, tags = make_batch()
    logits = model(ids)
    loss = nn.functional.cross_entropy(logits.reshape(-1, TAGS), tags.reshape(-1), ignore_index=-100)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")
