"""Transcribe a few utterances with a small Speech2Text model using a
greedy decoding loop written by hand (no generate()).
"""
import torch
from transformers import Speech2TextConfig, Speech2TextForConditionalGeneration

torch.manual_seed(0)

config = Speech2TextConfig(
    vocab_size=40, d_model=32, encoder_layers=2, decoder_layers=2,
    encoder_attention_heads=2, decoder_attention_heads=2,
    encoder_ffn_dim=64, decoder_ffn_dim=64, input_feat_per_channel=16,
    conv_channels=32, conv_kernel_sizes=(5, 5), max_source_positions=200,
    max_target_positions=40, pad_token_id=1, bos_token_id=0, eos_token_id=2,
    decoder_start_token_id=2,
)
model = Speech2TextForConditionalGeneration(config).eval()


@torch.compile(backend="aot_eager")
def next_token(input_features, attention_mask, decoder_input_ids):
    logits = model(input_features=input_features, attention_mask=attention_mask,
                   decoder_input_ids=decoder_input_ids, use_cache=False).logits
    return logits[:, -1].argmax(-1)


def transcribe(features, max_len=6):
    mask = torch.ones(features.shape[:2], dtype=torch.long)
    tokens = torch.full((features.shape[0], 1), config.decoder_start_token_id)
    for _ in range(max_len):
        nxt = next_token(features, mask, tokens)
        tokens = torch.cat([tokens, nxt[:, None]], dim=1)
        if bool((nxt == config.eos_token_id).all()):
            break
    return tokens[:, 1:]


with torch.no_grad():
    for utt in range(3):
        feats = torch.randn(2, 120, 16)
        print(f"utterance {utt}:", transcribe(feats).tolist())
