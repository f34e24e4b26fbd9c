"""Pre-training a tiny sparse mixture-of-experts language model.

Every fourth step the load-balancing loss is added so the router does not
collapse onto one expert; the other steps train on the LM loss only to save
the extra work.
"""

import torch
from transformers import MixtralConfig, MixtralForCausalLM

torch.manual_seed(0)

config = MixtralConfig(
    vocab_size=256,
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=1,
    num_attention_heads=4,
    num_key_value_heads=2,
    num_local_experts=4,
    num_experts_per_tok=2,
    max_position_embeddings=128,
    router_aux_loss_coef=0.02,
)
model = MixtralForCausalLM(config)
model.train()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)

BALANCE_EVERY = 4


def batches(n, bsz=4, seqlen=32):
    for _ in range(n):
        ids = torch.randint(0, config.vocab_size, (bsz, seqlen))
        yield ids


for step, input_ids in enumerate(batches(9)):
    balance = step % BALANCE_EVERY == 0
    out = compiled(
        input_ids=input_ids,
        labels=input_ids,
        output_router_logits=balance,
    )
    # with router logits requested, out.loss already includes the aux term
    out.loss.backward()
    opt.step()
    opt.zero_grad(set_to_none=True)
    aux = out.aux_loss.item() if balance else float("nan")
    print(f"step {step} loss {out.loss.item():.4f} aux {aux:.4f}")
