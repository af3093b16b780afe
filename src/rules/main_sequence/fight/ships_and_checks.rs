//! Main Sequence ships destroyed and systems failing (main-sequence.txt, "Ship Destruction",
//! "Systems Failure"), stunts, and the checks a turn or a round rolls with their Edge and
//! re-rolls ("Edge", "Excellent Skill").

use super::*;

impl<F: Borrow<Fight>, U: MsUnits> Board<F, U> {
    /// The modifiers of a move stunt of character `u`: a duck is ("Agent", "Acrobatics"),
    /// a leap ("Soldier", "Athletics") (skill table of "Skills"). `None` for a ship.
    pub fn stunt_modifiers(
        &self,
        u: UnitId,
        attr: &'static str,
        skill: &'static str,
    ) -> Option<Vec<Modifier>> {
        let MsSheet::Character(c) = self.sheet(u) else {
            return None;
        };
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
        Some(mods)
    }

    /// True when `u` may still call on Excellent Skill for an attack with `w` (a
    /// character with the tag for the weapon's skill, not yet used this scene).
    pub fn excellent_open(&self, u: UnitId, w: &Weapon) -> bool {
        let skill = Character::weapon_skill(w);
        self.shooter(u).is_some_and(|c| c.excellent(skill))
            && !self.state(u).excellent_used.iter().any(|s| s == skill)
    }

    /// The check a turn's decision makes (a duck, a leap, first aid), with its +2 decided.
    pub fn turn_check(&self, map: &HexMap, u: UnitId, action: &Action) -> Option<Check> {
        let (kind, mods, dl, plus_two) = match action {
            Action::Duck { plus_two } => (
                CheckKind::Duck,
                self.stunt_modifiers(u, "Agent", "Acrobatics")?,
                MOVE_STUNT_DL,
                *plus_two,
            ),
            Action::Leap { to, plus_two } => {
                let path = self.leap_path(map, u, Hex::new(to.0, to.1))?;
                let short = path
                    .iter()
                    .skip(1)
                    .position(|&h| map.move_cost(h) == Some(2))
                    .map_or(path.len(), |i| i + 1);
                (
                    CheckKind::Leap { path, short },
                    self.stunt_modifiers(u, "Soldier", "Athletics")?,
                    MOVE_STUNT_DL,
                    *plus_two,
                )
            }
            Action::Stabilize { patient, plus_two } => {
                let MsSheet::Character(c) = self.sheet(u) else {
                    return None;
                };
                let Condition::Dying { attempts, .. } = self.state(*patient).condition else {
                    return None;
                };
                (
                    CheckKind::Stabilize { patient: *patient },
                    medicine_modifiers(c),
                    stabilize_dl(attempts + 1)?,
                    *plus_two,
                )
            }
            _ => return None,
        };
        let mut c = self.new_check(kind, u, None, mods, Some(dl));
        c.plus_two = Some(plus_two);
        Some(c)
    }

    /// The die of `old` (with any sixes after it) rolled again, and the better kept
    /// ("Using Edge": re-roll a single die and use the better of the two rolls).
    pub(super) fn reroll_kept(
        &self,
        u: UnitId,
        label: Reroll,
        old: RollRecord,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) -> RollRecord {
        let again = reroll_first(&old, dice);
        let how = match label {
            Reroll::Edge => "re-roll (Edge)",
            Reroll::Lucky => "re-roll (Lucky)",
            Reroll::LuckyBoat => "re-roll (Lucky Boat)",
        };
        events.push(note(
            Some(u),
            format!(
                "{how}: {} against {}; keeps the better",
                again.total, old.total
            ),
        ));
        if again.total > old.total { again } else { old }
    }
}

impl<F: BorrowMut<Fight>, U: MsUnitsMut> Board<F, U> {
    /// "Ship Destruction": an attack would bring the ship to 0. Unless the crew refuse
    /// (`spend` false, a player's choice), everyone aboard with Edge spends a point and the
    /// ship keeps the Hit Points and shields it had before the attack; the console of each
    /// crewman without Edge explodes, lethal damage that leaves him dying. With no Edge
    /// aboard (or refused) the ship is destroyed with all hands.
    pub(super) fn ship_destruction(
        &mut self,
        u: UnitId,
        s: &ShipSheet,
        spend: bool,
        shields_before: i32,
        events: &mut Vec<BattleEvent>,
    ) {
        let alive = |c: &CrewState| !matches!(c.condition, Condition::Dead);
        let mut edge: Vec<i32> = self
            .state(u)
            .crew
            .iter()
            .map(|c| if alive(c) { c.edge } else { 0 })
            .collect();
        let outcome = if spend {
            ship_destruction(&mut edge)
        } else {
            Destruction::Destroyed
        };
        match outcome {
            Destruction::Destroyed => {
                let st = self.state_mut(u);
                st.hp = 0;
                st.shields = 0;
                st.condition = Condition::Destroyed;
                for c in &mut st.crew {
                    c.hp = 0;
                    c.condition = Condition::Dead;
                }
                events.push(BattleEvent::StatusChanged {
                    unit: u,
                    standing: Standing::Destroyed,
                    cause: Cow::Borrowed(if spend {
                        "is destroyed, all hands lost (no Edge aboard)"
                    } else {
                        "is destroyed, all hands lost (the crew spent no Edge)"
                    }),
                });
            }
            Destruction::Survives { consoles } => {
                let st = self.state_mut(u);
                st.shields = shields_before;
                for (c, e) in st.crew.iter_mut().zip(&edge) {
                    if alive(c) {
                        c.edge = *e;
                    }
                }
                let mut hurt = Vec::new();
                for &i in &consoles {
                    let Some(c) = st.crew.get_mut(i) else {
                        continue;
                    };
                    if c.hp > 0 {
                        c.hp = 0;
                        c.condition = Condition::Dying {
                            rounds: s.crew[i].character.attrs.soldier,
                            attempts: 0,
                        };
                        hurt.push(s.crew[i].name.as_str());
                    }
                }
                events.push(note(
                    Some(u),
                    if hurt.is_empty() {
                        "the crew spend Edge: the ship holds together".into()
                    } else {
                        format!(
                            "the crew spend Edge: the ship holds together; consoles explode on {}: dying",
                            hurt.join(", ")
                        )
                    },
                ));
            }
        }
    }

    pub(super) fn systems_failure(
        &mut self,
        u: UnitId,
        before: i32,
        after: i32,
        full: i32,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let Some(f) = self.failures else { return };
        for _ in 0..failures_crossed(before, after, full, f == Failures::Extreme) {
            let die = dice.roll_die(6);
            let failed = &mut self.state_mut(u).failed;
            // The die picks the system; one already out passes to the next in turn.
            let first = failed_system(die);
            let system = [first, next_system(first), next_system(next_system(first))]
                .into_iter()
                .find(|s| !failed.contains(s))
                .unwrap_or(first);
            if !failed.contains(&system) {
                failed.push(system);
                events.push(note(
                    Some(u),
                    format!("systems failure (1d6: {die}): the {system:?} are out"),
                ));
            }
        }
    }

    /// Carries the check in progress on: asks about +2, rolls, asks about a re-roll, and
    /// applies it. False while it waits for an answer.
    pub(super) fn run_check(
        &mut self,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) -> bool {
        let Some(mut c) = self.check.clone() else {
            return true;
        };
        if c.plus_two.is_none() {
            if self.fighting(c.roller) && self.roller_edge(c.roller, c.crewman) > 0 {
                self.prompt = Some(Prompt::Boost);
                return false;
            }
            c.plus_two = Some(false);
        }
        if c.roll.is_none() {
            let mut mods = c.mods.clone();
            if c.plus_two == Some(true) {
                self.spend_edge(c.roller, c.crewman);
                mods.push(Modifier::new("Edge", 2));
            }
            c.roll = Some(exploding_d6(dice, mods, c.dl));
        }
        if !c.reroll_done
            && c.failed()
            && self.fighting(c.roller)
            && !self.check_rerolls(&c).is_empty()
        {
            self.check = Some(c);
            self.prompt = Some(Prompt::RerollCheck);
            return false;
        }
        self.check = None;
        if let Some(roll) = c.roll.clone() {
            self.finish_check(&c, roll, dice, events);
        }
        true
    }

    /// What a finished check does.
    pub(super) fn finish_check(
        &mut self,
        c: &Check,
        roll: RollRecord,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let u = c.roller;
        let ok = roll.succeeded();
        let crewman = |f: &Self| -> String {
            match (f.sheet(u), c.crewman) {
                (MsSheet::Ship(s), Some(i)) => s
                    .crew
                    .get(i)
                    .map_or(String::new(), |m| format!("{} ", m.name)),
                _ => String::new(),
            }
        };
        match &c.kind {
            CheckKind::Duck => {
                self.state_mut(u).ducked = ok;
                let text = if ok {
                    "ducks: one degree more cover until its next turn"
                } else {
                    "fails to find better cover"
                };
                events.push(roll_event(u, "duck (Acrobatics)", roll, text.into()));
            }
            CheckKind::Leap { path, short } => {
                let path: Vec<Hex> = if ok {
                    path.clone()
                } else {
                    path[..(*short).min(path.len())].to_vec()
                };
                let end = path.last().copied().unwrap_or(self.state(u).pos);
                let text = if ok {
                    format!("leaps to ({}, {})", end.x, end.y)
                } else {
                    format!("stops short at ({}, {})", end.x, end.y)
                };
                events.push(roll_event(u, "leap (Athletics)", roll, text));
                if path.len() > 1 {
                    events.push(BattleEvent::Moved {
                        unit: u,
                        cost: path.len() as u32 - 1,
                        path: path.iter().copied().map(hex_pair).collect(),
                    });
                }
                self.state_mut(u).pos = end;
            }
            CheckKind::Stabilize { patient } => {
                let patient = *patient;
                let name = self.name(patient).to_string();
                let (next, text) = stabilized(self.state(patient).condition, ok, &name);
                self.state_mut(patient).condition = next;
                events.push(roll_event(
                    u,
                    "stabilize (Knowledge (Medicine))",
                    roll,
                    text,
                ));
                if next == Condition::Dead {
                    events.push(BattleEvent::StatusChanged {
                        unit: patient,
                        standing: Standing::Dead,
                        cause: Cow::Borrowed("dies: every attempt to stabilize failed"),
                    });
                }
            }
            CheckKind::StabilizeCrew { patient } => {
                let name = match self.sheet(u) {
                    MsSheet::Ship(s) => s.crew.get(*patient).map_or("?".into(), |m| m.name.clone()),
                    MsSheet::Character(_) => return,
                };
                let who = crewman(self);
                let Some(cs) = self.state(u).crew.get(*patient) else {
                    return;
                };
                let (next, text) = stabilized(cs.condition, ok, &name);
                if let Some(cs) = self.state_mut(u).crew.get_mut(*patient) {
                    cs.condition = next;
                }
                events.push(roll_event(
                    u,
                    "first aid aboard (Knowledge (Medicine))",
                    roll,
                    format!("{who}tends {name}: {text}"),
                ));
            }
            CheckKind::Sweep { target } => {
                let side = usize::from(self.side(u));
                if let Some(d) = self.state_mut(*target).seen_by.get_mut(side) {
                    *d = ok;
                }
                let text = format!(
                    "{}{} {}",
                    crewman(self),
                    if ok { "detects" } else { "does not find" },
                    self.name(*target)
                );
                events.push(roll_event(u, "sensor sweep", roll, text));
            }
            CheckKind::Repair => {
                let Some(&system) = self.state(u).failed.first() else {
                    return;
                };
                if ok {
                    self.state_mut(u).failed.remove(0);
                }
                let text = format!(
                    "{}{}",
                    crewman(self),
                    if ok {
                        format!("repairs the {system:?}")
                    } else {
                        format!("cannot fix the {system:?} yet")
                    }
                );
                events.push(roll_event(u, "repair", roll, text));
            }
            CheckKind::Chase { pursuer } => {
                // The loser's second look (`against` set) was logged as its re-roll note.
                if c.against.is_none() {
                    let text = if *pursuer { "as pursuer" } else { "as quarry" };
                    events.push(roll_event(u, "the chase", roll.clone(), text.into()));
                }
                if let Some(RoundTask::Chase {
                    pursuer: p,
                    quarry: q,
                    ..
                }) = self.round_tasks.first_mut()
                {
                    if *pursuer {
                        *p = Some(roll);
                    } else {
                        *q = Some(roll);
                    }
                }
            }
        }
        let _ = dice;
    }
}
