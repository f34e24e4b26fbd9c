import torch
import torch.nn.functional as F
from peft import LoraConfig, get_peft_model
from transformers import GPT2Config, GPT2LMHeadModel

torch.manual_seed(0)

BETA = 0.1
STEPS = 4
SEQ = 16
PROMPT = 6


def build_policy():
    config = GPT2Config(
        vocab_size=128, n_positions=64, n_embd=64, n_layer=2, n_head=4,
        resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0,
    )
    config._attn_implementation = "eager"
    base = GPT2LMHeadModel(config)
    lora = LoraConfig(r=4, lora_alpha=8, target_modules=["c_attn"], fan_in_fan_out=True, lora_dropout=0.0)
    return get_peft_model(base, lora)


def sequence_logps(model, ids):
    logits = model(input_ids=ids).logits[:, :-1]
    logp = torch.log_softmax(logits.float(), dim=-1)
    tok = torch.gather(logp, 2, ids[:, 1:].unsqueeze(-1)).squeeze(-1)
    return tok[:, PROMPT - 1:].sum(-1)


def main():
    policy = build_policy()
    policy.print_trainable_parameters()
    compiled = torch.compile(policy, backend="aot_eager")
    opt = torch.optim.AdamW([p for p in policy.parameters() if p.requires_grad], lr=1e-3)

    # preference pairs: same prompt, two completions
    prompts = torch.randint(0, 128, (STEPS + 1, 4, PROMPT))
    chosen = torch.cat([prompts, torch.randint(0, 64, (STEPS + 1, 4, SEQ - PROMPT))], -1)
    rejected = torch.cat([prompts, torch.randint(64, 128, (STEPS + 1, 4, SEQ - PROMPT))], -1)

    def reward_margin(batch):
        with torch.no_grad():
            with policy.disable_adapter():
                ref = sequence_logps(compiled, batch)
            pol = sequence_logps(compiled, batch)
        n = batch.shape[0] // 2
        return (BETA * ((pol[:n] - ref[:n]) - (pol[n:] - ref[n:]))).mean().item()

    held_out = torch.cat([chosen[STEPS], rejected[STEPS]], 0)
    for step in range(STEPS):
        batch = torch.cat([chosen[step], rejected[step]], 0)
        # reference model = base weights with the adapter switched off
        with torch.no_grad(), policy.disable_adapter():
            ref = sequence_logps(compiled, batch)
        pol = sequence_logps(compiled, batch)
        n = chosen.shape[1]
        margin = (pol[:n] - ref[:n]) - (pol[n:] - ref[n:])
        loss = -F.logsigmoid(BETA * margin).mean()
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        print(f"step {step} dpo_loss={loss.item():.4f} margin={margin.mean().item():.4f}")
        if step % 2 == 1:
            print(f"  held-out reward margin={reward_margin(held_out):.4f}")


if __name__ == "__main__":
    main()
