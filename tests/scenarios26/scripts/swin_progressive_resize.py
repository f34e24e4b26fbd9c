# Progressive resizing with a small Swin classifier from timm: train at a low
# resolution first, then move the model to the final resolution.
import timm
import torch
import torch.nn.functional as F

torch.manual_seed(0)

model = timm.create_model(
    "swin_tiny_patch4_window7_224",
    pretrained=False,
    num_classes=10,
    img_size=64,
    window_size=4,
    embed_dim=32,
    depths=(1, 1),
    num_heads=(2, 4),
)
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
step_fn_model = torch.compile(model, backend="aot_eager")


def batches(n, size):
    for _ in range(n):
        yield torch.randn(8, 3, size, size), torch.randint(0, 10, (8,))


def train_phase(size, n_steps):
    model.train()
    total = 0.0
    for x, y in batches(n_steps, size):
        loss = F.cross_entropy(step_fn_model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    return total / n_steps


schedule = [(64, 3), (96, 3)]
for size, n in schedule:
    if size != model.patch_embed.img_size[0]:
        # timm resizes the patch grid, relative position tables and masks
        model.set_input_size(img_size=(size, size), window_size=4)
    print(f"res {size}: loss {train_phase(size, n):.4f}")
