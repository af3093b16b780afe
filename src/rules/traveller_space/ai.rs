//! The GURPS Traveller space AI: a stated policy over the same decisions a player has.
//!
//! - Maneuver: among every end position its thrust reaches, the one that best keeps its
//!   chosen enemy (the nearest it can see, else the nearest) at the range where its mounts'
//!   expected damage is greatest ([`preferred_range`]), or, unarmed, at the range its
//!   missiles reach, while matching that enemy's velocity so as not to overshoot; the
//!   enemy is expected to coast. It stays in the battle area and off courses that leave
//!   it. A ship that breaks off (its side may flee and it has lost half its hull, or it has
//!   nothing to fight with) runs: it makes for the end position farthest from every enemy,
//!   fastest away, out of the area if it can, with its active sensors off. It never rams.
//! - Direct fire: each free mount fires at the detected enemy in range where its expected
//!   damage (exact chance to hit times mean damage through armor) is greatest; for each
//!   enemy missile that can reach it this turn it keeps a mount for point defense, the
//!   least useful first, when the damage that mount would save (its chance to shoot the
//!   missile down, times the missile's chance to strike, times its mean damage through
//!   armor) is at least what it would deal.
//! - Launch: as many missiles as its launchers allow at the detected enemy it would fire
//!   at, while that enemy is within the distance a missile covers in half its endurance.

use super::space::{Action, Phase, Shot, Space, Vessels};
use super::tables::effective_dr;
use super::vector;
use crate::battle::UnitId;
use hexx::Hex;

/// The chance that a GURPS success roll against `skill` succeeds (3–4 always, 17–18
/// never): [`crate::dice::success_chance`].
pub fn success_chance(skill: i32) -> f64 {
    crate::dice::success_chance(skill)
}

/// The expected hull damage of `u`'s mount `mount` firing at `t` now.
pub fn expected_damage(
    space: &Space,
    ships: &impl Vessels,
    u: UnitId,
    mount: usize,
    t: UnitId,
) -> f64 {
    let Some(m) = ships.sheet(u).mounts.get(mount) else {
        return 0.0;
    };
    let w = m.weapon;
    let p = success_chance(space.shot_total(ships, u, mount, t, false));
    let d = ships.distance(u, t);
    let mut dmg = w.mean_damage();
    if d > w.half_damage {
        dmg /= 2.0;
    }
    let through = (dmg - f64::from(effective_dr(ships.sheet(t).stats.dr, &w))).max(0.0);
    p * through
}

/// True when `u` breaks off and runs.
pub fn fleeing(space: &Space, ships: &impl Vessels, u: UnitId) -> bool {
    let unarmed = ships.sheet(u).mounts.is_empty() && ships.ship(u).missiles == 0;
    let hurt = ships.ship(u).hp * 2 <= ships.sheet(u).stats.hp;
    let may = space
        .may_flee
        .get(ships.side(u) as usize)
        .copied()
        .unwrap_or(false);
    unarmed || (may && hurt)
}

/// The enemy `u` goes after: the nearest it has detected, else the nearest.
pub fn quarry(ships: &impl Vessels, u: UnitId) -> Option<UnitId> {
    let foes = ships.enemies(u);
    let by_distance =
        |v: &Vec<UnitId>| v.iter().copied().min_by_key(|&e| (ships.distance(u, e), e));
    let seen: Vec<UnitId> = foes
        .iter()
        .copied()
        .filter(|&e| ships.detection(u, e).found)
        .collect();
    by_distance(&seen).or_else(|| by_distance(&foes))
}

/// The range `u` wants to keep to `quarry`, in hexes: where its mounts' expected damage
/// together is greatest (exact hit chances at that range, half damage beyond 1/2D, the
/// quarry's armor), the nearer of equals; with no mounts, the distance its missiles
/// cover in half their endurance.
pub fn preferred_range(space: &Space, ships: &impl Vessels, u: UnitId, quarry: UnitId) -> u32 {
    let mounts = &ships.sheet(u).mounts;
    if mounts.is_empty() {
        return (space.missile_thrust() * space.missile.endurance / 2).max(1);
    }
    let reach = mounts.iter().map(|m| m.weapon.max_range).max().unwrap_or(0);
    let here = ships.distance(u, quarry);
    let base: i32 =
        space.shot_total(ships, u, 0, quarry, false) - super::tables::gunnery_range_modifier(here);
    let dr = ships.sheet(quarry).stats.dr;
    // Each mount's reach, half-damage range and mean damage through armor within and
    // beyond it, worked out once for every range weighed.
    let through: Vec<(u32, u32, f64, f64)> = mounts
        .iter()
        .map(|m| {
            let w = m.weapon;
            let armor = f64::from(effective_dr(dr, &w));
            let dmg = w.mean_damage();
            let full = (dmg - armor).max(0.0);
            let half = (dmg / 2.0 - armor).max(0.0);
            (w.max_range, w.half_damage, full, half)
        })
        .collect();
    let value = |d: u32| -> f64 {
        let p = success_chance(base + super::tables::gunnery_range_modifier(d));
        through
            .iter()
            .map(|&(max_range, half_damage, full, half)| {
                if d > max_range {
                    return 0.0;
                }
                p * if d > half_damage { half } else { full }
            })
            .sum()
    };
    (0..=reach)
        .map(|d| (value(d), d))
        .fold((f64::NEG_INFINITY, 0), |best, x| {
            if x.0 > best.0 + 1e-9 { x } else { best }
        })
        .1
}

/// The AI's decision for `u` in the current phase.
pub fn choose(space: &Space, ships: &impl Vessels, u: UnitId) -> Action {
    match space.phase {
        Phase::Maneuver => maneuver(space, ships, u),
        Phase::DirectFire => Action::Fire {
            shots: fire(space, ships, u),
        },
        Phase::Launch => launch(space, ships, u),
        _ => Action::Fire { shots: Vec::new() },
    }
}

/// The decision that does nothing in the current phase: coast, hold fire, launch none.
pub fn pass(space: &Space, ships: &impl Vessels, u: UnitId) -> Action {
    match space.phase {
        Phase::Maneuver => {
            let st = ships.ship(u);
            let to = vector::coast(st.pos, st.vel);
            Action::Maneuver {
                to: (to.x, to.y),
                passive: st.passive,
                ram: None,
            }
        }
        Phase::Launch => Action::Launch {
            target: u,
            count: 0,
        },
        _ => Action::Fire { shots: Vec::new() },
    }
}

fn maneuver(space: &Space, ships: &impl Vessels, u: UnitId) -> Action {
    let st = ships.ship(u);
    let options = vector::reachable(st.pos, st.vel, space.thrust(ships, u));
    let foes = ships.enemies(u);
    let run = fleeing(space, ships, u);
    let quarry = quarry(ships, u);
    let want = quarry.map_or(0, |q| preferred_range(space, ships, u, q));
    let next = |e: UnitId| vector::coast(ships.ship(e).pos, ships.ship(e).vel);
    let score = |to: Hex| -> f64 {
        let vel = to - st.pos;
        if run {
            let nearest = foes
                .iter()
                .map(|&e| to.unsigned_distance_to(next(e)))
                .min()
                .unwrap_or(0);
            // Farthest away, and moving away fastest; leaving the area is escaping.
            let out = if space.in_area(to) { 0.0 } else { 1000.0 };
            out + f64::from(nearest) * 10.0 + f64::from(vel.ulength())
        } else {
            // Stay in the battle area, and not on a course out of it.
            let edge = if !space.in_area(to) {
                -1000.0
            } else if !space.in_area(to + vel) {
                -50.0
            } else {
                0.0
            };
            edge + match quarry {
                Some(q) => {
                    let want = f64::from(want);
                    let d = f64::from(to.unsigned_distance_to(next(q)));
                    let rel = f64::from((vel - ships.ship(q).vel).ulength());
                    -(d - want).abs() * 3.0 - rel
                }
                None => -f64::from(vel.ulength()),
            }
        }
    };
    let mut best = (f64::NEG_INFINITY, vector::coast(st.pos, st.vel));
    for to in options {
        let s = score(to);
        if s > best.0 + 1e-9 {
            best = (s, to);
        }
    }
    Action::Maneuver {
        to: (best.1.x, best.1.y),
        passive: run,
        ram: None,
    }
}

/// The missiles that can reach `u` this turn: aimed at it, with thrust left, and within
/// their thrust plus both movers' speeds.
fn incoming(space: &Space, ships: &impl Vessels, u: UnitId) -> usize {
    let me = ships.ship(u);
    let thrust = space.missile_thrust();
    ships
        .missile_ids()
        .into_iter()
        .filter_map(|id| ships.missile(id))
        .filter(|m| m.target == ships.entity(u) && m.turns_left > 0)
        .filter(|m| {
            let reach = thrust + m.velocity().ulength() + me.vel.ulength();
            m.hex().unsigned_distance_to(me.pos) <= reach
        })
        .count()
}

/// The hull damage point defense saves by shooting at one missile with `u`'s `mount`:
/// its chance to shoot it down times the missile's chance to strike times its mean
/// damage through `u`'s armor.
fn defense_value(space: &Space, ships: &impl Vessels, u: UnitId, mount: usize) -> f64 {
    let Some(m) = ships.sheet(u).mounts.get(mount) else {
        return 0.0;
    };
    let pd = space.augmented_gunner_total(ships, u, &m.weapon)
        + super::tables::gunnery_range_modifier(0)
        + 10;
    let strike = space.missile.skill + ships.sheet(u).stats.sm;
    let mean = 3.5 * f64::from(space.missile.dice) * f64::from(space.missile.multiplier);
    let through = (mean - f64::from(ships.sheet(u).stats.dr)).max(0.0);
    success_chance(pd) * success_chance(strike) * through
}

fn fire(space: &Space, ships: &impl Vessels, u: UnitId) -> Vec<Shot> {
    let free = space.free_mounts(ships, u);
    let foes = ships.enemies(u);
    // Each mount's best shot now.
    let mut best: Vec<(usize, Option<(f64, UnitId)>)> = free
        .iter()
        .map(|&m| {
            let w = ships.sheet(u).mounts[m].weapon;
            let shot = foes
                .iter()
                .copied()
                .filter(|&t| space.can_target(ships, u, t, &w))
                .map(|t| (expected_damage(space, ships, u, m, t), t))
                .filter(|(v, _)| *v > 0.0)
                .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
            (m, shot)
        })
        .collect();
    // Keep mounts for point defense, the least useful first, while what one saves is
    // worth more than what it would deal.
    best.sort_by(|a, b| {
        let v = |x: &(usize, Option<(f64, UnitId)>)| x.1.map_or(0.0, |s| s.0);
        v(a).total_cmp(&v(b)).then(a.0.cmp(&b.0))
    });
    let mut keep = incoming(space, ships, u);
    let mut shots = Vec::new();
    for (m, shot) in best {
        let dealt = shot.map_or(0.0, |s| s.0);
        if keep > 0 && defense_value(space, ships, u, m) >= dealt {
            keep -= 1;
            continue;
        }
        if let Some((_, t)) = shot {
            shots.push(Shot {
                mount: m,
                target: t,
                pinpoint: None,
            });
        }
    }
    shots.sort_by_key(|s| s.mount);
    shots
}

fn launch(space: &Space, ships: &impl Vessels, u: UnitId) -> Action {
    let st = ships.ship(u);
    let count = st.missiles.min(ships.sheet(u).stats.launchers);
    let reach = (space.missile_thrust() * space.missile.endurance / 2).max(1);
    let target = ships
        .enemies(u)
        .into_iter()
        .filter(|&t| ships.detection(u, t).found && ships.distance(u, t) <= reach)
        .min_by_key(|&t| (ships.distance(u, t), t));
    match target {
        Some(t) if count > 0 && !fleeing(space, ships, u) => Action::Launch { target: t, count },
        Some(t) => Action::Launch {
            target: t,
            count: 0,
        },
        None => Action::Launch {
            target: u,
            count: 0,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 3d6 chances ("CRITICALS": 3 or 4 always succeeds, 17 and 18 always fail): 10 or
    /// less is 1/2; at skill 4 or below 4/216; at 16 or above 212/216.
    #[test]
    fn success_chances_of_3d6() {
        assert!((success_chance(10) - 0.5).abs() < 1e-12);
        assert!((success_chance(4) - 4.0 / 216.0).abs() < 1e-12);
        assert!((success_chance(-5) - 4.0 / 216.0).abs() < 1e-12);
        assert!((success_chance(16) - 212.0 / 216.0).abs() < 1e-12);
        assert!((success_chance(30) - 212.0 / 216.0).abs() < 1e-12);
    }
}
