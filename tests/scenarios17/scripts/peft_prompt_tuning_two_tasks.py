"""Multi-task prompt tuning on a frozen tiny Llama classifier.

Each task has its own soft prompt (the topic task got a longer one after
the last sweep); we alternate tasks batch by batch and switch the active
prompt with set_adapter.
"""

import torch
from peft import PromptTuningConfig, TaskType, get_peft_model
from transformers import LlamaConfig, LlamaForSequenceClassification

torch.manual_seed(0)

config = LlamaConfig(vocab_size=96, hidden_size=32, intermediate_size=64,
                     num_hidden_layers=1, num_attention_heads=4,
                     num_key_value_heads=2, num_labels=3, pad_token_id=0)
base = LlamaForSequenceClassification(config)

model = get_peft_model(base, PromptTuningConfig(task_type=TaskType.SEQ_CLS,
                                                num_virtual_tokens=4),
                       adapter_name="sentiment")
model.add_adapter("topic", PromptTuningConfig(task_type=TaskType.SEQ_CLS,
                                              num_virtual_tokens=10))
compiled = torch.compile(model, backend="aot_eager")

opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-2)

# one fixed batch per task, same shapes
batches = {
    "sentiment": (torch.randint(1, 96, (4, 12)), torch.randint(0, 3, (4,))),
    "topic": (torch.randint(1, 96, (4, 12)), torch.randint(0, 3, (4,))),
}

for step in range(6):
    task = "sentiment" if step % 2 == 0 else "topic"
    model.set_adapter(task)
    ids, labels = batches[task]
    out = compiled(input_ids=ids, attention_mask=torch.ones_like(ids), labels=labels)
    opt.zero_grad()
    out.loss.backward()
    opt.step()
    print(f"step {step} task {task:9s} loss {out.loss.item():.4f}")
