//! The stat block of a Vergeworlds character as a scenario writes it (`Vergeworlds(...)`),
//! with a human's numbers as defaults, and its checks. The text gives no character
//! creation, so a scenario states each character's scores as a referee would.
//!
//! Defaults (a human): Size 0, Action Score 1, every attribute 0, Stamina 10 (Breath),
//! Base Move 3 m, Maneuver 8 m, top speed 10 m a turn, Carry 25 kg, weight 75 kg, unarmed
//! blows 2d6 at −4 RS with Wound +3, Wound Score Limit 8, Large Wound Limit 6, Penetration
//! Limit 2d6 unshifted.

use super::combat::{Location, Start};
use super::injury::Hardness;
use crate::format::{Path, Problem};
use serde::{Deserialize, Serialize};

/// Combat skills (scores added to the roll).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Skills {
    /// Fight: melee attacks and parries.
    #[serde(default)]
    pub fight: i32,
    /// Shoot: ranged attacks.
    #[serde(default)]
    pub shoot: i32,
    /// Throw: thrown weapons.
    #[serde(default)]
    pub throw: i32,
    /// Evade: dodging.
    #[serde(default)]
    pub evade: i32,
    /// Grapple: grabs, escapes, shoves and takedowns.
    #[serde(default)]
    pub grapple: i32,
    /// Fly or Pilot: flying.
    #[serde(default)]
    pub fly: i32,
}

/// How a weapon is used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum WeaponKind {
    /// A melee weapon (Fight).
    #[default]
    Melee,
    /// A ranged weapon (Shoot).
    Ranged,
    /// A thrown weapon (Throw); with `frag` it is a grenade.
    Thrown,
}

fn one_f() -> f64 {
    1.0
}

fn one_u() -> u32 {
    1
}

/// A weapon.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    /// Name.
    pub name: String,
    /// Melee, ranged or thrown.
    #[serde(default)]
    pub kind: WeaponKind,
    /// Muscle-powered: the row shift over the wielder's unarmed blow ("+2 RS").
    #[serde(default)]
    pub pen_rs: Option<f64>,
    /// Fixed Penetration (bullets, beams, arrows).
    #[serde(default)]
    pub pen: Option<f64>,
    /// Wound score.
    pub wound: f64,
    /// Armor-piercing row shift (negative helps the attack).
    #[serde(default)]
    pub ap_rs: f64,
    /// Sharp score (less blunt trauma).
    #[serde(default)]
    pub sharp: f64,
    /// Smash-type damage (flexible armor is not degraded by it).
    #[serde(default)]
    pub smash: bool,
    /// Hardness (armor degradation).
    #[serde(default)]
    pub hardness: Hardness,
    /// Melee Defense score.
    #[serde(default)]
    pub def: i32,
    /// Bulk (cramping).
    #[serde(default)]
    pub bulk: f64,
    /// Reach in meters (melee).
    #[serde(default = "one_f")]
    pub reach: f64,
    /// Projectile Speed (≈ a quarter of m/s); 0 ignores it.
    #[serde(default)]
    pub speed: f64,
    /// Shots an action can fire.
    #[serde(default = "one_u")]
    pub rof: u32,
    /// Full-auto: at most 3 × ROF shots a round ("Rate of fire").
    #[serde(default)]
    pub full_auto: bool,
    /// Recoil: −1 to hit for each point of Strength short; rapid fire adds score of \[shots\].
    #[serde(default)]
    pub rcl: Option<i32>,
    /// Minimum Strength.
    #[serde(default)]
    pub min_str: Option<i32>,
    /// Rounds in a magazine (none: no ammunition counted).
    #[serde(default)]
    pub shots: Option<u32>,
    /// Spare magazines (or loose rounds, when `loose`).
    #[serde(default)]
    pub reloads: u32,
    /// Reloaded round by round (1, then 2 an action).
    #[serde(default)]
    pub loose: bool,
    /// Maximum range in meters.
    #[serde(default)]
    pub max_range: Option<f64>,
    /// Damage Attenuation: −1 RS of Penetration every this many meters.
    #[serde(default)]
    pub da: Option<f64>,
    /// Fragmentation Shot score: the weapon bursts ("Explosions", "Fragmentation").
    #[serde(default)]
    pub frag: Option<f64>,
    /// Starts holstered or sheathed: an action to draw.
    #[serde(default)]
    pub holstered: bool,
}

impl Weapon {
    /// A weapon with only its name, kind and Wound set.
    pub fn named(name: &str, kind: WeaponKind, wound: f64) -> Self {
        Self {
            name: name.into(),
            kind,
            pen_rs: None,
            pen: None,
            wound,
            ap_rs: 0.0,
            sharp: 0.0,
            smash: false,
            hardness: Hardness::default(),
            def: 0,
            bulk: 0.0,
            reach: 1.0,
            speed: 0.0,
            rof: 1,
            full_auto: false,
            rcl: None,
            min_str: None,
            shots: None,
            reloads: 0,
            loose: false,
            max_range: None,
            da: None,
            frag: None,
            holstered: false,
        }
    }

    /// Whether it is a melee weapon.
    pub fn melee(&self) -> bool {
        self.kind == WeaponKind::Melee
    }
}

fn torso() -> Vec<Location> {
    vec![Location::Chest, Location::Abdomen]
}

/// A piece of armor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Armor {
    /// Name.
    pub name: String,
    /// Locations covered (default chest and abdomen).
    #[serde(default = "torso")]
    pub covers: Vec<Location>,
    /// Row shift of the armor roll.
    pub rs: f64,
    /// Activation: armor rolls under it are bypassed.
    #[serde(default)]
    pub activation: i32,
    /// Blunt score.
    #[serde(default)]
    pub blunt: Option<f64>,
    /// Pad score.
    #[serde(default)]
    pub pad: Option<f64>,
    /// Flexible (cloth, leather): not degraded by Smash.
    #[serde(default)]
    pub flexible: bool,
    /// Hardness.
    #[serde(default)]
    pub hardness: Hardness,
}

/// Unarmed blows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unarmed {
    /// Row shift of the 2d6 Penetration (before Brawn).
    pub pen_rs: f64,
    /// Wound score.
    pub wound: f64,
}

impl Default for Unarmed {
    fn default() -> Self {
        Self {
            pen_rs: -4.0,
            wound: 3.0,
        }
    }
}

/// A glider's or flier's numbers ("Flight").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlightSpec {
    /// Wing Area score (0: cannot glide).
    #[serde(default)]
    pub wing_area: f64,
    /// Glide score.
    #[serde(default)]
    pub glide: f64,
    /// Lift Aid score (2 to 5).
    #[serde(default)]
    pub lift_aid: f64,
    /// Flying Maneuver (powered flight), m a turn; 0 for a pure glider.
    #[serde(default)]
    pub power: u32,
    /// Starting airspeed, m a turn.
    #[serde(default)]
    pub speed: u32,
    /// Density score of a floater (a balloon, a gasbag creature; no wings): it rises or
    /// sinks toward the altitude where it floats neutrally ("Flight:", Floating).
    #[serde(default)]
    pub density: Option<f64>,
    /// Streamlining score (a floater's drag).
    #[serde(default)]
    pub streamlining: f64,
}

fn one_i() -> i32 {
    1
}
fn ten() -> i32 {
    10
}
fn three() -> u32 {
    3
}
fn eight() -> u32 {
    8
}
fn ten_u() -> u32 {
    10
}
fn carry() -> f64 {
    25.0
}
fn weight() -> f64 {
    75.0
}
fn wsl() -> f64 {
    8.0
}
fn lwl() -> f64 {
    6.0
}

/// A character as a scenario writes it: `Vergeworlds(...)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VwStats {
    /// A mook ("NPC Categories"): no Mana, drops by the mook thresholds.
    #[serde(default)]
    pub mook: bool,
    /// A machine, robot or squirm-mobile mook: an injury to a limb disables only the limb
    /// ("Mooks", second exception).
    #[serde(default)]
    pub robot: bool,
    /// A Squirm or Gummi mook: only an Injury of 7 or more takes it out ("Mooks", first
    /// exception).
    #[serde(default)]
    pub squirm: bool,
    /// Mana points.
    #[serde(default)]
    pub mana: u32,
    /// Size score.
    #[serde(default)]
    pub size: f64,
    /// Action Score.
    #[serde(default = "one_i")]
    pub action_score: i32,
    /// Action Points a round (default from the Action Score).
    #[serde(default)]
    pub action_points: Option<i32>,
    /// Coordination.
    #[serde(default)]
    pub coordination: i32,
    /// Brawn (blows).
    #[serde(default)]
    pub brawn: f64,
    /// Strength (grappling, recoil).
    #[serde(default)]
    pub strength: i32,
    /// Vigor (recovery).
    #[serde(default)]
    pub vigor: i32,
    /// Spirit (extra effort, suppression).
    #[serde(default)]
    pub spirit: i32,
    /// Awareness.
    #[serde(default)]
    pub awareness: i32,
    /// Reaction Time (interrupting a waiting foe).
    #[serde(default)]
    pub reaction: i32,
    /// Stamina: Breath points.
    #[serde(default = "ten")]
    pub stamina: i32,
    /// Combat skills.
    #[serde(default)]
    pub skills: Skills,
    /// Base Move, m a turn without an action.
    #[serde(default = "three")]
    pub base_move: u32,
    /// Maneuver, m a turn.
    #[serde(default = "eight")]
    pub maneuver: u32,
    /// Top speed, m a turn.
    #[serde(default = "ten_u")]
    pub top_speed: u32,
    /// Carry, kg.
    #[serde(default = "carry")]
    pub carry: f64,
    /// Weight with gear, kg.
    #[serde(default = "weight")]
    pub weight: f64,
    /// Unarmed blows.
    #[serde(default)]
    pub unarmed: Unarmed,
    /// Wound Score Limit.
    #[serde(default = "wsl")]
    pub wound_limit: f64,
    /// Large Wound Limit.
    #[serde(default = "lwl")]
    pub large_wound_limit: f64,
    /// Row shift of the Penetration Limit roll.
    #[serde(default)]
    pub pen_limit_rs: f64,
    /// Injury Susceptibility.
    #[serde(default)]
    pub susceptibility: f64,
    /// Weapons.
    #[serde(default)]
    pub weapons: Vec<Weapon>,
    /// Armor worn.
    #[serde(default)]
    pub armor: Vec<Armor>,
    /// Wings or powered flight.
    #[serde(default)]
    pub flight: Option<FlightSpec>,
    /// Starting altitude, m.
    #[serde(default)]
    pub altitude: f64,
    /// How the character starts the combat.
    #[serde(default)]
    pub start: Start,
    /// A movement vector at the start: the hex side it heads to (0 to 5, hexx's order) and
    /// its speed in meters a turn ("High Speed Movement").
    #[serde(default)]
    pub moving: Option<(u8, u32)>,
}

impl VwStats {
    /// Action Points a round.
    pub fn ap_per_round(&self) -> i32 {
        self.action_points
            .unwrap_or_else(|| super::combat::action_points_per_round(self.action_score))
    }

    /// Which mook thresholds apply ([`super::injury::mook_down`]).
    pub fn mook_kind(&self) -> super::injury::MookKind {
        use super::injury::MookKind;
        match (self.robot, self.squirm) {
            (true, _) => MookKind::Robot,
            (false, true) => MookKind::Squirm,
            (false, false) => MookKind::Ordinary,
        }
    }

    /// The checks of a stat block.
    pub fn problems(&self) -> Vec<Problem> {
        let root = Path::root();
        let mut out = Vec::new();
        let mut range = |field: &str, v: f64, lo: f64, hi: f64| {
            if !(lo..=hi).contains(&v) || v.is_nan() {
                out.push(Problem::new(
                    root.field(field),
                    format!("{v} is out of range: expected {lo} to {hi}"),
                ));
            }
        };
        range("size", self.size, -20.0, 20.0);
        range("action_score", self.action_score as f64, -4.0, 6.0);
        range(
            "action_points",
            self.action_points.unwrap_or(5) as f64,
            1.0,
            60.0,
        );
        range("coordination", self.coordination as f64, -10.0, 20.0);
        range("brawn", self.brawn, -10.0, 30.0);
        range("strength", self.strength as f64, -10.0, 30.0);
        range("stamina", self.stamina as f64, 1.0, 100.0);
        range("base_move", self.base_move as f64, 0.0, 100.0);
        range("maneuver", self.maneuver as f64, 0.0, 500.0);
        range("top_speed", self.top_speed as f64, 0.0, 2000.0);
        range("carry", self.carry, 0.1, 1e6);
        range("weight", self.weight, 0.01, 1e7);
        range("wound_limit", self.wound_limit, -10.0, 30.0);
        range("altitude", self.altitude, 0.0, 20000.0);
        range("mana", self.mana as f64, 0.0, 100.0);
        for (field, v) in [
            ("vigor", self.vigor),
            ("spirit", self.spirit),
            ("awareness", self.awareness),
            ("reaction", self.reaction),
        ] {
            range(field, f64::from(v), -10.0, 30.0);
        }
        let sk = &self.skills;
        for (field, v) in [
            ("fight", sk.fight),
            ("shoot", sk.shoot),
            ("throw", sk.throw),
            ("evade", sk.evade),
            ("grapple", sk.grapple),
            ("fly", sk.fly),
        ] {
            if !(-10..=30).contains(&v) {
                out.push(Problem::new(
                    root.field("skills").field(field),
                    format!("{v} is out of range: expected -10 to 30"),
                ));
            }
        }
        for (i, w) in self.weapons.iter().enumerate() {
            let p = root.field("weapons").index(i);
            if w.pen.is_none() && w.pen_rs.is_none() && w.frag.is_none() {
                out.push(Problem::new(
                    p.field("pen"),
                    format!(
                        "weapon `{}` has no Penetration: expected `pen` (fixed) or `pen_rs` (muscle-powered)",
                        w.name
                    ),
                ));
            }
            if w.rof == 0 {
                out.push(Problem::new(p.field("rof"), "expected at least 1 shot"));
            }
            if !(-10..=30).contains(&w.def) {
                out.push(Problem::new(
                    p.field("def"),
                    format!("{} is out of range: expected -10 to 30", w.def),
                ));
            }
            if let Some(0) = w.shots {
                out.push(Problem::new(p.field("shots"), "expected at least 1 round"));
            }
        }
        for (i, a) in self.armor.iter().enumerate() {
            if a.covers.is_empty() {
                out.push(Problem::new(
                    root.field("armor").index(i).field("covers"),
                    "armor covering nothing: expected at least one location",
                ));
            }
        }
        if let Some((h, v)) = self.moving
            && (h > 5 || v > self.top_speed)
        {
            out.push(Problem::new(
                root.field("moving"),
                format!("({h}, {v}): expected a hex side 0 to 5 and a speed up to the top speed"),
            ));
        }
        if self.robot && self.squirm {
            out.push(Problem::new(
                root.field("squirm"),
                "a unit is a robot (limbs only) or a squirm/gummi (only an Injury of 7), not both",
            ));
        }
        if self.mook && self.mana > 0 {
            out.push(Problem::new(
                root.field("mana"),
                "mooks get no Mana (\"NPC Categories\"): expected 0",
            ));
        }
        if let Some(f) = &self.flight {
            // Scores like the others; speeds like top_speed.
            for (field, v, lo, hi) in [
                ("wing_area", f.wing_area, -10.0, 30.0),
                ("glide", f.glide, -10.0, 30.0),
                ("lift_aid", f.lift_aid, 0.0, 30.0),
                ("power", f64::from(f.power), 0.0, 2000.0),
                ("speed", f64::from(f.speed), 0.0, 2000.0),
                ("density", f.density.unwrap_or(0.0), -10.0, 30.0),
                ("streamlining", f.streamlining, -10.0, 30.0),
            ] {
                if !(lo..=hi).contains(&v) || v.is_nan() {
                    out.push(Problem::new(
                        root.field("flight").field(field),
                        format!("{v} is out of range: expected {lo} to {hi}"),
                    ));
                }
            }
        }
        if let Some(f) = &self.flight
            && f.wing_area <= 0.0
            && f.density.is_none()
        {
            out.push(Problem::new(
                root.field("flight").field("wing_area"),
                "a flier needs wings or a Density score: expected a Wing Area score above 0, or `density` for a floater (wingless hovering is not modelled)",
            ));
        }
        if self.flight.is_none() && self.altitude > 0.0 {
            out.push(Problem::new(
                root.field("altitude"),
                "only fliers start above the ground: expected 0 or a `flight` block",
            ));
        }
        out
    }
}
