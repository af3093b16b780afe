//! Damage and injury (vergeworlds-rough-methods.txt, "Damage", "Blunt Trauma", "Damage to
//! Armor", "Armor and Barriers", "Penetration Delivered to the Target", "Penetrating
//! Injuries", "Wound Delivered to the Target", "Injury to the Target"; "NPC Categories" for
//! mooks) as plain functions.
//!
//! Decisions where the text is silent:
//! - [`major_state`]: the text names what injuries of +3, +7, +9, +13 and +16 mean but its
//!   effects table is missing. A major character is out of the fight with an accumulated
//!   injury of +9 or worse ("really severe"), or a penetrating injury of +7 or worse to the
//!   head, neck, torso or hips; dead at +13 or worse to the head, neck, chest or abdomen
//!   ("entire body parts destroyed") or +16 anywhere.
//! - The cascade of equal injuries runs over all of a target's injuries, as the rule is
//!   written ("if the target already has an injury with the same Injury Score"); the new
//!   injury keeps its location.

use super::combat::Location;
use super::score::{ominus, score, shift};
use serde::{Deserialize, Serialize};

/// The Penetration of a muscle-powered blow ("Damage"): the 2d6 `roll` row-shifted by the
/// weapon's RS and the wielder's unarmed RS.
pub fn muscle_pen(roll: i32, rs: f64) -> f64 {
    shift(roll.max(1) as f64, rs)
}

/// What armor or a barrier did to a blow ("Armor and Barriers").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArmorResult {
    /// The armor roll after its row shifts (0 when bypassed).
    pub stopped: f64,
    /// Penetration left.
    pub through: f64,
    /// Whether the roll was under the activation and the blow bypassed it.
    pub bypassed: bool,
}

/// Armor against a blow of `pen`: the 2d6 `roll`, row-shifted by the armor's RS and the
/// attack's AP RS, comes off the Penetration; a roll under `activation` bypasses the armor.
pub fn armor(pen: f64, roll: i32, armor_rs: f64, ap_rs: f64, activation: i32) -> ArmorResult {
    if roll < activation {
        return ArmorResult {
            stopped: 0.0,
            through: pen,
            bypassed: true,
        };
    }
    let stopped = shift(roll.max(1) as f64, armor_rs + ap_rs);
    ArmorResult {
        stopped,
        through: (pen - stopped).max(0.0),
        bypassed: false,
    }
}

/// The Penetration Limit of a roll ("Penetration Delivered to the Target"): the 2d6 roll
/// row-shifted by the target's Penetration Limit RS (0 for Size 0).
pub fn pen_limit(roll: i32, rs: f64) -> f64 {
    // No row shift (Size 0): the die roll itself, not read through the score grid.
    shift(roll.max(1) as f64, rs)
}

/// One injury: its score and where.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Injury {
    /// Injury Score.
    pub score: i32,
    /// Where.
    pub location: Location,
    /// Whether it was a penetrating injury.
    pub penetrating: bool,
}

/// The injuries one blow leaves ("Injury to the Target"): the primary score and the extra
/// injuries of the leftover quarter.
#[derive(Clone, Debug, PartialEq)]
pub struct Blow {
    /// Penetration the target absorbed.
    pub absorbed: f64,
    /// Whether the blow was a penetrating injury.
    pub penetrating: bool,
    /// The Wound after the Wound Score Limit.
    pub wound: f64,
    /// The exact Injury Score before rounding down.
    pub exact: f64,
    /// The primary injury then the extras, scores only.
    pub scores: Vec<i32>,
    /// Whether Penetration was left over (it blew through).
    pub blew_through: bool,
}

/// A blow's injuries: `pen` delivered past armor against a Penetration Limit of `limit`
/// (whose unshifted 2d6 was `limit_roll`), a Wound of `wound` limited to the target's
/// `wound_limit`, plus the target's `susceptibility`.
pub fn blow(
    pen: f64,
    limit: f64,
    limit_roll: i32,
    wound: f64,
    wound_limit: f64,
    susceptibility: f64,
) -> Blow {
    let absorbed = pen.min(limit);
    let wound = wound.min(wound_limit);
    if absorbed <= 0.0 {
        return Blow {
            absorbed,
            penetrating: false,
            wound,
            exact: f64::NEG_INFINITY,
            scores: Vec::new(),
            blew_through: false,
        };
    }
    let exact = wound + score(absorbed) + susceptibility;
    let scores = injury_scores(exact);
    let primary = scores.first().copied().unwrap_or(i32::MIN);
    let penetrating = (pen >= limit / 2.0 && limit_roll > 5) || primary >= 10;
    Blow {
        absorbed,
        penetrating,
        wound,
        exact,
        scores,
        blew_through: pen > limit,
    }
}

/// "Injury to the Target": an exact score rounded down, with the extra injuries of its
/// leftover quarter: ¼ gives one 2 less, ½ one 1 less, ¾ two, 1 and 2 less.
pub fn injury_scores(exact: f64) -> Vec<i32> {
    let whole = exact.floor();
    let quarters = ((exact - whole) * 4.0 + 1e-6).floor() as i32;
    let p = whole as i32;
    match quarters {
        1 => vec![p, p - 2],
        2 => vec![p, p - 1],
        3 => vec![p, p - 1, p - 2],
        _ => vec![p],
    }
}

/// Records a new injury with the cascade ("Injury to the Target"): an existing injury of
/// the same score is erased and the new one goes up by 1, as often as that repeats. Scores
/// under 1 are no injury.
pub fn record(injuries: &mut Vec<Injury>, mut new: Injury) {
    if new.score < 1 {
        return;
    }
    while let Some(i) = injuries.iter().position(|j| j.score == new.score) {
        let old = injuries.remove(i);
        new.penetrating |= old.penetrating && old.location == new.location;
        new.score += 1;
    }
    injuries.push(new);
}

/// The state injuries leave a character in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Hurt {
    /// Still fighting.
    #[default]
    Fighting,
    /// Out of the fight.
    Down,
    /// Dead.
    Dead,
}

/// What kind of mook a character is, for the mook thresholds ("Mooks" and its two
/// exceptions, vergeworlds-rough-methods.txt).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MookKind {
    /// A living mook: the three thresholds.
    #[default]
    Ordinary,
    /// A machine, robot or squirm mobile: an injury to a limb only disables that limb;
    /// injuries to the main body count as for any mook.
    Robot,
    /// Squirm or Gummi: penetrating injuries mean nothing special; only an Injury of 7 or
    /// more takes it out.
    Squirm,
}

/// "Mooks": down at any Injury of 7 or worse, a penetrating injury of 5 or worse to a
/// limb, or of 3 or worse to the head, neck, torso or hips; robots lose only the limb
/// when a limb is hurt, squirm and gummis drop only at 7 ([`MookKind`]).
pub fn mook_down(injury: &Injury, kind: MookKind) -> bool {
    let limb = injury.location.limb();
    match kind {
        MookKind::Squirm => injury.score >= 7,
        MookKind::Robot if limb => false,
        _ if injury.score >= 7 => true,
        _ if !injury.penetrating => false,
        _ => injury.score >= if limb { 5 } else { 3 },
    }
}

/// A major character's state from its injuries (decision in the module doc).
pub fn major_state(injuries: &[Injury]) -> Hurt {
    let vital = |l: Location| {
        matches!(
            l,
            Location::Head | Location::Neck | Location::Chest | Location::Abdomen
        )
    };
    if injuries
        .iter()
        .any(|i| i.score >= 16 || (i.score >= 13 && vital(i.location)))
    {
        return Hurt::Dead;
    }
    if injuries
        .iter()
        .any(|i| i.score >= 9 || (i.penetrating && !i.location.limb() && i.score >= 7))
    {
        return Hurt::Down;
    }
    Hurt::Fighting
}

/// Blunt trauma through armor ("Blunt Trauma"): the Injury Score of the blow to the armor
/// (the Penetration it absorbed and the attack's Blunt Wound), less the weapon's Sharp
/// score, less any excess of the armor's Blunt over the Blunt Wound, then ⊖ the armor's Pad
/// (raised by any excess of the Blunt Wound over the armor's Blunt). `None`: nothing gets
/// through.
pub fn blunt_trauma(
    absorbed_by_armor: f64,
    blunt_wound: f64,
    sharp: f64,
    armor_blunt: f64,
    pad: Option<f64>,
) -> Option<f64> {
    if absorbed_by_armor <= 0.0 {
        return None;
    }
    let mut injury = blunt_wound + score(absorbed_by_armor) - sharp;
    if armor_blunt > blunt_wound {
        injury -= armor_blunt - blunt_wound;
    }
    if let Some(pad) = pad {
        let pad = pad + (blunt_wound - armor_blunt).max(0.0);
        injury = ominus(injury, pad);
    }
    injury.is_finite().then_some(injury)
}

/// What an Injury Score to the armor does to it ("Damage to Armor").
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Degrade {
    /// Nothing.
    None,
    /// Activation raised to at least this, armor RS lowered by this much.
    Worn {
        /// The new least activation.
        activation: i32,
        /// RS off the armor's original score.
        loss: f64,
    },
    /// Destroyed.
    Destroyed,
}

/// "Damage to Armor": Injury 12 → Activation 4, 13 → 5, 14 → 6 and −½, 15 → 7 and −1, 16
/// or more destroyed.
pub fn degrade(injury: i32) -> Degrade {
    match injury {
        i if i >= 16 => Degrade::Destroyed,
        15 => Degrade::Worn {
            activation: 7,
            loss: 1.0,
        },
        14 => Degrade::Worn {
            activation: 6,
            loss: 0.5,
        },
        13 => Degrade::Worn {
            activation: 5,
            loss: 0.0,
        },
        12 => Degrade::Worn {
            activation: 4,
            loss: 0.0,
        },
        _ => Degrade::None,
    }
}

/// Hardness of weapons and armor ("Damage to Armor", in rough order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Hardness {
    /// Leather, wood, cloth.
    #[default]
    Organic,
    /// Bone, shell.
    Mineralized,
    /// Gold, lead.
    VerySoftMetal,
    /// Aluminum, copper, silver.
    SoftMetal,
    /// Bronze.
    Bronze,
    /// Iron and steel.
    Steel,
    /// Rock and ceramics.
    Ceramic,
    /// Adamant, carboplast.
    Advanced,
    /// Armor-piercing projectiles.
    ArmorPiercing,
}

/// "Damage to Armor": whether a hit degrades the armor: anything that penetrates it (but
/// flexible armor is not degraded by Smash), or anything harder than it.
pub fn degrades(
    penetrated: bool,
    smash: bool,
    flexible: bool,
    weapon: Hardness,
    armor: Hardness,
) -> bool {
    if flexible && smash {
        return false;
    }
    penetrated || weapon > armor
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(score: i32) -> Injury {
        Injury {
            score,
            location: Location::Abdomen,
            penetrating: false,
        }
    }

    /// "Injury to the Target", Helen Highwater's example: injuries +4, +5, +6 and a new +4
    /// cascade into one +7.
    #[test]
    fn helen_highwaters_cascade() {
        let mut injuries = vec![at(4), at(5), at(6)];
        record(&mut injuries, at(4));
        assert_eq!(injuries.len(), 1);
        assert_eq!(injuries[0].score, 7);
    }

    /// "Injury to the Target": the leftover quarter gives extra injuries.
    #[test]
    fn quarters_give_extra_injuries() {
        assert_eq!(injury_scores(6.0), vec![6]);
        assert_eq!(injury_scores(6.25), vec![6, 4]);
        assert_eq!(injury_scores(6.5), vec![6, 5]);
        assert_eq!(injury_scores(6.75), vec![6, 5, 4]);
    }

    /// "Penetration Delivered", "Penetrating Injuries", "Wound Delivered": Pen 30 past
    /// armor against a Penetration Limit roll of 8 (Size 0): 8 absorbed, score 6; Wound -2:
    /// injury +4, penetrating (30 ≥ 4 and the roll is over 5); it blew through.
    #[test]
    fn a_bullet_through_the_body() {
        let b = blow(30.0, pen_limit(8, 0.0), 8, -2.0, 8.0, 0.0);
        assert_eq!(b.absorbed, 8.0);
        assert_eq!(b.scores, vec![4]);
        assert!(b.penetrating);
        assert!(b.blew_through);
        // The same against a Penetration Limit roll of 5: never penetrating (roll not > 5),
        // 5 absorbed: score 4.75, injury 2.75: +2, +1 and +0.
        let low = blow(30.0, 5.0, 5, -2.0, 8.0, 0.0);
        assert!(!low.penetrating);
        assert_eq!(low.scores, vec![2, 1, 0]);
        // A wide blow is cut to the Wound Score Limit.
        assert_eq!(blow(4.0, 8.0, 8, 12.0, 8.0, 0.0).wound, 8.0);
        // Injury 10 or worse is always penetrating.
        assert!(blow(2.0, 12.0, 4, 8.0, 9.0, 0.0).penetrating);
    }

    /// "Armor and Barriers": the roll shifted by armor and AP comes off the Pen; under the
    /// activation the armor is bypassed.
    #[test]
    fn armor_rolls() {
        let a = armor(24.0, 8, 1.0, 0.0, 3);
        assert_eq!(a.stopped, 11.0);
        assert_eq!(a.through, 13.0);
        let b = armor(24.0, 2, 1.0, 0.0, 3);
        assert!(b.bypassed);
        assert_eq!(b.through, 24.0);
        // AP -2 RS: 8 shifted +1 -2 = 5.6.
        assert_eq!(armor(24.0, 8, 1.0, -2.0, 0).stopped, 5.6);
        assert_eq!(armor(4.0, 12, 2.0, 0.0, 0).through, 0.0);
        assert_eq!(muscle_pen(8, -2.0), 4.0);
    }

    /// "Mooks": Injury 7; penetrating 5 to a limb, 3 to the body.
    #[test]
    fn mooks_drop_by_the_thresholds() {
        let hit = |score, location, penetrating| Injury {
            score,
            location,
            penetrating,
        };
        assert!(mook_down(
            &hit(7, Location::LeftArm, false),
            MookKind::Ordinary
        ));
        assert!(!mook_down(
            &hit(6, Location::Chest, false),
            MookKind::Ordinary
        ));
        assert!(mook_down(
            &hit(3, Location::Chest, true),
            MookKind::Ordinary
        ));
        assert!(!mook_down(
            &hit(4, Location::LeftLeg, true),
            MookKind::Ordinary
        ));
        assert!(mook_down(
            &hit(5, Location::LeftLeg, true),
            MookKind::Ordinary
        ));
        // Squirm and gummis: only an Injury of 7 or more, anywhere.
        assert!(!mook_down(&hit(6, Location::Chest, true), MookKind::Squirm));
        assert!(mook_down(
            &hit(7, Location::LeftLeg, false),
            MookKind::Squirm
        ));
        // Robots: a limb is only the limb, even at 8 ...
        assert!(!mook_down(
            &hit(8, Location::LeftLeg, false),
            MookKind::Robot
        ));
        assert!(!mook_down(
            &hit(5, Location::LeftLeg, true),
            MookKind::Robot
        ));
        // ... but penetrating injuries to the main body count normally (issue 26 item 9).
        assert!(mook_down(&hit(3, Location::Chest, true), MookKind::Robot));
        assert!(!mook_down(&hit(6, Location::Chest, false), MookKind::Robot));
        assert!(mook_down(&hit(7, Location::Chest, false), MookKind::Robot));
    }

    /// The decision for major characters.
    #[test]
    fn major_characters_keep_going_longer() {
        let hit = |score, location, penetrating| Injury {
            score,
            location,
            penetrating,
        };
        assert_eq!(
            major_state(&[hit(7, Location::LeftArm, false)]),
            Hurt::Fighting
        );
        assert_eq!(
            major_state(&[hit(4, Location::Chest, true)]),
            Hurt::Fighting
        );
        assert_eq!(major_state(&[hit(7, Location::Chest, true)]), Hurt::Down);
        assert_eq!(major_state(&[hit(9, Location::LeftLeg, false)]), Hurt::Down);
        assert_eq!(major_state(&[hit(13, Location::Head, false)]), Hurt::Dead);
        assert_eq!(
            major_state(&[hit(13, Location::LeftLeg, false)]),
            Hurt::Down
        );
    }

    /// "Blunt Trauma": 11 Pen absorbed (score 7) with Blunt Wound 2 against armor Blunt 4
    /// and Pad 3: 2 + 7 - (4 - 2) = 7, then 7 ⊖ 3 = score of (11 - 2.8) = score 8.2 = 6
    /// (to the quarter: 6.07 → 6).
    #[test]
    fn blunt_trauma_through_armor() {
        assert_eq!(blunt_trauma(11.0, 2.0, 0.0, 4.0, Some(3.0)), Some(6.0));
        assert_eq!(blunt_trauma(11.0, 2.0, 0.0, 4.0, None), Some(7.0));
        assert_eq!(blunt_trauma(11.0, 2.0, 1.0, 0.0, None), Some(8.0));
        assert_eq!(blunt_trauma(0.0, 2.0, 0.0, 0.0, None), None);
    }

    /// "Damage to Armor": the thresholds and what degrades what.
    #[test]
    fn armor_degradation() {
        assert_eq!(degrade(11), Degrade::None);
        assert_eq!(
            degrade(14),
            Degrade::Worn {
                activation: 6,
                loss: 0.5
            }
        );
        assert_eq!(degrade(16), Degrade::Destroyed);
        assert!(!degrades(
            true,
            true,
            true,
            Hardness::Steel,
            Hardness::Organic
        ));
        assert!(degrades(
            false,
            false,
            false,
            Hardness::Steel,
            Hardness::Organic
        ));
        assert!(!degrades(
            false,
            false,
            false,
            Hardness::Organic,
            Hardness::Steel
        ));
    }
}
