"""Image retrieval: fine-tune a small ResNet's intermediate features with a
contrastive loss and rebuild the k-NN gallery after every epoch."""
import torch
import torch.nn.functional as F
from torchvision.models import resnet18
from torchvision.models.feature_extraction import create_feature_extractor

torch.manual_seed(0)

backbone = resnet18(weights=None)
extractor = create_feature_extractor(backbone, return_nodes={"layer3": "mid", "layer4": "top"})


def embed(images):
    feats = extractor(images)
    mid = F.adaptive_avg_pool2d(feats["mid"], 1).flatten(1)
    top = F.adaptive_avg_pool2d(feats["top"], 1).flatten(1)
    return F.normalize(torch.cat([mid, top], dim=1), dim=1)


embed_c = torch.compile(embed, backend="aot_eager")
opt = torch.optim.SGD(extractor.parameters(), lr=0.01, momentum=0.9)

gallery_images = torch.randn(16, 3, 32, 32)
gallery_labels = torch.arange(16) % 4


def info_nce(a, b, temperature=0.1):
    logits = a @ b.t() / temperature
    return F.cross_entropy(logits, torch.arange(a.shape[0]))


for epoch in range(2):
    extractor.train()
    for step in range(3):
        x = torch.randn(8, 3, 32, 32)
        view1 = x + 0.05 * torch.randn_like(x)
        view2 = torch.flip(x, dims=[3])
        loss = info_nce(embed_c(view1), embed_c(view2))
        opt.zero_grad()
        loss.backward()
        opt.step()

    # rebuild the gallery index
    extractor.eval()
    with torch.no_grad():
        index = embed_c(gallery_images)
        queries = embed_c(gallery_images + 0.1 * torch.randn_like(gallery_images))
        nn_idx = (queries @ index.t()).argmax(dim=1)
        recall = (gallery_labels[nn_idx] == gallery_labels).float().mean()
    print(f"epoch {epoch} loss {loss.item():.4f} recall@1 {recall.item():.3f}")
