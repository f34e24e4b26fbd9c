"""shape_lazy_buffer: a module buffer that forward grows/reassigns lazily.

The buffer starts as torch.empty(0, d); the first forward fills it, so the
second call sees a buffer whose size changed -> size mismatch on the buffer.
"""
import torch

torch.manual_seed(0)


class PosEncoding(torch.nn.Module):
    def __init__(self, d):
        super().__init__()
        self.d = d
        self.register_buffer("pos_enc_cache", torch.empty(0, d), persistent=False)

    def forward(self, x):
        n = x.shape[0]
        if self.pos_enc_cache.shape[0] < n:
            self.pos_enc_cache = torch.arange(n * self.d, dtype=x.dtype).reshape(n, self.d) / 100.0
        return x + self.pos_enc_cache[:n]


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.pos_encoding = PosEncoding(4)
        self.proj = torch.nn.Linear(4, 4)

    def forward(self, x):
        return self.proj(self.pos_encoding(x))


model = Model()
compiled = torch.compile(model, backend="aot_eager")
x = torch.randn(8, 4)
with torch.no_grad():
    compiled(x)  # 0/0: buffer is empty(0, 4), forward grows it to (8, 4)
    compiled(x)  # 0/1: buffer size mismatch at index 0 (expected 0, actual 8)
