"""library_resize: a library's model rebuilds one of its own layers.

A tiny transformers BERT encoder (random weights, no download) is compiled
and called; then the user adds 8 tokens with the model's own
resize_token_embeddings(), which replaces the word-embedding parameter with
a larger one. The next call fails the guard on the parameter's size (0/1).
"""
import torch
from transformers import BertConfig, BertModel

torch.manual_seed(0)

config = BertConfig(
    vocab_size=96,
    hidden_size=32,
    num_hidden_layers=1,
    num_attention_heads=2,
    intermediate_size=64,
    max_position_embeddings=64,
)
model = BertModel(config).eval()
compiled = torch.compile(model, backend="aot_eager")
ids = torch.randint(0, 96, (2, 16))
with torch.no_grad():
    compiled(input_ids=ids)  # 0/0
    model.resize_token_embeddings(104)  # 8 tokens added
    compiled(input_ids=torch.randint(0, 104, (2, 16)))  # 0/1: weight size 96 -> 104
    compiled(input_ids=torch.randint(0, 104, (2, 16)))  # reuses 0/1
