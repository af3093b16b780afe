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

    /// One degree better: what ducking behind this cover (or dropping flat in the open)
    /// gives until the unit's next turn (decision on "Combat Actions", Movement: the text
    /// lets the move be a duck, roll or leap without saying what it is worth; we rate a
    /// duck as one degree of cover, which is how Captain Allen's duck behind the tree in
    /// "Example Combats" reads).
    pub fn raised(self) -> Cover {
        match self {
            Cover::None => Cover::Partial,
            Cover::Partial => Cover::Half,
            Cover::Half | Cover::NearTotal => Cover::NearTotal,
        }
    }
}

/// The Difficulty Level of a duck (Acrobatics) or a leap (Athletics) made as the move
/// ("Combat Actions", Movement: they "may require" a roll; we take Routine, DL 7, from
/// "Unopposed Checks", for every such stunt).
pub const MOVE_STUNT_DL: i32 = 7;

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

/// What one attack roll counts less against its target `i` (from 0) of several: nothing
/// against the first, 2 less against each after ("Rate of Fire"; Ree's example).
pub fn target_penalty(i: usize) -> i32 {
    -2 * i as i32
}

/// The one attack roll's total against each of `targets` targets ([`target_penalty`]).
/// None when the rate of fire does not allow that many.
pub fn totals_per_target(total: i32, rof: RateOfFire, targets: usize) -> Option<Vec<i32>> {
    (targets >= 1 && targets <= rof.max_targets())
        .then(|| (0..targets).map(|i| total + target_penalty(i)).collect())
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

/// One combatant's (or one NPC group's) initiative: the roll's total (1d6 + Initiative),
/// the Initiative rating for ties, and who it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InitiativeRoll<T> {
    /// 1d6 + Initiative.
    pub total: i32,
    /// The Initiative rating.
    pub rating: i32,
    /// Who rolled (a character or a group of NPCs sharing one roll).
    pub who: T,
}

/// The order of turns ("Combat Actions", Initiative: 1d6 + Initiative, groups of NPCs may
/// share one roll): highest total first; equal totals by the higher Initiative rating,
/// then by the order given (a tie-break the text does not give).
pub fn initiative_order<T: Copy>(rolls: &[InitiativeRoll<T>]) -> Vec<T> {
    let mut v: Vec<(usize, &InitiativeRoll<T>)> = rolls.iter().enumerate().collect();
    v.sort_by(|a, b| {
        b.1.total
            .cmp(&a.1.total)
            .then(b.1.rating.cmp(&a.1.rating))
            .then(a.0.cmp(&b.0))
    });
    v.into_iter().map(|(_, r)| r.who).collect()
}

/// How far each band reaches on the map, in hexes of 1 metre (rules/README.md decision 6):
/// a target at a distance up to `melee` is at Melee, up to `close` at Close, and so on;
/// beyond `long` it is Far. The text gives bands no lengths, so a scenario sets them; the
/// defaults (1, 10, 30, 100) make Close "a reasonable shot with a small projectile weapon
/// or a thrown object" and Long a rifle shot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BandSizes {
    /// Farthest Melee distance.
    pub melee: u32,
    /// Farthest Close distance; also how far a character moves in a turn.
    pub close: u32,
    /// Farthest Medium distance.
    pub medium: u32,
    /// Farthest Long distance.
    pub long: u32,
}

impl Default for BandSizes {
    fn default() -> Self {
        Self {
            melee: 1,
            close: 10,
            medium: 30,
            long: 100,
        }
    }
}

impl BandSizes {
    /// The band of a target `hexes` away (0: Self).
    pub fn band(&self, hexes: u32) -> Band {
        match hexes {
            0 => Band::SelfBand,
            d if d <= self.melee => Band::Melee,
            d if d <= self.close => Band::Close,
            d if d <= self.medium => Band::Medium,
            d if d <= self.long => Band::Long,
            _ => Band::Far,
        }
    }

    /// How far a character moves in its turn: "a distance equal to one Close range band".
    pub fn move_hexes(&self) -> u32 {
        self.close
    }

    /// True when the sizes grow band by band (a scenario check).
    pub fn is_ordered(&self) -> bool {
        1 <= self.melee
            && self.melee < self.close
            && self.close < self.medium
            && self.medium < self.long
    }
}

/// The active defenses ("Combat Actions"): a Parry rolls 1d6 plus Soldier plus Melee; a
/// Dodge 1d6 plus Agent plus Acrobatics against a melee attack, 1d6 plus Tech plus
/// Acrobatics against a ranged one. Either way the defender forfeits its next action and
/// the roll's total is its Defense against that attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ActiveDefense {
    /// With a melee weapon, against a melee attack.
    Parry,
    /// Out of the way.
    Dodge,
}

/// Which attribute and which skill a defense rolls: (attribute, skill) as names.
pub fn defense_roll_of(
    defense: ActiveDefense,
    ranged_attack: bool,
) -> (&'static str, &'static str) {
    match (defense, ranged_attack) {
        (ActiveDefense::Parry, _) => ("Soldier", "Melee"),
        (ActiveDefense::Dodge, false) => ("Agent", "Acrobatics"),
        (ActiveDefense::Dodge, true) => ("Tech", "Acrobatics"),
    }
}

/// True when a parry is allowed: only with a melee weapon in hand ("Combat Actions",
/// Parrying), and only against a melee attack. The second half is a decision: the text
/// says what a parry is made with, not what it can stop; bullets and lasers are dodged,
/// not parried.
pub fn may_parry(has_melee_weapon: bool, ranged_attack: bool) -> bool {
    has_melee_weapon && !ranged_attack
}

/// The Defense an attack is rolled against after an active defense: the defense roll's
/// total replaces the Defense rating ("acts as your Defense"); cover still adds to it.
pub fn defended_against(defense_total: i32, cover: Cover) -> i32 {
    defense_total + cover.bonus()
}

/// Everyone an explosion reaches (table note "*": every individual in a Close range band
/// from the point of detonation): the indices of `distances` (hexes from the point) at
/// Close or nearer.
pub fn blast_victims(distances: &[u32], sizes: &BandSizes) -> Vec<usize> {
    distances
        .iter()
        .enumerate()
        .filter(|(_, d)| sizes.band(**d) <= Band::Close)
        .map(|(i, _)| i)
        .collect()
}

/// How long a flash-bang blinds those it reaches who do not dodge it (table note "*": two
/// rounds), counted in the victim's own turns so that it always loses two of them.
pub const FLASH_BLIND_ROUNDS: u32 = 2;
