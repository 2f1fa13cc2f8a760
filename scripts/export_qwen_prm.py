#!/usr/bin/env python3
"""Export Qwen/Qwen2.5-Math-PRM-7B to an ONNX model folder for PROF Lens's `onnx` scorer.

The folder it writes holds:
  model.onnx + model.onnx_data   the PRM (inputs input_ids, attention_mask [batch, sequence], int64;
                                 output logits [batch, sequence, 2], float32)
  tokenizer.json, tokenizer_config.json   the checkpoint's own tokenizer files
  prof-lens.json                 the manifest naming the profile (qwen-prm)
  export-info.json               how the folder was made (versions, dtype, quantization, check)

The step score is softmax(logits[t])[1] at every `<extra_0>` separator (id 151651), as in the
model card. See scripts/README.md for requirements, memory and disk needs, and examples.
"""

from __future__ import annotations

import argparse
import gc
import json
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from qwen_prm_check import DEFAULT_TOLERANCE, check_item_ids, judge, log, onnx_probs, pad_id_of, reference_probs

DEFAULT_MODEL = "Qwen/Qwen2.5-Math-PRM-7B"
SEPARATOR_TOKEN = "<extra_0>"
SEPARATOR_ID = 151651
MAX_TOKENS = 4096
TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json")
ONNX_FILE = "model.onnx"
ONNX_DATA_FILE = "model.onnx_data"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Export Qwen2.5-Math-PRM-7B to ONNX (model.onnx + model.onnx_data) for PROF Lens.",
        epilog="Example: python scripts/export_qwen_prm.py --out models/qwen-prm-fp16 --dtype fp16 --check",
    )
    add = parser.add_argument
    add("--model", default=DEFAULT_MODEL, help="hub repo id or local checkpoint folder (default: %(default)s)")
    add("--revision", default=None, help="hub revision (branch, tag or commit) to download")
    add("--model-name", default=None,
        help="name for prof-lens.json (default: --model when it is a repo id; for a local folder, "
             "'local:<folder name>', since a folder on disk may hold any weights)")
    add("--out", required=True, type=Path, help="output folder; must be empty or absent unless --force")
    add("--dtype", choices=("fp32", "fp16"), default="fp32", help="weights dtype of the export (default: %(default)s)")
    add("--quantize", choices=("none", "int8", "int4"), default="none",
        help="int8: onnxruntime dynamic quantization of MatMul weights; "
             "int4: MatMulNBits, block size 32 (both need --dtype fp32)")
    add("--device", choices=("auto", "cpu", "cuda"), default="auto",
        help="where PyTorch runs the export trace (default: cuda when available)")
    add("--opset", type=int, default=17, help="ONNX opset, 17 or higher (default: %(default)s)")
    add("--check", action="store_true", help="score a few items with PyTorch and ONNX Runtime and compare")
    add("--tolerance", type=float, default=None, help="max abs difference of step probabilities allowed by --check")
    add("--work-dir", type=Path, default=None, help="scratch folder for intermediate files (default: next to --out)")
    add("--keep-work", action="store_true", help="keep the scratch folder")
    add("--force", action="store_true", help="replace an existing model in --out")
    args = parser.parse_args(argv)
    if args.opset < 17:
        parser.error("--opset must be 17 or higher")
    if args.quantize != "none" and args.dtype != "fp32":
        parser.error("--quantize needs --dtype fp32 (quantizers start from fp32 weights)")
    return args


def prepare_out_dir(out: Path, force: bool) -> None:
    ours = [ONNX_FILE, ONNX_DATA_FILE, "prof-lens.json", "export-info.json", *TOKENIZER_FILES]
    if out.exists() and any(out.iterdir()):
        if not force:
            sys.exit(f"error: {out} is not empty; pass --force to replace the model in it")
        for name in ours:
            (out / name).unlink(missing_ok=True)
    out.mkdir(parents=True, exist_ok=True)


def resolve_checkpoint(model: str, revision: str | None) -> Path:
    local = Path(model)
    if local.is_dir():
        return local
    from huggingface_hub import snapshot_download

    log(f"downloading {model} (about 15 GB the first time)")
    return Path(snapshot_download(model, revision=revision))


def pick_device(choice: str) -> str:
    import torch

    if choice == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if choice == "cuda" and not torch.cuda.is_available():
        sys.exit("error: --device cuda but PyTorch sees no CUDA device")
    return choice


def load_prm(checkpoint: Path, dtype: str, device: str):
    import torch
    from transformers import AutoModel

    torch_dtype = torch.float16 if dtype == "fp16" else torch.float32
    log(f"loading the PRM in {dtype} on {device}")
    model = AutoModel.from_pretrained(
        checkpoint,
        torch_dtype=torch_dtype,
        trust_remote_code=True,
        # Eager attention traces to plain ops; fused kernels (sdpa, flash) may not export.
        attn_implementation="eager",
    )
    return model.to(device).eval()


def make_wrapper(model):
    import torch

    class PrmLogits(torch.nn.Module):
        """The PRM with its own reward head, returning float32 logits [batch, sequence, 2]."""

        def __init__(self, prm):
            super().__init__()
            self.prm = prm

        def forward(self, input_ids, attention_mask):
            out = self.prm(input_ids=input_ids, attention_mask=attention_mask, use_cache=False)
            logits = out.logits if hasattr(out, "logits") else out[0]
            return logits.float()

    return PrmLogits(model).eval()


def export_raw(wrapper, raw_dir: Path, device: str, opset: int) -> Path:
    import torch

    # A batch of 2 and a length no check item has, so a shape baked into the graph shows up in --check.
    dummy = torch.randint(100, 1000, (2, 23), dtype=torch.long, device=device)
    mask = torch.ones_like(dummy)
    raw = raw_dir / ONNX_FILE
    log(f"exporting with torch.onnx.export (opset {opset}); this traces the whole model")
    with torch.no_grad():
        torch.onnx.export(
            wrapper,
            (dummy, mask),
            str(raw),
            input_names=["input_ids", "attention_mask"],
            output_names=["logits"],
            dynamic_axes={
                "input_ids": {0: "batch", 1: "sequence"},
                "attention_mask": {0: "batch", 1: "sequence"},
                "logits": {0: "batch", 1: "sequence"},
            },
            opset_version=opset,
            do_constant_folding=True,
            dynamo=False,
        )
    return raw


def save_single_data_file(src: Path, out_dir: Path) -> None:
    """Re-save an ONNX model (any external data layout) as out_dir/model.onnx + model.onnx_data."""
    import onnx

    log(f"writing {out_dir / ONNX_FILE} + {ONNX_DATA_FILE}")
    proto = onnx.load(str(src), load_external_data=True)
    # onnx appends to an existing data file, so never write over a previous one.
    (out_dir / ONNX_DATA_FILE).unlink(missing_ok=True)
    onnx.save_model(
        proto,
        str(out_dir / ONNX_FILE),
        save_as_external_data=True,
        all_tensors_to_one_file=True,
        location=ONNX_DATA_FILE,
        size_threshold=1024,
    )
    del proto
    gc.collect()


def quantize(src: Path, work: Path, mode: str) -> Path:
    import onnx

    dst = work / "quantized" / ONNX_FILE
    dst.parent.mkdir(parents=True, exist_ok=True)
    if mode == "int8":
        from onnxruntime.quantization import QuantType, quantize_dynamic

        log("quantizing MatMul weights to int8 (dynamic quantization)")
        quantize_dynamic(str(src), str(dst), weight_type=QuantType.QInt8, per_channel=True,
                         op_types_to_quantize=["MatMul"], use_external_data_format=True)
        return dst
    try:
        from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer as Quantizer
    except ImportError:
        from onnxruntime.quantization.matmul_4bits_quantizer import MatMul4BitsQuantizer as Quantizer
    log("quantizing MatMul weights to int4 (MatMulNBits, block size 32)")
    proto = onnx.load(str(src), load_external_data=True)
    quantizer = Quantizer(proto, block_size=32, is_symmetric=True, accuracy_level=4)
    quantizer.process()
    quantizer.model.save_model_to_file(str(dst), use_external_data_format=True)
    return dst


def copy_tokenizer(checkpoint: Path, out_dir: Path) -> int:
    for name in TOKENIZER_FILES:
        if not (checkpoint / name).is_file():
            sys.exit(f"error: the checkpoint has no {name}")
        shutil.copyfile(checkpoint / name, out_dir / name)
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(checkpoint, trust_remote_code=True)
    separator_id = tokenizer.convert_tokens_to_ids(SEPARATOR_TOKEN)
    if separator_id != SEPARATOR_ID:
        log(f"warning: {SEPARATOR_TOKEN} is id {separator_id} here, not {SEPARATOR_ID}; writing {separator_id}")
    return separator_id


def manifest_model_name(args: argparse.Namespace) -> str:
    """The name prof-lens.json gives the model: shown to users and part of every score's cache key.

    A hub id names what was downloaded. A local folder names only itself: it may hold the real
    checkpoint, a fine-tune or a test model, and claiming the hub's name would mix their scores
    in the cache and mislead whoever reads the status bar.
    """
    if args.model_name:
        return args.model_name
    local = Path(args.model)
    return f"local:{local.resolve().name}" if local.is_dir() else args.model


def write_json(path: Path, value: dict) -> None:
    path.write_text(json.dumps(value, indent=2) + "\n", encoding="utf-8")


def export_info(args: argparse.Namespace, check: dict | None) -> dict:
    import onnx
    import torch
    import transformers

    try:
        import onnxruntime

        ort_version = onnxruntime.__version__
    except ImportError:
        ort_version = None
    return {
        "source": args.model, "revision": args.revision, "dtype": args.dtype, "quantize": args.quantize,
        "opset": args.opset, "inputs": ["input_ids", "attention_mask"], "output": "logits",
        "versions": {
            "torch": torch.__version__, "transformers": transformers.__version__,
            "onnx": onnx.__version__, "onnxruntime": ort_version,
        },
        "check": check, "exportedAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


@dataclass
class Job:
    args: argparse.Namespace
    checkpoint: Path
    out: Path
    work: Path
    device: str
    separator_id: int


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    out: Path = args.out.resolve()
    prepare_out_dir(out, args.force)
    checkpoint = resolve_checkpoint(args.model, args.revision)
    separator_id = copy_tokenizer(checkpoint, out)
    device = pick_device(args.device)
    work = Path(tempfile.mkdtemp(prefix=f"{out.name}.work-", dir=args.work_dir or out.parent))
    try:
        return run(Job(args, checkpoint, out, work, device, separator_id))
    finally:
        if args.keep_work:
            log(f"scratch files kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


def run(job: Job) -> int:
    from transformers import AutoTokenizer

    args = job.args
    tokenizer = AutoTokenizer.from_pretrained(job.checkpoint, trust_remote_code=True)
    items_ids = check_item_ids(tokenizer, job.separator_id)
    wrapper = make_wrapper(load_prm(job.checkpoint, args.dtype, job.device))
    # The PyTorch reference is computed before export so the 7B model need not sit in memory next to
    # the ONNX Runtime session later.
    reference = reference_probs(wrapper, items_ids, job.device, job.separator_id) if args.check else None
    raw_dir = job.work / "raw"
    raw_dir.mkdir()
    raw = export_raw(wrapper, raw_dir, job.device, args.opset)
    del wrapper
    gc.collect()
    save_single_data_file(raw if args.quantize == "none" else quantize(raw, job.work, args.quantize), job.out)
    write_json(job.out / "prof-lens.json", {
        "profile": "qwen-prm",
        "model": manifest_model_name(args),
        "maxTokens": MAX_TOKENS,
        "separatorId": job.separator_id,
    })
    check = None
    if reference is not None:
        variant = args.dtype if args.quantize == "none" else args.quantize
        tolerance = args.tolerance if args.tolerance is not None else DEFAULT_TOLERANCE[variant]
        exported = onnx_probs(job.out / ONNX_FILE, items_ids, job.separator_id, pad_id_of(tokenizer))
        check = judge(reference, exported, tolerance)
    write_json(job.out / "export-info.json", export_info(args, check))
    log(f"done: {job.out}")
    return 0 if check is None or check["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
