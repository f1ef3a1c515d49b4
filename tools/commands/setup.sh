# summary: install everything fairfabric needs on Debian 12 (idempotent; root)
# Sourced by ./fairfabric. One progress line per step; a step whose inputs did not
# change since it last succeeded is skipped.

APT_PACKAGES=(mininet iperf3 iproute2 ethtool tcpdump bridge-utils iputils-ping iptables nftables
    python3-venv python3-pip curl ca-certificates git maven openjdk-17-jdk-headless unzip procps openssl)
STEPS=7
step=0
next() { step=$((step + 1)); say "setup $step/$STEPS" "$1"; }

case "${1:-}" in
    -h|--help) echo "usage: ./fairfabric setup   (installs apt packages, Go modules, Maven artifacts, Kafka jars, the Python venv, the web GUI)"; exit 0 ;;
    "") ;;
    *) echo "fairfabric setup: unknown argument '$1'" >&2; exit 2 ;;
esac
need_root setup
started=$(date +%s)

next "apt packages: ${APT_PACKAGES[*]}"
missing=()
for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    say "setup $step/$STEPS" "apt packages: all present"
else
    say "setup $step/$STEPS" "apt packages: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >"$FF_RUN/logs/apt.log" 2>&1 || { tail -n 20 "$FF_RUN/logs/apt.log" >&2; die "apt-get update failed"; }
    apt-get install -y -q --no-install-recommends "${missing[@]}" >>"$FF_RUN/logs/apt.log" 2>&1 ||
        { tail -n 20 "$FF_RUN/logs/apt.log" >&2; die "apt-get install failed; log: $FF_RUN/logs/apt.log"; }
fi
command -v go >/dev/null || die "Go is missing: install Go >= 1.24 (https://go.dev/dl) and put it on PATH"
java -version 2>&1 | grep -q 'version "17' || die "JDK 17 must be the default java (update-alternatives --config java)"

next "Go modules and binaries (bin/)"
h=$(tree_hash go.mod go.sum p4switch host-shim)
if stamp_ok go "$h" && [ -d "$FF_BIN" ]; then
    say "setup $step/$STEPS" "Go: up to date"
else
    (cd "$FF_ROOT" && go mod download) || die "go mod download failed"
    mkdir -p "$FF_BIN"
    pkgs=()
    for d in p4switch host-shim; do [ -d "$FF_ROOT/$d" ] && pkgs+=("./$d/..."); done
    mains=$(cd "$FF_ROOT" && go list -f '{{if eq .Name "main"}}{{.ImportPath}}{{end}}' "${pkgs[@]}") ||
        die "go list failed"
    if [ -n "$mains" ]; then
        # shellcheck disable=SC2086
        (cd "$FF_ROOT" && CGO_ENABLED=0 go build -o "$FF_BIN/" $mains) || die "go build failed"
    fi
    stamp_set go "$h"
    say "setup $step/$STEPS" "Go: built $(ls "$FF_BIN" | tr '\n' ' ')"
fi

next "Maven artifacts and the Java reactor build"
h=$(tree_hash pom.xml apps pipeconfs monitor)
if stamp_ok maven "$h"; then
    say "setup $step/$STEPS" "Maven: up to date"
else
    (cd "$FF_ROOT" && mvn_cmd install -DskipTests) >"$FF_RUN/logs/maven-setup.log" 2>&1 ||
        { tail -n 30 "$FF_RUN/logs/maven-setup.log" >&2; die "Maven build failed; log: $FF_RUN/logs/maven-setup.log"; }
    stamp_set maven "$h"
    say "setup $step/$STEPS" "Maven: built $(cd "$FF_ROOT" && ls apps/onos/target/*.oar 2>/dev/null)"
fi

next "Kafka broker jars (tools/kafka/pom.xml)"
h=$(tree_hash tools/kafka)
if stamp_ok kafka "$h" && [ -n "$(ls "$FF_RUN"/kafka/libs/kafka_2.13-*.jar 2>/dev/null)" ]; then
    say "setup $step/$STEPS" "Kafka jars: present"
else
    rm -rf "$FF_RUN/kafka/libs"
    (cd "$FF_ROOT/tools/kafka" && mvn_cmd dependency:copy-dependencies -DincludeScope=runtime \
        -DoutputDirectory="$FF_RUN/kafka/libs") >"$FF_RUN/logs/kafka-jars.log" 2>&1 ||
        { tail -n 20 "$FF_RUN/logs/kafka-jars.log" >&2; die "fetching Kafka jars failed"; }
    stamp_set kafka "$h"
    say "setup $step/$STEPS" "Kafka jars: $(ls "$FF_RUN/kafka/libs" | wc -l) jars"
fi

next "Python virtual environment (.venv, from /usr/bin/python3 with Debian's mininet)"
h=$(tree_hash requirements.txt)
if [ -x "$FF_VENV/bin/python" ] && ! grep -qx 'include-system-site-packages = true' "$FF_VENV/pyvenv.cfg" 2>/dev/null; then
    say "setup $step/$STEPS" "Python: $FF_VENV cannot see Debian's packages (made without --system-site-packages); making it again"
    rm -rf "$FF_VENV"
fi
if [ -x "$FF_VENV/bin/python" ] && stamp_ok python "$h"; then
    say "setup $step/$STEPS" "Python: up to date"
else
    [ -x "$FF_VENV/bin/python" ] || /usr/bin/python3 -m venv --system-site-packages "$FF_VENV" ||
        die "creating $FF_VENV failed"
    "$FF_VENV/bin/python" -m pip install -q --disable-pip-version-check -r "$FF_ROOT/requirements.txt" \
        >"$FF_RUN/logs/pip.log" 2>&1 || { tail -n 20 "$FF_RUN/logs/pip.log" >&2; die "pip install failed"; }
    stamp_set python "$h"
    say "setup $step/$STEPS" "Python: installed $(grep -c "^[A-Za-z]" "$FF_ROOT/requirements.txt") pinned packages"
fi
"$FF_VENV/bin/python" -c 'import mininet.net' || die "the venv cannot import Debian's mininet"

next "web GUI (apps/gui): Node.js, npm and chromium from apt when missing; npm ci; build"
gui_apt=()
command -v node >/dev/null || gui_apt+=(nodejs)
command -v npm >/dev/null || gui_apt+=(npm)
[ -x /usr/bin/chromium ] || gui_apt+=(chromium)   # the browser tests' headless browser (./fairfabric test gui)
if [ ${#gui_apt[@]} -gt 0 ]; then
    say "setup $step/$STEPS" "GUI: installing ${gui_apt[*]} from apt"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >>"$FF_RUN/logs/apt.log" 2>&1 || { tail -n 20 "$FF_RUN/logs/apt.log" >&2; die "apt-get update failed"; }
    apt-get install -y -q --no-install-recommends "${gui_apt[@]}" >>"$FF_RUN/logs/apt.log" 2>&1 ||
        { tail -n 20 "$FF_RUN/logs/apt.log" >&2; die "apt-get install ${gui_apt[*]} failed; log: $FF_RUN/logs/apt.log"; }
fi
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 18 ] || die "Node.js $(node --version) is too old for the GUI build: 18 or later is needed"
h=$(tree_hash apps/gui/package.json apps/gui/package-lock.json apps/gui/build.mjs apps/gui/src)
if stamp_ok gui "$h" && [ -f "$FF_ROOT/apps/gui/dist/index.html" ] && [ -d "$FF_ROOT/apps/gui/node_modules" ]; then
    say "setup $step/$STEPS" "GUI: up to date"
else
    (cd "$FF_ROOT/apps/gui" && npm ci --no-audit --no-fund && npm run build) >"$FF_RUN/logs/gui-build.log" 2>&1 ||
        { tail -n 20 "$FF_RUN/logs/gui-build.log" >&2; die "building the GUI failed; log: $FF_RUN/logs/gui-build.log"; }
    stamp_set gui "$h"
    say "setup $step/$STEPS" "GUI: built apps/gui/dist with Node.js $(node --version) (served by the controller at /)"
fi

next "check"
stamp_set setup "$(setup_fingerprint)"
say "setup $step/$STEPS" "done in $(( $(date +%s) - started )) s"
