//! A seventh ruleset that lives only in the tests: the **d6 duel**, to show that a ruleset
//! is one type behind the contract (`skirmish::scenario::Ruleset`) and one registry line,
//! with nothing to change outside its own files (`docs/adding-a-ruleset.md` walks through
//! it).
//!
//! The rules, whole: in each round every duelist still standing acts once, in unit order,
//! and strikes one foe or waits. A strike rolls 1d6 and hits on a face no higher than the
//! striker's Skill (so it hits with probability Skill/6); a hit costs the foe one Wound,
//! and a duelist with no Wounds left is down. The AI strikes the foe with the fewest
//! Wounds left (the first in unit order among equals).
//!
//! A duelist's state is its entity's [`Duelist`] component; the systems query it.

use bevy::ecs::prelude::{
    Component, Entity, IntoScheduleConfigs, MessageWriter, Query, Res, ResMut, Schedule,
};
use bevy::ecs::world::{EntityWorldMut, World};
use serde::{Deserialize, Serialize};
use skirmish::battle::{
    self, AttackResult, AwaitedDecision, BattleEvent, BattleSet, Combatant, Command, Outcome,
    Standing, TurnState, UnitId,
};
use skirmish::dice::{BattleRng, DiceName, DieRoller, Modifier, RollRecord, RollSense};
use skirmish::format::{Path, Problem};
use skirmish::scenario::{Prepared, Ruleset, ScenarioFile};
use std::sync::Arc;

/// The ruleset (id `d6-duel`, tag `D6Duel`).
pub struct D6Duel;

/// The scenario's settings: none but an optional bonus to every strike.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DuelConfig {
    /// Added to every striker's Skill (-5 to 5; default 0).
    #[serde(default)]
    pub bonus: i32,
}

/// A duelist's stat block.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DuelStats {
    /// Hits on 1d6 at or under this (1 to 6).
    pub skill: i32,
    /// Wounds it can take (1 to 20).
    pub wounds: i32,
}

/// One decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum DuelAction {
    /// Strike this foe.
    Strike(UnitId),
    /// Do nothing this round.
    Wait,
}

/// A duelist's own state.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct Duelist {
    /// Skill with the scenario's bonus.
    pub skill: i32,
    /// Wounds left.
    pub wounds: i32,
    /// Wounds at the start.
    pub max_wounds: i32,
    /// Acted this round.
    pub acted: bool,
}

/// The chance that a strike at `skill` hits: faces 1 to `skill` of a d6.
pub fn hit_chance(skill: i32) -> f64 {
    f64::from(skill.clamp(0, 6)) / 6.0
}

/// Whether `face` hits at `skill`.
pub fn hits(face: u32, skill: i32) -> bool {
    i64::from(face) <= i64::from(skill)
}

/// The record of a strike that rolled `face` at `skill`.
pub fn strike_roll(face: u32, skill: i32) -> RollRecord {
    let hit = hits(face, skill);
    RollRecord {
        drawn: Default::default(),
        dice: DiceName::Fixed("1d6"),
        faces: vec![face],
        extra: Vec::new(),
        sense: RollSense::Under,
        modifiers: vec![Modifier::new("Skill", skill)],
        total: face as i32,
        target: Some(skill),
        target_parts: Vec::new(),
        margin: Some(skill - face as i32),
        success: Some(hit),
        critical: None,
    }
}

impl Ruleset for D6Duel {
    const ID: &'static str = "d6-duel";
    const TAG: &'static str = "D6Duel";
    const NEW_SCENARIO: &'static str = include_str!("d6-duel.ron");
    type Config = DuelConfig;
    type Stats = DuelStats;
    type Sheet = DuelStats;
    type Action = DuelAction;

    fn scale(_: &DuelConfig) -> (f32, &'static str) {
        (1.0, "m")
    }

    fn check(config: &DuelConfig, _: &ScenarioFile) -> Vec<Problem> {
        if (-5..=5).contains(&config.bonus) {
            Vec::new()
        } else {
            vec![Problem::new(
                Path::root().field("ruleset").field("bonus"),
                format!("bonus {} is out of range: expected -5 to 5", config.bonus),
            )]
        }
    }

    fn resolve(
        _: &DuelConfig,
        _: &ScenarioFile,
        stats: &[&DuelStats],
    ) -> Vec<Result<DuelStats, Vec<Problem>>> {
        stats
            .iter()
            .map(|s| {
                let mut problems = Vec::new();
                if !(1..=6).contains(&s.skill) {
                    problems.push(Problem::new(
                        Path::root().field("skill"),
                        format!("skill {} is out of range: expected 1 to 6", s.skill),
                    ));
                }
                if !(1..=20).contains(&s.wounds) {
                    problems.push(Problem::new(
                        Path::root().field("wounds"),
                        format!("wounds {} is out of range: expected 1 to 20", s.wounds),
                    ));
                }
                if problems.is_empty() {
                    Ok((*s).clone())
                } else {
                    Err(problems)
                }
            })
            .collect()
    }

    fn configure(schedule: &mut Schedule) {
        schedule.add_systems((
            begin.in_set(BattleSet::Begin),
            decide.in_set(BattleSet::Decide),
            resolve.in_set(BattleSet::Resolve),
        ));
    }

    fn init(world: &mut World, _: &Prepared, config: &DuelConfig) {
        world.insert_resource(Bonus(config.bonus));
    }

    fn reset(_: &mut World, _: &Prepared, _: &DuelConfig) {}

    fn spawn(entity: &mut EntityWorldMut, sheet: &Arc<DuelStats>) {
        let bonus = entity.world().resource::<Bonus>().0;
        entity.insert((
            Combatant,
            Duelist {
                skill: sheet.skill + bonus,
                wounds: sheet.wounds,
                max_wounds: sheet.wounds,
                acted: false,
            },
        ));
    }

    fn unit_line(world: &World, entity: Entity, _: UnitId) -> String {
        world.get::<Duelist>(entity).map_or(String::new(), |d| {
            format!(", {}/{} wounds", d.wounds, d.max_wounds)
        })
    }

    /// Waiting, or a strike at each foe still standing.
    fn legal_actions(world: &World, unit: UnitId) -> Vec<DuelAction> {
        let roster = world.resource::<battle::Roster>();
        let side = |id: UnitId| roster.units.get(id.0 as usize).map(|u| u.side);
        let standing = |id: UnitId| {
            roster
                .entity(id)
                .and_then(|e| world.get::<Standing>(e))
                .is_some_and(|s| s.fighting())
        };
        let mut v = vec![DuelAction::Wait];
        for i in 0..roster.units.len() as u32 {
            let foe = UnitId(i);
            if side(foe) != side(unit) && standing(foe) {
                v.push(DuelAction::Strike(foe));
            }
        }
        v
    }

    /// A strike's chance: the striker's Skill in six.
    fn attack_odds(world: &World, unit: UnitId, action: &DuelAction) -> Option<f64> {
        let DuelAction::Strike(_) = action else {
            return None;
        };
        let entity = world.resource::<battle::Roster>().entity(unit)?;
        world.get::<Duelist>(entity).map(|d| hit_chance(d.skill))
    }

    fn health(world: &World, entity: Entity, _: UnitId) -> f32 {
        world
            .get::<Duelist>(entity)
            .map_or(1.0, |d| d.wounds.max(0) as f32 / d.max_wounds.max(1) as f32)
    }
}

/// The scenario's bonus to every strike.
#[derive(bevy::ecs::resource::Resource, Clone, Copy, Debug)]
struct Bonus(i32);

type Duelists<'w, 's> = Query<
    'w,
    's,
    (
        &'static UnitId,
        &'static battle::Side,
        &'static mut Duelist,
        &'static mut Standing,
    ),
>;

/// Starts the next duelist's turn (and a new round when everyone has acted).
fn begin(
    mut turn: ResMut<TurnState>,
    outcome: Res<Outcome>,
    mut duelists: Duelists,
    mut out: MessageWriter<BattleEvent>,
) {
    if outcome.0.is_some() || turn.awaiting.is_some() {
        return;
    }
    let next = |d: &Duelists| {
        let mut ready: Vec<UnitId> = d
            .iter()
            .filter(|(_, _, duelist, standing)| standing.fighting() && !duelist.acted)
            .map(|(id, ..)| *id)
            .collect();
        ready.sort();
        ready.first().copied()
    };
    if turn.round == 0 || turn.round_over || next(&duelists).is_none() {
        turn.round += 1;
        turn.round_over = false;
        for (_, _, mut d, _) in &mut duelists {
            d.acted = false;
        }
        out.write(BattleEvent::RoundStarted { round: turn.round });
    }
    if let Some(unit) = next(&duelists) {
        turn.awaiting = Some(unit);
        out.write(BattleEvent::TurnStarted { unit });
    }
}

/// The AI's strike: the foe with the fewest wounds left.
fn decide(
    turn: Res<TurnState>,
    autopilot: Res<battle::Autopilot>,
    roster: Res<battle::Roster>,
    controllers: Query<&battle::Controller>,
    duelists: Duelists,
    mut commands: MessageWriter<Command<DuelAction>>,
) {
    let Some(me) = turn.awaiting else { return };
    if !battle::ai_decides(&roster, &controllers, autopilot.0, me) {
        return;
    }
    let my_side = duelists
        .iter()
        .find(|(id, ..)| **id == me)
        .map(|(_, s, ..)| s.0);
    let target = duelists
        .iter()
        .filter(|(_, side, _, standing)| Some(side.0) != my_side && standing.fighting())
        .min_by_key(|(id, _, d, _)| (d.wounds, **id))
        .map(|(id, ..)| *id);
    commands.write(Command {
        unit: me,
        action: target.map_or(DuelAction::Wait, DuelAction::Strike),
    });
}

/// Checks and resolves the awaited duelist's decision.
fn resolve(
    mut decision: AwaitedDecision<DuelAction>,
    mut rng: ResMut<BattleRng>,
    mut duelists: Duelists,
    mut out: MessageWriter<BattleEvent>,
) {
    let mut events = Vec::new();
    let foe_standing = |d: &Duelists, me: UnitId, target: UnitId| {
        let side = |u: UnitId| d.iter().find(|(id, ..)| **id == u).map(|(_, s, ..)| s.0);
        let standing = d.iter().find(|(id, ..)| **id == target).map(|(.., st)| *st);
        side(me) != side(target) && standing.is_some_and(|s| s.fighting())
    };
    let taken = decision.take(
        |me, action| match action {
            DuelAction::Strike(t) if !foe_standing(&duelists, me, *t) => {
                Err("the target is not a foe still standing".to_string())
            }
            _ => Ok(()),
        },
        |_| DuelAction::Wait,
        &mut events,
    );
    let Some((me, action)) = taken else {
        out.write_batch(events);
        return;
    };
    decision.turn.awaiting = None;
    let skill = duelists
        .iter()
        .find(|(id, ..)| **id == me)
        .map_or(0, |(_, _, d, _)| d.skill);
    for (id, _, mut d, _) in &mut duelists {
        if *id == me {
            d.acted = true;
        }
    }
    match action {
        DuelAction::Wait => events.push(BattleEvent::ActionChosen {
            unit: me,
            action: "wait".into(),
        }),
        DuelAction::Strike(target) => {
            events.push(BattleEvent::ActionChosen {
                unit: me,
                action: format!("strike unit {}", target.0),
            });
            let face = rng.roll_die(6);
            let roll = strike_roll(face, skill);
            let hit = roll.succeeded();
            events.push(BattleEvent::Attack {
                attacker: me,
                target,
                weapon: "strike".into(),
                roll,
                defenses: Vec::new(),
                result: if hit {
                    AttackResult::Hit
                } else {
                    AttackResult::Miss
                },
            });
            if hit {
                for (id, _, mut d, mut standing) in &mut duelists {
                    if *id == target {
                        d.wounds -= 1;
                        if d.wounds <= 0 {
                            *standing = Standing::Unconscious;
                            events.push(BattleEvent::StatusChanged {
                                unit: target,
                                standing: Standing::Unconscious,
                                cause: "no wounds left".into(),
                            });
                        }
                    }
                }
            }
        }
    }
    if duelists
        .iter()
        .all(|(_, _, d, standing)| d.acted || !standing.fighting())
    {
        decision.turn.round_over = true;
    }
    out.write_batch(events);
}
