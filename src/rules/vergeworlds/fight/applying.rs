//! A Vergeworlds decision applied (vergeworlds-rough-methods.txt, "Combat Actions",
//! "Attitude", "Tactical Movement", "High Speed Movement", "Movement Modes"): attitudes,
//! walking and running, steering and flying, the actions that are not attacks, and the
//! answers to questions.

use super::*;
use std::sync::Mutex;

impl<F: Borrow<Fight>, U: VwUnits> Board<F, U> {
    // ----- applying -------------------------------------------------------------------------

    /// The cheapest walk of `u` to `to` ("Tactical Movement"): over the map, around the
    /// hexes where others still fighting stand on the ground ([`PathMemo`] answers again
    /// the question asked last).
    pub(super) fn path(&self, u: UnitId, to: Hex) -> Option<Vec<Hex>> {
        let map = self.map.as_ref()?;
        let from = self.state(u).pos;
        let mut occupied: Vec<Hex> = Vec::with_capacity(self.count());
        occupied.extend(
            self.ids()
                .filter(|&o| o != u && self.fighting(o) && self.state(o).alt <= 2.0)
                .map(|o| self.state(o).pos),
        );
        self.paths.path(map, from, to, occupied, |occupied| {
            map.path(from, to, |h| {
                if occupied.contains(&h) {
                    None
                } else {
                    map.move_cost(h)
                }
            })
        })
    }

    /// Whether `u` is in the air.
    pub fn flying(&self, u: UnitId) -> bool {
        let s = self.state(u);
        s.air.is_some() && s.alt > 0.0
    }

    /// Whether `u` is a floater (a Density score and no wings).
    pub fn floater(&self, u: UnitId) -> bool {
        self.sheet(u)
            .flight
            .as_ref()
            .is_some_and(|f| f.density.is_some() && f.wing_area <= 0.0)
    }

    /// The flight numbers of `u`, if it has wings or powered flight.
    pub fn glider(&self, u: UnitId) -> Option<Glider> {
        let sheet = self.sheet(u);
        let f = sheet.flight.as_ref().filter(|f| f.wing_area > 0.0)?;
        Some(Glider {
            weight_kg: sheet.weight,
            gravity_g: if self.gravity > 0.0 {
                self.gravity
            } else {
                1.0
            },
            wing_area: f.wing_area,
            glide: f.glide,
            lift_aid: f.lift_aid,
            size: sheet.size,
            action_score: f64::from(sheet.action_score),
            reach: 1.0,
        })
    }

    /// The glide column a flight plan flies in.
    pub fn fly_column(&self, u: UnitId, plan: &Fly) -> Column {
        let Some(g) = self.glider(u) else {
            return Column::LEVEL;
        };
        if plan.level {
            return Column::LEVEL;
        }
        let own = g.own_column();
        if plan.columns < 0 {
            own.left(plan.columns.unsigned_abs())
        } else {
            own.right(plan.columns as u32)
        }
    }

    /// The vector a flight plan leaves `u` with when it flies `horizontal` meters: the old
    /// heading turned and drifted as planned.
    pub(super) fn flown_vector(&self, u: UnitId, plan: &Fly, horizontal: f64) -> Vector {
        let old = self.state(u).vector.unwrap_or_default();
        let turned = vector::steer(
            &old,
            &Steer {
                accel: 0,
                turns: plan.turns,
                drift: plan.drift,
            },
        );
        Vector {
            speed: horizontal.round().max(0.0) as u32,
            ..turned
        }
    }

    /// The hex a flight plan aims `u` at this turn (walls and the map's edge may stop it
    /// short), for the map's preview.
    pub fn fly_target(&self, u: UnitId, plan: &Fly) -> Option<Hex> {
        let t = self.preview_fly(u, plan)?;
        Some(self.state(u).pos + self.flown_vector(u, plan, t.horizontal).offset())
    }

    /// What a flight plan would do this turn (the same arithmetic the turn uses).
    pub fn preview_fly(
        &self,
        u: UnitId,
        plan: &Fly,
    ) -> Option<crate::rules::vergeworlds::flight::GlideTurn> {
        if self.floater(u) {
            return self.preview_float(u, plan);
        }
        let g = self.glider(u)?;
        let s = self.state(u);
        let mut state = s.air?;
        state.altitude = s.alt;
        let choice = GlideChoice {
            column: self.fly_column(u, plan),
            climb: plan.climb,
            flaps_rs: f64::from(plan.flaps),
            pull_up: true,
            thrust: f64::from(plan.thrust),
            lift_thrust: 0.0,
        };
        Some(glide_turn(&g, state, choice))
    }

    /// A floater's turn as a flight: [`crate::rules::vergeworlds::flight::float_turn`] with the thrust planned.
    pub(super) fn preview_float(
        &self,
        u: UnitId,
        plan: &Fly,
    ) -> Option<crate::rules::vergeworlds::flight::GlideTurn> {
        let sheet = self.sheet(u);
        let spec = sheet.flight.as_ref()?;
        let density = spec.density?;
        let s = self.state(u);
        let speed = s.air.map_or(0.0, |a| a.speed);
        let floater = crate::rules::vergeworlds::flight::Floater {
            density_score: density,
            size: sheet.size,
            streamlining: spec.streamlining,
            action_score: f64::from(sheet.action_score),
            climb: f64::from(sheet.maneuver),
        };
        let (speed, altitude, drag) = crate::rules::vergeworlds::flight::float_turn(
            &floater,
            speed,
            s.alt,
            f64::from(plan.thrust),
        );
        Some(crate::rules::vergeworlds::flight::GlideTurn {
            state: GlideState {
                speed,
                altitude,
                column: Column::LEVEL,
                stalled: false,
            },
            flew: true,
            stall_speed: 0.0,
            gravity: 0.0,
            drag,
            horizontal: speed,
            altitude_lost: s.alt - altitude,
            reached_ground: altitude <= 0.0,
        })
    }
}

impl<F: BorrowMut<Fight>, U: VwUnitsMut> Board<F, U> {
    /// Applies a checked decision.
    pub fn apply(
        &mut self,
        u: UnitId,
        action: Action,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let turn_action = !matches!(action, Action::Defense(_) | Action::Mana(_));
        if matches!(
            action,
            Action::Defend
                | Action::Evade
                | Action::Recovery
                | Action::Concentrate
                | Action::GetUp
                | Action::Reload(_)
                | Action::Draw(_)
                | Action::Run(_)
        ) {
            self.lose_focus(u, "another action came first", events);
        }
        self.apply_action(u, action, dice, events);
        if turn_action
            && self.active == Some(u)
            && self.prompt.is_none()
            && self.pending.is_none()
            && self.fighting(u)
        {
            self.interrupts(u, dice, events);
        }
    }

    pub(super) fn apply_action(
        &mut self,
        u: UnitId,
        action: Action,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        match action {
            Action::Defense(k) => {
                self.prompt = None;
                if let Some(p) = &mut self.pending {
                    p.defense = Some(k);
                }
                self.continue_attack(dice, events);
            }
            Action::Mana(m) => {
                let prompt = self.prompt.take();
                self.spend_mana(u, prompt, m, dice, events);
                self.continue_attack(dice, events);
            }
            Action::Attitude(a) => {
                let s = self.state_mut(u);
                s.attitude = a;
                s.attitude_chosen = true;
                if a.breath() > 0 {
                    self.breath(u, a.breath(), events);
                }
            }
            Action::Move(to) => self.walk(u, hex(to), false, events),
            Action::Run(to) => self.walk(u, hex(to), true, events),
            Action::Steer(plan) => self.steer(u, plan, dice, events),
            Action::Fly(plan) => self.fly(u, plan, dice, events),
            Action::Attack(a) => {
                self.take_action(u);
                self.declare_attack(u, a, dice, events);
            }
            Action::AreaFire { weapon, at, shots } => {
                self.take_action(u);
                self.area_fire(u, weapon, hex(at), shots, dice, events);
            }
            Action::Grapple { target, mode } => {
                self.take_action(u);
                self.grapple(u, target, mode, dice, events);
            }
            Action::Defend => {
                self.take_action(u);
                self.state_mut(u).free_defenses += 1;
            }
            Action::Evade => {
                self.take_action(u);
                let roll = self.defense_roll(u, None, DefenseKind::Normal, true, dice);
                log_only(events, self.quiet, || BattleEvent::Roll {
                    unit: u,
                    purpose: "Evade (one defense against every attack)".into(),
                    roll: roll.clone(),
                    result: format!("defense {}", roll.total).into(),
                });
                self.state_mut(u).evade = Some(roll);
            }
            Action::Focus => {
                self.take_action(u);
                self.state_mut(u).focus = true;
                self.end_turn(u, events);
            }
            Action::Wait => {
                let s = self.state_mut(u);
                s.ap += TURN_AP;
                s.waiting = true;
                self.order.pop();
                self.end_turn(u, events);
            }
            Action::Concentrate => {
                self.take_action(u);
                log_only(events, self.quiet, || BattleEvent::Note {
                    unit: Some(u),
                    text: "concentrates: the rest of the turn's actions are spent on the task"
                        .into(),
                });
                self.end_turn(u, events);
            }
            Action::Recovery => {
                self.take_action(u);
                let sheet = self.shared_sheet(u);
                let t = task::task(dice, vec![Modifier::new("Vigor", sheet.vigor)], 6, 0);
                let ok = t.succeeded();
                log_only(events, self.quiet, || BattleEvent::Roll {
                    unit: u,
                    purpose: "Recovery (Vigor, DC 6)".into(),
                    roll: t.roll,
                    result: if ok {
                        "one Breath back"
                    } else {
                        "no Breath back"
                    }
                    .into(),
                });
                if ok {
                    let s = self.state_mut(u);
                    s.breath = (s.breath + 1).min(sheet.stamina);
                }
                self.end_turn(u, events);
            }
            Action::GetUp => {
                self.take_action(u);
                self.state_mut(u).prone = false;
            }
            Action::Reload(w) => {
                self.take_action(u);
                let cap = self.sheet(u).weapons[w].shots.unwrap_or(0);
                let loose = self.sheet(u).weapons[w].loose;
                let s = self.state_mut(u);
                let now = s.loaded[w].unwrap_or(0);
                if loose {
                    let n = if s.actions <= 1 { 1 } else { 2 };
                    let n = n.min(cap - now).min(s.spare[w]);
                    s.loaded[w] = Some(now + n);
                    s.spare[w] -= n;
                } else {
                    s.loaded[w] = Some(cap);
                    s.spare[w] -= 1;
                }
            }
            Action::Draw(w) => {
                self.take_action(u);
                self.state_mut(u).drawn[w] = true;
            }
            Action::EndTurn => self.end_turn(u, events),
        }
    }

    pub(super) fn take_action(&mut self, u: UnitId) {
        let s = self.state_mut(u);
        s.actions += 1;
        s.defended_against = None;
    }

    /// "Focus": the bonus is for the very next action; another action, or a defense, loses it.
    pub(super) fn lose_focus(&mut self, u: UnitId, why: &str, events: &mut Vec<BattleEvent>) {
        if std::mem::take(&mut self.state_mut(u).focus) {
            log_only(events, self.quiet, || BattleEvent::Note {
                unit: Some(u),
                text: format!("loses the Focus ({why})"),
            });
        }
    }

    pub(super) fn breath(&mut self, u: UnitId, cost: i32, events: &mut Vec<BattleEvent>) {
        let quiet = self.quiet;
        let s = self.state_mut(u);
        for _ in 0..cost {
            if s.breath > 0 {
                s.breath -= 1;
            } else {
                // "Exertion": out of Breath, each cost is a fifth of a Fatigue point.
                s.fatigue += 1;
                log_only(events, quiet, || BattleEvent::Note {
                    unit: Some(u),
                    text: "out of Breath: 1/5 Fatigue".into(),
                });
            }
        }
    }

    pub(super) fn walk(&mut self, u: UnitId, to: Hex, run: bool, events: &mut Vec<BattleEvent>) {
        let Some(path) = self.path(u, to) else { return };
        let steps = path.len().saturating_sub(1) as u32;
        let sheet = self.shared_sheet(u);
        if run {
            self.take_action(u);
            self.state_mut(u).ran = true;
            // "Exertion": a full action at more than half of Top Speed costs 2 Breath.
            let cost = if 2 * steps > sheet.top_speed { 2 } else { 1 };
            self.breath(u, cost, events);
            // "High Speed Movement": from a stop, more than a quarter of the Maneuver moves
            // half the change: the character now carries a vector of twice the distance.
            if steps > vector::free_distance(sheet.maneuver) {
                let heading = vector::heading_of(to - self.state(u).pos);
                let v = Vector {
                    heading,
                    speed: (2 * steps).min(sheet.maneuver).min(sheet.top_speed),
                    drift: 0,
                };
                self.state_mut(u).vector = Some(v);
                self.state_mut(u).steered = true;
                log_only(events, self.quiet, || BattleEvent::Note {
                    unit: Some(u),
                    text: format!("runs into high-speed movement: vector {} m/turn", v.speed),
                });
            }
        } else if steps > 1 && self.state(u).moved <= 1 {
            self.breath(u, 1, events);
        }
        self.release_holds(u);
        let s = self.state_mut(u);
        s.pos = to;
        s.moved += steps;
        log_only(events, self.quiet, || BattleEvent::Moved {
            unit: u,
            path: path.into_iter().map(hex_pair).collect(),
            cost: steps,
        });
    }

    pub(super) fn release_holds(&mut self, u: UnitId) {
        self.state_mut(u).control.clear();
    }

    pub(super) fn steer(
        &mut self,
        u: UnitId,
        plan: Steer,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let Some(old) = self.state(u).vector else {
            return;
        };
        let new = vector::steer(&old, &plan);
        let from = self.state(u).pos;
        let to = vector::step(from, &old, &new);
        self.take_action(u);
        let sheet = self.shared_sheet(u);
        let cost = if new.speed * 2 > sheet.top_speed {
            2
        } else {
            1
        };
        self.breath(u, cost, events);
        // Walk the line; stop at the first wall, edge or character: a collision. The
        // others still fighting, in unit order, are where they are all along the line.
        let others: Vec<(UnitId, Hex)> = self
            .ids()
            .filter(|&o| o != u && self.fighting(o))
            .map(|o| (o, self.state(o).pos))
            .collect();
        let map = self.map.clone();
        let hexes = line(from, to);
        // The first step whose hex stops the vector: found from the walls and the others
        // when the line is known to stay on the map, else hex by hex.
        let first = match map.as_ref().and_then(|m| m.walls_inside(from, to)) {
            Some(walls) => {
                hexes.first_of(walls.iter().copied().chain(others.iter().map(|&(_, p)| p)))
            }
            None => hexes
                .clone()
                .skip(1)
                .position(|h| {
                    map.as_ref()
                        .is_some_and(|m| m.move_cost(h).is_none() || !m.contains(h))
                        || others.iter().any(|&(_, p)| p == h)
                })
                .map(|p| p as u32 + 1),
        };
        let (at, hit) = match first {
            Some(k) => {
                let h = hexes.at(k);
                let other = others.iter().find(|&&(_, p)| p == h).map(|&(o, _)| o);
                (hexes.at(k - 1), Some((h, other)))
            }
            None => (hexes.at(hexes.len() as u32 - 1), None),
        };
        let s = self.state_mut(u);
        s.steered = true;
        s.ran = true;
        let moved = from.unsigned_distance_to(at);
        s.moved += moved;
        s.pos = at;
        s.vector = Some(new);
        log_only(events, self.quiet, || BattleEvent::Moved {
            unit: u,
            path: from.line_to(at).map(hex_pair).collect(),
            cost: moved,
        });
        if let Some((_, other)) = hit {
            let speed = old.speed.max(new.speed) as f64;
            self.state_mut(u).vector = None;
            self.collision(u, other, speed, dice, events);
        }
    }

    /// A collision at `speed` m a turn (decision: the blow of an unarmed strike whose
    /// effective Brawn is that of a high-speed blow, "High Speed", to both parties).
    pub(super) fn collision(
        &mut self,
        u: UnitId,
        other: Option<UnitId>,
        speed: f64,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let sheet = self.shared_sheet(u);
        let brawn = combat::high_speed_brawn(sheet.brawn, speed, sheet.action_score);
        log_only(events, self.quiet, || BattleEvent::Note {
            unit: Some(u),
            text: format!(
                "collides with {} at {speed:.0} m/turn (effective Brawn {brawn:+.2})",
                other.map_or(
                    if self.state(u).alt <= 0.0 && self.state(u).air.is_some() {
                        "the ground"
                    } else {
                        "a wall"
                    },
                    |o| self.name(o)
                )
            ),
        });
        let victims: Vec<UnitId> = std::iter::once(u).chain(other).collect();
        for v in victims {
            let r = (dice.roll_die(6) + dice.roll_die(6)) as i32;
            let pen = injury::muscle_pen(r, sheet.unarmed.pen_rs + brawn);
            let loc = combat::HUMAN_CHART[(dice.roll_die(10) - 1) as usize];
            let mut blow = unarmed(self.sheet(v));
            blow.name = "impact".into();
            self.damage(None, v, &blow, pen, loc, dice, events);
        }
    }

    pub(super) fn fly(
        &mut self,
        u: UnitId,
        plan: Fly,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let Some(result) = self.preview_fly(u, &plan) else {
            return;
        };
        // "Flight:": gliding and floating are effortless and need no action; thrust is
        // powered movement, an action like a Run.
        if plan.thrust > 0 {
            self.take_action(u);
        }
        let sheet = self.shared_sheet(u);
        let power = sheet.flight.as_ref().map_or(0, |f| f.power);
        if plan.thrust > 0 {
            let cost = crate::rules::vergeworlds::flight::breath_cost(
                f64::from(power),
                f64::from(plan.thrust),
                0.0,
            );
            self.breath(u, cost as i32, events);
        }
        let v = self.flown_vector(u, &plan, result.horizontal);
        let from = self.state(u).pos;
        let to = from + v.offset();
        // Walls stop low fliers (a collision); the map's edge only stops the flight there
        // (decision: the battle is what happens on the map).
        let alt = self.state(u).alt - result.altitude_lost;
        let map = self.map.clone();
        let hexes = line(from, to);
        // The first step that stops the flight, and whether it hit a wall: found from the
        // walls (none for a high flier) when the line is known to stay on the map, else
        // hex by hex.
        let stop = match map.as_ref().and_then(|m| m.walls_inside(from, to)) {
            Some(walls) if alt <= 2.0 => hexes.first_of(walls.iter().copied()).map(|k| (k, true)),
            Some(_) => None,
            None => hexes.clone().skip(1).zip(1..).find_map(|(h, k)| {
                if map.as_ref().is_some_and(|m| !m.contains(h)) {
                    Some((k, false))
                } else if alt <= 2.0 && map.as_ref().is_some_and(|m| m.move_cost(h).is_none()) {
                    Some((k, true))
                } else {
                    None
                }
            }),
        };
        let (at, hit) = match stop {
            Some((k, wall)) => (hexes.at(k - 1), wall),
            None => (hexes.at(hexes.len() as u32 - 1), false),
        };
        let s = self.state_mut(u);
        s.steered = true;
        s.pos = at;
        s.moved += from.unsigned_distance_to(at);
        s.alt = alt.max(0.0);
        s.air = Some(result.state);
        s.vector = Some(v);
        log_only(events, self.quiet, || BattleEvent::Moved {
            unit: u,
            path: from.line_to(at).map(hex_pair).collect(),
            cost: from.unsigned_distance_to(at),
        });
        log_only(events, self.quiet, || BattleEvent::Note {
            unit: Some(u),
            text: format!(
                "{}: airspeed {:.1} m/turn (gravity {:+.1}, drag -{:.1}, stall {:.1}), {:.0} m on, altitude {:.0} m{}",
                if result.flew {
                    "flies"
                } else {
                    "falls, stalled"
                },
                result.state.speed,
                result.gravity,
                result.drag,
                result.stall_speed,
                result.horizontal,
                alt.max(0.0),
                if result.state.stalled {
                    " (stalled)"
                } else {
                    ""
                }
            ),
        });
        if result.reached_ground || hit {
            // Down: landing gently below stall speed and shallow, else a collision.
            let speed = result.state.speed;
            let stall = result.stall_speed;
            let s = self.state_mut(u);
            s.vector = None;
            if result.reached_ground {
                s.alt = 0.0;
                s.air = Some(GlideState {
                    speed: 0.0,
                    altitude: 0.0,
                    ..result.state
                });
            }
            if hit || speed > stall.max(4.0) || result.state.stalled {
                self.collision(u, None, speed, dice, events);
            } else {
                log_only(events, self.quiet, || BattleEvent::Note {
                    unit: Some(u),
                    text: "lands".into(),
                });
            }
        }
    }
}

/// A walk's question: the map, where from and where to, and the hexes closed to it.
type PathQuestion = (Arc<HexMap>, Hex, Hex, Vec<Hex>);

/// The last walk [`Board::path`] found, with the question it answers: the AI checks the
/// move it picks, the battle checks it again and then walks it, three searches of one
/// question in one step. A path is a function of the map (the very map, kept here),
/// the two ends and the closed hexes, so the memo's answer is the search's.
#[derive(Debug, Default)]
pub struct PathMemo(Mutex<Option<(PathQuestion, Option<Vec<Hex>>)>>);

/// A copy of a fight starts with no memo.
impl Clone for PathMemo {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl PathMemo {
    /// The answer of `search` (given the closed hexes `occupied`) to the walk on `map`
    /// from `from` to `to`: the memo's when it holds this very question, else searched
    /// and kept.
    fn path(
        &self,
        map: &Arc<HexMap>,
        from: Hex,
        to: Hex,
        occupied: Vec<Hex>,
        search: impl FnOnce(&[Hex]) -> Option<Vec<Hex>>,
    ) -> Option<Vec<Hex>> {
        let same = |q: &PathQuestion| {
            Arc::ptr_eq(&q.0, map) && q.1 == from && q.2 == to && q.3 == occupied
        };
        if let Ok(memo) = self.0.lock()
            && let Some((q, answer)) = memo.as_ref()
            && same(q)
        {
            return answer.clone();
        }
        let answer = search(&occupied);
        if let Ok(mut memo) = self.0.lock() {
            *memo = Some(((Arc::clone(map), from, to, occupied), answer.clone()));
        }
        answer
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{Session, SessionOptions};

    /// The walks [`Board::path`] answers, from its memo or searched, are the searches'
    /// own, as characters move, fall and walk about, asked once and asked again.
    #[test]
    fn remembered_walks_equal_walks_searched_afresh() {
        let prepared = crate::rules::builtin()
            .load(std::path::Path::new("scenarios/vw-warehouse-firefight.ron"))
            .expect("scenario loads");
        let mut world = Session::new(Arc::new(prepared), 0, SessionOptions::default()).world;
        let Some(fight) = world.remove_resource::<Fight>() else {
            panic!("no Vergeworlds fight");
        };
        let mut f = Board {
            fight,
            units: world,
        };
        let Some(map) = f.map.clone() else {
            panic!("the warehouse has a map");
        };
        let ids: Vec<UnitId> = f.ids().collect();
        let mut seed = 99u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) % n) as i32
        };
        for step in 0..3000 {
            let u = ids[next(ids.len() as u64) as usize];
            if step % 4 == 0 {
                let s = f.state_mut(u);
                s.pos = Hex::new(next(30) - 6, next(12));
                s.hurt = if next(6) == 0 {
                    Hurt::Down
                } else {
                    Hurt::Fighting
                };
            }
            let to = Hex::new(next(30) - 6, next(12));
            let from = f.state(u).pos;
            let occupied: Vec<Hex> = f
                .ids()
                .filter(|&o| o != u && f.fighting(o) && f.state(o).alt <= 2.0)
                .map(|o| f.state(o).pos)
                .collect();
            let fresh = map.path(from, to, |h| {
                if occupied.contains(&h) {
                    None
                } else {
                    map.move_cost(h)
                }
            });
            assert_eq!(f.path(u, to), fresh, "step {step}");
            assert_eq!(f.path(u, to), fresh, "step {step}, asked again");
        }
    }
}
