import torch
import torch.nn.functional as F
from peft import LoraConfig, get_peft_model
from transformers import BertConfig, BertForSequenceClassification

torch.manual_seed(0)

config = BertConfig(
    vocab_size=200, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
    intermediate_size=64, max_position_embeddings=64, num_labels=2,
)
base = BertForSequenceClassification(config)

sentiment_cfg = LoraConfig(r=4, lora_alpha=8, target_modules=["query", "value"], lora_dropout=0.0)
topic_cfg = LoraConfig(r=8, lora_alpha=8, target_modules=["query", "value"], lora_dropout=0.0)
model = get_peft_model(base, sentiment_cfg, adapter_name="sentiment")
model.add_adapter("topic", topic_cfg)


def train_step(input_ids, attention_mask, labels):
    out = model(input_ids=input_ids, attention_mask=attention_mask)
    loss = F.cross_entropy(out.logits, labels)
    loss.backward()
    return loss.detach()


step = torch.compile(train_step, backend="aot_eager")

# alternate tasks each round; each task trains its own adapter
for rnd in range(2):
    for task in ["sentiment", "topic"]:
        model.set_adapter(task)
        opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-3)
        for _ in range(2):
            ids = torch.randint(0, 200, (4, 16))
            mask = torch.ones(4, 16, dtype=torch.long)
            labels = torch.randint(0, 2, (4,))
            opt.zero_grad()
            loss = step(ids, mask, labels)
            opt.step()
        print(f"round {rnd} task={task} loss={loss.item():.4f}")
