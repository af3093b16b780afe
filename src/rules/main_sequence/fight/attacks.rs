//! Main Sequence attacks (main-sequence.txt, "Attacking", "Rate of Fire", "Damage",
//! "Armor and Cover", "Weapons, Armor & Gear"): explosions' victims, active defenses,
//! the odds shown before an attack, each target's roll, damage and who goes down.

use super::*;

impl<F: Borrow<Fight>, U: MsUnits> Board<F, U> {
    /// Everyone an explosion thrown by `thrower` at `aimed` reaches ("Weapons, Armor &
    /// Gear", note *): units still fighting within Close of the point, the aimed-at first,
    /// then by distance and unit order. The thrower is spared: a throw reaches Close, so
    /// the thrower always stands within Close of its own blast, and the text would make
    /// every grenade hit its thrower (a decision; friends are not spared).
    pub fn blast_victims(&self, thrower: UnitId, aimed: UnitId, point: Hex) -> Vec<UnitId> {
        let mut v: Vec<(u32, UnitId)> = self
            .ids()
            .filter(|&o| o != aimed && o != thrower && self.fighting(o) && !self.sheet(o).is_ship())
            .map(|o| (self.state(o).pos.unsigned_distance_to(point), o))
            .filter(|(d, _)| self.sizes.band(*d) <= Band::Close)
            .collect();
        v.sort();
        std::iter::once(aimed)
            .chain(v.into_iter().map(|(_, o)| o))
            .collect()
    }

    pub(super) fn defense_roll(
        &self,
        u: UnitId,
        d: Defense,
        plus_two: bool,
        dice: &mut impl DieRoller,
    ) -> Option<DefenseRecord> {
        let a = self.attack.as_ref()?;
        let w = self.sheet(a.attacker).weapons().get(a.weapon)?;
        let MsSheet::Character(c) = self.sheet(u) else {
            return None;
        };
        let ranged = w.range > Band::Melee;
        let kind = match d {
            Defense::Parry | Defense::FreeParry => ActiveDefense::Parry,
            Defense::Dodge => ActiveDefense::Dodge,
            Defense::Nimble => return None,
        };
        let (attr, skill) = crate::rules::main_sequence::combat::defense_roll_of(kind, ranged);
        let value = match attr {
            "Soldier" => c.attrs.soldier,
            "Agent" => c.attrs.agent,
            _ => c.attrs.tech,
        };
        let mut mods = vec![Modifier::new(attr, value)];
        if c.skill(skill) != 0 {
            mods.push(Modifier::named(
                rank_label(skill, c.skills.get(skill)),
                c.skill(skill),
            ));
        }
        if self.champions_against(c, a.attacker) {
            mods.push(Modifier::new("Champion", 2));
        }
        if plus_two {
            mods.push(Modifier::new("Edge", 2));
        }
        let label: &'static str = match d {
            Defense::Parry => "Parry",
            Defense::FreeParry => "Parry (off hand, free)",
            _ => "Dodge",
        };
        Some(DefenseRecord {
            defense: Label::Static(label),
            roll: exploding_d6(dice, mods, None),
        })
    }

    /// The Defense an attack from hex `from` with `w` is rolled against for `target` without
    /// an active defense: its Defense plus the cover between them ("Armor and Cover").
    pub fn defense_from(&self, map: &HexMap, from: Hex, target: UnitId, w: &Weapon) -> i32 {
        self.defense(target) + self.cover(map, from, target, w).bonus()
    }

    /// The odds of an attack of `me` with `w` at `targets`, as the window shows them before
    /// the attack is made: each unit the attack reaches (an explosion's victims, or the
    /// targets in order) with the bonus its roll counts against it and the Defense it is
    /// rolled against without an active defense; what the attack, once made, counts
    /// ([`Board::attack_modifiers`], [`crate::rules::main_sequence::combat::target_penalty`] and the Defense
    /// with cover, or [`Board::blast_defense`]).
    pub fn shot_odds(
        &self,
        map: &HexMap,
        me: UnitId,
        w: &Weapon,
        targets: &[UnitId],
    ) -> Vec<(UnitId, i32, i32)> {
        let Some(&first) = targets.first() else {
            return Vec::new();
        };
        // The bonus against each: the first's roll, with Champion's +2 only against a
        // target that opposes the cause (`roll_against`).
        let bonus = |t: UnitId| self.attack_bonus(me, w, t, false);
        if w.explosive {
            self.blast_victims(me, first, self.state(first).pos)
                .into_iter()
                .map(|v| (v, bonus(v), self.blast_defense(map, first, v, w)))
                .collect()
        } else {
            let from = self.state(me).pos;
            targets
                .iter()
                .enumerate()
                .map(|(i, &t)| {
                    (
                        t,
                        bonus(t) + crate::rules::main_sequence::combat::target_penalty(i),
                        self.defense_from(map, from, t, w),
                    )
                })
                .collect()
        }
    }

    /// The Defense an explosion aimed at `aimed` is rolled against for `victim` without an
    /// active defense: the aimed-at unit's own Defense (the blast is on it), anyone else's
    /// plus the cover between it and the point of the blast (the decision above).
    pub fn blast_defense(&self, map: &HexMap, aimed: UnitId, victim: UnitId, w: &Weapon) -> i32 {
        if victim == aimed {
            self.defense(victim)
        } else {
            self.defense_from(map, self.state(aimed).pos, victim, w)
        }
    }

    /// The Defense the attack in progress is rolled against for target `i`: the active
    /// defense's total or the Defense rating, plus cover.
    pub(super) fn target_defense(&self, map: &HexMap, i: usize) -> i32 {
        let Some(a) = &self.attack else { return 0 };
        let tg = a.targets[i];
        let Some(w) = self.sheet(a.attacker).weapons().get(a.weapon) else {
            return 0;
        };
        let from = a.blast.unwrap_or(self.state(a.attacker).pos);
        let cover = if a.blast.is_some() && i == 0 {
            Cover::None
        } else {
            self.cover(map, from, tg, w)
        };
        match a.defenses[i].as_ref().and_then(|d| d.1.as_ref()) {
            Some(r) => defended_against(r.roll.total, cover),
            None => self.defense(tg) + cover.bonus(),
        }
    }

    /// The roll against target `i` (the total less 2 per target before it, "Rate of
    /// Fire"; an explosion's one roll against each). The one roll carries the first
    /// target's Champion +2 (main-sequence.txt, tags, Champion: "+2 on all rolls against
    /// direct opponents" of the cause): against another target it counts only if that
    /// target too opposes the cause.
    pub(super) fn roll_against(&self, map: &HexMap, i: usize, roll: &RollRecord) -> RollRecord {
        let Some(a) = &self.attack else {
            return roll.clone();
        };
        let mut r = roll.clone();
        if i > 0 {
            let champion = |t: UnitId| {
                self.shooter(a.attacker)
                    .is_some_and(|c| self.champions_against(c, t))
            };
            match (champion(a.targets[0]), champion(a.targets[i])) {
                (true, false) => {
                    r.modifiers.retain(|m| &*m.label != "Champion");
                    r.total -= 2;
                }
                (false, true) => {
                    r.modifiers.push(Modifier::new("Champion", 2));
                    r.total += 2;
                }
                _ => {}
            }
        }
        if i > 0 && a.blast.is_none() {
            let penalty = crate::rules::main_sequence::combat::target_penalty(i);
            r.modifiers.push(Modifier::named(
                format!("target {} of {}", i + 1, a.targets.len()),
                penalty,
            ));
            r.total += penalty;
        }
        let dl = self.target_defense(map, i);
        r.target = Some(dl);
        r.margin = Some(r.total - dl);
        r.success = Some(r.total >= dl);
        r
    }
}

impl<F: BorrowMut<Fight>, U: MsUnitsMut> Board<F, U> {
    /// Carries the attack in progress on until it needs a decision or is done.
    pub(super) fn proceed(
        &mut self,
        map: &HexMap,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let Some(a) = self.attack.clone() else { return };
        // Active defenses, before the roll.
        for i in 0..a.targets.len() {
            if a.defenses[i].is_none() {
                if self.defenses_open(i).is_empty() {
                    if let Some(p) = &mut self.attack {
                        p.defenses[i] = Some((None, None));
                    }
                    continue;
                }
                self.prompt = Some(Prompt::Defend(i));
                return;
            }
        }
        let Some(w) = self.sheet(a.attacker).weapons().get(a.weapon).cloned() else {
            self.attack = None;
            return;
        };
        let nimble = |d: &Option<(Option<Defense>, Option<DefenseRecord>)>| {
            matches!(d, Some((Some(Defense::Nimble), _)))
        };
        if a.roll.is_none() && a.defenses.iter().all(nimble) {
            // Every target dodges outright: nothing to roll.
            for &tg in &a.targets {
                events.push(note(Some(tg), "dodges it (Nimble)".into()));
            }
            self.attack = None;
            self.finish_attack(a.attacker);
            return;
        }
        if a.roll.is_none() {
            if a.plus_two {
                // "+2 to a single check before the die is rolled": paid when it is rolled.
                self.spend_edge(a.attacker, self.gunner(a.attacker));
            }
            let mods = self.attack_modifiers(a.attacker, &w, a.targets[0], a.plus_two);
            let dl = self.target_defense(map, 0);
            let roll = exploding_d6(dice, mods, Some(dl));
            if let Some(p) = &mut self.attack {
                p.roll = Some(roll);
            }
        }
        let Some(a) = self.attack.clone() else { return };
        let Some(mut roll) = a.roll.clone() else {
            return;
        };
        let nimble0 = matches!(a.defenses[0], Some((Some(Defense::Nimble), _)));
        if !roll.succeeded()
            && !a.reroll_done
            && !nimble0
            && !self.rerolls(a.attacker, self.gunner(a.attacker)).is_empty()
        {
            self.prompt = Some(Prompt::Reroll);
            return;
        }
        let skill = Character::weapon_skill(&w);
        if a.excellent
            && a.resolved == 0
            && a.spare.is_none()
            && roll.succeeded()
            && !self
                .state(a.attacker)
                .excellent_used
                .iter()
                .any(|s| s == skill)
        {
            roll = excellent_six(&roll, dice);
            self.state_mut(a.attacker)
                .excellent_used
                .push(skill.to_string());
            events.push(note(
                Some(a.attacker),
                format!("Excellent Skill ({skill}): the die counts as a 6 and explodes"),
            ));
            if let Some(p) = &mut self.attack {
                p.roll = Some(roll.clone());
            }
        }
        // Each target in order.
        for i in a.resolved..a.targets.len() {
            if self.resolve_target(map, i, &w, &roll, dice, events) {
                return; // waits for the victim's Edge
            }
            if let Some(p) = &mut self.attack {
                p.resolved = i + 1;
                p.spare = None;
            }
        }
        self.attack = None;
        self.finish_attack(a.attacker);
    }

    pub(super) fn finish_attack(&mut self, attacker: UnitId) {
        if let Some(t) = &mut self.turn
            && t.unit == attacker
        {
            t.attacks_left = t.attacks_left.saturating_sub(1);
            if t.attacks_left == 0 {
                t.acted = true;
            }
        }
    }

    /// Resolves target `i`; true when the battle must first ask the target a question (a
    /// re-roll of its beaten defense, or Edge against a killing attack).
    pub(super) fn resolve_target(
        &mut self,
        map: &HexMap,
        i: usize,
        w: &Weapon,
        roll: &RollRecord,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) -> bool {
        let Some(a) = self.attack.clone() else {
            return false;
        };
        let tg = a.targets[i];
        let r = self.roll_against(map, i, roll);
        let (choice, record) = a.defenses[i].clone().unwrap_or((None, None));
        // A parry or dodge the attack beats may be re-rolled ("Using Edge"; Lucky).
        if r.succeeded()
            && record.is_some()
            && !a.defense_rerolled.get(i).copied().unwrap_or(true)
            && self.fighting(tg)
            && !self.rerolls(tg, None).is_empty()
        {
            self.prompt = Some(Prompt::RerollDefense(i));
            return true;
        }
        let defenses: Vec<DefenseRecord> = record.into_iter().collect();
        let attack_event = |result| BattleEvent::Attack {
            attacker: a.attacker,
            target: tg,
            weapon: Label::from(w.name.clone()),
            roll: r.clone(),
            defenses: defenses.clone(),
            result,
        };
        if choice == Some(Defense::Nimble) {
            events.push(attack_event(AttackResult::Defended));
            events.push(note(Some(tg), "dodges it (Nimble)".into()));
            return false;
        }
        // A flash-bang blinds everyone it reaches who does not dodge it (table note "*"):
        // a dodge that the roll does not beat saves the eyes; a parry does not.
        let dodged = choice == Some(Defense::Dodge) && !r.succeeded();
        if w.blinds && !dodged && self.fighting(tg) {
            self.state_mut(tg).blind = crate::rules::main_sequence::combat::FLASH_BLIND_ROUNDS;
            events.push(note(
                Some(tg),
                format!(
                    "is blinded for its next {} turns",
                    crate::rules::main_sequence::combat::FLASH_BLIND_ROUNDS
                ),
            ));
        }
        if !r.succeeded() {
            events.push(attack_event(if defenses.is_empty() {
                AttackResult::Miss
            } else {
                AttackResult::Defended
            }));
            return false;
        }
        let margin = r.margin.unwrap_or(0);
        let damage = w.damage + margin;
        let soak = self.soak(tg);
        let st = self.state(tg).clone();
        match self.sheet(tg) {
            MsSheet::Character(c) => {
                let after = crate::rules::main_sequence::combat::take_damage(st.hp, damage, soak);
                let lethal = !w.bash;
                if after == 0 && st.hp > 0 && lethal && st.edge > 0 {
                    match a.spare {
                        None => {
                            self.prompt = Some(Prompt::Kill(i));
                            return true;
                        }
                        Some(true) => {
                            self.state_mut(tg).edge -= 1;
                            events.push(attack_event(AttackResult::Miss));
                            events.push(note(
                                Some(tg),
                                "spends a point of Edge: the killing attack just misses".into(),
                            ));
                            return false;
                        }
                        Some(false) => {}
                    }
                }
                let soldier = c.attrs.soldier;
                let max = c.hp;
                events.push(attack_event(AttackResult::Hit));
                events.push(damage_event(
                    a.attacker, tg, w, margin, soak, st.hp, after, max,
                ));
                self.state_mut(tg).hp = after;
                if after == 0 && st.hp > 0 {
                    self.bring_down(tg, w.bash, soldier, events);
                }
            }
            MsSheet::Ship(s) => {
                let s = s.clone();
                let (shields, hp) = ship_hit(st.shields, st.hp, damage, soak);
                if hp == 0 && self.crew_edge(tg) > 0 && a.spare.is_none() {
                    self.prompt = Some(Prompt::Kill(i));
                    return true;
                }
                events.push(attack_event(AttackResult::Hit));
                // "Ship Destruction": a crew that spends Edge keeps the Hit Points and
                // shields of before the attack, and the damage line says so.
                let spared = hp == 0 && a.spare != Some(false) && self.crew_edge(tg) > 0;
                let mut ev = damage_event(
                    a.attacker,
                    tg,
                    w,
                    margin,
                    soak,
                    st.hp,
                    if spared { st.hp } else { hp },
                    s.hp,
                );
                if let BattleEvent::Damage { steps, .. } = &mut ev
                    && spared
                {
                    let through = w.damage + margin - soak;
                    steps.push(Modifier::new("spared by the crew's Edge", -through));
                } else if let BattleEvent::Damage { steps, .. } = &mut ev
                    && st.shields > 0
                {
                    steps.insert(
                        0,
                        Modifier::named(
                            format!("shields {} -> {shields}", st.shields),
                            -(st.shields - shields),
                        ),
                    );
                }
                events.push(ev);
                self.state_mut(tg).shields = shields;
                if hp == 0 {
                    self.ship_destruction(tg, &s, a.spare != Some(false), st.shields, events);
                } else {
                    self.state_mut(tg).hp = hp;
                    self.systems_failure(tg, st.hp, hp, s.hp, dice, events);
                }
            }
        }
        false
    }

    pub(super) fn bring_down(
        &mut self,
        u: UnitId,
        bash: bool,
        soldier: i32,
        events: &mut Vec<BattleEvent>,
    ) {
        let (condition, cause) = if bash {
            (
                Condition::KnockedOut,
                "knocked out (bashing damage)".to_string(),
            )
        } else {
            (
                Condition::Dying {
                    rounds: soldier,
                    attempts: 0,
                },
                format!("dying: dies in {soldier} rounds unless stabilized"),
            )
        };
        self.state_mut(u).condition = condition;
        events.push(BattleEvent::StatusChanged {
            unit: u,
            standing: Standing::Unconscious,
            cause: Cow::Owned(cause),
        });
    }
}
