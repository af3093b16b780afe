//! The critical tables of gurps-traveller-gm-screen.txt ("CRITICAL HITS", "CRITICAL HEAD
//! BLOWS", "CRITICAL MISSES", "UNARMED CRITICAL MISSES - STRIKING AND PARRYING", "FIREARM
//! CRITICAL MISSES" and "CRITICAL SUCCESS AND FAILURE ON DEFENSE ROLLS"), each row a game
//! effect. The quick reference has no such tables (rules/README.md decision 5).
//!
//! What the texts leave open is decided here, once:
//! - a dropped weapon, or one that "turns in your hand", is ready again after one Ready
//!   maneuver; a weapon that "flies from your hand" is lost for the battle (no items lie on
//!   the map); a broken weapon is gone;
//! - "roll vs. HT every 30 minutes to recover" means out of the fight (unconscious);
//! - a jammed firearm is cleared by a Ready maneuver with a skill roll at −4;
//! - a "funny-bone" crippling lasts six of the victim's turns;
//! - head-blow blinding and its DX penalty become a lasting penalty to the victim's attack
//!   rolls (−2 for one eye, −10 for both);
//! - a critical hit's or head blow's effects beyond damage (knockout, death, stun,
//!   crippling, dropped weapon) need a blow that did at least 1 injury.

use super::location::HitLocation;
use super::tables::DamageType;

/// A weapon's condition.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WeaponState {
    /// In hand and ready.
    #[default]
    Ready,
    /// Dropped or turned in the hand: one Ready maneuver readies it.
    Unready,
    /// A jammed firearm: a Ready maneuver with a skill roll at −4 clears it.
    Jammed,
    /// Broken, or flown out of reach: gone for this battle.
    Gone,
}

/// How much of the basic damage a critical hit does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Times {
    /// Normal damage.
    Normal,
    /// Double the basic damage roll.
    Double,
    /// Triple the basic damage roll.
    Triple,
}

/// A row of the critical hit table, as an effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CriticalHit {
    /// Damage multiple on the basic roll.
    pub times: Times,
    /// The blow bypasses all armor.
    pub ignore_dr: bool,
    /// The foe is knocked out (a torso hit on 3 or 18).
    pub knockout: bool,
    /// The foe is stunned.
    pub stun: bool,
    /// The limb hit is crippled whatever the damage; `Some(true)` for a "funny-bone"
    /// crippling that wears off.
    pub cripple: Option<bool>,
    /// The foe drops its weapon.
    pub drop_weapon: bool,
}

impl CriticalHit {
    const NORMAL: CriticalHit = CriticalHit {
        times: Times::Normal,
        ignore_dr: false,
        knockout: false,
        stun: false,
        cripple: None,
        drop_weapon: false,
    };
}

/// The critical hit table (gurps-traveller-gm-screen.txt, "CRITICAL HITS") for a 3d6
/// `total` on a blow that landed on `location`.
pub fn critical_hit(total: i32, location: HitLocation) -> CriticalHit {
    let limb = location.limb().is_some();
    let n = CriticalHit::NORMAL;
    match total {
        3 | 18 if location == HitLocation::Torso => CriticalHit {
            knockout: true,
            ..n
        },
        3 | 18 | 5 | 17 => CriticalHit {
            times: Times::Triple,
            ..n
        },
        4 | 13 => CriticalHit {
            ignore_dr: true,
            ..n
        },
        6 | 16 => CriticalHit {
            times: Times::Double,
            ..n
        },
        7 => CriticalHit { stun: true, ..n },
        8 | 12 if limb => CriticalHit {
            cripple: Some(true),
            ..n
        },
        14 if limb => CriticalHit {
            cripple: Some(false),
            ..n
        },
        14 => CriticalHit {
            times: Times::Double,
            ..n
        },
        15 => CriticalHit {
            drop_weapon: true,
            ..n
        },
        _ => n,
    }
}

/// A row of the critical head blow table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeadBlow {
    /// 3: killed instantly.
    Killed,
    /// 4–5: knocked out.
    KnockedOut,
    /// 6: blinded, stunned, −10 to attacks for the battle.
    Blinded,
    /// 7: blinded in one eye, stunned, −2 to attacks for the battle.
    OneEye,
    /// 8: off balance: may defend but do nothing else on its next turn.
    OffBalance,
    /// 9–11: normal head-blow damage.
    Normal,
    /// 12–13: cutting or impaling blows do only this much injury (a scar); crushing ones
    /// normal damage.
    Scar(i32),
    /// 14: normal damage and the foe drops its weapon.
    DropWeapon,
    /// 15–18: normal damage and the foe is stunned.
    Stunned,
}

/// The critical head blow table (gurps-traveller-gm-screen.txt, "CRITICAL HEAD BLOWS"),
/// used when a critical hit lands on the skull, face or an eye.
pub fn critical_head_blow(total: i32) -> HeadBlow {
    match total {
        ..=3 => HeadBlow::Killed,
        4 | 5 => HeadBlow::KnockedOut,
        6 => HeadBlow::Blinded,
        7 => HeadBlow::OneEye,
        8 => HeadBlow::OffBalance,
        9..=11 => HeadBlow::Normal,
        12 => HeadBlow::Scar(1),
        13 => HeadBlow::Scar(2),
        14 => HeadBlow::DropWeapon,
        _ => HeadBlow::Stunned,
    }
}

/// True for the locations that use the head blow table.
pub fn is_head(location: HitLocation) -> bool {
    matches!(
        location,
        HitLocation::Skull | HitLocation::Face | HitLocation::Eye
    )
}

/// Which critical miss table a weapon uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MissTable {
    /// Ancient or medieval hand and missile weapons.
    Weapon,
    /// Punches, kicks and unarmed parries.
    Unarmed,
    /// Firearms and other high-tech weapons.
    Firearm,
}

impl MissTable {
    /// The table for a weapon used with `skill` (Guns and Beam Weapons skills use the
    /// firearm table, Brawling, Boxing and Karate the unarmed one).
    pub fn for_skill(skill: &str) -> MissTable {
        // Compared without regard to case, and without making a lower-case copy: asked on
        // every strike.
        let starts = |prefix: &str| {
            skill
                .get(..prefix.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
        };
        if starts("guns") || starts("beam") || starts("gunner") {
            MissTable::Firearm
        } else if ["brawling", "boxing", "karate"]
            .iter()
            .any(|name| skill.eq_ignore_ascii_case(name))
        {
            MissTable::Unarmed
        } else {
            MissTable::Weapon
        }
    }
}

/// What a critical miss does to the one who made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mishap {
    /// The weapon breaks (or a firearm explodes into uselessness): gone.
    Breaks,
    /// The fighter hits itself in an arm or leg: `half` damage or full.
    HitsSelf {
        /// Where.
        location: HitLocation,
        /// Half damage.
        half: bool,
    },
    /// Off balance: active defenses −2 until its next turn.
    OffBalance,
    /// The weapon turns in the hand (or is dropped): one Ready to ready it again.
    Unready,
    /// The weapon is dropped.
    Drops,
    /// The weapon flies from the hand: lost for the battle.
    FliesAway,
    /// A strained shoulder: the weapon arm is useless for the battle.
    StrainedShoulder,
    /// The fighter falls down.
    FallsDown,
    /// A dud: the shot is wasted.
    Dud,
    /// The firearm jams.
    Jams,
    /// Knocked out.
    KnocksSelfOut,
    /// The striking hand is crippled (injury HP/3 + 1, no DR).
    CripplesHand,
    /// Hits a wall or the floor: the weapon's damage (`half` or full) to its own hand.
    HitsObject {
        /// Half damage.
        half: bool,
    },
    /// Stumbles one hex past the foe and ends facing away from it.
    Stumbles,
    /// Trips: a DX roll or falls down.
    Trips,
    /// Lets its guard down: defenses −2 until its next turn.
    GuardDown,
    /// Pulls a muscle: 1d−3 injury to the arm, off balance.
    PullsMuscle,
    /// The firearm's recoil knocks the shooter down.
    KnockedDown,
    /// The firearm explodes: its damage as crushing to the shooter.
    Explodes,
}

/// The critical miss tables (gurps-traveller-gm-screen.txt, "CRITICAL MISSES", "UNARMED
/// CRITICAL MISSES - STRIKING AND PARRYING", "FIREARM CRITICAL MISSES") for a 3d6 `total`.
/// `leg_die` (1–6) picks where a self-hit lands ("50% chance each way"): on the weapon
/// table 1–3 the (off) left arm, 4–6 the left leg; on the firearm table's leg row 1–3 the
/// right leg, 4–6 the left. Rows that say "roll again" in some cases are resolved by the
/// caller with [`Mishap::rerolls`].
pub fn critical_miss(table: MissTable, total: i32, leg_die: u32) -> Mishap {
    let left = leg_die > 3;
    match table {
        MissTable::Weapon => match total {
            ..=4 | 17.. => Mishap::Breaks,
            5 | 6 => Mishap::HitsSelf {
                location: if left {
                    HitLocation::LeftLeg
                } else {
                    HitLocation::LeftArm
                },
                half: total == 6,
            },
            7 | 13 => Mishap::OffBalance,
            8 | 12 => Mishap::Unready,
            9..=11 => Mishap::Drops,
            14 => Mishap::FliesAway,
            15 => Mishap::StrainedShoulder,
            _ => Mishap::FallsDown,
        },
        MissTable::Unarmed => match total {
            ..=3 | 18.. => Mishap::KnocksSelfOut,
            4 | 17 => Mishap::CripplesHand,
            5 | 6 => Mishap::HitsObject { half: total == 6 },
            7 | 14 => Mishap::Stumbles,
            8 => Mishap::FallsDown,
            9..=11 => Mishap::OffBalance,
            12 => Mishap::Trips,
            13 => Mishap::GuardDown,
            15 => Mishap::PullsMuscle,
            _ => Mishap::StrainedShoulder,
        },
        MissTable::Firearm => match total {
            ..=4 | 16 | 17 => Mishap::Breaks,
            5 | 6 => Mishap::HitsSelf {
                location: match (total, left) {
                    (5, false) => HitLocation::RightLeg,
                    (5, true) => HitLocation::LeftLeg,
                    _ => HitLocation::Foot,
                },
                half: false,
            },
            7 => Mishap::OffBalance,
            8 | 12 => Mishap::Dud,
            9..=11 => Mishap::Jams,
            13 | 14 => Mishap::Drops,
            15 => Mishap::KnockedDown,
            _ => Mishap::Explodes,
        },
    }
}

impl Mishap {
    /// Rows the text sends back for another roll: breakage-resistant (crushing) weapons
    /// roll again on "breaks"; impaling and ranged attacks roll again on "hit yourself";
    /// an impaling or missile weapon that would fly away is simply dropped (handled by
    /// [`Mishap::adjusted`]).
    pub fn rerolls(self, damage_type: DamageType, ranged: bool) -> bool {
        match self {
            Mishap::Breaks => damage_type == DamageType::Crushing && !ranged,
            Mishap::HitsSelf { .. } => damage_type == DamageType::Impaling || ranged,
            _ => false,
        }
    }

    /// The row as it applies to this weapon after any reroll: a second "breaks" or "hits
    /// yourself" counts; an impaling or missile weapon that would fly just drops; a ranged
    /// weapon's fall is only losing balance; a strong shooter (ST at least 5 over the
    /// weapon's minimum) is only thrown off balance instead of knocked down.
    pub fn adjusted(self, damage_type: DamageType, ranged: bool, st_margin: i32) -> Mishap {
        match self {
            Mishap::FliesAway if damage_type == DamageType::Impaling || ranged => Mishap::Drops,
            Mishap::FallsDown if ranged => Mishap::OffBalance,
            Mishap::KnockedDown if st_margin >= 5 => Mishap::OffBalance,
            other => other,
        }
    }

    /// A short description for the log.
    pub fn describe(self) -> &'static str {
        match self {
            Mishap::Breaks => "the weapon breaks",
            Mishap::HitsSelf { half: false, .. } => "hits itself",
            Mishap::HitsSelf { half: true, .. } => "hits itself (half damage)",
            Mishap::OffBalance => "off balance: defenses -2 until its next turn",
            Mishap::Unready => "the weapon turns in its hand: it must be readied",
            Mishap::Drops => "drops the weapon",
            Mishap::FliesAway => "the weapon flies out of reach",
            Mishap::StrainedShoulder => "strains its shoulder: the weapon arm is useless",
            Mishap::FallsDown => "falls down",
            Mishap::Dud => "a dud: the shot is wasted",
            Mishap::Jams => "the weapon jams",
            Mishap::KnocksSelfOut => "knocks itself out",
            Mishap::CripplesHand => "hits with the wrong part: the hand is crippled",
            Mishap::HitsObject { half: false } => "hits a wall instead",
            Mishap::HitsObject { half: true } => "hits a wall instead (half damage)",
            Mishap::Stumbles => "stumbles past its foe and ends facing away",
            Mishap::Trips => "trips",
            Mishap::GuardDown => "lets its guard down: defenses -2 until its next turn",
            Mishap::PullsMuscle => "pulls a muscle",
            Mishap::KnockedDown => "the recoil knocks it down",
            Mishap::Explodes => "the weapon explodes",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// gurps-traveller-gm-screen.txt "CRITICAL HITS", row by row.
    #[test]
    fn critical_hit_rows() {
        use HitLocation::*;
        assert!(critical_hit(3, Torso).knockout);
        assert_eq!(critical_hit(18, Skull).times, Times::Triple);
        assert!(critical_hit(4, Torso).ignore_dr);
        assert!(critical_hit(13, LeftArm).ignore_dr);
        assert_eq!(critical_hit(5, Torso).times, Times::Triple);
        assert_eq!(critical_hit(6, Torso).times, Times::Double);
        assert!(critical_hit(7, Torso).stun);
        assert_eq!(critical_hit(8, RightLeg).cripple, Some(true));
        assert_eq!(critical_hit(8, Torso), CriticalHit::NORMAL);
        for t in 9..=11 {
            assert_eq!(critical_hit(t, Torso), CriticalHit::NORMAL);
        }
        assert_eq!(critical_hit(12, Hand).cripple, Some(true));
        assert_eq!(critical_hit(14, Foot).cripple, Some(false));
        assert_eq!(critical_hit(14, Torso).times, Times::Double);
        assert!(critical_hit(15, Torso).drop_weapon);
        assert_eq!(critical_hit(16, Torso).times, Times::Double);
        assert_eq!(critical_hit(17, Torso).times, Times::Triple);
    }

    /// gurps-traveller-gm-screen.txt "CRITICAL HEAD BLOWS".
    #[test]
    fn head_blow_rows() {
        let rows: Vec<HeadBlow> = (3..=18).map(critical_head_blow).collect();
        use HeadBlow::*;
        assert_eq!(
            rows,
            vec![
                Killed,
                KnockedOut,
                KnockedOut,
                Blinded,
                OneEye,
                OffBalance,
                Normal,
                Normal,
                Normal,
                Scar(1),
                Scar(2),
                DropWeapon,
                Stunned,
                Stunned,
                Stunned,
                Stunned
            ]
        );
        assert!(is_head(HitLocation::Face));
        assert!(!is_head(HitLocation::Neck));
    }

    /// gurps-traveller-gm-screen.txt "CRITICAL MISSES", "UNARMED CRITICAL MISSES" and
    /// "FIREARM CRITICAL MISSES": a few rows of each, and the rerolls.
    #[test]
    fn critical_miss_rows() {
        use Mishap::*;
        let w = |t| critical_miss(MissTable::Weapon, t, 1);
        assert_eq!(w(3), Breaks);
        assert_eq!(
            w(6),
            HitsSelf {
                location: HitLocation::LeftArm,
                half: true
            }
        );
        assert_eq!(w(7), OffBalance);
        assert_eq!(w(8), Unready);
        assert_eq!(w(10), Drops);
        assert_eq!(w(14), FliesAway);
        assert_eq!(w(15), StrainedShoulder);
        assert_eq!(w(16), FallsDown);
        assert_eq!(w(18), Breaks);
        let u = |t| critical_miss(MissTable::Unarmed, t, 1);
        assert_eq!(u(3), KnocksSelfOut);
        assert_eq!(u(4), CripplesHand);
        assert_eq!(u(7), Stumbles);
        assert_eq!(u(12), Trips);
        assert_eq!(u(13), GuardDown);
        assert_eq!(u(16), StrainedShoulder);
        let f = |t| critical_miss(MissTable::Firearm, t, 5);
        assert_eq!(
            f(5),
            HitsSelf {
                location: HitLocation::LeftLeg,
                half: false
            }
        );
        assert_eq!(f(8), Dud);
        assert_eq!(f(10), Jams);
        assert_eq!(f(15), KnockedDown);
        assert_eq!(f(18), Explodes);
        // maces roll again on "breaks"; spears on "hit yourself"
        assert!(Breaks.rerolls(DamageType::Crushing, false));
        assert!(!Breaks.rerolls(DamageType::Cutting, false));
        assert!(w(5).rerolls(DamageType::Impaling, false));
        assert_eq!(
            FliesAway.adjusted(DamageType::Impaling, false, 0),
            Mishap::Drops
        );
        assert_eq!(
            FallsDown.adjusted(DamageType::Impaling, true, 0),
            OffBalance
        );
        assert_eq!(
            KnockedDown.adjusted(DamageType::Piercing, true, 5),
            OffBalance
        );
        assert_eq!(MissTable::for_skill("Guns (Rifle)"), MissTable::Firearm);
        assert_eq!(MissTable::for_skill("Brawling"), MissTable::Unarmed);
        assert_eq!(MissTable::for_skill("Bow"), MissTable::Weapon);
        // Any case; a skill named like a table only in part is a weapon skill.
        assert_eq!(MissTable::for_skill("BEAM WEAPONS"), MissTable::Firearm);
        assert_eq!(MissTable::for_skill("karate"), MissTable::Unarmed);
        assert_eq!(MissTable::for_skill("Karate Kick"), MissTable::Weapon);
        assert_eq!(MissTable::for_skill("Gun"), MissTable::Weapon);
        assert_eq!(MissTable::for_skill("Épée"), MissTable::Weapon);
    }
}
