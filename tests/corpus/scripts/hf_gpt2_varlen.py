import torch
from transformers import GPT2Config, GPT2LMHeadModel

torch.manual_seed(0)

config = GPT2Config(n_layer=2, n_embd=64, n_head=2, vocab_size=128, n_positions=128)
model = GPT2LMHeadModel(config)
model.train()
opt = torch.optim.SGD(model.parameters(), lr=0.01)
compiled = torch.compile(model, backend="aot_eager")


def train(seq_lens):
    for step, seq_len in enumerate(seq_lens):
        input_ids = torch.randint(0, config.vocab_size, (4, seq_len))
        out = compiled(input_ids=input_ids, labels=input_ids)
        out.loss.backward()
        opt.step()
        opt.zero_grad()
        print(f"step {step} seq_len {seq_len} loss {out.loss.item():.3f}")


train([16, 16, 24, 32, 16, 40])
