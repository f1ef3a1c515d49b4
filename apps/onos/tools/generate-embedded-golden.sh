#!/usr/bin/env bash
# Regenerates src/test/resources/golden/leafspine-4x4/: what the embedded controller's FabricPlan
# gives every switch of docs/examples/netcfg-leafspine-4x4.json, and its core topology model.
# EmbeddedGoldenTest holds the ONOS app's PI flow rules, groups and topology to these files.
# Needs the reactor built (apps/controller and apps/onos test classes), e.g.
#   mvn -q -pl apps/controller,apps/onos -am test-compile
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
cp_file="$(mktemp)"
trap 'rm -f "$cp_file"' EXIT
echo "[golden] controller class path"
(cd "$root" && mvn -q -o -pl apps/controller dependency:build-classpath -Dmdep.outputFile="$cp_file" >/dev/null)
cp="$root/apps/core/target/classes:$root/apps/api/target/classes:$root/apps/components/target/classes:$root/apps/controller/target/classes:$root/apps/onos/target/test-classes:$(cat "$cp_file")"
out="$root/apps/onos/src/test/resources/golden/leafspine-4x4"
echo "[golden] writing $out"
java -cp "$cp" "$here/EmbeddedEntities.java" "$root/pipeconfs/p4/p4info.txt" \
    "$root/docs/examples/netcfg-leafspine-4x4.json" "$out"
ls "$out"
