//! The state of a Main Sequence battle and its rules of play, as plain code over a
//! [`DieRoller`] (main-sequence.txt, "Combat Actions", "Range Bands", "Rate of Fire",
//! "Damage", "Armor and Cover", "Knockout and Death", "Using Edge", "Tags", "Ship Tags",
//! "Ship Destruction", "Ship Detection", "Optional Rule: Systems Failure", "Chase Rules").
//!
//! A round: dying characters lose a round (and die at the end of it), blindness wears off,
//! ships sweep for enemies they have not detected, a chase rolls its contest, and everyone
//! still fighting rolls initiative (1d6 + Initiative; a side listed in
//! `group_initiative` rolls once for all its units, with its best rating). Then each unit
//! in turn makes one move (one Close band; none in a chase) and one action: an attack, a
//! reload or an attempt to stabilize a dying friend. An attack asks each target for an
//! active defense before the one roll; a failed roll may be re-rolled (Edge or Lucky);
//! an attack that would kill asks the victim to spend Edge. These questions go to the unit
//! that answers them: the battle waits for that unit's decision as for a turn.
//!
//! Decisions where the text is silent, each in one place:
//! - An active defense forfeits the defender's next action; a unit that already owes one
//!   cannot parry or dodge again until it has paid it. The free parry of Dual-Wielding
//!   comes once a round and is gone in a round its owner makes a Double Attack.
//! - A roll "fails" for a re-roll when it misses the first target (the full total).
//! - "Would kill": an attack that would bring a character to 0 Hit Points with lethal
//!   damage (dying). Edge makes it miss that character only.
//! - Blinded characters (a flash-bang's hit) may move but not attack or defend actively.
//! - Explosives strike every unit still fighting within Close of the unit aimed at, friend
//!   or foe, with the one roll against each one's Defense; the aimed-at unit first, then by
//!   distance. Cover is counted from the point of the blast.
//! - Ships: detection is shared by a side; only detected ships can be fired upon. A ship
//!   makes its attack action with its best gunner (Double Attack: two attacks). The Edge
//!   of "Ship Destruction" is spent for everyone aboard at once. A systems failure (the
//!   optional rule, when the scenario turns it on) knocks out the weapons (1-3 on 1d6) or
//!   the engines (4-6; no moves, and chase rolls without Propulsion); the engineer rolls
//!   DL 9 at the start of each round to fix one.
//! - In a chase the two units keep the chase band instead of map positions. An escaped
//!   quarry leaves the battle ([`Condition::Escaped`]); a caught one gives up
//!   ([`Condition::Caught`]).

use super::character::Rank;
use super::chase::{ChaseResult, chase_band, chase_table};
use super::combat::{
    ActiveDefense, Band, BandSizes, Cover, InitiativeRoll, RateOfFire, defended_against,
    initiative_order, stabilize_dl,
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
    /// A quarry the pursuer caught.
    Caught,
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
            Condition::Caught => Standing::Surrendered,
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
            Condition::Caught => "caught",
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
}

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
    /// Lucky (or Lucky Boat) used this scene.
    pub lucky_used: bool,
    /// Skills whose Excellent Skill was used this scene.
    pub excellent_used: Vec<String>,
    /// Owes its next action for an active defense.
    pub forfeit: bool,
    /// Rounds of blindness left.
    pub blind: u32,
    /// The Dual-Wielding free parry is spent this round.
    pub free_parry_used: bool,
    /// Failed systems (ships).
    pub failed: Vec<System>,
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

/// How a failed roll is re-rolled ("Using Edge"; "Tags": Lucky; "Ship Tags": Lucky Boat).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reroll {
    /// Spend a point of Edge.
    Edge,
    /// The Lucky tag (or the ship's Lucky Boat), once per scene.
    Lucky,
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
    /// Reload the weapon (index) from a spare load.
    Reload {
        /// Weapon index.
        weapon: usize,
    },
    /// Try to stabilize a dying friend at Melee (Knowledge (Medicine)).
    Stabilize {
        /// Who.
        patient: UnitId,
    },
    /// End the turn.
    EndTurn,
    /// Answer to "defend?": an active defense, or none.
    Defend(Option<Defense>),
    /// Answer to "re-roll?": how, or not.
    Reroll(Option<Reroll>),
    /// Answer to "spend Edge to make this killing attack miss?".
    SpendEdge(bool),
}

/// A question the battle waits on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prompt {
    /// The target at this index of the attack may defend.
    Defend(usize),
    /// The attacker may re-roll.
    Reroll,
    /// The target at this index would be killed; it may spend Edge.
    Kill(usize),
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
}

/// A chase in progress ("Chase Rules").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
            Some(Prompt::Defend(i)) | Some(Prompt::Kill(i)) => a.map(|a| a.targets[i]),
            Some(Prompt::Reroll) => a.map(|a| a.attacker),
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

    /// Edge the unit can spend on its own rolls (a ship: its gunner's).
    pub fn edge(&self, u: UnitId) -> i32 {
        match self.sheet(u) {
            MsSheet::Character(_) => self.state(u).edge,
            MsSheet::Ship(_) => self
                .crewman(u, Task::Gunnery)
                .map_or(0, |i| self.state(u).crew[i].edge),
        }
    }

    fn spend_edge(&mut self, u: UnitId) {
        let gunner = self.crewman(u, Task::Gunnery);
        let ship = self.sheet(u).is_ship();
        let st = self.state_mut(u);
        if !ship {
            st.edge -= 1;
        } else if let Some(c) = gunner.and_then(|i| st.crew.get_mut(i)) {
            c.edge -= 1;
        }
    }

    /// True when the unit may re-roll with Lucky (or Lucky Boat) this scene.
    pub fn lucky(&self, u: UnitId) -> bool {
        !self.state(u).lucky_used
            && match self.sheet(u) {
                MsSheet::Character(c) => c.has(&Tag::Lucky),
                MsSheet::Ship(s) => s.lucky || self.shooter(u).is_some_and(|c| c.has(&Tag::Lucky)),
            }
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
        cover_of(map.cover_between(from, self.state(target).pos))
    }

    // ---------------------------------------------------------------------------------
    // Rounds and turns.

    /// Starts a round: dying, blindness, repairs, detection, the chase, initiative.
    pub fn begin_round(&mut self, dice: &mut impl DieRoller, events: &mut Vec<BattleEvent>) {
        self.round += 1;
        let ids: Vec<UnitId> = self.ids().collect();
        for &u in &ids {
            let st = self.state_mut(u);
            st.free_parry_used = false;
            if st.blind > 0 {
                st.blind -= 1;
                if st.blind == 0 {
                    events.push(note(Some(u), "can see again".into()));
                }
            }
            if let Condition::Dying { rounds, attempts } = st.condition {
                if rounds <= 1 {
                    st.condition = Condition::Dead;
                    events.push(BattleEvent::StatusChanged {
                        unit: u,
                        standing: Standing::Dead,
                        cause: Cow::Borrowed("died of wounds"),
                    });
                } else {
                    st.condition = Condition::Dying {
                        rounds: rounds - 1,
                        attempts,
                    };
                }
            }
        }
        self.repairs(dice, events);
        self.detection(dice, events);
        self.chase_round(dice, events);
        self.roll_initiative(dice, events);
        self.next = 0;
        self.turn = None;
    }

    fn repairs(&mut self, dice: &mut impl DieRoller, events: &mut Vec<BattleEvent>) {
        for u in self.ids().collect::<Vec<_>>() {
            if !self.fighting(u) || self.state(u).failed.is_empty() {
                continue;
            }
            let sheet = self.sheets[u.0 as usize].clone();
            let (Some(i), MsSheet::Ship(s)) = (self.crewman(u, Task::Repair), &*sheet) else {
                continue;
            };
            let c = &s.crew[i].character;
            let mods = vec![
                Modifier::new("Tech", c.attrs.tech),
                Modifier::new(
                    "Knowledge (Engineering/Mechanics)",
                    Task::Repair.bonus(c) - c.attrs.tech,
                ),
            ];
            let system = self.state(u).failed[0];
            let roll = exploding_d6(dice, mods, Some(9));
            let fixed = roll.succeeded();
            if fixed {
                self.state_mut(u).failed.remove(0);
            }
            events.push(roll_event(
                u,
                "repair",
                roll,
                format!(
                    "{} {}",
                    s.crew[i].name,
                    if fixed {
                        format!("repairs the {system:?}")
                    } else {
                        format!("cannot fix the {system:?} yet")
                    }
                ),
            ));
        }
    }

    fn detection(&mut self, dice: &mut impl DieRoller, events: &mut Vec<BattleEvent>) {
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
                        c.attrs.tech + c.skill("Knowledge (Sensors)") + s.attrs.sensors,
                        u,
                        i,
                    ))
                })
                .max_by_key(|(b, u, _)| (*b, std::cmp::Reverse(*u)));
            let Some((_, by, i)) = best else { continue };
            for target in self.ids().collect::<Vec<_>>() {
                if self.sides[target.0 as usize] as usize == side
                    || !self.fighting(target)
                    || self.detected[side][target.0 as usize]
                {
                    continue;
                }
                let MsSheet::Ship(ts) = self.sheet(target) else {
                    self.detected[side][target.0 as usize] = true;
                    continue;
                };
                let dl = detection_dl(ts.stealth);
                let sheet = self.sheets[by.0 as usize].clone();
                let MsSheet::Ship(s) = &*sheet else { continue };
                let c = &s.crew[i].character;
                let mut mods = vec![Modifier::new("Tech", c.attrs.tech)];
                let k = c.skill("Knowledge (Sensors)");
                if k != 0 {
                    mods.push(Modifier::new("Knowledge (Sensors)", k));
                }
                mods.push(Modifier::new("Sensors", s.attrs.sensors));
                let roll = exploding_d6(dice, mods, Some(dl));
                let found = roll.succeeded();
                self.detected[side][target.0 as usize] = found;
                let text = format!(
                    "{} {} {}",
                    s.crew[i].name,
                    if found { "detects" } else { "does not find" },
                    self.name(target)
                );
                events.push(roll_event(by, "sensor sweep", roll, text));
            }
        }
    }

    /// The chase roll of `u` ("Chase Rules": Agent + Vehicle + Propulsion for a ship,
    /// Soldier + Athletics on foot) plus its speed bonus.
    pub fn chase_modifiers(&self, u: UnitId, bonus: i32) -> Vec<Modifier> {
        let mut mods = Vec::new();
        match self.sheet(u) {
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
                    if c.vehicle() != 0 {
                        mods.push(Modifier::new("Vehicle", c.vehicle()));
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

    fn chase_round(&mut self, dice: &mut impl DieRoller, events: &mut Vec<BattleEvent>) {
        let Some(c) = self.chase else { return };
        if !self.fighting(c.pursuer) || !self.fighting(c.quarry) {
            return;
        }
        let p = exploding_d6(dice, self.chase_modifiers(c.pursuer, c.pursuer_bonus), None);
        let q = exploding_d6(dice, self.chase_modifiers(c.quarry, c.quarry_bonus), None);
        let diff = q.total - p.total;
        let result = chase_table(diff);
        events.push(roll_event(c.pursuer, "the chase", p, "as pursuer".into()));
        events.push(roll_event(c.quarry, "the chase", q, "as quarry".into()));
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
                if let Some(ch) = &mut self.chase {
                    ch.band = Band::Melee;
                }
                self.state_mut(c.quarry).condition = Condition::Caught;
                events.push(BattleEvent::StatusChanged {
                    unit: c.quarry,
                    standing: Standing::Surrendered,
                    cause: Cow::Owned(format!("is caught (quarry {diff:+})")),
                });
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
            };
            let st = self.state_mut(u);
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
        let from = self.state(u).pos;
        if from.unsigned_distance_to(to) > self.sizes.move_hexes() {
            return None;
        }
        let taken: Vec<Hex> = self
            .ids()
            .filter(|&o| o != u && !matches!(self.state(o).condition, Condition::Escaped))
            .map(|o| self.state(o).pos)
            .collect();
        let path = map.path(from, to, |h| {
            if taken.contains(&h) {
                None
            } else {
                map.move_cost(h)
            }
        })?;
        (map.path_cost(&path)? <= self.sizes.move_hexes()).then_some(path)
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

    /// Checks a decision of `u`.
    pub fn check(&self, map: &HexMap, u: UnitId, action: &Action) -> Result<(), String> {
        if self.awaiting() != Some(u) {
            return Err("it is not this unit's decision".into());
        }
        match (self.prompt, action) {
            (Some(Prompt::Defend(i)), Action::Defend(d)) => match d {
                None => Ok(()),
                Some(d) if self.defenses_open(i).contains(d) => Ok(()),
                Some(d) => Err(format!("{d:?} is not open to {}", self.name(u))),
            },
            (Some(Prompt::Reroll), Action::Reroll(r)) => match r {
                None => Ok(()),
                Some(Reroll::Edge) if self.edge(u) > 0 => Ok(()),
                Some(Reroll::Lucky) if self.lucky(u) => Ok(()),
                Some(r) => Err(format!("no {r:?} left to re-roll with")),
            },
            (Some(Prompt::Kill(_)), Action::SpendEdge(spend)) => {
                if *spend && self.state(u).edge <= 0 {
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
                let to = Hex::new(to.0, to.1);
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
                if st.blind > 0 {
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
                if *excellent
                    && !self
                        .shooter(u)
                        .is_some_and(|c| c.excellent(Character::weapon_skill(w)))
                {
                    return Err(format!(
                        "no Excellent Skill ({})",
                        Character::weapon_skill(w)
                    ));
                }
                Ok(())
            }
            Action::Reload { weapon } => {
                if t.acted {
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
            Action::Stabilize { patient } => {
                if t.acted {
                    return Err("it has already used its action this turn".into());
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
        if st.nimble > 0 {
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
            Action::Stabilize { patient } => format!("stabilize {}", self.name(*patient)),
            Action::EndTurn => "end turn".into(),
            Action::Defend(Some(d)) => format!("defends: {d:?}"),
            Action::Defend(None) => "takes it on Defense".into(),
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
        match action {
            Action::Defend(d) => {
                if let (Some(Prompt::Defend(i)), Some(_)) = (self.prompt, &self.attack) {
                    let record = d.and_then(|d| self.defense_roll(u, d, dice));
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
                self.prompt = None;
                if let Some(r) = r {
                    match r {
                        Reroll::Edge => self.spend_edge(u),
                        Reroll::Lucky => self.state_mut(u).lucky_used = true,
                    }
                    if let Some(a) = &mut self.attack
                        && let Some(old) = a.roll.take()
                    {
                        let again = reroll_first(&old, dice);
                        let label = match r {
                            Reroll::Edge => "re-roll (Edge)",
                            Reroll::Lucky => "re-roll (Lucky)",
                        };
                        events.push(note(
                            Some(u),
                            format!(
                                "{label}: {} against {}; keeps the better",
                                again.total, old.total
                            ),
                        ));
                        a.roll = Some(if again.total > old.total { again } else { old });
                    }
                }
                if let Some(a) = &mut self.attack {
                    a.reroll_done = true;
                }
                self.proceed(map, dice, events);
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
            Action::Reload { weapon } => {
                if let Some(full) = self.sheet(u).weapons().get(weapon).and_then(|w| w.ammo)
                    && let Some(a) = self.state_mut(u).ammo.get_mut(weapon)
                {
                    a.spare -= 1;
                    a.loaded = Some(full);
                }
                self.end_action(u);
            }
            Action::Stabilize { patient } => {
                self.stabilize(u, patient, dice, events);
                self.end_action(u);
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
                if plus_two {
                    self.spend_edge(u);
                }
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
            && (self.edge(a.attacker) > 0 || self.lucky(a.attacker))
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
            r.modifiers.push(Modifier::named(
                format!("target {} of {}", i + 1, a.targets.len()),
                -2 * i as i32,
            ));
            r.total -= 2 * i as i32;
        }
        let dl = self.target_defense(map, i);
        r.target = Some(dl);
        r.margin = Some(r.total - dl);
        r.success = Some(r.total >= dl);
        r
    }

    /// Resolves target `i`; true when the battle must first ask the victim about Edge.
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
                if after == 0 && lethal && st.edge > 0 {
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
                if w.blinds && after > 0 {
                    self.state_mut(tg).blind = super::combat::FLASH_BLIND_ROUNDS;
                    events.push(note(
                        Some(tg),
                        format!(
                            "is blinded for {} rounds",
                            super::combat::FLASH_BLIND_ROUNDS
                        ),
                    ));
                }
                if after == 0 && st.hp > 0 {
                    self.bring_down(tg, w.bash, soldier, events);
                }
            }
            MsSheet::Ship(s) => {
                let s = s.clone();
                let (shields, hp) = ship_hit(st.shields, st.hp, damage, soak);
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
                    self.ship_destruction(tg, &s, events);
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

    /// "Ship Destruction": everyone aboard spends Edge or the ship is lost.
    fn ship_destruction(&mut self, u: UnitId, s: &ShipSheet, events: &mut Vec<BattleEvent>) {
        let mut edge: Vec<i32> = self.state(u).crew.iter().map(|c| c.edge).collect();
        match ship_destruction(&mut edge) {
            Destruction::Destroyed => {
                let st = self.state_mut(u);
                st.hp = 0;
                st.condition = Condition::Destroyed;
                for c in &mut st.crew {
                    c.hp = 0;
                }
                events.push(BattleEvent::StatusChanged {
                    unit: u,
                    standing: Standing::Destroyed,
                    cause: Cow::Borrowed("is destroyed, all hands lost (no Edge aboard)"),
                });
            }
            Destruction::Survives { consoles } => {
                let st = self.state_mut(u);
                for (c, e) in st.crew.iter_mut().zip(&edge) {
                    c.edge = *e;
                }
                for &i in &consoles {
                    st.crew[i].hp = 0;
                }
                let hurt: Vec<&str> = consoles.iter().map(|&i| s.crew[i].name.as_str()).collect();
                events.push(note(
                    Some(u),
                    if hurt.is_empty() {
                        "the crew spend Edge: the ship holds together".into()
                    } else {
                        format!(
                            "the crew spend Edge: the ship holds together; consoles explode on {}",
                            hurt.join(", ")
                        )
                    },
                ));
                if st.crew.iter().all(|c| c.hp <= 0) {
                    st.condition = Condition::Dead;
                    events.push(BattleEvent::StatusChanged {
                        unit: u,
                        standing: Standing::Dead,
                        cause: Cow::Borrowed("has nobody left standing aboard"),
                    });
                }
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
            let mut system = if die <= 3 {
                System::Weapons
            } else {
                System::Engines
            };
            let failed = &mut self.state_mut(u).failed;
            if failed.contains(&system) {
                system = if system == System::Weapons {
                    System::Engines
                } else {
                    System::Weapons
                };
            }
            if !failed.contains(&system) {
                failed.push(system);
                events.push(note(
                    Some(u),
                    format!("systems failure (1d6: {die}): the {system:?} are out"),
                ));
            }
        }
    }

    fn stabilize(
        &mut self,
        u: UnitId,
        patient: UnitId,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let MsSheet::Character(c) = self.sheet(u) else {
            return;
        };
        let Condition::Dying { rounds, attempts } = self.state(patient).condition else {
            return;
        };
        let Some(dl) = stabilize_dl(attempts + 1) else {
            return;
        };
        let mut mods = vec![Modifier::new("Tech", c.attrs.tech)];
        let k = c.skill("Knowledge (Medicine)");
        if k != 0 {
            mods.push(Modifier::new("Knowledge (Medicine)", k));
        }
        if c.medkit {
            mods.push(Modifier::new("medical kit", 2));
        }
        let roll = exploding_d6(dice, mods, Some(dl));
        let ok = roll.succeeded();
        let name = self.name(patient).to_string();
        let st = self.state_mut(patient);
        let result = if ok {
            st.condition = Condition::Stabilized;
            format!("{name} is stabilized")
        } else if attempts + 1 >= 3 {
            st.condition = Condition::Dead;
            format!("{name} cannot be saved")
        } else {
            st.condition = Condition::Dying {
                rounds,
                attempts: attempts + 1,
            };
            format!("{name} is still dying (next try DL {})", dl + 2)
        };
        events.push(roll_event(
            u,
            "stabilize (Knowledge (Medicine))",
            roll,
            result,
        ));
        if !ok && attempts + 1 >= 3 {
            events.push(BattleEvent::StatusChanged {
                unit: patient,
                standing: Standing::Dead,
                cause: Cow::Borrowed("dies: every attempt to stabilize failed"),
            });
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

/// Excellent Skill ("Tags"): the successful roll counts as a natural 6, so the die
/// counts 5 and explodes: a new exploding die is added.
fn excellent_six(old: &RollRecord, dice: &mut impl DieRoller) -> RollRecord {
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
