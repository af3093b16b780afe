//! The game master's hand edits of a SOCS craft (`battle::gm`): what the GM may change
//! ([`fields`]), how a change is applied under the rules ([`set`]), moving a craft
//! ([`place`]), taking one out ([`remove`]) and bringing a new one in ([`join`]).
//!
//! SOCS has damage states, not hit points (gurps-lite-and-socs.txt, "FIREPOWER LEVELS"):
//! a craft is intact, damaged (continuing damage) or out of the fight (disabled, destroyed,
//! vaporized; or escaped). Its other conditions are the light hit's losses (its maneuver,
//! its next fire), the automatic hit a reversal won critically gives ("REVERSAL"), and the
//! hit locations knocked out ("HIT LOCATIONS" under "PRE-COMBAT GAME MECHANICS"). There is
//! no vector: range is a band per pair of foes ("COMBAT", 3 ranges between ships), and the
//! map only pictures it, so placing a craft sets its range to each foe from the hex
//! distance ([`band_at`]).
//!
//! Decisions, each stated where it is applied:
//! - An edit is the GM's ruling: it rolls no dice (no crew survival rolls when a craft is
//!   put out; who aboard lives has no effect on the fight).
//! - A craft out of the fight stays out: every edit of one is refused.
//! - A craft the GM takes out before its phase is resolved does not carry out what it
//!   declared in that phase.

use super::dogfight::{CraftState, Crafts, Dogfight, Fate, Phase, SocsRange};
use super::sheet::{Craft, ShipClass};
use crate::battle::{Facing, GmField, GmValue, HexPos, Roster, Sheet, Standing, TurnState, UnitId};
use bevy::ecs::change_detection::Mut;
use bevy::ecs::entity::Entity;
use bevy::ecs::world::World;
use hexx::{EdgeDirection, Hex};
use std::borrow::Cow;
use std::sync::Arc;

/// The damage states as the GM panel names them: intact and damaged craft fight; the
/// others are out ("FIREPOWER LEVELS": a light hit damages, heavy disables a ship or
/// destroys a fighter, great vaporizes; escaped: out of range of every foe).
pub const STATES: [&str; 6] = [
    "intact",
    "damaged",
    "disabled",
    "destroyed",
    "vaporized",
    "escaped",
];

/// The keys of the hit-location fields, one per location of the craft in its sheet's
/// order; a craft with more locations lists the first sixteen.
pub const LOCATION_KEYS: [&str; 16] = [
    "loc1", "loc2", "loc3", "loc4", "loc5", "loc6", "loc7", "loc8", "loc9", "loc10", "loc11",
    "loc12", "loc13", "loc14", "loc15", "loc16",
];

/// The index in [`STATES`] of a craft's state.
pub fn state_index(state: &CraftState) -> usize {
    match state.out {
        None if state.damaged => 1,
        None => 0,
        Some(Fate::Disabled) => 2,
        Some(Fate::Destroyed) => 3,
        Some(Fate::Vaporized) => 4,
        Some(Fate::Escaped) => 5,
    }
}

/// The range band a hex distance on the map stands for: the band whose pictured distance
/// ([`SocsRange::hexes`]) is nearest, ties to the closer band (decision: the map draws
/// Short at 3 hexes, Long at 8 and out of range at 15, so 0 to 5 hexes is Short, 6 to 11
/// Long, 12 or more out of range).
pub fn band_at(hexes: u32) -> SocsRange {
    let (short, long, out) = (
        SocsRange::Short.hexes(),
        SocsRange::Long.hexes(),
        SocsRange::OutOfRange.hexes(),
    );
    if hexes * 2 <= short + long {
        SocsRange::Short
    } else if hexes * 2 <= long + out {
        SocsRange::Long
    } else {
        SocsRange::OutOfRange
    }
}

/// What the GM may change on the craft of `entity`: its damage state ([`STATES`]), the
/// light hit's losses (`skipman`: loses its maneuver this turn; `skipfire`: its gunners
/// may not fire next fire phase), `autohit` (its gunners hit automatically next fire
/// phase, as after a reversal won critically) and each hit location knocked out
/// ([`LOCATION_KEYS`]). Empty for an entity that is no craft.
pub fn fields(world: &World, entity: Entity) -> Vec<GmField> {
    let (Some(craft), Some(state)) = (
        world.get::<Sheet<Craft>>(entity),
        world.get::<CraftState>(entity),
    ) else {
        return Vec::new();
    };
    let mut v = vec![
        GmField {
            key: "state",
            label: Cow::Borrowed("Condition"),
            value: GmValue::Choice {
                now: state_index(state),
                options: &STATES,
            },
        },
        GmField {
            key: "skipman",
            label: Cow::Borrowed("Loses its maneuver"),
            value: GmValue::Flag(state.skip_maneuver),
        },
        GmField {
            key: "skipfire",
            label: Cow::Borrowed("Gunners may not fire"),
            value: GmValue::Flag(state.skip_fire),
        },
        GmField {
            key: "autohit",
            label: Cow::Borrowed("Hits automatically"),
            value: GmValue::Flag(state.auto_hit),
        },
    ];
    for ((key, location), out) in LOCATION_KEYS
        .iter()
        .zip(&craft.0.stats.locations)
        .zip(&state.locations_out)
    {
        v.push(GmField {
            key,
            label: Cow::Owned(format!("{location} knocked out")),
            value: GmValue::Flag(*out),
        });
    }
    v
}

/// The name of the unit of `entity`, for a refusal.
fn name_of(world: &World, entity: Entity) -> String {
    match (world.get::<UnitId>(entity), world.get_resource::<Roster>()) {
        (Some(id), Some(roster)) => roster.name(*id).to_string(),
        _ => "this unit".to_string(),
    }
}

/// The unit id and sheet of the craft of `entity`, or why there is none.
fn craft_of(world: &World, entity: Entity) -> Result<(UnitId, Arc<Craft>), String> {
    match (
        world.get::<UnitId>(entity),
        world.get::<Sheet<Craft>>(entity),
    ) {
        (Some(id), Some(sheet)) => Ok((*id, Arc::clone(&sheet.0))),
        _ => Err(format!("{} is not a SOCS craft", name_of(world, entity))),
    }
}

/// Sets field `key` (one of [`fields`]) of the craft of `entity` to `value`, with what
/// follows under the rules ("FIREPOWER LEVELS"):
/// - `state` intact: no damage, every location working again; damaged, from intact: as a
///   light hit, the craft loses its next maneuver and fire and every aiming bonus
///   ("AIMING BONUSES": its Position and Sustained Fire) and takes continuing damage;
///   disabled, destroyed, vaporized or escaped: out of the fight, its standing with it.
/// - `skipman`, `skipfire`, `autohit`: the flag.
/// - a location: knocked out or working again; knocking one out is damage (continuing
///   damage, as the light hit that does it gives), and a planet with every location out is
///   disabled, as the fire phase has it ([`Dogfight::hit`]).
///
/// A craft out of the fight refuses every edit.
pub fn set(world: &mut World, entity: Entity, key: &str, value: i32) -> Result<(), String> {
    let name = name_of(world, entity);
    let (id, craft) = craft_of(world, entity)?;
    let Some(state) = world.get::<CraftState>(entity) else {
        return Err(format!("{name} is not a SOCS craft"));
    };
    if state.out.is_some() {
        return Err(format!(
            "{name} is out of the fight ({}): the rules bring no craft back",
            STATES[state_index(state)]
        ));
    }
    let on = value != 0;
    let location = LOCATION_KEYS
        .iter()
        .position(|k| *k == key)
        .filter(|&i| i < craft.stats.locations.len());
    let Some(mut state) = world.get_mut::<CraftState>(entity) else {
        return Err(format!("{name} is not a SOCS craft"));
    };
    match (key, location) {
        ("state", _) => match value {
            0 => {
                state.damaged = false;
                state.locations_out.iter_mut().for_each(|o| *o = false);
            }
            1 => {
                if !state.damaged {
                    state.damaged = true;
                    state.skip_maneuver = true;
                    state.skip_fire = true;
                    state.sustained.iter_mut().for_each(|s| *s = None);
                    world.try_resource_scope(|world, mut d: Mut<Dogfight>| {
                        d.drop_positions(&*world, id);
                    });
                }
            }
            2 => take_out(world, entity, id, Fate::Disabled),
            3 => take_out(world, entity, id, Fate::Destroyed),
            4 => take_out(world, entity, id, Fate::Vaporized),
            5 => take_out(world, entity, id, Fate::Escaped),
            _ => return Err(format!("{value} is not a damage state (0 to 5)")),
        },
        ("skipman", _) => state.skip_maneuver = on,
        ("skipfire", _) => state.skip_fire = on,
        ("autohit", _) => state.auto_hit = on,
        (_, Some(k)) => {
            if let Some(out) = state.locations_out.get_mut(k) {
                *out = on;
            }
            if on {
                state.damaged = true;
            }
            let all_out = state.locations_out.iter().all(|o| *o);
            if craft.stats.class == ShipClass::Planet && all_out {
                take_out(world, entity, id, Fate::Disabled);
            }
        }
        _ => return Err(format!("SOCS has no field `{key}` to change")),
    }
    Ok(())
}

/// Puts the craft of `entity` (`id`) out of the fight as `fate`: its state and its
/// standing, its declarations of the phase under way dropped, and the turn awaited from
/// it given up (the next craft in the order decides instead).
fn take_out(world: &mut World, entity: Entity, id: UnitId, fate: Fate) {
    if let Some(mut state) = world.get_mut::<CraftState>(entity) {
        state.out = Some(fate);
    }
    let standing = Crafts::standing(&*world, id);
    if let Some(mut s) = world.get_mut::<Standing>(entity) {
        *s = standing;
    }
    if let Some(mut d) = world.get_resource_mut::<Dogfight>() {
        match &mut d.phase {
            Phase::Fire { declared } => declared.retain(|(u, ..)| *u != id),
            Phase::Maneuvers { declared } => declared.retain(|(u, ..)| *u != id),
            Phase::Start => {}
        }
    }
    if let Some(mut turn) = world.get_resource_mut::<TurnState>()
        && turn.awaiting == Some(id)
    {
        turn.awaiting = None;
    }
}

/// The range band ([`band_at`]) from hex `at` to each foe of `id` in the fight, by the
/// foe's place on the map.
fn bands_from(world: &World, id: UnitId, at: Hex) -> Vec<(UnitId, SocsRange)> {
    Crafts::foes(world, id)
        .into_iter()
        .filter_map(|f| {
            let e = world.get_resource::<Roster>()?.entity(f)?;
            let pos = world.get::<HexPos>(e)?.0;
            Some((f, band_at(at.unsigned_distance_to(pos))))
        })
        .collect()
}

/// Sets the range between `id` and each foe of `bands`.
fn set_ranges(world: &mut World, id: UnitId, bands: &[(UnitId, SocsRange)]) {
    world.try_resource_scope(|world, mut d: Mut<Dogfight>| {
        for &(f, r) in bands {
            d.set_range(&*world, id, f, r);
        }
    });
}

/// The refusal when every foe would be out of range (gurps-lite-and-socs.txt, "COMBAT":
/// out of range, no combat), `what` naming the change.
fn out_of_every_range(name: &str, what: &str) -> String {
    let most = (SocsRange::Long.hexes() + SocsRange::OutOfRange.hexes()) / 2;
    format!(
        "{what} would leave {name} out of range of every foe, where no combat is allowed: \
         put it within {most} hexes of a foe (Remove takes a craft out of the fight)"
    )
}

/// Puts the craft of `entity` on hex `at`, facing `facing`. The map pictures range bands,
/// so the craft's range to each foe in the fight becomes the band of its new hex distance
/// ([`band_at`]); refused when that would leave it out of range of every foe (a fight
/// cannot go on there; Remove is the way out). The systems settle the picture again from
/// the ranges and turn each craft to its nearest foe after every step.
pub fn place(
    world: &mut World,
    entity: Entity,
    at: Hex,
    facing: EdgeDirection,
) -> Result<(), String> {
    let (id, _) = craft_of(world, entity)?;
    if Crafts::in_fight(&*world, id) {
        let bands = bands_from(world, id, at);
        if !bands.is_empty() && bands.iter().all(|(_, r)| *r == SocsRange::OutOfRange) {
            return Err(out_of_every_range(&name_of(world, entity), "that hex"));
        }
        set_ranges(world, id, &bands);
    }
    let mut unit = world.entity_mut(entity);
    if let Some(mut pos) = unit.get_mut::<HexPos>() {
        pos.0 = at;
    }
    if let Some(mut f) = unit.get_mut::<Facing>() {
        f.0 = facing;
    }
    Ok(())
}

/// Takes the craft of `entity` out of the fight: it has escaped (out of range, "COMBAT"),
/// its standing with it; it no longer decides or can be fired at.
pub fn remove(world: &mut World, entity: Entity) -> Result<(), String> {
    let (id, _) = craft_of(world, entity)?;
    take_out(world, entity, id, Fate::Escaped);
    Ok(())
}

/// A craft the GM brought in (`unit`, on `entity`, fresh with no aiming bonuses) gets its
/// range to each foe from the hex it was put on ([`band_at`]); refused when that leaves it
/// out of range of every foe (a fight cannot start out of range). It decides from the next
/// phase: each phase takes its order from the craft in the fight
/// ([`Dogfight::begin_turn`], the maneuver phase's order by Piloting + MR).
pub fn join(world: &mut World, entity: Entity, unit: UnitId) -> Result<(), String> {
    craft_of(world, entity)?;
    let Some(at) = world.get::<HexPos>(entity).map(|p| p.0) else {
        return Err(format!(
            "{} has no place on the map",
            name_of(world, entity)
        ));
    };
    let bands = bands_from(world, unit, at);
    if !bands.is_empty() && bands.iter().all(|(_, r)| *r == SocsRange::OutOfRange) {
        return Err(out_of_every_range(&name_of(world, entity), "joining there"));
    }
    set_ranges(world, unit, &bands);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::{BattleEvent, GmChange, OutcomeKind};
    use crate::session::Session;

    const RED_LEADER: UnitId = UnitId(0);
    const RED_TWO: UnitId = UnitId(1);
    const CORSAIR_ONE: UnitId = UnitId(2);

    /// A new battle of a shipped SOCS scenario.
    fn battle(file: &str, seed: u64) -> Session {
        crate::rules::testing::shipped(file, seed)
    }

    fn entity(s: &Session, id: UnitId) -> Entity {
        crate::rules::testing::entity(s, id)
    }

    fn state(s: &Session, id: UnitId) -> &CraftState {
        s.world.get::<CraftState>(entity(s, id)).expect("a craft")
    }

    fn standing(s: &Session, id: UnitId) -> Standing {
        crate::rules::testing::standing(s, id)
    }

    fn range(s: &Session, a: UnitId, b: UnitId) -> SocsRange {
        s.world.resource::<Dogfight>().range(&s.world, a, b)
    }

    fn set(key: &str, value: i32) -> GmChange {
        GmChange::Set {
            key: key.to_string(),
            value,
            force: false,
        }
    }

    /// The bands of the map's picture: 0 to 5 hexes Short, 6 to 11 Long, farther out of
    /// range ("COMBAT": three ranges between ships).
    #[test]
    fn hex_distances_map_to_bands() {
        assert_eq!(band_at(0), SocsRange::Short);
        assert_eq!(band_at(5), SocsRange::Short);
        assert_eq!(band_at(6), SocsRange::Long);
        assert_eq!(band_at(11), SocsRange::Long);
        assert_eq!(band_at(12), SocsRange::OutOfRange);
    }

    /// A fighter lists its state and the three conditions (no hit locations); a ship lists
    /// one field per location ("HIT LOCATIONS": fighters have none).
    #[test]
    fn fields_of_a_fighter_and_a_ship() {
        let s = battle("socs-dogfight.ron", 1);
        let keys: Vec<&str> = fields(&s.world, entity(&s, RED_LEADER))
            .iter()
            .map(|f| f.key)
            .collect();
        assert_eq!(keys, ["state", "skipman", "skipfire", "autohit"]);
        let s = battle("socs-regina-siege.ron", 1);
        let f = fields(&s.world, entity(&s, UnitId(0)));
        let keys: Vec<&str> = f.iter().map(|f| f.key).collect();
        assert_eq!(
            keys,
            [
                "state", "skipman", "skipfire", "autohit", "loc1", "loc2", "loc3", "loc4"
            ]
        );
        assert_eq!(f[5].label, "Lance housing knocked out");
    }

    /// "FIREPOWER LEVELS", 2-LIGHT: setting a craft damaged costs it its next maneuver and
    /// fire and its aiming bonuses; an unknown state is refused; intact again clears it.
    #[test]
    fn damaged_is_a_light_hit() {
        let mut s = battle("socs-dogfight.ron", 1);
        s.world.resource_scope(|world, mut d: Mut<Dogfight>| {
            d.set_position(&*world, CORSAIR_ONE, RED_LEADER, 2);
        });
        let ab = |s: &Session| {
            s.world
                .resource::<Dogfight>()
                .position_ab(&s.world, CORSAIR_ONE, RED_LEADER)
        };
        assert_eq!(ab(&s), 2);
        let words = s
            .gm_edit(CORSAIR_ONE, &set("state", 1), "engine trouble")
            .expect("a state");
        assert_eq!(words, "Condition intact -> damaged");
        assert!(
            s.log_text()
                .contains("GM: Corsair One Condition intact -> damaged, engine trouble"),
            "{}",
            s.log_text()
        );
        let st = state(&s, CORSAIR_ONE);
        assert!(st.damaged && st.skip_maneuver && st.skip_fire && st.out.is_none());
        assert_eq!(ab(&s), 0);
        assert_eq!(standing(&s, CORSAIR_ONE), Standing::Fighting);
        assert!(s.gm_edit(CORSAIR_ONE, &set("state", 6), "x").is_err());
        s.gm_edit(CORSAIR_ONE, &set("state", 0), "repairs")
            .expect("intact");
        assert!(!state(&s, CORSAIR_ONE).damaged);
        assert!(s.run().is_some());
    }

    /// The conditions are flags: set and cleared, anything but 0 or 1 refused.
    #[test]
    fn condition_flags() {
        let mut s = battle("socs-dogfight.ron", 2);
        s.gm_edit(RED_TWO, &set("autohit", 1), "lucky break")
            .expect("ok");
        assert!(state(&s, RED_TWO).auto_hit);
        assert!(
            s.log_text()
                .contains("GM: Red Two Hits automatically off -> on, lucky break")
        );
        s.gm_edit(RED_TWO, &set("skipman", 1), "x").expect("ok");
        s.gm_edit(RED_TWO, &set("skipfire", 1), "x").expect("ok");
        let st = state(&s, RED_TWO);
        assert!(st.skip_maneuver && st.skip_fire && !st.damaged);
        s.gm_edit(RED_TWO, &set("skipfire", 0), "x").expect("ok");
        assert!(!state(&s, RED_TWO).skip_fire);
        assert!(s.gm_edit(RED_TWO, &set("autohit", 2), "x").is_err());
        assert!(s.gm_edit(RED_TWO, &set("loc1", 1), "x").is_err());
    }

    /// "FIREPOWER LEVELS", 3-HEAVY: a destroyed craft is out (its standing too), takes no
    /// more edits, and with both Federation fighters out the corsairs win.
    #[test]
    fn destroyed_craft_are_out_and_the_battle_ends() {
        let mut s = battle("socs-dogfight.ron", 3);
        s.step();
        s.gm_edit(RED_LEADER, &set("state", 3), "reactor breach")
            .expect("ok");
        assert_eq!(state(&s, RED_LEADER).out, Some(Fate::Destroyed));
        assert_eq!(standing(&s, RED_LEADER), Standing::Destroyed);
        let refused = s.gm_edit(RED_LEADER, &set("state", 0), "x").unwrap_err();
        assert!(refused.contains("out of the fight"), "{refused}");
        s.gm_edit(RED_TWO, &set("state", 2), "x").expect("ok");
        assert_eq!(standing(&s, RED_TWO), Standing::Disabled);
        assert_eq!(s.run(), Some(OutcomeKind::Victory { side: 1 }));
    }

    /// Remove: the craft has escaped, declares nothing more, and the battle still ends.
    #[test]
    fn removed_craft_takes_no_more_turns() {
        let mut s = battle("socs-dogfight.ron", 4);
        s.step();
        s.gm_edit(CORSAIR_ONE, &GmChange::Remove, "jumped away")
            .expect("ok");
        assert_eq!(state(&s, CORSAIR_ONE).out, Some(Fate::Escaped));
        assert_eq!(standing(&s, CORSAIR_ONE), Standing::Escaped);
        let before = s.log().entries.len();
        assert!(s.run().is_some());
        let turns = s.log().entries[before..]
            .iter()
            .filter(|e| matches!(e.event, BattleEvent::TurnStarted { unit } if unit == CORSAIR_ONE))
            .count();
        assert_eq!(turns, 0);
    }

    /// A craft removed in the fire phase after declaring its shots fires none of them.
    #[test]
    fn removed_craft_loses_its_declarations() {
        let mut s = battle("socs-dogfight.ron", 5);
        let declared = |s: &Session| match &s.world.resource::<Dogfight>().phase {
            Phase::Fire { declared } => declared.iter().map(|d| d.0).collect(),
            _ => Vec::new(),
        };
        for _ in 0..20 {
            if declared(&s).contains(&RED_LEADER) {
                break;
            }
            s.step();
        }
        assert!(declared(&s).contains(&RED_LEADER));
        s.gm_edit(RED_LEADER, &GmChange::Remove, "x").expect("ok");
        assert!(!declared(&s).contains(&RED_LEADER));
    }

    /// Place: the craft moves on the map and its range to a foe follows the hex distance
    /// (next to Corsair One: Short); a hex out of range of every foe is refused; the
    /// battle still runs to its end.
    #[test]
    fn place_sets_the_ranges_from_the_map() {
        let mut s = battle("socs-dogfight.ron", 6);
        let refused = s
            .gm_edit(
                RED_LEADER,
                &GmChange::Place {
                    at: (-10, 0),
                    facing: 0,
                },
                "x",
            )
            .unwrap_err();
        assert!(refused.contains("out of range of every foe"), "{refused}");
        assert_eq!(range(&s, RED_LEADER, CORSAIR_ONE), SocsRange::Long);
        s.step();
        let foe = s
            .world
            .get::<HexPos>(entity(&s, CORSAIR_ONE))
            .map(|p| p.0)
            .expect("a place");
        let taken: Vec<Hex> = (0..5)
            .filter_map(|i| s.world.get::<HexPos>(entity(&s, UnitId(i))).map(|p| p.0))
            .collect();
        let to = foe
            .all_neighbors()
            .into_iter()
            .find(|h| h.length() <= 10 && !taken.contains(h))
            .expect("a free hex next to the foe");
        s.gm_edit(
            RED_LEADER,
            &GmChange::Place {
                at: (to.x, to.y),
                facing: 1,
            },
            "hyperspace jump",
        )
        .expect("free hex");
        assert_eq!(
            s.world.get::<HexPos>(entity(&s, RED_LEADER)).map(|p| p.0),
            Some(to)
        );
        assert_eq!(range(&s, RED_LEADER, CORSAIR_ONE), SocsRange::Short);
        assert!(s.log_text().contains("GM: Red Leader moved from"));
        assert!(s.run().is_some());
    }

    /// Add: a copy of Corsair One joins with ranges from its hex and decides in the next
    /// phases; joining out of range of every foe is refused and leaves the roster as it
    /// was.
    #[test]
    fn an_added_craft_takes_turns() {
        let mut s = battle("socs-dogfight.ron", 7);
        // Before the first step the Federation fighters are at (-4, 0) and (-4, 2), 14
        // hexes from (10, 0).
        let far = s.gm_edit(
            CORSAIR_ONE,
            &GmChange::Add {
                name: "Corsair Four".into(),
                at: (10, 0),
                facing: 3,
            },
            "x",
        );
        assert!(far.unwrap_err().contains("out of range of every foe"));
        assert_eq!(s.roster().units.len(), 5);
        s.step();
        let placed = s
            .world
            .get::<HexPos>(entity(&s, RED_LEADER))
            .map(|p| p.0)
            .expect("a place");
        let taken: Vec<Hex> = (0..s.roster().units.len() as u32)
            .filter_map(|i| s.world.get::<HexPos>(entity(&s, UnitId(i))).map(|p| p.0))
            .collect();
        let at = placed
            .all_neighbors()
            .into_iter()
            .find(|h| h.length() <= 10 && !taken.contains(h))
            .expect("a free hex");
        let new = UnitId(s.roster().units.len() as u32);
        s.gm_edit(
            CORSAIR_ONE,
            &GmChange::Add {
                name: "Corsair Five".into(),
                at: (at.x, at.y),
                facing: 3,
            },
            "reinforcements",
        )
        .expect("added");
        assert_eq!(s.roster().name(new), "Corsair Five");
        assert_eq!(range(&s, new, RED_LEADER), SocsRange::Short);
        assert_eq!(state(&s, new).out, None);
        let mut acted = false;
        for _ in 0..200 {
            if s.outcome().is_some() {
                break;
            }
            s.step();
            acted = s.log().entries.iter().any(
                |e| matches!(&e.event, BattleEvent::ActionChosen { unit, .. } if *unit == new),
            );
            if acted {
                break;
            }
        }
        assert!(acted, "{}", s.log_text());
        assert!(s.run().is_some());
    }

    /// "HIT LOCATIONS": a location knocked out silences the guns mounted there and is
    /// damage; a planet with every location out is disabled ("PLANETS").
    #[test]
    fn locations_knocked_out() {
        let mut s = battle("socs-regina-siege.ron", 8);
        let resolute = UnitId(0);
        s.gm_edit(resolute, &set("loc2", 1), "sabotage")
            .expect("ok");
        assert!(
            s.log_text()
                .contains("GM: FNS Resolute Lance housing knocked out off -> on, sabotage"),
            "{}",
            s.log_text()
        );
        let st = state(&s, resolute);
        assert!(st.locations_out[1] && st.damaged);
        let craft = Arc::clone(
            &s.world
                .get::<Sheet<Craft>>(entity(&s, resolute))
                .expect("a craft")
                .0,
        );
        assert!(!state(&s, resolute).gun_works(&craft, 0));
        assert!(state(&s, resolute).gun_works(&craft, 1));
        assert!(s.gm_edit(resolute, &set("loc5", 1), "x").is_err());
        let regina = UnitId(3);
        assert_eq!(s.roster().name(regina), "Regina");
        s.gm_edit(regina, &set("loc1", 1), "x").expect("ok");
        s.gm_edit(regina, &set("loc2", 1), "x").expect("ok");
        assert_eq!(standing(&s, regina), Standing::Fighting);
        s.gm_edit(regina, &set("loc3", 1), "x").expect("ok");
        assert_eq!(state(&s, regina).out, Some(Fate::Disabled));
        assert_eq!(standing(&s, regina), Standing::Disabled);
        assert!(s.run().is_some());
    }
}
