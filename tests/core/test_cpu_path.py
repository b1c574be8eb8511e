"""The engine's CPU path: fast dropout, lazy AdamW with built-in clipping, the bf16 copy
with fp32 master weights, and the malloc tuning - each against the plain PyTorch
behaviour it replaces."""

from __future__ import annotations

import json
import sys

import pytest
import torch
from torch import nn

from bertstudio.train import dropout as fast
from bertstudio.train.config import TrainConfig
from bertstudio.train.engine import train
from bertstudio.train.memory import keep_freed_memory, own_trainable_weights
from bertstudio.train.optim import ClippedLazyAdamW
from bertstudio.train.shadow import Bf16Shadow, sparse_embedding, word_embedding



from helpers import NEG, POS, sentiment

pytestmark = pytest.mark.usefixtures("one_thread")  # fixtures: tests/conftest.py


def tiny_model(tiny):
    from bertstudio.tasks.model import build_model

    torch.manual_seed(0)
    return build_model("sentence", tiny, labels=["neg", "pos"])


# --- dropout ---------------------------------------------------------------------------

def test_dropout_keeps_one_minus_p_and_follows_the_seed():
    ones = torch.ones(1000, 1000)
    torch.manual_seed(3)
    a = fast.dropout(ones, 0.1) != 0  # the keep mask
    assert a.shape == (1000, 1000)
    assert abs(a.float().mean().item() - 0.9) < 0.002  # 1M draws: sd 0.0003
    torch.manual_seed(3)
    assert torch.equal(a, fast.dropout(ones, 0.1) != 0)
    assert not torch.equal(a, fast.dropout(ones, 0.1) != 0)
    # every 16-bit lane of the 64-bit draws is used, none biased (e.g. a zero sign bit)
    lanes = a.reshape(-1, 4).float().mean(0)
    assert torch.all((lanes - 0.9).abs() < 0.004), lanes
    assert fast.dropout(torch.ones(7), 0.5).shape == (7,)  # sizes that are not a multiple of 4


def test_dropout_scales_kept_values_and_is_identity_in_eval():
    x = torch.ones(200_000)
    y = fast.dropout(x, 0.25)
    kept = y != 0
    assert torch.allclose(y[kept], torch.full_like(y[kept], 1 / 0.75))
    assert abs(kept.float().mean().item() - 0.75) < 0.005
    assert fast.dropout(x, 0.25, training=False) is x and fast.dropout(x, 0.0) is x
    module = fast.FastDropout(0.25)
    module.eval()
    assert module(x) is x
    g = torch.ones(10, requires_grad=True)
    out = fast.dropout(g, 0.5)
    out.sum().backward()
    assert torch.equal(g.grad, (out != 0).float() * 2)  # gradient flows through kept elements only


@pytest.mark.parametrize("mask", ["none", "bool", "float"])
def test_attention_with_dropout_switched_off_equals_sdpa(mask, monkeypatch):
    from transformers.integrations.sdpa_attention import sdpa_attention_forward

    torch.manual_seed(0)
    b, h, n, d = 3, 2, 5, 4
    q, k, v = (torch.randn(b, h, n, d) for _ in range(3))
    lengths = torch.tensor([5, 3, 1])
    keep = (torch.arange(n)[None, :] < lengths[:, None])[:, None, None, :].expand(b, 1, n, n)
    attn_mask = {"none": None, "bool": keep,
                 "float": torch.zeros(b, 1, n, n).masked_fill(~keep, torch.finfo(torch.float32).min)}[mask]
    module = nn.Module()
    module.is_causal = False  # an encoder's self-attention, as BERT's
    module.train()
    monkeypatch.setattr(fast, "_apply_dropout", lambda x, p: x)  # the math path without its masks
    ours, _ = fast.attention_forward(module, q, k, v, attn_mask, dropout=0.1, scaling=0.5)
    ref, _ = sdpa_attention_forward(module, q, k, v, attn_mask, dropout=0.0, scaling=0.5)
    assert ours.shape == ref.shape == (b, n, h, d)
    assert torch.allclose(ours, ref, atol=1e-5)


def test_attention_applies_dropout_to_the_probabilities():
    torch.manual_seed(0)
    q = torch.zeros(1, 1, 4, 8)  # uniform attention: every probability 1/4
    v = torch.eye(4).reshape(1, 1, 4, 4)
    module = nn.Module()
    module.is_causal = False
    module.train()
    out, _ = fast.attention_forward(module, q, torch.zeros(1, 1, 4, 8), v, None, dropout=0.5, scaling=1.0)
    values = set(out.flatten().tolist())
    assert values <= {0.0, 0.5}  # 1/4 kept and scaled by 2, or dropped
    assert values == {0.0, 0.5}


def test_use_fast_dropout_swaps_and_restores(tiny):
    model, tok = tiny_model(tiny)
    enc = tok(["the movie was good", "bad"], padding=True, return_tensors="pt")
    model.eval()
    with torch.no_grad():
        before = model(**enc).logits
    undo = fast.use_fast_dropout(model)
    kinds = {type(m) for m in model.modules() if isinstance(m, nn.Dropout)}
    assert kinds == {fast.FastDropout}
    assert model.config._attn_implementation == fast.ATTENTION_NAME
    with torch.no_grad():
        assert torch.equal(model(**enc).logits, before)  # evaluation: no dropout, SDPA as before
    model.train()
    out = model(**enc, labels=torch.tensor([1, 0]))
    out.loss.backward()
    assert torch.isfinite(out.loss)
    undo()
    assert {type(m) for m in model.modules() if isinstance(m, nn.Dropout)} == {nn.Dropout}
    assert all(m.training for m in model.modules() if isinstance(m, nn.Dropout))  # train() reached the swapped ones
    assert model.config._attn_implementation == "sdpa"


# --- optimizer -------------------------------------------------------------------------

def _grads(seed: int, shape) -> torch.Tensor:
    return torch.randn(shape, generator=torch.Generator().manual_seed(seed))


@pytest.mark.parametrize("clip", [0.0, 0.05])
def test_lazy_adamw_equals_clip_then_adamw_when_every_row_is_used(clip):
    torch.manual_seed(0)
    emb_a, emb_b = torch.randn(6, 3), None
    emb_b = emb_a.clone()
    dense_a = torch.randn(4, 3)
    dense_b = dense_a.clone()
    pa = [nn.Parameter(emb_a), nn.Parameter(dense_a)]
    pb = [nn.Parameter(emb_b), nn.Parameter(dense_b)]
    ours = ClippedLazyAdamW([{"params": pa, "weight_decay": 0.1}], max_grad_norm=clip, lr=0.01, fused=True)
    ref = torch.optim.AdamW([{"params": pb, "weight_decay": 0.1}], lr=0.01)
    for step in range(5):
        g_emb, g_dense = _grads(step, (6, 3)), _grads(100 + step, (4, 3))
        rows = torch.tensor([[5, 0, 3, 1, 4, 2, 0]])  # every row, one twice (coalesced)
        values = torch.cat([g_emb[[5, 0, 3, 1, 4, 2]], torch.zeros(1, 3)])
        pa[0].grad = torch.sparse_coo_tensor(rows, values, (6, 3))
        pa[1].grad = g_dense.clone()
        pb[0].grad, pb[1].grad = g_emb.clone(), g_dense.clone()
        if clip:
            norm = torch.nn.utils.clip_grad_norm_(pb, clip)
        ours.step()
        ref.step()
        if clip:
            assert ours.last_grad_norm.item() == pytest.approx(norm.item(), rel=1e-5)
    for a, b in zip(pa, pb):
        assert torch.allclose(a, b, atol=1e-6)


def test_lazy_adamw_steps_the_fused_kernel_directly_after_the_first_step(monkeypatch):
    """AdamW.step (per-parameter Python) runs once, to create the moments; later steps call
    the fused kernel directly, with the same result as AdamW (fused) on the same gradients."""
    torch.manual_seed(0)
    pa = [nn.Parameter(torch.randn(4, 3)), nn.Parameter(torch.randn(3))]
    pb = [nn.Parameter(p.detach().clone()) for p in pa]

    def groups(ps):
        return [{"params": ps[:1], "weight_decay": 0.1}, {"params": ps[1:], "weight_decay": 0.0}]

    ours = ClippedLazyAdamW(groups(pa), max_grad_norm=0.05, lr=0.01, fused=True)
    ref = torch.optim.AdamW(groups(pb), lr=0.01, fused=True)
    calls = []
    original = torch.optim.AdamW.step

    def counted(self, *args, **kwargs):
        calls.append(type(self))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(torch.optim.AdamW, "step", counted)
    for step in range(4):
        for a, b, seed in zip(pa, pb, (step, 50 + step)):
            a.grad = _grads(seed, tuple(a.shape))
            b.grad = a.grad.clone()
        torch.nn.utils.clip_grad_norm_(pb, 0.05)
        ours.step()
        ref.step()
    assert calls.count(ClippedLazyAdamW) == 1
    for a, b in zip(pa, pb):
        assert torch.allclose(a, b, atol=1e-6)
    assert ours.state[pa[0]]["step"].item() == 4


def test_lazy_adamw_leaves_rows_without_gradient_alone():
    weight = nn.Parameter(torch.randn(5, 2))
    start = weight.detach().clone()
    opt = ClippedLazyAdamW([{"params": [weight], "weight_decay": 0.5}], lr=0.1, fused=True)
    for _ in range(3):
        weight.grad = torch.sparse_coo_tensor(torch.tensor([[1, 3]]), torch.ones(2, 2), (5, 2))
        opt.step()
    moved = (weight.detach() != start).any(dim=1)
    assert moved.tolist() == [False, True, False, True, False]
    assert opt.state[weight]["step"].item() == 3


def test_lazy_adamw_state_round_trip_continues_exactly():
    def make():
        torch.manual_seed(0)
        w, d = nn.Parameter(torch.randn(8, 4)), nn.Parameter(torch.randn(3))
        return [w, d], ClippedLazyAdamW([{"params": [w, d], "weight_decay": 0.01}], max_grad_norm=1.0, lr=0.05, fused=True)

    def step(params, opt, i):
        rows = torch.tensor([[i % 8, (3 * i) % 8]])
        params[0].grad = torch.sparse_coo_tensor(rows, _grads(i, (2, 4)), (8, 4))
        params[1].grad = _grads(50 + i, (3,))
        opt.step()

    p1, o1 = make()
    for i in range(6):
        step(p1, o1, i)
    p2, o2 = make()
    for i in range(3):
        step(p2, o2, i)
    saved = o2.state_dict()
    p3, o3 = make()
    with torch.no_grad():
        for a, b in zip(p3, p2):
            a.copy_(b)
    o3.load_state_dict(saved)
    for i in range(3, 6):
        step(p3, o3, i)
    for a, b in zip(p1, p3):
        assert torch.equal(a, b)


# --- bf16 copy with fp32 master weights --------------------------------------------------

def test_bf16_shadow_trains_the_copy_and_updates_the_master(tiny):
    model, tok = tiny_model(tiny)
    emb = word_embedding(model)
    assert emb is model.bert.embeddings.word_embeddings
    undo = sparse_embedding(emb)
    from bertstudio.train.optim import make_optimizer

    opt = make_optimizer(model, lr=1e-2, weight_decay=0.01, device="cpu", clip_norm=1.0)
    shadow = Bf16Shadow(model)
    assert all(p.dtype == torch.bfloat16 for p in shadow.module.parameters())
    assert all(p.dtype == torch.float32 for p in model.parameters())
    enc = tok(["the movie was good", "bad and boring"], padding=True, return_tensors="pt")
    labels = torch.tensor([1, 0])
    start = {n: p.detach().clone() for n, p in model.named_parameters()}
    for micro in range(2):  # two micro-batches: gradients add up in fp32
        with torch.autocast("cpu", dtype=torch.bfloat16):
            loss = shadow.module(**enc, labels=labels).loss
        assert loss.dtype == torch.float32  # autocast keeps the loss in fp32
        loss.backward()
        shadow.collect()
    dense = model.classifier.weight.grad
    assert dense.dtype == torch.float32 and not dense.is_sparse
    assert model.bert.embeddings.word_embeddings.weight.grad.is_sparse
    opt.step()
    shadow.push()
    opt.zero_grad(set_to_none=True)
    # after push the copy holds the updated weights: what a fresh bf16 copy of the master holds
    # (the sparse embedding too: only the rows a lazy update moved needed copying)
    fresh = Bf16Shadow(model).module.state_dict()
    copied = shadow.module.state_dict()
    assert copied.keys() == fresh.keys()
    for name, value in copied.items():
        assert value.dtype == torch.bfloat16 and torch.equal(value, fresh[name]), name
    # query, key and value run as one stacked projection in the copy
    attention = shadow.module.bert.encoder.layer[0].attention.self
    assert attention.query.weight.shape == (3 * 32, 32)
    assert not any(name.startswith(("key.", "value.")) for name, _ in attention.named_parameters())
    assert not torch.equal(start["classifier.weight"], model.classifier.weight)
    used = set(enc["input_ids"].flatten().tolist())
    changed = (model.bert.embeddings.word_embeddings.weight != start["bert.embeddings.word_embeddings.weight"]).any(1)
    assert set(changed.nonzero().flatten().tolist()) <= used
    undo()
    assert not emb.sparse


def test_fused_projection_computes_what_the_three_linears_do(tiny):
    model, tok = tiny_model(tiny)
    plain, fused = Bf16Shadow(model, fuse_qkv=False), Bf16Shadow(model)
    enc = tok(["the movie was good", "bad"], padding=True, return_tensors="pt")
    outs, grads = [], []
    for shadow in (plain, fused):
        shadow.module.eval()
        with torch.no_grad():
            outs.append(shadow.module(**enc).logits)
        shadow.module.train()
        torch.manual_seed(5)
        shadow.module(**enc, labels=torch.tensor([1, 0])).loss.backward()
        shadow.collect()  # into the master's .grad, which both copies share
        grads.append({name: p.grad.clone() for name, p in model.named_parameters() if p.grad is not None})
        model.zero_grad(set_to_none=True)
    assert torch.equal(outs[0], outs[1])
    assert grads[0].keys() == grads[1].keys() and any(".query." in name for name in grads[0])
    for name, grad in grads[0].items():  # bf16 round-off apart (the key bias's gradient is ~0: softmax ignores it)
        assert (grad - grads[1][name]).norm() <= 0.02 * grad.norm() + 1e-6, name


def test_forward_hooks_on_the_model_see_the_copy(tiny):
    model, _ = tiny_model(tiny)
    seen = []
    model.register_forward_pre_hook(lambda module, args, kwargs: seen.append(kwargs["input_ids"].shape), with_kwargs=True)
    shadow = Bf16Shadow(model)
    shadow.module(input_ids=torch.ones(2, 3, dtype=torch.long))
    assert seen == [torch.Size([2, 3])]


# --- the engine --------------------------------------------------------------------------

def config(tiny, **kw):
    base = dict(model=tiny, epochs=6, batch_size=8, lr=3e-3, logging_steps=2, seed=1, max_length=32, device="cpu", precision="bf16")
    base.update(kw)
    return TrainConfig(**base)


@pytest.mark.parametrize("precision", ["bf16", "fp32"])
def test_bf16_runs_pad_rare_lengths_to_planned_widths(tiny, precision):
    """bf16 on CPU: a batch whose longest row is rare is padded up to a width other batches
    share (never past the multiple of 8 the collator pads to); fp32 trims to the longest."""
    import random

    from bertstudio.data.examples import from_records

    rng = random.Random(0)
    rows = [{"text": " ".join(["the movie was", rng.choice(POS if i % 2 else NEG)] + ["really"] * rng.randrange(6)),
             "label": "pos" if i % 2 else "neg"} for i in range(48)]
    data = from_records("sentence", rows, labels=["neg", "pos"])
    model, tokenizer = tiny_model(tiny)
    seen = []

    def record(module, args, kwargs):
        if module.training:
            mask = kwargs["attention_mask"]
            seen.append((mask.shape[1], int(mask.sum(dim=1).max())))

    from bertstudio.tasks import get_task
    from bertstudio.train.engine import RunParts, fit

    model.register_forward_pre_hook(record, with_kwargs=True)
    parts = RunParts(model=model, tokenizer=tokenizer, task=get_task("sentence"), labels=["neg", "pos"])
    result = fit(config(tiny, epochs=1, batch_size=4, precision=precision), parts, data, None)
    assert result.status == "finished" and len(seen) == 12
    assert all(longest <= width <= -(-longest // 8) * 8 for width, longest in seen)
    padded = [width > longest for width, longest in seen]
    assert any(padded) if precision == "bf16" else not any(padded)
    if precision == "bf16":
        assert len({w for w, _ in seen}) < len({n for _, n in seen})


def test_bf16_run_learns_and_returns_a_plain_fp32_model(tiny, tmp_path):
    events = []
    result = train(config(tiny, epochs=10, output_dir=str(tmp_path / "run")), sentiment(48), sentiment(16, seed=9),
                   callbacks=[lambda e, c: events.append(e)])
    assert result.status == "finished", result.message
    started = next(e for e in events if e.kind == "started")  # after the loading phases
    assert started.precision == "bf16" and started.device == "cpu"
    assert result.metrics["accuracy"] == 1.0
    losses = [e.loss for e in events if e.kind == "step"]
    assert losses[-1] < 0.5 * losses[0]
    assert all(e.grad_norm is not None and e.grad_norm > 0 for e in events if e.kind == "step")
    model = result.model
    assert all(p.dtype == torch.float32 for p in model.parameters())
    assert {type(m) for m in model.modules() if isinstance(m, nn.Dropout)} == {nn.Dropout}
    assert model.config._attn_implementation == "sdpa"
    assert not model.bert.embeddings.word_embeddings.sparse
    saved = json.loads((tmp_path / "run" / "model" / "config.json").read_text(encoding="utf-8"))
    assert fast.ATTENTION_NAME not in json.dumps(saved)
    assert saved.get("torch_dtype", saved.get("dtype", "float32")) == "float32"


@pytest.mark.parametrize("precision, bf16_weights", [("fp32", False), ("bf16", True), ("bf16", False)])
def test_sparse_embeddings_move_only_the_rows_in_use(tiny, precision, bf16_weights):
    data = sentiment(16)

    def run(sparse):
        model, tok = tiny_model(tiny)
        start = model.bert.embeddings.word_embeddings.weight.detach().clone()
        from bertstudio.tasks import get_task
        from bertstudio.train.engine import RunParts, fit

        cfg = config(tiny, epochs=1, precision=precision, bf16_weights=bf16_weights, sparse_embeddings=sparse)
        r = fit(cfg, RunParts(model, tok, get_task("sentence"), ["neg", "pos"]), data)
        assert r.status == "finished", r.message
        moved = (r.model.bert.embeddings.word_embeddings.weight != start).any(1)
        return set(moved.nonzero().flatten().tolist()), tok

    lazy, tok = run(True)
    dense, _ = run(False)
    used = set(tok(" ".join(["the movie was and"] + POS + NEG))["input_ids"])
    assert len(dense) > 0.9 * len(tok)  # dense AdamW decays every row
    assert 0 < len(lazy) <= len(used)  # only the word pieces of the data set
    assert lazy <= used


def test_keep_freed_memory_can_be_undone():
    undo = keep_freed_memory()
    blocks = [torch.empty(1 << 20) for _ in range(8)]
    del blocks
    undo()
    undo()  # twice is harmless


def _file_mapped(ptr: int) -> bool:
    for line in open("/proc/self/maps", encoding="utf-8"):
        fields = line.split()
        lo, hi = (int(x, 16) for x in fields[0].split("-"))
        if lo <= ptr < hi:
            return len(fields) > 5 and fields[5].endswith(".safetensors")
    return False


def test_own_trainable_weights_copies_them_out_of_the_checkpoint_map(tiny):
    """Trainable weights get memory of their own (same values, same Parameter objects);
    frozen ones stay where they are."""
    model, _ = tiny_model(tiny)
    frozen = model.bert.embeddings.position_embeddings.weight
    frozen.requires_grad_(False)
    before = {name: (p, p.data_ptr(), p.detach().clone()) for name, p in model.named_parameters()}
    copied = own_trainable_weights(model)
    assert copied == sum(p.numel() for p in model.parameters() if p.requires_grad)
    for name, p in model.named_parameters():
        param, ptr, values = before[name]
        assert p is param and torch.equal(p, values)
        assert (p.data_ptr() == ptr) == (p is frozen)
        if sys.platform.startswith("linux") and p is not frozen:
            assert not _file_mapped(p.data_ptr())
    if sys.platform.startswith("linux"):  # the point of it: transformers maps safetensors files
        assert _file_mapped(frozen.data_ptr()) or not any(_file_mapped(ptr) for _, ptr, _ in before.values())


def test_causal_attention_is_left_to_sdpa():
    torch.manual_seed(0)
    q, k, v = (torch.randn(1, 1, 4, 2) for _ in range(3))
    module = nn.Module()  # no is_causal attribute: transformers treats it as causal
    module.train()
    torch.manual_seed(1)
    ours, _ = fast.attention_forward(module, q, k, v, None, dropout=0.1)
    from transformers.integrations.sdpa_attention import sdpa_attention_forward

    torch.manual_seed(1)
    ref, _ = sdpa_attention_forward(module, q, k, v, None, dropout=0.1)
    assert torch.equal(ours, ref)


@pytest.mark.parametrize("mode", ["frozen", "top-1", "lora"])
def test_bf16_copy_trains_every_mode(tiny, tmp_path, mode):
    from bertstudio.tasks.model import count_parameters, load_model

    result = train(config(tiny, epochs=2, mode=mode, lr=1e-2, output_dir=str(tmp_path / mode)), sentiment(24), sentiment(8, seed=3))
    assert result.status == "finished", result.message
    trainable, _ = count_parameters(result.model)
    assert trainable > 0
    assert all(p.dtype == torch.float32 for p in result.model.parameters())
    model, _, kind, labels = load_model(result.model_dir)  # the export reloads as a plain model
    assert kind == "sentence" and labels == ["neg", "pos"]
