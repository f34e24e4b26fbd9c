"""Prefix tuning of a tiny GPT-2 language model with PEFT; after each epoch
the model is switched to eval() to compute validation perplexity."""

import math

import torch
from peft import PrefixTuningConfig, TaskType, get_peft_model
from transformers import GPT2Config, GPT2LMHeadModel


def main():
    torch.manual_seed(0)
    cfg = GPT2Config(vocab_size=128, n_positions=64, n_embd=32, n_layer=2, n_head=2)
    base = GPT2LMHeadModel(cfg)
    peft_cfg = PrefixTuningConfig(task_type=TaskType.CAUSAL_LM, num_virtual_tokens=4)
    model = get_peft_model(base, peft_cfg)
    model.print_trainable_parameters()

    def lm_loss(input_ids):
        out = model(input_ids=input_ids, labels=input_ids, use_cache=False)
        return out.loss

    loss_fn = torch.compile(lm_loss, backend="aot_eager")
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=5e-3)
    g = torch.Generator().manual_seed(2)
    train = torch.randint(0, 128, (32, 16), generator=g)
    val = torch.randint(0, 128, (8, 16), generator=g)

    for epoch in range(3):
        model.train()
        for i in range(0, 32, 8):
            loss = loss_fn(train[i:i + 8])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            vl = loss_fn(val)
        print(f"epoch {epoch}: train {loss.item():.3f} val ppl {math.exp(vl.item()):.1f}")


if __name__ == "__main__":
    main()
