import torch

torch.manual_seed(0)


@torch.compile(backend="aot_eager")
def distill_loss(student_logits, teacher_logits, temperature):
    s = torch.log_softmax(student_logits / temperature, dim=-1)
    t = torch.softmax(teacher_logits / temperature, dim=-1)
    return torch.nn.functional.kl_div(s, t, reduction="batchmean") * temperature**2


student = torch.randn(8, 10, requires_grad=True)
teacher = torch.randn(8, 10)
# the distillation temperature is annealed from 4.0 down every step
for step in range(6):
    temperature = 4.0 - 0.5 * step
    loss = distill_loss(student, teacher, temperature)
    loss.backward()
    print(f"step {step} T {temperature} loss {loss.item():.4f}")
