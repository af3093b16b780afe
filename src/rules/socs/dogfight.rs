//! The turn of a SOCS battle as plain functions (gurps-lite-and-socs.txt, SOCS "COMBAT",
//! "FIRE PHASE", "MANEUVER PHASE", "THE FURBALL", "FOLLOW THE LEADER"): each craft's state
//! ([`CraftState`]: damage, locations, crew, Sustained Fire bonuses per gun) is a component
//! on its entity, read through [`Crafts`]; what the craft share ([`Dogfight`]) is the range
//! and the Position aiming bonus of each pair, keyed by their entities, and the phase. The
//! fire phase is declared by every craft and resolved together against the state when it
//! began ([`crate::battle::Frozen`]); the maneuver phase is declared in order and resolved
//! in that order.

use super::sheet::{Craft, Firepower, ShipClass, SizeGroup, WeaponRange};
use crate::battle::{
    AttackResult, BattleEvent, DefenseRecord, Frozen, Standing, UnitId, Units, UnitsMut,
};
use crate::dice::{DieRoller, Label, Modifier, RollRecord, quick_contest, success_roll};
use bevy::ecs::entity::Entity;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

mod fire;
mod maneuvers;
pub use fire::FIREPOWER_DICE;
pub use maneuvers::{defensive_result, offensive_result};

/// Range between two craft ("3 ranges between ships").
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub enum SocsRange {
    /// Every weapon can fire.
    Short,
    /// Only long-range weapons can fire.
    #[default]
    Long,
    /// No combat.
    OutOfRange,
}

impl SocsRange {
    /// One step closer (negative) or farther, held at the ends.
    pub fn moved(self, step: i32) -> SocsRange {
        let all = [SocsRange::Short, SocsRange::Long, SocsRange::OutOfRange];
        all[((self as i32) + step).clamp(0, 2) as usize]
    }

    /// Hex distance the map shows it at (a display choice).
    pub fn hexes(self) -> u32 {
        match self {
            SocsRange::Short => 3,
            SocsRange::Long => 8,
            SocsRange::OutOfRange => 15,
        }
    }

    /// True when a weapon of `range` can fire at this range.
    pub fn allows(self, range: WeaponRange) -> bool {
        match self {
            SocsRange::Short => true,
            SocsRange::Long => range == WeaponRange::Long,
            SocsRange::OutOfRange => false,
        }
    }
}

impl fmt::Display for SocsRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SocsRange::Short => "short",
            SocsRange::Long => "long",
            SocsRange::OutOfRange => "out of range",
        })
    }
}

/// What a game-master maneuver does (decision 4: "other maneuvers ... determined by the
/// GM" are given by the scenario, each a Piloting + MR roll with the GM's modifier).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GmEffect {
    /// On success, the range to the chosen foe one step closer.
    CloseRange,
    /// On success, the range to the chosen foe one step farther.
    OpenRange,
}

/// A maneuver the scenario's game master allows besides the text's own.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GmManeuver {
    /// Name shown in the panel and the log.
    pub name: String,
    /// The GM's modifier to the Piloting + MR roll.
    #[serde(default)]
    pub modifier: i32,
    /// What success does.
    pub effect: GmEffect,
}

/// The largest hazard penalty a lead pilot may choose for Follow the Leader (0 to this,
/// any whole number). The text leaves it open ("lead pilot's chosen penalty"); 10 is our
/// bound, just past the hardest row of the task difficulty table (gurps-lite-and-socs.txt,
/// "TASK DIFFICULTY": −8/−9 Dangerous).
pub const MAX_LEAD_PENALTY: i32 = 10;

/// A pilot's maneuver ("MANEUVER PHASE").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Maneuver {
    /// No change to any aiming bonus.
    FlyStraight,
    /// Gain Position on `target` (which must have none on you).
    Offensive {
        /// The foe.
        target: UnitId,
    },
    /// Lower `target`'s Position on you, or its gun `weapon`'s Sustained Fire bonus.
    Defensive {
        /// The foe.
        target: UnitId,
        /// One of its guns, instead of its Position.
        #[serde(default)]
        weapon: Option<u8>,
    },
    /// As Defensive against every foe; your gunners may not fire next turn.
    TotallyDefensive,
    /// Answer `target`'s Maneuver Offensively against you with a Quick Contest.
    Reversal {
        /// The foe.
        target: UnitId,
    },
    /// Lead the foes on your tail through a hazard at a penalty you choose.
    FollowTheLeader {
        /// The penalty every pilot takes, you included: any the leader chooses from 0 to
        /// [`MAX_LEAD_PENALTY`] ("FOLLOW THE LEADER": "minus lead pilot's chosen penalty").
        penalty: i32,
    },
    /// One of the scenario's game-master maneuvers, against `target`.
    Gm {
        /// Index in the scenario's `gm_maneuvers`.
        index: u8,
        /// The foe.
        target: UnitId,
    },
}

/// One gun's shot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shot {
    /// Index of the weapon.
    pub weapon: u8,
    /// The target.
    pub target: UnitId,
    /// An aimed shot at the target's hit location of this index (not at a fighter):
    /// rolled at [`Craft::aimed_to_be_hit`] instead of the craft's size, and a light hit
    /// knocks out that location instead of one the die picks ("PLANETS: Automatic unless
    /// targeting specific hit locations"). None: an ordinary shot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aim: Option<u8>,
}

/// A craft's decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Action {
    /// Fire phase: the shots of its guns (any gun left out holds its fire).
    Fire {
        /// The shots.
        shots: Vec<Shot>,
        /// A game-master modifier for unorthodox tactics (decision 4), added to every shot.
        #[serde(default)]
        gm_modifier: i32,
    },
    /// Maneuver phase: the pilot's maneuver.
    Maneuver {
        /// The maneuver.
        maneuver: Maneuver,
        /// A game-master modifier for unorthodox tactics (decision 4).
        #[serde(default)]
        gm_modifier: i32,
    },
}

/// How a craft left the fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Destroyed (a fighter by a heavy hit, a collision, a crashed maneuver).
    Destroyed,
    /// Completely disabled by a heavy hit.
    Disabled,
    /// Vaporized or atomized (great or extreme).
    Vaporized,
    /// Out of range of every foe.
    Escaped,
}

/// A craft in battle, the component on its entity.
#[derive(bevy::ecs::component::Component, Clone, Debug, PartialEq)]
pub struct CraftState {
    /// Out of the fight, and how.
    pub out: Option<Fate>,
    /// Light damage taken: continuing damage (a further light hit counts as heavy).
    pub damaged: bool,
    /// Loses its maneuver this turn (a light hit).
    pub skip_maneuver: bool,
    /// Its gunners may not fire next fire phase (a light hit, Go Totally Defensive).
    pub skip_fire: bool,
    /// Its gunners hit automatically next fire phase (a reversal won critically).
    pub auto_hit: bool,
    /// Hit locations knocked out.
    pub locations_out: Vec<bool>,
    /// Everyone aboard alive, in [`Craft::people`] order.
    pub alive: Vec<bool>,
    /// Per gun: its Sustained Fire bonus and on whom (the target's entity).
    pub sustained: Vec<Option<(Entity, i32)>>,
    /// Foes this craft broke off from (opened the range to out of range;
    /// [`crate::battle::breaks_away`]), by entity.
    pub broke_off_from: Vec<Entity>,
    /// Leaders this craft lost in Follow the Leader (by entity): its guns cannot find them
    /// in the next fire phase.
    pub lost_sight_of: Vec<Entity>,
}

impl CraftState {
    /// A fresh craft.
    pub fn new(craft: &Craft) -> Self {
        Self {
            out: None,
            damaged: false,
            skip_maneuver: false,
            skip_fire: false,
            auto_hit: false,
            locations_out: vec![false; craft.stats.locations.len()],
            alive: vec![true; craft.people().len()],
            sustained: vec![None; craft.stats.weapons.len()],
            broke_off_from: Vec::new(),
            lost_sight_of: Vec::new(),
        }
    }

    /// True when gun `w` still works (its location is not knocked out).
    pub fn gun_works(&self, craft: &Craft, w: usize) -> bool {
        craft
            .weapon_location
            .get(w)
            .is_some_and(|l| l.is_none_or(|l| !self.locations_out[l]))
    }
}

/// Where the turn stands.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Phase {
    /// Before the first turn, or between turns.
    #[default]
    Start,
    /// The fire phase: craft declare their shots in `order`.
    Fire {
        /// Declarations so far.
        declared: Vec<(UnitId, Vec<Shot>, i32)>,
    },
    /// The maneuver phase: pilots declare in `order`.
    Maneuvers {
        /// Declarations so far.
        declared: Vec<(UnitId, Maneuver, i32)>,
    },
}

/// What a step of the turn did.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// A craft must decide.
    Awaiting(UnitId),
    /// A phase ended (its declarations resolved); call again.
    Advanced,
    /// The turn is over.
    TurnOver,
}

/// What the craft of a SOCS battle share: the range of each pair of foes and each
/// craft's Position on another (keyed by their entities), the scenario's game-master
/// maneuvers, the phase and whose decision comes next. Each craft's sheet and state are
/// components on its entity, read and changed through [`Crafts`] and [`CraftsMut`].
#[derive(bevy::ecs::resource::Resource, Clone, Debug, Default)]
pub struct Dogfight {
    /// Sides (by index) whose AI craft break off when losing.
    pub may_flee: Vec<bool>,
    /// The scenario's game-master maneuvers.
    pub gm_maneuvers: Vec<GmManeuver>,
    /// Range per pair of foes (entities in order).
    pub ranges: BTreeMap<(Entity, Entity), SocsRange>,
    /// Position aiming bonus of the first craft on the second.
    pub position: BTreeMap<(Entity, Entity), i32>,
    /// The phase.
    pub phase: Phase,
    /// Who decides in this phase, in order.
    pub order: Vec<UnitId>,
    /// Next in `order`.
    pub next: usize,
    /// Turn number, from 1.
    pub turn: u32,
    /// A battle nobody reads (a preview: [`crate::battle::CombatLog::keep`] off, set by
    /// the systems): its rolls keep the sum of their modifiers but not their labels, and
    /// its notes are blank. The dice, the results and every decision are the same.
    pub quiet: bool,
}

/// The craft of a SOCS battle, read by unit id: each one's [`Craft`] sheet and
/// [`CraftState`] (a battle world, the systems' query, or a copy taken when a phase began).
/// The accessors that return a craft directly are for ids the rules have checked (a unit
/// of the battle); they panic otherwise, as indexing a list would.
pub trait Crafts: Units<Craft, CraftState> {
    /// The sheet of a craft of the battle.
    fn craft(&self, id: UnitId) -> &Arc<Craft> {
        match self.sheet_of(id) {
            Some(c) => c,
            None => panic!("no craft {id:?}"),
        }
    }

    /// The state of a craft of the battle.
    fn craft_state(&self, id: UnitId) -> &CraftState {
        match self.state_of(id) {
            Some(c) => c,
            None => panic!("no craft {id:?}"),
        }
    }

    /// True while the craft is in the fight.
    fn in_fight(&self, id: UnitId) -> bool {
        self.state_of(id).is_some_and(|s| s.out.is_none())
    }

    /// Craft in the fight, in unit order.
    fn fighting(&self) -> Vec<UnitId> {
        self.ids().filter(|&i| self.in_fight(i)).collect()
    }

    /// Foes of `me` in the fight.
    fn foes(&self, me: UnitId) -> Vec<UnitId> {
        let side = self.side_of(me);
        self.ids()
            .filter(|&i| self.in_fight(i) && self.side_of(i) != side)
            .collect()
    }

    /// Gun `w` of `me`'s Sustained Fire bonus on `target`.
    fn sustained_ab(&self, me: UnitId, w: usize, target: UnitId) -> i32 {
        match self.craft_state(me).sustained.get(w).copied().flatten() {
            Some((t, n)) if t == self.entity(target) => n,
            _ => 0,
        }
    }

    /// The standing a craft's state gives its entity.
    fn standing(&self, id: UnitId) -> Standing {
        match self.craft_state(id).out {
            None => Standing::Fighting,
            Some(Fate::Escaped) => Standing::Escaped,
            Some(Fate::Disabled) => Standing::Disabled,
            Some(Fate::Destroyed | Fate::Vaporized) => Standing::Destroyed,
        }
    }

    /// A furball: more than six craft in the fight ("THE FURBALL"; the text's "not paired
    /// off into neat dogfights" is read as: more than six craft still fighting).
    fn furball(&self) -> bool {
        self.fighting().len() > 6
    }

    /// True when `me` may gain Position on `target`: cutters not on fighters, ships of the
    /// line (and larger) not on fighters or cutters (the class restrictions).
    fn may_gain_position(&self, me: UnitId, target: UnitId) -> bool {
        let (a, b) = (
            self.craft(me).stats.class.group(),
            self.craft(target).stats.class.group(),
        );
        match a {
            SizeGroup::Fighter => true,
            SizeGroup::Cutter => b != SizeGroup::Fighter,
            SizeGroup::Line | SizeGroup::Station | SizeGroup::Planet => b >= SizeGroup::Line,
        }
    }

    /// True when `target` may dodge fire from `shooter`: cutters cannot dodge fighters'
    /// attacks, ships of the line cannot dodge fighters' or cutters' fire, a planet
    /// dodges nothing.
    fn may_dodge(&self, target: UnitId, shooter: UnitId) -> bool {
        let (t, s) = (
            self.craft(target).stats.class.group(),
            self.craft(shooter).stats.class.group(),
        );
        match t {
            SizeGroup::Fighter => true,
            SizeGroup::Cutter => s != SizeGroup::Fighter,
            SizeGroup::Line | SizeGroup::Station => s >= SizeGroup::Line,
            SizeGroup::Planet => false,
        }
    }
}
impl<T: Units<Craft, CraftState> + ?Sized> Crafts for T {}

/// [`Crafts`] whose states the rules may change.
pub trait CraftsMut: UnitsMut<Craft, CraftState> + Crafts {
    /// The state of a craft of the battle, to change.
    fn craft_mut(&mut self, id: UnitId) -> &mut CraftState {
        match self.state_mut(id) {
            Some(c) => c,
            None => panic!("no craft {id:?}"),
        }
    }
}
impl<T: UnitsMut<Craft, CraftState> + ?Sized> CraftsMut for T {}

fn key(a: Entity, b: Entity) -> (Entity, Entity) {
    if a < b { (a, b) } else { (b, a) }
}

/// Chance that 3d6 rolls `target` or less (a GURPS success roll, 3 and 4 always and 17
/// and 18 never): [`crate::dice::success_chance`].
pub fn chance_3d6(target: i32) -> f64 {
    crate::dice::success_chance(target)
}

impl Dogfight {
    /// The words `make` writes, or none in a [`Dogfight::quiet`] battle.
    pub(super) fn words(&self, make: impl FnOnce() -> String) -> String {
        if self.quiet { String::new() } else { make() }
    }

    /// A modifier of `value` labelled by `label`, unlabelled in a [`Dogfight::quiet`]
    /// battle.
    pub(super) fn modifier(&self, value: i32, label: impl FnOnce() -> Label) -> Modifier {
        Modifier::unless_quiet(self.quiet, value, label)
    }

    fn pair(crafts: &impl Crafts, a: UnitId, b: UnitId) -> Option<(Entity, Entity)> {
        Some((crafts.entity_of(a)?, crafts.entity_of(b)?))
    }

    /// The range between two foes (OutOfRange for friends).
    pub fn range(&self, crafts: &impl Crafts, a: UnitId, b: UnitId) -> SocsRange {
        Self::pair(crafts, a, b)
            .and_then(|(a, b)| self.ranges.get(&key(a, b)).copied())
            .unwrap_or(SocsRange::OutOfRange)
    }

    /// Sets the range between two foes.
    pub fn set_range(&mut self, crafts: &impl Crafts, a: UnitId, b: UnitId, r: SocsRange) {
        if let Some((a, b)) = Self::pair(crafts, a, b) {
            self.ranges.insert(key(a, b), r);
        }
    }

    /// `a`'s Position aiming bonus on `b`.
    pub fn position_ab(&self, crafts: &impl Crafts, a: UnitId, b: UnitId) -> i32 {
        Self::pair(crafts, a, b)
            .and_then(|k| self.position.get(&k).copied())
            .unwrap_or(0)
    }

    /// Sets `a`'s Position aiming bonus on `b` (none at 0).
    pub fn set_position(&mut self, crafts: &impl Crafts, a: UnitId, b: UnitId, v: i32) {
        let Some(k) = Self::pair(crafts, a, b) else {
            return;
        };
        if v <= 0 {
            self.position.remove(&k);
        } else {
            self.position.insert(k, v);
        }
    }

    /// Every Position `me` holds: on whom and how much, in unit order.
    pub fn positions_of(&self, crafts: &impl Crafts, me: UnitId) -> Vec<(UnitId, i32)> {
        let Some(e) = crafts.entity_of(me) else {
            return Vec::new();
        };
        let mut v: Vec<(UnitId, i32)> = self
            .position
            .iter()
            .filter(|((a, _), _)| *a == e)
            .filter_map(|((_, b), ab)| Some((crafts.unit_of(*b)?, *ab)))
            .collect();
        v.sort();
        v
    }

    /// Drops every Position `me` holds.
    pub(super) fn drop_positions(&mut self, crafts: &impl Crafts, me: UnitId) {
        if let Some(e) = crafts.entity_of(me) {
            self.position.retain(|(a, _), _| *a != e);
        }
    }

    /// A craft's state in a few words for `run`'s closing lines: ", damaged, Position on
    /// Viper 2".
    pub fn craft_line(&self, crafts: &impl Crafts, id: UnitId) -> String {
        let (Some(state), Some(craft)) = (crafts.state_of(id), crafts.sheet_of(id)) else {
            return String::new();
        };
        let mut parts = Vec::new();
        if state.damaged {
            parts.push("damaged".to_string());
        }
        let out: Vec<&str> = state
            .locations_out
            .iter()
            .enumerate()
            .filter(|(_, o)| **o)
            .map(|(k, _)| craft.stats.locations[k].as_str())
            .collect();
        if !out.is_empty() {
            parts.push(format!("knocked out: {}", out.join(", ")));
        }
        for (b, ab) in self.positions_of(crafts, id) {
            if crafts.in_fight(id) && crafts.in_fight(b) {
                parts.push(format!("Position AB {ab} on {}", crafts.name_of(b)));
            }
        }
        parts.iter().map(|p| format!(", {p}")).collect()
    }

    /// Every decision the rules allow `me` now (the fire phase lists one shot per gun at
    /// each target; a decision may combine them, one per gun).
    pub fn legal_actions(&self, crafts: &impl Crafts, me: UnitId) -> Vec<Action> {
        match &self.phase {
            Phase::Fire { .. } => {
                let mut v = vec![Action::Fire {
                    shots: Vec::new(),
                    gm_modifier: 0,
                }];
                if crafts.craft_state(me).skip_fire {
                    return v;
                }
                for t in crafts.foes(me) {
                    for w in self.guns_at(crafts, me, t) {
                        v.push(Action::Fire {
                            shots: vec![Shot {
                                weapon: w as u8,
                                target: t,
                                aim: None,
                            }],
                            gm_modifier: 0,
                        });
                    }
                }
                v
            }
            Phase::Maneuvers { declared } => {
                let m = |maneuver| Action::Maneuver {
                    maneuver,
                    gm_modifier: 0,
                };
                if crafts.craft(me).stats.class == ShipClass::Planet {
                    return vec![m(Maneuver::FlyStraight)]; // a world keeps its course
                }
                let mut v = vec![m(Maneuver::FlyStraight), m(Maneuver::TotallyDefensive)];
                let foes: Vec<UnitId> = crafts
                    .foes(me)
                    .into_iter()
                    .filter(|&f| self.range(crafts, me, f) != SocsRange::OutOfRange)
                    .collect();
                for &f in &foes {
                    if self.position_ab(crafts, f, me) == 0 && crafts.may_gain_position(me, f) {
                        v.push(m(Maneuver::Offensive { target: f }));
                    }
                    v.push(m(Maneuver::Defensive {
                        target: f,
                        weapon: None,
                    }));
                    for w in 0..crafts.craft(f).stats.weapons.len() {
                        if crafts.sustained_ab(f, w, me) > 0 {
                            v.push(m(Maneuver::Defensive {
                                target: f,
                                weapon: Some(w as u8),
                            }));
                        }
                    }
                    // Reversal: against a foe that declared Maneuver Offensively on you, or
                    // (declared in advance) one still to declare that could: it comes to
                    // nothing if that foe does something else.
                    let theirs = declared.iter().find(|(u, _, _)| *u == f).map(|x| &x.1);
                    let open = match theirs {
                        Some(d) => *d == Maneuver::Offensive { target: me },
                        None => {
                            self.position_ab(crafts, me, f) == 0
                                && crafts.may_gain_position(f, me)
                                && !crafts.craft_state(f).skip_maneuver
                        }
                    };
                    if open {
                        v.push(m(Maneuver::Reversal { target: f }));
                    }
                }
                if crafts.craft(me).stats.class.group() < SizeGroup::Line {
                    for penalty in 0..=MAX_LEAD_PENALTY {
                        v.push(m(Maneuver::FollowTheLeader { penalty }));
                    }
                }
                for (i, g) in self.gm_maneuvers.iter().enumerate() {
                    for f in crafts.foes(me) {
                        let r = self.range(crafts, me, f);
                        let useful = match g.effect {
                            GmEffect::CloseRange => r != SocsRange::Short,
                            GmEffect::OpenRange => r != SocsRange::OutOfRange,
                        };
                        if useful {
                            v.push(m(Maneuver::Gm {
                                index: i as u8,
                                target: f,
                            }));
                        }
                    }
                }
                v
            }
            Phase::Start => Vec::new(),
        }
    }

    /// True when [`Dogfight::legal_actions`] lists `maneuver` for `me` (with no GM
    /// modifier), answered without listing them ("MANEUVER PHASE", the class
    /// restrictions, "REVERSAL", "FOLLOW THE LEADER"): the AI and the check of a decision
    /// ask it for one maneuver at a time.
    pub fn maneuver_open(&self, crafts: &impl Crafts, me: UnitId, maneuver: &Maneuver) -> bool {
        let Phase::Maneuvers { declared } = &self.phase else {
            return false;
        };
        if crafts.craft(me).stats.class == ShipClass::Planet {
            return *maneuver == Maneuver::FlyStraight; // a world keeps its course
        }
        // A foe of `me` in the fight, and one within range.
        let foe = |f: UnitId| crafts.in_fight(f) && crafts.side_of(f) != crafts.side_of(me);
        let near = |f: UnitId| foe(f) && self.range(crafts, me, f) != SocsRange::OutOfRange;
        match *maneuver {
            Maneuver::FlyStraight | Maneuver::TotallyDefensive => true,
            Maneuver::Offensive { target: f } => {
                near(f) && self.position_ab(crafts, f, me) == 0 && crafts.may_gain_position(me, f)
            }
            Maneuver::Defensive {
                target: f,
                weapon: None,
            } => near(f),
            Maneuver::Defensive {
                target: f,
                weapon: Some(w),
            } => {
                near(f)
                    && usize::from(w) < crafts.craft(f).stats.weapons.len()
                    && crafts.sustained_ab(f, usize::from(w), me) > 0
            }
            Maneuver::Reversal { target: f } => {
                near(f)
                    && match declared.iter().find(|(u, _, _)| *u == f).map(|x| &x.1) {
                        Some(d) => *d == Maneuver::Offensive { target: me },
                        None => {
                            self.position_ab(crafts, me, f) == 0
                                && crafts.may_gain_position(f, me)
                                && !crafts.craft_state(f).skip_maneuver
                        }
                    }
            }
            Maneuver::FollowTheLeader { penalty } => {
                crafts.craft(me).stats.class.group() < SizeGroup::Line
                    && (0..=MAX_LEAD_PENALTY).contains(&penalty)
            }
            Maneuver::Gm { index, target } => {
                foe(target) && {
                    let r = self.range(crafts, me, target);
                    self.gm_maneuvers.iter().enumerate().any(|(i, g)| {
                        i as u8 == index
                            && match g.effect {
                                GmEffect::CloseRange => r != SocsRange::Short,
                                GmEffect::OpenRange => r != SocsRange::OutOfRange,
                            }
                    })
                }
            }
        }
    }

    /// Checks a decision of `me`; the reason when it is refused.
    pub fn check(&self, crafts: &impl Crafts, me: UnitId, action: &Action) -> Result<(), String> {
        match (action, &self.phase) {
            (Action::Fire { shots, gm_modifier }, Phase::Fire { .. }) => {
                if !(-10..=10).contains(gm_modifier) {
                    return Err("a GM modifier is between -10 and +10".into());
                }
                if !shots.is_empty() && crafts.craft_state(me).skip_fire {
                    return Err(format!(
                        "{}'s gunners may not fire this turn",
                        crafts.name_of(me)
                    ));
                }
                let mut used = Vec::new();
                for s in shots {
                    let w = usize::from(s.weapon);
                    if used.contains(&w) {
                        return Err("a gun fires once a turn".into());
                    }
                    used.push(w);
                    if !self.guns_at(crafts, me, s.target).contains(&w) {
                        return Err(format!(
                            "gun {} cannot fire at {} (no such gun, knocked out, or out of its range)",
                            s.weapon,
                            crafts.name_of(s.target)
                        ));
                    }
                    if let Some(k) = s.aim {
                        let t = crafts.craft(s.target);
                        let out = crafts
                            .craft_state(s.target)
                            .locations_out
                            .get(usize::from(k));
                        if t.aimed_to_be_hit().is_none() || out != Some(&false) {
                            return Err(format!(
                                "{} has no hit location {k} still working to aim at (fighters have none)",
                                crafts.name_of(s.target)
                            ));
                        }
                    }
                }
                Ok(())
            }
            (
                Action::Maneuver {
                    maneuver,
                    gm_modifier,
                },
                Phase::Maneuvers { .. },
            ) => {
                if !(-10..=10).contains(gm_modifier) {
                    return Err("a GM modifier is between -10 and +10".into());
                }
                if self.maneuver_open(crafts, me, maneuver) {
                    Ok(())
                } else {
                    Err(format!(
                        "{} is not open to {} now",
                        self.describe_maneuver(crafts, maneuver),
                        crafts.name_of(me)
                    ))
                }
            }
            (Action::Fire { .. }, _) => Err("craft fire in the fire phase".into()),
            (Action::Maneuver { .. }, _) => Err("pilots maneuver in the maneuver phase".into()),
        }
    }

    fn describe_maneuver(&self, crafts: &impl Crafts, m: &Maneuver) -> String {
        match m {
            Maneuver::FlyStraight => "Fly Straight".into(),
            Maneuver::Offensive { target } => {
                format!("Maneuver Offensively against {}", crafts.name_of(*target))
            }
            Maneuver::Defensive {
                target,
                weapon: None,
            } => {
                format!("Maneuver Defensively against {}", crafts.name_of(*target))
            }
            Maneuver::Defensive {
                target,
                weapon: Some(w),
            } => format!(
                "Maneuver Defensively against {}'s {}",
                crafts.name_of(*target),
                crafts
                    .sheet_of(*target)
                    .and_then(|c| c.stats.weapons.get(usize::from(*w)))
                    .map_or("?", |w| w.name.as_str())
            ),
            Maneuver::TotallyDefensive => "Go Totally Defensive".into(),
            Maneuver::Reversal { target } => {
                format!("Reversal against {}", crafts.name_of(*target))
            }
            Maneuver::FollowTheLeader { penalty: 0 } => {
                "Follow the Leader (no hazard penalty)".into()
            }
            Maneuver::FollowTheLeader { penalty } => format!("Follow the Leader at -{penalty}"),
            Maneuver::Gm { index, target } => format!(
                "{} ({})",
                self.gm_maneuvers
                    .get(usize::from(*index))
                    .map_or("?", |g| g.name.as_str()),
                crafts.name_of(*target)
            ),
        }
    }

    /// Words for a decision in the log.
    pub fn describe(&self, crafts: &impl Crafts, me: UnitId, action: &Action) -> String {
        match action {
            Action::Fire { shots, .. } if shots.is_empty() => "holds fire".into(),
            Action::Fire { shots, .. } => {
                let craft = crafts.craft(me);
                let parts: Vec<String> = shots
                    .iter()
                    .map(|s| {
                        let aimed = s
                            .aim
                            .and_then(|k| {
                                crafts.craft(s.target).stats.locations.get(usize::from(k))
                            })
                            .map_or(String::new(), |l| format!("'s {l}"));
                        format!(
                            "{} at {}{aimed}",
                            craft
                                .stats
                                .weapons
                                .get(usize::from(s.weapon))
                                .map_or("?", |w| w.name.as_str()),
                            crafts.name_of(s.target)
                        )
                    })
                    .collect();
                format!("fires {}", parts.join(", "))
            }
            Action::Maneuver { maneuver, .. } => self.describe_maneuver(crafts, maneuver),
        }
    }

    /// Starts a turn: the fire phase, craft in unit order.
    pub fn begin_turn(&mut self, crafts: &mut impl CraftsMut) {
        self.turn += 1;
        self.phase = Phase::Fire {
            declared: Vec::new(),
        };
        self.order = crafts.fighting();
        self.next = 0;
    }

    /// Moves the turn on: the next craft to decide, or the end of a phase (resolving it).
    pub fn advance(
        &mut self,
        crafts: &mut impl CraftsMut,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) -> Step {
        while self.next < self.order.len() {
            let id = self.order[self.next];
            let skip = match self.phase {
                Phase::Maneuvers { .. } => crafts.craft_state(id).skip_maneuver,
                _ => false,
            };
            if crafts.in_fight(id) && !skip {
                return Step::Awaiting(id);
            }
            if skip && crafts.in_fight(id) {
                events.push(BattleEvent::Note {
                    unit: Some(id),
                    text: "loses this maneuver (light damage)".into(),
                });
            }
            self.next += 1;
        }
        match std::mem::take(&mut self.phase) {
            Phase::Start => Step::TurnOver,
            Phase::Fire { declared } => {
                self.resolve_fire(crafts, &declared, dice, events);
                for id in crafts.ids() {
                    let s = crafts.craft_mut(id);
                    s.auto_hit = false;
                    s.lost_sight_of.clear();
                }
                // Pilots declare from the worst Piloting + MR to the best, so the better
                // pilot answers (a decision: the text gives no order).
                let mut order = crafts.fighting();
                order.sort_by_key(|&id| {
                    let c = crafts.craft(id);
                    (c.stats.pilot.piloting + c.stats.mr, id)
                });
                self.order = order;
                self.next = 0;
                self.phase = Phase::Maneuvers {
                    declared: Vec::new(),
                };
                events.push(BattleEvent::Note {
                    unit: None,
                    text: "Maneuver phase".into(),
                });
                Step::Advanced
            }
            Phase::Maneuvers { declared } => {
                self.resolve_maneuvers(crafts, &declared, dice, events);
                for id in crafts.ids() {
                    crafts.craft_mut(id).skip_maneuver = false;
                }
                self.escapes(crafts, events);
                self.phase = Phase::Start;
                Step::TurnOver
            }
        }
    }

    /// Records the decision of the craft the turn waits for (checked already).
    pub fn apply(&mut self, me: UnitId, action: Action) {
        self.next += 1;
        match (&mut self.phase, action) {
            (Phase::Fire { declared }, Action::Fire { shots, gm_modifier }) => {
                declared.push((me, shots, gm_modifier));
            }
            (
                Phase::Maneuvers { declared },
                Action::Maneuver {
                    maneuver,
                    gm_modifier,
                },
            ) => {
                declared.push((me, maneuver, gm_modifier));
            }
            _ => {}
        }
    }

    /// A craft out of range of every foe, that broke off from one of them, has escaped;
    /// the foes it left behind hold the field.
    fn escapes(&mut self, crafts: &mut impl CraftsMut, events: &mut Vec<BattleEvent>) {
        for id in crafts.fighting() {
            let foes = crafts.foes(id);
            let out = |f: UnitId| self.range(crafts, id, f) == SocsRange::OutOfRange;
            let left = |f: UnitId| {
                crafts
                    .craft_state(id)
                    .broke_off_from
                    .contains(&crafts.entity(f))
            };
            if crate::battle::breaks_away(&foes, out, left) {
                crafts.craft_mut(id).out = Some(Fate::Escaped);
                events.push(BattleEvent::StatusChanged {
                    unit: id,
                    standing: Standing::Escaped,
                    cause: Cow::Borrowed("out of range of every foe"),
                });
            }
        }
    }
}
