import torch
import torch.nn as nn

torch.manual_seed(0)


class IntentClassifier(nn.Module):
    def __init__(self, vocab=500, dim=32, n_intents=6):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.mlp = nn.Sequential(nn.Linear(dim, 64), nn.GELU(), nn.Linear(64, n_intents))

    def forward(self, tokens):
        return self.mlp(self.emb(tokens))


def build_registry():
    base = IntentClassifier().eval()
    tuned = IntentClassifier().eval()
    tuned.load_state_dict(base.state_dict())
    with torch.no_grad():
        for p in tuned.mlp[-1].parameters():
            p.add_(0.01 * torch.randn_like(p))
    lite = IntentClassifier().eval()
    lite.load_state_dict(tuned.state_dict())
    lite = lite.half()
    return {"base": base, "tuned": tuned, "lite": lite}


REGISTRY = build_registry()


@torch.compile(backend="aot_eager")
def predict(model, tokens):
    logits = model(tokens).float()
    probs = logits.softmax(-1)
    conf, label = probs.max(-1)
    return label, conf


def handle(request):
    model = REGISTRY[request["model"]]
    with torch.no_grad():
        label, conf = predict(model, request["tokens"])
    return {"label": label.tolist(), "conf": [round(c, 3) for c in conf.tolist()]}


requests = []
for i in range(12):
    name = ["base", "tuned", "base", "lite"][i % 4]
    requests.append({"model": name, "tokens": torch.randint(0, 500, (4, 10))})

for i, req in enumerate(requests):
    out = handle(req)
    print(i, req["model"], out["label"])
