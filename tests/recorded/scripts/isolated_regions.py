# Regional compilation with isolate_recompiles=True: one function compiled
# by two torch.compile calls (an encoder and a decoder region), each keeping
# its own cache entries. The second region's first call compiles the frame
# again although no guard of the first region's entry failed: the log holds
# no recompile reason for it (tests/judge_mechanisms.rs).
import torch

torch.manual_seed(0)


def mlp_block(x, w1, w2):
    return torch.relu(x @ w1) @ w2


encoder_block = torch.compile(mlp_block, backend="eager", isolate_recompiles=True)
decoder_block = torch.compile(mlp_block, backend="eager", isolate_recompiles=True)

w = [torch.randn(32, 64) * 0.1, torch.randn(64, 32) * 0.1]
for step in range(3):
    x = torch.randn(8, 32)
    h = encoder_block(x, *w)
    y = decoder_block(h, *w)
    print(step, float(y.square().mean()))
