import torch
from transformers import PegasusConfig, PegasusForConditionalGeneration
from transformers.trainer_pt_utils import LabelSmoother

torch.manual_seed(0)

cfg = PegasusConfig(vocab_size=100, d_model=32, encoder_layers=1, decoder_layers=1,
                    encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=64,
                    decoder_ffn_dim=64, max_position_embeddings=64, pad_token_id=0,
                    eos_token_id=1, decoder_start_token_id=0)
model = PegasusForConditionalGeneration(cfg)
opt = torch.optim.AdamW(model.parameters(), lr=5e-4)
smoother = LabelSmoother(epsilon=0.0)


@torch.compile(backend="aot_eager")
def train_step(input_ids, attention_mask, labels):
    out = model(input_ids=input_ids, attention_mask=attention_mask, labels=labels)
    loss = smoother(out, labels, shift_labels=False)
    loss.backward()
    return loss.detach()


def batch(g):
    src = torch.randint(2, 100, (4, 32), generator=g)
    tgt = torch.randint(2, 100, (4, 12), generator=g)
    tgt[:, -1] = 1
    return src, torch.ones_like(src), tgt


g = torch.Generator().manual_seed(6)
# label smoothing is switched on gradually after the first epoch
schedule = [0.0, 0.05, 0.1, 0.1]
for epoch, eps in enumerate(schedule):
    smoother.epsilon = eps
    for _ in range(3):
        loss = train_step(*batch(g))
        opt.step()
        opt.zero_grad()
    print(f"epoch {epoch} eps {eps} loss {loss.item():.4f}")
