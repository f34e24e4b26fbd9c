"""LoRA fine-tuning of a small MLP regressor with a dropout schedule.

The LoRA branches start with dropout 0.2 to regularise the first epochs;
after warm-up the user turns the LoRA dropout down to zero for the rest of
training, then evaluates.
"""

import torch
import torch.nn.functional as F
from peft import LoraConfig, get_peft_model
from torch import nn

torch.manual_seed(0)


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 64)
        self.fc2 = nn.Linear(64, 64)
        self.out = nn.Linear(64, 1)

    def forward(self, x):
        return self.out(F.silu(self.fc2(F.silu(self.fc1(x)))))


base = Regressor()
config = LoraConfig(r=8, lora_alpha=16, lora_dropout=0.2, target_modules=["fc1", "fc2"])
model = get_peft_model(base, config)
model.print_trainable_parameters()

opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=3e-3)
step_fn = torch.compile(model, backend="aot_eager")

X = torch.randn(256, 16)
Y = (X[:, :4].sum(1, keepdim=True)).tanh()

WARMUP_EPOCHS = 2
for epoch in range(5):
    if epoch == WARMUP_EPOCHS:
        # warm-up done: switch the LoRA dropout off
        for name, module in model.named_modules():
            if "lora_dropout" in name and isinstance(module, nn.Dropout):
                module.p = 0.0
    model.train()
    total = 0.0
    for i in range(0, 256, 64):
        pred = step_fn(X[i : i + 64])
        loss = F.mse_loss(pred, Y[i : i + 64])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} train mse {total / 4:.4f}")

model.eval()
with torch.no_grad():
    print("eval mse", F.mse_loss(step_fn(X), Y).item())
