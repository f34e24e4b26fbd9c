"""Rerank candidate summaries with a small T5 by teacher-forced log-likelihood.

Some requests come from the annotation UI, which also wants the last
cross-attention map so it can highlight the source tokens.
"""
import torch
from transformers import T5Config, T5ForConditionalGeneration

torch.manual_seed(0)

config = T5Config(
    vocab_size=320,
    d_model=64,
    d_kv=16,
    d_ff=128,
    num_layers=2,
    num_decoder_layers=2,
    num_heads=4,
    relative_attention_num_buckets=8,
    relative_attention_max_distance=32,
    dropout_rate=0.0,
    decoder_start_token_id=0,
    pad_token_id=0,
    eos_token_id=1,
)
config._attn_implementation = "eager"
model = T5ForConditionalGeneration(config).eval()


def score_candidates(input_ids, attention_mask, decoder_input_ids, labels, output_attentions=False):
    out = model(
        input_ids=input_ids,
        attention_mask=attention_mask,
        decoder_input_ids=decoder_input_ids,
        output_attentions=output_attentions,
        use_cache=False,
    )
    logp = out.logits.log_softmax(-1).gather(-1, labels.unsqueeze(-1)).squeeze(-1)
    mask = (labels != config.pad_token_id).float()
    result = {"score": (logp * mask).sum(-1) / mask.sum(-1)}
    if output_attentions:
        result["cross_attention"] = out.cross_attentions[-1].mean(dim=1)
    return result


score = torch.compile(score_candidates, backend="aot_eager")


def make_request(n_candidates, src_len, summary_len):
    src = torch.randint(2, config.vocab_size, (1, src_len)).expand(n_candidates, -1)
    attention_mask = torch.ones_like(src)
    labels = torch.randint(2, config.vocab_size, (n_candidates, summary_len))
    labels[:, -1] = config.eos_token_id
    decoder_input_ids = model._shift_right(labels)
    return src, attention_mask, decoder_input_ids, labels


# (candidates, source length, summary length, from the annotation UI)
requests = [
    (4, 48, 10, False),
    (4, 48, 10, False),
    (4, 48, 14, False),
    (4, 48, 14, True),
    (4, 48, 10, False),
]

with torch.no_grad():
    for i, (n, src_len, summary_len, from_ui) in enumerate(requests):
        src, attention_mask, dec, labels = make_request(n, src_len, summary_len)
        if from_ui:
            out = score(src, attention_mask, dec, labels, output_attentions=True)
            heat = out["cross_attention"]
            print(f"request {i}: best={out['score'].argmax().item()} heat={tuple(heat.shape)}")
        else:
            out = score(src, attention_mask, dec, labels)
            print(f"request {i}: best={out['score'].argmax().item()} scores={out['score'].tolist()}")
