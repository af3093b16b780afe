//! The rules of play of Vergeworlds (vergeworlds-rough-methods.txt, "Combat"): rounds of
//! Action Points, turns of one or more actions with an attitude, attacks with their
//! defenses and Mana, damage to mooks and major characters, movement on foot and at high
//! speed, Breath, grappling, area fire and grenades.
//!
//! Each character's state ([`UnitState`]) is a component on its entity; what the
//! characters share ([`Fight`]) is a resource; the rules run on a [`Board`] of the two.
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
use crate::battle::{
    AttackResult, BattleEvent, DefenseRecord, Standing, UnitId, hex_pair, log_only,
};
use crate::battle::{Units, UnitsMut};
use crate::dice::{DieRoller, Modifier, RollRecord, open_ended_2d6};
use crate::hexmap::line::line;
use crate::hexmap::{HexMap, Terrain};
use bevy::ecs::entity::Entity;
use bevy::ecs::resource::Resource;
use hexx::Hex;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::borrow::{Borrow, BorrowMut};
use std::sync::Arc;

mod applying;
mod attacks;
mod checks;
mod grapple;
mod hits;
mod legal;
mod turns;

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

impl GrappleMode {
    /// Every grappling move, for menus and the list of legal decisions.
    pub const ALL: [GrappleMode; 8] = [
        GrappleMode::Grab,
        GrappleMode::Escape,
        GrappleMode::Shove,
        GrappleMode::Takedown,
        GrappleMode::Throw,
        GrappleMode::Pickup,
        GrappleMode::Strangle,
        GrappleMode::Choke,
    ];
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
#[serde(deny_unknown_fields)]
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
#[serde(deny_unknown_fields)]
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
#[serde(deny_unknown_fields)]
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

/// A character's state in the battle, the component on its entity.
#[derive(bevy::ecs::component::Component, Clone, Debug, Default, PartialEq)]
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
    /// Left the battle (the game master took it out, [`super::gm::remove`]): out of the
    /// fight whatever its injuries, shown as escaped.
    pub left: bool,
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
    /// Actions and meters this turn started with, borrowed before it by defenses
    /// ("Multiple Defenses", "Moving while Defending"): they count as taken this turn but
    /// do not stop the attitude being chosen first.
    pub carried: (u32, u32),
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
    /// Control this character holds on others, by the held one's entity.
    pub control: Vec<(Entity, f64)>,
    /// Coordination penalty for the next turn (shoved, thrown).
    pub off_balance: i32,
    /// Tie-break roll this round, once rolled.
    pub tiebreak: Option<i32>,
    /// Turns taken.
    pub turns: u32,
    /// The attacker this character just defended against successfully, while a throw is
    /// open to it ("Throws": its first action after the defense, before the attacker's
    /// next turn).
    pub defended_against: Option<Entity>,
    /// The active character's turn this waiting character already tried to interrupt.
    pub interrupt_tried: Option<(Entity, u32)>,
    /// Lifted off the ground by this grappler ("Pickup"), by entity.
    pub lifted_by: Option<Entity>,
    /// Choked by this grappler ("Choke"), by entity.
    pub choked_by: Option<Entity>,
    /// Strangled by this grappler ("Squeeze or Strangle"), by entity.
    pub strangled_by: Option<Entity>,
    /// Choking Fatigue taken ("Choke").
    pub choke: f64,
    /// Meters stepped while defending off its own turn, counted as walked on the next
    /// ("Moving while Defending").
    pub step_borrowed: u32,
    /// Its mook group (the group shares one starting roll), if any.
    pub group: Option<String>,
}

impl UnitState {
    /// Whether the character still fights: not put down by its injuries, and still in the
    /// battle.
    pub fn in_fight(&self) -> bool {
        self.hurt == Hurt::Fighting && !self.left
    }

    /// The standing the character shows: escaped once it left the battle, else as its
    /// injuries leave it ([`standing`]).
    pub fn standing(&self) -> Standing {
        if self.left {
            Standing::Escaped
        } else {
            standing(self.hurt)
        }
    }

    /// Whether the character has done anything on its turn yet (acted, moved or steered
    /// beyond what it borrowed before the turn): the attitude is chosen before that
    /// ("Attitude").
    pub fn turn_begun(&self) -> bool {
        self.actions > self.carried.0 || self.moved > self.carried.1 || self.steered
    }
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
    /// What `dc` is made of (its labelled parts), shown beside the rolls' target.
    pub dc_parts: Vec<Modifier>,
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
    /// Whether each side is a player's (asked to defend and spend Mana).
    pub player_sides: Vec<bool>,
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
    /// The last walk found.
    pub(super) paths: applying::PathMemo,
    /// Nobody reads the words of this fight: the combat log is not kept (a preview; the
    /// systems set this from [`crate::battle::CombatLog::keep`] at every step). The events
    /// only the log reads (notes, rolls, moves, the decisions in words) are then not made;
    /// the events the battle's statistics and its stalemate count read are made as ever.
    pub quiet: bool,
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

    fn drawn(&self) -> Option<u64> {
        // A roll that starts with the shared die did not draw it now: no index to give.
        if self.first.is_some() {
            None
        } else {
            self.dice.drawn()
        }
    }

    fn entered_since(&self, from: u64) -> bool {
        self.dice.entered_since(from)
    }
}

/// The characters of a Vergeworlds battle by unit id: each one's [`VwStats`] and
/// [`UnitState`] (a battle world, or the systems' query).
pub trait VwUnits: Units<VwStats, UnitState> {}
impl<T: Units<VwStats, UnitState> + ?Sized> VwUnits for T {}

/// [`VwUnits`] whose states the rules may change.
pub trait VwUnitsMut: UnitsMut<VwStats, UnitState> + VwUnits {}
impl<T: UnitsMut<VwStats, UnitState> + ?Sized> VwUnitsMut for T {}

/// A Vergeworlds battle as the rules see it: what the characters share (`fight`, the
/// [`Fight`] resource, which the board reads as through `Deref`) and the characters' own
/// components (`units`). The systems lend it the resource and their query; the window and
/// the tests a battle world. The accessors that return a character directly are for ids
/// the rules have checked (a unit of the battle); they panic otherwise, as indexing a list
/// would.
pub struct Board<F, U> {
    /// The shared state: a [`Fight`], or a reference to one.
    pub fight: F,
    /// The characters' stat blocks and states.
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

impl<F: Borrow<Fight>, U: VwUnits> Board<F, U> {
    /// The state of `u`.
    pub fn state(&self, u: UnitId) -> &UnitState {
        match self.units.state_of(u) {
            Some(s) => s,
            None => panic!("no character {u:?}"),
        }
    }

    /// The stat block of `u`.
    pub fn sheet(&self, u: UnitId) -> &VwStats {
        match self.units.sheet_of(u) {
            Some(s) => s,
            None => panic!("no character {u:?}"),
        }
    }

    /// The stat block of `u`, shared (a stat block never changes in battle: the rules
    /// that change the state while they read the stat block hold it this way rather than
    /// copying it).
    pub fn shared_sheet(&self, u: UnitId) -> Arc<VwStats> {
        match self.units.sheet_of(u) {
            Some(s) => Arc::clone(s),
            None => panic!("no character {u:?}"),
        }
    }

    /// The name of `u`.
    pub fn name(&self, u: UnitId) -> &str {
        self.units.name_of(u)
    }

    /// The entity of `u`, as the state of a pair (a grapple, a throw) names it.
    pub fn entity(&self, u: UnitId) -> Entity {
        self.units.entity(u)
    }

    /// The unit of an entity a pair's state names.
    pub fn unit_of(&self, e: Entity) -> Option<UnitId> {
        self.units.unit_of(e)
    }

    /// How many characters the battle has.
    pub fn count(&self) -> usize {
        self.units.count()
    }

    /// Every unit.
    pub fn ids(&self) -> impl Iterator<Item = UnitId> + use<F, U> {
        self.units.ids()
    }

    /// The side of `u`.
    pub fn side(&self, u: UnitId) -> u8 {
        self.units.side_of(u).unwrap_or(0)
    }

    /// Whether `u` still fights.
    pub fn fighting(&self, u: UnitId) -> bool {
        self.units.state_of(u).is_some_and(UnitState::in_fight)
    }

    /// The fighting enemies of `u`.
    pub fn enemies(&self, u: UnitId) -> Vec<UnitId> {
        self.foes(u).collect()
    }

    /// The fighting enemies of `u`, in unit order, without listing them first.
    pub fn foes(&self, u: UnitId) -> impl Iterator<Item = UnitId> + '_ {
        let side = self.side(u);
        self.ids()
            .filter(move |&e| self.side(e) != side && self.fighting(e))
    }

    /// The weapon `w` of `u` (`None`: unarmed).
    pub fn weapon(&self, u: UnitId, w: Option<usize>) -> Weapon {
        let sheet = self.sheet(u);
        match w.and_then(|i| sheet.weapons.get(i)) {
            Some(w) => w.clone(),
            None => unarmed(sheet),
        }
    }

    /// The weapon `w` of `u` (`None`: unarmed) as [`Self::weapon`] gives it, lent from
    /// the stat block rather than copied when it is one of its weapons.
    pub fn weapon_ref(&self, u: UnitId, w: Option<usize>) -> Cow<'_, Weapon> {
        let sheet = self.sheet(u);
        match w.and_then(|i| sheet.weapons.get(i)) {
            Some(w) => Cow::Borrowed(w),
            None => Cow::Owned(unarmed(sheet)),
        }
    }

    /// Distance in meters between two characters, altitude counted.
    pub fn distance(&self, a: UnitId, b: UnitId) -> f64 {
        let (sa, sb) = (self.state(a), self.state(b));
        let flat = sa.pos.unsigned_distance_to(sb.pos) as f64;
        let up = sa.alt - sb.alt;
        if up == 0.0 {
            // The square root of a whole number's exact square is that number.
            return flat;
        }
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
        let me = self.entity(u);
        let held: f64 = self
            .ids()
            .flat_map(|g| self.state(g).control.iter())
            .filter(|(t, _)| *t == me)
            .map(|(_, c)| *c)
            .sum();
        control_penalty(held, carry) + self.state(u).off_balance
    }

    /// Who holds `u` with Control, if anyone.
    pub fn held_by(&self, u: UnitId) -> Option<UnitId> {
        let me = self.entity(u);
        self.ids().find(|&g| {
            self.fighting(g)
                && self
                    .state(g)
                    .control
                    .iter()
                    .any(|(t, c)| *t == me && *c > 0.0)
        })
    }

    /// How far the character is from going down, for the map's health bar: 1 unhurt, 0
    /// out of the fight; in between, the worst injury's score against the score that puts
    /// it down (7 for a mook, 9 for a major character: [`injury::mook_down`],
    /// [`injury::major_state`]).
    pub fn health(&self, u: UnitId) -> f32 {
        let (Some(s), Some(sheet)) = (self.units.state_of(u), self.units.sheet_of(u)) else {
            return 1.0;
        };
        if !s.in_fight() {
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
}

impl<F: BorrowMut<Fight>, U: VwUnitsMut> Board<F, U> {
    /// The state of `u`, to change.
    pub fn state_mut(&mut self, u: UnitId) -> &mut UnitState {
        match self.units.state_mut(u) {
            Some(s) => s,
            None => panic!("no character {u:?}"),
        }
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
        drawn: Default::default(),
        dice: crate::dice::DiceName::Fixed("2d6"),
        faces,
        extra: Vec::new(),
        sense: crate::dice::RollSense::Over,
        modifiers,
        total,
        target,
        target_parts: Vec::new(),
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
