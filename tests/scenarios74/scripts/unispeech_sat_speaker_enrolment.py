"""Speaker enrolment with a small UniSpeechSat encoder: each speaker records
a few clips and their mean embedding becomes the speaker profile.
"""
import torch
import torch.nn.functional as F
from transformers import UniSpeechSatConfig, UniSpeechSatModel

torch.manual_seed(0)

config = UniSpeechSatConfig(
    hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
    conv_dim=(32, 32), conv_stride=(5, 4), conv_kernel=(10, 4),
    num_conv_pos_embeddings=16, num_conv_pos_embedding_groups=4,
    apply_spec_augment=False,
)
encoder = UniSpeechSatModel(config).eval()


@torch.compile(backend="aot_eager")
def enroll(clips):
    embs = []
    for clip in clips:
        h = encoder(clip).last_hidden_state.mean(dim=1)
        embs.append(F.normalize(h, dim=-1))
    return F.normalize(torch.stack(embs).mean(dim=0), dim=-1)


speakers = {"ana": 3, "bo": 2, "chen": 3, "dev": 1, "eli": 2}
profiles = {}
with torch.no_grad():
    for name, n_clips in speakers.items():
        clips = [torch.randn(1, 1600) * 0.1 for _ in range(n_clips)]
        profiles[name] = enroll(clips)
    probe = enroll([torch.randn(1, 1600) * 0.1])
    scores = {k: float((v * probe).sum()) for k, v in profiles.items()}
print(max(scores, key=scores.get), {k: round(s, 3) for k, s in scores.items()})
