//! The GURPS auditor's checks of each logged event: attacks, defenses, other rolls, damage
//! and the steps to injury, and what follows a wound.

use super::*;

/// Checks one attack event: the attack roll's labels and arithmetic, each defense's, and
/// the result.
pub(super) fn audit_attack(
    e: &Value,
    units: &[Body],
    state: &[State],
    a: usize,
    t: usize,
    arm: Option<&Arm>,
    own_turn: bool,
) -> Vec<String> {
    let mut out = Vec::new();
    let roll = &e["roll"];
    out.extend(check_success_roll(roll, "attack roll"));
    let mods = modifiers(roll);
    let me = &units[a];
    let foe = &units[t];
    // A group attack names its members, not a weapon (Lite "GROUP COMBAT"): its blows are
    // judged by the attacker's first weapon.
    let group_weapon = e["weapon"]
        .as_str()
        .is_some_and(|n| n.starts_with("a group attack"));
    let fallback = me.weapons[0].clone();
    let w = match arm {
        Some(w) => w,
        None if group_weapon => &fallback,
        None => {
            out.push(format!(
                "attack with {} that unit {a} does not carry",
                e["weapon"]
            ));
            return out;
        }
    };
    let ranged = w.ranged.is_some();
    let action = state[a].action.as_str();
    let (first, first_value) = mods.first().cloned().unwrap_or_default();
    let group = first.starts_with("average effective skill of ");
    let wrong = first.starts_with("wrong target");
    if group {
        let n: i64 = first
            .trim_start_matches("average effective skill of ")
            .trim_end_matches(" attackers")
            .parse()
            .unwrap_or(0);
        let want = group_bonus(n);
        let got = mods
            .iter()
            .find(|(l, _)| l.starts_with("group of "))
            .map_or(0, |m| m.1);
        if got != want {
            out.push(format!(
                "group of {n}: bonus {got}, {LITE} GROUP COMBAT gives +{want}"
            ));
        }
    } else if wrong {
        // Screen "RANGED ATTACK MODIFIERS": rolling to hit the wrong target, max. 9.
        if first_value > 9 {
            out.push(format!(
                "wrong target at {first_value}: the text caps it at 9"
            ));
        }
    } else if first != w.skill_name || first_value != i64::from(w.skill) {
        out.push(format!(
            "attack base {first} {first_value}, the sheet gives {} {} ({LITE}, DEFAULTS)",
            w.skill_name, w.skill
        ));
    }
    let plain = !group && !wrong;
    let mut seen_labels = Vec::new();
    let others: i64 = mods
        .iter()
        .filter(|(l, _)| l != "Move and Attack: at most 9")
        .map(|m| m.1)
        .sum();
    for (idx, (label, v)) in mods.iter().enumerate() {
        let v = *v;
        seen_labels.push(label.as_str());
        if idx == 0 || label.starts_with("group of ") {
            continue;
        }
        let want: Option<bool> = match label.as_str() {
            "ST below weapon minimum" => Some(v == -i64::from(w.st_short) && w.st_short > 0),
            "Move and Attack" => Some(match w.ranged {
                Some((_, bulk)) => v == i64::from(bulk.min(-2)),
                None => v == -4,
            }),
            "Move and Attack: at most 9" => Some(!ranged && others > 9 && v == 9 - others),
            "All-Out Attack (Determined)" => Some(v == if ranged { 1 } else { 4 }),
            "Committed Attack (Determined)" => Some(!ranged && v == 2),
            "Committed Attack: moved 2 hexes" => Some(!ranged && v == -2),
            "Evaluate" => Some(!ranged && (1..=3).contains(&v)),
            // Lite "ATTACK/DEFENSE OPTIONS": −2 a level, "min. of 10" (of the final
            // effective skill, decision in combat.rs).
            "Deceptive Attack" => {
                Some(!ranged && v < 0 && v % 2 == 0 && mods.iter().map(|m| m.1).sum::<i64>() >= 10)
            }
            "Telegraphic Attack" => Some(!ranged && v == 4),
            "range/speed" => Some(ranged && (-30..=-1).contains(&v)),
            "Aim" => Some(
                w.ranged
                    .is_some_and(|(acc, _)| (i64::from(acc)..=i64::from(acc) + 2).contains(&v)),
            ),
            "braced" => Some(ranged && v == 1 && seen_labels.contains(&"Aim")),
            "behind light cover" => Some(ranged && v == -2),
            "body half exposed" => Some(ranged && v == -3),
            "head and shoulders exposed" => Some(ranged && v == -4),
            "prone behind cover, head down" => Some(ranged && v == -7),
            "target prone or crawling, no cover" => Some(ranged && v == -4),
            "target crouching, sitting or kneeling, no cover" => Some(ranged && v == -2),
            "target's size" => Some(ranged && v == i64::from(foe.sm)),
            "behind someone else" => Some(ranged && v < 0 && v % 4 == 0),
            "opportunity fire" => Some(ranged && v == -8),
            "rapid fire" => Some(ranged && (1..=9).contains(&v)),
            "at the weapon, to disarm" => Some((-7..=-5).contains(&v)),
            "chink in torso armor" => Some(v == -8),
            "chink in non-torso armor" => Some(v == -10),
            "one eye" => Some(v == if ranged { -3 } else { -1 }),
            // Screen "MODIFIERS TO ATTACK ROLLS": Lame, crippled leg −3, hand weapons only.
            "lame (crippled leg)" => Some(!ranged && v == -3),
            "large shield" => Some(v == -2 && me.shield.as_ref().is_some_and(|s| s.2)),
            "blinded in one eye (critical head blow)" => Some(v == -2),
            "blinded (critical head blow)" => Some(v == -10),
            "attacking while crouching"
            | "attacking while kneeling"
            | "attacking while sitting" => Some(v == -2),
            "attacking while crawling" | "attacking while lying down" => Some(v == -4),
            "shock" => Some(v == -state[a].shock && v < 0),
            "Dual-Weapon Attack" | "off hand" => Some(v == -4),
            "Rapid Strike" => Some(v == -6),
            "Rapid Strike (Flurry of Blows)" => Some(v == -3),
            l => location_penalty(l).map(|p| p == v && p != 0),
        };
        match want {
            Some(true) => {}
            Some(false) => out.push(format!(
                "attack modifier \"{label}\" {v:+} is wrong here ({} with {}; {LITE}, \
                 MANEUVERS / HIT LOCATIONS / POSTURES / INJURY / ATTACK/DEFENSE OPTIONS; \
                 {SCREEN}, MODIFIERS TO ATTACK ROLLS / RANGED ATTACK MODIFIERS)",
                if ranged { "ranged" } else { "melee" },
                w.name
            )),
            None => out.push(format!("unknown attack modifier \"{label}\" {v:+}")),
        }
    }
    let has = |l: &str| mods.iter().any(|(m, _)| m == l);
    let lame = state[a]
        .crippled
        .iter()
        .any(|c| matches!(c.as_str(), "left leg" | "right leg" | "foot"));
    if plain && !ranged && lame && !has("lame (crippled leg)") {
        out.push(format!(
            "a hand-weapon attack with a crippled leg without \"lame\" -3 ({SCREEN}, \
             MODIFIERS TO ATTACK ROLLS)"
        ));
    }
    if plain {
        // Shock on the attacker's own rolls (Lite "INJURY", Shock).
        if state[a].shock > 0 && !has("shock") {
            out.push(format!(
                "no shock modifier though the attacker carries -{} ({LITE}, INJURY, Shock)",
                state[a].shock
            ));
        }
        if own_turn {
            let ma = action.starts_with("Move and Attack");
            if ma && !state[a].heroic && !has("Move and Attack") {
                out.push(format!(
                    "Move and Attack without its penalty ({LITE}, MANEUVERS)"
                ));
            }
            if (!ma || state[a].heroic) && has("Move and Attack") {
                out.push(format!(
                    "Move and Attack penalty on \"{action}\" (heroic charge: {}) ({LITE}, \
                     MANEUVERS; ATTACK/DEFENSE OPTIONS, Heroic Charge)",
                    state[a].heroic
                ));
            }
            if ma && !ranged && !state[a].heroic && others > 9 && !has("Move and Attack: at most 9")
            {
                out.push(format!(
                    "Move and Attack at {others}: the text caps melee skill at 9 ({LITE}, \
                     MANEUVERS)"
                ));
            }
            let det = action.starts_with("All-Out Attack (Determined)");
            if det != has("All-Out Attack (Determined)") {
                out.push(format!(
                    "All-Out Attack (Determined) bonus and the maneuver \"{action}\" disagree \
                     ({LITE}, MANEUVERS)"
                ));
            }
        }
    }
    // Defenses.
    let defs: Vec<&Value> = e["defenses"]
        .as_array()
        .map_or(Vec::new(), |d| d.iter().collect());
    let result = e["result"].as_str().unwrap_or("");
    let success = roll["success"].as_bool() == Some(true);
    let crit = roll["critical"].as_str();
    let margin = roll["margin"].as_i64().unwrap_or(0);
    // A chink in non-torso armor names no location; the vitals (starred) are the one the
    // AI aims it at, so a miss by 1 may land on the torso (Lite "HIT LOCATIONS").
    let aimed_starred = mods
        .iter()
        .any(|(l, _)| starred(l) || l == "chink in non-torso armor");
    let torso_instead = aimed_starred && margin == -1 && crit.is_none();
    if crit == Some("Success") && (result != "CriticalHit" || !defs.is_empty()) {
        out.push(format!(
            "a critical success is a critical hit with no defense, the log says {result} \
             with {} defenses ({LITE}, Critical hit)",
            defs.len()
        ));
    }
    if !success && !torso_instead && (result != "Miss" || !defs.is_empty()) {
        out.push(format!(
            "a failed attack roll ends as {result} ({LITE}, HIT LOCATIONS)"
        ));
    }
    if (success && crit.is_none()) || torso_instead {
        let any_made = defs
            .iter()
            .any(|d| d["roll"]["success"].as_bool() == Some(true));
        if result == "Defended" && !any_made {
            out.push("Defended without a successful defense roll".into());
        }
        if !any_made && result != "Hit" {
            out.push(format!("no defense succeeded but the result is {result}"));
        }
    }
    let guard = state[t].guard;
    if guard == Guard::AllOutAttack && !defs.is_empty() {
        out.push(format!(
            "the target defends after an All-Out Attack ({LITE}, MANEUVERS: NO DEFENSE)"
        ));
    }
    if defs.len() > 1 && guard != Guard::DoubleDefense {
        out.push(format!(
            "{} defenses against one attack without All-Out Defense (Double Defense) \
             ({LITE}, MANEUVERS)",
            defs.len()
        ));
    }
    let deceptive = modifier(roll, "Deceptive Attack").unwrap_or(0);
    let mut retreats = 0;
    for d in &defs {
        out.extend(audit_defense(
            d,
            foe,
            &state[t],
            (ranged, arm),
            deceptive,
            &mut retreats,
        ));
    }
    out
}

/// Checks one defense roll against the defender's sheet and state.
pub(super) fn audit_defense(
    d: &Value,
    foe: &Body,
    s: &State,
    (ranged, attack): (bool, Option<&Arm>),
    deceptive: i64,
    retreats: &mut i32,
) -> Vec<String> {
    let name = d["defense"].as_str().unwrap_or("");
    let roll = &d["roll"];
    let mut out = check_success_roll(roll, &format!("defense \"{name}\""));
    let mut parts = name.split(", ");
    let base = parts.next().unwrap_or("");
    let flags: Vec<&str> = parts.collect();
    let retreating = flags.contains(&"retreating");
    let feverish = flags.contains(&"feverish");
    let mods = modifiers(roll);
    let (is_dodge, is_parry, is_block) = (
        base.starts_with("Dodge"),
        base.starts_with("Parry ("),
        base.starts_with("Block ("),
    );
    let parry_weapon = parry_weapon_of(base).unwrap_or("");
    let pw = foe.weapon(parry_weapon);
    // Screen "MODIFIERS TO ACTIVE DEFENSE ROLLS", Unarmed parry vs. weapon: −3 for a
    // bare-handed parry (a natural attack's, or Brawling or Boxing) against a weapon in
    // hand, not against a thrust; Judo and Karate parries take none.
    let skill_is =
        |w: &Arm, names: &[&str]| names.iter().any(|k| w.skill_name.eq_ignore_ascii_case(k));
    let unarmed =
        |w: &Arm| w.natural || skill_is(w, &["Brawling", "Boxing", "Karate", "Judo", "Wrestling"]);
    let bare_parry =
        is_parry && pw.is_some_and(|w| unarmed(w) && !skill_is(w, &["Judo", "Karate"]));
    let against_weapon = |a: &Arm| !unarmed(a) && !a.thrust && a.ranged.is_none();
    // Retreat value (Lite "ATTACK/DEFENSE OPTIONS", Retreat): +3 to Dodge or a Boxing,
    // Judo, Karate or fencing parry, +1 to any other defense.
    let full_retreat = is_dodge
        || pw.is_some_and(|w| {
            [
                "Boxing",
                "Judo",
                "Karate",
                "Rapier",
                "Saber",
                "Smallsword",
                "Main-Gauche",
            ]
            .iter()
            .any(|k| w.skill_name.eq_ignore_ascii_case(k))
        });
    let (first, first_value) = mods.first().cloned().unwrap_or_default();
    let base_want = if is_dodge {
        ("Dodge", Some(foe.dodge))
    } else if is_parry {
        ("Parry", pw.and_then(|w| w.parry))
    } else if is_block {
        ("Block", foe.shield.as_ref().map(|s| s.3))
    } else {
        ("?", None)
    };
    if first != base_want.0 || Some(first_value) != base_want.1.map(i64::from) {
        out.push(format!(
            "{name}: base {first} {first_value}, the sheet gives {} {:?} (decision, \
             sheet.rs: Dodge = Basic Speed rounded down + 3, Parry = 3 + skill/2 + modifier)",
            base_want.0, base_want.1
        ));
    }
    let has = |l: &str| mods.iter().any(|(m, _)| m == l);
    let stunned = has("stunned");
    let mut now = i64::from(foe.dodge);
    for (label, v) in mods.iter().skip(1) {
        let v = *v;
        let ok = match label.as_str() {
            "retreating" => {
                retreating
                    && !ranged
                    && !stunned
                    && s.guard != Guard::Committed
                    && v == if full_retreat { 3 } else { 1 }
            }
            "Dodge and Drop" => base == "Dodge and Drop" && ranged && v == 3,
            "Feverish Defense" => feverish && v == 2,
            "All-Out Defense" => {
                v == 2
                    && ((is_dodge && s.guard == Guard::IncreasedDodge)
                        || (is_parry && s.guard == Guard::IncreasedParry))
            }
            "Defensive Attack" => (is_parry || is_block) && s.guard == Guard::Defensive && v == 1,
            "after a Committed Attack" => s.guard == Guard::Committed && v == -2,
            "kneeling" | "sitting" => v == -2,
            "crawling" | "lying down" => v == -3,
            "stunned" => v == -4,
            "off balance" => v == -2,
            "below 1/3 HP: half Dodge" => {
                let half = (now + 1).div_euclid(2);
                let ok = is_dodge && v == half - now && s.hp * 3 < i64::from(foe.hp);
                now = half;
                ok
            }
            "below 1/3 FP: half Dodge" => {
                let half = (now + 1).div_euclid(2);
                let ok = is_dodge && v == half - now;
                now = half;
                ok
            }
            "attack from the side" => v == -2,
            "parried before this turn" => {
                let all = s.parried.get(parry_weapon).copied().unwrap_or(0);
                let group = s.parried_group.get(parry_weapon).copied().unwrap_or(0);
                if is_parry && v != -4 * all && v == -4 * (all - group) {
                    out.push(format!(
                        "{GROUP_PARRY_UNCOUNTED} {name}: {v:+} after {all} parries"
                    ));
                    true
                } else {
                    is_parry && v == -4 * all
                }
            }
            "Deceptive Attack" => !ranged && deceptive < 0 && v == deceptive / 2,
            "Telegraphic Attack" => !ranged && is_dodge && v == 2,
            "unarmed parry against a weapon" => {
                bare_parry && v == -3 && attack.is_none_or(against_weapon)
            }
            "feinted" => v < 0,
            "target of both Dual-Weapon attacks" => v == -1,
            "parrying with a large shield" => {
                is_parry && v == -1 && foe.shield.as_ref().is_some_and(|s| s.2)
            }
            l if l.ends_with(" DB") => foe
                .shield
                .as_ref()
                .is_some_and(|s| l == format!("{} DB", s.0) && v == i64::from(s.1)),
            l => {
                out.push(format!("{name}: unknown defense modifier \"{l}\" {v:+}"));
                true
            }
        };
        if !ok {
            out.push(format!(
                "{name}: modifier \"{label}\" {v:+} is wrong here (guard {:?}, {} attack, HP \
                 {}; {LITE}, ATTACK/DEFENSE OPTIONS / MANEUVERS / POSTURES / INJURY / LOST \
                 HIT POINTS; {SCREEN}, MODIFIERS TO ACTIVE DEFENSE ROLLS)",
                s.guard,
                if ranged { "ranged" } else { "melee" },
                s.hp
            ));
        }
    }
    if retreating != has("retreating") {
        out.push(format!("{name}: the retreat and its modifier disagree"));
    }
    if feverish != has("Feverish Defense") {
        out.push(format!(
            "{name}: Feverish Defense and its modifier disagree"
        ));
    }
    if is_dodge && (s.hp * 3 < i64::from(foe.hp)) != has("below 1/3 HP: half Dodge") {
        out.push(format!(
            "{name}: at {} of {} HP the half Dodge is {} ({LITE}, LOST HIT POINTS: < HP/3)",
            s.hp,
            foe.hp,
            if has("below 1/3 HP: half Dodge") {
                "applied"
            } else {
                "missing"
            }
        ));
    }
    if (s.guard == Guard::Defensive && (is_parry || is_block)) != has("Defensive Attack") {
        out.push(format!(
            "{name}: Defensive Attack's +1 to Parry/Block missing or misplaced"
        ));
    }
    if bare_parry && attack.is_some_and(against_weapon) && !has("unarmed parry against a weapon") {
        out.push(format!(
            "{name}: a bare-handed parry against a weapon without its -3 ({SCREEN}, \
             MODIFIERS TO ACTIVE DEFENSE ROLLS)"
        ));
    }
    // Lite "ATTACK/DEFENSE OPTIONS", Rapid Recovery: after a Move and Attack the weapon
    // that attacked parries only for 1 FP.
    // The defender's own maneuver without its move ("... on X with club"): names of units
    // and weapons may hold " with " ("Orc with a scar", "Small Shield with Spike").
    let maneuver = s.action.split(", moving to").next().unwrap_or("");
    if is_parry
        && s.action.starts_with("Move and Attack")
        && maneuver.ends_with(&format!(" with {parry_weapon}"))
        && !flags.contains(&"Rapid Recovery")
    {
        out.push(format!(
            "{name}: a parry with the weapon of a Move and Attack without Rapid Recovery \
             ({LITE}, ATTACK/DEFENSE OPTIONS)"
        ));
    }
    // Lite "MANEUVERS", Committed Attack: "no Dodge if you kicked".
    if is_dodge
        && s.action.starts_with("Committed Attack")
        && maneuver.rsplit_once(" with ").is_some_and(|(_, weapon)| {
            weapon
                .split(|c: char| !c.is_alphanumeric())
                .any(|word| word.eq_ignore_ascii_case("kick"))
        })
    {
        out.push(format!(
            "{name}: a Dodge after a Committed Attack with a kick ({LITE}, MANEUVERS)"
        ));
    }
    if (s.guard == Guard::Committed) != has("after a Committed Attack") {
        out.push(format!(
            "{name}: Committed Attack's -2 to defenses missing or misplaced"
        ));
    }
    let all = s.parried.get(parry_weapon).copied().unwrap_or(0);
    let outside_groups = all - s.parried_group.get(parry_weapon).copied().unwrap_or(0);
    if is_parry && all > 0 && !has("parried before this turn") {
        out.push(format!(
            "{}{name}: a repeated parry without its -4 (decision, defense.rs)",
            if outside_groups == 0 {
                format!("{GROUP_PARRY_UNCOUNTED} ")
            } else {
                String::new()
            }
        ));
    }
    if retreating || base == "Dodge and Drop" {
        *retreats += 1;
        if s.retreated || *retreats > 1 {
            out.push(format!(
                "{name}: a second retreat or drop before the defender's next turn ({LITE}, \
                 ATTACK/DEFENSE OPTIONS: *Once*)"
            ));
        }
    }
    if has("shock") {
        out.push(format!(
            "{name}: shock on an active defense ({LITE}, INJURY, Shock)"
        ));
    }
    out
}

/// Checks a `roll` event: its arithmetic and what its purpose calls for.
pub(super) fn audit_roll(
    e: &Value,
    units: &[Body],
    state: &mut [State],
    u: usize,
    strike: &mut Strike,
    knockback: Option<(usize, usize, i64)>,
) -> Vec<String> {
    let purpose = e["purpose"].as_str().unwrap_or("");
    let result = e["result"].as_str().unwrap_or("");
    let roll = &e["roll"];
    let me = &units[u];
    let mods = modifiers(roll);
    let mut out = Vec::new();
    if roll["sense"].as_str() == Some("Under") {
        out.extend(check_success_roll(roll, purpose));
        if mods.iter().any(|(l, _)| l == "shock") && !purpose.starts_with("Feint") {
            out.push(format!(
                "{purpose}: shock on a roll it does not affect ({LITE}, INJURY)"
            ));
        }
    } else {
        let f = faces(roll);
        if f.len() != 3 || f.iter().any(|&x| !(1..=6).contains(&x)) {
            out.push(format!("{purpose}: faces {f:?} are not 3d"));
        }
        let total: i64 = f.iter().sum::<i64>() + modifier_sum(roll);
        if roll["total"].as_i64() != Some(total) {
            out.push(format!("{purpose}: total {} is not {total}", roll["total"]));
        }
    }
    let total = roll["total"].as_i64().unwrap_or(0);
    let success = roll["success"].as_bool() == Some(true);
    let base = |label: &str, want: i32| -> Option<String> {
        let first = mods.first();
        (first.map(|(l, v)| (l.as_str(), *v)) != Some((label, i64::from(want))))
            .then(|| format!("{purpose}: base {first:?}, the sheet gives {label} {want}"))
    };
    let ht_only = |out: &mut Vec<String>| {
        out.extend(base("HT", me.ht));
    };
    match purpose {
        "hit location" => {
            let want = location_of(total);
            if result != want {
                out.push(format!(
                    "hit location roll {total} gives \"{result}\", the table gives \"{want}\" \
                     ({LITE}, HIT LOCATIONS)"
                ));
            }
            strike.location = result.to_string();
        }
        "critical hit table" => {
            let (words, crit) = critical_hit_row(total, &strike.location);
            for w in &words {
                if !result.contains(w) {
                    out.push(format!(
                        "critical hit {total} on the {}: \"{result}\" lacks \"{w}\" ({SCREEN}, \
                         CRITICAL HITS)",
                        strike.location
                    ));
                }
            }
            if matches!(strike.location.as_str(), "skull" | "face" | "eye") {
                out.push(format!(
                    "critical hit on the {} uses the critical hit table, not the head blow \
                     table ({SCREEN}, CRITICAL HEAD BLOWS)",
                    strike.location
                ));
            }
            strike.crit = Some(crit);
        }
        "critical head blow table" => {
            let dt = strike
                .weapon
                .as_ref()
                .map_or("cr", |w| w.damage_type.as_str());
            let (word, crit) = head_blow_row(total, dt);
            if !result.starts_with(word) {
                out.push(format!(
                    "critical head blow {total}: \"{result}\", the table gives \"{word}\" \
                     ({SCREEN}, CRITICAL HEAD BLOWS)"
                ));
            }
            if !matches!(strike.location.as_str(), "skull" | "face" | "eye") {
                out.push(format!(
                    "head blow table for a blow to the {} ({SCREEN}, CRITICAL HEAD BLOWS)",
                    strike.location
                ));
            }
            strike.crit = Some(crit);
        }
        p if p.ends_with("critical miss table") => {
            // The fumbler's weapon: the attack's, or the parrying one (the table names it).
            let w = if u == strike.attacker {
                strike.weapon.clone()
            } else {
                None
            };
            let candidates: Vec<&Arm> = match &w {
                Some(w) => vec![w],
                None => me.weapons.iter().filter(|w| miss_table(w) == p).collect(),
            };
            let fits = candidates
                .iter()
                .any(|w| miss_table(w) == p && miss_results(p, total, w).contains(&result));
            if !fits {
                out.push(format!(
                    "{p} roll {total} gives \"{result}\", the table does not ({SCREEN}, \
                     CRITICAL MISSES / UNARMED CRITICAL MISSES / FIREARM CRITICAL MISSES)"
                ));
            }
            if result.starts_with("strains its shoulder") {
                state[u].crippled.push("right arm".into());
            }
        }
        p if p.starts_with("HT against knockdown") => {
            ht_only(&mut out);
            for (label, v) in mods.iter().skip(1) {
                let ok = match label.as_str() {
                    "skull" | "eye" => *v == -10,
                    "face" | "groin" => *v == -5,
                    "major wound to vitals" => *v == -5 && p.contains("major"),
                    "High Pain Threshold" => *v == 3 && me.pain == PainThreshold::High,
                    "Low Pain Threshold" => *v == -4 && me.pain == PainThreshold::Low,
                    _ => false,
                };
                if !ok {
                    out.push(format!(
                        "{p}: modifier \"{label}\" {v:+} is wrong ({LITE}, INJURY, Knockdown \
                         and Stunning; HIT LOCATIONS)"
                    ));
                }
            }
            let pain = match me.pain {
                PainThreshold::High => Some("High Pain Threshold"),
                PainThreshold::Low => Some("Low Pain Threshold"),
                PainThreshold::Normal => None,
            };
            if let Some(p) = pain
                && !mods.iter().any(|(l, _)| l == p)
            {
                out.push(format!("knockdown roll without {p} ({LITE}, INJURY)"));
            }
            // Lite "INJURY", Knockdown and Stunning: a failure also drops anything in hand
            // (said when there was something to drop).
            let fits = if success {
                result == "keeps its feet"
            } else {
                result == "stunned and knocked down"
                    || result == "stunned and knocked down, drops what it holds"
            };
            if !fits {
                out.push(format!("{p}: \"{result}\" after a {success} roll"));
            }
        }
        "HT to stay conscious at 0 HP or less" => {
            ht_only(&mut out);
            let hp = state[u].hp;
            let hp_max = i64::from(me.hp);
            if hp > 0 {
                out.push(format!("{purpose} at {hp} HP ({LITE}, LOST HIT POINTS)"));
            }
            let want = -((-hp).max(0) / hp_max);
            let got = mods
                .iter()
                .find(|(l, _)| l == "per full multiple of HP below 0")
                .map_or(0, |m| m.1);
            if got != want || mods.len() > 2 {
                out.push(format!(
                    "{purpose} at {hp}/{hp_max} HP: modifier {got}, the text gives {want} \
                     ({LITE}, LOST HIT POINTS: -1 per full multiple of HP below zero)"
                ));
            }
        }
        p if p.starts_with("HT to survive at -") => {
            ht_only(&mut out);
            if mods.len() > 1 {
                out.push(format!("{p}: extra modifiers {mods:?}"));
            }
        }
        "HT to recover from stun" => {
            ht_only(&mut out);
            if mods.len() > 1 {
                out.push(format!("{purpose}: extra modifiers {mods:?}"));
            }
        }
        "Will to act at 0 FP or less" => out.extend(base("Will (IQ)", me.iq)),
        "to keep its feet after knockback" => {
            let first = mods.first().cloned().unwrap_or_default();
            if !matches!(first.0.as_str(), "DX" | "Acrobatics" | "Judo")
                || first.1 != i64::from(me.keep_feet)
            {
                out.push(format!(
                    "{purpose}: base {first:?}, the best of DX, Acrobatics and Judo is {} \
                     ({LITE}, KNOCKBACK)",
                    me.keep_feet
                ));
            }
            let yards = knockback.filter(|k| k.1 == u).map_or(0, |k| k.2);
            for (label, v) in mods.iter().skip(1) {
                let ok = match label.as_str() {
                    "knockback after the first yard" => *v == -(yards - 1) && yards > 1,
                    "after a Move and Attack" => *v == -2,
                    _ => false,
                };
                if !ok {
                    out.push(format!(
                        "{purpose}: modifier \"{label}\" {v:+} after {yards} yd ({LITE}, \
                         KNOCKBACK; MOVE AND ATTACK)"
                    ));
                }
            }
            if yards > 1
                && !mods
                    .iter()
                    .any(|(l, _)| l == "knockback after the first yard")
            {
                out.push(format!(
                    "{purpose}: no -1 per yard after the first ({LITE}, KNOCKBACK)"
                ));
            }
        }
        "to keep its feet after tripping" => out.extend(base("DX", me.dx)),
        "resisting the feint" => {
            let best = me
                .weapons
                .iter()
                .filter(|w| w.ranged.is_none())
                .map(|w| w.skill)
                .fold(me.dx, i32::max);
            out.extend(base("best combat skill or DX", best));
        }
        p if p.starts_with("morale check") => {
            let word = reaction(total);
            if !result.starts_with(word)
                || (result.starts_with("Very Bad") && word != "Very Bad")
                || (result.starts_with("Very Good") && word != "Very Good")
            {
                out.push(format!(
                    "{p}: reaction {total} is \"{word}\", the log says \"{result}\" ({LITE}, \
                     REACTION TABLE)"
                ));
            }
            for (label, v) in &mods {
                let ok = match label.as_str() {
                    "foes notably stronger" => (1..=5).contains(v),
                    "foes notably weaker" => (-5..=-1).contains(v),
                    "no language in common" | "foes intrude on home turf" => *v == -2,
                    _ => false,
                };
                if !ok {
                    out.push(format!(
                        "{p}: modifier \"{label}\" {v:+} ({LITE}, MORALE CHECKS)"
                    ));
                }
            }
        }
        _ => {
            // Feints, disarms, clearing jams: the base is one of the unit's weapon skills.
            if let Some((label, v)) = mods.first()
                && e["roll"]["sense"].as_str() == Some("Under")
                && !me
                    .weapons
                    .iter()
                    .any(|w| &w.skill_name == label && i64::from(w.skill) == *v)
            {
                out.push(format!(
                    "{purpose}: base {label} {v} is none of the unit's skills"
                ));
            }
        }
    }
    out
}

/// Checks a damage event: the dice, the bonuses, each step to injury, and HP.
pub(super) fn audit_damage(
    e: &Value,
    units: &[Body],
    state: &mut [State],
    t: usize,
    strike: &mut Strike,
) -> Vec<String> {
    let mut out = Vec::new();
    let foe = &units[t];
    let roll = &e["roll"];
    let loc = e["location"].as_str().unwrap_or("torso").to_string();
    let damage_type = e["damage_type"].as_str().unwrap_or("").to_string();
    let attacker = e["attacker"].as_u64().map(|a| a as usize);
    let f = faces(roll);
    let mods = modifiers(roll);
    // The weapon: the attack's if it is the attacker's, else (group attacks) any of the
    // attacker's weapons with these dice.
    let crit = if attacker.is_some() {
        strike.crit.take()
    } else {
        None
    };
    if crit.is_some_and(|c| c.unknown) {
        out.push(format!(
            "{}a critical hit's damage without a roll on the critical hit table ({SCREEN}, \
             CRITICAL HITS)",
            if strike.group {
                format!("{GROUP_CRITICAL_UNLOGGED} ")
            } else {
                String::new()
            }
        ));
    }
    let any_row = crit.is_some_and(|c| c.unknown);
    if let Some(a) = attacker {
        let w = match &strike.weapon {
            Some(w) if strike.attacker == a && w.dice == roll["dice"].as_str().unwrap_or("") => {
                Some(w.clone())
            }
            _ => units[a]
                .weapons
                .iter()
                .find(|w| w.dice == roll["dice"].as_str().unwrap_or(""))
                .cloned(),
        };
        match &w {
            None => out.push(format!(
                "damage dice {} are none of unit {a}'s weapons at ST {} (decision, \
                 tables::thrust_swing)",
                roll["dice"], units[a].st
            )),
            Some(w) => {
                if w.damage_type != damage_type {
                    out.push(format!(
                        "damage type {damage_type}, the {} does {}",
                        w.name, w.damage_type
                    ));
                }
                let n: usize = w
                    .dice
                    .split('d')
                    .next()
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(0);
                if w.dice.contains('d') && f.len() != n {
                    out.push(format!("{} damage with {} dice", w.dice, f.len()));
                }
            }
        }
        let chink_elsewhere = strike.location == NON_TORSO_CHINK && loc != "torso";
        if strike.location != loc && !chink_elsewhere {
            out.push(format!(
                "damage lands on the {loc}, the attack and its location roll say the {} \
                 ({LITE}, HIT LOCATIONS)",
                strike.location
            ));
        }
    }
    // Basic damage, modifier by modifier.
    let mut basic: i64 = f.iter().sum();
    let minimum = if damage_type == "cr" { 0 } else { 1 };
    let action = attacker.map_or("", |a| state[a].action.as_str());
    for (label, v) in &mods {
        let ok = match label.as_str() {
            "" => true,
            "All-Out Attack (Strong)" => *v == 2 && action.starts_with("All-Out Attack (Strong)"),
            "Committed Attack (Strong)" => {
                *v == 1 && action.starts_with("Committed Attack (Strong)")
            }
            "Defensive Attack" => *v == -2 && action.starts_with("Defensive Attack"),
            "Mighty Blow" => *v == 2,
            "minimum" => basic < minimum && basic + v == minimum,
            "critical hit: double damage" => {
                crit.is_some_and(|c| c.times == 2 || any_row) && *v == basic
            }
            "critical hit: triple damage" => {
                crit.is_some_and(|c| c.times == 3 || any_row) && *v == 2 * basic
            }
            "half damage" => attacker.is_none() && *v == basic / 2 - basic,
            _ => false,
        };
        if !ok {
            out.push(format!(
                "damage modifier \"{label}\" {v:+} is wrong (running total {basic}, \
                 maneuver \"{action}\"; {LITE}, MANEUVERS; {SCREEN}, CRITICAL HITS; decision \
                 DamageType::minimum_damage)"
            ));
        }
        basic += v;
    }
    if roll["total"].as_i64() != Some(basic) {
        out.push(format!(
            "damage total {} is not faces + modifiers = {basic}",
            roll["total"]
        ));
    }
    // The minimum holds for the damage rolled; a self-inflicted hit's "half damage" comes
    // after it and may go below (as halving beyond 1/2D does; decision
    // DamageType::minimum_damage).
    let halved = mods.iter().any(|(l, _)| l == "half damage");
    if basic < minimum && !halved {
        out.push(format!("basic damage {basic} below the minimum {minimum}"));
    }
    let before_crit = basic
        - mods
            .iter()
            .filter(|(l, _)| l.starts_with("critical hit:"))
            .map(|m| m.1)
            .sum::<i64>();
    if let Some(c) = crit
        && c.times > 1
        && before_crit > 0
        && !mods.iter().any(|(l, _)| l.starts_with("critical hit:"))
    {
        out.push(format!(
            "critical hit x{} without its extra damage ({SCREEN}, CRITICAL HITS)",
            c.times
        ));
    }
    if attacker.is_some()
        && action.starts_with("Defensive Attack")
        && !mods.iter().any(|(l, _)| l == "Defensive Attack")
        && strike.attacker == attacker.unwrap_or(usize::MAX)
        && !damage_type.is_empty()
    {
        // A Wait-triggered blow during a Defensive Attack turn cannot happen: the maneuver
        // is the fighter's own, so its blows carry the -2 (Lite "MANEUVERS").
        out.push(format!(
            "a Defensive Attack's blow without -2 damage ({LITE}, MANEUVERS)"
        ));
    }
    // Steps to injury, recomputed.
    let steps = modifiers(&json_steps(e));
    let hp_max = i64::from(foe.hp);
    let dr_full = i64::from(foe.dr.get(loc.as_str()).copied().unwrap_or(0));
    let halved = steps.iter().any(|(l, _)| l == "beyond 1/2D: half");
    let ranged = strike.weapon.as_ref().is_some_and(|w| w.ranged.is_some());
    if halved && !(ranged && attacker.is_some()) {
        out.push("half damage beyond 1/2D on a blow that is no shot".into());
    }
    let drs: Vec<i64> = match (attacker, crit) {
        (None, _) => vec![dr_full, 0],
        (_, Some(c)) if c.unknown => vec![dr_full, 0],
        (_, Some(c)) if c.bypass => vec![0],
        _ if strike.chink => vec![dr_full / 2],
        _ => vec![dr_full],
    };
    let crits: Vec<Option<CritDamage>> = if any_row {
        [None, Some(1), Some(2)]
            .into_iter()
            .map(|scar| {
                Some(CritDamage {
                    scar,
                    ..CritDamage::default()
                })
            })
            .collect()
    } else {
        vec![crit]
    };
    let expected: Vec<(Vec<(String, i64)>, i64)> = drs
        .iter()
        .flat_map(|&dr| crits.iter().map(move |&c| (dr, c)))
        .map(|(dr, c)| injury_steps(basic, dr, &damage_type, halved, &loc, hp_max, c))
        .collect();
    let injury = e["injury"].as_i64().unwrap_or(-1);
    if !expected
        .iter()
        .any(|(s, inj)| *s == steps && *inj == injury)
    {
        out.push(format!(
            "damage {basic} {damage_type} on the {loc} (DR {drs:?}): steps {steps:?} and \
             injury {injury}, the rules give {:?} ({LITE}, WOUNDING MODIFIERS, HIT LOCATIONS; \
             decision combat::injury_steps)",
            expected.first()
        ));
    }
    let sum: i64 = basic.max(0) + steps.iter().map(|s| s.1).sum::<i64>();
    if sum != injury {
        out.push(format!(
            "basic {basic} plus the steps is {sum}, not the injury {injury}"
        ));
    }
    // HP.
    let before = e["hp_before"].as_i64().unwrap_or(0);
    let after = e["hp_after"].as_i64().unwrap_or(0);
    if before != state[t].hp {
        out.push(format!(
            "hp_before {before}, but the unit had {} HP",
            state[t].hp
        ));
    }
    if after != before - injury {
        out.push(format!("hp_after {after} is not {before} - {injury}"));
    }
    if e["hp_max"].as_i64() != Some(hp_max) {
        out.push(format!(
            "hp_max {}, the sheet gives HP = ST {hp_max}",
            e["hp_max"]
        ));
    }
    state[t].hp = after;
    out
}

pub(super) fn json_steps(e: &Value) -> Value {
    serde_json::json!({ "modifiers": e["steps"] })
}

/// The steps from basic damage to injury (Lite "WOUNDING MODIFIERS" and "HIT LOCATIONS";
/// decisions in `combat::injury_steps`), as (label, change), and the injury.
pub(super) fn injury_steps(
    basic: i64,
    dr: i64,
    damage_type: &str,
    halved: bool,
    loc: &str,
    hp_max: i64,
    crit: Option<CritDamage>,
) -> (Vec<(String, i64)>, i64) {
    let mut steps = Vec::new();
    let mut dmg = basic.max(0);
    if halved && dmg > 0 {
        steps.push(("beyond 1/2D: half".to_string(), dmg / 2 - dmg));
        dmg /= 2;
    }
    if dr > 0 && dmg > 0 {
        let stop = dr.min(dmg);
        steps.push(("DR".to_string(), -stop));
        dmg -= stop;
    }
    // Screen "BRAIN (3-4)": "Skull provides DR 2".
    if loc == "skull" && dmg > 0 {
        let stop = 2.min(dmg);
        steps.push(("skull DR".to_string(), -stop));
        dmg -= stop;
    }
    let (num, den) = multiplier(damage_type, loc);
    let mut injury = dmg * num / den;
    if injury != dmg {
        let label = if (num, den) == base_multiplier(damage_type) {
            base_multiplier_label(damage_type).to_string()
        } else if den == 1 {
            format!("{loc} x{num}")
        } else {
            format!("{loc} x{}", num as f64 / den as f64)
        };
        steps.push((label, injury - dmg));
    }
    if dmg > 0 && injury == 0 {
        steps.push(("minimum injury".to_string(), 1));
        injury = 1;
    }
    // "Injury > HP/2 cripples limb (excess damage lost)"; HP/3 for hand and foot.
    let cap = if is_limb(loc) {
        Some(hp_max / 2 + 1)
    } else if is_extremity(loc) {
        Some(hp_max / 3 + 1)
    } else {
        None
    };
    if let Some(cap) = cap
        && injury > cap
    {
        steps.push(("excess beyond crippling lost".to_string(), cap - injury));
        injury = cap;
    }
    if let Some(n) = crit.and_then(|c| c.scar)
        && injury != n
    {
        steps.push(("critical head blow: only a scar".to_string(), n - injury));
        injury = n;
    }
    (steps, injury)
}

/// What must follow a damage event: the rolls against death, shock for the next turn, the
/// knockdown roll exactly when due, and knockback.
pub(super) fn follow_damage(
    evs: &[Value],
    i: usize,
    e: &Value,
    units: &[Body],
    state: &mut [State],
    (t, crit_cripples): (usize, bool),
    knockback_due: &mut Option<(usize, usize, i64)>,
) -> Vec<String> {
    let mut out = Vec::new();
    let foe = &units[t];
    let hp_max = i64::from(foe.hp);
    let injury = e["injury"].as_i64().unwrap_or(0);
    let before = e["hp_before"].as_i64().unwrap_or(0);
    let after = e["hp_after"].as_i64().unwrap_or(0);
    let loc = e["location"].as_str().unwrap_or("torso");
    let window: Vec<&Value> = evs[i + 1..]
        .iter()
        .take_while(|x| {
            !matches!(
                kind(x),
                "damage" | "attack" | "turn_started" | "action_chosen" | "round_started"
            )
        })
        .collect();
    let mine = |x: &&Value| x["unit"].as_u64() == Some(t as u64);
    // Lite "LOST HIT POINTS": a HT roll at each multiple of -HP crossed; -5xHP kills.
    let crossed: Vec<i64> = (1..=4)
        .filter(|k| before > -k * hp_max && after <= -k * hp_max)
        .collect();
    let checks: Vec<&&Value> = window
        .iter()
        .filter(|x| {
            mine(x)
                && x["purpose"]
                    .as_str()
                    .is_some_and(|p| p.starts_with("HT to survive"))
        })
        .collect();
    let outright = after <= -5 * hp_max;
    let mut died = outright;
    if outright {
        if !checks.is_empty() {
            out.push(format!("HT rolls against death at -5xHP, where death is immediate ({LITE}, LOST HIT POINTS)"));
        }
    } else {
        let mut mortal = state[t].mortal;
        for (n, k) in crossed.iter().enumerate() {
            let Some(c) = checks.get(n) else {
                if !died {
                    out.push(format!(
                        "no HT roll to survive at -{k}xHP after falling from {before} to {after} \
                         ({LITE}, LOST HIT POINTS)"
                    ));
                }
                break;
            };
            let purpose = c["purpose"].as_str().unwrap_or("");
            if purpose != format!("HT to survive at -{k} x HP") {
                out.push(format!(
                    "death check \"{purpose}\", the fall crosses -{k}xHP"
                ));
            }
            let r = &c["roll"];
            let ok = r["success"].as_bool() == Some(true);
            let margin = r["margin"].as_i64().unwrap_or(0);
            let want = if ok {
                "survives"
            } else if (-2..=-1).contains(&margin) && r["critical"].is_null() && !mortal {
                mortal = true;
                "mortally wounded"
            } else {
                died = true;
                "dies"
            };
            if c["result"].as_str() != Some(want) {
                out.push(format!(
                    "{purpose}: \"{}\", the text gives \"{want}\" ({LITE}, LOST HIT POINTS; \
                     INJURY, Mortal Wounds)",
                    c["result"]
                ));
            }
            if died {
                break;
            }
        }
        if checks.len() > crossed.len() {
            out.push(format!(
                "{} death checks for {} multiples of -HP crossed",
                checks.len(),
                crossed.len()
            ));
        }
        state[t].mortal = mortal;
    }
    let out_of_fight = window.iter().any(|x| {
        mine(x)
            && kind(x) == "status_changed"
            && matches!(x["standing"].as_str(), Some("Dead" | "Unconscious"))
    });
    if outright
        && !window
            .iter()
            .any(|x| mine(x) && x["standing"].as_str() == Some("Dead"))
    {
        out.push(format!(
            "at {after} HP of {hp_max} the unit lives on ({LITE}, LOST HIT POINTS: -5xHP)"
        ));
    }
    // Shock for the next turn (Lite "INJURY", Shock; "HIT LOCATIONS", groin).
    if injury > 0 {
        let (factor, cap) = if loc == "groin" { (2, 8) } else { (1, 4) };
        let s = &mut state[t];
        s.pending_shock = match foe.pain {
            PainThreshold::High => 0,
            PainThreshold::Normal => (s.pending_shock + injury * factor).min(cap),
            PainThreshold::Low => (s.pending_shock + 2 * injury * factor).min(2 * cap),
        };
    }
    // Knockdown (Lite "INJURY": a major wound, > HP/2 or crippling, or any injury to the
    // head or vitals).
    let cripples =
        (is_limb(loc) && injury * 2 > hp_max) || (is_extremity(loc) && injury * 3 > hp_max);
    let new_cripple = cripples && !state[t].crippled.iter().any(|c| c == loc);
    if new_cripple {
        state[t].crippled.push(loc.to_string());
    }
    let major = injury * 2 > hp_max || new_cripple;
    let head = matches!(loc, "skull" | "face" | "eye" | "vitals");
    let knockdown: Vec<&&Value> = window
        .iter()
        .filter(|x| {
            mine(x)
                && x["purpose"]
                    .as_str()
                    .is_some_and(|p| p.starts_with("HT against knockdown"))
        })
        .collect();
    let due = injury > 0 && (major || head) && !died && !out_of_fight && !state[t].down;
    if due && knockdown.is_empty() {
        out.push(format!(
            "{injury} injury to the {loc} of a {hp_max} HP unit (major: {major}) without the HT \
             roll against knockdown ({LITE}, INJURY, Knockdown and Stunning)"
        ));
    }
    // A critical row that cripples the limb does so after the wound's own effects (Screen
    // "CRITICAL HITS" 14): a later wound there is no new crippling.
    if injury > 0
        && !died
        && !out_of_fight
        && crit_cripples
        && !state[t].crippled.iter().any(|c| c == loc)
    {
        state[t].crippled.push(loc.to_string());
    }
    if !due && !knockdown.is_empty() {
        out.push(format!(
            "a knockdown roll after {injury} injury to the {loc} of a {hp_max} HP unit, which \
             is no major wound nor a blow to the head or vitals ({LITE}, INJURY)"
        ));
    }
    if let Some(k) = knockdown.first() {
        let purpose = k["purpose"].as_str().unwrap_or("");
        let want = if major {
            "HT against knockdown (major wound)"
        } else {
            "HT against knockdown (blow to the head or vitals)"
        };
        if purpose != want {
            out.push(format!(
                "\"{purpose}\" for a wound that calls for \"{want}\""
            ));
        }
        let want_mod: Option<(&str, i64)> = match loc {
            "skull" => Some(("skull", -10)),
            "eye" => Some(("eye", -10)),
            "face" => Some(("face", -5)),
            "groin" => Some(("groin", -5)),
            "vitals" if major => Some(("major wound to vitals", -5)),
            _ => None,
        };
        let got: Vec<(String, i64)> = modifiers(&k["roll"])
            .into_iter()
            .filter(|(l, _)| {
                !matches!(
                    l.as_str(),
                    "HT" | "High Pain Threshold" | "Low Pain Threshold"
                )
            })
            .collect();
        let want_v: Vec<(String, i64)> = want_mod
            .map(|(l, v)| (l.to_string(), v))
            .into_iter()
            .collect();
        if got != want_v {
            out.push(format!(
                "knockdown roll after a blow to the {loc}: location modifiers {got:?}, the text \
                 gives {want_v:?} ({LITE}, HIT LOCATIONS; INJURY)"
            ));
        }
    }
    // Knockback (Lite "KNOCKBACK"; which types: decision knockback::causes_knockback).
    let dtype = e["damage_type"].as_str().unwrap_or("");
    if e["attacker"].as_u64().is_some() && (dtype == "cr" || (dtype == "cut" && injury == 0)) {
        let basic = e["roll"]["total"].as_i64().unwrap_or(0).max(0);
        let st = i64::from(foe.st);
        let yards = if st <= 3 { basic } else { basic / (st - 2) };
        let logged = window
            .iter()
            .find(|x| mine(x) && kind(x) == "knockback")
            .and_then(|x| x["distance"].as_i64());
        if yards > 0 {
            *knockback_due = Some((i, t, yards));
            if logged.is_none() {
                out.push(format!(
                    "{basic} basic damage on ST {st} calls for {yards} yd of knockback, none \
                     logged ({LITE}, KNOCKBACK)"
                ));
                *knockback_due = None;
            }
        } else if logged.is_some() {
            out.push(format!(
                "knockback after {basic} basic damage on ST {st} ({LITE}, KNOCKBACK: per full \
                 multiple of ST-2)"
            ));
        }
    }
    out
}
