import torch
from transformers import Wav2Vec2ConformerConfig, Wav2Vec2ConformerForCTC

torch.manual_seed(0)

VOCAB = ["<pad>", "<s>", "</s>", "<unk>", "|"] + list("abcdefghijklmnop")

config = Wav2Vec2ConformerConfig(
    vocab_size=len(VOCAB),
    hidden_size=32,
    num_hidden_layers=2,
    num_attention_heads=2,
    intermediate_size=64,
    conv_dim=(16, 16, 16),
    conv_stride=(5, 2, 2),
    conv_kernel=(10, 3, 3),
    num_conv_pos_embeddings=16,
    num_conv_pos_embedding_groups=2,
    conv_depthwise_kernel_size=7,
    position_embeddings_type="rotary",
    do_stable_layer_norm=True,
    feat_extract_norm="layer",
    mask_time_prob=0.0,
    ctc_loss_reduction="mean",
    pad_token_id=0,
)
model = Wav2Vec2ConformerForCTC(config).eval()


def transcribe(input_values):
    logits = model(input_values).logits
    return logits.argmax(-1)


transcribe_c = torch.compile(transcribe, backend="aot_eager")


def decode(ids):
    out, prev = [], None
    for i in ids:
        if i != prev and i != config.pad_token_id:
            out.append(VOCAB[i])
        prev = i
    return "".join(out).replace("|", " ").strip()


# a small "dataset" of clips of a few durations (16 kHz)
durations = [0.25, 0.25, 0.5, 0.25, 0.75, 0.5]
with torch.no_grad():
    for n, seconds in enumerate(durations):
        samples = int(16000 * seconds)
        wave = torch.randn(1, samples) * 0.1
        wave = (wave - wave.mean()) / (wave.std() + 1e-7)
        ids = transcribe_c(wave)
        print(f"clip {n}: {samples} samples -> {ids.shape[1]} frames, '{decode(ids[0].tolist())[:20]}'")
