"""Multi-tenant classifier: one base model, a LoRA adapter per customer."""
import torch
from peft import LoraConfig, get_peft_model
from transformers import BertConfig, BertForSequenceClassification

torch.manual_seed(0)

config = BertConfig(
    vocab_size=200, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
    intermediate_size=64, max_position_embeddings=64, num_labels=2,
)
base = BertForSequenceClassification(config)
lora = LoraConfig(r=4, lora_alpha=8, target_modules=["query", "value"], task_type="SEQ_CLS")
model = get_peft_model(base, lora, adapter_name="acme")
model.add_adapter("globex", LoraConfig(r=4, lora_alpha=8, target_modules=["query", "value"],
                                      task_type="SEQ_CLS"))
# Pretend both adapters were fine-tuned.
with torch.no_grad():
    for name, p in model.named_parameters():
        if "lora_B" in name:
            p.normal_(0, 0.05)
model.eval()

compiled = torch.compile(model, backend="aot_eager")

# Each batch mixes requests from several customers.
batches = [
    ["acme", "acme", "globex", "acme"],
    ["globex", "acme", "acme", "globex"],
    ["acme", "acme", "acme", "acme"],
    ["globex", "globex", "acme", "__base__"],
    ["acme", "globex", "globex", "acme"],
]

with torch.no_grad():
    for i, tenants in enumerate(batches):
        ids = torch.randint(1, config.vocab_size, (len(tenants), 12))
        mask = torch.ones_like(ids)
        logits = compiled(input_ids=ids, attention_mask=mask, adapter_names=tenants).logits
        print(f"batch {i}: {tenants} -> {logits.argmax(-1).tolist()}")
