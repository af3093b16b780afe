#!/usr/bin/env bash
# Scale benchmark (README, "Scale"): generates a battle of 10, 100 and 1,000 units for every
# ruleset (two armies facing each other on a rectangle of open ground, half the units a
# side, from one template per side), times `skirmish run` on each in release mode and
# prints the time and its growth from one size to the next. Not a test: timings depend on
# the machine.
#
#   bench/scale.sh                      every ruleset at 10, 100 and 1000 units
#   bench/scale.sh gurps socs           only these rulesets
#   SIZES="10 100" bench/scale.sh       other sizes
#   SCALE_DIR=/tmp/scale bench/scale.sh where the generated scenarios are written
#                                       (default: target/scale; each is a normal scenario)
#   SCALE_TIMEOUT=300                   seconds before a run is stopped and reported as such
#   SKIRMISH_BIN=path                   a binary to time instead of building one
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=${SIZES:-"10 100 1000"}
out=${SCALE_DIR:-target/scale}
limit=${SCALE_TIMEOUT:-300}
rulesets=("$@")
[ ${#rulesets[@]} -gt 0 ] || rulesets=(gurps main-sequence vergeworlds starship-d12 socs traveller-space)
if [ -z "${SKIRMISH_BIN:-}" ]; then
    cargo build --release --quiet
    SKIRMISH_BIN="${CARGO_TARGET_DIR:-target}/release/skirmish"
fi
mkdir -p "$out"

# The ruleset line, map scale and the two sides' templates ("a" and "b") of each ruleset.
header() {
    case "$1" in
    gurps) cat <<'RON'
    ruleset: Gurps(),
    templates: {
        "a": Gurps(st: 12, dx: 11, iq: 9, ht: 12, skills: { "Broadsword": 12, "Brawling": 11 },
            weapons: ["club", "punch"], armor: "cloth armor"),
        "b": Gurps(st: 11, dx: 12, iq: 10, ht: 11, skills: { "Knife": 13, "Brawling": 12 },
            weapons: ["large knife", "punch"]),
    },
RON
    ;;
    main-sequence) cat <<'RON'
    ruleset: MainSequence(bands: (melee: 1, close: 6, medium: 15, long: 30)),
    templates: {
        "a": MainSequence(Character(soldier: 4, agent: 3, tech: 2,
            skills: {"Ranged": Advanced, "Acrobatics": Basic},
            weapons: ["Sub-Machine Gun"], armor: ["Armored Clothing"], npc: true, edge: 0)),
        "b": MainSequence(Character(soldier: 3, agent: 4, tech: 2,
            skills: {"Ranged": Advanced, "Athletics": Basic},
            weapons: ["Light Pistol", "Knife"], armor: ["Reinforced Clothing"], npc: true, edge: 0)),
    },
RON
    ;;
    vergeworlds) cat <<'RON'
    ruleset: Vergeworlds(),
    templates: {
        "a": Vergeworlds(mook: true, coordination: 1, brawn: 1.0, skills: (fight: 1, evade: 0),
            weapons: [(name: "Club", pen_rs: 1.0, wound: 4.0, smash: true, def: 1, bulk: 2.0)]),
        "b": Vergeworlds(mook: true, coordination: 1, skills: (shoot: 2, evade: 1, fight: 1),
            weapons: [(name: "Revolver", kind: Ranged, pen: 22.0, wound: -2.0, speed: 70.0,
                shots: Some(6), reloads: 2, loose: true, da: 40.0, max_range: Some(50.0))]),
    },
RON
    ;;
    starship-d12) cat <<'RON'
    ruleset: StarshipD12(start_range: Medium),
    templates: {
        "a": StarshipD12(class: "corvette", defence: 2, shields: 4, armour: 3,
            systems: [
                (name: "Laser cannon", facing: Front, hp: 3, weapon: (damage: 5, sustain: 1)),
                (name: "Missile rack", facing: Front, hp: 2, weapon: (damage: 7, missile: (to_hit: 6, ammo: 2))),
                (name: "Port battery", facing: Left, hp: 2, weapon: (damage: 3, sustain: 1)),
                (name: "Starboard battery", facing: Right, hp: 2, weapon: (damage: 3, sustain: 1)),
                (name: "Main drive", facing: Rear, hp: 4, build: Heavy, engine: true),
                (name: "Reactor", facing: Core, hp: 5, build: Heavy),
            ],
            crew: [(name: "Captain", piloting: 3, gunnery: 2), (name: "Gunner", gunnery: 3)]),
        "b": StarshipD12(class: "gunship", defence: 1, shields: 2, armour: 5,
            systems: [
                (name: "Twin lasers", facing: Front, hp: 4, build: Heavy, weapon: (damage: 6, sustain: 2)),
                (name: "Side guns", facing: Left, hp: 2, weapon: (damage: 3, sustain: 1)),
                (name: "Side guns (starboard)", facing: Right, hp: 2, weapon: (damage: 3, sustain: 1)),
                (name: "Drive", facing: Rear, hp: 3, engine: true),
                (name: "Reactor", facing: Core, hp: 4, build: Heavy),
            ],
            crew: [(name: "Captain", piloting: 4, gunnery: 2), (name: "Gunner", gunnery: 4)]),
    },
RON
    ;;
    socs) cat <<'RON'
    ruleset: Socs(start_range: Long),
    templates: {
        "a": Socs(class: Fighter, mr: 2, pilot: (name: "Pilot", piloting: 13, gunner: 13, perception: 12),
            weapons: [(name: "Twin blasters", firepower: Light, range: Short, acc: 2),
                (name: "Seeker missile", firepower: Heavy, range: Long, acc: 0)]),
        "b": Socs(class: Fighter, mr: 1, size: -1, pilot: (name: "Corsair", piloting: 12, gunner: 12, perception: 11),
            weapons: [(name: "Autocannon", firepower: Light, range: Short, acc: 1),
                (name: "Heavy laser", firepower: Heavy, range: Short, acc: -1)]),
    },
RON
    ;;
    traveller-space) cat <<'RON'
    ruleset: TravellerSpace(),
    templates: {
        "a": TravellerSpace(sm: 7, hp: 3000, dr: 60, accel: 1.0, tl: 10, bridge: Basic,
            sensors: [Aesa, Pesa], targeting: 14, weapons: [(weapon: "360-MJ Laser", count: 2)],
            crew: (pilot: 13, gunner: 14, sensors: 12, engineer: 12, count: 5), fuel: 40),
        "b": TravellerSpace(sm: 8, hp: 4000, dr: 60, accel: 2.0, tl: 12, bridge: Basic,
            sensors: [Aesa, Pesa, Radscan], targeting: 12, weapons: [(weapon: "360-MJ Laser", count: 2)],
            missiles: 10, launchers: 2, crew: (pilot: 13, gunner: 14, sensors: 13, engineer: 11, count: 12),
            fuel: 80),
    },
RON
    ;;
    *) echo "unknown ruleset '$1' (gurps, main-sequence, vergeworlds, starship-d12, socs, traveller-space)" >&2
       exit 2 ;;
    esac
}

# Writes the scenario of ruleset $1 with $2 units to stdout.
generate() {
    local ruleset=$1 units=$2
    local per_side=$(( (units + 1) / 2 ))
    local rows=$(( per_side < 8 ? per_side : 8 ))
    while [ $(( rows * rows )) -lt "$per_side" ]; do rows=$(( rows + 1 )); done
    local depth=$(( (per_side + rows - 1) / rows ))
    local gap=10
    local columns=$(( 2 * depth + gap ))
    echo "// Generated by bench/scale.sh: $units units of $ruleset, $per_side a side."
    echo "("
    echo "    name: \"Scale $ruleset $units\","
    header "$ruleset"
    echo "    map: (shape: Rectangle(columns: $columns, rows: $rows)),"
    echo "    sides: [(id: \"a\", control: Ai(Aggressive)), (id: \"b\", control: Ai(Aggressive))],"
    echo "    units: ["
    local i side col row q
    for (( i = 0; i < units; i++ )); do
        side=$(( i % 2 )); local k=$(( i / 2 ))
        row=$(( k % rows )); col=$(( k / rows ))
        if [ $side -eq 0 ]; then col=$(( depth - 1 - col )); else col=$(( depth + gap + col )); fi
        q=$(( col - row / 2 ))
        if [ $side -eq 0 ]; then s=a; else s=b; fi
        echo "        (name: \"$s$k\", side: \"$s\", at: ($q, $row), template: \"$s\"),"
    done
    echo "    ],"
    echo ")"
}

printf '%-16s %6s %10s %8s  %s\n' ruleset units seconds growth outcome
for ruleset in "${rulesets[@]}"; do
    previous=""
    for n in $sizes; do
        file="$out/$ruleset-$n.ron"
        generate "$ruleset" "$n" > "$file"
        start=$(date +%s%N)
        status=0
        result=$(timeout "$limit" "$SKIRMISH_BIN" run "$file" --seed 1 2>&1) || status=$?
        if [ "$status" -eq 0 ]; then
            end=$(date +%s%N)
            ms=$(( (end - start) / 1000000 ))
            outcome=$(printf '%s\n' "$result" | grep '^Outcome: ' | tail -1 || true)
            outcome=${outcome#Outcome: }
        else
            end=$(date +%s%N)
            ms=$(( (end - start) / 1000000 ))
            if [ "$status" -eq 124 ]; then
                outcome="not over after $limit s (stopped; SCALE_TIMEOUT)"
            else
                outcome="failed (exit $status): $(printf '%s' "$result" | tail -c 300)"
            fi
        fi
        growth="-"
        if [ -n "$previous" ] && [ "$previous" -gt 0 ]; then
            growth=$(awk -v a="$ms" -v b="$previous" 'BEGIN { printf "x%.1f", a / b }')
        fi
        printf '%-16s %6d %6d.%03d %8s  %s\n' "$ruleset" "$n" $((ms / 1000)) $((ms % 1000)) "$growth" "$outcome"
        previous=$ms
    done
done
