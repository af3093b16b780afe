//! The game master's hand edits of a Vergeworlds character ([`crate::battle::gm`]): what
//! the GM may change on a character ([`fields`]), and the change applied as the rules of
//! vergeworlds-rough-methods.txt would leave it ([`set`]); moving a character
//! ([`place`]), taking it out of the battle ([`remove`]) and bringing in a new one
//! ([`join`]).
//!
//! A character keeps its own state in its [`UnitState`] (where it stands, its injuries and
//! what they leave it, Breath, Mana, Action Points, vector); the systems copy its standing
//! and position onto the entity every step, so every edit here changes the state first and
//! the entity's `Standing` with it.
//!
//! - The ruleset has no hit points: injuries leave a character fighting, down or dead
//!   ("NPC Categories": mooks drop at their thresholds, major characters by the injury
//!   decisions of [`super::injury`]), so the GM sets that state as a choice. Setting a
//!   worse state puts the character out as an injury would (its vector, holds and wait
//!   end, and its turn); setting a better one heals the injuries that alone would leave it
//!   worse than that, so that the next hit judges it from what is left.
//! - Breath runs from 0 to the Stamina ("Exertion"); Mana from 0 to the stat block's, or
//!   past it when forced, as the referee may award more ("Mana"; mooks have none, "NPC
//!   Categories"); Action Points from 0 to the most a character holds at a round's start,
//!   its round's points and 5 carried over ("Combat Time and Pacing"). Prone is the
//!   position of "Combat Actions" (cover, Get Up).
//! - The vector of a character on the ground ("High Speed Movement") is its speed, 0 to
//!   its Top Speed (0 drops the vector; a new one heads the way the character faces), and
//!   its heading, a hex side 0 to 5 (a new heading drops the drifts). A flier's vector
//!   follows its airspeed and glide ("Movement Modes"), which the GM does not edit here.
//! - While an attack by or on a character is being resolved (a defense or Mana question
//!   pending), the GM may not put it out of the fight, remove or move it: the attack ends
//!   first.
//! - A character brought in starts as a character of the scenario does (Breath and Mana in
//!   full, weapons loaded) with no Action Points: it takes its turns from the next round,
//!   when every character gets its round's points.

use super::combat::CARRY_AP;
use super::fight::{Board, Fight, UnitState};
use super::injury::{self, Hurt, Injury};
use super::sheet::VwStats;
use super::vector::Vector;
use crate::battle::{Facing, GmField, GmValue, HexPos, Sheet, Standing, TurnState, UnitId};
use bevy::ecs::entity::Entity;
use bevy::ecs::world::World;
use hexx::{EdgeDirection, Hex};
use std::borrow::Cow;
use std::sync::Arc;

/// The states injuries leave a character in, by index (the `state` field's options).
pub const STATES: &[&str] = &["fighting", "down", "dead"];

/// The most Mana a forced change may give (the most a stat block may have).
pub const MOST_MANA: i32 = 100;

/// The index of `h` in [`STATES`], its severity.
fn severity(h: Hurt) -> usize {
    match h {
        Hurt::Fighting => 0,
        Hurt::Down => 1,
        Hurt::Dead => 2,
    }
}

/// The state of index `i` in [`STATES`].
fn hurt_of(i: i32) -> Hurt {
    match i {
        2 => Hurt::Dead,
        1 => Hurt::Down,
        _ => Hurt::Fighting,
    }
}

/// The state one injury alone leaves a character of `sheet` in ("NPC Categories": the
/// mook thresholds, or the major character's).
fn injury_state(sheet: &VwStats, i: &Injury) -> Hurt {
    if sheet.mook {
        if injury::mook_down(i, sheet.mook_kind()) {
            Hurt::Down
        } else {
            Hurt::Fighting
        }
    } else {
        injury::major_state(std::slice::from_ref(i))
    }
}

/// The character's state and stat block on `entity`, or why there is none.
fn character(world: &World, entity: Entity) -> Result<(&UnitState, &Arc<VwStats>), String> {
    match (
        world.get::<UnitState>(entity),
        world.get::<Sheet<VwStats>>(entity),
    ) {
        (Some(st), Some(sheet)) => Ok((st, &sheet.0)),
        _ => Err("this unit is not a Vergeworlds character".to_string()),
    }
}

/// A number field.
fn number(
    key: &'static str,
    label: &'static str,
    now: i32,
    (min, max): (i32, i32),
    forced_max: Option<i32>,
) -> GmField {
    GmField {
        key,
        label: Cow::Borrowed(label),
        value: GmValue::Number {
            now,
            min,
            max,
            forced_max,
        },
    }
}

/// Whether the character is in the air (a flier above the ground).
fn flying(st: &UnitState) -> bool {
    st.air.is_some() && st.alt > 0.0
}

/// A count as the GM panel shows it (saturating at `i32::MAX`).
fn count(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// What the GM may change on the character of `entity`: its state (`state`: fighting, down
/// or dead), Breath (`breath`), Mana (`mana`, not for mooks), Action Points (`ap`), prone
/// (`prone`) and, on the ground, its vector's speed (`speed`) and, while it has one, its
/// heading (`heading`). Empty for an entity that is not a character.
pub fn fields(world: &World, entity: Entity) -> Vec<GmField> {
    let Ok((st, sheet)) = character(world, entity) else {
        return Vec::new();
    };
    let mut out = vec![
        GmField {
            key: "state",
            label: Cow::Borrowed("State"),
            value: GmValue::Choice {
                now: severity(st.hurt),
                options: STATES,
            },
        },
        number("breath", "Breath", st.breath, (0, sheet.stamina), None),
    ];
    if !sheet.mook {
        out.push(number(
            "mana",
            "Mana",
            count(st.mana),
            (0, count(sheet.mana)),
            Some(MOST_MANA),
        ));
    }
    out.push(number(
        "ap",
        "Action Points",
        st.ap,
        (0, sheet.ap_per_round().saturating_add(CARRY_AP)),
        None,
    ));
    out.push(GmField {
        key: "prone",
        label: Cow::Borrowed("Prone"),
        value: GmValue::Flag(st.prone),
    });
    if !flying(st) {
        out.push(number(
            "speed",
            "Speed",
            count(st.vector.map_or(0, |v| v.speed)),
            (0, count(sheet.top_speed)),
            None,
        ));
        if let Some(v) = st.vector {
            out.push(number(
                "heading",
                "Heading",
                i32::from(v.heading),
                (0, 5),
                None,
            ));
        }
    }
    out
}

/// Whether an attack by or on `unit` is being resolved (a defense or Mana question
/// pending, or the attack's damage still to come).
fn in_attack(fight: &Fight, unit: UnitId) -> bool {
    fight.prompt.is_some_and(|p| p.unit() == unit)
        || fight
            .pending
            .as_ref()
            .is_some_and(|p| p.attacker == unit || p.attack.target == unit)
}

/// The unit of `entity` and a refusal when an attack by or on it is being resolved.
fn unit_free_of_attacks(world: &World, entity: Entity, what: &str) -> Result<UnitId, String> {
    let Some(unit) = world.get::<UnitId>(entity).copied() else {
        return Err("this unit is not a Vergeworlds character".to_string());
    };
    let Some(fight) = world.get_resource::<Fight>() else {
        return Err("no Vergeworlds fight is under way".to_string());
    };
    if in_attack(fight, unit) {
        return Err(format!(
            "an attack by or on this character is being resolved: {what} once it is over"
        ));
    }
    Ok(unit)
}

/// Gives the entity the `Standing` its state shows and, once the character is out of the
/// fight, no longer awaits its decision (the next step goes on to the next turn).
fn settle(world: &mut World, entity: Entity, unit: UnitId) {
    let Some(st) = world.get::<UnitState>(entity) else {
        return;
    };
    let (now, out) = (st.standing(), !st.in_fight());
    if let Some(mut standing) = world.get_mut::<Standing>(entity) {
        *standing = now;
    }
    if out {
        if let Some(mut fight) = world.get_resource_mut::<Fight>()
            && fight.active == Some(unit)
        {
            fight.active = None;
        }
        if let Some(mut turn) = world.get_resource_mut::<TurnState>()
            && turn.awaiting == Some(unit)
        {
            turn.awaiting = None;
        }
    }
}

/// Sets the state of `unit` to `now`: worse puts it out as an injury would
/// ([`Board::take_out`]), better heals the injuries that alone would leave it worse (and a
/// choke's Fatigue, when it fights again).
fn set_state(world: &mut World, entity: Entity, unit: UnitId, now: Hurt) -> Result<(), String> {
    let was = character(world, entity)?.0.hurt;
    if now == was {
        return Ok(());
    }
    if severity(now) > severity(was) {
        unit_free_of_attacks(world, entity, "put it out of the fight")?;
        world.resource_scope(
            |world, mut fight: bevy::ecs::change_detection::Mut<Fight>| {
                let mut board = Board {
                    fight: &mut *fight,
                    units: world,
                };
                // The log has the GM's own line for it.
                let mut events = Vec::new();
                board.take_out(unit, now, &mut events);
            },
        );
    } else {
        let sheet = Arc::clone(character(world, entity)?.1);
        let Some(mut st) = world.get_mut::<UnitState>(entity) else {
            return Err("this unit is not a Vergeworlds character".to_string());
        };
        st.injuries
            .retain(|i| severity(injury_state(&sheet, i)) <= severity(now));
        st.hurt = now;
        if now == Hurt::Fighting {
            st.choke = 0.0;
        }
    }
    Ok(())
}

/// The heading (hex side index) of a facing.
fn heading_of_facing(facing: EdgeDirection) -> u8 {
    EdgeDirection::ALL_DIRECTIONS
        .iter()
        .position(|&d| d == facing)
        .and_then(|i| u8::try_from(i).ok())
        .unwrap_or(0)
}

/// Sets field `key` of the character of `entity` to `value` (within the bounds of
/// [`fields`]), with what follows under the rules (a state that puts it out of the fight
/// ends its turn and shows in its `Standing`).
pub fn set(world: &mut World, entity: Entity, key: &str, value: i32) -> Result<(), String> {
    let Some(unit) = world.get::<UnitId>(entity).copied() else {
        return Err("this unit is not a Vergeworlds character".to_string());
    };
    if world.get_resource::<Fight>().is_none() {
        return Err("no Vergeworlds fight is under way".to_string());
    }
    if world
        .get::<UnitState>(entity)
        .is_some_and(|st| st.hurt == Hurt::Dead)
    {
        // Death is final in the rules; the GM brings in a copy instead.
        return Err("the character is dead: the rules bring no one back".to_string());
    }
    let facing = world
        .get::<Facing>(entity)
        .map_or(0, |f| heading_of_facing(f.0));
    if key == "state" {
        set_state(world, entity, unit, hurt_of(value))?;
    } else {
        let Some(mut st) = world.get_mut::<UnitState>(entity) else {
            return Err("this unit is not a Vergeworlds character".to_string());
        };
        let count = u32::try_from(value).unwrap_or(0);
        match key {
            "breath" => st.breath = value,
            "mana" => st.mana = count,
            "ap" => st.ap = value,
            "prone" => st.prone = value != 0,
            "speed" if flying(&st) => {
                return Err("a flier's speed follows its flight, not a vector".to_string());
            }
            "speed" => {
                let old = st.vector.unwrap_or(Vector {
                    heading: facing,
                    speed: 0,
                    drift: 0,
                });
                st.vector = (count > 0).then_some(Vector {
                    speed: count,
                    ..old
                });
            }
            "heading" => {
                let heading = u8::try_from(value).unwrap_or(0) % 6;
                let Some(v) = st.vector.as_mut() else {
                    return Err("no movement vector to turn: give it a speed first".to_string());
                };
                v.heading = heading;
                v.drift = 0;
            }
            _ => return Err(format!("a Vergeworlds character has no field `{key}`")),
        }
    }
    settle(world, entity, unit);
    Ok(())
}

/// Puts the character of `entity` on hex `at` facing `facing`: its own position and the
/// map's. Moved to another hex, it is out of reach of every hold: the holds it has and
/// those on it end (Control keeps the foes together: "Melee Attacks (Advanced)",
/// grappling). Its altitude and vector are kept; the map turns it towards the nearest
/// foe, or along its vector, at the next step.
pub fn place(
    world: &mut World,
    entity: Entity,
    at: Hex,
    facing: EdgeDirection,
) -> Result<(), String> {
    unit_free_of_attacks(world, entity, "move it")?;
    let Some(mut st) = world.get_mut::<UnitState>(entity) else {
        return Err("this unit is not a Vergeworlds character".to_string());
    };
    let moved = st.pos != at;
    st.pos = at;
    if moved {
        st.control.clear();
        st.lifted_by = None;
        st.choked_by = None;
        st.strangled_by = None;
        let mut q = world.query::<&mut UnitState>();
        for mut other in q.iter_mut(world) {
            if other.control.iter().any(|(e, _)| *e == entity) {
                other.control.retain(|(e, _)| *e != entity);
            }
        }
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

/// Takes the character of `entity` out of the battle: it has left ([`UnitState::left`]),
/// whatever its injuries, and shows as escaped; its vector, holds and wait end, and so
/// does its turn. It no longer takes turns, gets Action Points or is a target.
pub fn remove(world: &mut World, entity: Entity) -> Result<(), String> {
    let unit = unit_free_of_attacks(world, entity, "remove it")?;
    let Some(mut st) = world.get_mut::<UnitState>(entity) else {
        return Err("this unit is not a Vergeworlds character".to_string());
    };
    st.left = true;
    st.vector = None;
    st.control.clear();
    st.waiting = false;
    settle(world, entity, unit);
    Ok(())
}

/// A character brought into the battle (a copy of another's stat block, spawned where the
/// GM put it) starts as one of the scenario does ([`super::starting_state`]; a flier heads
/// towards the first character of another side), with no Action Points: it takes its
/// turns from the next round, when every character still fighting gets its round's
/// points ("Combat Time and Pacing").
pub fn join(world: &mut World, entity: Entity, unit: UnitId) -> Result<(), String> {
    if world.get_resource::<Fight>().is_none() {
        return Err("no Vergeworlds fight is under way".to_string());
    }
    let (_, sheet) = character(world, entity)?;
    let sheet = Arc::clone(sheet);
    let at = world.get::<HexPos>(entity).map_or(Hex::ZERO, |p| p.0);
    let roster = world.resource::<crate::battle::Roster>();
    let side = roster.units.get(unit.0 as usize).map(|u| u.side);
    let foe = roster
        .units
        .iter()
        .filter(|u| Some(u.side) != side && u.entity != entity)
        .find_map(|u| world.get::<UnitState>(u.entity).map(|s| s.pos));
    let toward = foe.map_or(Hex::new(1, 0), |f| f - at);
    let mut state = super::starting_state(&sheet, at, toward, None);
    state.ap = 0;
    world.entity_mut(entity).insert(state);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::{BattleEvent, GmChange, OutcomeKind};
    use crate::rules::vergeworlds::combat::Location;
    use crate::session::Session;

    /// "The Sheriff's Men": Helen Highwater (0) and Tobias (1) against Sheriff Crane (2)
    /// and four mook deputies (3 to 6), autopilot on.
    fn sheriffs() -> Session {
        crate::rules::testing::shipped("vw-sheriffs-men.ron", 3)
    }

    fn entity(s: &Session, u: u32) -> Entity {
        crate::rules::testing::entity(s, UnitId(u))
    }

    fn state(s: &Session, u: u32) -> &UnitState {
        match s.world.get::<UnitState>(entity(s, u)) {
            Some(st) => st,
            None => panic!("no character {u}"),
        }
    }

    fn state_mut(s: &mut Session, u: u32) -> bevy::ecs::change_detection::Mut<'_, UnitState> {
        let e = entity(s, u);
        match s.world.get_mut::<UnitState>(e) {
            Some(st) => st,
            None => panic!("no character {u}"),
        }
    }

    fn standing(s: &Session, u: u32) -> Standing {
        crate::rules::testing::standing(s, UnitId(u))
    }

    fn set(s: &mut Session, u: u32, key: &str, value: i32, force: bool) -> Result<String, String> {
        let change = GmChange::Set {
            key: key.to_string(),
            value,
            force,
        };
        s.gm_edit(UnitId(u), &change, "test")
    }

    /// Whether `unit` started a turn after log entry `from`.
    fn took_a_turn(s: &Session, unit: u32, from: usize) -> bool {
        s.log().entries[from..]
            .iter()
            .any(|e| matches!(e.event, BattleEvent::TurnStarted { unit: u } if u == UnitId(unit)))
    }

    /// The state is a choice of fighting, down and dead ("NPC Categories"): down shows as
    /// unconscious, dead as dead, in the `Standing` too; back to fighting heals the injuries
    /// that alone put the character down (a +9 to the chest) and keeps the others; with
    /// the sheriff's whole side out, Helen's side wins.
    #[test]
    fn the_state_is_a_choice_and_out_means_out() {
        let mut s = sheriffs();
        let words = s.gm_edit(
            UnitId(2),
            &GmChange::Set {
                key: "state".into(),
                value: 1,
                force: false,
            },
            "slips in the mud",
        );
        assert_eq!(words.as_deref(), Ok("State fighting -> down"));
        assert_eq!(state(&s, 2).hurt, Hurt::Down);
        assert_eq!(standing(&s, 2), Standing::Unconscious);
        assert!(
            s.log_text()
                .contains("GM: Sheriff Crane State fighting -> down, slips in the mud")
        );
        assert!(set(&mut s, 2, "state", 3, false).is_err());

        {
            let mut st = state_mut(&mut s, 2);
            st.injuries.push(Injury {
                score: 9,
                location: Location::Chest,
                penetrating: true,
            });
            st.injuries.push(Injury {
                score: 2,
                location: Location::LeftArm,
                penetrating: false,
            });
        }
        set(&mut s, 2, "state", 0, false).expect("the GM may bring him back");
        assert_eq!(state(&s, 2).hurt, Hurt::Fighting);
        assert_eq!(standing(&s, 2), Standing::Fighting);
        let left: Vec<i32> = state(&s, 2).injuries.iter().map(|i| i.score).collect();
        assert_eq!(left, vec![2], "the +9 that put him down is healed");

        s.step();
        for u in 2..7 {
            set(&mut s, u, "state", 2, false).expect("dead is one of the states");
            assert_eq!(state(&s, u).hurt, Hurt::Dead);
            assert_eq!(standing(&s, u), Standing::Dead);
        }
        let err = set(&mut s, 2, "state", 0, false).expect_err("the dead stay dead");
        assert!(err.contains("dead"), "{err}");
        assert_eq!(s.run(), Some(OutcomeKind::Victory { side: 0 }));
    }

    /// Breath from 0 to the Stamina ("Exertion"); Mana to the stat block's, past it only
    /// when forced ("Mana"), none for a mook ("NPC Categories"); Action Points to the
    /// round's and 5 carried ("Combat Time and Pacing"); prone ("Combat Actions"); the
    /// battle still ends.
    #[test]
    fn pools_and_prone_are_bounded_by_the_rules() {
        let mut s = sheriffs();
        s.step();
        set(&mut s, 0, "breath", 4, false).expect("within the Stamina");
        assert_eq!(state(&s, 0).breath, 4);
        assert!(
            s.log_text()
                .contains("GM: Helen Highwater Breath 12 -> 4, test")
        );
        assert!(set(&mut s, 0, "breath", 13, false).is_err());
        assert!(set(&mut s, 0, "breath", -1, false).is_err());

        let unforced = set(&mut s, 0, "mana", 5, false);
        assert!(unforced.is_err_and(|e| e.contains("force")));
        set(&mut s, 0, "mana", 5, true).expect("the referee awards Mana");
        assert_eq!(state(&s, 0).mana, 5);
        assert!(
            s.log_text()
                .contains("GM: Helen Highwater Mana 3 -> 5 (forced), test")
        );
        assert!(set(&mut s, 0, "mana", MOST_MANA + 1, true).is_err());
        assert!(
            set(&mut s, 3, "mana", 1, true).is_err(),
            "mooks have no Mana"
        );

        // Action Score 2: 11 a round, and 5 carried.
        set(&mut s, 0, "ap", 16, false).expect("the most held at a round's start");
        assert_eq!(state(&s, 0).ap, 16);
        assert!(set(&mut s, 0, "ap", 17, false).is_err());

        set(&mut s, 1, "prone", 1, false).expect("a condition");
        assert!(state(&s, 1).prone);
        assert!(s.log_text().contains("GM: Tobias Prone off -> on, test"));
        assert!(set(&mut s, 1, "prone", 2, false).is_err());
        assert!(s.run().is_some());
    }

    /// "High Speed Movement": a speed gives a character on foot a vector heading the way
    /// it faces, up to its Top Speed; its heading turns it (drifts dropped); a speed of 0
    /// drops it, and a heading without a vector is refused.
    #[test]
    fn the_vector_is_speed_and_heading() {
        let mut s = sheriffs();
        s.step();
        assert!(
            set(&mut s, 1, "heading", 2, false).is_err(),
            "no vector yet"
        );
        set(&mut s, 1, "speed", 6, false).expect("up to the Top Speed");
        let v = state(&s, 1).vector.expect("a vector");
        assert_eq!(v.speed, 6);
        let facing = s.world.get::<Facing>(entity(&s, 1)).map(|f| f.0);
        assert_eq!(
            facing.map(heading_of_facing),
            Some(v.heading),
            "it heads the way it faced"
        );
        assert!(set(&mut s, 1, "speed", 11, false).is_err(), "Top Speed 10");
        if let Some(v) = state_mut(&mut s, 1).vector.as_mut() {
            v.drift = 2;
        }
        set(&mut s, 1, "heading", (i32::from(v.heading) + 3) % 6, false).expect("a hex side");
        let turned = state(&s, 1).vector.expect("a vector");
        assert_eq!(turned.heading, (v.heading + 3) % 6);
        assert_eq!((turned.speed, turned.drift), (6, 0));
        assert!(set(&mut s, 1, "heading", 6, false).is_err());
        set(&mut s, 1, "speed", 0, false).expect("a stop");
        assert_eq!(state(&s, 1).vector, None);
        assert!(s.run().is_some());
    }

    /// Place moves the character's own position with the map's and ends the holds on it;
    /// blocked and held hexes are refused; the battle still ends.
    #[test]
    fn place_moves_the_character_out_of_holds() {
        let mut s = sheriffs();
        s.step();
        let (helen, tobias) = (entity(&s, 0), entity(&s, 1));
        state_mut(&mut s, 1).control.push((helen, 2.0));
        state_mut(&mut s, 0).lifted_by = Some(tobias);
        let change = GmChange::Place {
            at: (-2, -2),
            facing: 1,
        };
        s.gm_edit(UnitId(0), &change, "pushed aside")
            .expect("an open hex");
        assert_eq!(state(&s, 0).pos, Hex::new(-2, -2));
        assert_eq!(
            s.world.get::<HexPos>(helen).map(|p| p.0),
            Some(Hex::new(-2, -2))
        );
        assert!(state(&s, 1).control.is_empty(), "the hold on her ends");
        assert_eq!(state(&s, 0).lifted_by, None);
        assert!(
            s.log_text()
                .contains("GM: Helen Highwater moved from (-4, 0) to (-2, -2)")
        );
        let blocked = GmChange::Place {
            at: (2, -3),
            facing: 0,
        };
        assert!(s.gm_edit(UnitId(0), &blocked, "").is_err());
        let held = GmChange::Place {
            at: (4, 0),
            facing: 0,
        };
        assert!(
            s.gm_edit(UnitId(0), &held, "").is_err(),
            "the sheriff stands there"
        );
        assert!(s.run().is_some());
    }

    /// Remove: the sheriff leaves the battle, shown as escaped whatever the systems mirror
    /// afterwards, and takes no more turns; while an attack on a character is being
    /// resolved, removing it is refused; the battle still ends.
    #[test]
    fn remove_leaves_the_battle() {
        let mut s = sheriffs();
        s.step();
        s.gm_edit(UnitId(2), &GmChange::Remove, "rides off")
            .expect("in the fight");
        assert!(state(&s, 2).left);
        assert_eq!(standing(&s, 2), Standing::Escaped);
        assert!(s.gm_edit(UnitId(2), &GmChange::Remove, "").is_err());
        let from = s.log().entries.len();
        let mut refused = false;
        for _ in 0..3000 {
            if s.outcome().is_some() {
                break;
            }
            let asked = s.world.resource::<Fight>().prompt.map(|p| p.unit());
            if let Some(u) = asked
                && standing(&s, u.0) == Standing::Fighting
            {
                let tried = s.gm_edit(u, &GmChange::Remove, "");
                assert!(tried.is_err_and(|e| e.contains("being resolved")));
                refused = true;
            }
            s.step();
            assert_eq!(standing(&s, 2), Standing::Escaped);
        }
        assert!(refused, "an attack was being resolved at some step");
        assert!(!took_a_turn(&s, 2, from), "the sheriff takes no more turns");
        assert!(s.run().is_some());
    }

    /// Add: a copy of a deputy joins the roster where the GM put it, with the stat block's
    /// Breath and no Action Points, and takes a turn from the next round ("Combat Time and
    /// Pacing"); the battle still ends.
    #[test]
    fn a_character_brought_in_takes_turns_from_the_next_round() {
        let mut s = sheriffs();
        s.step();
        let round = s.round();
        let change = GmChange::Add {
            name: "Deputy Quill".into(),
            at: (6, -3),
            facing: 3,
        };
        s.gm_edit(UnitId(3), &change, "reinforcements")
            .expect("an open hex");
        assert_eq!(s.roster().units.len(), 8);
        assert_eq!(s.roster().name(UnitId(7)), "Deputy Quill");
        assert_eq!(state(&s, 7).pos, Hex::new(6, -3));
        assert_eq!(state(&s, 7).ap, 0);
        assert_eq!(state(&s, 7).breath, 10, "a deputy's Stamina, in full");
        assert!(
            s.log_text()
                .contains("GM: Deputy Quill joins the fight at (6, -3)")
        );
        for _ in 0..3000 {
            if took_a_turn(&s, 7, 0) || s.outcome().is_some() {
                break;
            }
            s.step();
        }
        let first =
            s.log().entries.iter().find(
                |e| matches!(e.event, BattleEvent::TurnStarted { unit } if unit == UnitId(7)),
            );
        let Some(first) = first else {
            panic!("the new deputy never took a turn");
        };
        assert!(first.round > round, "from the next round");
        assert!(s.run().is_some());
    }
}
