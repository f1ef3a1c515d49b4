#!/usr/bin/env bash
# Runs p4switch against a directory of p4c test samples (NAME.p4 with NAME.stf
# and/or NAME.p4info.txtpb, p4c's expected P4Info) and prints
# PASS/FAIL per sample and totals. The samples are p4c's files, kept outside
# this repository: fetch testdata/p4_16_samples/*-bmv2.{p4,stf} and
# testdata/p4_16_samples_outputs/*-bmv2.p4.p4info.txtpb into DIR.
#   usage: tools/p4c_corpus.sh DIR [-v]   (-v prints the first lines of each failure)
set -u
dir=${1:?usage: tools/p4c_corpus.sh DIR [-v]}
verbose=${2:-}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
(cd "$root" && go build -o "$bin/p4switch" ./p4switch/cmd/p4switch) || exit 1

stf_pass=0 stf_total=0 info_pass=0 info_total=0 bmv2_pass=0 bmv2_total=0
for p4 in "$dir"/*.p4; do
    name=$(basename "$p4" .p4)
    stf="$dir/$name.stf"
    info="$dir/$name.p4info.txtpb"
    [ -f "$stf" ] || [ -f "$info" ] || continue # an included file
    # p4c-bm2-ss compiles every sample: `check --target bmv2` must accept it.
    bmv2_total=$((bmv2_total + 1))
    if out=$(timeout 60 "$bin/p4switch" check --target bmv2 "$p4" 2>&1); then
        bmv2_pass=$((bmv2_pass + 1)); echo "PASS bmv2   $name"
    else
        echo "FAIL bmv2   $name: $(echo "$out" | head -n 1)"
    fi
    if [ -f "$stf" ]; then
        stf_total=$((stf_total + 1))
        if out=$(timeout 60 "$bin/p4switch" stf "$p4" "$stf" 2>&1); then
            stf_pass=$((stf_pass + 1)); echo "PASS stf    $name"
        else
            echo "FAIL stf    $name: $(echo "$out" | head -n 1)"
            [ "$verbose" = -v ] && echo "$out" | sed -n '2,8s/^/      /p'
        fi
    fi
    [ -f "$info" ] || continue
    info_total=$((info_total + 1))
    if out=$(timeout 60 "$bin/p4switch" p4info -compare "$info" "$p4" 2>&1); then
        info_pass=$((info_pass + 1)); echo "PASS p4info $name"
    else
        echo "FAIL p4info $name: $(echo "$out" | head -n 1)"
        [ "$verbose" = -v ] && echo "$out" | sed -n '2,8s/^/      /p'
    fi
done
echo "STF: $stf_pass of $stf_total pass; P4Info: $info_pass of $info_total match; check --target bmv2: $bmv2_pass of $bmv2_total accepted"
