//! What a Vergeworlds hit does (vergeworlds-rough-methods.txt, "Hit Location", "Damage";
//! rules/README.md decision 1): the Penetration roll and Limit, armor, Wound and Injury
//! recorded with their cascade, mooks taken out ("NPC Categories"), stray shots and area
//! fire with fragmentation.

use super::*;

impl<F: BorrowMut<Fight>, U: VwUnitsMut> Board<F, U> {
    /// The Penetration of `u`'s weapon `w` (muscle-powered: rolled), with extra effort and
    /// attitude in the Brawn; `bonus` adds goodies to the damage roll.
    pub(super) fn roll_pen(
        &mut self,
        u: UnitId,
        w: &Weapon,
        effort: u8,
        bonus: i32,
        dice: &mut impl DieRoller,
    ) -> (f64, Option<RollRecord>) {
        if let Some(p) = w.pen {
            return (p, None);
        }
        let sheet = self.shared_sheet(u);
        let s = self.state(u);
        let mut brawn = sheet.brawn + s.attitude.brawn() as f64 + effort as f64;
        if s.vector.is_some() && w.melee() {
            brawn = combat::high_speed_brawn(brawn, s.moved as f64, sheet.action_score);
        }
        let start = dice.drawn();
        let faces = vec![dice.roll_die(6), dice.roll_die(6)];
        let raw = (faces[0] + faces[1]) as i32;
        let with_goodies = (raw + bonus).min(12);
        let rs = w.pen_rs.unwrap_or(0.0) + sheet.unarmed.pen_rs + brawn;
        let pen = injury::muscle_pen(with_goodies, rs);
        let mut mods = Vec::new();
        if with_goodies != raw {
            mods.push(Modifier::new("goodies", with_goodies - raw));
        }
        let mut rec = plain_record(faces, mods, with_goodies, None);
        rec.drawn = crate::dice::drawn_since(dice, start);
        (pen, Some(rec))
    }

    pub(super) fn start_hit(
        &mut self,
        loc: Location,
        goodies: i32,
        through_cover: bool,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let Some((u, attack)) = self.pending.as_ref().map(|p| (p.attacker, p.attack)) else {
            return;
        };
        let t = attack.target;
        let w = self.weapon(u, attack.weapon);
        // Goodies: the damage roll first for muscle-powered blows, then the armor roll.
        let dmg_bonus = if w.pen.is_none() { goodies.min(6) } else { 0 };
        let left = goodies - dmg_bonus;
        let (mut pen, rec) = self.roll_pen(u, &w, attack.effort, dmg_bonus, dice);
        if let Some(rec) = rec {
            log_only(events, self.quiet, || BattleEvent::Roll {
                unit: u,
                purpose: "Penetration (2d6, row-shifted)".into(),
                roll: rec,
                result: format!("Pen {pen:.1}").into(),
            });
        }
        // Damage Attenuation.
        if let Some(da) = w.da {
            let d = self.distance(u, t);
            let steps = (d / da).floor();
            if steps > 0.0 {
                pen = shift(pen, -steps);
            }
        }
        if through_cover {
            let r = (dice.roll_die(6) + dice.roll_die(6)) as i32;
            let res = injury::armor(pen, r, 1.0, w.ap_rs, 0);
            log_only(events, self.quiet, || BattleEvent::Note {
                unit: Some(t),
                text: format!(
                    "the shot goes through the cover: barrier roll {r} stops {:.1}, Pen {:.1} left",
                    res.stopped, res.through
                ),
            });
            pen = res.through;
        }
        let Some((pen, armor_goodies)) =
            self.armor_pass(Some(u), t, &w, loc, pen, left, dice, events)
        else {
            return;
        };
        // The Penetration Limit roll, goodies shifting it toward the blow's Pen.
        let raw = (dice.roll_die(6) + dice.roll_die(6)) as i32;
        let rs = self.sheet(t).pen_limit_rs;
        let mut roll = raw;
        let mut g = armor_goodies.max(0);
        while g > 0 && roll < 12 && injury::pen_limit(roll, rs) < pen {
            roll += 1;
            g -= 1;
        }
        let limit = injury::pen_limit(roll, rs);
        if let Some(q) = &mut self.pending {
            q.limit = Some(LimitRoll { loc, roll, limit });
            q.limit_answered = false;
            q.pen = Some(pen);
        }
        // The AI's Mana for its own Penetration Limit roll.
        if !self.is_player(t) && self.state(t).mana > 0 && !self.sheet(t).mook {
            let sheet = self.shared_sheet(t);
            let b = injury::blow(
                pen,
                limit,
                roll,
                w.wound,
                sheet.wound_limit,
                sheet.susceptibility,
            );
            if crate::rules::vergeworlds::ai::fix_limit(self, t, &b, loc) {
                self.state_mut(t).mana -= 1;
                log_only(events, self.quiet, || BattleEvent::Note {
                    unit: Some(t),
                    text: format!(
                        "spends a Mana point: the Penetration Limit roll becomes 2; {} left",
                        self.state(t).mana
                    ),
                });
                if let Some(q) = &mut self.pending
                    && let Some(l) = &mut q.limit
                {
                    l.limit = injury::pen_limit(2, rs);
                    l.roll = 2;
                }
            }
        }
        if self.mana_question().is_none() {
            self.finish_hit(dice, events);
        }
    }

    /// Armor over `loc` against a blow of `pen` from weapon `w` ("Armor"): each piece rolls
    /// (goodies lowering the roll), with activation, AP, blunt trauma and wear. The Pen
    /// left and the goodies left, or `None` when the blow is stopped.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn armor_pass(
        &mut self,
        by: Option<UnitId>,
        t: UnitId,
        w: &Weapon,
        loc: Location,
        mut pen: f64,
        goodies: i32,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) -> Option<(f64, i32)> {
        let armor: Vec<(usize, crate::rules::vergeworlds::sheet::Armor)> = self
            .sheet(t)
            .armor
            .iter()
            .cloned()
            .enumerate()
            .filter(|(i, a)| a.covers.contains(&loc) && !self.state(t).wear[*i].destroyed)
            .collect();
        let mut armor_goodies = goodies;
        for (i, a) in armor {
            if pen <= 0.0 {
                break;
            }
            let raw = (dice.roll_die(6) + dice.roll_die(6)) as i32;
            let r = (raw - armor_goodies).max(2);
            armor_goodies -= raw - r;
            let wear = self.state(t).wear[i];
            let activation = a.activation.max(wear.activation);
            let res = injury::armor(pen, r, a.rs - wear.loss, w.ap_rs, activation);
            log_only(events, self.quiet, || BattleEvent::Note {
                unit: Some(t),
                text: if res.bypassed {
                    format!(
                        "{} bypassed (armor roll {r} under activation {activation})",
                        a.name
                    )
                } else {
                    format!(
                        "{}: armor roll {r}{} stops {:.1} of Pen {:.1}",
                        a.name,
                        if raw != r {
                            format!(" ({raw} less goodies)")
                        } else {
                            String::new()
                        },
                        res.stopped,
                        pen
                    )
                },
            });
            if !res.bypassed {
                let absorbed = pen.min(res.stopped);
                // Blunt trauma through armor that stopped the blow.
                if res.through <= 0.0
                    && (a.blunt.is_some() || a.pad.is_some())
                    && let Some(inj) = injury::blunt_trauma(
                        absorbed,
                        w.wound,
                        w.sharp,
                        a.blunt.unwrap_or(0.0),
                        a.pad,
                    )
                {
                    let scores = injury::injury_scores(inj);
                    self.record_injuries(by, t, loc, &scores, false, "blunt trauma", events);
                }
                // Armor degradation.
                let hit_score = (w.wound + score(absorbed)).floor() as i32;
                if injury::degrades(
                    res.through > 0.0,
                    w.smash,
                    a.flexible,
                    w.hardness,
                    a.hardness,
                ) {
                    let wear = &mut self.state_mut(t).wear[i];
                    match injury::degrade(hit_score) {
                        injury::Degrade::Destroyed => {
                            wear.destroyed = true;
                            log_only(events, self.quiet, || BattleEvent::Note {
                                unit: Some(t),
                                text: format!("{} is destroyed", a.name),
                            });
                        }
                        injury::Degrade::Worn { activation, loss } => {
                            wear.activation = wear.activation.max(activation);
                            wear.loss = wear.loss.max(loss);
                            log_only(events, self.quiet, || BattleEvent::Note {
                                unit: Some(t),
                                text: format!("{} is damaged (activation {activation})", a.name),
                            });
                        }
                        injury::Degrade::None => {}
                    }
                }
                pen = res.through;
            }
        }
        if pen <= 0.0 {
            log_only(events, self.quiet, || BattleEvent::Note {
                unit: Some(t),
                text: format!("the blow to the {} is stopped", loc.word()),
            });
            return None;
        }
        Some((pen, armor_goodies))
    }

    pub(super) fn finish_hit(&mut self, dice: &mut impl DieRoller, events: &mut Vec<BattleEvent>) {
        // The limit roll taken out of the attack (when there is one).
        let Some(p) = &mut self.pending else {
            return;
        };
        let Some(LimitRoll {
            loc,
            roll: raw,
            limit,
        }) = p.limit.take()
        else {
            return;
        };
        let pen = p.pen.unwrap_or(0.0);
        let (u, attack) = (p.attacker, p.attack);
        let t = attack.target;
        let w = self.weapon(u, attack.weapon);
        let sheet = self.shared_sheet(t);
        let b = injury::blow(
            pen,
            limit,
            raw,
            w.wound,
            sheet.wound_limit,
            sheet.susceptibility,
        );
        log_only(events, self.quiet, || BattleEvent::Note {
            unit: Some(t),
            text: format!(
                "{}: Pen {pen:.1} against Penetration Limit {limit:.1} (roll {raw}): {:.1} absorbed, Wound {:+}, Injury {:+.2}{}{}",
                loc.word(),
                b.absorbed,
                b.wound,
                b.exact,
                if b.penetrating { ", penetrating" } else { "" },
                if b.blew_through {
                    ", blows through"
                } else {
                    ""
                }
            ),
        });
        self.record_injuries(Some(u), t, loc, &b.scores, b.penetrating, &w.name, events);
        if b.blew_through && !w.melee() {
            let from = self.state(u).pos;
            let through = self.state(t).pos;
            let size = sheet.size;
            self.stray(u, attack.weapon, from, through, size, Some(t), dice, events);
        }
    }

    /// A blow without an attack roll (a collision, a stray projectile, fragments): Pen
    /// `pen` from weapon `w` at `loc`, through armor and the Penetration Limit like any hit
    /// ("Armor", "Penetration Limit", "Injury"); no Mana is asked for.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn damage(
        &mut self,
        by: Option<UnitId>,
        t: UnitId,
        w: &Weapon,
        pen: f64,
        loc: Location,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        if !self.fighting(t) || pen <= 0.0 {
            return;
        }
        let Some((pen, _)) = self.armor_pass(by, t, w, loc, pen, 0, dice, events) else {
            return;
        };
        let sheet = self.shared_sheet(t);
        let raw = (dice.roll_die(6) + dice.roll_die(6)) as i32;
        let limit = injury::pen_limit(raw, sheet.pen_limit_rs);
        let b = injury::blow(
            pen,
            limit,
            raw,
            w.wound,
            sheet.wound_limit,
            sheet.susceptibility,
        );
        log_only(events, self.quiet, || BattleEvent::Note {
            unit: Some(t),
            text: format!(
                "{}: Pen {pen:.1} against Penetration Limit {limit:.1} (roll {raw}): Injury {:+.2}{}",
                loc.word(),
                b.exact,
                if b.penetrating { ", penetrating" } else { "" }
            ),
        });
        self.record_injuries(by, t, loc, &b.scores, b.penetrating, &w.name, events);
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn record_injuries(
        &mut self,
        by: Option<UnitId>,
        t: UnitId,
        loc: Location,
        scores: &[i32],
        penetrating: bool,
        what: &str,
        events: &mut Vec<BattleEvent>,
    ) {
        let sheet = self.shared_sheet(t);
        let before = self
            .state(t)
            .injuries
            .iter()
            .map(|i| i.score)
            .max()
            .unwrap_or(0);
        let mut mook_out = false;
        for (k, &sc) in scores.iter().enumerate() {
            if sc < 1 {
                continue;
            }
            let inj = Injury {
                score: sc,
                location: loc,
                penetrating: penetrating && k == 0,
            };
            let s = self.state_mut(t);
            injury::record(&mut s.injuries, inj);
            let recorded = s.injuries.last().copied().unwrap_or(inj);
            if sheet.mook && injury::mook_down(&recorded, sheet.mook_kind()) {
                mook_out = true;
            }
        }
        let after = self
            .state(t)
            .injuries
            .iter()
            .map(|i| i.score)
            .max()
            .unwrap_or(0);
        events.push(BattleEvent::Damage {
            attacker: by,
            target: t,
            roll: RollRecord {
                drawn: Default::default(),
                dice: INJURY_DICE,
                ..plain_record(
                    Vec::new(),
                    Vec::new(),
                    scores.first().copied().unwrap_or(0),
                    None,
                )
            },
            damage_type: Cow::Owned(what.to_string()),
            steps: scores.iter().map(|s| Modifier::new("injury", *s)).collect(),
            injury: scores.first().copied().unwrap_or(0).max(0),
            hp_before: before,
            hp_after: after,
            hp_max: 16,
            location: Some(loc.word().into()),
        });
        let now = if sheet.mook {
            if mook_out { Hurt::Down } else { Hurt::Fighting }
        } else {
            injury::major_state(&self.state(t).injuries)
        };
        let was = self.state(t).hurt;
        if (now != Hurt::Fighting && was == Hurt::Fighting)
            || (now == Hurt::Dead && was == Hurt::Down)
        {
            self.take_out(t, now, events);
        }
    }

    /// Puts `t` out of the fight as `now` (down or dead): it loses its vector, its holds
    /// and its wait, and its turn ends.
    pub(in crate::rules::vergeworlds) fn take_out(
        &mut self,
        t: UnitId,
        now: Hurt,
        events: &mut Vec<BattleEvent>,
    ) {
        let s = self.state_mut(t);
        s.hurt = now;
        s.vector = None;
        s.control.clear();
        s.waiting = false;
        events.push(BattleEvent::StatusChanged {
            unit: t,
            standing: standing(now),
            cause: match now {
                Hurt::Dead => "killed".into(),
                _ => "out of the fight".into(),
            },
        });
        if self.active == Some(t) {
            self.active = None;
        }
    }

    /// Shots flying on past `through` (a miss or over-penetration) as area fire against a
    /// Size of `size`, for everyone on the line beyond it ("Misses", "Over-Penetration").
    #[allow(clippy::too_many_arguments)]
    pub(super) fn stray(
        &mut self,
        u: UnitId,
        weapon: Option<usize>,
        from: Hex,
        through: Hex,
        size: f64,
        skip: Option<UnitId>,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let Some(map) = self.map.clone() else { return };
        let max = self
            .weapon_ref(u, weapon)
            .max_range
            .unwrap_or(60.0)
            .min(60.0) as i32;
        let dir = through - from;
        if dir == Hex::ZERO {
            return;
        }
        let dist = from.unsigned_distance_to(through).max(1) as i32;
        let far = from + Hex::new(dir.x * max / dist, dir.y * max / dist);
        let area_range = dist as f64;
        // Who could be in the way, in unit order (nobody moves while the shots fly).
        let standing: Vec<(UnitId, Hex)> = self
            .ids()
            .filter(|&v| Some(v) != skip && v != u && self.fighting(v))
            .map(|v| (v, self.state(v).pos))
            .collect();
        if standing.is_empty() {
            return;
        }
        let mut victims = Vec::new();
        for h in line(from, far).skip(dist as usize + 1) {
            if map.move_cost(h).is_none() {
                break;
            }
            victims.extend(standing.iter().filter(|&&(_, p)| p == h).map(|&(v, _)| v));
        }
        if victims.is_empty() {
            return;
        }
        let w = self.weapon(u, weapon);
        for v in victims {
            let d = self.distance(u, v);
            let sat = combat::saturation(0.0, self.sheet(v).size, size, d, area_range);
            self.area_victim(u, &w, v, sat, dice, events);
        }
    }

    /// One victim of area fire with saturation `sat`: hit with Wound raised by the
    /// saturation, or a roll on the saturation table for one projectile.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn area_victim(
        &mut self,
        u: UnitId,
        w: &Weapon,
        v: UnitId,
        sat: i32,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let Some((need, die)) = combat::saturation_roll(sat) else {
            return;
        };
        let (hit, wound) = if sat >= 0 {
            (true, w.wound + sat as f64)
        } else {
            let r = dice.roll_die(die);
            log_only(events, self.quiet, || BattleEvent::Note {
                unit: Some(v),
                text: format!(
                    "in the line of fire: saturation {sat}, d{die} roll {r} (hit on {need} or less)"
                ),
            });
            (r <= need, w.wound)
        };
        if !hit {
            return;
        }
        let loc = combat::HUMAN_CHART[(dice.roll_die(10) - 1) as usize];
        let pen = w.pen.unwrap_or_else(|| shift(7.0, w.pen_rs.unwrap_or(0.0)));
        log_only(events, self.quiet, || BattleEvent::Note {
            unit: Some(v),
            text: format!(
                "struck by a stray projectile from {} ({})",
                self.name(u),
                w.name
            ),
        });
        let mut shot = w.clone();
        shot.wound = wound;
        self.damage(Some(u), v, &shot, pen, loc, dice, events);
    }

    pub(super) fn area_fire(
        &mut self,
        u: UnitId,
        wi: usize,
        at: Hex,
        shots: u32,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let w = self.weapon(u, Some(wi));
        let s = self.state(u).clone();
        let sheet = self.shared_sheet(u);
        {
            let st = self.state_mut(u);
            if let Some(Some(n)) = st.loaded.get_mut(wi) {
                *n = n.saturating_sub(shots);
            }
            if let Some(f) = st.fired.get_mut(wi) {
                *f += shots;
            }
        }
        let d = s.pos.unsigned_distance_to(at).max(1) as f64;
        let area_size = 1.0; // one hex, about a square meter
        let dc = base_difficulty(sheet.size, area_size, d)
            + if w.melee() {
                0
            } else {
                speed_penalty(d, w.speed)
            };
        let skill = if w.kind == WeaponKind::Thrown {
            ("Throw", sheet.skills.throw)
        } else {
            ("Shoot", sheet.skills.shoot)
        };
        let mut mods = vec![
            Modifier::new("Coordination", sheet.coordination),
            Modifier::new(skill.0, skill.1),
        ];
        let nth = multiple_action_penalty(s.actions.max(1));
        if nth != 0 {
            mods.push(Modifier::new("multiple actions", nth));
        }
        if s.focus {
            mods.push(Modifier::new("Focus", 2));
            self.state_mut(u).focus = false;
        }
        let att = s.attitude.attack(!s.attack_bonus_used) + s.attitude.coordination();
        if att != 0 {
            mods.push(Modifier::named(
                format!("{} attitude", s.attitude.word()),
                att,
            ));
        }
        if w.kind == WeaponKind::Thrown {
            self.breath(u, 1, events);
        }
        let t = task::task(dice, mods, dc, 0);
        let landed = if t.succeeded() {
            at
        } else {
            // "Area Attacks": a miss lands value of [degree of failure] meters off, in a
            // random direction (1d6 hex sides).
            let off = combat::miss_distance(t.degree);
            let dir = vector::direction((dice.roll_die(6) - 1) as u8);
            let mut h = at;
            for _ in 0..off {
                let n = h + dir;
                if self.map.as_ref().is_some_and(|m| m.move_cost(n).is_some()) {
                    h = n;
                }
            }
            h
        };
        log_only(events, self.quiet, || BattleEvent::Roll {
            unit: u,
            purpose: Cow::Owned(format!("{} at ({}, {})", w.name, at.x, at.y)),
            roll: t.roll.clone(),
            result: Cow::Owned(if t.succeeded() {
                "on the spot".to_string()
            } else {
                format!("lands at ({}, {})", landed.x, landed.y)
            }),
        });
        if let Some(frag) = w.frag {
            // "Fragmentation": area fire with Spread 0 and the listed Shot score.
            let victims: Vec<UnitId> = self
                .ids()
                .filter(|&v| {
                    self.fighting(v)
                        && self.state(v).pos.unsigned_distance_to(landed) <= FRAG_RADIUS
                })
                .collect();
            for v in victims {
                let r = self.state(v).pos.unsigned_distance_to(landed).max(1) as f64;
                let rs = range_score(r).max(self.sheet(v).size.round() as i32);
                let sat = (frag + self.sheet(v).size - rs as f64).floor() as i32;
                self.area_victim(u, &w, v, sat, dice, events);
            }
        } else {
            // "Area Fire": everything in the hex aimed at (and along the line) may be hit.
            let hits = if t.succeeded() { shots } else { 0 };
            if hits == 0 {
                return;
            }
            let shot = combat::shot_score(hits);
            let victims: Vec<UnitId> = self
                .ids()
                .filter(|&v| v != u && self.fighting(v) && self.state(v).pos == landed)
                .collect();
            for v in victims {
                let sat = combat::saturation(shot, self.sheet(v).size, area_size, d, d);
                self.area_victim(u, &w, v, sat, dice, events);
            }
        }
    }
}
