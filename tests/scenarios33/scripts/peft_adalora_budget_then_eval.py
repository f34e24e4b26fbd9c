"""Fine-tune a small text classifier with AdaLoRA, then evaluate it.

AdaLoRA starts every adapted layer at rank 8 and prunes singular values
towards a total budget of rank 4 after a warm-up, following the schedule in
the config; `update_and_allocate` is called after every optimiser step as
the PEFT docs describe. After training the model is evaluated on the dev
set.
"""

import torch
from peft import AdaLoraConfig, get_peft_model
from transformers import BertConfig, BertForSequenceClassification

torch.manual_seed(0)

config = BertConfig(
    vocab_size=300,
    hidden_size=64,
    num_hidden_layers=2,
    num_attention_heads=4,
    intermediate_size=128,
    num_labels=3,
)
base = BertForSequenceClassification(config)

total_steps = 24
peft_config = AdaLoraConfig(
    target_modules=["query", "value"],
    init_r=8,
    target_r=4,
    tinit=4,
    tfinal=6,
    deltaT=2,
    total_step=total_steps,
    lora_alpha=16,
)
model = get_peft_model(base, peft_config)
model.print_trainable_parameters()
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=2e-3)

model.train()
for step in range(total_steps):
    ids = torch.randint(1, 300, (8, 32))
    labels = torch.randint(0, 3, (8,))
    out = compiled(input_ids=ids, labels=labels)
    out.loss.backward()
    opt.step()
    model.base_model.update_and_allocate(step)
    opt.zero_grad()
    if step % 6 == 0:
        print(f"step {step} loss {out.loss.item():.4f}")

# dev evaluation
model.eval()
correct = 0
with torch.no_grad():
    for _ in range(3):
        ids = torch.randint(1, 300, (8, 32))
        labels = torch.randint(0, 3, (8,))
        logits = compiled(input_ids=ids).logits
        correct += (logits.argmax(-1) == labels).sum().item()
print("dev accuracy", correct / 24)
