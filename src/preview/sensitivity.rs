//! `preview --sensitivity`: who matters in an encounter. For each unit, its side's win rate
//! with the unit taken out, and with its main attack one step weaker and one step stronger
//! ([`Ruleset::stronger`](crate::scenario::Ruleset::stronger) says what a step is in each
//! ruleset), against the scenario as written, every variant fought over the same seeds so
//! that the differences are paired ([`compare::paired`](super::compare::paired)).
//!
//! A variant is the scenario file changed and checked again like any file
//! ([`validate`]): one that breaks a rule of the format (a side
//! left without units, a skill beyond its range) is reported as not possible, with the
//! reason.

use super::compare::{Estimate, paired};
use super::{PreviewConfig, run_battles};
use crate::scenario::{Prepared, ScenarioFile, Tagged, Turning, UnitStats, validate};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// One variant's result for the unit's side.
#[derive(Clone, Debug, Serialize)]
pub struct Effect {
    /// The side's win rate in the variant.
    pub win_rate: f64,
    /// Its change from the scenario as written, with its interval and p-value.
    pub change: Estimate,
}

/// A variant that was fought, or why it could not be.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Fought.
    Fought(Effect),
    /// Not possible, and why.
    NotPossible(String),
}

impl Outcome {
    /// The change in the side's win rate, if the variant was fought.
    pub fn change(&self) -> Option<f64> {
        match self {
            Outcome::Fought(e) => Some(e.change.difference),
            Outcome::NotPossible(_) => None,
        }
    }
}

/// What one unit means to its side.
#[derive(Clone, Debug, Serialize)]
pub struct UnitEffect {
    /// The unit's name.
    pub name: String,
    /// Its side's id.
    pub side: String,
    /// Its side's win rate as written.
    pub win_rate: f64,
    /// Without the unit.
    pub without: Outcome,
    /// Its main attack a step weaker.
    pub weaker: Outcome,
    /// Its main attack a step stronger.
    pub stronger: Outcome,
    /// For a unit that acts with the others of its template (a Vergeworlds mook group,
    /// [`Ruleset::grouped_by_template`](crate::scenario::Ruleset::grouped_by_template)),
    /// which a step takes it out of: its side's win rate with the unit out of the group
    /// but unchanged, which `weaker` and `stronger` are measured against (so that they
    /// tell the step alone).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub out_of_group: Option<Outcome>,
}

/// Every unit's effect, the largest first.
#[derive(Clone, Debug, Serialize)]
pub struct Sensitivity {
    /// Battles per variant.
    pub runs: u64,
    /// Base seed, the same for every variant.
    pub seed: u64,
    /// Each side's win rate as written, by side id.
    pub win_rates: BTreeMap<String, f64>,
    /// Per unit, by the size of the change its removal makes (largest first); a unit whose
    /// variants a cancel cut short is left out.
    pub units: Vec<UnitEffect>,
    /// True if cancelled before every variant was fought (those not fought are left out).
    pub cancelled: bool,
    /// What a step is in the scenario's ruleset
    /// ([`Ruleset::STRONGER_STEP`](crate::scenario::Ruleset::STRONGER_STEP)).
    pub step: &'static str,
}

/// The winner of each battle of `prepared` (`None`: a draw), by battle index; `None` when
/// cancelled before every battle was fought.
fn winners(
    prepared: Arc<Prepared>,
    config: PreviewConfig,
    progress: &(dyn Fn(u64) + Sync),
    cancel: &AtomicBool,
) -> Option<Vec<Option<u8>>> {
    let results: Mutex<Vec<Option<Option<u8>>>> = Mutex::new(vec![None; config.runs as usize]);
    run_battles(
        prepared,
        (config, 0),
        &|session, seed| session.reset(seed),
        progress,
        cancel,
        &|r| {
            if let Ok(mut v) = results.lock()
                && let Some(slot) = v.get_mut(r.index as usize)
            {
                *slot = Some(r.winner());
            }
        },
    );
    results.into_inner().ok()?.into_iter().collect()
}

/// 1 for each battle `side` won, else 0.
fn won(winners: &[Option<u8>], side: u8) -> Vec<f64> {
    winners
        .iter()
        .map(|w| f64::from(u8::from(*w == Some(side))))
        .collect()
}

/// `file` with unit `i` taken out, and with it what the ruleset's settings say of it by
/// name ([`Ruleset::without_unit`](crate::scenario::Ruleset::without_unit): a starting
/// range to it, a chase it is in).
fn without(file: &ScenarioFile, i: usize) -> ScenarioFile {
    let mut f = file.clone();
    let unit = f.units.remove(i);
    let settings = &f.ruleset.0;
    if let Some(value) = settings.ruleset.without_unit(&*settings.value, &unit.name) {
        f.ruleset.0.value = value;
    }
    f
}

/// What [`strengthen`] and [`toughen`] turn: one unit's stat block (its own, or a copy of
/// its template's, which the unit then has instead), or a template's, which every unit
/// using it keeps.
#[derive(Clone, Copy, Debug)]
pub(super) enum Part<'a> {
    /// The unit at this index.
    Unit(usize),
    /// The template of this name.
    Template(&'a str),
}

/// Makes `part` of `file` `steps` steps stronger
/// ([`Ruleset::stronger`](crate::scenario::Ruleset::stronger)), or says why it cannot
/// (`balance --vary skill` turns each unit of a side with it).
pub(super) fn strengthen(file: &mut ScenarioFile, part: Part, steps: i32) -> Result<(), String> {
    restat(file, part, Turning::Attack, |r, s| r.stronger(s, steps))
}

/// [`strengthen`] for hit points ([`Ruleset::tougher`](crate::scenario::Ruleset::tougher);
/// `balance --vary hp`).
pub(super) fn toughen(file: &mut ScenarioFile, part: Part, steps: i32) -> Result<(), String> {
    restat(file, part, Turning::HitPoints, |r, s| r.tougher(s, steps))
}

/// Gives `part` of `file` the stat block `turn` makes of its own (a unit of a template, of
/// the template's), or says that it has nothing `turning` turns.
fn restat(
    file: &mut ScenarioFile,
    part: Part,
    turning: Turning,
    turn: impl Fn(
        &'static dyn crate::scenario::ErasedRuleset,
        &dyn crate::scenario::Section,
    ) -> Option<Arc<dyn crate::scenario::Section>>,
) -> Result<(), String> {
    let (owner, stats) = match part {
        Part::Unit(i) => {
            let unit = &file.units[i];
            let stats = (unit.stats_in(file).cloned())
                .ok_or_else(|| format!("{} has no stat block", unit.name))?;
            (unit.name.clone(), stats)
        }
        Part::Template(t) => {
            let stats =
                (file.templates.get(t).cloned()).ok_or_else(|| format!("no template `{t}`"))?;
            (format!("template `{t}`"), stats)
        }
    };
    let ruleset = stats.0.ruleset;
    // What the block draws from files (a GCS character's skills and HP), written in to be
    // turned.
    let drawn = ruleset.drawn_in(&*stats.0.value, file.dir.as_deref(), turning);
    let value = turn(ruleset, drawn.as_deref().unwrap_or(&*stats.0.value)).ok_or_else(|| {
        let (step, what) = (turning.step(ruleset), turning.words());
        if step.is_empty() {
            format!("{owner}: {} has no {what} to change", ruleset.id())
        } else {
            format!(
                "{owner}'s stat block has no {what} that {} changes (a step is {step})",
                ruleset.id()
            )
        }
    })?;
    let turned = UnitStats(Tagged { ruleset, value });
    match part {
        Part::Unit(i) => {
            let unit = &mut file.units[i];
            unit.stats = Some(turned);
            unit.template = None;
        }
        Part::Template(t) => {
            file.templates.insert(t.to_string(), turned);
        }
    }
    Ok(())
}

/// `file` with unit `i` given a copy of its template's stat block as its own, unchanged:
/// out of its template's group ([`grouped`]).
fn detach(file: &ScenarioFile, i: usize) -> Result<ScenarioFile, String> {
    let mut f = file.clone();
    let unit = &f.units[i];
    let stats =
        (unit.stats_in(file).cloned()).ok_or_else(|| format!("{} has no stat block", unit.name))?;
    let unit = &mut f.units[i];
    (unit.stats, unit.template) = (Some(stats), None);
    Ok(f)
}

/// True when unit `i` of `file` acts with other units of its side drawn from its template
/// ([`Ruleset::grouped_by_template`](crate::scenario::Ruleset::grouped_by_template)): a
/// stat block of its own would take it out of that group.
fn grouped(file: &ScenarioFile, i: usize) -> bool {
    let unit = &file.units[i];
    let (None, Some(t)) = (&unit.stats, &unit.template) else {
        return false;
    };
    let others = (file.units.iter().enumerate())
        .any(|(j, u)| j != i && u.side == unit.side && u.template.as_ref() == Some(t));
    others
        && file
            .templates
            .get(t)
            .is_some_and(|s| s.0.ruleset.grouped_by_template(&*s.0.value))
}

/// The number of previews [`sensitivity`] fights besides the scenario as written: three a
/// unit, and one more for a unit a step would take out of its group (its side's rate out
/// of the group, unchanged).
pub fn variants(file: &ScenarioFile) -> u64 {
    (0..file.units.len())
        .map(|i| if grouped(file, i) { 4 } else { 3 })
        .sum()
}

/// `file` with unit `i` `steps` steps stronger ([`strengthen`]), or why not.
fn varied(file: &ScenarioFile, i: usize, steps: i32) -> Result<ScenarioFile, String> {
    let mut f = file.clone();
    strengthen(&mut f, Part::Unit(i), steps)?;
    Ok(f)
}

/// Fights `prepared` as written and each unit's three variants (four for a unit a step
/// takes out of its group), `config.runs` battles each over the same seeds. `progress`
/// gets the battles finished of all of them together (out of `runs * (1 + variants)`,
/// [`variants`]).
pub fn sensitivity(
    prepared: &Arc<Prepared>,
    config: PreviewConfig,
    progress: &(dyn Fn(u64) + Sync),
    cancel: &AtomicBool,
) -> Sensitivity {
    let done = std::sync::atomic::AtomicU64::new(0);
    let fight = |p: Arc<Prepared>| {
        let before = done.load(Ordering::Relaxed);
        let w = winners(p, config, &|n| progress(before + n), cancel);
        done.fetch_add(config.runs, Ordering::Relaxed);
        w
    };
    let Some(base) = fight(prepared.clone()) else {
        return Sensitivity {
            runs: config.runs,
            seed: config.seed,
            win_rates: BTreeMap::new(),
            units: Vec::new(),
            cancelled: true,
            step: Turning::Attack.step(prepared.file.ruleset.ruleset()),
        };
    };
    let win_rates: BTreeMap<String, f64> = prepared
        .sides
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let w = won(&base, i as u8);
            (s.id.clone(), w.iter().sum::<f64>() / w.len().max(1) as f64)
        })
        .collect();
    let mut units = Vec::new();
    for (i, unit) in prepared.units.iter().enumerate() {
        if cancel.load(Ordering::Relaxed) {
            break;
        }
        let side = unit.side;
        let side_id = prepared.sides[usize::from(side)].id.clone();
        let as_written = won(&base, side);
        let outcome = |variant: Result<ScenarioFile, String>, before: &[f64]| match variant
            .and_then(|f| {
                validate(f).map_err(|p| {
                    p.first()
                        .map_or_else(String::new, |p| format!("{}: {}", p.path, p.message))
                })
            }) {
            // Side indices stay: a variant changes units, not sides. `None`: cancelled.
            Ok(p) => fight(Arc::new(p)).map(|w| {
                let after = won(&w, side);
                let effect = Effect {
                    win_rate: after.iter().sum::<f64>() / after.len().max(1) as f64,
                    change: paired(before, &after),
                };
                (Outcome::Fought(effect), after)
            }),
            Err(why) => {
                done.fetch_add(config.runs, Ordering::Relaxed);
                Some((Outcome::NotPossible(why), Vec::new()))
            }
        };
        // A unit of a group a step would take it out of: the steps are measured against
        // it out of the group, unchanged.
        let (out_of_group, before) = if grouped(&prepared.file, i) {
            let Some((o, w)) = outcome(detach(&prepared.file, i), &as_written) else {
                break;
            };
            let before = if w.is_empty() { as_written.clone() } else { w };
            (Some(o), before)
        } else {
            (None, as_written.clone())
        };
        let (Some((without, _)), Some((weaker, _)), Some((stronger, _))) = (
            outcome(Ok(without(&prepared.file, i)), &as_written),
            outcome(varied(&prepared.file, i, -1), &before),
            outcome(varied(&prepared.file, i, 1), &before),
        ) else {
            break;
        };
        units.push(UnitEffect {
            name: unit.name.clone(),
            win_rate: win_rates.get(&side_id).copied().unwrap_or(0.0),
            side: side_id,
            without,
            weaker,
            stronger,
            out_of_group,
        });
    }
    units.sort_by(|a, b| {
        let size = |u: &UnitEffect| u.without.change().map_or(-1.0, f64::abs);
        size(b).total_cmp(&size(a))
    });
    Sensitivity {
        runs: config.runs,
        seed: config.seed,
        win_rates,
        cancelled: cancel.load(Ordering::Relaxed),
        units,
        step: Turning::Attack.step(prepared.file.ruleset.ruleset()),
    }
}

impl Sensitivity {
    /// The table as text: per unit its side's win rate as written, then without it, a step
    /// weaker and a step stronger, each with the change in points and `*` at p < 0.05.
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let cell = |o: &Outcome| match o {
            Outcome::Fought(e) => format!(
                "{:.1}% ({:+.1}){}",
                100.0 * e.win_rate,
                100.0 * e.change.difference,
                if e.change.significant() { "*" } else { " " }
            ),
            Outcome::NotPossible(_) => "n/a".to_string(),
        };
        let name_width = self
            .units
            .iter()
            .map(|u| u.name.len() + u.side.len() + 3)
            .max()
            .unwrap_or(4)
            .max(4);
        let mut s = format!(
            "\nWho matters: the side's win rate with the unit, without it, and with its main \
             attack a step weaker and stronger\n({} battles each, the same seeds as above; \
             change in points, * at p < 0.05{})\n  {:<name_width$}  {:>7}  {:>16}  {:>16}  {:>16}\n",
            self.runs,
            if self.step.is_empty() {
                String::new()
            } else {
                format!("; a step is {}", self.step)
            },
            "unit",
            "as is",
            "without",
            "a step weaker",
            "a step stronger"
        );
        let mut notes = Vec::new();
        let mut grouped = Vec::new();
        for u in &self.units {
            let _ = writeln!(
                s,
                "  {:<name_width$}  {:>6.1}%  {:>16}  {:>16}  {:>16}",
                format!("{} ({})", u.name, u.side),
                100.0 * u.win_rate,
                cell(&u.without),
                cell(&u.weaker),
                cell(&u.stronger)
            );
            for (what, o) in [
                ("without", &u.without),
                ("a step weaker", &u.weaker),
                ("a step stronger", &u.stronger),
            ] {
                if let Outcome::NotPossible(why) = o {
                    notes.push(format!("  {} {what}: {why}", u.name));
                }
            }
            match &u.out_of_group {
                Some(Outcome::Fought(e)) => grouped.push(format!(
                    "  {}: {:.1}% ({:+.1}{})",
                    u.name,
                    100.0 * e.win_rate,
                    100.0 * e.change.difference,
                    if e.change.significant() { "*" } else { "" }
                )),
                Some(Outcome::NotPossible(why)) => notes.push(format!(
                    "  {} out of its template's group (its steps are measured against the \
                     scenario as written): {why}",
                    u.name
                )),
                None => {}
            }
        }
        if !grouped.is_empty() {
            let _ = writeln!(
                s,
                "Out of their template's group (a unit a step gives a stat block of its own \
                 no longer acts with the others of its template), unchanged; their steps are \
                 measured against this:\n{}",
                grouped.join("\n")
            );
        }
        if self.cancelled {
            s.push_str("  (cancelled: the units not listed were not fought)\n");
        }
        if !notes.is_empty() {
            let _ = writeln!(s, "Not possible:\n{}", notes.join("\n"));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::super::tests::shipped as load;

    /// In one scenario of each ruleset, a step stronger changes the first unit's stat block,
    /// the file still checks, and a step weaker after it gives the block as written back.
    /// GURPS: every skill written out +2 (Aldric's Broadsword 14 to 16).
    #[test]
    fn a_step_changes_the_block_and_back() {
        for name in [
            "gurps-duel.ron",
            "ms-corridor.ron",
            "vw-sheriffs-men.ron",
            "d12-duel.ron",
            "socs-dogfight.ron",
            "traveller-merchant-raider.ron",
        ] {
            let p = load(name);
            // The first unit whose stronger block still checks (Main Sequence's player
            // characters are held to the creation rules: Ree with Soldier 5 is refused).
            let i = (0..p.file.units.len())
                .find(|&i| varied(&p.file, i, 1).is_ok_and(|f| validate(f).is_ok()))
                .unwrap_or_else(|| panic!("{name}: no unit can be made stronger"));
            let stats = |f: &ScenarioFile| {
                let u = &f.units[i];
                u.stats
                    .clone()
                    .or_else(|| {
                        u.template
                            .as_ref()
                            .and_then(|t| f.templates.get(t).cloned())
                    })
                    .expect("a stat block")
            };
            let up = varied(&p.file, i, 1).expect("a step up");
            assert!(
                !stats(&up).0.value.same_as(&*stats(&p.file).0.value),
                "{name}"
            );
            let back = varied(&up, i, -1).expect("a step down");
            assert!(
                stats(&back).0.value.same_as(&*stats(&p.file).0.value),
                "{name}"
            );
        }
        let duel = load("gurps-duel.ron");
        let up = varied(&duel.file, 0, 1).expect("a step up");
        let aldric = up.units[0].stats.as_ref().expect("written out");
        let gurps = aldric
            .0
            .get::<crate::rules::gurps::GurpsStats>()
            .expect("GURPS stats");
        assert_eq!(gurps.skills.get("Broadsword"), Some(&16));
    }

    /// A unit taken out takes with it what the settings say of it by name: in
    /// d12-three-ships every ship with a side-mate can be taken out (starting ranges name
    /// the Swift Courier, which was refused as an unknown unit; the Marauder, alone on its
    /// side, still cannot), and the ranges left name none of the ship taken out; in a Main
    /// Sequence chase, taking out its quarry ends the chase.
    #[test]
    fn a_unit_taken_out_takes_its_starting_ranges_with_it() {
        let ships = load("d12-three-ships.ron");
        for i in 0..ships.file.units.len() {
            let f = without(&ships.file, i);
            let (name, side) = (&ships.file.units[i].name, &ships.file.units[i].side);
            match validate(f.clone()) {
                Ok(_) => assert!(f.units.iter().any(|u| &u.side == side), "{name}"),
                Err(p) => assert!(
                    !f.units.iter().any(|u| &u.side == side)
                        && p.iter().all(|p| p.message.ends_with("has no units")),
                    "without {name}: {p:?}"
                ),
            }
            let d12 = f.ruleset.0.get::<crate::rules::starship_d12::D12Config>();
            let ranges = d12.map(|c| c.ranges.clone()).expect("d12 settings");
            assert!(
                ranges.iter().all(|r| &r.from != name && &r.to != name),
                "{name}"
            );
        }
        let chase = load("ms-ship-chase.ron");
        let settings = |f: &ScenarioFile| {
            f.ruleset
                .0
                .get::<crate::rules::main_sequence::MsConfig>()
                .cloned()
        };
        let quarry = settings(&chase.file)
            .and_then(|c| c.chase)
            .expect("a chase")
            .quarry;
        let i = (chase.file.units.iter())
            .position(|u| u.name == quarry)
            .expect("quarry");
        let f = without(&chase.file, i);
        assert_eq!(settings(&f).map(|c| c.chase.is_none()), Some(true));
        // SOCS: the starting Position bonuses that name the craft taken out go with it.
        use crate::rules::socs::SocsConfig;
        let socs = |name: &str| -> SocsConfig {
            let text = "(name: \"t\", ruleset: Socs(positions: [(from: \"A\", to: \"B\", ab: 2)], \
                 ranges: [(from: \"C\", to: \"B\", range: Short)]), \
                 map: (shape: Hexagon(radius: 3)), \
                 sides: [(id: \"x\", name: \"X\", control: Ai(Aggressive)), \
                 (id: \"y\", name: \"Y\", control: Ai(Aggressive))], \
                 templates: {\"f\": Socs(class: Fighter, mr: 2, pilot: (name: \"P\", \
                 piloting: 12, gunner: 12), weapons: [(name: \"G\", firepower: Light, \
                 range: Short)])}, units: [(name: \"A\", side: \"x\", at: (0, 0), \
                 template: \"f\"), (name: \"C\", side: \"x\", at: (1, 0), template: \"f\"), \
                 (name: \"B\", side: \"y\", at: (2, 0), template: \"f\")])";
            let file = crate::rules::builtin()
                .parse("socs-positions", text)
                .expect("a scenario");
            let i = (file.file.units.iter())
                .position(|u| u.name == name)
                .expect("unit");
            let f = without(&file.file, i);
            validate(f.clone()).expect("valid without it");
            f.ruleset
                .0
                .get::<SocsConfig>()
                .cloned()
                .expect("SOCS settings")
        };
        let no_a = socs("A");
        assert!(no_a.positions.is_empty() && no_a.ranges.len() == 1);
        let no_b = socs("C");
        assert!(no_b.positions.len() == 1 && no_b.ranges.is_empty());
    }

    /// GURPS characters from GCS files can be turned: their skills and HP are read from the
    /// file and written into the block beside its `gcs` reference, then turned. In the
    /// ogre ambush, Young Haldor's block a step stronger keeps `gcs`, has every skill of his
    /// file 2 higher (his Axe/Mace, 12 in the file, at 14) and every weapon of it at 2 more
    /// levels and 1 more parry, and two steps tougher, 4 more HP.
    #[test]
    fn a_gcs_character_is_turned_from_its_file() {
        use crate::rules::gurps::GurpsStats;
        let ambush = load("gurps-gcs-ogre-ambush.ron");
        let i = (ambush.file.units.iter())
            .position(|u| u.name.contains("Haldor"))
            .expect("Haldor");
        let block = |f: &ScenarioFile| {
            let stats = f.units[i].stats.as_ref().expect("written out");
            stats.0.get::<GurpsStats>().cloned().expect("GURPS")
        };
        let drawn_in = |turning| {
            <crate::rules::gurps::Gurps as crate::scenario::Ruleset>::drawn_in(
                &block(&ambush.file),
                ambush.file.dir.as_deref(),
                turning,
            )
            .expect("drawn from the file")
        };
        let drawn = drawn_in(Turning::Attack);
        let mut up = ambush.file.clone();
        strengthen(&mut up, Part::Unit(i), 1).expect("a step stronger");
        validate(up.clone()).expect("valid");
        let turned = block(&up);
        assert_eq!(turned.gcs, block(&ambush.file).gcs);
        assert!(!drawn.skills.is_empty());
        for (skill, level) in &drawn.skills {
            assert_eq!(turned.skills.get(skill), Some(&(level + 2)), "{skill}");
        }
        assert_eq!(drawn.skills.get("Axe/Mace"), Some(&12));
        // His weapons come written out with his level and parry: each 2 and 1 higher.
        use crate::rules::gurps::sheet::WeaponRef;
        let own = |w: &WeaponRef| match w {
            WeaponRef::Own(w) => Some((w.name.clone(), w.level, w.parry)),
            WeaponRef::Named(_) => None,
        };
        let before: Vec<_> = drawn.weapons.iter().filter_map(own).collect();
        let after: Vec<_> = turned.weapons.iter().filter_map(own).collect();
        assert!(!before.is_empty() && before.len() == after.len());
        for ((name, level, parry), (_, up, up_parry)) in before.iter().zip(&after) {
            assert_eq!(*up, level + 2, "{name}");
            assert_eq!(*up_parry, parry.map(|p| p + 1), "{name}");
        }
        let mut tough = ambush.file.clone();
        toughen(&mut tough, Part::Unit(i), 2).expect("two steps tougher");
        let hp = drawn_in(Turning::HitPoints).hp.expect("HP from the file");
        assert_eq!(block(&tough).hp, Some(hp + 4));
        // Each knob writes in only what it turns.
        assert_eq!((turned.hp, block(&tough).skills.is_empty()), (None, true));
    }

    /// Vergeworlds mooks of one template are one group (one Action Point roll), which a step
    /// takes a mook out of: the hoverbike chase's three raiders are measured a step weaker
    /// and stronger against a raider out of the group unchanged (one more preview each),
    /// not against the scenario as written, so that the step is all their change tells
    /// (before, Raider 3 a step weaker and a step stronger were both +5.3 points: the
    /// leaving alone). The couriers, with blocks of their own, are measured as before.
    #[test]
    fn a_mook_is_measured_against_it_out_of_its_group() {
        let chase = load("vw-hoverbike-chase.ron");
        let raiders: Vec<usize> = (0..chase.file.units.len())
            .filter(|&i| chase.file.units[i].name.starts_with("Raider"))
            .collect();
        assert_eq!(raiders.len(), 3);
        for i in 0..chase.file.units.len() {
            assert_eq!(grouped(&chase.file, i), raiders.contains(&i), "{i}");
        }
        assert_eq!(variants(&chase.file), 3 * chase.file.units.len() as u64 + 3);
        // A template not a mook's (GURPS riflemen) is not a group.
        let farm = load("gurps-skirmish-3v3.ron");
        assert!((0..farm.file.units.len()).all(|i| !grouped(&farm.file, i)));

        let never = AtomicBool::new(false);
        let config = PreviewConfig {
            runs: 60,
            seed: 1,
            threads: 2,
        };
        let s = sensitivity(&chase, config, &|_| {}, &never);
        let mut checked = 0;
        for u in &s.units {
            let raider = u.name.starts_with("Raider");
            assert_eq!(u.out_of_group.is_some(), raider, "{}", u.name);
            let Some(Outcome::Fought(alone)) = &u.out_of_group else {
                continue;
            };
            for step in [&u.weaker, &u.stronger] {
                let Outcome::Fought(e) = step else {
                    panic!("{}: a step not fought", u.name)
                };
                let measured = e.win_rate - alone.win_rate;
                assert!((e.change.difference - measured).abs() < 1e-12, "{}", u.name);
            }
            checked += 1;
        }
        assert_eq!(checked, 3);
        assert!(s.to_text().contains("Out of their template's group"));
    }

    /// SOCS: a step turns the Gunner of whoever fires (gurps-lite-and-socs.txt, "FIRE
    /// PHASE"). The Dread Tyrant's three batteries have gunners of their own (12, 12, 14):
    /// each is turned, and its helmsman (Gunner 0, who fires nothing) and the warlord aboard
    /// are not, so a step weaker is no longer refused for the helmsman's Gunner of −2.
    #[test]
    fn a_socs_step_turns_the_gunners_who_fire() {
        use crate::rules::socs::CraftStats;
        let furball = load("socs-furball.ron");
        let i = (furball.file.units.iter())
            .position(|u| u.name == "Dread Tyrant")
            .expect("the Dread Tyrant");
        let craft = |f: &ScenarioFile| {
            f.units[i]
                .stats
                .as_ref()
                .expect("written out")
                .0
                .get::<CraftStats>()
                .cloned()
        };
        let gunners = |c: &CraftStats| -> Vec<i32> {
            c.weapons
                .iter()
                .filter_map(|w| w.gunner.as_ref())
                .map(|g| g.gunner)
                .collect()
        };
        for (steps, expected) in [(1, [14, 14, 16]), (-1, [10, 10, 12])] {
            let varied = varied(&furball.file, i, steps).expect("a step");
            validate(varied.clone()).expect("still a valid scenario");
            let c = craft(&varied).expect("SOCS stats");
            assert_eq!(gunners(&c), expected, "{steps}");
            assert_eq!(c.pilot.gunner, 0, "{steps}");
            assert_eq!(c.aboard[0].gunner, 0, "{steps}");
        }
        // A fighter's pilot fires its guns: the pilot is turned (Corsair, Gunner 12).
        let raider = furball
            .file
            .templates
            .get("raider")
            .expect("raider")
            .0
            .get::<CraftStats>();
        assert_eq!(raider.map(|r| r.pilot.gunner), Some(12));
        let j = (furball.file.units.iter())
            .position(|u| u.name == "Raider A")
            .expect("Raider A");
        let up = varied(&furball.file, j, 1).expect("a step");
        let pilot = up.units[j]
            .stats
            .as_ref()
            .expect("written out")
            .0
            .get::<CraftStats>();
        assert_eq!(pilot.map(|p| p.pilot.gunner), Some(14));
    }

    /// The farmyard firefight: removing any unit can only be judged against the same seeds;
    /// the patrol's win rate as written is preview's, the units come largest change first,
    /// and removing Hask, the raiders' rifleman, costs his side significantly. In the duel a
    /// side without its only fighter is not a scenario: not possible, with the reason.
    #[test]
    fn who_matters_in_the_farmyard_and_the_duel() {
        let config = PreviewConfig {
            runs: 60,
            seed: 1,
            threads: 2,
        };
        let never = AtomicBool::new(false);
        let farm = load("gurps-skirmish-3v3.ron");
        let s = sensitivity(&farm, config, &|_| {}, &never);
        let preview = super::super::run_preview(farm.clone(), config, &|_| {}, &never);
        assert_eq!(s.win_rates["patrol"], preview.sides[0].wins.rate);
        assert_eq!(s.units.len(), 6);
        let sizes: Vec<f64> = s
            .units
            .iter()
            .map(|u| u.without.change().expect("fought").abs())
            .collect();
        assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "{sizes:?}");
        let hask = s.units.iter().find(|u| u.name == "Hask").expect("Hask");
        let Outcome::Fought(e) = &hask.without else {
            panic!("fought")
        };
        assert!(e.change.difference < 0.0 && e.change.significant(), "{e:?}");

        let duel = load("gurps-duel.ron");
        let s = sensitivity(&duel, PreviewConfig { runs: 10, ..config }, &|_| {}, &never);
        for u in &s.units {
            let Outcome::NotPossible(why) = &u.without else {
                panic!("{} removed was fought", u.name)
            };
            assert!(why.contains("has no units"), "{why}");
            assert!(matches!(u.stronger, Outcome::Fought(_)));
        }
        // The table says what a step is in the ruleset.
        assert_eq!(
            s.step,
            "2 levels of every skill the stat block writes out or its GCS file gives, and of \
             every weapon with a level (its parry 1 more)"
        );
        assert!(
            s.to_text().contains(
                "; a step is 2 levels of every skill the stat block writes out or its GCS"
            ),
            "{}",
            s.to_text()
        );
    }
}
