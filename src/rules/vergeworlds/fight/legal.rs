//! The decisions open to the character the battle awaits (vergeworlds-rough-methods.txt,
//! "Combat Actions", "Attitude", "Tactical Movement", "Attack", "Grappling", "Mana"), as a
//! list that covers every kind of decision, and the chance the window shows for an
//! attack: what the ruleset contract hands the conformance tests.

use super::*;

impl<F: Borrow<Fight>, U: VwUnits> Board<F, U> {
    /// A list of decisions of `u` that covers every kind open to it now, each passing
    /// [`Board::check`]. An answer to a question: every defense, or every use of Mana
    /// (adjustments of 1 and 4 either way). A turn: every attitude; steering and flying
    /// straight, turning and drifting one way or the other, speeding up and slowing down;
    /// walking and running to the hexes around it, as far as Base Move goes in the six
    /// directions and toward each foe (a sample of the hexes, not all of them); each
    /// weapon (and bare hands) at each foe aimed at the chest and the head, with one shot
    /// and every shot, with Careful Aim and with extra effort; area fire at each foe's hex;
    /// each grapple at each foe; and the actions that take no parameter.
    pub fn sample_actions(&self, u: UnitId) -> Vec<Action> {
        let mut out: Vec<Action> = Vec::new();
        let mut add = |a: Action| {
            if !out.contains(&a) && self.check(u, &a).is_ok() {
                out.push(a);
            }
        };
        if let Some(p) = self.prompt {
            if p.unit() != u {
                return Vec::new();
            }
            for k in [
                DefenseKind::Normal,
                DefenseKind::Retreat,
                DefenseKind::DiveProne,
                DefenseKind::DuckCover,
                DefenseKind::None,
            ] {
                add(Action::Defense(k));
            }
            for m in [
                ManaChoice::Keep,
                ManaChoice::Reroll,
                ManaChoice::FixLimit,
                ManaChoice::Adjust(1),
                ManaChoice::Adjust(4),
                ManaChoice::Adjust(-1),
                ManaChoice::Adjust(-4),
            ] {
                add(Action::Mana(m));
            }
            return out;
        }
        if self.active != Some(u) {
            return Vec::new();
        }
        let sheet = self.shared_sheet(u);
        let here = self.state(u).pos;
        let foes = self.enemies(u);
        for a in Attitude::ALL {
            add(Action::Attitude(a));
        }
        for (accel, turns, drift) in [(0, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
            .into_iter()
            .chain([
                (sheet.maneuver as i32 / 2, 0, 0),
                (-(sheet.maneuver as i32) / 2, 0, 0),
            ])
        {
            add(Action::Steer(Steer {
                accel,
                turns,
                drift,
            }));
            add(Action::Fly(Fly {
                turns,
                drift,
                ..Fly::default()
            }));
        }
        if let Some(spec) = &sheet.flight {
            for fly in [
                Fly {
                    level: true,
                    ..Fly::default()
                },
                Fly {
                    climb: true,
                    ..Fly::default()
                },
                Fly {
                    thrust: spec.power,
                    ..Fly::default()
                },
                Fly {
                    columns: -1,
                    ..Fly::default()
                },
            ] {
                add(Action::Fly(fly));
            }
        }
        let hexes = crate::hexmap::sample_reach(
            here,
            sheet.base_move.max(1),
            foes.iter().map(|&e| self.state(e).pos),
        );
        for h in hexes {
            add(Action::Move((h.x, h.y)));
            add(Action::Run((h.x, h.y)));
        }
        let weapons: Vec<Option<usize>> = std::iter::once(None)
            .chain((0..sheet.weapons.len()).map(Some))
            .collect();
        for &target in &foes {
            for &weapon in &weapons {
                let rof = weapon
                    .and_then(|i| sheet.weapons.get(i))
                    .map_or(1, |w| w.rof);
                let base = Attack {
                    weapon,
                    target,
                    aim: Location::Chest,
                    careful: false,
                    shots: 1,
                    effort: 0,
                };
                for a in [
                    base,
                    Attack {
                        aim: Location::Head,
                        ..base
                    },
                    Attack {
                        shots: rof.max(1),
                        ..base
                    },
                    Attack {
                        careful: true,
                        ..base
                    },
                    Attack { effort: 1, ..base },
                ] {
                    add(Action::Attack(a));
                }
                if let Some(weapon) = weapon {
                    let at = self.state(target).pos;
                    add(Action::AreaFire {
                        weapon,
                        at: (at.x, at.y),
                        shots: 1,
                    });
                }
            }
            for mode in GrappleMode::ALL {
                add(Action::Grapple { target, mode });
            }
        }
        for w in 0..sheet.weapons.len() {
            add(Action::Reload(w));
            add(Action::Draw(w));
        }
        for a in [
            Action::Defend,
            Action::Evade,
            Action::Focus,
            Action::Wait,
            Action::Recovery,
            Action::Concentrate,
            Action::GetUp,
            Action::EndTurn,
        ] {
            add(a);
        }
        out
    }

    /// The chance the first roll of attack `action` succeeds, as the action panel shows it
    /// ([`Board::hit_chance_against`] with the defense the target will choose): `None`
    /// unless `action` is a legal attack whose outcome the dice alone decide from here,
    /// that is, the target is an AI character (whose defense
    /// [`ai::defense`](crate::rules::vergeworlds::ai::defense) chooses now) and the
    /// attacker is not a player with Mana to spend on a miss.
    pub fn attack_odds(&self, u: UnitId, action: &Action) -> Option<f64> {
        let Action::Attack(a) = action else {
            return None;
        };
        self.check(u, action).ok()?;
        if self.is_player(a.target) || (self.is_player(u) && self.state(u).mana > 0) {
            return None;
        }
        let kind = crate::rules::vergeworlds::ai::defense(self, a.target, u, a.weapon);
        Some(self.hit_chance_against(u, a, kind))
    }
}
