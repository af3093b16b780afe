//! The GURPS auditor's tables, written from the rule texts: criticals, hit locations and
//! their penalties and wounding multipliers, the critical hit, head blow and miss tables,
//! reactions and group combat.

use super::*;

/// Critical success or failure of a 3d6 roll against `effective` (Lite "CRITICALS";
/// Screen "CRITICAL SUCCESS AND FAILURE": 10 or more over effective skill).
pub(super) fn critical(roll: i64, effective: i64) -> Option<&'static str> {
    if roll <= 4 || (roll == 5 && effective >= 15) || (roll == 6 && effective >= 16) {
        Some("Success")
    } else if roll == 18 || (roll == 17 && effective <= 15) || roll >= effective + 10 {
        Some("Failure")
    } else {
        None
    }
}

/// Checks a 3d6 roll-under record's arithmetic; returns its report lines.
pub(super) fn check_success_roll(roll: &Value, what: &str) -> Vec<String> {
    let mut out = Vec::new();
    let f = faces(roll);
    if f.len() != 3 || f.iter().any(|&x| !(1..=6).contains(&x)) {
        out.push(format!("{what}: faces {f:?} are not 3d6"));
    }
    let total: i64 = f.iter().sum();
    if roll["total"].as_i64() != Some(total) {
        out.push(format!(
            "{what}: total {} is not the sum of {f:?}",
            roll["total"]
        ));
    }
    let target = modifier_sum(roll);
    if roll["target"].as_i64() != Some(target) {
        out.push(format!(
            "{what}: target {} is not the sum of its modifiers ({target})",
            roll["target"]
        ));
    }
    if roll["margin"].as_i64() != Some(target - total) {
        out.push(format!(
            "{what}: margin {} is not target - roll = {}",
            roll["margin"],
            target - total
        ));
    }
    let crit = critical(total, target);
    // A 17 always fails: critically at effective skill 15 or less, else ordinarily (Lite
    // "BASE SKILL LEVELS"); 18 always fails critically.
    let success = match crit {
        Some("Success") => true,
        Some(_) => false,
        None => total <= target && total < 17,
    };
    // A stray shot's roll against a bystander keeps the automatic success and failure but
    // has no critical effects (decision, combat::StrikeInput::stray).
    let stray = modifiers(roll)
        .first()
        .is_some_and(|(l, _)| l.starts_with("wrong target"));
    let crit = if stray { None } else { crit };
    if roll["critical"].as_str() != crit {
        out.push(format!(
            "{what}: critical {} but {total} against {target} is {crit:?} ({LITE}, \
             CRITICALS; {SCREEN}, CRITICAL SUCCESS AND FAILURE)",
            roll["critical"]
        ));
    }
    if roll["success"].as_bool() != Some(success) {
        out.push(format!(
            "{what}: success {} but {total} against {target} is {success} ({LITE}, CRITICALS)",
            roll["success"]
        ));
    }
    out
}

/// The hit location of a 3d6 roll (Lite "HIT LOCATIONS").
pub(super) fn location_of(total: i64) -> &'static str {
    match total {
        ..=4 => "skull",
        5 => "face",
        6 | 7 => "right leg",
        8 => "right arm",
        9 | 10 => "torso",
        11 => "groin",
        12 => "left arm",
        13 | 14 => "left leg",
        15 => "hand",
        16 => "foot",
        _ => "neck",
    }
}

/// The penalty to hit a location (Lite "HIT LOCATIONS", modifier column).
pub(super) fn location_penalty(label: &str) -> Option<i64> {
    Some(match label {
        "torso" => 0,
        "right arm" | "left arm" | "right leg" | "left leg" => -2,
        "vitals" | "groin" => -3,
        "hand" | "foot" => -4,
        "neck" | "face" => -5,
        "skull" => -7,
        // Lite "HIT LOCATIONS": "Skull (from behind)" −5, "Face (from behind)" −7.
        "skull (from behind)" => -5,
        "face (from behind)" => -7,
        "eye" => -9,
        _ => return None,
    })
}

pub(super) fn is_limb(loc: &str) -> bool {
    matches!(loc, "right arm" | "left arm" | "right leg" | "left leg")
}

pub(super) fn is_extremity(loc: &str) -> bool {
    matches!(loc, "hand" | "foot")
}

/// Locations marked * (Lite "HIT LOCATIONS": "a miss by 1 hits the torso").
pub(super) fn starred(loc: &str) -> bool {
    matches!(
        loc.trim_end_matches(" (from behind)"),
        "skull" | "face" | "groin" | "neck" | "eye" | "vitals"
    )
}

/// The wounding multiplier (numerator, denominator) by damage type (Lite "WOUNDING
/// MODIFIERS") and location (Lite "HIT LOCATIONS").
pub(super) fn multiplier(damage_type: &str, loc: &str) -> (i64, i64) {
    let base = match damage_type {
        "pi-" => (1, 2),
        "cr" | "pi" => (1, 1),
        "cut" | "pi+" => (3, 2),
        _ => (2, 1), // imp, pi++
    };
    let piercing_big = matches!(damage_type, "pi+" | "pi++" | "imp");
    match loc {
        "skull" | "eye" => (4, 1),
        l if (is_limb(l) || is_extremity(l)) && piercing_big => (1, 1),
        "neck" if damage_type == "cr" => (3, 2),
        "neck" if damage_type == "cut" => (2, 1),
        "vitals" if piercing_big || damage_type == "pi" => (3, 1),
        _ => base,
    }
}

pub(super) fn base_multiplier_label(damage_type: &str) -> &'static str {
    match damage_type {
        "pi-" => "x0.5",
        "cr" | "pi" => "x1",
        "cut" | "pi+" => "x1.5",
        _ => "x2",
    }
}

pub(super) fn base_multiplier(damage_type: &str) -> (i64, i64) {
    multiplier(damage_type, "torso")
}

/// What a critical hit does to damage: (times, bypasses armor, scar injury).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct CritDamage {
    pub(super) times: i64,
    pub(super) bypass: bool,
    pub(super) scar: Option<i64>,
    /// The table roll is not in the log: any row may have applied.
    pub(super) unknown: bool,
    /// The row cripples the limb hit (row 14 on a limb), once the blow has hurt.
    pub(super) cripples: bool,
}

/// The row of the critical hit table (Screen "CRITICAL HITS") for `total` on `loc`, as the
/// words the log must carry, and what it does to damage.
pub(super) fn critical_hit_row(total: i64, loc: &str) -> (Vec<&'static str>, CritDamage) {
    let limb = is_limb(loc) || is_extremity(loc);
    let n = CritDamage {
        times: 1,
        ..Default::default()
    };
    match total {
        3 | 18 if loc == "torso" => (vec!["knocked out"], n),
        3 | 18 | 5 | 17 => (vec!["triple damage"], CritDamage { times: 3, ..n }),
        4 | 13 => (vec!["bypasses all armor"], CritDamage { bypass: true, ..n }),
        6 | 16 => (vec!["double damage"], CritDamage { times: 2, ..n }),
        7 => (vec!["stunned"], n),
        8 | 12 if limb => (vec!["the limb is numbed (crippled for 6 turns)"], n),
        14 if limb => (
            vec!["the limb is crippled"],
            CritDamage {
                cripples: true,
                ..n
            },
        ),
        14 => (vec!["double damage"], CritDamage { times: 2, ..n }),
        15 => (vec!["drops its weapon"], n),
        _ => (vec!["normal damage"], n),
    }
}

/// The row of the critical head blow table (Screen "CRITICAL HEAD BLOWS"): a word the
/// result must start with, and what it does to damage.
pub(super) fn head_blow_row(total: i64, damage_type: &str) -> (&'static str, CritDamage) {
    let n = CritDamage {
        times: 1,
        ..Default::default()
    };
    let scar = |k| {
        if damage_type == "cr" {
            n
        } else {
            CritDamage { scar: Some(k), ..n }
        }
    };
    match total {
        ..=3 => ("killed instantly", n),
        4 | 5 => ("knocked out", n),
        6 => ("blinded and stunned", n),
        7 => ("blinded in one eye and stunned", n),
        8 => ("knocked off balance", n),
        9..=11 => ("normal head-blow damage", n),
        12 => ("a scar", scar(1)),
        13 => ("a scar", scar(2)),
        14 => ("flinches and drops its weapon", n),
        _ => ("stunned", n),
    }
}

/// Which critical miss table a weapon uses (Screen "CRITICAL MISSES": ancient and
/// medieval weapons; "UNARMED CRITICAL MISSES": punches, kicks "or other unarmed strike",
/// natural attacks and grappling skills included; "FIREARM CRITICAL MISSES": firearms and
/// beam weapons).
pub(super) fn miss_table(w: &Arm) -> &'static str {
    let s = w.skill_name.to_ascii_lowercase();
    if s.starts_with("guns") || s.starts_with("beam") || s.starts_with("gunner") {
        "firearm critical miss table"
    } else if w.natural
        || matches!(
            s.as_str(),
            "brawling" | "boxing" | "karate" | "judo" | "wrestling"
        )
    {
        "unarmed critical miss table"
    } else {
        "critical miss table"
    }
}

/// The results a critical miss roll of `total` may show for `weapon` (Screen "CRITICAL
/// MISSES", "UNARMED CRITICAL MISSES - STRIKING AND PARRYING", "FIREARM CRITICAL MISSES"),
/// with the text's exceptions: a crushing melee weapon rolls again on "breaks" and drops
/// the weapon unless it breaks again (the log shows the second roll); impaling and ranged
/// weapons roll again on "hit yourself"; an impaling or missile weapon that would fly
/// just drops; a ranged weapon's fall is losing balance; recoil does not knock down a
/// shooter 5 ST over the minimum (read as off balance).
pub(super) fn miss_results(table: &str, total: i64, w: &Arm) -> Vec<&'static str> {
    let ranged = w.ranged.is_some();
    let off = "off balance: defenses -2 until its next turn";
    let mut out: Vec<&'static str> = match table {
        "critical miss table" => match total {
            ..=4 | 17.. => vec!["the weapon breaks"],
            5 => vec!["hits itself"],
            6 => vec!["hits itself (half damage)"],
            7 | 13 => vec![off],
            8 | 12 => vec!["the weapon turns in its hand: it must be readied"],
            9..=11 => vec!["drops the weapon"],
            14 if w.damage_type == "imp" || ranged => vec!["drops the weapon"],
            14 => vec!["the weapon flies out of reach"],
            15 => vec!["strains its shoulder: the weapon arm is useless"],
            _ if ranged => vec![off],
            _ => vec!["falls down"],
        },
        "unarmed critical miss table" => match total {
            ..=3 | 18.. => vec!["knocks itself out"],
            4 | 17 => vec!["hits with the wrong part: the hand is crippled"],
            5 => vec!["hits a wall instead"],
            6 => vec!["hits a wall instead (half damage)"],
            7 | 14 => vec!["stumbles past its foe and ends facing away"],
            8 => vec!["falls down"],
            9..=11 => vec![off],
            12 => vec!["trips"],
            13 => vec!["lets its guard down: defenses -2 until its next turn"],
            15 => vec!["pulls a muscle"],
            _ => vec!["strains its shoulder: the weapon arm is useless"],
        },
        _ => match total {
            ..=4 | 16 | 17 => vec!["the weapon breaks"],
            5 | 6 => vec!["hits itself"],
            7 => vec![off],
            8 | 12 => vec!["a dud: the shot is wasted"],
            9..=11 => vec!["the weapon jams"],
            13 | 14 => vec!["drops the weapon"],
            15 => vec!["the recoil knocks it down", off],
            _ => vec!["the weapon explodes"],
        },
    };
    if table == "critical miss table" && w.damage_type == "cr" && !ranged {
        out.push("drops the weapon");
    }
    out
}

/// The word the reaction table gives a total (Lite "REACTION TABLE").
pub(super) fn reaction(total: i64) -> &'static str {
    match total {
        ..=0 => "Disastrous",
        1..=3 => "Very Bad",
        4..=6 => "Bad",
        7..=9 => "Poor",
        10..=12 => "Neutral",
        13..=15 => "Good",
        16..=18 => "Very Good",
        _ => "Excellent",
    }
}

/// The group bonus (Lite "GROUP COMBAT").
pub(super) fn group_bonus(n: i64) -> i64 {
    match n {
        ..=1 => 0,
        2..=4 => 2,
        5 | 6 => 4,
        7 | 8 => 6,
        _ => 8,
    }
}
