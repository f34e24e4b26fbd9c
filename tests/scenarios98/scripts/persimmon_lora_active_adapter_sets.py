"""Serve a tiny Persimmon model with two LoRA adapters ("sql", "docs"); each
request asks for one adapter or for both stacked, activated on the LoRA model
before scoring the request through a compiled forward."""
import torch
from transformers import PersimmonConfig, PersimmonForCausalLM
from peft import LoraConfig, get_peft_model

torch.manual_seed(0)

cfg = PersimmonConfig(vocab_size=120, hidden_size=32, intermediate_size=64,
                      num_hidden_layers=2, num_attention_heads=4,
                      max_position_embeddings=64)
base = PersimmonForCausalLM(cfg)
lcfg = LoraConfig(r=4, lora_alpha=8, target_modules=["query_key_value", "dense"],
                  lora_dropout=0.0, init_lora_weights=False)
model = get_peft_model(base, lcfg, adapter_name="sql")
model.add_adapter("docs", LoraConfig(r=4, lora_alpha=8, target_modules=["query_key_value", "dense"],
                                     lora_dropout=0.0, init_lora_weights=False))
model.eval()


@torch.compile(backend="aot_eager")
def score(ids):
    logits = model(input_ids=ids).logits
    logp = torch.log_softmax(logits[:, :-1], dim=-1)
    return logp.gather(-1, ids[:, 1:, None]).squeeze(-1).sum(-1)


requests = [["sql"], ["sql"], ["docs"], ["sql", "docs"], ["docs"], ["sql", "docs"]]
for i, adapters in enumerate(requests):
    model.base_model.set_adapter(adapters)
    ids = torch.randint(0, 120, (3, 12))
    with torch.no_grad():
        s = score(ids)
    print(f"request {i} adapters={adapters} logprob={s.tolist()}")
