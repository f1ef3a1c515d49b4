# Shared helpers for tools/commands/*.sh (sourced by ./fairfabric).

FF_RUN="${FF_RUN:-$FF_ROOT/.run}"         # pids, logs, broker data, set-up stamps
FF_VENV="$FF_ROOT/.venv"                   # the project's Python (sees Debian's mininet)
FF_BIN="$FF_ROOT/bin"                      # Go binaries built by setup
FF_KAFKA_PORT="${FF_KAFKA_PORT:-9092}"
export FF_RUN FF_VENV FF_BIN FF_KAFKA_PORT
export FAIRFABRIC_KAFKA="${FAIRFABRIC_KAFKA:-127.0.0.1:$FF_KAFKA_PORT}"
mkdir -p "$FF_RUN/pids" "$FF_RUN/logs" "$FF_RUN/stamps"

# say PREFIX MESSAGE: one progress line.
say() { printf '[%s] %s\n' "$1" "$2"; }
die() { printf 'fairfabric: %s\n' "$*" >&2; exit 1; }
need_root() { [ "$(id -u)" = 0 ] || die "$1 needs root (Mininet, apt and network namespaces do)"; }

# pid_alive NAME: true if the process recorded in .run/pids/NAME.pid runs.
pid_alive() {
    local f="$FF_RUN/pids/$1.pid"
    [ -f "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null
}

# stop_pid NAME: stop the recorded process (and its process group), wait, forget it.
stop_pid() {
    local f="$FF_RUN/pids/$1.pid" pid i
    [ -f "$f" ] || return 0
    pid=$(cat "$f")
    if kill -0 "$pid" 2>/dev/null; then
        kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
        for i in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        if kill -0 "$pid" 2>/dev/null; then
            kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
        fi
    fi
    rm -f "$f"
}

# start_bg NAME LOG CMD...: run CMD in its own session (so stop_pid can kill
# the whole group), record its PID.
start_bg() {
    local name="$1" log="$2"; shift 2
    setsid "$@" >"$log" 2>&1 < /dev/null &
    echo $! > "$FF_RUN/pids/$name.pid"
}

# tree_hash PATH...: a hash of the tracked and untracked files under PATHs
# (content of the index plus the working tree's modification state).
tree_hash() {
    local p existing=()
    for p in "$@"; do [ -e "$FF_ROOT/$p" ] && existing+=("$p"); done
    [ ${#existing[@]} -gt 0 ] || { echo none; return 0; }
    (cd "$FF_ROOT" && find "${existing[@]}" -type f -not -path '*/target/*' -not -path '*/__pycache__/*' \
        -not -path '*/node_modules/*' -not -path 'apps/gui/dist/*' -printf '%p %s %T@\n' | sort | sha256sum | cut -c1-16)
}

# stamp_ok NAME VALUE / stamp_set NAME VALUE: remember that a step ran for VALUE.
stamp_ok() { [ -f "$FF_RUN/stamps/$1" ] && [ "$(cat "$FF_RUN/stamps/$1")" = "$2" ]; }
stamp_set() { echo "$2" > "$FF_RUN/stamps/$1"; }

# setup_needed: true if ./fairfabric setup has not run for the current tree.
setup_needed() {
    [ -x "$FF_VENV/bin/python" ] || return 0
    stamp_ok setup "$(setup_fingerprint)" && return 1
    return 0
}
setup_fingerprint() {
    tree_hash pom.xml apps pipeconfs monitor go.mod go.sum p4switch host-shim requirements.txt tools/kafka tools/lib tools/commands/setup.sh
}

ensure_setup() {
    if setup_needed; then
        "$FF_ROOT/fairfabric" setup
    fi
}

mvn_cmd() { mvn -B -q -Dstyle.color=never "$@"; }
