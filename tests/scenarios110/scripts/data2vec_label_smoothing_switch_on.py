"""Token classification with Data2VecText; label smoothing is switched on
in the training config once the warm-up epoch is over."""
from dataclasses import dataclass
import torch
import torch.nn.functional as F
from transformers import Data2VecTextConfig, Data2VecTextForTokenClassification

torch.manual_seed(0)


@dataclass
class TrainConfig:
    label_smoothing: float = 0.0
    warmup_epochs: int = 1
    smoothing_after_warmup: float = 0.1


CFG = TrainConfig()
cfg = Data2VecTextConfig(vocab_size=160, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                         intermediate_size=64, max_position_embeddings=64, num_labels=9)
model = Data2VecTextForTokenClassification(cfg)
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)


@torch.compile(backend="aot_eager")
def train_step(input_ids, attention_mask, labels):
    logits = model(input_ids=input_ids, attention_mask=attention_mask).logits
    return F.cross_entropy(logits.flatten(0, 1), labels.flatten(), ignore_index=-100,
                           label_smoothing=CFG.label_smoothing)


def batch(n=8, seq=16):
    ids = torch.randint(5, 160, (n, seq))
    mask = torch.ones(n, seq, dtype=torch.long)
    labels = torch.randint(0, 9, (n, seq))
    labels[:, 0] = -100
    return ids, mask, labels


for epoch in range(3):
    if epoch >= CFG.warmup_epochs:
        CFG.label_smoothing = CFG.smoothing_after_warmup
    for _ in range(3):
        loss = train_step(*batch())
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} smoothing {CFG.label_smoothing} loss {loss.item():.3f}")
