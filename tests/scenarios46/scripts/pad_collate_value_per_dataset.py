import torch
import torch.nn.functional as F

# pad ids / fill levels of the corpora in the mixture
DATASETS = {
    "wiki_tokens": {"pad_value": 0, "max_len": 32, "vocab": 1000},
    "code_tokens": {"pad_value": 3, "max_len": 32, "vocab": 1000},
    "sensor_levels": {"pad_value": -1, "max_len": 32, "vocab": 50},
}


def collate(rows, max_len, pad_value):
    out = []
    for r in rows:
        out.append(F.pad(r, (0, max_len - r.shape[0]), value=pad_value))
    batch = torch.stack(out)
    mask = batch != pad_value
    return batch, mask


compiled_collate = torch.compile(collate, backend="aot_eager")


def sample_rows(g, n, max_len, vocab, pad_value):
    rows = []
    for _ in range(n):
        r = torch.randint(0, vocab, (20,), generator=g)
        r = torch.where(r == pad_value, r + 1, r)
        rows.append(r)
    return rows


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    for epoch in range(2):
        for name, cfg in DATASETS.items():
            rows = sample_rows(g, 4, cfg["max_len"], cfg["vocab"], cfg["pad_value"])
            batch, mask = compiled_collate(rows, cfg["max_len"], cfg["pad_value"])
            print(epoch, name, tuple(batch.shape), int(mask.sum()))


if __name__ == "__main__":
    main()
