//! The battle state of Vergeworlds and its rules of play (vergeworlds-rough-methods.txt,
//! "Combat"): rounds of Action Points, turns of one or more actions with an attitude,
//! attacks with their defenses and Mana, damage to mooks and major characters, movement
//! on foot and at high speed, Breath, grappling, area fire and grenades.
//!
//! Decisions where the text leaves play to the referee:
//! - A turn is paid (5 AP) when it starts; the character then takes actions until it ends
//!   the turn. Moving up to Base Move is free; faster is a Run action (one a turn).
//! - Ties in Action Points are broken by a Coordination contest rolled when needed; a tie
//!   there goes to the lower unit number (the text's simultaneous turns are not modelled).
//! - A waiting character keeps its Action Points and acts before the next turn once an
//!   enemy is within its reach or sight. When that happens during a foe's turn, after one
//!   of the foe's actions, it tries once to interrupt ("Wait": opposed Reaction Time, +2
//!   when the foe, more than a step away, has only melee or thrown weapons); winning, it
//!   takes its turn and the foe's turn goes on afterwards.
//! - Extra effort +2 that fails its DC 7 Spirit roll still gives the +1 that one of its two
//!   Breath points buys.
//! - Grappling holds on a body part are not tracked: strangle and choke need Control on the
//!   foe (a grab) and are taken to be on the neck. A strangled character that loses its
//!   Strength contest loses 1 Breath that turn (the text gives suffocation no numbers); the
//!   "Mild Shock" level of a choke is taken as choking Fatigue equal to the Stamina.
//! - A pickup is a takedown whose Control penalty must reach the text's quick estimate
//!   (gear neglected); the automatic pickup of very light foes is not modelled, since stat
//!   blocks carry no encumbrance limits. A takedown of a lifted foe needs no roll and slams
//!   it into the ground as a smash.
//! - A defense may take one step ("Moving while Defending"): a retreat steps away from the
//!   melee attacker, a duck steps into the best cover next to the defender. Off its own
//!   turn the step counts as walked at the start of the defender's next turn.
//! - A Careful Aim shot that would miss by three degrees or less is always held back.
//! - Flying a turn is free when gliding or floating ("Flight:": effortless, no Run); with
//!   thrust it is an action, like a Run. A floater rises or sinks toward its neutral
//!   altitude by up to its Maneuver a turn.
//! - Mooks of one template on one side share their starting Action Point roll.
//! - A player's characters are asked how to defend and whether to spend Mana; the AI's
//!   answer by the policy of [`super::ai`].
//! - Cover terrain gives its cover to the hex it is in (light −1, half −2, heavy −3); a
//!   shot that misses only because of cover goes through the cover as a barrier (2d6 at
//!   +1 RS) and hits a random location ("Cover").
//! - Misses and over-penetration fly on as area fire along the line of fire, past the
//!   target, up to the weapon's maximum range ("Misses", "Over-Penetration").
//! - Grenades burst where they land: fragmentation as area fire with Spread 0 against every
//!   character within 8 m ("Fragmentation").
//! - Fatigue from acting without Breath is counted in fifths and shown; the text gives it
//!   no further effect here.

use super::combat::{
    self, Attitude, Location, Start, TURN_AP, base_difficulty, carried_over, control_penalty,
    locate, multiple_action_penalty, range_score, speed_defense_bonus, speed_penalty,
};
use super::flight::{Column, GlideChoice, GlideState, Glider, glide_turn};
use super::injury::{self, Hurt, Injury};
use super::score::{score, shift};
use super::sheet::{VwStats, Weapon, WeaponKind};
use super::task;
use super::vector::{self, Steer, Vector};
use crate::battle::{AttackResult, BattleEvent, DefenseRecord, Standing, UnitId, hex_pair};
use crate::dice::{DieRoller, Modifier, RollRecord, open_ended_2d6};
use crate::hexmap::{HexMap, Terrain};
use bevy::ecs::resource::Resource;
use hexx::Hex;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::sync::Arc;

/// The dice name of an injury record (the log shows injuries by it).
pub const INJURY_DICE: crate::dice::DiceName = crate::battle::INJURY_DAMAGE;

/// Meters around a burst that fragments reach.
pub const FRAG_RADIUS: u32 = 8;

/// A grappling move ("Grappling").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GrappleMode {
    /// Grab: Control points on the foe.
    Grab,
    /// Escape: remove Control on yourself.
    Escape,
    /// Shove: a Coordination penalty on the foe's next turn and a step for every 2.
    Shove,
    /// Takedown: with a penalty of 3 or more the foe goes prone.
    Takedown,
    /// Throw: on the first action after defending against this foe, a shove and takedown
    /// with the Control row-shifted by the foe's own Brawn.
    Throw,
    /// Pickup: lift a held foe whose weight the grappler can carry.
    Pickup,
    /// Strangle: a held foe must win a Strength contest each turn or suffocate, and takes
    /// unarmed damage to the neck.
    Strangle,
    /// Choke: a held foe makes a Vigor check each turn or takes choking Fatigue.
    Choke,
}

/// How a character defends against an attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DefenseKind {
    /// A plain defense roll.
    Normal,
    /// Step back from a melee attack: +1.
    Retreat,
    /// Dive prone against a ranged attack: +1, and prone afterwards.
    DiveProne,
    /// Duck behind cover in the own hex: +1.
    DuckCover,
    /// No defense: the roll counts as 2 (no action borrowed).
    None,
}

impl DefenseKind {
    /// Its name.
    pub fn word(self) -> &'static str {
        match self {
            DefenseKind::Normal => "defend",
            DefenseKind::Retreat => "retreat",
            DefenseKind::DiveProne => "dive prone",
            DefenseKind::DuckCover => "duck behind cover",
            DefenseKind::None => "no defense",
        }
    }
}

/// What to do with Mana on the roll asked about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ManaChoice {
    /// Spend nothing.
    Keep,
    /// Raise (or lower) the roll by up to 4.
    Adjust(i32),
    /// Roll again and keep the better.
    Reroll,
    /// Make the Penetration Limit roll a 2.
    FixLimit,
}

/// A flier's turn ("Gliding in Tactical Movement", "Powered Flight").
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Fly {
    /// Glide-table columns from the flier's own: negative dives steeper, positive flattens;
    /// `level` overrides it.
    pub columns: i32,
    /// Fly level (no descent, no gravity's pull).
    pub level: bool,
    /// Climb along the column instead of descending.
    pub climb: bool,
    /// Flaps, RS of drag (0 to Lift Aid).
    pub flaps: u8,
    /// Powered thrust along the path, m a turn (up to the flying Maneuver).
    pub thrust: u32,
    /// 60° turns (each costs the current speed out of the Maneuver), clockwise positive.
    pub turns: i32,
    /// Drifts, clockwise positive.
    pub drift: i32,
}

/// An attack as declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attack {
    /// Weapon index in the sheet; `None`: unarmed.
    pub weapon: Option<usize>,
    /// Target.
    pub target: UnitId,
    /// Aimed location.
    pub aim: Location,
    /// Careful Aim (ranged, one shot, no more than a step moved).
    pub careful: bool,
    /// Shots (rapid fire).
    pub shots: u32,
    /// Extra effort: 1 or 2 more Brawn for Breath ("Extra Effort").
    pub effort: u8,
}

/// A decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Action {
    /// Choose the turn's attitude (first, free).
    Attitude(Attitude),
    /// Walk to a hex within Base Move (free).
    Move((i32, i32)),
    /// Run to a hex: an action; beyond a quarter of the Maneuver, gain a vector.
    Run((i32, i32)),
    /// Steer the movement vector: speed change, turns, drifts.
    Steer(Steer),
    /// Fly a turn (gliders and powered fliers in the air).
    Fly(Fly),
    /// Attack a character.
    Attack(Attack),
    /// Fire into an area, or throw a grenade at a spot.
    AreaFire {
        /// Weapon index.
        weapon: usize,
        /// The hex aimed at.
        at: (i32, i32),
        /// Shots.
        shots: u32,
    },
    /// Grapple a character.
    Grapple {
        /// Target.
        target: UnitId,
        /// Which move.
        mode: GrappleMode,
    },
    /// A Defend action: one more defense without penalty until the next turn.
    Defend,
    /// Evade: one defense roll against every attack until the next turn.
    Evade,
    /// Focus: +2 on the next action (ends the turn).
    Focus,
    /// Wait: keep the Action Points and act when an enemy comes within reach.
    Wait,
    /// Recovery: a DC 6 Vigor check for one Breath (the whole turn).
    Recovery,
    /// Concentrate on a task that takes the character's full attention: the turn's
    /// actions are spent.
    Concentrate,
    /// Get up from prone.
    GetUp,
    /// Reload a weapon.
    Reload(usize),
    /// Draw a weapon.
    Draw(usize),
    /// End the turn.
    EndTurn,
    /// Answer: how to defend.
    Defense(DefenseKind),
    /// Answer: Mana on the roll asked about.
    Mana(ManaChoice),
}

/// A Penetration Limit roll of a hit ("Penetration Limit").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LimitRoll {
    /// Where the hit landed.
    pub loc: Location,
    /// The 2d6 roll, goodies and Mana included.
    pub roll: i32,
    /// The Penetration Limit it gives.
    pub limit: f64,
}

/// What the battle asks of a character between turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prompt {
    /// How to defend against the pending attack.
    Defend(UnitId),
    /// Whether to spend Mana on the attack roll that missed.
    ManaAttack(UnitId),
    /// Whether to spend Mana on the defense roll that was beaten.
    ManaDefense(UnitId),
    /// Whether to spend Mana to make the Penetration Limit roll a 2.
    ManaLimit(UnitId),
}

impl Prompt {
    /// Who answers.
    pub fn unit(self) -> UnitId {
        match self {
            Prompt::Defend(u)
            | Prompt::ManaAttack(u)
            | Prompt::ManaDefense(u)
            | Prompt::ManaLimit(u) => u,
        }
    }
}

/// How worn a piece of armor is.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Wear {
    /// Least activation now.
    pub activation: i32,
    /// RS lost.
    pub loss: f64,
    /// Destroyed.
    pub destroyed: bool,
}

/// A character's state in the battle.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UnitState {
    /// Hex.
    pub pos: Hex,
    /// Altitude, m.
    pub alt: f64,
    /// Action Points.
    pub ap: i32,
    /// Breath points.
    pub breath: i32,
    /// Fatigue in fifths of a point.
    pub fatigue: i32,
    /// Mana left.
    pub mana: u32,
    /// Injuries.
    pub injuries: Vec<Injury>,
    /// Fighting, down or dead.
    pub hurt: Hurt,
    /// Prone.
    pub prone: bool,
    /// This turn's attitude.
    pub attitude: Attitude,
    /// Whether the attitude was chosen this turn.
    pub attitude_chosen: bool,
    /// Movement vector, at high speed (fliers: the heading and the ground speed).
    pub vector: Option<Vector>,
    /// A flier's airspeed, glide column and stall.
    pub air: Option<GlideState>,
    /// Meters moved this turn.
    pub moved: u32,
    /// Actions taken this turn (borrowed ones included).
    pub actions: u32,
    /// A Run action taken this turn.
    pub ran: bool,
    /// The vector was steered this turn.
    pub steered: bool,
    /// The attitude's one-attack bonus is spent.
    pub attack_bonus_used: bool,
    /// The attitude's one-defense bonus is spent.
    pub defense_bonus_used: bool,
    /// Defenses since the own last turn.
    pub defenses: u32,
    /// Free defenses still in hand (1 between turns, +1 for a Defend action).
    pub free_defenses: u32,
    /// Actions borrowed from the next turn by extra defenses.
    pub borrowed: u32,
    /// The Evade roll in force.
    pub evade: Option<RollRecord>,
    /// Focus on the next action.
    pub focus: bool,
    /// Waiting.
    pub waiting: bool,
    /// Rounds loaded in each weapon.
    pub loaded: Vec<Option<u32>>,
    /// Spare magazines or rounds of each weapon.
    pub spare: Vec<u32>,
    /// Whether each weapon is in hand.
    pub drawn: Vec<bool>,
    /// Shots fired this round by each weapon (full-auto limit).
    pub fired: Vec<u32>,
    /// Wear of each piece of armor.
    pub wear: Vec<Wear>,
    /// Control this character holds on others.
    pub control: Vec<(UnitId, f64)>,
    /// Coordination penalty for the next turn (shoved, thrown).
    pub off_balance: i32,
    /// Tie-break roll this round, once rolled.
    pub tiebreak: Option<i32>,
    /// Turns taken.
    pub turns: u32,
    /// The attacker this character just defended against successfully, while a throw is
    /// open to it ("Throws": its first action after the defense, before the attacker's
    /// next turn).
    pub defended_against: Option<UnitId>,
    /// The active character's turn this waiting character already tried to interrupt.
    pub interrupt_tried: Option<(UnitId, u32)>,
    /// Lifted off the ground by this grappler ("Pickup").
    pub lifted_by: Option<UnitId>,
    /// Choked by this grappler ("Choke").
    pub choked_by: Option<UnitId>,
    /// Strangled by this grappler ("Squeeze or Strangle").
    pub strangled_by: Option<UnitId>,
    /// Choking Fatigue taken ("Choke").
    pub choke: f64,
    /// Meters stepped while defending off its own turn, counted as walked on the next
    /// ("Moving while Defending").
    pub step_borrowed: u32,
}

/// An attack being resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct Pending {
    /// Who attacks.
    pub attacker: UnitId,
    /// The declaration.
    pub attack: Attack,
    /// The defense chosen.
    pub defense: Option<DefenseKind>,
    /// The defense roll and its label.
    pub defense_roll: Option<(Cow<'static, str>, RollRecord)>,
    /// The attack rolls, one a shot.
    pub rolls: Vec<RollRecord>,
    /// Whether Mana was already asked about.
    pub mana_asked: (bool, bool),
    /// Hits to resolve: (location, goodies).
    pub hits: Vec<(Location, i32, bool)>,
    /// The hit being resolved and its Penetration Limit roll, awaiting the Mana answer.
    pub limit: Option<LimitRoll>,
    /// Whether the Mana question about the current Penetration Limit roll was answered.
    pub limit_answered: bool,
    /// Base DC of the attack (without the defense).
    pub dc: i32,
    /// Cover penalty on the attack.
    pub cover: i32,
    /// Penetration (fixed or rolled) of this attack.
    pub pen: Option<f64>,
    /// Whether the attack has been resolved up to damage.
    pub rolled: bool,
}

/// What the battle waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A character's decision.
    Awaiting(UnitId),
    /// The round is over.
    RoundOver,
}

/// The battle.
#[derive(Resource, Clone, Debug, Default)]
pub struct Fight {
    /// Stat blocks, by unit.
    pub sheets: Vec<Arc<VwStats>>,
    /// Names.
    pub names: Vec<String>,
    /// Side of each unit.
    pub sides: Vec<u8>,
    /// Whether each side is a player's (asked to defend and spend Mana).
    pub player_sides: Vec<bool>,
    /// Mook group of each unit (shared starting roll).
    pub groups: Vec<Option<String>>,
    /// States.
    pub units: Vec<UnitState>,
    /// The map.
    pub map: Option<Arc<HexMap>>,
    /// Round number.
    pub round: u32,
    /// Whose turn it is.
    pub active: Option<UnitId>,
    /// The question pending.
    pub prompt: Option<Prompt>,
    /// The attack being resolved.
    pub pending: Option<Pending>,
    /// Turns taken this round, in order.
    pub order: Vec<UnitId>,
    /// Gravity in g.
    pub gravity: f64,
    /// Characters whose turns were interrupted by a waiting foe, to resume when its turn
    /// ends ("Wait").
    pub interrupted: Vec<UnitId>,
    /// The slack of a cramped battlefield, if it is one ("Cramped").
    pub cramped: Option<f64>,
}

fn hex(p: (i32, i32)) -> Hex {
    Hex::new(p.0, p.1)
}

/// An unarmed blow as a weapon.
pub fn unarmed(sheet: &VwStats) -> Weapon {
    let mut w = Weapon::named("Unarmed", WeaponKind::Melee, sheet.unarmed.wound);
    w.pen_rs = Some(0.0);
    w.smash = true;
    w
}

/// A die roller whose first die is already known (the shared die of rapid fire).
struct Prefilled<'a, D: DieRoller> {
    first: Option<u32>,
    dice: &'a mut D,
}

impl<D: DieRoller> DieRoller for Prefilled<'_, D> {
    fn roll_die(&mut self, sides: u32) -> u32 {
        match self.first.take() {
            Some(f) => f,
            None => self.dice.roll_die(sides),
        }
    }
}

impl Fight {
    /// The state of `u`.
    pub fn state(&self, u: UnitId) -> &UnitState {
        &self.units[u.0 as usize]
    }

    fn state_mut(&mut self, u: UnitId) -> &mut UnitState {
        &mut self.units[u.0 as usize]
    }

    /// The stat block of `u`.
    pub fn sheet(&self, u: UnitId) -> &VwStats {
        &self.sheets[u.0 as usize]
    }

    /// The name of `u`.
    pub fn name(&self, u: UnitId) -> &str {
        &self.names[u.0 as usize]
    }

    /// Every unit.
    pub fn ids(&self) -> impl Iterator<Item = UnitId> + '_ {
        (0..self.units.len()).map(|i| UnitId(i as u32))
    }

    /// Whether `u` still fights.
    pub fn fighting(&self, u: UnitId) -> bool {
        self.units
            .get(u.0 as usize)
            .is_some_and(|s| s.hurt == Hurt::Fighting)
    }

    /// The fighting enemies of `u`.
    pub fn enemies(&self, u: UnitId) -> Vec<UnitId> {
        let side = self.sides[u.0 as usize];
        self.ids()
            .filter(|&e| self.sides[e.0 as usize] != side && self.fighting(e))
            .collect()
    }

    /// The weapon `w` of `u` (`None`: unarmed).
    pub fn weapon(&self, u: UnitId, w: Option<usize>) -> Weapon {
        let sheet = self.sheet(u);
        match w.and_then(|i| sheet.weapons.get(i)) {
            Some(w) => w.clone(),
            None => unarmed(sheet),
        }
    }

    /// Distance in meters between two characters, altitude counted.
    pub fn distance(&self, a: UnitId, b: UnitId) -> f64 {
        let (sa, sb) = (self.state(a), self.state(b));
        let flat = sa.pos.unsigned_distance_to(sb.pos) as f64;
        let up = sa.alt - sb.alt;
        (flat * flat + up * up).sqrt()
    }

    /// Whether `a` can see `b` (the map's line of sight; fliers above 2 m see over walls).
    pub fn sees(&self, a: UnitId, b: UnitId) -> bool {
        let (sa, sb) = (self.state(a), self.state(b));
        if sa.alt > 2.0 || sb.alt > 2.0 {
            return true;
        }
        self.map
            .as_ref()
            .is_none_or(|m| m.line_of_sight(sa.pos, sb.pos))
    }

    /// The cover `target` has against a shot from `from` (map cover terrain).
    pub fn cover(&self, from: UnitId, target: UnitId) -> i32 {
        let (sf, st) = (self.state(from), self.state(target));
        if st.alt > 2.0 || sf.alt > 2.0 {
            return 0;
        }
        let map_cover = self
            .map
            .as_ref()
            .and_then(|m| m.cover_between(sf.pos, st.pos))
            .map_or(0, |c| match c {
                crate::hexmap::Cover::Light => -1,
                crate::hexmap::Cover::Half => -2,
                crate::hexmap::Cover::Heavy => -3,
            });
        // "Cover": lying prone is at least light cover (-1) against attackers on one's level.
        let prone = if st.prone && sf.pos.unsigned_distance_to(st.pos) > 1 {
            -1
        } else {
            0
        };
        map_cover.min(prone)
    }

    /// The Coordination penalty on `u` from Control held on it and from being knocked off
    /// balance.
    pub fn control_on(&self, u: UnitId) -> i32 {
        let carry = self.sheet(u).carry;
        let held: f64 = self
            .units
            .iter()
            .flat_map(|s| s.control.iter())
            .filter(|(t, _)| *t == u)
            .map(|(_, c)| *c)
            .sum();
        control_penalty(held, carry) + self.state(u).off_balance
    }

    /// Who holds `u` with Control, if anyone.
    pub fn held_by(&self, u: UnitId) -> Option<UnitId> {
        self.ids().find(|&g| {
            self.fighting(g)
                && self
                    .state(g)
                    .control
                    .iter()
                    .any(|(t, c)| *t == u && *c > 0.0)
        })
    }

    /// How far the character is from going down, for the map's health bar: 1 unhurt, 0
    /// out of the fight; in between, the worst injury's score against the score that puts
    /// it down (7 for a mook, 9 for a major character: [`injury::mook_down`],
    /// [`injury::major_state`]).
    pub fn health(&self, u: UnitId) -> f32 {
        let (Some(s), Some(sheet)) = (self.units.get(u.0 as usize), self.sheets.get(u.0 as usize))
        else {
            return 1.0;
        };
        if s.hurt != Hurt::Fighting {
            return 0.0;
        }
        let worst = s.injuries.iter().map(|i| i.score).max().unwrap_or(0);
        let down = if sheet.mook { 7.0 } else { 9.0 };
        1.0 - (worst as f32 / down).min(1.0)
    }

    /// A short line for the unit list: Breath, injuries, AP.
    pub fn unit_line(&self, u: UnitId) -> String {
        let s = self.state(u);
        let worst = s.injuries.iter().map(|i| i.score).max();
        format!(
            ", {} AP, Breath {}/{}{}{}{}",
            s.ap,
            s.breath,
            self.sheet(u).stamina,
            worst.map_or(String::new(), |w| format!(", worst injury +{w}")),
            if s.alt > 0.0 {
                format!(", {:.0} m up", s.alt)
            } else {
                String::new()
            },
            s.vector
                .map_or(String::new(), |v| format!(", {} m/turn", v.speed))
        )
    }

    // ----- rounds and turns ------------------------------------------------------------

    /// Starts a round: Action Points for everyone (with the starting pools in the first).
    pub fn begin_round(&mut self, dice: &mut impl DieRoller, events: &mut Vec<BattleEvent>) {
        self.round += 1;
        self.order.clear();
        let first = self.round == 1;
        let mut shared: Vec<(u8, String, i32)> = Vec::new();
        for u in self.ids().collect::<Vec<_>>() {
            let i = u.0 as usize;
            let per_round = self.sheets[i].ap_per_round();
            let carried = carried_over(self.units[i].ap);
            let mut pool = 0;
            if first {
                let sheet = self.sheets[i].clone();
                let key = self.groups[i].clone().map(|g| (self.sides[i], g));
                let known = key.as_ref().and_then(|(s, g)| {
                    shared
                        .iter()
                        .find(|(s2, g2, _)| s2 == s && g2 == g)
                        .map(|x| x.2)
                });
                let d6 = match known {
                    Some(d) => d,
                    None => {
                        let d = dice.roll_die(6) as i32;
                        if let Some((s, g)) = key {
                            shared.push((s, g, d));
                        }
                        d
                    }
                };
                let awareness = if sheet.start == Start::Surprised {
                    let t = task::task(
                        dice,
                        vec![Modifier::new("Awareness", sheet.awareness)],
                        combat::SURPRISE_DC,
                        0,
                    );
                    events.push(BattleEvent::Roll {
                        unit: u,
                        purpose: "Awareness (caught unaware)".into(),
                        roll: t.roll.clone(),
                        result: format!("degree {}", t.degree).into(),
                    });
                    t.degree
                } else {
                    0
                };
                pool = combat::starting_pool(sheet.start, d6, awareness);
                events.push(BattleEvent::Note {
                    unit: Some(u),
                    text: format!(
                        "starts the combat with {pool} Action Points held over (1d6 = {d6}, {})",
                        match sheet.start {
                            Start::Normal => "1d6 - 1",
                            Start::Waiting => "waiting: 5",
                            Start::Surprised => "surprised",
                        }
                    ),
                });
            }
            let s = &mut self.units[i];
            s.tiebreak = None;
            s.fired.iter_mut().for_each(|f| *f = 0);
            if s.hurt == Hurt::Fighting {
                s.ap = carried + per_round + pool;
            } else {
                s.ap = 0;
            }
        }
    }

    /// The unit whose decision the battle waits for, starting the next turn when needed.
    pub fn advance(&mut self, dice: &mut impl DieRoller, events: &mut Vec<BattleEvent>) -> Step {
        if let Some(p) = self.prompt {
            return Step::Awaiting(p.unit());
        }
        if let Some(u) = self.active {
            if self.fighting(u) {
                return Step::Awaiting(u);
            }
            self.active = None;
        }
        // "Wait": a turn interrupted by a waiting foe goes on where it stopped.
        while let Some(u) = self.interrupted.pop() {
            if self.fighting(u) {
                self.active = Some(u);
                events.push(BattleEvent::Note {
                    unit: Some(u),
                    text: "goes on with its turn".into(),
                });
                return Step::Awaiting(u);
            }
        }
        // Waiting characters go first once an enemy is within reach or sight.
        let waiting: Vec<UnitId> = self
            .ids()
            .filter(|&u| self.fighting(u) && self.state(u).waiting && self.state(u).ap >= TURN_AP)
            .collect();
        for u in waiting {
            if self.wait_triggered(u) {
                self.state_mut(u).waiting = false;
                events.push(BattleEvent::Note {
                    unit: Some(u),
                    text: "stops waiting and acts".into(),
                });
                self.start_turn(u, dice, events);
                return match self.active {
                    Some(a) => Step::Awaiting(a),
                    // Choked or strangled out at the start of its turn.
                    None => self.advance(dice, events),
                };
            }
        }
        let mut ready: Vec<UnitId> = self
            .ids()
            .filter(|&u| self.fighting(u) && !self.state(u).waiting && self.state(u).ap >= TURN_AP)
            .collect();
        if ready.is_empty() {
            return Step::RoundOver;
        }
        let top = ready.iter().map(|&u| self.state(u).ap).max().unwrap_or(0);
        ready.retain(|&u| self.state(u).ap == top);
        if ready.len() > 1 {
            for &u in &ready {
                if self.state(u).tiebreak.is_none() {
                    let roll = open_ended_2d6(
                        dice,
                        vec![Modifier::new("Coordination", self.sheet(u).coordination)],
                        None,
                    );
                    let total = roll.total;
                    events.push(BattleEvent::Roll {
                        unit: u,
                        purpose: "Coordination contest (tied Action Points)".into(),
                        roll,
                        result: format!("{total}").into(),
                    });
                    self.state_mut(u).tiebreak = Some(total);
                }
            }
            ready.sort_by_key(|&u| (std::cmp::Reverse(self.state(u).tiebreak), u.0));
        }
        let u = ready[0];
        self.start_turn(u, dice, events);
        match self.active {
            Some(a) => Step::Awaiting(a),
            // Choked or strangled out at the start of its turn.
            None => self.advance(dice, events),
        }
    }

    fn wait_triggered(&self, u: UnitId) -> bool {
        let sheet = self.sheet(u);
        let reach = sheet
            .weapons
            .iter()
            .filter(|w| w.melee())
            .map(|w| w.reach)
            .fold(1.0, f64::max);
        let ranged = sheet.weapons.iter().any(|w| !w.melee());
        self.enemies(u)
            .into_iter()
            .any(|e| self.distance(u, e) <= reach + 0.5 || (ranged && self.sees(u, e)))
    }

    fn start_turn(&mut self, u: UnitId, dice: &mut impl DieRoller, events: &mut Vec<BattleEvent>) {
        for s in &mut self.units {
            if s.defended_against == Some(u) {
                s.defended_against = None;
            }
        }
        let s = self.state_mut(u);
        s.ap -= TURN_AP;
        s.moved = std::mem::take(&mut s.step_borrowed);
        s.actions = s.borrowed;
        s.borrowed = 0;
        s.ran = false;
        s.steered = false;
        s.attitude = Attitude::Neutral;
        s.attitude_chosen = false;
        s.attack_bonus_used = false;
        s.defense_bonus_used = false;
        s.defenses = 0;
        s.free_defenses = 1;
        s.evade = None;
        s.turns += 1;
        self.active = Some(u);
        self.order.push(u);
        events.push(BattleEvent::TurnStarted { unit: u });
        self.holds_at_turn_start(u, dice, events);
    }

    /// The holds on `u` at the start of its turn ("Grappling"): a choke's Vigor check or its
    /// recovery, a strangle's Strength contest; holds whose grappler let go or fell end.
    fn holds_at_turn_start(
        &mut self,
        u: UnitId,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let holds = |f: &Self, g: Option<UnitId>| {
            g.filter(|&g| {
                f.fighting(g) && f.state(g).control.iter().any(|(x, c)| *x == u && *c > 0.0)
            })
        };
        let (lifted, choked, strangled) = {
            let s = self.state(u);
            (
                holds(self, s.lifted_by),
                holds(self, s.choked_by),
                holds(self, s.strangled_by),
            )
        };
        {
            let s = self.state_mut(u);
            s.lifted_by = lifted;
            s.choked_by = choked;
            s.strangled_by = strangled;
        }
        let sheet = self.sheet(u).clone();
        let penalty = self.control_on(u);
        if let Some(g) = self.state(u).choked_by {
            // "Choke": DC 2 Vigor with the Control penalty; a failure is value of [degree]
            // of choking Fatigue. Decision: the "Mild Shock" level is the Stamina.
            let mut mods = vec![Modifier::new("Vigor", sheet.vigor)];
            if penalty != 0 {
                mods.push(Modifier::new("Control", penalty));
            }
            let t = task::task(dice, mods, 2, 0);
            let fatigue = if t.succeeded() {
                0.0
            } else {
                combat::choke_fatigue(t.degree)
            };
            events.push(BattleEvent::Roll {
                unit: u,
                purpose: format!("choked by {} (Vigor, DC 2)", self.name(g)).into(),
                roll: t.roll,
                result: if fatigue > 0.0 {
                    format!("{fatigue:.1} choking Fatigue").into()
                } else {
                    "holds on".into()
                },
            });
            let s = self.state_mut(u);
            s.choke += fatigue;
            if s.choke >= f64::from(sheet.stamina) {
                s.hurt = Hurt::Down;
                events.push(BattleEvent::Note {
                    unit: Some(u),
                    text: "passes out from the choke".into(),
                });
            }
        } else if self.state(u).choke > 0.0 {
            let s = self.state_mut(u);
            s.choke = (s.choke - combat::choke_recovery(sheet.vigor)).max(0.0);
        }
        if let Some(g) = self.state(u).strangled_by
            && self.fighting(u)
        {
            // "Squeeze or Strangle": a Strength contest, the victim at the Control penalty;
            // losing it, it cannot breathe. Decision: a turn without breath costs 1 Breath.
            let mut mine = vec![Modifier::new("Strength", sheet.strength)];
            if penalty != 0 {
                mine.push(Modifier::new("Control", penalty));
            }
            let theirs = vec![Modifier::new("Strength", self.sheet(g).strength)];
            let purpose = format!("strangled: Strength contest with {}", self.name(g));
            let breathes = self.contest(
                u,
                mine,
                theirs,
                purpose,
                ["breathes", "cannot breathe"],
                dice,
                events,
            );
            if !breathes {
                self.breath(u, 1, events);
            }
        }
        if !self.fighting(u) {
            self.end_turn(u, events);
        }
    }

    /// An opposed task ("Opposed Actions"): `u` rolls with `mine` against the other side's
    /// `theirs`, logged as `u`'s roll with `words` for a win and a loss; true when `u` wins
    /// (a tie is not a win).
    #[allow(clippy::too_many_arguments)]
    fn contest(
        &mut self,
        u: UnitId,
        mine: Vec<Modifier>,
        theirs: Vec<Modifier>,
        purpose: String,
        words: [&str; 2],
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) -> bool {
        let a = task::task(dice, mine, 0, 0);
        let b = task::task(dice, theirs, 0, 0);
        let wins = task::opposed(&a, &b) == std::cmp::Ordering::Greater;
        events.push(BattleEvent::Roll {
            unit: u,
            purpose: purpose.into(),
            roll: a.roll,
            result: format!("{} (against {})", words[usize::from(!wins)], b.roll.total).into(),
        });
        wins
    }

    /// "Wait": a waiting foe whose chance comes during `u`'s turn may interrupt it, by an
    /// opposed Reaction Time task (+2 when `u` must still move more than a step to act on
    /// it). Each waiting foe tries once a turn.
    fn interrupts(&mut self, u: UnitId, dice: &mut impl DieRoller, events: &mut Vec<BattleEvent>) {
        let turn = self.state(u).turns;
        let waiters: Vec<UnitId> = self
            .enemies(u)
            .into_iter()
            .filter(|&w| {
                let s = self.state(w);
                s.waiting
                    && s.ap >= TURN_AP
                    && s.interrupt_tried != Some((u, turn))
                    && self.wait_triggered(w)
            })
            .collect();
        for w in waiters {
            self.state_mut(w).interrupt_tried = Some((u, turn));
            // Decision: `u` must move first when it has no weapon that reaches from afar and
            // stands beyond the reach of its longest melee weapon.
            let reach = self
                .sheet(u)
                .weapons
                .iter()
                .filter(|x| x.melee())
                .map(|x| x.reach)
                .fold(1.0, f64::max);
            let must_move = self.distance(u, w) > reach + 0.5
                && self.sheet(u).weapons.iter().all(|x| x.melee());
            let mut mods = vec![Modifier::new("Reaction Time", self.sheet(w).reaction)];
            let bonus = combat::interrupt_bonus(must_move);
            if bonus != 0 {
                mods.push(Modifier::new("the other must move first", bonus));
            }
            let theirs = vec![Modifier::new("Reaction Time", self.sheet(u).reaction)];
            let purpose = format!("interrupt {} (opposed Reaction Time)", self.name(u));
            let wins = self.contest(
                w,
                mods,
                theirs,
                purpose,
                ["interrupts", "too slow"],
                dice,
                events,
            );
            if wins {
                self.interrupted.push(u);
                self.active = None;
                self.state_mut(w).waiting = false;
                self.start_turn(w, dice, events);
                return;
            }
        }
    }

    fn end_turn(&mut self, u: UnitId, events: &mut Vec<BattleEvent>) {
        let s = self.state_mut(u);
        s.off_balance = 0;
        // "High Speed Movement": below a quarter of the Maneuver the vector is dropped.
        let maneuver = self.sheet(u).maneuver;
        let s = self.state_mut(u);
        if let Some(v) = s.vector
            && !v.kept(maneuver)
        {
            s.vector = None;
            events.push(BattleEvent::Note {
                unit: Some(u),
                text: "slows out of high-speed movement".into(),
            });
        }
        if self.active == Some(u) {
            self.active = None;
        }
    }

    /// The end of a round: unused Action Points over 5 are lost (kept in [`Self::begin_round`]).
    pub fn end_round(&mut self) {
        self.interrupted.clear();
        for s in &mut self.units {
            s.ap = carried_over(s.ap);
        }
    }

    // ----- checks ---------------------------------------------------------------------------

    /// Why `u` may not take `action` now, if it may not.
    pub fn check(&self, u: UnitId, action: &Action) -> Result<(), String> {
        if !self.fighting(u) {
            return Err("out of the fight".into());
        }
        if let Some(p) = self.prompt {
            if p.unit() != u {
                return Err("another character is being asked".into());
            }
            return match (p, action) {
                (Prompt::Defend(_), Action::Defense(k)) => self.check_defense(u, *k),
                (Prompt::Defend(_), _) => Err("expected a defense".into()),
                (_, Action::Mana(m)) => self.check_mana(u, p, *m),
                _ => Err("expected an answer about Mana".into()),
            };
        }
        if self.active != Some(u) {
            return Err("not this character's turn".into());
        }
        let s = self.state(u);
        let sheet = self.sheet(u);
        let flying = self.flying(u);
        let must_steer = (s.vector.is_some() || flying) && !s.steered;
        if must_steer
            && !matches!(
                action,
                Action::Steer(_) | Action::Fly(_) | Action::Attitude(_)
            )
        {
            return Err(if flying {
                "in the air the flier flies its turn first".into()
            } else {
                "at high speed the vector must be steered first".into()
            });
        }
        let held = self.held_by(u).is_some();
        if let Action::Attack(Attack { target, .. }) | Action::Grapple { target, .. } = action
            && self.units.get(target.0 as usize).is_none()
        {
            return Err(format!(
                "there is no unit {} (the battle has {})",
                target.0,
                self.units.len()
            ));
        }
        match action {
            Action::Attitude(_) => {
                if s.attitude_chosen || s.actions > 0 || s.moved > 0 || s.steered {
                    return Err("the attitude is chosen at the start of the turn".into());
                }
                Ok(())
            }
            Action::Move(to) | Action::Run(to) => {
                let to = hex(*to);
                if s.vector.is_some() {
                    return Err("at high speed the vector moves the character".into());
                }
                if held {
                    return Err("held: escape first".into());
                }
                if s.prone {
                    return Err("prone: get up first".into());
                }
                let map = self.map.as_ref().ok_or("no map")?;
                if !map.contains(to) {
                    return Err("off the map".into());
                }
                let path = self.path(u, to).ok_or("no way there")?;
                let steps = path.len().saturating_sub(1) as u32;
                let run = matches!(action, Action::Run(_));
                if s.attitude.holds_ground() && self.moves_away(u, to) {
                    return Err(format!(
                        "a {} attitude cannot move away from the foe",
                        s.attitude.word()
                    ));
                }
                if run {
                    if s.ran {
                        return Err("one Run action a turn".into());
                    }
                    let limit = (sheet.maneuver / 2).max(sheet.base_move);
                    if steps > limit {
                        return Err(format!("a run reaches {limit} m from a stop"));
                    }
                } else if s.moved + steps > sheet.base_move {
                    return Err(format!(
                        "{} m left of Base Move {}: run farther",
                        sheet.base_move.saturating_sub(s.moved),
                        sheet.base_move
                    ));
                }
                Ok(())
            }
            Action::Fly(plan) => {
                let spec = sheet.flight.as_ref().ok_or("cannot fly")?;
                if !flying && s.prone {
                    return Err("prone: get up first".into());
                }
                if s.steered {
                    return Err("one flight a turn".into());
                }
                if plan.thrust > spec.power {
                    return Err(format!("thrust up to the flying Maneuver {}", spec.power));
                }
                if f64::from(plan.flaps) > spec.lift_aid {
                    return Err(format!("flaps up to the Lift Aid {}", spec.lift_aid));
                }
                let v = s.vector.unwrap_or_default();
                let turn = Steer {
                    accel: 0,
                    turns: plan.turns,
                    drift: plan.drift,
                };
                let c = vector::cost(&v, &turn);
                if c > sheet.maneuver {
                    return Err(format!(
                        "turning needs {c} of the Maneuver {}",
                        sheet.maneuver
                    ));
                }
                if !flying && spec.power == 0 && !self.floater(u) {
                    return Err("a glider takes off by running and jumping or dropping".into());
                }
                Ok(())
            }
            Action::Steer(plan) => {
                if flying {
                    return Err("in the air: fly".into());
                }
                let v = s.vector.ok_or("no movement vector: walk or run")?;
                if s.steered {
                    return Err("the vector is steered once a turn".into());
                }
                vector::check(&v, plan, sheet.maneuver, sheet.top_speed)
            }
            Action::Attack(a) => self.check_attack(u, a),
            Action::AreaFire { weapon, at, shots } => {
                let w = sheet.weapons.get(*weapon).ok_or("no such weapon")?;
                if w.melee() {
                    return Err("area fire needs a ranged or thrown weapon".into());
                }
                if !s.drawn.get(*weapon).copied().unwrap_or(true) {
                    return Err("draw it first".into());
                }
                let map = self.map.as_ref().ok_or("no map")?;
                if !map.contains(hex(*at)) {
                    return Err("off the map".into());
                }
                self.check_shots(u, *weapon, w, *shots)?;
                if let Some(max) = w.max_range
                    && s.pos.unsigned_distance_to(hex(*at)) as f64 > max
                {
                    return Err(format!("beyond the maximum range {max} m"));
                }
                Ok(())
            }
            Action::Grapple { target, mode } => {
                if !self.fighting(*target)
                    || self.sides[target.0 as usize] == self.sides[u.0 as usize]
                {
                    return Err("not a foe".into());
                }
                if self.distance(u, *target) > 1.5 {
                    return Err("not within reach".into());
                }
                if *mode == GrappleMode::Escape && self.held_by(u) != Some(*target) {
                    return Err("not held by that foe".into());
                }
                let holds = s.control.iter().any(|(x, c)| x == target && *c > 0.0);
                match mode {
                    GrappleMode::Throw if s.defended_against != Some(*target) => {
                        Err("a throw follows a successful defense against that foe".into())
                    }
                    GrappleMode::Strangle | GrappleMode::Choke if !holds => {
                        Err("grab the foe first".into())
                    }
                    GrappleMode::Pickup if self.sheet(*target).weight > sheet.carry => {
                        Err(format!(
                            "{:.0} kg is more than the {:.0} kg this character can carry",
                            self.sheet(*target).weight,
                            sheet.carry
                        ))
                    }
                    GrappleMode::Pickup if self.state(*target).lifted_by == Some(u) => {
                        Err("already lifted".into())
                    }
                    _ => Ok(()),
                }
            }
            Action::Concentrate => Ok(()),
            Action::Defend | Action::Evade | Action::Focus | Action::GetUp => {
                if matches!(action, Action::GetUp) && !s.prone {
                    return Err("not prone".into());
                }
                Ok(())
            }
            Action::Wait => {
                if s.vector.is_some() {
                    return Err("no waiting at high speed".into());
                }
                if s.actions > 0 || s.moved > 0 {
                    return Err("waiting is the whole turn".into());
                }
                Ok(())
            }
            Action::Recovery => {
                if s.actions > 0 {
                    return Err("recovery is the whole turn".into());
                }
                if s.breath >= sheet.stamina {
                    return Err("Breath is full".into());
                }
                Ok(())
            }
            Action::Reload(w) => {
                let weapon = sheet.weapons.get(*w).ok_or("no such weapon")?;
                let cap = weapon.shots.ok_or("takes no ammunition")?;
                if s.loaded.get(*w).copied().flatten().unwrap_or(0) >= cap {
                    return Err("fully loaded".into());
                }
                if s.spare.get(*w).copied().unwrap_or(0) == 0 {
                    return Err("no spare ammunition".into());
                }
                Ok(())
            }
            Action::Draw(w) => {
                if sheet.weapons.get(*w).is_none() {
                    return Err("no such weapon".into());
                }
                if s.drawn.get(*w).copied().unwrap_or(true) {
                    return Err("already in hand".into());
                }
                Ok(())
            }
            Action::EndTurn => Ok(()),
            Action::Defense(_) | Action::Mana(_) => Err("nothing was asked".into()),
        }
    }

    fn moves_away(&self, u: UnitId, to: Hex) -> bool {
        let from = self.state(u).pos;
        self.enemies(u).into_iter().any(|e| {
            let at = self.state(e).pos;
            at.unsigned_distance_to(from) <= 1 && at.unsigned_distance_to(to) > 1
        })
    }

    fn check_shots(&self, u: UnitId, wi: usize, w: &Weapon, shots: u32) -> Result<(), String> {
        let s = self.state(u);
        if shots == 0 || shots > w.rof {
            return Err(format!("1 to {} shots an action", w.rof));
        }
        if w.full_auto && s.fired.get(wi).copied().unwrap_or(0) + shots > 3 * w.rof {
            return Err(format!("at most {} shots a round", 3 * w.rof));
        }
        if let Some(Some(left)) = s.loaded.get(wi)
            && *left < shots
        {
            return Err(format!("{left} rounds loaded: reload"));
        }
        Ok(())
    }

    fn check_attack(&self, u: UnitId, a: &Attack) -> Result<(), String> {
        let s = self.state(u);
        let sheet = self.sheet(u);
        if !self.fighting(a.target) || self.sides[a.target.0 as usize] == self.sides[u.0 as usize] {
            return Err("not a foe".into());
        }
        let w = match a.weapon {
            Some(i) => {
                let w = sheet.weapons.get(i).ok_or("no such weapon")?;
                if !s.drawn.get(i).copied().unwrap_or(true) {
                    return Err(format!("{} is not in hand: draw it", w.name));
                }
                w.clone()
            }
            None => unarmed(sheet),
        };
        let d = self.distance(u, a.target);
        if w.melee() {
            if d > w.reach.max(1.0) + 0.5 {
                return Err(format!("out of reach ({d:.0} m)"));
            }
            if a.careful {
                return Err("Careful Aim is for ranged attacks".into());
            }
            if a.shots != 1 {
                return Err("one blow an action".into());
            }
        } else {
            if w.frag.is_some() {
                return Err("a grenade is thrown at a spot: area fire".into());
            }
            if !self.sees(u, a.target) {
                return Err("no line of sight".into());
            }
            if let Some(max) = w.max_range
                && d > max
            {
                return Err(format!("beyond the maximum range {max} m"));
            }
            if let Some(i) = a.weapon {
                self.check_shots(u, i, &w, a.shots)?;
            }
            if a.careful && (a.shots != 1 || s.moved > 1 || s.ran) {
                return Err("Careful Aim: one shot, no more than a step moved".into());
            }
        }
        if a.effort > 2 {
            return Err("extra effort is +1 or +2 Brawn".into());
        }
        Ok(())
    }

    fn check_defense(&self, u: UnitId, k: DefenseKind) -> Result<(), String> {
        let Some(p) = &self.pending else {
            return Err("no attack to defend against".into());
        };
        let melee = self.weapon(p.attacker, p.attack.weapon).melee();
        let s = self.state(u);
        match k {
            DefenseKind::Retreat if !melee => Err("retreating helps against melee attacks".into()),
            DefenseKind::Retreat if s.attitude.holds_ground() => {
                Err("this attitude cannot move away".into())
            }
            DefenseKind::Retreat | DefenseKind::DuckCover if s.vector.is_some() => {
                Err("at high speed there is no step to take".into())
            }
            DefenseKind::Retreat if self.retreat_hex(u, p.attacker).is_none() => {
                Err("no free hex to step back into".into())
            }
            DefenseKind::DiveProne if melee || s.prone => {
                Err("diving prone helps against shots, once".into())
            }
            DefenseKind::DuckCover if self.duck_hex(u).is_none() => {
                Err("no cover here or a step away to duck behind".into())
            }
            _ => Ok(()),
        }
    }

    fn check_mana(&self, u: UnitId, p: Prompt, m: ManaChoice) -> Result<(), String> {
        let s = self.state(u);
        if m != ManaChoice::Keep && s.mana == 0 {
            return Err("no Mana left".into());
        }
        match (p, m) {
            (_, ManaChoice::Keep) => Ok(()),
            (Prompt::ManaLimit(_), ManaChoice::FixLimit) => Ok(()),
            (Prompt::ManaLimit(_), _) => Err("Mana here makes the Penetration Limit roll 2".into()),
            (_, ManaChoice::FixLimit) => Err("that is for the Penetration Limit roll".into()),
            (_, ManaChoice::Adjust(n)) if !(-4..=4).contains(&n) || n == 0 => {
                Err("up to 2 a die: -4 to +4".into())
            }
            _ => Ok(()),
        }
    }

    /// Words for a decision.
    pub fn describe(&self, u: UnitId, action: &Action) -> String {
        match action {
            Action::Attitude(a) => format!("{} attitude", a.word()),
            Action::Move(to) => format!("Walk to ({}, {})", to.0, to.1),
            Action::Run(to) => format!("Run to ({}, {})", to.0, to.1),
            Action::Steer(p) => format!(
                "Steer: speed {:+}, turn {:+}, drift {:+}",
                p.accel, p.turns, p.drift
            ),
            Action::Fly(p) if self.floater(u) => format!("Float{}", flight_tail(p)),
            Action::Fly(p) => format!(
                "Fly: {}{}{}",
                if p.level {
                    "level".to_string()
                } else if p.columns < 0 {
                    format!("dive {} columns steeper", -p.columns)
                } else if p.columns > 0 {
                    format!("{} columns shallower", p.columns)
                } else {
                    "best glide".to_string()
                },
                if p.climb { ", climbing" } else { "" },
                flight_tail(p),
            ),
            Action::Attack(a) => {
                let w = self.weapon(u, a.weapon);
                let mut t = format!(
                    "Attack {} with {} at the {}",
                    self.name(a.target),
                    w.name,
                    a.aim.word()
                );
                if a.shots > 1 {
                    t.push_str(&format!(", {} shots", a.shots));
                }
                if a.careful {
                    t.push_str(", Careful Aim");
                }
                if a.effort > 0 {
                    t.push_str(&format!(", extra effort +{}", a.effort));
                }
                t
            }
            Action::AreaFire { weapon, at, shots } => {
                let w = self.weapon(u, Some(*weapon));
                if w.frag.is_some() {
                    format!("Throw {} at ({}, {})", w.name, at.0, at.1)
                } else {
                    format!(
                        "Area fire with {} at ({}, {}), {shots} shots",
                        w.name, at.0, at.1
                    )
                }
            }
            Action::Grapple { target, mode } => {
                format!("{mode:?} {}", self.name(*target))
            }
            Action::Defend => "Defend".into(),
            Action::Evade => "Evade".into(),
            Action::Focus => "Focus".into(),
            Action::Wait => "Wait".into(),
            Action::Recovery => "Recovery".into(),
            Action::Concentrate => "Concentrate".into(),
            Action::GetUp => "Get up".into(),
            Action::Reload(w) => format!("Reload {}", self.weapon(u, Some(*w)).name),
            Action::Draw(w) => format!("Draw {}", self.weapon(u, Some(*w)).name),
            Action::EndTurn => "End turn".into(),
            Action::Defense(k) => format!("Defense: {}", k.word()),
            Action::Mana(m) => format!("Mana: {m:?}"),
        }
    }

    // ----- applying -------------------------------------------------------------------------

    /// Applies a checked decision.
    pub fn apply(
        &mut self,
        u: UnitId,
        action: Action,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let turn_action = !matches!(action, Action::Defense(_) | Action::Mana(_));
        if matches!(
            action,
            Action::Defend
                | Action::Evade
                | Action::Recovery
                | Action::Concentrate
                | Action::GetUp
                | Action::Reload(_)
                | Action::Draw(_)
                | Action::Run(_)
        ) {
            self.lose_focus(u, "another action came first", events);
        }
        self.apply_action(u, action, dice, events);
        if turn_action
            && self.active == Some(u)
            && self.prompt.is_none()
            && self.pending.is_none()
            && self.fighting(u)
        {
            self.interrupts(u, dice, events);
        }
    }

    fn apply_action(
        &mut self,
        u: UnitId,
        action: Action,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        match action {
            Action::Defense(k) => {
                self.prompt = None;
                if let Some(p) = &mut self.pending {
                    p.defense = Some(k);
                }
                self.continue_attack(dice, events);
            }
            Action::Mana(m) => {
                let prompt = self.prompt.take();
                self.spend_mana(u, prompt, m, dice, events);
                self.continue_attack(dice, events);
            }
            Action::Attitude(a) => {
                let s = self.state_mut(u);
                s.attitude = a;
                s.attitude_chosen = true;
                if a.breath() > 0 {
                    self.breath(u, a.breath(), events);
                }
            }
            Action::Move(to) => self.walk(u, hex(to), false, events),
            Action::Run(to) => self.walk(u, hex(to), true, events),
            Action::Steer(plan) => self.steer(u, plan, dice, events),
            Action::Fly(plan) => self.fly(u, plan, dice, events),
            Action::Attack(a) => {
                self.take_action(u);
                self.declare_attack(u, a, dice, events);
            }
            Action::AreaFire { weapon, at, shots } => {
                self.take_action(u);
                self.area_fire(u, weapon, hex(at), shots, dice, events);
            }
            Action::Grapple { target, mode } => {
                self.take_action(u);
                self.grapple(u, target, mode, dice, events);
            }
            Action::Defend => {
                self.take_action(u);
                self.state_mut(u).free_defenses += 1;
            }
            Action::Evade => {
                self.take_action(u);
                let roll = self.defense_roll(u, None, DefenseKind::Normal, true, dice);
                events.push(BattleEvent::Roll {
                    unit: u,
                    purpose: "Evade (one defense against every attack)".into(),
                    roll: roll.clone(),
                    result: format!("defense {}", roll.total).into(),
                });
                self.state_mut(u).evade = Some(roll);
            }
            Action::Focus => {
                self.take_action(u);
                self.state_mut(u).focus = true;
                self.end_turn(u, events);
            }
            Action::Wait => {
                let s = self.state_mut(u);
                s.ap += TURN_AP;
                s.waiting = true;
                self.order.pop();
                self.end_turn(u, events);
            }
            Action::Concentrate => {
                self.take_action(u);
                events.push(BattleEvent::Note {
                    unit: Some(u),
                    text: "concentrates: the rest of the turn's actions are spent on the task"
                        .into(),
                });
                self.end_turn(u, events);
            }
            Action::Recovery => {
                self.take_action(u);
                let sheet = self.sheet(u).clone();
                let t = task::task(dice, vec![Modifier::new("Vigor", sheet.vigor)], 6, 0);
                let ok = t.succeeded();
                events.push(BattleEvent::Roll {
                    unit: u,
                    purpose: "Recovery (Vigor, DC 6)".into(),
                    roll: t.roll,
                    result: if ok {
                        "one Breath back"
                    } else {
                        "no Breath back"
                    }
                    .into(),
                });
                if ok {
                    let s = self.state_mut(u);
                    s.breath = (s.breath + 1).min(sheet.stamina);
                }
                self.end_turn(u, events);
            }
            Action::GetUp => {
                self.take_action(u);
                self.state_mut(u).prone = false;
            }
            Action::Reload(w) => {
                self.take_action(u);
                let cap = self.sheet(u).weapons[w].shots.unwrap_or(0);
                let loose = self.sheet(u).weapons[w].loose;
                let s = self.state_mut(u);
                let now = s.loaded[w].unwrap_or(0);
                if loose {
                    let n = if s.actions <= 1 { 1 } else { 2 };
                    let n = n.min(cap - now).min(s.spare[w]);
                    s.loaded[w] = Some(now + n);
                    s.spare[w] -= n;
                } else {
                    s.loaded[w] = Some(cap);
                    s.spare[w] -= 1;
                }
            }
            Action::Draw(w) => {
                self.take_action(u);
                self.state_mut(u).drawn[w] = true;
            }
            Action::EndTurn => self.end_turn(u, events),
        }
    }

    fn take_action(&mut self, u: UnitId) {
        let s = self.state_mut(u);
        s.actions += 1;
        s.defended_against = None;
    }

    /// "Focus": the bonus is for the very next action; another action, or a defense, loses it.
    fn lose_focus(&mut self, u: UnitId, why: &str, events: &mut Vec<BattleEvent>) {
        if std::mem::take(&mut self.state_mut(u).focus) {
            events.push(BattleEvent::Note {
                unit: Some(u),
                text: format!("loses the Focus ({why})"),
            });
        }
    }

    fn breath(&mut self, u: UnitId, cost: i32, events: &mut Vec<BattleEvent>) {
        let s = self.state_mut(u);
        for _ in 0..cost {
            if s.breath > 0 {
                s.breath -= 1;
            } else {
                // "Exertion": out of Breath, each cost is a fifth of a Fatigue point.
                s.fatigue += 1;
                events.push(BattleEvent::Note {
                    unit: Some(u),
                    text: "out of Breath: 1/5 Fatigue".into(),
                });
            }
        }
    }

    fn path(&self, u: UnitId, to: Hex) -> Option<Vec<Hex>> {
        let map = self.map.as_ref()?;
        let from = self.state(u).pos;
        let occupied: Vec<Hex> = self
            .ids()
            .filter(|&o| o != u && self.fighting(o) && self.state(o).alt <= 2.0)
            .map(|o| self.state(o).pos)
            .collect();
        map.path(from, to, |h| {
            if occupied.contains(&h) {
                None
            } else {
                map.move_cost(h)
            }
        })
    }

    fn walk(&mut self, u: UnitId, to: Hex, run: bool, events: &mut Vec<BattleEvent>) {
        let Some(path) = self.path(u, to) else { return };
        let steps = path.len().saturating_sub(1) as u32;
        let sheet = self.sheet(u).clone();
        if run {
            self.take_action(u);
            self.state_mut(u).ran = true;
            // "Exertion": a full action at more than half of Top Speed costs 2 Breath.
            let cost = if 2 * steps > sheet.top_speed { 2 } else { 1 };
            self.breath(u, cost, events);
            // "High Speed Movement": from a stop, more than a quarter of the Maneuver moves
            // half the change: the character now carries a vector of twice the distance.
            if steps > vector::free_distance(sheet.maneuver) {
                let heading = vector::heading_of(to - self.state(u).pos);
                let v = Vector {
                    heading,
                    speed: (2 * steps).min(sheet.maneuver).min(sheet.top_speed),
                    drift: 0,
                };
                self.state_mut(u).vector = Some(v);
                self.state_mut(u).steered = true;
                events.push(BattleEvent::Note {
                    unit: Some(u),
                    text: format!("runs into high-speed movement: vector {} m/turn", v.speed),
                });
            }
        } else if steps > 1 && self.state(u).moved <= 1 {
            self.breath(u, 1, events);
        }
        self.release_holds(u);
        let s = self.state_mut(u);
        s.pos = to;
        s.moved += steps;
        events.push(BattleEvent::Moved {
            unit: u,
            path: path.into_iter().map(hex_pair).collect(),
            cost: steps,
        });
    }

    fn release_holds(&mut self, u: UnitId) {
        self.state_mut(u).control.clear();
    }

    fn steer(
        &mut self,
        u: UnitId,
        plan: Steer,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let Some(old) = self.state(u).vector else {
            return;
        };
        let new = vector::steer(&old, &plan);
        let from = self.state(u).pos;
        let to = vector::step(from, &old, &new);
        self.take_action(u);
        let sheet = self.sheet(u).clone();
        let cost = if new.speed * 2 > sheet.top_speed {
            2
        } else {
            1
        };
        self.breath(u, cost, events);
        // Walk the line; stop at the first wall, edge or character: a collision.
        let mut at = from;
        let mut hit: Option<(Hex, Option<UnitId>)> = None;
        let map = self.map.clone();
        for h in from.line_to(to).skip(1) {
            let wall = map
                .as_ref()
                .is_some_and(|m| m.move_cost(h).is_none() || !m.contains(h));
            let other = self
                .ids()
                .find(|&o| o != u && self.fighting(o) && self.state(o).pos == h);
            if wall || other.is_some() {
                hit = Some((h, other));
                break;
            }
            at = h;
        }
        let s = self.state_mut(u);
        s.steered = true;
        s.ran = true;
        let moved = from.unsigned_distance_to(at);
        s.moved += moved;
        s.pos = at;
        s.vector = Some(new);
        events.push(BattleEvent::Moved {
            unit: u,
            path: from.line_to(at).map(hex_pair).collect(),
            cost: moved,
        });
        if let Some((_, other)) = hit {
            let speed = old.speed.max(new.speed) as f64;
            self.state_mut(u).vector = None;
            self.collision(u, other, speed, dice, events);
        }
    }

    /// A collision at `speed` m a turn (decision: the blow of an unarmed strike whose
    /// effective Brawn is that of a high-speed blow, "High Speed", to both parties).
    fn collision(
        &mut self,
        u: UnitId,
        other: Option<UnitId>,
        speed: f64,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let sheet = self.sheet(u).clone();
        let brawn = combat::high_speed_brawn(sheet.brawn, speed, sheet.action_score);
        events.push(BattleEvent::Note {
            unit: Some(u),
            text: format!(
                "collides with {} at {speed:.0} m/turn (effective Brawn {brawn:+.2})",
                other.map_or(
                    if self.state(u).alt <= 0.0 && self.state(u).air.is_some() {
                        "the ground"
                    } else {
                        "a wall"
                    },
                    |o| self.name(o)
                )
            ),
        });
        let victims: Vec<UnitId> = std::iter::once(u).chain(other).collect();
        for v in victims {
            let r = (dice.roll_die(6) + dice.roll_die(6)) as i32;
            let pen = injury::muscle_pen(r, sheet.unarmed.pen_rs + brawn);
            let loc = combat::HUMAN_CHART[(dice.roll_die(10) - 1) as usize];
            let mut blow = unarmed(self.sheet(v));
            blow.name = "impact".into();
            self.damage(None, v, &blow, pen, loc, dice, events);
        }
    }

    /// Whether `u` is in the air.
    pub fn flying(&self, u: UnitId) -> bool {
        let s = self.state(u);
        s.air.is_some() && s.alt > 0.0
    }

    /// Whether `u` is a floater (a Density score and no wings).
    pub fn floater(&self, u: UnitId) -> bool {
        self.sheet(u)
            .flight
            .as_ref()
            .is_some_and(|f| f.density.is_some() && f.wing_area <= 0.0)
    }

    /// The flight numbers of `u`, if it has wings or powered flight.
    pub fn glider(&self, u: UnitId) -> Option<Glider> {
        let sheet = self.sheet(u);
        let f = sheet.flight.as_ref().filter(|f| f.wing_area > 0.0)?;
        Some(Glider {
            weight_kg: sheet.weight,
            gravity_g: if self.gravity > 0.0 {
                self.gravity
            } else {
                1.0
            },
            wing_area: f.wing_area,
            glide: f.glide,
            lift_aid: f.lift_aid,
            size: sheet.size,
            action_score: f64::from(sheet.action_score),
            reach: 1.0,
        })
    }

    /// The glide column a flight plan flies in.
    pub fn fly_column(&self, u: UnitId, plan: &Fly) -> Column {
        let Some(g) = self.glider(u) else {
            return Column::LEVEL;
        };
        if plan.level {
            return Column::LEVEL;
        }
        let own = g.own_column();
        if plan.columns < 0 {
            own.left(plan.columns.unsigned_abs())
        } else {
            own.right(plan.columns as u32)
        }
    }

    /// The vector a flight plan leaves `u` with when it flies `horizontal` meters: the old
    /// heading turned and drifted as planned.
    fn flown_vector(&self, u: UnitId, plan: &Fly, horizontal: f64) -> Vector {
        let old = self.state(u).vector.unwrap_or_default();
        let turned = vector::steer(
            &old,
            &Steer {
                accel: 0,
                turns: plan.turns,
                drift: plan.drift,
            },
        );
        Vector {
            speed: horizontal.round().max(0.0) as u32,
            ..turned
        }
    }

    /// The hex a flight plan aims `u` at this turn (walls and the map's edge may stop it
    /// short), for the map's preview.
    pub fn fly_target(&self, u: UnitId, plan: &Fly) -> Option<Hex> {
        let t = self.preview_fly(u, plan)?;
        Some(self.state(u).pos + self.flown_vector(u, plan, t.horizontal).offset())
    }

    /// What a flight plan would do this turn (the same arithmetic the turn uses).
    pub fn preview_fly(&self, u: UnitId, plan: &Fly) -> Option<super::flight::GlideTurn> {
        if self.floater(u) {
            return self.preview_float(u, plan);
        }
        let g = self.glider(u)?;
        let s = self.state(u);
        let mut state = s.air?;
        state.altitude = s.alt;
        let choice = GlideChoice {
            column: self.fly_column(u, plan),
            climb: plan.climb,
            flaps_rs: f64::from(plan.flaps),
            pull_up: true,
            thrust: f64::from(plan.thrust),
            lift_thrust: 0.0,
        };
        Some(glide_turn(&g, state, choice))
    }

    /// A floater's turn as a flight: [`super::flight::float_turn`] with the thrust planned.
    fn preview_float(&self, u: UnitId, plan: &Fly) -> Option<super::flight::GlideTurn> {
        let sheet = self.sheet(u);
        let spec = sheet.flight.as_ref()?;
        let density = spec.density?;
        let s = self.state(u);
        let speed = s.air.map_or(0.0, |a| a.speed);
        let floater = super::flight::Floater {
            density_score: density,
            size: sheet.size,
            streamlining: spec.streamlining,
            action_score: f64::from(sheet.action_score),
            climb: f64::from(sheet.maneuver),
        };
        let (speed, altitude, drag) =
            super::flight::float_turn(&floater, speed, s.alt, f64::from(plan.thrust));
        Some(super::flight::GlideTurn {
            state: GlideState {
                speed,
                altitude,
                column: Column::LEVEL,
                stalled: false,
            },
            flew: true,
            stall_speed: 0.0,
            gravity: 0.0,
            drag,
            horizontal: speed,
            altitude_lost: s.alt - altitude,
            reached_ground: altitude <= 0.0,
        })
    }

    fn fly(
        &mut self,
        u: UnitId,
        plan: Fly,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let Some(result) = self.preview_fly(u, &plan) else {
            return;
        };
        // "Flight:": gliding and floating are effortless and need no action; thrust is
        // powered movement, an action like a Run.
        if plan.thrust > 0 {
            self.take_action(u);
        }
        let sheet = self.sheet(u).clone();
        let power = sheet.flight.as_ref().map_or(0, |f| f.power);
        if plan.thrust > 0 {
            let cost = super::flight::breath_cost(f64::from(power), f64::from(plan.thrust), 0.0);
            self.breath(u, cost as i32, events);
        }
        let v = self.flown_vector(u, &plan, result.horizontal);
        let from = self.state(u).pos;
        let to = from + v.offset();
        // Walls stop low fliers (a collision); the map's edge only stops the flight there
        // (decision: the battle is what happens on the map).
        let alt = self.state(u).alt - result.altitude_lost;
        let mut at = from;
        let mut hit = false;
        let map = self.map.clone();
        for h in from.line_to(to).skip(1) {
            if map.as_ref().is_some_and(|m| !m.contains(h)) {
                break;
            }
            if alt <= 2.0 && map.as_ref().is_some_and(|m| m.move_cost(h).is_none()) {
                hit = true;
                break;
            }
            at = h;
        }
        let s = self.state_mut(u);
        s.steered = true;
        s.pos = at;
        s.moved += from.unsigned_distance_to(at);
        s.alt = alt.max(0.0);
        s.air = Some(result.state);
        s.vector = Some(v);
        events.push(BattleEvent::Moved {
            unit: u,
            path: from.line_to(at).map(hex_pair).collect(),
            cost: from.unsigned_distance_to(at),
        });
        events.push(BattleEvent::Note {
            unit: Some(u),
            text: format!(
                "{}: airspeed {:.1} m/turn (gravity {:+.1}, drag -{:.1}, stall {:.1}), {:.0} m on, altitude {:.0} m{}",
                if result.flew { "flies" } else { "falls, stalled" },
                result.state.speed,
                result.gravity,
                result.drag,
                result.stall_speed,
                result.horizontal,
                alt.max(0.0),
                if result.state.stalled { " (stalled)" } else { "" }
            ),
        });
        if result.reached_ground || hit {
            // Down: landing gently below stall speed and shallow, else a collision.
            let speed = result.state.speed;
            let stall = result.stall_speed;
            let s = self.state_mut(u);
            s.vector = None;
            if result.reached_ground {
                s.alt = 0.0;
                s.air = Some(GlideState {
                    speed: 0.0,
                    altitude: 0.0,
                    ..result.state
                });
            }
            if hit || speed > stall.max(4.0) || result.state.stalled {
                self.collision(u, None, speed, dice, events);
            } else {
                events.push(BattleEvent::Note {
                    unit: Some(u),
                    text: "lands".into(),
                });
            }
        }
    }

    // ----- attacks ----------------------------------------------------------------------------

    fn declare_attack(
        &mut self,
        u: UnitId,
        a: Attack,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let w = self.weapon(u, a.weapon);
        if w.melee() || w.kind == WeaponKind::Thrown {
            self.breath(u, 1, events);
        }
        let mut a = a;
        if a.effort > 0 {
            // "Extra Effort": +1 Brawn for one more Breath; +2 for two more and DC 7 Spirit.
            self.breath(u, a.effort as i32, events);
        }
        if a.effort == 2 {
            // Decision: a failed Spirit roll leaves the +1 that one Breath point buys.
            let t = task::task(
                dice,
                vec![Modifier::new("Spirit", self.sheet(u).spirit)],
                7,
                0,
            );
            let ok = t.succeeded();
            events.push(BattleEvent::Roll {
                unit: u,
                purpose: "extra effort +2 (Spirit, DC 7)".into(),
                roll: t.roll,
                result: if ok { "+2 Brawn" } else { "only +1 Brawn" }.into(),
            });
            if !ok {
                a.effort = 1;
            }
        }
        if let Some(i) = a.weapon {
            let s = self.state_mut(u);
            if let Some(Some(n)) = s.loaded.get_mut(i) {
                *n = n.saturating_sub(a.shots);
            }
            if let Some(f) = s.fired.get_mut(i) {
                *f += a.shots;
            }
        }
        let target = a.target;
        self.pending = Some(Pending {
            attacker: u,
            attack: a,
            defense: None,
            defense_roll: None,
            rolls: Vec::new(),
            mana_asked: (false, false),
            hits: Vec::new(),
            limit: None,
            limit_answered: false,
            dc: 0,
            cover: 0,
            pen: None,
            rolled: false,
        });
        // "Defend": the target declares its defense before the attack is resolved.
        if self.is_player(target) {
            self.prompt = Some(Prompt::Defend(target));
            return;
        }
        let k = super::ai::defense(self, target);
        if let Some(p) = &mut self.pending {
            p.defense = Some(k);
        }
        self.continue_attack(dice, events);
    }

    fn is_player(&self, u: UnitId) -> bool {
        self.player_sides
            .get(self.sides[u.0 as usize] as usize)
            .copied()
            .unwrap_or(false)
    }

    /// The modifiers of `u`'s attack `a` and its DC before the defense, as the odds preview
    /// and the roll use them.
    pub fn attack_modifiers(&self, u: UnitId, a: &Attack) -> (Vec<Modifier>, i32) {
        let s = self.state(u);
        let sheet = self.sheet(u);
        let tsheet = self.sheet(a.target);
        let w = self.weapon(u, a.weapon);
        let d = self.distance(u, a.target);
        let mut mods = vec![Modifier::new("Coordination", sheet.coordination)];
        let skill = match w.kind {
            WeaponKind::Melee => ("Fight", sheet.skills.fight),
            WeaponKind::Ranged => ("Shoot", sheet.skills.shoot),
            WeaponKind::Thrown => ("Throw", sheet.skills.throw),
        };
        mods.push(Modifier::new(skill.0, skill.1));
        let att = s.attitude.attack(!s.attack_bonus_used) + s.attitude.coordination();
        if att != 0 {
            mods.push(Modifier::named(
                format!("{} attitude", s.attitude.word()),
                att,
            ));
        }
        if s.focus {
            mods.push(Modifier::new("Focus", 2));
        }
        if a.careful {
            let braced = self
                .map
                .as_ref()
                .and_then(|m| m.terrain(s.pos))
                .and_then(Terrain::cover)
                .is_some()
                || s.prone;
            mods.push(Modifier::new(
                if braced {
                    "Careful Aim, braced"
                } else {
                    "Careful Aim"
                },
                combat::careful_aim(braced),
            ));
        }
        // The roll comes after its action is counted; a preview counts the action ahead.
        let rolling = self.pending.as_ref().is_some_and(|p| p.attacker == u);
        let nth = multiple_action_penalty(if rolling {
            s.actions.max(1)
        } else {
            s.actions + 1
        });
        if nth != 0 {
            mods.push(Modifier::new("multiple actions", nth));
        }
        let held = self.control_on(u);
        if held != 0 {
            mods.push(Modifier::new("grappled / off balance", held));
        }
        if w.melee() {
            if self.terrain_at(s.pos) == Some(Terrain::Difficult) {
                mods.push(Modifier::new("bad footing", -2));
            }
            if s.prone {
                mods.push(Modifier::new("prone (hindered)", -2));
            }
            if self.stuck(u) {
                mods.push(Modifier::new("stuck", -3));
            }
            if self.held_by(a.target) == Some(u) || self.held_by(u).is_some() {
                let c = combat::cramped(w.bulk, sheet.size, 0.0);
                if c != 0 {
                    mods.push(Modifier::new("cramped (grappling)", c));
                }
            } else if let Some(slack) = self.cramped {
                let c = combat::cramped(w.bulk, sheet.size, slack);
                if c != 0 {
                    mods.push(Modifier::new("cramped", c));
                }
            }
        } else {
            if let Some(slack) = self.cramped {
                let c = combat::cramped(w.bulk, sheet.size, slack);
                if c != 0 {
                    mods.push(Modifier::new("cramped", c));
                }
            }
            if let Some(m) = w.min_str.or(w.rcl) {
                let extra = if a.shots > 1 {
                    combat::rapid_fire_recoil(a.shots)
                } else {
                    0
                };
                let p = combat::min_strength_penalty(sheet.strength, m + extra);
                if p != 0 {
                    mods.push(Modifier::new("recoil / strength", p));
                }
            }
        }
        let mut dc = base_difficulty(sheet.size, tsheet.size, d) + combat::aim_penalty(a.aim);
        if !w.melee() {
            dc += speed_penalty(d, w.speed);
        }
        let cover = if w.melee() {
            0
        } else {
            self.cover(u, a.target)
        };
        if cover != 0 {
            mods.push(Modifier::new("target in cover", cover));
        }
        (mods, dc)
    }

    fn terrain_at(&self, h: Hex) -> Option<Terrain> {
        self.map.as_ref().and_then(|m| m.terrain(h))
    }

    /// The defense roll of `u` (against the attack by `attacker`, if any).
    fn defense_roll(
        &mut self,
        u: UnitId,
        attacker: Option<(UnitId, &Weapon)>,
        kind: DefenseKind,
        evade: bool,
        dice: &mut impl DieRoller,
    ) -> RollRecord {
        let mods = self.defense_modifiers(u, attacker, kind, evade);
        if !evade && self.state(u).attitude == Attitude::FocusedDefense {
            self.state_mut(u).defense_bonus_used = true;
        }
        open_ended_2d6(dice, mods, Some(0))
    }

    /// The modifiers of a defense roll.
    pub fn defense_modifiers(
        &self,
        u: UnitId,
        attacker: Option<(UnitId, &Weapon)>,
        kind: DefenseKind,
        evade: bool,
    ) -> Vec<Modifier> {
        let s = self.state(u);
        let sheet = self.sheet(u);
        let melee = attacker.is_some_and(|(_, w)| w.melee());
        let mut mods = vec![Modifier::new("Coordination", sheet.coordination)];
        // Parry with Fight in melee when it is the better skill (with the weapon's Def).
        let (own_def, parry) = self.best_parry(u);
        let use_fight = melee && !evade && sheet.skills.fight + own_def >= sheet.skills.evade;
        if use_fight {
            mods.push(Modifier::new("Fight (parry)", sheet.skills.fight));
            if let Some((a, w)) = attacker {
                let _ = a;
                let wd = combat::weapon_defense(own_def, w.def);
                if wd != 0 {
                    mods.push(Modifier::named(format!("weapon Def ({parry})"), wd));
                }
            }
        } else {
            mods.push(Modifier::new("Evade", sheet.skills.evade));
        }
        let first = !s.defense_bonus_used;
        let att = if evade && s.attitude == Attitude::FocusedDefense {
            0
        } else {
            s.attitude.defense(melee, first)
        } + s.attitude.coordination();
        if att != 0 {
            mods.push(Modifier::named(
                format!("{} attitude", s.attitude.word()),
                att,
            ));
        }
        // "Multiple Defenses": each defense beyond the free one borrows an action: -2 each,
        // on this and every later defense until the next turn.
        let borrowed = -2 * s.borrowed as i32;
        if borrowed != 0 && !evade {
            mods.push(Modifier::new("extra defenses (borrowed actions)", borrowed));
        }
        if self.terrain_at(s.pos) == Some(Terrain::Difficult) {
            mods.push(Modifier::new("bad footing", -2));
        }
        if s.prone {
            mods.push(Modifier::new("prone (hindered)", -2));
        }
        if self.stuck(u) {
            mods.push(Modifier::new("stuck", -3));
        }
        let held = self.control_on(u);
        if held != 0 {
            mods.push(Modifier::new("grappled / off balance", held));
        }
        if let Some((a, w)) = attacker {
            if s.vector.is_none() && self.state(a).pos != s.pos {
                // Turned to face one foe; others from behind.
                let behind = self.attacked_from_behind(u, a);
                if behind {
                    mods.push(Modifier::new("attacked from behind", -2));
                }
            }
            if !w.melee() {
                let d = self.distance(a, u);
                let b = speed_defense_bonus(d, w.speed, sheet.action_score);
                if b > 0 {
                    mods.push(Modifier::new("projectile speed", b));
                }
            }
        }
        match kind {
            DefenseKind::Retreat => mods.push(Modifier::new("retreat", 1)),
            DefenseKind::DiveProne => mods.push(Modifier::new("dive prone", 1)),
            DefenseKind::DuckCover => mods.push(Modifier::new("duck behind cover", 1)),
            _ => {}
        }
        mods
    }

    fn best_parry(&self, u: UnitId) -> (i32, String) {
        let s = self.state(u);
        self.sheet(u)
            .weapons
            .iter()
            .enumerate()
            .filter(|(i, w)| w.melee() && s.drawn.get(*i).copied().unwrap_or(true))
            .map(|(_, w)| (w.def, w.name.clone()))
            .max_by_key(|(d, _)| *d)
            .unwrap_or((0, "unarmed".into()))
    }

    /// The hexes `u` can step into: on the map, passable, with no one standing there.
    fn free_steps(&self, u: UnitId) -> Vec<Hex> {
        let Some(map) = self.map.as_ref() else {
            return Vec::new();
        };
        let at = self.state(u).pos;
        at.all_neighbors()
            .into_iter()
            .filter(|&h| {
                map.move_cost(h).is_some()
                    && !self.ids().any(|o| {
                        o != u
                            && self.fighting(o)
                            && self.state(o).alt <= 2.0
                            && self.state(o).pos == h
                    })
            })
            .collect()
    }

    /// "Stuck": on the ground and unable to take a step (not counting a grapple, which has
    /// its own penalty).
    pub fn stuck(&self, u: UnitId) -> bool {
        !self.flying(u) && self.held_by(u).is_none() && self.free_steps(u).is_empty()
    }

    /// "Retreat": the free hex one step farther from `attacker`, if any.
    pub fn retreat_hex(&self, u: UnitId, attacker: UnitId) -> Option<Hex> {
        let from = self.state(attacker).pos;
        let now = self.state(u).pos.unsigned_distance_to(from);
        self.free_steps(u)
            .into_iter()
            .filter(|h| h.unsigned_distance_to(from) > now)
            .min_by_key(|h| (h.x, h.y))
    }

    /// "Duck Behind Cover": the own hex if it has cover, else the best covered hex a step
    /// away ("Moving while Defending": a single step).
    pub fn duck_hex(&self, u: UnitId) -> Option<Hex> {
        let at = self.state(u).pos;
        let cover = |h: Hex| self.terrain_at(h).and_then(Terrain::cover);
        if cover(at).is_some() {
            return Some(at);
        }
        self.free_steps(u)
            .into_iter()
            .filter_map(|h| cover(h).map(|c| (c, h)))
            .max_by_key(|(c, h)| {
                let rank = match c {
                    crate::hexmap::Cover::Light => 1,
                    crate::hexmap::Cover::Half => 2,
                    crate::hexmap::Cover::Heavy => 3,
                };
                (rank, -h.x, -h.y)
            })
            .map(|(_, h)| h)
    }

    /// "Moving while Defending": `u` steps to `to` as part of a defense; off its own turn the
    /// step is borrowed from its next turn's movement.
    fn defense_step(&mut self, u: UnitId, to: Hex, events: &mut Vec<BattleEvent>) {
        let from = self.state(u).pos;
        if from == to {
            return;
        }
        let own_turn = self.active == Some(u);
        let s = self.state_mut(u);
        s.pos = to;
        if own_turn {
            s.moved += 1;
        } else {
            s.step_borrowed += 1;
        }
        events.push(BattleEvent::Moved {
            unit: u,
            path: vec![hex_pair(from), hex_pair(to)],
            cost: 1,
        });
    }

    /// Whether `a` attacks `u` from behind: another foe is already engaging `u` from a
    /// direction more than 90° away ("Attacked From Behind": one can face a single foe).
    fn attacked_from_behind(&self, u: UnitId, a: UnitId) -> bool {
        let at = self.state(u).pos;
        let from = self.state(a).pos - at;
        self.enemies(u).into_iter().any(|e| {
            e != a && e.0 < a.0 && {
                let other = self.state(e).pos - at;
                self.state(e).pos.unsigned_distance_to(at) <= 1 && from.dot(other) < 0
            }
        })
    }

    fn continue_attack(&mut self, dice: &mut impl DieRoller, events: &mut Vec<BattleEvent>) {
        loop {
            let Some(p) = self.pending.clone() else {
                return;
            };
            if !p.rolled {
                self.roll_attack(dice, events);
                continue;
            }
            if let Some(prompt) = self.mana_question() {
                self.prompt = Some(prompt);
                return;
            }
            if p.limit.is_some() {
                self.finish_hit(dice, events);
                if self.prompt.is_some() {
                    return;
                }
                continue;
            }
            if let Some((loc, goodies, through_cover)) = p.hits.first().copied() {
                if let Some(q) = &mut self.pending {
                    q.hits.remove(0);
                }
                self.start_hit(loc, goodies, through_cover, dice, events);
                if self.prompt.is_some() {
                    return;
                }
                continue;
            }
            // Done.
            let attacker = p.attacker;
            self.pending = None;
            let s = self.state_mut(attacker);
            s.focus = false;
            if s.attitude == Attitude::Committed {
                s.attack_bonus_used = true;
            }
            return;
        }
    }

    fn roll_attack(&mut self, dice: &mut impl DieRoller, events: &mut Vec<BattleEvent>) {
        let Some(mut p) = self.pending.clone() else {
            return;
        };
        let u = p.attacker;
        let a = p.attack;
        let t = a.target;
        let w = self.weapon(u, a.weapon);
        let (mods, dc) = self.attack_modifiers(u, &a);
        p.dc = dc;
        p.cover = mods
            .iter()
            .find(|m| &*m.label == "target in cover")
            .map_or(0, |m| m.value);
        // The defense.
        let kind = p.defense.unwrap_or(DefenseKind::Normal);
        let ts = self.state(t).clone();
        let (label, droll): (Cow<'static, str>, RollRecord) = if kind == DefenseKind::None {
            (
                "no defense (counts 2)".into(),
                plain_record(Vec::new(), vec![Modifier::new("no defense", 2)], 2, Some(0)),
            )
        } else {
            self.lose_focus(t, "it defended", events);
            // Extra defenses borrow actions from the next turn.
            if ts.free_defenses == 0 {
                self.state_mut(t).borrowed += 1;
            } else {
                self.state_mut(t).free_defenses -= 1;
            }
            self.state_mut(t).defenses += 1;
            let roll = self.defense_roll(t, Some((u, &w)), kind, false, dice);
            let roll = match &ts.evade {
                Some(e) if e.total > roll.total => e.clone(),
                _ => roll,
            };
            (kind.word().into(), roll)
        };
        if kind == DefenseKind::DiveProne {
            self.state_mut(t).prone = true;
        }
        let step = match kind {
            DefenseKind::Retreat => self.retreat_hex(t, u),
            DefenseKind::DuckCover => self.duck_hex(t),
            _ => None,
        };
        if let Some(h) = step {
            self.defense_step(t, h, events);
        }
        p.defense_roll = Some((label, droll));
        // The shots: rapid fire shares one die.
        let common = if a.shots > 1 {
            Some(dice.roll_die(6))
        } else {
            None
        };
        p.rolls.clear();
        for _ in 0..a.shots.max(1) {
            let mut pre = Prefilled {
                first: common,
                dice: &mut *dice,
            };
            let roll = open_ended_2d6(&mut pre, mods.clone(), Some(dc));
            p.rolls.push(roll);
        }
        let pen = w.pen;
        p.pen = pen;
        p.rolled = true;
        self.pending = Some(p);
        self.judge_attack(dice, events);
    }

    /// The defense degree added to the DC (a failed defense adds nothing).
    fn defense_degree(p: &Pending) -> i32 {
        p.defense_roll.as_ref().map_or(0, |(_, r)| r.total.max(0))
    }

    /// Judges the rolls (again, after Mana) and lists the hits, logging the attack.
    fn judge_attack(&mut self, dice: &mut impl DieRoller, events: &mut Vec<BattleEvent>) {
        let Some(mut p) = self.pending.clone() else {
            return;
        };
        let u = p.attacker;
        let a = p.attack;
        let w = self.weapon(u, a.weapon);
        let dc = p.dc + Self::defense_degree(&p);
        p.hits.clear();
        let parried = p
            .defense_roll
            .as_ref()
            .is_some_and(|(_, r)| r.modifiers.iter().any(|m| &*m.label == "Fight (parry)"));
        let mut results = Vec::new();
        for roll in &mut p.rolls {
            roll.target = Some(dc);
            roll.margin = Some(roll.total - dc);
            roll.success = Some(roll.total >= dc);
            let degree = roll.total - dc;
            if degree >= 0 {
                // "Cover": on a hit the cover penalty counts toward the degrees.
                let deg = degree - p.cover;
                let loc = locate(a.aim, deg, parried, || dice.roll_die(10));
                p.hits.push((loc, combat::goodies(a.aim, deg), false));
                results.push(AttackResult::Hit);
            } else if p.cover < 0 && degree - p.cover >= 0 {
                // Missed because of the cover: through it as a barrier.
                let loc = combat::HUMAN_CHART[(dice.roll_die(10) - 1) as usize];
                p.hits.push((loc, 0, true));
                results.push(AttackResult::Hit);
            } else {
                let undefended = roll.total >= p.dc;
                results.push(if undefended {
                    AttackResult::Defended
                } else {
                    AttackResult::Miss
                });
            }
        }
        // Log only when the outcome is final (no Mana question left).
        let final_log = self.mana_question_for(&p).is_none();
        self.pending = Some(p.clone());
        if final_log
            && p.defense.is_some_and(|k| k != DefenseKind::None)
            && results.contains(&AttackResult::Defended)
            && !results.contains(&AttackResult::Hit)
        {
            // "Throws": a successful defense opens a throw on the attacker.
            self.state_mut(a.target).defended_against = Some(u);
        }
        if final_log {
            let defenses: Vec<DefenseRecord> = p
                .defense_roll
                .iter()
                .map(|(l, r)| DefenseRecord {
                    defense: crate::dice::Label::from(l.to_string()),
                    roll: r.clone(),
                })
                .collect();
            for (i, roll) in p.rolls.iter().enumerate() {
                events.push(BattleEvent::Attack {
                    attacker: u,
                    target: a.target,
                    weapon: crate::dice::Label::from(w.name.clone()),
                    roll: roll.clone(),
                    defenses: if i == 0 { defenses.clone() } else { Vec::new() },
                    result: results[i],
                });
            }
            // "Careful Aim": a shot that would miss by three degrees or less is not fired
            // (decision: it is always held back, so it cannot fly on and hit someone else).
            let withheld = a.careful
                && !w.melee()
                && p.rolls.len() == 1
                && results.first() != Some(&AttackResult::Hit)
                && combat::aimed_shot_withheld(p.rolls[0].total - dc);
            if withheld {
                if let Some(i) = a.weapon {
                    let s = self.state_mut(u);
                    if let Some(Some(n)) = s.loaded.get_mut(i) {
                        *n += 1;
                    }
                    if let Some(f) = s.fired.get_mut(i) {
                        *f = f.saturating_sub(1);
                    }
                }
                events.push(BattleEvent::Note {
                    unit: Some(u),
                    text: format!(
                        "holds the shot: with Careful Aim it would miss by {}",
                        dc - p.rolls[0].total
                    ),
                });
            }
            // Misses fly on as area fire.
            if !w.melee() && !withheld {
                let misses: Vec<i32> = p
                    .rolls
                    .iter()
                    .filter(|r| r.total < dc)
                    .map(|r| dc - r.total)
                    .collect();
                for dof in misses {
                    let size = self.sheet(a.target).size + dof as f64;
                    let from = self.state(u).pos;
                    let through = self.state(a.target).pos;
                    self.stray(
                        u,
                        a.weapon,
                        from,
                        through,
                        size,
                        Some(a.target),
                        dice,
                        events,
                    );
                }
            }
        }
    }

    fn mana_question(&self) -> Option<Prompt> {
        self.pending
            .as_ref()
            .and_then(|p| self.mana_question_for(p))
    }

    fn mana_question_for(&self, p: &Pending) -> Option<Prompt> {
        if p.limit.is_some() {
            let t = p.attack.target;
            return (!p.limit_answered
                && self.is_player(t)
                && self.state(t).mana > 0
                && !self.sheet(t).mook)
                .then_some(Prompt::ManaLimit(t));
        }
        if !p.rolled || p.rolls.len() != 1 {
            return None;
        }
        let roll = &p.rolls[0];
        let hit = roll.success == Some(true);
        let (a, t) = (p.attacker, p.attack.target);
        if !hit && !p.mana_asked.0 && self.is_player(a) && self.state(a).mana > 0 {
            return Some(Prompt::ManaAttack(a));
        }
        if hit
            && !p.mana_asked.1
            && p.defense.is_some_and(|k| k != DefenseKind::None)
            && self.is_player(t)
            && self.state(t).mana > 0
        {
            return Some(Prompt::ManaDefense(t));
        }
        None
    }

    fn spend_mana(
        &mut self,
        u: UnitId,
        prompt: Option<Prompt>,
        m: ManaChoice,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let Some(prompt) = prompt else { return };
        let Some(mut p) = self.pending.clone() else {
            return;
        };
        match prompt {
            Prompt::ManaAttack(_) => p.mana_asked.0 = true,
            Prompt::ManaDefense(_) => p.mana_asked.1 = true,
            _ => p.limit_answered = true,
        }
        if m != ManaChoice::Keep {
            self.state_mut(u).mana -= 1;
            events.push(BattleEvent::Note {
                unit: Some(u),
                text: format!("spends a Mana point ({m:?}); {} left", self.state(u).mana),
            });
        }
        match (prompt, m) {
            (_, ManaChoice::Keep) => {}
            (Prompt::ManaLimit(_), ManaChoice::FixLimit) => {
                if let Some(l) = &mut p.limit {
                    l.limit = injury::pen_limit(2, self.sheet(u).pen_limit_rs);
                    l.roll = 2;
                }
            }
            (Prompt::ManaAttack(_), _) | (Prompt::ManaDefense(_), _) => {
                let slot = matches!(prompt, Prompt::ManaAttack(_));
                let roll = if slot {
                    p.rolls[0].clone()
                } else {
                    match &p.defense_roll {
                        Some((_, r)) => r.clone(),
                        None => return,
                    }
                };
                let new = match m {
                    ManaChoice::Adjust(n) => {
                        let mut r = roll.clone();
                        r.modifiers.push(Modifier::new("Mana", n));
                        r.total += n;
                        r
                    }
                    _ => {
                        let mods: Vec<Modifier> = roll
                            .modifiers
                            .iter()
                            .filter(|m| &*m.label != "open-ended")
                            .cloned()
                            .collect();
                        let again = open_ended_2d6(dice, mods, roll.target);
                        events.push(BattleEvent::Roll {
                            unit: u,
                            purpose: "Mana re-roll".into(),
                            roll: again.clone(),
                            result: format!(
                                "{} (kept the better of {})",
                                again.total.max(roll.total),
                                roll.total
                            )
                            .into(),
                        });
                        if again.total > roll.total {
                            again
                        } else {
                            roll.clone()
                        }
                    }
                };
                if slot {
                    p.rolls[0] = new;
                } else if let Some((_, r)) = &mut p.defense_roll {
                    *r = new;
                }
                self.pending = Some(p);
                self.judge_attack(dice, events);
                return;
            }
            _ => {}
        }
        self.pending = Some(p);
        if matches!(prompt, Prompt::ManaAttack(_) | Prompt::ManaDefense(_)) {
            self.judge_attack(dice, events);
        }
    }

    /// The Penetration of `u`'s weapon `w` (muscle-powered: rolled), with extra effort and
    /// attitude in the Brawn; `bonus` adds goodies to the damage roll.
    fn roll_pen(
        &mut self,
        u: UnitId,
        w: &Weapon,
        effort: u8,
        bonus: i32,
        dice: &mut impl DieRoller,
    ) -> (f64, Option<RollRecord>) {
        if let Some(p) = w.pen {
            return (p, None);
        }
        let sheet = self.sheet(u).clone();
        let s = self.state(u);
        let mut brawn = sheet.brawn + s.attitude.brawn() as f64 + effort as f64;
        if s.vector.is_some() && w.melee() {
            brawn = combat::high_speed_brawn(brawn, s.moved as f64, sheet.action_score);
        }
        let faces = vec![dice.roll_die(6), dice.roll_die(6)];
        let raw = (faces[0] + faces[1]) as i32;
        let with_goodies = (raw + bonus).min(12);
        let rs = w.pen_rs.unwrap_or(0.0) + sheet.unarmed.pen_rs + brawn;
        let pen = injury::muscle_pen(with_goodies, rs);
        let mut mods = Vec::new();
        if with_goodies != raw {
            mods.push(Modifier::new("goodies", with_goodies - raw));
        }
        let rec = plain_record(faces, mods, with_goodies, None);
        (pen, Some(rec))
    }

    fn start_hit(
        &mut self,
        loc: Location,
        goodies: i32,
        through_cover: bool,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let Some(p) = self.pending.clone() else {
            return;
        };
        let (u, t) = (p.attacker, p.attack.target);
        let w = self.weapon(u, p.attack.weapon);
        // Goodies: the damage roll first for muscle-powered blows, then the armor roll.
        let dmg_bonus = if w.pen.is_none() { goodies.min(6) } else { 0 };
        let left = goodies - dmg_bonus;
        let (mut pen, rec) = self.roll_pen(u, &w, p.attack.effort, dmg_bonus, dice);
        if let Some(rec) = rec {
            events.push(BattleEvent::Roll {
                unit: u,
                purpose: "Penetration (2d6, row-shifted)".into(),
                roll: rec,
                result: format!("Pen {pen:.1}").into(),
            });
        }
        // Damage Attenuation.
        if let Some(da) = w.da {
            let d = self.distance(u, t);
            let steps = (d / da).floor();
            if steps > 0.0 {
                pen = shift(pen, -steps);
            }
        }
        if through_cover {
            let r = (dice.roll_die(6) + dice.roll_die(6)) as i32;
            let res = injury::armor(pen, r, 1.0, w.ap_rs, 0);
            events.push(BattleEvent::Note {
                unit: Some(t),
                text: format!(
                    "the shot goes through the cover: barrier roll {r} stops {:.1}, Pen {:.1} left",
                    res.stopped, res.through
                ),
            });
            pen = res.through;
        }
        let Some((pen, armor_goodies)) =
            self.armor_pass(Some(u), t, &w, loc, pen, left, dice, events)
        else {
            return;
        };
        // The Penetration Limit roll, goodies shifting it toward the blow's Pen.
        let raw = (dice.roll_die(6) + dice.roll_die(6)) as i32;
        let rs = self.sheet(t).pen_limit_rs;
        let mut roll = raw;
        let mut g = armor_goodies.max(0);
        while g > 0 && roll < 12 && injury::pen_limit(roll, rs) < pen {
            roll += 1;
            g -= 1;
        }
        let limit = injury::pen_limit(roll, rs);
        if let Some(q) = &mut self.pending {
            q.limit = Some(LimitRoll { loc, roll, limit });
            q.limit_answered = false;
            q.pen = Some(pen);
        }
        // The AI's Mana for its own Penetration Limit roll.
        if !self.is_player(t) && self.state(t).mana > 0 && !self.sheet(t).mook {
            let sheet = self.sheet(t).clone();
            let b = injury::blow(
                pen,
                limit,
                roll,
                w.wound,
                sheet.wound_limit,
                sheet.susceptibility,
            );
            if super::ai::fix_limit(self, t, &b, loc) {
                self.state_mut(t).mana -= 1;
                events.push(BattleEvent::Note {
                    unit: Some(t),
                    text: format!(
                        "spends a Mana point: the Penetration Limit roll becomes 2; {} left",
                        self.state(t).mana
                    ),
                });
                if let Some(q) = &mut self.pending
                    && let Some(l) = &mut q.limit
                {
                    l.limit = injury::pen_limit(2, rs);
                    l.roll = 2;
                }
            }
        }
        if self.mana_question().is_none() {
            self.finish_hit(dice, events);
        }
    }

    /// Armor over `loc` against a blow of `pen` from weapon `w` ("Armor"): each piece rolls
    /// (goodies lowering the roll), with activation, AP, blunt trauma and wear. The Pen
    /// left and the goodies left, or `None` when the blow is stopped.
    #[allow(clippy::too_many_arguments)]
    fn armor_pass(
        &mut self,
        by: Option<UnitId>,
        t: UnitId,
        w: &Weapon,
        loc: Location,
        mut pen: f64,
        goodies: i32,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) -> Option<(f64, i32)> {
        let armor: Vec<(usize, super::sheet::Armor)> = self
            .sheet(t)
            .armor
            .iter()
            .cloned()
            .enumerate()
            .filter(|(i, a)| a.covers.contains(&loc) && !self.state(t).wear[*i].destroyed)
            .collect();
        let mut armor_goodies = goodies;
        for (i, a) in armor {
            if pen <= 0.0 {
                break;
            }
            let raw = (dice.roll_die(6) + dice.roll_die(6)) as i32;
            let r = (raw - armor_goodies).max(2);
            armor_goodies -= raw - r;
            let wear = self.state(t).wear[i];
            let activation = a.activation.max(wear.activation);
            let res = injury::armor(pen, r, a.rs - wear.loss, w.ap_rs, activation);
            events.push(BattleEvent::Note {
                unit: Some(t),
                text: if res.bypassed {
                    format!(
                        "{} bypassed (armor roll {r} under activation {activation})",
                        a.name
                    )
                } else {
                    format!(
                        "{}: armor roll {r}{} stops {:.1} of Pen {:.1}",
                        a.name,
                        if raw != r {
                            format!(" ({raw} less goodies)")
                        } else {
                            String::new()
                        },
                        res.stopped,
                        pen
                    )
                },
            });
            if !res.bypassed {
                let absorbed = pen.min(res.stopped);
                // Blunt trauma through armor that stopped the blow.
                if res.through <= 0.0
                    && (a.blunt.is_some() || a.pad.is_some())
                    && let Some(inj) = injury::blunt_trauma(
                        absorbed,
                        w.wound,
                        w.sharp,
                        a.blunt.unwrap_or(0.0),
                        a.pad,
                    )
                {
                    let scores = injury::injury_scores(inj);
                    self.record_injuries(by, t, loc, &scores, false, "blunt trauma", events);
                }
                // Armor degradation.
                let hit_score = (w.wound + score(absorbed)).floor() as i32;
                if injury::degrades(
                    res.through > 0.0,
                    w.smash,
                    a.flexible,
                    w.hardness,
                    a.hardness,
                ) {
                    let wear = &mut self.state_mut(t).wear[i];
                    match injury::degrade(hit_score) {
                        injury::Degrade::Destroyed => {
                            wear.destroyed = true;
                            events.push(BattleEvent::Note {
                                unit: Some(t),
                                text: format!("{} is destroyed", a.name),
                            });
                        }
                        injury::Degrade::Worn { activation, loss } => {
                            wear.activation = wear.activation.max(activation);
                            wear.loss = wear.loss.max(loss);
                            events.push(BattleEvent::Note {
                                unit: Some(t),
                                text: format!("{} is damaged (activation {activation})", a.name),
                            });
                        }
                        injury::Degrade::None => {}
                    }
                }
                pen = res.through;
            }
        }
        if pen <= 0.0 {
            events.push(BattleEvent::Note {
                unit: Some(t),
                text: format!("the blow to the {} is stopped", loc.word()),
            });
            return None;
        }
        Some((pen, armor_goodies))
    }

    fn finish_hit(&mut self, dice: &mut impl DieRoller, events: &mut Vec<BattleEvent>) {
        let Some(mut p) = self.pending.clone() else {
            return;
        };
        let Some(LimitRoll {
            loc,
            roll: raw,
            limit,
        }) = p.limit.take()
        else {
            return;
        };
        let pen = p.pen.unwrap_or(0.0);
        self.pending = Some(p.clone());
        let (u, t) = (p.attacker, p.attack.target);
        let w = self.weapon(u, p.attack.weapon);
        let sheet = self.sheet(t).clone();
        let b = injury::blow(
            pen,
            limit,
            raw,
            w.wound,
            sheet.wound_limit,
            sheet.susceptibility,
        );
        events.push(BattleEvent::Note {
            unit: Some(t),
            text: format!(
                "{}: Pen {pen:.1} against Penetration Limit {limit:.1} (roll {raw}): {:.1} absorbed, Wound {:+}, Injury {:+.2}{}{}",
                loc.word(),
                b.absorbed,
                b.wound,
                b.exact,
                if b.penetrating { ", penetrating" } else { "" },
                if b.blew_through { ", blows through" } else { "" }
            ),
        });
        self.record_injuries(Some(u), t, loc, &b.scores, b.penetrating, &w.name, events);
        if b.blew_through && !w.melee() {
            let from = self.state(u).pos;
            let through = self.state(t).pos;
            let size = sheet.size;
            self.stray(
                u,
                p.attack.weapon,
                from,
                through,
                size,
                Some(t),
                dice,
                events,
            );
        }
    }

    /// A blow without an attack roll (a collision, a stray projectile, fragments): Pen
    /// `pen` from weapon `w` at `loc`, through armor and the Penetration Limit like any hit
    /// ("Armor", "Penetration Limit", "Injury"); no Mana is asked for.
    #[allow(clippy::too_many_arguments)]
    fn damage(
        &mut self,
        by: Option<UnitId>,
        t: UnitId,
        w: &Weapon,
        pen: f64,
        loc: Location,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        if !self.fighting(t) || pen <= 0.0 {
            return;
        }
        let Some((pen, _)) = self.armor_pass(by, t, w, loc, pen, 0, dice, events) else {
            return;
        };
        let sheet = self.sheet(t).clone();
        let raw = (dice.roll_die(6) + dice.roll_die(6)) as i32;
        let limit = injury::pen_limit(raw, sheet.pen_limit_rs);
        let b = injury::blow(
            pen,
            limit,
            raw,
            w.wound,
            sheet.wound_limit,
            sheet.susceptibility,
        );
        events.push(BattleEvent::Note {
            unit: Some(t),
            text: format!(
                "{}: Pen {pen:.1} against Penetration Limit {limit:.1} (roll {raw}): Injury {:+.2}{}",
                loc.word(),
                b.exact,
                if b.penetrating { ", penetrating" } else { "" }
            ),
        });
        self.record_injuries(by, t, loc, &b.scores, b.penetrating, &w.name, events);
    }

    #[allow(clippy::too_many_arguments)]
    fn record_injuries(
        &mut self,
        by: Option<UnitId>,
        t: UnitId,
        loc: Location,
        scores: &[i32],
        penetrating: bool,
        what: &str,
        events: &mut Vec<BattleEvent>,
    ) {
        let sheet = self.sheet(t).clone();
        let before = self
            .state(t)
            .injuries
            .iter()
            .map(|i| i.score)
            .max()
            .unwrap_or(0);
        let mut mook_out = false;
        for (k, &sc) in scores.iter().enumerate() {
            if sc < 1 {
                continue;
            }
            let inj = Injury {
                score: sc,
                location: loc,
                penetrating: penetrating && k == 0,
            };
            let s = self.state_mut(t);
            injury::record(&mut s.injuries, inj);
            let recorded = s.injuries.last().copied().unwrap_or(inj);
            if sheet.mook && injury::mook_down(&recorded, sheet.robot) {
                mook_out = true;
            }
        }
        let after = self
            .state(t)
            .injuries
            .iter()
            .map(|i| i.score)
            .max()
            .unwrap_or(0);
        events.push(BattleEvent::Damage {
            attacker: by,
            target: t,
            roll: RollRecord {
                dice: INJURY_DICE,
                ..plain_record(
                    Vec::new(),
                    Vec::new(),
                    scores.first().copied().unwrap_or(0),
                    None,
                )
            },
            damage_type: Cow::Owned(what.to_string()),
            steps: scores.iter().map(|s| Modifier::new("injury", *s)).collect(),
            injury: scores.first().copied().unwrap_or(0).max(0),
            hp_before: before,
            hp_after: after,
            hp_max: 16,
            location: Some(loc.word().into()),
        });
        let now = if sheet.mook {
            if mook_out { Hurt::Down } else { Hurt::Fighting }
        } else {
            injury::major_state(&self.state(t).injuries)
        };
        let was = self.state(t).hurt;
        if (now != Hurt::Fighting && was == Hurt::Fighting)
            || (now == Hurt::Dead && was == Hurt::Down)
        {
            self.take_out(t, now, events);
        }
    }

    fn take_out(&mut self, t: UnitId, now: Hurt, events: &mut Vec<BattleEvent>) {
        let s = self.state_mut(t);
        s.hurt = now;
        s.vector = None;
        s.control.clear();
        s.waiting = false;
        events.push(BattleEvent::StatusChanged {
            unit: t,
            standing: standing(now),
            cause: match now {
                Hurt::Dead => "killed".into(),
                _ => "out of the fight".into(),
            },
        });
        if self.active == Some(t) {
            self.active = None;
        }
    }

    /// Shots flying on past `through` (a miss or over-penetration) as area fire against a
    /// Size of `size`, for everyone on the line beyond it ("Misses", "Over-Penetration").
    #[allow(clippy::too_many_arguments)]
    fn stray(
        &mut self,
        u: UnitId,
        weapon: Option<usize>,
        from: Hex,
        through: Hex,
        size: f64,
        skip: Option<UnitId>,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let w = self.weapon(u, weapon);
        let Some(map) = self.map.clone() else { return };
        let max = w.max_range.unwrap_or(60.0).min(60.0) as i32;
        let dir = through - from;
        if dir == Hex::ZERO {
            return;
        }
        let dist = from.unsigned_distance_to(through).max(1) as i32;
        let far = from + Hex::new(dir.x * max / dist, dir.y * max / dist);
        let area_range = dist as f64;
        let mut victims = Vec::new();
        for h in from.line_to(far).skip(dist as usize + 1) {
            if map.move_cost(h).is_none() {
                break;
            }
            for v in self.ids() {
                if Some(v) != skip && v != u && self.fighting(v) && self.state(v).pos == h {
                    victims.push(v);
                }
            }
        }
        for v in victims {
            let d = self.distance(u, v);
            let sat = combat::saturation(0.0, self.sheet(v).size, size, d, area_range);
            self.area_victim(u, &w, v, sat, dice, events);
        }
    }

    /// One victim of area fire with saturation `sat`: hit with Wound raised by the
    /// saturation, or a roll on the saturation table for one projectile.
    #[allow(clippy::too_many_arguments)]
    fn area_victim(
        &mut self,
        u: UnitId,
        w: &Weapon,
        v: UnitId,
        sat: i32,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let Some((need, die)) = combat::saturation_roll(sat) else {
            return;
        };
        let (hit, wound) = if sat >= 0 {
            (true, w.wound + sat as f64)
        } else {
            let r = dice.roll_die(die);
            events.push(BattleEvent::Note {
                unit: Some(v),
                text: format!(
                    "in the line of fire: saturation {sat}, d{die} roll {r} (hit on {need} or less)"
                ),
            });
            (r <= need, w.wound)
        };
        if !hit {
            return;
        }
        let loc = combat::HUMAN_CHART[(dice.roll_die(10) - 1) as usize];
        let pen = w.pen.unwrap_or_else(|| shift(7.0, w.pen_rs.unwrap_or(0.0)));
        events.push(BattleEvent::Note {
            unit: Some(v),
            text: format!(
                "struck by a stray projectile from {} ({})",
                self.name(u),
                w.name
            ),
        });
        let mut shot = w.clone();
        shot.wound = wound;
        self.damage(Some(u), v, &shot, pen, loc, dice, events);
    }

    fn area_fire(
        &mut self,
        u: UnitId,
        wi: usize,
        at: Hex,
        shots: u32,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let w = self.weapon(u, Some(wi));
        let s = self.state(u).clone();
        let sheet = self.sheet(u).clone();
        {
            let st = self.state_mut(u);
            if let Some(Some(n)) = st.loaded.get_mut(wi) {
                *n = n.saturating_sub(shots);
            }
            if let Some(f) = st.fired.get_mut(wi) {
                *f += shots;
            }
        }
        let d = s.pos.unsigned_distance_to(at).max(1) as f64;
        let area_size = 1.0; // one hex, about a square meter
        let dc = base_difficulty(sheet.size, area_size, d)
            + if w.melee() {
                0
            } else {
                speed_penalty(d, w.speed)
            };
        let skill = if w.kind == WeaponKind::Thrown {
            ("Throw", sheet.skills.throw)
        } else {
            ("Shoot", sheet.skills.shoot)
        };
        let mut mods = vec![
            Modifier::new("Coordination", sheet.coordination),
            Modifier::new(skill.0, skill.1),
        ];
        let nth = multiple_action_penalty(s.actions.max(1));
        if nth != 0 {
            mods.push(Modifier::new("multiple actions", nth));
        }
        if s.focus {
            mods.push(Modifier::new("Focus", 2));
            self.state_mut(u).focus = false;
        }
        let att = s.attitude.attack(!s.attack_bonus_used) + s.attitude.coordination();
        if att != 0 {
            mods.push(Modifier::named(
                format!("{} attitude", s.attitude.word()),
                att,
            ));
        }
        if w.kind == WeaponKind::Thrown {
            self.breath(u, 1, events);
        }
        let t = task::task(dice, mods, dc, 0);
        let landed = if t.succeeded() {
            at
        } else {
            // "Area Attacks": a miss lands value of [degree of failure] meters off, in a
            // random direction (1d6 hex sides).
            let off = combat::miss_distance(t.degree);
            let dir = vector::direction((dice.roll_die(6) - 1) as u8);
            let mut h = at;
            for _ in 0..off {
                let n = h + dir;
                if self.map.as_ref().is_some_and(|m| m.move_cost(n).is_some()) {
                    h = n;
                }
            }
            h
        };
        events.push(BattleEvent::Roll {
            unit: u,
            purpose: Cow::Owned(format!("{} at ({}, {})", w.name, at.x, at.y)),
            roll: t.roll.clone(),
            result: Cow::Owned(if t.succeeded() {
                "on the spot".to_string()
            } else {
                format!("lands at ({}, {})", landed.x, landed.y)
            }),
        });
        if let Some(frag) = w.frag {
            // "Fragmentation": area fire with Spread 0 and the listed Shot score.
            let victims: Vec<UnitId> = self
                .ids()
                .filter(|&v| {
                    self.fighting(v)
                        && self.state(v).pos.unsigned_distance_to(landed) <= FRAG_RADIUS
                })
                .collect();
            for v in victims {
                let r = self.state(v).pos.unsigned_distance_to(landed).max(1) as f64;
                let rs = range_score(r).max(self.sheet(v).size.round() as i32);
                let sat = (frag + self.sheet(v).size - rs as f64).floor() as i32;
                self.area_victim(u, &w, v, sat, dice, events);
            }
        } else {
            // "Area Fire": everything in the hex aimed at (and along the line) may be hit.
            let hits = if t.succeeded() { shots } else { 0 };
            if hits == 0 {
                return;
            }
            let shot = combat::shot_score(hits);
            let victims: Vec<UnitId> = self
                .ids()
                .filter(|&v| v != u && self.fighting(v) && self.state(v).pos == landed)
                .collect();
            for v in victims {
                let sat = combat::saturation(shot, self.sheet(v).size, area_size, d, d);
                self.area_victim(u, &w, v, sat, dice, events);
            }
        }
    }

    fn grapple(
        &mut self,
        u: UnitId,
        t: UnitId,
        mode: GrappleMode,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        self.breath(u, 1, events);
        let sheet = self.sheet(u).clone();
        let s = self.state(u).clone();
        let mut mods = vec![
            Modifier::new("Coordination", sheet.coordination),
            Modifier::new("Grapple", sheet.skills.grapple),
        ];
        let nth = multiple_action_penalty(s.actions.max(1));
        if nth != 0 {
            mods.push(Modifier::new("multiple actions", nth));
        }
        let held = self.control_on(u);
        if held != 0 {
            mods.push(Modifier::new("grappled", held));
        }
        if s.focus {
            mods.push(Modifier::new("Focus", 2));
            self.state_mut(u).focus = false;
        }
        // A lifted foe is taken down at will ("Pickup"): no roll, a smash into the ground.
        if mode == GrappleMode::Takedown && self.state(t).lifted_by == Some(u) {
            let st = self.state_mut(t);
            st.lifted_by = None;
            st.prone = true;
            events.push(BattleEvent::Note {
                unit: Some(t),
                text: format!("slammed down by {}", self.name(u)),
            });
            let penalty = self.control_on(t);
            self.smash(u, t, penalty, dice, events);
            return;
        }
        let dc = base_difficulty(sheet.size, self.sheet(t).size, 1.0);
        // The foe defends (an AI choice for everyone: grapples are quick).
        self.lose_focus(t, "it defended", events);
        let defense = self.defense_roll(t, None, DefenseKind::Normal, false, dice);
        let dc = dc + defense.total.max(0);
        let roll = open_ended_2d6(dice, mods, Some(dc));
        let degree = roll.total - dc;
        let ok = degree >= 0;
        if !ok && roll.total >= dc - defense.total.max(0) {
            // "Throws": the defense stopped it.
            self.state_mut(t).defended_against = Some(u);
        }
        events.push(BattleEvent::Attack {
            attacker: u,
            target: t,
            weapon: crate::dice::Label::from(format!("grapple ({mode:?})")),
            roll,
            defenses: vec![DefenseRecord {
                defense: "defense".into(),
                roll: defense,
            }],
            result: if ok {
                AttackResult::Hit
            } else {
                AttackResult::Miss
            },
        });
        if !ok {
            return;
        }
        // "Grapple Attack": 2d6 + degrees, row-shifted by Strength - 2 ("Throws": and by the
        // victim's own Brawn).
        let r = (dice.roll_die(6) + dice.roll_die(6)) as i32 + degree;
        let strength = sheet.strength as f64
            + if mode == GrappleMode::Throw {
                self.sheet(t).brawn
            } else {
                0.0
            };
        let control = combat::control_points(r, strength);
        let carry = self.sheet(t).carry;
        match mode {
            GrappleMode::Pickup => {
                let pen = control_penalty(control, carry);
                let need = combat::pickup_penalty_needed(self.sheet(t).size, sheet.strength);
                let lifted = -pen >= need;
                if lifted {
                    self.state_mut(t).lifted_by = Some(u);
                }
                events.push(BattleEvent::Note {
                    unit: Some(t),
                    text: format!(
                        "pickup: Control penalty {pen:+} against {need} needed: {}",
                        if lifted {
                            "lifted off the ground"
                        } else {
                            "too heavy to lift"
                        }
                    ),
                });
            }
            GrappleMode::Strangle | GrappleMode::Choke => {
                // The hold on the neck adds Control like a grab and sets the hold.
                if let Some((_, c)) = self.state_mut(u).control.iter_mut().find(|(x, _)| *x == t) {
                    *c += control;
                }
                let st = self.state_mut(t);
                if mode == GrappleMode::Strangle {
                    st.strangled_by = Some(u);
                } else {
                    st.choked_by = Some(u);
                }
                events.push(BattleEvent::Note {
                    unit: Some(t),
                    text: format!(
                        "{} by the neck (Control {:+})",
                        if mode == GrappleMode::Strangle {
                            "strangled"
                        } else {
                            "choked"
                        },
                        self.control_on(t)
                    ),
                });
                if mode == GrappleMode::Strangle {
                    // "While strangling, you are also causing your unarmed combat damage to
                    // the neck."
                    let w = unarmed(&sheet);
                    let (pen, _) = self.roll_pen(u, &w, 0, 0, dice);
                    self.damage(Some(u), t, &w, pen, Location::Neck, dice, events);
                }
            }
            GrappleMode::Grab => {
                let st = self.state_mut(u);
                match st.control.iter_mut().find(|(x, _)| *x == t) {
                    Some((_, c)) => *c += control,
                    None => st.control.push((t, control)),
                }
                events.push(BattleEvent::Note {
                    unit: Some(t),
                    text: format!(
                        "grabbed: {control:.1} Control points (Coordination {:+})",
                        self.control_on(t)
                    ),
                });
            }
            GrappleMode::Escape => {
                let st = self.state_mut(t);
                if let Some((_, c)) = st.control.iter_mut().find(|(x, _)| *x == u) {
                    *c -= control;
                }
                st.control.retain(|(_, c)| *c > 0.0);
                events.push(BattleEvent::Note {
                    unit: Some(u),
                    text: format!("works {control:.1} Control points loose"),
                });
            }
            GrappleMode::Shove | GrappleMode::Takedown | GrappleMode::Throw => {
                let pen = control_penalty(control, carry);
                self.state_mut(t).off_balance += pen;
                let mut text =
                    format!("knocked off balance: Coordination {pen:+} on the next turn");
                if mode != GrappleMode::Shove && pen <= -3 {
                    self.state_mut(t).prone = true;
                    text.push_str(", taken down prone");
                }
                let mut struck = false;
                if mode != GrappleMode::Takedown {
                    let steps = (-pen / 2) as u32;
                    let dir = self.state(t).pos - self.state(u).pos;
                    let steps = if dir == Hex::ZERO { 0 } else { steps };
                    let mut at = self.state(t).pos;
                    for _ in 0..steps {
                        let n = at + dir;
                        let free = self.map.as_ref().is_none_or(|m| m.move_cost(n).is_some())
                            && !self
                                .ids()
                                .any(|o| self.fighting(o) && self.state(o).pos == n);
                        if !free {
                            struck = true;
                            break;
                        }
                        at = n;
                    }
                    if at != self.state(t).pos {
                        let from = self.state(t).pos;
                        self.state_mut(t).pos = at;
                        events.push(BattleEvent::Knockback {
                            unit: t,
                            distance: steps,
                            path: from.line_to(at).map(hex_pair).collect(),
                            stopped_by: None,
                        });
                    }
                }
                events.push(BattleEvent::Note {
                    unit: Some(t),
                    text,
                });
                if mode != GrappleMode::Takedown && struck {
                    // "Smash": driven into a solid object, a collision.
                    events.push(BattleEvent::Note {
                        unit: Some(t),
                        text: "driven into something solid".into(),
                    });
                    self.smash(u, t, pen, dice, events);
                }
            }
        }
    }

    /// "Smash": `t` driven by grappler `u` into something solid, with the Coordination
    /// penalty `penalty` from the move: the grappler's unarmed Penetration row-shifted by
    /// [`combat::smash_rs`] (both hands), with the victim's unarmed Wound.
    fn smash(
        &mut self,
        u: UnitId,
        t: UnitId,
        penalty: i32,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let sheet = self.sheet(u).clone();
        let victim = self.sheet(t).clone();
        let rs = sheet.unarmed.pen_rs
            + sheet.brawn
            + combat::smash_rs(true, sheet.size - victim.size, penalty);
        let r = (dice.roll_die(6) + dice.roll_die(6)) as i32;
        let pen = injury::muscle_pen(r, rs);
        let mut blow = unarmed(&victim);
        blow.name = "smash".into();
        let loc = combat::HUMAN_CHART[(dice.roll_die(10) - 1) as usize];
        events.push(BattleEvent::Note {
            unit: Some(t),
            text: format!("smash: roll {r} at RS {rs:+.1}, Pen {pen:.1}"),
        });
        self.damage(Some(u), t, &blow, pen, loc, dice, events);
    }

    /// The chance that `u`'s attack `a` hits before any defense (exact over 2d6, open-ended
    /// ends counted).
    pub fn hit_chance(&self, u: UnitId, a: &Attack) -> f64 {
        let (mods, dc) = self.attack_modifiers(u, a);
        let m: i32 = mods.iter().map(|m| m.value).sum();
        task::chance_at_least(dc - m)
    }

    /// The chance that attack `a` of `u` hits when the target defends in the way `kind`
    /// (keeping its Evade roll of the turn if that is better), for the odds preview.
    pub fn hit_chance_against(&self, u: UnitId, a: &Attack, kind: DefenseKind) -> f64 {
        let (mods, dc) = self.attack_modifiers(u, a);
        let need = dc - mods.iter().map(|m| m.value).sum::<i32>();
        if kind == DefenseKind::None {
            return task::chance_at_least(need + 2);
        }
        let t = a.target;
        let w = self.weapon(u, a.weapon);
        let mut d: i32 = self
            .defense_modifiers(t, Some((u, &w)), kind, false)
            .iter()
            .map(|m| m.value)
            .sum();
        if self.state(t).free_defenses == 0 {
            // This defense would borrow an action: -2 more.
            d -= 2;
        }
        let evade = self.state(t).evade.as_ref().map_or(0, |r| r.total);
        task::chance_past_defense(need, d, evade)
    }
}

/// A 2d6 record of known faces (or none) and a total, for rolls made outside the task roll.
fn plain_record(
    faces: Vec<u32>,
    modifiers: Vec<Modifier>,
    total: i32,
    target: Option<i32>,
) -> RollRecord {
    RollRecord {
        dice: crate::dice::DiceName::Fixed("2d6"),
        faces,
        extra: Vec::new(),
        sense: crate::dice::RollSense::Over,
        modifiers,
        total,
        target,
        margin: target.map(|t| total - t),
        success: target.map(|t| total >= t),
        critical: None,
    }
}

/// The standing a state shows.
pub fn standing(h: Hurt) -> Standing {
    match h {
        Hurt::Fighting => Standing::Fighting,
        Hurt::Down => Standing::Unconscious,
        Hurt::Dead => Standing::Dead,
    }
}

/// The thrust, turns and drifts of a flight plan as they end its line in the log
/// (", thrust 2, turn +1"), empty when there are none.
fn flight_tail(p: &Fly) -> String {
    let mut t = String::new();
    if p.thrust > 0 {
        t += &format!(", thrust {}", p.thrust);
    }
    if p.turns != 0 {
        t += &format!(", turn {:+}", p.turns);
    }
    if p.drift != 0 {
        t += &format!(", drift {:+}", p.drift);
    }
    t
}
