import torch
from transformers import BertConfig, BertModel, GPT2Config, GPT2LMHeadModel

torch.manual_seed(0)

gpt2_config = GPT2Config(n_layer=2, n_embd=64, n_head=2, vocab_size=128, n_positions=128)
bert_config = BertConfig(
    hidden_size=64,
    num_hidden_layers=2,
    num_attention_heads=2,
    intermediate_size=128,
    vocab_size=128,
    max_position_embeddings=64,
)
decoder = torch.compile(GPT2LMHeadModel(gpt2_config).eval(), backend="aot_eager")
encoder = torch.compile(BertModel(bert_config).eval(), backend="aot_eager")

with torch.no_grad():
    for seq_len in (16, 24, 32):
        doc_ids = torch.randint(0, 128, (2, seq_len))
        query_ids = torch.randint(0, 128, (2, seq_len // 2))
        doc_emb = encoder(input_ids=doc_ids).last_hidden_state.mean(dim=1)
        logits = decoder(input_ids=query_ids).logits
        print(f"seq_len {seq_len}: emb {tuple(doc_emb.shape)} logits {tuple(logits.shape)}")
