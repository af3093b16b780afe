//! The GURPS maneuvers a fighter can choose on its turn, with their movement allowances
//! (gurps-lite-and-socs.txt, "MANEUVERS"), and the action a command carries.

use super::location::HitLocation;
use super::posture::Posture;
use crate::battle::UnitId;
use hexx::Hex;
use serde::{Deserialize, Serialize};
use std::fmt;

/// All-Out Attack options (gurps-lite-and-socs.txt, "ALL-OUT ATTACK").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AoaOption {
    /// +4 to hit in melee, +1 with a ranged weapon.
    Determined,
    /// Two melee attacks on the same target.
    Double,
    /// +2 melee damage.
    Strong,
    /// A feint, then an attack on the same foe.
    Feint,
}

/// All-Out Defense options (gurps-lite-and-socs.txt, "ALL-OUT DEFENSE").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AodOption {
    /// +2 to Dodge; half Move allowed.
    IncreasedDodge,
    /// +2 to Parry.
    IncreasedParry,
    /// Two different defenses against one attack.
    DoubleDefense,
}

/// Committed Attack options (gurps-lite-and-socs.txt, "COMMITTED ATTACK").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CommitOption {
    /// +2 to hit.
    Determined,
    /// +1 damage.
    Strong,
}

/// A maneuver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Maneuver {
    /// Take no action (no HT roll needed at 0 HP or less).
    DoNothing,
    /// Move up to full Move.
    Move,
    /// Step one hex and attack.
    Attack,
    /// Move up to full Move and attack at a penalty.
    MoveAndAttack,
    /// Half Move and attack with a bonus; no defense until the next turn.
    AllOutAttack(AoaOption),
    /// A better defense until the next turn.
    AllOutDefense(AodOption),
    /// Aim a ranged weapon at a target (step one hex).
    Aim,
    /// Reload a ranged weapon (step one hex).
    Ready,
    /// Change to another posture (no movement).
    ChangePosture(Posture),
    /// A melee attack with a bonus, at −2 to every defense until the next turn.
    CommittedAttack(CommitOption),
    /// A careful melee attack: −2 damage, +1 to Parry until the next turn.
    DefensiveAttack,
    /// Study a foe: +1 per turn (at most +3) to a later melee attack or feint on it.
    Evaluate,
    /// Fake an attack: a Quick Contest whose margin comes off the foe's defenses against
    /// the fighter's attacks on its next turn.
    Feint,
    /// Focus on a mental task (step one hex).
    Concentrate,
    /// Hold the action: attack with the named weapon as soon as a foe comes into its reach
    /// (melee) or moves in its sight and range (ranged: opportunity fire).
    Wait,
}

impl Maneuver {
    /// Movement allowance in movement points for a fighter whose current Move is `move_`
    /// (gurps-lite-and-socs.txt "MANEUVERS": Attack, Aim, Ready, All-Out Defense 1 hex;
    /// All-Out Attack and All-Out Defense (Increased Dodge) half Move; Move and Move and
    /// Attack full Move; Do Nothing 0). Half Move rounds up, as the quick reference does for
    /// half Move when hurt.
    pub fn move_allowance(self, move_: i32) -> u32 {
        let full = move_.max(0) as u32;
        let half = full.div_ceil(2);
        match self {
            Maneuver::DoNothing | Maneuver::ChangePosture(_) | Maneuver::Wait => 0,
            Maneuver::Move | Maneuver::MoveAndAttack => full,
            Maneuver::CommittedAttack(_) => full.min(2),
            Maneuver::DefensiveAttack
            | Maneuver::Evaluate
            | Maneuver::Feint
            | Maneuver::Concentrate => full.min(1),
            Maneuver::AllOutAttack(_) | Maneuver::AllOutDefense(AodOption::IncreasedDodge) => half,
            Maneuver::Attack | Maneuver::AllOutDefense(_) | Maneuver::Aim | Maneuver::Ready => {
                full.min(1)
            }
        }
    }

    /// True if the maneuver makes an attack.
    pub fn attacks(self) -> bool {
        matches!(
            self,
            Maneuver::Attack
                | Maneuver::MoveAndAttack
                | Maneuver::AllOutAttack(_)
                | Maneuver::CommittedAttack(_)
                | Maneuver::DefensiveAttack
        )
    }

    /// True if the maneuver needs a target (and a weapon to reach it with: Evaluate and
    /// Feint name the melee weapon the fighter means to attack with).
    pub fn needs_target(self) -> bool {
        self.attacks() || matches!(self, Maneuver::Aim | Maneuver::Evaluate | Maneuver::Feint)
    }

    /// True if the maneuver needs a weapon.
    pub fn needs_weapon(self) -> bool {
        self.needs_target() || matches!(self, Maneuver::Ready | Maneuver::Wait)
    }

    /// Every maneuver, for listing.
    pub const ALL: [Maneuver; 26] = [
        Maneuver::DoNothing,
        Maneuver::Move,
        Maneuver::Attack,
        Maneuver::MoveAndAttack,
        Maneuver::AllOutAttack(AoaOption::Determined),
        Maneuver::AllOutAttack(AoaOption::Double),
        Maneuver::AllOutAttack(AoaOption::Strong),
        Maneuver::AllOutAttack(AoaOption::Feint),
        Maneuver::AllOutDefense(AodOption::IncreasedDodge),
        Maneuver::AllOutDefense(AodOption::IncreasedParry),
        Maneuver::AllOutDefense(AodOption::DoubleDefense),
        Maneuver::Aim,
        Maneuver::Ready,
        Maneuver::ChangePosture(Posture::Standing),
        Maneuver::ChangePosture(Posture::Crouching),
        Maneuver::ChangePosture(Posture::Kneeling),
        Maneuver::ChangePosture(Posture::Sitting),
        Maneuver::ChangePosture(Posture::Crawling),
        Maneuver::ChangePosture(Posture::Lying),
        Maneuver::CommittedAttack(CommitOption::Determined),
        Maneuver::CommittedAttack(CommitOption::Strong),
        Maneuver::DefensiveAttack,
        Maneuver::Evaluate,
        Maneuver::Feint,
        Maneuver::Concentrate,
        Maneuver::Wait,
    ];

    /// One line on what the maneuver does, for the action panel.
    pub fn effect(self) -> &'static str {
        match self {
            Maneuver::DoNothing => "No action; no HT roll needed at 0 HP or less",
            Maneuver::Move => "Move up to full Move",
            Maneuver::Attack => "Step 1 hex and attack; normal defenses",
            Maneuver::MoveAndAttack => {
                "Full Move, then attack: melee -4 (skill at most 9), ranged -2 or Bulk"
            }
            Maneuver::AllOutAttack(AoaOption::Determined) => {
                "Half Move, +4 to hit in melee (+1 ranged); no defense until next turn"
            }
            Maneuver::AllOutAttack(AoaOption::Double) => {
                "Half Move, two melee attacks on one foe; no defense until next turn"
            }
            Maneuver::AllOutAttack(AoaOption::Strong) => {
                "Half Move, +2 melee damage; no defense until next turn"
            }
            Maneuver::AllOutAttack(AoaOption::Feint) => {
                "Half Move, feint then attack the same foe; no defense until next turn"
            }
            Maneuver::AllOutDefense(AodOption::IncreasedDodge) => {
                "Half Move, +2 to Dodge until next turn"
            }
            Maneuver::AllOutDefense(AodOption::IncreasedParry) => {
                "Step 1 hex, +2 to Parry until next turn"
            }
            Maneuver::AllOutDefense(AodOption::DoubleDefense) => {
                "Step 1 hex, two different defenses against each attack until next turn"
            }
            Maneuver::Aim => {
                "Step 1 hex, aim a ranged weapon: +Acc, +1 more after 2 turns, +2 after 3"
            }
            Maneuver::Ready => "Step 1 hex, reload a ranged weapon",
            Maneuver::ChangePosture(Posture::Standing) => "Stand up (from lying, kneel first)",
            Maneuver::ChangePosture(Posture::Crouching) => {
                "Crouch: attacks -2, shots at you -2, Move x2/3"
            }
            Maneuver::ChangePosture(Posture::Kneeling) => {
                "Kneel: attacks -2, defenses -2, shots at you -2, Move /3"
            }
            Maneuver::ChangePosture(Posture::Sitting) => {
                "Sit: attacks -2, defenses -2, shots at you -2, no movement"
            }
            Maneuver::ChangePosture(Posture::Crawling) => {
                "Crawl: attacks -4, defenses -3, shots at you -4, Move /3"
            }
            Maneuver::ChangePosture(Posture::Lying) => {
                "Lie down: attacks -4, defenses -3, shots at you -4, 1 hex a turn"
            }
            Maneuver::CommittedAttack(CommitOption::Determined) => {
                "Up to 2 hexes (-2 to hit if 2), melee +2 to hit; defenses -2, no parry with it"
            }
            Maneuver::CommittedAttack(CommitOption::Strong) => {
                "Up to 2 hexes (-2 to hit if 2), melee +1 damage; defenses -2, no parry with it"
            }
            Maneuver::DefensiveAttack => "Step 1 hex, melee attack at -2 damage; +1 to Parry",
            Maneuver::Evaluate => "Step 1 hex, study a foe: +1 a turn (max +3) to melee it",
            Maneuver::Feint => "Step 1 hex, Quick Contest: the margin comes off its defenses",
            Maneuver::Concentrate => "Step 1 hex, focus on a mental task",
            Maneuver::Wait => {
                "Hold still; attack the first foe to come into reach (or opportunity fire, -8)"
            }
        }
    }
}

impl fmt::Display for Maneuver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            Maneuver::DoNothing => "Do Nothing",
            Maneuver::Move => "Move",
            Maneuver::Attack => "Attack",
            Maneuver::MoveAndAttack => "Move and Attack",
            Maneuver::AllOutAttack(AoaOption::Determined) => "All-Out Attack (Determined)",
            Maneuver::AllOutAttack(AoaOption::Double) => "All-Out Attack (Double)",
            Maneuver::AllOutAttack(AoaOption::Strong) => "All-Out Attack (Strong)",
            Maneuver::AllOutAttack(AoaOption::Feint) => "All-Out Attack (Feint)",
            Maneuver::AllOutDefense(AodOption::IncreasedDodge) => {
                "All-Out Defense (Increased Dodge)"
            }
            Maneuver::AllOutDefense(AodOption::IncreasedParry) => {
                "All-Out Defense (Increased Parry)"
            }
            Maneuver::AllOutDefense(AodOption::DoubleDefense) => "All-Out Defense (Double Defense)",
            Maneuver::Aim => "Aim",
            Maneuver::Ready => "Ready",
            Maneuver::ChangePosture(p) => return write!(f, "Change Posture ({p})"),
            Maneuver::CommittedAttack(CommitOption::Determined) => "Committed Attack (Determined)",
            Maneuver::CommittedAttack(CommitOption::Strong) => "Committed Attack (Strong)",
            Maneuver::DefensiveAttack => "Defensive Attack",
            Maneuver::Evaluate => "Evaluate",
            Maneuver::Feint => "Feint",
            Maneuver::Concentrate => "Concentrate",
            Maneuver::Wait => "Wait",
        };
        f.write_str(s)
    }
}

/// Rapid Strike and the optional extra-effort rules chosen for an attack
/// (gurps-lite-and-socs.txt, "ATTACK/DEFENSE OPTIONS").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Effort {
    /// Rapid Strike: two melee attacks at −6 each in place of one.
    #[serde(default)]
    pub rapid_strike: bool,
    /// The second Rapid Strike's target (`None`: the same foe).
    #[serde(default)]
    pub second_target: Option<UnitId>,
    /// Flurry of Blows: the Rapid Strike penalty halved to −3 for 2 FP.
    #[serde(default)]
    pub flurry: bool,
    /// Mighty Blow: +2 melee damage for 1 FP.
    #[serde(default)]
    pub mighty_blow: bool,
    /// Heroic Charge: no Move and Attack penalty or skill cap, for 1 FP.
    #[serde(default)]
    pub heroic_charge: bool,
    /// Dual-Weapon Attack: a second attack with this other one-handed weapon (the off hand),
    /// at `second_target` or the same foe; both at −4, the off hand −4 more.
    #[serde(default)]
    pub dual_weapon: Option<u8>,
}

impl Effort {
    /// FP the chosen extra effort costs.
    pub fn fp_cost(&self) -> i32 {
        use super::fatigue::cost;
        let mut c = 0;
        if self.flurry {
            c += cost::FLURRY;
        }
        if self.mighty_blow {
            c += cost::MIGHTY_BLOW;
        }
        if self.heroic_charge {
            c += cost::HEROIC_CHARGE;
        }
        c
    }

    /// The FP-paid options chosen, by name.
    pub fn names(&self) -> String {
        let mut v = Vec::new();
        if self.flurry {
            v.push("Flurry of Blows");
        }
        if self.mighty_blow {
            v.push("Mighty Blow");
        }
        if self.heroic_charge {
            v.push("Heroic Charge");
        }
        v.join(", ")
    }

    /// True when any FP-paid option is chosen.
    pub fn extra(&self) -> bool {
        self.flurry || self.mighty_blow || self.heroic_charge
    }
}

/// What a GURPS command asks for: a maneuver, where to move first (if anywhere), and the
/// target and weapon it needs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    /// The maneuver.
    pub maneuver: Maneuver,
    /// Hex to move to before acting (`None`: stay).
    pub to: Option<Hex>,
    /// Target of an attack or aim.
    pub target: Option<UnitId>,
    /// Weapon (index into the fighter's weapons) to attack, aim or reload with.
    pub weapon: Option<u8>,
    /// Hit location aimed at (`None`: an unaimed blow).
    #[serde(default)]
    pub location: Option<HitLocation>,
    /// Deceptive Attack: levels taken, each −2 to hit and −1 to the foe's defense (melee).
    #[serde(default)]
    pub deceptive: u8,
    /// Telegraphic Attack: +4 to hit, +2 to the foe's Dodge (melee).
    #[serde(default)]
    pub telegraphic: bool,
    /// Shots to fire with a rapid-fire weapon (`None`: its full rate of fire, as far as
    /// the load allows).
    #[serde(default)]
    pub shots: Option<u32>,
    /// Rapid Strike and extra effort.
    #[serde(default)]
    pub effort: Effort,
    /// Aim braced: no step this turn, +1 to the aimed shot if every turn of aim was braced.
    #[serde(default)]
    pub brace: bool,
    /// Aim at a chink in the armor at the location (piercing and impaling attacks): −8 on
    /// the torso, −10 elsewhere, DR halved there.
    #[serde(default)]
    pub chink: bool,
    /// Strike at the foe's weapon to knock it from its hand (melee): the weapon's penalty
    /// and −2 more; a hit means a Quick Contest of weapon skills instead of damage.
    #[serde(default)]
    pub disarm: bool,
    /// A group attack: every member of a side that fights as a group who can strike the
    /// target from where it stands joins in one roll.
    #[serde(default)]
    pub group: bool,
}

impl Action {
    /// A maneuver with nothing else.
    pub fn simple(maneuver: Maneuver) -> Self {
        Self {
            maneuver,
            to: None,
            target: None,
            weapon: None,
            location: None,
            deceptive: 0,
            telegraphic: false,
            shots: None,
            effort: Effort::default(),
            brace: false,
            chink: false,
            disarm: false,
            group: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// gurps-lite-and-socs.txt "MANEUVERS": movement allowed by each maneuver, for Move 5.
    #[test]
    fn movement_allowances() {
        assert_eq!(Maneuver::DoNothing.move_allowance(5), 0);
        assert_eq!(Maneuver::Move.move_allowance(5), 5);
        assert_eq!(Maneuver::MoveAndAttack.move_allowance(5), 5);
        assert_eq!(Maneuver::Attack.move_allowance(5), 1);
        assert_eq!(Maneuver::Aim.move_allowance(5), 1);
        assert_eq!(
            Maneuver::AllOutAttack(AoaOption::Strong).move_allowance(5),
            3
        );
        assert_eq!(
            Maneuver::AllOutDefense(AodOption::IncreasedDodge).move_allowance(5),
            3
        );
        assert_eq!(
            Maneuver::AllOutDefense(AodOption::IncreasedParry).move_allowance(5),
            1
        );
        assert_eq!(Maneuver::Attack.move_allowance(0), 0);
        assert_eq!(
            Maneuver::ChangePosture(Posture::Kneeling).move_allowance(5),
            0
        );
        // "COMMITTED ATTACK ... Move 2 hexes"; Evaluate and Feint one hex
        assert_eq!(
            Maneuver::CommittedAttack(CommitOption::Strong).move_allowance(5),
            2
        );
        assert_eq!(Maneuver::Evaluate.move_allowance(5), 1);
        assert_eq!(Maneuver::Feint.move_allowance(5), 1);
    }
}
