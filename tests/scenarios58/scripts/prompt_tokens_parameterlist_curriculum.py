import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB, DIM, SEQ = 50, 16, 10


class PromptedEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.prompts = nn.ParameterList([nn.Parameter(torch.randn(1, DIM) * 0.02)])
        self.layer = nn.TransformerEncoderLayer(DIM, 2, 32, dropout=0.0, batch_first=True)
        self.out = nn.Linear(DIM, 3)

    def add_prompt(self):
        self.prompts.append(nn.Parameter(torch.randn(1, DIM) * 0.02))

    def forward(self, ids):
        tok = self.embed(ids)
        prompt = torch.cat(list(self.prompts), dim=0)
        prompt = prompt.unsqueeze(0).expand(ids.shape[0], -1, -1)
        h = self.layer(torch.cat([prompt, tok], dim=1))
        return self.out(h[:, : len(self.prompts)].mean(dim=1))


model = PromptedEncoder()
compiled = torch.compile(model, backend="aot_eager")

for stage in range(3):
    if stage > 0:
        model.add_prompt()
    # only train the prompt tokens and the head
    params = list(model.prompts.parameters()) + list(model.out.parameters())
    opt = torch.optim.AdamW(params, lr=5e-3)
    for step in range(3):
        ids = torch.randint(0, VOCAB, (8, SEQ))
        y = torch.randint(0, 3, (8,))
        loss = F.cross_entropy(compiled(ids), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"stage {stage}: {len(model.prompts)} prompt tokens, loss {loss.item():.4f}")
