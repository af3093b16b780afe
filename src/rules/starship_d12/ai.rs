//! The starship-d12 AI: it picks among [`Fleet::legal_actions`], as a player would.
//!
//! - Range phase: for each enemy it can move against, it values every band by the damage
//!   it expects to deal there minus the damage it expects to take (exact d12 odds), with
//!   Tailing counting the tailed ship's rear weapons and turrets only; it makes the move
//!   that improves that value most, or holds; it never opens a range to Escaped unless it
//!   is breaking off. A ship of a side allowed to flee breaks off once its systems are hit
//!   and it is losing the race (at the present ranges its enemies' expected fire would
//!   wear down what it can still take sooner than its own fire wears down the weakest
//!   enemy), but only from its last enemy and with a move that leaves it at Long or
//!   farther: a run from closer under fire loses more ships than it saves (measured with
//!   `preview`: on d12-duel this saves the pirates in 8% of battles at no extra losses). A ship with no weapon left always opens the range to its nearest enemy
//!   (so a fight between two wrecks ends).
//! - Action phase: it fires the weapon and target with the highest expected damage,
//!   weighted towards the weakest target, with the default crew; when no shot can do
//!   damage, a crewman left over who can pilot (piloting above 0) helps the pilot's next
//!   range roll (while the engines work), and once none is left it passes.

use super::fleet::{Action, Fleet, Phase, Ships};
use super::gunnery;
use super::range::{Band, Direction, move_range};
use super::sheet::ShipFacing;
use crate::battle::UnitId;

/// Expected damage a turn from `from` firing every weapon that can bear at `to` at `band`
/// (each with `from`'s best gunner), counting only rear weapons and turrets when `to` sits
/// on `from`'s tail.
pub fn expected_damage(
    ships: &impl Ships,
    from: UnitId,
    to: UnitId,
    band: Band,
    tailed: bool,
) -> f64 {
    let (Some(sheet), Some(ship), Some(target)) = (
        ships.sheet_of(from),
        ships.state_of(from),
        ships.sheet_of(to),
    ) else {
        return 0.0;
    };
    let bonus = sheet.crew.iter().map(|c| c.gunnery).max().unwrap_or(0) + sheet.gunnery_edges();
    let mut total = 0.0;
    for (i, s) in sheet.systems.iter().enumerate() {
        let Some(w) = &s.weapon else { continue };
        if !ship.works(sheet, i) || (w.missile.is_some() && ship.ammo[i] == 0) {
            continue;
        }
        if tailed && !(s.turret || s.at.facing == ShipFacing::Rear) {
            continue;
        }
        if let Some(need) = gunnery::difficulty(band, w, target.defence) {
            total += gunnery::odds(bonus, need, w).1;
        }
    }
    total
}

/// How good the band `band` (with `me` as the tailer at Tailing) is for `me` against `e`:
/// the damage `me` expects to deal there minus what it expects to take, the enemy's fire
/// shared among the ships it fights; choosing the system hit (the tailer's right) counts a
/// quarter more.
fn band_value(
    ships: &impl Ships,
    me: UnitId,
    e: UnitId,
    band: Band,
    me_tails: bool,
    e_tails: bool,
) -> f64 {
    let choose = |tails: bool| if tails { 1.25 } else { 1.0 };
    let mine = expected_damage(ships, me, e, band, e_tails) * choose(me_tails);
    let shared = ships.enemy_count(e).max(1) as f64;
    let theirs = expected_damage(ships, e, me, band, me_tails) * choose(e_tails) / shared;
    mine - theirs
}

impl crate::battle::UnitsPolicy for Fleet {
    type Sheet = super::ShipSheet;
    type State = super::ShipState;
    type Action = Action;

    fn choose(
        &self,
        ships: &impl crate::battle::Units<Self::Sheet, Self::State>,
        unit: UnitId,
    ) -> Action {
        choose(self, ships, unit)
    }
}

/// What `me` does now.
pub fn choose(fleet: &Fleet, ships: &impl Ships, me: UnitId) -> Action {
    let legal = fleet.legal_actions(ships, me);
    match &fleet.phase {
        Phase::Range => choose_range(fleet, ships, me, &legal),
        Phase::Actions { .. } => choose_shot(fleet, ships, me, &legal),
        Phase::Start => Action::Hold,
    }
}

/// True when the ship has no weapon left that can fire (working, with a missile if a
/// launcher): it can only try to escape.
pub fn disarmed(ships: &impl Ships, me: UnitId) -> bool {
    let (Some(sheet), Some(ship)) = (ships.sheet_of(me), ships.state_of(me)) else {
        return true;
    };
    !sheet.systems.iter().enumerate().any(|(k, s)| {
        s.weapon
            .as_ref()
            .is_some_and(|w| ship.works(sheet, k) && (w.missile.is_none() || ship.ammo[k] > 0))
    })
}

/// How much damage a ship can still take: its systems' hit points, shields and armour.
fn toughness(ships: &impl Ships, id: UnitId) -> f64 {
    ships
        .state_of(id)
        .map_or(0.0, |s| f64::from(s.structure() + s.shields + s.armour))
}

/// True when `me` would break off (its side may flee): hurt in its systems and losing the
/// race: at the present ranges its enemies would wear it down before it wears
/// down the weakest of them.
fn fleeing(fleet: &Fleet, ships: &impl Ships, me: UnitId) -> bool {
    let side = ships.side_of(me).map_or(usize::MAX, usize::from);
    let (Some(sheet), Some(ship)) = (ships.sheet_of(me), ships.state_of(me)) else {
        return false;
    };
    if !fleet.may_flee.get(side).copied().unwrap_or(false) || ship.structure() >= sheet.structure()
    {
        return false;
    }
    let enemies = ships.enemies(me);
    let at = |a: UnitId, b: UnitId| {
        let band = fleet.band(ships, a, b).min(Band::Long);
        expected_damage(ships, a, b, band, fleet.tails(ships, b, a))
    };
    let taken: f64 = enemies.iter().map(|&e| at(e, me)).sum();
    let dealt = enemies
        .iter()
        .map(|&e| (toughness(ships, e), at(me, e)))
        .filter(|(_, d)| *d > 0.0)
        .map(|(t, d)| t / d)
        .fold(f64::INFINITY, f64::min);
    taken > 0.0 && toughness(ships, me) / taken < dealt
}

fn choose_range(fleet: &Fleet, ships: &impl Ships, me: UnitId, legal: &[Action]) -> Action {
    let opening = legal.iter().filter_map(|a| match a {
        Action::Range {
            target,
            direction: Direction::Farther,
            steps,
        } => Some((fleet.band(ships, me, *target), *target, *steps, a)),
        _ => None,
    });
    if disarmed(ships, me) {
        // Open the range to the closest enemy it may move against, as far as it may.
        let best =
            opening.min_by_key(|(band, target, steps, _)| (*band, *target, -i32::from(*steps)));
        return best.map_or(Action::Hold, |(.., a)| a.clone());
    }
    if fleeing(fleet, ships, me) {
        // Break off from the last enemy only with a move that leaves it at Long or
        // farther; a run from closer loses more ships than it saves, so it fights on.
        let enemies = ships.enemies(me);
        let away = opening.filter(|(band, target, steps, _)| {
            band.moved(i32::from(*steps)) >= Band::Long
                && enemies
                    .iter()
                    .all(|e| e == target || fleet.band(ships, me, *e) == Band::Escaped)
        });
        if let Some((.., a)) = away.min_by_key(|(_, target, steps, _)| (*target, *steps)) {
            return a.clone();
        }
    }
    let mut best = (0.0f64, Action::Hold);
    // The value of the range as it is, kept for the moves against the same enemy (listed
    // together).
    let mut now_value: Option<(UnitId, f64)> = None;
    for a in legal {
        let Action::Range {
            target,
            direction,
            steps,
        } = a
        else {
            continue;
        };
        let Some(now) = fleet.range(ships, me, *target) else {
            continue;
        };
        let after = move_range(now, me, *direction, i32::from(*steps));
        // Only a ship that breaks off leaves a fight; the others never open a range to
        // Escaped (it would end their part in the battle, not win it).
        if after.band == Band::Escaped {
            continue;
        }
        let value = |r: super::range::PairRange| {
            band_value(
                ships,
                me,
                *target,
                r.band,
                r.tailer == Some(me),
                r.tailer == Some(*target),
            )
        };
        let before = match now_value {
            Some((t, v)) if t == *target => v,
            _ => {
                let v = value(now);
                now_value = Some((*target, v));
                v
            }
        };
        let gain = value(after) - before;
        if gain > best.0 + 1e-9 {
            best = (gain, a.clone());
        }
    }
    best.1
}

fn choose_shot(fleet: &Fleet, ships: &impl Ships, me: UnitId, legal: &[Action]) -> Action {
    let Some(sheet) = ships.sheet_of(me) else {
        return Action::Pass;
    };
    let mut best = (0.0f64, Action::Pass);
    for a in legal {
        let Action::Fire {
            weapon,
            target,
            gunner,
            helpers,
        } = a
        else {
            continue;
        };
        let Some(w) = sheet
            .find(*weapon)
            .and_then(|i| sheet.systems[i].weapon.as_ref())
        else {
            continue;
        };
        let band = fleet.band(ships, me, *target);
        let (Some(target_sheet), Some(ship)) = (ships.sheet_of(*target), ships.state_of(*target))
        else {
            continue;
        };
        let Some(need) = gunnery::difficulty(band, w, target_sheet.defence) else {
            continue;
        };
        let bonus = sheet.shot_bonus(*gunner, helpers);
        let (_, damage) = gunnery::odds(bonus, need, w);
        let toughness = f64::from(ship.structure() + ship.shields + ship.armour).max(1.0);
        let value = damage * (1.0 + 10.0 / toughness);
        if value > best.0 + 1e-9 {
            best = (value, a.clone());
        }
    }
    // Nothing worth a shot: a spare crewman helps the next range roll, if the engines work.
    let engines = ships
        .state_of(me)
        .is_some_and(|ship| ship.can_manoeuvre(sheet));
    let skilled = |c: &u8| {
        sheet
            .crew
            .get(usize::from(*c))
            .is_some_and(|c| c.piloting > 0)
    };
    if best.1 == Action::Pass
        && engines
        && let Some(help) = legal
            .iter()
            .find(|a| matches!(a, Action::HelpPilot { crewman } if skilled(crewman)))
    {
        return help.clone();
    }
    best.1
}
