import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

PRECISION_CONFIGS = {
    "fp32": {"softmax_dtype": torch.float32},
    "fp64_accum": {"softmax_dtype": torch.float64},
    "bf16_accum": {"softmax_dtype": torch.bfloat16},
}


class TinyAttention(nn.Module):
    def __init__(self, dim=32, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x, softmax_dtype):
        b, t, d = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q.view(b, t, self.heads, -1).transpose(1, 2)
        k = k.view(b, t, self.heads, -1).transpose(1, 2)
        v = v.view(b, t, self.heads, -1).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / (q.shape[-1] ** 0.5)
        attn = F.softmax(scores, dim=-1, dtype=softmax_dtype).to(x.dtype)
        y = (attn @ v).transpose(1, 2).reshape(b, t, d)
        return self.out(y)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(8, 32)
        self.attn = TinyAttention()
        self.head = nn.Linear(32, 5)

    def forward(self, x, softmax_dtype=torch.float32):
        h = self.embed(x)
        h = h + self.attn(h, softmax_dtype)
        return self.head(h.mean(dim=1))


def main():
    model = Classifier().eval()
    compiled = torch.compile(model, backend="aot_eager")
    data = torch.randn(48, 10, 8)
    labels = torch.randint(0, 5, (48,))
    reference = None
    # compare numerics of each precision config on the same checkpoint
    with torch.no_grad():
        for name, cfg in PRECISION_CONFIGS.items():
            correct, outs = 0, []
            for i in range(0, data.shape[0], 16):
                logits = compiled(data[i:i + 16], cfg["softmax_dtype"])
                correct += (logits.argmax(-1) == labels[i:i + 16]).sum().item()
                outs.append(logits)
            out = torch.cat(outs)
            if reference is None:
                reference = out
            drift = (out - reference).abs().max().item()
            print(f"{name}: acc={correct / data.shape[0]:.3f} max_drift={drift:.2e}")


if __name__ == "__main__":
    main()
