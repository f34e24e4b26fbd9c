"""Code-completion eval: greedy completions plus completion-only log-likelihood with Starcoder2."""
import torch
import torch.nn.functional as F
from transformers import Starcoder2Config, Starcoder2ForCausalLM

torch.manual_seed(0)

config = Starcoder2Config(
    vocab_size=320,
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=2,
    num_attention_heads=4,
    num_key_value_heads=2,
    max_position_embeddings=256,
    sliding_window=None,
)
model = Starcoder2ForCausalLM(config).eval()


def lm_logits(input_ids, keep):
    return model(input_ids=input_ids, use_cache=False, logits_to_keep=keep).logits


lm_logits = torch.compile(lm_logits, backend="aot_eager")


@torch.no_grad()
def complete(prompt, n_new):
    ids = prompt
    for _ in range(n_new):
        nxt = lm_logits(ids, 1)[:, -1].argmax(-1, keepdim=True)
        ids = torch.cat([ids, nxt], dim=1)
    return ids[:, prompt.shape[1] :]


@torch.no_grad()
def completion_logprob(prompt, completion):
    ids = torch.cat([prompt, completion], dim=1)
    n = completion.shape[1]
    # only the positions that predict the completion tokens are needed
    logits = lm_logits(ids, n + 1)[:, :-1]
    logp = F.log_softmax(logits.float(), dim=-1)
    return logp.gather(-1, completion[..., None]).squeeze(-1).sum(-1)


problems = [(24, 6), (24, 6), (24, 9), (24, 4)]
for i, (plen, clen) in enumerate(problems):
    prompt = torch.randint(0, config.vocab_size, (2, plen))
    reference = torch.randint(0, config.vocab_size, (2, clen))
    greedy = complete(prompt, 3)
    ref_score = completion_logprob(prompt, reference)
    print(f"problem {i}: greedy {greedy[0].tolist()} ref logp {ref_score.tolist()}")
