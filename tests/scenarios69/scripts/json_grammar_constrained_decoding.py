"""Generate tiny JSON records from a char-level GRU LM, constrained by a hand-written grammar."""
import torch
import torch.nn as nn

torch.manual_seed(0)

VOCAB = list('{}":,0123456789abcdefghijklmnopqrstuvwxyz ') + ["<eos>"]
STOI = {c: i for i, c in enumerate(VOCAB)}
EOS = STOI["<eos>"]


class CharLM(nn.Module):
    def __init__(self, vocab=len(VOCAB), dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, tok, h=None):
        y, h = self.rnn(self.emb(tok), h)
        return self.out(y[:, -1]), h


def ids(chars):
    return tuple(STOI[c] for c in chars)


# grammar for {"key":digits}, a tiny state machine
LETTERS = "abcdefghijklmnopqrstuvwxyz"
DIGITS = "0123456789"
GRAMMAR = {
    "start": (ids("{"), "open"),
    "open": (ids('"'), "key"),
    "key": (ids(LETTERS + '"'), None),
    "colon": (ids(":"), "value"),
    "value": (ids(DIGITS), None),
    "value_more": (ids(DIGITS + "}"), None),
    "done": ((EOS,), "done"),
}


MAX_KEY = 4


def allowed_for(state, key_len):
    if state == "key" and key_len >= MAX_KEY:
        return ids('"')
    return GRAMMAR[state][0]


def advance(state, ch):
    if state == "key":
        return "colon" if ch == '"' else "key"
    if state in ("value", "value_more"):
        return "done" if ch == "}" else "value_more"
    return GRAMMAR[state][1]


def pick_token(logits, allowed, temperature):
    mask = torch.full_like(logits, float("-inf"))
    mask[:, list(allowed)] = 0.0
    probs = torch.softmax((logits + mask) / temperature, dim=-1)
    return torch.multinomial(probs, 1)


pick_token = torch.compile(pick_token, backend="aot_eager")

lm = CharLM().eval()
gen = torch.Generator().manual_seed(1)


@torch.no_grad()
def generate_record(max_len=16, temperature=0.8):
    state, text, key_len = "start", "", 0
    tok = torch.tensor([[EOS]])
    logits, h = lm(tok)
    for _ in range(max_len):
        allowed = allowed_for(state, key_len)
        nxt = pick_token(logits, allowed, temperature)
        ch = VOCAB[nxt.item()]
        if ch == "<eos>":
            break
        text += ch
        key_len = key_len + 1 if state == "key" else 0
        state = advance(state, ch)
        logits, h = lm(nxt, h)
    return text


for i in range(3):
    print(i, repr(generate_record()))
