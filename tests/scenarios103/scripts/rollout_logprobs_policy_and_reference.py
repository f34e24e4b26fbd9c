"""Online RL loop: sample rollouts from a tiny GPT-NeoX policy, then score them
with a shared compiled log-prob helper for both the policy and the frozen reference."""
import torch
from transformers import GPTNeoXConfig, GPTNeoXForCausalLM

torch.manual_seed(0)
cfg = GPTNeoXConfig(vocab_size=50, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                    intermediate_size=64, max_position_embeddings=64)
policy = GPTNeoXForCausalLM(cfg)
reference = GPTNeoXForCausalLM(cfg)
reference.load_state_dict(policy.state_dict())
reference.eval()
for p in reference.parameters():
    p.requires_grad = False


@torch.compile(backend="aot_eager")
def response_logprobs(model, query_response, response_len):
    logits = model(input_ids=query_response).logits
    logits = logits[:, -response_len - 1 : -1]
    labels = query_response[:, -response_len:]
    return torch.log_softmax(logits, -1).gather(-1, labels[..., None]).squeeze(-1)


@torch.no_grad()
def rollout(queries, max_new):
    ids = queries
    for _ in range(max_new):
        nxt = torch.multinomial(torch.softmax(policy(input_ids=ids).logits[:, -1], -1), 1)
        ids = torch.cat([ids, nxt], dim=1)
    return ids


opt = torch.optim.Adam(policy.parameters(), lr=1e-3)
for it in range(3):
    queries = torch.randint(0, 50, (4, 6))
    qr = rollout(queries, max_new=8)
    with torch.no_grad():
        ref_lp = response_logprobs(reference, qr, 8)
    lp = response_logprobs(policy, qr, 8)
    reward = (qr[:, -8:] % 2 == 0).float().sum(-1)
    kl = (lp - ref_lp).sum(-1)
    loss = -((reward - 0.1 * kl.detach()) * lp.sum(-1)).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"iter {it} reward {reward.mean().item():.2f} kl {kl.mean().item():.4f}")
