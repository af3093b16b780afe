//! Combat arithmetic of vergeworlds-rough-methods.txt as plain functions: Action Points and
//! the order of turns ("Combat Time and Pacing"), attitudes ("Attitude"), attack difficulty
//! ("Combat Actions", "Attack"), the conditions table, Careful Aim, projectile Speed
//! ("Range"), rapid fire and minimum strength ("Ranged Attacks (Advanced)"), hit location
//! and goodies ("Hit Location"), high-speed melee and cramping ("Melee Attacks
//! (Advanced)"), grappling Control ("Grappling") and area fire ("Area Fire",
//! "Fragmentation", "Misses").
//!
//! Decisions where the text is silent (each a named item below):
//! - [`HUMAN_CHART`]: the text rolls 1d10 "on the hit location chart" without printing
//!   one; ours is head, neck, two arms, chest twice, abdomen, hips, two legs.
//! - [`action_points_per_round`]: Action Points a round follow from the Action Score the
//!   way the text's own formulas time a turn ("High Speed": a turn lasts value of
//!   [3 − Action Score] seconds; a round is about three seconds and a turn costs 5 AP).
//! - A failed defense roll adds nothing to the attack's difficulty (never lowers it).

use super::score::{oplus, score, value, whole_score};
use serde::{Deserialize, Serialize};

/// Action Points a turn costs ("Combat Time and Pacing").
pub const TURN_AP: i32 = 5;
/// The most Action Points carried into the next round.
pub const CARRY_AP: i32 = 5;
/// The penalty of each action beyond the first in a turn ("Multiple Actions").
pub const EXTRA_ACTION_PENALTY: i32 = -2;

/// Action Points gained each round by a character of `action_score` (decision in the module
/// doc): 5 × 3 s / value of [3 − Action Score] s, rounded: Action Score 0 gives 5, 1 gives
/// 8, 2 gives 11, 3 gives 15.
pub fn action_points_per_round(action_score: i32) -> i32 {
    (TURN_AP as f64 * 3.0 / value((3 - action_score) as f64)).round() as i32
}

/// Action Points carried over at the end of a round: unused ones, at most 5.
pub fn carried_over(ap: i32) -> i32 {
    ap.clamp(0, CARRY_AP)
}

/// How a character starts a combat ("Starting Combat").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Start {
    /// 1d6 − 1 Action Points held over.
    #[default]
    Normal,
    /// Expecting trouble: 5 held over.
    Waiting,
    /// Caught unaware: Awareness against DC 8; the degree of failure comes off 1d6 − 1.
    Surprised,
}

/// The starting pool ("Starting Combat"): `d6` the die, `awareness_degree` the degree of the
/// surprised character's Awareness check.
pub fn starting_pool(start: Start, d6: i32, awareness_degree: i32) -> i32 {
    match start {
        Start::Normal => d6 - 1,
        Start::Waiting => 5,
        Start::Surprised => (d6 - 1 + awareness_degree.min(0)).max(0),
    }
}

/// The DC of the surprised character's Awareness check.
pub const SURPRISE_DC: i32 = 8;

/// The turn-order key of a character ("Combat Time and Pacing"): most Action Points first,
/// then most left after the turn; the Coordination contest and simultaneous turns come
/// after (the caller breaks what is still equal).
pub fn order_key(ap: i32) -> (i32, i32) {
    (ap, ap - TURN_AP)
}

/// The multiple-actions penalty of the `nth` action of a turn (first is 1).
pub fn multiple_action_penalty(nth: u32) -> i32 {
    EXTRA_ACTION_PENALTY * nth.saturating_sub(1) as i32
}

/// A combat attitude ("Attitude").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Attitude {
    /// No bonus or penalty.
    #[default]
    Neutral,
    /// +1 Brawn, −2 to defense, no moving away, +1 Breath.
    Raging,
    /// +1 Brawn, −1 Coordination, no moving away, +1 Breath.
    Powerful,
    /// +1 to defend against melee attacks, −1 Brawn for muscle-powered attacks.
    Probing,
    /// +2 to one attack roll, −3 to any defense.
    Committed,
    /// +1 to all defense and situational Awareness, −2 to any attack.
    Cautious,
    /// +2 to one defense roll, −3 to any attack.
    FocusedDefense,
}

impl Attitude {
    /// Every attitude, for menus.
    pub const ALL: [Attitude; 7] = [
        Attitude::Neutral,
        Attitude::Raging,
        Attitude::Powerful,
        Attitude::Probing,
        Attitude::Committed,
        Attitude::Cautious,
        Attitude::FocusedDefense,
    ];

    /// Its name.
    pub fn word(self) -> &'static str {
        match self {
            Attitude::Neutral => "Neutral",
            Attitude::Raging => "Raging",
            Attitude::Powerful => "Powerful",
            Attitude::Probing => "Probing",
            Attitude::Committed => "Committed",
            Attitude::Cautious => "Cautious",
            Attitude::FocusedDefense => "Focused Defense",
        }
    }

    /// Its effect in one line.
    pub fn effect(self) -> &'static str {
        match self {
            Attitude::Neutral => "no bonus or penalty",
            Attitude::Raging => "+1 Brawn, -2 defense, no retreat, +1 Breath",
            Attitude::Powerful => "+1 Brawn, -1 Coordination, no retreat, +1 Breath",
            Attitude::Probing => "+1 melee defense, -1 Brawn on blows",
            Attitude::Committed => "+2 to one attack, -3 defense",
            Attitude::Cautious => "+1 defense and Awareness, -2 attack",
            Attitude::FocusedDefense => "+2 to one defense, -3 attack",
        }
    }

    /// Brawn added to blows.
    pub fn brawn(self) -> i32 {
        match self {
            Attitude::Raging | Attitude::Powerful => 1,
            Attitude::Probing => -1,
            _ => 0,
        }
    }

    /// Added to Coordination (so to attack and defense rolls) this turn.
    pub fn coordination(self) -> i32 {
        match self {
            Attitude::Powerful => -1,
            _ => 0,
        }
    }

    /// Added to an attack roll; `first` is whether the attitude's one-attack bonus is
    /// still unused.
    pub fn attack(self, first: bool) -> i32 {
        match self {
            Attitude::Committed if first => 2,
            Attitude::Cautious => -2,
            Attitude::FocusedDefense => -3,
            _ => 0,
        }
    }

    /// Added to a defense roll; `first` is whether the one-defense bonus is still unused.
    pub fn defense(self, melee: bool, first: bool) -> i32 {
        match self {
            Attitude::Raging => -2,
            Attitude::Probing if melee => 1,
            Attitude::Committed => -3,
            Attitude::Cautious => 1,
            Attitude::FocusedDefense if first => 2,
            _ => 0,
        }
    }

    /// Extra Breath the attitude costs.
    pub fn breath(self) -> i32 {
        match self {
            Attitude::Raging | Attitude::Powerful => 1,
            _ => 0,
        }
    }

    /// Whether the attitude forbids moving away from the target.
    pub fn holds_ground(self) -> bool {
        matches!(self, Attitude::Raging | Attitude::Powerful)
    }
}

/// The range score of `meters` as a whole number (at least 0 m counts as 1 m).
pub fn range_score(meters: f64) -> i32 {
    whole_score(meters.max(1.0))
}

/// The base difficulty of an attack ("Attack"): minus the target's Size, plus the larger of
/// the attacker's Size and −2 + the range score; never below 0.
pub fn base_difficulty(attacker_size: f64, target_size: f64, range_m: f64) -> i32 {
    let reach = -2.0 + range_score(range_m) as f64;
    ((-target_size + attacker_size.max(reach)).round() as i32).max(0)
}

/// "Range", Speed: +1 to the DC for every full multiple of the projectile's Speed (m) in
/// the range, at most half the range score.
pub fn speed_penalty(range_m: f64, speed: f64) -> i32 {
    if speed <= 0.0 {
        return 0;
    }
    let multiples = (range_m / speed).floor() as i32;
    multiples.min(range_score(range_m) / 2).max(0)
}

/// "Range", Speed: the target's defense bonus, +1 for every full multiple of the Speed
/// row-shifted by minus the target's Action Score.
pub fn speed_defense_bonus(range_m: f64, speed: f64, target_action_score: i32) -> i32 {
    if speed <= 0.0 {
        return 0;
    }
    let step = value(score(speed) - target_action_score as f64);
    (range_m / step).floor().max(0.0) as i32
}

/// "Careful Aim": +2, and +1 more to Aim when braced.
pub fn careful_aim(braced: bool) -> i32 {
    2 + i32::from(braced)
}

/// "Careful Aim": a shot that would fail by three degrees or less need not be fired.
pub fn aimed_shot_withheld(degree: i32) -> bool {
    (-3..0).contains(&degree)
}

/// Cover ("Target behind cover").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cover {
    /// 30%: −1.
    Light,
    /// 50%: −2.
    Moderate,
    /// 70%: −3.
    Heavy,
    /// 90% and more: −4.
    NearTotal,
}

impl Cover {
    /// The attack penalty.
    pub fn penalty(self) -> i32 {
        match self {
            Cover::Light => -1,
            Cover::Moderate => -2,
            Cover::Heavy => -3,
            Cover::NearTotal => -4,
        }
    }
}

/// "Cover": the penalty of people or obstacles in the way, −value of [2 × (obstacle's Size −
/// target's Size)] each, summed with fractions and rounded at the end (−½ rounds to −1).
pub fn intervening_cover(obstacle_sizes: &[f64], target_size: f64) -> i32 {
    let sum: f64 = obstacle_sizes
        .iter()
        .map(|s| value(2.0 * (s - target_size)))
        .sum();
    -((sum + 0.5).floor() as i32)
}

/// "Cramped": the penalty of a weapon of `bulk` in the hands of a wielder of `size`,
/// `slack` degrees less when only slightly cramped; never a bonus.
pub fn cramped(bulk: f64, size: f64, slack: f64) -> i32 {
    -((bulk - size - slack).max(0.0).round() as i32)
}

/// "Melee Defense": your weapon's Def plus, the opponent's minus.
pub fn weapon_defense(own_def: i32, opponent_def: i32) -> i32 {
    own_def - opponent_def
}

/// "Rapid Fire": the recoil added by firing `shots` in one action (score of \[shots\]).
pub fn rapid_fire_recoil(shots: u32) -> i32 {
    whole_score(shots.max(1) as f64)
}

/// "Minimum Strength": −1 for every point of Strength short of the weapon's Min Str or RCL.
pub fn min_strength_penalty(strength: i32, needed: i32) -> i32 {
    -(needed - strength).max(0)
}

/// "High Speed" (melee): the effective Brawn of a blow struck after moving `meters` this
/// turn: Brawn ⊕ 2 × (score of \[distance\] + Action Score − 8).
pub fn high_speed_brawn(brawn: f64, meters: f64, action_score: i32) -> f64 {
    if meters < 1.0 {
        return brawn;
    }
    oplus(brawn, 2.0 * (score(meters) + action_score as f64 - 8.0))
}

/// "High Speed" (melee): meters a second of a mover that went `meters` on its turn.
pub fn meters_per_second(meters: f64, action_score: i32) -> f64 {
    if meters <= 0.0 {
        return 0.0;
    }
    value(score(meters) + action_score as f64 - 3.0)
}

/// "High Speed" (melee), both moving: Brawn ⊕ 2 × (score of [relative motion] − 5).
pub fn relative_speed_brawn(brawn: f64, relative_mps: f64) -> f64 {
    if relative_mps < 1.0 {
        return brawn;
    }
    oplus(brawn, 2.0 * (score(relative_mps) - 5.0))
}

/// A hit location.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Location {
    /// Head.
    Head,
    /// Neck.
    Neck,
    /// Right arm.
    RightArm,
    /// Left arm.
    LeftArm,
    /// Chest (the center torso).
    Chest,
    /// Abdomen.
    Abdomen,
    /// Hips.
    Hips,
    /// Right leg.
    RightLeg,
    /// Left leg.
    LeftLeg,
}

/// The hit location chart by 1d10 (decision in the module doc).
pub const HUMAN_CHART: [Location; 10] = [
    Location::Head,
    Location::Neck,
    Location::RightArm,
    Location::LeftArm,
    Location::Chest,
    Location::Chest,
    Location::Abdomen,
    Location::Hips,
    Location::RightLeg,
    Location::LeftLeg,
];

impl Location {
    /// Every location.
    pub const ALL: [Location; 9] = [
        Location::Head,
        Location::Neck,
        Location::RightArm,
        Location::LeftArm,
        Location::Chest,
        Location::Abdomen,
        Location::Hips,
        Location::RightLeg,
        Location::LeftLeg,
    ];

    /// Its name.
    pub fn word(self) -> &'static str {
        match self {
            Location::Head => "head",
            Location::Neck => "neck",
            Location::RightArm => "right arm",
            Location::LeftArm => "left arm",
            Location::Chest => "chest",
            Location::Abdomen => "abdomen",
            Location::Hips => "hips",
            Location::RightLeg => "right leg",
            Location::LeftLeg => "left leg",
        }
    }

    /// In the central body ("Hit Location": chest, abdomen, hips).
    pub fn central(self) -> bool {
        matches!(self, Location::Chest | Location::Abdomen | Location::Hips)
    }

    /// A limb (arms and legs); the rest are head, neck, torso and hips ("Mooks").
    pub fn limb(self) -> bool {
        matches!(
            self,
            Location::RightArm | Location::LeftArm | Location::RightLeg | Location::LeftLeg
        )
    }
}

/// The degrees of success a direct hit on `aim` needs ("Hit Location", "Goodies"): 4 for a
/// central location, 2 for a peripheral one.
pub fn degrees_for(aim: Location) -> i32 {
    if aim.central() { 4 } else { 2 }
}

/// The DC added by aiming at `aim` ("Hit Location": +2 for a peripheral location).
pub fn aim_penalty(aim: Location) -> i32 {
    if aim.central() { 0 } else { 2 }
}

/// Where a hit with `degree` degrees of success lands ("Hit Location"), aimed at `aim`, the
/// defender having parried with its Fight skill when `parried`, `d10` the chart die (rolled
/// only when needed: pass a closure).
pub fn locate(aim: Location, degree: i32, parried: bool, d10: impl FnOnce() -> u32) -> Location {
    if parried && degree == 0 {
        return Location::RightArm;
    }
    let direct = if aim.central() {
        degree >= 4
    } else {
        degree > 1
    };
    if direct {
        aim
    } else {
        let i = (d10().clamp(1, 10) - 1) as usize;
        HUMAN_CHART[i]
    }
}

/// The goodies of a hit ("Goodies"): degrees of success beyond those a direct hit on the
/// aimed location needs.
pub fn goodies(aim: Location, degree: i32) -> i32 {
    (degree - degrees_for(aim)).max(0)
}

/// "Grappling": the Coordination penalty of `control` Control points on a foe of `carry`
/// (kg): none below Carry −4 RS, −1 at −4 RS, one more each RS, −5 at Carry.
pub fn control_penalty(control: f64, carry: f64) -> i32 {
    if control <= 0.0 || carry <= 0.0 {
        return 0;
    }
    let rs = (score(control) - score(carry)).floor() as i32;
    if rs < -4 { 0 } else { -(rs + 5) }
}

/// "Grappling": Control points of a grapple: the 2d6 `roll` plus degrees of success spent,
/// row-shifted by Strength − 2 (±1 for one hand or legs too).
pub fn control_points(roll: i32, strength: f64) -> f64 {
    value(score(roll.max(1) as f64) + strength - 2.0)
}

/// "Area Fire": the Size of an area of `m2` square meters: score of \[area\]/2 + 1.
pub fn area_size(m2: f64) -> f64 {
    score(m2) / 2.0 + 1.0
}

/// "Area Fire": the Shot score of `shots` hitting the area: score of \[shots\]/2.
pub fn shot_score(shots: u32) -> f64 {
    score(shots.max(1) as f64) / 2.0
}

/// "Area Fire": the Saturation score of a victim: Shot + (victim Size − area Size) −
/// (victim range score − area range score).
pub fn saturation(
    shot: f64,
    victim_size: f64,
    area_size: f64,
    victim_range: f64,
    area_range: f64,
) -> i32 {
    (shot + (victim_size - area_size)
        - (range_score(victim_range) - range_score(area_range)) as f64)
        .floor() as i32
}

/// "Area Fire", the saturation table: what a victim of saturation below 0 must roll (at most
/// `roll` on a d`die`) to be hit by one projectile; `None` below −7 (no chance).
pub fn saturation_roll(saturation: i32) -> Option<(u32, u32)> {
    match saturation {
        s if s >= 0 => Some((10, 10)),
        -1 => Some((5, 10)),
        -2 => Some((3, 10)),
        -3 => Some((1, 10)),
        -4 => Some((6, 100)),
        -5 => Some((4, 100)),
        -6 => Some((2, 100)),
        -7 => Some((1, 100)),
        _ => None,
    }
}

/// "Area Fire": the average number of hits of a saturation score (value of [2 × score]).
pub fn average_hits(saturation: i32) -> f64 {
    value(2.0 * saturation as f64)
}

/// "Area Attacks": a grenade or shell that misses a spot lands value of [degree of
/// failure] meters away.
pub fn miss_distance(degree_of_failure: i32) -> i32 {
    value(degree_of_failure.abs() as f64).round() as i32
}

/// "Grappling", Pickup: the Control penalty a grappler of `strength` must inflict to lift
/// a foe of Size `victim_size`, by the text's quick estimate 6 + 3 × Size − Strength
/// (gear neglected), as a positive number of points.
pub fn pickup_penalty_needed(victim_size: f64, strength: i32) -> i32 {
    (6.0 + 3.0 * victim_size - f64::from(strength)).round() as i32
}

/// "Grappling", Smash: the row shift added to the grappler's unarmed Penetration when a
/// foe is driven into a solid object: +1 with both hands, the difference in Sizes, and
/// +½ for every point of the Coordination penalty from Control, up to +2½.
pub fn smash_rs(both_hands: bool, size_difference: f64, control_penalty: i32) -> f64 {
    let hands = if both_hands { 1.0 } else { 0.0 };
    hands + size_difference + (0.5 * f64::from(control_penalty.abs())).min(2.5)
}

/// "Grappling", Choke: the choking Fatigue of a failed Vigor check, value of [degree of
/// failure].
pub fn choke_fatigue(degree_of_failure: i32) -> f64 {
    value(f64::from(degree_of_failure.abs()))
}

/// "Grappling", Choke: choking Fatigue recovered each turn without the choke, value of
/// [3 + Vigor].
pub fn choke_recovery(vigor: i32) -> f64 {
    value(f64::from(3 + vigor))
}

/// "Wait": the bonus of the waiting character's interrupt roll, +2 when the other must
/// move more than a step before it can act on the waiting one.
pub fn interrupt_bonus(other_must_move: bool) -> i32 {
    if other_must_move { 2 } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "Grappling", Pickup's estimate −(6 + 3 × Size − Strength): a Size 0 foe needs a
    /// penalty of 6 from a Strength 0 grappler, 4 from Strength +2; a Size +1 foe needs 9.
    #[test]
    fn pickup_needs_the_texts_estimate() {
        assert_eq!(pickup_penalty_needed(0.0, 0), 6);
        assert_eq!(pickup_penalty_needed(0.0, 2), 4);
        assert_eq!(pickup_penalty_needed(1.0, 0), 9);
    }

    /// "Grappling", Smash: both hands +1, one Size larger +1, a Control penalty of 3 gives
    /// +1½; a penalty of 7 is capped at +2½.
    #[test]
    fn smash_row_shift() {
        assert_eq!(smash_rs(true, 1.0, -3), 3.5);
        assert_eq!(smash_rs(false, 0.0, -7), 2.5);
        assert_eq!(smash_rs(true, -1.0, 0), 0.0);
    }

    /// "Grappling", Choke: a Vigor check failed by 2 gives value of [2] = 2 Fatigue, by 4
    /// gives 4; Vigor +1 recovers value of [4] = 4 a turn, Vigor 0 value of [3] = 2.8.
    #[test]
    fn choke_fatigue_and_recovery() {
        assert_eq!(choke_fatigue(-2), 2.0);
        assert_eq!(choke_fatigue(-4), 4.0);
        assert_eq!(choke_recovery(1), 4.0);
        assert_eq!(choke_recovery(0), 2.8);
    }

    /// "Wait": +2 to interrupt someone who must first move more than a step; none when both
    /// can act where they stand.
    #[test]
    fn interrupt_bonus_for_a_foe_that_must_move() {
        assert_eq!(interrupt_bonus(true), 2);
        assert_eq!(interrupt_bonus(false), 0);
    }

    /// "Attack": an attack against a target of your own Size within twice your reach has
    /// base difficulty 0; farther, the range score counts; a small target is harder.
    #[test]
    fn base_difficulty_from_size_and_range() {
        assert_eq!(base_difficulty(0.0, 0.0, 1.0), 0);
        assert_eq!(base_difficulty(0.0, 0.0, 2.0), 0);
        // 16 m: range score 8, -2 + 8 = 6.
        assert_eq!(base_difficulty(0.0, 0.0, 16.0), 6);
        // A Size -2 target at 16 m: 8.
        assert_eq!(base_difficulty(0.0, -2.0, 16.0), 8);
        // A Size +3 target at 2 m: never below 0.
        assert_eq!(base_difficulty(0.0, 3.0, 2.0), 0);
        // A big attacker at close range uses its own Size: Size 4 vs Size 0 at 2 m is 4.
        assert_eq!(base_difficulty(4.0, 0.0, 2.0), 4);
    }

    /// "Combat Time and Pacing": 5 AP a turn; at most 5 carried over; "Starting Combat":
    /// 1d6 − 1, 5 when waiting, the Awareness failure off the pool when surprised.
    #[test]
    fn action_points_and_the_starting_pool() {
        assert_eq!(carried_over(7), 5);
        assert_eq!(carried_over(3), 3);
        assert_eq!(starting_pool(Start::Normal, 4, 0), 3);
        assert_eq!(starting_pool(Start::Waiting, 1, 0), 5);
        assert_eq!(starting_pool(Start::Surprised, 4, -2), 1);
        assert_eq!(starting_pool(Start::Surprised, 2, -5), 0);
        assert_eq!(starting_pool(Start::Surprised, 4, 1), 3);
        assert_eq!(action_points_per_round(0), 5);
        assert_eq!(action_points_per_round(1), 8);
        assert_eq!(action_points_per_round(2), 11);
        assert_eq!(action_points_per_round(3), 15);
        assert_eq!(multiple_action_penalty(1), 0);
        assert_eq!(multiple_action_penalty(3), -4);
    }

    /// "Attitude": each attitude's numbers.
    #[test]
    fn attitudes() {
        assert_eq!(Attitude::Raging.brawn(), 1);
        assert_eq!(Attitude::Raging.defense(true, true), -2);
        assert_eq!(Attitude::Raging.breath(), 1);
        assert_eq!(Attitude::Powerful.coordination(), -1);
        assert_eq!(Attitude::Probing.defense(true, true), 1);
        assert_eq!(Attitude::Probing.defense(false, true), 0);
        assert_eq!(Attitude::Probing.brawn(), -1);
        assert_eq!(Attitude::Committed.attack(true), 2);
        assert_eq!(Attitude::Committed.attack(false), 0);
        assert_eq!(Attitude::Committed.defense(false, true), -3);
        assert_eq!(Attitude::Cautious.attack(true), -2);
        assert_eq!(Attitude::Cautious.defense(false, false), 1);
        assert_eq!(Attitude::FocusedDefense.defense(false, true), 2);
        assert_eq!(Attitude::FocusedDefense.defense(false, false), 0);
        assert_eq!(Attitude::FocusedDefense.attack(true), -3);
    }

    /// "Focus", Groolor's shot: Focus +2, Careful Aim +2, Committed +2 make +6 to Shoot,
    /// and bracing adds +1 to Aim.
    #[test]
    fn groolors_focused_shot() {
        let focus = 2;
        let aim = 2;
        let committed = Attitude::Committed.attack(true);
        assert_eq!(focus + aim + committed, 6);
        assert_eq!(careful_aim(true) - careful_aim(false), 1);
        assert!(aimed_shot_withheld(-3));
        assert!(!aimed_shot_withheld(-4));
    }

    /// "Cramping", Helen's example: sword (Def +3, Bulk +3) against glaive (Def +4, Bulk
    /// +6): Helen defends at -1 and the sheriff at +1; once she closes, cramping weapons of
    /// Bulk 4 or more (slightly cramped, 3 degrees of slack), the glaive is at -3 on attack
    /// and defense and her sword at nothing.
    #[test]
    fn helens_cramping_example() {
        assert_eq!(weapon_defense(3, 4), -1);
        assert_eq!(weapon_defense(4, 3), 1);
        // Helen imposes "Slightly Cramped" with a slack of 3 degrees: weapons of Bulk 4 or
        // more suffer; the glaive, Bulk 6, is at -3; her sword, Bulk 3, at nothing.
        assert_eq!(cramped(6.0, 0.0, 3.0), -3);
        assert_eq!(cramped(3.0, 0.0, 3.0), 0);
        assert_eq!(cramped(4.0, 0.0, 3.0), -1);
        // A double action: -2 on the second.
        assert_eq!(multiple_action_penalty(2), -2);
    }

    /// "Hit Location": aimed at the chest, 4 degrees hit it; less rolls the chart; aimed at
    /// a peripheral spot, 2 or more hit it; a Fight parry beaten by exactly 0 hits the arm.
    #[test]
    fn hit_location() {
        assert_eq!(locate(Location::Chest, 4, false, || 1), Location::Chest);
        assert_eq!(locate(Location::Chest, 3, false, || 1), Location::Head);
        assert_eq!(locate(Location::Head, 2, false, || 9), Location::Head);
        assert_eq!(locate(Location::Head, 1, false, || 9), Location::RightLeg);
        assert_eq!(locate(Location::Chest, 0, true, || 5), Location::RightArm);
        assert_eq!(goodies(Location::Chest, 6), 2);
        assert_eq!(goodies(Location::Head, 5), 3);
        assert_eq!(aim_penalty(Location::Head), 2);
    }

    /// "Range": +1 per full multiple of Speed, capped at half the range score; the defense
    /// bonus uses Speed shifted by minus the target's Action Score.
    #[test]
    fn projectile_speed() {
        // Speed 10 at 45 m: 4 multiples; range score 11 caps at 5: +4.
        assert_eq!(speed_penalty(45.0, 10.0), 4);
        // At 90 m: 9 multiples, capped at 13/2 = 6.
        assert_eq!(speed_penalty(90.0, 10.0), 6);
        // Action Score 2: Speed 10 shifted -2 is 5 (value of [score 6.75 - 2]).
        assert_eq!(speed_defense_bonus(45.0, 10.0, 0), 4);
        assert!(speed_defense_bonus(45.0, 10.0, 2) > 4);
    }

    /// "Cover": people of the target's Size in the way are -1 each.
    #[test]
    fn intervening_people() {
        assert_eq!(intervening_cover(&[0.0], 0.0), -1);
        assert_eq!(intervening_cover(&[0.0, 0.0], 0.0), -2);
        assert_eq!(Cover::Heavy.penalty(), -3);
    }

    /// "High Speed" (melee): after 8 m at Action Score 0 the blow is Brawn ⊕ 2 × (6 - 8) =
    /// Brawn ⊕ -4; Brawn 0: value 1 + 0.25 = 1.25, score 0.75 (to the quarter).
    #[test]
    fn high_speed_melee() {
        assert_eq!(high_speed_brawn(0.0, 8.0, 0), 0.75);
        // 16 m at Action Score 2: 2 × (8 + 2 - 8) = 4; 0 ⊕ 4 = score of 5 = 4.75.
        assert_eq!(high_speed_brawn(0.0, 16.0, 2), 4.75);
        assert_eq!(meters_per_second(8.0, 1), 4.0);
    }

    /// "Rapid Fire" and "Minimum Strength".
    #[test]
    fn rapid_fire_and_strength() {
        assert_eq!(rapid_fire_recoil(4), 4);
        assert_eq!(rapid_fire_recoil(1), 0);
        assert_eq!(min_strength_penalty(1, 3), -2);
        assert_eq!(min_strength_penalty(4, 3), 0);
    }

    /// "Grappling": Control against Carry; at Carry -5, at Carry -4 RS -1, under it none.
    #[test]
    fn control_penalties() {
        assert_eq!(control_penalty(32.0, 32.0), -5);
        assert_eq!(control_penalty(8.0, 32.0), -1);
        assert_eq!(control_penalty(5.6, 32.0), 0);
        assert_eq!(control_penalty(64.0, 32.0), -7);
        // 2d6 of 8 at Strength 2: no shift.
        assert_eq!(control_points(8, 2.0), 8.0);
        assert_eq!(control_points(8, 4.0), 16.0);
    }

    /// "Area Fire": areas, shots, saturation and its roll table.
    #[test]
    fn area_fire() {
        assert_eq!(area_size(1.0), 1.0);
        assert_eq!(area_size(4.0), 3.0);
        assert_eq!(shot_score(4), 2.0);
        // A human (Size 0) in a 4 m² area hosed with 4 hits, same range: 2 + (0 - 3) = -1.
        assert_eq!(saturation(2.0, 0.0, 3.0, 10.0, 10.0), -1);
        assert_eq!(saturation_roll(-1), Some((5, 10)));
        assert_eq!(saturation_roll(-7), Some((1, 100)));
        assert_eq!(saturation_roll(-8), None);
        assert_eq!(average_hits(1), 2.0);
        assert_eq!(miss_distance(4), 4);
    }
}
