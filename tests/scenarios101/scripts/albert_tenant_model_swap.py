"""Multi-tenant text classification: two tiny ALBERT classifiers (one per
tenant, different label sets) share one compiled handler; requests are routed
to the tenant's model as they arrive."""
import torch
from transformers import AlbertConfig, AlbertForSequenceClassification

torch.manual_seed(0)


def build(num_labels):
    cfg = AlbertConfig(vocab_size=300, embedding_size=16, hidden_size=32,
                       num_hidden_layers=1, num_attention_heads=2,
                       intermediate_size=64, max_position_embeddings=64,
                       num_labels=num_labels)
    return AlbertForSequenceClassification(cfg).eval()


TENANTS = {"support": build(4), "billing": build(2)}


@torch.compile(backend="aot_eager")
def classify(model, input_ids, attention_mask):
    out = model(input_ids=input_ids, attention_mask=attention_mask)
    return out.logits.softmax(-1)


def route(tenant, texts_len):
    ids = torch.randint(5, 300, (len(texts_len), 24))
    mask = torch.zeros_like(ids)
    for i, n in enumerate(texts_len):
        mask[i, :n] = 1
    ids = ids * mask
    with torch.no_grad():
        probs = classify(TENANTS[tenant], ids, mask)
    return probs.argmax(-1).tolist()


traffic = [("support", [10, 20]), ("support", [24, 5]), ("billing", [12, 8]),
           ("support", [7, 9]), ("billing", [24, 24])]
for i, (tenant, lens) in enumerate(traffic):
    print(f"req {i} [{tenant}] ->", route(tenant, lens))
