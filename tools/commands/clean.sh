# summary: stop every process fairfabric started and remove the Mininet state it created
# Sourced by ./fairfabric. Works only from records under .run/: PID files
# (.run/pids/*.pid), Mininet runs (.run/mininet/*.json, written by
# fairfabric_mn.runstate) and named namespaces (.run/netns.d/<name>). It never
# kills by process name and never runs `mn -c`.

case "${1:-}" in
    -h|--help) echo "usage: ./fairfabric clean"; exit 0 ;;
    "") ;;
    *) echo "fairfabric clean: unknown argument '$1'" >&2; exit 2 ;;
esac
need_root clean

stopped=0
for f in "$FF_RUN"/pids/*.pid; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .pid)
    if pid_alive "$name"; then stopped=$((stopped + 1)); fi
    stop_pid "$name"
done
say clean "stopped $stopped recorded processes"

links=0
for rec in "$FF_RUN"/mininet/*.json; do
    [ -e "$rec" ] || continue
    # pids, then interfaces and switch bridges, as recorded by fairfabric_mn.runstate.
    for pid in $(/usr/bin/python3 -c 'import json,sys; print(" ".join(map(str, json.load(open(sys.argv[1]))["pids"])))' "$rec"); do
        kill -TERM "$pid" 2>/dev/null && stopped=$((stopped + 1)) || true
    done
    for ifname in $(/usr/bin/python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(" ".join(r["interfaces"] + r["switches"]))' "$rec"); do
        if ip link show dev "$ifname" >/dev/null 2>&1; then
            ip link del dev "$ifname" 2>/dev/null && links=$((links + 1)) || true
        fi
    done
    rm -f "$rec"
done
say clean "removed $links leftover Mininet interfaces"

ns=0
for f in "$FF_RUN"/netns.d/*; do
    [ -e "$f" ] || continue
    name=$(basename "$f")
    if ip netns list | awk '{print $1}' | grep -qx "$name"; then
        ip netns pids "$name" 2>/dev/null | xargs -r kill -TERM 2>/dev/null || true
        ip netns del "$name" && ns=$((ns + 1))
    fi
    rm -f "$f"
done
say clean "removed $ns network namespaces"
