//! The SOCS AI, choosing among [`Dogfight::legal_actions`]:
//! - Fire: every gun fires at the foe it is most likely to hurt (chance to hit times the
//!   weight of its firepower on that foe, halved when the foe may dodge), keeping its
//!   Sustained Fire target on a tie; guns with nothing in range hold.
//! - Maneuver: answer a foe's Maneuver Offensively with a Reversal when its pilot is no
//!   better; shake off a foe with Position on it (Maneuver Defensively) when that bonus is
//!   at least 2 or at least its own best; break off (a game-master OpenRange maneuver) when
//!   its side may flee and it is outnumbered and either damaged or outnumbered two to one;
//!   close in (CloseRange) when its
//!   guns cannot reach; else gain Position on the foe it can hurt most; else fly straight.

use super::dogfight::{
    Action, Crafts, Dogfight, GmEffect, Maneuver, Phase, Shot, SocsRange, chance_3d6,
};
use super::sheet::{Craft, Firepower, ShipClass};
use crate::battle::UnitId;

impl crate::battle::UnitsPolicy for Dogfight {
    type Sheet = Craft;
    type State = super::dogfight::CraftState;
    type Action = Action;

    fn choose(
        &self,
        crafts: &impl crate::battle::Units<Self::Sheet, Self::State>,
        unit: UnitId,
    ) -> Action {
        choose(self, crafts, unit)
    }
}

/// What `me` does now.
pub fn choose(d: &Dogfight, crafts: &impl Crafts, me: UnitId) -> Action {
    match &d.phase {
        Phase::Fire { .. } => choose_fire(d, crafts, me),
        Phase::Maneuvers { declared } => Action::Maneuver {
            maneuver: choose_maneuver(d, crafts, me, declared),
            gm_modifier: 0,
        },
        Phase::Start => Action::Maneuver {
            maneuver: Maneuver::FlyStraight,
            gm_modifier: 0,
        },
    }
}

/// How much a hit of `fp` on `target` is worth: a hit that puts the craft out is worth
/// 3 (2.5 a heavy hit on a craft bigger than a fighter, which disables it), a light hit
/// that only damages it 1.
fn weight(crafts: &impl Crafts, target: UnitId, fp: Firepower) -> f64 {
    let fighter = crafts.craft(target).stats.class == ShipClass::Fighter;
    match fp {
        Firepower::Cosmetic => 0.05,
        Firepower::Light if crafts.craft_state(target).damaged => {
            let heavy = continuing_damage(crafts, target);
            3.0 * heavy + (1.0 - heavy)
        }
        Firepower::Light => 1.0,
        Firepower::Heavy if fighter => 3.0,
        Firepower::Heavy => 2.5,
        Firepower::Great | Firepower::Extreme => 3.0,
    }
}

/// The chance that a light hit on `target`, already damaged, becomes heavy through
/// continuing damage (gurps-lite-and-socs.txt, SOCS "FIREPOWER LEVELS", 2-LIGHT, and
/// "HIT LOCATIONS"; as [`Dogfight::hit_at`] applies them): certain for a craft without hit
/// locations; for a craft with them, the chance the die picks a location already knocked
/// out, or certain when only one still works.
fn continuing_damage(crafts: &impl Crafts, target: UnitId) -> f64 {
    let craft = crafts.craft(target);
    let n = craft.stats.locations.len();
    if craft.stats.class == ShipClass::Fighter || n == 0 {
        return 1.0;
    }
    let out = crafts
        .craft_state(target)
        .locations_out
        .iter()
        .filter(|&&o| o)
        .count();
    if n.saturating_sub(out) <= 1 {
        1.0
    } else {
        out as f64 / n as f64
    }
}

/// Expected worth of gun `w` of `me` firing at `t`.
pub fn shot_value(d: &Dogfight, crafts: &impl Crafts, me: UnitId, w: usize, t: UnitId) -> f64 {
    let p = chance_3d6(d.shot_total(crafts, me, w, t, None, 0));
    let fp = crafts.craft(me).stats.weapons[w].firepower;
    let v = weight(crafts, t, fp);
    if crafts.may_dodge(t, me) {
        let dodged = weight(crafts, t, fp.lower());
        (v + dodged) / 2.0 * p
    } else {
        v * p
    }
}

fn choose_fire(d: &Dogfight, crafts: &impl Crafts, me: UnitId) -> Action {
    let mut shots = Vec::new();
    if !crafts.craft_state(me).skip_fire {
        let guns = crafts.craft(me).stats.weapons.len();
        // Which guns reach each foe, asked once rather than once per gun.
        let reach: Vec<(UnitId, Vec<usize>)> = crafts
            .foes(me)
            .into_iter()
            .map(|t| (t, d.guns_at(crafts, me, t)))
            .collect();
        for w in 0..guns {
            let mut best: Option<(f64, UnitId)> = None;
            for (t, at) in &reach {
                let t = *t;
                if !at.contains(&w) {
                    continue;
                }
                let v = shot_value(d, crafts, me, w, t)
                    + if crafts.sustained_ab(me, w, t) > 0 {
                        1e-6
                    } else {
                        0.0
                    };
                if best.is_none_or(|(b, _)| v > b + 1e-12) {
                    best = Some((v, t));
                }
            }
            if let Some((_, t)) = best {
                shots.push(Shot {
                    weapon: w as u8,
                    target: t,
                    aim: None,
                });
            }
        }
    }
    Action::Fire {
        shots,
        gm_modifier: 0,
    }
}

fn skill(crafts: &impl Crafts, id: UnitId) -> i32 {
    let c = &crafts.craft(id).stats;
    c.pilot.piloting + c.mr
}

fn choose_maneuver(
    d: &Dogfight,
    crafts: &impl Crafts,
    me: UnitId,
    declared: &[(UnitId, Maneuver, i32)],
) -> Maneuver {
    let open = |m: &Maneuver| d.maneuver_open(crafts, me, m);
    // A foe maneuvering offensively against us: reverse it if our pilot is no worse.
    for (u, m, _) in declared {
        let r = Maneuver::Reversal { target: *u };
        if *m == (Maneuver::Offensive { target: me })
            && open(&r)
            && skill(crafts, me) >= skill(crafts, *u)
        {
            return r;
        }
    }
    let foes = crafts.foes(me);
    let mine_best = foes
        .iter()
        .map(|&f| d.position_ab(crafts, me, f))
        .max()
        .unwrap_or(0);
    if let Some(&worst) = foes
        .iter()
        .max_by_key(|&&f| (d.position_ab(crafts, f, me), std::cmp::Reverse(f)))
    {
        let on_me = d.position_ab(crafts, worst, me);
        let shake = Maneuver::Defensive {
            target: worst,
            weapon: None,
        };
        if on_me > 0 && (on_me >= 2 || on_me >= mine_best) && open(&shake) {
            return shake;
        }
    }
    let side = crafts.side_of(me).unwrap_or(u8::MAX);
    let allies = crafts
        .fighting()
        .iter()
        .filter(|&&u| crafts.side_of(u) == Some(side))
        .count();
    let gm = |effect: GmEffect, target: UnitId| {
        d.gm_maneuvers
            .iter()
            .position(|g| g.effect == effect)
            .map(|i| Maneuver::Gm {
                index: i as u8,
                target,
            })
            .filter(|m| open(m))
    };
    let nearest = foes
        .iter()
        .copied()
        .min_by_key(|&f| (d.range(crafts, me, f), f));
    if d.may_flee.get(usize::from(side)).copied().unwrap_or(false)
        && foes.len() > allies
        && (crafts.craft_state(me).damaged || foes.len() >= 2 * allies)
        && let Some(f) = nearest
        && let Some(m) = gm(GmEffect::OpenRange, f)
    {
        return m;
    }
    // The guns that reach each foe, asked once per foe.
    let reach: Vec<Vec<usize>> = foes.iter().map(|&f| d.guns_at(crafts, me, f)).collect();
    if reach.iter().all(|guns| guns.is_empty())
        && let Some(f) = foes
            .iter()
            .copied()
            .filter(|&f| d.range(crafts, me, f) != SocsRange::Short)
            .min_by_key(|&f| (d.range(crafts, me, f), f))
        && let Some(m) = gm(GmEffect::CloseRange, f)
    {
        return m;
    }
    let best = foes
        .iter()
        .copied()
        .zip(&reach)
        .filter(|&(f, _)| open(&Maneuver::Offensive { target: f }))
        .map(|(f, guns)| {
            let v: f64 = guns.iter().map(|&w| shot_value(d, crafts, me, w, f)).sum();
            (v, f)
        })
        .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
    match best {
        Some((v, f)) if v > 0.0 => Maneuver::Offensive { target: f },
        _ => Maneuver::FlyStraight,
    }
}
