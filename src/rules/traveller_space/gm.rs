//! The game master's hand edits of a GURPS Traveller ship ([`crate::battle::gm`]): what the
//! GM may change on a ship ([`fields`]), and the change applied as the rules of
//! gurps-traveller-gm-screen.txt would leave the ship ([`set`]); moving a ship
//! ([`place`]), taking it out of the battle ([`remove`]) and bringing in a new one
//! ([`join`]).
//!
//! The ship keeps its own state in its [`ShipState`] (position, vector, hull, systems, its
//! [`Condition`]); the systems copy the condition onto the entity's `Standing` every step,
//! so every edit here changes the ship's state first and its `Standing` with it.
//!
//! - Hull hit points run from minus the design's hit points (destroyed) to the design's;
//!   a hull cannot be forced past its design (the text has no such rule). A ship at 0 hit
//!   points or fewer no longer functions ("VEHICLE CRITICAL HITS" preamble), at minus its
//!   full hit points it is destroyed, as a hit leaves it ([`super::space`] decisions); an
//!   edit that leaves the hull above 0 and hands to work the ship brings a disabled ship
//!   back into the fight (the GM's decision, made by setting the number).
//! - The crew out of action, computers, bridge, power loss, power plant and M-drive
//!   halvings are those of the "MAJOR DAMAGE TABLE" (8/17, 7, 16, 9, 18 and 14); a system
//!   the GM knocks out that damage control can mend joins the repair list ("SEQUENCE OF
//!   ACTION", 7. Damage Control), and one the GM mends leaves it. Drive hits and a fire
//!   aboard are those of "VEHICLE CRITICAL HITS" (6, 7 and 16).
//! - The vector is the ship's velocity in hexes a turn, by its axial components (the
//!   movement of "SEQUENCE OF ACTION", 3), bounded as a stat block's starting velocity.
//! - A ship that leaves the fight by an edit no longer decides in the phase under way, and
//!   a ship removed leaves the battle as one that broke contact: its declared shots, and
//!   those at it, are dropped.
//! - A ship brought in joins with its stat block's velocity, unseen by every side until
//!   the next detection phase, and takes part from the next phase that asks for decisions.

use super::sheet::TravellerShip;
use super::space::{Condition, Detection, Repairable, ShipState, Space};
use crate::battle::{
    Facing, GmField, GmValue, HexPos, Sheet, Standing, TurnState, UnitId, Velocity,
};
use bevy::ecs::entity::Entity;
use bevy::ecs::world::World;
use hexx::{EdgeDirection, Hex};
use std::borrow::Cow;

/// The most a velocity component may be, hexes a turn (as a stat block's starting
/// velocity is checked).
pub const MOST_VELOCITY: i32 = 200;

/// M-drive halvings the GM may set: seven halvings, rounding down, bring any drive a stat
/// block may have (up to 100 G) to 0 G ("MAJOR DAMAGE TABLE", 14).
pub const MOST_HALVINGS: i32 = 7;

/// Drive hits: the second stops the drive ("VEHICLE CRITICAL HITS", 6).
pub const MOST_DRIVE_HITS: i32 = 2;

/// The states of a fire aboard, by index: none, a fire, a fuel fire ("VEHICLE CRITICAL
/// HITS", 7 and 16).
pub const FIRES: &[&str] = &["none", "fire", "fuel fire"];

/// The ship's state and sheet on `entity`, or why there is none.
fn ship(world: &World, entity: Entity) -> Result<(&ShipState, &TravellerShip), String> {
    match (
        world.get::<ShipState>(entity),
        world.get::<Sheet<TravellerShip>>(entity),
    ) {
        (Some(st), Some(sheet)) => Ok((st, &sheet.0)),
        _ => Err("this unit is not a GURPS Traveller ship".to_string()),
    }
}

/// A number as the GM panel counts it (saturating at `i32::MAX`).
fn count(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// A number field from `min` to `max`, never forced higher.
fn number(key: &'static str, label: &'static str, now: i32, min: i32, max: i32) -> GmField {
    GmField {
        key,
        label: Cow::Borrowed(label),
        value: GmValue::Number {
            now,
            min,
            max,
            forced_max: None,
        },
    }
}

/// A condition field.
fn flag(key: &'static str, label: &'static str, on: bool) -> GmField {
    GmField {
        key,
        label: Cow::Borrowed(label),
        value: GmValue::Flag(on),
    }
}

/// What the GM may change on the ship of `entity`: hull hit points (`hp`), the vector
/// (`vq`, `vr`), crew out of action (`crew`), computers working (`computers`), M-drive
/// halvings (`drive`), drive hits (`drivehits`), missiles left (`missiles`, for a ship that
/// carries them), the bridge, power loss and power plant (`bridge`, `power`, `plant`, each
/// set when knocked out) and a fire aboard (`fire`). Empty for an entity that is not a
/// ship.
pub fn fields(world: &World, entity: Entity) -> Vec<GmField> {
    let Ok((st, sheet)) = ship(world, entity) else {
        return Vec::new();
    };
    let s = &sheet.stats;
    let mut out = vec![
        number("hp", "HP", st.hp, -s.hp, s.hp),
        number("vq", "Velocity q", st.vel.x, -MOST_VELOCITY, MOST_VELOCITY),
        number("vr", "Velocity r", st.vel.y, -MOST_VELOCITY, MOST_VELOCITY),
        number(
            "crew",
            "Crew out of action",
            count(st.crew_hurt),
            0,
            count(s.crew.count),
        ),
        number(
            "computers",
            "Computers working",
            count(st.computers),
            0,
            count(s.computers),
        ),
        number(
            "drive",
            "M-drive halvings",
            count(st.drive_halved),
            0,
            MOST_HALVINGS,
        ),
        number(
            "drivehits",
            "Drive hits",
            count(st.drive_hits),
            0,
            MOST_DRIVE_HITS,
        ),
    ];
    if s.missiles > 0 {
        out.push(number(
            "missiles",
            "Missiles",
            count(st.missiles),
            0,
            count(s.missiles),
        ));
    }
    out.extend([
        flag("bridge", "Bridge out", !st.bridge),
        flag("power", "Power loss", st.power_loss),
        flag("plant", "Power plant out", !st.power_plant),
        GmField {
            key: "fire",
            label: Cow::Borrowed("Fire aboard"),
            value: GmValue::Choice {
                now: match st.fire {
                    None => 0,
                    Some(false) => 1,
                    Some(true) => 2,
                },
                options: FIRES,
            },
        },
    ]);
    out
}

/// `value` as a count (the engine has checked it is within the field's bounds, from 0).
fn non_negative(value: i32) -> u32 {
    u32::try_from(value).unwrap_or(0)
}

/// Keeps `want` entries equal to `what` in the repair list: adds the missing ones at its
/// end (lost last, repaired last), or drops the latest ones.
fn keep_repairs(repairs: &mut Vec<Repairable>, what: Repairable, want: usize) {
    let mut have = repairs.iter().filter(|r| **r == what).count();
    while have < want {
        repairs.push(what);
        have += 1;
    }
    while have > want {
        match repairs.iter().rposition(|r| *r == what) {
            Some(i) => {
                repairs.remove(i);
                have -= 1;
            }
            None => break,
        }
    }
}

/// The condition the hull and crew leave a ship in that has not left the battle: destroyed
/// at minus its full hit points, disabled at 0 or with its whole crew out of action
/// ("VEHICLE CRITICAL HITS" preamble; "MAJOR DAMAGE TABLE" note, each hit disables),
/// fighting otherwise.
fn judged(st: &ShipState, sheet: &TravellerShip) -> Condition {
    let max = sheet.stats.hp;
    if st.condition == Condition::Escaped {
        Condition::Escaped
    } else if st.hp <= -max {
        Condition::Destroyed
    } else if st.hp <= 0 || st.crew_hurt >= sheet.stats.crew.count {
        Condition::Disabled
    } else {
        Condition::Fighting
    }
}

/// Sets field `key` of the ship of `entity` to `value` (within the bounds of [`fields`]),
/// with what follows under the rules: a hull or crew edit judges the ship's condition
/// again (and its `Standing`), a system knocked out or mended joins or leaves the repair
/// list, a velocity edit shows on the map's arrow at once.
pub fn set(world: &mut World, entity: Entity, key: &str, value: i32) -> Result<(), String> {
    let (_, sheet) = ship(world, entity)?;
    let sheet = sheet.clone();
    let Some(mut st) = world.get_mut::<ShipState>(entity) else {
        return Err("this unit is not a GURPS Traveller ship".to_string());
    };
    let st = &mut *st;
    if st.condition == Condition::Destroyed {
        // "VEHICLE CRITICAL HITS": a destroyed ship is wreckage; nothing brings it back.
        return Err("the ship is destroyed: the rules bring no wreck back".to_string());
    }
    let mut judge = false;
    match key {
        "hp" => {
            st.hp = value;
            judge = true;
        }
        "vq" => st.vel = Hex::new(value, st.vel.y),
        "vr" => st.vel = Hex::new(st.vel.x, value),
        "crew" => {
            st.crew_hurt = non_negative(value);
            judge = true;
        }
        "computers" => {
            // Those the GM knocks out wait for damage control ("MAJOR DAMAGE TABLE", 7);
            // those the GM mends no longer do.
            let (was, now) = (st.computers, non_negative(value));
            let waiting = st
                .repairs
                .iter()
                .filter(|r| **r == Repairable::Computer)
                .count();
            let want = if now < was {
                waiting + (was - now) as usize
            } else {
                waiting.saturating_sub((now - was) as usize)
            };
            st.computers = now;
            keep_repairs(&mut st.repairs, Repairable::Computer, want);
        }
        "drive" => {
            st.drive_halved = non_negative(value);
            keep_repairs(
                &mut st.repairs,
                Repairable::ManeuverDrive,
                st.drive_halved as usize,
            );
        }
        "drivehits" => st.drive_hits = non_negative(value),
        "missiles" => st.missiles = non_negative(value),
        "bridge" => {
            st.bridge = value == 0;
            keep_repairs(&mut st.repairs, Repairable::Bridge, usize::from(!st.bridge));
        }
        "power" => {
            st.power_loss = value != 0;
            keep_repairs(
                &mut st.repairs,
                Repairable::Power,
                usize::from(st.power_loss),
            );
        }
        "plant" => st.power_plant = value == 0,
        "fire" => {
            st.fire = match value {
                1 => Some(false),
                2 => Some(true),
                _ => None,
            }
        }
        _ => return Err(format!("a GURPS Traveller ship has no field `{key}`")),
    }
    if judge {
        st.condition = judged(st, &sheet);
    }
    let (condition, vel) = (st.condition, st.vel);
    if matches!(key, "vq" | "vr") {
        world.entity_mut(entity).insert(Velocity(vel));
    }
    settle(world, entity, condition);
    Ok(())
}

/// Gives the ship of `entity` the `Standing` of its `condition`, and when it is out of the
/// fight, takes it out of the phase under way: it is no longer awaited (the next step goes
/// on to the next ship, [`Space::advance`] dropping it from the queue).
fn settle(world: &mut World, entity: Entity, condition: Condition) {
    if let Some(mut standing) = world.get_mut::<Standing>(entity) {
        *standing = condition.standing();
    }
    if condition == Condition::Fighting {
        return;
    }
    let Some(unit) = world.get::<UnitId>(entity).copied() else {
        return;
    };
    if let Some(mut space) = world.get_resource_mut::<Space>() {
        space.queue.retain(|&u| u != unit);
    }
    if let Some(mut turn) = world.get_resource_mut::<TurnState>()
        && turn.awaiting == Some(unit)
    {
        turn.awaiting = None;
    }
}

/// Puts the ship of `entity` on hex `at` facing `facing`: its own position and the map's.
/// Its vector is kept (while it has one, the map turns it to face along it at the next
/// step, as it does every ship).
pub fn place(
    world: &mut World,
    entity: Entity,
    at: Hex,
    facing: EdgeDirection,
) -> Result<(), String> {
    let Some(mut st) = world.get_mut::<ShipState>(entity) else {
        return Err("this unit is not a GURPS Traveller ship".to_string());
    };
    st.pos = at;
    let mut unit = world.entity_mut(entity);
    if let Some(mut pos) = unit.get_mut::<HexPos>() {
        pos.0 = at;
    }
    if let Some(mut f) = unit.get_mut::<Facing>() {
        f.0 = facing;
    }
    Ok(())
}

/// Takes the ship of `entity` out of the battle as one that broke contact (its condition
/// `Escaped`, and its `Standing`): it no longer decides, is no longer scanned or a target,
/// and the shots it declared this turn, and those declared at it, are dropped.
pub fn remove(world: &mut World, entity: Entity) -> Result<(), String> {
    let Some(mut st) = world.get_mut::<ShipState>(entity) else {
        return Err("this unit is not a GURPS Traveller ship".to_string());
    };
    st.condition = Condition::Escaped;
    st.ram = None;
    if let Some(unit) = world.get::<UnitId>(entity).copied()
        && let Some(mut space) = world.get_resource_mut::<Space>()
    {
        space
            .declared
            .retain(|(by, shot)| *by != unit && shot.target != unit);
    }
    settle(world, entity, Condition::Escaped);
    Ok(())
}

/// A ship brought into the battle (a copy of another's stat block, spawned where the GM
/// put it): it gets a place in what each side has detected (nothing yet, as every ship at
/// the start) and starts where its entity stands. It decides from the next phase that
/// asks every ship ([`Space::advance`] builds each phase's queue from the ships fighting).
pub fn join(world: &mut World, entity: Entity, _unit: UnitId) -> Result<(), String> {
    let Some(sides) = world.get_resource::<Space>().map(|s| s.side_count) else {
        return Err("no GURPS Traveller space battle is under way".to_string());
    };
    let at = world.get::<HexPos>(entity).map(|p| p.0);
    let Some(mut st) = world.get_mut::<ShipState>(entity) else {
        return Err("this unit is not a GURPS Traveller ship".to_string());
    };
    st.seen_by = vec![Detection::default(); sides];
    if let Some(at) = at {
        st.pos = at;
    }
    st.condition = Condition::Fighting;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::{GmChange, OutcomeKind};
    use crate::session::Session;

    /// The Beowulf (traders, unit 0) against the Red Fang (corsairs, unit 1), autopilot on.
    fn mayday() -> Session {
        crate::rules::testing::shipped("traveller-merchant-raider.ron", 1)
    }

    fn entity(s: &Session, u: u32) -> Entity {
        crate::rules::testing::entity(s, UnitId(u))
    }

    fn ship(s: &Session, u: u32) -> &ShipState {
        match s.world.get::<ShipState>(entity(s, u)) {
            Some(st) => st,
            None => panic!("no ship {u}"),
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

    /// Hull hit points from minus the design's (destroyed) to the design's, never forced
    /// past it; at 0 the ship no longer functions ("VEHICLE CRITICAL HITS" preamble) and at
    /// minus its full hit points it is destroyed, in its condition and its `Standing`; the
    /// GM raising the hull above 0 brings a disabled ship back, not a destroyed one; the
    /// battle still ends.
    #[test]
    fn hull_points_are_bounded_and_judge_the_ship() {
        let mut s = mayday();
        s.step();
        let words = s.gm_edit(
            UnitId(0),
            &GmChange::Set {
                key: "hp".into(),
                value: 1500,
                force: false,
            },
            "lucky hit",
        );
        assert_eq!(words.as_deref(), Ok("HP 3000 -> 1500"));
        assert_eq!(ship(&s, 0).hp, 1500);
        assert!(
            s.log_text()
                .contains("GM: Beowulf HP 3000 -> 1500, lucky hit")
        );
        assert!(set(&mut s, 0, "hp", 3001, false).is_err());
        assert!(
            set(&mut s, 0, "hp", 3001, true).is_err(),
            "no forcing past the design"
        );
        assert!(set(&mut s, 0, "hp", -3001, false).is_err());
        assert_eq!(ship(&s, 0).hp, 1500, "a refused edit changes nothing");

        set(&mut s, 0, "hp", 0, false).expect("0 HP is within the rules");
        assert_eq!(ship(&s, 0).condition, Condition::Disabled);
        assert_eq!(standing(&s, 0), Standing::Disabled);
        set(&mut s, 0, "hp", 10, false).expect("the GM may mend the hull");
        assert_eq!(ship(&s, 0).condition, Condition::Fighting);
        assert_eq!(standing(&s, 0), Standing::Fighting);

        set(&mut s, 1, "hp", -4000, false).expect("minus the full HP is within the rules");
        assert_eq!(ship(&s, 1).condition, Condition::Destroyed);
        assert_eq!(standing(&s, 1), Standing::Destroyed);
        let err = set(&mut s, 1, "hp", 10, false).expect_err("no wreck comes back");
        assert!(err.contains("destroyed"), "{err}");
        assert_eq!(s.run(), Some(OutcomeKind::Victory { side: 0 }));
    }

    /// The vector's components set the ship's velocity (and the map's arrow); computers,
    /// the bridge and M-drive halvings knocked out by the GM wait for damage control and
    /// leave its list when mended ("MAJOR DAMAGE TABLE" 7, 14, 16; "SEQUENCE OF ACTION"
    /// 7); a fire is one of "VEHICLE CRITICAL HITS" 7 and 16; the whole crew out of action
    /// disables the ship, and the battle still ends.
    #[test]
    fn vector_and_systems_follow_the_tables() {
        let mut s = mayday();
        s.step();
        set(&mut s, 0, "vq", 3, false).expect("within the vector's bounds");
        assert_eq!(ship(&s, 0).vel, Hex::new(3, 0));
        assert_eq!(
            s.world.get::<Velocity>(entity(&s, 0)).map(|v| v.0),
            Some(Hex::new(3, 0))
        );
        assert!(s.log_text().contains("GM: Beowulf Velocity q 1 -> 3, test"));
        set(&mut s, 0, "vr", -2, false).expect("within the vector's bounds");
        assert_eq!(ship(&s, 0).vel, Hex::new(3, -2));
        assert!(set(&mut s, 0, "vr", MOST_VELOCITY + 1, false).is_err());

        let computers = |s: &Session| {
            ship(s, 0)
                .repairs
                .iter()
                .filter(|r| **r == Repairable::Computer)
                .count()
        };
        set(&mut s, 0, "computers", 1, false).expect("two computers knocked out");
        assert_eq!((ship(&s, 0).computers, computers(&s)), (1, 2));
        set(&mut s, 0, "computers", 2, false).expect("one mended");
        assert_eq!((ship(&s, 0).computers, computers(&s)), (2, 1));
        assert!(set(&mut s, 0, "computers", 4, false).is_err());

        set(&mut s, 0, "bridge", 1, false).expect("the bridge knocked out");
        assert!(!ship(&s, 0).bridge);
        assert!(ship(&s, 0).repairs.contains(&Repairable::Bridge));
        assert!(
            s.log_text()
                .contains("GM: Beowulf Bridge out off -> on, test")
        );
        set(&mut s, 0, "bridge", 0, false).expect("the bridge mended");
        assert!(ship(&s, 0).bridge);
        assert!(!ship(&s, 0).repairs.contains(&Repairable::Bridge));

        set(&mut s, 0, "drive", 2, false).expect("two halvings");
        assert_eq!(ship(&s, 0).drive_halved, 2);
        let halvings = ship(&s, 0)
            .repairs
            .iter()
            .filter(|r| **r == Repairable::ManeuverDrive)
            .count();
        assert_eq!(halvings, 2);
        assert!(set(&mut s, 0, "drive", MOST_HALVINGS + 1, false).is_err());
        assert!(
            set(&mut s, 0, "missiles", 1, false).is_err(),
            "the Beowulf has none"
        );
        set(&mut s, 1, "missiles", 3, false).expect("the Red Fang carries 10");
        assert_eq!(ship(&s, 1).missiles, 3);

        set(&mut s, 0, "fire", 2, false).expect("a fuel fire");
        assert_eq!(ship(&s, 0).fire, Some(true));
        assert!(
            s.log_text()
                .contains("GM: Beowulf Fire aboard none -> fuel fire, test")
        );
        assert!(set(&mut s, 0, "fire", 3, false).is_err());

        set(&mut s, 0, "crew", 5, false).expect("the whole crew out");
        assert_eq!(ship(&s, 0).condition, Condition::Disabled);
        assert_eq!(standing(&s, 0), Standing::Disabled);
        assert!(set(&mut s, 0, "crew", 6, false).is_err());
        assert_eq!(s.run(), Some(OutcomeKind::Victory { side: 1 }));
    }

    /// Place moves the ship's own position with the map's; a hex off the map is refused;
    /// the battle still runs to its end.
    #[test]
    fn place_moves_the_ship() {
        let mut s = mayday();
        s.step();
        let change = GmChange::Place {
            at: (-10, 8),
            facing: 2,
        };
        s.gm_edit(UnitId(1), &change, "jumped in")
            .expect("an open hex");
        assert_eq!(ship(&s, 1).pos, Hex::new(-10, 8));
        assert_eq!(
            s.world.get::<HexPos>(entity(&s, 1)).map(|p| p.0),
            Some(Hex::new(-10, 8))
        );
        assert!(
            s.log_text()
                .contains("GM: Red Fang moved from (-12, 4) to (-10, 8)")
        );
        let off = GmChange::Place {
            at: (40, 0),
            facing: 0,
        };
        assert!(s.gm_edit(UnitId(1), &off, "").is_err());
        assert!(s.run().is_some());
    }

    /// A ship removed while its decision is awaited breaks contact: escaped in its
    /// condition and `Standing`, no longer awaited, and the other side wins.
    #[test]
    fn remove_takes_the_ship_out_of_the_battle() {
        let mut s = mayday();
        for _ in 0..100 {
            if s.world.resource::<TurnState>().awaiting == Some(UnitId(1)) {
                break;
            }
            s.step();
        }
        assert_eq!(s.world.resource::<TurnState>().awaiting, Some(UnitId(1)));
        s.gm_edit(UnitId(1), &GmChange::Remove, "called off")
            .expect("a ship in the fight");
        assert_eq!(ship(&s, 1).condition, Condition::Escaped);
        assert_eq!(standing(&s, 1), Standing::Escaped);
        assert_eq!(s.world.resource::<TurnState>().awaiting, None);
        assert!(s.gm_edit(UnitId(1), &GmChange::Remove, "").is_err());
        assert_eq!(s.run(), Some(OutcomeKind::Victory { side: 0 }));
        assert_eq!(standing(&s, 1), Standing::Escaped);
    }

    /// A copy of the Red Fang brought in is in the roster, known to every side's detection,
    /// and decides in a later phase (an `ActionChosen` of its own); the battle still ends.
    #[test]
    fn a_ship_brought_in_takes_part() {
        let mut s = mayday();
        s.step();
        let change = GmChange::Add {
            name: "Black Fang".into(),
            at: (-12, 6),
            facing: 0,
        };
        s.gm_edit(UnitId(1), &change, "reinforcements")
            .expect("an open hex");
        assert_eq!(s.roster().units.len(), 3);
        assert_eq!(s.roster().name(UnitId(2)), "Black Fang");
        assert_eq!(ship(&s, 2).seen_by.len(), 2);
        assert_eq!(ship(&s, 2).pos, Hex::new(-12, 6));
        let decided = |s: &Session| {
            s.log().entries.iter().any(|e| {
                matches!(e.event, crate::battle::BattleEvent::ActionChosen { unit, .. } if unit == UnitId(2))
            })
        };
        for _ in 0..200 {
            if decided(&s) || s.outcome().is_some() {
                break;
            }
            s.step();
        }
        assert!(decided(&s), "the new ship decides");
        assert!(s.run().is_some());
    }
}
