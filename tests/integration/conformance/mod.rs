//! Conformance over the registry: every registered ruleset — the six shipped ones and the
//! d6 duel that lives only in these tests ([`d6_duel`]) — goes through the same library
//! entry points as `skirmish run`, `preview` and saves, and must behave as one engine:
//! each of its scenarios fought to an outcome, the same seed giving the same log byte for
//! byte, and a battle saved and reloaded mid-way going on exactly as the one that was not.
//! A new ruleset gets all of this by being registered here.

mod d6_duel;

use skirmish::play::{Advance, Play, Recording};
use skirmish::preview::{PreviewConfig, run_preview};
use skirmish::report;
use skirmish::scenario::{Prepared, Registry};
use skirmish::session::{Session, SessionOptions};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The shipped rulesets and the test's own.
fn registry() -> Registry {
    skirmish::rules::builtin().clone().with::<d6_duel::D6Duel>()
}

/// Every scenario of every registered ruleset: the shipped ones and the d6 duel's, as paths
/// from the package root.
fn scenarios() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("scenarios"))
        .expect("scenarios/ exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    files.push(root.join("tests/integration/conformance/d6-duel.ron"));
    files
}

fn load(registry: &Registry, path: &Path) -> Arc<Prepared> {
    Arc::new(
        registry
            .load(path)
            .unwrap_or_else(|e| panic!("{}", e.render(false))),
    )
}

/// Each registered ruleset's new scenario (what the editor's New starts from) checks and is
/// fought to a victory.
#[test]
fn every_new_scenario_checks_and_ends_in_a_victory() {
    let registry = registry();
    for ruleset in registry.rulesets() {
        let p = skirmish::scenario::parse(&registry, "new.ron", ruleset.new_scenario())
            .unwrap_or_else(|e| panic!("{}: {}", ruleset.id(), e.render(false)));
        assert_eq!(p.rules.id(), ruleset.id());
        let mut s = Session::new(Arc::new(p), 1, SessionOptions::default());
        let outcome = s.run();
        assert!(
            matches!(outcome, Some(skirmish::battle::OutcomeKind::Victory { .. })),
            "{}: {outcome:?}",
            ruleset.id()
        );
    }
}

/// Each registered ruleset has at least one scenario here.
#[test]
fn every_registered_ruleset_has_a_scenario() {
    let registry = registry();
    let prepared: Vec<Arc<Prepared>> = scenarios().iter().map(|f| load(&registry, f)).collect();
    for ruleset in registry.rulesets() {
        assert!(
            prepared.iter().any(|p| p.ruleset == ruleset.id()),
            "no scenario of {}",
            ruleset.id()
        );
    }
}

/// The d6 duel loads, fights and previews through the entry points the command line uses
/// (`Registry::load`, `report::run_battle`, `report::battle_text`, `run_preview`).
#[test]
fn the_test_ruleset_runs_and_previews_like_a_shipped_one() {
    let registry = registry();
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/conformance/d6-duel.ron");
    let prepared = load(&registry, &path);
    assert_eq!(prepared.ruleset, "d6-duel");
    let mut session = report::run_battle(prepared.clone(), 4);
    let text = report::battle_text(&mut session);
    assert!(text.starts_with("Three against two in the courtyard (d6-duel), seed 4\n"));
    assert!(text.contains("\nOutcome: victory for "), "{text}");
    assert!(text.contains("strike unit"), "{text}");
    assert!(text.contains(" wounds at ("), "{text}");
    let json = report::battle_json(&mut session, &path, serde_json::Map::new())
        .expect("the battle writes as JSON");
    assert!(json.contains("\"ruleset\": \"d6-duel\""));

    let config = PreviewConfig {
        runs: 300,
        seed: 9,
        threads: 2,
    };
    let report = run_preview(prepared, config, &|_| {}, &AtomicBool::new(false));
    assert_eq!(report.runs, 300);
    assert_eq!(report.ruleset, "d6-duel");
    let decided: u64 = report.sides.iter().map(|s| s.wins.count).sum::<u64>() + report.draws.count;
    assert_eq!(decided, 300);
    // Five Wounds at Skill 5 and four at 3 against three duelists of 3 Wounds at Skill 4,
    // 3 and 3: both sides win some.
    assert!(report.sides.iter().all(|s| s.wins.count > 0));
}

/// A bad d6 duel scenario is reported by the ruleset's own checks, located in the file.
#[test]
fn the_test_rulesets_checks_are_located() {
    let registry = registry();
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/conformance/d6-duel.ron"),
    )
    .expect("readable");
    let bad = text
        .replace("D6Duel(bonus: 0)", "D6Duel(bonus: 9)")
        .replace("skill: 5, wounds: 5", "skill: 7, wounds: 5");
    let errors = registry
        .parse("bad.ron", &bad)
        .expect_err("two problems")
        .to_string();
    assert!(
        errors.contains("bad.ron:4:28: ruleset.bonus: bonus 9 is out of range: expected -5 to 5"),
        "{errors}"
    );
    assert!(
        errors.contains(
            "bad.ron:17:82: units[3].stats.skill: skill 7 is out of range: expected 1 to 6"
        ),
        "{errors}"
    );
    // A ruleset the registry does not know is an unknown variant, with the known ones.
    let unknown = skirmish::rules::builtin()
        .parse("bad.ron", &text)
        .expect_err("the builtin registry has no d6 duel")
        .to_string();
    assert!(
        unknown.contains("Unexpected variant named `D6Duel` in enum `RulesetSpec`"),
        "{unknown}"
    );
}

/// Every scenario of every ruleset ends with an outcome, and the same seed gives the same
/// text and JSON byte for byte, in a fresh battle and in a reused one.
#[test]
fn every_ruleset_ends_and_repeats_byte_for_byte() {
    let registry = registry();
    for file in scenarios() {
        let prepared = load(&registry, &file);
        for seed in [11, 12] {
            let mut a = report::run_battle(prepared.clone(), seed);
            assert!(a.outcome().is_some(), "{}: no outcome", prepared.name);
            let mut b = report::run_battle(prepared.clone(), 99);
            b.reset(seed);
            b.run();
            assert_eq!(report::battle_text(&mut a), report::battle_text(&mut b));
            assert_eq!(
                report::battle_json(&mut a, &file, serde_json::Map::new()).ok(),
                report::battle_json(&mut b, &file, serde_json::Map::new()).ok()
            );
        }
    }
}

/// A battle saved after a few player decisions (the AI deciding for the player, recorded
/// as the player's own), written as a save file, read back and replayed stands where the
/// first one stood, and both then fight on to the same end, in every ruleset.
#[test]
fn a_battle_saved_and_reloaded_mid_way_goes_on_identically() {
    let registry = registry();
    for file in scenarios() {
        let prepared = load(&registry, &file);
        let mut play = Play::new(prepared.clone(), file.clone(), 21);
        // Four decisions, then on to the player's next turn (where a reloaded battle
        // stops too).
        let mut decided = 0;
        for _ in 0..100_000 {
            match play.advance() {
                Advance::AwaitingPlayer(_) if decided == 4 => break,
                Advance::AwaitingPlayer(_) => {
                    play.decide_by_ai().expect("the AI's decision is legal");
                    decided += 1;
                }
                Advance::Over(_) => break,
                Advance::Stepped | Advance::Replayed { .. } => {}
                Advance::AwaitingDice(u) => panic!("no side rolls by hand, yet {u:?} waits"),
                Advance::ReplayFailed(e) => panic!("{e}"),
            }
        }
        let text = play.recording().to_ron().expect("the recording writes");
        let recording =
            Recording::parse(&registry, "save.ron", &text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(&recording, play.recording(), "{}", prepared.name);
        let mut reloaded = Play::replaying(prepared.clone(), recording);
        reloaded
            .replay_all()
            .unwrap_or_else(|e| panic!("{}: {e}", prepared.name));
        assert_eq!(
            play.session().log_text(),
            reloaded.session().log_text(),
            "{}: the reloaded battle stands elsewhere",
            prepared.name
        );
        play.finish_by_ai();
        reloaded.finish_by_ai();
        assert_eq!(
            play.session().log_text(),
            reloaded.session().log_text(),
            "{}: the reloaded battle went on differently",
            prepared.name
        );
    }
}

/// The d6 duel's one rule, against its exact probability: a strike at Skill `s` hits with
/// probability s/6; over 6,000 seeded strikes at each Skill the hit rate is within four
/// standard deviations of it.
#[test]
fn the_test_rulesets_strike_hits_with_its_stated_chance() {
    use skirmish::dice::{BattleRng, DieRoller};
    let n = 6000;
    for skill in 1..=6 {
        let mut rng = BattleRng::seeded(skill as u64);
        let hits = (0..n)
            .filter(|_| d6_duel::strike_roll(rng.roll_die(6), skill).succeeded())
            .count();
        let p = d6_duel::hit_chance(skill);
        let sigma = (p * (1.0 - p) / f64::from(n)).sqrt();
        let rate = hits as f64 / f64::from(n);
        assert!(
            (rate - p).abs() <= 4.0 * sigma + 1e-12,
            "skill {skill}: {rate} vs {p}"
        );
    }
}

/// A small xorshift of the tests' own, to pick decisions.
struct Picker(u64);

impl Picker {
    fn new(seed: u64) -> Self {
        Picker(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn index(&mut self, len: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % len as u64) as usize
    }
}

/// Every scenario of every registered ruleset fought to the end by random decisions from
/// the ruleset's own list ([`Ruleset::legal_actions`]) for every unit, every side made the
/// player's: the list is never empty when a decision is awaited, a decision it lists is
/// never refused (the battle goes on), nothing panics, and the battle ends with an outcome.
///
/// [`Ruleset::legal_actions`]: skirmish::scenario::Ruleset::legal_actions
#[test]
fn random_legal_decisions_play_every_battle_to_the_end() {
    use skirmish::battle::{BattleEvent, Control, TurnState};
    let registry = registry();
    let mut played: Vec<&'static str> = Vec::new();
    for file in scenarios() {
        let prepared = load(&registry, &file);
        let mut all_players = (*prepared).clone();
        for side in &mut all_players.sides {
            side.control = Control::Player;
        }
        let rules = prepared.rules;
        for seed in [3u64, 4] {
            let options = SessionOptions {
                keep_log: true,
                autopilot: false,
            };
            let mut s = Session::new(Arc::new(all_players.clone()), seed, options);
            let mut pick = Picker::new(seed);
            let (mut steps, mut decided) = (0u32, 0u32);
            while s.outcome().is_none() && steps < 400_000 {
                s.step();
                steps += 1;
                let Some(unit) = s.world.resource::<TurnState>().awaiting else {
                    continue;
                };
                if s.outcome().is_some() {
                    break;
                }
                let legal = rules.legal_actions(&s.world, unit);
                assert!(
                    !legal.is_empty(),
                    "{} (seed {seed}): nothing listed for unit {} after {decided} decisions",
                    file.display(),
                    unit.0
                );
                let action = &legal[pick.index(legal.len())];
                rules
                    .send(&mut s.world, unit, &**action)
                    .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
                decided += 1;
            }
            assert!(
                s.outcome().is_some(),
                "{} (seed {seed}): no outcome after {steps} steps",
                file.display()
            );
            assert!(decided > 0, "{}: nobody decided", file.display());
            let refused: Vec<String> = s
                .log()
                .entries
                .iter()
                .filter_map(|e| match &e.event {
                    BattleEvent::Rejected { reason, .. } => Some(reason.to_string()),
                    _ => None,
                })
                .collect();
            assert!(
                refused.is_empty(),
                "{} (seed {seed}): listed decisions refused: {refused:?}",
                file.display()
            );
            if !played.contains(&rules.id()) {
                played.push(rules.id());
            }
        }
    }
    let mut all: Vec<&str> = registry.rulesets().iter().map(|r| r.id()).collect();
    all.sort_unstable();
    played.sort_unstable();
    assert_eq!(played, all);
}

/// The odds the contract gives for an attack ([`Ruleset::attack_odds`], what the action
/// panel shows) against what the resolver rolls, for every registered ruleset: its
/// scenarios are fought by random legal decisions for the player's side (side 0 made the
/// player's where every side is the AI's), three battles each and more while the ruleset
/// has seen fewer than 60 attacks with odds; each time a decision comes with odds, the
/// first attack roll that unit then makes is noted. The number of successes is a sum of
/// independent trials with those chances, so it must lie within four standard deviations
/// (the square root of the sum of p(1-p)) of the sum of the chances.
///
/// [`Ruleset::attack_odds`]: skirmish::scenario::Ruleset::attack_odds
#[test]
fn the_odds_shown_for_attacks_match_the_rolls() {
    use skirmish::battle::{BattleEvent, Control, TurnState, UnitId};
    use skirmish::session::{Session, SessionOptions};
    use std::collections::{BTreeMap, HashMap};
    /// Attacks, the sum of their chances, the sum of p(1-p), successes.
    #[derive(Default, Debug)]
    struct Tally {
        attacks: u32,
        expected: f64,
        variance: f64,
        successes: u32,
    }
    let registry = registry();
    let mut tallies: BTreeMap<&'static str, Tally> = BTreeMap::new();
    for file in scenarios() {
        let prepared = load(&registry, &file);
        let mut with_player = (*prepared).clone();
        if !with_player
            .sides
            .iter()
            .any(|s| s.control == Control::Player)
        {
            with_player.sides[0].control = Control::Player;
        }
        let with_player = Arc::new(with_player);
        let rules = prepared.rules;
        let tally = tallies.entry(rules.id()).or_default();
        // Three battles a scenario, more (up to 40) while its ruleset has seen fewer than
        // 60 attacks with odds.
        for seed in 1..=40u64 {
            if seed > 3 && tally.attacks >= 60 {
                break;
            }
            let options = SessionOptions {
                keep_log: true,
                autopilot: false,
            };
            let mut s = Session::new(with_player.clone(), seed, options);
            let mut pick = Picker::new(seed + 100);
            let mut pending: HashMap<UnitId, f64> = HashMap::new();
            let (mut seen, mut steps) = (0usize, 0u32);
            while s.outcome().is_none() && steps < 200_000 {
                s.step();
                steps += 1;
                let entries = &s.log().entries;
                for entry in &entries[seen..] {
                    if let BattleEvent::Attack { attacker, roll, .. } = &entry.event
                        && let Some(p) = pending.remove(attacker)
                    {
                        tally.attacks += 1;
                        tally.expected += p;
                        tally.variance += p * (1.0 - p);
                        tally.successes += u32::from(roll.succeeded());
                    }
                }
                seen = entries.len();
                let Some(unit) = s.world.resource::<TurnState>().awaiting else {
                    continue;
                };
                pending.remove(&unit);
                let legal = rules.legal_actions(&s.world, unit);
                if legal.is_empty() {
                    break;
                }
                let action = &legal[pick.index(legal.len())];
                if let Some(p) = rules.attack_odds(&s.world, unit, &**action) {
                    assert!((0.0..=1.0).contains(&p), "{}: odds {p}", file.display());
                    pending.insert(unit, p);
                }
                rules
                    .send(&mut s.world, unit, &**action)
                    .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            }
        }
    }
    for ruleset in registry.rulesets() {
        let t = &tallies[ruleset.id()];
        eprintln!("{}: {t:?}", ruleset.id());
        assert!(
            t.attacks >= 20,
            "{}: only {} attacks with odds",
            ruleset.id(),
            t.attacks
        );
        let sigma = t.variance.sqrt();
        assert!(
            (f64::from(t.successes) - t.expected).abs() <= 4.0 * sigma + 1e-9,
            "{}: {} successes in {} attacks, {:.1} expected (sigma {sigma:.2})",
            ruleset.id(),
            t.successes,
            t.attacks,
            t.expected
        );
    }
}
