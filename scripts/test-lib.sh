# Shared by scripts/test.sh: runs each suite with its output kept in build/test-logs/, and sums up
# what ran and what was skipped (node's TAP "# SKIP reason" lines, CTest's skipped tests).
logs=build/test-logs
mkdir -p "$logs"
rm -f "$logs"/*.log
suites=()

# Files left out of the quick tier: packaging and browser-consumer runs, scripts run in Python, and
# the long property, leak and memory files (each 3-20 s, and all covered by the full suite).
SLOW_JS='consumers|environments|code-export|leaks|property|memory|url-state-fuzz|induction'
quick_js_files() { ls tests/js/*.test.mjs | grep -Ev "/($SLOW_JS)\.test\.mjs$"; }

summary() {
  echo
  echo "== summary (${SECONDS} s in all; each suite's own time in brackets)"
  for entry in "${suites[@]}"; do
    local log=${entry%%|*} rest=${entry#*|}
    local seconds=${rest%%|*} name=${rest#*|}
    local ran skipped
    ran=$(grep -cE '^\s*(not )?ok [0-9]+ - ' "$log" || true)
    if grep -q '^# pass ' "$log"; then  # node's TAP totals; tests a name pattern left out do not count
      ran=$(( $(grep '^# pass ' "$log" | tail -1 | awk '{print $3}') + $(grep '^# fail ' "$log" | tail -1 | awk '{print $3}') ))
    fi
    if grep -qE 'tests passed, [0-9]+ tests failed out of' "$log"; then
      ran=$(grep -oE 'out of [0-9]+' "$log" | tail -1 | awk '{print $3}')
    fi
    skipped=$( (grep -E '# SKIP' "$log" | grep -v 'test name does not match pattern' | sed -E 's/^\s*ok [0-9]+ - /  skipped: /'; \
      grep -E '^\s*[0-9]+/[0-9]+ Test +#[0-9]+: .*\*+Skipped' "$log" | sed -E 's/^.*Test +#[0-9]+: ([^ ]+).*/  skipped: \1/'; \
      grep -E '^\s*[0-9]+ - [^ ]+ \(Skipped\)' "$log" | sed -E 's/^\s*[0-9]+ - ([^ ]+).*/  skipped: \1/') || true)
    if [ "${ran:-0}" -gt 0 ]; then printf '%s: %s tests' "$name" "$ran"; else printf '%s: passed' "$name"; fi
    printf ' (%s s)\n' "$seconds"
    [ -n "$skipped" ] && printf '%s\n' "$skipped"
  done
  return 0
}

# suite <name> <command...>: runs the command with its output shown and logged; on failure prints
# the summary so far and exits with the command's status.
suite() {
  local name=$1; shift
  local log="$logs/$(printf '%02d' ${#suites[@]}).log"
  echo "== $name"
  local started=$SECONDS
  set +e
  "$@" 2>&1 | tee "$log"
  local status=${PIPESTATUS[0]}
  set -e
  suites+=("$log|$((SECONDS - started))|$name")
  if [ "$status" -ne 0 ]; then
    summary
    echo "FAILED: $name" >&2
    exit "$status"
  fi
}
