//! The SOCS fire phase of a [`Dogfight`] (gurps-lite-and-socs.txt, SOCS "FIRE PHASE",
//! "TO-HIT MODIFIERS", "AIMING BONUSES", "SUSTAINED FIRE", "FIREPOWER LEVELS", "THE
//! FURBALL"): which guns can fire, a shot's modifiers and odds, the shots resolved
//! together, and the effect of a hit on a craft, a planet and the people aboard.

use super::*;
use crate::dice::{Gather, Sum};

/// The penalty of a shot without aiming bonuses ("AIMING BONUSES": firing without ABs, a
/// snap shot; decision in the module notes of [`crate::rules::socs`]).
const SNAP_SHOT: i32 = -5;

/// The label of [`SNAP_SHOT`] on a roll.
const SNAP_SHOT_LABEL: &str = "snap shot";

/// The "dice" of a SOCS hit's damage event: the firepower level, not a roll (the log
/// shows such a hit as a change of the craft's condition).
pub const FIREPOWER_DICE: crate::dice::DiceName = crate::battle::LEVEL_DAMAGE;

/// The log's damage event of a hit of `level` from `by` on `target`, its condition going
/// `before` to `after` on the craft's scale (2 intact, 1 damaged, 0 out of the fight).
fn damage_event(
    by: UnitId,
    target: UnitId,
    level: Firepower,
    (before, after): (i32, i32),
) -> BattleEvent {
    BattleEvent::Damage {
        attacker: Some(by),
        target,
        roll: RollRecord {
            drawn: Default::default(),
            dice: FIREPOWER_DICE,
            faces: vec![level as u32],
            extra: Vec::new(),
            sense: crate::dice::RollSense::Over,
            modifiers: Vec::new(),
            total: level as i32,
            target: None,
            target_parts: Vec::new(),
            margin: None,
            success: None,
            critical: None,
        },
        damage_type: Cow::Owned(level.to_string()),
        steps: Vec::new(),
        injury: level as i32,
        hp_before: before,
        hp_after: after,
        hp_max: 2,
        location: None,
    }
}

impl Dogfight {
    /// Guns of `me` that can fire at `target` now.
    pub fn guns_at(&self, crafts: &impl Crafts, me: UnitId, target: UnitId) -> Vec<usize> {
        if !crafts.in_fight(target) || crafts.side_of(me) == crafts.side_of(target) {
            return Vec::new();
        }
        if crafts
            .craft_state(me)
            .lost_sight_of
            .contains(&crafts.entity(target))
        {
            return Vec::new();
        }
        let craft = crafts.craft(me);
        let state = crafts.craft_state(me);
        let range = self.range(crafts, me, target);
        (0..craft.stats.weapons.len())
            .filter(|&w| state.gun_works(craft, w) && range.allows(craft.stats.weapons[w].range))
            .collect()
    }

    /// The modifiers of gun `w` of `me` firing at `target`: skill, Accuracy, the aiming
    /// bonuses or the snap-shot penalty (firing without bonuses), the target's size, the
    /// GM's modifier ("FIRE PHASE", "TO-HIT MODIFIERS", "AIMING BONUSES").
    pub fn shot_modifiers(
        &self,
        crafts: &impl Crafts,
        me: UnitId,
        w: usize,
        target: UnitId,
        gm: i32,
    ) -> Vec<Modifier> {
        self.aimed_shot_modifiers(crafts, me, w, target, None, gm)
    }

    /// As [`Dogfight::shot_modifiers`], aimed at the target's hit location `aim` if any:
    /// the location's own size ([`Craft::aimed_to_be_hit`]) instead of the craft's.
    pub fn aimed_shot_modifiers(
        &self,
        crafts: &impl Crafts,
        me: UnitId,
        w: usize,
        target: UnitId,
        aim: Option<u8>,
        gm: i32,
    ) -> Vec<Modifier> {
        let mut mods = Vec::new();
        self.gather_shot_modifiers(crafts, (me, w, target, aim), gm, &mut mods);
        mods
    }

    /// The sum of [`Dogfight::aimed_shot_modifiers`], their labels never written: what the
    /// AI weighs for every gun and foe, many times a turn.
    pub fn shot_total(
        &self,
        crafts: &impl Crafts,
        me: UnitId,
        w: usize,
        target: UnitId,
        aim: Option<u8>,
        gm: i32,
    ) -> i32 {
        Sum::of(|sum| self.gather_shot_modifiers(crafts, (me, w, target, aim), gm, sum))
    }

    /// The one rule behind [`Dogfight::aimed_shot_modifiers`] and
    /// [`Dogfight::shot_total`] ("FIRE PHASE", "TO-HIT MODIFIERS", "AIMING BONUSES"): the
    /// modifiers of `me`'s gun `w` firing at `target` (aimed at location `aim` or not),
    /// into `mods`.
    fn gather_shot_modifiers(
        &self,
        crafts: &impl Crafts,
        (me, w, target, aim): (UnitId, usize, UnitId, Option<u8>),
        gm: i32,
        mods: &mut impl Gather,
    ) {
        let craft = crafts.craft(me);
        let gunner = craft.gunner(w);
        let weapon = &craft.stats.weapons[w];
        mods.push_named(gunner.gunner, || format!("{} Gunner", gunner.name));
        mods.push(Modifier::new("Acc", weapon.acc));
        let (pos, sus) = (
            self.position_ab(crafts, me, target),
            crafts.sustained_ab(me, w, target),
        );
        if !self.snap_shot(crafts, me, w, target) {
            if pos > 0 {
                mods.push(Modifier::new("Position AB", pos));
            }
            if sus > 0 {
                mods.push(Modifier::new("Sustained Fire AB", sus));
            }
        } else {
            mods.push(Modifier::new(SNAP_SHOT_LABEL, SNAP_SHOT));
        }
        let t = crafts.craft(target);
        let aimed = aim.and_then(|k| {
            let location = t.stats.locations.get(usize::from(k))?;
            Some((location, t.aimed_to_be_hit()?))
        });
        let size = t.to_be_hit;
        if let Some((location, size)) = aimed {
            mods.push_named(size, || {
                format!("aimed at the {location} (one size smaller)")
            });
        } else if size != 0 && t.stats.class != ShipClass::Planet {
            mods.push_named(size, || format!("{} to be hit", t.stats.class));
        }
        if gm != 0 {
            mods.push(Modifier::new("GM", gm));
        }
    }

    /// True when gun `w` of `me` fires at `target` without aiming bonuses, a snap shot
    /// ("AIMING BONUSES": no Position and no Sustained Fire on it).
    fn snap_shot(&self, crafts: &impl Crafts, me: UnitId, w: usize, target: UnitId) -> bool {
        self.position_ab(crafts, me, target) + crafts.sustained_ab(me, w, target) <= 0
    }

    /// The modifiers a shot rolls against: [`Dogfight::aimed_shot_modifiers`], or in a
    /// [`Dogfight::quiet`] battle their sum alone, unlabelled.
    fn roll_modifiers(
        &self,
        crafts: &impl Crafts,
        (me, w, target, aim): (UnitId, usize, UnitId, Option<u8>),
        gm: i32,
    ) -> Vec<Modifier> {
        if self.quiet {
            let total = self.shot_total(crafts, me, w, target, aim, gm);
            vec![Modifier::new("", total)]
        } else {
            self.aimed_shot_modifiers(crafts, me, w, target, aim, gm)
        }
    }

    /// The exact chance that gun `w` of `me` hits `target` with the GM's modifier `gm`
    /// (before any dodge): 3d6 against the sum of [`Dogfight::shot_modifiers`], the roll
    /// the fire phase makes ([`chance_3d6`]). What the action panel shows.
    pub fn shot_odds(
        &self,
        crafts: &impl Crafts,
        me: UnitId,
        w: usize,
        target: UnitId,
        gm: i32,
    ) -> f64 {
        chance_3d6(self.shot_total(crafts, me, w, target, None, gm))
    }

    /// The fire phase's shots, resolved together: every craft fires what it declared with
    /// the bonuses it had when the phase began, even if hit earlier in the phase.
    pub(super) fn resolve_fire(
        &mut self,
        crafts: &mut impl CraftsMut,
        declared: &[(UnitId, Vec<Shot>, i32)],
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let before = self.clone();
        let before_crafts = Frozen::take(&*crafts);
        for id in crafts.ids() {
            crafts.craft_mut(id).skip_fire = false;
        }
        let mut fired: Vec<(UnitId, usize, UnitId)> = Vec::new();
        for (me, shots, gm) in declared {
            for shot in shots {
                let w = usize::from(shot.weapon);
                fired.push((*me, w, shot.target));
                before.fire_one(
                    &before_crafts,
                    self,
                    crafts,
                    (*me, w, shot.target, shot.aim),
                    *gm,
                    dice,
                    events,
                );
            }
        }
        // Sustained Fire: +1 per turn of firing on the same target; a gun that fired at
        // another target starts again, one that did not fire loses it.
        for id in crafts.ids() {
            let old = &before_crafts.craft_state(id).sustained;
            let shots: Vec<Option<Entity>> = (0..old.len())
                .map(|w| {
                    fired
                        .iter()
                        .find(|(me, g, _)| *me == id && *g == w)
                        .map(|&(_, _, t)| crafts.entity(t))
                })
                .collect();
            let state = crafts.craft_mut(id);
            for (w, sus) in state.sustained.iter_mut().enumerate() {
                let shot = shots.get(w).copied().flatten();
                *sus = match (shot, old[w]) {
                    (Some(t), Some((old, n))) if old == t => Some((t, n + 1)),
                    (Some(t), _) => Some((t, 1)),
                    (None, _) => None,
                };
            }
            // A craft that took light damage in this phase lost its bonuses, including
            // the one it just built.
            if state.skip_maneuver || state.out.is_some() {
                state.sustained.iter_mut().for_each(|s| *s = None);
            }
        }
    }

    /// One shot (`me`'s gun `w` at `target`, aimed at a location or not), with `self` and
    /// `crafts` the state when the phase began, `now` and `live` the state changed.
    #[allow(clippy::too_many_arguments)]
    fn fire_one(
        &self,
        crafts: &impl Crafts,
        now: &mut Dogfight,
        live: &mut impl CraftsMut,
        (me, w, target, aim): (UnitId, usize, UnitId, Option<u8>),
        gm: i32,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let craft = crafts.craft(me);
        let weapon = &craft.stats.weapons[w];
        let mods = self.roll_modifiers(crafts, (me, w, target, aim), gm);
        let weapon_label = || {
            if self.quiet {
                Label::Static("")
            } else {
                Label::from(format!("{} ({})", weapon.name, weapon.firepower))
            }
        };
        // "PLANETS: Automatic unless targeting specific hit locations": no roll at all.
        if crafts.craft(target).stats.class == ShipClass::Planet && aim.is_none() {
            events.push(BattleEvent::Attack {
                attacker: me,
                target,
                weapon: weapon_label(),
                roll: RollRecord {
                    drawn: Default::default(),
                    dice: crate::dice::DiceName::Fixed("hits automatically (a planet)"),
                    faces: Vec::new(),
                    extra: Vec::new(),
                    sense: crate::dice::RollSense::Under,
                    modifiers: Vec::new(),
                    total: 0,
                    target: None,
                    target_parts: Vec::new(),
                    margin: None,
                    success: Some(true),
                    critical: None,
                },
                defenses: Vec::new(),
                result: AttackResult::Hit,
            });
            if live.in_fight(target) {
                now.hit_at(live, me, target, weapon.firepower, None, dice, events);
            }
            return;
        }
        let snap = self.snap_shot(crafts, me, w, target);
        let mut roll = success_roll(dice, mods);
        let mut target = target;
        // Furball: a gunner who snap-shoots rolls perception; failure, a friend is hit.
        if snap && crafts.furball() {
            let gunner = craft.gunner(w);
            let check = success_roll(
                dice,
                vec![self.modifier(gunner.perception, || {
                    format!("{} perception", gunner.name).into()
                })],
            );
            let friends: Vec<UnitId> = live
                .fighting()
                .into_iter()
                .filter(|&f| f != me && live.side_of(f) == live.side_of(me))
                .collect();
            let failed = !check.succeeded() && !friends.is_empty();
            events.push(BattleEvent::Roll {
                unit: me,
                purpose: Cow::Borrowed("furball perception after a snap shot"),
                result: Cow::Borrowed(if failed {
                    "fires on a friend"
                } else if !check.succeeded() {
                    "no friend left to hit: fires true"
                } else {
                    "fires true"
                }),
                roll: check,
            });
            if failed {
                let k = dice.roll_die(friends.len() as u32) as usize - 1;
                target = friends[k];
                // The same dice, judged against the friend's size: the shot went its way.
                let mods = self.roll_modifiers(crafts, (me, w, target, None), gm);
                let drawn = roll.drawn;
                roll = crate::dice::judge_success(roll.faces.clone(), mods);
                roll.drawn = drawn;
            }
        }
        let auto = crafts.craft_state(me).auto_hit;
        let hit = auto || roll.succeeded();
        let critical = roll.critical == Some(crate::dice::Critical::Success);
        let mut firepower = weapon.firepower;
        let mut defenses = Vec::new();
        if hit && !critical && !auto && live.in_fight(target) && crafts.may_dodge(target, me) {
            let t = crafts.craft(target);
            let dodge = success_roll(
                dice,
                vec![
                    self.modifier(t.stats.pilot.piloting / 2, || {
                        format!("{} Piloting/2", t.stats.pilot.name).into()
                    }),
                    Modifier::new("MR", t.stats.mr),
                ],
            );
            if dodge.succeeded() {
                firepower = firepower.lower();
            }
            defenses.push(DefenseRecord {
                defense: Label::Static("Dodge (one firepower level less)"),
                roll: dodge,
            });
        }
        events.push(BattleEvent::Attack {
            attacker: me,
            target,
            weapon: weapon_label(),
            roll,
            defenses,
            result: if !hit {
                AttackResult::Miss
            } else if critical || auto {
                AttackResult::CriticalHit
            } else {
                AttackResult::Hit
            },
        });
        if auto {
            events.push(BattleEvent::Note {
                unit: Some(me),
                text: "hits automatically (reversal won critically last turn)".into(),
            });
        }
        if hit && live.in_fight(target) {
            if firepower != weapon.firepower {
                events.push(BattleEvent::Note {
                    unit: Some(target),
                    text: self.words(|| {
                        format!(
                            "the dodge lowers the hit from {} to {firepower}",
                            weapon.firepower
                        )
                    }),
                });
            }
            let aim = aim.map(usize::from);
            now.hit_at(live, me, target, firepower, aim, dice, events);
        } else if hit {
            events.push(BattleEvent::Note {
                unit: Some(target),
                text: "already out of the fight".into(),
            });
        }
    }

    /// The effect of a hit of `firepower` on `target` ("FIREPOWER LEVELS").
    pub fn hit(
        &mut self,
        crafts: &mut impl CraftsMut,
        by: UnitId,
        target: UnitId,
        firepower: Firepower,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        self.hit_at(crafts, by, target, firepower, None, dice, events);
    }

    /// [`Dogfight::hit`] by a shot aimed at the hit location `aim` (a light hit knocks out
    /// that location; the die picks one otherwise). An extreme hit on a craft with armour
    /// or force shields counts as great ([`crate::rules::socs::CraftStats::armor`]); a planet
    /// loses a location to any hit but a cosmetic one ([`ShipClass::Planet`]).
    #[allow(clippy::too_many_arguments)]
    pub fn hit_at(
        &mut self,
        crafts: &mut impl CraftsMut,
        by: UnitId,
        target: UnitId,
        firepower: Firepower,
        aim: Option<usize>,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let craft = Arc::clone(crafts.craft(target));
        if craft.stats.class == ShipClass::Planet {
            self.planet_hit(crafts, by, target, firepower, aim, dice, events);
            return;
        }
        let fighter = craft.stats.class == ShipClass::Fighter;
        let located = !fighter && !craft.stats.locations.is_empty();
        let mut level = firepower;
        if level == Firepower::Extreme && craft.stats.armor {
            events.push(BattleEvent::Note {
                unit: Some(target),
                text: "armour and force shields: the extreme hit counts as great".into(),
            });
            level = Firepower::Great;
        }
        // Continuing damage: a craft without hit locations (a fighter) that is hit light
        // again is done for; a craft with locations loses the one the die picks, and only
        // a hit on a location already knocked out (or the last one) puts it out.
        let mut location = None;
        if level == Firepower::Light && located {
            let n = craft.stats.locations.len() as u32;
            let (k, how) = match aim {
                Some(k) if k < craft.stats.locations.len() => (k, "aimed".to_string()),
                _ => {
                    let k = dice.roll_die(n) as usize - 1;
                    (k, format!("d{n} = {}", k + 1))
                }
            };
            location = Some((how.clone(), k));
            let state = crafts.craft_state(target);
            let last = state.locations_out.iter().filter(|o| !**o).count() <= 1;
            if state.damaged && (state.locations_out[k] || last) {
                events.push(BattleEvent::Note {
                    unit: Some(target),
                    text: self.words(|| {
                        format!(
                            "hit location ({how}): {}, {}: continuing damage makes this light hit heavy",
                            craft.stats.locations[k],
                            if state.locations_out[k] {
                                "already knocked out"
                            } else {
                                "the last one working"
                            }
                        )
                    }),
                });
                level = Firepower::Heavy;
            }
        } else if level == Firepower::Light && crafts.craft_state(target).damaged {
            events.push(BattleEvent::Note {
                unit: Some(target),
                text: "already damaged: continuing damage makes this light hit heavy".into(),
            });
            level = Firepower::Heavy;
        }
        // For the statistics and the log: the hit as damage of its firepower level to a
        // craft whose condition runs 2 (intact), 1 (damaged), 0 (out).
        let before = if crafts.craft_state(target).damaged {
            1
        } else {
            2
        };
        let after = match level {
            Firepower::Cosmetic => before,
            Firepower::Light => 1,
            _ => 0,
        };
        events.push(damage_event(by, target, level, (before, after)));
        let quiet = self.quiet;
        let mut text = self.words(|| format!("{level} damage from {}", crafts.name_of(by)));
        let mut say = |words: &str| {
            if !quiet {
                text.push_str(words);
            }
        };
        match level {
            Firepower::Cosmetic => say(": paint blistered"),
            Firepower::Light => {
                let s = crafts.craft_mut(target);
                s.damaged = true;
                s.skip_maneuver = true;
                s.skip_fire = true;
                s.sustained.iter_mut().for_each(|x| *x = None);
                self.drop_positions(crafts, target);
                say(": loses its next turn and its aiming bonuses; continuing damage");
                if let Some((how, k)) = location {
                    crafts.craft_mut(target).locations_out[k] = true;
                    if !quiet {
                        say(&format!(
                            "; hit location ({how}): {} knocked out",
                            craft.stats.locations[k]
                        ));
                    }
                }
            }
            Firepower::Heavy | Firepower::Great | Firepower::Extreme => {
                let fate = match level {
                    Firepower::Heavy if !fighter => Fate::Disabled,
                    Firepower::Heavy => Fate::Destroyed,
                    _ => Fate::Vaporized,
                };
                crafts.craft_mut(target).out = Some(fate);
                say(match fate {
                    Fate::Disabled => ": completely disabled",
                    Fate::Destroyed => ": destroyed",
                    _ => ": vaporized",
                });
            }
        }
        events.push(BattleEvent::Note {
            unit: Some(target),
            text,
        });
        if level >= Firepower::Heavy {
            self.casualties(crafts, target, level, dice, events);
            let standing = crafts.standing(target);
            events.push(BattleEvent::StatusChanged {
                unit: target,
                standing,
                cause: if self.quiet {
                    Cow::Borrowed("")
                } else {
                    Cow::Owned(format!("{level} hit"))
                },
            });
        }
    }

    /// A hit on a planet ([`ShipClass::Planet`]): any hit above cosmetic knocks out the
    /// location aimed at, or one the die picks among those still working; the planet is
    /// out of the fight (disabled) once every location is out. No crew roll: the people of
    /// a world are not the crew of a craft.
    #[allow(clippy::too_many_arguments)]
    fn planet_hit(
        &mut self,
        crafts: &mut impl CraftsMut,
        by: UnitId,
        target: UnitId,
        level: Firepower,
        aim: Option<usize>,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let craft = Arc::clone(crafts.craft(target));
        let working: Vec<usize> = (0..craft.stats.locations.len())
            .filter(|&k| !crafts.craft_state(target).locations_out[k])
            .collect();
        let mut text = format!("{level} damage from {}", crafts.name_of(by));
        let all = craft.stats.locations.len();
        let mut left = working.len();
        if level > Firepower::Cosmetic && !working.is_empty() {
            let k = match aim {
                Some(k) if working.contains(&k) => k,
                _ => working[dice.roll_die(working.len() as u32) as usize - 1],
            };
            crafts.craft_mut(target).locations_out[k] = true;
            left -= 1;
            text.push_str(&format!(
                ": the {} is knocked out",
                craft.stats.locations[k]
            ));
        } else {
            text.push_str(": no lasting harm");
        }
        // On the craft's scale of the log: 2 intact, 1 damaged, 0 out.
        let condition = |left: usize| match left {
            0 => 0,
            n if n == all => 2,
            _ => 1,
        };
        let (before, after) = (condition(working.len()), condition(left));
        events.push(damage_event(by, target, level, (before, after)));
        events.push(BattleEvent::Note {
            unit: Some(target),
            text,
        });
        if left < working.len() {
            crafts.craft_mut(target).damaged = true;
        }
        if left == 0 && !working.is_empty() {
            crafts.craft_mut(target).out = Some(Fate::Disabled);
            let standing = crafts.standing(target);
            events.push(BattleEvent::StatusChanged {
                unit: target,
                standing,
                cause: Cow::Borrowed("every location knocked out"),
            });
        }
    }

    /// Who aboard survives a heavy or worse hit ("FIREPOWER LEVELS"; what "may" and
    /// "potentially" mean is our decision, one roll for both): on a heavy hit each minor
    /// character "may die" — an HT roll, failure kills — and majors live; on a great hit
    /// minor characters die and each major character survives an HT roll; on an extreme
    /// hit everyone dies.
    fn casualties(
        &mut self,
        crafts: &mut impl CraftsMut,
        target: UnitId,
        level: Firepower,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        let craft = Arc::clone(crafts.craft(target));
        for (k, person) in craft.people().into_iter().enumerate() {
            if !crafts.craft_state(target).alive[k] {
                continue;
            }
            let dies = match (level, person.major) {
                (Firepower::Extreme, _) | (Firepower::Great, false) => true,
                (Firepower::Heavy, false) | (Firepower::Great, true) => {
                    let roll = success_roll(
                        dice,
                        vec![self.modifier(person.ht, || format!("{} HT", person.name).into())],
                    );
                    let dead = !roll.succeeded();
                    events.push(BattleEvent::Roll {
                        unit: target,
                        purpose: if self.quiet {
                            Cow::Borrowed("")
                        } else {
                            Cow::Owned(format!("{} survives the blast", person.name))
                        },
                        result: Cow::Borrowed(if dead { "killed" } else { "survives" }),
                        roll,
                    });
                    dead
                }
                _ => false,
            };
            if dies {
                crafts.craft_mut(target).alive[k] = false;
            }
        }
        let alive = &crafts.craft_state(target).alive;
        let text = self.words(|| {
            let dead: Vec<&str> = craft
                .people()
                .into_iter()
                .enumerate()
                .filter(|(k, _)| !alive[*k])
                .map(|(_, p)| p.name.as_str())
                .collect();
            if dead.is_empty() {
                "everyone aboard lives".to_string()
            } else {
                format!("killed aboard: {}", dead.join(", "))
            }
        });
        events.push(BattleEvent::Note {
            unit: Some(target),
            text,
        });
    }
}
