import torch
from transformers import CamembertConfig, CamembertForMultipleChoice

torch.manual_seed(0)

cfg = CamembertConfig(vocab_size=120, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                      intermediate_size=64, max_position_embeddings=64, pad_token_id=1,
                      type_vocab_size=2)
model = CamembertForMultipleChoice(cfg)
opt = torch.optim.AdamW(model.parameters(), lr=2e-4)


@torch.compile(backend="aot_eager")
def step(batch):
    out = model(**batch)
    out.loss.backward()
    return out.loss.detach()


def swag_like(g):
    # premise / ending pairs with segment ids
    ids = torch.randint(3, 120, (4, 4, 20), generator=g)
    return {"input_ids": ids, "attention_mask": torch.ones_like(ids),
            "token_type_ids": (torch.arange(20) >= 10).long().expand(4, 4, 20).clone(),
            "labels": torch.randint(0, 4, (4,), generator=g)}


def exam_like(g):
    # plain concatenated question + option, no segments
    ids = torch.randint(3, 120, (4, 4, 20), generator=g)
    return {"input_ids": ids, "attention_mask": torch.ones_like(ids),
            "labels": torch.randint(0, 4, (4,), generator=g)}


g = torch.Generator().manual_seed(5)
sources = [swag_like, swag_like, exam_like, swag_like, exam_like, exam_like, swag_like]
for i, src in enumerate(sources):
    loss = step(src(g))
    opt.step()
    opt.zero_grad()
    print(i, src.__name__, f"{loss.item():.4f}")
