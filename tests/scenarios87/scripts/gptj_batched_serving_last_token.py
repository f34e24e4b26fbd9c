import torch
from transformers import GPTJConfig, GPTJForCausalLM

torch.manual_seed(0)

PAD = 0
cfg = GPTJConfig(vocab_size=128, n_embd=32, n_layer=2, n_head=4, rotary_dim=4, n_positions=64,
                 pad_token_id=PAD, bos_token_id=1, eos_token_id=2)
model = GPTJForCausalLM(cfg).eval()


@torch.compile(backend="aot_eager")
def last_token_logits(input_ids, attention_mask, lengths):
    logits = model(input_ids=input_ids, attention_mask=attention_mask, use_cache=False).logits
    return torch.stack([logits[i, n - 1] for i, n in enumerate(lengths)])


def collate(requests, pad_to=16):
    lengths = [len(r) for r in requests]
    ids = torch.full((len(requests), pad_to), PAD, dtype=torch.long)
    mask = torch.zeros((len(requests), pad_to), dtype=torch.long)
    for i, r in enumerate(requests):
        ids[i, :len(r)] = torch.tensor(r)
        mask[i, :len(r)] = 1
    return ids, mask, lengths


def make_request(n):
    return torch.randint(3, 128, (n,)).tolist()


# request queue drained in micro-batches as they arrive
queue = [[make_request(n) for n in sizes] for sizes in (
    [12, 7, 9, 16],
    [5, 11, 14, 8],
    [10, 10, 3],
    [6, 15, 9, 12],
    [13, 4],
)]
with torch.no_grad():
    for b, batch in enumerate(queue):
        ids, mask, lengths = collate(batch)
        next_ids = last_token_logits(ids, mask, lengths).argmax(-1)
        print(f"batch {b}: lengths {lengths} -> next tokens {next_ids.tolist()}")
