# summary: experiment NAME|all [--quick] — reproduce a paper's result: results/NAME.json and .png
# Sourced by ./fairfabric. The experiments live in mininet/fairfabric_mn/experiments/ (one module
# each); docs/results.md compares them with the papers.

experiment_usage() {
    echo "usage: ./fairfabric experiment NAME... [--quick] [--out DIR]"
    echo "       ./fairfabric experiment all [--quick]"
    echo "  Runs each experiment, prints the paper's figures beside ours and writes DIR/NAME.json"
    echo "  (parameters, environment, every measured series, the paper's values, allocation problems)"
    echo "  and DIR/NAME.png. DIR: results/ (committed), or .run/experiments-quick/ with --quick."
    echo "  --quick  a short run (<= 2 min each) that checks the direction of each result (./fairfabric test runs it)"
    echo "  Experiments marked (Mininet, root) need root; run them inside the isolated namespace on shared hosts."
    echo
    echo "experiments:"
    (cd "$FF_ROOT/mininet" && "$FF_VENV/bin/python" -m fairfabric_mn.experiments list)
}

case "${1:-}" in
    ""|-h|--help)
        ensure_setup
        experiment_usage
        [ -n "${1:-}" ] ;;
    *)
        ensure_setup
        exp_names=()
        for a in "$@"; do case "$a" in --*) ;; *) exp_names+=("$a") ;; esac; done
        exp_kafka_started=0
        if (cd "$FF_ROOT/mininet" && "$FF_VENV/bin/python" -m fairfabric_mn.experiments needs-root "${exp_names[@]}"); then
            need_root "experiment ${exp_names[*]}"
            if ! pid_alive kafka; then
                "$FF_ROOT/fairfabric" kafka start
                exp_kafka_started=1
            fi
        fi
        exp_cleanup() { [ "$exp_kafka_started" = 0 ] || "$FF_ROOT/fairfabric" kafka stop >/dev/null; }
        trap exp_cleanup EXIT
        rc=0
        (cd "$FF_ROOT/mininet" && "$FF_VENV/bin/python" -m fairfabric_mn.experiments "$@") || rc=$?
        exit "$rc" ;;
esac
