//! Direct fire in GURPS Traveller space (gurps-traveller-gm-screen.txt, "GUNNERY MODIFIERS",
//! "SPACE RANGE TABLE", "SPACE WEAPONS TABLE", "MAJOR DAMAGE TABLE", "VEHICLE CRITICAL
//! HITS"): the shots' modifiers, the volley resolved together, hits, critical effects,
//! major damage and knocked-out systems.

use super::*;

impl Space {
    // ---------------------------------------------------------------------------------
    // 4. Direct fire.

    /// The gunnery modifiers of `u`'s mount `mount` at `target` ("GUNNERY MODIFIERS"):
    /// augmented Gunner skill (skill, Acc up to the skill, RoF bonus, targeting program),
    /// target size (or −6 for pinpoint marksmanship), range, active sensor lock.
    pub fn gunnery_modifiers(
        &self,
        ships: &impl Vessels,
        u: UnitId,
        mount: usize,
        target: UnitId,
    ) -> Vec<Modifier> {
        self.shot_modifiers(ships, u, mount, target, false)
    }

    /// The exact chance that `u`'s mount `mount` hits `target` (pinpoint when
    /// `pinpoint`): the success roll direct fire makes against [`Space::shot_modifiers`]
    /// ([`crate::dice::success_chance`]). What the action panel shows.
    pub fn shot_odds(
        &self,
        ships: &impl Vessels,
        u: UnitId,
        mount: usize,
        target: UnitId,
        pinpoint: bool,
    ) -> f64 {
        crate::dice::success_chance(self.shot_total(ships, u, mount, target, pinpoint))
    }

    /// As [`Space::gunnery_modifiers`], with pinpoint marksmanship when `pinpoint`.
    pub fn shot_modifiers(
        &self,
        ships: &impl Vessels,
        u: UnitId,
        mount: usize,
        target: UnitId,
        pinpoint: bool,
    ) -> Vec<Modifier> {
        let mut mods = Vec::new();
        self.gather_shot(ships, (u, mount, target, pinpoint), &mut mods);
        mods
    }

    /// The sum of [`Space::shot_modifiers`], without their labels (the AI weighs every
    /// mount against every foe).
    pub fn shot_total(
        &self,
        ships: &impl Vessels,
        u: UnitId,
        mount: usize,
        target: UnitId,
        pinpoint: bool,
    ) -> i32 {
        Sum::of(|sum| self.gather_shot(ships, (u, mount, target, pinpoint), sum))
    }

    /// [`Space::shot_modifiers`] into `mods` (nothing without such a mount).
    fn gather_shot(
        &self,
        ships: &impl Vessels,
        (u, mount, target, pinpoint): (UnitId, usize, UnitId, bool),
        mods: &mut impl Gather,
    ) {
        let sheet = ships.sheet(u);
        let Some(m) = sheet.mounts.get(mount) else {
            return;
        };
        self.gather_gunner(ships, u, &m.weapon, mods);
        if pinpoint {
            mods.push(Modifier::new("pinpoint marksmanship", -6));
        } else {
            mods.push(Modifier::new("target size", ships.sheet(target).stats.sm));
        }
        let d = self.std_range(ships.distance(u, target));
        mods.push_named(gunnery_range_modifier(d), || {
            format!("range {d} hexes (+1 firing hex)")
        });
        if self.active_sensors(ships, u) && ships.detection(u, target).active {
            mods.push(Modifier::new("active sensor lock", 2));
        }
    }

    /// Augmented Gunner skill with weapon `w`: skill, Acc up to the skill, RoF bonus, and
    /// the targeting program while a computer and the bridge work.
    pub fn augmented_gunner(
        &self,
        ships: &impl Vessels,
        u: UnitId,
        w: &SpaceWeapon,
    ) -> Vec<Modifier> {
        let mut mods = Vec::new();
        self.gather_gunner(ships, u, w, &mut mods);
        mods
    }

    /// The sum of [`Space::augmented_gunner`], without its labels.
    pub fn augmented_gunner_total(&self, ships: &impl Vessels, u: UnitId, w: &SpaceWeapon) -> i32 {
        Sum::of(|sum| self.gather_gunner(ships, u, w, sum))
    }

    /// [`Space::augmented_gunner`] into `mods`.
    pub(super) fn gather_gunner(
        &self,
        ships: &impl Vessels,
        u: UnitId,
        w: &SpaceWeapon,
        mods: &mut impl Gather,
    ) {
        let sheet = ships.sheet(u);
        let gunner = sheet.stats.crew.gunner;
        mods.push(Modifier::new("Gunner", gunner));
        mods.push_named(acc_bonus(w.acc, gunner), || {
            format!("Acc {} (up to skill)", w.acc)
        });
        let rof = rof_bonus(w, self.turn_seconds());
        if rof != 0 {
            mods.push(Modifier::new("RoF", rof));
        }
        let st = ships.ship(u);
        if sheet.stats.targeting != 0 && st.computers > 0 && st.bridge {
            mods.push(Modifier::new("targeting program", sheet.stats.targeting));
        }
    }

    /// Resolves the declared volley. Direct fire is simultaneous once every ship has
    /// declared (this project's reading of "SEQUENCE OF ACTION", step 4): every shot's
    /// modifiers and range are taken from the state at declaration, before any of the
    /// volley's hits, so a ship listed later keeps what an earlier shot knocks out.
    pub(super) fn resolve_fire(
        &mut self,
        ships: &mut impl VesselsMut,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let shots: Vec<_> = std::mem::take(&mut self.declared)
            .into_iter()
            .filter_map(|(u, s)| {
                let w = ships.sheet(u).mounts.get(s.mount)?.weapon;
                let pinpoint = s.pinpoint.is_some();
                let mods = RollModifiers::of(self.quiet, |mods| {
                    self.gather_shot(ships, (u, s.mount, s.target, pinpoint), mods)
                });
                let d = self.std_range(ships.distance(u, s.target));
                Some((u, s, w, mods, d))
            })
            .collect();
        for (u, s, w, mods, d) in shots {
            if ships.ship(s.target).condition == Condition::Destroyed {
                continue;
            }
            let roll = success_roll(dice, mods);
            let hit = roll.succeeded();
            let critical = roll.critical == Some(Critical::Success);
            events.push(BattleEvent::Attack {
                attacker: u,
                target: s.target,
                weapon: crate::dice::Label::Static(w.name),
                roll,
                defenses: Vec::new(),
                result: if hit {
                    AttackResult::Hit
                } else {
                    AttackResult::Miss
                },
            });
            if hit {
                let how = HitBy {
                    range: d,
                    critical,
                    damage_type: "space weapon",
                };
                let through = self.weapon_hit(ships, u, s.target, &w, how, dice, events);
                if through > 0
                    && let Some(aim) = s.pinpoint
                {
                    self.pinpointed(ships, s.target, aim, events);
                }
            }
        }
    }

    /// A pinpoint hit's effect on the system aimed at (the decision on [`Aim`]).
    pub(super) fn pinpointed(
        &mut self,
        ships: &mut impl VesselsMut,
        target: UnitId,
        aim: Aim,
        events: &mut Vec<BattleEvent>,
    ) {
        let text = match aim {
            Aim::Weapon => {
                self.knock_out(ships, target, MajorDamage::Weapon, events);
                "pinpoint hit: a weapon is disabled"
            }
            Aim::Bridge => {
                self.knock_out(ships, target, MajorDamage::Bridge, events);
                "pinpoint hit: the bridge is knocked out"
            }
            Aim::Drive => {
                let st = ships.ship_mut(target);
                st.drive_halved += 1;
                st.repairs.push(Repairable::ManeuverDrive);
                "pinpoint hit: M-drive acceleration halved"
            }
            Aim::Sensors => {
                let lose = [SensorKind::Aesa, SensorKind::Pesa, SensorKind::Radscan]
                    .into_iter()
                    .find(|k| {
                        ships.sheet(target).scan(*k).is_some()
                            && !ships.ship(target).sensors_out.contains(k)
                    });
                match lose {
                    Some(k) => {
                        let st = ships.ship_mut(target);
                        st.sensors_out.push(k);
                        st.repairs.push(Repairable::Sensor(k));
                        "pinpoint hit: a sensor is disabled"
                    }
                    None => "pinpoint hit: no sensor left to disable",
                }
            }
        };
        self.log_only(events, || note(Some(target), text.into()));
    }

    /// A hit by `w` (a beam, a gun or a missile's strike) from `u` on `target` (a critical
    /// hit rolls on the vehicle critical hit table first, "VEHICLE CRITICAL HITS"); returns
    /// the damage that got through the armor.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn weapon_hit(
        &mut self,
        ships: &mut impl VesselsMut,
        u: UnitId,
        target: UnitId,
        w: &SpaceWeapon,
        how: HitBy,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) -> i32 {
        let HitBy {
            range: d,
            critical,
            damage_type,
        } = how;
        let mut crit = None;
        if critical {
            let r = DiceExpr::d6(3, 0).roll(dice, 0);
            let c = vehicle_critical(r.total);
            self.log_only(events, || {
                roll_event(u, "vehicle critical hit".into(), r, c.word().into())
            });
            crit = Some(c);
        }
        let raw = w.damage_dice().roll(dice, 0);
        let mut steps = Vec::with_capacity(4);
        steps.push(self.named(raw.total * (w.multiplier - 1), || {
            format!("×{}", w.multiplier)
        }));
        let mut dmg = raw.total * w.multiplier;
        if d > w.half_damage {
            steps.push(Modifier::new("beyond 1/2D: half", -(dmg - dmg / 2)));
            dmg /= 2;
        }
        let factor = crit.map_or(1, |c| c.factor());
        if factor > 1 {
            steps.push(self.named(dmg * (factor - 1), || format!("critical ×{factor}")));
            dmg *= factor;
        }
        let dr = ships.sheet(target).stats.dr;
        let mut eff = effective_dr(dr, w);
        if matches!(
            crit,
            Some(VehicleCritical::BypassSensor | VehicleCritical::Bypass)
        ) {
            // "bypasses 90% of DR".
            eff /= 10;
        }
        let label = self.words(|| match w.armor {
            tables::ArmorEffect::Normal => format!("DR {dr}"),
            tables::ArmorEffect::Halved => format!("DR {dr} halved"),
            tables::ArmorEffect::Ignored => format!("DR {dr} ignored (meson)"),
        });
        let through = self.take_hit(
            ships,
            Some(u),
            target,
            raw,
            damage_type,
            steps,
            dmg,
            eff,
            label,
            events,
        );
        if let Some(c) = crit {
            self.critical_effect(ships, target, c, through, dice, events);
        }
        self.major_damage_rolls(ships, target, through, w.radiation, dice, events);
        through
    }

    /// The lasting effect of a vehicle critical hit on `target`, after its damage
    /// (`through`: what got through the armor).
    pub(super) fn critical_effect(
        &mut self,
        ships: &mut impl VesselsMut,
        target: UnitId,
        c: VehicleCritical,
        through: i32,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        match c {
            VehicleCritical::Triple if through > 0 && ships.ship(target).computers > 0 => {
                // "One computer is destroyed": gone for the battle, not for damage control.
                let st = ships.ship_mut(target);
                st.computers -= 1;
                let left = st.computers;
                self.log_only(events, || {
                    note(
                        Some(target),
                        format!("a computer is destroyed ({left} working)"),
                    )
                });
            }
            VehicleCritical::BypassSensor => {
                let lose = [SensorKind::Aesa, SensorKind::Pesa, SensorKind::Radscan]
                    .into_iter()
                    .find(|k| {
                        ships.sheet(target).scan(*k).is_some()
                            && !ships.ship(target).sensors_out.contains(k)
                    });
                if let Some(k) = lose {
                    let st = ships.ship_mut(target);
                    st.sensors_out.push(k);
                    st.repairs.push(Repairable::Sensor(k));
                    self.log_only(events, || {
                        note(Some(target), format!("its {k:?} is disabled"))
                    });
                }
            }
            VehicleCritical::Engine => {
                let st = ships.ship_mut(target);
                st.drive_hits += 1;
                let text = if st.drive_hits >= 2 {
                    "its drive stops working"
                } else {
                    "its drive is badly damaged: acceleration halved"
                };
                self.log_only(events, || note(Some(target), text.into()));
            }
            VehicleCritical::Fire if through > 0 => {
                ships.ship_mut(target).fire = Some(false);
                self.log_only(events, || {
                    note(Some(target), "fire breaks out aboard".into())
                });
            }
            VehicleCritical::Weapon => self.knock_out(ships, target, MajorDamage::Weapon, events),
            VehicleCritical::FuelLeak => {
                let capacity = ships.sheet(target).stats.fuel;
                if capacity == 0 {
                    return;
                }
                let r = DiceExpr::d6(1, 0).roll(dice, 0);
                let lost = (capacity * r.total.max(0) as u32 / 100).max(1);
                let st = ships.ship_mut(target);
                st.fuel = st.fuel.saturating_sub(lost);
                st.leaking = true;
                self.log_only(events, || {
                    roll_event(
                        target,
                        "fuel leak (1d%)".into(),
                        r,
                        format!("{lost} t of fuel lost; the tank leaks"),
                    )
                });
                // Starship fuel burns like rocket fuel: it catches fire on 13 or less.
                let r = DiceExpr::d6(3, 0).roll(dice, 0);
                let ignites = r.total <= FUEL_IGNITES;
                self.log_only(events, || {
                    roll_event(
                        target,
                        "the leaking fuel".into(),
                        r,
                        if ignites {
                            "catches fire".into()
                        } else {
                            "does not catch fire".into()
                        },
                    )
                });
                if ignites {
                    ships.ship_mut(target).fire = Some(true);
                }
            }
            VehicleCritical::DoubleAmmo if through > 0 && ships.ship(target).missiles > 0 => {
                let r = DiceExpr::d6(1, 0).roll(dice, 0);
                let n = (r.total.max(0) as u32).min(ships.ship(target).missiles);
                ships.ship_mut(target).missiles -= n;
                self.log_only(events, || {
                    roll_event(
                        target,
                        "missiles aboard explode (1d)".into(),
                        r,
                        format!("{n} missiles explode in their racks"),
                    )
                });
                let dice_n = self.missile.dice.saturating_mul(n);
                let raw = DiceExpr::d6(dice_n.min(1000), 0).roll(dice, 0);
                let mult = self.missile.multiplier;
                let dmg = raw.total.saturating_mul(mult);
                let steps =
                    vec![self.named(raw.total.saturating_mul(mult - 1), || format!("×{mult}"))];
                self.take_hit(
                    ships,
                    None,
                    target,
                    raw,
                    "exploding missiles",
                    steps,
                    dmg,
                    0,
                    String::new(),
                    events,
                );
            }
            _ => {}
        }
    }

    /// Applies `dmg` less `dr` to the hull of `target`; returns the damage that got
    /// through.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn take_hit(
        &mut self,
        ships: &mut impl VesselsMut,
        attacker: Option<UnitId>,
        target: UnitId,
        roll: RollRecord,
        damage_type: &'static str,
        mut steps: Vec<Modifier>,
        dmg: i32,
        dr: i32,
        dr_label: String,
        events: &mut Vec<BattleEvent>,
    ) -> i32 {
        let through = (dmg - dr).max(0);
        if dr != 0 {
            steps.push(if self.quiet {
                Modifier::new("", -(dmg.min(dr)))
            } else {
                Modifier::named(dr_label, -(dmg.min(dr)))
            });
        }
        let max = ships.sheet(target).stats.hp;
        let before = ships.ship(target).hp;
        let after = before - through;
        ships.ship_mut(target).hp = after;
        events.push(BattleEvent::Damage {
            attacker,
            target,
            roll,
            damage_type: Cow::Borrowed(damage_type),
            steps,
            injury: through,
            hp_before: before,
            hp_after: after,
            hp_max: max,
            location: None,
        });
        self.hull_state(ships, target, events);
        through
    }

    pub(super) fn hull_state(
        &mut self,
        ships: &mut impl VesselsMut,
        u: UnitId,
        events: &mut Vec<BattleEvent>,
    ) {
        let max = ships.sheet(u).stats.hp;
        let st = ships.ship(u);
        let next = if st.hp <= -max {
            Condition::Destroyed
        } else if st.hp <= 0 {
            Condition::Disabled
        } else {
            return;
        };
        if st.condition == next || st.condition == Condition::Destroyed {
            return;
        }
        ships.ship_mut(u).condition = next;
        events.push(BattleEvent::StatusChanged {
            unit: u,
            standing: next.standing(),
            cause: Cow::Borrowed(if next == Condition::Destroyed {
                "is destroyed"
            } else {
                "no longer functions (0 hit points)"
            }),
        });
    }

    pub(super) fn major_damage_rolls(
        &mut self,
        ships: &mut impl VesselsMut,
        u: UnitId,
        through: i32,
        radiation: bool,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let max = ships.sheet(u).stats.hp;
        if through <= 0 || i64::from(through) * 10 < i64::from(max) {
            return;
        }
        let r = DiceExpr::d6(3, 0).roll(dice, 0);
        let effect = major_damage(r.total);
        let effect = match effect {
            MajorDamage::Radiation if radiation => MajorDamage::Computer,
            e => e,
        };
        self.log_only(events, || {
            roll_event(u, "major damage".into(), r, major_word(effect).into())
        });
        self.major_effect(ships, u, effect, dice, events);
    }

    /// [`Space::major_effect`] for the tests.
    #[cfg(test)]
    pub(in crate::rules::traveller_space) fn major_effect_for_test(
        &mut self,
        ships: &mut impl VesselsMut,
        u: UnitId,
        effect: MajorDamage,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        self.major_effect(ships, u, effect, dice, events);
    }

    /// [`Space::major_damage_rolls`] for the tests.
    #[cfg(test)]
    pub(in crate::rules::traveller_space) fn major_damage_for_test(
        &mut self,
        ships: &mut impl VesselsMut,
        u: UnitId,
        through: i32,
        radiation: bool,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        self.major_damage_rolls(ships, u, through, radiation, dice, events);
    }

    pub(super) fn major_effect(
        &mut self,
        ships: &mut impl VesselsMut,
        u: UnitId,
        effect: MajorDamage,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let crew = ships.sheet(u).stats.crew.count;
        let passengers = ships.sheet(u).stats.passengers;
        match effect {
            MajorDamage::FuelLost => {
                let half = ships.sheet(u).stats.fuel / 2;
                let st = ships.ship_mut(u);
                st.fuel = st.fuel.saturating_sub(half);
            }
            MajorDamage::Cargo => {
                let st = ships.ship_mut(u);
                st.cargo -= st.cargo / 4;
            }
            MajorDamage::JumpDrive => ships.ship_mut(u).jump_drive = false,
            MajorDamage::PassengersHurt | MajorDamage::CrewHurt => {
                let crew_hit = effect == MajorDamage::CrewHurt;
                let aboard = if crew_hit { crew } else { passengers };
                let already = if crew_hit {
                    ships.ship(u).crew_hurt
                } else {
                    ships.ship(u).passengers_hurt
                };
                let left = aboard.saturating_sub(already);
                if left == 0 {
                    return;
                }
                let n = tables::casualty_dice(left);
                let r = DiceExpr::d6(n, 0).roll(dice, 0);
                let hurt = (r.total.max(0) as u32).min(left);
                self.log_only(events, || {
                    roll_event(
                        u,
                        if crew_hit {
                            "crew casualties".into()
                        } else {
                            "passenger casualties".into()
                        },
                        r,
                        format!("{hurt} hurt (5d each, no DR: out of action)"),
                    )
                });
                let st = ships.ship_mut(u);
                if crew_hit {
                    st.crew_hurt += hurt;
                    if st.crew_hurt >= crew && st.condition == Condition::Fighting {
                        st.condition = Condition::Disabled;
                        events.push(BattleEvent::StatusChanged {
                            unit: u,
                            standing: Standing::Disabled,
                            cause: Cow::Borrowed("has nobody left to work the ship"),
                        });
                    }
                } else {
                    st.passengers_hurt += hurt;
                }
            }
            MajorDamage::Computer | MajorDamage::Bridge | MajorDamage::Weapon => {
                self.knock_out(ships, u, effect, events);
            }
            MajorDamage::PowerLoss => {
                let st = ships.ship_mut(u);
                if !st.power_loss {
                    st.power_loss = true;
                    st.repairs.push(Repairable::Power);
                }
            }
            MajorDamage::ManeuverDrive => {
                let st = ships.ship_mut(u);
                st.drive_halved += 1;
                st.repairs.push(Repairable::ManeuverDrive);
            }
            MajorDamage::PowerPlant => {
                ships.ship_mut(u).power_plant = false;
                self.log_only(events, || {
                    note(Some(u), "is crippled: no thrust and no fire".into())
                });
            }
            MajorDamage::Radiation => {}
        }
    }

    pub(super) fn knock_out(
        &mut self,
        ships: &mut impl VesselsMut,
        u: UnitId,
        effect: MajorDamage,
        events: &mut Vec<BattleEvent>,
    ) {
        let st = ships.ship_mut(u);
        match effect {
            MajorDamage::Computer if st.computers > 0 => {
                st.computers -= 1;
                st.repairs.push(Repairable::Computer);
                let left = st.computers;
                self.log_only(events, || {
                    note(
                        Some(u),
                        format!("a computer is knocked out ({left} working)"),
                    )
                });
            }
            MajorDamage::Bridge if st.bridge => {
                st.bridge = false;
                st.repairs.push(Repairable::Bridge);
            }
            MajorDamage::Weapon => {
                if let Some(i) = st.mounts_out.iter().position(|o| !o) {
                    st.mounts_out[i] = true;
                    st.repairs.push(Repairable::Weapon(i));
                }
            }
            _ => {}
        }
    }
}

/// How a hit came: the range in hexes (for half damage), whether the attack roll was a
/// critical hit, and the damage's name in the log.
#[derive(Clone, Copy, Debug)]
pub(super) struct HitBy {
    /// Range in hexes.
    pub range: u32,
    /// The attack roll was a critical hit.
    pub critical: bool,
    /// What the log calls the damage ("space weapon", "missile").
    pub damage_type: &'static str,
}

/// A vehicle critical hit ("VEHICLE CRITICAL HITS"; the table is split across the
/// screen's page, 8 to 18 after the critical head blows). Results for things ships here do
/// not have (a rudder, windows, batteries, miscellaneous equipment, communications and
/// ECM) come to their normal damage, or, for batteries, to #6 as the text says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VehicleCritical {
    /// 3: triple damage, and a computer destroyed if any penetrates.
    Triple,
    /// 4: double damage (a water or air vehicle's rudder: not a starship's).
    Double,
    /// 5: the hit bypasses 90% of the armor DR; a sensor is disabled.
    BypassSensor,
    /// 6 (and 14, without batteries): normal damage; the drive badly damaged
    /// (acceleration halved; a second time it stops).
    Engine,
    /// 7: normal damage; if any penetrates, fire breaks out.
    Fire,
    /// 8: normal damage; a weapon disabled.
    Weapon,
    /// 9-11: a window hit (no windows: normal damage).
    Window,
    /// 12: normal damage; an item of miscellaneous equipment (none here) disabled.
    Equipment,
    /// 13: the hit bypasses 90% of DR.
    Bypass,
    /// 15: normal damage; communications or ECM (not carried here) disabled.
    Comms,
    /// 16: double damage; the fuel tank leaks, and the fuel may catch fire.
    FuelLeak,
    /// 17: triple damage.
    TripleOnly,
    /// 18: double damage; explosive ammunition (its missiles) may explode.
    DoubleAmmo,
}

impl VehicleCritical {
    fn word(self) -> &'static str {
        match self {
            VehicleCritical::Triple => "triple damage; a computer destroyed if it penetrates",
            VehicleCritical::Double => "double damage",
            VehicleCritical::BypassSensor => "bypasses 90% of the armor; a sensor is disabled",
            VehicleCritical::Engine => "normal damage; the drive is badly damaged",
            VehicleCritical::Fire => "normal damage; fire if it penetrates",
            VehicleCritical::Weapon => "normal damage; a weapon is disabled",
            VehicleCritical::Window => "a window hit: no windows, normal damage",
            VehicleCritical::Equipment => "normal damage (miscellaneous equipment)",
            VehicleCritical::Bypass => "bypasses 90% of the armor",
            VehicleCritical::Comms => "normal damage (communications and ECM)",
            VehicleCritical::FuelLeak => "double damage; the fuel tank leaks",
            VehicleCritical::TripleOnly => "triple damage",
            VehicleCritical::DoubleAmmo => "double damage; explosive ammunition may go off",
        }
    }

    /// What it multiplies the damage by.
    pub fn factor(self) -> i32 {
        match self {
            VehicleCritical::Triple | VehicleCritical::TripleOnly => 3,
            VehicleCritical::Double | VehicleCritical::FuelLeak | VehicleCritical::DoubleAmmo => 2,
            _ => 1,
        }
    }
}

/// The vehicle critical hit table by its 3d6 roll.
pub fn vehicle_critical(roll: i32) -> VehicleCritical {
    use VehicleCritical::*;
    match roll {
        ..=3 => Triple,
        4 => Double,
        5 => BypassSensor,
        6 | 14 => Engine,
        7 => Fire,
        8 => Weapon,
        9..=11 => Window,
        12 => Equipment,
        13 => Bypass,
        15 => Comms,
        16 => FuelLeak,
        17 => TripleOnly,
        _ => DoubleAmmo,
    }
}

/// What the leaking fuel of vehicle critical 16 catches fire on (3d): starship fuel counts
/// as the text's jet or rocket fuel, 13 or less; a fuel fire explodes on half that, 6.
pub const FUEL_IGNITES: i32 = 13;

pub(super) fn major_word(m: MajorDamage) -> &'static str {
    match m {
        MajorDamage::FuelLost => "fuel tank shattered: half the fuel lost",
        MajorDamage::PassengersHurt => "passengers injured",
        MajorDamage::JumpDrive => "jump drive knocked out",
        MajorDamage::Cargo => "cargo damaged: a quarter lost",
        MajorDamage::Computer => "a computer knocked out",
        MajorDamage::CrewHurt => "crew injured",
        MajorDamage::PowerLoss => "power loss: Gs halved",
        MajorDamage::Weapon => "a weapon disabled",
        MajorDamage::Radiation => "no special effect",
        MajorDamage::ManeuverDrive => "M-drive acceleration halved",
        MajorDamage::Bridge => "bridge knocked out",
        MajorDamage::PowerPlant => "power plant knocked out: crippled",
    }
}

pub(super) fn repair_word(r: Repairable) -> String {
    match r {
        Repairable::Computer => "a computer".into(),
        Repairable::Bridge => "the bridge".into(),
        Repairable::Weapon(i) => format!("mount {i}"),
        Repairable::Sensor(k) => format!("the {k:?}"),
        Repairable::ManeuverDrive => "the M-drive".into(),
        Repairable::Power => "the power".into(),
    }
}

/// Stealth that hides a ship from AESA scans, for the sheet.
pub fn masking_word(m: Masking) -> &'static str {
    match m {
        Masking::None => "none",
        Masking::Basic => "basic",
        Masking::Radical => "radical",
    }
}
