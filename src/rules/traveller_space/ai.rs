//! The GURPS Traveller space AI: a stated policy over the same decisions a player has.
//!
//! - Maneuver: among every end position its thrust reaches, the one that best keeps its
//!   chosen enemy (the nearest it can see, else the nearest) at the range where its
//!   weapons do full damage (the half-damage range of its best mount), or, unarmed, at the
//!   range its missiles reach, while matching that enemy's velocity so as not to overshoot;
//!   the enemy is expected to coast. A ship that breaks off (its side may flee and it has
//!   lost half its hull, or it has nothing to fight with) runs: it makes for the end
//!   position farthest from every enemy, fastest away, with its active sensors off. It
//!   never rams.
//! - Direct fire: each free mount fires at the detected enemy in range where its expected
//!   damage (exact chance to hit times mean damage through armor) is greatest; while enemy
//!   missiles are on their way at it, it keeps one mount per missile (its weakest) for
//!   point defense.
//! - Launch: as many missiles as its launchers allow at the detected enemy it would fire
//!   at, while that enemy is within the distance a missile covers in half its endurance.

use super::space::{Action, Phase, Shot, Space};
use super::tables::effective_dr;
use super::vector;
use crate::battle::UnitId;
use crate::dice::Modifier;
use hexx::Hex;

/// The chance that a GURPS success roll against `skill` succeeds (3–4 always, 17–18
/// never).
pub fn success_chance(skill: i32) -> f64 {
    // Ways to roll each total 3..=18 on 3d6.
    const WAYS: [u32; 16] = [1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1];
    let need = skill.clamp(4, 16);
    let ways: u32 = WAYS
        .iter()
        .enumerate()
        .filter(|(i, _)| (*i as i32 + 3) <= need)
        .map(|(_, w)| *w)
        .sum();
    f64::from(ways) / 216.0
}

fn sum(mods: &[Modifier]) -> i32 {
    mods.iter().map(|m| m.value).sum()
}

/// The expected hull damage of `u`'s mount `mount` firing at `t` now.
pub fn expected_damage(space: &Space, u: UnitId, mount: usize, t: UnitId) -> f64 {
    let Some(m) = space.sheet(u).mounts.get(mount) else {
        return 0.0;
    };
    let w = m.weapon;
    let p = success_chance(sum(&space.gunnery_modifiers(u, mount, t)));
    let d = space.distance(u, t);
    let mut dmg = w.mean_damage();
    if d > w.half_damage {
        dmg /= 2.0;
    }
    let through = (dmg - f64::from(effective_dr(space.sheet(t).stats.dr, &w))).max(0.0);
    p * through
}

/// True when `u` breaks off and runs.
pub fn fleeing(space: &Space, u: UnitId) -> bool {
    let unarmed = space.sheet(u).mounts.is_empty() && space.ship(u).missiles == 0;
    let hurt = space.ship(u).hp * 2 <= space.sheet(u).stats.hp;
    let may = space
        .may_flee
        .get(space.side(u) as usize)
        .copied()
        .unwrap_or(false);
    unarmed || (may && hurt)
}

/// The enemy `u` goes after: the nearest it has detected, else the nearest.
pub fn quarry(space: &Space, u: UnitId) -> Option<UnitId> {
    let foes = space.enemies(u);
    let by_distance =
        |v: &Vec<UnitId>| v.iter().copied().min_by_key(|&e| (space.distance(u, e), e));
    let seen: Vec<UnitId> = foes
        .iter()
        .copied()
        .filter(|&e| space.detection(u, e).found)
        .collect();
    by_distance(&seen).or_else(|| by_distance(&foes))
}

/// The range `u` wants to keep to its quarry, in hexes.
pub fn preferred_range(space: &Space, u: UnitId) -> u32 {
    let best = space
        .sheet(u)
        .mounts
        .iter()
        .map(|m| m.weapon)
        .max_by(|a, b| a.mean_damage().total_cmp(&b.mean_damage()));
    match best {
        Some(w) => w.half_damage,
        None => (space.missile_thrust() * space.missile.endurance / 2).max(1),
    }
}

/// The AI's decision for `u` in the current phase.
pub fn choose(space: &Space, u: UnitId) -> Action {
    match space.phase {
        Phase::Maneuver => maneuver(space, u),
        Phase::DirectFire => Action::Fire {
            shots: fire(space, u),
        },
        Phase::Launch => launch(space, u),
        _ => Action::Fire { shots: Vec::new() },
    }
}

/// The decision that does nothing in the current phase: coast, hold fire, launch none.
pub fn pass(space: &Space, u: UnitId) -> Action {
    match space.phase {
        Phase::Maneuver => {
            let st = space.ship(u);
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

fn maneuver(space: &Space, u: UnitId) -> Action {
    let st = space.ship(u);
    let options = vector::reachable(st.pos, st.vel, space.thrust(u));
    let foes = space.enemies(u);
    let run = fleeing(space, u);
    let next = |e: UnitId| vector::coast(space.ship(e).pos, space.ship(e).vel);
    let score = |to: Hex| -> f64 {
        let vel = to - st.pos;
        if run {
            let nearest = foes
                .iter()
                .map(|&e| to.unsigned_distance_to(next(e)))
                .min()
                .unwrap_or(0);
            // Farthest away, and moving away fastest.
            f64::from(nearest) * 10.0 + f64::from(vel.ulength())
        } else if let Some(q) = quarry(space, u) {
            let want = f64::from(preferred_range(space, u));
            let d = f64::from(to.unsigned_distance_to(next(q)));
            let rel = f64::from((vel - space.ship(q).vel).ulength());
            -(d - want).abs() * 3.0 - rel
        } else {
            -f64::from(vel.ulength())
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

fn fire(space: &Space, u: UnitId) -> Vec<Shot> {
    let mut free = space.free_mounts(u);
    // Keep one mount per incoming missile for point defense: the weakest ones.
    let incoming = space
        .missiles
        .iter()
        .filter(|m| m.target == u && m.turns_left > 0)
        .count();
    free.sort_by(|&a, &b| {
        let w = |i: usize| space.sheet(u).mounts[i].weapon.mean_damage();
        w(b).total_cmp(&w(a)).then(a.cmp(&b))
    });
    let keep = incoming.min(free.len());
    free.truncate(free.len() - keep);
    free.sort_unstable();
    let mut shots = Vec::new();
    for m in free {
        let w = space.sheet(u).mounts[m].weapon;
        let best = space
            .enemies(u)
            .into_iter()
            .filter(|&t| space.why_not_target(u, t, &w).is_none())
            .map(|t| (expected_damage(space, u, m, t), t))
            .filter(|(v, _)| *v > 0.0)
            .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
        if let Some((_, t)) = best {
            shots.push(Shot {
                mount: m,
                target: t,
            });
        }
    }
    shots
}

fn launch(space: &Space, u: UnitId) -> Action {
    let st = space.ship(u);
    let count = st.missiles.min(space.sheet(u).stats.launchers);
    let reach = (space.missile_thrust() * space.missile.endurance / 2).max(1);
    let target = space
        .enemies(u)
        .into_iter()
        .filter(|&t| space.detection(u, t).found && space.distance(u, t) <= reach)
        .min_by_key(|&t| (space.distance(u, t), t));
    match target {
        Some(t) if count > 0 && !fleeing(space, u) => Action::Launch { target: t, count },
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
