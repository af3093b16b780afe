//! Collision and point defense in GURPS Traveller space (gurps-traveller-gm-screen.txt,
//! "SEQUENCE OF ACTION" step 5): mounts kept back fire at the missiles that reached their
//! ship, the missiles left strike, rams and collisions.

use super::*;

impl Space {
    // ---------------------------------------------------------------------------------
    // 5. Collision and point defense.

    pub(super) fn point_defense(
        &mut self,
        ships: &mut impl VesselsMut,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        for id in ships.missile_ids() {
            let Some(m) = ships.missile(id).filter(|m| m.contact).cloned() else {
                continue;
            };
            let (Some(t), Some(owner)) = (ships.unit_of(m.target), ships.unit_of(m.owner)) else {
                continue;
            };
            let mut down = false;
            let mount = if ships.fighting(t) {
                self.first_free_mounts(ships, t).next()
            } else {
                None
            };
            if let Some(mount) = mount {
                let w = ships.sheet(t).mounts[mount].weapon;
                ships.ship_mut(t).mounts_used[mount] = true;
                let mods = RollModifiers::of(self.quiet, |mods| {
                    self.gather_gunner(ships, t, &w, mods);
                    mods.push(Modifier::new("missile size", 0));
                    mods.push(Modifier::new(
                        "range 0 (+1 firing hex)",
                        gunnery_range_modifier(0),
                    ));
                    mods.push(Modifier::new("point defense", 10));
                });
                let roll = success_roll(dice, mods);
                down = roll.succeeded();
                self.log_only(events, || {
                    roll_event(
                        t,
                        format!("point defense ({} #{mount})", w.name),
                        roll,
                        if down {
                            format!("shoots down missile {}", m.id)
                        } else {
                            format!("misses missile {}", m.id)
                        },
                    )
                });
            }
            if !down && ships.ship(t).condition != Condition::Destroyed {
                let mut mods = vec![Modifier::new("guidance", self.missile.skill)];
                mods.push(Modifier::new("target size", ships.sheet(t).stats.sm));
                let roll = success_roll(dice, mods);
                let hit = roll.succeeded();
                let roll_critical = roll.critical == Some(Critical::Success);
                events.push(BattleEvent::Attack {
                    attacker: owner,
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
                    let critical = roll_critical;
                    let w = self.missile.as_weapon();
                    let how = HitBy {
                        range: 0,
                        critical,
                        damage_type: "missile",
                    };
                    self.weapon_hit(ships, owner, t, &w, how, dice, events);
                }
            }
            ships.remove_missile(id);
        }
    }

    pub(super) fn resolve_rams(
        &mut self,
        ships: &mut impl VesselsMut,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        fn piloting(ships: &impl Vessels, u: UnitId) -> Vec<Modifier> {
            vec![Modifier::new("Piloting", ships.sheet(u).stats.crew.pilot)]
        }
        for (a, b) in std::mem::take(&mut self.rams) {
            if !(ships.fighting(a) && ships.fighting(b)) {
                continue;
            }
            let ra = success_roll(dice, piloting(ships, a));
            let rb = success_roll(dice, piloting(ships, b));
            let won = quick_contest(&ra, &rb) == std::cmp::Ordering::Greater;
            self.log_only(events, || {
                roll_event(a, "ram (Piloting)".into(), ra, "rams".into())
            });
            self.log_only(events, || {
                roll_event(
                    b,
                    "evade the ram (Piloting)".into(),
                    rb,
                    if won {
                        "is rammed".into()
                    } else {
                        "slips aside".into()
                    },
                )
            });
            if won {
                self.collide(ships, a, b, events);
            }
        }
        for (a, b) in std::mem::take(&mut self.near_misses) {
            if !(ships.fighting(a) && ships.fighting(b)) {
                continue;
            }
            let ra = success_roll(dice, piloting(ships, a));
            let rb = success_roll(dice, piloting(ships, b));
            let hit = !ra.succeeded() && !rb.succeeded();
            let text = |ok: bool| -> String {
                if ok {
                    "steers clear".into()
                } else {
                    "does not steer clear".into()
                }
            };
            let (oa, ob) = (ra.succeeded(), rb.succeeded());
            self.log_only(events, || {
                roll_event(a, "avoid a collision (Piloting)".into(), ra, text(oa))
            });
            self.log_only(events, || {
                roll_event(b, "avoid a collision (Piloting)".into(), rb, text(ob))
            });
            if hit {
                self.collide(ships, a, b, events);
            }
        }
    }

    /// A collision of `a` and `b`: each takes the other's full hit points times their
    /// relative speed in hexes a turn (at least 1), against its own DR.
    pub(super) fn collide(
        &mut self,
        ships: &mut impl VesselsMut,
        a: UnitId,
        b: UnitId,
        events: &mut Vec<BattleEvent>,
    ) {
        let rel = (ships.ship(a).vel - ships.ship(b).vel)
            .ulength()
            .clamp(1, 10_000) as i32;
        for (x, y) in [(a, b), (b, a)] {
            let other = ships.sheet(y).stats.hp;
            let dmg = other.saturating_mul(rel);
            let roll = RollRecord {
                drawn: Default::default(),
                dice: DiceName::Fixed("collision"),
                faces: Vec::new(),
                extra: Vec::new(),
                sense: RollSense::Over,
                modifiers: vec![
                    self.named(other, || format!("{} hit points", ships.name_of(y))),
                    self.named(other.saturating_mul(rel - 1), || {
                        format!("× relative speed {rel}")
                    }),
                ],
                total: dmg,
                target: None,
                target_parts: Vec::new(),
                margin: None,
                success: None,
                critical: None,
            };
            let dr = ships.sheet(x).stats.dr;
            self.take_hit(
                ships,
                Some(y),
                x,
                roll,
                "collision",
                Vec::new(),
                dmg,
                dr,
                self.words(|| format!("DR {dr}")),
                events,
            );
        }
    }
}
