import torch
from transformers import BertConfig, BertForSequenceClassification

torch.manual_seed(0)

config = BertConfig(
    vocab_size=500,
    hidden_size=32,
    num_hidden_layers=2,
    num_attention_heads=4,
    intermediate_size=64,
    max_position_embeddings=64,
    num_labels=3,
    attn_implementation="eager",
)
model = BertForSequenceClassification(config).eval()
compiled = torch.compile(model, backend="aot_eager")


def handle(request):
    ids = request["input_ids"]
    mask = torch.ones_like(ids)
    with torch.no_grad():
        if request.get("api") == "v1":
            # old clients get the tuple interface they were built against
            out = compiled(input_ids=ids, attention_mask=mask, return_dict=False)
            logits = out[0]
        else:
            out = compiled(input_ids=ids, attention_mask=mask)
            logits = out.logits
    return logits.softmax(-1)


requests = []
for i in range(8):
    api = "v1" if i in (3, 6) else "v2"
    requests.append({"input_ids": torch.randint(0, 500, (4, 16)), "api": api})

for i, req in enumerate(requests):
    probs = handle(req)
    print(i, req["api"], probs.argmax(-1).tolist())
