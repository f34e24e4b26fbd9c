"""Blending two LoRA adapters of a small classifier into a third one.

Two LoRA adapters were trained for two customers; the user evaluates each
of them and then a weighted blend made with add_weighted_adapter, all on
the same compiled model.
"""

import torch
from peft import LoraConfig, get_peft_model
from torch import nn

torch.manual_seed(0)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(32, 64)
        self.hidden = nn.Linear(64, 64)
        self.head = nn.Linear(64, 5)

    def forward(self, x):
        h = torch.relu(self.proj(x))
        h = torch.relu(self.hidden(h))
        return self.head(h)


base = Classifier()
config = LoraConfig(r=4, lora_alpha=8, target_modules=["proj", "hidden"])
model = get_peft_model(base, config, adapter_name="customer_a")
model.add_adapter("customer_b", LoraConfig(r=4, lora_alpha=8, target_modules=["proj", "hidden"]))

# pretend both adapters were trained: give their B matrices some weight
with torch.no_grad():
    for name, p in model.named_parameters():
        if "lora_B" in name:
            p.normal_(std=0.02)

model.eval()
compiled = torch.compile(model, backend="aot_eager")

x = torch.randn(16, 32)
with torch.no_grad():
    for adapter in ["customer_a", "customer_b"]:
        model.set_adapter(adapter)
        for _ in range(2):
            out = compiled(x)
        print(f"{adapter}: mean logit {out.mean().item():.4f}")

    model.add_weighted_adapter(
        ["customer_a", "customer_b"], [0.7, 0.3],
        adapter_name="blend", combination_type="linear",
    )
    model.set_adapter("blend")
    for _ in range(2):
        out = compiled(x)
    print(f"blend: mean logit {out.mean().item():.4f}")
