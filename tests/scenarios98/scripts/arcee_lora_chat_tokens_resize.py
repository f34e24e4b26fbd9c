"""LoRA instruction tuning of a tiny Arcee model: a first stage on plain text,
then chat-role special tokens are added to the vocabulary
(`resize_token_embeddings`) for a second stage on chat-formatted samples."""
import torch
from transformers import ArceeConfig, ArceeForCausalLM
from peft import LoraConfig, get_peft_model

torch.manual_seed(0)

VOCAB = 120
cfg = ArceeConfig(vocab_size=VOCAB, hidden_size=32, intermediate_size=64,
                   num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                   max_position_embeddings=64, pad_token_id=0, bos_token_id=1, eos_token_id=2)
base = ArceeForCausalLM(cfg)
model = get_peft_model(base, LoraConfig(r=4, lora_alpha=8, lora_dropout=0.0,
                                        target_modules=["q_proj", "v_proj"]))
opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-2)


@torch.compile(backend="aot_eager")
def train_loss(ids):
    return model(input_ids=ids, labels=ids).loss


def train(stage, batches):
    model.train()
    for i, ids in enumerate(batches):
        loss = train_loss(ids)
        loss.backward()
        opt.step()
        opt.zero_grad()
        print(f"{stage} step {i}: loss {loss.item():.3f}")


# stage 1: plain text
train("text", [torch.randint(3, VOCAB, (4, 16)) for _ in range(3)])

# stage 2: chat format with new role tokens <|system|> <|user|> <|assistant|> <|end|>
ROLE = {name: VOCAB + i for i, name in enumerate(["system", "user", "assistant", "end"])}
model.resize_token_embeddings(VOCAB + len(ROLE))


def chat_sample():
    user = torch.randint(3, VOCAB, (6,))
    reply = torch.randint(3, VOCAB, (6,))
    return torch.cat([torch.tensor([ROLE["user"]]), user, torch.tensor([ROLE["assistant"]]),
                      reply, torch.tensor([ROLE["end"], 2])])


train("chat", [torch.stack([chat_sample() for _ in range(4)]) for _ in range(3)])
