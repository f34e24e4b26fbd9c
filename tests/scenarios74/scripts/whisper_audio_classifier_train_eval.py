"""Sound-event classification with a small Whisper encoder classifier,
trained on log-mel features with a validation pass after every epoch.
"""
import torch
import torch.nn.functional as F
from transformers import WhisperConfig, WhisperForAudioClassification

torch.manual_seed(0)

config = WhisperConfig(
    num_mel_bins=16, d_model=32, encoder_layers=2, encoder_attention_heads=2,
    encoder_ffn_dim=64, decoder_layers=1, decoder_attention_heads=2, decoder_ffn_dim=64,
    max_source_positions=50, vocab_size=50, num_labels=5, dropout=0.1,
)
model = WhisperForAudioClassification(config)
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)


def batch(n=4):
    return torch.randn(n, 16, 100), torch.randint(0, 5, (n,))


val = [batch() for _ in range(2)]

for epoch in range(2):
    model.train()
    for step in range(3):
        feats, y = batch()
        logits = compiled(input_features=feats).logits
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    correct = 0
    with torch.no_grad():
        for feats, y in val:
            correct += (compiled(input_features=feats).logits.argmax(-1) == y).sum().item()
    print(f"epoch {epoch}: train loss {loss.item():.3f} val acc {correct / 8:.2f}")
