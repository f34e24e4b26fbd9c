"""Score a long document with a small XLNet LM, one segment at a time.

The document is too long for one pass, so it is split into 16-token
segments; the hidden-state memory XLNet returns for one segment is handed
to the next call so the model still sees earlier context.
"""

import torch
from transformers import XLNetConfig, XLNetLMHeadModel

torch.manual_seed(0)

config = XLNetConfig(
    vocab_size=200,
    d_model=32,
    n_layer=2,
    n_head=2,
    d_inner=64,
    mem_len=16,
    attn_type="bi",
)
model = XLNetLMHeadModel(config).eval()
scorer = torch.compile(model, backend="aot_eager")

SEG = 16
document = torch.randint(0, 200, (1, SEG * 6 + 1))

total_nll, total_tokens = 0.0, 0
mems = None
with torch.no_grad():
    for start in range(0, SEG * 6, SEG):
        seg = document[:, start : start + SEG]
        target = document[:, start + 1 : start + SEG + 1]
        out = scorer(input_ids=seg, mems=mems, use_mems=True)
        mems = out.mems  # carry the memory to the next segment
        logp = torch.log_softmax(out.logits, -1)
        nll = -logp.gather(-1, target[..., None]).sum()
        total_nll += nll.item()
        total_tokens += target.numel()
        print(f"segment at {start:3d} nll/token {nll.item() / target.numel():.3f}")

print(f"document ppl {torch.exp(torch.tensor(total_nll / total_tokens)).item():.2f}")
