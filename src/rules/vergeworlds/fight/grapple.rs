//! Vergeworlds grappling and the odds of an attack (vergeworlds-rough-methods.txt,
//! "Grappling"): grabs and what follows them (escape, shove, takedown, throw, pickup,
//! smash, strangle, choke), and the chance of a hit with and without a defense.

use super::*;

impl<F: Borrow<Fight>, U: VwUnits> Board<F, U> {
    /// The chance that `u`'s attack `a` hits before any defense (exact over 2d6, open-ended
    /// ends counted).
    pub fn hit_chance(&self, u: UnitId, a: &Attack) -> f64 {
        let (mods, dc) = self.attack_modifiers(u, a);
        let m: i32 = mods.iter().map(|m| m.value).sum();
        task::chance_at_least(dc - m)
    }

    /// The chance that attack `a` of `u` hits when the target defends in the way `kind`
    /// (keeping its Evade roll of the turn if that is better), for the odds preview.
    pub fn hit_chance_against(&self, u: UnitId, a: &Attack, kind: DefenseKind) -> f64 {
        let (mods, dc) = self.attack_modifiers(u, a);
        let need = dc - mods.iter().map(|m| m.value).sum::<i32>();
        if kind == DefenseKind::None {
            return task::chance_at_least(need + 2);
        }
        let t = a.target;
        let w = self.weapon(u, a.weapon);
        let mut d: i32 = self
            .defense_modifiers(t, Some((u, &w)), kind, false)
            .iter()
            .map(|m| m.value)
            .sum();
        if self.state(t).free_defenses == 0 {
            // This defense would borrow an action: -2 more.
            d -= 2;
        }
        let evade = self.state(t).evade.as_ref().map_or(0, |r| r.total);
        task::chance_past_defense(need, d, evade)
    }
}

impl<F: BorrowMut<Fight>, U: VwUnitsMut> Board<F, U> {
    pub(super) fn grapple(
        &mut self,
        u: UnitId,
        t: UnitId,
        mode: GrappleMode,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        self.breath(u, 1, events);
        let sheet = self.shared_sheet(u);
        let s = self.state(u).clone();
        let mut mods = vec![
            Modifier::new("Coordination", sheet.coordination),
            Modifier::new("Grapple", sheet.skills.grapple),
        ];
        // A grapple is a melee attack ("Grappling"): the attitude counts as on any attack
        // ("Attack", "Attitude"), Committed's +2 once a turn.
        let att = s.attitude.attack(!s.attack_bonus_used) + s.attitude.coordination();
        if att != 0 {
            mods.push(Modifier::named(
                format!("{} attitude", s.attitude.word()),
                att,
            ));
        }
        if s.attitude == super::super::combat::Attitude::Committed {
            self.state_mut(u).attack_bonus_used = true;
        }
        let nth = multiple_action_penalty(s.actions.max(1));
        if nth != 0 {
            mods.push(Modifier::new("multiple actions", nth));
        }
        let held = self.control_on(u);
        if held != 0 {
            mods.push(Modifier::new("grappled", held));
        }
        if s.focus {
            mods.push(Modifier::new("Focus", 2));
            self.state_mut(u).focus = false;
        }
        // A lifted foe is taken down at will ("Pickup"): no roll, a smash into the ground.
        let (me, them) = (self.entity(u), self.entity(t));
        if mode == GrappleMode::Takedown && self.state(t).lifted_by == Some(me) {
            let st = self.state_mut(t);
            st.lifted_by = None;
            st.prone = true;
            log_only(events, self.quiet, || BattleEvent::Note {
                unit: Some(t),
                text: format!("slammed down by {}", self.name(u)),
            });
            let penalty = self.control_on(t);
            self.smash(u, t, penalty, dice, events);
            return;
        }
        let dc = base_difficulty(sheet.size, self.sheet(t).size, 1.0);
        // The foe defends (an AI choice for everyone: grapples are quick).
        self.lose_focus(t, "it defended", events);
        let defense = self.defense_roll(t, None, DefenseKind::Normal, false, dice);
        let dc = dc + defense.total.max(0);
        let roll = open_ended_2d6(dice, mods, Some(dc));
        let degree = roll.total - dc;
        let ok = degree >= 0;
        let defended = !ok && roll.total >= dc - defense.total.max(0);
        if defended {
            // "Throws": the defense stopped it.
            self.state_mut(t).defended_against = Some(me);
        }
        events.push(BattleEvent::Attack {
            attacker: u,
            target: t,
            weapon: crate::dice::Label::from(format!("grapple ({mode:?})")),
            roll,
            defenses: vec![DefenseRecord {
                defense: "defense".into(),
                roll: defense,
            }],
            result: if ok {
                AttackResult::Hit
            } else if defended {
                AttackResult::Defended
            } else {
                AttackResult::Miss
            },
        });
        if !ok {
            return;
        }
        // "Grapple Attack": 2d6 + degrees, row-shifted by Strength - 2 ("Throws": and by the
        // victim's own Brawn).
        let r = (dice.roll_die(6) + dice.roll_die(6)) as i32 + degree;
        let strength = sheet.strength as f64
            + if mode == GrappleMode::Throw {
                self.sheet(t).brawn
            } else {
                0.0
            };
        let control = combat::control_points(r, strength);
        let carry = self.sheet(t).carry;
        match mode {
            GrappleMode::Pickup => {
                let pen = control_penalty(control, carry);
                let need = combat::pickup_penalty_needed(self.sheet(t).size, sheet.strength);
                let lifted = -pen >= need;
                if lifted {
                    self.state_mut(t).lifted_by = Some(me);
                }
                log_only(events, self.quiet, || BattleEvent::Note {
                    unit: Some(t),
                    text: format!(
                        "pickup: Control penalty {pen:+} against {need} needed: {}",
                        if lifted {
                            "lifted off the ground"
                        } else {
                            "too heavy to lift"
                        }
                    ),
                });
            }
            GrappleMode::Strangle | GrappleMode::Choke => {
                // The hold on the neck adds Control like a grab and sets the hold.
                if let Some((_, c)) = self
                    .state_mut(u)
                    .control
                    .iter_mut()
                    .find(|(x, _)| *x == them)
                {
                    *c += control;
                }
                let st = self.state_mut(t);
                if mode == GrappleMode::Strangle {
                    st.strangled_by = Some(me);
                } else {
                    st.choked_by = Some(me);
                }
                log_only(events, self.quiet, || BattleEvent::Note {
                    unit: Some(t),
                    text: format!(
                        "{} by the neck (Control {:+})",
                        if mode == GrappleMode::Strangle {
                            "strangled"
                        } else {
                            "choked"
                        },
                        self.control_on(t)
                    ),
                });
                if mode == GrappleMode::Strangle {
                    // "While strangling, you are also causing your unarmed combat damage to
                    // the neck."
                    let w = unarmed(&sheet);
                    let (pen, _) = self.roll_pen(u, &w, 0, 0, dice);
                    self.damage(Some(u), t, &w, pen, Location::Neck, dice, events);
                }
            }
            GrappleMode::Grab => {
                let st = self.state_mut(u);
                match st.control.iter_mut().find(|(x, _)| *x == them) {
                    Some((_, c)) => *c += control,
                    None => st.control.push((them, control)),
                }
                log_only(events, self.quiet, || BattleEvent::Note {
                    unit: Some(t),
                    text: format!(
                        "grabbed: {control:.1} Control points (Coordination {:+})",
                        self.control_on(t)
                    ),
                });
            }
            GrappleMode::Escape => {
                let st = self.state_mut(t);
                if let Some((_, c)) = st.control.iter_mut().find(|(x, _)| *x == me) {
                    *c -= control;
                }
                st.control.retain(|(_, c)| *c > 0.0);
                log_only(events, self.quiet, || BattleEvent::Note {
                    unit: Some(u),
                    text: format!("works {control:.1} Control points loose"),
                });
            }
            GrappleMode::Shove | GrappleMode::Takedown | GrappleMode::Throw => {
                let pen = control_penalty(control, carry);
                self.state_mut(t).off_balance += pen;
                let mut text =
                    format!("knocked off balance: Coordination {pen:+} on the next turn");
                if mode != GrappleMode::Shove && pen <= -3 {
                    self.state_mut(t).prone = true;
                    text.push_str(", taken down prone");
                }
                let mut struck = false;
                if mode != GrappleMode::Takedown {
                    let steps = (-pen / 2) as u32;
                    let dir = self.state(t).pos - self.state(u).pos;
                    let steps = if dir == Hex::ZERO { 0 } else { steps };
                    let mut at = self.state(t).pos;
                    for _ in 0..steps {
                        let n = at + dir;
                        let free = self.map.as_ref().is_none_or(|m| m.move_cost(n).is_some())
                            && !self
                                .ids()
                                .any(|o| self.fighting(o) && self.state(o).pos == n);
                        if !free {
                            struck = true;
                            break;
                        }
                        at = n;
                    }
                    if at != self.state(t).pos {
                        let from = self.state(t).pos;
                        self.state_mut(t).pos = at;
                        events.push(BattleEvent::Knockback {
                            unit: t,
                            distance: steps,
                            path: from.line_to(at).map(hex_pair).collect(),
                            stopped_by: None,
                        });
                    }
                }
                log_only(events, self.quiet, || BattleEvent::Note {
                    unit: Some(t),
                    text,
                });
                if mode != GrappleMode::Takedown && struck {
                    // "Smash": driven into a solid object, a collision.
                    log_only(events, self.quiet, || BattleEvent::Note {
                        unit: Some(t),
                        text: "driven into something solid".into(),
                    });
                    self.smash(u, t, pen, dice, events);
                }
            }
        }
    }

    /// "Smash": `t` driven by grappler `u` into something solid, with the Coordination
    /// penalty `penalty` from the move: the grappler's unarmed Penetration row-shifted by
    /// [`combat::smash_rs`] (both hands), with the victim's unarmed Wound.
    pub(super) fn smash(
        &mut self,
        u: UnitId,
        t: UnitId,
        penalty: i32,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let sheet = self.shared_sheet(u);
        let victim = self.shared_sheet(t);
        let rs = sheet.unarmed.pen_rs
            + sheet.brawn
            + combat::smash_rs(true, sheet.size - victim.size, penalty);
        let r = (dice.roll_die(6) + dice.roll_die(6)) as i32;
        let pen = injury::muscle_pen(r, rs);
        let mut blow = unarmed(&victim);
        blow.name = "smash".into();
        let loc = combat::HUMAN_CHART[(dice.roll_die(10) - 1) as usize];
        log_only(events, self.quiet, || BattleEvent::Note {
            unit: Some(t),
            text: format!("smash: roll {r} at RS {rs:+.1}, Pen {pen:.1}"),
        });
        self.damage(Some(u), t, &blow, pen, loc, dice, events);
    }
}
