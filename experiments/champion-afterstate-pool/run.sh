#!/usr/bin/env bash
# The afterstate network retrained on the current champion's games (opponent model `gbt`) against a
# broader pool of opponents (issue 37, part 3), then screened against Gin Rummy and Tonic on the default's
# fresh deals and against the bundle's targets, each paired with the default's games.
# Usage: bash experiments/champion-afterstate-pool/run.sh [DATA] [GAMES]   (resumable: chunks, nets and
# match files on disk are kept; the Tonic screen needs experiments/outside-opponents built and installed)
set -euo pipefail
cd "$(dirname "$0")/../.."
data=${1:-data/afterstate_pool}; games=${2:-3200}
here=experiments/champion-afterstate-pool
out=$here/results
pool=(champion simple simple:knock_at=0 heuristic:tuned keats:tuned planner:tuned safe dual-inception:tuned)
python -m ginbots.training.afterstate_data "$data" "$games" --seed 53 --workers 2 --opponents "${pool[@]}"
# fine-tuned from the shipped network (one generation on the hands' points), and trained afresh by the
# shipped network's recipe (two generations, TD(0.7))
[ -f $out/net_finetuned/afterstate_value.onnx ] || python -m ginbots.training.afterstate_train "$data" \
    $out/net_finetuned --init weights/afterstate_value.onnx --lr 3e-4 --epochs 4
[ -f $out/net_afresh/afterstate_value.onnx ] || python -m ginbots.training.afterstate_train "$data" \
    $out/net_afresh --epochs 5 --td-lambda 0.7 --generations 2
net=${NET:-net_finetuned}
fresh=experiments/champion-tonic-screen/results/default_fresh
for seed in 2043 2044 2045; do
  GINBOTS_WEIGHTS=$out/$net KEY_FROM=$fresh/champion_vs_java-tonic_600_seed$seed.json OUT=$out/tonic_$net SEED=$seed \
      bash experiments/champion-tonic-screen/screen.sh champion
done
