//! What a GURPS fighter may do on its turn: the legal maneuvers with their movement
//! allowances and possible strikes ([`legal_options`], the list the action panel shows and
//! the AI chooses from), and the check that turns a concrete [`Action`] into a [`Plan`] or
//! says why it is illegal ([`plan`]). Player, AI and replay commands all pass this check.

use super::GurpsRules;
use super::combat::{
    AttackSituation, MAX_GROUP, MIN_DECEPTIVE_SKILL, StrikeMoment, attack_situation, attack_skill,
    current_move,
};
use super::criticals::WeaponState;
use super::equipment::WeaponMode;
use super::location::HitLocations;
use super::maneuver::{Action, AoaOption, AodOption, Maneuver};
pub use super::plan::{Plan, PlannedStrike};
use super::sheet::{Fighter, weapon_target_penalty};
use crate::battle::{Facing, HexPos, Roster, Side, Standing, UnitId};
use crate::hexmap::{Entry, EntryCosts, HexMap};
use hexx::{EdgeDirection, Hex};

/// One unit as the rules see it when deciding or checking an action.
#[derive(Clone, Copy, Debug)]
pub struct UnitView<'a> {
    /// Identity.
    pub id: UnitId,
    /// Display name (from the roster; empty when unknown).
    pub name: &'a str,
    /// Side index.
    pub side: u8,
    /// Position.
    pub pos: Hex,
    /// Still fighting?
    pub standing: Standing,
    /// The fighter's sheet and state.
    pub fighter: &'a Fighter,
    /// The hex side it faces.
    pub facing: EdgeDirection,
}

impl<'a> UnitView<'a> {
    /// The view of a unit from its components, named from `roster`: how the systems and
    /// the window's snapshot build a [`Situation`].
    pub fn of(
        roster: &'a Roster,
        id: &UnitId,
        (side, pos, standing, fighter, facing): (&Side, &HexPos, &Standing, &'a Fighter, &Facing),
    ) -> Self {
        UnitView {
            id: *id,
            name: roster.name(*id),
            side: side.0,
            pos: pos.0,
            standing: *standing,
            fighter,
            facing: facing.0,
        }
    }
}

/// The battle as seen by the unit whose turn it is.
#[derive(Clone, Debug)]
pub struct Situation<'a> {
    /// The map.
    pub map: &'a HexMap,
    /// Every unit, in [`UnitId`] order.
    pub units: Vec<UnitView<'a>>,
    /// Index in `units` of the unit acting.
    pub me: usize,
    /// The scenario allows extra effort.
    pub extra_effort: bool,
    /// The acting unit's side fights as a group (group combat for mooks).
    pub grouped: bool,
    /// Where unaimed blows land (the scenario's setting).
    pub hit_locations: HitLocations,
    /// The answers [`Situation::path_to`] has found, by destination and allowance: a
    /// situation is asked again for every action listed or planned that ends in the same
    /// hex. Start it empty (`Default::default()`); the situation must not change after.
    pub paths: PathMemo,
    /// What entering each hex costs the acting unit, with the hexes where other fighting
    /// units stand closed, worked out when first asked ([`Situation::enter_cost`], asked
    /// for every hex a path search looks at: with hundreds of fighters, searching the list
    /// each time was most of a battle). Start it empty (`Default::default()`); the
    /// situation must not change after.
    pub entry: std::cell::OnceCell<EntryCosts<'a>>,
}

/// What [`Situation::path_to`] answers: the path and its cost, or why there is none.
pub type PathAnswer = Result<(Vec<Hex>, u32), String>;

/// [`Situation::path_to`]'s answers already found, by destination and allowance.
pub type PathMemo = std::cell::RefCell<Vec<((Hex, u32), PathAnswer)>>;

impl<'a> Situation<'a> {
    /// The battle as seen by unit `me`, with the scenario's `rules`: `units` are put in
    /// [`UnitId`] order; `None` if `me` is not among them. The systems and
    /// [`Snapshot`](super::snapshot::Snapshot) build every situation with this.
    pub fn new(
        map: &'a HexMap,
        mut units: Vec<UnitView<'a>>,
        me: UnitId,
        rules: &GurpsRules,
    ) -> Option<Self> {
        units.sort_unstable_by_key(|v| v.id); // ids are unique: the order is the same
        let me = units.iter().position(|v| v.id == me)?;
        Some(Self::ordered(map, units, me, rules))
    }

    /// The battle as seen by `units[me]`, `units` being in [`UnitId`] order already (an
    /// index out of range is clamped; callers pass one they found).
    pub(super) fn ordered(
        map: &'a HexMap,
        units: Vec<UnitView<'a>>,
        me: usize,
        rules: &GurpsRules,
    ) -> Self {
        let me = me.min(units.len().saturating_sub(1));
        let side = units.get(me).map_or(0, |u| usize::from(u.side));
        Situation {
            map,
            units,
            me,
            extra_effort: rules.extra_effort,
            grouped: rules.groups.get(side).copied().unwrap_or(false),
            hit_locations: rules.hit_locations,
            paths: PathMemo::default(),
            entry: Default::default(),
        }
    }
}

impl Situation<'_> {
    /// The members of the acting unit's side who can join a group attack on `target` from
    /// where they stand, each with the first weapon that reaches: the acting unit first,
    /// then by unit id, at most [`MAX_GROUP`] (gurps-lite-and-socs.txt, "GROUP COMBAT").
    /// Members who already joined one this round are left out. Empty when the acting unit
    /// itself cannot join: no one else leads its side's group (so the AI, which weighs a
    /// group on every foe, does not gather one the acting unit would not be in).
    pub fn group_for(&self, target: &UnitView) -> Vec<(usize, u8)> {
        let me = self.me();
        let joins = |u: &UnitView| {
            if u.side != me.side || !u.standing.fighting() || u.fighter.spent {
                return None;
            }
            (0..u.fighter.sheet.weapons.len())
                .find(|&w| self.strike_refusal(u, u.pos, target, w).is_none())
                .map(|w| w as u8)
        };
        let Some(mine) = joins(me) else {
            return Vec::new();
        };
        let mut out = Vec::with_capacity(MAX_GROUP);
        out.push((self.me, mine));
        for i in (0..self.units.len()).filter(|&i| i != self.me) {
            if out.len() == MAX_GROUP {
                break;
            }
            if let Some(w) = joins(&self.units[i]) {
                out.push((i, w));
            }
        }
        out
    }
}

/// Why a strike cannot be made ([`Situation::can_strike_as`]), in words when shown.
enum Refusal<'w> {
    OwnSide,
    OutOfTheFight(UnitId),
    NoWeapon(usize),
    /// The weapon arm is crippled.
    Crippled,
    /// The off arm is crippled and the weapon (by name) needs two hands.
    OffArmCrippled(&'w str),
    /// The weapon (by name) in this state.
    Unusable(&'w str, Option<WeaponState>),
    /// Hexes away, the weapon, its reach.
    OutOfReach(u32, &'w str, u32, u32),
    /// Yards away, the weapon, its range.
    OutOfRange(f64, &'w str, u32),
    NoSight,
}

impl std::fmt::Display for Refusal<'_> {
    fn fmt(&self, out: &mut std::fmt::Formatter) -> std::fmt::Result {
        match *self {
            Refusal::OwnSide => write!(out, "cannot attack a unit of its own side"),
            Refusal::OutOfTheFight(id) => write!(out, "target {} is out of the fight", id.0),
            Refusal::NoWeapon(weapon) => write!(out, "no weapon number {weapon}"),
            Refusal::Crippled => write!(out, "its weapon arm is crippled"),
            Refusal::OffArmCrippled(name) => {
                write!(out, "{name} needs two hands and its off arm is crippled")
            }
            Refusal::Unusable(name, Some(WeaponState::Unready)) => {
                write!(out, "{name} is not ready: Ready it first")
            }
            Refusal::Unusable(name, Some(WeaponState::Jammed)) => {
                write!(out, "{name} is jammed: Ready it to clear")
            }
            Refusal::Unusable(name, Some(WeaponState::Gone)) => {
                write!(out, "{name} is broken or lost")
            }
            Refusal::Unusable(name, _) => write!(out, "{name} is not loaded"),
            Refusal::OutOfReach(hexes, name, min, max) => write!(
                out,
                "target is {hexes} hexes away; {name} reaches {min} to {max}"
            ),
            Refusal::OutOfRange(yards, name, max) => {
                write!(out, "target is {yards} yd away; {name} reaches {max} yd")
            }
            Refusal::NoSight => write!(out, "no line of sight to the target"),
        }
    }
}

impl<'a> Situation<'a> {
    /// The unit acting.
    pub fn me(&self) -> &UnitView<'a> {
        &self.units[self.me]
    }

    /// A unit by id.
    pub fn unit(&self, id: UnitId) -> Option<&UnitView<'a>> {
        self.units.iter().find(|u| u.id == id)
    }

    /// Fighting enemies of the acting unit.
    pub fn enemies(&self) -> impl Iterator<Item = &UnitView<'a>> {
        let side = self.me().side;
        self.units
            .iter()
            .filter(move |u| u.side != side && u.standing.fighting())
    }

    /// The acting unit's costs of entering hexes ([`Situation::entry`]).
    pub fn entry(&self) -> &EntryCosts<'a> {
        self.entry.get_or_init(|| {
            self.map.entry_costs(
                (self.units.iter().enumerate())
                    .filter(|&(i, u)| i != self.me && u.standing.fighting())
                    .map(|(_, u)| u.pos),
            )
        })
    }

    /// True if a fighting unit other than the acting one stands on `hex`.
    pub fn occupied(&self, hex: Hex) -> bool {
        self.entry().closed(hex)
    }

    /// Yards between two hexes.
    pub fn yards(&self, a: Hex, b: Hex) -> f64 {
        f64::from(a.unsigned_distance_to(b)) * f64::from(self.map.scale)
    }

    /// Cost to enter `hex` for the acting unit: terrain, and no other fighter there.
    pub fn enter_cost(&self, hex: Hex) -> Option<u32> {
        self.entry().get(hex)
    }

    /// The cheapest path from the acting unit to `to` within `allowance` movement points
    /// (found once a situation: later asks are answered from [`Situation::paths`]).
    pub fn path_to(&self, to: Hex, allowance: u32) -> PathAnswer {
        let key = (to, allowance);
        if let Some((_, known)) = self.paths.borrow().iter().find(|(k, _)| *k == key) {
            return known.clone();
        }
        let answer = self.find_path(to, allowance);
        self.paths.borrow_mut().push((key, answer.clone()));
        answer
    }

    fn find_path(&self, to: Hex, allowance: u32) -> PathAnswer {
        let from = self.me().pos;
        if to == from {
            return Ok((vec![from], 0));
        }
        if !self.map.contains(to) {
            return Err(format!("({}, {}) is off the map", to.x, to.y));
        }
        if self.map.move_cost(to).is_none() {
            return Err(format!("({}, {}) is blocked", to.x, to.y));
        }
        if self.occupied(to) {
            return Err(format!("({}, {}) is occupied", to.x, to.y));
        }
        if from.unsigned_distance_to(to) > allowance {
            return Err(format!(
                "({}, {}) is beyond this maneuver's {allowance} movement points",
                to.x, to.y
            ));
        }
        let (path, steps) = self
            .walk(to, allowance, false)
            .ok_or_else(|| format!("no way through to ({}, {})", to.x, to.y))?;
        let cost = steps.iter().sum();
        if cost > allowance {
            return Err(format!(
                "reaching ({}, {}) costs {cost} movement points; this maneuver allows {allowance}",
                to.x, to.y
            ));
        }
        Ok((path, cost))
    }

    /// The acting unit's cheapest walk to `to` and the cost of each step. A maneuver that
    /// allows only a step (1 point) steps in any direction at the hex's cost; longer moves
    /// pay for facing: side and back steps and turns cost extra
    /// (gurps-traveller-gm-screen.txt, "MANEUVERS" table: "Step and ..." facing any; Move:
    /// forward 1, side or back 2, change facing 1 per hexside). Over hexes where no
    /// other fighter stands, except `to` itself when `onto_goal` (a walk towards a foe).
    pub fn walk(&self, to: Hex, allowance: u32, onto_goal: bool) -> Option<(Vec<Hex>, Vec<u32>)> {
        if onto_goal {
            self.walk_over(to, allowance, self.entry().open_to(to))
        } else {
            self.walk_over(to, allowance, self.entry())
        }
    }

    fn walk_over(
        &self,
        to: Hex,
        allowance: u32,
        enter: impl Entry + Copy,
    ) -> Option<(Vec<Hex>, Vec<u32>)> {
        let me = self.me();
        if allowance <= 1 {
            let path = self.map.path(me.pos, to, enter)?;
            let steps = path
                .iter()
                .skip(1)
                .map(|&h| enter.hex(self.map, h).unwrap_or(0))
                .collect();
            return Some((path, steps));
        }
        self.map.path_facing(me.pos, me.facing, to, enter)
    }

    /// Whether the acting unit, standing at `from`, can strike `target` with weapon
    /// `weapon` (aiming counts as a strike for range and sight).
    pub fn can_strike(&self, from: Hex, target: &UnitView, weapon: usize) -> Result<(), String> {
        self.can_strike_as(self.me(), from, target, weapon)
    }

    /// Whether `me` (any unit), standing at `from`, can strike `target` with weapon
    /// `weapon`, and if not, why.
    pub fn can_strike_as(
        &self,
        me: &UnitView,
        from: Hex,
        target: &UnitView,
        weapon: usize,
    ) -> Result<(), String> {
        match self.strike_refusal(me, from, target, weapon) {
            Some(refusal) => Err(refusal.to_string()),
            None => Ok(()),
        }
    }

    /// [`Situation::can_strike`] without the reason (the AI asks of every foe, weapon and
    /// hex it weighs, and needs no words).
    pub fn strikes_at(&self, from: Hex, target: &UnitView, weapon: usize) -> bool {
        self.strike_refusal(self.me(), from, target, weapon)
            .is_none()
    }

    fn strike_refusal<'w>(
        &self,
        me: &UnitView<'w>,
        from: Hex,
        target: &UnitView,
        weapon: usize,
    ) -> Option<Refusal<'w>> {
        if target.side == me.side {
            return Some(Refusal::OwnSide);
        }
        if !target.standing.fighting() {
            return Some(Refusal::OutOfTheFight(target.id));
        }
        let Some(w) = me.fighter.sheet.weapons.get(weapon) else {
            return Some(Refusal::NoWeapon(weapon));
        };
        if !me.fighter.can_use(weapon) {
            let f = me.fighter;
            return Some(if f.disarmed() {
                Refusal::Crippled
            } else if f.ready(weapon) && !f.wields(weapon) {
                Refusal::OffArmCrippled(&w.name)
            } else {
                Refusal::Unusable(&w.name, f.weapon_state.get(weapon).copied())
            });
        }
        let hexes = from.unsigned_distance_to(target.pos);
        match w.mode {
            WeaponMode::Melee {
                reach_min,
                reach_max,
                ..
            } => {
                if hexes < reach_min || hexes > reach_max {
                    return Some(Refusal::OutOfReach(hexes, &w.name, reach_min, reach_max));
                }
            }
            WeaponMode::Ranged { max, .. } => {
                let yards = self.yards(from, target.pos);
                if yards > f64::from(max) {
                    return Some(Refusal::OutOfRange(yards, &w.name, max));
                }
                if !self.map.line_of_sight(from, target.pos) {
                    return Some(Refusal::NoSight);
                }
            }
        }
        None
    }
}

/// A legal maneuver for the acting unit and its movement allowance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ManeuverOption {
    /// The maneuver.
    pub maneuver: Maneuver,
    /// Movement points it allows.
    pub allowance: u32,
}

/// How far an enemy is beyond one of the acting unit's usable weapons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Reach {
    weapon: u8,
    target: UnitId,
    /// Hexes of movement needed before the strike (0: in reach and sight now).
    short: u32,
    ranged: bool,
}

/// Everything the acting unit may do this turn: the legal maneuvers, and for each the
/// strikes (target, weapon) within reach once it moves as far as the maneuver allows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Legal {
    /// Legal maneuvers.
    pub options: Vec<ManeuverOption>,
    reach: Vec<Reach>,
    reloadable: Vec<u8>,
}

impl Legal {
    /// The option for a maneuver, if it is legal.
    pub fn get(&self, maneuver: Maneuver) -> Option<&ManeuverOption> {
        self.options.iter().find(|o| o.maneuver == maneuver)
    }

    /// The (target, weapon) pairs `maneuver` could strike or aim at, within reach once the
    /// unit moves as far as the maneuver allows.
    pub fn strikes(&self, maneuver: Maneuver) -> impl Iterator<Item = (UnitId, u8)> + '_ {
        let allowance = self
            .get(maneuver)
            .filter(|_| maneuver.needs_target())
            .map(|o| o.allowance);
        self.reach
            .iter()
            .filter(move |r| {
                allowance.is_some_and(|a| r.short <= a) && weapon_fits(maneuver, r.ranged)
            })
            .map(|r| (r.target, r.weapon))
    }

    /// Weapons that Ready could reload.
    pub fn reloadable(&self) -> &[u8] {
        &self.reloadable
    }
}

fn weapon_fits(maneuver: Maneuver, ranged: bool) -> bool {
    match maneuver {
        Maneuver::Aim => ranged,
        Maneuver::AllOutAttack(AoaOption::Double | AoaOption::Strong | AoaOption::Feint)
        | Maneuver::CommittedAttack(_)
        | Maneuver::DefensiveAttack
        | Maneuver::Evaluate
        | Maneuver::Feint => !ranged,
        _ => true,
    }
}

/// Movement points `maneuver` allows the fighter: its allowance from current Move, +1 for
/// Move after a turn of running (gurps-lite-and-socs.txt, "MANEUVERS", Move: "+1 hex after
/// a full turn of running"; decision: a turn whose maneuver was Move counts as running).
pub fn allowance(f: &Fighter, maneuver: Maneuver) -> u32 {
    allowance_at(current_move(f), f.ran(), maneuver)
}

fn allowance_at(move_: i32, ran: bool, maneuver: Maneuver) -> u32 {
    let base = maneuver.move_allowance(move_);
    if maneuver == Maneuver::Move && ran && move_ > 0 {
        base + 1
    } else {
        base
    }
}

/// The maneuvers open to the acting unit (gurps-lite-and-socs.txt, "MANEUVERS"), with the
/// strikes within reach of each once it moves as far as the maneuver allows.
pub fn legal_options(s: &Situation) -> Legal {
    let me = s.me();
    let f = me.fighter;
    let scale = f64::from(s.map.scale);
    let mut reach = Vec::with_capacity(f.sheet.weapons.len() * s.units.len());
    // Least movement any melee and any ranged strike needs, and whether any weapon is
    // usable at all (for Wait), found on the way rather than by going over them again.
    let (mut melee, mut ranged) = (u32::MAX, u32::MAX);
    let mut usable = false;
    for (wi, w) in f.sheet.weapons.iter().enumerate() {
        if !f.can_use(wi) {
            continue;
        }
        usable = true;
        let is_ranged = w.is_ranged();
        let nearest = if is_ranged { &mut ranged } else { &mut melee };
        for e in s.enemies() {
            let hexes = me.pos.unsigned_distance_to(e.pos);
            let short = match w.mode {
                WeaponMode::Melee {
                    reach_min,
                    reach_max,
                    ..
                } => hexes
                    .saturating_sub(reach_max)
                    .max(reach_min.saturating_sub(hexes)),
                WeaponMode::Ranged { max, .. } => {
                    let over = f64::from(hexes) * scale - f64::from(max);
                    if over > 0.0 {
                        (over / scale).ceil() as u32
                    } else if s.map.line_of_sight(me.pos, e.pos) {
                        0
                    } else {
                        1
                    }
                }
            };
            *nearest = (*nearest).min(short);
            reach.push(Reach {
                weapon: wi as u8,
                target: e.id,
                short,
                ranged: is_ranged,
            });
        }
    }
    let reloadable: Vec<u8> = (0..f.sheet.weapons.len())
        .filter(|&wi| f.can_ready(wi))
        .map(|wi| wi as u8)
        .collect();
    let mut options = Vec::with_capacity(Maneuver::ALL.len());
    let move_ = current_move(f);
    let ran = f.ran();
    if f.stunned || f.lose_turn {
        // Stunned, or off balance after a head blow: Do Nothing only
        // (gurps-lite-and-socs.txt, "INJURY", Stunned).
        options.push(ManeuverOption {
            maneuver: Maneuver::DoNothing,
            allowance: allowance_at(move_, ran, Maneuver::DoNothing),
        });
        return Legal {
            options,
            reach,
            reloadable,
        };
    }
    let can_parry = f.sheet.weapons.iter().any(|w| w.parry.is_some());
    let lame = f.lame();
    for maneuver in Maneuver::ALL {
        let allowance = allowance_at(move_, ran, maneuver);
        let open = match maneuver {
            Maneuver::ChangePosture(to) => {
                f.posture.can_change_to(to) && !(lame && to.needs_both_legs())
            }
            Maneuver::Ready => !reloadable.is_empty() || f.can_take_up_shield(),
            Maneuver::Wait => usable,
            Maneuver::AllOutDefense(AodOption::IncreasedParry) => can_parry,
            m if m.needs_target() => {
                (weapon_fits(m, false) && melee <= allowance)
                    || (weapon_fits(m, true) && ranged <= allowance)
            }
            _ => true,
        };
        if open {
            options.push(ManeuverOption {
                maneuver,
                allowance,
            });
        }
    }
    Legal {
        options,
        reach,
        reloadable,
    }
}

/// A list of concrete actions that covers every kind of decision open to the acting
/// unit, each passing [`plan`]: every legal maneuver; for one that strikes, every (target,
/// weapon) in reach, as it stands or after a step toward the target, plain and with the
/// options a blow can take (a hit location, Telegraphic and Deceptive Attack, Rapid Strike,
/// one shot); Ready with each weapon that needs it. Where a maneuver moves, the hexes tried
/// are the six around the unit, the one as far as the allowance goes toward each foe and
/// in each direction: a sample of the positions, not all of them. What the contract lists
/// as the legal actions (`Ruleset::legal_actions`).
pub fn sample_actions(s: &Situation) -> Vec<Action> {
    let legal = legal_options(s);
    let me = s.me();
    let mut out: Vec<Action> = Vec::new();
    let add = |a: Action, out: &mut Vec<Action>| {
        if !out.contains(&a) && plan(s, &a).is_ok() {
            out.push(a);
        }
    };
    // Where a maneuver with movement points `allowance` may end, `None` for staying.
    let hexes = |allowance: u32| -> Vec<Option<Hex>> {
        std::iter::once(None)
            .chain(
                crate::hexmap::sample_reach(me.pos, allowance, s.enemies().map(|e| e.pos))
                    .into_iter()
                    .map(Some),
            )
            .collect()
    };
    for option in &legal.options {
        let maneuver = option.maneuver;
        let places = hexes(option.allowance);
        if maneuver.needs_target() {
            for (target, weapon) in legal.strikes(maneuver) {
                for &to in &places {
                    let base = Action {
                        to,
                        target: Some(target),
                        weapon: Some(weapon),
                        ..Action::simple(maneuver)
                    };
                    let variants = [
                        Action {
                            location: Some(super::location::HitLocation::Skull),
                            ..base.clone()
                        },
                        Action {
                            telegraphic: true,
                            ..base.clone()
                        },
                        Action {
                            deceptive: 1,
                            ..base.clone()
                        },
                        Action {
                            shots: Some(1),
                            ..base.clone()
                        },
                        Action {
                            effort: super::maneuver::Effort {
                                rapid_strike: true,
                                ..Default::default()
                            },
                            ..base.clone()
                        },
                    ];
                    add(base, &mut out);
                    if to.is_none() {
                        for v in variants {
                            add(v, &mut out);
                        }
                    }
                }
            }
        } else if maneuver == Maneuver::Ready {
            add(Action::simple(maneuver), &mut out);
            for &w in legal.reloadable() {
                add(
                    Action {
                        weapon: Some(w),
                        ..Action::simple(maneuver)
                    },
                    &mut out,
                );
            }
        } else if maneuver == Maneuver::Wait {
            for w in 0..me.fighter.sheet.weapons.len() {
                add(
                    Action {
                        weapon: u8::try_from(w).ok(),
                        ..Action::simple(maneuver)
                    },
                    &mut out,
                );
            }
        } else {
            for &to in &places {
                add(
                    Action {
                        to,
                        ..Action::simple(maneuver)
                    },
                    &mut out,
                );
            }
        }
    }
    out
}

/// Checks `action` for the acting unit and returns its plan, or why it is illegal.
pub fn plan(s: &Situation, action: &Action) -> Result<Plan, String> {
    let me = s.me();
    let f = me.fighter;
    let maneuver = action.maneuver;
    if f.stunned && maneuver != Maneuver::DoNothing {
        return Err("stunned: it can only Do Nothing this turn".into());
    }
    if f.lose_turn && maneuver != Maneuver::DoNothing {
        return Err("off balance from a head blow: it can only Do Nothing this turn".into());
    }
    if let Maneuver::ChangePosture(to) = maneuver
        && f.lame()
        && to.needs_both_legs()
    {
        return Err(format!(
            "with a crippled leg it cannot take the posture: {to}"
        ));
    }
    if let Maneuver::ChangePosture(to) = maneuver
        && !f.posture.can_change_to(to)
    {
        return Err(if f.posture == to {
            format!("it is already {to}")
        } else {
            format!(
                "from {} it must kneel, sit or crawl before standing",
                f.posture
            )
        });
    }
    let allowance = allowance(f, maneuver);
    let (path, cost) = match action.to {
        Some(to) => s.path_to(to, allowance)?,
        None => (vec![me.pos], 0),
    };
    let end = *path.last().unwrap_or(&me.pos);
    let weapon = match (maneuver.needs_weapon(), action.weapon) {
        // Ready without a weapon takes up a dropped shield.
        (true, None) if maneuver == Maneuver::Ready && f.can_take_up_shield() => None,
        (true, None)
            if maneuver == Maneuver::Ready && !f.shield_ready && f.sheet.shield.is_some() =>
        {
            return Err("its off arm, which bears the shield, is crippled: name a weapon".into());
        }
        (true, None) => return Err(format!("{maneuver} needs a weapon")),
        (true, Some(w)) => {
            let w = usize::from(w);
            let Some(spec) = f.sheet.weapons.get(w) else {
                return Err(format!("no weapon number {w}"));
            };
            if !weapon_fits(maneuver, spec.is_ranged()) {
                return Err(format!("{maneuver} cannot be done with {}", spec.name));
            }
            if maneuver == Maneuver::Wait && !f.can_use(w) {
                return Err(format!("{} cannot attack now", spec.name));
            }
            if maneuver == Maneuver::Ready && !f.can_ready(w) {
                return Err(match f.weapon_state[w] {
                    _ if spec.hands >= 2 && f.off_arm_useless() => {
                        Refusal::OffArmCrippled(&spec.name).to_string()
                    }
                    WeaponState::Gone => format!("{} is broken or lost", spec.name),
                    _ if spec.capacity().is_some() => format!("{} is ready and loaded", spec.name),
                    _ => format!("{} is ready", spec.name),
                });
            }
            Some(w)
        }
        (false, _) => None,
    };
    let target = match (maneuver.needs_target(), action.target) {
        (true, None) => return Err(format!("{maneuver} needs a target")),
        (true, Some(id)) => {
            let Some(ti) = s.units.iter().position(|u| u.id == id) else {
                return Err(format!("no unit {}", id.0));
            };
            s.can_strike(end, &s.units[ti], weapon.unwrap_or(0))?;
            Some(ti)
        }
        (false, _) => None,
    };
    // Conditions on the maneuver itself. With the checks above, an action that passes is
    // always one that `legal_options` lists (the test `checked_actions_are_listed` holds
    // the two together), so the whole list need not be built again here.
    if action.location.is_some() && !maneuver.attacks() {
        return Err(format!(
            "{maneuver} makes no attack to aim at a hit location"
        ));
    }
    if action.deceptive > 0 || action.telegraphic {
        let melee = weapon
            .and_then(|w| f.sheet.weapons.get(w))
            .is_some_and(|w| !w.is_ranged());
        if !maneuver.attacks() || !melee {
            return Err("Deceptive and Telegraphic Attack are options of a melee attack".into());
        }
    }
    if maneuver == Maneuver::AllOutDefense(AodOption::IncreasedParry)
        && !f.sheet.weapons.iter().any(|w| w.parry.is_some())
    {
        return Err(format!("{maneuver} needs a weapon that can parry"));
    }
    // Rapid fire: up to the weapon's rate of fire and the shots loaded.
    let mut shots = 1;
    if maneuver.attacks()
        && let Some(w) = weapon.and_then(|w| f.sheet.weapons.get(w))
        && w.is_ranged()
    {
        let most = w.rof_rcl().0.min(f.shots[weapon.unwrap_or(0)]).max(1);
        shots = action.shots.unwrap_or(most);
        if shots == 0 || shots > most {
            return Err(format!(
                "{} can fire 1 to {most} shots now; {shots} asked",
                w.name
            ));
        }
    } else if action.shots.is_some_and(|n| n != 1) {
        return Err("only a ranged attack fires several shots".into());
    }
    // Rapid Strike and extra effort (gurps-lite-and-socs.txt, "ATTACK/DEFENSE OPTIONS").
    let effort = action.effort;
    let melee = weapon
        .and_then(|w| f.sheet.weapons.get(w))
        .is_some_and(|w| !w.is_ranged());
    if effort.extra() && !s.extra_effort {
        return Err("this scenario does not use the extra-effort rules".into());
    }
    if (effort.rapid_strike || effort.second_target.is_some())
        && !(maneuver == Maneuver::Attack && melee)
    {
        return Err("Rapid Strike replaces the melee attack of an Attack maneuver".into());
    }
    if effort.second_target.is_some() && !effort.rapid_strike && effort.dual_weapon.is_none() {
        return Err("a second target needs a Rapid Strike or a Dual-Weapon Attack".into());
    }
    // Dual-Weapon Attack (gurps-lite-and-socs.txt, "ATTACK/DEFENSE OPTIONS"): two
    // one-handed weapons, no shield, in place of an Attack's one attack.
    if let Some(second) = effort.dual_weapon {
        let second = usize::from(second);
        let first = weapon.and_then(|w| f.sheet.weapons.get(w));
        let other = f.sheet.weapons.get(second);
        let (Some(first), Some(other)) = (first, other) else {
            return Err(format!("no weapon number {second}"));
        };
        if maneuver != Maneuver::Attack || effort.rapid_strike {
            return Err(
                "a Dual-Weapon Attack replaces the one attack of an Attack maneuver".into(),
            );
        }
        if weapon == Some(second) {
            return Err("a Dual-Weapon Attack needs two different weapons".into());
        }
        if first.hands != 1 || other.hands != 1 || f.sheet.shield.is_some() {
            return Err("a Dual-Weapon Attack needs two one-handed weapons and no shield".into());
        }
        if f.off_arm_useless() {
            return Err("a Dual-Weapon Attack needs the off arm, which is crippled".into());
        }
        if !f.can_use(second) {
            return Err(format!("{} cannot attack now", other.name));
        }
        let target2 = effort.second_target.or(action.target);
        if let Some(ti) = target2.and_then(|id| s.units.iter().position(|u| u.id == id)) {
            s.can_strike(end, &s.units[ti], second)?;
        }
    }
    if effort.flurry && !effort.rapid_strike {
        return Err("Flurry of Blows goes with a Rapid Strike".into());
    }
    if effort.mighty_blow && !(maneuver.attacks() && melee) {
        return Err("Mighty Blow is for a melee attack".into());
    }
    if effort.mighty_blow && matches!(maneuver, Maneuver::AllOutAttack(_)) {
        return Err("Mighty Blow gives the All-Out Attack damage bonus without one".into());
    }
    if action.chink {
        let piercing = weapon
            .and_then(|w| f.sheet.weapons.get(w))
            .is_some_and(|w| w.damage_type.finds_chinks());
        if !maneuver.attacks() || !piercing {
            return Err("only a piercing or impaling attack can aim at a chink in armor".into());
        }
    }
    // A group attack (gurps-lite-and-socs.txt, "GROUP COMBAT"): every member who can
    // strike the foe from where it stands joins, the acting unit among them.
    let mut group = Vec::new();
    if action.group {
        if !s.grouped {
            return Err("this side does not fight as a group".into());
        }
        if maneuver != Maneuver::Attack || path.len() > 1 {
            return Err("a group attack is an Attack made where the group stands".into());
        }
        let Some(t) = target else {
            return Err("a group attack needs a target".into());
        };
        group = s.group_for(&s.units[t]);
        if group.is_empty() {
            return Err("the acting fighter cannot strike that foe".into());
        }
    }
    // A disarm strikes the weapon the foe holds (its first ready one).
    let mut disarm = None;
    if action.disarm {
        let melee = weapon
            .and_then(|w| f.sheet.weapons.get(w))
            .is_some_and(|w| !w.is_ranged());
        if !maneuver.attacks() || !melee || action.location.is_some() || action.chink {
            return Err("a disarm is a melee attack at the foe's weapon and nothing else".into());
        }
        let foe = target.map(|t| s.units[t].fighter);
        let held = foe.and_then(|foe| {
            (0..foe.sheet.weapons.len())
                .find(|&i| foe.ready(i) && foe.sheet.weapons[i].held())
                .map(|i| &foe.sheet.weapons[i])
        });
        let Some(held) = held else {
            return Err("the target holds no weapon to strike at".into());
        };
        disarm = Some(weapon_target_penalty(held, true));
    }
    if action.brace && maneuver != Maneuver::Aim {
        return Err("only Aim can be braced".into());
    }
    if action.brace && path.len() > 1 {
        return Err("a braced Aim allows no step".into());
    }
    if effort.heroic_charge && maneuver != Maneuver::MoveAndAttack {
        return Err("Heroic Charge goes with a Move and Attack".into());
    }
    let second_target = match effort.second_target {
        Some(id) => {
            let Some(ti) = s.units.iter().position(|u| u.id == id) else {
                return Err(format!("no unit {}", id.0));
            };
            let w2 = effort.dual_weapon.map_or(weapon.unwrap_or(0), usize::from);
            s.can_strike(end, &s.units[ti], w2)?;
            Some(ti)
        }
        None => None,
    };
    let plan = Plan {
        maneuver,
        path,
        cost,
        target,
        weapon,
        location: action.location,
        deceptive: action.deceptive,
        telegraphic: action.telegraphic,
        shots,
        effort,
        second_target,
        brace: action.brace,
        opportunity_fire: false,
        chink: action.chink,
        disarm,
        group,
    };
    check_deceptive(s, &plan, end)?;
    Ok(plan)
}

/// Deceptive Attack may not bring a strike's final effective skill below
/// [`MIN_DECEPTIVE_SKILL`] (gurps-lite-and-socs.txt, "ATTACK/DEFENSE OPTIONS"; decision:
/// every modifier counted, as `combat::deceptive_levels` has it): each melee strike of the
/// plan (both of a Dual-Weapon Attack, the off hand's at its −4 more) as it stands before
/// the turn, from `end`, worked out by `combat::attack_situation` as the resolution and the
/// AI do. What changes during the turn (a wound before the second blow) still trims the
/// levels at the strike, which the log then says.
fn check_deceptive(s: &Situation, plan: &Plan, end: Hex) -> Result<(), String> {
    let Some(first) = plan.target else {
        return Ok(());
    };
    if plan.deceptive == 0 {
        return Ok(());
    }
    let me = s.me();
    let wanted = i32::from(plan.deceptive);
    for strike in plan.strikes() {
        let ti = if strike.second_target {
            plan.second_target.unwrap_or(first)
        } else {
            first
        };
        let (Some(w), Some(target)) =
            (me.fighter.sheet.weapons.get(strike.weapon), s.units.get(ti))
        else {
            continue;
        };
        if w.is_ranged() {
            continue;
        }
        let situation = attack_situation(
            s.map,
            plan,
            (me.fighter, end),
            (target.fighter, target.pos, target.facing),
            w,
            strike.dual,
            StrikeMoment::before_turn(me.fighter, Some(target.id), Some(strike.weapon)),
        );
        if situation.deceptive < wanted {
            let skill = attack_skill(
                w,
                &AttackSituation {
                    deceptive: 0,
                    ..situation
                },
            );
            return Err(format!(
                "Deceptive Attack {wanted} would bring {}'s effective skill {skill} below \
                 {MIN_DECEPTIVE_SKILL}: at most {} level{}",
                w.name,
                situation.deceptive,
                if situation.deceptive == 1 { "" } else { "s" }
            ));
        }
    }
    Ok(())
}

/// For tests: the battle as the first of `fighters` (each with its hex and side index)
/// sees it, every one standing and facing the first hex side, ids in order.
#[cfg(test)]
pub(super) fn test_situation<'a>(
    map: &'a HexMap,
    fighters: &'a [(Fighter, Hex, u8)],
    extra_effort: bool,
) -> Situation<'a> {
    Situation {
        map,
        units: fighters
            .iter()
            .enumerate()
            .map(|(i, (f, pos, side))| UnitView {
                id: UnitId(i as u32),
                name: "",
                side: *side,
                pos: *pos,
                standing: Standing::Fighting,
                fighter: f,
                facing: Hex::ZERO.main_direction_to(Hex::new(1, 0)),
            })
            .collect(),
        me: 0,
        extra_effort,
        grouped: false,
        hit_locations: Default::default(),
        paths: Default::default(),
        entry: Default::default(),
    }
}

#[cfg(test)]
mod tests;
