//! A GURPS Traveller space battle's turn, as plain code over a [`DieRoller`]
//! (gurps-traveller-gm-screen.txt, "SEQUENCE OF ACTION", "SENSOR MODIFIERS", "SPACE RANGE
//! TABLE", "GUNNERY MODIFIERS", "SPACE WEAPONS TABLE", "MAJOR DAMAGE TABLE", "VEHICLE
//! CRITICAL HITS").
//!
//! Each ship's state ([`ShipState`]: position, vector, hull, systems, what each side has
//! detected of it) is a component on its entity, each missile's ([`MissileState`]) on its
//! projectile entity from launch until it is gone; the rules read and change them through
//! [`Vessels`] and [`VesselsMut`]. [`Space`] keeps what is shared: the phase, who decides
//! next, the scenario's settings and the turn's declarations.
//!
//! A turn follows the sequence of action: (1) detection: each side scans every enemy ship
//! with its best sensor (3d6 against Electronics Operations (Sensors) + scan value + the
//! scan modifiers); (2) maneuver: each ship spends its thrust to change its vector (and
//! picks active or passive sensors, and a ship to ram), then every missile steers at its
//! target; (3) movement: everything moves along its vector at once ([`super::vector`]);
//! (4) direct fire: each ship fires its mounts at detected enemies within their maximum
//! range, all shots resolved together once every ship has declared; (5) collision and
//! point defense: ships fire the mounts they kept at the missiles that reached them (+10),
//! the missiles left strike, rams are resolved; (6) launch: ships launch missiles at
//! detected enemies; (7) damage control: each ship's engineer tries to repair one
//! knocked-out system.
//!
//! Decisions where the text is silent, each in one place:
//! - Gunnery is a GURPS success roll (3d6 ≤ effective skill, criticals as in the Lite
//!   text) against augmented Gunner skill plus the gunnery modifiers; a mount fires once a
//!   turn, in direct fire or as point defense, and hits once ([`super::tables::rof_bonus`]).
//!   The targeting program counts while the ship has a working computer and bridge.
//!   Direct fire is simultaneous: once every ship has declared, each shot is rolled
//!   against the state at declaration, however the volley's earlier hits change it.
//! - "+2 for active sensor lock": the firing ship has its active sensors (an AESA) on and
//!   its side found the target with an AESA this turn.
//! - Damage: the weapon's dice times its multiplier, halved (rounded down) beyond the
//!   half-damage range, less the armor DR it meets; what gets through comes off the hull's
//!   hit points. A hit that takes 10% of the hull's full hit points or more rolls once on
//!   the major damage table. At 0 hit points a ship no longer functions (the "VEHICLE
//!   CRITICAL HITS" preamble): it is disabled; at minus its full hit points it is
//!   destroyed.
//! - A critical hit rolls on the vehicle critical hit table as far as the text gives it
//!   (3: triple damage and a computer destroyed, for good, if it penetrates; 4: double damage; 5: 90% of
//!   the armor bypassed and a sensor lost; 6: the drive's acceleration halved, a second
//!   time it stops); 7 and up, where the text is cut off, are ordinary hits. A missile's
//!   strike that is a critical hit rolls on it too.
//! - Detection: each side rolls once a turn for every enemy ship, with the best of its
//!   ships' sensors (an AESA only while its ship's active sensors are on); "prior
//!   detection" (+4) is the side's own finding of the turn just before (shared by
//!   datalink), by another ship or another sensor type.
//!   Only detected ships can be fired at or launched at. A ship in a planet's hex or next to
//!   it is "near a planet"; in the hex of a planet with an atmosphere it is "within the
//!   atmosphere". A planet's gravity is not modelled. A ship is "silhouetted against a
//!   star" (PESA −4) when a star (a planet entry marked `star`) lies beyond it within one
//!   hex of the sensor's line through it. AESAs work as radar only (no ladar mode), and
//!   communication and docking, which the sequence names without rules, have no effect in
//!   a battle.
//! - Pinpoint marksmanship (−6 instead of the target's Size Modifier) aims at a system
//!   ([`Aim`]); a hit that gets through the armor also knocks it out.
//! - Missiles ([`MissileSpec`]): launched with the launcher's vector; each turn they steer
//!   straight for where their target will be ([`super::vector::burn_towards`]) with their
//!   own thrust, for `endurance` turns, then are gone. A missile in contact with its
//!   target during movement strikes in phase 5 unless point defense shoots it down; its
//!   strike is a success roll against its guidance skill plus the target's Size Modifier
//!   (it is there: no range modifier), its damage its dice times its multiplier against
//!   the full DR.
//! - Point defense: the target fires each mount it did not fire in direct fire at one
//!   missile in contact with it, at +10 and the missile's Size Modifier 0, at range 0.
//! - Collisions: two ships are in contact when they share a hex at the same sub-step of
//!   movement or swap hexes between two ([`super::vector::Walks::contact`]); passing
//!   through a hex the other has left, or will reach, is not a meeting. A ship that names
//!   the other as its ram target rolls a Quick Contest of Piloting with it; if it wins they
//!   collide.
//!   Ships that meet otherwise each roll Piloting to steer clear, and collide only if both
//!   fail. A collision costs each ship the other's full hit points times their relative
//!   speed in hexes a turn (at least 1), against its DR: at 10,000-mile hexes any
//!   collision is ruinous.
//! - A ship more than `escape_hexes` from every enemy ship still fighting, or that flies
//!   off the map, has left the battle: it escaped.
//! - Major damage effects: "each hit disables or kills" for NPCs (the table's note): the
//!   crew and passengers hurt are counted as out; a ship whose whole crew is out is
//!   disabled. Computers knocked out (not destroyed), the bridge, weapons, sensors, the M-drive halving and power loss
//!   are repaired in damage control by an Engineer roll, one a turn, in the order lost; the
//!   power plant, fuel, cargo and the jump drive are not repaired in a battle. Without a
//!   working bridge a ship has no targeting program and no active sensors.

use super::sheet::TravellerShip;
use super::tables::{
    self, MajorDamage, Masking, ScanTarget, SensorKind, SpaceWeapon, acc_bonus, effective_dr,
    gunnery_range_modifier, major_damage, rof_bonus,
};
use super::vector;
use crate::battle::{
    AttackResult, BattleEvent, Facing, HexPos, Projectile, Standing, UnitId, Units, UnitsMut,
};
use crate::dice::{
    Critical, DiceExpr, DiceName, DieRoller, Gather, Modifier, RollRecord, RollSense, Sum,
    quick_contest, success_roll,
};
use crate::hexmap::HexMap;
use bevy::ecs::entity::Entity;
use bevy::ecs::resource::Resource;
use bevy::ecs::world::World;
use hexx::Hex;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::sync::Arc;

mod contact;
mod damage_control;
mod fire;
mod legal;
mod quiet;
use crate::dice::RollModifiers;
pub use fire::*;

/// The standard missile of a scenario (the text has no missile stats; the defaults are a
/// decision: 6 G, guidance skill 12, 6d×20 damage, 6 turns of thrust).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MissileSpec {
    /// Acceleration, G.
    #[serde(default = "six_g")]
    pub thrust: f64,
    /// Guidance skill.
    #[serde(default = "twelve")]
    pub skill: i32,
    /// Damage dice (d6).
    #[serde(default = "six")]
    pub dice: u32,
    /// Damage multiplier.
    #[serde(default = "twenty")]
    pub multiplier: i32,
    /// Turns it flies.
    #[serde(default = "six_u")]
    pub endurance: u32,
}

impl MissileSpec {
    /// The missile as a weapon for its strike: its damage dice and multiplier, normal armor,
    /// no half-damage range (it strikes in contact). A strike that is a critical hit rolls
    /// on the vehicle critical hit table like any other (gurps-traveller-gm-screen.txt,
    /// "VEHICLE CRITICAL HITS": "when a critical hit is rolled when attacking a vehicle").
    pub fn as_weapon(&self) -> SpaceWeapon {
        SpaceWeapon {
            name: "missile",
            seconds_per_shot: 0,
            half_damage: u32::MAX,
            max_range: u32::MAX,
            acc: 0,
            dice: self.dice,
            multiplier: self.multiplier,
            armor: tables::ArmorEffect::Normal,
            radiation: false,
        }
    }
}

fn six_g() -> f64 {
    6.0
}
fn twelve() -> i32 {
    12
}
fn six() -> u32 {
    6
}
fn six_u() -> u32 {
    6
}
fn twenty() -> i32 {
    20
}

impl Default for MissileSpec {
    fn default() -> Self {
        Self {
            thrust: six_g(),
            skill: twelve(),
            dice: six(),
            multiplier: twenty(),
            endurance: six_u(),
        }
    }
}

/// A planet or moon on the map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Planet {
    /// Its name.
    pub name: String,
    /// Its hex `(q, r)`.
    pub at: (i32, i32),
    /// It has an atmosphere (more than Trace).
    #[serde(default)]
    pub atmosphere: bool,
    /// It is a star: a ship seen against it by a PESA is silhouetted.
    #[serde(default)]
    pub star: bool,
}

/// The phases of the sequence of action.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum Phase {
    /// Before the first turn, and after the last phase of a turn.
    #[default]
    Start,
    /// 1. Detection and communication.
    Detection,
    /// 2. Maneuver.
    Maneuver,
    /// 3. Movement.
    Movement,
    /// 4. Direct fire.
    DirectFire,
    /// 5. Collision and point defense.
    PointDefense,
    /// 6. Launch and docking.
    Launch,
    /// 7. Damage control.
    DamageControl,
}

impl Phase {
    /// The phase in words, for the turn tracker.
    pub fn word(self) -> &'static str {
        match self {
            Phase::Start => "turn over",
            Phase::Detection => "detection",
            Phase::Maneuver => "maneuver",
            Phase::Movement => "movement",
            Phase::DirectFire => "direct fire",
            Phase::PointDefense => "point defense",
            Phase::Launch => "launch",
            Phase::DamageControl => "damage control",
        }
    }
}

/// Whether a ship is still in the battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Condition {
    /// Fighting.
    Fighting,
    /// No longer functions (0 hit points, or nobody able aboard, or crippled and adrift is
    /// still fighting: only 0 HP or no crew disable).
    Disabled,
    /// Destroyed.
    Destroyed,
    /// Left the battle.
    Escaped,
}

impl Condition {
    /// The battle-wide standing.
    pub fn standing(self) -> Standing {
        match self {
            Condition::Fighting => Standing::Fighting,
            Condition::Disabled => Standing::Disabled,
            Condition::Destroyed => Standing::Destroyed,
            Condition::Escaped => Standing::Escaped,
        }
    }
}

/// A system knocked out that damage control can repair, in the order lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Repairable {
    /// A computer.
    Computer,
    /// The bridge.
    Bridge,
    /// The mount (index).
    Weapon(usize),
    /// A sensor.
    Sensor(SensorKind),
    /// The M-drive's halving.
    ManeuverDrive,
    /// Power loss.
    Power,
}

/// One ship's state, the component on its entity.
#[derive(bevy::ecs::component::Component, Clone, Debug, PartialEq)]
pub struct ShipState {
    /// Where it is.
    pub pos: Hex,
    /// Its velocity, hexes a turn.
    pub vel: Hex,
    /// Hull hit points.
    pub hp: i32,
    /// In or out of the battle.
    pub condition: Condition,
    /// Fuel left, tons.
    pub fuel: u32,
    /// Cargo left, tons.
    pub cargo: u32,
    /// Computers working.
    pub computers: u32,
    /// The bridge works.
    pub bridge: bool,
    /// Power loss: Gs halved.
    pub power_loss: bool,
    /// M-drive halvings (major damage 14).
    pub drive_halved: u32,
    /// Drive hits from critical hits (one halves, two stop it).
    pub drive_hits: u32,
    /// The power plant works (else crippled: no thrust, no fire).
    pub power_plant: bool,
    /// The jump drive works.
    pub jump_drive: bool,
    /// Mounts knocked out.
    pub mounts_out: Vec<bool>,
    /// Mounts fired this turn.
    pub mounts_used: Vec<bool>,
    /// Sensors knocked out.
    pub sensors_out: Vec<SensorKind>,
    /// Missiles left.
    pub missiles: u32,
    /// Crew out of action.
    pub crew_hurt: u32,
    /// Passengers hurt.
    pub passengers_hurt: u32,
    /// Its active sensors are off this turn.
    pub passive: bool,
    /// The ship it tries to ram this turn.
    pub ram: Option<UnitId>,
    /// Knocked-out systems waiting for damage control, in the order lost.
    pub repairs: Vec<Repairable>,
    /// A fire aboard (vehicle critical 7 or 16): `Some(true)` when it is a fuel fire.
    pub fire: Option<bool>,
    /// The fuel tank leaks (vehicle critical 16).
    pub leaking: bool,
    /// What each side (by index) knows of this ship this turn.
    pub seen_by: Vec<Detection>,
}

impl ShipState {
    /// A ship of `sheet` at `pos` as the battle begins (with its sheet's velocity), known
    /// to none of `sides` sides.
    pub fn new(sheet: &TravellerShip, pos: Hex, sides: usize) -> Self {
        let s = sheet;
        Self {
            pos,
            vel: Hex::new(s.stats.velocity.0, s.stats.velocity.1),
            hp: s.stats.hp,
            condition: Condition::Fighting,
            fuel: s.stats.fuel,
            cargo: s.stats.cargo,
            computers: s.stats.computers,
            bridge: true,
            power_loss: false,
            drive_halved: 0,
            drive_hits: 0,
            power_plant: true,
            jump_drive: true,
            mounts_out: vec![false; s.mounts.len()],
            mounts_used: vec![false; s.mounts.len()],
            sensors_out: Vec::new(),
            missiles: s.stats.missiles,
            crew_hurt: 0,
            passengers_hurt: 0,
            passive: false,
            ram: None,
            repairs: Vec::new(),
            fire: None,
            leaking: false,
            seen_by: vec![Detection::default(); sides],
        }
    }
}

/// A missile in flight, the component on its projectile entity from launch until it
/// strikes, is shot down, runs out of thrust or leaves the map.
#[derive(bevy::ecs::component::Component, Clone, Debug, PartialEq)]
pub struct MissileState {
    /// Its number (stable for the battle).
    pub id: u32,
    /// The entity of the ship that launched it.
    pub owner: Entity,
    /// The entity of its target.
    pub target: Entity,
    /// Where it is.
    pub pos: (i32, i32),
    /// Its velocity.
    pub vel: (i32, i32),
    /// Turns of thrust left.
    pub turns_left: u32,
    /// In contact with its target this turn.
    pub contact: bool,
}

impl MissileState {
    /// Its hex.
    pub fn hex(&self) -> Hex {
        Hex::new(self.pos.0, self.pos.1)
    }

    /// Its velocity as a hex offset.
    pub fn velocity(&self) -> Hex {
        Hex::new(self.vel.0, self.vel.1)
    }
}

/// A side's knowledge of one enemy ship this turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Detection {
    /// Found this turn.
    pub found: bool,
    /// Found with an AESA (active sensors).
    pub active: bool,
    /// The ship and sensor that found it this turn.
    pub by: Option<(UnitId, SensorKind)>,
}

impl Detection {
    /// "Prior Detection" for the next scan by `by`'s sensor of `kind`, read from this
    /// (the latest) turn's finding: found on the prior round by another sensor type, or by
    /// an ally sharing it by datalink (gurps-traveller-gm-screen.txt, "Scan Modifiers").
    /// The side's scans read it before they overwrite it with the new turn's finding.
    pub fn prior_for(&self, by: UnitId, kind: SensorKind) -> bool {
        self.by.is_some_and(|(u, k)| u != by || k != kind)
    }
}

/// One shot: a mount (index) at a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shot {
    /// The mount, an index into the ship's weapons (a mount of count 2 is two indices).
    pub mount: usize,
    /// The target.
    pub target: UnitId,
    /// Pinpoint marksmanship at one of the target's systems: −6 instead of its Size
    /// Modifier ("GUNNERY MODIFIERS").
    #[serde(default)]
    pub pinpoint: Option<Aim>,
}

/// What a pinpoint shot aims at (the text gives the −6 but not the effect; our decision:
/// a pinpoint hit that gets through the armor also knocks that system out, as the major
/// damage table's result would).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Aim {
    /// A weapon mount.
    Weapon,
    /// The M-drive: its acceleration halved.
    Drive,
    /// The bridge.
    Bridge,
    /// A sensor.
    Sensors,
}

impl Aim {
    /// Every aim, for the panel.
    pub const ALL: [Aim; 4] = [Aim::Weapon, Aim::Drive, Aim::Bridge, Aim::Sensors];
}

/// A ship's decision in a phase.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Action {
    /// Maneuver: end the movement at `to` (the burn is the change of vector it takes),
    /// with active sensors off when `passive`, trying to ram `ram`.
    Maneuver {
        /// Where the ship ends this turn's movement.
        to: (i32, i32),
        /// Active sensors off.
        #[serde(default)]
        passive: bool,
        /// The ship to ram.
        #[serde(default)]
        ram: Option<UnitId>,
    },
    /// Direct fire: these shots (none: hold every mount for point defense).
    Fire {
        /// The shots.
        shots: Vec<Shot>,
    },
    /// Launch `count` missiles at `target` (0: none).
    Launch {
        /// Their target.
        target: UnitId,
        /// How many.
        count: u32,
    },
}

/// What the battle does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Waits for this ship's decision.
    Awaiting(UnitId),
    /// A phase without decisions was played (movement, the fire's and point defense's
    /// results): the battle shows it before going on.
    Continue,
    /// The turn is over.
    RoundOver,
}

/// What the ships of a GURPS Traveller space battle share: the turn and phase, who
/// decides next, the scenario's settings (planets, scale, missiles) and the turn's
/// declarations. Each ship's sheet and state are components on its entity, each missile's
/// state on its projectile entity; the rules read them through [`Vessels`].
#[derive(Resource, Clone, Debug, Default)]
pub struct Space {
    /// Number of sides.
    pub side_count: usize,
    /// The next missile's number.
    pub next_missile: u32,
    /// Turn number.
    pub round: u32,
    /// The phase.
    pub phase: Phase,
    /// Ships still to decide in this phase, in order.
    pub queue: Vec<UnitId>,
    /// Planets and moons.
    pub planets: Vec<Planet>,
    /// Miles a hex.
    pub hex_miles: f64,
    /// Minutes a turn.
    pub turn_minutes: f64,
    /// The missiles of this battle.
    pub missile: MissileSpec,
    /// Beyond this many hexes from every enemy a ship has escaped.
    pub escape_hexes: u32,
    /// Per side: its AI breaks off when losing.
    pub may_flee: Vec<bool>,
    /// Shots declared in this turn's direct fire, resolved together.
    pub declared: Vec<(UnitId, Shot)>,
    /// Rams in contact this turn: (rammer, target).
    pub rams: Vec<(UnitId, UnitId)>,
    /// Ships that met this turn without either trying to ram.
    pub near_misses: Vec<(UnitId, UnitId)>,
    /// The battle area (the scenario's map): leaving it is leaving the battle. Only which
    /// hexes are on it is read ([`Space::in_area`]).
    pub area: Option<Arc<HexMap>>,
    /// Nobody reads the log (a preview: the systems set it from `CombatLog::keep`): the
    /// events only the log reads are left out and the roll modifiers' labels are not put
    /// together. Rolls, outcomes and statistics are the same either way.
    pub quiet: bool,
}

/// The missiles in flight, each on its projectile entity, by number.
pub trait MissileBay {
    /// The numbers of the missiles in flight, in launch order.
    fn missile_ids(&self) -> Vec<u32>;
    /// A missile in flight.
    fn missile(&self, id: u32) -> Option<&MissileState>;
}

/// [`MissileBay`] that launches, steers and removes missiles.
pub trait MissileBayMut: MissileBay {
    /// A missile in flight, to change.
    fn missile_mut(&mut self, id: u32) -> Option<&mut MissileState>;
    /// A missile launched: it gets its entity.
    fn launch(&mut self, missile: MissileState);
    /// A missile gone (struck, shot down, spent or off the map): its entity goes.
    fn remove_missile(&mut self, id: u32);
}

/// What a projectile entity of a missile carries.
pub fn missile_bundle(m: MissileState) -> impl bevy::ecs::bundle::Bundle {
    let facing = missile_facing(m.velocity());
    (Projectile, HexPos(m.hex()), Facing(facing), m)
}

/// The hex side a missile (or a ship) moving at `v` faces (north when it is at rest).
pub fn missile_facing(v: Hex) -> hexx::EdgeDirection {
    if v == Hex::ZERO {
        hexx::EdgeDirection::FLAT_NORTH
    } else {
        Hex::ZERO.main_direction_to(v)
    }
}

impl MissileBay for World {
    fn missile_ids(&self) -> Vec<u32> {
        let Some(mut q) = self.try_query::<&MissileState>() else {
            return Vec::new();
        };
        let mut v: Vec<u32> = q.iter(self).map(|m| m.id).collect();
        v.sort_unstable();
        v
    }
    fn missile(&self, id: u32) -> Option<&MissileState> {
        let mut q = self.try_query::<&MissileState>()?;
        q.iter(self).find(|m| m.id == id)
    }
}

fn missile_entity(world: &World, id: u32) -> Option<Entity> {
    let mut q = world.try_query::<(Entity, &MissileState)>()?;
    q.iter(world).find(|(_, m)| m.id == id).map(|(e, _)| e)
}

impl MissileBayMut for World {
    fn missile_mut(&mut self, id: u32) -> Option<&mut MissileState> {
        let e = missile_entity(self, id)?;
        self.get_mut::<MissileState>(e).map(|m| m.into_inner())
    }
    fn launch(&mut self, missile: MissileState) {
        self.spawn(missile_bundle(missile));
    }
    fn remove_missile(&mut self, id: u32) {
        if let Some(e) = missile_entity(self, id) {
            self.despawn(e);
        }
    }
}

/// The ships of a GURPS Traveller space battle by unit id (each one's sheet and
/// [`ShipState`]) and its missiles in flight: a battle world, or the systems' queries.
/// The accessors that return a ship directly are for ids the rules have checked (a unit of
/// the battle); they panic otherwise, as indexing a list would.
pub trait Vessels: Units<TravellerShip, ShipState> + MissileBay {
    /// A ship's sheet.
    fn sheet(&self, u: UnitId) -> &Arc<TravellerShip> {
        match self.sheet_of(u) {
            Some(s) => s,
            None => panic!("no ship {u:?}"),
        }
    }

    /// A ship's state.
    fn ship(&self, u: UnitId) -> &ShipState {
        match self.state_of(u) {
            Some(s) => s,
            None => panic!("no ship {u:?}"),
        }
    }

    /// True while the ship fights.
    fn fighting(&self, u: UnitId) -> bool {
        self.state_of(u)
            .is_some_and(|s| s.condition == Condition::Fighting)
    }

    /// Enemy ships still fighting.
    fn enemies(&self, u: UnitId) -> Vec<UnitId> {
        self.ids().filter(|&o| self.is_enemy(u, o)).collect()
    }

    /// True when `o` is one of [`Vessels::enemies`] of `u`.
    fn is_enemy(&self, u: UnitId, o: UnitId) -> bool {
        (o.0 as usize) < self.count() && self.side(o) != self.side(u) && self.fighting(o)
    }

    /// A ship's side.
    fn side(&self, u: UnitId) -> u8 {
        self.side_of(u).unwrap_or(0)
    }

    /// What `u`'s side knows of `target` this turn.
    fn detection(&self, u: UnitId, target: UnitId) -> Detection {
        self.state_of(target)
            .and_then(|t| t.seen_by.get(usize::from(self.side(u))))
            .copied()
            .unwrap_or_default()
    }

    /// Hex distance between two ships.
    fn distance(&self, a: UnitId, b: UnitId) -> u32 {
        self.ship(a).pos.unsigned_distance_to(self.ship(b).pos)
    }

    /// Hit points left of the design's, 0 once the ship is out of the fight (the map's
    /// health bar).
    fn health(&self, u: UnitId) -> f32 {
        let (Some(st), Some(sheet)) = (self.state_of(u), self.sheet_of(u)) else {
            return 1.0;
        };
        if st.condition != Condition::Fighting {
            return 0.0;
        }
        st.hp.max(0) as f32 / sheet.stats.hp.max(1) as f32
    }

    /// The one-line state for summaries (", HP 1200/2000, v (2, -1)").
    fn ship_line(&self, u: UnitId) -> String {
        let (Some(st), Some(sheet)) = (self.state_of(u), self.sheet_of(u)) else {
            return String::new();
        };
        format!(
            ", HP {}/{}, velocity ({}, {})",
            st.hp, sheet.stats.hp, st.vel.x, st.vel.y
        )
    }
}
impl<T: Units<TravellerShip, ShipState> + MissileBay + ?Sized> Vessels for T {}

/// [`Vessels`] whose states the rules may change, missiles launched and removed.
pub trait VesselsMut: UnitsMut<TravellerShip, ShipState> + MissileBayMut + Vessels {
    /// A ship's state, to change.
    fn ship_mut(&mut self, u: UnitId) -> &mut ShipState {
        match self.state_mut(u) {
            Some(s) => s,
            None => panic!("no ship {u:?}"),
        }
    }
}
impl<T: UnitsMut<TravellerShip, ShipState> + MissileBayMut + Vessels + ?Sized> VesselsMut for T {}

/// "1 point", "3 points".
pub fn points(n: u32) -> String {
    if n == 1 {
        "1 point".into()
    } else {
        format!("{n} points")
    }
}

fn note(unit: Option<UnitId>, text: String) -> BattleEvent {
    BattleEvent::Note { unit, text }
}

fn roll_event(unit: UnitId, purpose: String, roll: RollRecord, result: String) -> BattleEvent {
    BattleEvent::Roll {
        unit,
        purpose: Cow::Owned(purpose),
        roll,
        result: Cow::Owned(result),
    }
}

impl Space {
    /// The ship's acceleration now, G: halved by power loss, each M-drive halving and a
    /// first drive hit; none with the power plant out or a second drive hit.
    pub fn accel(&self, ships: &impl Vessels, u: UnitId) -> f64 {
        let st = ships.ship(u);
        if !st.power_plant || st.drive_hits >= 2 {
            return 0.0;
        }
        let mut a = ships.sheet(u).stats.accel;
        // The M-drive halved "round down" (major damage 14), each time.
        for _ in 0..st.drive_halved.min(30) {
            a = (a / 2.0).floor();
        }
        // Power loss halves Gs; a first drive hit (vehicle critical 6) halves acceleration.
        for _ in 0..(u32::from(st.power_loss) + st.drive_hits.min(1)) {
            a /= 2.0;
        }
        a
    }

    /// The ship's thrust points this turn.
    pub fn thrust(&self, ships: &impl Vessels, u: UnitId) -> u32 {
        vector::thrust_points(self.accel(ships, u), self.hex_miles, self.turn_minutes)
    }

    /// A range of `hexes` map hexes in the 10,000-mile hexes of the weapons and range
    /// tables (the same number at the default `hex_miles`).
    pub fn std_range(&self, hexes: u32) -> u32 {
        (f64::from(hexes) * self.hex_miles / 10_000.0)
            .round()
            .clamp(0.0, 1e9) as u32
    }

    /// Seconds a turn.
    pub fn turn_seconds(&self) -> u32 {
        (self.turn_minutes * 60.0).round().clamp(1.0, 1e9) as u32
    }

    /// The ship's active sensors work and are on.
    pub fn active_sensors(&self, ships: &impl Vessels, u: UnitId) -> bool {
        let st = ships.ship(u);
        !st.passive
            && st.bridge
            && ships.sheet(u).scan(SensorKind::Aesa).is_some()
            && !st.sensors_out.contains(&SensorKind::Aesa)
    }

    /// True when the hex is within the battle area (every hex when no map is known).
    pub fn in_area(&self, h: Hex) -> bool {
        self.area.as_ref().is_none_or(|m| m.contains(h))
    }

    /// True when the hex is a planet's or next to one.
    pub fn near_planet(&self, h: Hex) -> bool {
        self.planets
            .iter()
            .any(|p| Hex::new(p.at.0, p.at.1).unsigned_distance_to(h) <= 1)
    }

    /// True when `target`, seen from `from`, is silhouetted against a star: a star lies
    /// beyond it on the hex line from the sensor, within one hex of the line.
    pub fn silhouetted(&self, from: Hex, target: Hex) -> bool {
        self.planets.iter().filter(|p| p.star).any(|p| {
            let star = Hex::new(p.at.0, p.at.1);
            let d = from.unsigned_distance_to(target);
            star != target
                && from.unsigned_distance_to(star) > d
                && from
                    .line_to(star)
                    .nth(d as usize)
                    .is_some_and(|h| h.unsigned_distance_to(target) <= 1)
        })
    }

    /// True when the hex is within a planet's atmosphere (its hex).
    pub fn in_atmosphere(&self, h: Hex) -> bool {
        self.planets
            .iter()
            .any(|p| p.atmosphere && Hex::new(p.at.0, p.at.1) == h)
    }

    /// Mounts of `u` that work and have not fired this turn.
    pub fn free_mounts(&self, ships: &impl Vessels, u: UnitId) -> Vec<usize> {
        self.first_free_mounts(ships, u).collect()
    }

    /// [`Space::free_mounts`] one by one, in order.
    pub fn first_free_mounts<'s>(
        &self,
        ships: &'s impl Vessels,
        u: UnitId,
    ) -> impl Iterator<Item = usize> + 's {
        let st = ships.ship(u);
        let count = if st.power_plant {
            ships.sheet(u).mounts.len()
        } else {
            0
        };
        (0..count)
            .filter(|&i| !st.mounts_out.get(i).copied().unwrap_or(true))
            .filter(|&i| !st.mounts_used.get(i).copied().unwrap_or(true))
    }

    /// Fills the phase's queue with the ships still fighting, in unit order.
    fn queue_fighting(&mut self, ships: &impl Vessels) {
        self.queue.clear();
        self.queue
            .extend(ships.ids().filter(|&u| ships.fighting(u)));
    }

    // ---------------------------------------------------------------------------------
    // The turn.

    /// Starts a turn: the detection phase, then the maneuver phase's decisions.
    pub fn begin_turn(
        &mut self,
        ships: &mut impl VesselsMut,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        self.round += 1;
        for u in ships.ids() {
            let st = ships.ship_mut(u);
            st.mounts_used.iter_mut().for_each(|m| *m = false);
            st.ram = None;
        }
        self.declared.clear();
        self.rams.clear();
        self.near_misses.clear();
        self.phase = Phase::Detection;
        self.scan_all(ships, dice, events);
        self.phase = Phase::Maneuver;
        self.queue_fighting(ships);
    }

    /// Moves the turn on: to the next decision, or through one phase without decisions
    /// ([`Step::Continue`]), or to the turn's end.
    pub fn advance(
        &mut self,
        ships: &mut impl VesselsMut,
        map: &HexMap,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) -> Step {
        loop {
            self.queue.retain(|&u| ships.fighting(u));
            while let Some(&u) = self.queue.first() {
                if self.has_decision(ships, u) {
                    return Step::Awaiting(u);
                }
                self.queue.remove(0);
            }
            match self.phase {
                Phase::Start | Phase::DamageControl => return Step::RoundOver,
                Phase::Detection => {
                    self.phase = Phase::Maneuver;
                    self.queue_fighting(ships);
                }
                Phase::Maneuver => {
                    self.guide_missiles(ships);
                    self.phase = Phase::Movement;
                    self.movement(ships, map, events);
                    return Step::Continue;
                }
                Phase::Movement => {
                    self.phase = Phase::DirectFire;
                    self.queue_fighting(ships);
                }
                Phase::DirectFire => {
                    self.resolve_fire(ships, dice, events);
                    self.phase = Phase::PointDefense;
                    self.point_defense(ships, dice, events);
                    self.resolve_rams(ships, dice, events);
                    return Step::Continue;
                }
                Phase::PointDefense => {
                    self.phase = Phase::Launch;
                    self.queue_fighting(ships);
                }
                Phase::Launch => {
                    self.phase = Phase::DamageControl;
                    self.damage_control(ships, dice, events);
                    for id in ships.missile_ids() {
                        if ships.missile(id).is_some_and(|m| m.turns_left == 0) {
                            ships.remove_missile(id);
                        }
                    }
                    return Step::RoundOver;
                }
            }
        }
    }

    /// True when ship `u` has a decision to make in this phase (a ship with nothing it
    /// could do is not asked).
    pub fn has_decision(&self, ships: &impl Vessels, u: UnitId) -> bool {
        if !ships.fighting(u) {
            return false;
        }
        match self.phase {
            Phase::Maneuver => true,
            Phase::DirectFire => {
                let free = self.free_mounts(ships, u);
                let mounts = &ships.sheet(u).mounts;
                ships.ids().filter(|&t| ships.is_enemy(u, t)).any(|t| {
                    free.iter()
                        .any(|&m| self.can_target(ships, u, t, &mounts[m].weapon))
                })
            }
            Phase::Launch => {
                ships.ship(u).missiles > 0
                    && ships.sheet(u).stats.launchers > 0
                    && ships.ship(u).power_plant
                    && ships
                        .ids()
                        .any(|t| ships.is_enemy(u, t) && ships.detection(u, t).found)
            }
            _ => false,
        }
    }

    /// The unit whose decision is awaited.
    pub fn awaiting(&self) -> Option<UnitId> {
        match self.phase {
            Phase::Maneuver | Phase::DirectFire | Phase::Launch => self.queue.first().copied(),
            _ => None,
        }
    }

    // ---------------------------------------------------------------------------------
    // 1. Detection.

    /// What a scan by `by`'s sensor of `kind` sees of `target`.
    pub fn scan_target(
        &self,
        ships: &impl Vessels,
        by: UnitId,
        kind: SensorKind,
        target: UnitId,
    ) -> ScanTarget {
        let t = ships.ship(target);
        let sheet = ships.sheet(target);
        let tl = i32::from(sheet.stats.tl);
        ScanTarget {
            range: self.std_range(ships.distance(by, target)),
            prior_detection: ships.detection(by, target).prior_for(by, kind),
            sm: sheet.stats.sm,
            tl,
            stealth: sheet.stats.stealth,
            cloaking: sheet.stats.cloaking,
            near_planet: self.near_planet(t.pos),
            atmosphere: self.in_atmosphere(t.pos) || self.in_atmosphere(ships.ship(by).pos),
            object_in_atmosphere: self.in_atmosphere(t.pos),
            silhouetted: self.silhouetted(ships.ship(by).pos, t.pos),
            active_sensor: self
                .active_sensors(ships, target)
                .then(|| sheet.scan(SensorKind::Aesa).map(|v| (v, tl)))
                .flatten(),
            transponder: sheet.stats.transponder,
        }
    }

    /// The modifiers of `by`'s scan of `target` with its sensor of `kind`, or `None` when
    /// it has no such sensor working.
    pub fn scan_modifiers(
        &self,
        ships: &impl Vessels,
        by: UnitId,
        kind: SensorKind,
        target: UnitId,
    ) -> Option<Vec<Modifier>> {
        let mut mods = Vec::new();
        self.gather_scan(ships, (by, kind, target), &mut mods)?;
        Some(mods)
    }

    /// The sum of [`Space::scan_modifiers`], without their labels (a side weighs every
    /// ship's every sensor against every foe before it rolls the best scan).
    pub fn scan_total(
        &self,
        ships: &impl Vessels,
        by: UnitId,
        kind: SensorKind,
        target: UnitId,
    ) -> Option<i32> {
        let mut sum = Sum::default();
        self.gather_scan(ships, (by, kind, target), &mut sum)?;
        Some(sum.0)
    }

    /// [`Space::scan_modifiers`] into `mods`; `None` (and nothing gathered) without such a
    /// sensor working.
    fn gather_scan(
        &self,
        ships: &impl Vessels,
        (by, kind, target): (UnitId, SensorKind, UnitId),
        mods: &mut impl Gather,
    ) -> Option<()> {
        let seen = self.scan_target(ships, by, kind, target);
        self.gather_scan_at(ships, (by, kind), &seen, mods)
    }

    /// [`Space::gather_scan`] of a target that the scan sees as `seen`.
    fn gather_scan_at(
        &self,
        ships: &impl Vessels,
        (by, kind): (UnitId, SensorKind),
        seen: &ScanTarget,
        mods: &mut impl Gather,
    ) -> Option<()> {
        let st = ships.ship(by);
        if st.sensors_out.contains(&kind)
            || (kind == SensorKind::Aesa && !self.active_sensors(ships, by))
        {
            return None;
        }
        let value = ships.sheet(by).scan(kind)?;
        mods.push(Modifier::new(
            "Electronics Operations (Sensors)",
            ships.sheet(by).stats.crew.sensors,
        ));
        tables::gather_scan_modifiers(kind, value, seen, mods);
        Some(())
    }

    fn scan_all(
        &mut self,
        ships: &mut impl VesselsMut,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        for side in 0..self.side_count {
            for target in ships.ids().collect::<Vec<_>>() {
                if ships.side(target) as usize == side {
                    continue;
                }
                let mut d = Detection::default();
                if ships.fighting(target) {
                    // The side's best scan of it.
                    let best = ships
                        .ids()
                        .filter(|&u| ships.side(u) as usize == side && ships.fighting(u))
                        .flat_map(|u| {
                            // What u sees of the target, but for prior detection (set
                            // for each sensor): worked out once for its sensors.
                            let seen = self.scan_target(ships, u, SensorKind::Aesa, target);
                            [SensorKind::Aesa, SensorKind::Pesa, SensorKind::Radscan]
                                .into_iter()
                                .map(move |k| (u, k, seen))
                        })
                        .filter_map(|(u, k, mut seen)| {
                            seen.prior_detection = ships.detection(u, target).prior_for(u, k);
                            let mut sum = Sum::default();
                            self.gather_scan_at(ships, (u, k), &seen, &mut sum)?;
                            Some((sum.0, u, k))
                        })
                        .max_by_key(|&(s, u, k)| (s, std::cmp::Reverse((u, k as u8))));
                    // Only the scan rolled is listed with its labels.
                    if let Some((_, by, kind)) = best {
                        let mut gathered = None;
                        let mods = RollModifiers::of(self.quiet, |mods| {
                            gathered = self.gather_scan(ships, (by, kind, target), mods);
                        });
                        if gathered.is_some() {
                            let roll = success_roll(dice, mods);
                            d.found = roll.succeeded();
                            d.active = d.found && kind == SensorKind::Aesa;
                            d.by = d.found.then_some((by, kind));
                            self.log_only(events, || {
                                let text = format!(
                                    "{} {} with its {kind:?}",
                                    if d.found { "detects" } else { "does not find" },
                                    ships.name_of(target)
                                );
                                roll_event(by, "scan".into(), roll, text)
                            });
                        }
                    }
                }
                if let Some(seen) = ships.ship_mut(target).seen_by.get_mut(side) {
                    *seen = d;
                }
            }
        }
    }

    /// Describes a decision for the log.
    pub fn describe(&self, ships: &impl Vessels, u: UnitId, action: &Action) -> String {
        match action {
            Action::Maneuver { to, passive, ram } => {
                let st = ships.ship(u);
                let vel = Hex::new(to.0, to.1) - st.pos;
                let burn = vel - st.vel;
                let mut s = if burn == Hex::ZERO {
                    format!("coasts to ({}, {})", to.0, to.1)
                } else {
                    format!(
                        "burns {}: velocity ({}, {}) -> ({}, {}), to ({}, {})",
                        points(vector::burn_cost(burn)),
                        st.vel.x,
                        st.vel.y,
                        vel.x,
                        vel.y,
                        to.0,
                        to.1
                    )
                };
                if *passive {
                    s.push_str(", active sensors off");
                }
                if let Some(t) = ram {
                    s.push_str(&format!(", trying to ram {}", ships.name_of(*t)));
                }
                s
            }
            Action::Fire { shots } if shots.is_empty() => {
                "holds its fire (mounts kept for point defense)".into()
            }
            Action::Fire { shots } => {
                let parts: Vec<String> = shots
                    .iter()
                    .map(|s| {
                        let w = ships
                            .sheet(u)
                            .mounts
                            .get(s.mount)
                            .map_or("?", |m| m.weapon.name);
                        match s.pinpoint {
                            Some(aim) => format!(
                                "{w} #{} at {}'s {aim:?} (pinpoint)",
                                s.mount,
                                ships.name_of(s.target)
                            ),
                            None => format!("{w} #{} at {}", s.mount, ships.name_of(s.target)),
                        }
                    })
                    .collect();
                format!("fires {}", parts.join(", "))
            }
            Action::Launch { count: 0, .. } => "launches nothing".into(),
            Action::Launch { target, count } => {
                format!("launches {count} missiles at {}", ships.name_of(*target))
            }
        }
    }

    // ---------------------------------------------------------------------------------
    // Applying decisions.

    /// Applies a checked decision of `u`.
    pub fn apply(
        &mut self,
        ships: &mut impl VesselsMut,
        u: UnitId,
        action: Action,
        events: &mut Vec<BattleEvent>,
    ) {
        match action {
            Action::Maneuver { to, passive, ram } => {
                let st = ships.ship_mut(u);
                st.vel = Hex::new(to.0, to.1) - st.pos;
                st.passive = passive;
                st.ram = ram;
            }
            Action::Fire { shots } => {
                for s in shots {
                    if let Some(m) = ships.ship_mut(u).mounts_used.get_mut(s.mount) {
                        *m = true;
                    }
                    self.declared.push((u, s));
                }
            }
            Action::Launch { target, count } => {
                let (pos, vel) = (ships.ship(u).pos, ships.ship(u).vel);
                let st = ships.ship_mut(u);
                st.missiles = st.missiles.saturating_sub(count);
                for _ in 0..count {
                    let id = self.next_missile;
                    self.next_missile += 1;
                    ships.launch(MissileState {
                        id,
                        owner: ships.entity(u),
                        target: ships.entity(target),
                        pos: (pos.x, pos.y),
                        vel: (vel.x, vel.y),
                        turns_left: self.missile.endurance,
                        contact: false,
                    });
                }
                if count > 0 {
                    self.log_only(events, || {
                        note(
                            Some(u),
                            format!(
                                "{count} missiles away at {}; {} left",
                                ships.name_of(target),
                                ships.ship(u).missiles
                            ),
                        )
                    });
                }
            }
        }
        if self.queue.first() == Some(&u) {
            self.queue.remove(0);
        }
    }

    // ---------------------------------------------------------------------------------
    // 2-3. Missile guidance and movement.

    /// The missiles' thrust points a turn.
    pub fn missile_thrust(&self) -> u32 {
        vector::thrust_points(self.missile.thrust, self.hex_miles, self.turn_minutes)
    }

    fn guide_missiles(&mut self, ships: &mut impl VesselsMut) {
        let thrust = self.missile_thrust();
        for id in ships.missile_ids() {
            let Some(m) = ships.missile(id) else { continue };
            let Some(t) = ships.unit_of(m.target) else {
                continue;
            };
            if m.turns_left == 0 || !ships.fighting(t) {
                continue;
            }
            let ts = ships.ship(t);
            let aim = vector::coast(ts.pos, ts.vel);
            let burn = vector::burn_towards(m.hex(), m.velocity(), thrust, aim);
            if let Some(m) = ships.missile_mut(id) {
                let v = m.velocity() + burn;
                m.vel = (v.x, v.y);
            }
        }
    }

    fn movement(
        &mut self,
        ships: &mut impl VesselsMut,
        map: &HexMap,
        events: &mut Vec<BattleEvent>,
    ) {
        let fleet = &mut *ships;
        let ships: Vec<UnitId> = fleet.ids().filter(|&u| fleet.fighting(u)).collect();
        let start: Vec<Hex> = fleet.ids().map(|u| fleet.ship(u).pos).collect();
        let mut paths = vector::Walks::default();
        for &u in &ships {
            paths.push(fleet.ship(u).pos, fleet.ship(u).vel);
        }
        let live: Vec<u32> = fleet
            .missile_ids()
            .into_iter()
            .filter(|&id| fleet.missile(id).is_some_and(|m| m.turns_left > 0))
            .collect();
        for &id in &live {
            if let Some(m) = fleet.missile(id) {
                paths.push(m.hex(), m.velocity());
            }
        }
        paths.walk();
        // Missiles in contact with their targets, rams in contact.
        for (k, &id) in live.iter().enumerate() {
            let Some(target) = fleet.missile(id).and_then(|m| fleet.unit_of(m.target)) else {
                continue;
            };
            if let Some(j) = ships.iter().position(|&s| s == target) {
                let contact = paths.contact(ships.len() + k, j).is_some();
                if let Some(m) = fleet.missile_mut(id) {
                    m.contact = contact;
                }
            }
        }
        // Ships that meet: a ram if one of them tries it (once a pair), else a near miss
        // that both pilots try to avoid.
        for a in 0..ships.len() {
            for b in a + 1..ships.len() {
                if paths.contact(a, b).is_none() {
                    continue;
                }
                let (ua, ub) = (ships[a], ships[b]);
                if fleet.ship(ua).ram == Some(ub) {
                    self.rams.push((ua, ub));
                } else if fleet.ship(ub).ram == Some(ua) {
                    self.rams.push((ub, ua));
                } else {
                    self.near_misses.push((ua, ub));
                }
            }
        }
        for (a, &u) in ships.iter().enumerate() {
            let path = paths.path(a);
            let to = path.last().copied().unwrap_or(fleet.ship(u).pos);
            if path.len() > 1 {
                self.log_only(events, || BattleEvent::Moved {
                    unit: u,
                    path: path.iter().map(|h| (h.x, h.y)).collect(),
                    cost: 0,
                });
            }
            fleet.ship_mut(u).pos = to;
        }
        for (k, &id) in live.iter().enumerate() {
            let Some(m) = fleet.missile_mut(id) else {
                continue;
            };
            let to = paths
                .path(ships.len() + k)
                .last()
                .copied()
                .unwrap_or(m.hex());
            m.pos = (to.x, to.y);
            m.turns_left = m.turns_left.saturating_sub(1);
        }
        // Missiles off the map are lost.
        for id in fleet.missile_ids() {
            if fleet
                .missile(id)
                .is_some_and(|m| !(map.contains(m.hex()) || m.contact))
            {
                fleet.remove_missile(id);
            }
        }
        // Escapes: off the map, or beyond `escape_hexes` from every enemy still fighting
        // after moving away from them (the one that opened the range breaks contact).
        let mut escaping = Vec::new();
        for &u in &ships {
            let off = !map.contains(fleet.ship(u).pos);
            let foes = fleet.enemies(u);
            let here = fleet.ship(u).pos;
            let at = |e: UnitId| start.get(e.0 as usize).copied().unwrap_or(here);
            let far = !foes.is_empty()
                && foes
                    .iter()
                    .all(|&e| fleet.distance(u, e) > self.escape_hexes)
                && foes.iter().all(|&e| {
                    here.unsigned_distance_to(at(e))
                        > start[u.0 as usize].unsigned_distance_to(at(e))
                });
            if off || far {
                escaping.push((u, off));
            }
        }
        for (u, off) in escaping {
            {
                fleet.ship_mut(u).condition = Condition::Escaped;
                events.push(BattleEvent::StatusChanged {
                    unit: u,
                    standing: Standing::Escaped,
                    cause: Cow::Borrowed(if off {
                        "leaves the battle area"
                    } else {
                        "breaks contact: beyond reach of every enemy"
                    }),
                });
            }
        }
    }
}
