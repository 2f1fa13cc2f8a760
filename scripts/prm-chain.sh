#!/usr/bin/env bash
# The PRM chain on a small random model of Qwen2.5-Math-PRM-7B's architecture (no PRM weights can be
# downloaded here): build it, export it to ONNX in fp32 and fp16 with export_qwen_prm.py --check,
# score rollouts of mixed lengths with `prof-lens score --model`, and compare every step score
# with PyTorch's, computed as the model card does. See scripts/README.md for what this proves.
#
# Usage: bash scripts/prm-chain.sh   (npm run test:prm)
# The Python environment (torch, transformers, onnx, onnxruntime, from the machine's local package
# mirror) is kept in $PROF_LENS_PRM_VENV, default ~/.cache/prof-lens-prm/venv, and reused.
set -euo pipefail
cd "$(dirname "$0")/.."

venv="${PROF_LENS_PRM_VENV:-$HOME/.cache/prof-lens-prm/venv}"
packages=(torch transformers onnx onnxruntime onnxscript safetensors)
start=$SECONDS

# A marker written after a complete install: importing torch only to check costs 15 s on a busy machine.
marker="$venv/.prof-lens-packages"
if [ "$(cat "$marker" 2>/dev/null)" != "${packages[*]}" ] || [ ! -x "$venv/bin/python" ]; then
  echo "== Python environment for the export: $venv (from the local package mirror)"
  rm -rf "$venv"
  mkdir -p "$(dirname "$venv")"
  python3 -m venv "$venv"
  log="$(mktemp)"
  # Only the machine's mirror: pip would spend minutes retrying a server it cannot reach.
  if ! "$venv/bin/pip" install --quiet --disable-pip-version-check \
      --index-url file:///opt/pypi-more/simple --extra-index-url file:///opt/pypi/simple \
      --find-links /opt/wheels "${packages[@]}" > "$log" 2>&1; then
    tail -n 30 "$log"
    echo "pip install failed" >&2
    exit 1
  fi
  rm -f "$log"
  echo "${packages[*]}" > "$marker"
  echo "   installed in $((SECONDS - start)) s"
else
  echo "== Python environment for the export: $venv (reused)"
fi

[ -f dist/cli.js ] && [ -f dist/onnxWorker.js ] || npm run build --silent

# Kept after the run (git-ignored): the exported models, the rollouts and PyTorch's step scores,
# which test/e2e/prmExport.e2e.ts reads to check the editor shows the same numbers.
work="test-output/prm-chain"
rm -rf "$work"
# Library chatter (deprecations, trace warnings, progress bars) hides the lines that matter.
export TRANSFORMERS_VERBOSITY=error PYTHONWARNINGS=ignore HF_HUB_DISABLE_PROGRESS_BARS=1
set +e
"$venv/bin/python" scripts/qwen_prm_chain.py "$work" 2>&1 | grep -vE 'Loading weights|^\s*$'
status=${PIPESTATUS[0]}
set -e
[ "$status" -eq 0 ] || { echo "PRM chain FAILED" >&2; exit "$status"; }
echo "== PRM chain passed in $((SECONDS - start)) s; models, rollouts and PyTorch's scores kept in $work"
