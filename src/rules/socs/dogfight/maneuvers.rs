//! The SOCS maneuver phase of a [`Dogfight`] (gurps-lite-and-socs.txt, SOCS "MANEUVER
//! PHASE", "MANEUVER OFFENSIVELY", "MANEUVER DEFENSIVELY", "REVERSAL", "FOLLOW THE
//! LEADER"): piloting rolls and their modifiers, the maneuvers resolved in declared order,
//! Position gained and lost, reversals, following the leader and crashes.

use super::*;

impl Dogfight {
    pub(super) fn piloting_mods(&self, id: UnitId, extra: Vec<Modifier>) -> Vec<Modifier> {
        let mut mods = self.piloting_alone(id, vec![]);
        mods.push(Modifier::new("MR", self.craft(id).stats.mr));
        mods.extend(extra.into_iter().filter(|m| m.value != 0));
        mods
    }

    /// The pilot's Piloting without the craft's MR, plus `extra` ("Go Totally Defensive").
    pub(super) fn piloting_alone(&self, id: UnitId, extra: Vec<Modifier>) -> Vec<Modifier> {
        let c = self.craft(id);
        let mut mods = vec![Modifier::named(
            format!("{} Piloting", c.stats.pilot.name),
            c.stats.pilot.piloting,
        )];
        mods.extend(extra.into_iter().filter(|m| m.value != 0));
        mods
    }

    /// A piloting roll of `id`; in a furball a critical failure collides with a random
    /// craft (both take a heavy hit: a decision for the text's "collision").
    pub(super) fn pilot_roll(
        &mut self,
        id: UnitId,
        purpose: &'static str,
        extra: Vec<Modifier>,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) -> RollRecord {
        let mods = self.piloting_mods(id, extra);
        self.roll_piloting(id, purpose, mods, dice, events)
    }

    /// A piloting roll of `id` against `mods` (logged; the furball collision on a
    /// critical failure).
    pub(super) fn roll_piloting(
        &mut self,
        id: UnitId,
        purpose: &'static str,
        mods: Vec<Modifier>,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) -> RollRecord {
        let roll = success_roll(dice, mods);
        events.push(BattleEvent::Roll {
            unit: id,
            purpose: Cow::Borrowed(purpose),
            result: Cow::Borrowed(match (roll.critical, roll.succeeded()) {
                (Some(crate::dice::Critical::Success), _) => "critical success",
                (Some(crate::dice::Critical::Failure), _) => "critical failure",
                (None, true) => "success",
                (None, false) => "failure",
            }),
            roll: roll.clone(),
        });
        if roll.critical == Some(crate::dice::Critical::Failure)
            && self.furball()
            && self.in_fight(id)
        {
            let others: Vec<UnitId> = self.fighting().into_iter().filter(|&o| o != id).collect();
            if !others.is_empty() {
                let k = dice.roll_die(others.len() as u32) as usize - 1;
                let other = others[k];
                events.push(BattleEvent::Note {
                    unit: Some(id),
                    text: format!("furball: collides with {}", self.name(other)),
                });
                self.hit(other, id, Firepower::Heavy, dice, events);
                self.hit(id, other, Firepower::Heavy, dice, events);
            }
        }
        roll
    }

    pub(super) fn lose_all_bonuses(&mut self, me: UnitId) {
        let held: Vec<(UnitId, UnitId)> = self
            .position
            .keys()
            .filter(|(a, _)| *a == me)
            .copied()
            .collect();
        for k in held {
            self.position.remove(&k);
        }
        self.states[me.0 as usize]
            .sustained
            .iter_mut()
            .for_each(|s| *s = None);
    }

    /// The maneuvers, in the order declared ("MANEUVER PHASE").
    pub(super) fn resolve_maneuvers(
        &mut self,
        declared: &[(UnitId, Maneuver, i32)],
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        // Offensives answered by a reversal are settled by the contest instead:
        // (attacker, defender, attacker's GM modifier).
        let reversed: Vec<(UnitId, UnitId, i32)> = declared
            .iter()
            .filter_map(|(me, m, _)| match m {
                Maneuver::Reversal { target } => declared
                    .iter()
                    .find(|(u, d, _)| *u == *target && *d == Maneuver::Offensive { target: *me })
                    .map(|(_, _, gm)| (*target, *me, *gm)),
                _ => None,
            })
            .collect();
        for (me, maneuver, gm) in declared {
            let me = *me;
            if !self.in_fight(me) {
                continue;
            }
            let gm = Modifier::new("GM", *gm);
            match maneuver {
                Maneuver::FlyStraight => {}
                Maneuver::Offensive { target } => {
                    let t = *target;
                    // The gunners' Sustained Fire bonuses are lost, unless the pilot fires.
                    let craft = self.crafts[me.0 as usize].clone();
                    for (w, s) in self.states[me.0 as usize].sustained.iter_mut().enumerate() {
                        if !craft.pilot_fires(w) {
                            *s = None;
                        }
                    }
                    if reversed.iter().any(|r| (r.0, r.1) == (me, t)) || !self.in_fight(t) {
                        continue;
                    }
                    let roll = self.pilot_roll(me, "Maneuver Offensively", vec![gm], dice, events);
                    let old = self.position_ab(me, t);
                    let new = offensive_result(old, &roll);
                    self.set_position(me, t, new);
                    self.position_note(me, t, old, new, events);
                }
                Maneuver::Defensive { target, weapon } => {
                    let t = *target;
                    self.lose_all_bonuses(me);
                    let roll = self.pilot_roll(me, "Maneuver Defensively", vec![gm], dice, events);
                    match weapon {
                        None => {
                            let old = self.position_ab(t, me);
                            let new = defensive_result(old, &roll);
                            self.set_position(t, me, new);
                            self.position_note(t, me, old, new, events);
                        }
                        Some(w) => {
                            let w = usize::from(*w);
                            let old = self.sustained_ab(t, w, me);
                            let new = defensive_result(old, &roll);
                            if let Some(s) = self.states[t.0 as usize].sustained.get_mut(w) {
                                *s = (new > 0).then_some((me, new));
                            }
                            events.push(BattleEvent::Note {
                                unit: Some(t),
                                text: format!(
                                    "Sustained Fire AB of gun {w} on {}: {old} -> {new}",
                                    self.name(me)
                                ),
                            });
                        }
                    }
                }
                Maneuver::TotallyDefensive => {
                    self.lose_all_bonuses(me);
                    self.states[me.0 as usize].skip_fire = true;
                    // "Go Totally Defensive" is rolled against Piloting alone, without MR.
                    let mods = self.piloting_alone(me, vec![gm]);
                    let roll = self.roll_piloting(me, "Go Totally Defensive", mods, dice, events);
                    for f in self.foes(me) {
                        let old = self.position_ab(f, me);
                        let new = defensive_result(old, &roll);
                        if old != new {
                            self.set_position(f, me, new);
                            self.position_note(f, me, old, new, events);
                        }
                        for w in 0..self.crafts[f.0 as usize].stats.weapons.len() {
                            let old = self.sustained_ab(f, w, me);
                            if old > 0 {
                                let new = defensive_result(old, &roll);
                                self.states[f.0 as usize].sustained[w] =
                                    (new > 0).then_some((me, new));
                            }
                        }
                    }
                }
                Maneuver::Reversal { target } => {
                    match reversed.iter().find(|r| (r.0, r.1) == (*target, me)) {
                        Some(&(_, _, theirs)) => {
                            let theirs = Modifier::new("GM", theirs);
                            self.reversal(*target, me, theirs, gm, dice, events);
                        }
                        None => events.push(BattleEvent::Note {
                            unit: Some(me),
                            text: format!(
                                "{} did not maneuver offensively against it: the reversal comes to nothing",
                                self.name(*target)
                            ),
                        }),
                    }
                }
                Maneuver::FollowTheLeader { penalty } => {
                    self.follow_the_leader(me, *penalty, gm, dice, events)
                }
                Maneuver::Gm { index, target } => {
                    let Some(g) = self.gm_maneuvers.get(usize::from(*index)).cloned() else {
                        continue;
                    };
                    let t = *target;
                    let roll = self.pilot_roll(
                        me,
                        "GM maneuver",
                        vec![Modifier::named(g.name.clone(), g.modifier), gm],
                        dice,
                        events,
                    );
                    if roll.succeeded() && self.in_fight(t) {
                        let old = self.range(me, t);
                        let new = old.moved(match g.effect {
                            GmEffect::CloseRange => -1,
                            GmEffect::OpenRange => 1,
                        });
                        self.set_range(me, t, new);
                        if new == SocsRange::OutOfRange {
                            self.left.push((me, t));
                        }
                        events.push(BattleEvent::Note {
                            unit: Some(me),
                            text: format!("{}: range to {} {old} -> {new}", g.name, self.name(t)),
                        });
                    }
                }
            }
        }
    }

    pub(super) fn position_note(
        &self,
        a: UnitId,
        b: UnitId,
        old: i32,
        new: i32,
        events: &mut Vec<BattleEvent>,
    ) {
        if old == new {
            events.push(BattleEvent::Note {
                unit: Some(a),
                text: format!("Position AB on {} stays {old}", self.name(b)),
            });
            return;
        }
        events.push(BattleEvent::Note {
            unit: Some(a),
            text: format!("Position AB on {}: {old} -> {new}", self.name(b)),
        });
    }

    /// "REVERSAL": a Quick Contest of Piloting + MR between `attacker` (who maneuvered
    /// offensively) and `defender`.
    pub(super) fn reversal(
        &mut self,
        attacker: UnitId,
        defender: UnitId,
        attacker_gm: Modifier,
        gm: Modifier,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        if !self.in_fight(attacker) {
            return;
        }
        let a = self.pilot_roll(
            attacker,
            "Reversal contest (attacker)",
            vec![attacker_gm],
            dice,
            events,
        );
        let d = self.pilot_roll(
            defender,
            "Reversal contest (defender)",
            vec![gm],
            dice,
            events,
        );
        let winner = quick_contest(&a, &d);
        let crit = |r: &RollRecord| r.critical == Some(crate::dice::Critical::Success);
        let old = self.position_ab(attacker, defender);
        if winner == std::cmp::Ordering::Greater {
            let new = if old == 0 { 2 } else { old * 2 };
            self.set_position(attacker, defender, new);
            self.position_note(attacker, defender, old, new, events);
            if crit(&a) {
                self.states[attacker.0 as usize].auto_hit = true;
                events.push(BattleEvent::Note {
                    unit: Some(attacker),
                    text: "critical success: its gunners hit automatically next turn".into(),
                });
            }
        } else if winner == std::cmp::Ordering::Less {
            if crit(&d) {
                // The swap, within the class restrictions: a craft that may not gain
                // Position on the other gets none.
                let back = self.position_ab(defender, attacker);
                let mine = if self.may_gain_position(defender, attacker) {
                    old
                } else {
                    0
                };
                let theirs = if self.may_gain_position(attacker, defender) {
                    back
                } else {
                    0
                };
                self.set_position(defender, attacker, mine);
                self.set_position(attacker, defender, theirs);
                events.push(BattleEvent::Note {
                    unit: Some(defender),
                    text: format!(
                        "critical success: swaps places with {} (Position AB on it {back} -> {mine}; its on this craft {old} -> {theirs})",
                        self.name(attacker)
                    ),
                });
            } else {
                self.set_position(attacker, defender, 0);
                self.position_note(attacker, defender, old, 0, events);
            }
        } else {
            events.push(BattleEvent::Note {
                unit: Some(defender),
                text: "the reversal contest is a tie: nothing changes".into(),
            });
        }
    }

    /// "FOLLOW THE LEADER": the leader and each chaser (a foe with Position on the leader)
    /// roll Piloting + MR at the leader's penalty.
    pub(super) fn follow_the_leader(
        &mut self,
        leader: UnitId,
        penalty: i32,
        gm: Modifier,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let pen = Modifier::new("hazard", -penalty.abs());
        let lead = self.pilot_roll(
            leader,
            "Follow the Leader (lead)",
            vec![pen.clone(), gm],
            dice,
            events,
        );
        let crit = |r: &RollRecord, c| r.critical == Some(c);
        use crate::dice::Critical::{Failure, Success};
        if crit(&lead, Failure) {
            self.crash(leader, events);
            return;
        }
        let chasers: Vec<UnitId> = self
            .foes(leader)
            .into_iter()
            .filter(|&f| self.position_ab(f, leader) > 0)
            .collect();
        for c in chasers {
            let old = self.position_ab(c, leader);
            if self.crafts[c.0 as usize].stats.class.group() >= SizeGroup::Line {
                self.set_position(c, leader, 0);
                self.position_note(c, leader, old, 0, events);
                self.lost.push((c, leader));
                continue;
            }
            let roll = self.pilot_roll(
                c,
                "Follow the Leader (chase)",
                vec![pen.clone()],
                dice,
                events,
            );
            if crit(&roll, Failure) {
                self.crash(c, events);
                continue;
            }
            let mut new = old;
            if crit(&roll, Success) {
                new += 1;
            } else if !roll.succeeded() {
                new = 0;
            }
            if crit(&lead, Success) {
                new -= 1;
            } else if !lead.succeeded() && new > 0 {
                new += 1;
            }
            let new = new.max(0);
            self.set_position(c, leader, new);
            self.position_note(c, leader, old, new, events);
            if new == 0 {
                self.lost.push((c, leader));
                events.push(BattleEvent::Note {
                    unit: Some(c),
                    text: format!(
                        "loses {}: its guns cannot find it next fire phase",
                        self.name(leader)
                    ),
                });
            }
        }
    }

    pub(super) fn crash(&mut self, id: UnitId, events: &mut Vec<BattleEvent>) {
        self.states[id.0 as usize].out = Some(Fate::Destroyed);
        let i = id.0 as usize;
        self.states[i].alive.iter_mut().for_each(|a| *a = false);
        events.push(BattleEvent::StatusChanged {
            unit: id,
            standing: Standing::Destroyed,
            cause: Cow::Borrowed("critical failure following the leader: the ship is lost"),
        });
    }
}

/// "MANEUVER OFFENSIVELY": success +1 Position AB; critical success doubles it (0 becomes
/// 2); critical failure drops it to 0.
pub fn offensive_result(old: i32, roll: &RollRecord) -> i32 {
    use crate::dice::Critical::{Failure, Success};
    match roll.critical {
        Some(Success) => {
            if old == 0 {
                2
            } else {
                old * 2
            }
        }
        Some(Failure) => 0,
        None if roll.succeeded() => old + 1,
        None => old,
    }
}

/// "MANEUVER DEFENSIVELY": success lowers the foe's bonus by 1; critical success to 0;
/// critical failure doubles it.
pub fn defensive_result(old: i32, roll: &RollRecord) -> i32 {
    use crate::dice::Critical::{Failure, Success};
    match roll.critical {
        Some(Success) => 0,
        Some(Failure) => old * 2,
        None if roll.succeeded() => (old - 1).max(0),
        None => old,
    }
}
