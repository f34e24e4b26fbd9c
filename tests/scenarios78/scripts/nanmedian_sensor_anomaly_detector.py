import torch

torch.manual_seed(0)

N_SENSORS, WINDOW = 6, 32


class RobustDetector:
    """Median/MAD z-scores over a ring buffer of recent readings (NaN = missing)."""

    def __init__(self, n_sensors, window, warmup):
        self.buffer = torch.full((n_sensors, window), float("nan"))
        self.scale = torch.ones(n_sensors)
        self.warmup = warmup
        self.seen = 0
        self.calibrated = False
        self.history = []
        self.score = torch.compile(self._score, backend="aot_eager")

    def _score(self, buffer, reading):
        med = torch.nanmedian(buffer, dim=1).values
        mad = torch.nanmedian((buffer - med[:, None]).abs(), dim=1).values
        z = (reading - med) / (1.4826 * mad + 1e-3)
        z = z.masked_fill(reading != reading, 0.0)  # missing reading
        if self.calibrated:
            z = z / self.scale
        return z.abs()

    def update(self, reading):
        z = self.score(self.buffer, reading)
        self.buffer = torch.cat([self.buffer[:, 1:], reading[:, None]], dim=1)
        self.seen += 1
        if not self.calibrated:
            self.history.append(z)
            if self.seen == self.warmup:
                # per-sensor spread of the warm-up scores
                self.scale = torch.stack(self.history).std(dim=0).clamp_min(0.5)
                self.calibrated = True
        return z


def sensor_stream(steps):
    base = torch.linspace(0.0, 5.0, N_SENSORS)
    for t in range(steps):
        reading = base + 0.1 * torch.randn(N_SENSORS) + 0.01 * t
        if t % 7 == 3:
            reading[t % N_SENSORS] = float("nan")  # dropped packet
        if t in (45, 52):
            reading[2] += 4.0  # injected fault
        yield t, reading


detector = RobustDetector(N_SENSORS, WINDOW, warmup=40)
alarms = []
for t, reading in sensor_stream(60):
    z = detector.update(reading)
    if detector.calibrated and bool((z > 6.0).any()):
        alarms.append((t, int(z.argmax())))
print("alarms:", alarms)
