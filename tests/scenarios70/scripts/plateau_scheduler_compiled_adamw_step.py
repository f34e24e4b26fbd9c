import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.relu(self.conv2(x))
        return self.fc(x.mean((2, 3)))


def main():
    model = ConvNet()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=1e-2)
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=0)

    @torch.compile(backend="aot_eager")
    def opt_step():
        opt.step()

    train_x = torch.randn(64, 1, 12, 12)
    train_y = torch.randint(0, 10, (64,))
    val_x = torch.randn(32, 1, 12, 12)
    val_y = torch.randint(0, 10, (32,))

    for epoch in range(5):
        model.train()
        for i in range(0, 64, 16):
            opt.zero_grad()
            loss = F.cross_entropy(model(train_x[i:i + 16]), train_y[i:i + 16])
            loss.backward()
            opt_step()
        model.eval()
        with torch.no_grad():
            val_loss = F.cross_entropy(model(val_x), val_y).item()
        sched.step(val_loss)
        print(f"epoch {epoch} train {loss.item():.4f} val {val_loss:.4f} lr {opt.param_groups[0]['lr']:.5f}")


if __name__ == "__main__":
    main()
