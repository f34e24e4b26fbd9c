import torch
from transformers import ConvNextConfig, UperNetConfig, UperNetForSemanticSegmentation

torch.manual_seed(0)

NUM_LABELS = 5

backbone_config = ConvNextConfig(
    num_channels=3,
    hidden_sizes=[8, 16, 24, 32],
    depths=[1, 1, 1, 1],
    out_features=["stage1", "stage2", "stage3", "stage4"],
)
config = UperNetConfig(
    backbone_config=backbone_config,
    hidden_size=16,
    pool_scales=[1, 2, 3],
    auxiliary_channels=8,
    auxiliary_in_channels=None,
    use_auxiliary_head=True,
    auxiliary_loss_weight=0.4,
    num_labels=NUM_LABELS,
    loss_ignore_index=255,
)
model = UperNetForSemanticSegmentation(config)
cmodel = torch.compile(model, backend="aot_eager")
opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.01)


def batch(bs=2, size=64):
    pixel_values = torch.randn(bs, 3, size, size)
    labels = torch.randint(0, NUM_LABELS, (bs, size, size))
    # unlabeled border, as in many segmentation datasets
    labels[:, :4] = 255
    return pixel_values, labels


# auxiliary supervision helps early on; fade it out towards the end of training
aux_schedule = [0.4, 0.4, 0.2, 0.1, 0.0]
for epoch, aux_w in enumerate(aux_schedule):
    model.config.auxiliary_loss_weight = aux_w
    model.train()
    for it in range(2):
        pixel_values, labels = batch()
        out = cmodel(pixel_values=pixel_values, labels=labels)
        opt.zero_grad()
        out.loss.backward()
        opt.step()
    print(f"epoch {epoch} aux weight {aux_w} loss {out.loss.item():.4f}")
