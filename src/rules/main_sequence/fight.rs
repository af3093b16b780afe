//! A Main Sequence battle's rules of play, as plain code over a [`DieRoller`]
//! (main-sequence.txt, "Combat Actions", "Range Bands", "Rate of Fire",
//! "Damage", "Armor and Cover", "Knockout and Death", "Using Edge", "Tags", "Ship Tags",
//! "Ship Destruction", "Ship Detection", "Optional Rule: Systems Failure", "Chase Rules").
//!
//! Each unit's state ([`UnitState`]) is a component on its entity; what the units share
//! ([`Fight`]) is a resource; the rules run on a [`Board`] of the two.
//!
//! A round: dying characters lose a round (and die at the end of the last), then the
//! round's checks: engineers try to repair failed systems, a ship's medic tends its dying
//! crewmen, each side's best sensor operator sweeps for enemy ships not yet found, a chase
//! rolls its contest; then everyone still fighting rolls initiative (1d6 + Initiative; a
//! side listed in `group_initiative` rolls once for all its units, with its best rating).
//! Each unit in turn makes one move (one Close band, a duck or a leap; none in a chase)
//! and one action: an attack, a reload, first aid to a dying friend, or a ship's shield
//! boost. An attack asks each target for an active defense before the one roll; a failed
//! attack roll, a beaten parry or dodge and any failed check may be re-rolled (Edge, Lucky,
//! Lucky Boat); +2 from Edge is chosen with an attack, a defense or a turn's check, and
//! asked before each of the round's checks; an attack that would kill asks the victim to
//! spend Edge (a ship's crew, to keep it together). These questions go to the unit that
//! answers them: the battle waits for that unit's decision as for a turn.
//!
//! Decisions where the text is silent, each in one place:
//! - An active defense forfeits the defender's next action; a unit that already owes one
//!   cannot parry or dodge again until it has paid it. The free parry of Dual-Wielding
//!   comes back at its owner's turn and is gone until the next one when it makes a Double
//!   Attack ("Forfeit the free Parry for an extra attack").
//! - An attack roll "fails" for a re-roll when it misses the first target (the full
//!   total); a parry or dodge when the attack beats it; a chase roll when it is the lower
//!   of the two; any other check when it is under its DL. Initiative is an ordering roll,
//!   not a check: no Edge on it. Excellent Skill serves attack rolls (it is chosen with
//!   the attack); the other checks of a fight only pass or fail, and a chase roll is not
//!   "successful" on its own, so it is not offered there.
//! - "Would kill": an attack that would bring a character to 0 Hit Points with lethal
//!   damage (dying). Edge makes it miss that character only.
//! - Blinded characters (a flash-bang) may move but not attack or defend actively for
//!   their next two turns.
//! - Explosives strike every unit still fighting within Close of the unit aimed at, friend
//!   or foe, with the one roll against each one's Defense; the aimed-at unit first, then by
//!   distance. Cover is counted from the point of the blast. The thrower is spared (see
//!   [`Board::blast_victims`]).
//! - Ships: detection is shared by a side; only detected ships can be fired upon. A ship
//!   makes its attack action with its best gunner (Double Attack: two attacks); the
//!   crewman who rolls a ship's check spends his own Edge and Lucky. A systems failure
//!   (the optional rule, when the scenario turns it on) knocks out a system by 1d6
//!   ([`failed_system`]); the engineer rolls DL 9 at the start of each round to fix the
//!   first. A crewman whose console exploded is dying like any character; the best medic
//!   aboard tries to stabilize him at the start of each round.
//! - In a chase the two units keep the chase band instead of map positions. An escaped
//!   quarry leaves the battle ([`Condition::Escaped`]) and wins it; a caught one ends the
//!   chase at Melee beside its pursuer, and the two fight on.

use super::character::Rank;
use super::chase::{ChaseResult, chase_band, chase_table};
use super::combat::{
    ActiveDefense, Band, BandSizes, Cover, InitiativeRoll, MOVE_STUNT_DL, RateOfFire,
    defended_against, initiative_order, stabilize_dl,
};
use super::gear::{Weapon, can_fire, rounds_used};
use super::sheet::{Character, MsSheet, ShipSheet, Tag, Task};
use super::ships::{Destruction, detection_dl, failures_crossed, ship_destruction, ship_hit};
use crate::battle::{AttackResult, BattleEvent, DefenseRecord, Standing, UnitId, hex_pair};
use crate::battle::{Units, UnitsMut};
use crate::dice::{
    DiceName, DieRoller, Label, Modifier, RollRecord, RollSense, exploding_d6, judge_exploding_d6,
};
use crate::hexmap::{self, HexMap};
use bevy::ecs::resource::Resource;
use hexx::Hex;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::borrow::{Borrow, BorrowMut};

mod applying;
mod attacks;
mod checks;
mod legal;
mod ships_and_checks;
mod turns;

/// Where a unit stands in the fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Condition {
    /// Able to act.
    Fighting,
    /// Brought to 0 by bashing damage: incapacitated until the fight ends.
    KnockedOut,
    /// Brought to 0 by lethal damage: dies after `rounds` more rounds unless stabilized.
    Dying {
        /// Rounds left.
        rounds: i32,
        /// Stabilization attempts made.
        attempts: u32,
    },
    /// Dying, then stabilized: out of the fight, alive.
    Stabilized,
    /// Dead.
    Dead,
    /// A ship destroyed, all hands lost.
    Destroyed,
    /// A quarry that got away.
    Escaped,
}

impl Condition {
    /// The battle-wide standing.
    pub fn standing(self) -> Standing {
        match self {
            Condition::Fighting => Standing::Fighting,
            Condition::KnockedOut | Condition::Dying { .. } | Condition::Stabilized => {
                Standing::Unconscious
            }
            Condition::Dead => Standing::Dead,
            Condition::Destroyed => Standing::Destroyed,
            Condition::Escaped => Standing::Escaped,
        }
    }

    /// In words.
    pub fn word(self) -> &'static str {
        match self {
            Condition::Fighting => "fighting",
            Condition::KnockedOut => "knocked out",
            Condition::Dying { .. } => "dying",
            Condition::Stabilized => "stabilized",
            Condition::Dead => "dead",
            Condition::Destroyed => "destroyed",
            Condition::Escaped => "escaped",
        }
    }
}

/// A ship's system knocked out by the systems-failure rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum System {
    /// No attacks.
    Weapons,
    /// No moves; chase rolls without Propulsion.
    Engines,
    /// Damaged sensors ("Ship Detection"): its sweeps are at +[`DAMAGED_SENSORS_DL`] DL.
    Sensors,
}

/// What damaged sensors add to the DL of a ship's sweeps ("Ship Detection" names damaged
/// sensors among the factors that add to the difficulty without a number; we take one
/// step of the "Unopposed Checks" ladder, 2).
pub const DAMAGED_SENSORS_DL: i32 = 2;

/// The thresholds of the optional systems-failure rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Failures {
    /// At 50% and 25% of full Hit Points.
    Extreme,
    /// At 25% and 10% (a less extreme fight).
    Mild,
}

/// One crewman aboard a ship in the fight.
#[derive(Clone, Debug, PartialEq)]
pub struct CrewState {
    /// Hit Points.
    pub hp: i32,
    /// Edge left.
    pub edge: i32,
    /// At his post, dying (an exploded console is lethal damage, "Ship Destruction"),
    /// stabilized or dead.
    pub condition: Condition,
    /// His own Lucky tag is used this scene.
    pub lucky_used: bool,
}

/// Rounds left in a weapon and spare loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ammo {
    /// Rounds loaded (None: needs none).
    pub loaded: Option<u32>,
    /// Spare loads.
    pub spare: u32,
}

/// One unit's state, the component on its entity.
#[derive(bevy::ecs::component::Component, Clone, Debug, PartialEq)]
pub struct UnitState {
    /// Where it stands (in a chase: only where the map shows it).
    pub pos: Hex,
    /// Hit Points.
    pub hp: i32,
    /// Shield points (ships).
    pub shields: i32,
    /// Edge left (characters).
    pub edge: i32,
    /// Crew (ships).
    pub crew: Vec<CrewState>,
    /// In or out of the fight.
    pub condition: Condition,
    /// Per weapon.
    pub ammo: Vec<Ammo>,
    /// Nimble (or Nimble Ship) dodges left this combat.
    pub nimble: u32,
    /// The character's Lucky tag is used this scene.
    pub lucky_used: bool,
    /// The ship's Lucky Boat is used this scene.
    pub lucky_boat_used: bool,
    /// Skills whose Excellent Skill was used this scene.
    pub excellent_used: Vec<String>,
    /// Owes its next action for an active defense.
    pub forfeit: bool,
    /// Own turns it is still blinded for (a flash-bang).
    pub blind: u32,
    /// The Dual-Wielding free parry is spent until its next turn (used, or traded for a
    /// Double Attack).
    pub free_parry_used: bool,
    /// Failed systems (ships).
    pub failed: Vec<System>,
    /// Ducked this turn: one degree more cover against ranged attacks until its next turn.
    pub ducked: bool,
    /// The once-a-scene shield boost is spent (ships).
    pub shields_boosted: bool,
    /// Per side (by index): its sensors have found this unit (characters are always
    /// seen; a ship once a sweep finds it, "Ship Detection").
    pub seen_by: Vec<bool>,
}

/// An active defense against one attack ("Combat Actions"; "Tags": Nimble, Dual-Wielding).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Defense {
    /// Parry with a melee weapon: forfeits the next action.
    Parry,
    /// Dodge: forfeits the next action.
    Dodge,
    /// The off-hand weapon's free parry (Dual-Wielding): no action lost.
    FreeParry,
    /// Nimble or Nimble Ship: the attack misses.
    Nimble,
}

/// How a failed roll is re-rolled ("Using Edge"; "Ship Tags": Lucky, Lucky Boat).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reroll {
    /// Spend a point of Edge (the roller's: a ship's crewman spends his own).
    Edge,
    /// The roller's Lucky tag, once per scene.
    Lucky,
    /// The ship's Lucky Boat, for a roll with its systems, once per scene.
    LuckyBoat,
}

/// A check other than an attack roll, which Edge (+2 before, a re-roll after) and luck can
/// help ("Using Edge"): what it is for decides its roll and what follows from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckKind {
    /// Ducking for cover as the move: Agent + Acrobatics.
    Duck,
    /// Leaping or rolling over difficult ground as the move: Soldier + Athletics.
    Leap {
        /// The way, the unit's own hex first.
        path: Vec<Hex>,
        /// How many hexes of it a failure keeps (up to the first difficult one).
        short: usize,
    },
    /// Stabilizing a dying character: Tech + Knowledge (Medicine).
    Stabilize {
        /// Who.
        patient: UnitId,
    },
    /// The ship's best medic stabilizing a dying crewman aboard.
    StabilizeCrew {
        /// The crewman (index in the crew).
        patient: usize,
    },
    /// A sensor sweep for an enemy ship ("Ship Detection").
    Sweep {
        /// The ship looked for.
        target: UnitId,
    },
    /// The engineer fixing the first failed system ("Optional Rule: Systems Failure").
    Repair,
    /// A chase roll ("Chase Rules"), the pursuer's or the quarry's.
    Chase {
        /// The pursuer's roll (else the quarry's).
        pursuer: bool,
    },
}

/// A check on its way: asked about +2, rolled, maybe re-rolled, then applied.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    /// What for.
    pub kind: CheckKind,
    /// The unit that answers its questions (a ship for its crewman).
    pub roller: UnitId,
    /// The ship's crewman who rolls.
    pub crewman: Option<usize>,
    /// Modifiers before Edge.
    pub mods: Vec<Modifier>,
    /// Difficulty Level (none for a chase roll, a contest).
    pub dl: Option<i32>,
    /// +2 from Edge: `None` until decided.
    pub plus_two: Option<bool>,
    /// The roll, once rolled.
    pub roll: Option<RollRecord>,
    /// The opponent's total in a contest (the chase), once both have rolled.
    pub against: Option<i32>,
    /// The re-roll question was answered.
    pub reroll_done: bool,
}

impl Check {
    /// True when the roll failed: under its DL, or under the opponent's total.
    pub fn failed(&self) -> bool {
        match (&self.roll, self.dl, self.against) {
            (Some(r), Some(_), _) => !r.succeeded(),
            (Some(r), None, Some(other)) => r.total < other,
            _ => false,
        }
    }
}

/// What the start of a round still has to do, in order.
#[derive(Clone, Debug, PartialEq)]
pub enum RoundTask {
    /// A check to make.
    Check(Check),
    /// The chase's contest: both rolls, then the loser's chance to re-roll.
    Chase {
        /// The pursuer's roll.
        pursuer: Option<RollRecord>,
        /// The quarry's roll.
        quarry: Option<RollRecord>,
        /// The loser was offered its re-roll.
        offered: bool,
    },
    /// Initiative for everyone still fighting.
    Initiative,
}

/// A decision: a turn's move or action, or the answer to a question the battle asks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Action {
    /// Move up to one Close band to this hex `(q, r)`.
    Move {
        /// Where to.
        to: (i32, i32),
    },
    /// Attack with the weapon (index in the unit's weapons) at the targets, in order; for
    /// an explosive, the one unit aimed at.
    Attack {
        /// Weapon index.
        weapon: usize,
        /// Rate of fire.
        rof: RateOfFire,
        /// Targets in order (the first gets the full total).
        targets: Vec<UnitId>,
        /// Spend Edge for +2 before rolling.
        #[serde(default)]
        plus_two: bool,
        /// Use Excellent Skill (once per scene) if the roll succeeds.
        #[serde(default)]
        excellent: bool,
    },
    /// Use the move to duck: an Acrobatics roll (Agent) against
    /// [`MOVE_STUNT_DL`]; on success the unit counts one degree more cover against ranged
    /// attacks until its next turn ("Combat Actions", Movement).
    Duck {
        /// Spend Edge for +2 before rolling.
        #[serde(default)]
        plus_two: bool,
    },
    /// Use the move to leap or roll through difficult ground as if it were open, to this
    /// hex: an Athletics roll (Soldier) against [`MOVE_STUNT_DL`]; on a failure the unit
    /// stops in the last hex before the first difficult one ("Combat Actions", Movement).
    Leap {
        /// Where to.
        to: (i32, i32),
        /// Spend Edge for +2 before rolling.
        #[serde(default)]
        plus_two: bool,
    },
    /// A ship boosts its shields to 75% of full, once a scene (the battle), as its action
    /// ("Ship Tags", Shields).
    BoostShields,
    /// Reload the weapon (index) from a spare load.
    Reload {
        /// Weapon index.
        weapon: usize,
    },
    /// Try to stabilize a dying friend at Melee (Knowledge (Medicine)).
    Stabilize {
        /// Who.
        patient: UnitId,
        /// Spend Edge for +2 before rolling.
        #[serde(default)]
        plus_two: bool,
    },
    /// End the turn.
    EndTurn,
    /// Answer to "defend?": an active defense, or none.
    Defend(Option<Defense>),
    /// Answer to "defend?": a parry or dodge with +2 from Edge.
    DefendWithEdge(Defense),
    /// Answer to "re-roll?": how, or not.
    Reroll(Option<Reroll>),
    /// Answer to "spend Edge to make this killing attack miss?" (for a ship: does the
    /// crew spend Edge to keep it together?).
    SpendEdge(bool),
    /// Answer to "+2 from Edge on this check?" (a round's chase roll, sweep or repair).
    PlusTwo(bool),
}

/// A question the battle waits on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prompt {
    /// The target at this index of the attack may defend.
    Defend(usize),
    /// The attacker may re-roll.
    Reroll,
    /// The target at this index beat its parry or dodge roll; it may re-roll that.
    RerollDefense(usize),
    /// The target at this index would be killed (a ship: destroyed); it may spend Edge.
    Kill(usize),
    /// The check in progress may get +2 from Edge before it is rolled.
    Boost,
    /// The check in progress failed; its roller may re-roll.
    RerollCheck,
}

/// An attack on its way through defenses, the roll and damage.
#[derive(Clone, Debug, PartialEq)]
pub struct PendingAttack {
    /// Who attacks.
    pub attacker: UnitId,
    /// Weapon index.
    pub weapon: usize,
    /// Rate of fire.
    pub rof: RateOfFire,
    /// Everyone the attack strikes, in order.
    pub targets: Vec<UnitId>,
    /// An explosion's point.
    pub blast: Option<Hex>,
    /// +2 from Edge.
    pub plus_two: bool,
    /// Excellent Skill if it succeeds.
    pub excellent: bool,
    /// Each target's answer and defense roll, once given.
    pub defenses: Vec<Option<(Option<Defense>, Option<DefenseRecord>)>>,
    /// Each target was asked about re-rolling its defense.
    pub defense_rerolled: Vec<bool>,
    /// The attack roll, once rolled.
    pub roll: Option<RollRecord>,
    /// The re-roll question was answered.
    pub reroll_done: bool,
    /// Targets resolved so far.
    pub resolved: usize,
    /// Answer to the kill question for the target being resolved.
    pub spare: Option<bool>,
}

/// The turn in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnInfo {
    /// Whose.
    pub unit: UnitId,
    /// It has moved.
    pub moved: bool,
    /// It has used its action.
    pub acted: bool,
    /// Attacks left in its action (ships with Double Attack, characters with Double
    /// Attack: 2).
    pub attacks_left: u32,
    /// Blinded this turn: no attack.
    pub blinded: bool,
}

/// A chase in progress ("Chase Rules").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chase {
    /// The pursuer.
    pub pursuer: UnitId,
    /// The quarry.
    pub quarry: UnitId,
    /// The band between them.
    pub band: Band,
    /// The pursuer's speed bonus.
    pub pursuer_bonus: i32,
    /// The quarry's speed bonus.
    pub quarry_bonus: i32,
    /// The ground vehicle the pursuer drives (the field of its Vehicle skill), if any.
    pub pursuer_vehicle: Option<String>,
    /// The ground vehicle the quarry drives, if any.
    pub quarry_vehicle: Option<String>,
}

/// What the battle does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Waits for this unit's decision.
    Awaiting(UnitId),
    /// The round is over.
    RoundOver,
}

/// What the units of a Main Sequence battle share: the sides, the scenario's settings,
/// the round, whose turn it is and the attack, question or check in progress. Each unit's
/// sheet and state are components on its entity; the rules see both through a [`Board`].
#[derive(Resource, Clone, Debug, Default)]
pub struct Fight {
    /// Side ids by side index.
    pub side_ids: Vec<String>,
    /// Band sizes in hexes.
    pub sizes: BandSizes,
    /// Cinematic ammunition: nothing is counted.
    pub cinematic_ammo: bool,
    /// Per side: one initiative roll for the whole side.
    pub group_initiative: Vec<bool>,
    /// Per side: presses the attack (the AI's Aggressive style) rather than keeping safe.
    pub aggressive: Vec<bool>,
    /// Systems failure, if on.
    pub failures: Option<Failures>,
    /// Added to the DL of every sensor sweep (gas clouds, ion storms: "Ship Detection").
    pub detection_modifier: i32,
    /// The chase, if the battle is one.
    pub chase: Option<Chase>,
    /// Round number.
    pub round: u32,
    /// Order of turns this round.
    pub order: Vec<UnitId>,
    /// Next position in `order`.
    pub next: usize,
    /// The turn in progress.
    pub turn: Option<TurnInfo>,
    /// The attack in progress.
    pub attack: Option<PendingAttack>,
    /// The question the battle waits on.
    pub prompt: Option<Prompt>,
    /// The check in progress.
    pub check: Option<Check>,
    /// What the start of the round still has to do.
    pub round_tasks: Vec<RoundTask>,
    /// The fight is over and its aftermath applied.
    pub over: bool,
}

fn roll_event(
    unit: UnitId,
    purpose: &'static str,
    roll: RollRecord,
    result: String,
) -> BattleEvent {
    BattleEvent::Roll {
        unit,
        purpose: Cow::Borrowed(purpose),
        roll,
        result: Cow::Owned(result),
    }
}

fn note(unit: Option<UnitId>, text: String) -> BattleEvent {
    BattleEvent::Note { unit, text }
}

/// The labels of the weapon skills' modifiers, written once: the AI asks for attack
/// modifiers many times a decision, and a label made with `format!` each time was a tenth
/// of a Main Sequence preview (perf on ms-corridor).
const WEAPON_SKILL_LABELS: [(&str, [&str; 5]); 5] = [
    (
        "Melee",
        [
            "Melee (untrained)",
            "Melee (Untrained)",
            "Melee (Basic)",
            "Melee (Advanced)",
            "Melee (Master)",
        ],
    ),
    (
        "Ranged",
        [
            "Ranged (untrained)",
            "Ranged (Untrained)",
            "Ranged (Basic)",
            "Ranged (Advanced)",
            "Ranged (Master)",
        ],
    ),
    (
        "Gunnery",
        [
            "Gunnery (untrained)",
            "Gunnery (Untrained)",
            "Gunnery (Basic)",
            "Gunnery (Advanced)",
            "Gunnery (Master)",
        ],
    ),
    (
        "Athletics",
        [
            "Athletics (untrained)",
            "Athletics (Untrained)",
            "Athletics (Basic)",
            "Athletics (Advanced)",
            "Athletics (Master)",
        ],
    ),
    (
        "Unarmed",
        [
            "Unarmed (untrained)",
            "Unarmed (Untrained)",
            "Unarmed (Basic)",
            "Unarmed (Advanced)",
            "Unarmed (Master)",
        ],
    ),
];

fn rank_label(skill: &str, rank: Option<&Rank>) -> Label {
    let column = match rank {
        None => 0,
        Some(Rank::Untrained) => 1,
        Some(Rank::Basic) => 2,
        Some(Rank::Advanced) => 3,
        Some(Rank::Master) => 4,
    };
    if let Some((_, labels)) = WEAPON_SKILL_LABELS.iter().find(|(s, _)| *s == skill) {
        return Label::Static(labels[column]);
    }
    match rank {
        Some(r) => Label::from(format!("{skill} ({r:?})")),
        None => Label::from(format!("{skill} (untrained)")),
    }
}

/// Main Sequence cover from the map's cover ("Armor and Cover": partial +2, half +4, near
/// total +6, matched to light, half and heavy cover terrain).
pub fn cover_of(c: Option<hexmap::Cover>) -> Cover {
    match c {
        None => Cover::None,
        Some(hexmap::Cover::Light) => Cover::Partial,
        Some(hexmap::Cover::Half) => Cover::Half,
        Some(hexmap::Cover::Heavy) => Cover::NearTotal,
    }
}

/// The units of a Main Sequence battle by unit id: each one's [`MsSheet`] and
/// [`UnitState`] (a battle world, or the systems' query).
pub trait MsUnits: Units<MsSheet, UnitState> {}
impl<T: Units<MsSheet, UnitState> + ?Sized> MsUnits for T {}

/// [`MsUnits`] whose states the rules may change.
pub trait MsUnitsMut: UnitsMut<MsSheet, UnitState> + MsUnits {}
impl<T: UnitsMut<MsSheet, UnitState> + ?Sized> MsUnitsMut for T {}

/// A Main Sequence battle as the rules see it: what the units share (`fight`, the
/// [`Fight`] resource, which the board reads as through `Deref`) and the units' own
/// components (`units`). The systems lend it the resource and their query; the window and
/// the tests a battle world. The accessors that return a unit directly are for ids the
/// rules have checked (a unit of the battle); they panic otherwise, as indexing a list
/// would.
pub struct Board<F, U> {
    /// The shared state: a [`Fight`], or a reference to one.
    pub fight: F,
    /// The units' sheets and states.
    pub units: U,
}

impl<F: Borrow<Fight>, U> std::ops::Deref for Board<F, U> {
    type Target = Fight;
    fn deref(&self) -> &Fight {
        self.fight.borrow()
    }
}

impl<F: BorrowMut<Fight>, U> std::ops::DerefMut for Board<F, U> {
    fn deref_mut(&mut self) -> &mut Fight {
        self.fight.borrow_mut()
    }
}

impl<F: Borrow<Fight>, U: MsUnits> Board<F, U> {
    /// A unit's sheet.
    pub fn sheet(&self, u: UnitId) -> &MsSheet {
        match self.units.sheet_of(u) {
            Some(s) => s,
            None => panic!("no unit {u:?}"),
        }
    }

    /// A unit's state.
    pub fn state(&self, u: UnitId) -> &UnitState {
        match self.units.state_of(u) {
            Some(s) => s,
            None => panic!("no unit {u:?}"),
        }
    }

    /// A unit's name.
    pub fn name(&self, u: UnitId) -> &str {
        self.units.name_of(u)
    }

    /// How many units the battle has.
    pub fn count(&self) -> usize {
        self.units.count()
    }

    /// Every unit id.
    pub fn ids(&self) -> impl Iterator<Item = UnitId> + use<F, U> {
        self.units.ids()
    }

    /// A unit's side.
    pub fn side(&self, u: UnitId) -> u8 {
        self.units.side_of(u).unwrap_or(0)
    }

    /// True when `u`'s side has detected `target` (characters are always seen; a ship
    /// once a sweep found it: "Ship Detection").
    pub fn detected(&self, u: UnitId, target: UnitId) -> bool {
        self.units
            .state_of(target)
            .and_then(|t| t.seen_by.get(usize::from(self.side(u))))
            .copied()
            .unwrap_or(false)
    }

    /// True while the unit fights.
    pub fn fighting(&self, u: UnitId) -> bool {
        self.state(u).condition == Condition::Fighting
    }

    /// True for units of different sides.
    pub fn foes(&self, a: UnitId, b: UnitId) -> bool {
        self.units.side_of(a) != self.units.side_of(b)
    }

    /// Foes still fighting.
    pub fn enemies(&self, u: UnitId) -> Vec<UnitId> {
        self.ids()
            .filter(|&o| self.foes(u, o) && self.fighting(o))
            .collect()
    }

    /// The band between two units: the chase band for the chase's two, else from the hex
    /// distance ("Range Bands"; rules/README.md decision 6).
    pub fn band(&self, a: UnitId, b: UnitId) -> Band {
        if let Some(c) = &self.chase
            && ((a, b) == (c.pursuer, c.quarry) || (b, a) == (c.pursuer, c.quarry))
        {
            return c.band;
        }
        self.sizes
            .band(self.state(a).pos.unsigned_distance_to(self.state(b).pos))
    }

    /// The unit whose decision the battle waits for.
    pub fn awaiting(&self) -> Option<UnitId> {
        let a = self.attack.as_ref();
        match self.prompt {
            Some(Prompt::Defend(i) | Prompt::Kill(i) | Prompt::RerollDefense(i)) => {
                a.and_then(|a| a.targets.get(i).copied())
            }
            Some(Prompt::Reroll) => a.map(|a| a.attacker),
            Some(Prompt::Boost | Prompt::RerollCheck) => self.check.as_ref().map(|c| c.roller),
            None => self.turn.map(|t| t.unit),
        }
    }

    /// The unit's state in a few words for one-line summaries (", 7/10 HP, Edge 2").
    pub fn unit_line(&self, u: UnitId) -> String {
        let st = self.state(u);
        let mut s = format!(", {}/{} HP", st.hp, self.sheet(u).hp());
        if st.shields > 0 {
            s.push_str(&format!(", shields {}", st.shields));
        }
        if let Condition::Dying { rounds, .. } = st.condition {
            s.push_str(&format!(", dying ({rounds} rounds)"));
        } else if !matches!(st.condition, Condition::Fighting)
            && st.condition.word() != st.condition.standing().word()
        {
            s.push_str(&format!(", {}", st.condition.word()));
        }
        s
    }

    /// A unit's Defense against attacks (ships: plus the pilot's Awareness with Defensive
    /// Driver, "Tags").
    pub fn defense(&self, u: UnitId) -> i32 {
        match self.sheet(u) {
            MsSheet::Character(c) => c.defense,
            MsSheet::Ship(s) => {
                let pilot = self.crewman(u, Task::Pilot);
                s.attrs.defense()
                    + pilot
                        .map(|p| &s.crew[p].character)
                        .filter(|c| c.has(&Tag::DefensiveDriver))
                        .map_or(0, |c| c.skill("Awareness"))
            }
        }
    }

    /// Damage Soak.
    pub fn soak(&self, u: UnitId) -> i32 {
        match self.sheet(u) {
            MsSheet::Character(c) => c.soak,
            MsSheet::Ship(s) => s.soak,
        }
    }

    /// The crewman of ship `u` who does `task` (able: not down).
    pub fn crewman(&self, u: UnitId, task: Task) -> Option<usize> {
        let MsSheet::Ship(s) = self.sheet(u) else {
            return None;
        };
        let crew = &self.state(u).crew;
        s.best(task, |i| crew.get(i).is_some_and(|c| c.hp > 0))
    }

    /// The character who rolls for `u`'s attacks: itself, or its gunner.
    fn shooter(&self, u: UnitId) -> Option<&Character> {
        match self.sheet(u) {
            MsSheet::Character(c) => Some(c),
            MsSheet::Ship(s) => self.crewman(u, Task::Gunnery).map(|i| &s.crew[i].character),
        }
    }

    /// Edge the unit can spend on its attack rolls (a ship: its gunner's).
    pub fn edge(&self, u: UnitId) -> i32 {
        self.roller_edge(u, self.crewman(u, Task::Gunnery))
    }

    /// Edge of whoever rolls for `u`: the character, or the ship's `crewman`.
    pub fn roller_edge(&self, u: UnitId, crewman: Option<usize>) -> i32 {
        match self.sheet(u) {
            MsSheet::Character(_) => self.state(u).edge,
            MsSheet::Ship(_) => crewman
                .and_then(|i| self.state(u).crew.get(i))
                .map_or(0, |c| c.edge),
        }
    }

    /// How whoever rolls for `u` (the character, or the ship's `crewman`) may re-roll a
    /// failed roll made with the ship's systems (an attack, a sweep, a chase roll): Edge,
    /// the roller's Lucky, the ship's Lucky Boat.
    pub fn rerolls(&self, u: UnitId, crewman: Option<usize>) -> Vec<Reroll> {
        self.rerolls_with(u, crewman, true)
    }

    /// The re-rolls open for the check `c`: Lucky Boat only for a roll with the ship's
    /// systems ("Ship Tags": "When using the ship's systems"; "Using Your Ship": a roll
    /// that adds a ship attribute), so not for repairs or first aid aboard.
    pub fn check_rerolls(&self, c: &Check) -> Vec<Reroll> {
        let systems = matches!(c.kind, CheckKind::Sweep { .. } | CheckKind::Chase { .. });
        self.rerolls_with(c.roller, c.crewman, systems)
    }

    fn rerolls_with(&self, u: UnitId, crewman: Option<usize>, systems: bool) -> Vec<Reroll> {
        let mut v = Vec::new();
        if self.roller_edge(u, crewman) > 0 {
            v.push(Reroll::Edge);
        }
        let st = self.state(u);
        match self.sheet(u) {
            MsSheet::Character(c) => {
                if c.has(&Tag::Lucky) && !st.lucky_used {
                    v.push(Reroll::Lucky);
                }
            }
            MsSheet::Ship(s) => {
                if let Some(i) = crewman
                    && s.crew[i].character.has(&Tag::Lucky)
                    && st.crew.get(i).is_some_and(|c| !c.lucky_used)
                {
                    v.push(Reroll::Lucky);
                }
                if systems && s.lucky && !st.lucky_boat_used {
                    v.push(Reroll::LuckyBoat);
                }
            }
        }
        v
    }

    /// The Edge aboard ship `u` that "Ship Destruction" can spend: every living crewman's.
    pub fn crew_edge(&self, u: UnitId) -> i32 {
        self.state(u)
            .crew
            .iter()
            .filter(|c| c.condition != Condition::Dead)
            .map(|c| c.edge.max(0))
            .sum()
    }

    /// Who rolls the attacks of `u`: nobody for a character (itself), a ship's gunner.
    pub fn gunner(&self, u: UnitId) -> Option<usize> {
        self.crewman(u, Task::Gunnery)
    }

    /// True when the unit may re-roll a failed attack with luck (Lucky, Lucky Boat).
    pub fn lucky(&self, u: UnitId) -> bool {
        self.rerolls(u, self.gunner(u))
            .iter()
            .any(|r| *r != Reroll::Edge)
    }

    /// The attack modifiers of `u` with weapon `w` against `first` (Combat Rating, skill,
    /// the ship's Tactical, Champion, Edge).
    pub fn attack_modifiers(
        &self,
        u: UnitId,
        w: &Weapon,
        first: UnitId,
        plus_two: bool,
    ) -> Vec<Modifier> {
        let mut mods = Vec::with_capacity(5);
        if let Some(c) = self.shooter(u) {
            mods.push(Modifier::new("Combat Rating", c.attrs.combat_rating()));
            let skill = Character::weapon_skill(w);
            let bonus = c.skill(skill);
            if bonus != 0 {
                mods.push(Modifier::named(
                    rank_label(skill, c.skills.get(skill)),
                    bonus,
                ));
            }
            if self.champions_against(c, first) {
                mods.push(Modifier::new("Champion", 2));
            }
        }
        if let MsSheet::Ship(s) = self.sheet(u) {
            mods.push(Modifier::new("Tactical", s.attrs.tactical));
        }
        if plus_two {
            mods.push(Modifier::new("Edge", 2));
        }
        mods
    }

    /// The sum of [`Board::attack_modifiers`], without their labels: what the AI and the
    /// odds weigh for every attack they consider.
    pub fn attack_bonus(&self, u: UnitId, w: &Weapon, first: UnitId, plus_two: bool) -> i32 {
        let mut total = 0;
        if let Some(c) = self.shooter(u) {
            total += c.attrs.combat_rating();
            total += c.skill(Character::weapon_skill(w));
            if self.champions_against(c, first) {
                total += 2;
            }
        }
        if let MsSheet::Ship(s) = self.sheet(u) {
            total += s.attrs.tactical;
        }
        if plus_two {
            total += 2;
        }
        total
    }

    fn champions_against(&self, c: &Character, target: UnitId) -> bool {
        let side = &self.side_ids[usize::from(self.side(target))];
        c.champion_against().contains(side)
    }

    /// The cover protecting `target` from an attack from `from` with `w` (none in melee
    /// or for ships).
    pub fn cover(&self, map: &HexMap, from: Hex, target: UnitId, w: &Weapon) -> Cover {
        if w.range <= Band::Melee || self.sheet(target).is_ship() {
            return Cover::None;
        }
        let c = cover_of(map.cover_between(from, self.state(target).pos));
        if self.state(target).ducked {
            c.raised()
        } else {
            c
        }
    }
}

impl<F: BorrowMut<Fight>, U: MsUnitsMut> Board<F, U> {
    /// A unit's state, to change.
    pub fn state_mut(&mut self, u: UnitId) -> &mut UnitState {
        match self.units.state_mut(u) {
            Some(s) => s,
            None => panic!("no unit {u:?}"),
        }
    }

    fn spend_edge(&mut self, u: UnitId, crewman: Option<usize>) {
        let ship = self.sheet(u).is_ship();
        let st = self.state_mut(u);
        if !ship {
            st.edge -= 1;
        } else if let Some(c) = crewman.and_then(|i| st.crew.get_mut(i)) {
            c.edge -= 1;
        }
    }

    /// Uses up a re-roll of `u`'s roller (see [`Fight::rerolls`]).
    fn spend_reroll(&mut self, u: UnitId, crewman: Option<usize>, r: Reroll) {
        match r {
            Reroll::Edge => self.spend_edge(u, crewman),
            Reroll::Lucky => {
                let ship = self.sheet(u).is_ship();
                let st = self.state_mut(u);
                if !ship {
                    st.lucky_used = true;
                } else if let Some(c) = crewman.and_then(|i| st.crew.get_mut(i)) {
                    c.lucky_used = true;
                }
            }
            Reroll::LuckyBoat => self.state_mut(u).lucky_boat_used = true,
        }
    }

    /// The end of the fight ("Knockout and Death"): the knocked-out regain 1 Hit Point
    /// (they may get up after it; they stay out of this fight's count). Applied once.
    pub fn end_of_combat(&mut self, events: &mut Vec<BattleEvent>) {
        if self.over {
            return;
        }
        self.over = true;
        for u in self.ids().collect::<Vec<_>>() {
            let st = self.state_mut(u);
            if st.condition == Condition::KnockedOut {
                st.hp = 1;
                events.push(note(
                    Some(u),
                    "comes to with 1 Hit Point now that the fight is over".into(),
                ));
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn damage_event(
    attacker: UnitId,
    target: UnitId,
    w: &Weapon,
    margin: i32,
    soak: i32,
    before: i32,
    after: i32,
    max: i32,
) -> BattleEvent {
    let damage = w.damage + margin;
    let mut steps = Vec::new();
    if soak > 0 {
        steps.push(Modifier::new("Damage Soak", -soak));
    }
    BattleEvent::Damage {
        attacker: Some(attacker),
        target,
        roll: RollRecord {
            drawn: Default::default(),
            dice: DiceName::Fixed("weapon"),
            faces: Vec::new(),
            extra: Vec::new(),
            sense: RollSense::Over,
            modifiers: vec![
                Modifier::named(Label::from(w.name.clone()), w.damage),
                Modifier::new("over Defense", margin),
            ],
            total: damage,
            target: None,
            target_parts: Vec::new(),
            margin: None,
            success: None,
            critical: None,
        },
        damage_type: Cow::Borrowed(if w.bash { "bashing" } else { "lethal" }),
        steps,
        injury: before - after,
        hp_before: before,
        hp_after: after,
        hp_max: max,
        location: None,
    }
}

/// The system a systems failure knocks out by 1d6 (a decision; the text names life support
/// and weapons as examples, and "damaged sensors" in "Ship Detection"): 1-2 the weapons,
/// 3-4 the engines, 5-6 the sensors.
pub fn failed_system(die: u32) -> System {
    match die {
        ..=2 => System::Weapons,
        3 | 4 => System::Engines,
        _ => System::Sensors,
    }
}

fn next_system(s: System) -> System {
    match s {
        System::Weapons => System::Engines,
        System::Engines => System::Sensors,
        System::Sensors => System::Weapons,
    }
}

/// The DL of a repair ("Optional Rule: Systems Failure": a Knowledge (Engineering) or
/// (Mechanics) check must beat DL 9).
pub const REPAIR_DL: i32 = 9;

/// A dying condition one round on ("Knockout and Death": death after Soldier rounds):
/// `None` when the condition is not dying.
fn dying_tick(c: Condition) -> Option<Condition> {
    match c {
        Condition::Dying { rounds, .. } if rounds <= 1 => Some(Condition::Dead),
        Condition::Dying { rounds, attempts } => Some(Condition::Dying {
            rounds: rounds - 1,
            attempts,
        }),
        _ => None,
    }
}

/// First aid's modifiers: Tech + Knowledge (Medicine), +2 with a medical kit ("Weapons,
/// Armor & Gear", gear table: Medical Kit).
fn medicine_modifiers(c: &Character) -> Vec<Modifier> {
    let mut mods = vec![Modifier::new("Tech", c.attrs.tech)];
    let k = c.skill("Knowledge (Medicine)");
    if k != 0 {
        mods.push(Modifier::new("Knowledge (Medicine)", k));
    }
    if c.medkit {
        mods.push(Modifier::new("medical kit", 2));
    }
    mods
}

/// The condition after a stabilization attempt on `name` ("Knockout and Death": DL 9,
/// then 11, then 13; after the third failure the character perishes), and what the log
/// says.
fn stabilized(c: Condition, ok: bool, name: &str) -> (Condition, String) {
    let Condition::Dying { rounds, attempts } = c else {
        return (c, format!("{name} is not dying"));
    };
    let dl = stabilize_dl(attempts + 1).unwrap_or(0);
    if ok {
        (Condition::Stabilized, format!("{name} is stabilized"))
    } else if attempts + 1 >= 3 {
        (Condition::Dead, format!("{name} cannot be saved"))
    } else {
        (
            Condition::Dying {
                rounds,
                attempts: attempts + 1,
            },
            format!("{name} is still dying (next try DL {})", dl + 2),
        )
    }
}

/// The hex `(q, r)` when it is on the map (a saved decision may name any coordinates).
fn on_map(map: &HexMap, (q, r): (i32, i32)) -> Result<Hex, String> {
    let h = Hex::new(q, r);
    if map.contains(h) {
        Ok(h)
    } else {
        Err(format!("({q}, {r}) is not on the map"))
    }
}

fn edge_note(plus_two: bool) -> &'static str {
    if plus_two { ", Edge for +2" } else { "" }
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Band from its number (Melee 1 to Far 5), as [`chase_band`] counts.
fn band_of(n: i32) -> Band {
    match n {
        ..=1 => Band::Melee,
        2 => Band::Close,
        3 => Band::Medium,
        4 => Band::Long,
        _ => Band::Far,
    }
}

/// The roll with its first die (and any sixes after it) rolled again ("Using Edge":
/// re-roll a single die; the caller keeps the better).
fn reroll_first(old: &RollRecord, dice: &mut impl DieRoller) -> RollRecord {
    let mods: Vec<Modifier> = old
        .modifiers
        .iter()
        .filter(|m| &*m.label != "each 6 counts 5")
        .cloned()
        .collect();
    exploding_d6(dice, mods, old.target)
}

/// Excellent Skill (the character tags, under the text's first "Ship Tags" heading): the
/// successful roll counts as a natural 6, so the die counts 5 and explodes: a new
/// exploding die is added. A roll whose die already was a 6 is a natural 6 and stays as it
/// is (the tag never lowers a roll).
pub fn excellent_six(old: &RollRecord, dice: &mut impl DieRoller) -> RollRecord {
    if old.faces.first() == Some(&6) {
        return old.clone();
    }
    let mods: Vec<Modifier> = old
        .modifiers
        .iter()
        .filter(|m| &*m.label != "each 6 counts 5")
        .cloned()
        .collect();
    let mut faces = vec![6];
    loop {
        let f = dice.roll_die(6);
        faces.push(f);
        if f != 6 {
            break;
        }
    }
    judge_exploding_d6(faces, mods, old.target)
}

#[cfg(test)]
mod label_tests {
    use super::{Rank, WEAPON_SKILL_LABELS, rank_label};

    /// The written-once labels read exactly as the ones made at run time for any other
    /// skill: "<skill> (<rank>)", "(untrained)" without a rank.
    #[test]
    fn weapon_skill_labels_match_the_made_ones() {
        for (skill, _) in WEAPON_SKILL_LABELS {
            for rank in [
                None,
                Some(Rank::Untrained),
                Some(Rank::Basic),
                Some(Rank::Advanced),
                Some(Rank::Master),
            ] {
                let made = match rank {
                    Some(r) => format!("{skill} ({r:?})"),
                    None => format!("{skill} (untrained)"),
                };
                assert_eq!(&*rank_label(skill, rank.as_ref()), made);
            }
        }
        assert_eq!(&*rank_label("Pilot", Some(&Rank::Basic)), "Pilot (Basic)");
    }
}
