//! The turn of a starship-d12 battle: what the ships share ([`Fleet`]: the range board
//! keyed by the ships' entities, the phase and whose decision comes next), each ship's
//! sheet and state as components on its entity (read through [`Ships`]); the legal actions
//! of a ship; and the turn as plain functions (range phase, action rounds, resolution)
//! that take the ships, the dice and write [`BattleEvent`]s. The ECS systems hand these
//! functions the ships' query, give launched missiles their entities and mirror standing
//! and positions onto the ship entities.
//!
//! The turn (starship-d12-quick-reference.txt): the range phase ("Range"), then action
//! rounds ("Actions"): in each, every ship declares one full action (a shot, usually) or
//! passes; the declared shots are then resolved together, so a ship destroyed in a round
//! still fires what it declared (the actions are simultaneous). When every ship passes,
//! the next turn begins with the range phase.

use super::gunnery::{self, DamageReport};
use super::range::{
    Band, Direction, PairRange, RangeBoard, RangeRoll, move_range, range_order, steps_allowed,
};
use super::sheet::{ShipFacing, ShipSheet, ShipState, SystemRef};
use crate::battle::{AttackResult, BattleEvent, Standing, UnitId, Units, UnitsMut};
use crate::dice::{
    DiceName, DieRoller, Gather, Label, Modifier, RollModifiers, RollRecord, RollSense, d12_roll,
};
use bevy::ecs::entity::Entity;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// A ship's decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Action {
    /// Range phase: move the range to `target` `steps` steps (1, or 2 when the roll beat
    /// the enemy's by 6 or more) in `direction`.
    Range {
        /// The enemy.
        target: UnitId,
        /// Closer or farther.
        direction: Direction,
        /// How many steps: 1 or 2 (a saved decision without it means 1).
        #[serde(default = "one_step")]
        steps: u8,
    },
    /// Range phase: leave every range as it is.
    Hold,
    /// Action phase: fire the weapon at `weapon` on `target`, rolled with `gunner`'s
    /// gunnery and helped by each of `helpers` (crew indices, each used once a turn).
    Fire {
        /// The weapon system.
        weapon: SystemRef,
        /// The enemy.
        target: UnitId,
        /// The crewman who fires.
        gunner: u8,
        /// Crewmen who add their gunnery skill to the roll.
        helpers: Vec<u8>,
    },
    /// Action phase: no (more) full actions this round.
    Pass,
    /// Action phase: crewman `crewman` (not the pilot, not yet used this turn) spends the
    /// turn making the next range roll easier: next turn the pilot's roll adds their
    /// piloting to its bonus (starship-d12-quick-reference.txt, "Actions": "making further
    /// skill rolls easier", as a helper adds gunnery to a shot).
    HelpPilot {
        /// The crewman.
        crewman: u8,
    },
}

fn one_step() -> u8 {
    1
}

/// Where the turn stands.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Phase {
    /// Before the first turn.
    #[default]
    Start,
    /// The range phase: pilots in the cursor's order (highest roll first) move ranges in
    /// turn; each ship's roll and who moved against it are on its [`ShipState`].
    Range,
    /// An action round: ships declare in `order`; declarations wait for the round's end.
    Actions {
        /// Action round of this turn, from 1.
        round: u32,
        /// Declarations so far, in order.
        declared: Vec<(UnitId, Action)>,
    },
}

/// Who waits for what.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cursor {
    /// Ships in the order they decide this phase.
    pub order: Vec<UnitId>,
    /// Position in `order` of the next ship to decide.
    pub next: usize,
}

/// What a starship-d12 battle shares between its ships: the range between each pair of
/// enemies (keyed by their entities), the phase, whose decision comes next and the turn.
/// Each ship's sheet and state are components on its entity, read and changed through
/// [`Ships`] and [`ShipsMut`].
#[derive(bevy::ecs::resource::Resource, Clone, Debug, Default)]
pub struct Fleet {
    /// Sides (by index) that may break off and escape.
    pub may_flee: Vec<bool>,
    /// The range between each pair of enemies, by their entities.
    pub ranges: RangeBoard,
    /// The phase.
    pub phase: Phase,
    /// Who decides next.
    pub cursor: Cursor,
    /// Turn number, from 1.
    pub turn: u32,
    /// Nobody reads the log (a preview: the systems set it from `CombatLog::keep`): the
    /// events only the log reads are left out and the words of the others (labels,
    /// modifiers' names) are not put together. Rolls, outcomes and statistics are the
    /// same either way.
    pub quiet: bool,
}

/// The ships of a starship-d12 battle, read by unit id: each one's [`ShipSheet`] and
/// [`ShipState`] (a battle world, or the systems' query).
pub trait Ships: Units<ShipSheet, ShipState> {
    /// True while the ship is in the fight.
    fn in_fight(&self, id: UnitId) -> bool {
        self.state_of(id).is_some_and(ShipState::in_fight)
    }

    /// Ships in the fight, in unit order.
    fn fighting(&self) -> Vec<UnitId> {
        self.ids().filter(|&i| self.in_fight(i)).collect()
    }

    /// Enemies of `me` still in the fight, in unit order.
    fn enemies(&self, me: UnitId) -> Vec<UnitId> {
        self.enemy_ids(me).collect()
    }

    /// How many enemies of `me` are still in the fight ([`Ships::enemies`]' length).
    fn enemy_count(&self, me: UnitId) -> usize {
        self.enemy_ids(me).count()
    }

    /// The enemies of `me` still in the fight, in id order ([`Ships::enemies`]).
    fn enemy_ids(&self, me: UnitId) -> impl Iterator<Item = UnitId> {
        let side = self.side_of(me);
        self.ids()
            .filter(move |&i| self.in_fight(i) && self.side_of(i) != side)
    }

    /// A ship's state in a few words for `run`'s closing lines: ", shields 2, armour 0,
    /// systems 14/20 HP".
    fn ship_line(&self, id: UnitId) -> String {
        match (self.state_of(id), self.sheet_of(id)) {
            (Some(s), Some(sheet)) => format!(
                ", shields {}, armour {}, systems {}/{} HP",
                s.shields,
                s.armour,
                s.structure(),
                sheet.structure()
            ),
            _ => String::new(),
        }
    }

    /// The standing a ship's state gives its entity.
    fn standing(&self, id: UnitId) -> Standing {
        match self.state_of(id) {
            Some(s) if s.destroyed => Standing::Destroyed,
            Some(s) if s.escaped => Standing::Escaped,
            _ => Standing::Fighting,
        }
    }
}
impl<T: Units<ShipSheet, ShipState> + ?Sized> Ships for T {}

/// [`Ships`] whose states the rules may change.
pub trait ShipsMut: UnitsMut<ShipSheet, ShipState> + Ships {}
impl<T: UnitsMut<ShipSheet, ShipState> + ?Sized> ShipsMut for T {}

/// A missile launched in this action round: an entity from its launch to the round's end,
/// when it strikes (after the beams) or is lost with its target.
#[derive(bevy::ecs::component::Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Missile {
    /// The entity of the ship that launched it.
    pub from: Entity,
    /// The entity of its target.
    pub target: Entity,
    /// The launcher.
    pub launcher: SystemRef,
}

/// What a step of the turn did, for the systems to mirror.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// A ship must decide.
    Awaiting(UnitId),
    /// A phase or action round ended (resolution happened); call again.
    Advanced,
    /// The turn is over (everyone passed).
    TurnOver,
}

impl Fleet {
    /// The range between `a` and `b`, if they are a pair of enemies.
    pub fn range(&self, ships: &impl Ships, a: UnitId, b: UnitId) -> Option<PairRange> {
        let (ea, eb) = (ships.entity_of(a)?, ships.entity_of(b)?);
        let r = self.ranges.get(ea, eb)?;
        // The tailer is one of the pair: named without a search when it is.
        Some(r.map(|e| match e {
            e if e == ea => Some(a),
            e if e == eb => Some(b),
            e => ships.unit_of(e),
        }))
    }

    /// The band between `a` and `b` (Escaped when they are not a pair).
    pub fn band(&self, ships: &impl Ships, a: UnitId, b: UnitId) -> Band {
        self.range(ships, a, b).map_or(Band::Escaped, |r| r.band)
    }

    /// True when `a` sits on `b`'s tail.
    pub fn tails(&self, ships: &impl Ships, a: UnitId, b: UnitId) -> bool {
        self.range(ships, a, b).is_some_and(|r| r.tailer == Some(a))
    }

    /// Sets the range between `a` and `b` (at Tailing, `tailer` sits on the other's tail).
    pub fn set_range(
        &mut self,
        ships: &impl Ships,
        a: UnitId,
        b: UnitId,
        band: Band,
        tailer: Option<UnitId>,
    ) {
        if let (Some(ea), Some(eb)) = (ships.entity_of(a), ships.entity_of(b)) {
            let tailer = tailer.and_then(|t| ships.entity_of(t));
            self.ranges.set(ea, eb, band, tailer);
        }
    }

    /// Every pair of enemies with its range, by unit ids.
    pub fn pairs(&self, ships: &impl Ships) -> Vec<(UnitId, UnitId, PairRange)> {
        let mut v: Vec<_> = self
            .ranges
            .pairs()
            .filter_map(|(a, b, r)| {
                let (a, b) = (ships.unit_of(a)?, ships.unit_of(b)?);
                Some((a.min(b), a.max(b), r.map(|e| ships.unit_of(e))))
            })
            .collect();
        v.sort_by_key(|(a, b, _)| (*a, *b));
        v
    }

    /// The roll total of `id` in this range phase.
    pub fn range_roll(&self, ships: &impl Ships, id: UnitId) -> Option<i32> {
        match &self.phase {
            Phase::Range => ships.state_of(id).map(|s| s.range_roll),
            _ => None,
        }
    }

    /// What a shot of `me`'s `weapon` at `target` is rolled with: the crew's modifiers
    /// and the number needed (the band's difficulty plus the target's defence;
    /// starship-d12-quick-reference.txt, "Gunnery Difficulties"). `None` when the weapon
    /// cannot reach the band.
    pub fn shot_terms(
        &self,
        ships: &impl Ships,
        me: UnitId,
        weapon: SystemRef,
        target: UnitId,
        gunner: u8,
        helpers: &[u8],
    ) -> Option<(Vec<Modifier>, i32)> {
        let need = self.shot_need(ships, me, weapon, target)?;
        Some((ships.sheet_of(me)?.shot_modifiers(gunner, helpers), need))
    }

    /// The number a shot of `me`'s `weapon` at `target` needs ([`Fleet::shot_terms`]).
    fn shot_need(
        &self,
        ships: &impl Ships,
        me: UnitId,
        weapon: SystemRef,
        target: UnitId,
    ) -> Option<i32> {
        let sheet = ships.sheet_of(me)?;
        let stats = sheet.systems.get(sheet.find(weapon)?)?.weapon.as_ref()?;
        let defence = ships.sheet_of(target)?.defence;
        gunnery::difficulty(self.band(ships, me, target), stats, defence)
    }

    /// Pushes the event `make` makes, one only the combat log reads, unless the fleet is
    /// [`Fleet::quiet`].
    fn log_only(&self, events: &mut Vec<BattleEvent>, make: impl FnOnce() -> BattleEvent) {
        crate::battle::log_only(events, self.quiet, make);
    }

    /// The exact chance that `action` (a shot) hits, and its expected damage, from the
    /// same terms the shot is rolled with ([`Fleet::shot_terms`], [`gunnery::odds`]):
    /// what the action panel shows. `None` for any other action.
    pub fn shot_odds(&self, ships: &impl Ships, me: UnitId, action: &Action) -> Option<(f64, f64)> {
        let Action::Fire {
            weapon,
            target,
            gunner,
            helpers,
        } = action
        else {
            return None;
        };
        let sheet = ships.sheet_of(me)?;
        let stats = sheet.systems.get(sheet.find(*weapon)?)?.weapon.as_ref()?;
        let (mods, need) = self.shot_terms(ships, me, *weapon, *target, *gunner, helpers)?;
        let bonus = mods.iter().map(|m| m.value).sum();
        Some(gunnery::odds(bonus, need, stats))
    }

    /// Every action the rules allow `me` now, as the action panel and the AI list them.
    /// Shots are listed with the best unused gunner and the crew to spare as helpers (any
    /// other choice of unused crew is legal too: see [`Fleet::check`]).
    pub fn legal_actions(&self, ships: &impl Ships, me: UnitId) -> Vec<Action> {
        match &self.phase {
            Phase::Range => {
                let mut v = vec![Action::Hold];
                let roll = |id: UnitId| ships.state_of(id).map_or(0, |s| s.range_roll);
                let (Some(sheet), Some(ship)) = (ships.sheet_of(me), ships.state_of(me)) else {
                    return v;
                };
                if !ship.can_manoeuvre(sheet) {
                    return v;
                }
                for e in ships.enemies(me) {
                    if ship.moved_against.contains(&ships.entity(e)) {
                        continue;
                    }
                    let r = self.band(ships, me, e);
                    if r == Band::Escaped {
                        continue;
                    }
                    let most = steps_allowed(roll(me), roll(e));
                    for direction in [Direction::Closer, Direction::Farther] {
                        let mut last = r;
                        for steps in 1..=most {
                            let band = r.moved(match direction {
                                Direction::Closer => -steps,
                                Direction::Farther => steps,
                            });
                            if band == last {
                                break;
                            }
                            last = band;
                            v.push(Action::Range {
                                target: e,
                                direction,
                                steps: steps as u8,
                            });
                        }
                    }
                }
                v
            }
            Phase::Actions { .. } => {
                let mut v = vec![Action::Pass];
                v.extend(self.shots(ships, me));
                v.extend(
                    Self::pilot_helpers(ships, me)
                        .into_iter()
                        .map(|crewman| Action::HelpPilot { crewman }),
                );
                v
            }
            Phase::Start => Vec::new(),
        }
    }

    /// Why `me` has no range move in this range phase (for the action panel).
    pub fn why_no_range_move(ships: &impl Ships, me: UnitId) -> String {
        let engines = ships
            .sheet_of(me)
            .zip(ships.state_of(me))
            .is_some_and(|(sheet, ship)| ship.can_manoeuvre(sheet));
        if !engines {
            "No range move: no working engine.".into()
        } else if ships.enemies(me).is_empty() {
            "No range move: no enemy left in the fight.".into()
        } else {
            "No range move: every enemy has moved the range against you this turn (you may \
             not move against a ship that moved against you) or is out of reach (escaped)."
                .into()
        }
    }

    /// What decides which of `me`'s weapons can bear on `target` ([`can_fire`]): the band and whether `target` sits on `me`'s tail; `None` when `target` is not an
    /// enemy in the fight.
    fn aim(&self, ships: &impl Ships, me: UnitId, target: UnitId) -> Option<(Band, bool)> {
        if !ships.in_fight(target) || ships.side_of(target) == ships.side_of(me) {
            return None;
        }
        // One look at the pair: its band, and whether `target` is its tailer.
        let range = self.range(ships, me, target);
        let band = range.map_or(Band::Escaped, |r| r.band);
        Some((band, range.is_some_and(|r| r.tailer == Some(target))))
    }

    /// Unused crew of `me`, best gunnery first (equal: crew order).
    pub fn free_crew(ships: &impl Ships, me: UnitId) -> Vec<u8> {
        let (Some(sheet), Some(ship)) = (ships.sheet_of(me), ships.state_of(me)) else {
            return Vec::new();
        };
        let mut v: Vec<u8> = (0..sheet.crew.len() as u8)
            .filter(|&c| !ship.crew_used[usize::from(c)])
            .collect();
        v.sort_by_key(|&c| (-sheet.crew[usize::from(c)].gunnery, c));
        v
    }

    /// Unused crew of `me` who may help its pilot's next range roll (everyone but the
    /// pilot), best piloting first (equal: crew order).
    pub fn pilot_helpers(ships: &impl Ships, me: UnitId) -> Vec<u8> {
        let (Some(sheet), Some(ship)) = (ships.sheet_of(me), ships.state_of(me)) else {
            return Vec::new();
        };
        let pilot = sheet.pilot();
        let mut v: Vec<u8> = (0..sheet.crew.len())
            .filter(|&c| c != pilot && !ship.crew_used[c])
            .map(|c| c as u8)
            .collect();
        v.sort_by_key(|&c| (-sheet.crew[usize::from(c)].piloting, c));
        v
    }

    /// The shots `me` can declare, with the default crew: the best unused gunner, and as
    /// helpers the unused crew beyond one gunner for each weapon that can still fire.
    pub fn shots(&self, ships: &impl Ships, me: UnitId) -> Vec<Action> {
        let crew = Self::free_crew(ships, me);
        let Some(&gunner) = crew.first() else {
            return Vec::new();
        };
        let (Some(sheet), Some(ship)) = (ships.sheet_of(me), ships.state_of(me)) else {
            return Vec::new();
        };
        // Each enemy in unit order, with what decides the weapons that bear on it.
        let aims: Vec<(UnitId, (Band, bool))> = ships
            .ids()
            .filter_map(|e| Some((e, self.aim(ships, me, e)?)))
            .collect();
        let bears = |i: usize, aim: (Band, bool)| can_fire(sheet, ship, i, aim);
        let usable = (0..sheet.systems.len())
            .filter(|&i| aims.iter().any(|&(_, aim)| bears(i, aim)))
            .count();
        let spare = crew.len().saturating_sub(usable.max(1));
        let helpers: Vec<u8> = crew[1..].iter().rev().take(spare).rev().copied().collect();
        let mut v = Vec::new();
        for &(e, aim) in &aims {
            for w in (0..sheet.systems.len()).filter(|&i| bears(i, aim)) {
                v.push(Action::Fire {
                    weapon: sheet.systems[w].at,
                    target: e,
                    gunner,
                    helpers: helpers.clone(),
                });
            }
        }
        v
    }

    /// Checks a command of `me` against the rules; the reason when it is refused.
    pub fn check(&self, ships: &impl Ships, me: UnitId, action: &Action) -> Result<(), String> {
        match action {
            Action::Fire {
                weapon,
                target,
                gunner,
                helpers,
            } => {
                let Some(sheet) = ships.sheet_of(me) else {
                    return Err("no such ship".into());
                };
                if !matches!(self.phase, Phase::Actions { .. }) {
                    return Err("ships fire in the action phase".into());
                }
                let Some(w) = sheet.find(*weapon) else {
                    return Err(format!("no system {weapon:?}"));
                };
                let ship = ships.state_of(me);
                let bears = ship.zip(self.aim(ships, me, *target));
                if !bears.is_some_and(|(ship, aim)| can_fire(sheet, ship, w, aim)) {
                    return Err(format!(
                        "{} cannot fire at {} now (not a working weapon, fired already, out of missiles, out of range, or not facing a ship on the tail)",
                        sheet.systems[w].name,
                        ships.name_of(*target)
                    ));
                }
                // Unused crew ([`Fleet::free_crew`]'s).
                let free = |c: &u8| {
                    let c = usize::from(*c);
                    c < sheet.crew.len() && ship.is_some_and(|s| !s.crew_used[c])
                };
                let mut seen = vec![*gunner];
                for h in helpers {
                    if seen.contains(h) {
                        return Err("a crewman is named twice".into());
                    }
                    seen.push(*h);
                }
                if let Some(busy) = seen.iter().find(|c| !free(c)) {
                    return Err(format!(
                        "crewman {busy} has acted this turn already or does not exist"
                    ));
                }
                Ok(())
            }
            // Holding and passing are always legal in their phases.
            Action::Hold if self.phase == Phase::Range => Ok(()),
            Action::Pass if matches!(self.phase, Phase::Actions { .. }) => Ok(()),
            _ if self.legal_actions(ships, me).contains(action) => Ok(()),
            Action::Range { target, steps, .. } => Err(format!(
                "the range to {} cannot be changed that way now{}",
                ships.name_of(*target),
                if *steps > 1 {
                    " (two steps need a roll 6 or more above theirs)"
                } else {
                    ""
                }
            )),
            Action::Hold => Err("holding is for the range phase".into()),
            Action::Pass => Err("passing is for the action phase".into()),
            Action::HelpPilot { crewman } => Err(format!(
                "crewman {crewman} cannot help the pilot now (helping is an action of the \
                 action phase, by a crewman other than the pilot not yet used this turn)"
            )),
        }
    }

    /// The words for an action in the log.
    pub fn describe(ships: &impl Ships, me: UnitId, action: &Action) -> String {
        match action {
            Action::Range {
                target,
                direction,
                steps,
            } => format!(
                "{} the range to {}{}",
                match direction {
                    Direction::Closer => "closes",
                    Direction::Farther => "opens",
                },
                ships.name_of(*target),
                if *steps > 1 { " by two steps" } else { "" }
            ),
            Action::Hold => "holds the range".into(),
            Action::Pass => "passes".into(),
            Action::HelpPilot { crewman } => {
                let name = ships
                    .sheet_of(me)
                    .and_then(|s| s.crew.get(usize::from(*crewman)))
                    .map_or("?".to_string(), |c| c.name.clone());
                format!("{name} helps the pilot with next turn's range roll")
            }
            Action::Fire {
                weapon,
                target,
                gunner,
                helpers,
            } => {
                let sheet = ships.sheet_of(me);
                let w = sheet
                    .and_then(|s| s.find(*weapon).map(|i| s.systems[i].name.clone()))
                    .unwrap_or_default();
                let crew = |c: &u8| {
                    sheet
                        .and_then(|s| s.crew.get(usize::from(*c)))
                        .map_or("?".to_string(), |c| c.name.clone())
                };
                let mut text = format!(
                    "fires {w} at {} ({} on the gun",
                    ships.name_of(*target),
                    crew(gunner)
                );
                if !helpers.is_empty() {
                    let names: Vec<String> = helpers.iter().map(crew).collect();
                    text.push_str(&format!(", helped by {}", names.join(", ")));
                }
                text.push(')');
                text
            }
        }
    }

    /// Starts a new turn: clears what the ships used, and rolls every pilot's range roll
    /// (the pilot's piloting plus edges; a ship whose engines are all out rolls nothing).
    pub fn begin_turn(
        &mut self,
        ships: &mut impl ShipsMut,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        self.turn += 1;
        for id in ships.ids() {
            if let Some(s) = ships.state_mut(id) {
                s.new_turn();
            }
        }
        let mut ranked = Vec::new();
        for id in ships.fighting() {
            let (Some(sheet), Some(ship)) = (ships.sheet_of(id).cloned(), ships.state_of(id))
            else {
                continue;
            };
            if !ship.can_manoeuvre(&sheet) {
                self.log_only(events, || BattleEvent::Note {
                    unit: Some(id),
                    text: "has no working engine: cannot change the range".into(),
                });
                continue;
            }
            let pilot = &sheet.crew[sheet.pilot()];
            let help = &ship.pilot_help;
            let mods = RollModifiers::of(self.quiet, |mods| gather_piloting(&sheet, help, mods));
            let roll = d12_roll(dice, mods, None, false);
            if let Some(s) = ships.state_mut(id) {
                s.range_roll = roll.total;
                s.pilot_help.clear();
            }
            ranked.push(RangeRoll {
                unit: id,
                natural_12: roll.faces.first() == Some(&12),
                total: roll.total,
                piloting: pilot.piloting,
            });
            self.log_only(events, || BattleEvent::Roll {
                unit: id,
                purpose: Cow::Borrowed("piloting for range"),
                result: Cow::Owned(format!("total {}", roll.total)),
                roll,
            });
        }
        self.cursor = Cursor {
            order: range_order(&ranked),
            next: 0,
        };
        self.phase = Phase::Range;
    }

    /// Moves the turn on: the next ship to decide, or the end of a phase or action round
    /// (resolving the round's shots), or the end of the turn.
    pub fn advance(
        &mut self,
        ships: &mut impl ShipsMut,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) -> Step {
        while self.cursor.next < self.cursor.order.len() {
            let id = self.cursor.order[self.cursor.next];
            if ships.in_fight(id) {
                return Step::Awaiting(id);
            }
            self.cursor.next += 1;
        }
        match std::mem::take(&mut self.phase) {
            Phase::Start => {
                self.phase = Phase::Start;
                Step::TurnOver
            }
            Phase::Range => {
                self.escapes(ships, events);
                self.start_actions(ships, 1);
                Step::Advanced
            }
            Phase::Actions { round, declared } => {
                let all_passed = declared.iter().all(|(_, a)| *a == Action::Pass);
                self.resolve_round(ships, &declared, dice, events);
                if all_passed {
                    self.phase = Phase::Start;
                    Step::TurnOver
                } else {
                    self.start_actions(ships, round + 1);
                    Step::Advanced
                }
            }
        }
    }

    fn start_actions(&mut self, ships: &impl Ships, round: u32) {
        // Ships decide in the range phase's order (pilots' rolls), then any others.
        let mut order: Vec<UnitId> = std::mem::take(&mut self.cursor.order);
        for id in ships.ids().filter(|&id| ships.in_fight(id)) {
            if !order.contains(&id) {
                order.push(id);
            }
        }
        order.retain(|&id| ships.in_fight(id));
        self.cursor = Cursor { order, next: 0 };
        self.phase = Phase::Actions {
            round,
            declared: Vec::new(),
        };
    }

    /// A ship that is at Escaped from every enemy, and broke off from one of them, leaves
    /// the fight; the enemies it left behind hold the field.
    fn escapes(&mut self, ships: &mut impl ShipsMut, events: &mut Vec<BattleEvent>) {
        for id in ships.fighting() {
            let enemies = ships.enemies(id);
            let out = |e: UnitId| self.band(ships, id, e) == Band::Escaped;
            let left = |e: UnitId| {
                ships
                    .state_of(id)
                    .is_some_and(|s| s.broke_off_from.contains(&ships.entity(e)))
            };
            if crate::battle::breaks_away(&enemies, out, left)
                && let Some(s) = ships.state_mut(id)
            {
                s.escaped = true;
                events.push(BattleEvent::StatusChanged {
                    unit: id,
                    standing: Standing::Escaped,
                    cause: Cow::Borrowed("escaped every enemy"),
                });
            }
        }
    }

    /// Applies the decision of the ship the turn waits for (checked already). Range moves
    /// take effect at once; shots are declared (crew and weapon marked used) and resolved
    /// at the end of the action round. A missile launched is returned, for the systems to
    /// give it its entity.
    pub fn apply(
        &mut self,
        ships: &mut impl ShipsMut,
        me: UnitId,
        action: Action,
        events: &mut Vec<BattleEvent>,
    ) -> Option<Missile> {
        self.cursor.next += 1;
        match (&self.phase, action) {
            (
                Phase::Range,
                Action::Range {
                    target,
                    direction,
                    steps,
                },
            ) => {
                let roll = |id: UnitId| ships.state_of(id).map_or(0, |s| s.range_roll);
                let (mine, theirs) = (roll(me), roll(target));
                let steps = i32::from(steps).min(steps_allowed(mine, theirs));
                let (mover, moved) = (ships.entity(me), ships.entity(target));
                if let Some(s) = ships.state_mut(target) {
                    s.moved_against.push(mover);
                }
                let before = self.range(ships, me, target)?;
                let after = move_range(before, me, direction, steps);
                self.set_range(ships, me, target, after.band, after.tailer);
                if after.band == Band::Escaped
                    && let Some(s) = ships.state_mut(me)
                {
                    s.broke_off_from.push(moved);
                }
                self.log_only(events, || {
                    let tail = match after.tailer {
                        Some(t) if t == me => format!(", on {}'s tail", ships.name_of(target)),
                        Some(_) => format!(", {} on its tail", ships.name_of(target)),
                        None => String::new(),
                    };
                    BattleEvent::Note {
                        unit: Some(me),
                        text: format!(
                            "range to {}: {} -> {} ({} step{}: roll {mine} against {theirs}){tail}",
                            ships.name_of(target),
                            before.band,
                            after.band,
                            steps,
                            if steps == 1 { "" } else { "s" }
                        ),
                    }
                });
                None
            }
            (Phase::Actions { .. }, action) => {
                let mut launched = None;
                let pair = match &action {
                    Action::Fire { target, .. } => {
                        ships.entity_of(me).zip(ships.entity_of(*target))
                    }
                    _ => None,
                };
                if let Action::Fire {
                    weapon,
                    gunner,
                    helpers,
                    ..
                } = &action
                    && let Some(sheet) = ships.sheet_of(me).cloned()
                    && let Some(ship) = ships.state_mut(me)
                {
                    if let Some(w) = sheet.find(*weapon) {
                        ship.fired[w] = true;
                        if sheet.systems[w]
                            .weapon
                            .as_ref()
                            .is_some_and(|w| w.missile.is_some())
                        {
                            ship.ammo[w] = ship.ammo[w].saturating_sub(1);
                            launched = pair.map(|(from, target)| Missile {
                                from,
                                target,
                                launcher: *weapon,
                            });
                        }
                    }
                    for c in std::iter::once(gunner).chain(helpers) {
                        if let Some(u) = ship.crew_used.get_mut(usize::from(*c)) {
                            *u = true;
                        }
                    }
                }
                if let Action::HelpPilot { crewman } = &action
                    && let Some(ship) = ships.state_mut(me)
                    && let Some(u) = ship.crew_used.get_mut(usize::from(*crewman))
                {
                    *u = true;
                    ship.pilot_help.push(*crewman);
                }
                if let Phase::Actions { declared, .. } = &mut self.phase {
                    declared.push((me, action));
                }
                launched
            }
            _ => None,
        }
    }

    /// Resolves the shots declared in an action round, in order: beams first, then
    /// missiles (they fly while the beams fire); every declared shot is fired even if its
    /// ship was destroyed earlier in the round.
    fn resolve_round(
        &self,
        ships: &mut impl ShipsMut,
        declared: &[(UnitId, Action)],
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        // Beams first, then missiles: which is which is read from the sheets alone, which
        // no shot changes.
        for missiles in [false, true] {
            for (me, action) in declared {
                if let Action::Fire {
                    weapon,
                    target,
                    gunner,
                    helpers,
                } = action
                    && launches_missile(&*ships, *me, action) == missiles
                {
                    self.fire(ships, *me, *weapon, *target, *gunner, helpers, dice, events);
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn fire(
        &self,
        ships: &mut impl ShipsMut,
        me: UnitId,
        weapon: SystemRef,
        target: UnitId,
        gunner: u8,
        helpers: &[u8],
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let Some(sheet) = ships.sheet_of(me).cloned() else {
            return;
        };
        let Some(w) = sheet.find(weapon) else { return };
        let system = &sheet.systems[w];
        let Some(stats) = system.weapon.clone() else {
            return;
        };
        if !ships.in_fight(target) {
            self.log_only(events, || BattleEvent::Note {
                unit: Some(me),
                text: format!("{}'s target is out of the fight: no shot", system.name),
            });
            return;
        }
        let Some(target_sheet) = ships.sheet_of(target).cloned() else {
            return;
        };
        let band = self.band(ships, me, target);
        let Some(need) = self.shot_need(ships, me, weapon, target) else {
            return;
        };
        let mods = RollModifiers::of(self.quiet, |mods| sheet.gather_shot(gunner, helpers, mods));
        let shot = gunnery::shoot(dice, mods, need, &stats);
        let die_total = shot.roll.total;
        let label = match (self.quiet, stats.missile.is_some(), band) {
            (true, ..) => Label::Static(""),
            (false, true, _) => Label::from(format!("{} (missile, needs {need})", system.name)),
            (false, false, b) => Label::from(format!("{} ({b} range, needs {need})", system.name)),
        };
        events.push(BattleEvent::Attack {
            attacker: me,
            target,
            weapon: label,
            roll: shot.roll,
            defenses: Vec::new(),
            result: if shot.hit {
                AttackResult::Hit
            } else {
                AttackResult::Miss
            },
        });
        if shot.sustained > 0 {
            // The roll shows the die total; Sustain raises it to the number needed, which
            // is why a total under it reads "success by 0".
            self.log_only(events, || BattleEvent::Note {
                unit: Some(me),
                text: format!(
                    "Sustain: +{} to the die total ({} -> {}, the {} needed) for {} damage \
                     (D {} -> {})",
                    shot.sustained,
                    die_total,
                    die_total + shot.sustained,
                    need,
                    shot.sustained * stats.sustain.unwrap_or(0),
                    stats.damage,
                    shot.damage
                ),
            });
        }
        if !shot.hit {
            return;
        }
        // "If you are at tailing range then the person firing gets to choose"
        // (starship-d12-quick-reference.txt, "After the shot"): the tailer or the tailed
        // ship alike.
        let attacker_picks =
            self.band(ships, me, target) == Band::Tailing || sheet.attacker_chooses();
        let Some(state) = ships.state_mut(target) else {
            return;
        };
        let chosen = if attacker_picks {
            gunnery::attacker_choice(&target_sheet, state, shot.damage)
        } else {
            gunnery::defender_choice(&target_sheet, state, shot.damage)
        };
        let before = state.structure();
        let report = gunnery::apply_damage(&target_sheet, state, shot.damage, chosen);
        let after = state.structure();
        let location = (!self.quiet).then(|| {
            let chosen_name = target_sheet
                .find(chosen)
                .map_or("?".to_string(), |i| target_sheet.systems[i].name.clone());
            format!(
                "{chosen_name} ({} facing; chosen by the {})",
                chosen.facing,
                if attacker_picks {
                    "attacker"
                } else {
                    "defender"
                }
            )
        });
        events.push(damage_event(
            me,
            target,
            shot.damage,
            &report,
            (before, after, target_sheet.structure()),
            location,
        ));
        if !self.quiet {
            let systems: Vec<String> = report
                .steps
                .iter()
                .filter(|s| s.what != "shields" && s.what != "armour")
                .map(|s| {
                    format!(
                        "{} takes {}{}",
                        s.what,
                        s.amount,
                        if s.disabled {
                            " and is out of action"
                        } else {
                            ""
                        }
                    )
                })
                .collect();
            if !systems.is_empty() {
                events.push(BattleEvent::Note {
                    unit: Some(target),
                    text: systems.join("; "),
                });
            }
        }
        if report.destroyed {
            events.push(BattleEvent::StatusChanged {
                unit: target,
                standing: Standing::Destroyed,
                cause: Cow::Borrowed("its core is gone"),
            });
        }
    }
}

/// True when the weapon at sheet index `i` of a ship can fire at a target at `band` (on
/// the ship's tail: `tailed`): working, not yet fired this turn, with a missile left if
/// a launcher, in reach, and at a ship on the tail a rear weapon or turret.
fn can_fire(sheet: &ShipSheet, ship: &ShipState, i: usize, (band, tailed): (Band, bool)) -> bool {
    let s = &sheet.systems[i];
    let Some(w) = &s.weapon else { return false };
    ship.works(sheet, i)
        && !ship.fired[i]
        && (w.missile.is_none() || ship.ammo[i] > 0)
        && gunnery::base_difficulty(band, w).is_some()
        && (!tailed || s.turret || s.at.facing == ShipFacing::Rear)
}

/// True when `a` fires a missile launcher of `me`'s.
fn launches_missile(ships: &impl Ships, me: UnitId, a: &Action) -> bool {
    match a {
        Action::Fire { weapon, .. } => ships
            .sheet_of(me)
            .and_then(|s| s.find(*weapon).map(|i| &s.systems[i]))
            .and_then(|s| s.weapon.as_ref())
            .is_some_and(|w| w.missile.is_some()),
        _ => false,
    }
}

/// The damage of a hit as a log event: D, less shields and armour (and what no system was
/// left to take), gives the hit points lost; hit points are the ship's systems' together.
/// Without a `location` (a quiet fleet's) only the numbers the statistics read are filled
/// in.
fn damage_event(
    attacker: UnitId,
    target: UnitId,
    damage: i32,
    report: &DamageReport,
    (before, after, max): (i32, i32, i32),
    location: Option<String>,
) -> BattleEvent {
    // Injury is the hit points lost; what no system was left to take (the hit that
    // destroys the ship) is a step of its own, so the steps add up to it.
    let lost = before - after;
    let steps = match location {
        Some(_) => {
            let mut steps: Vec<Modifier> = report
                .steps
                .iter()
                .filter(|s| s.what == "shields" || s.what == "armour")
                .map(|s| Modifier::named(s.what.clone(), -s.amount))
                .collect();
            if report.to_systems > lost {
                steps.push(Modifier::new(
                    "no system left to take it",
                    lost - report.to_systems,
                ));
            }
            steps
        }
        None => Vec::new(),
    };
    BattleEvent::Damage {
        attacker: Some(attacker),
        target,
        roll: RollRecord {
            drawn: Default::default(),
            dice: DiceName::Fixed("D"),
            faces: vec![damage.max(0) as u32],
            extra: Vec::new(),
            sense: RollSense::Over,
            modifiers: Vec::new(),
            total: damage,
            target: None,
            target_parts: Vec::new(),
            margin: None,
            success: None,
            critical: None,
        },
        damage_type: Cow::Borrowed("damage"),
        steps,
        injury: lost,
        hp_before: before,
        hp_after: after,
        hp_max: max,
        location: location.map(Cow::Owned),
    }
}

/// The modifiers of a pilot's range roll: the pilot's piloting, the edges' piloting
/// bonuses and the piloting of each crewman in `help` (who helped last turn).
fn gather_piloting(sheet: &ShipSheet, help: &[u8], mods: &mut impl Gather) {
    let pilot = &sheet.crew[sheet.pilot()];
    mods.push_named(pilot.piloting, || format!("{} piloting", pilot.name));
    for e in sheet.edges.iter().filter(|e| e.piloting != 0) {
        mods.push_named(e.piloting, || e.name.clone());
    }
    for &c in help {
        if let Some(helper) = sheet.crew.get(usize::from(c)) {
            mods.push_named(helper.piloting, || format!("{} helps", helper.name));
        }
    }
}

#[cfg(test)]
mod damage_line_tests {
    use super::*;
    use crate::rules::starship_d12::gunnery::DamageStep;

    /// The damage paragraphs after "After the shot": D 9 less shields 2 leaves 7 for the
    /// systems, which have 5 left: the ship is destroyed. The line's injury is the 5 hit
    /// points lost, and the 2 no system took are a step of their own, so the steps add up.
    #[test]
    fn a_destroying_hit_s_steps_add_up_to_the_hit_points_lost() {
        let step = |what: &str, amount| DamageStep {
            what: what.into(),
            amount,
            disabled: false,
        };
        let report = DamageReport {
            steps: vec![step("shields", 2), step("bridge", 5)],
            to_systems: 7,
            destroyed: true,
        };
        let event = damage_event(
            UnitId(0),
            UnitId(1),
            9,
            &report,
            (5, 0, 20),
            Some("x".into()),
        );
        let BattleEvent::Damage { steps, injury, .. } = event else {
            panic!("a damage event");
        };
        assert_eq!(injury, 5);
        let steps: Vec<(String, i32)> = steps
            .iter()
            .map(|m| (m.label.to_string(), m.value))
            .collect();
        assert_eq!(
            steps,
            [
                ("shields".into(), -2),
                ("no system left to take it".into(), -2)
            ]
        );
        assert_eq!(9 + steps.iter().map(|m| m.1).sum::<i32>(), injury);
    }
}
