//! The SOCS maneuver phase of a [`Dogfight`] (gurps-lite-and-socs.txt, SOCS "MANEUVER
//! PHASE", "MANEUVER OFFENSIVELY", "MANEUVER DEFENSIVELY", "REVERSAL", "FOLLOW THE
//! LEADER"): piloting rolls and their modifiers, the maneuvers resolved in declared order,
//! Position gained and lost, reversals, following the leader and crashes.

use super::*;

impl Dogfight {
    pub(super) fn piloting_mods(
        &self,
        crafts: &impl Crafts,
        id: UnitId,
        extra: Vec<Modifier>,
    ) -> Vec<Modifier> {
        let mut mods = self.piloting_alone(crafts, id, vec![]);
        mods.push(Modifier::new("MR", crafts.craft(id).stats.mr));
        mods.extend(extra.into_iter().filter(|m| m.value != 0));
        mods
    }

    /// The pilot's Piloting without the craft's MR, plus `extra` ("Go Totally Defensive").
    pub(super) fn piloting_alone(
        &self,
        crafts: &impl Crafts,
        id: UnitId,
        extra: Vec<Modifier>,
    ) -> Vec<Modifier> {
        let c = crafts.craft(id);
        let mut mods = vec![self.modifier(c.stats.pilot.piloting, || {
            format!("{} Piloting", c.stats.pilot.name).into()
        })];
        mods.extend(extra.into_iter().filter(|m| m.value != 0));
        mods
    }

    /// A piloting roll of `id`; in a furball a critical failure collides with a random
    /// craft (both take a heavy hit: a decision for the text's "collision").
    pub(super) fn pilot_roll(
        &mut self,
        crafts: &mut impl CraftsMut,
        id: UnitId,
        purpose: &'static str,
        extra: Vec<Modifier>,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) -> RollRecord {
        let mods = self.piloting_mods(crafts, id, extra);
        self.roll_piloting(crafts, id, purpose, mods, dice, events)
    }

    /// A piloting roll of `id` against `mods` (logged; the furball collision on a
    /// critical failure).
    pub(super) fn roll_piloting(
        &mut self,
        crafts: &mut impl CraftsMut,
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
            && crafts.furball()
            && crafts.in_fight(id)
        {
            let others: Vec<UnitId> = crafts.fighting().into_iter().filter(|&o| o != id).collect();
            if !others.is_empty() {
                let k = dice.roll_die(others.len() as u32) as usize - 1;
                let other = others[k];
                events.push(BattleEvent::Note {
                    unit: Some(id),
                    text: format!("furball: collides with {}", crafts.name_of(other)),
                });
                self.hit(crafts, other, id, Firepower::Heavy, dice, events);
                self.hit(crafts, id, other, Firepower::Heavy, dice, events);
            }
        }
        roll
    }

    pub(super) fn lose_all_bonuses(&mut self, crafts: &mut impl CraftsMut, me: UnitId) {
        self.drop_positions(crafts, me);
        crafts
            .craft_mut(me)
            .sustained
            .iter_mut()
            .for_each(|s| *s = None);
    }

    /// The maneuvers, in the order declared ("MANEUVER PHASE").
    pub(super) fn resolve_maneuvers(
        &mut self,
        crafts: &mut impl CraftsMut,
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
            if !crafts.in_fight(me) {
                continue;
            }
            let gm = Modifier::new("GM", *gm);
            match maneuver {
                Maneuver::FlyStraight => {}
                Maneuver::Offensive { target } => {
                    let t = *target;
                    // The gunners' Sustained Fire bonuses are lost, unless the pilot fires.
                    let craft = crafts.craft(me).clone();
                    for (w, s) in crafts.craft_mut(me).sustained.iter_mut().enumerate() {
                        if !craft.pilot_fires(w) {
                            *s = None;
                        }
                    }
                    if reversed.iter().any(|r| (r.0, r.1) == (me, t)) || !crafts.in_fight(t) {
                        continue;
                    }
                    let roll =
                        self.pilot_roll(crafts, me, "Maneuver Offensively", vec![gm], dice, events);
                    let old = self.position_ab(crafts, me, t);
                    let new = offensive_result(old, &roll);
                    self.set_position(crafts, me, t, new);
                    self.position_note(crafts, me, t, old, new, events);
                }
                Maneuver::Defensive { target, weapon } => {
                    let t = *target;
                    self.lose_all_bonuses(crafts, me);
                    let roll =
                        self.pilot_roll(crafts, me, "Maneuver Defensively", vec![gm], dice, events);
                    match weapon {
                        None => {
                            let old = self.position_ab(crafts, t, me);
                            let new = defensive_result(old, &roll);
                            self.set_position(crafts, t, me, new);
                            self.position_note(crafts, t, me, old, new, events);
                        }
                        Some(w) => {
                            let w = usize::from(*w);
                            let old = crafts.sustained_ab(t, w, me);
                            let new = defensive_result(old, &roll);
                            let on = crafts.entity(me);
                            if let Some(s) = crafts.craft_mut(t).sustained.get_mut(w) {
                                *s = (new > 0).then_some((on, new));
                            }
                            events.push(BattleEvent::Note {
                                unit: Some(t),
                                text: format!(
                                    "Sustained Fire AB of gun {w} on {}: {old} -> {new}",
                                    crafts.name_of(me)
                                ),
                            });
                        }
                    }
                }
                Maneuver::TotallyDefensive => {
                    self.lose_all_bonuses(crafts, me);
                    crafts.craft_mut(me).skip_fire = true;
                    // "Go Totally Defensive" is rolled against Piloting alone, without MR.
                    let mods = self.piloting_alone(crafts, me, vec![gm]);
                    let roll =
                        self.roll_piloting(crafts, me, "Go Totally Defensive", mods, dice, events);
                    for f in crafts.foes(me) {
                        let old = self.position_ab(crafts, f, me);
                        let new = defensive_result(old, &roll);
                        if old != new {
                            self.set_position(crafts, f, me, new);
                            self.position_note(crafts, f, me, old, new, events);
                        }
                        for w in 0..crafts.craft(f).stats.weapons.len() {
                            let old = crafts.sustained_ab(f, w, me);
                            if old > 0 {
                                let new = defensive_result(old, &roll);
                                let on = crafts.entity(me);
                                crafts.craft_mut(f).sustained[w] = (new > 0).then_some((on, new));
                            }
                        }
                    }
                }
                Maneuver::Reversal { target } => {
                    match reversed.iter().find(|r| (r.0, r.1) == (*target, me)) {
                        Some(&(_, _, theirs)) => {
                            let theirs = Modifier::new("GM", theirs);
                            self.reversal(crafts, *target, me, (theirs, gm), dice, events);
                        }
                        None => events.push(BattleEvent::Note {
                            unit: Some(me),
                            text: format!(
                                "{} did not maneuver offensively against it: the reversal comes to nothing",
                                crafts.name_of(*target)
                            ),
                        }),
                    }
                }
                Maneuver::FollowTheLeader { penalty } => {
                    self.follow_the_leader(crafts, me, *penalty, gm, dice, events)
                }
                Maneuver::Gm { index, target } => {
                    let Some(g) = self.gm_maneuvers.get(usize::from(*index)).cloned() else {
                        continue;
                    };
                    let t = *target;
                    let roll = self.pilot_roll(
                        crafts,
                        me,
                        "GM maneuver",
                        vec![Modifier::named(g.name.clone(), g.modifier), gm],
                        dice,
                        events,
                    );
                    if roll.succeeded() && crafts.in_fight(t) {
                        let old = self.range(crafts, me, t);
                        let new = old.moved(match g.effect {
                            GmEffect::CloseRange => -1,
                            GmEffect::OpenRange => 1,
                        });
                        self.set_range(crafts, me, t, new);
                        if new == SocsRange::OutOfRange {
                            let from = crafts.entity(t);
                            crafts.craft_mut(me).broke_off_from.push(from);
                        }
                        events.push(BattleEvent::Note {
                            unit: Some(me),
                            text: format!(
                                "{}: range to {} {old} -> {new}",
                                g.name,
                                crafts.name_of(t)
                            ),
                        });
                    }
                }
            }
        }
    }

    pub(super) fn position_note(
        &self,
        crafts: &impl Crafts,
        a: UnitId,
        b: UnitId,
        old: i32,
        new: i32,
        events: &mut Vec<BattleEvent>,
    ) {
        if old == new {
            events.push(BattleEvent::Note {
                unit: Some(a),
                text: self.words(|| format!("Position AB on {} stays {old}", crafts.name_of(b))),
            });
            return;
        }
        events.push(BattleEvent::Note {
            unit: Some(a),
            text: self.words(|| format!("Position AB on {}: {old} -> {new}", crafts.name_of(b))),
        });
    }

    /// "REVERSAL": a Quick Contest of Piloting + MR between `attacker` (who maneuvered
    /// offensively) and `defender`, each with its GM modifier.
    pub(super) fn reversal(
        &mut self,
        crafts: &mut impl CraftsMut,
        attacker: UnitId,
        defender: UnitId,
        (attacker_gm, gm): (Modifier, Modifier),
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        if !crafts.in_fight(attacker) {
            return;
        }
        let a = self.pilot_roll(
            crafts,
            attacker,
            "Reversal contest (attacker)",
            vec![attacker_gm],
            dice,
            events,
        );
        let d = self.pilot_roll(
            crafts,
            defender,
            "Reversal contest (defender)",
            vec![gm],
            dice,
            events,
        );
        let winner = quick_contest(&a, &d);
        let crit = |r: &RollRecord| r.critical == Some(crate::dice::Critical::Success);
        let old = self.position_ab(crafts, attacker, defender);
        if winner == std::cmp::Ordering::Greater {
            let new = if old == 0 { 2 } else { old * 2 };
            self.set_position(crafts, attacker, defender, new);
            self.position_note(crafts, attacker, defender, old, new, events);
            if crit(&a) {
                crafts.craft_mut(attacker).auto_hit = true;
                events.push(BattleEvent::Note {
                    unit: Some(attacker),
                    text: "critical success: its gunners hit automatically next turn".into(),
                });
            }
        } else if winner == std::cmp::Ordering::Less {
            if crit(&d) {
                // The swap, within the class restrictions: a craft that may not gain
                // Position on the other gets none.
                let back = self.position_ab(crafts, defender, attacker);
                let mine = if crafts.may_gain_position(defender, attacker) {
                    old
                } else {
                    0
                };
                let theirs = if crafts.may_gain_position(attacker, defender) {
                    back
                } else {
                    0
                };
                self.set_position(crafts, defender, attacker, mine);
                self.set_position(crafts, attacker, defender, theirs);
                events.push(BattleEvent::Note {
                    unit: Some(defender),
                    text: format!(
                        "critical success: swaps places with {} (Position AB on it {back} -> {mine}; its on this craft {old} -> {theirs})",
                        crafts.name_of(attacker)
                    ),
                });
            } else {
                self.set_position(crafts, attacker, defender, 0);
                self.position_note(crafts, attacker, defender, old, 0, events);
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
        crafts: &mut impl CraftsMut,
        leader: UnitId,
        penalty: i32,
        gm: Modifier,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let pen = Modifier::new("hazard", -penalty.abs());
        let lead = self.pilot_roll(
            crafts,
            leader,
            "Follow the Leader (lead)",
            vec![pen.clone(), gm],
            dice,
            events,
        );
        let crit = |r: &RollRecord, c| r.critical == Some(c);
        use crate::dice::Critical::{Failure, Success};
        if crit(&lead, Failure) {
            self.crash(crafts, leader, events);
            return;
        }
        let chasers: Vec<UnitId> = crafts
            .foes(leader)
            .into_iter()
            .filter(|&f| self.position_ab(crafts, f, leader) > 0)
            .collect();
        for c in chasers {
            let old = self.position_ab(crafts, c, leader);
            if crafts.craft(c).stats.class.group() >= SizeGroup::Line {
                self.set_position(crafts, c, leader, 0);
                self.position_note(crafts, c, leader, old, 0, events);
                let lost = crafts.entity(leader);
                crafts.craft_mut(c).lost_sight_of.push(lost);
                continue;
            }
            let roll = self.pilot_roll(
                crafts,
                c,
                "Follow the Leader (chase)",
                vec![pen.clone()],
                dice,
                events,
            );
            if crit(&roll, Failure) {
                self.crash(crafts, c, events);
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
            self.set_position(crafts, c, leader, new);
            self.position_note(crafts, c, leader, old, new, events);
            if new == 0 {
                let lost = crafts.entity(leader);
                crafts.craft_mut(c).lost_sight_of.push(lost);
                events.push(BattleEvent::Note {
                    unit: Some(c),
                    text: format!(
                        "loses {}: its guns cannot find it next fire phase",
                        crafts.name_of(leader)
                    ),
                });
            }
        }
    }

    pub(super) fn crash(
        &mut self,
        crafts: &mut impl CraftsMut,
        id: UnitId,
        events: &mut Vec<BattleEvent>,
    ) {
        let state = crafts.craft_mut(id);
        state.out = Some(Fate::Destroyed);
        state.alive.iter_mut().for_each(|a| *a = false);
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
