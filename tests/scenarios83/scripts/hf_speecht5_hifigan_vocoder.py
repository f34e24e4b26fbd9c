import torch
from transformers import SpeechT5HifiGan, SpeechT5HifiGanConfig

torch.manual_seed(0)

config = SpeechT5HifiGanConfig(
    model_in_dim=20,
    sampling_rate=16000,
    upsample_initial_channel=32,
    upsample_rates=[4, 4],
    upsample_kernel_sizes=[8, 8],
    resblock_kernel_sizes=[3, 5],
    resblock_dilation_sizes=[[1, 3], [1, 3]],
    normalize_before=True,
)
vocoder = SpeechT5HifiGan(config).eval()
with torch.no_grad():
    vocoder.mean.normal_(0, 0.1)
    vocoder.scale.uniform_(0.5, 1.5)

synthesize = torch.compile(vocoder, backend="aot_eager")


class TTSServer:
    """Turns mel spectrograms from an acoustic model into waveforms."""

    def __init__(self, vocoder_fn, max_batch=4):
        self.vocoder_fn = vocoder_fn
        self.max_batch = max_batch
        self.queue = []

    @torch.no_grad()
    def handle(self, mel):
        return self.vocoder_fn(mel)

    @torch.no_grad()
    def flush(self):
        if not self.queue:
            return None
        mels = torch.stack(self.queue[: self.max_batch])
        self.queue = self.queue[self.max_batch:]
        return self.vocoder_fn(mels)


server = TTSServer(synthesize)
frames = 40
for request in range(3):
    mel = torch.randn(frames, config.model_in_dim)
    wav = server.handle(mel)
    print(f"request {request}: single mel {tuple(mel.shape)} -> wav {tuple(wav.shape)}")

for request in range(8):
    server.queue.append(torch.randn(frames, config.model_in_dim))
for flush in range(2):
    wav = server.flush()
    print(f"flush {flush}: batched wav {tuple(wav.shape)}")
