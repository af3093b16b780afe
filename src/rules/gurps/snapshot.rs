//! An owned copy of the battle as one unit sees it ([`Snapshot`]): the map, every unit's
//! position, standing, facing and fighter, and the scenario's rule switches, read from the
//! battle world outside any system. The window takes one for the unit whose turn it is and
//! borrows a [`Situation`] from it to list the legal actions, check the player's choice
//! and preview its odds, with the same code the systems use.

use super::GurpsRules;
use super::actions::{Situation, UnitView};
use super::location::HitLocations;
use super::maneuver::Action;
use super::odds::{Odds, estimate};
use super::sheet::Fighter;
use crate::battle::{Facing, HexPos, Roster, Side, Standing, UnitId};
use crate::hexmap::HexMap;
use bevy::ecs::world::World;
use hexx::{EdgeDirection, Hex};

/// One unit of a [`Snapshot`].
#[derive(Clone, Debug)]
pub struct SnapshotUnit {
    /// Identity.
    pub id: UnitId,
    /// Display name from the roster (empty when the world has none).
    pub name: String,
    /// Side index.
    pub side: u8,
    /// Position.
    pub pos: Hex,
    /// Still fighting?
    pub standing: Standing,
    /// The hex side it faces.
    pub facing: EdgeDirection,
    /// The fighter's sheet and state.
    pub fighter: Fighter,
}

/// An owned copy of what a [`Situation`] borrows, for the unit whose turn it is (or any
/// unit): taken from the battle world with [`Snapshot::read`], it outlives the borrow of
/// the world and gives the situation with [`Snapshot::situation`].
#[derive(Clone, Debug)]
pub struct Snapshot {
    map: HexMap,
    /// In [`UnitId`] order.
    units: Vec<SnapshotUnit>,
    /// Index in `units` of the acting unit (always valid: [`Snapshot::read`] checks it).
    me: usize,
    rules: GurpsRules,
}

impl Snapshot {
    /// Copies the battle from `world` as unit `unit` sees it: the components the systems
    /// read ([`UnitId`], [`Side`], [`HexPos`], [`Standing`], [`Fighter`], [`Facing`]) of
    /// every unit of the [`Roster`] (which every battle session has), the [`HexMap`] and
    /// the [`GurpsRules`]. `None` if the world has no map, GURPS rules or roster, or no
    /// such unit.
    pub fn read(world: &World, unit: UnitId) -> Option<Snapshot> {
        let map = world.get_resource::<HexMap>()?.clone();
        let rules = world.get_resource::<GurpsRules>()?.clone();
        let roster = world.get_resource::<Roster>()?;
        let units: Vec<SnapshotUnit> = roster
            .units
            .iter()
            .enumerate()
            .filter_map(|(i, entry)| {
                let e = world.get_entity(entry.entity).ok()?;
                Some(SnapshotUnit {
                    id: UnitId(u32::try_from(i).ok()?),
                    name: entry.name.clone(),
                    side: e.get::<Side>()?.0,
                    pos: e.get::<HexPos>()?.0,
                    standing: *e.get::<Standing>()?,
                    facing: e.get::<Facing>()?.0,
                    fighter: e.get::<Fighter>()?.clone(),
                })
            })
            .collect();
        let me = units.iter().position(|u| u.id == unit)?;
        Some(Snapshot {
            map,
            units,
            me,
            rules,
        })
    }

    /// The battle as the acting unit sees it, built as the systems build theirs.
    pub fn situation(&self) -> Situation<'_> {
        let views = self
            .units
            .iter()
            .map(|u| UnitView {
                id: u.id,
                name: &u.name,
                side: u.side,
                pos: u.pos,
                standing: u.standing,
                fighter: &u.fighter,
                facing: u.facing,
            })
            .collect();
        Situation::ordered(&self.map, views, self.me, &self.rules)
    }

    /// The odds of `action` for the acting unit ([`estimate`] on [`Snapshot::situation`]).
    pub fn odds(&self, action: &Action) -> Result<Odds, String> {
        estimate(&self.situation(), action)
    }

    /// The map.
    pub fn map(&self) -> &HexMap {
        &self.map
    }

    /// Every unit, in [`UnitId`] order.
    pub fn units(&self) -> &[SnapshotUnit] {
        &self.units
    }

    /// A unit by id.
    pub fn unit(&self, id: UnitId) -> Option<&SnapshotUnit> {
        self.units.iter().find(|u| u.id == id)
    }

    /// The acting unit.
    pub fn me(&self) -> &SnapshotUnit {
        &self.units[self.me]
    }

    /// The scenario's GURPS options.
    pub fn rules(&self) -> &GurpsRules {
        &self.rules
    }

    /// The scenario allows extra effort.
    pub fn extra_effort(&self) -> bool {
        self.rules.extra_effort
    }

    /// The acting unit's side fights as a group.
    pub fn grouped(&self) -> bool {
        self.situation().grouped
    }

    /// Where unaimed blows land.
    pub fn hit_locations(&self) -> HitLocations {
        self.rules.hit_locations
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::{AiStyle, Autopilot, BattleEvent, Command, Control, Policy, TurnState};
    use crate::dice::Critical;
    use crate::rules::gurps::actions::legal_options;
    use crate::rules::gurps::ai::GurpsAi;
    use crate::rules::gurps::location::HitLocation;
    use crate::rules::gurps::{AoaOption, Maneuver};
    use crate::session::{Session, SessionOptions};
    use bevy::ecs::prelude::{Query, Res};
    use bevy::ecs::system::RunSystemOnce;
    use std::sync::Arc;

    /// Two swordsmen face to face, a spearman of the first side behind, an archer of the
    /// second at range; extra effort on and the second side fighting as a group.
    const SCENARIO: &str = r#"(
    name: "Snapshot test",
    ruleset: Gurps(extra_effort: true, groups: ["blue"]),
    map: (shape: Hexagon(radius: 6)),
    sides: [
        (id: "red", name: "Red", control: Player),
        (id: "blue", name: "Blue", control: Player),
    ],
    units: [
        (name: "Ann", side: "red", at: (0, 0),
         stats: Gurps(st: 11, dx: 12, iq: 10, ht: 11, skills: {"Broadsword": 13}, weapons: ["broadsword"])),
        (name: "Bob", side: "blue", at: (1, 0),
         stats: Gurps(st: 11, dx: 11, iq: 10, ht: 11, skills: {"Broadsword": 12}, weapons: ["broadsword"])),
        (name: "Cat", side: "red", at: (-1, 0),
         stats: Gurps(st: 11, dx: 11, iq: 10, ht: 11, skills: {"Spear": 12}, weapons: ["spear"])),
        (name: "Dan", side: "blue", at: (5, -2),
         stats: Gurps(st: 11, dx: 12, iq: 10, ht: 11, skills: {"Bow": 13}, weapons: ["short bow", "large knife"])),
    ],
)"#;

    /// The legal options the systems compute for the unit whose turn it is, with the
    /// query `decide` uses.
    fn systems_legal(world: &mut World, me: UnitId) -> crate::rules::gurps::actions::Legal {
        world
            .run_system_once(
                move |map: Res<HexMap>,
                      rules: Res<GurpsRules>,
                      roster: Res<Roster>,
                      units: Query<(&UnitId, &Side, &HexPos, &Standing, &Fighter, &Facing)>| {
                    let views = units
                        .iter()
                        .map(|(id, side, pos, standing, fighter, facing)| {
                            UnitView::of(&roster, id, (side, pos, standing, fighter, facing))
                        })
                        .collect();
                    Situation::new(&map, views, me, &rules).map(|s| legal_options(&s))
                },
            )
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    /// A snapshot taken from a session's world sees what the systems see: the same units
    /// and the same legal options, for each unit in turn as the battle goes on.
    #[test]
    fn snapshot_gives_the_systems_legal_options() {
        let prepared = Arc::new(
            crate::rules::builtin()
                .parse("test.ron", SCENARIO)
                .expect("valid scenario"),
        );
        let mut session = Session::new(
            prepared,
            3,
            SessionOptions {
                keep_log: false,
                autopilot: false,
            },
        );
        session.step();
        let mut seen = 0;
        for _ in 0..8 {
            let Some(active) = session.world.resource::<TurnState>().awaiting else {
                session.step();
                continue;
            };
            let snapshot = Snapshot::read(&session.world, active).expect("unit present");
            let s = snapshot.situation();
            assert_eq!(s.me().id, active);
            assert_eq!(s.units.len(), 4);
            assert!(s.units.windows(2).all(|w| w[0].id < w[1].id));
            assert!(s.extra_effort);
            assert_eq!(s.grouped, s.me().side == 1);
            assert_eq!(
                snapshot.me().name,
                ["Ann", "Bob", "Cat", "Dan"][active.0 as usize]
            );
            let legal = legal_options(&s);
            assert!(!legal.options.is_empty());
            assert_eq!(legal, systems_legal(&mut session.world, active));
            seen += 1;
            // Let the AI play this turn, then the next begins.
            session.world.insert_resource(Autopilot(true));
            session.step();
            session.world.insert_resource(Autopilot(false));
            session.step();
        }
        assert!(seen >= 4, "{seen} turns compared");
        assert!(Snapshot::read(&session.world, UnitId(9)).is_none());
    }

    /// The odds preview cannot drift from the resolution: the attack the battle then
    /// rolls has exactly the previewed modifiers, and the defense it meets is the previewed
    /// one at the previewed score.
    #[test]
    fn odds_match_the_resolved_attack() {
        let prepared = Arc::new(
            crate::rules::builtin()
                .parse("test.ron", SCENARIO)
                .expect("valid scenario"),
        );
        let mut defended = 0;
        for seed in 0..30 {
            let mut session = Session::new(
                prepared.clone(),
                seed,
                SessionOptions {
                    keep_log: true,
                    autopilot: false,
                },
            );
            session.step();
            let Some(active) = session.world.resource::<TurnState>().awaiting else {
                continue;
            };
            let snapshot = Snapshot::read(&session.world, active).expect("unit present");
            let s = snapshot.situation();
            let Some(foe) = s
                .enemies()
                .min_by_key(|e| e.pos.unsigned_distance_to(s.me().pos))
                .map(|e| e.id)
            else {
                continue;
            };
            let action = Action {
                target: Some(foe),
                weapon: Some(0),
                deceptive: u8::from(seed % 2 == 1),
                ..Action::simple(Maneuver::Attack)
            };
            let Ok(odds) = snapshot.odds(&action) else {
                continue; // out of reach from here
            };
            session.world.write_message(Command {
                unit: active,
                action,
            });
            session.step();
            let attack = session.log().entries.iter().find_map(|e| match &e.event {
                BattleEvent::Attack { roll, defenses, .. } => {
                    Some((roll.clone(), defenses.clone()))
                }
                _ => None,
            });
            let (roll, defenses) = attack.expect("the attack was made");
            let strike = &odds.strikes[0];
            assert_eq!(roll.modifiers, strike.modifiers, "seed {seed}");
            assert_eq!(roll.target, Some(strike.effective));
            if let Some(d) = defenses.first() {
                let previewed = strike.defense.as_ref().expect("a defense was previewed");
                assert_eq!(&*d.defense, previewed.label, "seed {seed}");
                assert_eq!(d.roll.target, Some(previewed.score), "seed {seed}");
                defended += 1;
            }
        }
        assert!(defended >= 5, "{defended} defenses compared");
    }

    /// Across the shipped scenarios, every attack the AI makes (now and then with a
    /// player's option added, or after an Evaluate or a Feint in its place) is rolled with
    /// the modifiers the odds preview showed for the action (every strike of it), and met
    /// with the previewed defense at the previewed score.
    #[test]
    fn odds_match_every_ai_attack_in_the_shipped_scenarios() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .expect("scenarios/")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "ron"))
            .collect();
        files.sort();
        let (mut strikes, mut defenses) = (0, 0);
        for file in files {
            let name = file.display().to_string();
            let mut prepared = crate::rules::builtin().load(&file).expect("valid scenario");
            if prepared.ruleset != "gurps" {
                continue;
            }
            // Every side waits for its commands, which are the AI's choices sent by hand.
            let styles: Vec<AiStyle> = prepared
                .sides
                .iter()
                .map(|side| match side.control {
                    Control::Ai(style) => style,
                    Control::Player => AiStyle::Aggressive,
                })
                .collect();
            for side in &mut prepared.sides {
                side.control = Control::Player;
            }
            let prepared = Arc::new(prepared);
            for seed in 1..=2 {
                let options = SessionOptions {
                    keep_log: true,
                    autopilot: false,
                };
                let mut session = Session::new(prepared.clone(), seed, options);
                let mut steps = 0;
                while session.outcome().is_none() && steps < 3000 {
                    steps += 1;
                    let Some(active) = session.world.resource::<TurnState>().awaiting else {
                        session.step();
                        continue;
                    };
                    let snapshot = Snapshot::read(&session.world, active).expect("unit");
                    let s = snapshot.situation();
                    let legal = legal_options(&s);
                    let style = styles[usize::from(s.me().side)];
                    let mut action = GurpsAi { style }.choose(&s, &legal);
                    // Now and then a player's option on the AI's attack (when legal), or an
                    // Evaluate or Feint that tells on the next one.
                    if action.maneuver.attacks() {
                        let mut other = action.clone();
                        match steps % 7 {
                            1 => other.telegraphic = true,
                            2 => other.location = Some(HitLocation::ALL[steps % 13]),
                            3 => other.deceptive = 1,
                            4 => other.maneuver = Maneuver::Evaluate,
                            5 => other.maneuver = Maneuver::Feint,
                            6 => other.chink = true,
                            _ => {}
                        }
                        if snapshot.odds(&other).is_ok() {
                            action = other;
                        }
                    }
                    let odds = snapshot.odds(&action);
                    let watched = action.to.is_some_and(|to| to != s.me().pos)
                        && s.enemies().any(|e| e.fighter.waiting.is_some());
                    let before = session.log().entries.len();
                    session.world.write_message(Command {
                        unit: active,
                        action: action.clone(),
                    });
                    session.step();
                    let Ok(odds) = odds else { continue };
                    if watched || action.maneuver == Maneuver::AllOutAttack(AoaOption::Feint) {
                        continue;
                    }
                    let attacks: Vec<_> = session.log().entries[before..]
                        .iter()
                        .filter_map(|e| match &e.event {
                            BattleEvent::Attack {
                                attacker,
                                roll,
                                defenses,
                                ..
                            } if *attacker == active
                                && !roll
                                    .modifiers
                                    .first()
                                    .is_some_and(|m| m.label.starts_with("wrong target")) =>
                            {
                                Some((roll.clone(), defenses.clone()))
                            }
                            _ => None,
                        })
                        .collect();
                    for (i, (roll, defended)) in attacks.iter().enumerate() {
                        let at = format!("{name} seed {seed} step {steps} {action:?}");
                        let strike = &odds.strikes[i];
                        assert_eq!(roll.modifiers, strike.modifiers, "{at}");
                        strikes += 1;
                        if let (0, Some(d)) = (i, defended.first()) {
                            let previewed = strike.defense.as_ref().expect("previewed");
                            assert_eq!(&*d.defense, previewed.label, "{at}");
                            assert_eq!(d.roll.target, Some(previewed.score), "{at}");
                            defenses += 1;
                        }
                        // A fumble (the attacker's, or its foe's critical defense) changes
                        // the attacker before its next strike: no preview knows that.
                        let fumble = roll.critical == Some(Critical::Failure)
                            || defended
                                .iter()
                                .any(|d| d.roll.critical == Some(Critical::Success));
                        if fumble {
                            break;
                        }
                    }
                }
            }
        }
        assert!(
            strikes > 200 && defenses > 100,
            "{strikes} strikes, {defenses} defenses"
        );
    }
}
