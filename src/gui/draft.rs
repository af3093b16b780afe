//! The action the player is putting together for the unit whose turn it is: the maneuver
//! chosen in the action panel, and the target and destination picked on the map. Nothing
//! here decides a rule: every choice is checked by the ruleset's own `plan`, and the odds
//! come from the ruleset's own odds code.

use super::Game;
use crate::battle::UnitId;
use crate::rules::gurps::Maneuver;
use crate::rules::gurps::actions::{Legal, Plan, Situation, legal_options, plan};
use crate::rules::gurps::maneuver::Action;
use crate::rules::gurps::odds::{Odds, estimate};
use crate::rules::gurps::snapshot::Snapshot;
use hexx::Hex;

/// The action being built for the awaited unit.
#[derive(Clone, Debug, PartialEq)]
pub struct Draft {
    /// Whose action it is.
    pub unit: UnitId,
    /// The action as chosen so far.
    pub action: Action,
}

impl Draft {
    /// A first proposal for the acting unit of `s`: an Attack on the first foe within
    /// reach, else a Move, else Do Nothing.
    pub fn new(s: &Situation, legal: &Legal) -> Self {
        let mut draft = Self {
            unit: s.me().id,
            action: Action::simple(Maneuver::DoNothing),
        };
        let can_attack = legal.strikes(Maneuver::Attack).any(|(t, w)| {
            let mut a = Action::simple(Maneuver::Attack);
            a.target = Some(t);
            a.weapon = Some(w);
            plan(s, &a).is_ok()
        });
        let first = if can_attack {
            Maneuver::Attack
        } else if legal.get(Maneuver::Move).is_some() {
            Maneuver::Move
        } else {
            Maneuver::DoNothing
        };
        draft.set_maneuver(first, s, legal);
        draft
    }

    /// Switches to `maneuver`, keeping the destination, and the target and weapon when they
    /// still fit; otherwise the first strike the maneuver allows.
    pub fn set_maneuver(&mut self, maneuver: Maneuver, s: &Situation, legal: &Legal) {
        let old = std::mem::replace(&mut self.action, Action::simple(maneuver));
        self.action.to = old.to;
        if maneuver.needs_target() {
            let strikes: Vec<(UnitId, u8)> = legal.strikes(maneuver).collect();
            // The strike chosen before if it still fits; else the first the rules allow
            // from here (in sight, in reach); else the first listed.
            let allowed = |&&(t, w): &&(UnitId, u8)| {
                let mut a = self.action.clone();
                a.target = Some(t);
                a.weapon = Some(w);
                plan(s, &a).is_ok()
            };
            let keep = strikes
                .iter()
                .find(|(t, w)| Some(*t) == old.target && Some(*w) == old.weapon)
                .or_else(|| strikes.iter().find(|(t, _)| Some(*t) == old.target))
                .or_else(|| strikes.iter().find(allowed))
                .or_else(|| strikes.first())
                .copied();
            if let Some((t, w)) = keep {
                self.action.target = Some(t);
                self.action.weapon = Some(w);
            }
        } else if maneuver == Maneuver::Ready {
            self.action.weapon = legal.reloadable().first().copied();
        } else if maneuver == Maneuver::Wait {
            let f = s.me().fighter;
            self.action.weapon = (0..f.sheet.weapons.len())
                .find(|&w| f.can_use(w))
                .map(|w| w as u8);
        }
        if legal.get(maneuver).is_none_or(|o| o.allowance == 0) {
            self.action.to = None;
        }
    }

    /// What a click on `hex` does: on a foe, makes it the target (moving into reach when
    /// the maneuver allows and the foe is out of reach); on the acting unit's own hex,
    /// cancels the move; on another hex, moves there if the maneuver allows. Returns a
    /// short note for the status line.
    pub fn click(&mut self, s: &Situation, legal: &Legal, hex: Hex) -> String {
        let me = s.me();
        if let Some(foe) = s
            .units
            .iter()
            .find(|u| u.pos == hex && u.side != me.side && u.standing.fighting())
        {
            let id = foe.id;
            let mut maneuver = self.action.maneuver;
            if !maneuver.needs_target() {
                // Pick the first attack that can reach this foe.
                if let Some(m) = [
                    Maneuver::Attack,
                    Maneuver::MoveAndAttack,
                    Maneuver::Aim,
                    Maneuver::Evaluate,
                ]
                .into_iter()
                .find(|m| legal.strikes(*m).any(|(t, _)| t == id))
                {
                    maneuver = m;
                }
                self.set_maneuver(maneuver, s, legal);
            }
            let Some((_, weapon)) = legal
                .strikes(maneuver)
                .find(|(t, w)| *t == id && Some(*w) == self.action.weapon)
                .or_else(|| legal.strikes(maneuver).find(|(t, _)| *t == id))
            else {
                return format!("{maneuver} cannot reach that foe this turn");
            };
            self.action.target = Some(id);
            self.action.weapon = Some(weapon);
            if plan(s, &self.action).is_err() {
                self.approach(s, legal);
            }
            return match plan(s, &self.action) {
                Ok(_) => "target chosen".into(),
                Err(e) => e,
            };
        }
        if hex == me.pos {
            self.action.to = None;
            return "staying put".into();
        }
        let allowance = legal.get(self.action.maneuver).map_or(0, |o| o.allowance);
        if allowance == 0 {
            return format!("{} allows no movement", self.action.maneuver);
        }
        match s.path_to(hex, allowance) {
            Ok((_, cost)) => {
                self.action.to = Some(hex);
                format!("move to ({}, {}) for {cost} MP", hex.x, hex.y)
            }
            Err(e) => e,
        }
    }

    /// Picks the cheapest destination within the maneuver's movement from which the
    /// chosen target can be struck, if the target is out of reach from where the unit
    /// would stand.
    pub fn approach(&mut self, s: &Situation, legal: &Legal) {
        let (Some(target), Some(weapon)) = (self.action.target, self.action.weapon) else {
            return;
        };
        let Some(foe) = s.unit(target) else { return };
        let allowance = legal.get(self.action.maneuver).map_or(0, |o| o.allowance);
        let me = s.me();
        let mut best: Option<(u32, u32, Hex)> = None;
        for (hex, _) in s.map.hexes() {
            if hex.unsigned_distance_to(me.pos) > allowance {
                continue;
            }
            if s.can_strike(hex, foe, usize::from(weapon)).is_err() {
                continue;
            }
            let Ok((_, cost)) = s.path_to(hex, allowance) else {
                continue;
            };
            let key = (cost, hex.unsigned_distance_to(foe.pos), hex);
            if best.is_none_or(|b| (key.0, key.1) < (b.0, b.1)) {
                best = Some(key);
            }
        }
        if let Some((_, _, hex)) = best {
            self.action.to = (hex != me.pos).then_some(hex);
        }
    }

    /// The ruleset's check of the action: its plan, or why it is not allowed.
    pub fn check(&self, s: &Situation) -> Result<Plan, String> {
        plan(s, &self.action)
    }
}

/// Every hex the acting unit of `s` can reach within `allowance` movement points, with its
/// cost (by the ruleset's own path search, facing costs included).
pub fn reachable(s: &Situation, allowance: u32) -> Vec<(Hex, u32)> {
    if allowance == 0 {
        return Vec::new();
    }
    let from = s.me().pos;
    from.range(allowance)
        .filter(|&h| h != from && s.map.contains(h))
        .filter_map(|h| s.path_to(h, allowance).ok().map(|(_, cost)| (h, cost)))
        .collect()
}

#[cfg(test)]
mod tests {
    //! The window's play driven without a window: the same calls the map clicks and the
    //! action panel make, on the shipped duel.
    use super::*;
    use crate::battle::{BattleEvent, HexPos};
    use crate::play::{Advance, Play};
    use crate::rules::gurps::actions::legal_options;
    use crate::rules::gurps::snapshot::Snapshot;
    use std::path::PathBuf;
    use std::sync::Arc;

    /// Advances the AI until the player is asked (or the battle ends).
    fn to_player(play: &mut Play) -> Option<UnitId> {
        for _ in 0..10_000 {
            match play.advance() {
                Advance::AwaitingPlayer(u) => return Some(u),
                Advance::Over(_) => return None,
                _ => {}
            }
        }
        None
    }

    fn draft_for(play: &mut Play, unit: UnitId) -> (Snapshot, Legal, Draft) {
        let snapshot = Snapshot::read(&play.session().world, unit).expect("unit");
        let legal = legal_options(&snapshot.situation());
        let draft = Draft::new(&snapshot.situation(), &legal);
        (snapshot, legal, draft)
    }

    fn pos(play: &Play, unit: UnitId) -> Hex {
        let s = play.session();
        let e = s.roster().entity(unit).expect("unit");
        s.world.get::<HexPos>(e).expect("position").0
    }

    /// Select, move, attack and undo as a player of the duel would: click a hex towards
    /// the Black Knight and confirm (Aldric walks there); when he is near, click the
    /// knight (the draft becomes an attack on him, moving into reach if needed) and
    /// confirm (the log has Aldric's attack); undo brings the log back to before it.
    #[test]
    fn a_player_moves_attacks_and_undoes_through_the_drafts() {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/gurps-duel.ron");
        let prepared = Arc::new(
            crate::rules::builtin()
                .load(&path)
                .expect("shipped scenario"),
        );
        let mut play = Play::new(prepared, path, 7);
        let aldric = UnitId(0);
        let knight = UnitId(1);
        assert_eq!(to_player(&mut play), Some(aldric));
        // A first click on an open hex one step towards the knight.
        let (snapshot, legal, mut draft) = draft_for(&mut play, aldric);
        let s = snapshot.situation();
        let start = pos(&play, aldric);
        let foe = pos(&play, knight);
        let toward = start.main_direction_to(foe);
        let step = start.neighbor(toward);
        draft.set_maneuver(Maneuver::Move, &s, &legal);
        let note = draft.click(&s, &legal, step);
        assert!(note.contains("MP"), "{note}");
        assert_eq!(draft.action.to, Some(step));
        assert!(draft.check(&s).is_ok());
        play.decide::<crate::rules::gurps::Gurps>(draft.action.clone())
            .expect("a legal move");
        assert_eq!(pos(&play, aldric), step);
        let moved = play
            .session()
            .log()
            .entries
            .iter()
            .any(|e| matches!(&e.event, BattleEvent::Moved { unit, .. } if *unit == aldric));
        assert!(moved);
        // Close in until the knight can be struck, then click him.
        let mut attacked = false;
        for _ in 0..20 {
            let Some(unit) = to_player(&mut play) else {
                break;
            };
            assert_eq!(unit, aldric);
            let (snapshot, legal, mut draft) = draft_for(&mut play, aldric);
            let s = snapshot.situation();
            let before = play.session().log_text();
            let foe = pos(&play, knight);
            draft.click(&s, &legal, foe);
            if draft.action.target == Some(knight) && draft.check(&s).is_ok() {
                assert!(draft.action.maneuver.attacks() || draft.action.maneuver == Maneuver::Aim);
                play.decide::<crate::rules::gurps::Gurps>(draft.action.clone())
                    .expect("legal attack");
                let attack = play.session().log().entries.iter().any(|e| {
                    matches!(&e.event, BattleEvent::Attack { attacker, target, .. }
                        if *attacker == aldric && *target == knight)
                });
                assert!(attack, "no attack in the log");
                assert!(play.undo());
                assert_eq!(play.session().log_text(), before);
                attacked = true;
                break;
            }
            // Otherwise walk towards him (or do what the rules still allow, when stunned).
            let (snapshot, legal, mut draft) = draft_for(&mut play, aldric);
            let s = snapshot.situation();
            if legal.get(Maneuver::Move).is_none() {
                play.decide::<crate::rules::gurps::Gurps>(draft.action.clone())
                    .expect("the first legal option");
                continue;
            }
            draft.set_maneuver(Maneuver::Move, &s, &legal);
            let me = pos(&play, aldric);
            let next = me.neighbor(me.main_direction_to(foe));
            draft.click(&s, &legal, next);
            play.decide::<crate::rules::gurps::Gurps>(draft.action.clone())
                .expect("a legal move");
        }
        assert!(attacked, "never came within reach of the knight");
    }

    /// The reachable hexes are exactly those the ruleset's path search allows within the
    /// maneuver's movement: none for Do Nothing, and for a Move each within its cost.
    #[test]
    fn reachable_hexes_follow_the_path_search() {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/gurps-duel.ron");
        let prepared = Arc::new(
            crate::rules::builtin()
                .load(&path)
                .expect("shipped scenario"),
        );
        let mut play = Play::new(prepared, path, 7);
        let unit = to_player(&mut play).expect("player turn");
        let (snapshot, legal, _) = draft_for(&mut play, unit);
        let s = snapshot.situation();
        assert!(reachable(&s, 0).is_empty());
        let allowance = legal.get(Maneuver::Move).expect("Move is legal").allowance;
        let hexes = reachable(&s, allowance);
        assert!(!hexes.is_empty());
        for (hex, cost) in &hexes {
            assert!(*cost <= allowance);
            assert_eq!(s.path_to(*hex, allowance).map(|p| p.1), Ok(*cost));
        }
    }
}

/// The path to a hovered hex and what it costs.
#[derive(Clone, Debug, Default)]
pub struct Hover {
    /// The hexes, the unit's own first (empty when there is no way).
    pub path: Vec<Hex>,
    /// Movement points.
    pub cost: u32,
    /// Within the chosen maneuver's movement.
    pub reachable: bool,
    /// What the pointer shows: cost, or why not.
    pub note: String,
    /// For a hovered foe: whether the acting unit sees it.
    pub sight: Option<bool>,
}

/// The hexes the acting unit can reach with the drafted maneuver, and their cost.
#[derive(Clone, Debug, Default)]
pub struct ReachCache {
    key: Option<(UnitId, Maneuver, usize)>,
    /// Reachable hexes with their cost.
    pub hexes: Vec<(Hex, u32)>,
}

/// The GURPS decision being put together in the window, and what is shown of it.
#[derive(Clone, Debug, Default)]
pub struct GurpsDraft {
    /// The action being put together for the awaited unit.
    pub draft: Option<Draft>,
    /// The draft's legal maneuvers.
    pub legal: Option<Legal>,
    /// The draft's plan when legal.
    pub planned: Option<Plan>,
    /// Why the draft is not legal.
    pub draft_error: Option<String>,
    /// The draft's odds.
    pub odds: Option<Odds>,
    /// The path to the hovered hex.
    pub hover: Option<Hover>,
    hover_key: Option<(Hex, Maneuver, usize)>,
    draft_key: Option<(Draft, usize)>,
    /// Reachable hexes.
    pub reach: ReachCache,
}

/// Sends the draft as the awaited unit's decision.
pub fn confirm(game: &mut Game) {
    let Some(draft) = game.draft_mut::<GurpsDraft>().draft.clone() else {
        return;
    };
    match game.play.decide::<crate::rules::gurps::Gurps>(draft.action) {
        Ok(()) => {
            game.status = "done".into();
            game.forget_draft();
        }
        Err(e) => game.status = format!("not allowed: {e}"),
    }
}

/// The player's unit `unit` is to decide: a first draft of its action, unless one is
/// being put together already.
pub fn player_turn(game: &mut Game, unit: UnitId) {
    if game
        .draft_mut::<GurpsDraft>()
        .draft
        .as_ref()
        .is_some_and(|d| d.unit == unit)
    {
        return;
    }
    game.forget_draft();
    if let Some(snapshot) = Snapshot::read(&game.play.session().world, unit) {
        let s = snapshot.situation();
        let legal = legal_options(&s);
        game.draft_mut::<GurpsDraft>().draft = Some(Draft::new(&s, &legal));
        game.draft_mut::<GurpsDraft>().legal = Some(legal);
        game.selected = Some(unit);
        game.status = format!("{}'s turn", game.play.session().roster().name(unit));
    }
}

/// A click on the map while a draft is open: the draft takes the hex as its target or
/// destination. The click still selects a unit standing there (false: not consumed).
pub fn click(game: &mut Game, hex: Hex) -> bool {
    let Some(unit) = game
        .draft::<GurpsDraft>()
        .and_then(|g| g.draft.as_ref())
        .map(|d| d.unit)
    else {
        return false;
    };
    let Some(snapshot) = Snapshot::read(&game.play.session().world, unit) else {
        return false;
    };
    let s = snapshot.situation();
    let g = game.draft_mut::<GurpsDraft>();
    if let Some(draft) = g.draft.as_mut()
        && let Some(legal) = g.legal.as_ref()
    {
        let note = draft.click(&s, legal, hex);
        game.status = note;
    }
    false
}

/// A right click: the drafted move is dropped.
pub fn right_click(game: &mut Game) {
    if let Some(draft) = game.draft_mut::<GurpsDraft>().draft.as_mut() {
        draft.action.to = None;
    }
}

/// Keeps the draft's check, odds, reachable hexes and the path to the hovered hex
/// (`pointer`) up to date, taking a snapshot only when something changed.
pub fn refresh(game: &mut Game, pointer: Option<Hex>) {
    let Some(draft) = game.draft_mut::<GurpsDraft>().draft.clone() else {
        game.draft_mut::<GurpsDraft>().hover = None;
        return;
    };
    let log_len = game.log_len();
    let maneuver = draft.action.maneuver;
    // Nothing changed since the last frame: no snapshot (it copies the map and every unit).
    let hover_same = match pointer {
        Some(hex) => game.draft_mut::<GurpsDraft>().hover_key == Some((hex, maneuver, log_len)),
        None => game.draft_mut::<GurpsDraft>().hover.is_none(),
    };
    if hover_same
        && game.draft_mut::<GurpsDraft>().draft_key.as_ref() == Some(&(draft.clone(), log_len))
        && game.draft_mut::<GurpsDraft>().reach.key == Some((draft.unit, maneuver, log_len))
    {
        return;
    }
    let Some(snapshot) = Snapshot::read(&game.play.session().world, draft.unit) else {
        return;
    };
    let s = snapshot.situation();
    let allowance = game
        .draft_mut::<GurpsDraft>()
        .legal
        .as_ref()
        .and_then(|l| l.get(maneuver))
        .map_or(0, |o| o.allowance);
    if game.draft_mut::<GurpsDraft>().draft_key.as_ref() != Some(&(draft.clone(), log_len)) {
        game.draft_mut::<GurpsDraft>().draft_key = Some((draft.clone(), log_len));
        match draft.check(&s) {
            Ok(plan) => {
                game.draft_mut::<GurpsDraft>().planned = Some(plan);
                game.draft_mut::<GurpsDraft>().draft_error = None;
            }
            Err(e) => {
                game.draft_mut::<GurpsDraft>().planned = None;
                game.draft_mut::<GurpsDraft>().draft_error = Some(e);
            }
        }
        game.draft_mut::<GurpsDraft>().odds = if maneuver.attacks() {
            estimate(&s, &draft.action).ok()
        } else {
            None
        };
    }
    let key = (draft.unit, maneuver, log_len);
    if game.draft_mut::<GurpsDraft>().reach.key != Some(key) {
        game.draft_mut::<GurpsDraft>().reach.key = Some(key);
        game.draft_mut::<GurpsDraft>().reach.hexes = reachable(&s, allowance);
    }
    let Some(hex) = pointer else {
        game.draft_mut::<GurpsDraft>().hover = None;
        game.draft_mut::<GurpsDraft>().hover_key = None;
        return;
    };
    if game.draft_mut::<GurpsDraft>().hover_key == Some((hex, maneuver, log_len)) {
        return;
    }
    game.draft_mut::<GurpsDraft>().hover_key = Some((hex, maneuver, log_len));
    let me = s.me();
    let foe = s
        .units
        .iter()
        .find(|u| u.pos == hex && u.side != me.side && u.standing.fighting());
    let mut hover = Hover::default();
    if let Some(foe) = foe {
        let from = game
            .draft_mut::<GurpsDraft>()
            .planned
            .as_ref()
            .and_then(|p| p.path.last().copied())
            .unwrap_or(me.pos);
        let sight = s.map.line_of_sight(from, foe.pos);
        hover.sight = Some(sight);
        hover.note = format!(
            "{}: {} hexes{}",
            game.play.session().roster().name(foe.id),
            from.unsigned_distance_to(foe.pos),
            if sight { "" } else { ", no line of sight" }
        );
    } else if hex != me.pos {
        match s.path_to(hex, allowance.max(1)) {
            Ok((path, cost)) if allowance > 0 => {
                hover.note = format!("{cost} MP of {allowance}");
                hover.path = path;
                hover.cost = cost;
                hover.reachable = true;
            }
            Ok(_) => hover.note = format!("{maneuver} allows no movement"),
            Err(e) => {
                // Show the whole way even when it is too long.
                if let Ok((path, cost)) = s.path_to(hex, 999) {
                    hover.path = path;
                    hover.cost = cost;
                    hover.note = format!("{cost} MP: beyond {allowance}");
                } else {
                    hover.note = e;
                }
            }
        }
    }
    game.draft_mut::<GurpsDraft>().hover = Some(hover);
}
