"""Streaming sensor classifier that runs a GRUCell one time step at a time.

Readings arrive one step at a time from several devices, so the user keeps
the recurrent state between calls. There is no state before the first
reading of a stream.
"""

import torch
from torch import nn

torch.manual_seed(0)


class StreamModel(nn.Module):
    def __init__(self, n_in=6, n_hidden=32, n_classes=3):
        super().__init__()
        self.cell = nn.GRUCell(n_in, n_hidden)
        self.out = nn.Linear(n_hidden, n_classes)

    def forward(self, reading, state=None):
        state = self.cell(reading, state)
        return self.out(state), state


model = StreamModel().eval()
step = torch.compile(model, backend="aot_eager")

n_devices = 4
stream = torch.randn(3, 12, n_devices, 6)  # 3 sessions of 12 readings each

with torch.no_grad():
    for session in range(stream.shape[0]):
        state = None
        for t in range(stream.shape[1]):
            logits, state = step(stream[session, t], state)
        pred = logits.argmax(dim=-1).tolist()
        print(f"session {session}: predictions {pred}")
        # the state norm is a cheap health check for exploding recurrences
        print(f"session {session}: state norm {state.norm(dim=-1).max().item():.3f}")

print("done:", stream.shape[0], "sessions,", n_devices, "devices")
