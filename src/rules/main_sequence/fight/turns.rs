//! Rounds and turns of a Main Sequence fight (main-sequence.txt, "Combat Actions",
//! "Initiative", "Chase Rules", "Ship Detection"): the round's start with its checks
//! (sensor sweeps, the chase roll, first aid), initiative and the order of turns.

use super::*;

impl<F: Borrow<Fight>, U: MsUnits> Board<F, U> {
    // ---------------------------------------------------------------------------------
    // Rounds and turns.

    /// The round's checks, in order: each ship's repair of a failed system, its medic's
    /// first aid to dying crewmen, each side's sweeps for enemy ships it has not found, the
    /// chase; then initiative.
    pub(super) fn plan_round(&self) -> Vec<RoundTask> {
        let mut tasks = Vec::new();
        for u in self.ids() {
            if !self.fighting(u) {
                continue;
            }
            let MsSheet::Ship(s) = self.sheet(u) else {
                continue;
            };
            let st = self.state(u);
            if !st.failed.is_empty()
                && let Some(i) = self.crewman(u, Task::Repair)
            {
                let c = &s.crew[i].character;
                let mut mods = vec![Modifier::new("Tech", c.attrs.tech)];
                let k = Task::Repair.bonus(c, None) - c.attrs.tech;
                if k != 0 {
                    mods.push(Modifier::new("Knowledge (Engineering/Mechanics)", k));
                }
                tasks.push(RoundTask::Check(self.new_check(
                    CheckKind::Repair,
                    u,
                    Some(i),
                    mods,
                    Some(REPAIR_DL),
                )));
            }
            for (p, c) in st.crew.iter().enumerate() {
                let Condition::Dying { attempts, .. } = c.condition else {
                    continue;
                };
                let (Some(dl), Some(i)) =
                    (stabilize_dl(attempts + 1), self.crewman(u, Task::Medic))
                else {
                    continue;
                };
                let m = &s.crew[i].character;
                let mods = medicine_modifiers(m);
                tasks.push(RoundTask::Check(self.new_check(
                    CheckKind::StabilizeCrew { patient: p },
                    u,
                    Some(i),
                    mods,
                    Some(dl),
                )));
            }
        }
        for side in 0..self.side_ids.len() {
            // The side's best sensor sweep: crewman's Tech + Knowledge (Sensors) + Sensors.
            let best = self
                .ids()
                .filter(|&u| usize::from(self.side(u)) == side && self.fighting(u))
                .filter_map(|u| {
                    let MsSheet::Ship(s) = self.sheet(u) else {
                        return None;
                    };
                    let i = self.crewman(u, Task::Sensors)?;
                    let c = &s.crew[i].character;
                    Some((
                        c.attrs.tech + c.skill("Knowledge (Sensors)") + s.attrs.sensors
                            - self.sensor_penalty(u),
                        u,
                        i,
                    ))
                })
                .max_by_key(|(b, u, _)| (*b, std::cmp::Reverse(*u)));
            let Some((_, by, i)) = best else { continue };
            for target in self.ids() {
                if usize::from(self.side(target)) == side
                    || !self.fighting(target)
                    || self
                        .state(target)
                        .seen_by
                        .get(side)
                        .copied()
                        .unwrap_or(false)
                    || !self.sheet(target).is_ship()
                {
                    continue;
                }
                tasks.push(RoundTask::Check(self.sweep_check(by, i, target)));
            }
        }
        if self.chase.is_some() {
            tasks.push(RoundTask::Chase {
                pursuer: None,
                quarry: None,
                offered: false,
            });
        }
        tasks.push(RoundTask::Initiative);
        tasks
    }

    /// A new check of `roller` (its `crewman` for a ship), not yet asked about Edge.
    pub(super) fn new_check(
        &self,
        kind: CheckKind,
        roller: UnitId,
        crewman: Option<usize>,
        mods: Vec<Modifier>,
        dl: Option<i32>,
    ) -> Check {
        Check {
            kind,
            roller,
            crewman,
            mods,
            dl,
            plus_two: None,
            roll: None,
            against: None,
            reroll_done: false,
        }
    }

    /// What damaged sensors add to the DL of `u`'s sweeps.
    pub(super) fn sensor_penalty(&self, u: UnitId) -> i32 {
        if self.state(u).failed.contains(&System::Sensors) {
            DAMAGED_SENSORS_DL
        } else {
            0
        }
    }

    /// The sweep of ship `by` (crewman `i` at the sensors) for `target` ("Ship
    /// Detection": 1d6 + Tech + Knowledge (Sensors) + Sensors against DL 7, Stealth and
    /// the scenario's conditions and damaged sensors adding to it; Champion +2 against
    /// the cause's opponents).
    pub(super) fn sweep_check(&self, by: UnitId, i: usize, target: UnitId) -> Check {
        let mut mods = Vec::new();
        let mut dl = 0;
        if let (MsSheet::Ship(s), MsSheet::Ship(ts)) = (self.sheet(by), self.sheet(target)) {
            let c = &s.crew[i].character;
            mods.push(Modifier::new("Tech", c.attrs.tech));
            let k = c.skill("Knowledge (Sensors)");
            if k != 0 {
                mods.push(Modifier::new("Knowledge (Sensors)", k));
            }
            mods.push(Modifier::new("Sensors", s.attrs.sensors));
            if self.champions_against(c, target) {
                mods.push(Modifier::new("Champion", 2));
            }
            dl = detection_dl(ts.stealth) + self.detection_modifier + self.sensor_penalty(by);
        }
        self.new_check(CheckKind::Sweep { target }, by, Some(i), mods, Some(dl))
    }

    /// The chase roll of the pursuer (or the quarry) as a check.
    pub(super) fn chase_check(&self, c: &Chase, pursuer: bool) -> Check {
        let (u, bonus, vehicle, other) = if pursuer {
            (
                c.pursuer,
                c.pursuer_bonus,
                c.pursuer_vehicle.as_deref(),
                c.quarry,
            )
        } else {
            (
                c.quarry,
                c.quarry_bonus,
                c.quarry_vehicle.as_deref(),
                c.pursuer,
            )
        };
        let mut mods = self.chase_modifiers(u, bonus, vehicle);
        let roller = match self.sheet(u) {
            MsSheet::Character(ch) => Some(ch),
            MsSheet::Ship(s) => self.crewman(u, Task::Pilot).map(|i| &s.crew[i].character),
        };
        if roller.is_some_and(|ch| self.champions_against(ch, other)) {
            mods.push(Modifier::new("Champion", 2));
        }
        self.new_check(
            CheckKind::Chase { pursuer },
            u,
            self.crewman(u, Task::Pilot),
            mods,
            None,
        )
    }

    /// The chase roll of `u` ("Chase Rules": Agent + Vehicle + Propulsion for a ship,
    /// Agent + Vehicle for a character driving the ground `vehicle`, Soldier + Athletics
    /// on foot) plus its speed bonus.
    pub fn chase_modifiers(&self, u: UnitId, bonus: i32, vehicle: Option<&str>) -> Vec<Modifier> {
        let mut mods = Vec::new();
        match self.sheet(u) {
            MsSheet::Character(c) if let Some(v) = vehicle => {
                mods.push(Modifier::new("Agent", c.attrs.agent));
                let skill = format!("Vehicle ({v})");
                let bonus = c.skill(&skill);
                if bonus != 0 {
                    mods.push(Modifier::named(
                        rank_label(&skill, c.skills.get(&skill)),
                        bonus,
                    ));
                }
            }
            MsSheet::Character(c) => {
                mods.push(Modifier::new("Soldier", c.attrs.soldier));
                let a = c.skill("Athletics");
                if a != 0 {
                    mods.push(Modifier::new("Athletics", a));
                }
            }
            MsSheet::Ship(s) => {
                if let Some(i) = self.crewman(u, Task::Pilot) {
                    let c = &s.crew[i].character;
                    mods.push(Modifier::new("Agent", c.attrs.agent));
                    let v = c.vehicle(s.vehicle.as_deref());
                    if v != 0 {
                        let label = match &s.vehicle {
                            Some(f) => format!("Vehicle ({f})"),
                            None => "Vehicle".into(),
                        };
                        mods.push(Modifier::named(label, v));
                    }
                }
                if !self.state(u).failed.contains(&System::Engines) {
                    mods.push(Modifier::new("Propulsion", s.attrs.propulsion));
                }
            }
        }
        if bonus != 0 {
            mods.push(Modifier::new("speed", bonus));
        }
        mods
    }

    /// The Initiative rating of a unit (a ship: its captain's, else its best crewman's).
    pub fn initiative(&self, u: UnitId) -> i32 {
        match self.sheet(u) {
            MsSheet::Character(c) => c.attrs.initiative(),
            MsSheet::Ship(s) => self
                .crewman(u, Task::Command)
                .map_or(0, |i| s.crew[i].character.attrs.initiative()),
        }
    }

    /// True when `u` cannot see to attack: its turn is a blinded one, or (out of its
    /// turn) blindness is still to come.
    pub fn blinded(&self, u: UnitId) -> bool {
        match self.turn {
            Some(t) if t.unit == u => t.blinded,
            _ => self.state(u).blind > 0,
        }
    }

    pub(super) fn turn_open(&self) -> bool {
        self.turn.is_some_and(|t| !(t.moved && t.acted))
    }

    pub(super) fn attacks_per_action(&self, u: UnitId) -> u32 {
        match self.sheet(u) {
            MsSheet::Character(c) if c.has(&Tag::DoubleAttack) => 2,
            MsSheet::Character(_) => 1,
            MsSheet::Ship(s) => s.attacks,
        }
    }
}

impl<F: BorrowMut<Fight>, U: MsUnitsMut> Board<F, U> {
    /// Starts a round: the dying lose a round, then the round's checks (repairs, crew
    /// first aid, sensor sweeps, the chase) and initiative, in that order. A check whose
    /// roller has Edge or luck waits for its questions ([`Prompt::Boost`],
    /// [`Prompt::RerollCheck`]); [`Board::apply`] carries the round on with the answers.
    pub fn begin_round(
        &mut self,
        map: &HexMap,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        self.round += 1;
        let ids: Vec<UnitId> = self.ids().collect();
        for &u in &ids {
            let st = self.state_mut(u);
            if let Some(next) = dying_tick(st.condition) {
                st.condition = next;
                if next == Condition::Dead {
                    events.push(BattleEvent::StatusChanged {
                        unit: u,
                        standing: Standing::Dead,
                        cause: Cow::Borrowed("died of wounds"),
                    });
                }
            }
            for (i, c) in st.crew.iter_mut().enumerate() {
                if let Some(next) = dying_tick(c.condition) {
                    c.condition = next;
                    if next == Condition::Dead {
                        events.push(note(Some(u), format!("crewman {} dies of wounds", i + 1)));
                    }
                }
            }
        }
        self.next = 0;
        self.turn = None;
        self.order.clear();
        self.round_tasks = self.plan_round();
        self.run_round(map, dice, events);
    }

    /// Carries the round's start on: the check in progress, then the tasks left, until a
    /// question waits or initiative is rolled.
    pub(super) fn run_round(
        &mut self,
        map: &HexMap,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        loop {
            if self.check.is_some() {
                if !self.run_check(dice, events) {
                    return;
                }
                continue;
            }
            let Some(task) = self.round_tasks.first().cloned() else {
                return;
            };
            match task {
                RoundTask::Check(c) => {
                    self.round_tasks.remove(0);
                    self.check = Some(c);
                }
                RoundTask::Initiative => {
                    self.round_tasks.remove(0);
                    self.roll_initiative(dice, events);
                }
                RoundTask::Chase {
                    pursuer,
                    quarry,
                    offered,
                } => {
                    let Some(c) = self.chase.clone() else {
                        self.round_tasks.remove(0);
                        continue;
                    };
                    if !self.fighting(c.pursuer) || !self.fighting(c.quarry) {
                        self.round_tasks.remove(0);
                        continue;
                    }
                    match (pursuer, quarry) {
                        (None, _) => self.check = Some(self.chase_check(&c, true)),
                        (Some(_), None) => self.check = Some(self.chase_check(&c, false)),
                        (Some(p), Some(q)) if !offered => {
                            if let Some(RoundTask::Chase { offered, .. }) =
                                self.round_tasks.first_mut()
                            {
                                *offered = true;
                            }
                            // The loser of the contest may re-roll ("Using Edge"; Lucky).
                            let pursuer_lost = p.total < q.total;
                            if p.total != q.total {
                                let mut chk = self.chase_check(&c, pursuer_lost);
                                let (mine, theirs) = if pursuer_lost { (p, q) } else { (q, p) };
                                chk.plus_two = Some(false);
                                chk.against = Some(theirs.total);
                                chk.roll = Some(mine);
                                self.check = Some(chk);
                            }
                        }
                        (Some(p), Some(q)) => {
                            self.round_tasks.remove(0);
                            self.chase_result(map, &c, p, q, events);
                        }
                    }
                }
            }
        }
    }

    /// The chase table applied to the two rolls ("Chase Rules"): the band moves, the
    /// quarry escapes beyond Far, or it is caught at Melee; then the chase is over and the
    /// two fight on where they are (the pursuer "can attempt to capture" it).
    pub(super) fn chase_result(
        &mut self,
        map: &HexMap,
        c: &Chase,
        p: RollRecord,
        q: RollRecord,
        events: &mut Vec<BattleEvent>,
    ) {
        let diff = q.total - p.total;
        let result = chase_table(diff);
        match chase_band(c.band as i32, result) {
            Ok(b) => {
                let band = band_of(b);
                let word = match result {
                    ChaseResult::Gap(0) => "the gap holds".to_string(),
                    ChaseResult::Gap(g) if g > 0 => format!("the gap widens by {g}"),
                    ChaseResult::Gap(g) => format!("the gap closes by {}", -g),
                    _ => String::new(),
                };
                events.push(note(
                    Some(c.quarry),
                    format!("quarry {diff:+} in the chase: {word}; now at {band:?}"),
                ));
                if let Some(ch) = &mut self.chase {
                    ch.band = band;
                }
            }
            Err(ChaseResult::Escaped) => {
                self.state_mut(c.quarry).condition = Condition::Escaped;
                events.push(BattleEvent::StatusChanged {
                    unit: c.quarry,
                    standing: Standing::Escaped,
                    cause: Cow::Owned(format!("escapes the chase (quarry {diff:+})")),
                });
            }
            Err(_) => {
                // Caught: the chase ends at Melee, the quarry beside its pursuer.
                let at = self.state(c.pursuer).pos;
                let taken: Vec<Hex> = self
                    .ids()
                    .filter(|&o| o != c.quarry)
                    .map(|o| self.state(o).pos)
                    .collect();
                let beside = at
                    .ring(self.sizes.melee.max(1))
                    .filter(|h| !taken.contains(h) && map.move_cost(*h).is_some())
                    .min_by_key(|h| (h.unsigned_distance_to(self.state(c.quarry).pos), h.x, h.y))
                    .unwrap_or(at);
                self.state_mut(c.quarry).pos = beside;
                self.chase = None;
                events.push(note(
                    Some(c.quarry),
                    format!(
                        "quarry {diff:+} in the chase: caught at Melee; the chase is over and {} can try to capture it",
                        self.name(c.pursuer)
                    ),
                ));
            }
        }
    }

    pub(super) fn roll_initiative(
        &mut self,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let mut rolls: Vec<InitiativeRoll<usize>> = Vec::new();
        let mut groups: Vec<Vec<UnitId>> = Vec::new();
        for u in self.ids().filter(|&u| self.fighting(u)).collect::<Vec<_>>() {
            let side = usize::from(self.side(u));
            if self.group_initiative.get(side).copied().unwrap_or(false)
                && let Some(g) = groups
                    .iter_mut()
                    .find(|g| usize::from(self.side(g[0])) == side)
            {
                g.push(u);
                continue;
            }
            groups.push(vec![u]);
        }
        let mut records = Vec::new();
        for (gi, g) in groups.iter().enumerate() {
            let rating = g.iter().map(|&u| self.initiative(u)).max().unwrap_or(0);
            let roll = exploding_d6(dice, vec![Modifier::new("Initiative", rating)], None);
            rolls.push(InitiativeRoll {
                total: roll.total,
                rating,
                who: gi,
            });
            records.push(roll);
        }
        let ranked = initiative_order(&rolls);
        for (gi, roll) in records.into_iter().enumerate() {
            let g = &groups[gi];
            let place = ranked.iter().position(|&x| x == gi).unwrap_or(0) + 1;
            let (purpose, result) = if g.len() > 1 {
                (
                    "initiative for the group",
                    format!("{} units act {}", g.len(), ordinal(place)),
                )
            } else {
                ("initiative", format!("acts {}", ordinal(place)))
            };
            events.push(roll_event(g[0], purpose, roll, result));
        }
        self.order = ranked
            .into_iter()
            .flat_map(|gi| groups[gi].clone())
            .collect();
    }

    /// Moves the battle on to the next decision.
    pub fn advance(&mut self, events: &mut Vec<BattleEvent>) -> Step {
        loop {
            if let Some(u) = self.awaiting()
                && (self.prompt.is_some() || self.turn_open())
            {
                return Step::Awaiting(u);
            }
            if !self.round_tasks.is_empty() {
                // The round's start still waits on a question (never without a prompt).
                return Step::RoundOver;
            }
            self.turn = None;
            let Some(&u) = self.order.get(self.next) else {
                return Step::RoundOver;
            };
            self.next += 1;
            if !self.fighting(u) {
                continue;
            }
            let mut t = TurnInfo {
                unit: u,
                moved: self.chase.is_some(),
                acted: false,
                attacks_left: self.attacks_per_action(u),
                blinded: false,
            };
            let st = self.state_mut(u);
            st.ducked = false;
            st.free_parry_used = false;
            if st.blind > 0 {
                st.blind -= 1;
                t.blinded = true;
                events.push(note(
                    Some(u),
                    if st.blind == 0 {
                        "is blinded: no attack this turn (it sees again after it)".into()
                    } else {
                        "is blinded: no attack this turn".into()
                    },
                ));
            }
            if st.forfeit {
                st.forfeit = false;
                t.acted = true;
                events.push(note(
                    Some(u),
                    "forfeits this action for its active defense".into(),
                ));
            }
            events.push(BattleEvent::TurnStarted { unit: u });
            self.turn = Some(t);
        }
    }
}
