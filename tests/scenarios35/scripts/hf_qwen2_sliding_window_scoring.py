"""Score candidate continuations with a small Qwen2 model that uses
sliding-window attention (tiny random config, no download)."""

import torch
from transformers import Qwen2Config, Qwen2ForCausalLM


def build_model():
    config = Qwen2Config(
        vocab_size=256,
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=256,
        use_sliding_window=True,
        sliding_window=16,
        max_window_layers=0,
        attn_implementation="eager",
    )
    torch.manual_seed(0)
    return Qwen2ForCausalLM(config).eval()


def make_scorer(model):
    def sequence_logprob(input_ids):
        out = model(input_ids=input_ids, use_cache=False)
        logp = torch.log_softmax(out.logits[:, :-1], dim=-1)
        picked = logp.gather(-1, input_ids[:, 1:].unsqueeze(-1)).squeeze(-1)
        return picked.sum(-1)

    return sequence_logprob


def main():
    model = build_model()
    score = torch.compile(make_scorer(model), backend="aot_eager")
    g = torch.Generator().manual_seed(1)

    # documents of increasing length arrive from the queue
    requests = [(4, 12), (4, 12), (4, 24), (4, 40), (2, 40)]
    with torch.no_grad():
        for batch, length in requests:
            ids = torch.randint(0, 256, (batch, length), generator=g)
            scores = score(ids)
            print(f"batch {batch} len {length}: best {scores.max().item():.2f}")


if __name__ == "__main__":
    main()
