"""Character-level language model trained with truncated backprop through time.

The corpus is one long stream of token ids. We cut it into chunks of
`bptt` steps, carry the LSTM state from one chunk to the next (detached so
the graph does not grow), and start every epoch from a fresh state.
"""

import torch
from torch import nn

torch.manual_seed(0)
# dynamo refuses nn.LSTM without this (the error message says to set it)
torch._dynamo.config.allow_rnn = True

VOCAB = 48
BPTT = 20


class CharLM(nn.Module):
    def __init__(self, vocab=VOCAB, emb=32, hidden=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, tokens, state=None):
        h, state = self.lstm(self.embed(tokens), state)
        return self.out(h), state


model = CharLM()
step_fn = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
loss_fn = nn.CrossEntropyLoss()

# 4 parallel streams, 127 tokens each -> 6 full chunks and a short tail
stream = torch.randint(0, VOCAB, (4, 127))

for epoch in range(2):
    state = None  # new epoch, new hidden state
    total = 0.0
    for start in range(0, stream.size(1) - 1, BPTT):
        end = min(start + BPTT, stream.size(1) - 1)
        inp = stream[:, start:end]
        tgt = stream[:, start + 1:end + 1]
        logits, state = step_fn(inp, state)
        loss = loss_fn(logits.reshape(-1, VOCAB), tgt.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        # keep the values, drop the history
        state = tuple(s.detach() for s in state)
        total += loss.item()
    print(f"epoch {epoch} loss {total:.3f}")
