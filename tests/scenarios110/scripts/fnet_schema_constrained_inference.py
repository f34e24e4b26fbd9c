"""FNet NER served for several clients; a client may restrict the output to
the entity types of its schema, in which case a label mask is sent along
and the logits of labels outside the schema are masked before argmax."""
import torch
from transformers import FNetConfig, FNetForTokenClassification

torch.manual_seed(0)
LABELS = ["O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC", "B-DATE", "I-DATE"]
cfg = FNetConfig(vocab_size=150, hidden_size=32, num_hidden_layers=1, intermediate_size=64,
                 max_position_embeddings=64, num_labels=len(LABELS))
model = FNetForTokenClassification(cfg).eval()


@torch.compile(backend="aot_eager")
def predict(input_ids, label_mask=None):
    logits = model(input_ids=input_ids).logits
    if label_mask is not None:
        logits = logits.masked_fill(~label_mask, float("-inf"))
    return logits.argmax(-1)


def schema_mask(types):
    return torch.tensor([lab == "O" or lab[2:] in types for lab in LABELS])


requests = [
    ("news-desk", None),
    ("travel-app", ("PER", "LOC")),
    ("news-desk", None),
    ("calendar-bot", ("DATE",)),
    ("travel-app", ("PER", "LOC")),
    ("archive", None),
]
with torch.inference_mode():
    for client, schema in requests:
        ids = torch.randint(5, 150, (4, 16))
        mask = schema_mask(schema) if schema else None
        pred = predict(ids, mask)
        used = sorted({LABELS[i] for i in pred.flatten().tolist()})
        print(f"{client:13s} schema {schema}: {used}")
