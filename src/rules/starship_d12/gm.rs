//! The game master's hand edits to a starship-d12 battle (the contract's `gm_fields`,
//! `gm_set`, `gm_place`, `gm_remove` and `gm_join`), kept consistent with
//! starship-d12-quick-reference.txt.
//!
//! A ship has no single hit-point total: damage runs through its shields, its outer
//! armour and its systems, each with hit points of its own ("After the shot"). What the GM
//! may change on a ship:
//! - its condition: fighting, destroyed or escaped (a Choice);
//! - its shield and outer armour points, from 0 to the sheet's;
//! - each system's hit points, from 0 to the sheet's (`sys0`, `sys1`... by the system's
//!   place in the sheet, labelled with its name): a normal system stops working once
//!   damaged, a heavy, super-heavy or turret one once destroyed ("After the shot");
//! - each missile launcher's missiles left, from 0 to its load ("Gunnery Difficulties":
//!   missiles have their own numbers; each shot uses one).
//!
//! Nothing may be forced past the sheet: the text gives a ship no points above its own.
//!
//! Range is a band between each pair of enemies, not a hex count ("Range"); the map only
//! pictures it. So placing a ship, or bringing one in, sets its band to every enemy in the
//! fight from the hex distance on the map ([`band_at`]), and the map then settles the ships
//! to fit the bands as after any range move.
//!
//! Decisions where the text is silent, each in one place:
//! - A ship set to destroyed has lost its shields, outer armour and every core system (the
//!   text destroys a ship only when damage passes its core, "After the shot"). Shots it
//!   declared this action round still fire, as for a ship destroyed by a shot (the actions
//!   are simultaneous, "Actions").
//! - A ship removed has left the battle (escaped): it takes no more decisions, its shots
//!   declared this action round are dropped, and no one can fire at it.
//! - Neither a destroyed nor an escaped ship comes back: the GM brings a copy in instead.
//! - A ship placed, or brought in, never starts at Escaped from an enemy: beyond Long on
//!   the map counts as Long (leaving is the GM's removal). Adjacent hexes are Tailing:
//!   the ship placed sits on the enemy's tail when it faces it, else the enemy on its tail.
//! - A ship brought in rolls for range from the next turn (the range phase's order is
//!   rolled at the turn's start, "Range") and declares from the next action round.

use super::fleet::{Fleet, Phase, Ships};
use super::range::Band;
use super::sheet::{ShipSheet, ShipState};
use crate::battle::{
    Facing, GmField, GmValue, HexPos, Sheet, Standing, TurnState, UnitId, Units, UnitsMut,
};
use bevy::ecs::entity::Entity;
use bevy::ecs::world::World;
use hexx::{EdgeDirection, Hex};
use std::borrow::Cow;
use std::sync::Arc;

/// A ship's conditions, by the index the `state` field sets.
pub const SHIP_STATES: [&str; 3] = ["fighting", "destroyed", "escaped"];

/// Writes the keys `<prefix>0`, `<prefix>1`... of a table.
macro_rules! keys {
    ($prefix:literal; $($n:literal)*) => {
        [$(concat!($prefix, stringify!($n))),*]
    };
}

/// The keys of the systems' hit points, by their place in the sheet (the GM may change the
/// first [`SYSTEM_KEYS`]`.len()` systems of a ship).
pub const SYSTEM_KEYS: [&str; 64] = keys!("sys";
    0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
    32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60
    61 62 63);

/// The keys of the launchers' missiles left, by the launcher's place in the sheet.
pub const AMMO_KEYS: [&str; 64] = keys!("ammo";
    0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
    32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60
    61 62 63);

/// The band the map's hex distance `d` between two ships stands for: the band whose
/// picture ([`Band::hexes`]) is nearest, Tailing only for adjacent hexes, and never
/// Escaped (beyond Long counts as Long).
pub fn band_at(d: u32) -> Band {
    match d {
        0 | 1 => Band::Tailing,
        2..=4 => Band::Short,
        5..=8 => Band::Medium,
        _ => Band::Long,
    }
}

/// The ship of `entity`: its id, sheet and state, or why there is none.
fn ship(world: &World, entity: Entity) -> Result<(UnitId, Arc<ShipSheet>, ShipState), String> {
    match (
        world.get::<UnitId>(entity),
        world.get::<Sheet<ShipSheet>>(entity),
        world.get::<ShipState>(entity),
    ) {
        (Some(u), Some(sheet), Some(st)) => Ok((*u, Arc::clone(&sheet.0), st.clone())),
        _ => Err("not a starship-d12 ship".into()),
    }
}

/// The ships of a battle world, as the rules read them.
fn ships(world: &World) -> &impl Ships {
    world
}

/// The ships of a battle world, as the rules change them.
fn ships_mut(world: &mut World) -> &mut impl super::fleet::ShipsMut {
    world
}

/// The ship's name.
fn name(world: &World, u: UnitId) -> String {
    ships(world).name_of(u).to_string()
}

/// A number field from 0 to `max`, never forced past it.
fn number(key: &'static str, label: Cow<'static, str>, now: i32, max: i32) -> GmField {
    GmField {
        key,
        label,
        value: GmValue::Number {
            now,
            min: 0,
            max,
            forced_max: None,
        },
    }
}

/// What the GM may change on the ship of `entity` (see the module documentation).
pub fn fields(world: &World, entity: Entity) -> Vec<GmField> {
    let Ok((_, sheet, st)) = ship(world, entity) else {
        return Vec::new();
    };
    let now = if st.destroyed {
        1
    } else if st.escaped {
        2
    } else {
        0
    };
    let mut v = vec![GmField {
        key: "state",
        label: Cow::Borrowed("Condition"),
        value: GmValue::Choice {
            now,
            options: &SHIP_STATES,
        },
    }];
    if sheet.shields > 0 {
        v.push(number(
            "shields",
            Cow::Borrowed("Shields"),
            st.shields,
            sheet.shields,
        ));
    }
    if sheet.armour > 0 {
        v.push(number(
            "armour",
            Cow::Borrowed("Armour"),
            st.armour,
            sheet.armour,
        ));
    }
    for (i, (s, key)) in sheet.systems.iter().zip(SYSTEM_KEYS).enumerate() {
        let hp = st.hp.get(i).copied().unwrap_or(0);
        v.push(number(key, Cow::Owned(format!("{} HP", s.name)), hp, s.hp));
    }
    for (i, (s, key)) in sheet.systems.iter().zip(AMMO_KEYS).enumerate() {
        if let Some(m) = s.weapon.as_ref().and_then(|w| w.missile) {
            let left = st.ammo.get(i).copied().unwrap_or(0);
            v.push(number(
                key,
                Cow::Owned(format!("{} missiles", s.name)),
                i32::try_from(left).unwrap_or(i32::MAX),
                i32::try_from(m.ammo).unwrap_or(i32::MAX),
            ));
        }
    }
    v
}

/// Writes the ship's state back and mirrors its standing onto the entity.
fn store(world: &mut World, entity: Entity, u: UnitId, st: ShipState) {
    if let Some(mut s) = world.get_mut::<ShipState>(entity) {
        *s = st;
    }
    let standing = ships(world).standing(u);
    if let Some(mut s) = world.get_mut::<Standing>(entity) {
        *s = standing;
    }
}

/// The battle no longer waits for ship `u`, out of the fight: the turn moves on past it
/// ([`Fleet::advance`] skips ships out of the fight).
fn stop_waiting_for(world: &mut World, u: UnitId) {
    if let Some(mut turn) = world.get_resource_mut::<TurnState>()
        && turn.awaiting == Some(u)
    {
        turn.awaiting = None;
    }
}

/// Refuses to bring a destroyed or escaped ship back.
fn still_there(world: &World, u: UnitId, st: &ShipState) -> Result<(), String> {
    if st.in_fight() {
        return Ok(());
    }
    Err(format!(
        "{} is {}: it does not come back; bring a copy in instead",
        name(world, u),
        if st.destroyed { "destroyed" } else { "gone" }
    ))
}

/// Sets field `key` of the ship of `entity` to `value` (checked against its bounds), with
/// what follows under the rules (see the module documentation).
pub fn set(world: &mut World, entity: Entity, key: &str, value: i32) -> Result<(), String> {
    let (u, sheet, mut st) = ship(world, entity)?;
    match key {
        "state" => match value {
            0 => still_there(world, u, &st),
            1 => {
                if st.destroyed {
                    return Ok(());
                }
                still_there(world, u, &st)?;
                // "After the shot": a ship is destroyed when damage passes its core, after
                // its shields and outer armour.
                st.destroyed = true;
                st.shields = 0;
                st.armour = 0;
                for (hp, s) in st.hp.iter_mut().zip(&sheet.systems) {
                    if s.at.facing == super::sheet::ShipFacing::Core {
                        *hp = 0;
                    }
                }
                store(world, entity, u, st);
                stop_waiting_for(world, u);
                Ok(())
            }
            2 => {
                if st.escaped {
                    return Ok(());
                }
                remove(world, entity)
            }
            _ => Err(format!("{value} is not a condition")),
        },
        "shields" => {
            st.shields = value;
            store(world, entity, u, st);
            Ok(())
        }
        "armour" => {
            st.armour = value;
            store(world, entity, u, st);
            Ok(())
        }
        _ => {
            let index = |keys: &[&str]| keys.iter().position(|k| *k == key);
            if let Some(i) = index(&SYSTEM_KEYS)
                && let Some(hp) = st.hp.get_mut(i)
            {
                *hp = value;
            } else if let Some(i) = index(&AMMO_KEYS)
                && let Some(ammo) = st.ammo.get_mut(i)
            {
                *ammo = u32::try_from(value).map_err(|_| format!("{value} is below 0"))?;
            } else {
                return Err(format!("{} has no field `{key}`", name(world, u)));
            }
            store(world, entity, u, st);
            Ok(())
        }
    }
}

/// Sets the band between ship `u` (on `at`, facing `facing`) and every enemy in the fight
/// from the map's hex distance ([`band_at`]): adjacent, the ship that faces the other sits
/// on its tail. Breaking off between them is forgotten (they are in range again).
fn bands_from_map(world: &mut World, u: UnitId, at: Hex, facing: EdgeDirection) {
    if !world.contains_resource::<Fleet>() || !ships(world).in_fight(u) {
        return;
    }
    world.resource_scope::<Fleet, _>(|world, mut fleet| {
        let me = ships(world).entity(u);
        for e in ships(world).enemies(u) {
            let Some(there) = ships(world)
                .entity_of(e)
                .and_then(|x| world.get::<HexPos>(x))
                .map(|p| p.0)
            else {
                continue;
            };
            let band = band_at(at.unsigned_distance_to(there));
            let tailer = (band == Band::Tailing).then(|| {
                if at.main_direction_to(there) == facing {
                    u
                } else {
                    e
                }
            });
            fleet.set_range(&*world, u, e, band, tailer);
            let them = ships(world).entity(e);
            for (who, other) in [(u, them), (e, me)] {
                let st = ships_mut(world).state_mut(who);
                if let Some(st) = st {
                    st.broke_off_from.retain(|x| *x != other);
                }
            }
        }
    });
}

/// Puts the ship of `entity` on `at` facing `facing`, and sets its bands to every enemy
/// from the hex distance on the map ([`band_at`]; "Range").
pub fn place(
    world: &mut World,
    entity: Entity,
    at: Hex,
    facing: EdgeDirection,
) -> Result<(), String> {
    let (u, ..) = ship(world, entity)?;
    if let Some(mut p) = world.get_mut::<HexPos>(entity) {
        p.0 = at;
    }
    if let Some(mut f) = world.get_mut::<Facing>(entity) {
        f.0 = facing;
    }
    bands_from_map(world, u, at, facing);
    Ok(())
}

/// Takes the ship of `entity` out of the battle: it has escaped; its shots declared this
/// action round are dropped and the battle no longer waits for it.
pub fn remove(world: &mut World, entity: Entity) -> Result<(), String> {
    let (u, _, mut st) = ship(world, entity)?;
    still_there(world, u, &st)?;
    st.escaped = true;
    store(world, entity, u, st);
    if let Some(mut fleet) = world.get_resource_mut::<Fleet>()
        && let Phase::Actions { declared, .. } = &mut fleet.phase
    {
        declared.retain(|(who, _)| *who != u);
    }
    stop_waiting_for(world, u);
    Ok(())
}

/// A ship the GM brought in joins: its bands to every enemy in the fight come from the
/// hex distance on the map ([`band_at`]); it declares from the next action round and rolls
/// for range from the next turn ("Range", "Actions").
pub fn join(world: &mut World, entity: Entity, unit: UnitId) -> Result<(), String> {
    let at = world.get::<HexPos>(entity).map(|p| p.0);
    let facing = world.get::<Facing>(entity).map(|f| f.0);
    let (Some(at), Some(facing)) = (at, facing) else {
        return Err("the new ship has no place on the map".into());
    };
    bands_from_map(world, unit, at, facing);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::{BattleEvent, GmChange, OutcomeKind};
    use crate::session::Session;

    /// A session of a shipped starship-d12 scenario.
    fn session(file: &str, seed: u64) -> Session {
        crate::rules::testing::shipped(file, seed)
    }

    fn entity(s: &Session, u: UnitId) -> Entity {
        crate::rules::testing::entity(s, u)
    }

    fn state(s: &Session, u: UnitId) -> ShipState {
        s.world
            .get::<ShipState>(entity(s, u))
            .cloned()
            .unwrap_or_else(|| panic!("no ship {u:?}"))
    }

    fn standing(s: &Session, u: UnitId) -> Standing {
        crate::rules::testing::standing(s, u)
    }

    fn set_to(
        s: &mut Session,
        u: UnitId,
        key: &str,
        value: i32,
        force: bool,
    ) -> Result<String, String> {
        s.gm_edit(
            u,
            &GmChange::Set {
                key: key.into(),
                value,
                force,
            },
            "test",
        )
    }

    fn band(s: &Session, a: UnitId, b: UnitId) -> Band {
        s.world.resource::<Fleet>().band(&s.world, a, b)
    }

    /// True when `entries` show a turn or a decision of `u`.
    fn acts(entries: &[crate::battle::LogEntry], u: UnitId) -> bool {
        entries.iter().any(|e| match e.event {
            BattleEvent::TurnStarted { unit } | BattleEvent::ActionChosen { unit, .. } => unit == u,
            _ => false,
        })
    }

    fn took_a_turn(s: &Session, u: UnitId) -> bool {
        acts(&s.log().entries, u)
    }

    const VIGILANT: UnitId = UnitId(0);
    const JACKAL: UnitId = UnitId(1);

    /// Shields and outer armour from 0 to the sheet's, never forced past it ("After the
    /// shot": pools damage goes through first), logged with the reason.
    #[test]
    fn shields_and_armour_keep_to_the_sheet() {
        let mut s = session("d12-duel.ron", 1);
        let words = s
            .gm_edit(
                VIGILANT,
                &GmChange::Set {
                    key: "shields".into(),
                    value: 1,
                    force: false,
                },
                "generator flicker",
            )
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(words, "Shields 4 -> 1");
        assert_eq!(state(&s, VIGILANT).shields, 1);
        assert!(
            s.log_text()
                .contains("GM: Vigilant Shields 4 -> 1, generator flicker"),
            "{}",
            s.log_text()
        );
        assert!(set_to(&mut s, VIGILANT, "shields", 5, false).is_err());
        assert!(set_to(&mut s, VIGILANT, "shields", 5, true).is_err());
        assert!(set_to(&mut s, VIGILANT, "shields", -1, false).is_err());
        assert_eq!(state(&s, VIGILANT).shields, 1);
        assert!(set_to(&mut s, JACKAL, "armour", 0, false).is_ok());
        assert_eq!(state(&s, JACKAL).armour, 0);
        assert!(s.log_text().contains("GM: Red Jackal Armour 5 -> 0, test"));
        assert!(set_to(&mut s, JACKAL, "hp", 3, false).is_err());
    }

    /// A system's hit points, labelled with its name: a normal system damaged stops
    /// working, a heavy one only once destroyed ("After the shot"); a launcher's missiles
    /// from 0 to its load.
    #[test]
    fn systems_and_missiles() {
        let mut s = session("d12-duel.ron", 1);
        let fields = fields(&s.world, entity(&s, VIGILANT));
        let laser = fields
            .iter()
            .find(|f| f.label == "Laser cannon HP")
            .unwrap_or_else(|| panic!("no laser field"));
        assert_eq!(laser.key, "sys0");
        assert!(set_to(&mut s, VIGILANT, "sys0", 2, false).is_ok());
        let sheet = ships(&s.world)
            .sheet_of(VIGILANT)
            .cloned()
            .unwrap_or_else(|| panic!("no sheet"));
        assert_eq!(state(&s, VIGILANT).hp[0], 2);
        assert!(!state(&s, VIGILANT).works(&sheet, 0));
        assert!(
            s.log_text()
                .contains("GM: Vigilant Laser cannon HP 3 -> 2, test")
        );
        assert!(set_to(&mut s, VIGILANT, "sys0", 4, true).is_err());
        let drive = sheet
            .systems
            .iter()
            .position(|x| x.name == "Main drive")
            .unwrap_or_else(|| panic!("no drive"));
        assert!(set_to(&mut s, VIGILANT, SYSTEM_KEYS[drive], 1, false).is_ok());
        assert!(state(&s, VIGILANT).works(&sheet, drive));
        assert!(set_to(&mut s, VIGILANT, SYSTEM_KEYS[drive], 0, false).is_ok());
        assert!(!state(&s, VIGILANT).can_manoeuvre(&sheet));
        let rack = sheet
            .systems
            .iter()
            .position(|x| x.name == "Missile rack")
            .unwrap_or_else(|| panic!("no rack"));
        assert!(
            fields
                .iter()
                .any(|f| f.key == AMMO_KEYS[rack] && f.label == "Missile rack missiles")
        );
        assert!(fields.iter().all(|f| f.key != AMMO_KEYS[0]));
        assert!(set_to(&mut s, VIGILANT, AMMO_KEYS[rack], 0, false).is_ok());
        assert_eq!(state(&s, VIGILANT).ammo[rack], 0);
        assert!(set_to(&mut s, VIGILANT, AMMO_KEYS[rack], 3, false).is_err());
        assert!(set_to(&mut s, VIGILANT, AMMO_KEYS[0], 0, false).is_err());
        assert!(s.run().is_some());
    }

    /// Destroyed by the GM: shields, armour and core gone ("After the shot"), the standing
    /// says so, it does not come back, and the battle ends in the other side's victory.
    #[test]
    fn a_destroyed_ship_ends_the_battle() {
        let mut s = session("d12-duel.ron", 1);
        for _ in 0..3 {
            s.step();
        }
        assert!(set_to(&mut s, JACKAL, "state", 1, false).is_ok());
        let st = state(&s, JACKAL);
        assert!(st.destroyed);
        assert_eq!((st.shields, st.armour), (0, 0));
        let sheet = ships(&s.world)
            .sheet_of(JACKAL)
            .cloned()
            .unwrap_or_else(|| panic!("no sheet"));
        for (i, sys) in sheet.systems.iter().enumerate() {
            if sys.at.facing == super::super::sheet::ShipFacing::Core {
                assert_eq!(st.hp[i], 0);
            }
        }
        assert_eq!(standing(&s, JACKAL), Standing::Destroyed);
        assert!(
            s.log_text()
                .contains("GM: Red Jackal Condition fighting -> destroyed, test")
        );
        assert!(set_to(&mut s, JACKAL, "state", 0, false).is_err());
        assert!(s.gm_edit(JACKAL, &GmChange::Remove, "").is_err());
        assert_eq!(s.run(), Some(OutcomeKind::Victory { side: 0 }));
    }

    /// Removed: the ship has escaped, takes no more decisions, and the battle ends.
    #[test]
    fn a_removed_ship_leaves_the_battle() {
        let mut s = session("d12-three-ships.ron", 2);
        for _ in 0..4 {
            s.step();
        }
        let gone = UnitId(1);
        assert!(s.gm_edit(gone, &GmChange::Remove, "jumps away").is_ok());
        assert!(state(&s, gone).escaped);
        assert_eq!(standing(&s, gone), Standing::Escaped);
        let name = s.roster().name(gone).to_string();
        assert!(
            s.log_text()
                .contains(&format!("GM: {name} is taken out of the fight, jumps away"))
        );
        let before = s.log().entries.len();
        assert!(s.run().is_some());
        assert!(!acts(&s.log().entries[before..], gone));
    }

    /// The player's ship destroyed while the battle waits for its decision: the battle
    /// moves on without it and ends.
    #[test]
    fn destroying_the_ship_awaited_moves_the_battle_on() {
        let mut s = session("d12-duel.ron", 1);
        s.set_autopilot(false);
        let mut steps = 0;
        while s.world.resource::<TurnState>().awaiting != Some(VIGILANT) && steps < 50 {
            s.step();
            steps += 1;
        }
        assert_eq!(s.world.resource::<TurnState>().awaiting, Some(VIGILANT));
        assert!(set_to(&mut s, VIGILANT, "state", 1, false).is_ok());
        assert_eq!(s.world.resource::<TurnState>().awaiting, None);
        let before = s.log().entries.len();
        assert_eq!(s.run(), Some(OutcomeKind::Victory { side: 1 }));
        assert!(!acts(&s.log().entries[before..], VIGILANT));
    }

    /// Place: the ship moves on the map and its band to the enemy follows the hex distance
    /// ("Range"): next to it and facing it, on its tail; five hexes off, Medium. The
    /// battle still runs to its end.
    #[test]
    fn placing_sets_the_bands_from_the_map() {
        let mut s = session("d12-duel.ron", 1);
        let vigilant_at = s
            .world
            .get::<HexPos>(entity(&s, VIGILANT))
            .map(|p| p.0)
            .unwrap_or_else(|| panic!("no position"));
        assert_eq!(band(&s, VIGILANT, JACKAL), Band::Medium);
        let behind = vigilant_at + Hex::new(-1, 0);
        let facing = behind.main_direction_to(vigilant_at);
        let change = GmChange::Place {
            at: (behind.x, behind.y),
            facing: facing.index(),
        };
        assert!(s.gm_edit(JACKAL, &change, "ambush").is_ok());
        assert_eq!(
            s.world.get::<HexPos>(entity(&s, JACKAL)).map(|p| p.0),
            Some(behind)
        );
        assert_eq!(band(&s, VIGILANT, JACKAL), Band::Tailing);
        assert!(
            s.world
                .resource::<Fleet>()
                .tails(&s.world, JACKAL, VIGILANT)
        );
        let away = vigilant_at + Hex::new(5, 0);
        let change = GmChange::Place {
            at: (away.x, away.y),
            facing: 0,
        };
        assert!(s.gm_edit(JACKAL, &change, "").is_ok());
        assert_eq!(band(&s, VIGILANT, JACKAL), Band::Medium);
        assert!(s.run().is_some());
    }

    /// The map's distances stand for the bands nearest their picture.
    #[test]
    fn hex_distances_stand_for_bands() {
        assert_eq!(band_at(1), Band::Tailing);
        assert_eq!(band_at(2), Band::Short);
        assert_eq!(band_at(Band::Short.hexes()), Band::Short);
        assert_eq!(band_at(Band::Medium.hexes()), Band::Medium);
        assert_eq!(band_at(Band::Long.hexes()), Band::Long);
        assert_eq!(band_at(40), Band::Long);
    }

    /// Add: a copy of the gunship joins at a band to the enemy from the map, is listed in
    /// the roster, and gets its own decisions from the next action round or turn.
    #[test]
    fn an_added_ship_takes_turns() {
        let mut s = session("d12-duel.ron", 1);
        for _ in 0..2 {
            s.step();
        }
        let add = GmChange::Add {
            name: "Black Jackal".into(),
            at: (6, 0),
            facing: 3,
        };
        if let Err(e) = s.gm_edit(JACKAL, &add, "a second pirate") {
            panic!("{e}");
        }
        let new = UnitId(2);
        assert_eq!(s.roster().units.len(), 3);
        assert_eq!(s.roster().name(new), "Black Jackal");
        assert!(s.log_text().contains(
            "GM: Black Jackal joins the fight at (6, 0), a copy of Red Jackal, a second pirate"
        ));
        assert_ne!(band(&s, VIGILANT, new), Band::Escaped);
        assert_eq!(band(&s, JACKAL, new), Band::Escaped);
        let mut steps = 0;
        while !took_a_turn(&s, new) && s.outcome().is_none() && steps < 2000 {
            s.step();
            steps += 1;
        }
        assert!(took_a_turn(&s, new));
        assert!(s.run().is_some());
    }
}
