# Calls of compiled modules in the shapes users write them: nested in
# another call, in a method chain, by keyword, with a slice, from a dict,
# over several lines. Each compiled module sees a new sequence length once,
# so each recompiles once, and guardscope's shape fix names what this
# script's line passes to the compiled call (tests/recorded_logs.rs).
import torch
import torch.nn.functional as F

torch.manual_seed(0)


class Embed(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(100, 64)

    def forward(self, x):
        return self.emb(x)


class Scaled(torch.nn.Module):
    def forward(self, x, scale):
        return x.float() * scale


class Shift(torch.nn.Module):
    def forward(self, x):
        return x.float() - 1


class Pair(torch.nn.Module):
    def forward(self, a, b):
        return a.sum() + b.float().sum()


class Multi(torch.nn.Module):
    def forward(self, x):
        return x + 1


class Mean(torch.nn.Module):
    def forward(self, x):
        return x.float().mean(-1)


class Spread(torch.nn.Module):
    def forward(self, input_ids):
        return input_ids * 2


embed_c = torch.compile(Embed(), backend="eager")
scaled_c = torch.compile(Scaled(), backend="eager")
shift_c = torch.compile(Shift(), backend="eager")
pair_c = torch.compile(Pair(), backend="eager")
multi_c = torch.compile(Multi(), backend="eager")
mean_c = torch.compile(Mean(), backend="eager")
spread_c = torch.compile(Spread(), backend="eager")


def summarize(t, k):
    return t.sum() * k


def train(lengths):
    weights = torch.ones(4)
    for seq_len in lengths:
        ids = torch.randint(0, 100, (2, seq_len))
        labels = torch.randint(0, 64, (2, seq_len))
        batch = {"ids": torch.randint(0, 100, (2, seq_len + 1))}
        inputs = {"input_ids": ids}
        loss = F.cross_entropy(embed_c(ids).reshape(-1, 64), labels.reshape(-1))
        out = scaled_c(x=ids, scale=2.0).sum()
        y = torch.relu(shift_c(batch["ids"][:, :-1]))
        p = pair_c(weights, ids)
        m = multi_c(
            ids
        )
        total = summarize(mean_c(ids), 3)
        s = spread_c(**inputs).sum()
        print(seq_len, loss.item(), out.item(), y.shape, p.item(), m.shape, total.item(), s.item())


train((8, 8, 12))
