"""Keyword spotting with a tiny random HF WavLM: the convolutional feature
encoder is frozen for the warm-up steps (as in the usual fine-tuning recipe)
and then unfrozen for full fine-tuning."""
import torch
import torch.nn.functional as F
from transformers import WavLMConfig, WavLMForSequenceClassification

torch.manual_seed(0)

config = WavLMConfig(
    hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
    intermediate_size=64, conv_dim=(16, 16), conv_stride=(5, 4),
    conv_kernel=(10, 4), num_conv_pos_embeddings=8,
    num_conv_pos_embedding_groups=2, num_buckets=16, max_bucket_distance=40,
    classifier_proj_size=16, num_labels=4, mask_time_prob=0.0,
    layerdrop=0.0, hidden_dropout=0.0, attention_dropout=0.0,
    activation_dropout=0.0, feat_proj_dropout=0.0, final_dropout=0.0,
)
model = WavLMForSequenceClassification(config)
model.train()


@torch.compile(backend="aot_eager")
def kws_loss(wave, target):
    logits = model(input_values=wave).logits
    return F.cross_entropy(logits, target)


waves = torch.randn(24, 4000) * 0.1
labels = torch.randint(0, 4, (24,))
opt = torch.optim.AdamW(model.parameters(), lr=5e-4)

WARMUP = 3
model.freeze_feature_encoder()
for step in range(5):
    if step == WARMUP:
        for p in model.wavlm.feature_extractor.parameters():
            p.requires_grad_(True)
    idx = torch.randperm(24)[:4]
    loss = kws_loss(waves[idx], labels[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.3f}")
