//! The decisions open to the unit the battle awaits (main-sequence.txt, "Combat Actions",
//! "Attacking", "Using Edge"), as a list that covers every kind of decision, and the
//! chance the window shows for an attack: what the ruleset contract hands the conformance
//! tests.

use super::*;

impl<F: Borrow<Fight>, U: MsUnits> Board<F, U> {
    /// A list of decisions of `u` that covers every kind open to it now, each passing
    /// [`Board::check`]. An answer to a question: every answer. A turn: ending it, a move
    /// and a leap to each hex one and a whole Close band away in the six directions and as
    /// far as a band goes toward each enemy (a sample of the hexes, not all of them),
    /// ducking, boosting shields, reloading each weapon, stabilizing each friend, and each
    /// weapon at each rate of fire at each enemy alone and at the enemies in order, with
    /// and without Edge and Excellent Skill.
    pub fn sample_actions(&self, map: &HexMap, u: UnitId) -> Vec<Action> {
        if self.awaiting() != Some(u) {
            return Vec::new();
        }
        let mut out: Vec<Action> = Vec::new();
        let mut add = |a: Action| {
            if !out.contains(&a) && self.check(map, u, &a).is_ok() {
                out.push(a);
            }
        };
        const DEFENSES: [Defense; 4] = [
            Defense::Parry,
            Defense::Dodge,
            Defense::FreeParry,
            Defense::Nimble,
        ];
        if self.prompt.is_some() {
            add(Action::Defend(None));
            add(Action::Reroll(None));
            for d in DEFENSES {
                add(Action::Defend(Some(d)));
                add(Action::DefendWithEdge(d));
            }
            for r in [Reroll::Edge, Reroll::Lucky, Reroll::LuckyBoat] {
                add(Action::Reroll(Some(r)));
            }
            for yes in [false, true] {
                add(Action::SpendEdge(yes));
                add(Action::PlusTwo(yes));
            }
            return out;
        }
        add(Action::EndTurn);
        add(Action::BoostShields);
        for plus_two in [false, true] {
            add(Action::Duck { plus_two });
        }
        let enemies = self.enemies(u);
        let hexes = crate::hexmap::sample_reach(
            self.state(u).pos,
            self.sizes.move_hexes(),
            enemies.iter().map(|&e| self.state(e).pos),
        );
        for h in hexes {
            add(Action::Move { to: (h.x, h.y) });
            add(Action::Leap {
                to: (h.x, h.y),
                plus_two: false,
            });
        }
        for (weapon, w) in self.sheet(u).weapons().iter().enumerate() {
            add(Action::Reload { weapon });
            let rates = if w.rates.is_empty() {
                vec![RateOfFire::Single]
            } else {
                w.rates.clone()
            };
            for rof in rates {
                let mut groups: Vec<Vec<UnitId>> = enemies.iter().map(|&e| vec![e]).collect();
                groups.push(enemies.iter().copied().take(rof.max_targets()).collect());
                for targets in groups {
                    for (plus_two, excellent) in [(false, false), (true, false), (false, true)] {
                        add(Action::Attack {
                            weapon,
                            rof,
                            targets: targets.clone(),
                            plus_two,
                            excellent,
                        });
                    }
                }
            }
        }
        for patient in self.ids().filter(|&p| p != u && !self.foes(u, p)) {
            add(Action::Stabilize {
                patient,
                plus_two: false,
            });
        }
        out
    }

    /// The chance the attack roll of `action` succeeds against its first target, as the
    /// action panel shows it ([`Board::shot_odds`] and
    /// [`hit_chance`](crate::rules::main_sequence::ai::hit_chance), Edge's +2 counted):
    /// `None` unless `action` is a legal attack whose success the dice alone decide, that
    /// is, no target has an active defense to choose and the attacker has no re-roll.
    pub fn attack_odds(&self, map: &HexMap, u: UnitId, action: &Action) -> Option<f64> {
        let Action::Attack {
            weapon,
            targets,
            plus_two,
            ..
        } = action
        else {
            return None;
        };
        self.check(map, u, action).ok()?;
        let w = self.sheet(u).weapons().get(*weapon)?;
        let odds = self.shot_odds(map, u, w, targets);
        let &(_, bonus, defense) = odds.first()?;
        let choices = !self.rerolls(u, self.gunner(u)).is_empty()
            || odds
                .iter()
                .any(|&(t, ..)| !self.defenses_open_against(u, *weapon, t).is_empty());
        (!choices).then(|| {
            crate::rules::main_sequence::ai::hit_chance(
                bonus + if *plus_two { 2 } else { 0 },
                defense,
            )
        })
    }
}
