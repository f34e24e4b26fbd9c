import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ConvIN(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1)
        self.weight = nn.Parameter(torch.ones(cout))
        self.bias = nn.Parameter(torch.zeros(cout))
        self.register_buffer("running_mean", torch.zeros(cout))
        self.register_buffer("running_var", torch.ones(cout))

    def forward(self, x, use_input_stats, momentum):
        x = self.conv(x)
        x = F.instance_norm(
            x,
            running_mean=self.running_mean,
            running_var=self.running_var,
            weight=self.weight,
            bias=self.bias,
            use_input_stats=use_input_stats,
            momentum=momentum,
        )
        return F.relu(x)


class TransformerNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = ConvIN(3, 16)
        self.mid = ConvIN(16, 16)
        self.out = nn.Conv2d(16, 3, 3, padding=1)

    def forward(self, x, use_input_stats=True, momentum=0.1):
        h = self.enc(x, use_input_stats, momentum)
        h = self.mid(h, use_input_stats, momentum) + h
        return torch.sigmoid(self.out(h))


MODES = {
    "train": dict(use_input_stats=True, momentum=0.1),
    "finetune": dict(use_input_stats=True, momentum=0.01),
    "stylize": dict(use_input_stats=False, momentum=0.1),
}

net = TransformerNet()
stylizer = torch.compile(net, backend="aot_eager")
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
content = torch.rand(2, 3, 32, 32)
style_gram = torch.rand(16, 16)


def gram(feat):
    b, c, h, w = feat.shape
    f = feat.reshape(b, c, h * w)
    return f @ f.transpose(1, 2) / (c * h * w)


for mode in ["train", "train", "finetune", "finetune", "stylize", "train"]:
    cfg = MODES[mode]
    if mode == "stylize":
        with torch.no_grad():
            out = stylizer(content, **cfg)
        print(f"{mode}: mean pixel {out.mean().item():.4f}")
        continue
    out = stylizer(content, **cfg)
    feats = net.enc.conv(out)
    loss = F.mse_loss(out, content) + F.mse_loss(gram(feats), style_gram.expand(2, 16, 16))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"{mode}: loss {loss.item():.4f}")
