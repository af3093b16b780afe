//! Collision and point defense in GURPS Traveller space (gurps-traveller-gm-screen.txt,
//! "SEQUENCE OF ACTION" step 5): mounts kept back fire at the missiles that reached their
//! ship, the missiles left strike, rams and collisions.

use super::*;

impl Space {
    // ---------------------------------------------------------------------------------
    // 5. Collision and point defense.

    pub(super) fn point_defense(
        &mut self,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let mut i = 0;
        while i < self.missiles.len() {
            if !self.missiles[i].contact {
                i += 1;
                continue;
            }
            let m = self.missiles[i].clone();
            let t = m.target;
            let mut down = false;
            if self.fighting(t)
                && let Some(&mount) = self.free_mounts(t).first()
            {
                let w = self.sheet(t).mounts[mount].weapon;
                self.ship_mut(t).mounts_used[mount] = true;
                let mut mods = self.augmented_gunner(t, &w);
                mods.push(Modifier::new("missile size", 0));
                mods.push(Modifier::new(
                    "range 0 (+1 firing hex)",
                    gunnery_range_modifier(0),
                ));
                mods.push(Modifier::new("point defense", 10));
                let roll = success_roll(dice, mods);
                down = roll.succeeded();
                events.push(roll_event(
                    t,
                    format!("point defense ({} #{mount})", w.name),
                    roll,
                    if down {
                        format!("shoots down missile {}", m.id)
                    } else {
                        format!("misses missile {}", m.id)
                    },
                ));
            }
            if !down && self.ship(t).condition != Condition::Destroyed {
                let mut mods = vec![Modifier::new("guidance", self.missile.skill)];
                mods.push(Modifier::new("target size", self.sheet(t).stats.sm));
                let roll = success_roll(dice, mods);
                let hit = roll.succeeded();
                events.push(BattleEvent::Attack {
                    attacker: m.owner,
                    target: t,
                    weapon: crate::dice::Label::Static("missile"),
                    roll,
                    defenses: Vec::new(),
                    result: if hit {
                        AttackResult::Hit
                    } else {
                        AttackResult::Miss
                    },
                });
                if hit {
                    let raw = DiceExpr::d6(self.missile.dice, 0).roll(dice, 0);
                    let mult = self.missile.multiplier;
                    let steps = vec![Modifier::named(format!("×{mult}"), raw.total * (mult - 1))];
                    let dmg = raw.total * mult;
                    let dr = self.sheet(t).stats.dr;
                    let through = self.take_hit(
                        Some(m.owner),
                        t,
                        raw,
                        "missile",
                        steps,
                        dmg,
                        dr,
                        format!("DR {dr}"),
                        events,
                    );
                    self.major_damage_rolls(t, through, false, dice, events);
                }
            }
            self.missiles.remove(i);
        }
    }

    pub(super) fn resolve_rams(
        &mut self,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let piloting =
            |s: &Space, u: UnitId| vec![Modifier::new("Piloting", s.sheet(u).stats.crew.pilot)];
        for (a, b) in std::mem::take(&mut self.rams) {
            if !(self.fighting(a) && self.fighting(b)) {
                continue;
            }
            let ra = success_roll(dice, piloting(self, a));
            let rb = success_roll(dice, piloting(self, b));
            let won = quick_contest(&ra, &rb) == std::cmp::Ordering::Greater;
            events.push(roll_event(a, "ram (Piloting)".into(), ra, "rams".into()));
            events.push(roll_event(
                b,
                "evade the ram (Piloting)".into(),
                rb,
                if won {
                    "is rammed".into()
                } else {
                    "slips aside".into()
                },
            ));
            if won {
                self.collide(a, b, events);
            }
        }
        for (a, b) in std::mem::take(&mut self.near_misses) {
            if !(self.fighting(a) && self.fighting(b)) {
                continue;
            }
            let ra = success_roll(dice, piloting(self, a));
            let rb = success_roll(dice, piloting(self, b));
            let hit = !ra.succeeded() && !rb.succeeded();
            let text = |ok: bool| -> String {
                if ok {
                    "steers clear".into()
                } else {
                    "does not steer clear".into()
                }
            };
            let (oa, ob) = (ra.succeeded(), rb.succeeded());
            events.push(roll_event(
                a,
                "avoid a collision (Piloting)".into(),
                ra,
                text(oa),
            ));
            events.push(roll_event(
                b,
                "avoid a collision (Piloting)".into(),
                rb,
                text(ob),
            ));
            if hit {
                self.collide(a, b, events);
            }
        }
    }

    /// A collision of `a` and `b`: each takes the other's full hit points times their
    /// relative speed in hexes a turn (at least 1), against its own DR.
    pub(super) fn collide(&mut self, a: UnitId, b: UnitId, events: &mut Vec<BattleEvent>) {
        let rel = (self.ship(a).vel - self.ship(b).vel)
            .ulength()
            .clamp(1, 10_000) as i32;
        for (x, y) in [(a, b), (b, a)] {
            let other = self.sheet(y).stats.hp;
            let dmg = other.saturating_mul(rel);
            let roll = RollRecord {
                dice: DiceName::Fixed("collision"),
                faces: Vec::new(),
                extra: Vec::new(),
                sense: RollSense::Over,
                modifiers: vec![
                    Modifier::named(format!("{} hit points", self.name(y)), other),
                    Modifier::named(
                        format!("× relative speed {rel}"),
                        other.saturating_mul(rel - 1),
                    ),
                ],
                total: dmg,
                target: None,
                margin: None,
                success: None,
                critical: None,
            };
            let dr = self.sheet(x).stats.dr;
            self.take_hit(
                Some(y),
                x,
                roll,
                "collision",
                Vec::new(),
                dmg,
                dr,
                format!("DR {dr}"),
                events,
            );
        }
    }
}
