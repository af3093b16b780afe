//! Rounds and turns of a Vergeworlds fight (vergeworlds-rough-methods.txt, "Combat Time and
//! Pacing"): Action Points each round, the order of turns, the turn's start and end.

use super::*;

impl<F: Borrow<Fight>, U: VwUnits> Board<F, U> {
    // ----- rounds and turns ------------------------------------------------------------

    pub(super) fn wait_triggered(&self, u: UnitId) -> bool {
        let sheet = self.sheet(u);
        let reach = sheet
            .weapons
            .iter()
            .filter(|w| w.melee())
            .map(|w| w.reach)
            .fold(1.0, f64::max);
        let ranged = sheet.weapons.iter().any(|w| !w.melee());
        self.foes(u)
            .any(|e| self.distance(u, e) <= reach + 0.5 || (ranged && self.sees(u, e)))
    }
}

impl<F: BorrowMut<Fight>, U: VwUnitsMut> Board<F, U> {
    /// Starts a round: Action Points for everyone (with the starting pools in the first).
    pub fn begin_round(&mut self, dice: &mut impl DieRoller, events: &mut Vec<BattleEvent>) {
        self.round += 1;
        self.order.clear();
        let first = self.round == 1;
        let mut shared: Vec<(u8, String, i32)> = Vec::new();
        for u in self.ids().collect::<Vec<_>>() {
            let sheet = std::sync::Arc::clone(
                self.units
                    .sheet_of(u)
                    .unwrap_or_else(|| panic!("no character {u:?}")),
            );
            let per_round = sheet.ap_per_round();
            let carried = carried_over(self.state(u).ap);
            let mut pool = 0;
            if first {
                let key = self.state(u).group.clone().map(|g| (self.side(u), g));
                let known = key.as_ref().and_then(|(s, g)| {
                    shared
                        .iter()
                        .find(|(s2, g2, _)| s2 == s && g2 == g)
                        .map(|x| x.2)
                });
                let d6 = match known {
                    Some(d) => d,
                    None => {
                        let d = dice.roll_die(6) as i32;
                        if let Some((s, g)) = key {
                            shared.push((s, g, d));
                        }
                        d
                    }
                };
                let awareness = if sheet.start == Start::Surprised {
                    let t = task::task(
                        dice,
                        vec![Modifier::new("Awareness", sheet.awareness)],
                        combat::SURPRISE_DC,
                        0,
                    );
                    log_only(events, self.quiet, || BattleEvent::Roll {
                        unit: u,
                        purpose: "Awareness (caught unaware)".into(),
                        roll: t.roll.clone(),
                        result: format!("degree {}", t.degree).into(),
                    });
                    t.degree
                } else {
                    0
                };
                pool = combat::starting_pool(sheet.start, d6, awareness);
                log_only(events, self.quiet, || BattleEvent::Note {
                    unit: Some(u),
                    text: format!(
                        "starts the combat with {pool} Action Points held over (1d6 = {d6}, {})",
                        match sheet.start {
                            Start::Normal => "1d6 - 1",
                            Start::Waiting => "waiting: 5",
                            Start::Surprised => "surprised",
                        }
                    ),
                });
            }
            let s = self.state_mut(u);
            s.tiebreak = None;
            s.fired.iter_mut().for_each(|f| *f = 0);
            if s.in_fight() {
                s.ap = carried + per_round + pool;
            } else {
                s.ap = 0;
            }
        }
    }

    /// The unit whose decision the battle waits for, starting the next turn when needed.
    pub fn advance(&mut self, dice: &mut impl DieRoller, events: &mut Vec<BattleEvent>) -> Step {
        if let Some(p) = self.prompt {
            return Step::Awaiting(p.unit());
        }
        if let Some(u) = self.active {
            if self.fighting(u) {
                return Step::Awaiting(u);
            }
            self.active = None;
        }
        // "Wait": a turn interrupted by a waiting foe goes on where it stopped.
        while let Some(u) = self.interrupted.pop() {
            if self.fighting(u) {
                self.active = Some(u);
                log_only(events, self.quiet, || BattleEvent::Note {
                    unit: Some(u),
                    text: "goes on with its turn".into(),
                });
                return Step::Awaiting(u);
            }
        }
        // Waiting characters go first once an enemy is within reach or sight.
        let waiting: Vec<UnitId> = self
            .ids()
            .filter(|&u| self.fighting(u) && self.state(u).waiting && self.state(u).ap >= TURN_AP)
            .collect();
        for u in waiting {
            if self.wait_triggered(u) {
                self.state_mut(u).waiting = false;
                log_only(events, self.quiet, || BattleEvent::Note {
                    unit: Some(u),
                    text: "stops waiting and acts".into(),
                });
                self.start_turn(u, dice, events);
                return match self.active {
                    Some(a) => Step::Awaiting(a),
                    // Choked or strangled out at the start of its turn.
                    None => self.advance(dice, events),
                };
            }
        }
        let mut ready: Vec<UnitId> = self
            .ids()
            .filter(|&u| self.fighting(u) && !self.state(u).waiting && self.state(u).ap >= TURN_AP)
            .collect();
        if ready.is_empty() {
            return Step::RoundOver;
        }
        let top = ready.iter().map(|&u| self.state(u).ap).max().unwrap_or(0);
        ready.retain(|&u| self.state(u).ap == top);
        if ready.len() > 1 {
            for &u in &ready {
                if self.state(u).tiebreak.is_none() {
                    let roll = open_ended_2d6(
                        dice,
                        vec![Modifier::new("Coordination", self.sheet(u).coordination)],
                        None,
                    );
                    let total = roll.total;
                    log_only(events, self.quiet, || BattleEvent::Roll {
                        unit: u,
                        purpose: "Coordination contest (tied Action Points)".into(),
                        roll,
                        result: format!("{total}").into(),
                    });
                    self.state_mut(u).tiebreak = Some(total);
                }
            }
            ready.sort_by_key(|&u| (std::cmp::Reverse(self.state(u).tiebreak), u.0));
        }
        let u = ready[0];
        self.start_turn(u, dice, events);
        match self.active {
            Some(a) => Step::Awaiting(a),
            // Choked or strangled out at the start of its turn.
            None => self.advance(dice, events),
        }
    }

    pub(super) fn start_turn(
        &mut self,
        u: UnitId,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let me = self.entity(u);
        for g in self.ids() {
            let s = self.state_mut(g);
            if s.defended_against == Some(me) {
                s.defended_against = None;
            }
        }
        let s = self.state_mut(u);
        s.ap -= TURN_AP;
        s.moved = std::mem::take(&mut s.step_borrowed);
        s.actions = s.borrowed;
        s.borrowed = 0;
        s.carried = (s.actions, s.moved);
        s.ran = false;
        s.steered = false;
        s.attitude = Attitude::Neutral;
        s.attitude_chosen = false;
        s.attack_bonus_used = false;
        s.defense_bonus_used = false;
        s.defenses = 0;
        s.free_defenses = 1;
        s.evade = None;
        s.turns += 1;
        self.active = Some(u);
        self.order.push(u);
        events.push(BattleEvent::TurnStarted { unit: u });
        self.holds_at_turn_start(u, dice, events);
    }

    /// The holds on `u` at the start of its turn ("Grappling"): a choke's Vigor check or its
    /// recovery, a strangle's Strength contest; holds whose grappler let go or fell end.
    pub(super) fn holds_at_turn_start(
        &mut self,
        u: UnitId,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let me = self.entity(u);
        let holds = |f: &Self, g: Option<Entity>| {
            g.filter(|&g| {
                f.unit_of(g).is_some_and(|g| {
                    f.fighting(g) && f.state(g).control.iter().any(|(x, c)| *x == me && *c > 0.0)
                })
            })
        };
        let (lifted, choked, strangled) = {
            let s = self.state(u);
            (
                holds(self, s.lifted_by),
                holds(self, s.choked_by),
                holds(self, s.strangled_by),
            )
        };
        {
            let s = self.state_mut(u);
            s.lifted_by = lifted;
            s.choked_by = choked;
            s.strangled_by = strangled;
        }
        let sheet = self.shared_sheet(u);
        let penalty = self.control_on(u);
        if let Some(g) = self.state(u).choked_by.and_then(|g| self.unit_of(g)) {
            // "Choke": DC 2 Vigor with the Control penalty; a failure is value of [degree]
            // of choking Fatigue. Decision: the "Mild Shock" level is the Stamina.
            let mut mods = vec![Modifier::new("Vigor", sheet.vigor)];
            if penalty != 0 {
                mods.push(Modifier::new("Control", penalty));
            }
            let t = task::task(dice, mods, 2, 0);
            let fatigue = if t.succeeded() {
                0.0
            } else {
                combat::choke_fatigue(t.degree)
            };
            log_only(events, self.quiet, || BattleEvent::Roll {
                unit: u,
                purpose: format!("choked by {} (Vigor, DC 2)", self.name(g)).into(),
                roll: t.roll,
                result: if fatigue > 0.0 {
                    format!("{fatigue:.1} choking Fatigue").into()
                } else {
                    "holds on".into()
                },
            });
            let s = self.state_mut(u);
            s.choke += fatigue;
            if s.choke >= f64::from(sheet.stamina) {
                s.hurt = Hurt::Down;
                log_only(events, self.quiet, || BattleEvent::Note {
                    unit: Some(u),
                    text: "passes out from the choke".into(),
                });
            }
        } else if self.state(u).choke > 0.0 {
            let s = self.state_mut(u);
            s.choke = (s.choke - combat::choke_recovery(sheet.vigor)).max(0.0);
        }
        if let Some(g) = self.state(u).strangled_by.and_then(|g| self.unit_of(g))
            && self.fighting(u)
        {
            // "Squeeze or Strangle": a Strength contest, the victim at the Control penalty;
            // losing it, it cannot breathe. Decision: a turn without breath costs 1 Breath.
            let mut mine = vec![Modifier::new("Strength", sheet.strength)];
            if penalty != 0 {
                mine.push(Modifier::new("Control", penalty));
            }
            let theirs = vec![Modifier::new("Strength", self.sheet(g).strength)];
            let purpose = format!("strangled: Strength contest with {}", self.name(g));
            let breathes = self.contest(
                u,
                mine,
                theirs,
                purpose,
                ["breathes", "cannot breathe"],
                dice,
                events,
            );
            if !breathes {
                self.breath(u, 1, events);
            }
        }
        if !self.fighting(u) {
            self.end_turn(u, events);
        }
    }

    /// An opposed task ("Opposed Actions"): `u` rolls with `mine` against the other side's
    /// `theirs`, logged as `u`'s roll with `words` for a win and a loss; true when `u` wins
    /// (a tie is not a win).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn contest(
        &mut self,
        u: UnitId,
        mine: Vec<Modifier>,
        theirs: Vec<Modifier>,
        purpose: String,
        words: [&str; 2],
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) -> bool {
        let a = task::task(dice, mine, 0, 0);
        let b = task::task(dice, theirs, 0, 0);
        let wins = task::opposed(&a, &b) == std::cmp::Ordering::Greater;
        log_only(events, self.quiet, || BattleEvent::Roll {
            unit: u,
            purpose: purpose.into(),
            roll: a.roll,
            result: format!("{} (against {})", words[usize::from(!wins)], b.roll.total).into(),
        });
        wins
    }

    /// "Wait": a waiting foe whose chance comes during `u`'s turn may interrupt it, by an
    /// opposed Reaction Time task (+2 when `u` must still move more than a step to act on
    /// it). Each waiting foe tries once a turn.
    pub(super) fn interrupts(
        &mut self,
        u: UnitId,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let turn = self.state(u).turns;
        let waiters: Vec<UnitId> = self
            .foes(u)
            .filter(|&w| {
                let s = self.state(w);
                s.waiting
                    && s.ap >= TURN_AP
                    && s.interrupt_tried != Some((self.entity(u), turn))
                    && self.wait_triggered(w)
            })
            .collect();
        for w in waiters {
            let active = self.entity(u);
            self.state_mut(w).interrupt_tried = Some((active, turn));
            // Decision: `u` must move first when it has no weapon that reaches from afar and
            // stands beyond the reach of its longest melee weapon.
            let reach = self
                .sheet(u)
                .weapons
                .iter()
                .filter(|x| x.melee())
                .map(|x| x.reach)
                .fold(1.0, f64::max);
            let must_move = self.distance(u, w) > reach + 0.5
                && self.sheet(u).weapons.iter().all(|x| x.melee());
            let mut mods = vec![Modifier::new("Reaction Time", self.sheet(w).reaction)];
            let bonus = combat::interrupt_bonus(must_move);
            if bonus != 0 {
                mods.push(Modifier::new("the other must move first", bonus));
            }
            let theirs = vec![Modifier::new("Reaction Time", self.sheet(u).reaction)];
            let purpose = format!("interrupt {} (opposed Reaction Time)", self.name(u));
            let wins = self.contest(
                w,
                mods,
                theirs,
                purpose,
                ["interrupts", "too slow"],
                dice,
                events,
            );
            if wins {
                self.interrupted.push(u);
                self.active = None;
                self.state_mut(w).waiting = false;
                self.start_turn(w, dice, events);
                return;
            }
        }
    }

    pub(super) fn end_turn(&mut self, u: UnitId, events: &mut Vec<BattleEvent>) {
        let s = self.state_mut(u);
        s.off_balance = 0;
        // "High Speed Movement": below a quarter of the Maneuver the vector is dropped.
        let maneuver = self.sheet(u).maneuver;
        let s = self.state_mut(u);
        if let Some(v) = s.vector
            && !v.kept(maneuver)
        {
            s.vector = None;
            log_only(events, self.quiet, || BattleEvent::Note {
                unit: Some(u),
                text: "slows out of high-speed movement".into(),
            });
        }
        if self.active == Some(u) {
            self.active = None;
        }
    }

    /// The end of a round: unused Action Points over 5 are lost (kept in [`Self::begin_round`]).
    pub fn end_round(&mut self) {
        self.interrupted.clear();
        for g in self.ids() {
            let s = self.state_mut(g);
            s.ap = carried_over(s.ap);
        }
    }
}
