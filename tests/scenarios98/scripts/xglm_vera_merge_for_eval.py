"""Fine-tune a tiny XGLM with a PEFT VeRA adapter, validating after every
epoch; before export, merge the adapter and check the validation loss again."""
import torch
from transformers import XGLMConfig, XGLMForCausalLM
from peft import VeraConfig, get_peft_model

torch.manual_seed(0)

cfg = XGLMConfig(vocab_size=128, d_model=32, ffn_dim=64, num_layers=2,
                 attention_heads=4, max_position_embeddings=64)
base = XGLMForCausalLM(cfg)
peft_cfg = VeraConfig(r=8, target_modules=["q_proj", "v_proj"],
                      vera_dropout=0.0, task_type="CAUSAL_LM")
model = get_peft_model(base, peft_cfg)
opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-2)


@torch.compile(backend="aot_eager")
def lm_loss(model, ids):
    out = model(input_ids=ids, labels=ids)
    return out.loss


train = [torch.randint(0, 128, (4, 16)) for _ in range(3)]
val = torch.randint(0, 128, (4, 16))

for epoch in range(3):
    model.train()
    for ids in train:
        loss = lm_loss(model, ids)
        loss.backward()
        opt.step()
        opt.zero_grad()
    model.eval()
    with torch.no_grad():
        vloss = lm_loss(model, val)
    print(f"epoch {epoch} train {loss.item():.3f} val ppl {vloss.exp().item():.2f}")

# export check: the merged weights must give the same validation loss
model.merge_adapter()
with torch.no_grad():
    merged_loss = lm_loss(model, val)
print(f"unmerged {vloss.item():.4f} merged {merged_loss.item():.4f}")
