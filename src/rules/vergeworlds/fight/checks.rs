//! Whether a Vergeworlds decision may be made (vergeworlds-rough-methods.txt, "Combat
//! Actions", "Attitude", "Tactical Movement", "Grappling"): each action, move, answer
//! and attitude checked against the state of the fight, with the reason when it may not.

use super::*;

impl<F: Borrow<Fight>, U: VwUnits> Board<F, U> {
    // ----- checks ---------------------------------------------------------------------------

    /// Why `u` may not take `action` now, if it may not.
    pub fn check(&self, u: UnitId, action: &Action) -> Result<(), String> {
        if !self.fighting(u) {
            return Err("out of the fight".into());
        }
        if let Some(p) = self.prompt {
            if p.unit() != u {
                return Err("another character is being asked".into());
            }
            return match (p, action) {
                (Prompt::Defend(_), Action::Defense(k)) => self.check_defense(u, *k),
                (Prompt::Defend(_), _) => Err("expected a defense".into()),
                (_, Action::Mana(m)) => self.check_mana(u, p, *m),
                _ => Err("expected an answer about Mana".into()),
            };
        }
        if self.active != Some(u) {
            return Err("not this character's turn".into());
        }
        let s = self.state(u);
        let sheet = self.sheet(u);
        let flying = self.flying(u);
        let must_steer = (s.vector.is_some() || flying) && !s.steered;
        if must_steer
            && !matches!(
                action,
                Action::Steer(_) | Action::Fly(_) | Action::Attitude(_)
            )
        {
            return Err(if flying {
                "in the air the flier flies its turn first".into()
            } else {
                "at high speed the vector must be steered first".into()
            });
        }
        if let Action::Attack(Attack { target, .. }) | Action::Grapple { target, .. } = action
            && (target.0 as usize) >= self.count()
        {
            return Err(format!(
                "there is no unit {} (the battle has {})",
                target.0,
                self.count()
            ));
        }
        match action {
            Action::Attitude(_) => {
                if s.attitude_chosen || s.turn_begun() {
                    return Err("the attitude is chosen at the start of the turn".into());
                }
                Ok(())
            }
            Action::Move(to) | Action::Run(to) => {
                let to = hex(*to);
                if s.vector.is_some() {
                    return Err("at high speed the vector moves the character".into());
                }
                if self.held_by(u).is_some() {
                    return Err("held: escape first".into());
                }
                if s.prone {
                    return Err("prone: get up first".into());
                }
                let map = self.map.as_ref().ok_or("no map")?;
                if !map.contains(to) {
                    return Err("off the map".into());
                }
                let path = self.path(u, to).ok_or("no way there")?;
                let steps = path.len().saturating_sub(1) as u32;
                let run = matches!(action, Action::Run(_));
                if s.attitude.holds_ground() && self.moves_away(u, to) {
                    return Err(format!(
                        "a {} attitude cannot move away from the foe",
                        s.attitude.word()
                    ));
                }
                if run {
                    if s.ran {
                        return Err("one Run action a turn".into());
                    }
                    let limit = (sheet.maneuver / 2).max(sheet.base_move);
                    if steps > limit {
                        return Err(format!("a run reaches {limit} m from a stop"));
                    }
                } else if s.moved + steps > sheet.base_move {
                    return Err(format!(
                        "{} m left of Base Move {}: run farther",
                        sheet.base_move.saturating_sub(s.moved),
                        sheet.base_move
                    ));
                }
                Ok(())
            }
            Action::Fly(plan) => {
                let spec = sheet.flight.as_ref().ok_or("cannot fly")?;
                if !flying && s.prone {
                    return Err("prone: get up first".into());
                }
                if s.steered {
                    return Err("one flight a turn".into());
                }
                if plan.thrust > spec.power {
                    return Err(format!("thrust up to the flying Maneuver {}", spec.power));
                }
                if f64::from(plan.flaps) > spec.lift_aid {
                    return Err(format!("flaps up to the Lift Aid {}", spec.lift_aid));
                }
                let v = s.vector.unwrap_or_default();
                let turn = Steer {
                    accel: 0,
                    turns: plan.turns,
                    drift: plan.drift,
                };
                let c = vector::cost(&v, &turn);
                if c > sheet.maneuver {
                    return Err(format!(
                        "turning needs {c} of the Maneuver {}",
                        sheet.maneuver
                    ));
                }
                if !flying && spec.power == 0 && !self.floater(u) {
                    return Err("a glider takes off by running and jumping or dropping".into());
                }
                Ok(())
            }
            Action::Steer(plan) => {
                if flying {
                    return Err("in the air: fly".into());
                }
                let v = s.vector.ok_or("no movement vector: walk or run")?;
                if s.steered {
                    return Err("the vector is steered once a turn".into());
                }
                vector::check(&v, plan, sheet.maneuver, sheet.top_speed)
            }
            Action::Attack(a) => self.check_attack(u, a),
            Action::AreaFire { weapon, at, shots } => {
                let w = sheet.weapons.get(*weapon).ok_or("no such weapon")?;
                if w.melee() {
                    return Err("area fire needs a ranged or thrown weapon".into());
                }
                if !s.drawn.get(*weapon).copied().unwrap_or(true) {
                    return Err("draw it first".into());
                }
                let map = self.map.as_ref().ok_or("no map")?;
                if !map.contains(hex(*at)) {
                    return Err("off the map".into());
                }
                self.check_shots(u, *weapon, w, *shots)?;
                if let Some(max) = w.max_range
                    && s.pos.unsigned_distance_to(hex(*at)) as f64 > max
                {
                    return Err(format!("beyond the maximum range {max} m"));
                }
                Ok(())
            }
            Action::Grapple { target, mode } => {
                if !self.fighting(*target) || self.side(*target) == self.side(u) {
                    return Err("not a foe".into());
                }
                if self.distance(u, *target) > 1.5 {
                    return Err("not within reach".into());
                }
                if *mode == GrappleMode::Escape && self.held_by(u) != Some(*target) {
                    return Err("not held by that foe".into());
                }
                let them = self.entity(*target);
                let holds = s.control.iter().any(|(x, c)| *x == them && *c > 0.0);
                match mode {
                    GrappleMode::Throw if s.defended_against != Some(them) => {
                        Err("a throw follows a successful defense against that foe".into())
                    }
                    GrappleMode::Strangle | GrappleMode::Choke if !holds => {
                        Err("grab the foe first".into())
                    }
                    GrappleMode::Pickup if self.sheet(*target).weight > sheet.carry => {
                        Err(format!(
                            "{:.0} kg is more than the {:.0} kg this character can carry",
                            self.sheet(*target).weight,
                            sheet.carry
                        ))
                    }
                    GrappleMode::Pickup
                        if self.state(*target).lifted_by == Some(self.entity(u)) =>
                    {
                        Err("already lifted".into())
                    }
                    _ => Ok(()),
                }
            }
            Action::Concentrate => Ok(()),
            Action::Defend | Action::Evade | Action::Focus | Action::GetUp => {
                if matches!(action, Action::GetUp) && !s.prone {
                    return Err("not prone".into());
                }
                Ok(())
            }
            Action::Wait => {
                if s.vector.is_some() {
                    return Err("no waiting at high speed".into());
                }
                if s.actions > 0 || s.moved > 0 {
                    return Err("waiting is the whole turn".into());
                }
                Ok(())
            }
            Action::Recovery => {
                if s.actions > 0 {
                    return Err("recovery is the whole turn".into());
                }
                if s.breath >= sheet.stamina {
                    return Err("Breath is full".into());
                }
                Ok(())
            }
            Action::Reload(w) => {
                let weapon = sheet.weapons.get(*w).ok_or("no such weapon")?;
                let cap = weapon.shots.ok_or("takes no ammunition")?;
                if s.loaded.get(*w).copied().flatten().unwrap_or(0) >= cap {
                    return Err("fully loaded".into());
                }
                if s.spare.get(*w).copied().unwrap_or(0) == 0 {
                    return Err("no spare ammunition".into());
                }
                Ok(())
            }
            Action::Draw(w) => {
                if sheet.weapons.get(*w).is_none() {
                    return Err("no such weapon".into());
                }
                if s.drawn.get(*w).copied().unwrap_or(true) {
                    return Err("already in hand".into());
                }
                Ok(())
            }
            Action::EndTurn => Ok(()),
            Action::Defense(_) | Action::Mana(_) => Err("nothing was asked".into()),
        }
    }

    pub(super) fn moves_away(&self, u: UnitId, to: Hex) -> bool {
        let from = self.state(u).pos;
        self.foes(u).any(|e| {
            let at = self.state(e).pos;
            at.unsigned_distance_to(from) <= 1 && at.unsigned_distance_to(to) > 1
        })
    }

    pub(super) fn check_shots(
        &self,
        u: UnitId,
        wi: usize,
        w: &Weapon,
        shots: u32,
    ) -> Result<(), String> {
        let s = self.state(u);
        if shots == 0 || shots > w.rof {
            return Err(format!("1 to {} shots an action", w.rof));
        }
        if w.full_auto && s.fired.get(wi).copied().unwrap_or(0) + shots > 3 * w.rof {
            return Err(format!("at most {} shots a round", 3 * w.rof));
        }
        if let Some(Some(left)) = s.loaded.get(wi)
            && *left < shots
        {
            return Err(format!("{left} rounds loaded: reload"));
        }
        Ok(())
    }

    pub(super) fn check_attack(&self, u: UnitId, a: &Attack) -> Result<(), String> {
        let s = self.state(u);
        let sheet = self.sheet(u);
        if !self.fighting(a.target) || self.side(a.target) == self.side(u) {
            return Err("not a foe".into());
        }
        let w = match a.weapon {
            Some(i) => {
                let w = sheet.weapons.get(i).ok_or("no such weapon")?;
                if !s.drawn.get(i).copied().unwrap_or(true) {
                    return Err(format!("{} is not in hand: draw it", w.name));
                }
                Cow::Borrowed(w)
            }
            None => Cow::Owned(unarmed(sheet)),
        };
        let d = self.distance(u, a.target);
        if w.melee() {
            if d > w.reach.max(1.0) + 0.5 {
                return Err(format!("out of reach ({d:.0} m)"));
            }
            if a.careful {
                return Err("Careful Aim is for ranged attacks".into());
            }
            if a.shots != 1 {
                return Err("one blow an action".into());
            }
        } else {
            if w.frag.is_some() {
                return Err("a grenade is thrown at a spot: area fire".into());
            }
            if !self.sees(u, a.target) {
                return Err("no line of sight".into());
            }
            if let Some(max) = w.max_range
                && d > max
            {
                return Err(format!("beyond the maximum range {max} m"));
            }
            if let Some(i) = a.weapon {
                self.check_shots(u, i, &w, a.shots)?;
            }
            if a.careful && (a.shots != 1 || s.moved > 1 || s.ran) {
                return Err("Careful Aim: one shot, no more than a step moved".into());
            }
        }
        if a.effort > 2 {
            return Err("extra effort is +1 or +2 Brawn".into());
        }
        Ok(())
    }

    pub(super) fn check_defense(&self, u: UnitId, k: DefenseKind) -> Result<(), String> {
        let Some(p) = &self.pending else {
            return Err("no attack to defend against".into());
        };
        self.defense_allowed(u, p.attacker, p.attack.weapon, k)
    }

    /// Whether `u` may defend with `k` against an attack by `attacker` with its weapon
    /// `weapon` ("Defend", "Moving while Defending"): a retreat only against melee, with a
    /// free hex to step back into, at low speed and in an attitude that may give ground;
    /// diving prone only against shots, once; ducking only with cover here or a step away.
    /// The same check for a player's answer and the AI's choice.
    pub fn defense_allowed(
        &self,
        u: UnitId,
        attacker: UnitId,
        weapon: Option<usize>,
        k: DefenseKind,
    ) -> Result<(), String> {
        let melee = self.weapon_ref(attacker, weapon).melee();
        let s = self.state(u);
        match k {
            DefenseKind::Retreat if !melee => Err("retreating helps against melee attacks".into()),
            DefenseKind::Retreat if s.attitude.holds_ground() => {
                Err("this attitude cannot move away".into())
            }
            DefenseKind::Retreat | DefenseKind::DuckCover if s.vector.is_some() => {
                Err("at high speed there is no step to take".into())
            }
            DefenseKind::Retreat if self.retreat_hex(u, attacker).is_none() => {
                Err("no free hex to step back into".into())
            }
            DefenseKind::DiveProne if melee || s.prone => {
                Err("diving prone helps against shots, once".into())
            }
            DefenseKind::DuckCover if self.duck_hex(u).is_none() => {
                Err("no cover here or a step away to duck behind".into())
            }
            _ => Ok(()),
        }
    }

    pub(super) fn check_mana(&self, u: UnitId, p: Prompt, m: ManaChoice) -> Result<(), String> {
        let s = self.state(u);
        if m != ManaChoice::Keep && s.mana == 0 {
            return Err("no Mana left".into());
        }
        match (p, m) {
            (_, ManaChoice::Keep) => Ok(()),
            (Prompt::ManaLimit(_), ManaChoice::FixLimit) => Ok(()),
            (Prompt::ManaLimit(_), _) => Err("Mana here makes the Penetration Limit roll 2".into()),
            (_, ManaChoice::FixLimit) => Err("that is for the Penetration Limit roll".into()),
            (_, ManaChoice::Adjust(n)) if !(-4..=4).contains(&n) || n == 0 => {
                Err("up to 2 a die: -4 to +4".into())
            }
            _ => Ok(()),
        }
    }

    /// Words for a decision.
    pub fn describe(&self, u: UnitId, action: &Action) -> String {
        match action {
            Action::Attitude(a) => format!("{} attitude", a.word()),
            Action::Move(to) => format!("Walk to ({}, {})", to.0, to.1),
            Action::Run(to) => format!("Run to ({}, {})", to.0, to.1),
            Action::Steer(p) => format!(
                "Steer: speed {:+}, turn {:+}, drift {:+}",
                p.accel, p.turns, p.drift
            ),
            Action::Fly(p) if self.floater(u) => format!("Float{}", flight_tail(p)),
            Action::Fly(p) => format!(
                "Fly: {}{}{}",
                if p.level {
                    "level".to_string()
                } else if p.columns < 0 {
                    format!("dive {} columns steeper", -p.columns)
                } else if p.columns > 0 {
                    format!("{} columns shallower", p.columns)
                } else {
                    "best glide".to_string()
                },
                if p.climb { ", climbing" } else { "" },
                flight_tail(p),
            ),
            Action::Attack(a) => {
                let w = self.weapon(u, a.weapon);
                let mut t = format!(
                    "Attack {} with {} at the {}",
                    self.name(a.target),
                    w.name,
                    a.aim.word()
                );
                if a.shots > 1 {
                    t.push_str(&format!(", {} shots", a.shots));
                }
                if a.careful {
                    t.push_str(", Careful Aim");
                }
                if a.effort > 0 {
                    t.push_str(&format!(", extra effort +{}", a.effort));
                }
                t
            }
            Action::AreaFire { weapon, at, shots } => {
                let w = self.weapon(u, Some(*weapon));
                if w.frag.is_some() {
                    format!("Throw {} at ({}, {})", w.name, at.0, at.1)
                } else {
                    format!(
                        "Area fire with {} at ({}, {}), {shots} shots",
                        w.name, at.0, at.1
                    )
                }
            }
            Action::Grapple { target, mode } => {
                format!("{mode:?} {}", self.name(*target))
            }
            Action::Defend => "Defend".into(),
            Action::Evade => "Evade".into(),
            Action::Focus => "Focus".into(),
            Action::Wait => "Wait".into(),
            Action::Recovery => "Recovery".into(),
            Action::Concentrate => "Concentrate".into(),
            Action::GetUp => "Get up".into(),
            Action::Reload(w) => format!("Reload {}", self.weapon(u, Some(*w)).name),
            Action::Draw(w) => format!("Draw {}", self.weapon(u, Some(*w)).name),
            Action::EndTurn => "End turn".into(),
            Action::Defense(k) => format!("Defense: {}", k.word()),
            Action::Mana(m) => format!("Mana: {m:?}"),
        }
    }
}
