//! A Main Sequence decision applied (main-sequence.txt, "Combat Actions"): moves, actions,
//! answers to questions, and the end of an action.

use super::*;

impl<F: BorrowMut<Fight>, U: MsUnitsMut> Board<F, U> {
    // ---------------------------------------------------------------------------------
    // Applying decisions.

    /// Applies a checked decision of `u`.
    pub fn apply(
        &mut self,
        map: &HexMap,
        u: UnitId,
        action: Action,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let (action, defense_edge) = match action {
            Action::DefendWithEdge(d) => (Action::Defend(Some(d)), true),
            a => (a, false),
        };
        match action {
            Action::DefendWithEdge(_) => {}
            Action::PlusTwo(plus) => {
                self.prompt = None;
                if let Some(c) = &mut self.check {
                    c.plus_two = Some(plus);
                }
                self.run_round(map, dice, events);
            }
            Action::Defend(d) => {
                if let (Some(Prompt::Defend(i)), Some(_)) = (self.prompt, &self.attack) {
                    if defense_edge {
                        self.state_mut(u).edge -= 1;
                    }
                    let record = d.and_then(|d| self.defense_roll(u, d, defense_edge, dice));
                    if let Some(d) = d {
                        let st = self.state_mut(u);
                        match d {
                            Defense::Nimble => st.nimble = st.nimble.saturating_sub(1),
                            Defense::FreeParry => st.free_parry_used = true,
                            Defense::Parry | Defense::Dodge => st.forfeit = true,
                        }
                    }
                    if let Some(a) = &mut self.attack {
                        a.defenses[i] = Some((d, record));
                    }
                    self.prompt = None;
                }
                self.proceed(map, dice, events);
            }
            Action::Reroll(r) => {
                let prompt = self.prompt.take();
                match prompt {
                    Some(Prompt::RerollCheck) => {
                        let Some(mut c) = self.check.take() else {
                            return;
                        };
                        c.reroll_done = true;
                        if let Some(r) = r
                            && let Some(old) = c.roll.take()
                        {
                            self.spend_reroll(u, c.crewman, r);
                            c.roll = Some(self.reroll_kept(u, r, old, dice, events));
                        }
                        self.check = Some(c);
                        self.run_round(map, dice, events);
                    }
                    Some(Prompt::RerollDefense(i)) => {
                        let old = self
                            .attack
                            .as_ref()
                            .and_then(|a| a.defenses.get(i).cloned().flatten());
                        if let (Some(r), Some((choice, Some(rec)))) = (r, old) {
                            self.spend_reroll(u, None, r);
                            let roll = self.reroll_kept(u, r, rec.roll, dice, events);
                            if let Some(a) = &mut self.attack {
                                a.defenses[i] = Some((
                                    choice,
                                    Some(DefenseRecord {
                                        defense: rec.defense,
                                        roll,
                                    }),
                                ));
                            }
                        }
                        if let Some(a) = &mut self.attack
                            && let Some(done) = a.defense_rerolled.get_mut(i)
                        {
                            *done = true;
                        }
                        self.proceed(map, dice, events);
                    }
                    _ => {
                        let gunner = self.gunner(u);
                        if let Some(r) = r
                            && let Some(old) = self.attack.as_mut().and_then(|a| a.roll.take())
                        {
                            self.spend_reroll(u, gunner, r);
                            let kept = self.reroll_kept(u, r, old, dice, events);
                            if let Some(a) = &mut self.attack {
                                a.roll = Some(kept);
                            }
                        }
                        if let Some(a) = &mut self.attack {
                            a.reroll_done = true;
                        }
                        self.proceed(map, dice, events);
                    }
                }
            }
            Action::SpendEdge(spend) => {
                self.prompt = None;
                if let Some(a) = &mut self.attack {
                    a.spare = Some(spend);
                }
                self.proceed(map, dice, events);
            }
            Action::EndTurn => {
                if let Some(t) = &mut self.turn {
                    t.moved = true;
                    t.acted = true;
                }
            }
            Action::Move { to } => {
                let to = Hex::new(to.0, to.1);
                if let Some(path) = self.move_path(map, u, to) {
                    let cost = map.path_cost(&path).unwrap_or(0);
                    events.push(BattleEvent::Moved {
                        unit: u,
                        path: path.iter().copied().map(hex_pair).collect(),
                        cost,
                    });
                    self.state_mut(u).pos = to;
                }
                if let Some(t) = &mut self.turn {
                    t.moved = true;
                }
            }
            Action::Duck { .. } | Action::Leap { .. } => {
                self.check = self.turn_check(map, u, &action);
                if let Some(t) = &mut self.turn {
                    t.moved = true;
                }
                self.run_round(map, dice, events);
            }
            Action::BoostShields => {
                if let MsSheet::Ship(s) = self.sheet(u) {
                    let to = crate::rules::main_sequence::ships::boosted_shields(s.shields);
                    let st = self.state_mut(u);
                    let from = st.shields;
                    st.shields = st.shields.max(to);
                    st.shields_boosted = true;
                    events.push(note(
                        Some(u),
                        format!("boosts its shields from {from} to {to} (once a scene)"),
                    ));
                }
                self.end_action(u);
            }
            Action::Reload { weapon } => {
                if let Some(full) = self.sheet(u).weapons().get(weapon).and_then(|w| w.ammo)
                    && let Some(a) = self.state_mut(u).ammo.get_mut(weapon)
                {
                    a.spare -= 1;
                    a.loaded = Some(full);
                }
                self.end_action(u);
            }
            Action::Stabilize { .. } => {
                self.check = self.turn_check(map, u, &action);
                self.end_action(u);
                self.run_round(map, dice, events);
            }
            Action::Attack {
                weapon,
                rof,
                targets,
                plus_two,
                excellent,
            } => {
                let Some(w) = self.sheet(u).weapons().get(weapon).cloned() else {
                    return;
                };
                if !self.cinematic_ammo
                    && let Some(n) = &mut self.state_mut(u).ammo[weapon].loaded
                {
                    *n = n.saturating_sub(rounds_used(rof, targets.len()));
                }
                let (targets, blast) = if w.explosive {
                    let point = self.state(targets[0]).pos;
                    (self.blast_victims(u, targets[0], point), Some(point))
                } else {
                    (targets, None)
                };
                if let (Some(t), MsSheet::Character(c)) = (&self.turn, self.sheet(u))
                    && c.has(&Tag::DoubleAttack)
                    && t.attacks_left < 2
                {
                    self.state_mut(u).free_parry_used = true;
                }
                self.attack = Some(PendingAttack {
                    attacker: u,
                    weapon,
                    rof,
                    defenses: vec![None; targets.len()],
                    defense_rerolled: vec![false; targets.len()],
                    targets,
                    blast,
                    plus_two,
                    excellent,
                    roll: None,
                    reroll_done: false,
                    resolved: 0,
                    spare: None,
                });
                self.proceed(map, dice, events);
            }
        }
    }

    pub(super) fn end_action(&mut self, u: UnitId) {
        if let Some(t) = &mut self.turn
            && t.unit == u
        {
            t.acted = true;
            t.attacks_left = 0;
        }
    }
}
