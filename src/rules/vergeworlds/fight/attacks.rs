//! Vergeworlds attacks up to the hit (vergeworlds-rough-methods.txt, "Combat Actions",
//! the cover and attack and defense modifiers from "Indeterminate Cover" to "Ranged
//! Defense", "Mana"): the attack declared, its modifiers, the defense and its degrees, the
//! attack rolled and judged, and Mana spent on it.

use super::*;

impl<F: Borrow<Fight>, U: VwUnits> Board<F, U> {
    // ----- attacks ----------------------------------------------------------------------------

    pub(super) fn is_player(&self, u: UnitId) -> bool {
        self.player_sides
            .get(usize::from(self.side(u)))
            .copied()
            .unwrap_or(false)
    }

    /// What the DC of `u`'s attack `a` before the defense is made of: the base difficulty
    /// from the sizes and the range ("Attack"), an aimed peripheral location ("Hit
    /// Location") and, for a missile, its speed ("Range"); each with its label.
    /// `w` is the attacker's weapon (`u`'s `a.weapon`), looked up once by the caller.
    fn difficulty_terms(&self, u: UnitId, a: &Attack, w: &Weapon) -> [(&'static str, i32); 3] {
        let (sheet, tsheet) = (self.sheet(u), self.sheet(a.target));
        let d = self.distance(u, a.target);
        let speed = if w.melee() {
            0
        } else {
            speed_penalty(d, w.speed)
        };
        [
            ("base", base_difficulty(sheet.size, tsheet.size, d)),
            ("aimed", combat::aim_penalty(a.aim)),
            ("missile speed", speed),
        ]
    }

    /// [`Board::difficulty_terms`] as the attack roll shows them beside its target: the
    /// base always, the others when they count.
    pub(crate) fn difficulty(&self, u: UnitId, a: &Attack) -> Vec<Modifier> {
        let terms = self.difficulty_terms(u, a, &self.weapon_ref(u, a.weapon));
        (terms.iter().enumerate())
            .filter(|&(i, &(_, v))| i == 0 || v != 0)
            .map(|(_, &(label, v))| Modifier::new(label, v))
            .collect()
    }

    /// The modifiers of `u`'s attack `a` and its DC before the defense, as the odds preview
    /// and the roll use them.
    pub fn attack_modifiers(&self, u: UnitId, a: &Attack) -> (Vec<Modifier>, i32) {
        let s = self.state(u);
        let sheet = self.sheet(u);
        let w = self.weapon_ref(u, a.weapon);
        // Room for the usual modifiers at once, rather than growing the list push by push.
        let mut mods = Vec::with_capacity(8);
        mods.push(Modifier::new("Coordination", sheet.coordination));
        let skill = match w.kind {
            WeaponKind::Melee => ("Fight", sheet.skills.fight),
            WeaponKind::Ranged => ("Shoot", sheet.skills.shoot),
            WeaponKind::Thrown => ("Throw", sheet.skills.throw),
        };
        mods.push(Modifier::new(skill.0, skill.1));
        let att = s.attitude.attack(!s.attack_bonus_used) + s.attitude.coordination();
        if att != 0 {
            mods.push(Modifier::named(
                format!("{} attitude", s.attitude.word()),
                att,
            ));
        }
        if s.focus {
            mods.push(Modifier::new("Focus", 2));
        }
        if a.careful {
            let braced = self
                .map
                .as_ref()
                .and_then(|m| m.terrain(s.pos))
                .and_then(Terrain::cover)
                .is_some()
                || s.prone;
            mods.push(Modifier::new(
                if braced {
                    "Careful Aim, braced"
                } else {
                    "Careful Aim"
                },
                combat::careful_aim(braced),
            ));
        }
        // The roll comes after its action is counted; a preview counts the action ahead.
        let rolling = self.pending.as_ref().is_some_and(|p| p.attacker == u);
        let nth = multiple_action_penalty(if rolling {
            s.actions.max(1)
        } else {
            s.actions + 1
        });
        if nth != 0 {
            mods.push(Modifier::new("multiple actions", nth));
        }
        let held = self.control_on(u);
        if held != 0 {
            mods.push(Modifier::new("grappled / off balance", held));
        }
        if w.melee() {
            if self.terrain_at(s.pos) == Some(Terrain::Difficult) {
                mods.push(Modifier::new("bad footing", -2));
            }
            if s.prone {
                mods.push(Modifier::new("prone (hindered)", -2));
            }
            if self.stuck(u) {
                mods.push(Modifier::new("stuck", -3));
            }
            if self.held_by(a.target) == Some(u) || self.held_by(u).is_some() {
                let c = combat::cramped(w.bulk, sheet.size, 0.0);
                if c != 0 {
                    mods.push(Modifier::new("cramped (grappling)", c));
                }
            } else if let Some(slack) = self.cramped {
                let c = combat::cramped(w.bulk, sheet.size, slack);
                if c != 0 {
                    mods.push(Modifier::new("cramped", c));
                }
            }
        } else {
            if let Some(slack) = self.cramped {
                let c = combat::cramped(w.bulk, sheet.size, slack);
                if c != 0 {
                    mods.push(Modifier::new("cramped", c));
                }
            }
            if let Some(m) = w.min_str.or(w.rcl) {
                let extra = if a.shots > 1 {
                    combat::rapid_fire_recoil(a.shots)
                } else {
                    0
                };
                let p = combat::min_strength_penalty(sheet.strength, m + extra);
                if p != 0 {
                    mods.push(Modifier::new("recoil / strength", p));
                }
            }
        }
        let dc = self.difficulty_terms(u, a, &w).iter().map(|(_, v)| v).sum();
        let cover = if w.melee() {
            0
        } else {
            self.cover(u, a.target)
        };
        if cover != 0 {
            mods.push(Modifier::new("target in cover", cover));
        }
        (mods, dc)
    }

    pub(super) fn terrain_at(&self, h: Hex) -> Option<Terrain> {
        self.map.as_ref().and_then(|m| m.terrain(h))
    }

    /// The modifiers of a defense roll.
    pub fn defense_modifiers(
        &self,
        u: UnitId,
        attacker: Option<(UnitId, &Weapon)>,
        kind: DefenseKind,
        evade: bool,
    ) -> Vec<Modifier> {
        let s = self.state(u);
        let sheet = self.sheet(u);
        let melee = attacker.is_some_and(|(_, w)| w.melee());
        // Room for the usual modifiers at once, rather than growing the list push by push.
        let mut mods = Vec::with_capacity(8);
        mods.push(Modifier::new("Coordination", sheet.coordination));
        // Parry with Fight in melee when it is the better skill (with the weapon's Def).
        let (own_def, parry) = self.best_parry(u);
        let use_fight = melee && !evade && sheet.skills.fight + own_def >= sheet.skills.evade;
        if use_fight {
            mods.push(Modifier::new("Fight (parry)", sheet.skills.fight));
            if let Some((a, w)) = attacker {
                let _ = a;
                let wd = combat::weapon_defense(own_def, w.def);
                if wd != 0 {
                    mods.push(Modifier::named(format!("weapon Def ({parry})"), wd));
                }
            }
        } else {
            mods.push(Modifier::new("Evade", sheet.skills.evade));
        }
        let first = !s.defense_bonus_used;
        let att = if evade && s.attitude == Attitude::FocusedDefense {
            0
        } else {
            s.attitude.defense(melee, first)
        } + s.attitude.coordination();
        if att != 0 {
            mods.push(Modifier::named(
                format!("{} attitude", s.attitude.word()),
                att,
            ));
        }
        // "Multiple Defenses": each defense beyond the free one borrows an action: -2 each,
        // on this and every later defense until the next turn.
        let borrowed = -2 * s.borrowed as i32;
        if borrowed != 0 && !evade {
            mods.push(Modifier::new("extra defenses (borrowed actions)", borrowed));
        }
        if self.terrain_at(s.pos) == Some(Terrain::Difficult) {
            mods.push(Modifier::new("bad footing", -2));
        }
        if s.prone {
            mods.push(Modifier::new("prone (hindered)", -2));
        }
        if self.stuck(u) {
            mods.push(Modifier::new("stuck", -3));
        }
        let held = self.control_on(u);
        if held != 0 {
            mods.push(Modifier::new("grappled / off balance", held));
        }
        if let Some((a, w)) = attacker {
            if s.vector.is_none() && self.state(a).pos != s.pos {
                // Turned to face one foe; others from behind.
                let behind = self.attacked_from_behind(u, a);
                if behind {
                    mods.push(Modifier::new("attacked from behind", -2));
                }
            }
            if !w.melee() {
                let d = self.distance(a, u);
                let b = speed_defense_bonus(d, w.speed, sheet.action_score);
                if b > 0 {
                    mods.push(Modifier::new("projectile speed", b));
                }
            }
        }
        match kind {
            DefenseKind::Retreat => mods.push(Modifier::new("retreat", 1)),
            DefenseKind::DiveProne => mods.push(Modifier::new("dive prone", 1)),
            DefenseKind::DuckCover => mods.push(Modifier::new("duck behind cover", 1)),
            _ => {}
        }
        mods
    }

    /// The Def of the best melee weapon `u` has in hand and its name ("unarmed": 0).
    pub(super) fn best_parry(&self, u: UnitId) -> (i32, &str) {
        let s = self.state(u);
        self.sheet(u)
            .weapons
            .iter()
            .enumerate()
            .filter(|(i, w)| w.melee() && s.drawn.get(*i).copied().unwrap_or(true))
            .map(|(_, w)| (w.def, w.name.as_str()))
            .max_by_key(|(d, _)| *d)
            .unwrap_or((0, "unarmed"))
    }

    /// The hexes `u` can step into ("Moving while Defending", "Stuck"): on the map,
    /// passable, with no one standing there; one by one in the order of the neighbours
    /// (a question that needs only the first does not look further).
    pub(super) fn free_steps(&self, u: UnitId) -> impl Iterator<Item = Hex> + '_ {
        let map = self.map.as_ref();
        let at = self.state(u).pos;
        at.all_neighbors().into_iter().filter(move |&h| {
            map.is_some_and(|map| map.move_cost(h).is_some())
                && !self.ids().any(|o| {
                    o != u && self.fighting(o) && self.state(o).alt <= 2.0 && self.state(o).pos == h
                })
        })
    }

    /// "Stuck": on the ground and unable to take a step (not counting a grapple, which has
    /// its own penalty).
    pub fn stuck(&self, u: UnitId) -> bool {
        !self.flying(u) && self.held_by(u).is_none() && self.free_steps(u).next().is_none()
    }

    /// "Retreat": the free hex one step farther from `attacker`, if any.
    pub fn retreat_hex(&self, u: UnitId, attacker: UnitId) -> Option<Hex> {
        let from = self.state(attacker).pos;
        let now = self.state(u).pos.unsigned_distance_to(from);
        self.free_steps(u)
            .filter(|h| h.unsigned_distance_to(from) > now)
            .min_by_key(|h| (h.x, h.y))
    }

    /// "Duck Behind Cover": the own hex if it has cover, else the best covered hex a step
    /// away ("Moving while Defending": a single step).
    pub fn duck_hex(&self, u: UnitId) -> Option<Hex> {
        let at = self.state(u).pos;
        let cover = |h: Hex| self.terrain_at(h).and_then(Terrain::cover);
        if cover(at).is_some() {
            return Some(at);
        }
        self.free_steps(u)
            .filter_map(|h| cover(h).map(|c| (c, h)))
            .max_by_key(|(c, h)| {
                let rank = match c {
                    crate::hexmap::Cover::Light => 1,
                    crate::hexmap::Cover::Half => 2,
                    crate::hexmap::Cover::Heavy => 3,
                };
                (rank, -h.x, -h.y)
            })
            .map(|(_, h)| h)
    }

    /// Whether `a` attacks `u` from behind: another foe is already engaging `u` from a
    /// direction more than 90° away ("Attacked From Behind": one can face a single foe).
    pub(super) fn attacked_from_behind(&self, u: UnitId, a: UnitId) -> bool {
        let at = self.state(u).pos;
        let from = self.state(a).pos - at;
        self.foes(u).any(|e| {
            e != a && e.0 < a.0 && {
                let other = self.state(e).pos - at;
                self.state(e).pos.unsigned_distance_to(at) <= 1 && from.dot(other) < 0
            }
        })
    }

    /// The defense degree added to the DC (a failed defense adds nothing).
    pub(super) fn defense_degree(p: &Pending) -> i32 {
        p.defense_roll.as_ref().map_or(0, |(_, r)| r.total.max(0))
    }

    pub(super) fn mana_question(&self) -> Option<Prompt> {
        self.pending
            .as_ref()
            .and_then(|p| self.mana_question_for(p))
    }

    pub(super) fn mana_question_for(&self, p: &Pending) -> Option<Prompt> {
        if p.limit.is_some() {
            let t = p.attack.target;
            return (!p.limit_answered
                && self.is_player(t)
                && self.state(t).mana > 0
                && !self.sheet(t).mook)
                .then_some(Prompt::ManaLimit(t));
        }
        if !p.rolled || p.rolls.len() != 1 {
            return None;
        }
        let roll = &p.rolls[0];
        let hit = roll.success == Some(true);
        let (a, t) = (p.attacker, p.attack.target);
        if !hit && !p.mana_asked.0 && self.is_player(a) && self.state(a).mana > 0 {
            return Some(Prompt::ManaAttack(a));
        }
        if hit
            && !p.mana_asked.1
            && p.defense.is_some_and(|k| k != DefenseKind::None)
            && self.is_player(t)
            && self.state(t).mana > 0
        {
            return Some(Prompt::ManaDefense(t));
        }
        None
    }
}

impl<F: BorrowMut<Fight>, U: VwUnitsMut> Board<F, U> {
    pub(super) fn declare_attack(
        &mut self,
        u: UnitId,
        a: Attack,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let w = self.weapon(u, a.weapon);
        if w.melee() || w.kind == WeaponKind::Thrown {
            self.breath(u, 1, events);
        }
        let mut a = a;
        if a.effort > 0 {
            // "Extra Effort": +1 Brawn for one more Breath; +2 for two more and DC 7 Spirit.
            self.breath(u, a.effort as i32, events);
        }
        if a.effort == 2 {
            // Decision: a failed Spirit roll leaves the +1 that one Breath point buys.
            let t = task::task(
                dice,
                vec![Modifier::new("Spirit", self.sheet(u).spirit)],
                7,
                0,
            );
            let ok = t.succeeded();
            log_only(events, self.quiet, || BattleEvent::Roll {
                unit: u,
                purpose: "extra effort +2 (Spirit, DC 7)".into(),
                roll: t.roll,
                result: if ok { "+2 Brawn" } else { "only +1 Brawn" }.into(),
            });
            if !ok {
                a.effort = 1;
            }
        }
        if let Some(i) = a.weapon {
            let s = self.state_mut(u);
            if let Some(Some(n)) = s.loaded.get_mut(i) {
                *n = n.saturating_sub(a.shots);
            }
            if let Some(f) = s.fired.get_mut(i) {
                *f += a.shots;
            }
        }
        let target = a.target;
        self.pending = Some(Pending {
            attacker: u,
            attack: a,
            defense: None,
            defense_roll: None,
            rolls: Vec::new(),
            mana_asked: (false, false),
            hits: Vec::new(),
            limit: None,
            limit_answered: false,
            dc: 0,
            dc_parts: Vec::new(),
            cover: 0,
            pen: None,
            rolled: false,
        });
        // "Defend": the target declares its defense before the attack is resolved.
        if self.is_player(target) {
            self.prompt = Some(Prompt::Defend(target));
            return;
        }
        let k = crate::rules::vergeworlds::ai::defense(self, target, u, a.weapon);
        if let Some(p) = &mut self.pending {
            p.defense = Some(k);
        }
        self.continue_attack(dice, events);
    }

    /// The defense roll of `u` (against the attack by `attacker`, if any).
    pub(super) fn defense_roll(
        &mut self,
        u: UnitId,
        attacker: Option<(UnitId, &Weapon)>,
        kind: DefenseKind,
        evade: bool,
        dice: &mut impl DieRoller,
    ) -> RollRecord {
        let mods = self.defense_modifiers(u, attacker, kind, evade);
        if !evade && self.state(u).attitude == Attitude::FocusedDefense {
            self.state_mut(u).defense_bonus_used = true;
        }
        open_ended_2d6(dice, mods, Some(0))
    }

    /// "Moving while Defending": `u` steps to `to` as part of a defense; off its own turn the
    /// step is borrowed from its next turn's movement.
    pub(super) fn defense_step(&mut self, u: UnitId, to: Hex, events: &mut Vec<BattleEvent>) {
        let from = self.state(u).pos;
        if from == to {
            return;
        }
        let own_turn = self.active == Some(u);
        let s = self.state_mut(u);
        s.pos = to;
        if own_turn {
            s.moved += 1;
        } else {
            s.step_borrowed += 1;
        }
        log_only(events, self.quiet, || BattleEvent::Moved {
            unit: u,
            path: vec![hex_pair(from), hex_pair(to)],
            cost: 1,
        });
    }

    pub(super) fn continue_attack(
        &mut self,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        loop {
            // What the step depends on, read without copying the attack's rolls.
            let Some((rolled, limit, first_hit, attacker)) = self.pending.as_ref().map(|p| {
                (
                    p.rolled,
                    p.limit.is_some(),
                    p.hits.first().copied(),
                    p.attacker,
                )
            }) else {
                return;
            };
            if !rolled {
                self.roll_attack(dice, events);
                continue;
            }
            if let Some(prompt) = self.mana_question() {
                self.prompt = Some(prompt);
                return;
            }
            if limit {
                self.finish_hit(dice, events);
                if self.prompt.is_some() {
                    return;
                }
                continue;
            }
            if let Some((loc, goodies, through_cover)) = first_hit {
                if let Some(q) = &mut self.pending {
                    q.hits.remove(0);
                }
                self.start_hit(loc, goodies, through_cover, dice, events);
                if self.prompt.is_some() {
                    return;
                }
                continue;
            }
            // Done.
            self.pending = None;
            let s = self.state_mut(attacker);
            s.focus = false;
            if s.attitude == Attitude::Committed {
                s.attack_bonus_used = true;
            }
            return;
        }
    }

    pub(super) fn roll_attack(&mut self, dice: &mut impl DieRoller, events: &mut Vec<BattleEvent>) {
        let Some(mut p) = self.pending.clone() else {
            return;
        };
        let u = p.attacker;
        let a = p.attack;
        let t = a.target;
        let w = self.weapon(u, a.weapon);
        let (mods, dc) = self.attack_modifiers(u, &a);
        p.dc = dc;
        // Only a log shows them: a preview keeps none and pays nothing for them.
        if !self.quiet {
            p.dc_parts = self.difficulty(u, &a);
        }
        p.cover = mods
            .iter()
            .find(|m| &*m.label == "target in cover")
            .map_or(0, |m| m.value);
        // The defense.
        let kind = p.defense.unwrap_or(DefenseKind::Normal);
        // What the defense reads of the defender as it was before defending.
        let (free_defenses, evade) = {
            let ts = self.state(t);
            (ts.free_defenses, ts.evade.clone())
        };
        let (label, droll): (Cow<'static, str>, RollRecord) = if kind == DefenseKind::None {
            (
                "no defense (counts 2)".into(),
                plain_record(Vec::new(), vec![Modifier::new("no defense", 2)], 2, Some(0)),
            )
        } else {
            self.lose_focus(t, "it defended", events);
            // Extra defenses borrow actions from the next turn.
            if free_defenses == 0 {
                self.state_mut(t).borrowed += 1;
            } else {
                self.state_mut(t).free_defenses -= 1;
            }
            self.state_mut(t).defenses += 1;
            let roll = self.defense_roll(t, Some((u, &w)), kind, false, dice);
            let roll = match &evade {
                Some(e) if e.total > roll.total => e.clone(),
                _ => roll,
            };
            (kind.word().into(), roll)
        };
        if kind == DefenseKind::DiveProne {
            self.state_mut(t).prone = true;
        }
        let step = match kind {
            DefenseKind::Retreat => self.retreat_hex(t, u),
            DefenseKind::DuckCover => self.duck_hex(t),
            _ => None,
        };
        if let Some(h) = step {
            self.defense_step(t, h, events);
        }
        p.defense_roll = Some((label, droll));
        // The shots: rapid fire shares one die.
        let common = if a.shots > 1 {
            Some(dice.roll_die(6))
        } else {
            None
        };
        p.rolls.clear();
        for _ in 0..a.shots.max(1) {
            let mut pre = Prefilled {
                first: common,
                dice: &mut *dice,
            };
            let roll = open_ended_2d6(&mut pre, mods.clone(), Some(dc));
            p.rolls.push(roll);
        }
        let pen = w.pen;
        p.pen = pen;
        p.rolled = true;
        self.pending = Some(p);
        self.judge_attack(dice, events);
    }

    /// Judges the rolls (again, after Mana) and lists the hits, logging the attack.
    pub(super) fn judge_attack(
        &mut self,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        // Taken rather than copied: nothing reads the attack until it is put back below.
        let Some(mut p) = self.pending.take() else {
            return;
        };
        let u = p.attacker;
        let a = p.attack;
        let w = self.weapon(u, a.weapon);
        let dc = p.dc + Self::defense_degree(&p);
        p.hits.clear();
        let parried = p
            .defense_roll
            .as_ref()
            .is_some_and(|(_, r)| r.modifiers.iter().any(|m| &*m.label == "Fight (parry)"));
        let mut results = Vec::new();
        // The target beside each roll: the DC's parts and the defense's degree.
        let mut parts = p.dc_parts.clone();
        if let Some((label, _)) = &p.defense_roll
            && Self::defense_degree(&p) > 0
            && !self.quiet
        {
            parts.push(Modifier::named(
                format!("defense ({label})"),
                Self::defense_degree(&p),
            ));
        }
        for roll in &mut p.rolls {
            roll.target = Some(dc);
            roll.target_parts.clone_from(&parts);
            roll.margin = Some(roll.total - dc);
            roll.success = Some(roll.total >= dc);
            let degree = roll.total - dc;
            if degree >= 0 {
                // "Cover": on a hit the cover penalty counts toward the degrees.
                let deg = degree - p.cover;
                let loc = locate(a.aim, deg, parried, || dice.roll_die(10));
                p.hits.push((loc, combat::goodies(a.aim, deg), false));
                results.push(AttackResult::Hit);
            } else if p.cover < 0 && degree - p.cover >= 0 {
                // Missed because of the cover: through it as a barrier.
                let loc = combat::HUMAN_CHART[(dice.roll_die(10) - 1) as usize];
                p.hits.push((loc, 0, true));
                results.push(AttackResult::Hit);
            } else {
                let undefended = roll.total >= p.dc;
                results.push(if undefended {
                    AttackResult::Defended
                } else {
                    AttackResult::Miss
                });
            }
        }
        // Log only when the outcome is final (no Mana question left).
        let final_log = self.mana_question_for(&p).is_none();
        let defended = p.defense.is_some_and(|k| k != DefenseKind::None);
        // What the log and the shots flying on need of the rolls, taken before the attack
        // (which the stray shots may read) is put back without copying it again.
        let totals: Vec<i32> = p.rolls.iter().map(|r| r.total).collect();
        let attack_events: Vec<BattleEvent> = if final_log {
            let defenses: Vec<DefenseRecord> = p
                .defense_roll
                .iter()
                .map(|(l, r)| DefenseRecord {
                    defense: crate::dice::Label::from(l.to_string()),
                    roll: r.clone(),
                })
                .collect();
            p.rolls
                .iter()
                .enumerate()
                .map(|(i, roll)| BattleEvent::Attack {
                    attacker: u,
                    target: a.target,
                    weapon: crate::dice::Label::from(w.name.clone()),
                    roll: roll.clone(),
                    defenses: if i == 0 { defenses.clone() } else { Vec::new() },
                    result: results[i],
                })
                .collect()
        } else {
            Vec::new()
        };
        self.pending = Some(p);
        if final_log
            && defended
            && results.contains(&AttackResult::Defended)
            && !results.contains(&AttackResult::Hit)
        {
            // "Throws": a successful defense opens a throw on the attacker.
            let attacker = self.entity(u);
            self.state_mut(a.target).defended_against = Some(attacker);
        }
        if final_log {
            events.extend(attack_events);
            // "Careful Aim": a shot that would miss by three degrees or less is not fired
            // (decision: it is always held back, so it cannot fly on and hit someone else).
            let withheld = a.careful
                && !w.melee()
                && totals.len() == 1
                && results.first() != Some(&AttackResult::Hit)
                && combat::aimed_shot_withheld(totals[0] - dc);
            if withheld {
                if let Some(i) = a.weapon {
                    let s = self.state_mut(u);
                    if let Some(Some(n)) = s.loaded.get_mut(i) {
                        *n += 1;
                    }
                    if let Some(f) = s.fired.get_mut(i) {
                        *f = f.saturating_sub(1);
                    }
                }
                log_only(events, self.quiet, || BattleEvent::Note {
                    unit: Some(u),
                    text: format!(
                        "holds the shot: with Careful Aim it would miss by {}",
                        dc - totals[0]
                    ),
                });
            }
            // Misses fly on as area fire.
            if !w.melee() && !withheld {
                let misses: Vec<i32> = totals
                    .iter()
                    .filter(|&&t| t < dc)
                    .map(|&t| dc - t)
                    .collect();
                for dof in misses {
                    let size = self.sheet(a.target).size + dof as f64;
                    let from = self.state(u).pos;
                    let through = self.state(a.target).pos;
                    self.stray(
                        u,
                        a.weapon,
                        from,
                        through,
                        size,
                        Some(a.target),
                        dice,
                        events,
                    );
                }
            }
        }
    }

    pub(super) fn spend_mana(
        &mut self,
        u: UnitId,
        prompt: Option<Prompt>,
        m: ManaChoice,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let Some(prompt) = prompt else { return };
        let Some(mut p) = self.pending.clone() else {
            return;
        };
        match prompt {
            Prompt::ManaAttack(_) => p.mana_asked.0 = true,
            Prompt::ManaDefense(_) => p.mana_asked.1 = true,
            _ => p.limit_answered = true,
        }
        if m != ManaChoice::Keep {
            self.state_mut(u).mana -= 1;
            log_only(events, self.quiet, || BattleEvent::Note {
                unit: Some(u),
                text: format!("spends a Mana point ({m:?}); {} left", self.state(u).mana),
            });
        }
        match (prompt, m) {
            (_, ManaChoice::Keep) => {}
            (Prompt::ManaLimit(_), ManaChoice::FixLimit) => {
                if let Some(l) = &mut p.limit {
                    l.limit = injury::pen_limit(2, self.sheet(u).pen_limit_rs);
                    l.roll = 2;
                }
            }
            (Prompt::ManaAttack(_), _) | (Prompt::ManaDefense(_), _) => {
                let slot = matches!(prompt, Prompt::ManaAttack(_));
                let roll = if slot {
                    p.rolls[0].clone()
                } else {
                    match &p.defense_roll {
                        Some((_, r)) => r.clone(),
                        None => return,
                    }
                };
                let new = match m {
                    ManaChoice::Adjust(n) => {
                        // The roll with the Mana modifier, judged again against its
                        // difficulty ("Judging Actions": meet or beat it).
                        let mut r = roll.clone();
                        r.modifiers.push(Modifier::new("Mana", n));
                        r.total += n;
                        if let Some(t) = r.target {
                            r.margin = Some(r.total - t);
                            r.success = Some(r.total >= t);
                        }
                        r
                    }
                    _ => {
                        let mods: Vec<Modifier> = roll
                            .modifiers
                            .iter()
                            .filter(|m| &*m.label != "open-ended")
                            .cloned()
                            .collect();
                        let again = open_ended_2d6(dice, mods, roll.target);
                        log_only(events, self.quiet, || BattleEvent::Roll {
                            unit: u,
                            purpose: "Mana re-roll".into(),
                            roll: again.clone(),
                            result: format!(
                                "{} (kept the better of {})",
                                again.total.max(roll.total),
                                roll.total
                            )
                            .into(),
                        });
                        if again.total > roll.total {
                            again
                        } else {
                            roll.clone()
                        }
                    }
                };
                if slot {
                    p.rolls[0] = new;
                } else if let Some((_, r)) = &mut p.defense_roll {
                    *r = new;
                }
                self.pending = Some(p);
                self.judge_attack(dice, events);
                return;
            }
            _ => {}
        }
        self.pending = Some(p);
        if matches!(prompt, Prompt::ManaAttack(_) | Prompt::ManaDefense(_)) {
            self.judge_attack(dice, events);
        }
    }
}
