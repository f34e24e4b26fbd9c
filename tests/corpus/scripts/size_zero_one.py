import torch

torch.manual_seed(0)


@torch.compile(backend="aot_eager")
def box_loss(pred_boxes, gt_boxes):
    # per-image detection loss over a variable number of boxes
    diff = (pred_boxes - gt_boxes).abs()
    return diff.sum() / max(pred_boxes.shape[0], 1)


for image_idx, num_boxes in enumerate([5, 7, 1, 0, 3, 1, 0]):
    pred = torch.randn(num_boxes, 4)
    gt = torch.randn(num_boxes, 4)
    loss = box_loss(pred, gt)
    print(f"image {image_idx} boxes {num_boxes} loss {loss.item():.4f}")
