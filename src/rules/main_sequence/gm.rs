//! The game master's hand edits to a Main Sequence battle (the contract's `gm_fields`,
//! `gm_set`, `gm_place`, `gm_remove` and `gm_join`), kept consistent with the rules of
//! main-sequence.txt.
//!
//! What the GM may change on a unit:
//! - a character: its Hit Points ("Damage": never below zero), its condition (fighting,
//!   knocked out, dying, stabilized, dead: "Knockout and Death"), its Edge ("Using Edge"),
//!   its Nimble dodges left ("Tags", Nimble), and the conditions the fight keeps on it:
//!   blinded (a flash-bang, the gear table's note), ducked (one degree more cover,
//!   "Combat Actions", Movement) and an action owed for an active defense ("Combat
//!   Actions", Parrying);
//! - a ship: its Hit Points and condition (fighting or destroyed: "Ship Destruction"), its
//!   shields ("Ship Tags", Shields), its Nimble Ship dodges left, the action it owes for a
//!   dodge, and its failed systems ("Optional Rule: Systems Failure").
//!
//! Decisions where the text is silent, each in one place:
//! - Hit Points set to 0 for a character still fighting are "severe environmental damage"
//!   ("Knockout and Death"): the character is dying, with Soldier rounds left, as after a
//!   lethal attack. A knock-out is the condition field's "knocked out".
//! - Hit Points set above 0 bring a knocked-out, dying or stabilized character back into
//!   the fight (it was down only for being at 0). Nothing brings back the dead, a
//!   destroyed ship or a unit that left the battle: the GM brings a copy in instead.
//! - A ship's Hit Points set to 0 destroy it with all hands ("Ship Destruction"): spending
//!   Edge to hold the ship together answers an attack, which the GM's edit is not.
//! - Forced, Hit Points may go up to [`FORCED_HP_FACTOR`] times the sheet's (the text has
//!   no Hit Points above the maximum; the GM may want a tougher foe).
//! - A GM edit rolls no dice: lowering a ship's Hit Points crosses no systems-failure
//!   threshold (the GM sets failed systems directly).
//! - A unit the battle is asking a question of, or one an attack or check in progress is
//!   about, cannot be taken out of the fight until that is resolved (the attack would go
//!   on against it).
//! - Taking a unit out in its own turn ends that turn; its checks still to come this round
//!   (sweeps, repairs) are dropped, and so are sweeps for it.
//! - The two units of a chase are placed by the chase band, not the map ("Chase Rules"):
//!   moving either is refused. Removing either ends the chase (a removed quarry has not
//!   escaped: the battle's victory rule judges it as any unit that left).

use super::combat::FLASH_BLIND_ROUNDS;
use super::fight::{CheckKind, Condition, Fight, RoundTask, System, UnitState};
use super::sheet::MsSheet;
use crate::battle::{Facing, GmField, GmValue, HexPos, Roster, Sheet, Standing, TurnState, UnitId};
use bevy::ecs::entity::Entity;
use bevy::ecs::world::World;
use hexx::{EdgeDirection, Hex};
use std::borrow::Cow;
use std::sync::Arc;

/// A character's conditions, by the index the `state` field sets ("Knockout and Death";
/// "escaped": it left the battle).
pub const CHARACTER_STATES: [&str; 6] = [
    "fighting",
    "knocked out",
    "dying",
    "stabilized",
    "dead",
    "escaped",
];

/// A ship's conditions, by the index the `state` field sets ("Ship Destruction";
/// "escaped": it left the battle).
pub const SHIP_STATES: [&str; 3] = ["fighting", "destroyed", "escaped"];

/// How many times its sheet's Hit Points a forced change may give a unit.
pub const FORCED_HP_FACTOR: i32 = 2;

/// The failed-system flags of a ship: key, label, system ("Optional Rule: Systems
/// Failure"; damaged sensors, "Ship Detection").
const SYSTEM_FLAGS: [(&str, &str, System); 3] = [
    ("weapons", "Weapons failed", System::Weapons),
    ("engines", "Engines failed", System::Engines),
    ("sensors", "Sensors damaged", System::Sensors),
];

/// The unit of `entity`: its id, sheet and state, or why there is none.
fn unit(world: &World, entity: Entity) -> Result<(UnitId, Arc<MsSheet>, UnitState), String> {
    match (
        world.get::<UnitId>(entity),
        world.get::<Sheet<MsSheet>>(entity),
        world.get::<UnitState>(entity),
    ) {
        (Some(u), Some(sheet), Some(st)) => Ok((*u, Arc::clone(&sheet.0), st.clone())),
        _ => Err("not a Main Sequence unit".into()),
    }
}

/// The unit's name in the roster.
fn name(world: &World, u: UnitId) -> String {
    world
        .get_resource::<Roster>()
        .map_or_else(|| "?".into(), |r| r.name(u).to_string())
}

/// The index of `c` among [`CHARACTER_STATES`] or [`SHIP_STATES`].
fn state_index(c: Condition, ship: bool) -> usize {
    match (c, ship) {
        (Condition::Fighting, _) => 0,
        (Condition::Escaped, false) => 5,
        (Condition::Escaped, true) => 2,
        (_, true) => 1,
        (Condition::KnockedOut, false) => 1,
        (Condition::Dying { .. }, false) => 2,
        (Condition::Stabilized, false) => 3,
        (Condition::Dead | Condition::Destroyed, false) => 4,
    }
}

/// The number field `key` from `min` to `max`.
fn number(key: &'static str, label: &'static str, now: i32, max: i32) -> GmField {
    GmField {
        key,
        label: Cow::Borrowed(label),
        value: GmValue::Number {
            now,
            min: 0,
            max,
            forced_max: None,
        },
    }
}

/// The flag field `key`.
fn flag(key: &'static str, label: &'static str, on: bool) -> GmField {
    GmField {
        key,
        label: Cow::Borrowed(label),
        value: GmValue::Flag(on),
    }
}

/// True when unit `u` is blinded now: in its own turn, that turn is a blinded one; else
/// blindness is still to come (as [`super::Board::blinded`]).
fn blinded(fight: Option<&Fight>, u: UnitId, st: &UnitState) -> bool {
    match fight.and_then(|f| f.turn) {
        Some(t) if t.unit == u => t.blinded,
        _ => st.blind > 0,
    }
}

/// What the GM may change on the unit of `entity` (see the module documentation).
pub fn fields(world: &World, entity: Entity) -> Vec<GmField> {
    let Ok((u, sheet, st)) = unit(world, entity) else {
        return Vec::new();
    };
    let full = sheet.hp();
    let mut v = vec![GmField {
        key: "hp",
        label: Cow::Borrowed("HP"),
        value: GmValue::Number {
            now: st.hp,
            min: 0,
            max: full,
            forced_max: Some(full.saturating_mul(FORCED_HP_FACTOR)),
        },
    }];
    let fight = world.get_resource::<Fight>();
    match &*sheet {
        MsSheet::Character(c) => {
            v.push(GmField {
                key: "state",
                label: Cow::Borrowed("Condition"),
                value: GmValue::Choice {
                    now: state_index(st.condition, false),
                    options: &CHARACTER_STATES,
                },
            });
            if c.edge > 0 {
                v.push(number("edge", "Edge", st.edge, c.edge));
            }
            if c.nimble() > 0 {
                v.push(number(
                    "nimble",
                    "Nimble dodges",
                    st.nimble as i32,
                    c.nimble() as i32,
                ));
            }
            v.push(flag("blinded", "Blinded", blinded(fight, u, &st)));
            v.push(flag("ducked", "Ducked", st.ducked));
            v.push(flag("forfeit", "Owes an action", st.forfeit));
        }
        MsSheet::Ship(s) => {
            v.push(GmField {
                key: "state",
                label: Cow::Borrowed("Condition"),
                value: GmValue::Choice {
                    now: state_index(st.condition, true),
                    options: &SHIP_STATES,
                },
            });
            if s.shields > 0 {
                v.push(number("shields", "Shields", st.shields, s.shields));
            }
            if s.nimble > 0 {
                v.push(number(
                    "nimble",
                    "Nimble Ship dodges",
                    st.nimble as i32,
                    s.nimble as i32,
                ));
            }
            v.push(flag("forfeit", "Owes an action", st.forfeit));
            for (key, label, system) in SYSTEM_FLAGS {
                v.push(flag(key, label, st.failed.contains(&system)));
            }
        }
    }
    v
}

/// Why unit `u` cannot leave the fight now: the battle asks it a question, or an attack
/// or check in progress is about it; `None` when it may.
fn involved(fight: &Fight, u: UnitId) -> Option<&'static str> {
    if let Some(a) = &fight.attack
        && (a.attacker == u || a.targets.contains(&u))
    {
        return Some("an attack in progress is its own or aimed at it");
    }
    if let Some(c) = &fight.check {
        let about = match c.kind {
            CheckKind::Stabilize { patient } => patient == u,
            CheckKind::Sweep { target } => target == u,
            _ => false,
        };
        if c.roller == u || about {
            return Some("a check in progress is its own or about it");
        }
    }
    if fight.prompt.is_some() && fight.turn.is_some_and(|t| t.unit == u) {
        return Some("the battle is waiting on a question in its turn");
    }
    None
}

/// Refuses to take `u` out of the fight while [`involved`] says it is needed.
fn may_leave(world: &World, u: UnitId) -> Result<(), String> {
    match world.get_resource::<Fight>().and_then(|f| involved(f, u)) {
        Some(why) => Err(format!(
            "{} cannot leave the fight now: {why}; make the change once it is resolved",
            name(world, u)
        )),
        None => Ok(()),
    }
}

/// Writes the unit's state back and mirrors its standing onto the entity.
fn store(world: &mut World, entity: Entity, st: UnitState) {
    let standing = st.condition.standing();
    if let Some(mut s) = world.get_mut::<Standing>(entity) {
        *s = standing;
    }
    if let Some(mut c) = world.get_mut::<UnitState>(entity) {
        *c = st;
    }
}

/// What follows when `u` is out of the fight: its turn, if it is its own, ends (and the
/// battle no longer waits for it); its checks still to come this round, and sweeps for
/// it, are dropped.
fn left_fight(world: &mut World, u: UnitId) {
    if let Some(mut fight) = world.get_resource_mut::<Fight>() {
        if let Some(t) = &mut fight.turn
            && t.unit == u
        {
            t.moved = true;
            t.acted = true;
            t.attacks_left = 0;
        }
        fight.round_tasks.retain(|task| match task {
            RoundTask::Check(c) => {
                c.roller != u && !matches!(c.kind, CheckKind::Sweep { target } if target == u)
            }
            _ => true,
        });
    }
    if let Some(mut turn) = world.get_resource_mut::<TurnState>()
        && turn.awaiting == Some(u)
    {
        turn.awaiting = None;
    }
}

/// Ends the chase if `u` is one of its two: each keeps the hex the map shows it on.
fn end_chase_of(world: &mut World, u: UnitId) {
    let Some(chase) = world.get_resource::<Fight>().and_then(|f| f.chase.clone()) else {
        return;
    };
    if chase.pursuer != u && chase.quarry != u {
        return;
    }
    for who in [chase.pursuer, chase.quarry] {
        let Some(e) = world.get_resource::<Roster>().and_then(|r| r.entity(who)) else {
            continue;
        };
        let shown = world.get::<HexPos>(e).map(|p| p.0);
        if let (Some(at), Some(mut st)) = (shown, world.get_mut::<UnitState>(e)) {
            st.pos = at;
        }
    }
    if let Some(mut fight) = world.get_resource_mut::<Fight>() {
        fight.chase = None;
    }
}

/// Puts the unit in `to`, with what the rules give at that condition: 0 Hit Points for
/// every condition out of the fight ("Knockout and Death"), Soldier rounds to live for a
/// newly dying character, a destroyed ship's crew dead and its shields gone ("Ship
/// Destruction"), at least 1 Hit Point back in the fight (as a knocked-out character
/// comes to with 1). The dead, the destroyed and the escaped do not come back.
fn set_condition(world: &mut World, entity: Entity, to: Condition) -> Result<(), String> {
    let (u, sheet, mut st) = unit(world, entity)?;
    if std::mem::discriminant(&st.condition) == std::mem::discriminant(&to) {
        return Ok(());
    }
    if matches!(
        st.condition,
        Condition::Dead | Condition::Destroyed | Condition::Escaped
    ) {
        return Err(format!(
            "{} is {}: the rules bring no one back (main-sequence.txt, \"Knockout and Death\", \
             \"Ship Destruction\"); bring a copy in instead",
            name(world, u),
            st.condition.word()
        ));
    }
    if to == Condition::Escaped {
        return remove(world, entity);
    }
    if to == Condition::Fighting {
        st.condition = Condition::Fighting;
        st.hp = st.hp.max(1);
        store(world, entity, st);
        return Ok(());
    }
    may_leave(world, u)?;
    st.hp = 0;
    st.condition = match (to, &*sheet) {
        (Condition::Dying { .. }, MsSheet::Character(c)) => Condition::Dying {
            rounds: c.attrs.soldier,
            attempts: 0,
        },
        (c, _) => c,
    };
    if to == Condition::Destroyed {
        st.shields = 0;
        for c in &mut st.crew {
            c.hp = 0;
            c.condition = Condition::Dead;
        }
    }
    store(world, entity, st);
    left_fight(world, u);
    Ok(())
}

/// Sets field `key` of the unit of `entity` to `value` (checked against its bounds),
/// with what follows under the rules (see the module documentation).
pub fn set(world: &mut World, entity: Entity, key: &str, value: i32) -> Result<(), String> {
    let (u, sheet, mut st) = unit(world, entity)?;
    let ship = sheet.is_ship();
    match key {
        "hp" => {
            if matches!(
                st.condition,
                Condition::Dead | Condition::Destroyed | Condition::Escaped
            ) {
                return Err(format!(
                    "{} is {}: its Hit Points no longer count",
                    name(world, u),
                    st.condition.word()
                ));
            }
            if value <= 0 {
                // "Knockout and Death": dying (a character), "Ship Destruction": destroyed.
                if st.condition == Condition::Fighting {
                    let to = if ship {
                        Condition::Destroyed
                    } else {
                        Condition::Dying {
                            rounds: 0,
                            attempts: 0,
                        }
                    };
                    return set_condition(world, entity, to);
                }
                st.hp = 0;
                store(world, entity, st);
                return Ok(());
            }
            st.hp = value;
            if matches!(
                st.condition,
                Condition::KnockedOut | Condition::Dying { .. } | Condition::Stabilized
            ) {
                st.condition = Condition::Fighting;
            }
            store(world, entity, st);
            Ok(())
        }
        "state" => {
            let to = match (ship, value) {
                (_, 0) => Condition::Fighting,
                (false, 1) => Condition::KnockedOut,
                (false, 2) => Condition::Dying {
                    rounds: 0,
                    attempts: 0,
                },
                (false, 3) => Condition::Stabilized,
                (false, 4) => Condition::Dead,
                (false, 5) | (true, 2) => Condition::Escaped,
                (true, 1) => Condition::Destroyed,
                _ => return Err(format!("{value} is not a condition")),
            };
            set_condition(world, entity, to)
        }
        "edge" if !ship => {
            st.edge = value;
            store(world, entity, st);
            Ok(())
        }
        "nimble" => {
            st.nimble = u32::try_from(value).map_err(|_| format!("{value} is below 0"))?;
            store(world, entity, st);
            Ok(())
        }
        "blinded" if !ship => {
            let on = value != 0;
            let own_turn = world
                .get_resource::<Fight>()
                .and_then(|f| f.turn)
                .is_some_and(|t| t.unit == u);
            if on == blinded(world.get_resource::<Fight>(), u, &st) {
                return Ok(());
            }
            // The gear table's flash-bang: blind for two of its own turns, this one
            // counting when it is its turn now.
            st.blind = match (on, own_turn) {
                (false, _) => 0,
                (true, true) => FLASH_BLIND_ROUNDS.saturating_sub(1),
                (true, false) => FLASH_BLIND_ROUNDS,
            };
            if own_turn
                && let Some(mut fight) = world.get_resource_mut::<Fight>()
                && let Some(t) = &mut fight.turn
            {
                t.blinded = on;
            }
            store(world, entity, st);
            Ok(())
        }
        "ducked" if !ship => {
            st.ducked = value != 0;
            store(world, entity, st);
            Ok(())
        }
        "forfeit" => {
            st.forfeit = value != 0;
            store(world, entity, st);
            Ok(())
        }
        "shields" if ship => {
            st.shields = value;
            store(world, entity, st);
            Ok(())
        }
        _ => {
            let Some((_, _, system)) = SYSTEM_FLAGS.iter().find(|(k, ..)| *k == key) else {
                return Err(format!(
                    "the main-sequence ruleset has no field `{key}` here"
                ));
            };
            if !ship {
                return Err(format!("only a ship has the field `{key}`"));
            }
            let on = value != 0;
            st.failed.retain(|s| s != system);
            if on {
                st.failed.push(*system);
            }
            store(world, entity, st);
            Ok(())
        }
    }
}

/// Puts the unit of `entity` on `at` facing `facing`: its own position (which decides the
/// range bands, "Range Bands") as well as the map's. Refused for the two units of a chase,
/// whose distance is the chase band ("Chase Rules").
pub fn place(
    world: &mut World,
    entity: Entity,
    at: Hex,
    facing: EdgeDirection,
) -> Result<(), String> {
    let (u, _, mut st) = unit(world, entity)?;
    if let Some(c) = world.get_resource::<Fight>().and_then(|f| f.chase.clone())
        && (c.pursuer == u || c.quarry == u)
    {
        let other = if c.pursuer == u { c.quarry } else { c.pursuer };
        return Err(format!(
            "{} is in a chase with {}: the chase band, not the map, keeps them apart \
             (main-sequence.txt, \"Chase Rules\")",
            name(world, u),
            name(world, other)
        ));
    }
    st.pos = at;
    store(world, entity, st);
    if let Some(mut p) = world.get_mut::<HexPos>(entity) {
        p.0 = at;
    }
    if let Some(mut f) = world.get_mut::<Facing>(entity) {
        f.0 = facing;
    }
    Ok(())
}

/// Takes the unit of `entity` out of the battle: it has left (escaped), takes no more
/// turns and is no one's target; a chase it was in is over.
pub fn remove(world: &mut World, entity: Entity) -> Result<(), String> {
    let (u, _, mut st) = unit(world, entity)?;
    may_leave(world, u)?;
    st.condition = Condition::Escaped;
    store(world, entity, st);
    left_fight(world, u);
    end_chase_of(world, u);
    Ok(())
}

/// A unit the GM brought in joins: every side sees it if it is a character, none until a
/// sweep finds it if it is a ship ("Ship Detection"), as at the battle's start; it rolls
/// initiative with everyone from the next round ("Combat Actions", Initiative).
pub fn join(world: &mut World, entity: Entity, _unit: UnitId) -> Result<(), String> {
    let (_, sheet, mut st) = unit(world, entity)?;
    let sides = world
        .get_resource::<Fight>()
        .map_or(0, |f| f.side_ids.len());
    st.seen_by = vec![!sheet.is_ship(); sides];
    if let Some(p) = world.get::<HexPos>(entity) {
        st.pos = p.0;
    }
    store(world, entity, st);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::{BattleEvent, GmChange, OutcomeKind};
    use crate::session::Session;

    /// A session of a shipped Main Sequence scenario.
    fn session(file: &str, seed: u64) -> Session {
        crate::rules::testing::shipped(file, seed)
    }

    fn entity(s: &Session, u: UnitId) -> Entity {
        crate::rules::testing::entity(s, u)
    }

    fn state(s: &Session, u: UnitId) -> UnitState {
        s.world
            .get::<UnitState>(entity(s, u))
            .cloned()
            .unwrap_or_else(|| panic!("no state for {u:?}"))
    }

    fn standing(s: &Session, u: UnitId) -> Standing {
        crate::rules::testing::standing(s, u)
    }

    fn field(s: &Session, u: UnitId, key: &str) -> GmField {
        fields(&s.world, entity(s, u))
            .into_iter()
            .find(|f| f.key == key)
            .unwrap_or_else(|| panic!("no field {key}"))
    }

    fn set_to(s: &mut Session, u: UnitId, key: &str, value: i32) -> Result<String, String> {
        s.gm_edit(
            u,
            &GmChange::Set {
                key: key.into(),
                value,
                force: false,
            },
            "test",
        )
    }

    /// Steps until `seen` holds of the log, at most `steps` steps; true when it did.
    fn step_until(s: &mut Session, steps: usize, seen: impl Fn(&Session) -> bool) -> bool {
        for _ in 0..steps {
            if seen(s) {
                return true;
            }
            if s.outcome().is_some() {
                return false;
            }
            s.step();
        }
        seen(s)
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

    /// An open hex on the map next to unit `u` that no unit holds.
    fn free_hex_near(s: &mut Session, u: UnitId) -> Hex {
        let here = state(s, u).pos;
        let mut q = s.world.query::<&HexPos>();
        let held: Vec<Hex> = q.iter(&s.world).map(|p| p.0).collect();
        let map = s.world.resource::<crate::hexmap::HexMap>();
        here.ring(1)
            .find(|h| map.contains(*h) && map.move_cost(*h).is_some() && !held.contains(h))
            .unwrap_or_else(|| panic!("no free hex near {here:?}"))
    }

    const REE: UnitId = UnitId(0);
    const BOB: UnitId = UnitId(1);

    /// Hit Points: set within 0 to the sheet's (main-sequence.txt, "Damage": never below
    /// zero), logged with the reason; above the sheet's only forced, and never past
    /// [`FORCED_HP_FACTOR`] times it.
    #[test]
    fn hit_points_are_bounded_and_forced_past_the_sheet() {
        let mut s = session("ms-corridor.ron", 3);
        let GmValue::Number { now, max, .. } = field(&s, REE, "hp").value else {
            panic!("hp is a number");
        };
        assert_eq!(now, max);
        let words = s
            .gm_edit(
                REE,
                &GmChange::Set {
                    key: "hp".into(),
                    value: 5,
                    force: false,
                },
                "grazed by a ricochet",
            )
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(words, format!("HP {max} -> 5"));
        assert_eq!(state(&s, REE).hp, 5);
        assert!(
            s.log_text()
                .contains(&format!("GM: Ree HP {max} -> 5, grazed by a ricochet")),
            "{}",
            s.log_text()
        );
        assert!(set_to(&mut s, REE, "hp", -1).is_err());
        let unforced = set_to(&mut s, REE, "hp", max + 1).unwrap_err();
        assert!(unforced.contains("force"), "{unforced}");
        assert_eq!(state(&s, REE).hp, 5);
        let forced = GmChange::Set {
            key: "hp".into(),
            value: max + 3,
            force: true,
        };
        assert!(s.gm_edit(REE, &forced, "stim pack").is_ok());
        assert_eq!(state(&s, REE).hp, max + 3);
        let too_far = GmChange::Set {
            key: "hp".into(),
            value: max * FORCED_HP_FACTOR + 1,
            force: true,
        };
        assert!(s.gm_edit(REE, &too_far, "").is_err());
        assert_eq!(standing(&s, REE), Standing::Fighting);
    }

    /// "Knockout and Death": a character set to 0 Hit Points is dying, with Soldier rounds
    /// to live, and out of the fight; knocked out instead by the condition field; back in
    /// the fight with at least 1 Hit Point; once dead, nothing brings it back.
    #[test]
    fn zero_hit_points_is_dying_and_the_dead_stay_dead() {
        let mut s = session("ms-corridor.ron", 3);
        let guard = UnitId(3);
        assert!(set_to(&mut s, guard, "hp", 0).is_ok());
        let st = state(&s, guard);
        assert_eq!(st.hp, 0);
        assert_eq!(
            st.condition,
            Condition::Dying {
                rounds: 4,
                attempts: 0
            }
        );
        assert_eq!(standing(&s, guard), Standing::Unconscious);
        assert!(s.log_text().contains("GM: Guard 1 HP 10 -> 0, test"));
        assert!(set_to(&mut s, guard, "state", 1).is_ok());
        assert_eq!(state(&s, guard).condition, Condition::KnockedOut);
        assert!(
            s.log_text()
                .contains("GM: Guard 1 Condition dying -> knocked out, test")
        );
        assert!(set_to(&mut s, guard, "state", 0).is_ok());
        assert_eq!(state(&s, guard).hp, 1);
        assert_eq!(standing(&s, guard), Standing::Fighting);
        assert!(set_to(&mut s, guard, "hp", 6).is_ok());
        assert!(set_to(&mut s, guard, "state", 4).is_ok());
        assert_eq!(state(&s, guard).hp, 0);
        assert_eq!(standing(&s, guard), Standing::Dead);
        assert!(set_to(&mut s, guard, "hp", 5).is_err());
        let back = set_to(&mut s, guard, "state", 0).unwrap_err();
        assert!(back.contains("dead"), "{back}");
        assert!(set_to(&mut s, guard, "state", 6).is_err());
    }

    /// Edge within the sheet's ("Using Edge"), Nimble dodges ("Tags"), and the conditions
    /// the fight keeps: blinded for two turns as by a flash-bang (the gear table's note),
    /// ducked ("Combat Actions", Movement) and an action owed (Parrying).
    #[test]
    fn edge_dodges_and_conditions() {
        let mut s = session("ms-corridor.ron", 3);
        let GmValue::Number { max: edge, .. } = field(&s, REE, "edge").value else {
            panic!("edge is a number");
        };
        assert!(set_to(&mut s, REE, "edge", 0).is_ok());
        assert_eq!(state(&s, REE).edge, 0);
        assert!(set_to(&mut s, REE, "edge", edge + 1).is_err());
        assert!(
            fields(&s.world, entity(&s, UnitId(3)))
                .iter()
                .all(|f| f.key != "edge")
        );
        assert!(set_to(&mut s, BOB, "nimble", 0).is_ok());
        assert_eq!(state(&s, BOB).nimble, 0);
        assert!(set_to(&mut s, BOB, "nimble", 2).is_err());
        assert!(set_to(&mut s, BOB, "blinded", 1).is_ok());
        assert_eq!(state(&s, BOB).blind, FLASH_BLIND_ROUNDS);
        assert_eq!(field(&s, BOB, "blinded").value, GmValue::Flag(true));
        assert!(s.log_text().contains("GM: Bob Blinded off -> on, test"));
        assert!(set_to(&mut s, BOB, "blinded", 0).is_ok());
        assert_eq!(state(&s, BOB).blind, 0);
        assert!(set_to(&mut s, BOB, "blinded", 2).is_err());
        assert!(set_to(&mut s, BOB, "ducked", 1).is_ok());
        assert!(state(&s, BOB).ducked);
        assert!(set_to(&mut s, BOB, "forfeit", 1).is_ok());
        assert!(state(&s, BOB).forfeit);
        assert!(set_to(&mut s, BOB, "shields", 1).is_err());
        // Bob forfeits his first action for it: a note says so when his turn comes.
        let forfeits = |s: &Session| {
            s.log().entries.iter().any(|e| {
                matches!(&e.event, BattleEvent::Note { unit: Some(u), text }
                    if *u == BOB && text.starts_with("forfeits this action"))
            })
        };
        assert!(!forfeits(&s));
        assert!(step_until(&mut s, 400, forfeits));
        assert!(!state(&s, BOB).forfeit);
    }

    /// Every guard put out of the fight by the GM (dying, dead, knocked out, removed): each
    /// one's standing is out, and the battle ends in the crew's victory.
    #[test]
    fn putting_every_guard_out_ends_the_battle() {
        let mut s = session("ms-corridor.ron", 5);
        for _ in 0..6 {
            s.step();
        }
        assert!(set_to(&mut s, UnitId(3), "hp", 0).is_ok());
        assert!(set_to(&mut s, UnitId(4), "state", 4).is_ok());
        assert!(set_to(&mut s, UnitId(5), "state", 1).is_ok());
        for u in [UnitId(6), UnitId(7)] {
            if let Err(e) = s.gm_edit(u, &GmChange::Remove, "runs off") {
                // Only a unit the battle is busy with may be refused.
                assert!(e.contains("cannot leave the fight now"), "{e}");
                s.step();
                assert!(s.gm_edit(u, &GmChange::Remove, "runs off").is_ok());
            }
            assert_eq!(standing(&s, u), Standing::Escaped);
            assert_eq!(state(&s, u).condition, Condition::Escaped);
        }
        assert!(
            s.log_text()
                .contains("GM: Guard 4 is taken out of the fight, runs off")
        );
        assert!(s.gm_edit(UnitId(7), &GmChange::Remove, "").is_err());
        assert_eq!(s.run(), Some(OutcomeKind::Victory { side: 0 }));
    }

    /// A unit removed takes no more turns; the battle runs to its end.
    #[test]
    fn a_removed_unit_takes_no_more_turns() {
        let mut s = session("ms-corridor.ron", 7);
        let guard = UnitId(4);
        assert!(s.gm_edit(guard, &GmChange::Remove, "called away").is_ok());
        let before = s.log().entries.len();
        assert!(s.run().is_some());
        assert!(!acts(&s.log().entries[before..], guard));
    }

    /// A player's unit taken out while the battle waits for its turn's decision: its turn
    /// ends, the battle moves on without it and runs to its end.
    #[test]
    fn removing_the_unit_awaited_moves_the_battle_on() {
        let mut s = session("ms-corridor.ron", 3);
        s.set_autopilot(false);
        let awaited = |s: &Session| {
            let fight = s.world.resource::<Fight>();
            s.world
                .resource::<TurnState>()
                .awaiting
                .filter(|u| fight.prompt.is_none() && fight.turn.is_some_and(|t| t.unit == *u))
        };
        assert!(step_until(&mut s, 200, |s| awaited(s).is_some()));
        let Some(u) = awaited(&s) else {
            panic!("no turn awaited");
        };
        assert!(s.gm_edit(u, &GmChange::Remove, "leaves").is_ok());
        assert_eq!(s.world.resource::<TurnState>().awaiting, None);
        let before = s.log().entries.len();
        s.set_autopilot(true);
        assert!(s.run().is_some());
        assert!(!acts(&s.log().entries[before..], u));
    }

    /// An attack in progress against a unit keeps it in the fight until resolved: the GM's
    /// removal is refused with the reason, and goes through once the attack is over.
    #[test]
    fn a_unit_under_attack_cannot_leave_until_it_is_resolved() {
        let mut s = session("ms-corridor.ron", 3);
        let target = |s: &Session| {
            s.world
                .get_resource::<Fight>()
                .and_then(|f| f.attack.as_ref())
                .and_then(|a| a.targets.first().copied())
        };
        assert!(step_until(&mut s, 2000, |s| target(s).is_some()));
        let Some(t) = target(&s) else {
            panic!("no attack");
        };
        let why = s.gm_edit(t, &GmChange::Remove, "").unwrap_err();
        assert!(why.contains("attack in progress"), "{why}");
        assert!(set_to(&mut s, t, "hp", 0).is_err());
        assert_eq!(standing(&s, t), Standing::Fighting);
        assert!(step_until(&mut s, 100, |s| target(s).is_none()));
        if standing(&s, t) == Standing::Fighting {
            assert!(s.gm_edit(t, &GmChange::Remove, "").is_ok());
        }
        assert!(s.run().is_some());
    }

    /// Place: the unit's own position (which the range bands are counted from) moves with
    /// the map's; the battle still runs to its end.
    #[test]
    fn placing_moves_the_units_own_position() {
        let mut s = session("ms-corridor.ron", 3);
        let words = s
            .gm_edit(
                REE,
                &GmChange::Place {
                    at: (5, 2),
                    facing: 0,
                },
                "pushed",
            )
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(words, "moved from (0, 3) to (5, 2) facing 0");
        assert_eq!(state(&s, REE).pos, Hex::new(5, 2));
        assert_eq!(
            s.world.get::<HexPos>(entity(&s, REE)).map(|p| p.0),
            Some(Hex::new(5, 2))
        );
        assert!(
            s.log_text()
                .contains("GM: Ree moved from (0, 3) to (5, 2) facing 0, pushed")
        );
        assert!(
            s.gm_edit(
                REE,
                &GmChange::Place {
                    at: (7, 5),
                    facing: 0
                },
                ""
            )
            .is_err()
        );
        assert!(s.run().is_some());
    }

    /// Add: a copy of a guard joins mid-round, seen by every side like any character,
    /// rolls initiative from the next round ("Combat Actions", Initiative) and takes turns.
    #[test]
    fn an_added_guard_takes_turns() {
        let mut s = session("ms-corridor.ron", 3);
        assert!(step_until(&mut s, 200, |s| s.round() == 1 && took_a_turn(s, REE)));
        let at = free_hex_near(&mut s, UnitId(3));
        let add = GmChange::Add {
            name: "Guard 5".into(),
            at: (at.x, at.y),
            facing: 3,
        };
        if let Err(e) = s.gm_edit(UnitId(3), &add, "reinforcements") {
            panic!("{e}");
        }
        let new = UnitId(8);
        assert_eq!(s.roster().units.len(), 9);
        assert_eq!(s.roster().name(new), "Guard 5");
        assert_eq!(state(&s, new).seen_by, vec![true, true]);
        assert_eq!(state(&s, new).pos, at);
        assert!(s.log_text().contains(&format!(
            "GM: Guard 5 joins the fight at ({}, {}), a copy of Guard 1, reinforcements",
            at.x, at.y
        )));
        assert!(step_until(&mut s, 2000, |s| took_a_turn(s, new)));
        assert!(s.run().is_some());
    }

    /// A ship set to 0 Hit Points is destroyed with all hands ("Ship Destruction"), its
    /// standing says so and the battle ends; shields keep to the sheet's; failed systems
    /// are set and cleared ("Optional Rule: Systems Failure").
    #[test]
    fn a_ship_at_zero_is_destroyed_with_all_hands() {
        let mut s = session("ms-valkyrie-katath.ron", 1);
        let (valkyrie, katath) = (UnitId(0), UnitId(1));
        assert!(set_to(&mut s, valkyrie, "weapons", 1).is_ok());
        assert_eq!(state(&s, valkyrie).failed, vec![System::Weapons]);
        assert!(
            s.log_text()
                .contains("GM: ISS Valkyrie Weapons failed off -> on")
        );
        assert!(set_to(&mut s, valkyrie, "weapons", 0).is_ok());
        assert!(state(&s, valkyrie).failed.is_empty());
        assert!(set_to(&mut s, valkyrie, "blinded", 1).is_err());
        if let Some(GmValue::Number { max, .. }) = fields(&s.world, entity(&s, valkyrie))
            .iter()
            .find(|f| f.key == "shields")
            .map(|f| f.value)
        {
            assert!(set_to(&mut s, valkyrie, "shields", max + 1).is_err());
            assert!(set_to(&mut s, valkyrie, "shields", 0).is_ok());
            assert_eq!(state(&s, valkyrie).shields, 0);
        }
        assert!(set_to(&mut s, katath, "hp", 0).is_ok());
        let st = state(&s, katath);
        assert_eq!(st.condition, Condition::Destroyed);
        assert!(st.crew.iter().all(|c| c.condition == Condition::Dead));
        assert_eq!(standing(&s, katath), Standing::Destroyed);
        assert!(set_to(&mut s, katath, "state", 0).is_err());
        assert_eq!(s.run(), Some(OutcomeKind::Victory { side: 0 }));
    }

    /// "Chase Rules": the two of a chase are not placed on the map; removing the quarry
    /// ends the chase without its escape, and the pursuer holds the field.
    #[test]
    fn the_chase_keeps_its_band_and_a_removed_quarry_has_not_escaped() {
        let mut s = session("ms-ship-chase.ron", 2);
        let (magpie, vigilant) = (UnitId(0), UnitId(1));
        let why = s
            .gm_edit(
                magpie,
                &GmChange::Place {
                    at: (0, 2),
                    facing: 0,
                },
                "",
            )
            .unwrap_err();
        assert!(why.contains("Chase Rules"), "{why}");
        s.step();
        if s.gm_edit(magpie, &GmChange::Remove, "jumps out").is_err() {
            s.step();
            assert!(s.gm_edit(magpie, &GmChange::Remove, "jumps out").is_ok());
        }
        assert!(s.world.resource::<Fight>().chase.is_none());
        assert_eq!(standing(&s, magpie), Standing::Escaped);
        let side = s.roster().units[vigilant.0 as usize].side;
        assert_eq!(s.run(), Some(OutcomeKind::Victory { side }));
    }
}
