"""Batch emotion recognition with a small HuBERT classifier.

Requests arrive as lists of raw 16 kHz clips; clips in a request are padded to
the longest one and an attention mask is sent along when padding was needed.
"""
import torch
from transformers import HubertConfig, HubertForSequenceClassification

torch.manual_seed(0)

EMOTIONS = ["neutral", "happy", "sad", "angry"]

config = HubertConfig(
    hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
    conv_dim=(32, 32), conv_stride=(5, 4), conv_kernel=(10, 4),
    num_conv_pos_embeddings=16, num_conv_pos_embedding_groups=4,
    feat_extract_norm="layer", apply_spec_augment=False,
    num_labels=len(EMOTIONS), use_weighted_layer_sum=False,
)
model = HubertForSequenceClassification(config).eval()


@torch.compile(backend="aot_eager")
def classify(input_values, attention_mask):
    logits = model(input_values=input_values, attention_mask=attention_mask).logits
    return logits.softmax(-1)


def collate(clips, length=1600):
    batch = torch.zeros(len(clips), length)
    mask = torch.zeros(len(clips), length, dtype=torch.long)
    for i, clip in enumerate(clips):
        batch[i, : clip.numel()] = clip
        mask[i, : clip.numel()] = 1
    if bool(mask.all()):
        return batch, None
    return batch, mask


requests = [
    [1600, 1200, 1400, 900],
    [1600, 1600, 1600, 1600],
    [1000, 1600, 1500, 1600],
    [1600, 1600, 1600, 1600],
    [1300, 1100, 1600, 1250],
]

with torch.no_grad():
    for r, lengths in enumerate(requests):
        clips = [torch.randn(n) * 0.1 for n in lengths]
        values, mask = collate(clips)
        probs = classify(values, mask)
        labels = [EMOTIONS[i] for i in probs.argmax(-1).tolist()]
        print(f"request {r}: {labels}")
