# summary: the main job: bring up the emulated fabric with Kafka (runs setup first when needed)
# Sourced by ./fairfabric.

usage() {
    echo "usage: ./fairfabric demo [--topo fattree|leafspine] [--keep SECONDS] [--bw MBIT] [--reweight TENANT=WEIGHT@SECONDS] [--fack-dscp DSCP[,DSCP...]] [--headroom F]"
    echo "  Kafka, the embedded controller and a p4switch fabric in Mininet (k=4 fat-tree: 20 switches,"
    echo "  16 hosts; leafspine: P4TE's 4x4 leaf-spine); two tenants provisioned over REST; reachability"
    echo "  shown. Then a host shim on every host, three tenants (amber, green, violet; weights 1:2:3) whose VMs"
    echo "  share one server's cable, greedy iperf3 between them and every second a per-tenant table (weight,"
    echo "  guarantee, allocated, achieved, error). On a terminal it stays up until Enter or Ctrl-C (--keep: that"
    echo "  many seconds instead). --bw: link rate (default 8 Mbit/s); --reweight amber=4@20: a REST weight change"
    echo "  20 s into the table. --fack-dscp 0: P4TE's FACK rate control on for DSCP 0 (the competition's"
    echo "  flows); the FACKs the leaves send show in the monitor's links and the GUI. --headroom: the share of"
    echo "  every link the controller keeps out of allocations (default 0.03; 0: allocate links to the full)."
}
demo_args=()
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --topo|--keep|--bw|--reweight|--fack-dscp|--headroom)
            [ $# -ge 2 ] || { echo "fairfabric demo: $1 needs a value" >&2; exit 2; }
            case "$1=$2" in
                --topo=fattree|--topo=leafspine) ;;
                --topo=*) echo "fairfabric demo: --topo is fattree or leafspine, not '$2'" >&2; exit 2 ;;
                --keep=*) [[ "$2" =~ ^[0-9]+$ ]] || { echo "fairfabric demo: --keep takes whole seconds, not '$2'" >&2; exit 2; } ;;
                --bw=*) [[ "$2" =~ ^[1-9][0-9]*$ ]] || { echo "fairfabric demo: --bw takes whole Mbit/s, not '$2'" >&2; exit 2; } ;;
                --fack-dscp=*) [[ "$2" =~ ^[0-9]+(,[0-9]+)*$ ]] || { echo "fairfabric demo: --fack-dscp takes DSCP values separated by commas, not '$2'" >&2; exit 2; } ;;
                --headroom=*) [[ "$2" =~ ^(0|0?\.[0-9]+)$ ]] && awk -v h="$2" 'BEGIN { exit !(h <= 0.5) }' || { echo "fairfabric demo: --headroom is a fraction from 0 to 0.5 (e.g. 0.03), not '$2'" >&2; exit 2; } ;;
                --reweight=*) [[ "$2" =~ ^(amber|green|violet)=[1-9][0-9]*@[0-9]+$ ]] || { echo "fairfabric demo: --reweight is TENANT=WEIGHT@SECONDS (amber, green or violet), not '$2'" >&2; exit 2; } ;;
            esac
            demo_args+=("$1" "$2"); shift 2 ;;
        *) echo "fairfabric demo: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
    esac
done
need_root demo
ensure_setup
kafka_was_running=0
pid_alive kafka && kafka_was_running=1
demo_cleanup() {
    stop_pid monitor-0
    [ "$kafka_was_running" = 1 ] || "$FF_ROOT/fairfabric" kafka stop
}
trap demo_cleanup EXIT
trap 'exit 130' INT TERM

"$FF_ROOT/fairfabric" kafka start
say demo "Kafka broker: $FAIRFABRIC_KAFKA"
# shellcheck source=tools/lib/monitor-java.sh
source "$FF_ROOT/tools/lib/monitor-java.sh"
ff_monitor_start_bg 0 --reset
say demo "starting the fabric (Mininet, p4switch) and the controller"
mkdir -p "$FF_RUN"
(cd "$FF_ROOT/mininet" && "$FF_VENV/bin/python" -m fairfabric_mn.demo --kafka "$FAIRFABRIC_KAFKA" "${demo_args[@]}")
say demo "done"
