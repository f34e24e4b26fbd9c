"""nn_module_attr: model.train() -> model.eval(), then a plain int attribute changes."""
import torch

torch.manual_seed(0)


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)
        self.drop = torch.nn.Dropout(0.1)
        self.num_repeats = 1

    def forward(self, x):
        for _ in range(self.num_repeats):
            x = self.drop(self.lin(x))
        return x


model = Model()
compiled = torch.compile(model, backend="aot_eager")
x = torch.randn(2, 4)
model.train()
compiled(x)              # 0/0: training == True
model.eval()
compiled(x)              # 0/1: training guard fails
model.num_repeats = 2
compiled(x)              # 0/2: num_repeats guard fails
