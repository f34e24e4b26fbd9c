import math

import torch

torch.manual_seed(0)


@torch.compile(backend="aot_eager")
def kde_log_density(queries, reference, bandwidth):
    d = queries.shape[1]
    diff = (queries.unsqueeze(1) - reference.unsqueeze(0)) / bandwidth
    log_k = -0.5 * (diff * diff).sum(-1) - d * torch.log(bandwidth) - 0.5 * d * math.log(2 * math.pi)
    return torch.logsumexp(log_k, dim=1) - math.log(reference.shape[0])


def sensor_batch(step, n=32):
    drift = 0.02 * step
    x = torch.randn(n, 3) * 0.5 + drift
    if step % 7 == 3:
        x[:2] += 4.0
    return x


def main():
    reference = sensor_batch(0, 64)
    bandwidth = torch.tensor(0.4)
    flagged = 0
    for step in range(1, 25):
        batch = sensor_batch(step)
        scores = -kde_log_density(batch, reference, bandwidth)
        threshold = scores.median() + 3.0 * scores.std()
        anomalies = scores > threshold
        flagged += int(anomalies.sum())
        # keep normal points in the reference window
        reference = torch.cat([reference, batch[~anomalies]])[-512:]
        if step % 6 == 0:
            print(f"step {step} ref={reference.shape[0]} flagged={flagged}")
    print("total flagged", flagged)


if __name__ == "__main__":
    main()
