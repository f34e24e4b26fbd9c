"""Word-level NER on a RemBERT encoder: each word is labelled from its
first subword; the first-subword positions come from the tokenizer's
word_ids() as a Python list per batch."""
import random
import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import RemBertConfig, RemBertModel

torch.manual_seed(0)
random.seed(0)
NUM_LABELS, WORDS = 5, 6


class WordTagger(nn.Module):
    def __init__(self):
        super().__init__()
        cfg = RemBertConfig(vocab_size=180, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                            intermediate_size=64, max_position_embeddings=64,
                            input_embedding_size=16, output_embedding_size=16)
        self.encoder = RemBertModel(cfg)
        self.head = nn.Linear(32, NUM_LABELS)

    def forward(self, input_ids, first_subword, word_labels):
        h = self.encoder(input_ids=input_ids).last_hidden_state
        words = h[:, first_subword]
        logits = self.head(words)
        return F.cross_entropy(logits.flatten(0, 1), word_labels.flatten())


def fake_tokenize(n_words):
    """Split every word into 1-3 pieces, as a WordPiece tokenizer would,
    and return input ids plus word_ids() like a fast tokenizer."""
    word_ids = [None]
    for w in range(n_words):
        word_ids += [w] * random.randint(1, 3)
    word_ids.append(None)
    ids = torch.randint(5, 180, (len(word_ids),))
    return ids, word_ids


model = WordTagger()
step = torch.compile(model, backend="aot_eager")
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

for it in range(5):
    # one sentence template per batch: all sentences share the segmentation
    ids, word_ids = fake_tokenize(WORDS)
    input_ids = ids.repeat(4, 1)
    first_subword = [i for i, w in enumerate(word_ids) if w is not None and word_ids[i - 1] != w]
    labels = torch.randint(0, NUM_LABELS, (4, WORDS))
    loss = step(input_ids, first_subword, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {it} pieces {len(word_ids)} first {first_subword} loss {loss.item():.3f}")
