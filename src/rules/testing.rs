//! What the rulesets' tests share: a battle of a shipped scenario, and a unit's entity and
//! standing in it.

use crate::battle::{Standing, UnitId};
use crate::session::{Session, SessionOptions};
use bevy::ecs::entity::Entity;
use std::sync::Arc;

/// A battle of `scenarios/<file>` with dice seeded by `seed` (the AI on every side, the
/// log kept).
pub fn shipped(file: &str, seed: u64) -> Session {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(file);
    let prepared = crate::rules::builtin()
        .load(&path)
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    Session::new(Arc::new(prepared), seed, SessionOptions::default())
}

/// The entity of unit `u`, which the test knows is in the battle.
pub fn entity(s: &Session, u: UnitId) -> Entity {
    s.roster()
        .entity(u)
        .unwrap_or_else(|| panic!("no unit {u:?}"))
}

/// The standing of unit `u`.
pub fn standing(s: &Session, u: UnitId) -> Standing {
    *s.world
        .get::<Standing>(entity(s, u))
        .unwrap_or_else(|| panic!("no standing for {u:?}"))
}
