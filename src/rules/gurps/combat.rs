//! GURPS basic combat as plain functions: attack modifiers, active defenses, damage and
//! injury, and the lost-HP thresholds. No ECS types; the systems gather the numbers, call
//! these, and write the events.

use super::criticals::{
    CriticalHit, HeadBlow, MissTable, Times, critical_head_blow, critical_hit, is_head,
};
pub use super::defense::*;
use super::equipment::WeaponMode;
use super::facing::{Arc, arc_of, side_attack};
use super::location::{DrTable, HitLocation};
use super::maneuver::{AoaOption, AodOption, CommitOption, Maneuver};
use super::plan::Plan;
use super::posture::Posture;
use super::sheet::{Fighter, Guard, Weapon};
use super::tables::{DamageType, speed_range_modifier};
use crate::battle::{AttackResult, UnitId};
use crate::dice::{
    Critical, DiceExpr, DieRoller, Gather, Label, Modifier, RollModifiers, RollRecord, Sum,
    success_roll,
};
use crate::hexmap::{Cover, HexMap, line};
use hexx::{EdgeDirection, Hex};
use std::borrow::Cow;

/// What an attack's modifiers depend on besides the weapon.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttackSituation {
    /// The attacker's maneuver.
    pub maneuver: Maneuver,
    /// Distance to the target in yards.
    pub range_yards: f64,
    /// The target's speed in yards per second (yards it moved on its last turn).
    pub target_speed: f64,
    /// Turns the attacker has aimed this weapon at this target (0: none).
    pub aim_turns: u8,
    /// Every turn of that aim was braced.
    pub braced: bool,
    /// Cover protecting the target from this attacker.
    pub cover: Option<Cover>,
    /// The attacker's posture.
    pub posture: Posture,
    /// The attacker's shock penalty this turn (positive points).
    pub shock: i32,
    /// The target's posture.
    pub target_posture: Posture,
    /// The hit location aimed at, if any.
    pub aimed: Option<HitLocation>,
    /// The attacker strikes from the target's back arc (the skull and face take other
    /// penalties: [`HitLocation::aim_penalty_from`]).
    pub from_behind: bool,
    /// The attacker has lost an eye.
    pub one_eye: bool,
    /// The attacker is lame: a leg or foot crippled ([`Fighter::lame`]).
    pub lame: bool,
    /// Hexes the attacker moved this turn before attacking.
    pub hexes_moved: u32,
    /// Evaluate bonus against this target (melee).
    pub evaluate: i32,
    /// Deceptive Attack levels (melee).
    pub deceptive: i32,
    /// Telegraphic Attack (melee).
    pub telegraphic: bool,
    /// A lasting penalty to the attacker's attack rolls, with its cause.
    pub impairment: Option<(&'static str, i32)>,
    /// Shots fired in this attack (1 for a single shot or a blow).
    pub shots: u32,
    /// A Rapid Strike: `Some(true)` with Flurry of Blows.
    pub rapid_strike: Option<bool>,
    /// Heroic Charge: no Move and Attack penalty or cap.
    pub heroic_charge: bool,
    /// The target's Size Modifier.
    pub target_sm: i32,
    /// Fighters standing between the attacker and the target (ranged attacks).
    pub intervening: u32,
    /// The attacker carries a large shield (−2 to its attacks).
    pub large_shield: bool,
    /// Opportunity fire from a Wait over more than ten hexes.
    pub opportunity_fire: bool,
    /// Aimed at a chink in the armor at the location.
    pub chink: bool,
    /// One of a Dual-Weapon Attack's two attacks: `Some(true)` with the off hand.
    pub dual_weapon: Option<bool>,
    /// A disarm: the penalty to strike the foe's weapon (−2 for the disarm included).
    pub disarm: Option<i32>,
}

/// What an attack's modifiers and the foe's defenses take from the moment the attack is
/// made rather than from its [`Plan`]: the Aim and Evaluate the attacker has built up, a
/// feint it has won, and the figures standing in the way of a shot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StrikeMoment {
    /// Turns the attacker has aimed this weapon at this target (0: none).
    pub aim_turns: u8,
    /// Every turn of that aim was braced.
    pub braced: bool,
    /// Evaluate bonus against this target.
    pub evaluate: i32,
    /// Margin of a won feint, off the target's defenses.
    pub feint: i32,
    /// Fighters standing between the attacker and the target (counted for shots only; see
    /// [`figures_between`]).
    pub intervening: u32,
}

impl StrikeMoment {
    /// The moment as the attacker's turn starts, attacking `target` with `weapon`: its Aim
    /// counts if it was at that target with that weapon, its Evaluate and a feint won on its
    /// last turn if on that target (gurps-lite-and-socs.txt, "MANEUVERS": Aim, Evaluate,
    /// Feint). Nobody counted in the way: the caller adds [`figures_between`].
    pub fn before_turn(attacker: &Fighter, target: Option<UnitId>, weapon: Option<usize>) -> Self {
        let (aim_turns, braced) = match (attacker.aim, target, weapon) {
            (Some(a), Some(t), Some(w)) if a.target == t && usize::from(a.weapon) == w => {
                (a.turns, a.braced && a.turns > 0)
            }
            _ => (0, false),
        };
        let on_target = |on: Option<(UnitId, i32)>| match (on, target) {
            (Some((t, n)), Some(target)) if t == target => n,
            _ => 0,
        };
        StrikeMoment {
            aim_turns,
            braced,
            evaluate: on_target(attacker.evaluate.map(|(t, n)| (t, i32::from(n)))),
            feint: on_target(attacker.feint_on),
            intervening: 0,
        }
    }
}

/// The situation of one strike of `plan`, by `attacker` standing at its hex (after the
/// plan's move) on `target` at its hex facing `facing` (whether the strike comes from
/// behind), with `weapon`; `dual` says which hand of a
/// Dual-Weapon Attack. This is the one place an [`AttackSituation`] is made from a plan:
/// the resolution, the AI's estimates and the odds preview all call it, so they cannot
/// drift apart. It takes only the levels of Deceptive Attack the strike's effective skill
/// allows ([`deceptive_levels`]).
pub fn attack_situation(
    map: &HexMap,
    plan: &Plan,
    (attacker, from): (&Fighter, Hex),
    (target, at, facing): (&Fighter, Hex, EdgeDirection),
    weapon: &Weapon,
    dual: Option<bool>,
    moment: StrikeMoment,
) -> AttackSituation {
    let ranged = weapon.is_ranged();
    let mut situation = AttackSituation {
        maneuver: plan.maneuver,
        range_yards: f64::from(from.unsigned_distance_to(at)) * f64::from(map.scale),
        target_speed: f64::from(target.moved_yards),
        aim_turns: moment.aim_turns,
        braced: moment.braced,
        cover: if ranged {
            map.cover_between(from, at)
        } else {
            None
        },
        posture: attacker.posture,
        shock: attacker.shock,
        target_posture: target.posture,
        aimed: plan.location,
        from_behind: arc_of(at, facing, from) == Arc::Back,
        one_eye: attacker.one_eye(),
        lame: attacker.lame(),
        hexes_moved: plan.path.len().saturating_sub(1) as u32,
        evaluate: moment.evaluate,
        deceptive: 0,
        telegraphic: plan.telegraphic,
        impairment: attacker.impairment,
        shots: plan.shots,
        rapid_strike: plan.effort.rapid_strike.then_some(plan.effort.flurry),
        heroic_charge: plan.effort.heroic_charge,
        target_sm: target.sheet.sm,
        intervening: if ranged { moment.intervening } else { 0 },
        large_shield: attacker.sheet.shield.as_ref().is_some_and(|s| s.large),
        opportunity_fire: plan.opportunity_fire,
        chink: plan.chink,
        dual_weapon: dual,
        disarm: plan.disarm,
    };
    if plan.deceptive > 0 && !ranged {
        let without = attack_skill(weapon, &situation);
        situation.deceptive = deceptive_levels(without, i32::from(plan.deceptive));
    }
    situation
}

/// The labelled bonuses to a plan's damage (gurps-lite-and-socs.txt, "MANEUVERS": All-Out
/// Attack (Strong) +2, Committed Attack (Strong) +1, Defensive Attack −2; "ATTACK/DEFENSE
/// OPTIONS": Mighty Blow +2).
pub fn damage_bonus(plan: &Plan) -> Vec<Modifier> {
    let mut bonus = Vec::new();
    match plan.maneuver {
        Maneuver::AllOutAttack(AoaOption::Strong) => {
            bonus.push(Modifier::new("All-Out Attack (Strong)", 2));
        }
        Maneuver::CommittedAttack(CommitOption::Strong) => {
            bonus.push(Modifier::new("Committed Attack (Strong)", 1));
        }
        Maneuver::DefensiveAttack => bonus.push(Modifier::new("Defensive Attack", -2)),
        _ => {}
    }
    if plan.effort.mighty_blow {
        bonus.push(Modifier::new("Mighty Blow", 2));
    }
    bonus
}

/// What one strike does to the defenses against it: [`Against::every`] to every defense,
/// [`Against::dodge`] to Dodge only.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Against {
    /// Modifiers to every active defense (Dual-Weapon target, side attack, feint,
    /// Deceptive Attack).
    pub every: Vec<Modifier>,
    /// Modifiers to Dodge only (Telegraphic Attack).
    pub dodge: Vec<Modifier>,
}

/// What one strike of `plan` does to the defenses against it: −1 to every defense as the
/// target of both Dual-Weapon attacks, −2 from the side, a won feint's margin, −1 per level
/// of Deceptive Attack; and +2 to Dodge only for a Telegraphic Attack (melee)
/// (gurps-lite-and-socs.txt, "ATTACK/DEFENSE OPTIONS": "+2 to target's Dodge", and
/// "FEINT"; gurps-traveller-gm-screen.txt, "MODIFIERS TO ACTIVE DEFENSE ROLLS").
pub fn defense_against(
    plan: &Plan,
    (ranged, deceptive): (bool, i32),
    arc: Arc,
    dual_same_foe: bool,
    feint: i32,
) -> Against {
    let mut every = Vec::with_capacity(2);
    if dual_same_foe {
        every.push(Modifier::new("target of both Dual-Weapon attacks", -1));
    }
    if arc == Arc::Side {
        every.push(side_attack());
    }
    if feint > 0 {
        every.push(Modifier::new("feinted", -feint));
    }
    if !ranged && deceptive > 0 {
        every.push(Modifier::new("Deceptive Attack", -deceptive));
    }
    let mut dodge = Vec::new();
    if !ranged && plan.telegraphic {
        dodge.push(Modifier::new("Telegraphic Attack", 2));
    }
    Against { every, dodge }
}

/// Every defense `defender` may choose from against a strike with `weapon` from `arc`:
/// none from behind; otherwise [`defense_options`] with the shield ([`with_shield`]: its DB
/// from the front, no Block against firearms), the retreat (when `can_retreat`) and Dodge
/// and Drop ([`with_retreat_and_drop`]), and Rapid Recovery ([`with_rapid_recovery`]) and
/// Feverish Defense ([`with_feverish`]) when the scenario uses extra effort; a bare-handed
/// parry against a weapon takes its −3 ([`unarmed_parry_penalty`]). `against` is from
/// [`defense_against`]: its Dodge-only modifiers go on every kind of Dodge (retreating,
/// dropping, feverish). When `quiet` (a battle that keeps no log) the labels made for the
/// occasion are left empty.
pub fn defenses_against(
    defender: &Fighter,
    weapon: &Weapon,
    arc: Arc,
    against: &Against,
    can_retreat: bool,
    extra_effort: bool,
    quiet: bool,
) -> Vec<DefenseOption> {
    if arc == Arc::Back {
        return Vec::new();
    }
    let ranged = weapon.is_ranged();
    let mut options = with_feverish(
        defender,
        with_retreat_and_drop(
            defender,
            with_shield(
                defender,
                with_rapid_recovery(
                    defender,
                    defense_options(defender, ranged, &against.every),
                    ranged,
                    &against.every,
                    extra_effort,
                    quiet,
                ),
                arc == Arc::Front,
                MissTable::for_skill(&weapon.skill_name) == MissTable::Firearm,
                &against.every,
                quiet,
            ),
            ranged,
            can_retreat,
            quiet,
        ),
        extra_effort,
        quiet,
    );
    if !against.dodge.is_empty() {
        for o in options.iter_mut().filter(|o| o.kind == DefenseKind::Dodge) {
            o.modifiers.extend_from_slice(&against.dodge);
        }
    }
    with_unarmed_parry_penalty(defender, weapon, options)
}

/// Adds to each bare-handed parry in `options` its −3 against `weapon`
/// ([`unarmed_parry_penalty`]).
fn with_unarmed_parry_penalty(
    defender: &Fighter,
    weapon: &Weapon,
    mut options: Vec<DefenseOption>,
) -> Vec<DefenseOption> {
    if !weapon.held() {
        return options;
    }
    for o in options.iter_mut() {
        if let DefenseKind::Parry(i) = o.kind
            && let Some(parry_with) = defender.sheet.weapons.get(usize::from(i))
            && let Some(penalty) = unarmed_parry_penalty(parry_with, weapon)
        {
            o.modifiers.push(penalty);
        }
    }
    options
}

/// How many hexes strictly between `from` and `to`, on the hex line, hold a fighter
/// (`occupied`): the figures a shot must pass (gurps-traveller-gm-screen.txt, "RANGED
/// ATTACK MODIFIERS", behind someone else).
pub fn figures_between(map: &HexMap, from: Hex, to: Hex, occupied: impl Fn(Hex) -> bool) -> u32 {
    if from.unsigned_distance_to(to) < 2 {
        return 0;
    }
    map.line(from, to)
        .filter(|&h| h != from && h != to)
        .filter(|&h| occupied(h))
        .count() as u32
}

/// Whether a line from `from` to `to` may be asked of with [`line::Line::first_of`]: both ends
/// within [`line::FAR`] of the middle.
fn within_far(from: Hex, to: Hex) -> bool {
    [from, to]
        .iter()
        .all(|h| h.x.abs() <= line::FAR && h.y.abs() <= line::FAR)
}

/// [`figures_between`] for fighters standing on the hexes `figures` (in any order; a hex
/// named twice is counted once): the same count, found by asking of each figure whether
/// the line crosses its hex ([`line::Line::first_of`]) instead of asking of every hex of the
/// line who stands there.
pub fn figures_on_line(map: &HexMap, from: Hex, to: Hex, figures: &[Hex]) -> u32 {
    if !within_far(from, to) {
        return figures_between(map, from, to, |h| figures.contains(&h));
    }
    if from.unsigned_distance_to(to) < 2 {
        return 0;
    }
    let line = line::line(from, to);
    let mut count = 0;
    for (i, &h) in figures.iter().enumerate() {
        if h != from && h != to && !figures[..i].contains(&h) && line.first_of([h]).is_some() {
            count += 1;
        }
    }
    count
}

/// The first hex strictly between `from` and `to` on the hex line that holds one of
/// `figures`, if any: where a shot that misses its target may hit someone else
/// (gurps-traveller-gm-screen.txt, "RANGED ATTACK MODIFIERS", rolling to hit the wrong
/// target).
pub fn first_figure_on_line(map: &HexMap, from: Hex, to: Hex, figures: &[Hex]) -> Option<Hex> {
    let between = |h: &Hex| *h != from && *h != to;
    if !within_far(from, to) {
        return map
            .line(from, to)
            .filter(between)
            .find(|h| figures.contains(h));
    }
    let line = line::line(from, to);
    let step = line.first_of(figures.iter().copied().filter(between))?;
    Some(line.at(step))
}

/// The hex a defender at `at` could retreat to from a melee attacker at `from`: an open
/// neighbour (passable, not `occupied` by a fighter) one hex further from the attacker, the
/// one straight away first (gurps-lite-and-socs.txt, "ATTACK/DEFENSE OPTIONS", Retreat).
/// `None` if there is none.
pub fn retreat_hex(
    map: &HexMap,
    from: Hex,
    at: Hex,
    occupied: impl Fn(Hex) -> bool,
) -> Option<Hex> {
    let d = from.unsigned_distance_to(at);
    let straight = at + (at - from);
    let mut best: Option<(u32, Hex)> = None;
    for n in at.all_neighbors() {
        if from.unsigned_distance_to(n) <= d || map.move_cost(n).is_none() {
            continue;
        }
        if occupied(n) {
            continue;
        }
        let key = n.unsigned_distance_to(straight);
        if best.is_none_or(|(k, _)| key < k) {
            best = Some((key, n));
        }
    }
    best.map(|(_, h)| h)
}

/// Whether a shot with `weapon` at `yards` is at or beyond its 1/2D range: damage halved
/// (decision: 4e p. B378). Never for melee weapons.
pub fn beyond_half_damage(weapon: &Weapon, yards: f64) -> bool {
    match weapon.mode {
        WeaponMode::Ranged { half_damage, .. } => yards >= f64::from(half_damage),
        WeaponMode::Melee { .. } => false,
    }
}

/// The cover modifier to hit (gurps-traveller-gm-screen.txt, "RANGED ATTACK MODIFIERS",
/// target's position: behind light cover −2, body half exposed −3, head and shoulders
/// exposed −4).
pub fn cover_modifier(cover: Cover) -> Modifier {
    match cover {
        Cover::Light => Modifier::new("behind light cover", -2),
        Cover::Half => Modifier::new("body half exposed", -3),
        Cover::Heavy => Modifier::new("head and shoulders exposed", -4),
    }
}

/// Aim bonus after `turns` turns of Aim with a weapon of accuracy `acc`
/// (gurps-lite-and-socs.txt "MANEUVERS": +Acc for 1 second, +1 more for 2, +2 more for 3 or
/// more).
pub fn aim_bonus(acc: i32, turns: u8) -> i32 {
    match turns {
        0 => 0,
        1 => acc,
        2 => acc + 1,
        _ => acc + 2,
    }
}

/// The target-position modifier of a ranged attack: cover, or the target's posture
/// without cover, and "prone behind minimum cover, head down" −7 when a lying or crawling
/// target has any cover (gurps-traveller-gm-screen.txt, "RANGED ATTACK MODIFIERS",
/// target's position).
pub fn target_position_modifier(cover: Option<Cover>, posture: Posture) -> Option<Modifier> {
    let low = matches!(posture, Posture::Lying | Posture::Crawling);
    match cover {
        Some(_) if low => Some(Modifier::new("prone behind cover, head down", -7)),
        Some(c) => Some(cover_modifier(c)),
        None => {
            let v = posture.ranged_target_modifier();
            let label = if low {
                "target prone or crawling, no cover"
            } else {
                "target crouching, sitting or kneeling, no cover"
            };
            (v != 0).then(|| Modifier::new(label, v))
        }
    }
}

/// Every modifier of an attack roll, the base skill first, so that their sum is the
/// effective skill (gurps-lite-and-socs.txt "Common Skill Modifiers", "MANEUVERS",
/// "POSTURES" and "INJURY" (shock); gurps-traveller-gm-screen.txt for range/speed, cover,
/// the target's position and minimum ST).
pub fn attack_modifiers(weapon: &Weapon, s: &AttackSituation) -> Vec<Modifier> {
    let mut mods = Vec::with_capacity(6);
    gather_attack_modifiers(weapon, s, &mut mods);
    mods
}

/// The effective skill of an attack: the sum of [`attack_modifiers`], without listing them.
pub fn attack_skill(weapon: &Weapon, s: &AttackSituation) -> i32 {
    Sum::of(|sum| gather_attack_modifiers(weapon, s, sum))
}

/// [`attack_modifiers`] into `mods`.
fn gather_attack_modifiers(weapon: &Weapon, s: &AttackSituation, mods: &mut impl Gather) {
    mods.push_named(weapon.skill, || weapon.skill_name.clone());
    if weapon.st_short > 0 {
        mods.push(Modifier::new("ST below weapon minimum", -weapon.st_short));
    }
    let ranged = weapon.is_ranged();
    match s.maneuver {
        Maneuver::MoveAndAttack if s.heroic_charge => {}
        Maneuver::MoveAndAttack => {
            let penalty = match weapon.mode {
                WeaponMode::Ranged { bulk, .. } => bulk.min(-2),
                WeaponMode::Melee { .. } => -4,
            };
            mods.push(Modifier::new("Move and Attack", penalty));
        }
        Maneuver::AllOutAttack(AoaOption::Determined) => {
            mods.push(Modifier::new(
                "All-Out Attack (Determined)",
                if ranged { 1 } else { AOA_DETERMINED_MELEE },
            ));
        }
        Maneuver::CommittedAttack(option) if !ranged => {
            if option == CommitOption::Determined {
                mods.push(Modifier::new("Committed Attack (Determined)", 2));
            }
            if s.hexes_moved >= 2 {
                mods.push(Modifier::new("Committed Attack: moved 2 hexes", -2));
            }
        }
        _ => {}
    }
    if !ranged {
        if s.evaluate > 0 {
            mods.push(Modifier::new("Evaluate", s.evaluate));
        }
        if s.deceptive > 0 {
            mods.push(Modifier::new("Deceptive Attack", -2 * s.deceptive));
        }
        if s.telegraphic {
            mods.push(Modifier::new("Telegraphic Attack", 4));
        }
    }
    if let WeaponMode::Ranged { acc, .. } = weapon.mode {
        let rs = speed_range_modifier(s.range_yards + s.target_speed);
        if rs != 0 {
            mods.push(Modifier::new("range/speed", rs));
        }
        let aim = aim_bonus(acc, s.aim_turns);
        if aim != 0 {
            mods.push(Modifier::new("Aim", aim));
        }
        if s.aim_turns > 0 && s.braced {
            mods.push(Modifier::new("braced", 1));
        }
        mods.push_all(target_position_modifier(s.cover, s.target_posture));
        // gurps-traveller-gm-screen.txt: "RANGED WEAPON ATTACKS" (2), size of target;
        // "RANGED ATTACK MODIFIERS", behind someone else −4 per intervening figure.
        if s.target_sm != 0 {
            mods.push(Modifier::new("target's size", s.target_sm));
        }
        if s.intervening > 0 {
            mods.push(Modifier::new(
                "behind someone else",
                -4 * s.intervening as i32,
            ));
        }
        if s.opportunity_fire {
            // gurps-traveller-gm-screen.txt, "RANGED ATTACK MODIFIERS": more than ten
            // hexes being watched −8.
            mods.push(Modifier::new("opportunity fire", -8));
        }
        let rf = rapid_fire_bonus(s.shots);
        if rf != 0 {
            mods.push(Modifier::new("rapid fire", rf));
        }
    }
    if let Some(penalty) = s.disarm {
        mods.push(Modifier::new("at the weapon, to disarm", penalty));
    } else if s.chink {
        // gurps-lite-and-socs.txt, "HIT LOCATIONS": chink in torso armor −8, in non-torso
        // armor −10 (decision: in place of the location's own penalty).
        let torso = s.aimed.unwrap_or_default() == HitLocation::Torso;
        mods.push(Modifier::new(
            if torso {
                "chink in torso armor"
            } else {
                "chink in non-torso armor"
            },
            if torso { -8 } else { -10 },
        ));
    } else if let Some(location) = s.aimed
        && location.aim_penalty_from(s.from_behind) != 0
    {
        mods.push(Modifier::new(
            location.aim_label(s.from_behind),
            location.aim_penalty_from(s.from_behind),
        ));
    }
    if s.one_eye {
        // gurps-traveller-gm-screen.txt, "MODIFIERS TO ATTACK ROLLS": one eye −1 for
        // hand-weapon attacks, −3 for ranged attacks.
        mods.push(Modifier::new("one eye", if ranged { -3 } else { -1 }));
    }
    if s.lame && !ranged {
        // gurps-traveller-gm-screen.txt, "MODIFIERS TO ATTACK ROLLS": Lame (only for
        // hand-weapon attacks), crippled leg −3 (decision: a crippled or numbed foot too,
        // as `Fighter::lame` has it; "one leg", −6, is a leg lost, which nothing here does).
        mods.push(Modifier::new("lame (crippled leg)", LAME));
    }
    if s.large_shield {
        // gurps-traveller-gm-screen.txt, "MODIFIERS TO ATTACK ROLLS": shield −2 if large.
        mods.push(Modifier::new("large shield", -2));
    }
    if let Some((why, penalty)) = s.impairment {
        mods.push(Modifier::new(why, penalty));
    }
    mods.push_all(s.posture.attack_label());
    if s.shock > 0 {
        mods.push(Modifier::new("shock", -s.shock));
    }
    if let Some(off_hand) = s.dual_weapon {
        mods.push(Modifier::new("Dual-Weapon Attack", -4));
        if off_hand {
            mods.push(Modifier::new("off hand", -4));
        }
    }
    match s.rapid_strike {
        Some(false) => mods.push(Modifier::new("Rapid Strike", -6)),
        Some(true) => mods.push(Modifier::new("Rapid Strike (Flurry of Blows)", -3)),
        None => {}
    }
    if s.maneuver == Maneuver::MoveAndAttack && !ranged && !s.heroic_charge {
        let total = mods.total();
        if total > 9 {
            mods.push(Modifier::new("Move and Attack: at most 9", 9 - total));
        }
    }
}

/// A lame attacker's hand-weapon attacks (gurps-traveller-gm-screen.txt, "MODIFIERS TO
/// ATTACK ROLLS": Lame, crippled leg −3).
pub const LAME: i32 = -3;

/// All-Out Attack (Determined)'s bonus to a melee attack, the largest a maneuver gives
/// (gurps-lite-and-socs.txt, "MANEUVERS": +4 to hit in melee, +1 ranged).
pub const AOA_DETERMINED_MELEE: i32 = 4;

/// The most an Evaluate gives (gurps-lite-and-socs.txt, "MANEUVERS": +1 per turn, "max.
/// of +3").
pub const MAX_EVALUATE: i32 = 3;

/// Deceptive Attack may not bring effective skill below this (gurps-lite-and-socs.txt,
/// "ATTACK/DEFENSE OPTIONS": "min. of 10").
pub const MIN_DECEPTIVE_SKILL: i32 = 10;

/// How many of the `wanted` levels of Deceptive Attack a strike takes: as many as keep its
/// effective skill at least [`MIN_DECEPTIVE_SKILL`], `skill` being the effective skill
/// without them, every other modifier counted (gurps-lite-and-socs.txt, "ATTACK/DEFENSE
/// OPTIONS": −2 to skill per level, "min. of 10"; decision: of the final effective skill,
/// as 4e Basic Set p. B369 has it, so a Move and Attack's cap of 9 leaves none).
pub fn deceptive_levels(skill: i32, wanted: i32) -> i32 {
    wanted
        .min((skill - MIN_DECEPTIVE_SKILL).div_euclid(2))
        .max(0)
}

/// The rapid fire bonus for `shots` fired in one attack (gurps-lite-and-socs.txt, "RAPID
/// FIRE": +1 for 5-8 shots, +2 for 9-12, +3 for 13-16, +4 for 17-24, +5 for 25-49, +6 for
/// 50-99, +7 for 100-199, +8 for 200-299 and +1 per further 100).
pub fn rapid_fire_bonus(shots: u32) -> i32 {
    match shots {
        0..=4 => 0,
        5..=8 => 1,
        9..=12 => 2,
        13..=16 => 3,
        17..=24 => 4,
        25..=49 => 5,
        50..=99 => 6,
        _ => 6 + (shots / 100) as i32,
    }
}

/// Hits a rapid-fire attack that succeeded by `margin` lands: one, plus one per full
/// multiple of the weapon's recoil in the margin, at most the shots fired (decision: 4e
/// Basic Set p. B373; the quick reference gives only the bonus).
pub fn rapid_fire_hits(shots: u32, recoil: u32, margin: i32) -> u32 {
    (1 + margin.max(0) as u32 / recoil.max(1)).min(shots.max(1))
}

/// Hits a successful defense avoids against a rapid-fire attack: one, plus one per point
/// of margin (gurps-lite-and-socs.txt, "GROUP COMBAT": "the rule for rapid-fire: a
/// successful defense roll avoids one hit, plus additional hits equal to margin of
/// success").
pub fn hits_avoided(margin: i32) -> u32 {
    1 + margin.max(0) as u32
}

/// The group combat bonus for `attackers` striking together (gurps-lite-and-socs.txt,
/// "GROUP COMBAT": +2 for 2-4 attackers, +4 for 5-6, +6 for 7-8, +8 for 9-10).
pub fn group_bonus(attackers: usize) -> i32 {
    match attackers {
        0 | 1 => 0,
        2..=4 => 2,
        5 | 6 => 4,
        7 | 8 => 6,
        _ => 8,
    }
}

/// The situation of one member's blow in a group attack on a foe at `at` moving at
/// `target_speed` yards a second in `target_posture`, of Size Modifier `target_sm`: a plain
/// Attack from where the member stands, with none of the attack options
/// (gurps-lite-and-socs.txt, "GROUP COMBAT": the group rolls against the average of the
/// members' skills, each with its own modifiers, the target's size among them for ranged
/// blows).
pub fn group_member_situation(
    map: &HexMap,
    (member, from): (&Fighter, Hex),
    weapon: &Weapon,
    at: Hex,
    (target_speed, target_posture, target_sm): (u32, Posture, i32),
) -> AttackSituation {
    AttackSituation {
        maneuver: Maneuver::Attack,
        range_yards: f64::from(from.unsigned_distance_to(at)) * f64::from(map.scale),
        target_speed: f64::from(target_speed),
        aim_turns: 0,
        braced: false,
        cover: if weapon.is_ranged() {
            map.cover_between(from, at)
        } else {
            None
        },
        posture: member.posture,
        shock: member.shock,
        target_posture,
        aimed: None,
        from_behind: false,
        one_eye: member.one_eye(),
        lame: member.lame(),
        hexes_moved: 0,
        evaluate: 0,
        deceptive: 0,
        telegraphic: false,
        impairment: member.impairment,
        shots: 1,
        rapid_strike: None,
        heroic_charge: false,
        target_sm,
        intervening: 0,
        large_shield: member.sheet.shield.as_ref().is_some_and(|s| s.large),
        opportunity_fire: false,
        chink: false,
        dual_weapon: None,
        disarm: None,
    }
}

/// The one roll of a group attack: the average (rounded down) of the members' effective
/// skills, plus the group bonus (gurps-lite-and-socs.txt, "GROUP COMBAT"). Empty without
/// members. Unlabelled when `quiet` (a battle that keeps no log).
pub fn group_attack_modifiers(skills: &[i32], quiet: bool) -> Vec<Modifier> {
    let n = skills.len();
    if n == 0 {
        return Vec::new();
    }
    let average = (skills.iter().sum::<i32>()).div_euclid(n as i32);
    RollModifiers::of(quiet, |attack| {
        attack.push_named(average, || {
            format!("average effective skill of {n} attackers")
        });
        let bonus = group_bonus(n);
        if bonus != 0 {
            attack.push_named(bonus, || format!("group of {n}"));
        }
    })
}

/// The defenses against a group attack whose first blow is with `weapon` from `arc`: none
/// from behind, otherwise [`defense_options`] with the shield and the −3 of a bare-handed
/// parry against a weapon, nothing else against them (no retreat: the group's blows come
/// as one); the shield's labels left empty when `quiet`.
pub fn group_defenses(
    defender: &Fighter,
    weapon: &Weapon,
    arc: Arc,
    quiet: bool,
) -> Vec<DefenseOption> {
    if arc == Arc::Back {
        return Vec::new();
    }
    with_unarmed_parry_penalty(
        defender,
        weapon,
        with_shield(
            defender,
            defense_options(defender, weapon.is_ranged(), &[]),
            arc == Arc::Front,
            MissTable::for_skill(&weapon.skill_name) == MissTable::Firearm,
            &[],
            quiet,
        ),
    )
}

/// Most fighters in one group attack (gurps-lite-and-socs.txt, "GROUP COMBAT": "a group of
/// up to 10").
pub const MAX_GROUP: usize = 10;

/// Rolls basic damage: the weapon's dice with labelled bonuses (All-Out Attack (Strong)),
/// raised to the damage type's minimum.
pub fn roll_damage(
    dice: &mut impl DieRoller,
    expr: DiceExpr,
    bonuses: Vec<Modifier>,
    damage_type: DamageType,
) -> RollRecord {
    let mut record = expr.roll(dice, i32::MIN);
    for b in bonuses {
        record.total += b.value;
        record.modifiers.push(b);
    }
    let minimum = damage_type.minimum_damage();
    if record.total < minimum {
        record
            .modifiers
            .push(Modifier::new("minimum", minimum - record.total));
        record.total = minimum;
    }
    record
}

/// From basic damage to injury, step by step (gurps-lite-and-socs.txt "WOUNDING
/// MODIFIERS" and "HIT LOCATIONS"): halve beyond 1/2D (decision: 4e p. B378, damage halved
/// at or beyond the weapon's 1/2D range), subtract DR (the armor's, then the skull's own,
/// [`HitLocation::natural_dr`]), multiply by the location's wounding
/// multiplier (round down); any penetrating damage does at least 1 injury (decision: 4e p.
/// B379); a limb or extremity takes no more than it needs to be crippled ("excess damage
/// lost"). Returns each step as a labelled change and the injury; basic damage plus the
/// steps equals the injury.
pub fn injury_steps(
    basic: i32,
    dr: i32,
    damage_type: DamageType,
    half_damage: bool,
    location: HitLocation,
    hp_max: i32,
) -> (Vec<Modifier>, i32) {
    let mut steps = Vec::with_capacity(3);
    let mut damage = basic.max(0);
    if half_damage && damage > 0 {
        let halved = damage / 2;
        steps.push(Modifier::new("beyond 1/2D: half", halved - damage));
        damage = halved;
    }
    if dr > 0 && damage > 0 {
        let stopped = dr.min(damage);
        steps.push(Modifier::new("DR", -stopped));
        damage -= stopped;
    }
    let natural = location.natural_dr();
    if natural > 0 && damage > 0 {
        let stopped = natural.min(damage);
        steps.push(Modifier::named(
            Label::Shared(format!("{location} DR").into()),
            -stopped,
        ));
        damage -= stopped;
    }
    let penetrating = damage;
    let (num, den) = location.wounding_multiplier(damage_type);
    let mut injury = penetrating * num / den;
    if injury != penetrating {
        let label = if (num, den) == damage_type.wounding_multiplier() {
            Label::Static(damage_type.multiplier_label())
        } else {
            Label::Shared(format!("{location} x{}", multiplier_text(num, den)).into())
        };
        steps.push(Modifier::named(label, injury - penetrating));
    }
    if penetrating > 0 && injury == 0 {
        steps.push(Modifier::new("minimum injury", 1));
        injury = 1;
    }
    if let Some(cap) = location.injury_cap(hp_max)
        && injury > cap
    {
        steps.push(Modifier::new("excess beyond crippling lost", cap - injury));
        injury = cap;
    }
    (steps, injury)
}

fn multiplier_text(num: i32, den: i32) -> String {
    if den == 1 {
        num.to_string()
    } else {
        format!("{}", f64::from(num) / f64::from(den))
    }
}

/// HT modifier for the roll to stay conscious at 0 HP or less: −1 per full multiple of HP
/// below zero (gurps-lite-and-socs.txt, "LOST HIT POINTS"). `None` above 0 HP (no roll).
pub fn consciousness_modifier(hp: i32, hp_max: i32) -> Option<i32> {
    (hp <= 0).then(|| -((-hp) / hp_max.max(1)))
}

/// The multiples k of −HP (−1×HP … −4×HP) that a fall from `before` to `after` crosses:
/// each calls for a HT roll or die (gurps-lite-and-socs.txt, "LOST HIT POINTS": "−1xHP …
/// roll again at every further multiple"). −5×HP is death outright ([`dead_outright`]).
pub fn death_checks_crossed(before: i32, after: i32, hp_max: i32) -> Vec<i32> {
    (1..=4)
        .filter(|k| {
            let line = -k * hp_max;
            before > line && after <= line
        })
        .collect()
}

/// True at −5×HP or below: immediate death (gurps-lite-and-socs.txt, "LOST HIT POINTS").
pub fn dead_outright(hp: i32, hp_max: i32) -> bool {
    hp <= -5 * hp_max
}

/// The defenses a fighter keeps until its next turn after `maneuver` with weapon `weapon`
/// (gurps-lite-and-socs.txt, "MANEUVERS").
pub fn guard_of(maneuver: Maneuver, weapon: Option<usize>) -> Guard {
    match maneuver {
        Maneuver::AllOutAttack(_) => Guard::None,
        Maneuver::AllOutDefense(AodOption::IncreasedDodge) => Guard::IncreasedDodge,
        Maneuver::AllOutDefense(AodOption::IncreasedParry) => Guard::IncreasedParry,
        Maneuver::AllOutDefense(AodOption::DoubleDefense) => Guard::DoubleDefense,
        Maneuver::CommittedAttack(_) => Guard::Committed(weapon.unwrap_or(0) as u8),
        Maneuver::DefensiveAttack => Guard::Defensive,
        Maneuver::MoveAndAttack => weapon.map_or(Guard::Normal, |w| Guard::MovedAttack(w as u8)),
        _ => Guard::Normal,
    }
}

/// Everything a strike needs, gathered by the caller.
#[derive(Clone, Debug)]
pub struct StrikeInput {
    /// Attack modifiers (see [`attack_modifiers`]).
    pub attack: Vec<Modifier>,
    /// Defenses the target may choose from (see [`defense_options`]).
    pub defenses: Vec<DefenseOption>,
    /// Whether the target may try a second, different defense if the first fails.
    pub double_defense: bool,
    /// Damage dice.
    pub damage: DiceExpr,
    /// Labelled bonuses to damage.
    pub damage_bonus: Vec<Modifier>,
    /// Damage type.
    pub damage_type: DamageType,
    /// Whether the target is at or beyond the weapon's 1/2D range.
    pub half_damage: bool,
    /// The target's DR by hit location.
    pub dr: DrTable,
    /// The target's full HP (for crippling).
    pub hp_max: i32,
    /// The location aimed at, if any (its penalty is already in `attack`).
    pub aimed: Option<HitLocation>,
    /// Whether unaimed blows roll on the 3d6 location table (else they hit the torso).
    pub random_location: bool,
    /// Shots fired (1 for a single shot or a blow).
    pub shots: u32,
    /// The weapon's recoil.
    pub recoil: u32,
    /// Aimed at a chink in the armor: DR halved at the location on a hit.
    pub chink: bool,
    /// A disarm: a hit does no damage (the caller settles the contest for the weapon).
    pub disarm: bool,
    /// Damage of the further hits, when they come from other weapons (a group attack):
    /// hit `i` (from 1) uses entry `i − 1`; empty: all hits use `damage`.
    pub extra_damage: Vec<(DiceExpr, DamageType)>,
    /// A missed shot rolled again against a bystander (gurps-traveller-gm-screen.txt,
    /// "RANGED ATTACK MODIFIERS", the wrong target): 3–4 still hit and 17–18 still miss,
    /// but the roll has no critical effects, no critical hit or miss table (decision: it
    /// is the same missed shot, not a new attack of the shooter's).
    pub stray: bool,
}

/// What a strike did.
#[derive(Clone, Debug, PartialEq)]
pub struct StrikeOutcome {
    /// The attack roll.
    pub roll: RollRecord,
    /// Defense rolls in order, with the defense's name.
    pub defenses: Vec<(Label, RollRecord)>,
    /// Which defense each of `defenses` was.
    pub defense_kinds: Vec<DefenseKind>,
    /// The retreat or drop that went with the defenses, if any.
    pub defense_step: DefenseStep,
    /// The extra effort each of `defenses` spent (Feverish Defense, Rapid Recovery), if
    /// any: FP to pay and its name ([`DefenseOption::effort`]). Under All-Out Defense
    /// (Double Defense) each defense pays for its own.
    pub defense_efforts: Vec<Option<(i32, &'static str)>>,
    /// How it ended.
    pub result: AttackResult,
    /// Where the blow landed (on a hit).
    pub location: HitLocation,
    /// The 3d6 roll on the location table, for an unaimed hit with random locations.
    pub location_roll: Option<RollRecord>,
    /// An aimed attack that missed by 1 and hit the torso instead.
    pub torso_instead: bool,
    /// On a critical hit: the 3d6 roll on the critical hit or head blow table and its row.
    pub critical: Option<(RollRecord, CriticalRow)>,
    /// On a hit: the damage roll, the steps to injury, and the injury.
    pub damage: Option<(RollRecord, Vec<Modifier>, i32)>,
    /// Hits of a rapid-fire attack beyond the first that got through, in order.
    pub extra_hits: Vec<ExtraHit>,
    /// Hits the attack landed before defenses, and how many the defenses avoided.
    pub hits: (u32, u32),
}

/// A further hit of a rapid-fire attack.
#[derive(Clone, Debug, PartialEq)]
pub struct ExtraHit {
    /// Where it landed.
    pub location: HitLocation,
    /// The location roll, if random.
    pub location_roll: Option<RollRecord>,
    /// Damage roll, steps and injury.
    pub damage: (RollRecord, Vec<Modifier>, i32),
}

/// The row a critical hit rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CriticalRow {
    /// A row of the critical hit table.
    Hit(CriticalHit),
    /// A row of the critical head blow table.
    Head(HeadBlow),
}

impl CriticalRow {
    /// Whether the row takes the victim out of the fight outright (knocked out, or killed
    /// by a head blow): no roll against knockdown and stun follows, as it could change
    /// nothing.
    pub fn takes_out(self) -> bool {
        match self {
            CriticalRow::Hit(hit) => hit.knockout,
            CriticalRow::Head(head) => matches!(head, HeadBlow::Killed | HeadBlow::KnockedOut),
        }
    }
}

/// Resolves one strike: the attack roll; on a critical hit no defense; otherwise the
/// defender's chosen defense (and a second, different one under All-Out Defense (Double
/// Defense)); on a hit, damage and injury (gurps-lite-and-socs.txt: "Critical hit: Target
/// gets no active defense"; "ALL-OUT DEFENSE ... attempt two different defenses").
/// `choose` gets the open defenses and returns indices in the order to try them (empty: no
/// defense).
pub fn resolve_strike(
    dice: &mut impl DieRoller,
    mut input: StrikeInput,
    choose: impl FnOnce(&[DefenseOption]) -> Vec<usize>,
) -> StrikeOutcome {
    let open = std::mem::take(&mut input.defenses);
    resolve_strike_with(dice, input, move || open, choose)
}

/// [`resolve_strike`] with the open defenses worked out by `defenses` only when the attack
/// hits (a miss or a critical hit needs none; no dice are drawn for them, so the battle is
/// the same); `input.defenses` is not read.
pub fn resolve_strike_with(
    dice: &mut impl DieRoller,
    input: StrikeInput,
    open_defenses: impl FnOnce() -> Vec<DefenseOption>,
    choose: impl FnOnce(&[DefenseOption]) -> Vec<usize>,
) -> StrikeOutcome {
    let mut roll = success_roll(dice, input.attack);
    if input.stray {
        roll.critical = None;
    }
    // An aimed attack at a location marked * that misses by 1 hits the torso
    // (gurps-lite-and-socs.txt, "HIT LOCATIONS").
    let torso_instead = input.aimed.is_some_and(HitLocation::miss_by_one_hits_torso)
        && roll.margin == Some(-1)
        && roll.critical.is_none();
    let mut defenses = Vec::new();
    let mut defense_kinds = Vec::new();
    let mut defense_step = DefenseStep::Stand;
    let mut defense_efforts = Vec::new();
    let mut hits = (1u32, 0u32);
    if input.shots > 1 && roll.succeeded() {
        hits.0 = rapid_fire_hits(input.shots, input.recoil, roll.margin.unwrap_or(0));
    }
    let result = if !roll.succeeded() && !torso_instead {
        AttackResult::Miss
    } else if roll.critical == Some(Critical::Success) {
        AttackResult::CriticalHit
    } else {
        let open = open_defenses();
        let order = choose(&open);
        let tries = if input.double_defense { 2 } else { 1 };
        let mut defended = false;
        let mut used: Vec<DefenseKind> = Vec::new();
        for &i in order.iter() {
            if defenses.len() >= tries || defended {
                break;
            }
            let Some(option) = open.get(i) else {
                continue;
            };
            // Double Defense: the second must be a different kind of defense.
            let family = |k: DefenseKind| match k {
                DefenseKind::Dodge => 0,
                DefenseKind::Parry(_) => 1,
                DefenseKind::Block => 2,
            };
            if used.iter().any(|&u| family(u) == family(option.kind)) {
                continue;
            }
            used.push(option.kind);
            let r = success_roll(dice, option.modifiers.clone());
            defense_kinds.push(option.kind);
            if option.step != DefenseStep::Stand {
                defense_step = option.step;
            }
            defense_efforts.push(option.effort());
            if r.succeeded() {
                hits.1 = (hits.1 + hits_avoided(r.margin.unwrap_or(0))).min(hits.0);
            }
            defended = hits.1 >= hits.0;
            defenses.push((option.label.clone(), r));
        }
        if defended {
            AttackResult::Defended
        } else {
            AttackResult::Hit
        }
    };
    let mut location = if torso_instead {
        HitLocation::Torso
    } else {
        input.aimed.unwrap_or_default()
    };
    let mut location_roll = None;
    if result.hit() && input.aimed.is_none() && input.random_location && !input.disarm {
        let r = DiceExpr::d6(3, 0).roll(dice, i32::MIN);
        location = HitLocation::from_roll(r.total);
        location_roll = Some(r);
    }
    // A critical hit rolls on its table (gurps-traveller-gm-screen.txt, "CRITICAL HITS";
    // "CRITICAL HEAD BLOWS" for the skull, face and eyes).
    let critical = (result == AttackResult::CriticalHit && !input.disarm).then(|| {
        let r = DiceExpr::d6(3, 0).roll(dice, i32::MIN);
        let row = if is_head(location) {
            CriticalRow::Head(critical_head_blow(r.total))
        } else {
            CriticalRow::Hit(critical_hit(r.total, location))
        };
        (r, row)
    });
    let damage = (result.hit() && !input.disarm).then(|| {
        let mut basic = roll_damage(dice, input.damage, input.damage_bonus, input.damage_type);
        // gurps-lite-and-socs.txt, "HIT LOCATIONS", Armor Chinks: DR halved (round down).
        let dr_here = input.dr.at(location);
        let mut dr = if input.chink { dr_here / 2 } else { dr_here };
        let mut scar = None;
        match critical.as_ref().map(|c| c.1) {
            Some(CriticalRow::Hit(hit)) => {
                let extra = match hit.times {
                    Times::Normal => 0,
                    Times::Double => basic.total,
                    Times::Triple => 2 * basic.total,
                };
                if extra != 0 {
                    let label = if hit.times == Times::Double {
                        "critical hit: double damage"
                    } else {
                        "critical hit: triple damage"
                    };
                    basic.modifiers.push(Modifier::new(label, extra));
                    basic.total += extra;
                }
                if hit.ignore_dr {
                    dr = 0;
                }
            }
            Some(CriticalRow::Head(HeadBlow::Scar(n)))
                if input.damage_type != DamageType::Crushing =>
            {
                scar = Some(n);
            }
            _ => {}
        }
        let (mut steps, mut injury) = injury_steps(
            basic.total,
            dr,
            input.damage_type,
            input.half_damage,
            location,
            input.hp_max,
        );
        if let Some(n) = scar
            && injury != n
        {
            steps.push(Modifier::new("critical head blow: only a scar", n - injury));
            injury = n;
        }
        (basic, steps, injury)
    });
    // Further hits of a rapid-fire attack: each its own location and damage, no critical
    // table (decision: the table applies to the first hit).
    let mut extra_hits = Vec::new();
    if result.hit() && !input.disarm {
        for i in 1..hits.0.saturating_sub(hits.1) {
            let (dice_expr, damage_type) = input
                .extra_damage
                .get(i as usize - 1)
                .copied()
                .unwrap_or((input.damage, input.damage_type));
            let mut location = input.aimed.unwrap_or_default();
            let mut location_roll = None;
            if input.aimed.is_none() && input.random_location {
                let r = DiceExpr::d6(3, 0).roll(dice, i32::MIN);
                location = HitLocation::from_roll(r.total);
                location_roll = Some(r);
            }
            let basic = roll_damage(dice, dice_expr, Vec::new(), damage_type);
            let (steps, injury) = injury_steps(
                basic.total,
                if input.chink {
                    input.dr.at(location) / 2
                } else {
                    input.dr.at(location)
                },
                damage_type,
                input.half_damage,
                location,
                input.hp_max,
            );
            extra_hits.push(ExtraHit {
                location,
                location_roll,
                damage: (basic, steps, injury),
            });
        }
    }
    StrikeOutcome {
        roll,
        defenses,
        defense_kinds,
        defense_step,
        defense_efforts,
        result,
        location,
        location_roll,
        torso_instead,
        critical,
        damage,
        extra_hits,
        hits,
    }
}

/// What an injury did to a fighter's hit points and life.
#[derive(Clone, Debug, PartialEq)]
pub struct InjuryEffect {
    /// Hit points after the injury.
    pub hp_after: i32,
    /// HT rolls to avoid death, each with the multiple of −HP it was for.
    pub death_checks: Vec<(i32, RollRecord)>,
    /// Why the fighter died, if it did.
    pub died: Option<Cow<'static, str>>,
    /// The fighter is newly mortally wounded: it failed a roll to avoid death by 1 or 2.
    pub mortal: bool,
}

/// Applies `injury` to a fighter at `hp` of `hp_max` with health `ht`: death outright at
/// −5×HP, otherwise a HT roll for each multiple of −HP crossed (gurps-lite-and-socs.txt,
/// "LOST HIT POINTS"). A failure by 1 or 2 is a mortal wound instead of death
/// (gurps-lite-and-socs.txt, "INJURY", Mortal Wounds), unless the fighter is `mortal`
/// already: then, as for any other failure, it dies.
pub fn apply_injury(
    dice: &mut impl DieRoller,
    ht: i32,
    hp: i32,
    injury: i32,
    hp_max: i32,
    mortal: bool,
) -> InjuryEffect {
    let hp_after = hp - injury;
    let mut effect = InjuryEffect {
        hp_after,
        death_checks: Vec::new(),
        died: None,
        mortal: false,
    };
    if dead_outright(hp_after, hp_max) {
        effect.died = Some(Cow::Borrowed("reached -5 x HP"));
        return effect;
    }
    let mut mortal = mortal;
    for k in death_checks_crossed(hp, hp_after, hp_max) {
        let roll = success_roll(dice, vec![Modifier::new("HT", ht)]);
        let failed = !roll.succeeded();
        let near_miss = matches!(roll.margin, Some(-2..=-1)) && roll.critical.is_none();
        effect.death_checks.push((k, roll));
        if failed && near_miss && !mortal {
            mortal = true;
            effect.mortal = true;
        } else if failed {
            effect.died = Some(Cow::Owned(format!("failed the HT roll at -{k} x HP")));
            break;
        }
    }
    effect
}

/// The HT roll to stay conscious when acting at 0 HP or less (gurps-lite-and-socs.txt,
/// "LOST HIT POINTS"); `None` above 0 HP.
pub fn consciousness_roll(
    dice: &mut impl DieRoller,
    ht: i32,
    hp: i32,
    hp_max: i32,
) -> Option<RollRecord> {
    let modifier = consciousness_modifier(hp, hp_max)?;
    let mut mods = vec![Modifier::new("HT", ht)];
    if modifier != 0 {
        mods.push(Modifier::new("per full multiple of HP below 0", modifier));
    }
    Some(success_roll(dice, mods))
}

#[cfg(test)]
mod tests;
