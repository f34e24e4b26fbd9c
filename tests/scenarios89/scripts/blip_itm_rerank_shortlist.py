"""Two-stage image retrieval with a tiny BLIP retrieval model.

Stage one scores every gallery image against the text query with the
image-text contrastive (ITC) similarity; stage two re-ranks a shortlist with
the image-text matching (ITM) head. The shortlist size depends on the query.
"""
import torch
from transformers import BlipConfig, BlipForImageTextRetrieval

torch.manual_seed(0)

VOCAB = 300
cfg = BlipConfig(
    text_config=dict(vocab_size=VOCAB, hidden_size=32, intermediate_size=64,
                     num_hidden_layers=2, num_attention_heads=2,
                     max_position_embeddings=32, encoder_hidden_size=32),
    vision_config=dict(image_size=32, patch_size=8, hidden_size=32,
                       intermediate_size=64, num_hidden_layers=2,
                       num_attention_heads=2),
    projection_dim=16,
    image_text_hidden_size=16,
)
model = BlipForImageTextRetrieval(cfg).eval()
retriever = torch.compile(model, backend="aot_eager")

gallery = torch.randn(20, 3, 32, 32)

queries = [
    # (query token ids, shortlist size chosen by the caller)
    (torch.randint(3, VOCAB, (1, 10)), 4),
    (torch.randint(3, VOCAB, (1, 10)), 4),
    (torch.randint(3, VOCAB, (1, 10)), 6),
    (torch.randint(3, VOCAB, (1, 10)), 8),
]


@torch.no_grad()
def search(query_ids, shortlist):
    mask = torch.ones_like(query_ids)
    itc = retriever(input_ids=query_ids, attention_mask=mask,
                    pixel_values=gallery, use_itm_head=False)
    sims = itc.itm_score.squeeze(-1)
    cand = sims.topk(shortlist).indices
    ids = query_ids.expand(shortlist, -1)
    itm = retriever(input_ids=ids, attention_mask=mask.expand(shortlist, -1),
                    pixel_values=gallery[cand], use_itm_head=True)
    match = itm.itm_score.softmax(-1)[:, 1]
    order = match.argsort(descending=True)
    return cand[order].tolist(), match[order].tolist()


for qi, (qids, k) in enumerate(queries):
    ranked, scores = search(qids, k)
    print(f"query {qi}: top-{k} after re-ranking {ranked[:3]} ({scores[0]:.3f})")
