//! The game master's hand edits of a GURPS fighter (`battle::gm`): what the GM may change
//! ([`fields`]), how a change is applied under the rules ([`set`]), taking a fighter out
//! ([`remove`]) and bringing a new one in ([`join`]).
//!
//! The fields: hit points and fatigue points (gurps-lite-and-socs.txt, "LOST HIT POINTS"
//! and "LOST FATIGUE POINTS"), stunned and mortally wounded ("INJURY"), and the posture
//! ("POSTURES", "CHANGE POSTURE"). GURPS keeps no position of its own (the map's `HexPos`
//! and `Facing` are the fighter's place), so moving a fighter is the contract's default.
//!
//! Decisions, each stated where it is applied:
//! - An edit is the GM's ruling, not an injury: it rolls no dice. Setting HP gives no
//!   shock, no major-wound roll and no HT rolls against death for the multiples of −HP it
//!   passes (the GM has judged them); only what the level itself decides follows: death at
//!   −5×HP, and at 0 HP or less the HT roll to stay conscious that the fighter's own turn
//!   makes anyway. Setting FP costs no HP: the GM sets HP apart.
//! - A dead fighter stays dead: the rules bring no one back, so every edit of one is
//!   refused. An unconscious fighter wakes only where the text says it does: when its FP
//!   become positive after fatigue put it out.
//! - The GM may force HP or FP up to [`FORCED_FACTOR`] times the sheet's maximum.

use super::combat::dead_outright;
use super::posture::Posture;
use super::sheet::Fighter;
use crate::battle::{GmField, GmValue, Roster, Standing, TurnState, UnitId};
use bevy::ecs::entity::Entity;
use bevy::ecs::world::World;
use std::borrow::Cow;

/// How far a forced change may raise HP or FP: this many times the sheet's maximum
/// (decision: the texts set no ceiling on extra hit points; twice the maximum keeps a typo
/// from making a fighter unkillable).
pub const FORCED_FACTOR: i32 = 2;

/// The postures as the GM panel names them, in [`Posture::ALL`] order.
pub const POSTURES: [&str; 6] = [
    "standing",
    "crouching",
    "kneeling",
    "sitting",
    "crawling",
    "lying",
];

/// What the GM may change on the fighter of `entity`: HP from −5×HP (dead, "LOST HIT
/// POINTS") to its maximum, FP from −1×FP (unconscious, "LOST FATIGUE POINTS") to its
/// maximum, both forced up to [`FORCED_FACTOR`] times the maximum; stunned and mortally
/// wounded ("INJURY"); the posture ("POSTURES"). Empty for an entity that is no fighter.
pub fn fields(world: &World, entity: Entity) -> Vec<GmField> {
    let Some(f) = world.get::<Fighter>(entity) else {
        return Vec::new();
    };
    let hp_max = f.sheet.hp_max.max(1);
    let fp_max = f.sheet.fp_max.max(1);
    let posture = Posture::ALL
        .iter()
        .position(|p| *p == f.posture)
        .unwrap_or(0);
    vec![
        GmField {
            key: "hp",
            label: Cow::Borrowed("HP"),
            value: GmValue::Number {
                now: f.hp,
                min: -5 * hp_max,
                max: hp_max,
                forced_max: Some(FORCED_FACTOR * hp_max),
            },
        },
        GmField {
            key: "fp",
            label: Cow::Borrowed("FP"),
            value: GmValue::Number {
                now: f.fp,
                min: -fp_max,
                max: fp_max,
                forced_max: Some(FORCED_FACTOR * fp_max),
            },
        },
        GmField {
            key: "stunned",
            label: Cow::Borrowed("Stunned"),
            value: GmValue::Flag(f.stunned),
        },
        GmField {
            key: "mortal",
            label: Cow::Borrowed("Mortally wounded"),
            value: GmValue::Flag(f.mortal),
        },
        GmField {
            key: "posture",
            label: Cow::Borrowed("Posture"),
            value: GmValue::Choice {
                now: posture,
                options: &POSTURES,
            },
        },
    ]
}

/// The name of the unit of `entity`, for a refusal.
fn name_of(world: &World, entity: Entity) -> String {
    match (world.get::<UnitId>(entity), world.get_resource::<Roster>()) {
        (Some(id), Some(roster)) => roster.name(*id).to_string(),
        _ => "this unit".to_string(),
    }
}

/// Sets field `key` (one of [`fields`]) of the fighter of `entity` to `value`, with what
/// the level decides under the rules:
/// - `hp`: at −5×HP or below the fighter dies ("LOST HIT POINTS"; [`dead_outright`]).
/// - `fp`: at −1×FP or below a fighter still in the fight falls unconscious; one that
///   fatigue put out (at −1×FP or below, not mortally wounded) wakes when its FP become
///   positive ("LOST FATIGUE POINTS").
/// - `stunned`: on or off ("INJURY", Stunned: Do Nothing, defenses −4, a HT roll at the
///   end of each turn to recover, which the turn makes).
/// - `mortal`: on takes a fighter still in the fight out, as a failed roll against death
///   by 1 or 2 does; off leaves it incapacitated ("INJURY", Mortal Wounds: even a
///   recovered one stays incapacitated).
/// - `posture`: any of [`POSTURES`], but not standing or crouching on a crippled leg
///   ([`Posture::needs_both_legs`]).
///
/// A dead fighter refuses every edit. A fighter the edit puts out of the fight gives up
/// the turn it was awaited for, so the battle goes on to the next one.
pub fn set(world: &mut World, entity: Entity, key: &str, value: i32) -> Result<(), String> {
    let name = name_of(world, entity);
    let Some(mut standing) = world.get::<Standing>(entity).copied() else {
        return Err(format!("{name} is not in this battle"));
    };
    if standing == Standing::Dead {
        return Err(format!("{name} is dead: the rules bring no one back"));
    }
    let Some(mut f) = world.get_mut::<Fighter>(entity) else {
        return Err(format!("{name} is not a GURPS fighter"));
    };
    let hp_max = f.sheet.hp_max.max(1);
    let fp_max = f.sheet.fp_max.max(1);
    match key {
        "hp" => {
            f.hp = value;
            if dead_outright(value, hp_max) {
                standing = Standing::Dead;
            }
        }
        "fp" => {
            let before = f.fp;
            f.fp = value;
            // Out with FP at 0 or less, HP above 0 and no mortal wound: out from fatigue,
            // which positive FP end (a fighter out from injuries or a blow stays out).
            if value <= -fp_max && standing.fighting() {
                standing = Standing::Unconscious;
            } else if standing == Standing::Unconscious
                && !f.mortal
                && f.hp > 0
                && before <= 0
                && value > 0
            {
                standing = Standing::Fighting;
            }
        }
        "stunned" => f.stunned = value != 0,
        "mortal" => {
            f.mortal = value != 0;
            if f.mortal && standing.fighting() {
                standing = Standing::Unconscious;
            }
        }
        "posture" => {
            let Some(posture) = usize::try_from(value)
                .ok()
                .and_then(|i| Posture::ALL.get(i).copied())
            else {
                return Err(format!("{value} is not a posture (0 to 5)"));
            };
            if posture.needs_both_legs() && f.lame() {
                return Err(format!("{name} has a crippled leg and cannot be {posture}"));
            }
            f.posture = posture;
        }
        _ => return Err(format!("GURPS has no field `{key}` to change")),
    }
    if let Some(mut s) = world.get_mut::<Standing>(entity)
        && *s != standing
    {
        *s = standing;
    }
    if !standing.fighting() {
        give_up_turn(world, entity);
    }
    Ok(())
}

/// Ends the turn the battle awaits from the unit of `entity`, if it does: the next turn
/// begins with the next fighter of the order (the turn system passes over fighters out of
/// the fight).
fn give_up_turn(world: &mut World, entity: Entity) {
    let Some(id) = world.get::<UnitId>(entity).copied() else {
        return;
    };
    if let Some(mut turn) = world.get_resource_mut::<TurnState>()
        && turn.awaiting == Some(id)
    {
        turn.awaiting = None;
    }
}

/// Takes the fighter of `entity` out of the fight: it leaves the battle (`Escaped`), is
/// passed over in the turn order, and counts as lost for its side's morale
/// (gurps-lite-and-socs.txt, "MORALE CHECKS": the fighters a side has lost); a turn
/// awaited from it ends.
pub fn remove(world: &mut World, entity: Entity) -> Result<(), String> {
    let Some(mut standing) = world.get_mut::<Standing>(entity) else {
        return Err(format!("{} is not in this battle", name_of(world, entity)));
    };
    *standing = Standing::Escaped;
    give_up_turn(world, entity);
    Ok(())
}

/// A fighter the GM brought in (`unit`, on `entity`) takes its place in the initiative
/// order as the battle's start would have given it: after every fighter of higher or equal
/// Basic Speed and DX, before every slower one (decision in
/// [`initiative_order`](super::initiative_order); ties go after those already in the
/// order, so no die is rolled). It acts this round if its place is still to come, else from
/// the next round. Before the first round the order is not drawn yet and takes it in.
pub fn join(world: &mut World, entity: Entity, unit: UnitId) -> Result<(), String> {
    let Some(key) = world
        .get::<Fighter>(entity)
        .map(|f| (f.sheet.speed_quarters, f.sheet.dx))
    else {
        return Err(format!("{} is not a GURPS fighter", name_of(world, entity)));
    };
    let Some(turn) = world.get_resource::<TurnState>() else {
        return Ok(());
    };
    if turn.round == 0 {
        return Ok(());
    }
    let roster = world.get_resource::<Roster>();
    let place = turn
        .order
        .iter()
        .position(|id| {
            roster
                .and_then(|r| r.entity(*id))
                .and_then(|e| world.get::<Fighter>(e))
                .is_some_and(|f| (f.sheet.speed_quarters, f.sheet.dx) < key)
        })
        .unwrap_or(turn.order.len());
    let mut turn = world.resource_mut::<TurnState>();
    turn.order.insert(place, unit);
    // Keep the cursor on the fighter acting now (or past the end once the round is over).
    if place < turn.cursor || (place == turn.cursor && (turn.awaiting.is_some() || turn.round_over))
    {
        turn.cursor += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::{BattleEvent, Facing, GmChange, HexPos};
    use crate::session::Session;

    const ALDRIC: UnitId = UnitId(0);
    const KNIGHT: UnitId = UnitId(1);

    /// A new battle of the shipped duel (Aldric against the Black Knight).
    fn duel(seed: u64) -> Session {
        crate::rules::testing::shipped("gurps-duel.ron", seed)
    }

    fn entity(s: &Session, id: UnitId) -> Entity {
        crate::rules::testing::entity(s, id)
    }

    fn fighter(s: &Session, id: UnitId) -> &Fighter {
        s.world.get::<Fighter>(entity(s, id)).expect("a fighter")
    }

    fn standing(s: &Session, id: UnitId) -> Standing {
        crate::rules::testing::standing(s, id)
    }

    fn set(key: &str, value: i32, force: bool) -> GmChange {
        GmChange::Set {
            key: key.to_string(),
            value,
            force,
        }
    }

    /// The fields and their bounds: HP from −5×HP to HP ("LOST HIT POINTS"), FP from
    /// −1×FP to FP ("LOST FATIGUE POINTS"), forced to twice the maximum.
    #[test]
    fn fields_carry_the_rules_bounds() {
        let s = duel(1);
        let fields = fields(&s.world, entity(&s, ALDRIC));
        let keys: Vec<&str> = fields.iter().map(|f| f.key).collect();
        assert_eq!(keys, ["hp", "fp", "stunned", "mortal", "posture"]);
        assert_eq!(
            fields[0].value,
            GmValue::Number {
                now: 12,
                min: -60,
                max: 12,
                forced_max: Some(24)
            }
        );
        assert_eq!(
            fields[1].value,
            GmValue::Number {
                now: 12,
                min: -12,
                max: 12,
                forced_max: Some(24)
            }
        );
    }

    /// HP within bounds changes the fighter and logs the GM line; below −5×HP or above the
    /// maximum unforced is refused; forced above the maximum is allowed up to twice it.
    #[test]
    fn hp_is_set_within_bounds_and_forced_above() {
        let mut s = duel(1);
        let words = s
            .gm_edit(KNIGHT, &set("hp", 6, false), "falling chandelier")
            .expect("within bounds");
        assert_eq!(words, "HP 13 -> 6");
        assert_eq!(fighter(&s, KNIGHT).hp, 6);
        assert!(
            s.log_text()
                .contains("GM: Black Knight HP 13 -> 6, falling chandelier"),
            "{}",
            s.log_text()
        );
        assert!(s.gm_edit(KNIGHT, &set("hp", -66, false), "x").is_err());
        assert!(s.gm_edit(KNIGHT, &set("hp", 20, false), "x").is_err());
        assert_eq!(fighter(&s, KNIGHT).hp, 6);
        s.gm_edit(KNIGHT, &set("hp", 20, true), "blessing")
            .expect("forced");
        assert_eq!(fighter(&s, KNIGHT).hp, 20);
        assert!(s.log_text().contains("HP 6 -> 20 (forced), blessing"));
        assert!(s.gm_edit(KNIGHT, &set("hp", 27, true), "x").is_err());
        assert_eq!(standing(&s, KNIGHT), Standing::Fighting);
    }

    /// "LOST HIT POINTS": at −5×HP the fighter dies at once; the battle is then decided
    /// by autopilot for the other side; a dead fighter takes no more edits.
    #[test]
    fn hp_at_minus_five_times_kills_and_the_battle_ends() {
        let mut s = duel(2);
        s.step();
        s.gm_edit(KNIGHT, &set("hp", -65, false), "crushed")
            .expect("the least the rules allow");
        assert_eq!(standing(&s, KNIGHT), Standing::Dead);
        assert!(
            s.gm_edit(KNIGHT, &set("hp", 5, false), "x")
                .unwrap_err()
                .contains("dead")
        );
        assert_eq!(
            s.run(),
            Some(crate::battle::OutcomeKind::Victory { side: 0 })
        );
    }

    /// "LOST HIT POINTS": a level above −5×HP is the GM's ruling with no roll: the fighter
    /// stays in the fight (its own turn rolls to stay conscious at 0 HP or less).
    #[test]
    fn hp_below_zero_leaves_the_rolls_to_the_turn() {
        let mut s = duel(3);
        s.gm_edit(ALDRIC, &set("hp", -13, false), "x").expect("ok");
        assert_eq!(standing(&s, ALDRIC), Standing::Fighting);
        assert_eq!(fighter(&s, ALDRIC).hp, -13);
        assert!(s.run().is_some());
    }

    /// "LOST FATIGUE POINTS": at −1×FP unconscious at once; awake again when FP become
    /// positive.
    #[test]
    fn fp_at_minus_fp_knocks_out_and_positive_fp_wakes() {
        let mut s = duel(4);
        s.gm_edit(ALDRIC, &set("fp", 2, false), "a long march")
            .expect("ok");
        assert_eq!(fighter(&s, ALDRIC).fp, 2);
        assert!(s.log_text().contains("GM: Aldric FP 12 -> 2, a long march"));
        assert!(s.gm_edit(ALDRIC, &set("fp", -13, false), "x").is_err());
        s.gm_edit(ALDRIC, &set("fp", -12, false), "x").expect("ok");
        assert_eq!(standing(&s, ALDRIC), Standing::Unconscious);
        s.gm_edit(ALDRIC, &set("fp", 0, false), "x").expect("ok");
        assert_eq!(standing(&s, ALDRIC), Standing::Unconscious);
        s.gm_edit(ALDRIC, &set("fp", 1, false), "rest").expect("ok");
        assert_eq!(standing(&s, ALDRIC), Standing::Fighting);
        // Out from injuries (HP 0 or less), positive FP do not wake him.
        s.gm_edit(ALDRIC, &set("fp", -12, false), "x").expect("ok");
        s.gm_edit(ALDRIC, &set("hp", -1, false), "x").expect("ok");
        s.gm_edit(ALDRIC, &set("fp", 5, false), "x").expect("ok");
        assert_eq!(standing(&s, ALDRIC), Standing::Unconscious);
        // Nor does more FP wake one out with FP to spare (a blow, a mortal wound healed).
        s.gm_edit(ALDRIC, &set("hp", 10, false), "x").expect("ok");
        s.gm_edit(ALDRIC, &set("fp", 6, false), "x").expect("ok");
        assert_eq!(standing(&s, ALDRIC), Standing::Unconscious);
        assert!(s.run().is_some());
    }

    /// "INJURY", Stunned and Mortal Wounds: stun is a flag the turn honours; a mortal wound
    /// takes the fighter out and clearing it does not bring it back.
    #[test]
    fn stun_and_mortal_wounds() {
        let mut s = duel(5);
        s.gm_edit(KNIGHT, &set("stunned", 1, false), "blinding flash")
            .expect("ok");
        assert!(fighter(&s, KNIGHT).stunned);
        assert!(
            s.log_text()
                .contains("GM: Black Knight Stunned off -> on, blinding flash")
        );
        assert!(s.gm_edit(KNIGHT, &set("stunned", 2, false), "x").is_err());
        s.gm_edit(KNIGHT, &set("stunned", 0, false), "x")
            .expect("ok");
        assert!(!fighter(&s, KNIGHT).stunned);
        s.gm_edit(ALDRIC, &set("mortal", 1, false), "poison")
            .expect("ok");
        assert!(fighter(&s, ALDRIC).mortal);
        assert_eq!(standing(&s, ALDRIC), Standing::Unconscious);
        s.gm_edit(ALDRIC, &set("mortal", 0, false), "x")
            .expect("ok");
        assert_eq!(standing(&s, ALDRIC), Standing::Unconscious);
        assert_eq!(
            s.run(),
            Some(crate::battle::OutcomeKind::Victory { side: 1 })
        );
    }

    /// "POSTURES": the GM may set any posture, but a fighter with a crippled leg cannot
    /// stand (decision in [`Posture::needs_both_legs`]).
    #[test]
    fn posture_is_a_choice_and_a_crippled_leg_refuses_standing() {
        let mut s = duel(6);
        s.gm_edit(ALDRIC, &set("posture", 5, false), "tripped")
            .expect("ok");
        assert_eq!(fighter(&s, ALDRIC).posture, Posture::Lying);
        assert!(
            s.log_text()
                .contains("GM: Aldric Posture standing -> lying, tripped")
        );
        assert!(s.gm_edit(ALDRIC, &set("posture", 6, false), "x").is_err());
        let e = entity(&s, ALDRIC);
        s.world
            .get_mut::<Fighter>(e)
            .expect("fighter")
            .crippled
            .push(super::super::location::HitLocation::RightLeg);
        let refused = s.gm_edit(ALDRIC, &set("posture", 0, false), "x");
        assert!(refused.unwrap_err().contains("crippled leg"));
        assert_eq!(fighter(&s, ALDRIC).posture, Posture::Lying);
        s.gm_edit(ALDRIC, &set("posture", 2, false), "x")
            .expect("kneeling");
        assert_eq!(fighter(&s, ALDRIC).posture, Posture::Kneeling);
    }

    /// Place moves the fighter on the map (GURPS keeps no position of its own) and the
    /// battle still runs to its end.
    #[test]
    fn place_moves_the_fighter() {
        let mut s = duel(7);
        s.step();
        s.gm_edit(
            KNIGHT,
            &GmChange::Place {
                at: (3, -3),
                facing: 2,
            },
            "swept downstream",
        )
        .expect("free hex");
        let e = entity(&s, KNIGHT);
        assert_eq!(
            s.world.get::<HexPos>(e).map(|p| p.0),
            Some(hexx::Hex::new(3, -3))
        );
        assert_eq!(
            s.world.get::<Facing>(e).map(|f| f.0),
            Some(hexx::EdgeDirection::ALL_DIRECTIONS[2])
        );
        assert!(s.log_text().contains("moved from"));
        assert!(s.run().is_some());
    }

    /// Remove: the fighter leaves (`Escaped`), takes no more turns, and the other side
    /// wins.
    #[test]
    fn remove_takes_the_fighter_out() {
        let mut s = duel(8);
        s.step();
        s.gm_edit(KNIGHT, &GmChange::Remove, "called away")
            .expect("ok");
        assert_eq!(standing(&s, KNIGHT), Standing::Escaped);
        let before = s.log().entries.len();
        assert_eq!(
            s.run(),
            Some(crate::battle::OutcomeKind::Victory { side: 0 })
        );
        let turns = s.log().entries[before..]
            .iter()
            .filter(|e| matches!(e.event, BattleEvent::TurnStarted { unit } if unit == KNIGHT))
            .count();
        assert_eq!(turns, 0);
    }

    /// A player's fighter removed while the battle awaits its command gives up the turn:
    /// the battle goes on to the other fighter instead of waiting for ever.
    #[test]
    fn remove_while_awaited_ends_its_turn() {
        let mut s = duel(9);
        s.set_autopilot(false);
        for _ in 0..20 {
            if s.world.resource::<TurnState>().awaiting == Some(ALDRIC) {
                break;
            }
            s.step();
        }
        assert_eq!(s.world.resource::<TurnState>().awaiting, Some(ALDRIC));
        s.gm_edit(ALDRIC, &GmChange::Remove, "fled").expect("ok");
        assert_eq!(s.world.resource::<TurnState>().awaiting, None);
        assert_eq!(
            s.run(),
            Some(crate::battle::OutcomeKind::Victory { side: 1 })
        );
    }

    /// Add: a copy of the Black Knight joins mid-battle at its place in the initiative
    /// order (Basic Speed, then DX) and takes turns.
    #[test]
    fn an_added_fighter_takes_turns() {
        let mut s = duel(10);
        s.step();
        s.step();
        assert!(s.round() >= 1);
        let words = s
            .gm_edit(
                KNIGHT,
                &GmChange::Add {
                    name: "Squire".into(),
                    at: (4, -2),
                    facing: 3,
                },
                "reinforcements",
            )
            .expect("added");
        assert!(words.contains("a copy of Black Knight"), "{words}");
        let squire = UnitId(2);
        assert_eq!(s.roster().name(squire), "Squire");
        assert!(s.world.resource::<TurnState>().order.contains(&squire));
        let mut acted = false;
        for _ in 0..200 {
            if s.outcome().is_some() {
                break;
            }
            s.step();
            acted = s.log().entries.iter().any(
                |e| matches!(&e.event, BattleEvent::ActionChosen { unit, .. } if *unit == squire),
            );
            if acted {
                break;
            }
        }
        assert!(acted, "{}", s.log_text());
        assert!(s.run().is_some());
    }

    /// The order takes a new fighter after every faster or equal one (Aldric, Basic
    /// Speed 6.25, before the Black Knight, 6) and, with Aldric's turn over and the
    /// Knight's to come, the twin's place is next.
    #[test]
    fn join_keeps_the_order_and_the_cursor() {
        let mut s = duel(11);
        s.step();
        {
            let t = s.world.resource::<TurnState>();
            assert_eq!(t.order, [ALDRIC, KNIGHT]);
            assert_eq!((t.cursor, t.awaiting), (1, None));
        }
        s.gm_edit(
            ALDRIC,
            &GmChange::Add {
                name: "Aldric's twin".into(),
                at: (-4, 1),
                facing: 0,
            },
            "x",
        )
        .expect("added");
        let twin = UnitId(2);
        let t = s.world.resource::<TurnState>();
        assert_eq!(t.order, [ALDRIC, twin, KNIGHT]);
        assert_eq!(t.cursor, 1);
        s.step();
        let last = s.log().entries.iter().rev().find_map(|e| match e.event {
            BattleEvent::TurnStarted { unit } => Some(unit),
            _ => None,
        });
        assert_eq!(last, Some(twin));
    }

    /// Once the round's last turn is over, a new fighter waits for the next round: the
    /// cursor stays past the end of the order.
    #[test]
    fn join_after_the_round_waits_for_the_next() {
        let mut s = duel(12);
        s.step();
        s.step();
        assert!(s.world.resource::<TurnState>().round_over);
        s.gm_edit(
            KNIGHT,
            &GmChange::Add {
                name: "Squire".into(),
                at: (4, -2),
                facing: 3,
            },
            "x",
        )
        .expect("added");
        let t = s.world.resource::<TurnState>();
        assert_eq!(t.order, [ALDRIC, KNIGHT, UnitId(2)]);
        assert_eq!(t.cursor, 3);
    }
}
