//! GURPS personal combat (ruleset id `gurps`), from gurps-lite-and-socs.txt with the tables
//! of gurps-traveller-gm-screen.txt that the 4e text lacks (rules/README.md decision 5).
//!
//! Implemented: every maneuver of the quick reference (Do Nothing, Move with the running
//! bonus, Attack, Move and Attack, All-Out Attack and All-Out Defense with their options,
//! Committed and Defensive Attack, Aim (braced), Evaluate, Feint, Ready, Change Posture,
//! Concentrate, Wait with opportunity fire); Deceptive and Telegraphic Attack, Rapid Strike
//! and the extra-effort options; melee and ranged attacks with range/speed, Aim, cover,
//! posture, size, intervening figures, rapid fire and Bulk; Dodge, Parry and Block with
//! Retreat, Dodge and Drop and facing; hit locations with crippling; shock, major wounds,
//! knockdown and stun; knockback on the hex line; the critical tables; lost HP and FP with
//! mortal wounds; morale checks; armor chinks; disarms; Dual-Weapon Attack; repeated
//! parries; stray shots; group combat for mooks; facing costs on longer moves (side and
//! back steps and turns) and the facing limit at the end of a move of more than half Move.
//!
//! Layout: [`tables`] and [`equipment`] hold data, [`sheet`] the stat block and fighter,
//! [`gm`] the game master's hand edits,
//! [`posture`], [`location`], [`injury`] and [`knockback`] one rule each, [`combat`] the
//! resolution functions, [`actions`] legality, [`ai`] the policy, [`odds`] the odds
//! preview of a planned action, [`snapshot`] an owned copy of the battle for the window,
//! and `systems` the thin ECS systems added by [`configure`].

pub mod actions;
pub mod ai;
pub mod combat;
mod contract;
pub mod criticals;
pub mod defense;
pub mod equipment;
pub mod facing;
pub mod fatigue;
pub mod gcs;
pub mod gm;
pub mod import;
pub mod injury;
pub mod knockback;
pub mod location;
pub mod maneuver;
pub mod morale;
pub mod odds;
pub mod plan;
pub mod posture;
pub mod sheet;
pub mod snapshot;
mod systems;
pub mod tables;

pub use contract::Gurps;
pub use maneuver::{Action, AoaOption, AodOption, CommitOption, Maneuver};
pub use odds::{Odds, estimate};
pub use sheet::{Fighter, GurpsStats, Sheet};
pub use snapshot::Snapshot;
pub use systems::initiative_order;

use crate::battle::BattleSet;
use bevy::ecs::prelude::{IntoScheduleConfigs, Schedule};
use serde::{Deserialize, Serialize};

/// The ruleset's scenario settings: equipment added to (or replacing entries of) the
/// built-in catalog.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GurpsConfig {
    /// Extra weapons by name.
    #[serde(default, deserialize_with = "crate::format::unique_names")]
    pub weapons: std::collections::BTreeMap<String, equipment::WeaponSpec>,
    /// Extra armor by name.
    #[serde(default, deserialize_with = "crate::format::unique_names")]
    pub armor: std::collections::BTreeMap<String, equipment::ArmorSpec>,
    /// Extra shields by name.
    #[serde(default, deserialize_with = "crate::format::unique_names")]
    pub shields: std::collections::BTreeMap<String, equipment::ShieldSpec>,
    /// Where unaimed blows land: `Random` (the 3d6 table, default) or `Torso`.
    #[serde(default)]
    pub hit_locations: location::HitLocations,
    /// Morale checks for AI sides, by side id.
    #[serde(default, deserialize_with = "crate::format::unique_keys")]
    pub morale: std::collections::BTreeMap<String, morale::MoraleSpec>,
    /// The optional extra-effort rules (Flurry of Blows, Mighty Blow, Heroic Charge,
    /// Feverish Defense), paid in FP.
    #[serde(default)]
    pub extra_effort: bool,
    /// Sides (by id) whose fighters use the group combat rules for mooks.
    #[serde(default)]
    pub groups: Vec<String>,
}

/// The scenario's GURPS options the systems read during a battle.
#[derive(bevy::ecs::resource::Resource, Clone, Debug, Default)]
pub struct GurpsRules {
    /// Where unaimed blows land.
    pub hit_locations: location::HitLocations,
    /// Morale settings by side index (`None`: the side never checks).
    pub morale: Vec<Option<morale::MoraleSpec>>,
    /// Extra effort is allowed.
    pub extra_effort: bool,
    /// Sides (by index) that fight as groups.
    pub groups: Vec<bool>,
}

/// Morale bookkeeping of one battle, by side index.
#[derive(bevy::ecs::resource::Resource, Clone, Debug, Default)]
pub struct MoraleState {
    /// Fighters lost as of the side's last check.
    pub losses_seen: Vec<u32>,
    /// The side has broken.
    pub broken: Vec<bool>,
}

impl GurpsConfig {
    /// The built-in catalog with this scenario's additions.
    pub fn catalog(&self) -> equipment::Catalog {
        equipment::Catalog::builtin().extended(&equipment::Catalog {
            weapons: self.weapons.clone(),
            armor: self.armor.clone(),
            shields: self.shields.clone(),
        })
    }
}

/// Adds the GURPS systems to a battle-step schedule, in their sets.
pub fn configure(schedule: &mut Schedule) {
    schedule.add_systems((
        systems::begin_turn.in_set(BattleSet::Begin),
        systems::decide.in_set(BattleSet::Decide),
        systems::resolve.in_set(BattleSet::Resolve),
    ));
}
