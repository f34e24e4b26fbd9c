"""Linear-probe evaluation of a frozen encoder: closed-form ridge regression
solved through one SVD, swept over several regularisation strengths."""
import torch
import torch.nn as nn

torch.manual_seed(0)

encoder = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 32)).eval()
for p in encoder.parameters():
    p.requires_grad_(False)

n_classes = 5
w_true = torch.randn(20, n_classes)
x_train = torch.randn(256, 20)
y_train = (x_train @ w_true).argmax(1)
x_val = torch.randn(128, 20)
y_val = (x_val @ w_true).argmax(1)


def features(x):
    with torch.no_grad():
        f = encoder(x)
    return f - f.mean(0, keepdim=True)


def fit_ridge(feats, targets, lam):
    u, s, vh = torch.linalg.svd(feats, full_matrices=False)
    shrink = s / (s * s + lam)
    return vh.T @ (shrink.unsqueeze(1) * (u.T @ targets))


def score(weights, feats, labels):
    return ((feats @ weights).argmax(1) == labels).float().mean()


fit = torch.compile(fit_ridge, backend="aot_eager")

f_tr, f_va = features(x_train), features(x_val)
onehot = torch.nn.functional.one_hot(y_train, n_classes).float()

results = {}
for lam in [1e-3, 1e-2, 1e-1, 1.0, 10.0]:
    w = fit(f_tr, onehot, lam)
    results[lam] = score(w, f_va, y_val).item()
    print(f"lambda={lam:g} val acc={results[lam]:.3f}")

best = max(results, key=results.get)
print("best lambda", best)
