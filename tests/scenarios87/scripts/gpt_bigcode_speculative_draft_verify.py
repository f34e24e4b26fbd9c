import torch
from transformers import GPTBigCodeConfig, GPTBigCodeForCausalLM

torch.manual_seed(0)

VOCAB = 128


def build(n_embd, n_layer, n_head):
    cfg = GPTBigCodeConfig(vocab_size=VOCAB, n_embd=n_embd, n_layer=n_layer, n_head=n_head,
                           n_positions=128, multi_query=True)
    return GPTBigCodeForCausalLM(cfg).eval()


target = build(64, 3, 4)
draft = build(32, 1, 2)


@torch.compile(backend="aot_eager")
def next_token_logits(lm, ids):
    return lm(input_ids=ids, use_cache=False).logits


@torch.no_grad()
def speculative_complete(prompt, new_tokens, lookahead=3):
    ids = prompt
    accepted_total = 0
    while ids.shape[1] < prompt.shape[1] + new_tokens:
        proposal = ids
        for _ in range(lookahead):
            tok = next_token_logits(draft, proposal)[:, -1].argmax(-1, keepdim=True)
            proposal = torch.cat([proposal, tok], dim=1)
        logits = next_token_logits(target, proposal)
        verified = logits[:, ids.shape[1] - 1:-1].argmax(-1)
        drafted = proposal[:, ids.shape[1]:]
        n_ok = int((verified == drafted).long().cumprod(-1).sum())
        accepted_total += n_ok
        fix = verified[:, n_ok:n_ok + 1] if n_ok < lookahead else logits[:, -1:].argmax(-1)
        ids = torch.cat([ids, drafted[:, :n_ok], fix], dim=1)
    return ids, accepted_total


prompts = [torch.randint(0, VOCAB, (1, 8)), torch.randint(0, VOCAB, (1, 8))]
for i, p in enumerate(prompts):
    out, acc = speculative_complete(p, new_tokens=6)
    print(f"request {i}: {out.shape[1] - p.shape[1]} new tokens, {acc} drafted tokens accepted")
