//! Personal combat (main-sequence.txt, "Combat Actions", "Range Bands", "Rate of Fire",
//! "Damage", "Armor and Cover", "Knockout and Death").

use serde::{Deserialize, Serialize};

/// Cover ("Armor and Cover"): partial +2, about half the body +4, near total +6 to Defense.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cover {
    /// In the open.
    #[default]
    None,
    /// +2.
    Partial,
    /// +4.
    Half,
    /// +6.
    NearTotal,
}

impl Cover {
    /// The Defense bonus.
    pub fn bonus(self) -> i32 {
        match self {
            Cover::None => 0,
            Cover::Partial => 2,
            Cover::Half => 4,
            Cover::NearTotal => 6,
        }
    }
}

/// The six range bands, closest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Band {
    /// One's own body.
    SelfBand,
    /// Arm's reach.
    Melee,
    /// A thrown object.
    Close,
    /// Beyond thrown objects.
    Medium,
    /// Beyond small arms.
    Long,
    /// Barely in reach of heavy weapons.
    Far,
}

/// A weapon reaches its band or closer ("Range Bands").
pub fn in_reach(weapon: Band, target: Band) -> bool {
    target <= weapon
}

/// Rates of fire ("Rate of Fire").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RateOfFire {
    /// One target.
    Single,
    /// Two targets.
    SemiAuto,
    /// Up to three.
    Burst,
    /// Up to ten in line of sight.
    FullAuto,
}

impl RateOfFire {
    /// Most targets of one attack.
    pub fn max_targets(self) -> usize {
        match self {
            RateOfFire::Single => 1,
            RateOfFire::SemiAuto => 2,
            RateOfFire::Burst => 3,
            RateOfFire::FullAuto => 10,
        }
    }
}

/// The one attack roll's total against each of `targets` targets: the full total against
/// the first, 2 less against each after ("Rate of Fire"; Ree's example). None when the rate
/// of fire does not allow that many.
pub fn totals_per_target(total: i32, rof: RateOfFire, targets: usize) -> Option<Vec<i32>> {
    (targets >= 1 && targets <= rof.max_targets())
        .then(|| (0..targets).map(|i| total - 2 * i as i32).collect())
}

/// What an attack total does against a Defense (plus cover): None on a miss, else the
/// damage: the weapon's plus the margin over Defense ("Attacking", "Damage"). A total equal
/// to the Defense hits with no extra (the task rule: meet or beat).
pub fn attack_damage(total: i32, defense: i32, cover: Cover, weapon_damage: i32) -> Option<i32> {
    let d = defense + cover.bonus();
    (total >= d).then_some(weapon_damage + total - d)
}

/// Damage Soak: the highest armor worn, plus 2 for the Tough tag ("Armor and Cover").
pub fn soak(armor: &[i32], tough: bool) -> i32 {
    armor.iter().copied().max().unwrap_or(0).max(0) + if tough { 2 } else { 0 }
}

/// Hit Points after `damage` less `soak`; never below zero ("Damage").
pub fn take_damage(hp: i32, damage: i32, soak: i32) -> i32 {
    (hp - (damage - soak).max(0)).max(0)
}

/// What 0 Hit Points means ("Knockout and Death").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Down {
    /// Bashing damage: incapacitated, back with 1 HP when the fight ends.
    KnockedOut,
    /// Lethal damage: dies after `rounds` rounds (Soldier) unless stabilized.
    Dying {
        /// Rounds left.
        rounds: i32,
    },
}

/// The state of a character brought to 0 Hit Points by bashing or lethal damage.
pub fn brought_down(bashing: bool, soldier: i32) -> Down {
    if bashing {
        Down::KnockedOut
    } else {
        Down::Dying { rounds: soldier }
    }
}

/// The Knowledge (Medicine) DL of the `attempt`-th try (from 1) to stabilize a dying
/// character: 9, then 11, then 13; None after the third.
pub fn stabilize_dl(attempt: u32) -> Option<i32> {
    match attempt {
        1 => Some(9),
        2 => Some(11),
        3 => Some(13),
        _ => None,
    }
}
