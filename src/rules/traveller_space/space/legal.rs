//! The decisions open to a ship in the phase awaiting it (gurps-traveller-gm-screen.txt,
//! "SEQUENCE OF ACTION": 2. maneuver, 4. direct fire, 6. launch), as a list that covers
//! every kind of decision: what the ruleset contract hands the conformance tests.

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
