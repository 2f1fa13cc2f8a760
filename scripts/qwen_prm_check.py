#!/usr/bin/env python3
"""Compare an exported Qwen PRM (ONNX Runtime) with the PyTorch checkpoint on a few items.

Used by `export_qwen_prm.py --check`, and runnable on its own against an existing export folder:

    python scripts/qwen_prm_check.py --model-dir models/qwen-prm-fp16 --dtype fp16

It prints each item's step probabilities from both runtimes and the largest absolute difference,
and exits with status 1 when that difference is above the tolerance.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

SEPARATOR_TOKEN = "<extra_0>"
SYSTEM_PROMPT = "Please reason step by step, and put your final answer within \\boxed{}."
ONNX_FILE = "model.onnx"
# Qwen's <|endoftext|>, used to pad when the tokenizer names no pad token.
FALLBACK_PAD_ID = 151643
# How far the exported model's step probabilities may drift from PyTorch's, per variant. fp16 is
# compared with a PyTorch run in fp16; int8 and int4 with one in fp32, the dtype they start from.
DEFAULT_TOLERANCE = {"fp32": 1e-3, "fp16": 2e-2, "int8": 0.1, "int4": 0.15}

# Lengths differ from each other and from the export's dummy input (23 tokens), so a sequence
# length baked into the graph shows up; the second item has a wrong step (20 - 5 = 16).
CHECK_ITEMS = [
    ("What is 12 times 7?", ["12 times 7 is 12 * 7 = 84.", "The answer is $\\boxed{84}$."]),
    (
        "A shirt costs $20 and is on sale for 25% off. What is the sale price?",
        ["25% of 20 is 0.25 * 20 = 5.", "So the sale price is 20 - 5 = 16.", "The answer is $\\boxed{16}$."],
    ),
    (
        "Solve for x: 3x + 5 = 20.",
        ["Subtract 5 from both sides: 3x = 15.", "Divide both sides by 3: x = 5.", "The answer is $\\boxed{5}$."],
    ),
]


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def build_ids(tokenizer, question: str, steps: list[str]) -> list[int]:
    """The model card's input: chat template with the steps joined by <extra_0>, one after the last."""
    messages = [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": question},
        {"role": "assistant", "content": SEPARATOR_TOKEN.join(steps) + SEPARATOR_TOKEN},
    ]
    text = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=False)
    return tokenizer.encode(text, add_special_tokens=False)


def check_item_ids(tokenizer, separator_id: int) -> list[list[int]]:
    """Token ids of the check items; stops when the separator is not read as one token."""
    items_ids = [build_ids(tokenizer, question, steps) for question, steps in CHECK_ITEMS]
    for (question, steps), ids in zip(CHECK_ITEMS, items_ids):
        found = ids.count(separator_id)
        if found != len(steps):
            sys.exit(f"error: {found} separators for {len(steps)} steps in {question!r}: "
                     f"the tokenizer does not read {SEPARATOR_TOKEN} as token {separator_id}")
    return items_ids


def step_probs(logits, ids: list[int], separator_id: int) -> list[float]:
    """softmax(logits)[1] at each separator position of one sequence (logits: array [T, 2])."""
    import numpy as np

    positions = [i for i, token in enumerate(ids) if token == separator_id]
    picked = np.asarray(logits, dtype=np.float64)[positions]
    picked = picked - picked.max(axis=-1, keepdims=True)
    probs = np.exp(picked) / np.exp(picked).sum(axis=-1, keepdims=True)
    return probs[:, 1].tolist()


def reference_probs(wrapper, items_ids: list[list[int]], device: str, separator_id: int) -> list[list[float]]:
    """Step probabilities from the PyTorch model (wrapped to return logits [B, T, 2])."""
    import torch

    results = []
    with torch.no_grad():
        for ids in items_ids:
            input_ids = torch.tensor([ids], dtype=torch.long, device=device)
            logits = wrapper(input_ids, torch.ones_like(input_ids))
            results.append(step_probs(logits[0].float().cpu().numpy(), ids, separator_id))
    return results


def onnx_probs(model_path: Path, items_ids: list[list[int]], separator_id: int, pad_id: int) -> dict:
    """Step probabilities from ONNX Runtime, one item at a time and as one right-padded batch."""
    import numpy as np
    import onnxruntime as ort

    available = ort.get_available_providers()
    providers = [p for p in ("CUDAExecutionProvider", "CPUExecutionProvider") if p in available]
    session = ort.InferenceSession(str(model_path), providers=providers)
    log(f"ONNX Runtime {ort.__version__} running on {session.get_providers()[0]}")
    single = []
    for ids in items_ids:
        feed = {"input_ids": np.array([ids], dtype=np.int64), "attention_mask": np.ones((1, len(ids)), dtype=np.int64)}
        single.append(step_probs(session.run(["logits"], feed)[0][0], ids, separator_id))
    width = max(len(ids) for ids in items_ids)
    batch = np.full((len(items_ids), width), pad_id, dtype=np.int64)
    mask = np.zeros_like(batch)
    for row, ids in enumerate(items_ids):
        batch[row, : len(ids)] = ids
        mask[row, : len(ids)] = 1
    logits = session.run(["logits"], {"input_ids": batch, "attention_mask": mask})[0]
    batched = [step_probs(logits[row, : len(ids)], ids, separator_id) for row, ids in enumerate(items_ids)]
    return {"single": single, "batched": batched}


def compare(reference: list[list[float]], exported: dict) -> float:
    """Print both runtimes' probabilities per item; return the largest absolute difference."""
    worst = 0.0
    for mode, results in exported.items():
        for index, (want, got) in enumerate(zip(reference, results)):
            diff = max(abs(a - b) for a, b in zip(want, got))
            worst = max(worst, diff)
            shown = " ".join(f"{a:.4f}/{b:.4f}" for a, b in zip(want, got))
            log(f"check item {index} ({mode}) torch/onnx: {shown}  max diff {diff:.2e}")
    return worst


def judge(reference: list[list[float]], exported: dict, tolerance: float) -> dict:
    """Compare, log the verdict and return it as a JSON-ready summary."""
    worst = compare(reference, exported)
    passed = worst <= tolerance
    log(f"check {'passed' if passed else 'FAILED'}: max abs diff of step probabilities {worst:.2e} (tolerance {tolerance:g})")
    return {"maxAbsDiff": worst, "tolerance": tolerance, "passed": passed, "items": len(reference)}


def pad_id_of(tokenizer) -> int:
    return tokenizer.pad_token_id if tokenizer.pad_token_id is not None else FALLBACK_PAD_ID


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check an exported Qwen PRM against its PyTorch checkpoint.")
    parser.add_argument("--model-dir", required=True, type=Path, help="folder written by export_qwen_prm.py")
    parser.add_argument("--checkpoint", default=None, help="hub repo id or local folder (default: the model in prof-lens.json)")
    parser.add_argument("--dtype", choices=("fp32", "fp16"), default="fp32", help="dtype of the PyTorch reference")
    parser.add_argument("--variant", choices=sorted(DEFAULT_TOLERANCE), default=None, help="picks the default tolerance (default: --dtype)")
    parser.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto")
    parser.add_argument("--tolerance", type=float, default=None)
    args = parser.parse_args(argv)
    # Imported here: the export script imports this module for its --check.
    from export_qwen_prm import load_prm, make_wrapper, pick_device, resolve_checkpoint
    from transformers import AutoTokenizer

    manifest = json.loads((args.model_dir / "prof-lens.json").read_text(encoding="utf-8"))
    checkpoint = resolve_checkpoint(args.checkpoint or manifest["model"], None)
    tokenizer = AutoTokenizer.from_pretrained(args.model_dir, trust_remote_code=True)
    items_ids = check_item_ids(tokenizer, manifest["separatorId"])
    device = pick_device(args.device)
    wrapper = make_wrapper(load_prm(checkpoint, args.dtype, device))
    reference = reference_probs(wrapper, items_ids, device, manifest["separatorId"])
    del wrapper
    exported = onnx_probs(args.model_dir / ONNX_FILE, items_ids, manifest["separatorId"], pad_id_of(tokenizer))
    tolerance = args.tolerance if args.tolerance is not None else DEFAULT_TOLERANCE[args.variant or args.dtype]
    return 0 if judge(reference, exported, tolerance)["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
