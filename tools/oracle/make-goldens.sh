#!/usr/bin/env bash
# Regenerates the oracle golden files the allocator's JUnit tests compare against:
# random fat-tree instances (by generator spec) and the hand-written problems in
# apps/core/src/test/resources/allocator/problems/. Needs a Python with requirements.txt
# installed: PYTHON=/path/to/venv/bin/python tools/oracle/make-goldens.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
python="${PYTHON:-python3}"
out="$root/apps/core/src/test/resources/allocator/oracle"
mkdir -p "$out"
specs=(
    "k=4,sessions=6,paths=4,seed=1"
    "k=4,sessions=12,paths=4,seed=2"
    "k=4,sessions=16,paths=2,seed=3"
    "k=8,sessions=60,paths=4,seed=4"
    "k=8,sessions=200,paths=8,seed=5"
)
for spec in "${specs[@]}"; do
    name="fattree-$(echo "$spec" | tr ',=' '-_').json"
    bash "$root/tools/commands/allocate.sh" --generate "$spec" \
        | "$python" "$root/tools/oracle/oracle.py" --instance "$spec" - > "$out/$name"
    echo "$name"
done
for problem in "$root"/apps/core/src/test/resources/allocator/problems/*.json; do
    name="$(basename "$problem")"
    "$python" "$root/tools/oracle/oracle.py" "$problem" > "$out/$name"
    echo "$name"
done
