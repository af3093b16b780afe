//! The odds of a planned action before it is confirmed (the window's odds preview): for
//! each attack roll the action makes, the effective skill with its labelled modifiers, the
//! chance to hit, the target's best active defense with its chance, and the expected
//! injury. Everything comes from the functions that resolve the attack: the action is
//! checked by [`plan`], the attack's situation made by [`attack_situation`], the defenses
//! by [`defense_against`] and [`defenses_against`] and chosen as the defender would
//! ([`defender_choice`]), damage goes through [`injury_steps`]; the chances are exact over
//! the 3d6 rolls ([`success_chance`], [`gurps_critical`]) and the damage dice
//! ([`DiceExpr::distribution`]).
//!
//! What the resolution learns only as it goes is left out: the margin of an All-Out
//! Attack (Feint)'s Quick Contest, attacks by foes on Wait that the move may trigger, the
//! critical hit table's extra effects. A second strike on the same foe is valued as if
//! the foe had defended the first with the defense it prefers (a parry made, a retreat
//! used), where the retreat took it: a retreat beyond the weapon's reach loses the blow,
//! which the note then says.

use super::actions::{Plan, PlannedStrike, Situation, UnitView, plan};
use super::ai::{choose_defenses, defender_choice};
use super::combat::{
    DefenseKind, DefenseOption, DefenseStep, StrikeMoment, attack_modifiers, attack_situation,
    attack_skill, beyond_half_damage, damage_bonus, defense_against, defenses_against, effective,
    figures_between, group_attack_modifiers, group_defenses, group_member_situation, hits_avoided,
    injury_steps, rapid_fire_hits, retreat_hex,
};
use super::facing::arc_of;
use super::location::{HitLocation, HitLocations};
use super::maneuver::{Action, AoaOption, Maneuver};
use super::posture::Posture;
use super::sheet::{Fighter, Guard, Weapon};
use super::tables::{DamageType, success_chance};
use crate::battle::UnitId;
use crate::dice::{Critical, DiceExpr, Modifier, gurps_critical};
use hexx::Hex;
use std::fmt::Write;
use std::sync::LazyLock;

/// The target's best active defense against one strike, as the defender would choose it.
#[derive(Clone, Debug, PartialEq)]
pub struct DefenseOdds {
    /// Its name ("Dodge", "Parry (broadsword), retreating"); under All-Out Defense (Double
    /// Defense) the two defenses it would try, joined by ", then ".
    pub label: String,
    /// Its score (the first defense's, with every modifier).
    pub score: i32,
    /// The chance it stops a blow that hits (not a critical hit, which allows no defense).
    pub chance: f64,
}

/// The odds of one attack roll of an action.
#[derive(Clone, Debug, PartialEq)]
pub struct StrikeOdds {
    /// The target.
    pub target: UnitId,
    /// The target's name (from the roster; empty when unknown).
    pub target_name: String,
    /// The weapon ("a group attack of 3" for a group).
    pub weapon: String,
    /// Effective skill: the sum of `modifiers`.
    pub effective: i32,
    /// The attack roll's modifiers, the base skill first, as the log will show them.
    pub modifiers: Vec<Modifier>,
    /// The chance the attack roll succeeds (3d6, 3-4 always, 17-18 never; criticals as the
    /// rules give them).
    pub to_hit: f64,
    /// The chance of a critical hit (no active defense).
    pub critical: f64,
    /// The chance an aimed blow at a location marked * misses by 1 and lands on the torso
    /// instead (gurps-lite-and-socs.txt, "HIT LOCATIONS"); 0 for others.
    pub torso_instead: f64,
    /// The defense the target would use, `None` when it has none (after an All-Out Attack,
    /// against an attack from behind).
    pub defense: Option<DefenseOdds>,
    /// Bonuses to the damage roll.
    pub damage_bonus: Vec<Modifier>,
    /// Mean injury of the first blow that lands, through DR with the wounding multiplier
    /// (averaged over the 3d6 hit location table for an unaimed blow when the scenario
    /// uses random hit locations).
    pub injury_per_hit: f64,
    /// The expected injury of this attack roll: every way it can land (critical hits
    /// undefended, further hits of rapid fire or a group) times the injury it does.
    pub expected_injury: f64,
}

/// The odds of an action: one entry per attack roll it makes (two for All-Out Attack
/// (Double), a Rapid Strike and a Dual-Weapon Attack), none for a maneuver that makes no
/// attack.
#[derive(Clone, Debug, PartialEq)]
pub struct Odds {
    /// The maneuver.
    pub maneuver: Maneuver,
    /// The attack rolls, in order.
    pub strikes: Vec<StrikeOdds>,
    /// Why there is no attack roll, or what the numbers leave out.
    pub note: Option<String>,
}

impl Odds {
    /// Expected injury of the whole action.
    pub fn expected_injury(&self) -> f64 {
        self.strikes.iter().map(|s| s.expected_injury).sum()
    }

    /// One line for the action panel: "hit 74% (skill 12), Parry (broadsword) 9 stops 38%,
    /// expected injury 2.3"; one such part per attack roll, and the note.
    pub fn summary(&self) -> String {
        let mut text = String::new();
        let several = self.strikes.len() > 1;
        for (i, s) in self.strikes.iter().enumerate() {
            if i > 0 {
                text.push_str("; ");
            }
            if several {
                if s.target_name.is_empty() {
                    let _ = write!(text, "strike {}: ", i + 1);
                } else {
                    let _ = write!(text, "{}: ", s.target_name);
                }
            }
            let _ = write!(
                text,
                "hit {:.0}% (skill {}), ",
                100.0 * s.to_hit,
                s.effective
            );
            match &s.defense {
                Some(d) => {
                    let _ = write!(
                        text,
                        "{} {} stops {:.0}%, ",
                        d.label,
                        d.score,
                        100.0 * d.chance
                    );
                }
                None => text.push_str("no defense, "),
            }
            let _ = write!(text, "expected injury {:.1}", s.expected_injury);
        }
        if several {
            let _ = write!(text, "; in all {:.1}", self.expected_injury());
        }
        if let Some(note) = &self.note {
            if !text.is_empty() {
                text.push_str(" (");
                text.push_str(note);
                text.push(')');
            } else {
                text.push_str(note);
            }
        }
        text
    }
}

/// The odds of `action` for the acting unit of `s`: the same `Err` text as [`plan`] when
/// it is illegal; no strikes (and a note) when the maneuver makes no attack roll.
pub fn estimate(s: &Situation, action: &Action) -> Result<Odds, String> {
    let plan = plan(s, action)?;
    let maneuver = plan.maneuver;
    let mut odds = Odds {
        maneuver,
        strikes: Vec::new(),
        note: None,
    };
    if !maneuver.attacks() {
        odds.note = Some(match maneuver {
            Maneuver::Feint => {
                "a Feint is a Quick Contest, not an attack: its margin comes off the foe's \
                 defenses against next turn's attacks"
                    .to_string()
            }
            Maneuver::Wait => "Wait attacks only when a foe comes into reach".to_string(),
            Maneuver::Aim => "Aim makes no attack: it adds to the next shot".to_string(),
            Maneuver::Evaluate => {
                "Evaluate makes no attack: +1 a turn to the next melee attack".to_string()
            }
            m => format!("{m} makes no attack"),
        });
        return Ok(odds);
    }
    let (Some(t), Some(_)) = (plan.target, plan.weapon) else {
        odds.note = Some("no target".to_string());
        return Ok(odds);
    };
    if !plan.group.is_empty() {
        odds.strikes.push(group_odds(s, &plan, t)?);
        return Ok(odds);
    }
    if maneuver == Maneuver::AllOutAttack(AoaOption::Feint) {
        odds.note = Some(
            "the feint's Quick Contest comes first; a win comes off the defense too".to_string(),
        );
    }
    let me = s.me();
    let first = s.units[t].id;
    let moment = StrikeMoment::before_turn(me.fighter, Some(first), plan.weapon);
    let dual_same_foe = plan.dual_same_foe(first);
    // Foes as the earlier strikes leave them (a parry made, a retreat used), and where a
    // retreat took them.
    let mut defended: Vec<(usize, Fighter, Hex)> = Vec::new();
    let end = plan.end();
    for strike in plan.strikes() {
        let ti = if strike.second_target {
            plan.second_target.unwrap_or(t)
        } else {
            t
        };
        let target = &s.units[ti];
        let (foe, at) = defended
            .iter()
            .find(|(i, _, _)| *i == ti)
            .map_or((target.fighter, target.pos), |(_, f, at)| (f, *at));
        // A blow needs its reach: one on a foe that retreated beyond it is lost
        // (gurps-lite-and-socs.txt, "ATTACK/DEFENSE OPTIONS", Retreat).
        if let Some(w) = me.fighter.sheet.weapons.get(strike.weapon)
            && !w.reaches(end.unsigned_distance_to(at))
        {
            let lost = format!(
                "{} would retreat out of the {}'s reach: the next blow is lost",
                target.name, w.name
            );
            odds.note = Some(match odds.note.take() {
                Some(note) => format!("{note}; {lost}"),
                None => lost,
            });
            continue;
        }
        // From where the foe now stands (its arc and range).
        let target = &UnitView { pos: at, ..*target };
        let (odds_one, used) = strike_odds(s, &plan, strike, target, foe, (moment, dual_same_foe))?;
        odds.strikes.push(odds_one);
        if let Some(option) = used {
            let mut after = foe.clone();
            after_defending(&mut after, &option);
            let occupied = |h: Hex| {
                h == end
                    || s.units
                        .iter()
                        .enumerate()
                        .any(|(i, u)| i != s.me && i != ti && u.pos == h && u.standing.fighting())
            };
            let to = match option.step {
                DefenseStep::Retreat => retreat_hex(s.map, end, at, occupied).unwrap_or(at),
                DefenseStep::Stand | DefenseStep::Drop => at,
            };
            defended.retain(|(i, _, _)| *i != ti);
            defended.push((ti, after, to));
        }
    }
    Ok(odds)
}

/// The odds of one strike of `plan` on `target` (whose fighter is `foe`, as earlier
/// strikes left it), and the defense it would use.
fn strike_odds(
    s: &Situation,
    plan: &Plan,
    strike: PlannedStrike,
    target: &UnitView,
    foe: &Fighter,
    (moment, dual_same_foe): (StrikeMoment, bool),
) -> Result<(StrikeOdds, Option<DefenseOption>), String> {
    let me = s.me();
    let weapon = me
        .fighter
        .sheet
        .weapons
        .get(strike.weapon)
        .ok_or_else(|| format!("no weapon number {}", strike.weapon))?;
    let ranged = weapon.is_ranged();
    let end = plan.end();
    // Who stands where once the attacker has moved.
    let occupied = |h: Hex| {
        h == end
            || s.units
                .iter()
                .enumerate()
                .any(|(i, u)| i != s.me && u.pos == h && u.standing.fighting())
    };
    let intervening = if ranged {
        figures_between(s.map, end, target.pos, occupied)
    } else {
        0
    };
    let situation = attack_situation(
        s.map,
        plan,
        (me.fighter, end),
        (foe, target.pos, target.facing),
        weapon,
        strike.dual,
        StrikeMoment {
            intervening,
            ..moment
        },
    );
    let modifiers = attack_modifiers(weapon, &situation);
    let skill = effective(&modifiers);
    let arc = arc_of(target.pos, target.facing, end);
    let against = defense_against(
        plan,
        (ranged, situation.deceptive),
        arc,
        dual_same_foe,
        moment.feint,
    );
    let can_retreat = !ranged && retreat_hex(s.map, end, target.pos, occupied).is_some();
    let options = defenses_against(
        foe,
        weapon,
        arc,
        &against,
        can_retreat,
        s.extra_effort,
        false,
    );
    let tried = tried_defenses(&options, defender_choice(foe, &options), foe.guard);
    let bonus = damage_bonus(plan);
    let blow = Blow {
        weapon,
        bonus: bonus.iter().map(|m| m.value).sum(),
        foe,
        half_damage: beyond_half_damage(weapon, s.yards(end, target.pos)),
        chink: plan.chink,
    };
    let aimed = plan.location;
    let first = blow.mean_injury(aimed, s.hit_locations, true);
    let extra = blow.mean_injury(aimed, s.hit_locations, false);
    let torso = blow.mean_injury(Some(HitLocation::Torso), s.hit_locations, true);
    let scores: Vec<i32> = tried.iter().map(|o| o.score()).collect();
    let land = landing(
        skill,
        aimed.is_some_and(HitLocation::miss_by_one_hits_torso),
        (plan.shots, weapon.rof_rcl().1),
        &scores,
    );
    let mut expected = land.torso * torso;
    for (l, p) in land.landed.iter().enumerate().skip(1) {
        expected += p * (first + (l - 1) as f64 * extra);
    }
    if plan.disarm.is_some() {
        expected = 0.0;
    }
    let odds = StrikeOdds {
        target: target.id,
        target_name: target.name.to_string(),
        weapon: weapon.name.to_string(),
        effective: skill,
        modifiers,
        to_hit: success_chance(skill),
        critical: land.critical,
        torso_instead: land.torso_chance,
        defense: defense_odds(&tried),
        damage_bonus: bonus,
        injury_per_hit: if plan.disarm.is_some() { 0.0 } else { first },
        expected_injury: expected,
    };
    Ok((odds, tried.first().cloned()))
}

/// The odds of a group attack on `s.units[t]` (gurps-lite-and-socs.txt, "GROUP COMBAT"),
/// as the resolution makes it: one roll at the members' average skill plus the group
/// bonus, a hit per attacker at most, the defense as against rapid fire.
fn group_odds(s: &Situation, plan: &Plan, t: usize) -> Result<StrikeOdds, String> {
    let target = &s.units[t];
    let foe = target.fighter;
    let mut skills = Vec::with_capacity(plan.group.len());
    let mut blows: Vec<(Hex, &Weapon)> = Vec::with_capacity(plan.group.len());
    for &(i, w) in &plan.group {
        let member = s.units.get(i).ok_or_else(|| format!("no unit {i}"))?;
        let weapon = member
            .fighter
            .sheet
            .weapons
            .get(usize::from(w))
            .ok_or_else(|| format!("no weapon number {w}"))?;
        let situation = group_member_situation(
            s.map,
            (member.fighter, member.pos),
            weapon,
            target.pos,
            (foe.moved_yards, foe.posture, foe.sheet.sm),
        );
        skills.push(attack_skill(weapon, &situation));
        blows.push((member.pos, weapon));
    }
    let Some(&(first_pos, first)) = blows.first() else {
        return Err("a group attack needs a target".into());
    };
    let modifiers = group_attack_modifiers(&skills, false);
    let skill = effective(&modifiers);
    let arc = arc_of(target.pos, target.facing, first_pos);
    let options = group_defenses(foe, first, arc, false);
    let desperate = super::combat::reeling(foe.hp, foe.sheet.hp_max);
    let tried = tried_defenses(
        &options,
        choose_defenses(&options, desperate, false),
        foe.guard,
    );
    let scores: Vec<i32> = tried.iter().map(|o| o.score()).collect();
    let n = blows.len() as u32;
    let land = landing(skill, false, (n, 2), &scores);
    let injury: Vec<f64> = blows
        .iter()
        .map(|(_, w)| {
            Blow {
                weapon: w,
                bonus: 0,
                foe,
                half_damage: false,
                chink: false,
            }
            .mean_injury(None, s.hit_locations, true)
        })
        .collect();
    let mut expected = 0.0;
    for (l, p) in land.landed.iter().enumerate() {
        expected += p * injury.iter().take(l).sum::<f64>();
    }
    Ok(StrikeOdds {
        target: target.id,
        target_name: target.name.to_string(),
        weapon: format!("a group attack of {n}"),
        effective: skill,
        modifiers,
        to_hit: success_chance(skill),
        critical: land.critical,
        torso_instead: 0.0,
        defense: defense_odds(&tried),
        damage_bonus: Vec::new(),
        injury_per_hit: injury.first().copied().unwrap_or(0.0),
        expected_injury: expected,
    })
}

/// The defenses the defender would try, in order, as the resolution tries them: the
/// first of `order`, and under All-Out Defense (Double Defense) the next of another kind
/// (gurps-lite-and-socs.txt, "ALL-OUT DEFENSE").
fn tried_defenses(
    options: &[DefenseOption],
    order: Vec<usize>,
    guard: Guard,
) -> Vec<DefenseOption> {
    let tries = if guard == Guard::DoubleDefense { 2 } else { 1 };
    let family = |k: DefenseKind| match k {
        DefenseKind::Dodge => 0,
        DefenseKind::Parry(_) => 1,
        DefenseKind::Block => 2,
    };
    let mut tried: Vec<DefenseOption> = Vec::with_capacity(tries);
    for i in order {
        if tried.len() >= tries {
            break;
        }
        let Some(option) = options.get(i) else {
            continue;
        };
        if tried.iter().any(|t| family(t.kind) == family(option.kind)) {
            continue;
        }
        tried.push(option.clone());
    }
    tried
}

/// The defense summary of the defenses tried: the chance that one of them stops a blow.
fn defense_odds(tried: &[DefenseOption]) -> Option<DefenseOdds> {
    let first = tried.first()?;
    let fail: f64 = tried
        .iter()
        .map(|o| 1.0 - success_chance(o.score()))
        .product();
    Some(DefenseOdds {
        label: tried
            .iter()
            .map(|o| o.label.to_string())
            .collect::<Vec<_>>()
            .join(", then "),
        score: first.score(),
        chance: 1.0 - fail,
    })
}

/// The foe after using `option` against a strike: the parry counted, the block used, the
/// retreat or drop made (once between its turns), the Feverish Defense's FP spent.
fn after_defending(foe: &mut Fighter, option: &DefenseOption) {
    match option.kind {
        DefenseKind::Parry(i) => {
            if let Some(n) = foe.parried.get_mut(usize::from(i)) {
                *n = n.saturating_add(1);
            }
        }
        DefenseKind::Block => foe.blocked = foe.blocked.saturating_add(1),
        DefenseKind::Dodge => {}
    }
    match option.step {
        DefenseStep::Stand => {}
        DefenseStep::Retreat => foe.retreated = true,
        DefenseStep::Drop => {
            foe.posture = Posture::Lying;
            foe.retreated = true;
        }
    }
    if let Some((fp, _)) = option.effort() {
        foe.fp -= fp;
    }
}

/// Every 3d6 total with its chance.
static THREE_D6: LazyLock<Vec<(i32, f64)>> = LazyLock::new(|| DiceExpr::d6(3, 0).distribution());

/// The margin of a success roll of `roll` against `target`, `None` if it fails (3-4
/// always succeed, 17-18 always fail, criticals per [`gurps_critical`]; as
/// [`crate::dice::success_roll`]).
fn success_margin(roll: i32, target: i32) -> Option<i32> {
    let ok = match gurps_critical(roll, target) {
        Some(Critical::Success) => true,
        Some(Critical::Failure) => false,
        None => roll <= target && roll <= 16,
    };
    ok.then_some(target - roll)
}

/// How a strike can end, with its chances.
#[derive(Clone, Debug, Default, PartialEq)]
struct Landing {
    /// Chance that exactly `l` hits land, by `l` (from 0), the blow landing where aimed.
    landed: Vec<f64>,
    /// Chance the blow lands on the torso after an aimed miss by 1 (one hit).
    torso: f64,
    /// Chance of that miss by 1, before defenses.
    torso_chance: f64,
    /// Chance of a critical hit.
    critical: f64,
}

/// The chances of how a strike at effective skill `skill` ends, as
/// [`resolve_strike`](super::combat::resolve_strike) plays it: a miss; a critical hit
/// (no defense); a hit, with rapid fire's further hits (`shots`, `recoil`), that the
/// defenses of `scores` (tried in order until every hit is avoided) may stop; an aimed
/// blow at a location marked * (`star`) that misses by 1 and lands on the torso.
fn landing(skill: i32, star: bool, (shots, recoil): (u32, u32), scores: &[i32]) -> Landing {
    let mut out = Landing {
        landed: vec![0.0; shots.max(1) as usize + 1],
        ..Landing::default()
    };
    for &(roll, p) in THREE_D6.iter() {
        let critical = gurps_critical(roll, skill);
        let margin = success_margin(roll, skill);
        let torso = star && skill - roll == -1 && critical.is_none();
        if margin.is_none() && !torso {
            continue;
        }
        if torso {
            out.torso_chance += p;
        }
        let hits = match margin {
            Some(m) if shots > 1 => rapid_fire_hits(shots, recoil, m),
            _ => 1,
        };
        if critical == Some(Critical::Success) {
            out.critical += p;
            out.landed[hits as usize] += p;
            continue;
        }
        for (avoided, q) in avoided(hits, scores).into_iter().enumerate() {
            let landed = hits as usize - avoided;
            if torso {
                if landed > 0 {
                    out.torso += p * q;
                }
            } else {
                out.landed[landed] += p * q;
            }
        }
    }
    out
}

/// Chances of how many of `hits` the defenses of `scores` avoid (by count, capped at
/// `hits`): each success avoids one hit plus one per point of margin, and the next
/// defense is tried only while hits remain (gurps-lite-and-socs.txt, "RAPID FIRE" and
/// "GROUP COMBAT").
fn avoided(hits: u32, scores: &[i32]) -> Vec<f64> {
    fn go(hits: u32, so_far: u32, scores: &[i32], p: f64, out: &mut [f64]) {
        let Some((&score, rest)) = scores.split_first() else {
            out[so_far as usize] += p;
            return;
        };
        if so_far >= hits {
            out[so_far as usize] += p;
            return;
        }
        for &(roll, q) in THREE_D6.iter() {
            let now = match success_margin(roll, score) {
                Some(m) => (so_far + hits_avoided(m)).min(hits),
                None => so_far,
            };
            go(hits, now, rest, p * q, out);
        }
    }
    let mut out = vec![0.0; hits as usize + 1];
    go(hits, 0, scores, 1.0, &mut out);
    out
}

/// What one blow that lands does, for its mean injury.
struct Blow<'a> {
    weapon: &'a Weapon,
    /// Sum of the damage bonuses.
    bonus: i32,
    foe: &'a Fighter,
    half_damage: bool,
    /// At a chink in the armor: DR halved (round down).
    chink: bool,
}

impl Blow<'_> {
    /// Mean injury of the blow aimed at `aimed` (unaimed: the torso, or the 3d6 table when
    /// `locations` is random), with the damage bonus when `first` (further hits of rapid
    /// fire roll plain damage).
    fn mean_injury(&self, aimed: Option<HitLocation>, locations: HitLocations, first: bool) -> f64 {
        match aimed {
            Some(location) => self.at(location, first),
            None if locations == HitLocations::Random => THREE_D6
                .iter()
                .map(|&(roll, p)| p * self.at(HitLocation::from_roll(roll), first))
                .sum(),
            None => self.at(HitLocation::Torso, first),
        }
    }

    /// Mean injury at `location`: over every damage roll, basic damage with the bonus and
    /// the damage type's minimum, then [`injury_steps`] (1/2D, DR and the skull's own, the
    /// wounding multiplier, crippling's cap).
    fn at(&self, location: HitLocation, first: bool) -> f64 {
        let w = self.weapon;
        let bonus = if first { self.bonus } else { 0 };
        let sheet = &self.foe.sheet;
        let dr = sheet.dr.at(location);
        let dr = if self.chink { dr / 2 } else { dr };
        mean_injury(
            w.damage,
            bonus,
            w.damage_type,
            (dr, self.half_damage),
            location,
            sheet.hp_max,
        )
    }
}

/// Mean injury of `damage` plus `bonus` of `damage_type` through `dr` (halved beyond 1/2D
/// when `half`) at `location` on a fighter of `hp_max` HP: the exact expectation over the
/// damage dice of what [`injury_steps`] makes of each roll.
pub fn mean_injury(
    damage: DiceExpr,
    bonus: i32,
    damage_type: DamageType,
    (dr, half): (i32, bool),
    location: HitLocation,
    hp_max: i32,
) -> f64 {
    let minimum = damage_type.minimum_damage();
    damage
        .distribution()
        .iter()
        .map(|&(value, p)| {
            let basic = (value + bonus).max(minimum);
            p * f64::from(injury_steps(basic, dr, damage_type, half, location, hp_max).1)
        })
        .sum()
}

#[cfg(test)]
mod tests;
