#!/usr/bin/env python3
"""The PRM chain's rollouts and its comparison of `prof-lens score --model` with PyTorch.

    python scripts/qwen_prm_chain.py WORK       (after npm run build; scripts/prm-chain.sh runs it)

It builds the small checkpoint (build_small_qwen_prm.py) in WORK/small-random-qwen-prm,
exports it with export_qwen_prm.py --check in fp32 and in fp16 (WORK/fp32, WORK/fp16), and writes
WORK/rollouts.jsonl: questions with explicit steps, from one short step to a solution that runs
past the 4,096-token context, with a step and a question that contain the text `<extra_0>`. It
then runs `node dist/cli.js score WORK/rollouts.jsonl --model WORK/<dtype>` for both exports and
compares. One Python process does it all, so torch and transformers are imported once (on a busy
2-core machine that import alone takes 15-20 s).

The comparison computes each step's probability as the Qwen2.5-Math-PRM model card does (chat template
with the PRM system prompt, the steps joined by `<extra_0>` with one after the last, softmax of the
head's logits at each `<extra_0>`, class 1), one rollout at a time with no padding, and requires
`prof-lens score` (which pads rollouts of different lengths into batches) to give the same numbers
within the tolerance (PyTorch's numbers are kept in WORK/reference-<dtype>.json, one list of step
probabilities per rollout, null past the context), `null` for every step whose separator falls at or past the context limit, and
a manifest that does not name the hub checkpoint for a local folder. `<extra_0>` written in the text
is text: it is tokenized as the characters it is, and only the separators the card inserts are
scored. With a checkpoint built by build_small_qwen_prm.py these are random weights: the numbers
test the plumbing, not a PRM's judgement.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

SEPARATOR = "<extra_0>"
SEPARATOR_ID = 151651
SYSTEM_PROMPT = "Please reason step by step, and put your final answer within \\boxed{}."
HUB_NAME = "Qwen/Qwen2.5-Math-PRM-7B"
HERE = Path(__file__).resolve().parent
CHECKPOINT = "small-random-qwen-prm"
ROLLOUTS = "rollouts.jsonl"
# export_qwen_prm.py --check: ONNX Runtime against PyTorch in the same dtype on its three items.
# fp32 measured 3e-7 to 7e-7; fp16 (both runtimes in half precision, summing in different
# orders) measured 3.4e-3.
CHECK_TOLERANCE = {"fp32": 1e-6, "fp16": 1e-2}
# prof-lens score (padded, length-sorted batches) against PyTorch one rollout at a time. fp32
# measured 6e-7 on rollouts under 1,000 tokens and 1.2e-6 on the one filling the 4,096-token
# context; fp16 measured 3.3e-3.
SCORE_TOLERANCE = {"fp32": 2e-6, "fp16": 1e-2}
# Marks the separators the card inserts while the text is rendered; the text never holds it.
SENTINEL = "\u0000step\u0000"


def make_rollouts() -> list[dict]:
    rng = random.Random(7)
    rows = [
        {"problem": "What is 2+3?", "steps": ["2 + 3 = 5, so the answer is $\\boxed{5}$."]},
        {"problem": "What is 12 times 7?", "steps": ["12 times 7 is 12 * 7 = 84.", "The answer is $\\boxed{84}$."]},
        {
            "problem": "A shirt costs $20 and is on sale for 25% off. What is the sale price?",
            "steps": ["25% of 20 is 0.25 * 20 = 5.", "So the sale price is 20 - 5 = 16.", "The answer is $\\boxed{16}$."],
        },
        {
            # The separator's text inside the question and a step: read as text, never as a boundary.
            "problem": "Explain why a PRM input joins steps with <extra_0>, then compute 6 * 7.",
            "steps": [
                "Each step ends with the token <extra_0>, where the model's step score is read.",
                "Writing <extra_0> inside a step does not start a new step.",
                "6 * 7 = 42, so the answer is $\\boxed{42}$.",
            ],
        },
    ]
    for n in (5, 9, 14):
        steps = []
        total = 0
        for k in range(n):
            a, b = rng.randint(2, 99), rng.randint(2, 99)
            total += a * b
            steps.append(f"Step {k + 1}: multiply {a} by {b} to get {a * b}; the running total is {total}." + " Check it again." * rng.randint(0, 6))
        steps.append(f"The answer is $\\boxed{{{total}}}$.")
        rows.append({"problem": f"Add the {n} products described below.", "steps": steps})
    # About 5,000 tokens: the steps whose separator falls at token 4,096 or later are left unscored.
    long_steps = [f"Line {k}: " + " ".join(str(rng.randint(100, 999)) for _ in range(40)) + "." for k in range(30)]
    rows.append({"problem": "Copy these numbers, one line per step.", "steps": long_steps})
    return rows


def write_rollouts(path: Path) -> None:
    rows = make_rollouts()
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(f"{len(rows)} rollouts written to {path}")


def plain_separator_tokenizer(checkpoint: Path):
    """The checkpoint's tokenizer with <extra_0> as ordinary text (every other special token kept)."""
    from tokenizers import Tokenizer

    spec = json.loads((checkpoint / "tokenizer.json").read_text(encoding="utf-8"))
    spec["added_tokens"] = [t for t in spec["added_tokens"] if t["id"] != SEPARATOR_ID]
    return Tokenizer.from_str(json.dumps(spec))


def card_ids(tokenizer, plain, problem: str, steps: list[str]) -> list[int]:
    """The model card's input ids, with <extra_0> written in the text tokenized as text."""
    def render(joiner: str) -> str:
        messages = [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": problem},
            {"role": "assistant", "content": joiner.join(steps) + joiner},
        ]
        return tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=False)

    pieces = render(SENTINEL).split(SENTINEL)
    ids: list[int] = []
    for i, piece in enumerate(pieces):
        if i > 0:
            ids.append(SEPARATOR_ID)
        ids.extend(plain.encode(piece, add_special_tokens=False).ids)
    literal = SEPARATOR in problem or any(SEPARATOR in s for s in steps)
    if not literal:
        # Where the text holds no <extra_0>, these are exactly the ids the card's own code gets.
        card = tokenizer.encode(render(SEPARATOR), add_special_tokens=False)
        if card != ids:
            sys.exit("error: the piecewise ids differ from the card's tokenization")
    return ids


def reference_scores(checkpoint: Path, dtype: str, rows: list[dict], max_tokens: int) -> list[list[float | None]]:
    import numpy as np
    import torch
    from transformers import AutoModel, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(checkpoint)
    plain = plain_separator_tokenizer(checkpoint)
    model = AutoModel.from_pretrained(
        checkpoint, trust_remote_code=True, attn_implementation="eager",
        dtype=torch.float16 if dtype == "fp16" else torch.float32,
    ).eval()
    results = []
    with torch.no_grad():
        for row in rows:
            ids = card_ids(tokenizer, plain, row["problem"], row["steps"])
            positions = [i for i, t in enumerate(ids) if t == SEPARATOR_ID]
            if len(positions) != len(row["steps"]):
                sys.exit(f"error: {len(positions)} separators for {len(row['steps'])} steps")
            logits = model(input_ids=torch.tensor([ids]), attention_mask=torch.ones(1, len(ids), dtype=torch.long)).logits[0]
            picked = logits.float().numpy().astype(np.float64)[positions]
            picked -= picked.max(axis=-1, keepdims=True)
            probs = np.exp(picked) / np.exp(picked).sum(axis=-1, keepdims=True)
            results.append([float(p) if pos < max_tokens else None for p, pos in zip(probs[:, 1], positions)])
    return results


def compare_one(work: Path, dtype: str, tolerance: float) -> bool:
    model_dir = work / dtype
    manifest = json.loads((model_dir / "prof-lens.json").read_text(encoding="utf-8"))
    if manifest["model"] == HUB_NAME:
        print(f"{dtype}: FAILED: prof-lens.json of a local folder names {HUB_NAME}")
        return False
    rows = [json.loads(line) for line in (work / ROLLOUTS).read_text(encoding="utf-8").splitlines() if line.strip()]
    scored_path = work / f"scored-{dtype}.jsonl"
    scored = [json.loads(line) for line in scored_path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if len(scored) != len(rows):
        print(f"{dtype}: FAILED: {len(scored)} scored lines for {len(rows)} rollouts")
        return False
    reference = reference_scores(work / CHECKPOINT, dtype, rows, int(manifest["maxTokens"]))
    # Kept for the editor's end-to-end test (test/e2e/prmExport.e2e.ts), which compares its hovers with these.
    (work / f"reference-{dtype}.json").write_text(json.dumps(reference) + "\n", encoding="utf-8")
    worst, compared, unscored, problems = 0.0, 0, 0, []
    for index, (want, line) in enumerate(zip(reference, scored)):
        got = line.get("step_scores")
        if not isinstance(got, list) or len(got) != len(want):
            problems.append(f"rollout {index}: {len(want)} steps expected, got {got!r}")
            continue
        for step, (w, g) in enumerate(zip(want, got)):
            if w is None or g is None:
                unscored += w is None
                if (w is None) != (g is None):
                    problems.append(f"rollout {index} step {step}: expected {w}, got {g}")
                continue
            diff = abs(w - g)
            worst = max(worst, diff)
            compared += 1
    lengths = sorted(len(r["steps"]) for r in rows)
    print(f"{dtype}: {compared} step scores compared over {len(rows)} rollouts of {lengths[0]}-{lengths[-1]} steps; "
          f"{unscored} steps past the context left unscored as expected; "
          f"max abs diff {worst:.2e} (tolerance {tolerance:g}); manifest model {manifest['model']!r}")
    if compared == 0 or unscored == 0:
        problems.append("the comparison must cover scored steps and steps past the context")
    for p in problems[:20]:
        print(f"  {p}")
    passed = not problems and worst <= tolerance
    print(f"{dtype}: {'passed' if passed else 'FAILED'}")
    return passed


def prepare(work: Path) -> int:
    sys.path.insert(0, str(HERE))
    import build_small_qwen_prm
    import export_qwen_prm
    import onnx
    import onnxruntime
    import torch
    import transformers

    print(f"== torch {torch.__version__}, transformers {transformers.__version__}, onnx {onnx.__version__}, "
          f"onnxruntime {onnxruntime.__version__}; small checkpoint exported in fp32 and fp16 with --check", flush=True)

    work.mkdir(parents=True, exist_ok=True)
    build_small_qwen_prm.main([str(work / CHECKPOINT)])
    for dtype, tolerance in CHECK_TOLERANCE.items():
        # No --model-name: the manifest's name for a local folder is what is under test too.
        status = export_qwen_prm.main(["--model", str(work / CHECKPOINT), "--out", str(work / dtype), "--dtype", dtype,
                                       "--check", "--tolerance", str(tolerance), "--force", "--device", "cpu"])
        if status != 0:
            print(f"export_qwen_prm.py --check failed for {dtype}")
            return status
    write_rollouts(work / ROLLOUTS)
    return 0


def score_with_cli(work: Path) -> int:
    """`prof-lens score --model` on both exports at once, on cpu, with no score cache."""
    import subprocess

    cli = HERE.parent / "dist" / "cli.js"
    runs = [
        subprocess.Popen(["node", str(cli), "score", str(work / ROLLOUTS), "-o", str(work / f"scored-{dtype}.jsonl"),
                          "--model", str(work / dtype), "--providers", "cpu", "--no-cache"])
        for dtype in SCORE_TOLERANCE
    ]
    return max(run.wait() for run in runs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("work", type=Path, help="the chain's work folder")
    args = parser.parse_args(argv)
    started = time.monotonic()
    status = prepare(args.work)
    if status != 0:
        return status
    print(f"== prof-lens score --model, fp32 and fp16 side by side ({time.monotonic() - started:.0f} s so far)", flush=True)
    if score_with_cli(args.work) != 0:
        print("prof-lens score failed")
        return 1
    print(f"== every step score against PyTorch, as the model card computes it ({time.monotonic() - started:.0f} s so far)", flush=True)
    results = [compare_one(args.work, dtype, tolerance) for dtype, tolerance in SCORE_TOLERANCE.items()]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
