//! The table's part of a battle in play: dice a side's players roll themselves (the roll
//! waiting for its faces, [`DiceRequest`]), the game master's edits and take-overs of AI
//! units, and the own-dice switches; each one an entry of the recording, played again at
//! the same point by a replay.

use super::{Advance, Decision, Mark, Play, ReplayError, TableEntry};
use crate::battle::{BattleEvent, Control, Controller, GmChange, UnitId};
use crate::dice::{BattleRng, Modifier, RollRecord, RollSense};
use crate::session::Session;
use hexx::Hex;

/// A roll of a unit whose player rolls their own dice, waiting for its faces: what the
/// window's dice prompt shows ([`Play::pending_dice`]).
#[derive(Clone, Debug, PartialEq)]
pub struct DiceRequest {
    /// Whose roll.
    pub unit: UnitId,
    /// What the roll is for, in words ("attack on Bruno with Broadsword").
    pub purpose: String,
    /// The dice to roll now, in words ("3d6", "1 more d6").
    pub dice: String,
    /// How many dice to enter now.
    pub count: usize,
    /// Their sides.
    pub sides: u32,
    /// The roll's labelled modifiers (for a roll-under roll, the parts of its target).
    pub modifiers: Vec<Modifier>,
    /// What the roll must reach (roll-over) or not exceed (roll-under), if anything.
    pub target: Option<i32>,
    /// How the numbers combine.
    pub sense: RollSense,
    /// The faces already entered for this roll (a roll that goes on: a second d12, an
    /// exploding six).
    pub entered: Vec<u32>,
    /// The index of the first die to enter among the battle's dice.
    pub draw: u64,
    /// What the step that makes the roll did before it, as the log tells it, a line each
    /// (the move before an attack, a GURPS attack before the defense against it). While
    /// the roll waits the battle stands before that step, so the window shows these lines
    /// with the prompt.
    pub before: Vec<String>,
    /// Where the units that step moved before the roll stand when it is made (the last
    /// hex of each one's moves and knockbacks): the window draws them there while the roll
    /// waits.
    pub moved: Vec<(UnitId, Hex)>,
}

impl DiceRequest {
    /// Whether `faces` fit the request (count and sides), or why not.
    pub fn check(&self, faces: &[u32]) -> Result<(), String> {
        if faces.len() != self.count {
            return Err(format!(
                "{} asks for {} face{}, not {}",
                self.dice,
                self.count,
                if self.count == 1 { "" } else { "s" },
                faces.len()
            ));
        }
        if let Some(bad) = faces.iter().find(|&&f| f < 1 || f > self.sides) {
            return Err(format!(
                "{bad} is not a face of a d{} (1 to {})",
                self.sides, self.sides
            ));
        }
        Ok(())
    }
}

/// A roll found waiting for faces, and what to do again once they are entered.
#[derive(Clone)]
pub(super) struct Pending {
    pub(super) request: DiceRequest,
    /// The decision whose resolution rolled it (`None`: an AI step).
    pub(super) redo: Option<Decision>,
}

impl Play {
    // The table: dice rolled by hand, GM edits, take-overs.

    /// Whether the players of side `side` (its id) roll their own dice now.
    pub fn own_dice(&self, side: &str) -> bool {
        self.own.iter().any(|s| s == side)
    }

    /// Lets the players of side `side` (its id) roll their own dice, or hands their rolls
    /// back to the program, from the next roll on. Before the first step it is the
    /// battle's setting (the save's `own_dice`); later, an entry of the recording, so a
    /// replay switches at the same point. Nothing changes while a roll waits for dice, or
    /// when the side is already so.
    pub fn set_own_dice(&mut self, side: &str, on: bool) {
        if self.pending.is_some() || self.own_dice(side) == on {
            return;
        }
        self.script.clear();
        switch(&mut self.own, side, on);
        if self.steps == 0 && self.recording.decisions.is_empty() {
            self.recording.own_dice = self.own.clone();
        } else {
            self.recording
                .decisions
                .push(Decision::table(TableEntry::OwnDice {
                    at: self.steps,
                    side: side.to_string(),
                    on,
                }));
        }
    }

    /// The roll waiting for the faces its player rolled at the table, if any.
    pub fn pending_dice(&self) -> Option<&DiceRequest> {
        self.pending.as_ref().map(|p| &p.request)
    }

    /// Enters the faces rolled at the table for the roll waiting for them: checked
    /// against the dice asked for (count and sides; nothing changes when they do not fit),
    /// recorded, and the battle goes on with them (which may ask for more dice: the roll
    /// going on, or the next roll).
    pub fn enter_dice(&mut self, faces: &[u32]) -> Result<(), String> {
        let Some(pending) = &self.pending else {
            return Err("no roll waits for dice".to_string());
        };
        pending.request.check(faces)?;
        let Some(Pending { request, redo }) = self.pending.take() else {
            return Err("no roll waits for dice".to_string());
        };
        self.session
            .world
            .resource_mut::<BattleRng>()
            .enter(request.draw, faces);
        self.recording
            .decisions
            .push(Decision::table(TableEntry::Dice {
                unit: request.unit,
                draw: request.draw,
                faces: faces.to_vec(),
            }));
        match redo {
            Some(decision) => self.apply(decision),
            None => match self.advance() {
                Advance::ReplayFailed(e) => Err(e.reason),
                _ => Ok(()),
            },
        }
    }

    /// What the game master may change on `unit` now (its ruleset's fields, `battle::gm`).
    pub fn gm_fields(&self, unit: UnitId) -> Vec<crate::battle::GmField> {
        let session = &self.session;
        session
            .roster()
            .entity(unit)
            .map(|e| session.prepared().rules.gm_fields(&session.world, e))
            .unwrap_or_default()
    }

    /// The game master's edit of `unit` (`battle::gm`), with the reason given: applied
    /// and logged when the rules accept it ([`Session::gm_edit`]), and recorded so that a
    /// replay makes it at the same point; the change in words, or why it was refused
    /// (nothing changes then).
    pub fn gm_edit(
        &mut self,
        unit: UnitId,
        change: GmChange,
        reason: &str,
    ) -> Result<String, String> {
        if self.pending.is_some() {
            return Err("a roll waits for its dice: enter them first".to_string());
        }
        self.script.clear();
        let words = self.session.gm_edit(unit, &change, reason)?;
        self.recording
            .decisions
            .push(Decision::table(TableEntry::Gm {
                at: self.steps,
                unit,
                change,
                reason: reason.trim().to_string(),
            }));
        Ok(words)
    }

    /// The game master takes the next decision of the AI's `unit`: the battle waits for it
    /// as for a player's ([`Play::awaiting_player`], [`Play::decide`]), and the AI decides
    /// for it again after that one decision. Recorded, so a replay does the same.
    pub fn take_over(&mut self, unit: UnitId) -> Result<(), String> {
        if self.pending.is_some() {
            return Err("a roll waits for its dice: enter them first".to_string());
        }
        if self.session.outcome().is_some() {
            return Err("the battle is over".to_string());
        }
        self.script.clear();
        take_over(&mut self.session, &mut self.taken, unit)?;
        self.recording
            .decisions
            .push(Decision::table(TableEntry::TakeOver {
                at: self.steps,
                unit,
            }));
        Ok(())
    }

    /// True when the GM has taken `unit`'s next decision from the AI.
    pub fn taken_over(&self, unit: UnitId) -> bool {
        self.taken.iter().any(|(u, _)| *u == unit)
    }

    /// Plays the table's entries at the front of the script that are due at this step
    /// (GM edits, take-overs; dice are in place since the rewind and only rejoin the
    /// recording here).
    pub(super) fn play_due(&mut self) -> Result<(), ReplayError> {
        while let Some(entry) = self.script.front().and_then(|d| d.table_entry()).cloned() {
            match entry.at() {
                Some(at) if at > self.steps => break,
                Some(at) if at < self.steps => {
                    let decision = self.script.pop_front().unwrap_or_else(|| {
                        Decision::table(entry.clone()) // the front, just read
                    });
                    let reason = format!(
                        "it was made at step {at}, but the battle is at step {} here",
                        self.steps
                    );
                    return Err(self.replay_error(&decision, reason));
                }
                _ => {}
            }
            let Some(decision) = self.script.pop_front() else {
                break;
            };
            let played = match &entry {
                TableEntry::Dice { .. } => Ok(()),
                TableEntry::Gm {
                    unit,
                    change,
                    reason,
                    ..
                } => self.session.gm_edit(*unit, change, reason).map(|_| ()),
                TableEntry::TakeOver { unit, .. } => {
                    take_over(&mut self.session, &mut self.taken, *unit)
                }
                TableEntry::OwnDice { side, on, .. } => {
                    if self.session.sides().0.iter().any(|s| s.id == *side) {
                        switch(&mut self.own, side, *on);
                        Ok(())
                    } else {
                        Err(format!("no side `{side}` in the scenario"))
                    }
                }
            };
            if let Err(reason) = played {
                return Err(self.replay_error(&decision, reason));
            }
            self.recording.decisions.push(decision);
        }
        Ok(())
    }

    /// The recording's entries and then the script's, each with its place in the save:
    /// after a decision in flight (`in_flight`: off the script, not yet recorded), the
    /// script's places count it.
    fn numbered(&self, in_flight: bool) -> impl Iterator<Item = (usize, &Decision)> + Clone {
        let recorded = self.recording.decisions.len();
        let gap = usize::from(in_flight);
        (self.recording.decisions.iter().enumerate()).chain(
            self.script
                .iter()
                .enumerate()
                .map(move |(k, d)| (recorded + gap + k, d)),
        )
    }

    /// A dice entry that did not fit its die (the battle used the generator's face), as a
    /// replay error at that entry.
    pub(super) fn check_dice(&self) -> Result<(), ReplayError> {
        let rng = self.session.world.resource::<BattleRng>();
        let roster = self.session.roster();
        // Faces entered for the first dice of the roll waiting for more are for dice the
        // battle, put back before that roll, has not drawn yet.
        let waiting_from = self.pending.as_ref().map(|p| p.request.draw);
        let in_flight = self.pending.as_ref().is_some_and(|p| p.redo.is_some());
        let all = self.numbered(in_flight);
        for (index, d) in all.clone() {
            let Some(TableEntry::Dice { unit, draw, faces }) = d.table_entry() else {
                continue;
            };
            let end = draw.checked_add(faces.len() as u64);
            let for_waiting = waiting_from.is_some_and(|w| *draw >= rng.count() && *draw < w);
            let reason = if roster.entity(*unit).is_none() {
                format!("there is no unit {} in this battle", unit.0)
            } else if faces.is_empty() {
                "no faces are entered".to_string()
            } else if end.is_none() {
                format!("die index {draw} is past any battle's dice")
            } else if end.is_some_and(|e| e > rng.count()) && !for_waiting {
                match rng.count() {
                    0 => "faces entered for dice the battle never rolled (it rolled none)"
                        .to_string(),
                    n => format!(
                        "faces entered for dice the battle never rolled (it rolled {n} dice, \
                         indices 0 to {})",
                        n - 1
                    ),
                }
            } else {
                continue;
            };
            return Err(ReplayError {
                index,
                unit: *unit,
                name: roster.name(*unit).to_string(),
                reason,
                no_unit: false,
            });
        }
        match self.misfit_error(in_flight, 0) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The first entered face that did not fit its die, drawn at index `from` or later,
    /// as the replay error of the dice entry that gave it (`in_flight`: as
    /// [`Play::numbered`]).
    fn misfit_error(&self, in_flight: bool, from: u64) -> Option<ReplayError> {
        let misfit = self
            .session
            .world
            .resource::<BattleRng>()
            .misfit()
            .filter(|m| m.draw >= from)?;
        let (index, unit) = self
            .numbered(in_flight)
            .find_map(|(k, d)| match d.table_entry() {
                Some(TableEntry::Dice { unit, draw, faces })
                    if (*draw..draw.saturating_add(faces.len() as u64)).contains(&misfit.draw) =>
                {
                    Some((k, *unit))
                }
                _ => None,
            })?;
        Some(ReplayError {
            index,
            unit,
            name: self.session.roster().name(unit).to_string(),
            reason: format!(
                "the die at index {} is a d{}, and {} is not one of its faces",
                misfit.draw, misfit.sides, misfit.face
            ),
            no_unit: false,
        })
    }

    /// Faces entered by hand that the step since `mark` used for a roll they were not
    /// entered for: a roll of another unit than the dice entry names, or a face the die
    /// drawn at its index does not have (a save edited by hand). As the replay error of
    /// that dice entry. Live play enters faces only for the roll that asks for them, so
    /// this finds nothing there.
    /// `in_flight`: a decision taken off the script and not recorded yet is being played
    /// (its place counts in the numbers of the entries after it).
    pub(super) fn misused_dice(&self, mark: &Mark, in_flight: bool) -> Option<ReplayError> {
        let rng = self.session.world.resource::<BattleRng>();
        if !(mark.drawn..rng.count()).any(|i| rng.is_entered(i)) {
            return None;
        }
        let roster = self.session.roster();
        let entries: Vec<(usize, UnitId, u64, usize)> = self
            .numbered(in_flight)
            .filter_map(|(k, d)| match d.table_entry() {
                Some(TableEntry::Dice { unit, draw, faces }) => {
                    Some((k, *unit, *draw, faces.len()))
                }
                _ => None,
            })
            .collect();
        let entry_for = |index: u64| {
            entries
                .iter()
                .find(|(_, _, draw, n)| (*draw..draw.saturating_add(*n as u64)).contains(&index))
        };
        let error = |k: usize, unit: UnitId, reason: String| ReplayError {
            index: k,
            unit,
            name: roster.name(unit).to_string(),
            reason,
            no_unit: false,
        };
        if let Some(e) = self.misfit_error(in_flight, mark.drawn) {
            return Some(e);
        }
        for entry in &self.session.log().entries[mark.log.min(self.session.log().entries.len())..] {
            for (roller, purpose, roll) in rolls_of(&entry.event, roster) {
                let Some(first) = roll.drawn.first.filter(|&f| f >= mark.drawn) else {
                    continue;
                };
                // The roll's first dice (as many as its name says: 3 for 3d6) are drawn
                // together; the dice it goes on with (an exploding six, a second d12) may
                // come after other rolls' dice, so only the first are surely its own.
                let all = roll.faces.len() + roll.extra.len();
                let Some((base, _)) = roll.dice.shape() else {
                    continue;
                };
                let dice = (base as usize).clamp(1, all.max(1)) as u64;
                for index in first..first + dice {
                    if let Some(&(k, unit, _, _)) = entry_for(index)
                        && unit != roller
                    {
                        let reason = format!(
                            "the die at index {index} was rolled by {} ({purpose}), not by {}",
                            roster.name(roller),
                            roster.name(unit)
                        );
                        return Some(error(k, unit, reason));
                    }
                }
            }
        }
        None
    }

    /// The first roll made since `mark` by a unit whose players roll their own dice with a
    /// die not entered yet (none while replaying recorded entries: a recording has its
    /// dice).
    pub(super) fn find_roll(&self, mark: &Mark) -> Option<DiceRequest> {
        if self.quiet || self.own.is_empty() || !self.script.is_empty() {
            return None;
        }
        let session = &self.session;
        let roster = session.roster();
        let sides = session.sides();
        let rng = session.world.resource::<BattleRng>();
        let own = |unit: UnitId| {
            roster
                .units
                .get(unit.0 as usize)
                .and_then(|u| sides.0.get(usize::from(u.side)))
                .is_some_and(|s| self.own.contains(&s.id))
        };
        let entries = &session.log().entries[mark.log..];
        for (k, entry) in entries.iter().enumerate() {
            let rolls = rolls_of(&entry.event, roster);
            for (n, (unit, purpose, roll)) in rolls.iter().enumerate() {
                if !own(*unit) {
                    continue;
                }
                if let Some(mut request) =
                    request_for(*unit, purpose.clone(), roll, rng, mark.drawn)
                {
                    // The event's rolls made before this one: an event may list its
                    // rolls out of the order they were made (a Vergeworlds defense is
                    // rolled before the attack it answers, and listed after it).
                    let first = roll.drawn.first;
                    let earlier: Vec<_> = (rolls[..n].iter())
                        .filter(|(_, _, r)| r.drawn.first < first)
                        .cloned()
                        .collect();
                    (request.before, request.moved) = lead_up(&entries[..k], &earlier, session);
                    return Some(request);
                }
            }
        }
        None
    }

    /// Puts the battle back to before the step that made `request`'s roll and waits for
    /// its faces; `redo` is the decision to send again once they are entered.
    pub(super) fn wait_for_dice(
        &mut self,
        steps: u64,
        request: DiceRequest,
        redo: Option<Decision>,
    ) {
        self.rewind_to(steps);
        self.pending = Some(Pending { request, redo });
    }

    /// Drops the roll waiting for its dice. When a player's decision rolled it, the faces
    /// already entered for it (a roll that went on) go too: the decision is not made. When
    /// an AI step rolled it they stay: the step runs again and rolls them. The pending
    /// entry, if there was one.
    pub(super) fn drop_pending(&mut self) -> Option<Pending> {
        let pending = self.pending.take()?;
        if pending.redo.is_some() {
            self.forget_undrawn();
        }
        Some(pending)
    }

    /// Drops the dice entries for dice the battle has not drawn (entered for a roll that
    /// is no longer to come), from the recording and the generator.
    pub(super) fn forget_undrawn(&mut self) {
        let drawn = self.session.world.resource::<BattleRng>().count();
        self.recording.drop_dice_from(drawn);
        self.session
            .world
            .resource_mut::<BattleRng>()
            .forget_from(drawn);
    }
}

/// What a step did before the roll that waits for dice: the lines of its `events` before
/// the one that holds the roll, then the rolls of that event made before it (`earlier`: an
/// attack before the defense against it); and where the units moved by those events stand
/// (the last hex of each one's moves and knockbacks, in the order they first moved).
fn lead_up(
    events: &[crate::battle::LogEntry],
    earlier: &[(UnitId, String, &RollRecord)],
    session: &Session,
) -> (Vec<String>, Vec<(UnitId, Hex)>) {
    let (roster, sides) = (session.roster(), session.sides());
    let mut lines: Vec<String> = events
        .iter()
        .flat_map(|e| {
            crate::battle::format_event(&e.event, roster, sides)
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    lines.extend(
        earlier
            .iter()
            .map(|(unit, purpose, roll)| format!("{}, {purpose}: {roll}", roster.name(*unit))),
    );
    let mut moved: Vec<(UnitId, Hex)> = Vec::new();
    for e in events {
        let (unit, path) = match &e.event {
            BattleEvent::Moved { unit, path, .. } | BattleEvent::Knockback { unit, path, .. } => {
                (*unit, path)
            }
            _ => continue,
        };
        let Some(&(q, r)) = path.last() else { continue };
        match moved.iter_mut().find(|(u, _)| *u == unit) {
            Some((_, at)) => *at = Hex::new(q, r),
            None => moved.push((unit, Hex::new(q, r))),
        }
    }
    (lines, moved)
}

/// The rolls an event shows with the unit that rolled each ([`BattleEvent::rolls`]) and
/// what for, in words.
pub(super) fn rolls_of<'a>(
    event: &'a BattleEvent,
    roster: &crate::battle::Roster,
) -> Vec<(UnitId, String, &'a RollRecord)> {
    let purpose = |i: usize| match event {
        BattleEvent::Roll { purpose, .. } => purpose.to_string(),
        BattleEvent::Attack {
            attacker,
            target,
            weapon,
            defenses,
            ..
        } => match i.checked_sub(1).and_then(|d| defenses.get(d)) {
            None => format!("attack on {} with {weapon}", roster.name(*target)),
            Some(d) => format!("{} against {}", d.defense, roster.name(*attacker)),
        },
        BattleEvent::Damage { target, .. } => format!("damage to {}", roster.name(*target)),
        _ => String::new(),
    };
    event
        .rolls()
        .into_iter()
        .enumerate()
        .filter_map(|(i, (unit, roll))| unit.map(|u| (u, purpose(i), roll)))
        .collect()
}

/// The dice still to enter for `roll` of `unit`, drawn since index `since`: its first
/// dice (as many as its name says: 3 for 3d6) when none is entered, else the next one
/// (a second d12, an exploding six, an open-ended roll going on). `None` when every die is
/// entered, or the roll's dice were drawn before `since` or are not counted.
pub(super) fn request_for(
    unit: UnitId,
    purpose: String,
    roll: &RollRecord,
    rng: &BattleRng,
    since: u64,
) -> Option<DiceRequest> {
    let first = roll.drawn.first.filter(|&f| f >= since)?;
    let all: Vec<u32> = roll.faces.iter().chain(&roll.extra).copied().collect();
    let (base, sides) = roll.dice.shape()?;
    let missing = (0..all.len()).find(|&i| !rng.is_entered(first + i as u64))?;
    let (count, dice) = if missing == 0 {
        let count = (base as usize).clamp(1, all.len());
        (count, roll.dice.to_string())
    } else {
        (1, format!("1 more d{sides}"))
    };
    let ours = |m: &&Modifier| !matches!(&*m.label, "open-ended" | "each 6 counts 5");
    Some(DiceRequest {
        unit,
        purpose,
        dice,
        count,
        sides,
        modifiers: roll.modifiers.iter().filter(ours).cloned().collect(),
        target: roll.target,
        sense: roll.sense,
        entered: all[..missing].to_vec(),
        draw: first + missing as u64,
        before: Vec::new(),
        moved: Vec::new(),
    })
}

/// Hands the AI's `unit` to the GM for its next decision (its control kept in `taken`).
pub(super) fn take_over(
    session: &mut Session,
    taken: &mut Vec<(UnitId, Control)>,
    unit: UnitId,
) -> Result<(), String> {
    let roster = session.roster();
    let name = roster.name(unit).to_string();
    let Some(entity) = roster.entity(unit) else {
        return Err(format!("there is no unit {} in this battle", unit.0));
    };
    let world = &mut session.world;
    if !world
        .get::<crate::battle::Standing>(entity)
        .is_some_and(|s| s.fighting())
    {
        return Err(format!("{name} is out of the fight"));
    }
    let Some(mut controller) = world.get_mut::<Controller>(entity) else {
        return Err(format!("{name} has no controller"));
    };
    if controller.0 == Control::Player {
        return Err(if taken.iter().any(|(u, _)| *u == unit) {
            format!("{name}'s next decision is already the GM's")
        } else {
            format!("{name} is a player's unit")
        });
    }
    taken.push((unit, controller.0));
    controller.0 = Control::Player;
    Ok(())
}

/// Adds side `side` to the sides that roll their own dice, or takes it out.
pub(super) fn switch(own: &mut Vec<String>, side: &str, on: bool) {
    own.retain(|s| s != side);
    if on {
        own.push(side.to_string());
    }
}

/// Gives a unit the GM took over back to the AI (nothing for any other unit).
pub(super) fn give_back(session: &mut Session, taken: &mut Vec<(UnitId, Control)>, unit: UnitId) {
    let Some(i) = taken.iter().position(|(u, _)| *u == unit) else {
        return;
    };
    let (_, control) = taken.remove(i);
    if let Some(entity) = session.roster().entity(unit)
        && let Some(mut c) = session.world.get_mut::<Controller>(entity)
    {
        c.0 = control;
    }
}
