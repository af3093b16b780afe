//! The decisions open to a ship in the phase awaiting it (gurps-traveller-gm-screen.txt,
//! "SEQUENCE OF ACTION": 2. maneuver, 4. direct fire, 6. launch): the check of one
//! decision, whether a ship may fire at a target, and a list that covers every kind of
//! decision (what the ruleset contract hands the conformance tests).

use super::*;

impl Space {
    /// A list of decisions of `u` that covers every kind open to it now, each passing
    /// [`Space::check`]. Maneuver: coasting, a burn of one point and of its whole thrust
    /// in each of the six directions, and the full burn toward each enemy (also as a ram),
    /// each with active sensors and the coast also passive: a sample of the hexes, not all
    /// of them. Direct fire: holding every mount, each free mount at each enemy (plain and
    /// at each system), and every free mount at one enemy. Launch: none, one missile and
    /// as many as the launchers allow, at each enemy.
    pub fn sample_actions(&self, ships: &impl Vessels, u: UnitId) -> Vec<Action> {
        let mut out: Vec<Action> = Vec::new();
        let mut add = |a: Action| {
            if !out.contains(&a) && self.check(ships, u, &a).is_ok() {
                out.push(a);
            }
        };
        if self.awaiting() != Some(u) {
            return Vec::new();
        }
        let enemies = ships.enemies(u);
        match self.phase {
            Phase::Maneuver => {
                let st = ships.ship(u);
                let ghost = vector::coast(st.pos, st.vel);
                let thrust = self.thrust(ships, u);
                let maneuver = |to: Hex, passive: bool, ram: Option<UnitId>| Action::Maneuver {
                    to: (to.x, to.y),
                    passive,
                    ram,
                };
                add(maneuver(ghost, false, None));
                add(maneuver(ghost, true, None));
                for to in crate::hexmap::sample_reach(ghost, thrust, []) {
                    add(maneuver(to, false, None));
                }
                for &e in &enemies {
                    let to = crate::hexmap::step_toward(ghost, ships.ship(e).pos, thrust);
                    add(maneuver(to, false, None));
                    add(maneuver(to, false, Some(e)));
                }
            }
            Phase::DirectFire => {
                add(Action::Fire { shots: Vec::new() });
                let free = self.free_mounts(ships, u);
                for &e in &enemies {
                    for &mount in &free {
                        for pinpoint in std::iter::once(None).chain(Aim::ALL.map(Some)) {
                            add(Action::Fire {
                                shots: vec![Shot {
                                    mount,
                                    target: e,
                                    pinpoint,
                                }],
                            });
                        }
                    }
                    add(Action::Fire {
                        shots: free
                            .iter()
                            .map(|&mount| Shot {
                                mount,
                                target: e,
                                pinpoint: None,
                            })
                            .collect(),
                    });
                }
            }
            Phase::Launch => {
                let target = enemies.first().copied().unwrap_or(u);
                add(Action::Launch { target, count: 0 });
                let most = ships.ship(u).missiles.min(ships.sheet(u).stats.launchers);
                for &e in &enemies {
                    add(Action::Launch {
                        target: e,
                        count: 1,
                    });
                    add(Action::Launch {
                        target: e,
                        count: most,
                    });
                }
            }
            _ => {}
        }
        out
    }
}

impl Space {
    /// Checks a decision of `u`.
    pub fn check(&self, ships: &impl Vessels, u: UnitId, action: &Action) -> Result<(), String> {
        if self.awaiting() != Some(u) {
            return Err("it is not this ship's decision".into());
        }
        let known = |t: UnitId| -> Result<(), String> {
            if (t.0 as usize) < ships.count() {
                Ok(())
            } else {
                Err(format!(
                    "there is no unit {} (the battle has {})",
                    t.0,
                    ships.count()
                ))
            }
        };
        match (self.phase, action) {
            (Phase::Maneuver, Action::Maneuver { to, ram, .. }) => {
                let to = Hex::new(to.0, to.1);
                let st = ships.ship(u);
                let ghost = vector::coast(st.pos, st.vel);
                let thrust = self.thrust(ships, u);
                // Checked arithmetic: a saved decision may name any hex.
                let far = (i64::from(to.x) - i64::from(ghost.x)).abs()
                    + (i64::from(to.y) - i64::from(ghost.y)).abs();
                if far > 4 * i64::from(thrust) + 4 || to.unsigned_distance_to(ghost) > thrust {
                    return Err(format!(
                        "({}, {}) is beyond its thrust: {} from ({}, {}), where it coasts to",
                        to.x,
                        to.y,
                        points(thrust),
                        ghost.x,
                        ghost.y
                    ));
                }
                if let Some(t) = ram {
                    known(*t)?;
                    if !ships.enemies(u).contains(t) {
                        return Err(format!(
                            "{} is not an enemy in the fight",
                            ships.name_of(*t)
                        ));
                    }
                }
                Ok(())
            }
            (Phase::DirectFire, Action::Fire { shots }) => {
                let free = self.free_mounts(ships, u);
                for (i, s) in shots.iter().enumerate() {
                    known(s.target)?;
                    if shots[..i].iter().any(|o| o.mount == s.mount) {
                        return Err(format!("mount {} fires twice", s.mount));
                    }
                    let Some(m) = ships.sheet(u).mounts.get(s.mount) else {
                        return Err(format!("no mount {}", s.mount));
                    };
                    if !free.contains(&s.mount) {
                        return Err(format!(
                            "the {} (mount {}) cannot fire",
                            m.weapon.name, s.mount
                        ));
                    }
                    if let Some(why) = self.why_not_target(ships, u, s.target, &m.weapon) {
                        return Err(why);
                    }
                }
                Ok(())
            }
            (Phase::Launch, Action::Launch { target, count }) => {
                if *count == 0 {
                    return Ok(());
                }
                known(*target)?;
                let st = ships.ship(u);
                let most = st.missiles.min(ships.sheet(u).stats.launchers);
                if *count > most {
                    return Err(format!("it can launch {most} missiles this turn"));
                }
                if !ships.enemies(u).contains(target) {
                    return Err(format!(
                        "{} is not an enemy in the fight",
                        ships.name_of(*target)
                    ));
                }
                if !ships.detection(u, *target).found {
                    return Err(format!("{} has not been detected", ships.name_of(*target)));
                }
                Ok(())
            }
            (p, a) => Err(format!("{a:?} is not a decision of the {} phase", p.word())),
        }
    }

    /// What keeps `u` from firing `w` at `target`, if anything: not an enemy in the fight,
    /// not detected, or beyond the weapon's range (in 10,000-mile hexes). The one rule of
    /// [`Space::can_target`] and [`Space::why_not_target`].
    fn untargetable(
        &self,
        ships: &impl Vessels,
        u: UnitId,
        target: UnitId,
        w: &SpaceWeapon,
    ) -> Option<Untargetable> {
        if !ships.is_enemy(u, target) {
            return Some(Untargetable::NotAnEnemy);
        }
        if !ships.detection(u, target).found {
            return Some(Untargetable::NotDetected);
        }
        let d = self.std_range(ships.distance(u, target));
        (d > w.max_range).then_some(Untargetable::OutOfRange(d))
    }

    /// True when `u` may fire `w` at `target` ([`Space::why_not_target`] finds nothing),
    /// asked without putting a reason into words.
    pub fn can_target(
        &self,
        ships: &impl Vessels,
        u: UnitId,
        target: UnitId,
        w: &SpaceWeapon,
    ) -> bool {
        self.untargetable(ships, u, target, w).is_none()
    }

    /// Why `u` may not fire `w` at `target`, if it may not.
    pub fn why_not_target(
        &self,
        ships: &impl Vessels,
        u: UnitId,
        target: UnitId,
        w: &SpaceWeapon,
    ) -> Option<String> {
        let name = ships.name_of(target);
        self.untargetable(ships, u, target, w).map(|why| match why {
            Untargetable::NotAnEnemy => format!("{name} is not an enemy in the fight"),
            Untargetable::NotDetected => format!("{name} has not been detected"),
            Untargetable::OutOfRange(d) => format!(
                "{name} is at range {d} (10,000-mile hexes): the {} reaches {}",
                w.name, w.max_range
            ),
        })
    }
}

/// What keeps a ship from firing a weapon at a target ([`Space::why_not_target`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Untargetable {
    /// The target is not an enemy still in the fight.
    NotAnEnemy,
    /// The target has not been detected.
    NotDetected,
    /// The target is this far (in 10,000-mile hexes), beyond the weapon's range.
    OutOfRange(u32),
}
