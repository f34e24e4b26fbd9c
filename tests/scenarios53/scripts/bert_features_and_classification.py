import torch
from transformers import BertConfig, BertForSequenceClassification

torch.manual_seed(0)


def main():
    config = BertConfig(
        vocab_size=200, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
        intermediate_size=64, max_position_embeddings=64, num_labels=3,
        attn_implementation="eager",
    )
    model = BertForSequenceClassification(config).eval()
    compiled = torch.compile(model, backend="aot_eager")

    def batch():
        ids = torch.randint(5, 200, (4, 16))
        return ids, torch.ones_like(ids)

    with torch.no_grad():
        # classification requests
        for i in range(2):
            ids, mask = batch()
            out = compiled(input_ids=ids, attention_mask=mask)
            print("cls", i, out.logits.argmax(-1).tolist())
        # feature extraction for the index: mean of the last four layers
        for i in range(2):
            ids, mask = batch()
            out = compiled(input_ids=ids, attention_mask=mask, output_hidden_states=True)
            feats = torch.stack(out.hidden_states[-4:]).mean(0).mean(1)
            print("feat", i, tuple(feats.shape))
        ids, mask = batch()
        out = compiled(input_ids=ids, attention_mask=mask, output_hidden_states=False)
        print("cls", 2, out.logits.argmax(-1).tolist())


if __name__ == "__main__":
    main()
