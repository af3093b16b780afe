//! Whether a Main Sequence decision may be made (main-sequence.txt, "Combat Actions",
//! "Movement", "Attacking", "Edge"): moves and leaps, targets, actions and answers
//! checked against the state of the fight, with the reason when they may not.

use super::*;

impl<F: Borrow<Fight>, U: MsUnits> Board<F, U> {
    // ---------------------------------------------------------------------------------
    // Checking decisions.

    /// The hexes `u` may move to this turn, with the path to each (one Close band,
    /// around blocked hexes and other units).
    pub fn move_path(&self, map: &HexMap, u: UnitId, to: Hex) -> Option<Vec<Hex>> {
        self.path_within(map, u, to, false)
    }

    /// The path of a leap or roll to `to`: within one Close band, difficult hexes counting
    /// as open ("Combat Actions", Movement). `None` when the way is blocked or too long.
    pub fn leap_path(&self, map: &HexMap, u: UnitId, to: Hex) -> Option<Vec<Hex>> {
        self.path_within(map, u, to, true)
    }

    /// The hexes that block `u`'s way: those of the other units still fighting. The fallen
    /// (out of the fight but not gone) may be passed over and stood on, as the window shows
    /// a standing unit over a fallen one. The text has no map; this is the project's reading
    /// (docs/rules-decisions.md): bodies on the floor do not wall a corridor off.
    pub fn blockers(&self, u: UnitId) -> Vec<Hex> {
        self.ids()
            .filter(|&o| o != u && self.fighting(o))
            .map(|o| self.state(o).pos)
            .collect()
    }

    pub(super) fn path_within(
        &self,
        map: &HexMap,
        u: UnitId,
        to: Hex,
        leap: bool,
    ) -> Option<Vec<Hex>> {
        let from = self.state(u).pos;
        if from.unsigned_distance_to(to) > self.sizes.move_hexes() {
            return None;
        }
        let taken = self.blockers(u);
        let cost = |h: Hex| {
            if taken.contains(&h) {
                None
            } else if leap {
                map.move_cost(h).map(|_| 1)
            } else {
                map.move_cost(h)
            }
        };
        let path = map.path(from, to, cost)?;
        let total: u32 = path.iter().skip(1).map(|&h| cost(h)).sum::<Option<u32>>()?;
        (total <= self.sizes.move_hexes()).then_some(path)
    }

    /// Why `u` may not attack `target` with `w`, if it may not.
    pub fn why_not_target(
        &self,
        map: &HexMap,
        u: UnitId,
        w: &Weapon,
        target: UnitId,
    ) -> Option<String> {
        if !self.fighting(target) {
            return Some(format!("{} is out of the fight", self.name(target)));
        }
        if !self.foes(u, target) {
            return Some(format!("{} is a friend", self.name(target)));
        }
        if self.sheet(u).is_ship() != self.sheet(target).is_ship() {
            return Some(format!("{} is not at this scale", self.name(target)));
        }
        if self.sheet(target).is_ship() && !self.detected(u, target) {
            return Some(format!("{} has not been detected", self.name(target)));
        }
        let band = self.band(u, target);
        if band > w.range {
            return Some(format!(
                "{} is at {band:?}: the {} reaches {:?}",
                self.name(target),
                w.name,
                w.range
            ));
        }
        if self.chase.is_none()
            && !self.sheet(u).is_ship()
            && !map.line_of_sight(self.state(u).pos, self.state(target).pos)
        {
            return Some(format!("no line of sight to {}", self.name(target)));
        }
        None
    }

    /// `Ok` when `u` is one of the battle's units (a saved decision may name any number).
    pub(super) fn known(&self, u: UnitId) -> Result<(), String> {
        if (u.0 as usize) < self.count() {
            Ok(())
        } else {
            Err(format!(
                "there is no unit {} (the battle has {})",
                u.0,
                self.count()
            ))
        }
    }

    /// Checks a decision of `u`.
    pub fn check(&self, map: &HexMap, u: UnitId, action: &Action) -> Result<(), String> {
        if self.awaiting() != Some(u) {
            return Err("it is not this unit's decision".into());
        }
        let reroll_with = |open: Vec<Reroll>, r: &Option<Reroll>| match r {
            None => Ok(()),
            Some(r) if open.contains(r) => Ok(()),
            Some(r) => Err(format!("no {r:?} left to re-roll with")),
        };
        match (self.prompt, action) {
            (Some(Prompt::Defend(i)), Action::Defend(d)) => match d {
                None => Ok(()),
                Some(d) if self.defenses_open(i).contains(d) => Ok(()),
                Some(d) => Err(format!("{d:?} is not open to {}", self.name(u))),
            },
            (Some(Prompt::Defend(i)), Action::DefendWithEdge(d)) => {
                if !matches!(d, Defense::Parry | Defense::Dodge | Defense::FreeParry) {
                    Err(format!("{d:?} is not a roll: nothing to add +2 to"))
                } else if !self.defenses_open(i).contains(d) {
                    Err(format!("{d:?} is not open to {}", self.name(u)))
                } else if self.state(u).edge <= 0 {
                    Err("no Edge left for +2".into())
                } else {
                    Ok(())
                }
            }
            (Some(Prompt::Reroll), Action::Reroll(r)) => {
                reroll_with(self.rerolls(u, self.gunner(u)), r)
            }
            (Some(Prompt::RerollDefense(_)), Action::Reroll(r)) => {
                reroll_with(self.rerolls(u, None), r)
            }
            (Some(Prompt::RerollCheck), Action::Reroll(r)) => reroll_with(
                self.check
                    .as_ref()
                    .map_or_else(Vec::new, |c| self.check_rerolls(c)),
                r,
            ),
            (Some(Prompt::Boost), Action::PlusTwo(plus)) => {
                let crewman = self.check.as_ref().and_then(|c| c.crewman);
                if *plus && self.roller_edge(u, crewman) <= 0 {
                    Err("no Edge left for +2".into())
                } else {
                    Ok(())
                }
            }
            (Some(Prompt::Kill(_)), Action::SpendEdge(spend)) => {
                let edge = match self.sheet(u) {
                    MsSheet::Character(_) => self.state(u).edge,
                    MsSheet::Ship(_) => self.crew_edge(u),
                };
                if *spend && edge <= 0 {
                    Err("no Edge left".into())
                } else {
                    Ok(())
                }
            }
            (Some(p), _) => Err(format!("the battle asks {}: {p:?}", self.name(u))),
            (None, a) => self.check_turn(map, u, a),
        }
    }

    pub(super) fn check_turn(
        &self,
        map: &HexMap,
        u: UnitId,
        action: &Action,
    ) -> Result<(), String> {
        let Some(t) = self.turn else {
            return Err("no turn is in progress".into());
        };
        let st = self.state(u);
        match action {
            Action::EndTurn => Ok(()),
            Action::Move { to } => {
                if t.moved {
                    return Err(if self.chase.is_some() {
                        "in a chase the chase roll is the move".into()
                    } else {
                        "it has already moved this turn".into()
                    });
                }
                if self.state(u).failed.contains(&System::Engines) {
                    return Err("the engines are out".into());
                }
                let to = on_map(map, *to)?;
                if to == st.pos {
                    return Err("it is already there".into());
                }
                self.move_path(map, u, to).map(|_| ()).ok_or_else(|| {
                    format!(
                        "({}, {}) is not reachable within one Close band ({} hexes)",
                        to.x,
                        to.y,
                        self.sizes.move_hexes()
                    )
                })
            }
            Action::Duck { plus_two } | Action::Leap { plus_two, .. } => {
                if *plus_two && st.edge <= 0 {
                    return Err("no Edge left for +2".into());
                }
                if t.moved {
                    return Err(if self.chase.is_some() {
                        "in a chase the chase roll is the move".into()
                    } else {
                        "it has already moved this turn".into()
                    });
                }
                if self.sheet(u).is_ship() {
                    return Err("ships neither duck nor leap".into());
                }
                let Action::Leap { to, .. } = action else {
                    return Ok(());
                };
                let to = on_map(map, *to)?;
                if to == st.pos {
                    return Err("it is already there".into());
                }
                match self.leap_path(map, u, to) {
                    None => Err(format!(
                        "({}, {}) is not within one Close band ({} hexes) even leaping",
                        to.x,
                        to.y,
                        self.sizes.move_hexes()
                    )),
                    Some(p) if !p.iter().skip(1).any(|&h| map.move_cost(h) == Some(2)) => {
                        Err("no difficult ground on the way: a plain move gets there".into())
                    }
                    Some(_) => Ok(()),
                }
            }
            Action::BoostShields => {
                if t.acted || t.attacks_left < self.attacks_per_action(u) {
                    return Err("it has already used its action this turn".into());
                }
                let MsSheet::Ship(s) = self.sheet(u) else {
                    return Err("only ships have shields".into());
                };
                if s.shields == 0 {
                    return Err("the ship has no Shields".into());
                }
                if st.shields_boosted {
                    return Err("the shields were boosted once this scene already".into());
                }
                if st.shields >= crate::rules::main_sequence::ships::boosted_shields(s.shields) {
                    return Err("the shields are at 75% or more".into());
                }
                Ok(())
            }
            Action::Attack {
                weapon,
                rof,
                targets,
                plus_two,
                excellent,
            } => {
                if t.acted || t.attacks_left == 0 {
                    return Err("it has already used its action this turn".into());
                }
                if self.blinded(u) {
                    return Err("it is blinded".into());
                }
                if st.failed.contains(&System::Weapons) {
                    return Err("the weapons are out".into());
                }
                let Some(w) = self.sheet(u).weapons().get(*weapon) else {
                    return Err(format!("no weapon {weapon}"));
                };
                if self.shooter(u).is_none() {
                    return Err("nobody aboard can fire".into());
                }
                let rates = if w.rates.is_empty() {
                    vec![RateOfFire::Single]
                } else {
                    w.rates.clone()
                };
                if !rates.contains(rof) {
                    return Err(format!("the {} does not fire {rof:?}", w.name));
                }
                let most = if w.explosive { 1 } else { rof.max_targets() };
                if targets.is_empty() || targets.len() > most {
                    return Err(format!("{rof:?} takes 1 to {most} targets"));
                }
                for (i, &tg) in targets.iter().enumerate() {
                    self.known(tg)?;
                    if targets[..i].contains(&tg) {
                        return Err(format!("{} is named twice", self.name(tg)));
                    }
                    if let Some(why) = self.why_not_target(map, u, w, tg) {
                        return Err(why);
                    }
                }
                if !self.cinematic_ammo && !can_fire(st.ammo[*weapon].loaded, *rof, targets.len()) {
                    return Err(format!("the {} is out of ammunition: reload", w.name));
                }
                if *plus_two && self.edge(u) <= 0 {
                    return Err("no Edge left for +2".into());
                }
                if *excellent && !self.excellent_open(u, w) {
                    return Err(format!(
                        "no Excellent Skill ({}) left this scene",
                        Character::weapon_skill(w)
                    ));
                }
                Ok(())
            }
            Action::Reload { weapon } => {
                if t.acted || t.attacks_left < self.attacks_per_action(u) {
                    return Err("it has already used its action this turn".into());
                }
                let (Some(w), Some(a)) =
                    (self.sheet(u).weapons().get(*weapon), st.ammo.get(*weapon))
                else {
                    return Err(format!("no weapon {weapon}"));
                };
                match (self.cinematic_ammo, w.ammo, a.loaded) {
                    (true, ..) | (_, None, _) => Err(format!("the {} needs no reloading", w.name)),
                    (_, Some(full), Some(n)) if n >= full => Err(format!("the {} is full", w.name)),
                    _ if a.spare == 0 => Err(format!("no spare loads for the {}", w.name)),
                    _ => Ok(()),
                }
            }
            Action::Stabilize { patient, plus_two } => {
                if t.acted || t.attacks_left < self.attacks_per_action(u) {
                    return Err("it has already used its action this turn".into());
                }
                self.known(*patient)?;
                if *plus_two && st.edge <= 0 {
                    return Err("no Edge left for +2".into());
                }
                if self.sheet(u).is_ship() || self.sheet(*patient).is_ship() {
                    return Err("ships cannot give first aid".into());
                }
                if self.foes(u, *patient) {
                    return Err(format!("{} is a foe", self.name(*patient)));
                }
                match self.state(*patient).condition {
                    Condition::Dying { attempts, .. } if attempts < 3 => {}
                    Condition::Dying { .. } => {
                        return Err("three attempts have failed".into());
                    }
                    _ => return Err(format!("{} is not dying", self.name(*patient))),
                }
                if self.band(u, *patient) > Band::Melee {
                    return Err(format!("{} is out of reach", self.name(*patient)));
                }
                Ok(())
            }
            a => Err(format!("{a:?} answers a question nobody asked")),
        }
    }

    /// The active defenses open to the target at index `i` of the attack in progress.
    pub fn defenses_open(&self, i: usize) -> Vec<Defense> {
        match &self.attack {
            Some(a) => a.targets.get(i).map_or_else(Vec::new, |&u| {
                self.defenses_open_against(a.attacker, a.weapon, u)
            }),
            None => Vec::new(),
        }
    }

    /// The active defenses `u` would have against an attack of `attacker` with its weapon
    /// `weapon` (main-sequence.txt, "Attacking": parry and dodge; the Nimble and
    /// Dual-Wielding tags).
    pub fn defenses_open_against(
        &self,
        attacker: UnitId,
        weapon: usize,
        u: UnitId,
    ) -> Vec<Defense> {
        let st = self.state(u);
        let Some(w) = self.sheet(attacker).weapons().get(weapon) else {
            return Vec::new();
        };
        let melee = w.range <= Band::Melee;
        let mut v = Vec::new();
        // Nimble Ship is the pilot's dodge ("Ship Tags"): it needs an able pilot.
        let pilot = !self.sheet(u).is_ship() || self.crewman(u, Task::Pilot).is_some();
        if st.nimble > 0 && pilot {
            v.push(Defense::Nimble);
        }
        if let MsSheet::Character(c) = self.sheet(u)
            && st.blind == 0
        {
            if c.has(&Tag::DualWielding) && melee && !st.free_parry_used {
                v.push(Defense::FreeParry);
            }
            if !st.forfeit {
                if crate::rules::main_sequence::combat::may_parry(c.has_melee_weapon(), !melee) {
                    v.push(Defense::Parry);
                }
                v.push(Defense::Dodge);
            }
        }
        v
    }

    /// Describes a decision for the log.
    pub fn describe(&self, u: UnitId, action: &Action) -> String {
        let weapon = |i: usize| {
            self.sheet(u)
                .weapons()
                .get(i)
                .map_or("?".to_string(), |w| w.name.clone())
        };
        match action {
            Action::Move { to } => format!("move to ({}, {})", to.0, to.1),
            Action::Duck { plus_two } => format!("duck{}", edge_note(*plus_two)),
            Action::Leap { to, plus_two } => {
                format!("leap to ({}, {}){}", to.0, to.1, edge_note(*plus_two))
            }
            Action::BoostShields => "boost the shields".into(),
            Action::Attack {
                weapon: w,
                rof,
                targets,
                plus_two,
                excellent,
            } => {
                let names: Vec<&str> = targets.iter().map(|&t| self.name(t)).collect();
                let mut s = format!("attack {} with the {}", names.join(", "), weapon(*w));
                if *rof != RateOfFire::Single {
                    s.push_str(&format!(" ({rof:?})"));
                }
                if *plus_two {
                    s.push_str(", Edge for +2");
                }
                if *excellent {
                    s.push_str(", Excellent Skill on success");
                }
                s
            }
            Action::Reload { weapon: w } => format!("reload the {}", weapon(*w)),
            Action::Stabilize { patient, plus_two } => {
                format!("stabilize {}{}", self.name(*patient), edge_note(*plus_two))
            }
            Action::EndTurn => "end turn".into(),
            Action::Defend(Some(d)) => format!("defends: {d:?}"),
            Action::Defend(None) => "takes it on Defense".into(),
            Action::DefendWithEdge(d) => format!("defends: {d:?}, Edge for +2"),
            Action::PlusTwo(true) => "spends Edge for +2".into(),
            Action::PlusTwo(false) => "rolls without Edge".into(),
            Action::Reroll(Some(r)) => format!("re-rolls ({r:?})"),
            Action::Reroll(None) => "keeps the roll".into(),
            Action::SpendEdge(true) => "spends Edge: the attack misses".into(),
            Action::SpendEdge(false) => "keeps its Edge".into(),
        }
    }
}
