import torch
import torch.nn as nn
from torchvision.models.detection.anchor_utils import AnchorGenerator
from torchvision.models.detection._utils import BoxCoder
from torchvision.models.detection.image_list import ImageList
from torchvision.ops import box_area, nms

torch.manual_seed(0)

NUM_CLASSES = 3


class TinyRetinaHead(nn.Module):
    def __init__(self, num_anchors=3):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(32, 32, 3, stride=2, padding=1), nn.ReLU(),
        )
        self.cls = nn.Conv2d(32, num_anchors * NUM_CLASSES, 3, padding=1)
        self.reg = nn.Conv2d(32, num_anchors * 4, 3, padding=1)

    def forward(self, images):
        f = self.backbone(images)
        b = f.shape[0]
        cls = self.cls(f).permute(0, 2, 3, 1).reshape(b, -1, NUM_CLASSES)
        reg = self.reg(f).permute(0, 2, 3, 1).reshape(b, -1, 4)
        return [f], cls, reg


model = TinyRetinaHead().eval()
anchor_gen = AnchorGenerator(sizes=((16,),), aspect_ratios=((0.5, 1.0, 2.0),))
box_coder = BoxCoder(weights=(1.0, 1.0, 1.0, 1.0))


@torch.compile(backend="aot_eager")
def decode_detections(cls_logits, box_regression, anchors, image_size, score_thresh=0.3,
                      min_area=4.0, topk=50):
    scores = torch.sigmoid(cls_logits)
    boxes = box_coder.decode_single(box_regression, anchors)
    h, w = image_size
    boxes = torch.stack([boxes[:, 0].clamp(0, w), boxes[:, 1].clamp(0, h),
                         boxes[:, 2].clamp(0, w), boxes[:, 3].clamp(0, h)], dim=1)
    best, labels = scores.max(dim=1)
    keep_score = (best > score_thresh) & (box_area(boxes) > min_area)
    best = torch.where(keep_score, best, torch.zeros_like(best))
    k = min(topk, best.shape[0])
    top_scores, idx = best.topk(k)
    return boxes[idx], top_scores, labels[idx]


def detect(image):
    h, w = image.shape[-2:]
    with torch.no_grad():
        feats, cls, reg = model(image)
        anchors = anchor_gen(ImageList(image, [(h, w)]), feats)[0]
        boxes, scores, labels = decode_detections(cls[0], reg[0], anchors, (h, w))
    keep = scores > 0
    boxes, scores, labels = boxes[keep], scores[keep], labels[keep]
    keep = nms(boxes, scores, iou_threshold=0.5)
    return boxes[keep], scores[keep], labels[keep]


# camera feeds arrive at their native resolutions
requests = [(1, 3, 96, 128), (1, 3, 96, 128), (1, 3, 120, 160), (1, 3, 96, 128),
            (1, 3, 72, 96), (1, 3, 120, 160), (1, 3, 64, 64)]
for i, shape in enumerate(requests):
    image = torch.rand(*shape)
    boxes, scores, labels = detect(image)
    print(f"request {i} {shape[-2]}x{shape[-1]}: {boxes.shape[0]} detections")
