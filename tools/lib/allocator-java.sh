# Shared by tools/commands/allocate.sh and tools/bench/allocator.sh: builds apps/controller
# (and apps/core) when their sources changed since the last build, quietly, and prints the
# runtime classpath. Build output is shown only when the build fails.
ff_allocator_classpath() {
    local root="$1"
    local stamp="$root/apps/controller/target/allocator-build.stamp"
    local cpfile="$root/apps/controller/target/allocator-classpath.txt"
    local stale=1
    if [ -f "$stamp" ] && [ -f "$cpfile" ]; then
        stale=0
        if [ -n "$(find "$root/apps/core/src/main" "$root/apps/components/src/main" "$root/apps/controller/src/main" "$root/apps/core/pom.xml" \
                "$root/apps/controller/pom.xml" "$root/pom.xml" -newer "$stamp" -print -quit 2>/dev/null)" ]; then
            stale=1
        fi
    fi
    if [ "$stale" = 1 ]; then
        local log
        log=$(mktemp)
        if ! (cd "$root" && mvn -q -B -pl apps/controller -am -DskipTests \
                -Dmdep.outputFile=target/allocator-classpath.txt \
                compile dependency:build-classpath) >"$log" 2>&1; then
            echo "allocate: building apps/controller failed:" >&2
            cat "$log" >&2
            rm -f "$log"
            return 1
        fi
        rm -f "$log"
        touch "$stamp"
    fi
    echo "$root/apps/controller/target/classes:$root/apps/components/target/classes:$root/apps/core/target/classes:$(cat "$cpfile")"
}
