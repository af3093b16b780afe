//! The Main Sequence AI: a stated policy over the same legal decisions a player has.
//!
//! - Attacks: every weapon, rate of fire and number of targets is weighed by its exact
//!   expected damage (the exploding d6's distribution, each target's Defense and cover,
//!   soak, the stepped penalties of "Rate of Fire"); explosives count friends caught in
//!   the blast (itself included) twice against it. The best plan is fired; more targets
//!   are taken only when they add expected damage ("multi-target fire when it pays").
//! - Moves: among the hexes one Close band away, the one where its best attack is worth
//!   most after the enemies' best attacks on it (so cover and range count; an Aggressive
//!   side weighs the enemies' attacks a quarter, a Cautious one three quarters), with a
//!   pull towards the nearest foe (stronger while it has nothing in reach) so it never
//!   stalls out of reach. Staying put where a foe can shoot it, it ducks (Acrobatics)
//!   for one degree more cover; it never leaps (the player may).
//! - A ship with Shields boosts them (once a scene) when the points gained are at least
//!   the expected damage of its best attack this turn.
//! - Edge, by [`super::edge`]'s policy: ignore any killing attack, and a ship's crew always
//!   spend Edge to keep their ship together; +2 before an attack, first aid or a round's
//!   check (chase, sweep, repair) and a re-roll of any failed roll (a beaten parry or
//!   dodge, a lost chase roll) only when they pay a third of a chance and a point is kept
//!   for the kill. A chase roll counts as needing the opponent's bonus plus 4, the
//!   exploding die's mean. No +2 on parries and dodges (the point is kept for the kill).
//!   Lucky and Lucky Boat (free) re-roll any failed roll.
//! - Active defenses: Nimble and the free parry whenever the attack could hit; a parry or
//!   dodge (which costs the next action) only when a bare hit could bring it to 0 and the
//!   roll is expected to beat its Defense.
//! - A dying friend within reach is stabilized before anything else; a weapon is reloaded
//!   when no attack is possible.

use super::combat::{Band, RateOfFire, target_penalty};
use super::edge;
use super::fight::{Action, Condition, Defense, Fight, Prompt, Reroll, System};
use super::fight::{Board, MsUnits};
use super::gear::{Weapon, rounds_used};
use super::sheet::MsSheet;
use crate::battle::UnitId;
use crate::dice::RollRecord;
use crate::hexmap::HexMap;
use hexx::Hex;
use std::borrow::Borrow;

/// The exploding d6 as (value, chance), sixes followed three deep (the rest, 1/1296, is
/// dropped); worked out once (the AI asks it for every attack it weighs).
fn exploding_distribution() -> &'static [(i32, f64); 20] {
    static TABLE: std::sync::OnceLock<[(i32, f64); 20]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut v = [(0, 0.0); 20];
        let mut base = 0;
        let mut p = 1.0 / 6.0;
        for level in 0..4 {
            for f in 1..=5 {
                v[level * 5 + (f as usize - 1)] = (base + f, p);
            }
            base += 5;
            p /= 6.0;
        }
        v
    })
}

/// Expected damage of an attack total of 1d6 + `bonus` against `defense`, with weapon
/// damage `damage`, soak `soak`, capped at the target's `hp`.
pub fn expected_damage(bonus: i32, defense: i32, damage: i32, soak: i32, hp: i32) -> f64 {
    exploding_distribution()
        .iter()
        .filter(|(v, _)| v + bonus >= defense)
        .map(|(v, p)| p * f64::from((damage + v + bonus - defense - soak).clamp(0, hp)))
        .sum()
}

/// The chance that 1d6 + `bonus` meets `defense`.
pub fn hit_chance(bonus: i32, defense: i32) -> f64 {
    edge::chance_to_succeed(bonus, defense)
}

/// One attack the AI could make.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Weapon index.
    pub weapon: usize,
    /// Rate of fire.
    pub rof: RateOfFire,
    /// Targets in order.
    pub targets: Vec<UnitId>,
    /// Expected damage to foes, less twice that to friends.
    pub value: f64,
}

fn rates(w: &Weapon) -> Vec<RateOfFire> {
    if w.rates.is_empty() {
        vec![RateOfFire::Single]
    } else {
        w.rates.clone()
    }
}

/// What weighing `u`'s attacks and the enemies' attacks on it needs that does not depend
/// on where `u` stands, worked out once per decision: the AI weighs every hex it can
/// reach, and each weighing asked the same attack bonuses, Defenses and soaks again.
struct Weighing<'b, F, U> {
    fight: &'b Board<F, U>,
    map: &'b HexMap,
    u: UnitId,
    /// `u` can attack at all (not blinded, weapons working).
    armed: bool,
    /// The units `u` could attack wherever it stood (fighting foes of its scale,
    /// detected), in unit order.
    targets: Vec<UnitId>,
    /// By weapon of `u`, then by unit: the attack bonus against it.
    bonus: Vec<Vec<i32>>,
    /// By unit: Defense, soak, and hit points with shields.
    guard: Vec<(i32, i32, i32)>,
    /// Each enemy's position and non-explosive weapons, in unit order.
    threats: Vec<(Hex, Vec<Threat>)>,
}

/// An enemy weapon's range, damage and attack bonus against the unit weighing its hexes.
type Threat = (Band, i32, i32);

impl<'b, F: Borrow<Fight>, U: MsUnits> Weighing<'b, F, U> {
    fn new(fight: &'b Board<F, U>, map: &'b HexMap, u: UnitId) -> Self {
        let st = fight.state(u);
        let ship = fight.sheet(u).is_ship();
        let targets = fight
            .ids()
            .filter(|&t| {
                fight.fighting(t)
                    && fight.foes(u, t)
                    && ship == fight.sheet(t).is_ship()
                    && (!fight.sheet(t).is_ship() || fight.detected(u, t))
            })
            .collect();
        let bonus = (fight.sheet(u).weapons().iter())
            .map(|w| {
                fight
                    .ids()
                    .map(|t| fight.attack_bonus(u, w, t, false))
                    .collect()
            })
            .collect();
        let guard = fight
            .ids()
            .map(|t| {
                let st = fight.state(t);
                (fight.defense(t), fight.soak(t), st.hp + st.shields)
            })
            .collect();
        let threats = fight
            .enemies(u)
            .into_iter()
            .map(|e| {
                let weapons = (fight.sheet(e).weapons().iter())
                    .filter(|w| !w.explosive)
                    .map(|w| (w.range, w.damage, fight.attack_bonus(e, w, u, false)))
                    .collect();
                (fight.state(e).pos, weapons)
            })
            .collect();
        Weighing {
            fight,
            map,
            u,
            armed: !(fight.blinded(u) || st.failed.contains(&System::Weapons)),
            targets,
            bonus,
            guard,
            threats,
        }
    }

    /// Expected damage of `u` standing at `from` hitting `target` with its weapon `wi`, the
    /// roll's total lessened by `penalty`.
    fn value_against(&self, from: Hex, wi: usize, target: UnitId, penalty: i32) -> f64 {
        let w = &self.fight.sheet(self.u).weapons()[wi];
        let t = target.0 as usize;
        let bonus = self.bonus[wi][t] - penalty;
        let cover = self.fight.cover(self.map, from, target, w);
        let (defense, soak, hp) = self.guard[t];
        expected_damage(bonus, defense + cover.bonus(), w.damage, soak, hp)
    }

    /// True when `u` standing at `from` could attack `target`, one of its
    /// [`Weighing::targets`], with `w` (range and sight).
    fn can_reach(&self, from: Hex, w: &Weapon, target: UnitId) -> bool {
        let fight = self.fight;
        let band = match fight.chase {
            Some(_) => fight.band(self.u, target),
            None => fight
                .sizes
                .band(from.unsigned_distance_to(fight.state(target).pos)),
        };
        band <= w.range
            && (fight.chase.is_some()
                || fight.sheet(self.u).is_ship()
                || self.map.line_of_sight(from, fight.state(target).pos))
    }

    /// The best attack of `u` if it stood at `from` (None when it has none).
    fn best_plan(&self, from: Hex) -> Option<Plan> {
        let (fight, u) = (self.fight, self.u);
        if !self.armed {
            return None;
        }
        let st = fight.state(u);
        let mut best: Option<Plan> = None;
        for (wi, w) in fight.sheet(u).weapons().iter().enumerate() {
            let loaded = st.ammo.get(wi).and_then(|a| a.loaded);
            let foes: Vec<UnitId> = (self.targets.iter().copied())
                .filter(|&t| self.can_reach(from, w, t))
                .collect();
            if foes.is_empty() {
                continue;
            }
            if w.explosive {
                if !fight.cinematic_ammo && loaded == Some(0) {
                    continue;
                }
                for &aim in &foes {
                    let point = fight.state(aim).pos;
                    let mut value = 0.0;
                    for v in fight.blast_victims(u, aim, point) {
                        let e = self.value_against(point, wi, v, 0);
                        value += if fight.foes(u, v) { e } else { -2.0 * e };
                    }
                    consider(
                        &mut best,
                        Plan {
                            weapon: wi,
                            rof: RateOfFire::Single,
                            targets: vec![aim],
                            value,
                        },
                    );
                }
                continue;
            }
            let mut ranked: Vec<(f64, UnitId)> = foes
                .iter()
                .map(|&t| (self.value_against(from, wi, t, 0), t))
                .collect();
            ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            for rof in rates(w) {
                for k in 1..=rof.max_targets().min(ranked.len()) {
                    if !fight.cinematic_ammo && loaded.is_some_and(|n| n < rounds_used(rof, k)) {
                        continue;
                    }
                    let targets: Vec<UnitId> = ranked[..k].iter().map(|r| r.1).collect();
                    let value: f64 = targets
                        .iter()
                        .enumerate()
                        .map(|(i, &t)| self.value_against(from, wi, t, -target_penalty(i)))
                        .sum::<f64>()
                        - 0.001 * f64::from(rounds_used(rof, k));
                    consider(
                        &mut best,
                        Plan {
                            weapon: wi,
                            rof,
                            targets,
                            value,
                        },
                    );
                }
            }
        }
        best.filter(|p| p.value > 0.0)
    }

    /// What the enemies' best attacks on `u` would be worth if it stood at `at`.
    fn threat(&self, at: Hex) -> f64 {
        let (fight, map, u) = (self.fight, self.map, self.u);
        let ship = fight.sheet(u).is_ship();
        let (defense, soak, hp) = self.guard[u.0 as usize];
        let mut total = 0.0;
        for (from, weapons) in &self.threats {
            let mut best: f64 = 0.0;
            for &(range, damage, bonus) in weapons {
                let band = fight.sizes.band(from.unsigned_distance_to(at));
                if band > range || !(ship || map.line_of_sight(*from, at)) {
                    continue;
                }
                let cover = if range <= Band::Melee || ship {
                    0
                } else {
                    super::fight::cover_of(map.cover_between(*from, at)).bonus()
                };
                best = best.max(expected_damage(bonus, defense + cover, damage, soak, hp));
            }
            total += best;
        }
        total
    }

    /// How good a hex is for `u` to stand in (the module's "Moves" policy): its best
    /// attack from there, less the enemies' attacks on it weighed by its side's care, less
    /// `pull` per hex to the nearest foe.
    fn position_score(&self, at: Hex, pull: f64) -> f64 {
        let fight = self.fight;
        let mine = self.best_plan(at).map_or(0.0, |p| p.value);
        let care = if fight
            .aggressive
            .get(usize::from(fight.side(self.u)))
            .copied()
            .unwrap_or(true)
        {
            0.25
        } else {
            0.75
        };
        let nearest = (self.threats.iter())
            .map(|(e, _)| at.unsigned_distance_to(*e))
            .min()
            .unwrap_or(0);
        mine - care * self.threat(at) - pull * f64::from(nearest)
    }
}

fn consider(best: &mut Option<Plan>, plan: Plan) {
    if best.as_ref().is_none_or(|b| plan.value > b.value + 1e-9) {
        *best = Some(plan);
    }
}

/// Hexes `u` can reach this turn (one Close band, around blocked hexes and the units still
/// fighting, over the fallen: [`Board::blockers`]).
fn reachable(fight: &Board<impl Borrow<Fight>, impl MsUnits>, map: &HexMap, u: UnitId) -> Vec<Hex> {
    let from = fight.state(u).pos;
    let mut out = map.reach(
        from,
        fight.sizes.move_hexes(),
        &map.entry_costs(fight.blockers(u)),
    );
    out.sort_by_key(|h| (h.x, h.y));
    out
}

/// True when a foe could shoot `u` where it stands with a ranged, non-explosive weapon:
/// staying put under fire, the AI ducks (a duck costs nothing but the move it is not using).
fn under_fire(fight: &Board<impl Borrow<Fight>, impl MsUnits>, map: &HexMap, u: UnitId) -> bool {
    let at = fight.state(u).pos;
    fight.enemies(u).into_iter().any(|e| {
        let from = fight.state(e).pos;
        let band = fight.sizes.band(from.unsigned_distance_to(at));
        fight
            .sheet(e)
            .weapons()
            .iter()
            .any(|w| !w.explosive && w.range > Band::Melee && band <= w.range)
            && map.line_of_sight(from, at)
    })
}

/// The AI's decision for `u`, which the battle is waiting on.
pub fn choose(fight: &Board<impl Borrow<Fight>, impl MsUnits>, map: &HexMap, u: UnitId) -> Action {
    match fight.prompt {
        Some(Prompt::Defend(i)) => return Action::Defend(defend(fight, u, i)),
        Some(Prompt::Reroll) => return Action::Reroll(reroll(fight, u)),
        Some(Prompt::RerollDefense(i)) => return Action::Reroll(reroll_defense(fight, u, i)),
        Some(Prompt::RerollCheck) => return Action::Reroll(reroll_check(fight, u)),
        Some(Prompt::Boost) => return Action::PlusTwo(boost_check(fight, u)),
        Some(Prompt::Kill(_)) => {
            let edge = match fight.sheet(u) {
                MsSheet::Character(_) => fight.state(u).edge,
                // The crew always keep their ship together while they can.
                MsSheet::Ship(_) => fight.crew_edge(u),
            };
            return Action::SpendEdge(edge::against_killing_attack(edge).is_some());
        }
        None => {}
    }
    let Some(t) = fight.turn else {
        return Action::EndTurn;
    };
    let here = fight.state(u).pos;
    let weighing = Weighing::new(fight, map, u);
    if !t.moved && !fight.state(u).failed.contains(&System::Engines) {
        let pull = if weighing.best_plan(here).is_some() {
            0.05
        } else {
            0.5
        };
        let mut best = (weighing.position_score(here, pull), here);
        for h in reachable(fight, map, u) {
            let s = weighing.position_score(h, pull);
            if s > best.0 + 1e-9 {
                best = (s, h);
            }
        }
        if best.1 != here {
            return Action::Move {
                to: (best.1.x, best.1.y),
            };
        }
        let duck = Action::Duck { plus_two: false };
        if under_fire(fight, map, u) && fight.check(map, u, &duck).is_ok() {
            return duck;
        }
    }
    if !t.acted {
        if let Some(patient) = fight.ids().find(|&p| {
            matches!(fight.state(p).condition, Condition::Dying { attempts, .. } if attempts < 3)
                && !fight.foes(u, p)
                && !fight.sheet(u).is_ship()
                && fight.band(u, p) <= Band::Melee
        }) {
            let plus_two = fight
                .turn_check(
                    map,
                    u,
                    &Action::Stabilize {
                        patient,
                        plus_two: false,
                    },
                )
                .is_some_and(|c| {
                    let bonus = c.mods.iter().map(|m| m.value).sum();
                    edge::before_attack(fight.edge(u), bonus, c.dl.unwrap_or(0)).is_some()
                });
            return Action::Stabilize { patient, plus_two };
        }
        let plan = weighing.best_plan(here);
        if let MsSheet::Ship(s) = fight.sheet(u)
            && fight.check(map, u, &Action::BoostShields).is_ok()
        {
            let gain = super::ships::boosted_shields(s.shields) - fight.state(u).shields;
            if f64::from(gain) >= plan.as_ref().map_or(0.0, |p| p.value) {
                return Action::BoostShields;
            }
        }
        if let Some(plan) = plan {
            return attack(fight, map, u, plan);
        }
        for (wi, a) in fight.state(u).ammo.iter().enumerate() {
            let full = fight.sheet(u).weapons().get(wi).and_then(|w| w.ammo);
            if !fight.cinematic_ammo && a.spare > 0 && full.is_some() && a.loaded < full {
                return Action::Reload { weapon: wi };
            }
        }
    }
    Action::EndTurn
}

fn attack(
    fight: &Board<impl Borrow<Fight>, impl MsUnits>,
    map: &HexMap,
    u: UnitId,
    plan: Plan,
) -> Action {
    let w = &fight.sheet(u).weapons()[plan.weapon];
    let bonus = fight.attack_bonus(u, w, plan.targets[0], false);
    let from = fight.state(u).pos;
    let first = plan.targets[0];
    let dl = fight.defense_from(map, from, first, w);
    let plus_two = edge::before_attack(fight.edge(u), bonus, dl).is_some();
    let excellent = fight.excellent_open(u, w);
    Action::Attack {
        weapon: plan.weapon,
        rof: plan.rof,
        targets: plan.targets,
        plus_two,
        excellent,
    }
}

fn defend(fight: &Board<impl Borrow<Fight>, impl MsUnits>, u: UnitId, i: usize) -> Option<Defense> {
    let open = fight.defenses_open(i);
    let a = fight.attack.as_ref()?;
    let w = fight.sheet(a.attacker).weapons().get(a.weapon)?;
    // Champion's +2 counts against this defender only if it opposes the cause
    // (`Board::roll_against`).
    let me = a.targets.get(i).copied().unwrap_or(u);
    let bonus: i32 = fight.attack_bonus(a.attacker, w, me, a.plus_two)
        + if a.blast.is_some() {
            0
        } else {
            target_penalty(i)
        };
    let passive = fight.defense(u);
    let chance = hit_chance(bonus, passive);
    if chance <= 0.0 {
        return None;
    }
    if open.contains(&Defense::Nimble) {
        let st = fight.state(u);
        let deadly = w.damage - fight.soak(u) >= st.hp + st.shields;
        if chance >= 0.5 || deadly {
            return Some(Defense::Nimble);
        }
    }
    let MsSheet::Character(c) = fight.sheet(u) else {
        return None;
    };
    let ranged = w.range > Band::Melee;
    let mean = |d: Defense| {
        let kind = match d {
            Defense::Dodge => super::combat::ActiveDefense::Dodge,
            _ => super::combat::ActiveDefense::Parry,
        };
        let (attr, skill) = super::combat::defense_roll_of(kind, ranged);
        let v = match attr {
            "Soldier" => c.attrs.soldier,
            "Agent" => c.attrs.agent,
            _ => c.attrs.tech,
        };
        edge::MEAN_EXPLODING_D6 + f64::from(v + c.skill(skill))
    };
    if open.contains(&Defense::FreeParry) && mean(Defense::FreeParry) > f64::from(passive) {
        return Some(Defense::FreeParry);
    }
    let bare_hit_downs = w.damage - fight.soak(u) >= fight.state(u).hp;
    if bare_hit_downs && chance >= 1.0 / 3.0 {
        return [Defense::Parry, Defense::Dodge]
            .into_iter()
            .filter(|d| open.contains(d) && mean(*d) > f64::from(passive))
            .max_by(|a, b| mean(*a).total_cmp(&mean(*b)));
    }
    None
}

/// A free re-roll first (the roller's Lucky, then the ship's Lucky Boat), else Edge by
/// the policy for a roll of `total` that needed `dl`.
fn pick_reroll(open: &[Reroll], edge: i32, roll: &RollRecord, dl: i32) -> Option<Reroll> {
    if let Some(r) = open
        .iter()
        .copied()
        .find(|r| matches!(r, Reroll::Lucky | Reroll::LuckyBoat))
    {
        return Some(r);
    }
    if !open.contains(&Reroll::Edge) {
        return None;
    }
    let die = roll.faces.iter().map(|&f| f as i32).sum::<i32>()
        + roll
            .modifiers
            .iter()
            .filter(|m| &*m.label == "each 6 counts 5")
            .map(|m| m.value)
            .sum::<i32>();
    edge::after_failed_attack(edge, roll.total, die, dl).map(|_| Reroll::Edge)
}

fn reroll(fight: &Board<impl Borrow<Fight>, impl MsUnits>, u: UnitId) -> Option<Reroll> {
    let a = fight.attack.as_ref()?;
    let roll = a.roll.as_ref()?;
    let gunner = fight.gunner(u);
    pick_reroll(&fight.rerolls(u, gunner), fight.edge(u), roll, roll.target?)
}

/// A beaten parry or dodge: re-rolled when the re-roll could beat the attack (the total
/// the attack has against this target, plus one).
fn reroll_defense(
    fight: &Board<impl Borrow<Fight>, impl MsUnits>,
    u: UnitId,
    i: usize,
) -> Option<Reroll> {
    let a = fight.attack.as_ref()?;
    let (_, rec) = a.defenses.get(i)?.as_ref()?;
    let rec = rec.as_ref()?;
    let attack = a.roll.as_ref()?.total
        + if a.blast.is_some() {
            0
        } else {
            target_penalty(i)
        };
    pick_reroll(
        &fight.rerolls(u, None),
        fight.state(u).edge,
        &rec.roll,
        attack + 1,
    )
}

/// A failed check (or a lost chase roll).
fn reroll_check(fight: &Board<impl Borrow<Fight>, impl MsUnits>, u: UnitId) -> Option<Reroll> {
    let c = fight.check.as_ref()?;
    let roll = c.roll.as_ref()?;
    let need = c.dl.or(c.against.map(|t| t + 1))?;
    pick_reroll(
        &fight.check_rerolls(c),
        fight.roller_edge(u, c.crewman),
        roll,
        need,
    )
}

/// +2 before a round's check by the policy for attacks; a chase roll counts as needing the
/// opponent's bonus plus the exploding die's mean, 4.
fn boost_check(fight: &Board<impl Borrow<Fight>, impl MsUnits>, u: UnitId) -> bool {
    let Some(c) = fight.check.as_ref() else {
        return false;
    };
    let bonus: i32 = c.mods.iter().map(|m| m.value).sum();
    let dl = match (&c.kind, c.dl, &fight.chase) {
        (_, Some(dl), _) => dl,
        (super::fight::CheckKind::Chase { pursuer }, None, Some(ch)) => {
            let other = if *pursuer { ch.quarry } else { ch.pursuer };
            let (b, v) = if *pursuer {
                (ch.quarry_bonus, ch.quarry_vehicle.as_deref())
            } else {
                (ch.pursuer_bonus, ch.pursuer_vehicle.as_deref())
            };
            fight
                .chase_modifiers(other, b, v)
                .iter()
                .map(|m| m.value)
                .sum::<i32>()
                + edge::MEAN_EXPLODING_D6 as i32
        }
        _ => return false,
    };
    edge::before_attack(fight.roller_edge(u, c.crewman), bonus, dl).is_some()
}
