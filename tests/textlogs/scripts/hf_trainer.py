# A Hugging Face Trainer job as people run one: torch_compile=True, tqdm's
# progress bar on stderr, a short last batch (36 rows in batches of 8), and
# a tiny random BERT whose config.problem_type is set by its first forward.
import torch
from transformers import BertConfig, BertForSequenceClassification, Trainer, TrainingArguments

ROWS, BATCH, SEQ = 36, 8, 16
torch.manual_seed(0)
config = BertConfig(
    vocab_size=100,
    hidden_size=32,
    num_hidden_layers=2,
    num_attention_heads=2,
    intermediate_size=64,
    max_position_embeddings=SEQ,
    num_labels=2,
)
model = BertForSequenceClassification(config)


class Rows:
    def __init__(self):
        gen = torch.Generator().manual_seed(0)
        self.ids = torch.randint(1, 100, (ROWS, SEQ), generator=gen)
        self.labels = torch.randint(0, 2, (ROWS,), generator=gen)

    def __len__(self):
        return ROWS

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "attention_mask": self.ids[i] > 0, "labels": self.labels[i]}


args = TrainingArguments(
    output_dir="out",
    per_device_train_batch_size=BATCH,
    num_train_epochs=2,
    logging_steps=2,
    report_to=[],
    use_cpu=True,
    torch_compile=True,
    torch_compile_backend="eager",
    save_strategy="no",
    seed=0,
    data_seed=0,
    remove_unused_columns=True,
)
Trainer(model=model, args=args, train_dataset=Rows()).train()
print("done")
