//! The state of a Main Sequence battle and its rules of play, as plain code over a
//! [`DieRoller`] (main-sequence.txt, "Combat Actions", "Range Bands", "Rate of Fire",
//! "Damage", "Armor and Cover", "Knockout and Death", "Using Edge", "Tags", "Ship Tags",
//! "Ship Destruction", "Ship Detection", "Optional Rule: Systems Failure", "Chase Rules").
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
//!   [`Fight::blast_victims`]).
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
use crate::dice::{
    DiceName, DieRoller, Label, Modifier, RollRecord, RollSense, exploding_d6, judge_exploding_d6,
};
use crate::hexmap::{self, HexMap};
use bevy::ecs::resource::Resource;
use hexx::Hex;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::sync::Arc;

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

/// One unit's state.
#[derive(Clone, Debug, PartialEq)]
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

/// A Main Sequence battle.
#[derive(Resource, Clone, Debug, Default)]
pub struct Fight {
    /// Sheets by unit.
    pub sheets: Vec<Arc<MsSheet>>,
    /// Names by unit.
    pub names: Vec<String>,
    /// Side index by unit.
    pub sides: Vec<u8>,
    /// Side ids by side index.
    pub side_ids: Vec<String>,
    /// State by unit.
    pub units: Vec<UnitState>,
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
    /// `detected[side][unit]`: the side's sensors have found that ship.
    pub detected: Vec<Vec<bool>>,
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

fn rank_label(skill: &str, rank: Option<&Rank>) -> Label {
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

impl Fight {
    /// A unit's sheet.
    pub fn sheet(&self, u: UnitId) -> &MsSheet {
        &self.sheets[u.0 as usize]
    }

    /// A unit's state.
    pub fn state(&self, u: UnitId) -> &UnitState {
        &self.units[u.0 as usize]
    }

    fn state_mut(&mut self, u: UnitId) -> &mut UnitState {
        &mut self.units[u.0 as usize]
    }

    /// A unit's name.
    pub fn name(&self, u: UnitId) -> &str {
        self.names.get(u.0 as usize).map_or("?", |s| s.as_str())
    }

    /// Every unit id.
    pub fn ids(&self) -> impl Iterator<Item = UnitId> + '_ {
        (0..self.units.len() as u32).map(UnitId)
    }

    /// True while the unit fights.
    pub fn fighting(&self, u: UnitId) -> bool {
        self.state(u).condition == Condition::Fighting
    }

    /// True for units of different sides.
    pub fn foes(&self, a: UnitId, b: UnitId) -> bool {
        self.sides[a.0 as usize] != self.sides[b.0 as usize]
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

    fn spend_edge(&mut self, u: UnitId, crewman: Option<usize>) {
        let ship = self.sheet(u).is_ship();
        let st = self.state_mut(u);
        if !ship {
            st.edge -= 1;
        } else if let Some(c) = crewman.and_then(|i| st.crew.get_mut(i)) {
            c.edge -= 1;
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
        let mut mods = Vec::new();
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

    fn champions_against(&self, c: &Character, target: UnitId) -> bool {
        let side = &self.side_ids[self.sides[target.0 as usize] as usize];
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

    // ---------------------------------------------------------------------------------
    // Rounds and turns.

    /// Starts a round: the dying lose a round, then the round's checks (repairs, crew
    /// first aid, sensor sweeps, the chase) and initiative, in that order. A check whose
    /// roller has Edge or luck waits for its questions ([`Prompt::Boost`],
    /// [`Prompt::RerollCheck`]); [`Fight::apply`] carries the round on with the answers.
    pub fn begin_round(
        &mut self,
        map: &HexMap,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        self.round += 1;
        let ids: Vec<UnitId> = self.ids().collect();
        for &u in &ids {
            let st = self.state_mut(u);
            if let Some(next) = dying_tick(st.condition) {
                st.condition = next;
                if next == Condition::Dead {
                    events.push(BattleEvent::StatusChanged {
                        unit: u,
                        standing: Standing::Dead,
                        cause: Cow::Borrowed("died of wounds"),
                    });
                }
            }
            for (i, c) in st.crew.iter_mut().enumerate() {
                if let Some(next) = dying_tick(c.condition) {
                    c.condition = next;
                    if next == Condition::Dead {
                        events.push(note(Some(u), format!("crewman {} dies of wounds", i + 1)));
                    }
                }
            }
        }
        self.next = 0;
        self.turn = None;
        self.order.clear();
        self.round_tasks = self.plan_round();
        self.run_round(map, dice, events);
    }

    /// The round's checks, in order: each ship's repair of a failed system, its medic's
    /// first aid to dying crewmen, each side's sweeps for enemy ships it has not found, the
    /// chase; then initiative.
    fn plan_round(&self) -> Vec<RoundTask> {
        let mut tasks = Vec::new();
        for u in self.ids() {
            if !self.fighting(u) {
                continue;
            }
            let MsSheet::Ship(s) = self.sheet(u) else {
                continue;
            };
            let st = self.state(u);
            if !st.failed.is_empty()
                && let Some(i) = self.crewman(u, Task::Repair)
            {
                let c = &s.crew[i].character;
                let mut mods = vec![Modifier::new("Tech", c.attrs.tech)];
                let k = Task::Repair.bonus(c, None) - c.attrs.tech;
                if k != 0 {
                    mods.push(Modifier::new("Knowledge (Engineering/Mechanics)", k));
                }
                tasks.push(RoundTask::Check(self.new_check(
                    CheckKind::Repair,
                    u,
                    Some(i),
                    mods,
                    Some(REPAIR_DL),
                )));
            }
            for (p, c) in st.crew.iter().enumerate() {
                let Condition::Dying { attempts, .. } = c.condition else {
                    continue;
                };
                let (Some(dl), Some(i)) =
                    (stabilize_dl(attempts + 1), self.crewman(u, Task::Medic))
                else {
                    continue;
                };
                let m = &s.crew[i].character;
                let mods = medicine_modifiers(m);
                tasks.push(RoundTask::Check(self.new_check(
                    CheckKind::StabilizeCrew { patient: p },
                    u,
                    Some(i),
                    mods,
                    Some(dl),
                )));
            }
        }
        for side in 0..self.side_ids.len() {
            // The side's best sensor sweep: crewman's Tech + Knowledge (Sensors) + Sensors.
            let best = self
                .ids()
                .filter(|&u| self.sides[u.0 as usize] as usize == side && self.fighting(u))
                .filter_map(|u| {
                    let MsSheet::Ship(s) = self.sheet(u) else {
                        return None;
                    };
                    let i = self.crewman(u, Task::Sensors)?;
                    let c = &s.crew[i].character;
                    Some((
                        c.attrs.tech + c.skill("Knowledge (Sensors)") + s.attrs.sensors
                            - self.sensor_penalty(u),
                        u,
                        i,
                    ))
                })
                .max_by_key(|(b, u, _)| (*b, std::cmp::Reverse(*u)));
            let Some((_, by, i)) = best else { continue };
            for target in self.ids() {
                if self.sides[target.0 as usize] as usize == side
                    || !self.fighting(target)
                    || self.detected[side][target.0 as usize]
                    || !self.sheet(target).is_ship()
                {
                    continue;
                }
                tasks.push(RoundTask::Check(self.sweep_check(by, i, target)));
            }
        }
        if self.chase.is_some() {
            tasks.push(RoundTask::Chase {
                pursuer: None,
                quarry: None,
                offered: false,
            });
        }
        tasks.push(RoundTask::Initiative);
        tasks
    }

    /// A new check of `roller` (its `crewman` for a ship), not yet asked about Edge.
    fn new_check(
        &self,
        kind: CheckKind,
        roller: UnitId,
        crewman: Option<usize>,
        mods: Vec<Modifier>,
        dl: Option<i32>,
    ) -> Check {
        Check {
            kind,
            roller,
            crewman,
            mods,
            dl,
            plus_two: None,
            roll: None,
            against: None,
            reroll_done: false,
        }
    }

    /// What damaged sensors add to the DL of `u`'s sweeps.
    fn sensor_penalty(&self, u: UnitId) -> i32 {
        if self.state(u).failed.contains(&System::Sensors) {
            DAMAGED_SENSORS_DL
        } else {
            0
        }
    }

    /// The sweep of ship `by` (crewman `i` at the sensors) for `target` ("Ship
    /// Detection": 1d6 + Tech + Knowledge (Sensors) + Sensors against DL 7, Stealth and
    /// the scenario's conditions and damaged sensors adding to it; Champion +2 against
    /// the cause's opponents).
    fn sweep_check(&self, by: UnitId, i: usize, target: UnitId) -> Check {
        let mut mods = Vec::new();
        let mut dl = 0;
        if let (MsSheet::Ship(s), MsSheet::Ship(ts)) = (self.sheet(by), self.sheet(target)) {
            let c = &s.crew[i].character;
            mods.push(Modifier::new("Tech", c.attrs.tech));
            let k = c.skill("Knowledge (Sensors)");
            if k != 0 {
                mods.push(Modifier::new("Knowledge (Sensors)", k));
            }
            mods.push(Modifier::new("Sensors", s.attrs.sensors));
            if self.champions_against(c, target) {
                mods.push(Modifier::new("Champion", 2));
            }
            dl = detection_dl(ts.stealth) + self.detection_modifier + self.sensor_penalty(by);
        }
        self.new_check(CheckKind::Sweep { target }, by, Some(i), mods, Some(dl))
    }

    /// Carries the round's start on: the check in progress, then the tasks left, until a
    /// question waits or initiative is rolled.
    fn run_round(
        &mut self,
        map: &HexMap,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        loop {
            if self.check.is_some() {
                if !self.run_check(dice, events) {
                    return;
                }
                continue;
            }
            let Some(task) = self.round_tasks.first().cloned() else {
                return;
            };
            match task {
                RoundTask::Check(c) => {
                    self.round_tasks.remove(0);
                    self.check = Some(c);
                }
                RoundTask::Initiative => {
                    self.round_tasks.remove(0);
                    self.roll_initiative(dice, events);
                }
                RoundTask::Chase {
                    pursuer,
                    quarry,
                    offered,
                } => {
                    let Some(c) = self.chase.clone() else {
                        self.round_tasks.remove(0);
                        continue;
                    };
                    if !self.fighting(c.pursuer) || !self.fighting(c.quarry) {
                        self.round_tasks.remove(0);
                        continue;
                    }
                    match (pursuer, quarry) {
                        (None, _) => self.check = Some(self.chase_check(&c, true)),
                        (Some(_), None) => self.check = Some(self.chase_check(&c, false)),
                        (Some(p), Some(q)) if !offered => {
                            if let Some(RoundTask::Chase { offered, .. }) =
                                self.round_tasks.first_mut()
                            {
                                *offered = true;
                            }
                            // The loser of the contest may re-roll ("Using Edge"; Lucky).
                            let pursuer_lost = p.total < q.total;
                            if p.total != q.total {
                                let mut chk = self.chase_check(&c, pursuer_lost);
                                let (mine, theirs) = if pursuer_lost { (p, q) } else { (q, p) };
                                chk.plus_two = Some(false);
                                chk.against = Some(theirs.total);
                                chk.roll = Some(mine);
                                self.check = Some(chk);
                            }
                        }
                        (Some(p), Some(q)) => {
                            self.round_tasks.remove(0);
                            self.chase_result(map, &c, p, q, events);
                        }
                    }
                }
            }
        }
    }

    /// The chase roll of the pursuer (or the quarry) as a check.
    fn chase_check(&self, c: &Chase, pursuer: bool) -> Check {
        let (u, bonus, vehicle, other) = if pursuer {
            (
                c.pursuer,
                c.pursuer_bonus,
                c.pursuer_vehicle.as_deref(),
                c.quarry,
            )
        } else {
            (
                c.quarry,
                c.quarry_bonus,
                c.quarry_vehicle.as_deref(),
                c.pursuer,
            )
        };
        let mut mods = self.chase_modifiers(u, bonus, vehicle);
        let roller = match self.sheet(u) {
            MsSheet::Character(ch) => Some(ch),
            MsSheet::Ship(s) => self.crewman(u, Task::Pilot).map(|i| &s.crew[i].character),
        };
        if roller.is_some_and(|ch| self.champions_against(ch, other)) {
            mods.push(Modifier::new("Champion", 2));
        }
        self.new_check(
            CheckKind::Chase { pursuer },
            u,
            self.crewman(u, Task::Pilot),
            mods,
            None,
        )
    }

    /// The chase roll of `u` ("Chase Rules": Agent + Vehicle + Propulsion for a ship,
    /// Agent + Vehicle for a character driving the ground `vehicle`, Soldier + Athletics
    /// on foot) plus its speed bonus.
    pub fn chase_modifiers(&self, u: UnitId, bonus: i32, vehicle: Option<&str>) -> Vec<Modifier> {
        let mut mods = Vec::new();
        match self.sheet(u) {
            MsSheet::Character(c) if let Some(v) = vehicle => {
                mods.push(Modifier::new("Agent", c.attrs.agent));
                let skill = format!("Vehicle ({v})");
                let bonus = c.skill(&skill);
                if bonus != 0 {
                    mods.push(Modifier::named(
                        rank_label(&skill, c.skills.get(&skill)),
                        bonus,
                    ));
                }
            }
            MsSheet::Character(c) => {
                mods.push(Modifier::new("Soldier", c.attrs.soldier));
                let a = c.skill("Athletics");
                if a != 0 {
                    mods.push(Modifier::new("Athletics", a));
                }
            }
            MsSheet::Ship(s) => {
                if let Some(i) = self.crewman(u, Task::Pilot) {
                    let c = &s.crew[i].character;
                    mods.push(Modifier::new("Agent", c.attrs.agent));
                    let v = c.vehicle(s.vehicle.as_deref());
                    if v != 0 {
                        let label = match &s.vehicle {
                            Some(f) => format!("Vehicle ({f})"),
                            None => "Vehicle".into(),
                        };
                        mods.push(Modifier::named(label, v));
                    }
                }
                if !self.state(u).failed.contains(&System::Engines) {
                    mods.push(Modifier::new("Propulsion", s.attrs.propulsion));
                }
            }
        }
        if bonus != 0 {
            mods.push(Modifier::new("speed", bonus));
        }
        mods
    }

    /// The chase table applied to the two rolls ("Chase Rules"): the band moves, the
    /// quarry escapes beyond Far, or it is caught at Melee; then the chase is over and the
    /// two fight on where they are (the pursuer "can attempt to capture" it).
    fn chase_result(
        &mut self,
        map: &HexMap,
        c: &Chase,
        p: RollRecord,
        q: RollRecord,
        events: &mut Vec<BattleEvent>,
    ) {
        let diff = q.total - p.total;
        let result = chase_table(diff);
        match chase_band(c.band as i32, result) {
            Ok(b) => {
                let band = band_of(b);
                let word = match result {
                    ChaseResult::Gap(0) => "the gap holds".to_string(),
                    ChaseResult::Gap(g) if g > 0 => format!("the gap widens by {g}"),
                    ChaseResult::Gap(g) => format!("the gap closes by {}", -g),
                    _ => String::new(),
                };
                events.push(note(
                    Some(c.quarry),
                    format!("quarry {diff:+} in the chase: {word}; now at {band:?}"),
                ));
                if let Some(ch) = &mut self.chase {
                    ch.band = band;
                }
            }
            Err(ChaseResult::Escaped) => {
                self.state_mut(c.quarry).condition = Condition::Escaped;
                events.push(BattleEvent::StatusChanged {
                    unit: c.quarry,
                    standing: Standing::Escaped,
                    cause: Cow::Owned(format!("escapes the chase (quarry {diff:+})")),
                });
            }
            Err(_) => {
                // Caught: the chase ends at Melee, the quarry beside its pursuer.
                let at = self.state(c.pursuer).pos;
                let taken: Vec<Hex> = self
                    .ids()
                    .filter(|&o| o != c.quarry)
                    .map(|o| self.state(o).pos)
                    .collect();
                let beside = at
                    .ring(self.sizes.melee.max(1))
                    .filter(|h| !taken.contains(h) && map.move_cost(*h).is_some())
                    .min_by_key(|h| (h.unsigned_distance_to(self.state(c.quarry).pos), h.x, h.y))
                    .unwrap_or(at);
                self.state_mut(c.quarry).pos = beside;
                self.chase = None;
                events.push(note(
                    Some(c.quarry),
                    format!(
                        "quarry {diff:+} in the chase: caught at Melee; the chase is over and {} can try to capture it",
                        self.name(c.pursuer)
                    ),
                ));
            }
        }
    }

    /// The Initiative rating of a unit (a ship: its captain's, else its best crewman's).
    pub fn initiative(&self, u: UnitId) -> i32 {
        match self.sheet(u) {
            MsSheet::Character(c) => c.attrs.initiative(),
            MsSheet::Ship(s) => self
                .crewman(u, Task::Command)
                .map_or(0, |i| s.crew[i].character.attrs.initiative()),
        }
    }

    fn roll_initiative(&mut self, dice: &mut impl DieRoller, events: &mut Vec<BattleEvent>) {
        let mut rolls: Vec<InitiativeRoll<usize>> = Vec::new();
        let mut groups: Vec<Vec<UnitId>> = Vec::new();
        for u in self.ids().filter(|&u| self.fighting(u)).collect::<Vec<_>>() {
            let side = self.sides[u.0 as usize] as usize;
            if self.group_initiative.get(side).copied().unwrap_or(false)
                && let Some(g) = groups
                    .iter_mut()
                    .find(|g| self.sides[g[0].0 as usize] as usize == side)
            {
                g.push(u);
                continue;
            }
            groups.push(vec![u]);
        }
        let mut records = Vec::new();
        for (gi, g) in groups.iter().enumerate() {
            let rating = g.iter().map(|&u| self.initiative(u)).max().unwrap_or(0);
            let roll = exploding_d6(dice, vec![Modifier::new("Initiative", rating)], None);
            rolls.push(InitiativeRoll {
                total: roll.total,
                rating,
                who: gi,
            });
            records.push(roll);
        }
        let ranked = initiative_order(&rolls);
        for (gi, roll) in records.into_iter().enumerate() {
            let g = &groups[gi];
            let place = ranked.iter().position(|&x| x == gi).unwrap_or(0) + 1;
            let (purpose, result) = if g.len() > 1 {
                (
                    "initiative for the group",
                    format!("{} units act {}", g.len(), ordinal(place)),
                )
            } else {
                ("initiative", format!("acts {}", ordinal(place)))
            };
            events.push(roll_event(g[0], purpose, roll, result));
        }
        self.order = ranked
            .into_iter()
            .flat_map(|gi| groups[gi].clone())
            .collect();
    }

    /// Moves the battle on to the next decision.
    pub fn advance(&mut self, events: &mut Vec<BattleEvent>) -> Step {
        loop {
            if let Some(u) = self.awaiting()
                && (self.prompt.is_some() || self.turn_open())
            {
                return Step::Awaiting(u);
            }
            if !self.round_tasks.is_empty() {
                // The round's start still waits on a question (never without a prompt).
                return Step::RoundOver;
            }
            self.turn = None;
            let Some(&u) = self.order.get(self.next) else {
                return Step::RoundOver;
            };
            self.next += 1;
            if !self.fighting(u) {
                continue;
            }
            let mut t = TurnInfo {
                unit: u,
                moved: self.chase.is_some(),
                acted: false,
                attacks_left: self.attacks_per_action(u),
                blinded: false,
            };
            let st = self.state_mut(u);
            st.ducked = false;
            st.free_parry_used = false;
            if st.blind > 0 {
                st.blind -= 1;
                t.blinded = true;
                events.push(note(
                    Some(u),
                    if st.blind == 0 {
                        "is blinded: no attack this turn (it sees again after it)".into()
                    } else {
                        "is blinded: no attack this turn".into()
                    },
                ));
            }
            if st.forfeit {
                st.forfeit = false;
                t.acted = true;
                events.push(note(
                    Some(u),
                    "forfeits this action for its active defense".into(),
                ));
            }
            events.push(BattleEvent::TurnStarted { unit: u });
            self.turn = Some(t);
        }
    }

    /// True when `u` cannot see to attack: its turn is a blinded one, or (out of its
    /// turn) blindness is still to come.
    pub fn blinded(&self, u: UnitId) -> bool {
        match self.turn {
            Some(t) if t.unit == u => t.blinded,
            _ => self.state(u).blind > 0,
        }
    }

    fn turn_open(&self) -> bool {
        self.turn.is_some_and(|t| !(t.moved && t.acted))
    }

    fn attacks_per_action(&self, u: UnitId) -> u32 {
        match self.sheet(u) {
            MsSheet::Character(c) if c.has(&Tag::DoubleAttack) => 2,
            MsSheet::Character(_) => 1,
            MsSheet::Ship(s) => s.attacks,
        }
    }

    // ---------------------------------------------------------------------------------
    // Checking decisions.

    /// The hexes `u` may move to this turn, with the path to each (one Close band,
    /// around blocked hexes and other units).
    pub fn move_path(&self, map: &HexMap, u: UnitId, to: Hex) -> Option<Vec<Hex>> {
        self.path_within(map, u, to, false)
    }

    /// The path of a leap or roll to `to`: within one Close band, difficult hexes counting
    /// as open ("Combat Actions", Movement). `None` when the way is blocked or too long.
    pub fn leap_path(&self, map: &HexMap, u: UnitId, to: Hex) -> Option<Vec<Hex>> {
        self.path_within(map, u, to, true)
    }

    fn path_within(&self, map: &HexMap, u: UnitId, to: Hex, leap: bool) -> Option<Vec<Hex>> {
        let from = self.state(u).pos;
        if from.unsigned_distance_to(to) > self.sizes.move_hexes() {
            return None;
        }
        let taken: Vec<Hex> = self
            .ids()
            .filter(|&o| o != u && !matches!(self.state(o).condition, Condition::Escaped))
            .map(|o| self.state(o).pos)
            .collect();
        let cost = |h: Hex| {
            if taken.contains(&h) {
                None
            } else if leap {
                map.move_cost(h).map(|_| 1)
            } else {
                map.move_cost(h)
            }
        };
        let path = map.path(from, to, cost)?;
        let total: u32 = path.iter().skip(1).map(|&h| cost(h)).sum::<Option<u32>>()?;
        (total <= self.sizes.move_hexes()).then_some(path)
    }

    /// Why `u` may not attack `target` with `w`, if it may not.
    pub fn why_not_target(
        &self,
        map: &HexMap,
        u: UnitId,
        w: &Weapon,
        target: UnitId,
    ) -> Option<String> {
        if !self.fighting(target) {
            return Some(format!("{} is out of the fight", self.name(target)));
        }
        if !self.foes(u, target) {
            return Some(format!("{} is a friend", self.name(target)));
        }
        if self.sheet(u).is_ship() != self.sheet(target).is_ship() {
            return Some(format!("{} is not at this scale", self.name(target)));
        }
        if self.sheet(target).is_ship() {
            let side = self.sides[u.0 as usize] as usize;
            if !self.detected[side][target.0 as usize] {
                return Some(format!("{} has not been detected", self.name(target)));
            }
        }
        let band = self.band(u, target);
        if band > w.range {
            return Some(format!(
                "{} is at {band:?}: the {} reaches {:?}",
                self.name(target),
                w.name,
                w.range
            ));
        }
        if self.chase.is_none()
            && !self.sheet(u).is_ship()
            && !map.line_of_sight(self.state(u).pos, self.state(target).pos)
        {
            return Some(format!("no line of sight to {}", self.name(target)));
        }
        None
    }

    /// `Ok` when `u` is one of the battle's units (a saved decision may name any number).
    fn known(&self, u: UnitId) -> Result<(), String> {
        if (u.0 as usize) < self.units.len() {
            Ok(())
        } else {
            Err(format!(
                "there is no unit {} (the battle has {})",
                u.0,
                self.units.len()
            ))
        }
    }

    /// Checks a decision of `u`.
    pub fn check(&self, map: &HexMap, u: UnitId, action: &Action) -> Result<(), String> {
        if self.awaiting() != Some(u) {
            return Err("it is not this unit's decision".into());
        }
        let reroll_with = |open: Vec<Reroll>, r: &Option<Reroll>| match r {
            None => Ok(()),
            Some(r) if open.contains(r) => Ok(()),
            Some(r) => Err(format!("no {r:?} left to re-roll with")),
        };
        match (self.prompt, action) {
            (Some(Prompt::Defend(i)), Action::Defend(d)) => match d {
                None => Ok(()),
                Some(d) if self.defenses_open(i).contains(d) => Ok(()),
                Some(d) => Err(format!("{d:?} is not open to {}", self.name(u))),
            },
            (Some(Prompt::Defend(i)), Action::DefendWithEdge(d)) => {
                if !matches!(d, Defense::Parry | Defense::Dodge | Defense::FreeParry) {
                    Err(format!("{d:?} is not a roll: nothing to add +2 to"))
                } else if !self.defenses_open(i).contains(d) {
                    Err(format!("{d:?} is not open to {}", self.name(u)))
                } else if self.state(u).edge <= 0 {
                    Err("no Edge left for +2".into())
                } else {
                    Ok(())
                }
            }
            (Some(Prompt::Reroll), Action::Reroll(r)) => {
                reroll_with(self.rerolls(u, self.gunner(u)), r)
            }
            (Some(Prompt::RerollDefense(_)), Action::Reroll(r)) => {
                reroll_with(self.rerolls(u, None), r)
            }
            (Some(Prompt::RerollCheck), Action::Reroll(r)) => reroll_with(
                self.check
                    .as_ref()
                    .map_or_else(Vec::new, |c| self.check_rerolls(c)),
                r,
            ),
            (Some(Prompt::Boost), Action::PlusTwo(plus)) => {
                let crewman = self.check.as_ref().and_then(|c| c.crewman);
                if *plus && self.roller_edge(u, crewman) <= 0 {
                    Err("no Edge left for +2".into())
                } else {
                    Ok(())
                }
            }
            (Some(Prompt::Kill(_)), Action::SpendEdge(spend)) => {
                let edge = match self.sheet(u) {
                    MsSheet::Character(_) => self.state(u).edge,
                    MsSheet::Ship(_) => self.crew_edge(u),
                };
                if *spend && edge <= 0 {
                    Err("no Edge left".into())
                } else {
                    Ok(())
                }
            }
            (Some(p), _) => Err(format!("the battle asks {}: {p:?}", self.name(u))),
            (None, a) => self.check_turn(map, u, a),
        }
    }

    fn check_turn(&self, map: &HexMap, u: UnitId, action: &Action) -> Result<(), String> {
        let Some(t) = self.turn else {
            return Err("no turn is in progress".into());
        };
        let st = self.state(u);
        match action {
            Action::EndTurn => Ok(()),
            Action::Move { to } => {
                if t.moved {
                    return Err(if self.chase.is_some() {
                        "in a chase the chase roll is the move".into()
                    } else {
                        "it has already moved this turn".into()
                    });
                }
                if self.state(u).failed.contains(&System::Engines) {
                    return Err("the engines are out".into());
                }
                let to = on_map(map, *to)?;
                if to == st.pos {
                    return Err("it is already there".into());
                }
                self.move_path(map, u, to).map(|_| ()).ok_or_else(|| {
                    format!(
                        "({}, {}) is not reachable within one Close band ({} hexes)",
                        to.x,
                        to.y,
                        self.sizes.move_hexes()
                    )
                })
            }
            Action::Duck { plus_two } | Action::Leap { plus_two, .. } => {
                if *plus_two && st.edge <= 0 {
                    return Err("no Edge left for +2".into());
                }
                if t.moved {
                    return Err(if self.chase.is_some() {
                        "in a chase the chase roll is the move".into()
                    } else {
                        "it has already moved this turn".into()
                    });
                }
                if self.sheet(u).is_ship() {
                    return Err("ships neither duck nor leap".into());
                }
                let Action::Leap { to, .. } = action else {
                    return Ok(());
                };
                let to = on_map(map, *to)?;
                if to == st.pos {
                    return Err("it is already there".into());
                }
                match self.leap_path(map, u, to) {
                    None => Err(format!(
                        "({}, {}) is not within one Close band ({} hexes) even leaping",
                        to.x,
                        to.y,
                        self.sizes.move_hexes()
                    )),
                    Some(p) if !p.iter().skip(1).any(|&h| map.move_cost(h) == Some(2)) => {
                        Err("no difficult ground on the way: a plain move gets there".into())
                    }
                    Some(_) => Ok(()),
                }
            }
            Action::BoostShields => {
                if t.acted || t.attacks_left < self.attacks_per_action(u) {
                    return Err("it has already used its action this turn".into());
                }
                let MsSheet::Ship(s) = self.sheet(u) else {
                    return Err("only ships have shields".into());
                };
                if s.shields == 0 {
                    return Err("the ship has no Shields".into());
                }
                if st.shields_boosted {
                    return Err("the shields were boosted once this scene already".into());
                }
                if st.shields >= super::ships::boosted_shields(s.shields) {
                    return Err("the shields are at 75% or more".into());
                }
                Ok(())
            }
            Action::Attack {
                weapon,
                rof,
                targets,
                plus_two,
                excellent,
            } => {
                if t.acted || t.attacks_left == 0 {
                    return Err("it has already used its action this turn".into());
                }
                if self.blinded(u) {
                    return Err("it is blinded".into());
                }
                if st.failed.contains(&System::Weapons) {
                    return Err("the weapons are out".into());
                }
                let Some(w) = self.sheet(u).weapons().get(*weapon) else {
                    return Err(format!("no weapon {weapon}"));
                };
                if self.shooter(u).is_none() {
                    return Err("nobody aboard can fire".into());
                }
                let rates = if w.rates.is_empty() {
                    vec![RateOfFire::Single]
                } else {
                    w.rates.clone()
                };
                if !rates.contains(rof) {
                    return Err(format!("the {} does not fire {rof:?}", w.name));
                }
                let most = if w.explosive { 1 } else { rof.max_targets() };
                if targets.is_empty() || targets.len() > most {
                    return Err(format!("{rof:?} takes 1 to {most} targets"));
                }
                for (i, &tg) in targets.iter().enumerate() {
                    self.known(tg)?;
                    if targets[..i].contains(&tg) {
                        return Err(format!("{} is named twice", self.name(tg)));
                    }
                    if let Some(why) = self.why_not_target(map, u, w, tg) {
                        return Err(why);
                    }
                }
                if !self.cinematic_ammo && !can_fire(st.ammo[*weapon].loaded, *rof, targets.len()) {
                    return Err(format!("the {} is out of ammunition: reload", w.name));
                }
                if *plus_two && self.edge(u) <= 0 {
                    return Err("no Edge left for +2".into());
                }
                if *excellent && !self.excellent_open(u, w) {
                    return Err(format!(
                        "no Excellent Skill ({}) left this scene",
                        Character::weapon_skill(w)
                    ));
                }
                Ok(())
            }
            Action::Reload { weapon } => {
                if t.acted || t.attacks_left < self.attacks_per_action(u) {
                    return Err("it has already used its action this turn".into());
                }
                let (Some(w), Some(a)) =
                    (self.sheet(u).weapons().get(*weapon), st.ammo.get(*weapon))
                else {
                    return Err(format!("no weapon {weapon}"));
                };
                match (self.cinematic_ammo, w.ammo, a.loaded) {
                    (true, ..) | (_, None, _) => Err(format!("the {} needs no reloading", w.name)),
                    (_, Some(full), Some(n)) if n >= full => Err(format!("the {} is full", w.name)),
                    _ if a.spare == 0 => Err(format!("no spare loads for the {}", w.name)),
                    _ => Ok(()),
                }
            }
            Action::Stabilize { patient, plus_two } => {
                if t.acted || t.attacks_left < self.attacks_per_action(u) {
                    return Err("it has already used its action this turn".into());
                }
                self.known(*patient)?;
                if *plus_two && st.edge <= 0 {
                    return Err("no Edge left for +2".into());
                }
                if self.sheet(u).is_ship() || self.sheet(*patient).is_ship() {
                    return Err("ships cannot give first aid".into());
                }
                if self.foes(u, *patient) {
                    return Err(format!("{} is a foe", self.name(*patient)));
                }
                match self.state(*patient).condition {
                    Condition::Dying { attempts, .. } if attempts < 3 => {}
                    Condition::Dying { .. } => {
                        return Err("three attempts have failed".into());
                    }
                    _ => return Err(format!("{} is not dying", self.name(*patient))),
                }
                if self.band(u, *patient) > Band::Melee {
                    return Err(format!("{} is out of reach", self.name(*patient)));
                }
                Ok(())
            }
            a => Err(format!("{a:?} answers a question nobody asked")),
        }
    }

    /// The active defenses open to the target at index `i` of the attack in progress.
    pub fn defenses_open(&self, i: usize) -> Vec<Defense> {
        let Some(a) = &self.attack else {
            return Vec::new();
        };
        let u = a.targets[i];
        let st = self.state(u);
        let Some(w) = self.sheet(a.attacker).weapons().get(a.weapon) else {
            return Vec::new();
        };
        let melee = w.range <= Band::Melee;
        let mut v = Vec::new();
        // Nimble Ship is the pilot's dodge ("Ship Tags"): it needs an able pilot.
        let pilot = !self.sheet(u).is_ship() || self.crewman(u, Task::Pilot).is_some();
        if st.nimble > 0 && pilot {
            v.push(Defense::Nimble);
        }
        if let MsSheet::Character(c) = self.sheet(u)
            && st.blind == 0
        {
            if c.has(&Tag::DualWielding) && melee && !st.free_parry_used {
                v.push(Defense::FreeParry);
            }
            if !st.forfeit {
                if super::combat::may_parry(c.has_melee_weapon(), !melee) {
                    v.push(Defense::Parry);
                }
                v.push(Defense::Dodge);
            }
        }
        v
    }

    /// Describes a decision for the log.
    pub fn describe(&self, u: UnitId, action: &Action) -> String {
        let weapon = |i: usize| {
            self.sheet(u)
                .weapons()
                .get(i)
                .map_or("?".to_string(), |w| w.name.clone())
        };
        match action {
            Action::Move { to } => format!("move to ({}, {})", to.0, to.1),
            Action::Duck { plus_two } => format!("duck{}", edge_note(*plus_two)),
            Action::Leap { to, plus_two } => {
                format!("leap to ({}, {}){}", to.0, to.1, edge_note(*plus_two))
            }
            Action::BoostShields => "boost the shields".into(),
            Action::Attack {
                weapon: w,
                rof,
                targets,
                plus_two,
                excellent,
            } => {
                let names: Vec<&str> = targets.iter().map(|&t| self.name(t)).collect();
                let mut s = format!("attack {} with the {}", names.join(", "), weapon(*w));
                if *rof != RateOfFire::Single {
                    s.push_str(&format!(" ({rof:?})"));
                }
                if *plus_two {
                    s.push_str(", Edge for +2");
                }
                if *excellent {
                    s.push_str(", Excellent Skill on success");
                }
                s
            }
            Action::Reload { weapon: w } => format!("reload the {}", weapon(*w)),
            Action::Stabilize { patient, plus_two } => {
                format!("stabilize {}{}", self.name(*patient), edge_note(*plus_two))
            }
            Action::EndTurn => "end turn".into(),
            Action::Defend(Some(d)) => format!("defends: {d:?}"),
            Action::Defend(None) => "takes it on Defense".into(),
            Action::DefendWithEdge(d) => format!("defends: {d:?}, Edge for +2"),
            Action::PlusTwo(true) => "spends Edge for +2".into(),
            Action::PlusTwo(false) => "rolls without Edge".into(),
            Action::Reroll(Some(r)) => format!("re-rolls ({r:?})"),
            Action::Reroll(None) => "keeps the roll".into(),
            Action::SpendEdge(true) => "spends Edge: the attack misses".into(),
            Action::SpendEdge(false) => "keeps its Edge".into(),
        }
    }

    // ---------------------------------------------------------------------------------
    // Applying decisions.

    /// Applies a checked decision of `u`.
    pub fn apply(
        &mut self,
        map: &HexMap,
        u: UnitId,
        action: Action,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let (action, defense_edge) = match action {
            Action::DefendWithEdge(d) => (Action::Defend(Some(d)), true),
            a => (a, false),
        };
        match action {
            Action::DefendWithEdge(_) => {}
            Action::PlusTwo(plus) => {
                self.prompt = None;
                if let Some(c) = &mut self.check {
                    c.plus_two = Some(plus);
                }
                self.run_round(map, dice, events);
            }
            Action::Defend(d) => {
                if let (Some(Prompt::Defend(i)), Some(_)) = (self.prompt, &self.attack) {
                    if defense_edge {
                        self.state_mut(u).edge -= 1;
                    }
                    let record = d.and_then(|d| self.defense_roll(u, d, defense_edge, dice));
                    if let Some(d) = d {
                        let st = self.state_mut(u);
                        match d {
                            Defense::Nimble => st.nimble = st.nimble.saturating_sub(1),
                            Defense::FreeParry => st.free_parry_used = true,
                            Defense::Parry | Defense::Dodge => st.forfeit = true,
                        }
                    }
                    if let Some(a) = &mut self.attack {
                        a.defenses[i] = Some((d, record));
                    }
                    self.prompt = None;
                }
                self.proceed(map, dice, events);
            }
            Action::Reroll(r) => {
                let prompt = self.prompt.take();
                match prompt {
                    Some(Prompt::RerollCheck) => {
                        let Some(mut c) = self.check.take() else {
                            return;
                        };
                        c.reroll_done = true;
                        if let Some(r) = r
                            && let Some(old) = c.roll.take()
                        {
                            self.spend_reroll(u, c.crewman, r);
                            c.roll = Some(self.reroll_kept(u, r, old, dice, events));
                        }
                        self.check = Some(c);
                        self.run_round(map, dice, events);
                    }
                    Some(Prompt::RerollDefense(i)) => {
                        let old = self
                            .attack
                            .as_ref()
                            .and_then(|a| a.defenses.get(i).cloned().flatten());
                        if let (Some(r), Some((choice, Some(rec)))) = (r, old) {
                            self.spend_reroll(u, None, r);
                            let roll = self.reroll_kept(u, r, rec.roll, dice, events);
                            if let Some(a) = &mut self.attack {
                                a.defenses[i] = Some((
                                    choice,
                                    Some(DefenseRecord {
                                        defense: rec.defense,
                                        roll,
                                    }),
                                ));
                            }
                        }
                        if let Some(a) = &mut self.attack
                            && let Some(done) = a.defense_rerolled.get_mut(i)
                        {
                            *done = true;
                        }
                        self.proceed(map, dice, events);
                    }
                    _ => {
                        let gunner = self.gunner(u);
                        if let Some(r) = r
                            && let Some(old) = self.attack.as_mut().and_then(|a| a.roll.take())
                        {
                            self.spend_reroll(u, gunner, r);
                            let kept = self.reroll_kept(u, r, old, dice, events);
                            if let Some(a) = &mut self.attack {
                                a.roll = Some(kept);
                            }
                        }
                        if let Some(a) = &mut self.attack {
                            a.reroll_done = true;
                        }
                        self.proceed(map, dice, events);
                    }
                }
            }
            Action::SpendEdge(spend) => {
                self.prompt = None;
                if let Some(a) = &mut self.attack {
                    a.spare = Some(spend);
                }
                self.proceed(map, dice, events);
            }
            Action::EndTurn => {
                if let Some(t) = &mut self.turn {
                    t.moved = true;
                    t.acted = true;
                }
            }
            Action::Move { to } => {
                let to = Hex::new(to.0, to.1);
                if let Some(path) = self.move_path(map, u, to) {
                    let cost = map.path_cost(&path).unwrap_or(0);
                    events.push(BattleEvent::Moved {
                        unit: u,
                        path: path.iter().copied().map(hex_pair).collect(),
                        cost,
                    });
                    self.state_mut(u).pos = to;
                }
                if let Some(t) = &mut self.turn {
                    t.moved = true;
                }
            }
            Action::Duck { .. } | Action::Leap { .. } => {
                self.check = self.turn_check(map, u, &action);
                if let Some(t) = &mut self.turn {
                    t.moved = true;
                }
                self.run_round(map, dice, events);
            }
            Action::BoostShields => {
                if let MsSheet::Ship(s) = self.sheet(u) {
                    let to = super::ships::boosted_shields(s.shields);
                    let st = self.state_mut(u);
                    let from = st.shields;
                    st.shields = st.shields.max(to);
                    st.shields_boosted = true;
                    events.push(note(
                        Some(u),
                        format!("boosts its shields from {from} to {to} (once a scene)"),
                    ));
                }
                self.end_action(u);
            }
            Action::Reload { weapon } => {
                if let Some(full) = self.sheet(u).weapons().get(weapon).and_then(|w| w.ammo)
                    && let Some(a) = self.state_mut(u).ammo.get_mut(weapon)
                {
                    a.spare -= 1;
                    a.loaded = Some(full);
                }
                self.end_action(u);
            }
            Action::Stabilize { .. } => {
                self.check = self.turn_check(map, u, &action);
                self.end_action(u);
                self.run_round(map, dice, events);
            }
            Action::Attack {
                weapon,
                rof,
                targets,
                plus_two,
                excellent,
            } => {
                let Some(w) = self.sheet(u).weapons().get(weapon).cloned() else {
                    return;
                };
                if !self.cinematic_ammo
                    && let Some(n) = &mut self.state_mut(u).ammo[weapon].loaded
                {
                    *n = n.saturating_sub(rounds_used(rof, targets.len()));
                }
                let (targets, blast) = if w.explosive {
                    let point = self.state(targets[0]).pos;
                    (self.blast_victims(u, targets[0], point), Some(point))
                } else {
                    (targets, None)
                };
                if let (Some(t), MsSheet::Character(c)) = (&self.turn, self.sheet(u))
                    && c.has(&Tag::DoubleAttack)
                    && t.attacks_left < 2
                {
                    self.state_mut(u).free_parry_used = true;
                }
                self.attack = Some(PendingAttack {
                    attacker: u,
                    weapon,
                    rof,
                    defenses: vec![None; targets.len()],
                    defense_rerolled: vec![false; targets.len()],
                    targets,
                    blast,
                    plus_two,
                    excellent,
                    roll: None,
                    reroll_done: false,
                    resolved: 0,
                    spare: None,
                });
                self.proceed(map, dice, events);
            }
        }
    }

    fn end_action(&mut self, u: UnitId) {
        if let Some(t) = &mut self.turn
            && t.unit == u
        {
            t.acted = true;
            t.attacks_left = 0;
        }
    }

    /// Everyone an explosion thrown by `thrower` at `aimed` reaches ("Weapons, Armor &
    /// Gear", note *): units still fighting within Close of the point, the aimed-at first,
    /// then by distance and unit order. The thrower is spared: a throw reaches Close, so
    /// the thrower always stands within Close of its own blast, and the text would make
    /// every grenade hit its thrower (a decision; friends are not spared).
    pub fn blast_victims(&self, thrower: UnitId, aimed: UnitId, point: Hex) -> Vec<UnitId> {
        let mut v: Vec<(u32, UnitId)> = self
            .ids()
            .filter(|&o| o != aimed && o != thrower && self.fighting(o) && !self.sheet(o).is_ship())
            .map(|o| (self.state(o).pos.unsigned_distance_to(point), o))
            .filter(|(d, _)| self.sizes.band(*d) <= Band::Close)
            .collect();
        v.sort();
        std::iter::once(aimed)
            .chain(v.into_iter().map(|(_, o)| o))
            .collect()
    }

    fn defense_roll(
        &self,
        u: UnitId,
        d: Defense,
        plus_two: bool,
        dice: &mut impl DieRoller,
    ) -> Option<DefenseRecord> {
        let a = self.attack.as_ref()?;
        let w = self.sheet(a.attacker).weapons().get(a.weapon)?;
        let MsSheet::Character(c) = self.sheet(u) else {
            return None;
        };
        let ranged = w.range > Band::Melee;
        let kind = match d {
            Defense::Parry | Defense::FreeParry => ActiveDefense::Parry,
            Defense::Dodge => ActiveDefense::Dodge,
            Defense::Nimble => return None,
        };
        let (attr, skill) = super::combat::defense_roll_of(kind, ranged);
        let value = match attr {
            "Soldier" => c.attrs.soldier,
            "Agent" => c.attrs.agent,
            _ => c.attrs.tech,
        };
        let mut mods = vec![Modifier::new(attr, value)];
        if c.skill(skill) != 0 {
            mods.push(Modifier::named(
                rank_label(skill, c.skills.get(skill)),
                c.skill(skill),
            ));
        }
        if self.champions_against(c, a.attacker) {
            mods.push(Modifier::new("Champion", 2));
        }
        if plus_two {
            mods.push(Modifier::new("Edge", 2));
        }
        let label: &'static str = match d {
            Defense::Parry => "Parry",
            Defense::FreeParry => "Parry (off hand, free)",
            _ => "Dodge",
        };
        Some(DefenseRecord {
            defense: Label::Static(label),
            roll: exploding_d6(dice, mods, None),
        })
    }

    /// The Defense an attack from hex `from` with `w` is rolled against for `target` without
    /// an active defense: its Defense plus the cover between them ("Armor and Cover").
    pub fn defense_from(&self, map: &HexMap, from: Hex, target: UnitId, w: &Weapon) -> i32 {
        self.defense(target) + self.cover(map, from, target, w).bonus()
    }

    /// The odds of an attack of `me` with `w` at `targets`, as the window shows them before
    /// the attack is made: each unit the attack reaches (an explosion's victims, or the
    /// targets in order) with the bonus its roll counts against it and the Defense it is
    /// rolled against without an active defense; what the attack, once made, counts
    /// ([`Fight::attack_modifiers`], [`super::combat::target_penalty`] and the Defense
    /// with cover, or [`Fight::blast_defense`]).
    pub fn shot_odds(
        &self,
        map: &HexMap,
        me: UnitId,
        w: &Weapon,
        targets: &[UnitId],
    ) -> Vec<(UnitId, i32, i32)> {
        let Some(&first) = targets.first() else {
            return Vec::new();
        };
        let bonus: i32 = self
            .attack_modifiers(me, w, first, false)
            .iter()
            .map(|m| m.value)
            .sum();
        if w.explosive {
            self.blast_victims(me, first, self.state(first).pos)
                .into_iter()
                .map(|v| (v, bonus, self.blast_defense(map, first, v, w)))
                .collect()
        } else {
            let from = self.state(me).pos;
            targets
                .iter()
                .enumerate()
                .map(|(i, &t)| {
                    (
                        t,
                        bonus + super::combat::target_penalty(i),
                        self.defense_from(map, from, t, w),
                    )
                })
                .collect()
        }
    }

    /// The Defense an explosion aimed at `aimed` is rolled against for `victim` without an
    /// active defense: the aimed-at unit's own Defense (the blast is on it), anyone else's
    /// plus the cover between it and the point of the blast (the decision above).
    pub fn blast_defense(&self, map: &HexMap, aimed: UnitId, victim: UnitId, w: &Weapon) -> i32 {
        if victim == aimed {
            self.defense(victim)
        } else {
            self.defense_from(map, self.state(aimed).pos, victim, w)
        }
    }

    /// The Defense the attack in progress is rolled against for target `i`: the active
    /// defense's total or the Defense rating, plus cover.
    fn target_defense(&self, map: &HexMap, i: usize) -> i32 {
        let Some(a) = &self.attack else { return 0 };
        let tg = a.targets[i];
        let Some(w) = self.sheet(a.attacker).weapons().get(a.weapon) else {
            return 0;
        };
        let from = a.blast.unwrap_or(self.state(a.attacker).pos);
        let cover = if a.blast.is_some() && i == 0 {
            Cover::None
        } else {
            self.cover(map, from, tg, w)
        };
        match a.defenses[i].as_ref().and_then(|d| d.1.as_ref()) {
            Some(r) => defended_against(r.roll.total, cover),
            None => self.defense(tg) + cover.bonus(),
        }
    }

    /// Carries the attack in progress on until it needs a decision or is done.
    fn proceed(&mut self, map: &HexMap, dice: &mut impl DieRoller, events: &mut Vec<BattleEvent>) {
        let Some(a) = self.attack.clone() else { return };
        // Active defenses, before the roll.
        for i in 0..a.targets.len() {
            if a.defenses[i].is_none() {
                if self.defenses_open(i).is_empty() {
                    if let Some(p) = &mut self.attack {
                        p.defenses[i] = Some((None, None));
                    }
                    continue;
                }
                self.prompt = Some(Prompt::Defend(i));
                return;
            }
        }
        let Some(w) = self.sheet(a.attacker).weapons().get(a.weapon).cloned() else {
            self.attack = None;
            return;
        };
        let nimble = |d: &Option<(Option<Defense>, Option<DefenseRecord>)>| {
            matches!(d, Some((Some(Defense::Nimble), _)))
        };
        if a.roll.is_none() && a.defenses.iter().all(nimble) {
            // Every target dodges outright: nothing to roll.
            for &tg in &a.targets {
                events.push(note(Some(tg), "dodges it (Nimble)".into()));
            }
            self.attack = None;
            self.finish_attack(a.attacker);
            return;
        }
        if a.roll.is_none() {
            if a.plus_two {
                // "+2 to a single check before the die is rolled": paid when it is rolled.
                self.spend_edge(a.attacker, self.gunner(a.attacker));
            }
            let mods = self.attack_modifiers(a.attacker, &w, a.targets[0], a.plus_two);
            let dl = self.target_defense(map, 0);
            let roll = exploding_d6(dice, mods, Some(dl));
            if let Some(p) = &mut self.attack {
                p.roll = Some(roll);
            }
        }
        let Some(a) = self.attack.clone() else { return };
        let Some(mut roll) = a.roll.clone() else {
            return;
        };
        let nimble0 = matches!(a.defenses[0], Some((Some(Defense::Nimble), _)));
        if !roll.succeeded()
            && !a.reroll_done
            && !nimble0
            && !self.rerolls(a.attacker, self.gunner(a.attacker)).is_empty()
        {
            self.prompt = Some(Prompt::Reroll);
            return;
        }
        let skill = Character::weapon_skill(&w);
        if a.excellent
            && a.resolved == 0
            && a.spare.is_none()
            && roll.succeeded()
            && !self
                .state(a.attacker)
                .excellent_used
                .iter()
                .any(|s| s == skill)
        {
            roll = excellent_six(&roll, dice);
            self.state_mut(a.attacker)
                .excellent_used
                .push(skill.to_string());
            events.push(note(
                Some(a.attacker),
                format!("Excellent Skill ({skill}): the die counts as a 6 and explodes"),
            ));
            if let Some(p) = &mut self.attack {
                p.roll = Some(roll.clone());
            }
        }
        // Each target in order.
        for i in a.resolved..a.targets.len() {
            if self.resolve_target(map, i, &w, &roll, dice, events) {
                return; // waits for the victim's Edge
            }
            if let Some(p) = &mut self.attack {
                p.resolved = i + 1;
                p.spare = None;
            }
        }
        self.attack = None;
        self.finish_attack(a.attacker);
    }

    fn finish_attack(&mut self, attacker: UnitId) {
        if let Some(t) = &mut self.turn
            && t.unit == attacker
        {
            t.attacks_left = t.attacks_left.saturating_sub(1);
            if t.attacks_left == 0 {
                t.acted = true;
            }
        }
    }

    /// The roll against target `i` (the total less 2 per target before it, "Rate of
    /// Fire"; an explosion's one roll against each).
    fn roll_against(&self, map: &HexMap, i: usize, roll: &RollRecord) -> RollRecord {
        let Some(a) = &self.attack else {
            return roll.clone();
        };
        let mut r = roll.clone();
        if i > 0 && a.blast.is_none() {
            let penalty = super::combat::target_penalty(i);
            r.modifiers.push(Modifier::named(
                format!("target {} of {}", i + 1, a.targets.len()),
                penalty,
            ));
            r.total += penalty;
        }
        let dl = self.target_defense(map, i);
        r.target = Some(dl);
        r.margin = Some(r.total - dl);
        r.success = Some(r.total >= dl);
        r
    }

    /// Resolves target `i`; true when the battle must first ask the target a question (a
    /// re-roll of its beaten defense, or Edge against a killing attack).
    fn resolve_target(
        &mut self,
        map: &HexMap,
        i: usize,
        w: &Weapon,
        roll: &RollRecord,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) -> bool {
        let Some(a) = self.attack.clone() else {
            return false;
        };
        let tg = a.targets[i];
        let r = self.roll_against(map, i, roll);
        let (choice, record) = a.defenses[i].clone().unwrap_or((None, None));
        // A parry or dodge the attack beats may be re-rolled ("Using Edge"; Lucky).
        if r.succeeded()
            && record.is_some()
            && !a.defense_rerolled.get(i).copied().unwrap_or(true)
            && self.fighting(tg)
            && !self.rerolls(tg, None).is_empty()
        {
            self.prompt = Some(Prompt::RerollDefense(i));
            return true;
        }
        let defenses: Vec<DefenseRecord> = record.into_iter().collect();
        let attack_event = |result| BattleEvent::Attack {
            attacker: a.attacker,
            target: tg,
            weapon: Label::from(w.name.clone()),
            roll: r.clone(),
            defenses: defenses.clone(),
            result,
        };
        if choice == Some(Defense::Nimble) {
            events.push(attack_event(AttackResult::Defended));
            events.push(note(Some(tg), "dodges it (Nimble)".into()));
            return false;
        }
        // A flash-bang blinds everyone it reaches who does not dodge it (table note "*"):
        // a dodge that the roll does not beat saves the eyes; a parry does not.
        let dodged = choice == Some(Defense::Dodge) && !r.succeeded();
        if w.blinds && !dodged && self.fighting(tg) {
            self.state_mut(tg).blind = super::combat::FLASH_BLIND_ROUNDS;
            events.push(note(
                Some(tg),
                format!(
                    "is blinded for its next {} turns",
                    super::combat::FLASH_BLIND_ROUNDS
                ),
            ));
        }
        if !r.succeeded() {
            events.push(attack_event(if defenses.is_empty() {
                AttackResult::Miss
            } else {
                AttackResult::Defended
            }));
            return false;
        }
        let margin = r.margin.unwrap_or(0);
        let damage = w.damage + margin;
        let soak = self.soak(tg);
        let st = self.state(tg).clone();
        match self.sheet(tg) {
            MsSheet::Character(c) => {
                let after = super::combat::take_damage(st.hp, damage, soak);
                let lethal = !w.bash;
                if after == 0 && st.hp > 0 && lethal && st.edge > 0 {
                    match a.spare {
                        None => {
                            self.prompt = Some(Prompt::Kill(i));
                            return true;
                        }
                        Some(true) => {
                            self.state_mut(tg).edge -= 1;
                            events.push(attack_event(AttackResult::Miss));
                            events.push(note(
                                Some(tg),
                                "spends a point of Edge: the killing attack just misses".into(),
                            ));
                            return false;
                        }
                        Some(false) => {}
                    }
                }
                let soldier = c.attrs.soldier;
                let max = c.hp;
                events.push(attack_event(AttackResult::Hit));
                events.push(damage_event(
                    a.attacker, tg, w, margin, soak, st.hp, after, max,
                ));
                self.state_mut(tg).hp = after;
                if after == 0 && st.hp > 0 {
                    self.bring_down(tg, w.bash, soldier, events);
                }
            }
            MsSheet::Ship(s) => {
                let s = s.clone();
                let (shields, hp) = ship_hit(st.shields, st.hp, damage, soak);
                if hp == 0 && self.crew_edge(tg) > 0 && a.spare.is_none() {
                    self.prompt = Some(Prompt::Kill(i));
                    return true;
                }
                events.push(attack_event(AttackResult::Hit));
                let mut ev = damage_event(a.attacker, tg, w, margin, soak, st.hp, hp, s.hp);
                if let BattleEvent::Damage { steps, .. } = &mut ev
                    && st.shields > 0
                {
                    steps.insert(
                        0,
                        Modifier::named(
                            format!("shields {} -> {shields}", st.shields),
                            -(st.shields - shields),
                        ),
                    );
                }
                events.push(ev);
                self.state_mut(tg).shields = shields;
                if hp == 0 {
                    self.ship_destruction(tg, &s, a.spare != Some(false), st.shields, events);
                } else {
                    self.state_mut(tg).hp = hp;
                    self.systems_failure(tg, st.hp, hp, s.hp, dice, events);
                }
            }
        }
        false
    }

    fn bring_down(&mut self, u: UnitId, bash: bool, soldier: i32, events: &mut Vec<BattleEvent>) {
        let (condition, cause) = if bash {
            (
                Condition::KnockedOut,
                "knocked out (bashing damage)".to_string(),
            )
        } else {
            (
                Condition::Dying {
                    rounds: soldier,
                    attempts: 0,
                },
                format!("dying: dies in {soldier} rounds unless stabilized"),
            )
        };
        self.state_mut(u).condition = condition;
        events.push(BattleEvent::StatusChanged {
            unit: u,
            standing: Standing::Unconscious,
            cause: Cow::Owned(cause),
        });
    }

    /// "Ship Destruction": an attack would bring the ship to 0. Unless the crew refuse
    /// (`spend` false, a player's choice), everyone aboard with Edge spends a point and the
    /// ship keeps the Hit Points and shields it had before the attack; the console of each
    /// crewman without Edge explodes, lethal damage that leaves him dying. With no Edge
    /// aboard (or refused) the ship is destroyed with all hands.
    fn ship_destruction(
        &mut self,
        u: UnitId,
        s: &ShipSheet,
        spend: bool,
        shields_before: i32,
        events: &mut Vec<BattleEvent>,
    ) {
        let alive = |c: &CrewState| !matches!(c.condition, Condition::Dead);
        let mut edge: Vec<i32> = self
            .state(u)
            .crew
            .iter()
            .map(|c| if alive(c) { c.edge } else { 0 })
            .collect();
        let outcome = if spend {
            ship_destruction(&mut edge)
        } else {
            Destruction::Destroyed
        };
        match outcome {
            Destruction::Destroyed => {
                let st = self.state_mut(u);
                st.hp = 0;
                st.shields = 0;
                st.condition = Condition::Destroyed;
                for c in &mut st.crew {
                    c.hp = 0;
                    c.condition = Condition::Dead;
                }
                events.push(BattleEvent::StatusChanged {
                    unit: u,
                    standing: Standing::Destroyed,
                    cause: Cow::Borrowed(if spend {
                        "is destroyed, all hands lost (no Edge aboard)"
                    } else {
                        "is destroyed, all hands lost (the crew spent no Edge)"
                    }),
                });
            }
            Destruction::Survives { consoles } => {
                let st = self.state_mut(u);
                st.shields = shields_before;
                for (c, e) in st.crew.iter_mut().zip(&edge) {
                    if alive(c) {
                        c.edge = *e;
                    }
                }
                let mut hurt = Vec::new();
                for &i in &consoles {
                    let Some(c) = st.crew.get_mut(i) else {
                        continue;
                    };
                    if c.hp > 0 {
                        c.hp = 0;
                        c.condition = Condition::Dying {
                            rounds: s.crew[i].character.attrs.soldier,
                            attempts: 0,
                        };
                        hurt.push(s.crew[i].name.as_str());
                    }
                }
                events.push(note(
                    Some(u),
                    if hurt.is_empty() {
                        "the crew spend Edge: the ship holds together".into()
                    } else {
                        format!(
                            "the crew spend Edge: the ship holds together; consoles explode on {}: dying",
                            hurt.join(", ")
                        )
                    },
                ));
            }
        }
    }

    fn systems_failure(
        &mut self,
        u: UnitId,
        before: i32,
        after: i32,
        full: i32,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let Some(f) = self.failures else { return };
        for _ in 0..failures_crossed(before, after, full, f == Failures::Extreme) {
            let die = dice.roll_die(6);
            let failed = &mut self.state_mut(u).failed;
            // The die picks the system; one already out passes to the next in turn.
            let first = failed_system(die);
            let system = [first, next_system(first), next_system(next_system(first))]
                .into_iter()
                .find(|s| !failed.contains(s))
                .unwrap_or(first);
            if !failed.contains(&system) {
                failed.push(system);
                events.push(note(
                    Some(u),
                    format!("systems failure (1d6: {die}): the {system:?} are out"),
                ));
            }
        }
    }

    /// The modifiers of a move stunt of character `u`: a duck is ("Agent", "Acrobatics"),
    /// a leap ("Soldier", "Athletics") (skill table of "Skills"). `None` for a ship.
    pub fn stunt_modifiers(
        &self,
        u: UnitId,
        attr: &'static str,
        skill: &'static str,
    ) -> Option<Vec<Modifier>> {
        let MsSheet::Character(c) = self.sheet(u) else {
            return None;
        };
        let value = match attr {
            "Soldier" => c.attrs.soldier,
            "Agent" => c.attrs.agent,
            _ => c.attrs.tech,
        };
        let mut mods = vec![Modifier::new(attr, value)];
        if c.skill(skill) != 0 {
            mods.push(Modifier::named(
                rank_label(skill, c.skills.get(skill)),
                c.skill(skill),
            ));
        }
        Some(mods)
    }

    /// True when `u` may still call on Excellent Skill for an attack with `w` (a
    /// character with the tag for the weapon's skill, not yet used this scene).
    pub fn excellent_open(&self, u: UnitId, w: &Weapon) -> bool {
        let skill = Character::weapon_skill(w);
        self.shooter(u).is_some_and(|c| c.excellent(skill))
            && !self.state(u).excellent_used.iter().any(|s| s == skill)
    }

    /// The check a turn's decision makes (a duck, a leap, first aid), with its +2 decided.
    pub fn turn_check(&self, map: &HexMap, u: UnitId, action: &Action) -> Option<Check> {
        let (kind, mods, dl, plus_two) = match action {
            Action::Duck { plus_two } => (
                CheckKind::Duck,
                self.stunt_modifiers(u, "Agent", "Acrobatics")?,
                MOVE_STUNT_DL,
                *plus_two,
            ),
            Action::Leap { to, plus_two } => {
                let path = self.leap_path(map, u, Hex::new(to.0, to.1))?;
                let short = path
                    .iter()
                    .skip(1)
                    .position(|&h| map.move_cost(h) == Some(2))
                    .map_or(path.len(), |i| i + 1);
                (
                    CheckKind::Leap { path, short },
                    self.stunt_modifiers(u, "Soldier", "Athletics")?,
                    MOVE_STUNT_DL,
                    *plus_two,
                )
            }
            Action::Stabilize { patient, plus_two } => {
                let MsSheet::Character(c) = self.sheet(u) else {
                    return None;
                };
                let Condition::Dying { attempts, .. } = self.state(*patient).condition else {
                    return None;
                };
                (
                    CheckKind::Stabilize { patient: *patient },
                    medicine_modifiers(c),
                    stabilize_dl(attempts + 1)?,
                    *plus_two,
                )
            }
            _ => return None,
        };
        let mut c = self.new_check(kind, u, None, mods, Some(dl));
        c.plus_two = Some(plus_two);
        Some(c)
    }

    /// Carries the check in progress on: asks about +2, rolls, asks about a re-roll, and
    /// applies it. False while it waits for an answer.
    fn run_check(&mut self, dice: &mut impl DieRoller, events: &mut Vec<BattleEvent>) -> bool {
        let Some(mut c) = self.check.clone() else {
            return true;
        };
        if c.plus_two.is_none() {
            if self.fighting(c.roller) && self.roller_edge(c.roller, c.crewman) > 0 {
                self.prompt = Some(Prompt::Boost);
                return false;
            }
            c.plus_two = Some(false);
        }
        if c.roll.is_none() {
            let mut mods = c.mods.clone();
            if c.plus_two == Some(true) {
                self.spend_edge(c.roller, c.crewman);
                mods.push(Modifier::new("Edge", 2));
            }
            c.roll = Some(exploding_d6(dice, mods, c.dl));
        }
        if !c.reroll_done
            && c.failed()
            && self.fighting(c.roller)
            && !self.check_rerolls(&c).is_empty()
        {
            self.check = Some(c);
            self.prompt = Some(Prompt::RerollCheck);
            return false;
        }
        self.check = None;
        if let Some(roll) = c.roll.clone() {
            self.finish_check(&c, roll, dice, events);
        }
        true
    }

    /// The die of `old` (with any sixes after it) rolled again, and the better kept
    /// ("Using Edge": re-roll a single die and use the better of the two rolls).
    fn reroll_kept(
        &self,
        u: UnitId,
        label: Reroll,
        old: RollRecord,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) -> RollRecord {
        let again = reroll_first(&old, dice);
        let how = match label {
            Reroll::Edge => "re-roll (Edge)",
            Reroll::Lucky => "re-roll (Lucky)",
            Reroll::LuckyBoat => "re-roll (Lucky Boat)",
        };
        events.push(note(
            Some(u),
            format!(
                "{how}: {} against {}; keeps the better",
                again.total, old.total
            ),
        ));
        if again.total > old.total { again } else { old }
    }

    /// What a finished check does.
    fn finish_check(
        &mut self,
        c: &Check,
        roll: RollRecord,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let u = c.roller;
        let ok = roll.succeeded();
        let crewman = |f: &Fight| -> String {
            match (f.sheet(u), c.crewman) {
                (MsSheet::Ship(s), Some(i)) => s
                    .crew
                    .get(i)
                    .map_or(String::new(), |m| format!("{} ", m.name)),
                _ => String::new(),
            }
        };
        match &c.kind {
            CheckKind::Duck => {
                self.state_mut(u).ducked = ok;
                let text = if ok {
                    "ducks: one degree more cover until its next turn"
                } else {
                    "fails to find better cover"
                };
                events.push(roll_event(u, "duck (Acrobatics)", roll, text.into()));
            }
            CheckKind::Leap { path, short } => {
                let path: Vec<Hex> = if ok {
                    path.clone()
                } else {
                    path[..(*short).min(path.len())].to_vec()
                };
                let end = path.last().copied().unwrap_or(self.state(u).pos);
                let text = if ok {
                    format!("leaps to ({}, {})", end.x, end.y)
                } else {
                    format!("stops short at ({}, {})", end.x, end.y)
                };
                events.push(roll_event(u, "leap (Athletics)", roll, text));
                if path.len() > 1 {
                    events.push(BattleEvent::Moved {
                        unit: u,
                        cost: path.len() as u32 - 1,
                        path: path.iter().copied().map(hex_pair).collect(),
                    });
                }
                self.state_mut(u).pos = end;
            }
            CheckKind::Stabilize { patient } => {
                let patient = *patient;
                let name = self.name(patient).to_string();
                let (next, text) = stabilized(self.state(patient).condition, ok, &name);
                self.state_mut(patient).condition = next;
                events.push(roll_event(
                    u,
                    "stabilize (Knowledge (Medicine))",
                    roll,
                    text,
                ));
                if next == Condition::Dead {
                    events.push(BattleEvent::StatusChanged {
                        unit: patient,
                        standing: Standing::Dead,
                        cause: Cow::Borrowed("dies: every attempt to stabilize failed"),
                    });
                }
            }
            CheckKind::StabilizeCrew { patient } => {
                let name = match self.sheet(u) {
                    MsSheet::Ship(s) => s.crew.get(*patient).map_or("?".into(), |m| m.name.clone()),
                    MsSheet::Character(_) => return,
                };
                let who = crewman(self);
                let Some(cs) = self.state(u).crew.get(*patient) else {
                    return;
                };
                let (next, text) = stabilized(cs.condition, ok, &name);
                if let Some(cs) = self.state_mut(u).crew.get_mut(*patient) {
                    cs.condition = next;
                }
                events.push(roll_event(
                    u,
                    "first aid aboard (Knowledge (Medicine))",
                    roll,
                    format!("{who}tends {name}: {text}"),
                ));
            }
            CheckKind::Sweep { target } => {
                let side = self.sides[u.0 as usize] as usize;
                if let Some(d) = self
                    .detected
                    .get_mut(side)
                    .and_then(|v| v.get_mut(target.0 as usize))
                {
                    *d = ok;
                }
                let text = format!(
                    "{}{} {}",
                    crewman(self),
                    if ok { "detects" } else { "does not find" },
                    self.name(*target)
                );
                events.push(roll_event(u, "sensor sweep", roll, text));
            }
            CheckKind::Repair => {
                let Some(&system) = self.state(u).failed.first() else {
                    return;
                };
                if ok {
                    self.state_mut(u).failed.remove(0);
                }
                let text = format!(
                    "{}{}",
                    crewman(self),
                    if ok {
                        format!("repairs the {system:?}")
                    } else {
                        format!("cannot fix the {system:?} yet")
                    }
                );
                events.push(roll_event(u, "repair", roll, text));
            }
            CheckKind::Chase { pursuer } => {
                // The loser's second look (`against` set) was logged as its re-roll note.
                if c.against.is_none() {
                    let text = if *pursuer { "as pursuer" } else { "as quarry" };
                    events.push(roll_event(u, "the chase", roll.clone(), text.into()));
                }
                if let Some(RoundTask::Chase {
                    pursuer: p,
                    quarry: q,
                    ..
                }) = self.round_tasks.first_mut()
                {
                    if *pursuer {
                        *p = Some(roll);
                    } else {
                        *q = Some(roll);
                    }
                }
            }
        }
        let _ = dice;
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
