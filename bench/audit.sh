#!/usr/bin/env bash
# The log auditors (issue 26; tests/integration/audit/) over many seeds, in release mode:
# every shipped scenario is fought SKIRMISH_AUDIT_SEEDS times (default 10,000) and every
# logged roll recomputed from the rule texts. Zero violations allowed; a violation prints
# the scenario, the seed (rerun it with `skirmish run SCENARIO --seed N`) and the event.
# Not part of `cargo test` (which fights 12 seeds a scenario); it takes a while.
#
#   bench/audit.sh                          every ruleset, 10,000 seeds a scenario
#   bench/audit.sh gurps vergeworlds        some rulesets (audit module names: gurps,
#                                           vergeworlds, main_sequence, traveller,
#                                           dogfights)
#   SKIRMISH_AUDIT_SEEDS=1000 bench/audit.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export SKIRMISH_AUDIT_SEEDS=${SKIRMISH_AUDIT_SEEDS:-10000}
modules=("$@")
if [ ${#modules[@]} -eq 0 ]; then
    modules=(gurps vergeworlds main_sequence traveller dogfights)
fi
cargo test --release --quiet --test integration --no-run
status=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for m in "${modules[@]}"; do
    start=$(date +%s)
    set +e
    cargo test --release --quiet --test integration "audit::$m::every_" -- --nocapture \
        > "$log" 2>&1
    rc=$?
    set -e
    grep -E "^audit |violations in|^[a-z0-9-]+\.ron --seed" "$log" || true
    if [ $rc -ne 0 ]; then
        status=1
        echo "audit::$m FAILED (exit $rc)"
    fi
    echo "audit::$m: $(( $(date +%s) - start )) s"
done
exit $status
