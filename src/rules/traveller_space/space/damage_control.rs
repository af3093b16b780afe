//! Damage control in GURPS Traveller space (gurps-traveller-gm-screen.txt, "SEQUENCE OF
//! ACTION" step 7): each ship's engineer fights fires, stops fuel leaks and repairs one
//! knocked-out system.

use super::*;

impl Space {
    // ---------------------------------------------------------------------------------
    // 7. Damage control.

    /// The engineer's Engineer roll for damage control, logged with what success and
    /// failure mean; true on a success.
    pub(super) fn engineer_roll(
        &self,
        ships: &impl Vessels,
        u: UnitId,
        purpose: &str,
        (ok, fail): (&str, &str),
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) -> bool {
        let roll = success_roll(
            dice,
            vec![Modifier::new(
                "Engineer",
                ships.sheet(u).stats.crew.engineer,
            )],
        );
        let success = roll.succeeded();
        let text = if success { ok } else { fail };
        self.log_only(events, || roll_event(u, purpose.into(), roll, text.into()));
        success
    }

    /// A fire aboard: the engineer's Engineer roll puts it out; else it burns through the
    /// turn, 2d every 10 seconds ignoring DR ("VEHICLE CRITICAL HITS" #7), rolled once and
    /// counted for every 10 seconds of the turn (a decision), and a fuel fire explodes on 3d
    /// of 6 or less (half of 13: #16; checked once a turn, a decision), disabling the ship.
    pub(super) fn fight_fire(
        &mut self,
        ships: &mut impl VesselsMut,
        u: UnitId,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let Some(fuel) = ships.ship(u).fire else {
            return;
        };
        let out = self.engineer_roll(
            ships,
            u,
            "fight the fire (Engineer)",
            ("the fire is out", "the fire burns on"),
            dice,
            events,
        );
        if out {
            ships.ship_mut(u).fire = None;
            return;
        }
        let r = DiceExpr::d6(2, 0).roll(dice, 0);
        let tens = (self.turn_seconds() / 10).max(1) as i32;
        let dmg = r.total.saturating_mul(tens);
        let steps = vec![self.named(r.total.saturating_mul(tens - 1), || {
            format!("every 10 s: ×{tens}")
        })];
        self.take_hit(
            ships,
            None,
            u,
            r,
            "fire",
            steps,
            dmg,
            0,
            String::new(),
            events,
        );
        if fuel && ships.fighting(u) {
            let r = DiceExpr::d6(3, 0).roll(dice, 0);
            let boom = r.total <= FUEL_IGNITES / 2;
            self.log_only(events, || {
                roll_event(
                    u,
                    "fuel fire: explosion?".into(),
                    r,
                    if boom {
                        "explodes".into()
                    } else {
                        "does not explode".into()
                    },
                )
            });
            if boom {
                ships.ship_mut(u).condition = Condition::Disabled;
                events.push(BattleEvent::StatusChanged {
                    unit: u,
                    standing: Standing::Disabled,
                    cause: Cow::Borrowed("is disabled by an explosion of its fuel"),
                });
            }
        }
    }

    /// A leaking tank: the engineer's roll stops it; else another 1d% of the capacity a
    /// minute of the turn runs out ("VEHICLE CRITICAL HITS" #16).
    pub(super) fn stop_leak(
        &mut self,
        ships: &mut impl VesselsMut,
        u: UnitId,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let stopped = self.engineer_roll(
            ships,
            u,
            "stop the fuel leak (Engineer)",
            ("the leak is stopped", "the tank leaks on"),
            dice,
            events,
        );
        if stopped {
            ships.ship_mut(u).leaking = false;
            return;
        }
        let minutes = (self.turn_minutes.round().clamp(1.0, 1000.0)) as u32;
        let r = DiceExpr::d6(minutes, 0).roll(dice, 0);
        let capacity = ships.sheet(u).stats.fuel;
        let lost = (u64::from(capacity) * r.total.max(0) as u64 / 100) as u32;
        let st = ships.ship_mut(u);
        st.fuel = st.fuel.saturating_sub(lost);
        self.log_only(events, || {
            roll_event(
                u,
                format!("fuel leak ({minutes}d%)"),
                r,
                format!("{lost} t of fuel lost"),
            )
        });
    }

    pub(super) fn damage_control(
        &mut self,
        ships: &mut impl VesselsMut,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        for u in ships.ids().collect::<Vec<_>>() {
            if ships.fighting(u) {
                self.fight_fire(ships, u, dice, events);
            }
            if ships.fighting(u) && ships.ship(u).leaking {
                self.stop_leak(ships, u, dice, events);
            }
            if !ships.fighting(u) || ships.ship(u).repairs.is_empty() {
                continue;
            }
            let Some(&what) = ships.ship(u).repairs.first() else {
                continue;
            };
            let what_word = repair_word(what);
            let ok = self.engineer_roll(
                ships,
                u,
                "damage control (Engineer)",
                (
                    &format!("repairs {what_word}"),
                    &format!("cannot yet repair {what_word}"),
                ),
                dice,
                events,
            );
            if ok {
                let st = ships.ship_mut(u);
                st.repairs.remove(0);
                match what {
                    Repairable::Computer => st.computers += 1,
                    Repairable::Bridge => st.bridge = true,
                    Repairable::Weapon(i) => {
                        if let Some(m) = st.mounts_out.get_mut(i) {
                            *m = false;
                        }
                    }
                    Repairable::Sensor(k) => st.sensors_out.retain(|s| *s != k),
                    Repairable::ManeuverDrive => {
                        st.drive_halved = st.drive_halved.saturating_sub(1)
                    }
                    Repairable::Power => st.power_loss = false,
                }
            }
        }
    }
}
