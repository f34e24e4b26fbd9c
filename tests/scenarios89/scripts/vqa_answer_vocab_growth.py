"""VQA with question-to-image cross-attention, trained question type by question type.

Stage 1 learns yes/no questions, stage 2 adds counting answers, stage 3 adds
colour answers. The answer classifier is enlarged when new answers arrive,
keeping the rows already learned.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB, Q_LEN, DIM = 120, 10, 48
STAGES = [["yes", "no"],
          ["0", "1", "2", "3", "4"],
          ["red", "green", "blue", "white"]]


class CrossAttnVQA(nn.Module):
    def __init__(self, n_answers):
        super().__init__()
        self.patch = nn.Conv2d(3, DIM, kernel_size=8, stride=8)
        self.tok = nn.Embedding(VOCAB, DIM)
        self.pos = nn.Parameter(torch.zeros(1, Q_LEN, DIM))
        self.q_self = nn.TransformerEncoderLayer(DIM, 4, 96, batch_first=True)
        self.cross = nn.MultiheadAttention(DIM, 4, batch_first=True)
        self.norm = nn.LayerNorm(DIM)
        self.head = nn.Linear(DIM, n_answers)

    def forward(self, images, questions):
        v = self.patch(images).flatten(2).transpose(1, 2)
        q = self.q_self(self.tok(questions) + self.pos)
        a, _ = self.cross(q, v, v)
        h = self.norm(q + a).mean(dim=1)
        return self.head(h)

    def grow_answers(self, n_new):
        old = self.head
        new = nn.Linear(DIM, old.out_features + n_new)
        with torch.no_grad():
            new.weight[: old.out_features] = old.weight
            new.bias[: old.out_features] = old.bias
        self.head = new


answers = []
model = None


@torch.compile(backend="aot_eager")
def vqa_loss(images, questions, targets):
    return F.cross_entropy(model(images, questions), targets)


for stage, new_answers in enumerate(STAGES):
    if model is None:
        model = CrossAttnVQA(len(new_answers))
    else:
        model.grow_answers(len(new_answers))
    answers += new_answers
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    lo = len(answers) - len(new_answers)
    for step in range(4):
        images = torch.randn(16, 3, 32, 32)
        questions = torch.randint(1, VOCAB, (16, Q_LEN))
        targets = torch.randint(lo, len(answers), (16,))
        loss = vqa_loss(images, questions, targets)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"stage {stage}: {len(answers)} answers, loss {loss.item():.3f}")
