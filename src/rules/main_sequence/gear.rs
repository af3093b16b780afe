//! The weapons and armor tables (main-sequence.txt, "Weapons, Armor & Gear") as data a
//! scenario names, and the ammunition they use.
//!
//! Decisions where the text is silent: a rate-of-fire attack uses one round per target
//! for single shots and semi-automatic fire, three per target for a burst and ten for a
//! full-auto spray; weapons with "N/A" ammunition (lasers, melee) never run out; thrown
//! explosives are used up one per throw and have no spare loads (a character carrying
//! three grenades lists "Grenade" three times). The Flaregun of the gear table fires one
//! flare a load, in single shots that reach Close (the table gives it no range). With the
//! text's optional "Cinematic Ammunition" rule nothing is counted ([`rounds_used`] is then
//! not called).

use super::combat::{Band, RateOfFire};
use serde::{Deserialize, Serialize};

/// The skill a weapon is used with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WeaponSkill {
    /// Melee weapons.
    Melee,
    /// Small arms.
    Ranged,
    /// Heavy weapons.
    Gunnery,
    /// Thrown explosives.
    Athletics,
    /// Fists, kicks and throws (the skill table's Unarmed).
    Unarmed,
}

/// One row of the weapons table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    /// Name as in the table.
    pub name: String,
    /// The skill it is used with.
    pub skill: WeaponSkill,
    /// Base damage.
    pub damage: i32,
    /// Bashing ("Bash"): brings a character down unconscious, not dying.
    pub bash: bool,
    /// The farthest band it reaches.
    pub range: Band,
    /// The rates of fire it allows (empty for melee: one target).
    pub rates: Vec<RateOfFire>,
    /// Rounds in a full load, None when it needs none.
    pub ammo: Option<u32>,
    /// Explodes against everyone within Close of the point it strikes.
    pub explosive: bool,
    /// Also blinds everyone within Close of the target for two rounds (flash-bang).
    pub blinds: bool,
}

/// One row of the armor table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Armor {
    /// Name as in the table.
    pub name: &'static str,
    /// Damage Soak.
    pub soak: i32,
}

/// The armor table.
pub const ARMOR: [Armor; 4] = [
    Armor {
        name: "Reinforced Clothing",
        soak: 1,
    },
    Armor {
        name: "Armored Clothing",
        soak: 2,
    },
    Armor {
        name: "Armored Plating",
        soak: 3,
    },
    Armor {
        name: "Exo-Armor",
        soak: 4,
    },
];

/// Looks up armor by its name in the table (case as written).
pub fn armor(name: &str) -> Option<Armor> {
    ARMOR.iter().copied().find(|a| a.name == name)
}

/// The weapons table, in the text's order.
pub fn weapons() -> Vec<Weapon> {
    use Band::{Close, Far, Long, Medium, Melee};
    use RateOfFire::{Burst, FullAuto, SemiAuto, Single};
    use WeaponSkill as S;
    let w = |name: &str,
             skill,
             damage,
             bash,
             range,
             rates: &[RateOfFire],
             ammo: Option<u32>,
             explosive| Weapon {
        name: name.into(),
        skill,
        damage,
        bash,
        range,
        rates: rates.to_vec(),
        ammo,
        explosive,
        blinds: false,
    };
    let mut v = vec![
        w("Knife", S::Melee, 2, false, Melee, &[], None, false),
        w("1H Edged", S::Melee, 3, false, Melee, &[], None, false),
        w("1H Blunt", S::Melee, 3, true, Melee, &[], None, false),
        w("2H Edged", S::Melee, 4, false, Melee, &[], None, false),
        w("2H Blunt", S::Melee, 4, true, Melee, &[], None, false),
        w(
            "Light Pistol",
            S::Ranged,
            4,
            false,
            Close,
            &[SemiAuto],
            Some(15),
            false,
        ),
        w(
            "Heavy Pistol",
            S::Ranged,
            5,
            false,
            Medium,
            &[SemiAuto],
            Some(8),
            false,
        ),
        w(
            "Laser Pistol",
            S::Ranged,
            5,
            false,
            Medium,
            &[SemiAuto, Burst],
            None,
            false,
        ),
        w(
            "Light Rifle",
            S::Ranged,
            5,
            false,
            Long,
            &[Single],
            Some(5),
            false,
        ),
        w(
            "Heavy Rifle",
            S::Ranged,
            6,
            false,
            Long,
            &[Single],
            Some(8),
            false,
        ),
        w(
            "Battle Rifle",
            S::Ranged,
            5,
            false,
            Medium,
            &[SemiAuto, Burst, FullAuto],
            Some(30),
            false,
        ),
        w(
            "Laser Rifle",
            S::Ranged,
            6,
            false,
            Long,
            &[SemiAuto, Burst],
            None,
            false,
        ),
        w(
            "Sub-Machine Gun",
            S::Ranged,
            5,
            false,
            Close,
            &[Burst, FullAuto],
            Some(30),
            false,
        ),
        w(
            "Shotgun",
            S::Ranged,
            6,
            false,
            Close,
            &[SemiAuto],
            Some(10),
            false,
        ),
        w(
            "Light Machine Gun",
            S::Gunnery,
            8,
            false,
            Long,
            &[Burst, FullAuto],
            Some(100),
            false,
        ),
        w(
            "Assault Cannon",
            S::Gunnery,
            10,
            false,
            Long,
            &[SemiAuto],
            Some(20),
            false,
        ),
        w(
            "Missile Launcher",
            S::Gunnery,
            12,
            false,
            Far,
            &[Single],
            Some(1),
            false,
        ),
        w(
            "Grenade",
            S::Athletics,
            10,
            false,
            Close,
            &[Single],
            Some(1),
            true,
        ),
        w(
            "Flash-bang",
            S::Athletics,
            5,
            true,
            Close,
            &[Single],
            Some(1),
            true,
        ),
        w(
            "Flaregun",
            S::Ranged,
            3,
            false,
            Close,
            &[Single],
            Some(1),
            false,
        ),
    ];
    for f in &mut v {
        f.blinds = f.name == "Flash-bang";
    }
    v
}

/// True for a thrown explosive: used up when thrown, with no spare loads.
pub fn thrown(w: &Weapon) -> bool {
    w.explosive && w.skill == WeaponSkill::Athletics
}

/// Looks up a weapon by its name in the table.
pub fn weapon(name: &str) -> Option<Weapon> {
    weapons().into_iter().find(|w| w.name == name)
}

/// Rounds an attack at `targets` targets with rate of fire `rof` uses (the module's
/// decision): single and semi-automatic one per target, a burst three per target, a
/// full-auto spray ten.
pub fn rounds_used(rof: RateOfFire, targets: usize) -> u32 {
    let t = targets.max(1) as u32;
    match rof {
        RateOfFire::Single | RateOfFire::SemiAuto => t,
        RateOfFire::Burst => 3 * t,
        RateOfFire::FullAuto => 10,
    }
}

/// True when a weapon with `loaded` rounds left (None: it needs none) can make that
/// attack.
pub fn can_fire(loaded: Option<u32>, rof: RateOfFire, targets: usize) -> bool {
    loaded.is_none_or(|n| n >= rounds_used(rof, targets))
}
