"""Compile events of code nobody here wrote, captured in-process (no
TORCH_TRACE): a Hugging Face model's generate() and torch.optim with an LR
scheduler. These go through the Python trace-logger handler, which keeps
only part of each event (tests/corpus checks the same patterns on
TORCH_TRACE files from torch 2.15 and 2.11)."""

import os

import guardscope


def test_generate_names_prefill_decode_and_the_line_that_called_generate(torch):
    import transformers

    torch._dynamo.reset()
    torch.manual_seed(0)
    config = transformers.GPT2Config(n_layer=1, n_embd=32, n_head=2, vocab_size=64, n_positions=64)
    model = transformers.GPT2LMHeadModel(config).eval()
    model.forward = torch.compile(model.forward, backend="eager")
    ids = torch.randint(0, config.vocab_size, (1, 8))
    with guardscope.compile_events() as seen, torch.no_grad():
        model.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=4, do_sample=False, pad_token_id=0)  # generate-line
    first = seen.recompiles[0]
    cause = first["cause"]
    # Prefill (8 tokens) then decode (1 token): expected once, with the fix.
    assert cause["category"] == "kv_cache", cause
    assert cause["culprit"] == "argument input_ids", cause
    assert 'cache_implementation="static"' in cause["advice"]
    line = next(i for i, text in enumerate(open(__file__), 1) if text.rstrip().endswith("# generate-line"))
    assert cause["called_from"] == f"{os.path.abspath(__file__)}:{line}", cause
    # What changed beyond the one guard Dynamo reports.
    subjects = {c["subject"] for c in cause["changed"]}
    assert "kwargs['input_ids'].size()" in subjects, subjects
    # The frame is the library's wrapper; the event still names it.
    assert first["function"] == "wrapper"


def test_a_scheduler_changing_a_float_lr_is_one_cause_with_the_tensor_fix(torch):
    torch._dynamo.reset()
    torch.manual_seed(0)
    model = torch.nn.Linear(8, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)

    # aot_eager: with the plain eager backend torch 2.15 makes the float lr
    # dynamic after its first change (one recompile, then none).
    @torch.compile(backend="aot_eager")
    def opt_step():
        opt.step()  # step-line

    with guardscope.compile_events() as seen:
        for _ in range(4):
            model(torch.randn(4, 8)).sum().backward()
            opt_step()
            opt.zero_grad()
            sched.step()
    causes = [e["cause"] for e in seen.recompiles]
    categories = [c["category"] for c in causes]
    assert categories[0] == "optimizer_state", categories
    lr = [c for c in causes if c["category"] == "optimizer_hyperparam"]
    assert len(lr) >= 2, categories
    assert {c["culprit"] for c in lr} == {"optimizer param_groups[0]['lr']"}
    assert all("lr=torch.tensor(" in c["advice"] for c in lr)
    line = next(i for i, text in enumerate(open(__file__), 1) if text.rstrip().endswith("# step-line"))
    assert {c["called_from"] for c in lr} == {f"{os.path.abspath(__file__)}:{line}"}
