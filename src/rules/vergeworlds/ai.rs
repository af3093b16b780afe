//! The AI's stated policy for Vergeworlds:
//! - Attitude: Committed for a ranged shot from cover or a mook's attack; Powerful in melee
//!   with Breath to spare; Cautious when badly hurt; otherwise Neutral.
//! - At high speed: steer toward the nearest foe, slowing to stop next to it.
//! - Get up when prone; draw a holstered weapon; reload an empty one.
//! - Shoot the nearest visible foe (Careful Aim when it has not moved), or strike a foe in
//!   reach; throw a grenade at a group of two or more foes out of reach of friends.
//! - Otherwise close in: walk, then run, toward the nearest foe; riflemen first step into
//!   cover within Base Move that still sees a foe.
//! - Recover Breath when out of it and no foe is within reach.
//! - One action a turn (two when the first was a free-standing step).
//! - Defense: duck behind cover when in it, dive prone against shots in the open, retreat
//!   from blows when the attitude allows; no defense once two actions are borrowed.
//! - Mana: raise a missed attack or beaten defense when up to +4 saves it; make the
//!   Penetration Limit roll 2 when the blow would take the character out or is penetrating
//!   to the body.

use super::combat::Location;
use super::fight::{Action, Attack, DefenseKind, Fight, ManaChoice, Prompt};
use super::fight::{Board, VwUnits};
use super::injury::{self, Blow, Hurt};
use super::sheet::WeaponKind;
use super::vector::{self, Steer};
use crate::battle::UnitId;
use crate::hexmap::Terrain;
use hexx::Hex;
use std::borrow::Borrow;

/// The AI's decision for `u`.
pub fn choose(f: &Board<impl Borrow<Fight>, impl VwUnits>, u: UnitId) -> Action {
    if let Some(p) = f.prompt {
        return answer(f, p);
    }
    let pick = turn(f, u);
    if f.check(u, &pick).is_ok() {
        pick
    } else {
        Action::EndTurn
    }
}

fn answer(f: &Board<impl Borrow<Fight>, impl VwUnits>, p: Prompt) -> Action {
    match p {
        Prompt::Defend(u) => Action::Defense(match &f.pending {
            Some(p) => defense(f, u, p.attacker, p.attack.weapon),
            None => DefenseKind::Normal,
        }),
        Prompt::ManaAttack(u) | Prompt::ManaDefense(u) => {
            let Some(pd) = &f.pending else {
                return Action::Mana(ManaChoice::Keep);
            };
            if f.state(u).mana == 0 {
                return Action::Mana(ManaChoice::Keep);
            }
            let Some(r) = pd.rolls.first() else {
                return Action::Mana(ManaChoice::Keep);
            };
            let need = match p {
                Prompt::ManaAttack(_) => r.target.unwrap_or(0) - r.total,
                // Raise the defense until the attack fails.
                _ => r.total - r.target.unwrap_or(0) + 1,
            };
            if (1..=4).contains(&need) {
                Action::Mana(ManaChoice::Adjust(need))
            } else {
                Action::Mana(ManaChoice::Keep)
            }
        }
        Prompt::ManaLimit(u) => {
            let Some(pd) = &f.pending else {
                return Action::Mana(ManaChoice::Keep);
            };
            let Some(super::fight::LimitRoll {
                loc,
                roll: raw,
                limit,
            }) = pd.limit
            else {
                return Action::Mana(ManaChoice::Keep);
            };
            let w = f.weapon(pd.attacker, pd.attack.weapon);
            let s = f.sheet(u);
            let b = injury::blow(
                pd.pen.unwrap_or(0.0),
                limit,
                raw,
                w.wound,
                s.wound_limit,
                s.susceptibility,
            );
            if fix_limit(f, u, &b, loc) {
                Action::Mana(ManaChoice::FixLimit)
            } else {
                Action::Mana(ManaChoice::Keep)
            }
        }
    }
}

/// Whether to spend Mana making the Penetration Limit roll 2 against blow `b` at `loc`.
pub fn fix_limit(
    f: &Board<impl Borrow<Fight>, impl VwUnits>,
    u: UnitId,
    b: &Blow,
    loc: Location,
) -> bool {
    let mut after = f.state(u).injuries.clone();
    for (k, &sc) in b.scores.iter().enumerate() {
        injury::record(
            &mut after,
            injury::Injury {
                score: sc,
                location: loc,
                penetrating: b.penetrating && k == 0,
            },
        );
    }
    injury::major_state(&after) != Hurt::Fighting || (b.penetrating && !loc.limb())
}

/// How `u` defends against an attack by `attacker` with its weapon `weapon`: duck behind
/// cover when in it, dive prone against shots in the open (not a swordsman), retreat from
/// melee — each only when [`Board::defense_allowed`] allows it, as a player's answer
/// (a retreat needs a free hex behind); otherwise a plain defense.
pub fn defense(
    f: &Board<impl Borrow<Fight>, impl VwUnits>,
    u: UnitId,
    attacker: UnitId,
    weapon: Option<usize>,
) -> DefenseKind {
    let s = f.state(u);
    if s.borrowed >= 2 && s.free_defenses == 0 {
        return DefenseKind::None;
    }
    let melee = f.weapon_ref(attacker, weapon).melee();
    let in_cover = f
        .map
        .as_ref()
        .and_then(|m| m.terrain(s.pos))
        .and_then(Terrain::cover)
        .is_some();
    let first = if melee {
        DefenseKind::Retreat
    } else if in_cover {
        DefenseKind::DuckCover
    } else if f.sheet(u).weapons.iter().all(|w| w.melee()) {
        return DefenseKind::Normal; // a swordsman does not throw himself down
    } else {
        DefenseKind::DiveProne
    };
    if f.defense_allowed(u, attacker, weapon, first).is_ok() {
        first
    } else {
        DefenseKind::Normal
    }
}

fn nearest(
    f: &Board<impl Borrow<Fight>, impl VwUnits>,
    u: UnitId,
    pred: impl Fn(UnitId) -> bool,
) -> Option<UnitId> {
    // Each foe's distance worked out once (the comparison is the same: distance, then
    // the lower unit number; foes come in unit order, so the first nearest is kept).
    let mut best: Option<(UnitId, f64)> = None;
    for e in f.foes(u).filter(|&e| pred(e)) {
        let d = f.distance(u, e);
        if best.is_none_or(|(b, bd)| d.total_cmp(&bd).then(e.0.cmp(&b.0)).is_lt()) {
            best = Some((e, d));
        }
    }
    best.map(|(e, _)| e)
}

fn turn(f: &Board<impl Borrow<Fight>, impl VwUnits>, u: UnitId) -> Action {
    let s = f.state(u);
    let sheet = f.sheet(u);
    let Some(foe) = nearest(f, u, |_| true) else {
        return Action::EndTurn;
    };
    let hurt = s.injuries.iter().map(|i| i.score).max().unwrap_or(0);
    let melee_weapon = sheet
        .weapons
        .iter()
        .enumerate()
        .filter(|(_, w)| w.melee())
        .max_by(|a, b| {
            a.1.pen_rs
                .unwrap_or(0.0)
                .total_cmp(&b.1.pen_rs.unwrap_or(0.0))
        })
        .map(|(i, _)| i);
    let ranged = sheet
        .weapons
        .iter()
        .enumerate()
        .find(|(_, w)| w.kind == WeaponKind::Ranged)
        .map(|(i, _)| i);
    let grenade = sheet
        .weapons
        .iter()
        .enumerate()
        .find(|(i, w)| w.frag.is_some() && s.loaded.get(*i).copied().flatten() != Some(0))
        .map(|(i, _)| i);
    let adjacent = nearest(f, u, |e| f.distance(u, e) <= 1.5);
    if !s.attitude_chosen && !s.turn_begun() {
        let a = if hurt >= 7 {
            super::combat::Attitude::Cautious
        } else if adjacent.is_some() && melee_weapon.is_some() && s.breath > 3 && !sheet.mook {
            super::combat::Attitude::Powerful
        } else if sheet.mook || (ranged.is_some() && adjacent.is_none()) {
            super::combat::Attitude::Committed
        } else {
            super::combat::Attitude::Neutral
        };
        return Action::Attitude(a);
    }
    // In the air: fly toward the foe first.
    if f.flying(u) && !s.steered {
        return Action::Fly(fly_toward(f, u, foe));
    }
    // High speed: steer toward the foe first.
    if let Some(v) = s.vector
        && !s.steered
    {
        return Action::Steer(steer_toward(f, u, v, f.state(foe).pos));
    }
    if s.actions >= 1 {
        return Action::EndTurn;
    }
    if s.prone {
        return Action::GetUp;
    }
    if s.breath <= 0 && adjacent.is_none() && s.breath < sheet.stamina {
        return Action::Recovery;
    }
    // A throw right after stopping a foe's blow, for a grappler.
    if let Some(t) = s.defended_against.and_then(|e| f.unit_of(e))
        && sheet.skills.grapple > 0
        && sheet.skills.grapple >= sheet.skills.fight
    {
        let throw = Action::Grapple {
            target: t,
            mode: super::fight::GrappleMode::Throw,
        };
        if f.check(u, &throw).is_ok() {
            return throw;
        }
    }
    // Melee when a foe is in reach and a melee weapon (or fists) is at hand.
    if let Some(t) = adjacent
        && (melee_weapon.is_some() || ranged.is_none())
    {
        if let Some(w) = melee_weapon
            && !s.drawn.get(w).copied().unwrap_or(true)
        {
            return Action::Draw(w);
        }
        if let Some(a) = blow(f, u, melee_weapon, t) {
            return a;
        }
    }
    // A grenade at a cluster.
    if let Some(g) = grenade {
        let w = &sheet.weapons[g];
        for e in f.foes(u) {
            let at = f.state(e).pos;
            let foes = f
                .foes(u)
                .filter(|&x| f.state(x).pos.unsigned_distance_to(at) <= 2)
                .count();
            let friends = f
                .ids()
                .filter(|&x| {
                    f.fighting(x)
                        && f.side(x) == f.side(u)
                        && f.state(x).pos.unsigned_distance_to(at) <= super::fight::FRAG_RADIUS
                })
                .count();
            let d = f.state(u).pos.unsigned_distance_to(at) as f64;
            if foes >= 2 && friends == 0 && w.max_range.is_none_or(|m| d <= m) {
                let act = Action::AreaFire {
                    weapon: g,
                    at: (at.x, at.y),
                    shots: 1,
                };
                if f.check(u, &act).is_ok() {
                    return act;
                }
            }
        }
    }
    if let Some(w) = ranged {
        let weapon = &sheet.weapons[w];
        if !s.drawn.get(w).copied().unwrap_or(true) {
            return Action::Draw(w);
        }
        if s.loaded.get(w).copied().flatten() == Some(0) {
            if f.check(u, &Action::Reload(w)).is_ok() {
                return Action::Reload(w);
            }
        } else if let Some(t) = nearest(f, u, |e| f.sees(u, e)) {
            // Step into cover first, if it is near and still sees the foe.
            if s.moved == 0
                && let Some(c) = cover_spot(f, u, t)
            {
                return Action::Move((c.x, c.y));
            }
            let careful = s.moved <= 1 && !s.ran;
            let shots = if weapon.rof > 1 && f.distance(u, t) > 3.0 {
                weapon
                    .rof
                    .min(s.loaded.get(w).copied().flatten().unwrap_or(weapon.rof))
            } else {
                1
            };
            let a = Attack {
                weapon: Some(w),
                target: t,
                aim: Location::Chest,
                careful: careful && shots == 1,
                shots,
                effort: 0,
            };
            if f.check(u, &Action::Attack(a)).is_ok() {
                return Action::Attack(a);
            }
            let a = Attack {
                careful: false,
                shots: 1,
                ..a
            };
            if f.check(u, &Action::Attack(a)).is_ok() {
                return Action::Attack(a);
            }
        }
    }
    // At high speed the vector moves the character: a walk or a run would be refused
    // (the turn ends), so without a foe in reach there is no way to look for.
    if s.vector.is_some() && adjacent.is_none() {
        return Action::EndTurn;
    }
    // Close in.
    let goal = f.state(foe).pos;
    if let Some(h) = approach(f, u, goal, sheet.base_move.saturating_sub(s.moved))
        && h != s.pos
    {
        return Action::Move((h.x, h.y));
    }
    if !s.ran
        && let Some(h) = approach(f, u, goal, (sheet.maneuver / 2).max(sheet.base_move))
        && h != s.pos
    {
        let run = Action::Run((h.x, h.y));
        if f.check(u, &run).is_ok() {
            return run;
        }
    }
    // Out of shots with a foe in reach: a blow with whatever is at hand.
    if let Some(t) = adjacent {
        let at_hand = melee_weapon.filter(|&w| s.drawn.get(w).copied().unwrap_or(true));
        if let Some(a) = blow(f, u, at_hand, t) {
            return a;
        }
    }
    Action::EndTurn
}

/// A plain blow of `u` at `t`'s chest with `weapon` (`None`: unarmed), if the rules allow it.
fn blow(
    f: &Board<impl Borrow<Fight>, impl VwUnits>,
    u: UnitId,
    weapon: Option<usize>,
    t: UnitId,
) -> Option<Action> {
    let a = Action::Attack(Attack {
        weapon,
        target: t,
        aim: Location::Chest,
        careful: false,
        shots: 1,
        effort: 0,
    });
    f.check(u, &a).is_ok().then_some(a)
}

/// A hex within `budget` steps on the way to a hex next to `goal`.
fn approach(
    f: &Board<impl Borrow<Fight>, impl VwUnits>,
    u: UnitId,
    goal: Hex,
    budget: u32,
) -> Option<Hex> {
    let map = f.map.as_ref()?;
    let from = f.state(u).pos;
    if from.unsigned_distance_to(goal) <= 1 || budget == 0 {
        return None;
    }
    let mut occupied: Vec<Hex> = Vec::with_capacity(f.count());
    occupied.extend(
        f.ids()
            .filter(|&o| o != u && f.fighting(o))
            .map(|o| f.state(o).pos),
    );
    let target = goal
        .all_neighbors()
        .into_iter()
        .filter(|h| map.move_cost(*h).is_some() && !occupied.contains(h))
        .min_by_key(|h| (h.unsigned_distance_to(from), h.x, h.y))?;
    let path = map.path(from, target, |h| {
        if occupied.contains(&h) {
            None
        } else {
            map.move_cost(h)
        }
    })?;
    let i = (budget as usize).min(path.len() - 1);
    path.get(i).copied()
}

/// A cover hex within Base Move that still sees `t`.
fn cover_spot(f: &Board<impl Borrow<Fight>, impl VwUnits>, u: UnitId, t: UnitId) -> Option<Hex> {
    let map = f.map.as_ref()?;
    let s = f.state(u);
    if map.terrain(s.pos).and_then(Terrain::cover).is_some() {
        return None;
    }
    let target = f.state(t).pos;
    // Whether another character still fighting stands on `h` (asked only of cover hexes).
    let occupied = |h: Hex| {
        f.ids()
            .any(|o| o != u && f.fighting(o) && f.state(o).pos == h)
    };
    let budget = f.sheet(u).base_move;
    let mut best: Option<Hex> = None;
    for r in 1..=budget {
        for h in s.pos.ring(r) {
            if map.terrain(h).and_then(Terrain::cover).is_some()
                && !occupied(h)
                && map.line_of_sight(h, target)
                && h.unsigned_distance_to(target) > 1
                && f.check(u, &Action::Move((h.x, h.y))).is_ok()
            {
                let better = best.is_none_or(|b| {
                    (h.unsigned_distance_to(s.pos), h.x, h.y)
                        < (b.unsigned_distance_to(s.pos), b.x, b.y)
                });
                if better {
                    best = Some(h);
                }
            }
        }
        if best.is_some() {
            break;
        }
    }
    best
}

/// A steer toward `goal`: turn the heading toward it (as far as the Maneuver pays), then
/// speed up while far and slow down to stop near it.
pub fn steer_toward(
    f: &Board<impl Borrow<Fight>, impl VwUnits>,
    u: UnitId,
    v: vector::Vector,
    goal: Hex,
) -> Steer {
    let sheet = f.sheet(u);
    let maneuver = sheet.maneuver as i32;
    let at = f.state(u).pos;
    let want = vector::heading_of(goal - at) as i32;
    let mut diff = (want - v.heading as i32).rem_euclid(6);
    if diff > 3 {
        diff -= 6;
    }
    let dist = at.unsigned_distance_to(goal) as i32;
    let speed = v.speed as i32;
    let mut plan = Steer::default();
    let turn_cost = speed.max(0);
    if diff != 0 && turn_cost <= maneuver {
        let n = (maneuver / turn_cost.max(1)).min(diff.abs());
        plan.turns = n * diff.signum();
    } else if diff != 0 {
        plan.drift = maneuver * diff.signum();
    }
    let used = vector::cost(&v, &plan) as i32;
    let left = maneuver - used;
    // Stop near the goal: the speed that arrives next turn.
    let desired = (dist - 1).clamp(0, sheet.top_speed as i32);
    let change = (desired - speed).clamp(-left, left);
    plan.accel = change;
    let top = sheet.top_speed as i32;
    if speed + plan.accel > top {
        plan.accel = top - speed;
    }
    plan
}

/// A flight toward `foe`: keep above the stall speed (dive when near it), dive on a foe
/// below, climb (powered) or fly level toward one above, turn toward it as the Maneuver
/// allows (drifting when a turn costs too much), full thrust while under the one-Breath
/// speed.
pub fn fly_toward(
    f: &Board<impl Borrow<Fight>, impl VwUnits>,
    u: UnitId,
    foe: UnitId,
) -> super::fight::Fly {
    let s = f.state(u);
    let sheet = f.sheet(u);
    let mut plan = super::fight::Fly::default();
    let power = sheet.flight.as_ref().map_or(0, |x| x.power);
    let flat = s.pos.unsigned_distance_to(f.state(foe).pos) as f64;
    if f.floater(u) {
        // A floater pushes toward the foe with all its thrust, if it has any.
        plan.thrust = power;
        return turn_toward(f, u, foe, flat, plan);
    }
    let Some(g) = f.glider(u) else {
        return plan;
    };
    let air = s.air.unwrap_or(super::flight::GlideState {
        speed: 0.0,
        altitude: s.alt,
        column: g.own_column(),
        stalled: false,
    });
    let stall = g.stall_speed(false);
    let dz = f.state(foe).alt - s.alt;
    let low = s.alt < 3.0 * air.speed.max(10.0);
    if (air.stalled || air.speed < stall * 1.3) && !low {
        plan.columns = -2;
    } else if air.stalled || air.speed < stall * 1.3 {
        // Too low to dive: fly level and, if powered, thrust.
        plan.level = true;
    } else if dz < -2.0 && -dz > flat * 0.3 && !low {
        plan.columns = -2;
    } else if dz > 2.0 && power > 0 {
        plan.climb = true;
        plan.columns = 1;
    } else if dz.abs() <= 2.0 && air.speed > stall * 1.6 {
        plan.level = true;
    }
    if power > 0 && air.speed < g.one_breath_speed(f64::from(power)) {
        plan.thrust = power;
    }
    if air.speed > g.optimum_speed() * 1.5 && s.alt - f.state(foe).alt < 3.0 {
        plan.flaps = sheet.flight.as_ref().map_or(0, |x| x.lift_aid as u8);
    }
    turn_toward(f, u, foe, flat, plan)
}

/// `plan` with the turns (or drifts) that head `u` toward `foe`, `flat` hexes away; over
/// the foe or about to leave the map, toward the middle of the map instead.
fn turn_toward(
    f: &Board<impl Borrow<Fight>, impl VwUnits>,
    u: UnitId,
    foe: UnitId,
    flat: f64,
    mut plan: super::fight::Fly,
) -> super::fight::Fly {
    let s = f.state(u);
    let v = s.vector.unwrap_or_default();
    // Over the foe, or about to leave the map: come round toward the middle of the map.
    let ahead = s.pos + v.offset();
    let leaving = f.map.as_ref().is_some_and(|m| !m.contains(ahead));
    let goal = if leaving || flat < 1.0 {
        middle_of_map(f).unwrap_or(f.state(foe).pos)
    } else {
        f.state(foe).pos
    };
    let want = vector::heading_of(goal - s.pos) as i32;
    let mut diff = (want - v.heading as i32).rem_euclid(6);
    if diff > 3 {
        diff -= 6;
    }
    let maneuver = f.sheet(u).maneuver;
    if diff != 0 {
        if v.speed <= maneuver && v.speed > 0 {
            plan.turns = (maneuver / v.speed).min(diff.unsigned_abs()) as i32 * diff.signum();
        } else if v.speed == 0 {
            plan.turns = diff;
        } else {
            plan.drift = maneuver as i32 * diff.signum();
        }
    }
    plan
}

/// The hex nearest the middle of the map ([`HexMap::middle`]).
fn middle_of_map(f: &Board<impl Borrow<Fight>, impl VwUnits>) -> Option<Hex> {
    f.map.as_ref()?.middle()
}
