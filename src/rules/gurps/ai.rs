//! The GURPS AI policy: closes in or keeps range by weapon, picks the target where it
//! expects the most injury, aims before shooting when it is safe, reloads, and defends with
//! its best defense. It picks only maneuvers that [`legal_options`](super::actions::legal_options)
//! lists, and every action it returns still goes through the same check as a player's.
//!
//! The policy is deterministic (it rolls no dice): the same situation gives the same choice.

use super::actions::{Legal, Plan, Situation, UnitView};
use super::combat::{
    AOA_DETERMINED_MELEE, DefenseOption, DefenseStep, MIN_DECEPTIVE_SKILL, StrikeMoment,
    attack_situation, attack_skill, best_defense_score, current_move, deceptive_levels, reeling,
    retreat_hex,
};
use super::criticals::WeaponState;
use super::equipment::WeaponMode;
use super::facing::{Arc, arc_of};
use super::location::HitLocation;
use super::maneuver::{Action, AoaOption, AodOption, CommitOption, Effort, Maneuver};
use super::posture::Posture;
use super::sheet::{Fighter, Guard};
use super::tables::success_chance;
use crate::battle::{AiStyle, Policy, UnitId};
use crate::dice::DiceExpr;
use crate::hexmap::Entry;
use hexx::Hex;

/// The default GURPS AI in one of the [`AiStyle`]s.
#[derive(Clone, Copy, Debug, Default)]
pub struct GurpsAi {
    /// How it fights.
    pub style: AiStyle,
}

/// Orders a defender's open defenses best first (highest score; Dodge before Parry on a
/// tie, since Dodge works against everything). A retreat is taken whenever it is open (it
/// only adds); Dodge and Drop only when `desperate` (lying down costs two turns to get up);
/// Feverish Defense and Rapid Recovery only with `spare_fp` (more than two thirds of FP
/// left). This is how AI-controlled and, until the GUI asks, player-controlled defenders
/// defend.
pub fn choose_defenses(options: &[DefenseOption], desperate: bool, spare_fp: bool) -> Vec<usize> {
    let mut order: Vec<usize> = (0..options.len())
        .filter(|&i| desperate || options[i].step != DefenseStep::Drop)
        .filter(|&i| spare_fp || options[i].effort().is_none())
        .collect();
    order.sort_by_key(|&i| (-options[i].score(), i));
    order
}

/// How `defender` orders its open defenses against an attack: [`choose_defenses`],
/// desperate below a third of its HP, with FP to spare above two thirds of its FP.
pub fn defender_choice(defender: &Fighter, options: &[DefenseOption]) -> Vec<usize> {
    let desperate = reeling(defender.hp, defender.sheet.hp_max);
    let spare_fp = defender.fp * 3 > defender.sheet.fp_max * 2;
    choose_defenses(options, desperate, spare_fp)
}

/// The AI aims at a location only when its effective skill there is at least this; below
/// it only the "always hits" rolls of 3 and 4 would land, and those favour any location
/// with a big multiplier (a policy choice, not a rule).
const MIN_AIMED_SKILL: i32 = 9;

/// Most Deceptive Attack levels the AI considers.
const MAX_DECEPTIVE: i32 = 3;

/// The most ways of striking the melee choice weighs (each then with every Deceptive
/// Attack level): eight always, two more with extra effort.
const MAX_BASES: usize = 10;

/// Locations the AI considers aiming at besides an unaimed blow: the ones that pay off
/// for some damage type (vitals for piercing and impaling, the neck for cutting, the skull
/// for anything).
const AIM_AT: [HitLocation; 3] = [HitLocation::Vitals, HitLocation::Neck, HitLocation::Skull];

/// Attack options that change a strike's odds, for [`Weigher::best_location`].
#[derive(Clone, Copy, Debug, Default)]
struct StrikeExtras {
    /// Deceptive Attack levels.
    deceptive: i32,
    /// A Rapid Strike (`Some(true)`: with Flurry of Blows).
    rapid: Option<bool>,
    /// One of a Dual-Weapon Attack's strikes (`Some(true)`: the off hand).
    dual: Option<bool>,
}

/// What [`DiceExpr::mean_excess`] gave for the thresholds asked so far, for one weapon's
/// damage: weighing a strike asks for the same few thresholds (a location's DR less the
/// damage bonus) over and over, and each answer is a sum over every total of the dice.
/// The value kept is the one worked out, so an answer from here is the same to the last
/// bit. Kept inline (no allocation); once full, further thresholds are worked out afresh.
#[derive(Clone, Copy, Debug)]
struct Excesses {
    dice: DiceExpr,
    known: [(i32, f64); Excesses::ROOM],
    len: usize,
}

impl Excesses {
    /// Thresholds kept. A strike weighs up to six DRs (torso, vitals, neck, skull, and the
    /// torso's and vitals' halved at a chink), each less a damage bonus (0, 1, 2 or −2 for
    /// the melee maneuvers; a fractional one asks two thresholds): at most 24, most of
    /// them the same few in practice, as the locations' DRs mostly coincide. Sixteen hold
    /// what a decision asks again; a threshold beyond them is worked out afresh, the same.
    const ROOM: usize = 16;

    fn new(dice: DiceExpr) -> Self {
        Excesses {
            dice,
            known: [(0, 0.0); Excesses::ROOM],
            len: 0,
        }
    }

    /// `dice.mean_excess(threshold)`.
    fn get(&mut self, threshold: i32) -> f64 {
        if let Some(&(_, v)) = self.known[..self.len].iter().find(|(t, _)| *t == threshold) {
            return v;
        }
        let v = self.dice.mean_excess(threshold);
        if self.len < Excesses::ROOM {
            self.known[self.len] = (threshold, v);
            self.len += 1;
        }
        v
    }
}

/// Weighs the acting unit's strikes with one weapon on one target: what does not change
/// from one way of striking to the next (the target's best defense against the weapon, the
/// weapon's mean damage over each DR) is worked out once for the up to forty maneuvers,
/// extra efforts and Deceptive Attack levels the melee choice weighs, with the same
/// expressions as for a single strike, so every value is the same to the last bit.
struct Weigher<'s, 'a> {
    s: &'s Situation<'a>,
    wi: usize,
    target: &'s UnitView<'s>,
    /// The target's best defense against this weapon, as it guards now.
    best_defense: Option<i32>,
    excesses: Excesses,
    /// The strike as a plan made where the unit stands, so that its modifiers come from
    /// the same function the resolution uses (nobody counted in the way: a policy
    /// shortcut); made once, then given each way of striking weighed.
    plan: Plan,
}

impl<'s, 'a> Weigher<'s, 'a> {
    fn new(s: &'s Situation<'a>, wi: usize, target: &'s UnitView<'s>) -> Self {
        let me = s.me();
        let w = &me.fighter.sheet.weapons[wi];
        Weigher {
            s,
            wi,
            target,
            best_defense: best_defense_score(target.fighter, target.fighter.guard, w.is_ranged()),
            excesses: Excesses::new(w.damage),
            plan: Plan {
                weapon: Some(wi),
                shots: if w.is_ranged() {
                    w.rof_rcl().0.min(me.fighter.shots[wi]).max(1)
                } else {
                    1
                },
                ..Plan::simple(Maneuver::Attack, me.pos)
            },
        }
    }

    /// Expected injury of one unaimed strike from where the unit stands, using the exact
    /// 3d6 chances; `damage_bonus` is added to the mean damage.
    fn strike_value(&mut self, maneuver: Maneuver, damage_bonus: f64) -> f64 {
        self.best_location(maneuver, damage_bonus, StrikeExtras::default(), false)
            .value
    }

    /// The location to aim a strike at (`None`: unaimed; only unaimed unless
    /// `consider_aim`) that gives the most expected injury, with that expected injury, for
    /// a strike with the given extras. An unaimed blow is valued as a torso hit.
    fn best_location(
        &mut self,
        maneuver: Maneuver,
        damage_bonus: f64,
        extras: StrikeExtras,
        consider_aim: bool,
    ) -> Aimed {
        let (s, wi, target) = (self.s, self.wi, self.target);
        let deceptive = extras.deceptive;
        let me = s.me();
        let w = &me.fighter.sheet.weapons[wi];
        let plan = &mut self.plan;
        plan.maneuver = maneuver;
        plan.deceptive = deceptive.clamp(0, i32::from(u8::MAX)) as u8;
        plan.effort = Effort {
            rapid_strike: extras.rapid.is_some(),
            flurry: extras.rapid == Some(true),
            ..Effort::default()
        };
        let situation = attack_situation(
            s.map,
            plan,
            (me.fighter, me.pos),
            (target.fighter, target.pos, target.facing),
            w,
            extras.dual,
            StrikeMoment::before_turn(me.fighter, Some(target.id), Some(wi)),
        );
        let skill = attack_skill(w, &situation);
        // A level of Deceptive Attack the effective skill does not allow is not taken
        // (`deceptive_levels`): the strike is the one with fewer levels, weighed as such.
        if situation.deceptive < deceptive {
            return Aimed {
                location: None,
                chink: false,
                value: f64::NEG_INFINITY,
                skill,
            };
        }
        let p_through = 1.0
            - self
                .best_defense
                .map_or(0.0, |d| success_chance(d - deceptive));
        let dr = target.fighter.sheet.dr;
        let excesses = &mut self.excesses;
        // Expected damage through DR from the exact distribution of the weapon's dice
        // (with a fractional bonus split between the two nearest whole numbers).
        let whole = damage_bonus.floor();
        let part = damage_bonus - whole;
        // With a whole bonus the second term is exactly 0 and is not worked out (the sum
        // of non-negative terms plus 0.0 is itself: the same value to the last bit).
        let mut mean_through = |dr: i32| {
            let over = dr - whole as i32;
            let at = (1.0 - part) * excesses.get(over);
            if part == 0.0 {
                at
            } else {
                at + part * excesses.get(over - 1)
            }
        };
        // Rapid fire: about one more hit per recoil of margin over an average roll (a
        // policy estimate, not a rule).
        let (_, rcl) = w.rof_rcl();
        let expected_hits = |skill: i32| {
            (1.0 + (f64::from(skill) - 10.5).max(0.0) / f64::from(rcl))
                .min(f64::from(situation.shots))
        };
        let mut value = |location: HitLocation, skill: i32, dr: i32| {
            let (num, den) = location.wounding_multiplier(w.damage_type);
            success_chance(skill)
                * p_through
                * mean_through(dr + location.natural_dr())
                * f64::from(num)
                / f64::from(den)
                * expected_hits(skill)
        };
        let mut best = Aimed {
            location: None,
            chink: false,
            value: value(HitLocation::Torso, skill, dr.torso()),
            skill,
        };
        let behind = situation.from_behind;
        if !consider_aim || skill + HitLocation::Vitals.aim_penalty() < MIN_AIMED_SKILL {
            return best;
        }
        let torso = HitLocation::Torso.wounding_multiplier(w.damage_type);
        for location in AIM_AT {
            let (num, den) = location.wounding_multiplier(w.damage_type);
            let aimed_skill = skill + location.aim_penalty_from(behind);
            // Only locations that wound more than the torso and that the AI can still hit,
            // at a skill that keeps its Deceptive Attack.
            if num * torso.1 <= torso.0 * den
                || aimed_skill < MIN_AIMED_SKILL
                || (deceptive > 0 && aimed_skill < MIN_DECEPTIVE_SKILL)
            {
                continue;
            }
            let v = value(location, aimed_skill, dr.at(location));
            if v > best.value {
                best = Aimed {
                    location: Some(location),
                    chink: false,
                    value: v,
                    skill,
                };
            }
        }
        // A chink in the armor of the torso (−8) or the vitals (−10), DR halved
        // (gurps-lite-and-socs.txt, "HIT LOCATIONS", armor chinks): piercing and impaling
        // blows only, and worth it only against real armor.
        if w.damage_type.finds_chinks()
            && dr.torso() >= 2
            && deceptive == 0
            && extras.dual.is_none()
        {
            for (location, penalty) in [(HitLocation::Torso, -8), (HitLocation::Vitals, -10)] {
                let aimed_skill = skill + penalty;
                if aimed_skill < MIN_AIMED_SKILL {
                    continue;
                }
                let v = value(location, aimed_skill, dr.at(location) / 2);
                if v > best.value {
                    best = Aimed {
                        location: (location != HitLocation::Torso).then_some(location),
                        chink: true,
                        value: v,
                        skill,
                    };
                }
            }
        }
        best
    }
}

/// Where [`Weigher::best_location`] aims and the expected injury.
#[derive(Clone, Copy, Debug)]
struct Aimed {
    /// Location aimed at (`None`: unaimed, or the torso for a chink).
    location: Option<HitLocation>,
    /// At a chink in the armor there.
    chink: bool,
    /// Expected injury (minus infinity: a strike whose Deceptive Attack the effective skill
    /// does not allow, not to be chosen).
    value: f64,
    /// The strike's effective skill, unaimed (with its Deceptive Attack levels).
    skill: i32,
}

/// One strike an enemy could make at the acting unit on its next turn, as [`threat`]
/// weighs it: the parts of its expected injury that do not depend on the unit's guard.
#[derive(Clone, Copy, Debug)]
struct FoeStrike {
    /// The chance the strike hits.
    p_hit: f64,
    /// A ranged strike (defended against as one).
    ranged: bool,
    /// Mean damage through the unit's torso DR (at least 0.5).
    mean: f64,
    /// The wounding multiplier, as a fraction.
    num: f64,
    den: f64,
}

/// The strikes each fighting enemy could make at the acting unit on its next turn (each
/// usable weapon within its reach), enemy by enemy: worked out once a decision, while
/// [`Foes::threat`] weighs them for every guard the AI considers.
#[derive(Clone, Debug, Default)]
struct Foes {
    /// Every enemy's strikes, one enemy after another.
    strikes: Vec<FoeStrike>,
    /// Where each enemy's strikes end in `strikes`.
    ends: Vec<usize>,
    /// The threat for each guard weighed so far (at most four a decision: Normal, None,
    /// Committed, Defensive), kept inline.
    threats: [Option<(Guard, f64)>; 4],
}

impl Foes {
    fn of(s: &Situation) -> Self {
        let me = s.me();
        let dr = f64::from(me.fighter.sheet.dr.torso());
        // Room for every unit and for a few strikes each up front: grown a push at a time,
        // the lists were reallocated several times a decision.
        let mut foes = Foes {
            strikes: Vec::with_capacity(2 * s.units.len()),
            ends: Vec::with_capacity(s.units.len()),
            threats: [None; 4],
        };
        for e in s.enemies() {
            let hexes = e.pos.unsigned_distance_to(me.pos);
            let reach = current_move(e.fighter).max(0) as u32;
            for (wi, w) in e.fighter.sheet.weapons.iter().enumerate() {
                if !e.fighter.can_use(wi) {
                    continue;
                }
                let (_, max) = w.reach();
                let in_reach = if w.is_ranged() {
                    s.yards(e.pos, me.pos) <= f64::from(max)
                } else {
                    hexes <= max + reach
                };
                if !in_reach {
                    continue;
                }
                let (num, den) = w.damage_type.wounding_multiplier();
                foes.strikes.push(FoeStrike {
                    p_hit: success_chance(w.skill),
                    ranged: w.is_ranged(),
                    mean: (w.damage.mean() - dr).max(0.5),
                    num: f64::from(num),
                    den: f64::from(den),
                });
            }
            foes.ends.push(foes.strikes.len());
        }
        foes
    }

    /// [`threat`] for `guard`, worked out the first time it is asked.
    fn threat(&mut self, s: &Situation, guard: Guard) -> f64 {
        if let Some(&(_, t)) = self.threats.iter().flatten().find(|(g, _)| *g == guard) {
            return t;
        }
        let t = threat(s, self, guard);
        if let Some(free) = self.threats.iter_mut().find(|k| k.is_none()) {
            *free = Some((guard, t));
        }
        t
    }
}

/// Whether `target` would retreat from a blow of weapon `wi` struck from `from` out of its
/// reach: it may retreat (not yet since its turn, not stunned, not after a Committed or
/// All-Out Attack, not struck from behind), there is a hex to retreat to, and one hex
/// more is beyond the weapon's reach (gurps-lite-and-socs.txt, "ATTACK/DEFENSE OPTIONS",
/// Retreat). The second blow of an All-Out Attack (Double), a Rapid Strike or (with the
/// off-hand weapon `wi`) a Dual-Weapon Attack is then lost.
fn retreats_out_of_reach(s: &Situation, from: Hex, target: &UnitView, wi: usize) -> bool {
    let f = target.fighter;
    let Some(w) = s.me().fighter.sheet.weapons.get(wi) else {
        return false;
    };
    if w.is_ranged()
        || f.retreated
        || f.stunned
        || matches!(f.guard, Guard::Committed(_) | Guard::None)
        || arc_of(target.pos, target.facing, from) == Arc::Back
        || w.reaches(from.unsigned_distance_to(target.pos) + 1)
    {
        return false;
    }
    let occupied = |h: Hex| {
        h == from
            || s.units
                .iter()
                .any(|u| u.id != target.id && u.pos == h && u.standing.fighting())
    };
    retreat_hex(s.map, from, target.pos, occupied).is_some()
}

/// Expected injury the enemies could deal the acting unit on their next turns if it keeps
/// `guard`: each enemy that can reach it uses its best weapon against its best defense.
fn threat(s: &Situation, foes: &Foes, guard: Guard) -> f64 {
    let me = s.me();
    // The chance of defending against a melee and a ranged strike, the same for every foe.
    let defends = [false, true]
        .map(|ranged| best_defense_score(me.fighter, guard, ranged).map_or(0.0, success_chance));
    let mut total = 0.0;
    let mut start = 0;
    for &end in &foes.ends {
        let mut best: f64 = 0.0;
        for strike in &foes.strikes[start..end] {
            let p_def = defends[usize::from(strike.ranged)];
            best = best.max(strike.p_hit * (1.0 - p_def) * strike.mean * strike.num / strike.den);
        }
        total += best;
        start = end;
    }
    total
}

impl GurpsAi {
    fn attack(maneuver: Maneuver, to: Option<Hex>, target: &UnitView, weapon: usize) -> Action {
        Action {
            maneuver,
            to,
            target: Some(target.id),
            weapon: Some(weapon as u8),
            ..Action::simple(Maneuver::DoNothing)
        }
    }

    /// The best strike that needs no movement, over weapons usable for `maneuver`.
    fn best_strike_here<'s>(
        &self,
        s: &'s Situation,
        legal: &Legal,
        maneuver: Maneuver,
        ranged: bool,
    ) -> Option<(f64, &'s UnitView<'s>, usize)> {
        let from = s.me().pos;
        let mut best: Option<(f64, &UnitView, usize)> = None;
        for (tid, wi) in legal.strikes(maneuver) {
            let wi = usize::from(wi);
            if s.me().fighter.sheet.weapons[wi].is_ranged() != ranged {
                continue;
            }
            let Some(target) = s.unit(tid) else { continue };
            if !s.strikes_at(from, target, wi) {
                continue;
            }
            let v = Weigher::new(s, wi, target).strike_value(maneuver, 0.0)
                / f64::from(target.fighter.hp.max(1));
            if best.is_none_or(|(bv, bt, _)| v > bv || (v == bv && target.id < bt.id)) {
                best = Some((v, target, wi));
            }
        }
        best
    }

    /// How far along the cheapest path towards `goal` the acting unit gets with
    /// `allowance`, stopping early at the first hex where `stop` holds; when even the first
    /// step of that path is beyond the allowance, a [`GurpsAi::detour`].
    fn advance(
        &self,
        s: &Situation,
        goal: Hex,
        allowance: u32,
        stop: impl Fn(Hex) -> bool,
    ) -> Option<Hex> {
        // The walk pays for facing as the move will (see `Situation::walk`).
        let (path, steps) = s.walk(goal, allowance, true)?;
        let mut spent = 0;
        let mut best = None;
        for (&h, &step) in path.iter().skip(1).zip(&steps) {
            if h == goal {
                break;
            }
            spent += step;
            if spent > allowance {
                break;
            }
            best = Some(h);
            if stop(h) {
                break;
            }
        }
        best.or_else(|| Self::detour(s, goal, allowance))
    }

    /// A hex within this turn's `allowance` from which `goal` costs fewer movement points
    /// to reach than from here, over hexes that each fit in a turn's allowance (the
    /// cheapest such hex, then the nearest to the goal): the way on when the cheapest path
    /// starts with a step the allowance never covers, such as rough ground before a
    /// kneeling fighter's 1 point a turn, where it would otherwise wait for ever. `None`
    /// when no such way leads to the goal.
    fn detour(s: &Situation, goal: Hex, allowance: u32) -> Option<Hex> {
        let from = s.me().pos;
        let enter = s.entry().open_to(goal);
        let within = |h: Hex| enter.hex(s.map, h).filter(|&c| h == goal || c <= allowance);
        let cost_from = |h: Hex| {
            let path = s.map.path(h, goal, within)?;
            s.map.path_cost(&path)
        };
        let here = cost_from(from)?;
        from.range(allowance)
            .filter(|&h| h != from && h != goal && s.path_to(h, allowance).is_ok())
            .filter_map(|h| Some((cost_from(h)?, h)))
            .filter(|&(cost, _)| cost < here)
            .min_by_key(|&(cost, h)| (cost, h.unsigned_distance_to(goal), h.x, h.y))
            .map(|(_, h)| h)
    }
}

impl GurpsAi {
    /// A broken fighter runs for the map's edge: the edge hex that is near and far from
    /// the foes (it leaves the battle when it starts a turn there).
    fn flee(&self, s: &Situation, legal: &Legal) -> Action {
        let Some(mv) = legal.get(Maneuver::Move) else {
            return Action::simple(Maneuver::DoNothing);
        };
        let me = s.me();
        let foes: Vec<Hex> = s.enemies().map(|e| e.pos).collect();
        let score = |h: Hex| {
            let near = foes
                .iter()
                .map(|f| f.unsigned_distance_to(h))
                .min()
                .unwrap_or(0);
            (
                me.pos.unsigned_distance_to(h) as i64 - 2 * i64::from(near),
                h.x,
                h.y,
            )
        };
        let goal = s
            .map
            .edges()
            .iter()
            .copied()
            .filter(|&h| s.map.move_cost(h).is_some() && !s.occupied(h))
            .min_by_key(|&h| score(h));
        let Some(goal) = goal else {
            return Action::simple(Maneuver::DoNothing);
        };
        let Some((path, steps)) = s.walk(goal, mv.allowance, false) else {
            return Action::simple(Maneuver::DoNothing);
        };
        let mut spent = 0;
        let mut dest = None;
        for (&h, &c) in path.iter().skip(1).zip(&steps) {
            spent += c;
            if spent > mv.allowance {
                break;
            }
            dest = Some(h);
        }
        match dest {
            Some(to) => Action {
                to: Some(to),
                ..Action::simple(Maneuver::Move)
            },
            None => Action::simple(Maneuver::DoNothing),
        }
    }
}

impl Policy for GurpsAi {
    type Situation<'a> = Situation<'a>;
    type Legal = Legal;
    type Action = Action;

    fn choose(&self, s: &Situation<'_>, legal: &Legal) -> Action {
        let me = s.me();
        let f = me.fighter;
        let cautious = self.style == AiStyle::Cautious;
        let mut enemies: Vec<&UnitView> = Vec::with_capacity(s.units.len());
        enemies.extend(s.enemies());
        if enemies.is_empty() {
            return Action::simple(Maneuver::DoNothing);
        }
        // Stunned: Do Nothing is all there is. On the ground: get up first (lying goes to
        // kneeling, then up).
        if f.stunned {
            return Action::simple(Maneuver::DoNothing);
        }
        if f.fleeing {
            return self.flee(s, legal);
        }
        // A dropped or jammed weapon is readied before anything else.
        if legal.get(Maneuver::Ready).is_some()
            && let Some(&wi) = legal
                .reloadable()
                .iter()
                .find(|&&wi| f.weapon_state[usize::from(wi)] != WeaponState::Ready)
        {
            return Action {
                weapon: Some(wi),
                ..Action::simple(Maneuver::Ready)
            };
        }
        if f.can_take_up_shield() && legal.get(Maneuver::Ready).is_some() {
            return Action::simple(Maneuver::Ready);
        }
        if f.disarmed() && !(0..f.sheet.weapons.len()).any(|w| f.can_use(w)) {
            let m = Maneuver::AllOutDefense(AodOption::IncreasedDodge);
            if legal.get(m).is_some() {
                return Action::simple(m);
            }
        }
        if f.posture != Posture::Standing {
            for to in [Posture::Standing, Posture::Kneeling] {
                let m = Maneuver::ChangePosture(to);
                if legal.get(m).is_some() {
                    return Action::simple(m);
                }
            }
        }
        // Nearest first, then the most hurt, then by id (a unique key). Only a group attack
        // goes through them in that order; otherwise the nearest is enough.
        let key = |e: &UnitView| (me.pos.unsigned_distance_to(e.pos), e.fighter.hp, e.id);
        if s.grouped {
            enemies.sort_unstable_by_key(|e| key(e));
        }
        let Some(&nearest) = enemies.iter().min_by_key(|e| key(e)) else {
            return Action::simple(Maneuver::DoNothing);
        };
        let adjacent = enemies
            .iter()
            .filter(|e| me.pos.unsigned_distance_to(e.pos) <= 1)
            .count();
        // Can any enemy reach striking distance of us on its next turn?
        let threatened = enemies
            .iter()
            .any(|e| me.pos.unsigned_distance_to(e.pos) <= current_move(e.fighter) as u32 + 1);

        // A side that fights as a group strikes together at the foe most of it can reach
        // (gurps-lite-and-socs.txt, "GROUP COMBAT"), when at least two can.
        if s.grouped && legal.get(Maneuver::Attack).is_some() {
            let mut best: Option<(usize, i32, UnitId, u8)> = None;
            for e in &enemies {
                let g = s.group_for(e);
                if g.len() < 2 {
                    continue;
                }
                let key = (g.len(), -e.fighter.hp);
                if best.is_none_or(|b| key > (b.0, b.1)) {
                    best = Some((g.len(), -e.fighter.hp, e.id, g[0].1));
                }
            }
            if let Some((_, _, target, weapon)) = best {
                return Action {
                    target: Some(target),
                    weapon: Some(weapon),
                    group: true,
                    ..Action::simple(Maneuver::Attack)
                };
            }
        }

        // Badly hurt and cautious, with a foe at hand: All-Out Defense.
        if cautious && reeling(f.hp, f.sheet.hp_max) && adjacent > 0 {
            let parry = f.sheet.weapons.iter().filter_map(|w| w.parry).max();
            let option = if parry.is_some_and(|p| p > f.sheet.dodge) {
                AodOption::IncreasedParry
            } else {
                AodOption::IncreasedDodge
            };
            if legal.get(Maneuver::AllOutDefense(option)).is_some() {
                return Action::simple(Maneuver::AllOutDefense(option));
            }
        }

        // Melee at hand: weigh each melee maneuver's expected injury, as a share of the
        // target's hit points, against what the enemies could do back, as a share of ours.
        if let Some((_, target, wi)) = self.best_strike_here(s, legal, Maneuver::Attack, false) {
            let risk = if cautious { 2.0 } else { 1.0 };
            let their_hp = f64::from(target.fighter.hp.max(1));
            let my_hp = f64::from(f.hp.max(1));
            let from = me.pos;
            let score = |dealt: f64, taken: f64| dealt / their_hp - risk * taken / my_hp;
            // The strikes weighed, each plain and then with every Deceptive Attack level:
            // (maneuver, strikes, damage bonus, guard afterwards, Rapid Strike and extra
            // effort). Up to [`MAX_BASES`], kept inline.
            let plain = Effort::default();
            let mut bases = [(Maneuver::Attack, 1.0, 0.0, Guard::Normal, plain); MAX_BASES];
            let always = [
                (Maneuver::Attack, 1.0, 0.0, Guard::Normal, plain),
                (
                    Maneuver::AllOutAttack(AoaOption::Determined),
                    1.0,
                    0.0,
                    Guard::None,
                    plain,
                ),
                (
                    Maneuver::AllOutAttack(AoaOption::Double),
                    2.0,
                    0.0,
                    Guard::None,
                    plain,
                ),
                (
                    Maneuver::AllOutAttack(AoaOption::Strong),
                    1.0,
                    2.0,
                    Guard::None,
                    plain,
                ),
                (
                    Maneuver::CommittedAttack(CommitOption::Determined),
                    1.0,
                    0.0,
                    Guard::Committed(wi as u8),
                    plain,
                ),
                (
                    Maneuver::CommittedAttack(CommitOption::Strong),
                    1.0,
                    1.0,
                    Guard::Committed(wi as u8),
                    plain,
                ),
                (
                    Maneuver::DefensiveAttack,
                    1.0,
                    -2.0,
                    Guard::Defensive,
                    plain,
                ),
                (
                    Maneuver::Attack,
                    2.0,
                    0.0,
                    Guard::Normal,
                    Effort {
                        rapid_strike: true,
                        ..plain
                    },
                ),
            ];
            let mut count = always.len();
            bases[..count].copy_from_slice(&always);
            // Extra effort while FP are to spare (more than two thirds left): Mighty Blow on
            // the plain attack, Flurry of Blows on the Rapid Strike.
            if s.extra_effort && f.fp * 3 > f.sheet.fp_max * 2 {
                bases[count] = (
                    Maneuver::Attack,
                    1.0,
                    2.0,
                    Guard::Normal,
                    Effort {
                        mighty_blow: true,
                        ..plain
                    },
                );
                bases[count + 1] = (
                    Maneuver::Attack,
                    2.0,
                    0.0,
                    Guard::Normal,
                    Effort {
                        rapid_strike: true,
                        flurry: true,
                        ..plain
                    },
                );
                count += 2;
            }
            let bases = &bases[..count];
            // Each with Deceptive Attack too: −2 to hit per −1 to the foe's defense, final
            // effective skill at least 10 (a level it does not allow is weighed as
            // impossible: `best_location`). The largest bonus a maneuver gives to hit,
            // All-Out Attack (Determined)'s +4, and an Evaluate's count towards it.
            let best = f.sheet.weapons[wi].skill
                + AOA_DETERMINED_MELEE
                + StrikeMoment::before_turn(f, Some(target.id), Some(wi)).evaluate;
            let levels = (1..=MAX_DECEPTIVE)
                .take_while(|l| best - 2 * l >= MIN_DECEPTIVE_SKILL)
                .count() as i32;
            // Double and Strong hit as a plain attack would; Determined adds its bonus.
            let weighed_as = |m: Maneuver| match m {
                Maneuver::AllOutAttack(AoaOption::Double | AoaOption::Strong) => Maneuver::Attack,
                other => other,
            };
            // Strikes alike are weighed once a level (an All-Out Double strikes as a plain
            // Attack, a Mighty Blow as an All-Out Strong): the first base each one is like.
            let alike: [usize; MAX_BASES] = std::array::from_fn(|i| {
                let key = |j: usize| {
                    let (m, _, bonus, _, effort): (Maneuver, f64, f64, Guard, Effort) = bases[j];
                    let rapid = (effort.rapid_strike, effort.flurry);
                    (weighed_as(m), bonus.to_bits(), rapid)
                };
                if i < count {
                    (0..i).find(|&j| key(j) == key(i)).unwrap_or(i)
                } else {
                    i
                }
            });
            let mut weighed = [[None::<Aimed>; 1 + MAX_DECEPTIVE as usize]; MAX_BASES];
            // Every base plain first, then each base with each level, in that order (the
            // first of equally good candidates is kept).
            let candidates = (0..count)
                .map(|i| (i, 0))
                .chain((0..count).flat_map(|i| (1..=levels).map(move |l| (i, l))));
            let mut foes = Foes::of(s);
            let mut weigh = Weigher::new(s, wi, target);
            let mut best: Option<(f64, Maneuver, Aimed, i32, Effort)> = None;
            // A foe that retreats from the first of two blows out of the weapon's reach is
            // not there for the second (the defender retreats whenever it may).
            let second_blow_lost = retreats_out_of_reach(s, from, target, wi);
            for (i, levels) in candidates {
                let (m, mut times, bonus, guard, effort) = bases[i];
                if second_blow_lost {
                    times = times.min(1.0);
                }
                if legal.get(m).is_none() {
                    continue;
                }
                // A level the strike's effective skill does not allow is weighed as
                // impossible: known from the plain strike, weighed first, without weighing
                // it again.
                if levels > 0
                    && weighed[alike[i]][0]
                        .is_some_and(|plain| levels > deceptive_levels(plain.skill, MAX_DECEPTIVE))
                {
                    continue;
                }
                let slot = &mut weighed[alike[i]][levels as usize];
                let aimed = *slot.get_or_insert_with(|| {
                    weigh.best_location(
                        weighed_as(m),
                        bonus,
                        StrikeExtras {
                            deceptive: levels,
                            rapid: effort.rapid_strike.then_some(effort.flurry),
                            dual: None,
                        },
                        true,
                    )
                });
                if aimed.value == f64::NEG_INFINITY {
                    continue;
                }
                let taken = foes.threat(s, guard);
                let v = score(times * aimed.value, taken);
                if best.is_none_or(|b| v > b.0) {
                    best = Some((v, m, aimed, levels, effort));
                }
            }
            // A Dual-Weapon Attack with a second one-handed melee weapon, both on this foe.
            if f.sheet.shield.is_none()
                && !f.off_arm_useless()
                && f.sheet.weapons[wi].hands == 1
                && legal.get(Maneuver::Attack).is_some()
                && let Some(second) = (0..f.sheet.weapons.len()).find(|&w2| {
                    w2 != wi
                        && f.sheet.weapons[w2].hands == 1
                        && !f.sheet.weapons[w2].is_ranged()
                        && f.can_use(w2)
                        && s.strikes_at(from, target, w2)
                })
            {
                let one = |weigh: &mut Weigher, off: bool| {
                    let extras = StrikeExtras {
                        dual: Some(off),
                        ..StrikeExtras::default()
                    };
                    weigh
                        .best_location(Maneuver::Attack, 0.0, extras, false)
                        .value
                };
                // The off-hand blow is lost on a foe the first one drives out of its reach.
                let dealt = one(&mut weigh, false)
                    + if retreats_out_of_reach(s, from, target, second) {
                        0.0
                    } else {
                        one(&mut Weigher::new(s, second, target), true)
                    };
                let taken = foes.threat(s, Guard::Normal);
                let v = score(dealt, taken);
                if best.is_none_or(|b| v > b.0) {
                    let mut action = Self::attack(Maneuver::Attack, None, target, wi);
                    action.effort.dual_weapon = Some(second as u8);
                    return action;
                }
            }
            if let Some((_, m, aimed, levels, effort)) = best {
                let mut action = Self::attack(m, None, target, wi);
                action.location = aimed.location;
                action.chink = aimed.chink;
                action.deceptive = levels as u8;
                action.effort = effort;
                return action;
            }
        }

        // Shooting from here.
        if let Some((_, target, wi)) = self.best_strike_here(s, legal, Maneuver::Attack, true) {
            let acc = match f.sheet.weapons[wi].mode {
                WeaponMode::Ranged { acc, .. } => acc,
                WeaponMode::Melee { .. } => 0,
            };
            let aimed = match f.aim {
                Some(a) if a.target == target.id && usize::from(a.weapon) == wi => a.turns,
                _ => 0,
            };
            let wanted = match (cautious, threatened) {
                (_, true) if adjacent > 0 => 0,
                (false, true) => 0,
                (false, false) => 1,
                (true, true) => 1,
                (true, false) => 3,
            };
            if acc > 0 && aimed < wanted && legal.get(Maneuver::Aim).is_some() {
                // Aiming in place: braced.
                let mut action = Self::attack(Maneuver::Aim, None, target, wi);
                action.brace = true;
                return action;
            }
            let mut action = Self::attack(Maneuver::Attack, None, target, wi);
            let aimed = Weigher::new(s, wi, target).best_location(
                Maneuver::Attack,
                0.0,
                StrikeExtras::default(),
                true,
            );
            action.location = aimed.location;
            action.chink = aimed.chink;
            return action;
        }

        // Reload an empty ranged weapon when nobody is at hand.
        if legal.get(Maneuver::Ready).is_some()
            && adjacent == 0
            && let Some(&wi) = legal.reloadable().first()
        {
            return Action {
                maneuver: Maneuver::Ready,
                to: None,
                target: None,
                weapon: Some(wi),
                ..Action::simple(Maneuver::DoNothing)
            };
        }

        // A cautious melee fighter lets a foe that can reach it come to it: Wait, but not
        // twice running (two waiting fighters would otherwise stare at each other).
        if cautious
            && threatened
            && !f.waited()
            && nearest.fighter.waiting.is_none()
            && legal.get(Maneuver::Wait).is_some()
            && let Some(wi) = (0..f.sheet.weapons.len())
                .find(|&w| !f.sheet.weapons[w].is_ranged() && f.can_use(w))
        {
            return Action {
                weapon: Some(wi as u8),
                ..Action::simple(Maneuver::Wait)
            };
        }

        // Close in: melee fighters to the nearest foe; shooters until a shot opens up.
        let Some(move_option) = legal.get(Maneuver::Move) else {
            return Action::simple(Maneuver::DoNothing);
        };
        let loaded_ranged: Vec<usize> = (0..f.sheet.weapons.len())
            .filter(|&i| f.sheet.weapons[i].is_ranged() && f.can_use(i))
            .collect();
        let shooter = !loaded_ranged.is_empty();
        let dest = self.advance(s, nearest.pos, move_option.allowance, |h| {
            shooter
                && enemies
                    .iter()
                    .any(|e| loaded_ranged.iter().any(|&wi| s.strikes_at(h, e, wi)))
        });
        let Some(dest) = dest else {
            return Action::simple(Maneuver::DoNothing);
        };
        // Aggressive skilled fighters Move and Attack when the move ends next to the foe.
        // (Move may reach one hex further after running; Move and Attack may not.)
        let attack_reach = legal.get(Maneuver::MoveAndAttack).map(|o| o.allowance);
        if !cautious
            && !shooter
            && dest.unsigned_distance_to(nearest.pos) == 1
            && let Some(reach) = attack_reach
            && s.path_to(dest, reach).is_ok()
        {
            for (wi, w) in f.sheet.weapons.iter().enumerate() {
                if !w.is_ranged() && w.skill >= 13 && f.can_use(wi) {
                    let mut action = Self::attack(Maneuver::MoveAndAttack, Some(dest), nearest, wi);
                    // Heroic Charge while FP are to spare (extra effort).
                    action.effort.heroic_charge = s.extra_effort && f.fp * 3 > f.sheet.fp_max * 2;
                    return action;
                }
            }
        }
        Action {
            maneuver: Maneuver::Move,
            to: Some(dest),
            target: None,
            weapon: None,
            ..Action::simple(Maneuver::DoNothing)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::UnitId;
    use crate::hexmap::{HexMap, MapShape, Orientation, Terrain};
    use crate::rules::gurps::actions::{legal_options, plan, test_situation};
    use crate::rules::gurps::combat::defense_options;
    use crate::rules::gurps::equipment::Catalog;
    use crate::rules::gurps::sheet::{Fighter, GurpsStats, resolve_sheet};
    use std::sync::Arc;

    fn fighter(skill: (&str, i32), weapons: &[&str]) -> Fighter {
        let stats = GurpsStats {
            st: Some(11),
            dx: Some(12),
            ht: Some(11),
            skills: [(skill.0.to_string(), skill.1)].into_iter().collect(),
            weapons: weapons.iter().map(|w| w.to_string().into()).collect(),
            ..Default::default()
        };
        Fighter::new(Arc::new(resolve_sheet(&stats, Catalog::builtin()).unwrap()))
    }

    /// A broadsword knight (ST `st`, DX `dx`, Broadsword `skill`) in plate armor (DR 6)
    /// and the same knight without it.
    fn knights(st: i32, dx: i32, skill: i32) -> (Fighter, Fighter) {
        let mut knight = GurpsStats {
            st: Some(st),
            dx: Some(dx),
            ht: Some(11),
            skills: [("Broadsword".to_string(), skill)].into_iter().collect(),
            weapons: vec!["broadsword".into()],
            armor: Some("plate armor".into()),
            ..Default::default()
        };
        let of = |stats: &GurpsStats| {
            Fighter::new(Arc::new(resolve_sheet(stats, Catalog::builtin()).unwrap()))
        };
        let armored = of(&knight);
        knight.armor = None;
        (armored, of(&knight))
    }

    fn decide(map: &HexMap, units: &[(Fighter, Hex, u8)], style: AiStyle) -> Action {
        let s = test_situation(map, units, false);
        let legal = legal_options(&s);
        let action = GurpsAi { style }.choose(&s, &legal);
        plan(&s, &action).unwrap_or_else(|e| panic!("AI chose an illegal action {action:?}: {e}"));
        action
    }

    fn map() -> HexMap {
        HexMap::new(
            MapShape::Hexagon { radius: 10 },
            Orientation::Pointy,
            1.0,
            "yd",
        )
    }

    /// gurps-lite-and-socs.txt "ATTACK/DEFENSE OPTIONS", Retreat: a foe in front that may
    /// retreat steps out of a broadsword's reach 1, so the second of two blows is not
    /// counted; it is when the weapon reaches 2 (quarterstaff), when the foe has retreated
    /// already or is stunned, or when it is struck from behind or hemmed in.
    #[test]
    fn a_second_blow_misses_a_foe_that_retreats() {
        let m = map();
        let me = fighter(("Broadsword", 14), &["broadsword", "quarterstaff"]);
        let foe = fighter(("Broadsword", 12), &["broadsword"]);
        // Everyone faces +x: the foe at (-1, 0) faces the attacker at the origin.
        let front = [
            (me.clone(), Hex::ZERO, 0),
            (foe.clone(), Hex::new(-1, 0), 1),
        ];
        let s = test_situation(&m, &front, false);
        assert!(retreats_out_of_reach(&s, Hex::ZERO, &s.units[1], 0));
        assert!(
            !retreats_out_of_reach(&s, Hex::ZERO, &s.units[1], 1),
            "reach 2"
        );
        for change in [
            |f: &mut Fighter| f.retreated = true,
            |f: &mut Fighter| f.stunned = true,
        ] {
            let mut units = front.clone();
            change(&mut units[1].0);
            let s = test_situation(&m, &units, false);
            assert!(!retreats_out_of_reach(&s, Hex::ZERO, &s.units[1], 0));
        }
        let behind = [(me.clone(), Hex::ZERO, 0), (foe.clone(), Hex::new(1, 0), 1)];
        let s = test_situation(&m, &behind, false);
        assert!(!retreats_out_of_reach(&s, Hex::ZERO, &s.units[1], 0));
        // Hemmed in: every hex farther from the attacker holds a fighter.
        let mut hemmed = front.to_vec();
        for n in Hex::new(-1, 0).all_neighbors() {
            if n.unsigned_distance_to(Hex::ZERO) > 1 {
                hemmed.push((foe.clone(), n, 1));
            }
        }
        let s = test_situation(&m, &hemmed, false);
        assert!(!retreats_out_of_reach(&s, Hex::ZERO, &s.units[1], 0));
    }

    #[test]
    fn swordsman_closes_in_then_attacks() {
        let m = map();
        let units = [
            (fighter(("Broadsword", 12), &["broadsword"]), Hex::ZERO, 0),
            (
                fighter(("Broadsword", 12), &["broadsword"]),
                Hex::new(8, 0),
                1,
            ),
        ];
        let a = decide(&m, &units, AiStyle::Aggressive);
        assert_eq!(a.maneuver, Maneuver::Move);
        assert_eq!(a.to.unwrap().unsigned_distance_to(Hex::ZERO), 5);
        let units = [
            (fighter(("Broadsword", 12), &["broadsword"]), Hex::ZERO, 0),
            (
                fighter(("Broadsword", 12), &["broadsword"]),
                Hex::new(1, 0),
                1,
            ),
        ];
        // The cautious AI keeps its defenses: a plain or a Defensive Attack.
        let a = decide(&m, &units, AiStyle::Cautious);
        assert!(
            matches!(a.maneuver, Maneuver::Attack | Maneuver::DefensiveAttack),
            "{a:?}"
        );
        assert_eq!(a.target, Some(UnitId(1)));
        // Two attacks at skill 12 against Parry 9 expect more injury than one at 16, and the
        // aggressive AI accepts the lost defense for it.
        let a = decide(&m, &units, AiStyle::Aggressive);
        assert_eq!(a.maneuver, Maneuver::AllOutAttack(AoaOption::Double));
    }

    /// A cautious swordsman with a foe on its way lets it come: Wait (and not twice running).
    #[test]
    fn cautious_fighters_wait_for_the_foe() {
        let m = map();
        let mut me = fighter(("Broadsword", 12), &["broadsword"]);
        let units = [
            (me.clone(), Hex::ZERO, 0),
            (
                fighter(("Broadsword", 12), &["broadsword"]),
                Hex::new(4, 0),
                1,
            ),
        ];
        let a = decide(&m, &units, AiStyle::Cautious);
        assert_eq!((a.maneuver, a.weapon), (Maneuver::Wait, Some(0)));
        me.last_maneuver = Some(Maneuver::Wait);
        let units = [
            (me, Hex::ZERO, 0),
            (
                fighter(("Broadsword", 12), &["broadsword"]),
                Hex::new(4, 0),
                1,
            ),
        ];
        assert_ne!(
            decide(&m, &units, AiStyle::Cautious).maneuver,
            Maneuver::Wait
        );
    }

    /// A master (skill 18) against a good parry (Broadsword 16: Parry 11) gains more from
    /// Deceptive Attack (−2 to hit per −1 to the defense) or from aiming at the skull (−7,
    /// ×4) than from a plain blow, and takes one of them.
    /// gurps-lite-and-socs.txt, "HIT LOCATIONS", armor chinks (−8 torso, −10 elsewhere, DR
    /// halved): a master spearman (skill 20, 1d+1 impaling) facing plate (DR 6) aims at a
    /// chink, where his blows get through; against an unarmored foe he does not.
    #[test]
    fn masters_aim_at_chinks_in_heavy_armor() {
        let m = map();
        let (armored, bare) = knights(11, 10, 10);
        assert_eq!(armored.sheet.dr.torso(), 6);
        let units = [
            (fighter(("Spear", 20), &["spear"]), Hex::ZERO, 0),
            (armored, Hex::new(1, 0), 1),
        ];
        let a = decide(&m, &units, AiStyle::Cautious);
        assert!(a.chink, "{a:?}");
        let units = [
            (fighter(("Spear", 20), &["spear"]), Hex::ZERO, 0),
            (bare, Hex::new(1, 0), 1),
        ];
        let a = decide(&m, &units, AiStyle::Cautious);
        assert!(!a.chink, "{a:?}");
    }

    #[test]
    fn masters_use_deceptive_attacks() {
        let m = map();
        let units = [
            (fighter(("Broadsword", 18), &["broadsword"]), Hex::ZERO, 0),
            (
                fighter(("Broadsword", 16), &["broadsword"]),
                Hex::new(1, 0),
                1,
            ),
        ];
        let a = decide(&m, &units, AiStyle::Cautious);
        assert!(a.deceptive > 0 || a.location.is_some(), "{a:?}");
        assert!(18 - 2 * i32::from(a.deceptive) >= MIN_DECEPTIVE_SKILL);
        // With the skull out of reach of its skill (14: 7 after the penalty), Deceptive
        // Attack is what pays.
        let units = [
            (fighter(("Broadsword", 15), &["broadsword"]), Hex::ZERO, 0),
            (
                fighter(("Broadsword", 16), &["broadsword"]),
                Hex::new(1, 0),
                1,
            ),
        ];
        let a = decide(&m, &units, AiStyle::Cautious);
        assert_eq!(a.location, None, "{a:?}");
        assert!(a.deceptive > 0, "{a:?}");
    }

    #[test]
    fn archer_aims_when_safe_and_reloads_when_empty() {
        let m = map();
        let units = [
            (fighter(("Bow", 13), &["longbow"]), Hex::ZERO, 0),
            (
                fighter(("Broadsword", 12), &["broadsword"]),
                Hex::new(10, -5),
                1,
            ),
        ];
        let a = decide(&m, &units, AiStyle::Aggressive);
        assert_eq!(a.maneuver, Maneuver::Aim);
        let mut archer = fighter(("Bow", 13), &["longbow"]);
        archer.shots[0] = 0;
        let units = [
            (archer, Hex::ZERO, 0),
            (
                fighter(("Broadsword", 12), &["broadsword"]),
                Hex::new(10, -5),
                1,
            ),
        ];
        let a = decide(&m, &units, AiStyle::Aggressive);
        assert_eq!(a.maneuver, Maneuver::Ready);
    }

    /// The kept excesses are the ones worked out, for every threshold and in any order,
    /// also past the room kept (then worked out afresh).
    #[test]
    fn kept_excesses_are_the_worked_out_ones() {
        for dice in ["1d-2", "1d+1", "2d", "3d+2", "2d8"] {
            let dice: DiceExpr = dice.parse().unwrap();
            let mut kept = Excesses::new(dice);
            for round in 0..3 {
                for t in (-4..24).rev().chain(-4..24) {
                    let t = if round == 1 { 20 - t } else { t };
                    assert_eq!(
                        kept.get(t).to_bits(),
                        dice.mean_excess(t).to_bits(),
                        "{dice:?} over {t}"
                    );
                }
            }
        }
    }

    /// A weigher asked about many ways of striking in a row gives what a fresh one gives
    /// for each, to the last bit: what it keeps between strikes does not leak into the next.
    #[test]
    fn a_reused_weigher_weighs_as_a_fresh_one() {
        let m = map();
        let (armored, bare) = knights(13, 11, 14);
        let attackers = [
            fighter(("Spear", 20), &["spear"]),
            fighter(("Broadsword", 18), &["broadsword", "large knife"]),
            fighter(("Brawling", 12), &["punch"]),
            fighter(("Bow", 15), &["longbow"]),
        ];
        let maneuvers = [
            Maneuver::Attack,
            Maneuver::AllOutAttack(AoaOption::Determined),
            Maneuver::CommittedAttack(CommitOption::Determined),
            Maneuver::DefensiveAttack,
        ];
        let mut weighed = 0;
        for me in &attackers {
            for foe in [&armored, &bare] {
                for at in [Hex::new(1, 0), Hex::new(5, -2)] {
                    let units: Vec<(Fighter, Hex, u8)> =
                        vec![(me.clone(), Hex::ZERO, 0), (foe.clone(), at, 1)];
                    let s = test_situation(&m, &units, true);
                    let target = &s.units[1];
                    for wi in 0..me.sheet.weapons.len() {
                        let mut reused = Weigher::new(&s, wi, target);
                        for &m in &maneuvers {
                            for bonus in [0.0, 1.0, 2.0, -2.0, 0.5] {
                                for deceptive in 0..=MAX_DECEPTIVE {
                                    for rapid in [None, Some(false), Some(true)] {
                                        for dual in [None, Some(false), Some(true)] {
                                            for aim in [false, true] {
                                                let extras = StrikeExtras {
                                                    deceptive,
                                                    rapid,
                                                    dual,
                                                };
                                                let a = reused.best_location(m, bonus, extras, aim);
                                                let b = Weigher::new(&s, wi, target)
                                                    .best_location(m, bonus, extras, aim);
                                                assert_eq!(
                                                    (a.location, a.chink, a.value.to_bits()),
                                                    (b.location, b.chink, b.value.to_bits()),
                                                    "{m:?} {bonus} {extras:?} {aim}"
                                                );
                                                weighed += usize::from(a.value > 0.0);
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(weighed > 1000, "{weighed} strikes that could wound");
    }

    #[test]
    fn best_defense_first() {
        let f = fighter(("Broadsword", 14), &["broadsword"]);
        let opts = defense_options(&f, false, &[]);
        // Dodge 8, Parry 10
        assert_eq!(choose_defenses(&opts, false, false), vec![1, 0]);
    }

    /// A fighter who cannot stand (crippled leg) kneels, so it covers one hex a turn
    /// (gurps-traveller-gm-screen.txt, "POSITIONS": kneeling +2 per hex, Move 5 / 3). Rough
    /// ground (2 points) rings its foe except on one side: the cheapest paths start with a
    /// rough hex, beyond its allowance, and Doing Nothing would wait for ever. It steps
    /// towards the open side instead, a hex from which the foe is cheaper to reach.
    #[test]
    fn a_kneeling_fighter_goes_round_rough_ground_it_cannot_enter() {
        let mut map = map();
        let foe_at = Hex::new(0, 0);
        let gap = Hex::new(0, 1);
        for h in foe_at.all_neighbors() {
            if h != gap {
                map.set_terrain(h, Terrain::Difficult);
            }
        }
        let mut me = fighter(("Broadsword", 12), &["broadsword"]);
        me.posture = Posture::Kneeling;
        me.crippled.push(HitLocation::RightLeg);
        let foe = fighter(("Broadsword", 12), &["broadsword"]);
        // Next to the ring: straight on costs 2 + 1, round by the gap 5 (all 1-point hexes).
        let from = Hex::new(-2, 0);
        let units = [(me, from, 0), (foe.clone(), foe_at, 1)];
        let action = decide(&map, &units, AiStyle::Aggressive);
        assert_eq!(action.maneuver, Maneuver::Move, "{action:?}");
        assert_eq!(action.to, Some(Hex::new(-2, 1)));
        // With the gap closed too there is no way in at a hex a turn: it waits.
        map.set_terrain(gap, Terrain::Difficult);
        let units = [(units[0].0.clone(), from, 0), (foe, foe_at, 1)];
        let action = decide(&map, &units, AiStyle::Aggressive);
        assert_eq!(action.maneuver, Maneuver::DoNothing, "{action:?}");
    }
}
