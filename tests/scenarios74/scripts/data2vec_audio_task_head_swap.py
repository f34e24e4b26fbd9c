"""Fine-tune one Data2VecAudio encoder on a sequence of small audio tasks,
giving it a fresh classification head for each task.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import Data2VecAudioConfig, Data2VecAudioModel

torch.manual_seed(0)


class AudioClassifier(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        cfg = Data2VecAudioConfig(
            hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
            conv_dim=(32, 32), conv_stride=(5, 4), conv_kernel=(10, 4),
            num_conv_pos_embeddings=4, conv_pos_kernel_size=5, apply_spec_augment=False,
        )
        self.encoder = Data2VecAudioModel(cfg)
        self.head = nn.Linear(cfg.hidden_size, num_classes)

    def forward(self, wav):
        h = self.encoder(wav).last_hidden_state
        return self.head(h.mean(dim=1))


TASKS = [("keywords", 6), ("speaker_sex", 2), ("language", 4)]

net = AudioClassifier(TASKS[0][1])
model = torch.compile(net, backend="aot_eager")

for name, num_classes in TASKS:
    if net.head.out_features != num_classes:
        net.head = nn.Linear(net.head.in_features, num_classes)
    opt = torch.optim.AdamW(net.parameters(), lr=1e-3)
    net.train()
    for step in range(3):
        wav = torch.randn(4, 1600) * 0.1
        y = torch.randint(0, num_classes, (4,))
        loss = F.cross_entropy(model(wav), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"{name}: last loss {loss.item():.4f}")
