"""Zero-shot tagging service on top of a small SigLIP model.

Each request brings a couple of product photos and the list of tags the
shop wants scored for them. Tags are tokenized to a fixed length the way
SigLIP was trained, and the whole model is compiled once at start-up.
"""

import torch
from transformers import SiglipConfig, SiglipModel

torch.manual_seed(0)

config = SiglipConfig(
    text_config=dict(
        vocab_size=500,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=1,
        num_attention_heads=2,
        max_position_embeddings=16,
    ),
    vision_config=dict(
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=1,
        num_attention_heads=2,
        image_size=32,
        patch_size=8,
    ),
)
model = SiglipModel(config).eval()
model = torch.compile(model, backend="aot_eager")

TAG_LEN = 16


def tokenize(tags):
    # stand-in tokenizer: hash words into the vocab, pad to the fixed length
    ids = torch.zeros(len(tags), TAG_LEN, dtype=torch.long)
    for row, tag in enumerate(tags):
        toks = [hash(w) % 499 + 1 for w in tag.split()][:TAG_LEN]
        ids[row, : len(toks)] = torch.tensor(toks)
    return ids


requests = [
    ["red shoe", "blue shoe", "sandal"],
    ["red shoe", "blue shoe", "sandal"],
    ["wool hat", "cap", "beanie", "helmet", "visor"],
    ["mug", "glass"],
    ["sofa", "armchair", "stool", "bench", "ottoman", "recliner", "pouf"],
    ["lamp", "torch", "candle"],
]

with torch.no_grad():
    for i, tags in enumerate(requests):
        photos = torch.randn(2, 3, 32, 32)
        out = model(input_ids=tokenize(tags), pixel_values=photos)
        probs = torch.sigmoid(out.logits_per_image)
        best = [tags[j] for j in probs.argmax(dim=1).tolist()]
        print(f"request {i}: {len(tags)} tags -> {best}")
