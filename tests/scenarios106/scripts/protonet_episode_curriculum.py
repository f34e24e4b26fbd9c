"""Prototypical network trained on few-shot episodes.

Episodes are sampled from a random "omniglot-like" pool of classes; the
episode sampler follows a curriculum from 5-way 1-shot to 5-way 5-shot and
then to 10-way 5-shot. The episode loss is a compiled function.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_CLASSES, PER_CLASS = 40, 20
class_means = torch.randn(N_CLASSES, 1, 1, 1, 1) * 0.5
pool = class_means + torch.randn(N_CLASSES, PER_CLASS, 1, 14, 14)


def conv_block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout),
                         nn.ReLU(), nn.MaxPool2d(2))


encoder = nn.Sequential(conv_block(1, 16), conv_block(16, 16), nn.Flatten())
opt = torch.optim.Adam(encoder.parameters(), lr=1e-3)


def sample_episode(n_way, k_shot, n_query=3):
    classes = torch.randperm(N_CLASSES)[:n_way]
    support, query = [], []
    for c in classes:
        idx = torch.randperm(PER_CLASS)[: k_shot + n_query]
        support.append(pool[c, idx[:k_shot]])
        query.append(pool[c, idx[k_shot:]])
    return torch.cat(support), torch.cat(query)


@torch.compile(backend="aot_eager")
def episode_loss(support, query, n_way, k_shot):
    emb_s = encoder(support)
    emb_q = encoder(query)
    protos = emb_s.view(n_way, k_shot, -1).mean(dim=1)
    logits = -torch.cdist(emb_q, protos).pow(2)
    n_query = emb_q.shape[0] // n_way
    target = torch.arange(n_way).repeat_interleave(n_query)
    loss = F.cross_entropy(logits, target)
    acc = (logits.argmax(-1) == target).float().mean()
    return loss, acc


curriculum = [(5, 1)] * 3 + [(5, 5)] * 3 + [(10, 5)] * 3
for ep, (n_way, k_shot) in enumerate(curriculum):
    support, query = sample_episode(n_way, k_shot)
    opt.zero_grad()
    loss, acc = episode_loss(support, query, n_way, k_shot)
    loss.backward()
    opt.step()
    print(f"episode {ep} {n_way}-way {k_shot}-shot loss {loss.item():.3f} acc {acc.item():.2f}")
