#!/bin/bash
# Document 000's three datasets at full size (issue 14), resumable: rerun to continue after a stop.
# Simple 1.6M rows (two per deal), Random-16 1.00M and Random-256 1.01M RP rows (one per deal).
set -e
cd "$(dirname "$0")/../.."
PY=${PY:-.venv/bin/python}
$PY -m ginbots offense generate random-256 --deals 1010000 --chunk 5000 --workers 2 --out data/offense
$PY -m ginbots offense generate random-16 --deals 1000000 --chunk 5000 --workers 2 --out data/offense
$PY -m ginbots offense generate simple --deals 800000 --chunk 5000 --workers 2 --out data/offense
echo ALLDONE
