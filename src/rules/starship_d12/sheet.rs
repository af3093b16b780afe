//! Ship sheets for starship-d12 (starship-d12-quick-reference.txt): what a scenario writes
//! ([`ShipStats`]), the checked sheet ([`ShipSheet`]) and the state of a ship in battle
//! ([`ShipState`]): systems by facing with hit points, shields, outer armour, weapons (the
//! "D" and "S" numbers, turrets, missiles), crew with skills, and edges.
//!
//! The text names these parts without fixing their numbers, so a scenario gives them all.
//! Decisions where the text is silent are in [`super`]'s module documentation.

use crate::dice::{Gather, Modifier, Sum};
use crate::format::{Path, Problem};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A side of the ship. Systems sit on one of them; "Core" is the inner facing that takes
/// damage once a side has no systems left ("Damage" part of the quick reference).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ShipFacing {
    /// Forward.
    Front,
    /// Port.
    Left,
    /// Starboard.
    Right,
    /// Aft: the side a tailing enemy sits behind.
    Rear,
    /// The core.
    Core,
}

impl ShipFacing {
    /// Every facing, outer ones first.
    pub const ALL: [ShipFacing; 5] = [
        ShipFacing::Front,
        ShipFacing::Left,
        ShipFacing::Right,
        ShipFacing::Rear,
        ShipFacing::Core,
    ];
}

impl fmt::Display for ShipFacing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            ShipFacing::Front => "front",
            ShipFacing::Left => "left",
            ShipFacing::Right => "right",
            ShipFacing::Rear => "rear",
            ShipFacing::Core => "core",
        };
        f.write_str(s)
    }
}

/// How tough a system is: a normal system stops working once damaged; a heavy or
/// super-heavy one only once destroyed ("Damage" part of the quick reference).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Build {
    /// Stops working when damaged.
    #[default]
    Normal,
    /// Works until destroyed.
    Heavy,
    /// Works until destroyed (the text treats it like heavy).
    SuperHeavy,
}

/// A weapon's numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponStats {
    /// "D": damage of a hit.
    pub damage: i32,
    /// "S": damage given up for each +1 to the die after the roll (Sustain). None: the
    /// weapon cannot sustain.
    #[serde(default)]
    pub sustain: Option<i32>,
    /// A missile launcher: its own to-hit number (instead of the range's) and its load.
    #[serde(default)]
    pub missile: Option<MissileStats>,
}

/// A missile launcher's own numbers ("Missiles each have their own to-hit numbers").
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MissileStats {
    /// What the die total must reach, before the target's defence, at any range.
    pub to_hit: i32,
    /// Missiles carried.
    pub ammo: u32,
}

/// One system as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SystemSpec {
    /// Name ("Forward laser", "Bridge").
    pub name: String,
    /// The facing it sits on.
    pub facing: ShipFacing,
    /// Hit points.
    pub hp: i32,
    /// Normal (default), Heavy or SuperHeavy.
    #[serde(default)]
    pub build: Build,
    /// A turret: fires in every direction, and works until destroyed.
    #[serde(default)]
    pub turret: bool,
    /// An engine: a ship whose engines are all out of action cannot change the range.
    #[serde(default)]
    pub engine: bool,
    /// The weapon, if the system is one.
    #[serde(default)]
    pub weapon: Option<WeaponStats>,
}

/// A crewman or the captain.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrewSpec {
    /// Name.
    pub name: String,
    /// Piloting total (attribute plus skill).
    #[serde(default)]
    pub piloting: i32,
    /// Gunnery total (attribute plus skill).
    #[serde(default)]
    pub gunnery: i32,
}

/// An edge: a bonus the ship always declares where it applies, or the right to choose
/// which system an attack hits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdgeSpec {
    /// Name.
    pub name: String,
    /// Bonus to the range (piloting) roll.
    #[serde(default)]
    pub piloting: i32,
    /// Bonus to every to-hit roll.
    #[serde(default)]
    pub gunnery: i32,
    /// The attacker chooses the system hit ("a couple of edges which let the attacker choose
    /// what is hit").
    #[serde(default)]
    pub attacker_chooses: bool,
}

/// A ship's stat block as a scenario writes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShipStats {
    /// Class name, shown on the sheet.
    #[serde(default)]
    pub class: String,
    /// Defence: added to every gunnery difficulty against this ship.
    pub defence: i32,
    /// Shield points: damage is taken from them first.
    #[serde(default)]
    pub shields: i32,
    /// Outer armour points: damage is taken from them after the shields.
    #[serde(default)]
    pub armour: i32,
    /// The systems, each on its facing (Front, Left, Right, Rear, Core); the core needs at
    /// least one.
    pub systems: Vec<SystemSpec>,
    /// The crew, the captain first. The best piloting total flies the ship.
    pub crew: Vec<CrewSpec>,
    /// Edges.
    #[serde(default)]
    pub edges: Vec<EdgeSpec>,
}

/// Where a system sits: its facing and its index among that facing's systems.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SystemRef {
    /// The facing.
    pub facing: ShipFacing,
    /// Index among the systems of that facing, in sheet order.
    pub index: u8,
}

/// A checked system.
#[derive(Clone, Debug, PartialEq)]
pub struct System {
    /// Where it sits.
    pub at: SystemRef,
    /// Name.
    pub name: String,
    /// Hit points when whole.
    pub hp: i32,
    /// Normal, heavy or super-heavy.
    pub build: Build,
    /// A turret.
    pub turret: bool,
    /// An engine.
    pub engine: bool,
    /// Its weapon.
    pub weapon: Option<WeaponStats>,
}

impl System {
    /// True while the system works with `hp` hit points left: a normal system only when
    /// undamaged, a heavy, super-heavy or turret system until destroyed.
    pub fn works(&self, hp: i32) -> bool {
        if self.turret || self.build != Build::Normal {
            hp > 0
        } else {
            hp >= self.hp
        }
    }
}

/// A checked ship sheet.
#[derive(Clone, Debug, PartialEq)]
pub struct ShipSheet {
    /// Class name.
    pub class: String,
    /// Defence.
    pub defence: i32,
    /// Shield points.
    pub shields: i32,
    /// Outer armour points.
    pub armour: i32,
    /// Systems, facing by facing in [`ShipFacing::ALL`] order.
    pub systems: Vec<System>,
    /// The crew.
    pub crew: Vec<CrewSpec>,
    /// Edges.
    pub edges: Vec<EdgeSpec>,
}

impl ShipSheet {
    /// Checks a stat block, listing every problem with its path.
    pub fn resolve(stats: &ShipStats) -> Result<ShipSheet, Vec<Problem>> {
        let root = Path::root();
        let mut problems = Vec::new();
        if !(0..=20).contains(&stats.defence) {
            problems.push(Problem::new(
                root.field("defence"),
                format!(
                    "defence {} is out of range: expected 0 to 20",
                    stats.defence
                ),
            ));
        }
        for (field, v) in [("shields", stats.shields), ("armour", stats.armour)] {
            if !(0..=1000).contains(&v) {
                problems.push(Problem::new(
                    root.field(field),
                    format!("{field} {v} is out of range: expected 0 to 1000"),
                ));
            }
        }
        let mut systems = Vec::new();
        for facing in ShipFacing::ALL {
            let mut index = 0u8;
            for (j, s) in stats.systems.iter().enumerate() {
                if s.facing != facing {
                    continue;
                }
                let path = root.field("systems").index(j);
                if s.name.trim().is_empty() {
                    problems.push(Problem::new(path.field("name"), "a system needs a name"));
                }
                if !(1..=1000).contains(&s.hp) {
                    problems.push(Problem::new(
                        path.field("hp"),
                        format!("{} hit points is out of range: expected 1 to 1000", s.hp),
                    ));
                }
                if let Some(w) = &s.weapon {
                    if !(1..=1000).contains(&w.damage) {
                        problems.push(Problem::new(
                            path.field("weapon").field("damage"),
                            format!("damage {} is out of range: expected 1 to 1000", w.damage),
                        ));
                    }
                    if let Some(sus) = w.sustain
                        && !(1..=1000).contains(&sus)
                    {
                        problems.push(Problem::new(
                            path.field("weapon").field("sustain"),
                            format!("sustain {sus} is out of range: expected 1 to 1000"),
                        ));
                    }
                    if let Some(m) = w.missile
                        && !(1..=30).contains(&m.to_hit)
                    {
                        problems.push(Problem::new(
                            path.field("weapon").field("missile").field("to_hit"),
                            format!("to-hit {} is out of range: expected 1 to 30", m.to_hit),
                        ));
                    }
                }
                if index == u8::MAX {
                    problems.push(Problem::new(path, "at most 255 systems on a facing"));
                    continue;
                }
                systems.push(System {
                    at: SystemRef { facing, index },
                    name: s.name.clone(),
                    hp: s.hp,
                    build: s.build,
                    turret: s.turret,
                    engine: s.engine,
                    weapon: s.weapon.clone(),
                });
                index += 1;
            }
        }
        if !systems.iter().any(|s| s.at.facing == ShipFacing::Core) {
            problems.push(Problem::new(
                root.field("systems"),
                "the ship needs at least one system on its Core facing",
            ));
        }
        if stats.crew.is_empty() {
            problems.push(Problem::new(root.field("crew"), "the ship needs a crew"));
        }
        if stats.crew.len() > 32 {
            problems.push(Problem::new(root.field("crew"), "at most 32 crew"));
        }
        for (i, c) in stats.crew.iter().enumerate() {
            for (field, v) in [("piloting", c.piloting), ("gunnery", c.gunnery)] {
                if !(0..=20).contains(&v) {
                    problems.push(Problem::new(
                        root.field("crew").index(i).field(field),
                        format!("{field} {v} is out of range: expected 0 to 20"),
                    ));
                }
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(ShipSheet {
            class: stats.class.clone(),
            defence: stats.defence,
            shields: stats.shields,
            armour: stats.armour,
            systems,
            crew: stats.crew.clone(),
            edges: stats.edges.clone(),
        })
    }

    /// Index in [`ShipSheet::systems`] of the system at `at`.
    pub fn find(&self, at: SystemRef) -> Option<usize> {
        self.systems.iter().position(|s| s.at == at)
    }

    /// The crewman who flies the ship: the best piloting total (the first of equals).
    pub fn pilot(&self) -> usize {
        let mut best = 0;
        for (i, c) in self.crew.iter().enumerate() {
            if c.piloting > self.crew[best].piloting {
                best = i;
            }
        }
        best
    }

    /// Sum of the edges' piloting bonuses.
    pub fn piloting_edges(&self) -> i32 {
        self.edges.iter().map(|e| e.piloting).sum()
    }

    /// Sum of the edges' gunnery bonuses.
    pub fn gunnery_edges(&self) -> i32 {
        self.edges.iter().map(|e| e.gunnery).sum()
    }

    /// The modifiers of a to-hit roll fired by crewman `gunner` with `helpers` adding their
    /// gunnery, and the edges' gunnery bonuses ("Actions", decision 3), put into `mods`
    /// (labelled, or only summed: [`Gather`]).
    pub fn gather_shot(&self, gunner: u8, helpers: &[u8], mods: &mut impl Gather) {
        if let Some(c) = self.crew.get(usize::from(gunner)) {
            mods.push_named(c.gunnery, || format!("{} gunnery", c.name));
        }
        for h in helpers {
            if let Some(c) = self.crew.get(usize::from(*h)) {
                mods.push_named(c.gunnery, || format!("{} helps", c.name));
            }
        }
        for e in self.edges.iter().filter(|e| e.gunnery != 0) {
            mods.push_named(e.gunnery, || e.name.clone());
        }
    }

    /// The modifiers of a to-hit roll, labelled ([`ShipSheet::gather_shot`]).
    pub fn shot_modifiers(&self, gunner: u8, helpers: &[u8]) -> Vec<Modifier> {
        let mut mods = Vec::new();
        self.gather_shot(gunner, helpers, &mut mods);
        mods
    }

    /// The sum of [`ShipSheet::shot_modifiers`], without putting their labels together.
    pub fn shot_bonus(&self, gunner: u8, helpers: &[u8]) -> i32 {
        Sum::of(|sum| self.gather_shot(gunner, helpers, sum))
    }

    /// True when an edge lets this ship choose the system its hits strike.
    pub fn attacker_chooses(&self) -> bool {
        self.edges.iter().any(|e| e.attacker_chooses)
    }

    /// Hit points of every system together.
    pub fn structure(&self) -> i32 {
        self.systems.iter().map(|s| s.hp).sum()
    }
}

/// A ship in battle, the component on its entity: what is left of it, what it has used
/// this turn, its range roll and who it has moved against or broken off from.
#[derive(bevy::ecs::component::Component, Clone, Debug, PartialEq)]
pub struct ShipState {
    /// Shield points left.
    pub shields: i32,
    /// Armour points left.
    pub armour: i32,
    /// Hit points left per system, in sheet order.
    pub hp: Vec<i32>,
    /// Missiles left per system (0 for systems that are not launchers).
    pub ammo: Vec<u32>,
    /// Systems that have fired this turn.
    pub fired: Vec<bool>,
    /// Crew who have acted this turn (as gunner or helper).
    pub crew_used: Vec<bool>,
    /// Crew who spent this turn helping the pilot: their piloting counts in the next range
    /// roll, then the list is cleared.
    pub pilot_help: Vec<u8>,
    /// The ship has been destroyed.
    pub destroyed: bool,
    /// The ship has escaped every enemy.
    pub escaped: bool,
    /// This turn's range roll total (0 when it rolled none: out of the fight, or no
    /// working engine).
    pub range_roll: i32,
    /// Enemies that moved the range against this ship this turn, by entity (it may not
    /// move against them).
    pub moved_against: Vec<bevy::ecs::entity::Entity>,
    /// Enemies this ship broke off from (opened the range to Escaped), by entity.
    pub broke_off_from: Vec<bevy::ecs::entity::Entity>,
}

impl ShipState {
    /// A fresh ship.
    pub fn new(sheet: &ShipSheet) -> Self {
        Self {
            shields: sheet.shields,
            armour: sheet.armour,
            hp: sheet.systems.iter().map(|s| s.hp).collect(),
            ammo: sheet
                .systems
                .iter()
                .map(|s| {
                    s.weapon
                        .as_ref()
                        .and_then(|w| w.missile)
                        .map_or(0, |m| m.ammo)
                })
                .collect(),
            fired: vec![false; sheet.systems.len()],
            crew_used: vec![false; sheet.crew.len()],
            pilot_help: Vec::new(),
            destroyed: false,
            escaped: false,
            range_roll: 0,
            moved_against: Vec::new(),
            broke_off_from: Vec::new(),
        }
    }

    /// True while the ship is in the fight.
    pub fn in_fight(&self) -> bool {
        !self.destroyed && !self.escaped
    }

    /// Hit points left in every system together.
    pub fn structure(&self) -> i32 {
        self.hp.iter().map(|h| (*h).max(0)).sum()
    }

    /// Clears what was used this turn.
    pub fn new_turn(&mut self) {
        self.fired.iter_mut().for_each(|f| *f = false);
        self.crew_used.iter_mut().for_each(|c| *c = false);
        self.range_roll = 0;
        self.moved_against.clear();
    }

    /// True when the system at sheet index `i` works.
    pub fn works(&self, sheet: &ShipSheet, i: usize) -> bool {
        sheet.systems.get(i).is_some_and(|s| s.works(self.hp[i]))
    }

    /// False when the ship has engines and none of them works: it cannot change the range.
    pub fn can_manoeuvre(&self, sheet: &ShipSheet) -> bool {
        let engine = |i: &usize| sheet.systems[*i].engine;
        let mut engines = (0..sheet.systems.len()).filter(engine);
        engines.clone().next().is_none() || engines.any(|i| self.works(sheet, i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn system(name: &str, hp: i32, build: Build) -> SystemSpec {
        SystemSpec {
            name: name.into(),
            facing: ShipFacing::Core,
            hp,
            build,
            turret: false,
            engine: false,
            weapon: None,
        }
    }

    /// starship-d12-quick-reference.txt, "After the shot": a normal system stops working
    /// when damaged; heavy, super-heavy and turret systems only when destroyed.
    #[test]
    fn normal_systems_fail_when_damaged_heavy_ones_when_destroyed() {
        let stats = ShipStats {
            class: String::new(),
            defence: 1,
            shields: 0,
            armour: 0,
            systems: vec![
                system("sensors", 3, Build::Normal),
                system("reactor", 3, Build::Heavy),
                system("hull", 3, Build::SuperHeavy),
            ],
            crew: vec![CrewSpec {
                name: "Ann".into(),
                piloting: 3,
                gunnery: 2,
            }],
            edges: vec![],
        };
        let sheet = ShipSheet::resolve(&stats).expect("valid");
        let s = &sheet.systems;
        assert!(s[0].works(3) && !s[0].works(2));
        assert!(s[1].works(1) && !s[1].works(0));
        assert!(s[2].works(1) && !s[2].works(0));
        let mut turret = s[0].clone();
        turret.turret = true;
        assert!(turret.works(1) && !turret.works(0));
    }

    #[test]
    fn a_sheet_needs_a_core_and_a_crew() {
        let stats = ShipStats {
            class: String::new(),
            defence: 1,
            shields: 0,
            armour: 0,
            systems: vec![SystemSpec {
                facing: ShipFacing::Front,
                ..system("gun", 0, Build::Normal)
            }],
            crew: vec![],
            edges: vec![],
        };
        let problems = ShipSheet::resolve(&stats).expect_err("invalid");
        let text: Vec<String> = problems.iter().map(|p| p.message.clone()).collect();
        assert!(text.iter().any(|m| m.contains("Core")), "{text:?}");
        assert!(text.iter().any(|m| m.contains("crew")), "{text:?}");
        assert!(text.iter().any(|m| m.contains("hit points")), "{text:?}");
    }
}
