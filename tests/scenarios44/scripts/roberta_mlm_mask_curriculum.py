import torch
from transformers import RobertaConfig, RobertaForMaskedLM

torch.manual_seed(0)

VOCAB = 120
PAD, MASK = 1, 4
SPECIAL = 5

config = RobertaConfig(
    vocab_size=VOCAB,
    hidden_size=32,
    num_hidden_layers=2,
    num_attention_heads=2,
    intermediate_size=64,
    max_position_embeddings=64,
    pad_token_id=PAD,
)
model = RobertaForMaskedLM(config)
model.train()
opt = torch.optim.AdamW(model.parameters(), lr=5e-4)


@torch.compile(backend="aot_eager")
def mask_tokens(input_ids, mask_prob):
    labels = input_ids.clone()
    probs = torch.full(input_ids.shape, mask_prob)
    probs = probs.masked_fill(input_ids < SPECIAL, 0.0)
    masked = torch.bernoulli(probs).bool()
    labels = labels.masked_fill(~masked, -100)
    replace = torch.bernoulli(torch.full(input_ids.shape, 0.8)).bool() & masked
    inputs = input_ids.masked_fill(replace, MASK)
    rand = torch.bernoulli(torch.full(input_ids.shape, 0.5)).bool() & masked & ~replace
    random_words = torch.randint(SPECIAL, VOCAB, input_ids.shape)
    inputs = torch.where(rand, random_words, inputs)
    return inputs, labels


def corpus(n_batches, batch=8, seq=24):
    for _ in range(n_batches):
        ids = torch.randint(SPECIAL, VOCAB, (batch, seq))
        ids[:, 0] = 0
        ids[:, -1] = 2
        yield ids


# masking curriculum: start easy, mask more as training goes on
schedule = {0: 0.10, 1: 0.15, 2: 0.15, 3: 0.20}
for epoch in range(4):
    mask_prob = schedule[epoch]
    total = 0.0
    for input_ids in corpus(3):
        inputs, labels = mask_tokens(input_ids, mask_prob)
        out = model(input_ids=inputs, labels=labels)
        out.loss.backward()
        opt.step()
        opt.zero_grad()
        total += out.loss.item()
    print(f"epoch {epoch} mask_prob={mask_prob} loss={total / 3:.4f}")
