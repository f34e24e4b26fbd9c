import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

ACTIVATIONS = {
    "relu": F.relu,
    "gelu": F.gelu,
    "silu": F.silu,
    "tanh": torch.tanh,
}


class MLP(nn.Module):
    def __init__(self, d_in=10, d_hidden=32, d_out=1):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.fc2 = nn.Linear(d_hidden, d_hidden)
        self.fc3 = nn.Linear(d_hidden, d_out)

    def forward(self, x, act_name):
        act = ACTIVATIONS[act_name]
        x = act(self.fc1(x))
        x = act(self.fc2(x))
        return self.fc3(x)


def make_data(n=128):
    x = torch.randn(n, 10)
    y = (x[:, :3].sum(dim=1, keepdim=True)).sin()
    return x, y


x_train, y_train = make_data()
x_val, y_val = make_data(64)

model = MLP()
init_state = {k: v.clone() for k, v in model.state_dict().items()}
forward = torch.compile(model, backend="aot_eager")

results = {}
for name in ["relu", "gelu", "silu", "tanh"]:
    model.load_state_dict(init_state)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(3):
        for i in range(0, 128, 32):
            pred = forward(x_train[i : i + 32], name)
            loss = F.mse_loss(pred, y_train[i : i + 32])
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        results[name] = F.mse_loss(model(x_val, name), y_val).item()
    print(f"{name}: val mse {results[name]:.4f}")

print("best:", min(results, key=results.get))
