import torch
import torch.nn as nn
from peft import LoraConfig, get_peft_model

torch.manual_seed(0)


class TextEncoderClassifier(nn.Module):
    def __init__(self, vocab=100, dim=32, num_labels=3):
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.fc1 = nn.Linear(dim, 64)
        self.fc2 = nn.Linear(64, dim)
        self.classifier = nn.Linear(dim, num_labels)

    def forward(self, ids):
        h = self.embed(ids)
        h = h + self.fc2(torch.relu(self.fc1(h)))
        return self.classifier(h)


base = TextEncoderClassifier()
sentiment_cfg = LoraConfig(r=4, lora_alpha=8, target_modules=["fc1", "fc2"], modules_to_save=["classifier"])
topic_cfg = LoraConfig(r=8, lora_alpha=16, target_modules=["fc1", "fc2"], modules_to_save=["classifier"])
model = get_peft_model(base, sentiment_cfg, adapter_name="sentiment")
model.add_adapter("topic", topic_cfg)

compiled = torch.compile(model, backend="aot_eager")
loss_fn = nn.CrossEntropyLoss()


def batches(seed, n=3):
    g = torch.Generator().manual_seed(seed)
    for _ in range(n):
        yield torch.randint(0, 100, (16, 12), generator=g), torch.randint(0, 3, (16,), generator=g)


optimizers = {}
for task in ["sentiment", "topic"]:
    model.set_adapter(task)
    optimizers[task] = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-3)

# alternate tasks every round, multi-task style
for rnd in range(3):
    for t_idx, task in enumerate(["sentiment", "topic"]):
        model.set_adapter(task)
        model.train()
        opt = optimizers[task]
        total = 0.0
        for ids, labels in batches(rnd * 10 + t_idx):
            logits = compiled(ids)
            loss = loss_fn(logits, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"round {rnd} task={task} loss={total / 3:.4f}")
