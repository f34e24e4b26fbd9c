import torch
import torch.nn as nn
from peft import OFTConfig, get_peft_model

torch.manual_seed(0)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj_in = nn.Linear(32, 64)
        self.act = nn.GELU()
        self.proj_out = nn.Linear(64, 32)
        self.cls = nn.Linear(32, 4)

    def forward(self, x):
        h = self.proj_out(self.act(self.proj_in(x)))
        return self.cls(h + x)


base = Encoder()
cfg_a = OFTConfig(r=0, oft_block_size=8, target_modules=["proj_in", "proj_out"])
cfg_b = OFTConfig(r=0, oft_block_size=8, target_modules=["proj_in", "proj_out"])
model = get_peft_model(base, cfg_a, adapter_name="legal")
model.add_adapter("medical", cfg_b)

# give the two adapters different weights so they are distinguishable
with torch.no_grad():
    for name, p in model.named_parameters():
        if "oft_" in name:
            p.add_(0.01 * torch.randn_like(p))
model.eval()

serve = torch.compile(model, backend="aot_eager")

requests = ["legal", "legal", "medical", "legal", "medical", "medical", "legal"]
with torch.no_grad():
    for i, tenant in enumerate(requests):
        model.set_adapter(tenant)
        x = torch.randn(3, 32)
        probs = serve(x).softmax(-1)
        print(i, tenant, probs.argmax(-1).tolist())
