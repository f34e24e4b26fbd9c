"""DPO on a tiny GPT-2 policy with a frozen reference; beta is warmed up per epoch."""
import torch
import torch.nn.functional as F
from transformers import GPT2Config, GPT2LMHeadModel

torch.manual_seed(0)
cfg = GPT2Config(vocab_size=64, n_positions=32, n_embd=32, n_layer=1, n_head=2)
policy = GPT2LMHeadModel(cfg)
reference = GPT2LMHeadModel(cfg)
reference.load_state_dict(policy.state_dict())
reference.eval().requires_grad_(False)


def seq_logps(model, ids, mask):
    logits = model(input_ids=ids).logits[:, :-1]
    lp = torch.log_softmax(logits, -1).gather(-1, ids[:, 1:, None]).squeeze(-1)
    return (lp * mask[:, 1:]).sum(-1)


@torch.compile(backend="aot_eager")
def dpo_loss(pc, pr, rc, rr, beta):
    logits = beta * ((pc - pr) - (rc - rr))
    loss = -F.logsigmoid(logits).mean()
    reward_acc = (logits > 0).float().mean()
    return loss, reward_acc


def make_batch(bs=4, length=16):
    chosen = torch.randint(0, 64, (bs, length))
    rejected = torch.randint(0, 64, (bs, length))
    mask = torch.ones(bs, length)
    return chosen, rejected, mask


opt = torch.optim.AdamW(policy.parameters(), lr=1e-3)
beta_schedule = [0.05, 0.1, 0.2]
for epoch, beta in enumerate(beta_schedule):
    for step in range(2):
        chosen, rejected, mask = make_batch()
        pc = seq_logps(policy, chosen, mask)
        pr = seq_logps(policy, rejected, mask)
        with torch.no_grad():
            rc = seq_logps(reference, chosen, mask)
            rr = seq_logps(reference, rejected, mask)
        loss, acc = dpo_loss(pc, pr, rc, rr, beta)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} beta {beta} loss {loss.item():.4f} acc {acc.item():.2f}")
