"""Shared pieces of the collision samples (collision.py, collision_fixed.py).

A small scale copy of the incident in shared/reference/incident-hooks-recompiles.txt:
a 2-layer decoder-only transformer, a metrics collector whose boolean flags are
flipped on at one step of a cadence, forward hooks that read those flags, and a
16-step SGD training loop on torch.compile(model, backend="aot_eager").

The two samples differ only in the two fixes from the incident:
- prematerialize_pos_enc: the positional-encoding buffer is filled to its full
  size in __init__ (fixed) instead of starting as torch.empty((0, d)) and being
  grown with torch.cat in forward (bug 1);
- hook_decorator: every hook body is wrapped in torch._dynamo.disable (fixed)
  instead of being traced by dynamo, which guards on the closure cells (bugs 2, 3).

This file starts with "_", so samples/generate.py does not run it on its own.
"""

import math
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

from _common import print_compile_summary, unique_graphs

D_MODEL = 64
N_HEADS = 4
N_LAYERS = 2
SEQ_LEN = 32
BATCH = 4
VOCAB = 128
STEPS = 16
# Steps are numbered 1..16 (1-based, like the incident's W&B step axis); the
# metric cadence fires (both capture flags on) at step 12 only.
COLLISION_STEP = 12


def sinusoid(start, stop, d_model):
    """Rows start..stop-1 of the classic sinusoidal positional encoding."""
    pos = torch.arange(start, stop, dtype=torch.float32).unsqueeze(1)
    div = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * (-math.log(10000.0) / d_model))
    table = torch.zeros(stop - start, d_model)
    table[:, 0::2] = torch.sin(pos * div)
    table[:, 1::2] = torch.cos(pos * div)
    return table


class LazyPositionalEncoding(nn.Module):
    """Bug 1: the cache starts empty and is grown (reassigned) in forward."""

    def __init__(self, d_model, max_seq_len):
        super().__init__()
        self.d_model = d_model
        self.register_buffer("pos_enc_cache", torch.empty((0, d_model)), persistent=False)

    def forward(self, x):
        seq_len = x.size(1)
        cached = self.pos_enc_cache.size(0)
        if cached < seq_len:
            extra = sinusoid(cached, seq_len, self.d_model)
            self.pos_enc_cache = torch.cat((self.pos_enc_cache, extra), dim=0)
        return x + self.pos_enc_cache[:seq_len]


class PositionalEncoding(nn.Module):
    """Fix 1: the cache is materialized at max size in __init__, never reassigned."""

    def __init__(self, d_model, max_seq_len):
        super().__init__()
        self.register_buffer("pos_enc_cache", sinusoid(0, max_seq_len, d_model), persistent=False)

    def forward(self, x):
        return x + self.pos_enc_cache[: x.size(1)]


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.qkv_proj = nn.Linear(d_model, 3 * d_model)  # packed q, k, v projection
        self.out_proj = nn.Linear(d_model, d_model)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv_proj(x).split(c, dim=2)
        q, k, v = (z.view(b, t, self.n_heads, c // self.n_heads).transpose(1, 2) for z in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.out_proj(y.transpose(1, 2).reshape(b, t, c))


class DecoderLayer(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.norm1 = nn.LayerNorm(d_model)
        self.multi_head_attention = MultiHeadAttention(d_model, n_heads)
        self.norm2 = nn.LayerNorm(d_model)
        self.feed_forward = nn.Sequential(
            nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model)
        )

    def forward(self, x):
        x = x + self.multi_head_attention(self.norm1(x))
        return x + self.feed_forward(self.norm2(x))


class TinyDecoder(nn.Module):
    def __init__(self, prematerialize_pos_enc):
        super().__init__()
        pe = PositionalEncoding if prematerialize_pos_enc else LazyPositionalEncoding
        self.token_embedding = nn.Embedding(VOCAB, D_MODEL)
        self.pos_encoding = pe(D_MODEL, SEQ_LEN)
        self.dec_layers = nn.ModuleList(DecoderLayer(D_MODEL, N_HEADS) for _ in range(N_LAYERS))
        self.final_norm = nn.LayerNorm(D_MODEL)
        self.lm_head = nn.Linear(D_MODEL, VOCAB)

    def forward(self, tokens):
        x = self.pos_encoding(self.token_embedding(tokens))
        for layer in self.dec_layers:
            x = layer(x)
        return self.lm_head(self.final_norm(x))


class MetricsCollector:
    """Holds the cadence flags the hooks read, and what the hooks record."""

    def __init__(self, n_heads):
        self.capture_activation_norms = False
        self.capture_attention_entropy = False
        self.activation_norms = []  # (label_tuple, norm tensor), drained every step
        self._attention_stash_by_layer = {}  # layer index -> input of multi_head_attention
        self.attention_layers = {}  # layer index -> (labels, MultiHeadAttention module)
        self.n_heads = n_heads

    def register_attention_layer(self, layer_idx, labels, attn):
        self.attention_layers[layer_idx] = (labels, attn)

    def set_cadence(self, on):
        self.capture_activation_norms = on
        self.capture_attention_entropy = on

    @torch.no_grad()
    def drain(self):
        """Eager, after the step: turn what the hooks stashed into numbers, then clear."""
        metrics = {}
        for labels, norm in self.activation_norms:
            metrics["/".join(labels) + "/act_norm"] = float(norm)
        for layer_idx, attn_input in self._attention_stash_by_layer.items():
            labels, attn = self.attention_layers[layer_idx]
            b, t, c = attn_input.shape
            q, k, _ = attn.qkv_proj(attn_input).split(c, dim=2)
            q = q.view(b, t, self.n_heads, -1).transpose(1, 2)
            k = k.view(b, t, self.n_heads, -1).transpose(1, 2)
            scores = (q @ k.transpose(-2, -1)) / math.sqrt(q.size(-1))
            causal = torch.ones(t, t, dtype=torch.bool).tril()
            probs = scores.masked_fill(~causal, float("-inf")).softmax(-1)
            entropy = -(probs * probs.clamp_min(1e-12).log()).sum(-1).mean()
            metrics["/".join(labels) + "/attn_entropy"] = float(entropy)
        self.activation_norms.clear()
        self._attention_stash_by_layer.clear()
        return metrics


def register_forward_metric_hooks(model, collector, hook_decorator=None):
    """Install the metric hooks on every decoder layer (before torch.compile).

    collision.py passes no decorator, so dynamo traces the hook bodies and
    guards on the closure cell `collector`; collision_fixed.py passes
    torch._dynamo.disable.
    """
    wrap = hook_decorator or (lambda fn: fn)
    handles = []
    for layer_idx, layer in enumerate(model.dec_layers):
        labels = ("dec_layers", str(layer_idx), "multi_head_attention")
        attn = layer.multi_head_attention
        collector.register_attention_layer(layer_idx, labels, attn)

        @wrap
        def activation_hook(_module, _inputs, output, label_tuple=labels):
            if not collector.capture_activation_norms:
                return
            collector.activation_norms.append((label_tuple, output.detach().norm()))

        @wrap
        def stash_attention_input_once(_module, inputs, _output, layer_idx=layer_idx):
            if not collector.capture_attention_entropy:
                return
            if layer_idx in collector._attention_stash_by_layer:
                return
            collector._attention_stash_by_layer[layer_idx] = inputs[0].detach()

        # Both hooks sit on multi_head_attention, activation_hook first: the
        # guard path then reads ..._modules['multi_head_attention']._forward_hooks[
        # list(dict.keys(...))[0]].__closure__[0].cell_contents..., as in the incident.
        # (Had the stash hook been on a submodule such as qkv_proj, it would run
        # first and dynamo would name the shared `collector` cell through that
        # submodule's hook, even in guards that come from activation_hook.)
        handles.append(attn.register_forward_hook(activation_hook))
        handles.append(attn.register_forward_hook(stash_attention_input_once))
    return handles


def train(model, collector, label, steps_log=None):
    """16 SGD steps on the compiled model; the cadence fires at COLLISION_STEP.

    With GUARDSCOPE_STEPS=PATH in the environment (samples/steps/generate.py
    sets it), a guardscope.StepLogger writes one record per step to PATH.
    With COLLISION_METRICS_RANK=R, only the process whose RANK is R turns
    the metrics on (the multi-rank sample: one rank recompiles alone).
    """
    import os  # here, not at the top: the logs quote this file's line numbers

    if steps_log is None and os.environ.get("GUARDSCOPE_STEPS"):
        import guardscope

        steps_log = guardscope.StepLogger(os.environ["GUARDSCOPE_STEPS"])
    metrics_rank = os.environ.get("COLLISION_METRICS_RANK")
    metrics_here = metrics_rank is None or metrics_rank == os.environ.get("RANK", "0")
    compiled = torch.compile(model, backend="aot_eager")
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    gen = torch.Generator().manual_seed(0)
    for step in range(1, STEPS + 1):
        if steps_log is not None:
            steps_log.begin(step)
        tokens = torch.randint(0, VOCAB, (BATCH, SEQ_LEN + 1), generator=gen)
        collector.set_cadence(metrics_here and step == COLLISION_STEP)
        graphs_before = unique_graphs()
        t0 = time.perf_counter()
        logits = compiled(tokens[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), tokens[:, 1:].reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        metrics = collector.drain()
        wall_ms = (time.perf_counter() - t0) * 1000
        if steps_log is not None:
            steps_log.end()
        new_graphs = unique_graphs() - graphs_before
        print(
            f"[{label}] step {step:2d}  {wall_ms:8.1f} ms  loss {loss.item():.4f}"
            f"  new graphs {new_graphs}  metrics {len(metrics)}"
            + ("  <- cadence step" if step == COLLISION_STEP else ""),
            flush=True,
        )
    if steps_log is not None:
        steps_log.close()
    print_compile_summary(label)
