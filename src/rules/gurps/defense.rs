//! GURPS active defenses as plain functions (gurps-lite-and-socs.txt, "ATTACK/DEFENSE
//! OPTIONS" (Retreat, Dodge and Drop, Feverish Defense), "MANEUVERS" (All-Out Defense);
//! gurps-traveller-gm-screen.txt, "MODIFIERS TO ACTIVE DEFENSE ROLLS"): which defenses a
//! fighter has against an attack, each with its labelled modifiers, and the best of them.

use super::fatigue::{cost, tired};
use super::injury::STUNNED_DEFENSE;
use super::posture::Posture;
use super::sheet::{Fighter, Guard, Weapon};
use crate::dice::{Gather, Label, Modifier, Sum};

/// Sum of modifiers: the effective skill or defense.
pub fn effective(mods: &[Modifier]) -> i32 {
    mods.iter().map(|m| m.value).sum()
}

/// Which active defense.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefenseKind {
    /// Dodge.
    Dodge,
    /// Parry with the weapon at this index.
    Parry(u8),
    /// Block with the shield.
    Block,
}

/// An active defense open to a defender, with its modifiers (base first).
#[derive(Clone, Debug, PartialEq)]
pub struct DefenseOption {
    /// Which defense.
    pub kind: DefenseKind,
    /// Its name for the log ("Dodge", "Parry (broadsword)").
    pub label: Label,
    /// Its modifiers; their sum is the defense roll's target.
    pub modifiers: Vec<Modifier>,
    /// Whether the defender also retreats or drops prone with it.
    pub step: DefenseStep,
    /// Feverish Defense: +2 for 1 FP (extra effort).
    pub feverish: bool,
    /// Rapid Recovery: a parry with the weapon of a Move and Attack, for 1 FP (extra
    /// effort).
    pub rapid_recovery: bool,
}

/// A move made with an active defense (gurps-lite-and-socs.txt, "ATTACK/DEFENSE OPTIONS").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DefenseStep {
    /// No move.
    #[default]
    Stand,
    /// Retreat one hex away from a melee attacker.
    Retreat,
    /// Dodge and Drop: fall prone against a ranged attack.
    Drop,
}

/// Skills whose parry gains the full +3 from a retreat (gurps-lite-and-socs.txt,
/// "ATTACK/DEFENSE OPTIONS": Boxing, Judo, Karate or fencing parries).
const FULL_RETREAT_PARRY: [&str; 7] = [
    "Boxing",
    "Judo",
    "Karate",
    "Rapier",
    "Saber",
    "Smallsword",
    "Main-Gauche",
];

/// Adds to `options` the same defenses with a retreat (once between the defender's turns,
/// against melee: +3 to Dodge and to Boxing, Judo, Karate or fencing parries, +1 to other
/// defenses) and Dodge and Drop (once, against ranged attacks: +3 to Dodge, falling prone)
/// (gurps-lite-and-socs.txt, "ATTACK/DEFENSE OPTIONS"). `can_retreat` says whether there is
/// a hex to retreat to; a stunned defender, or one after a Committed Attack, cannot retreat
/// ("INJURY", Stunned; "COMMITTED ATTACK"). The new options' labels are left empty when
/// `quiet` ([`Label::unless_quiet`]).
pub fn with_retreat_and_drop(
    defender: &Fighter,
    mut options: Vec<DefenseOption>,
    ranged_attack: bool,
    can_retreat: bool,
    quiet: bool,
) -> Vec<DefenseOption> {
    if defender.retreated || options.is_empty() {
        return options;
    }
    let n = options.len();
    options.reserve(n + 1);
    if !ranged_attack
        && can_retreat
        && !defender.stunned
        && !matches!(defender.guard, Guard::Committed(_))
    {
        for i in 0..n {
            let o = &options[i];
            let full = match o.kind {
                DefenseKind::Dodge => true,
                DefenseKind::Parry(w) => {
                    defender.sheet.weapons.get(usize::from(w)).is_some_and(|w| {
                        FULL_RETREAT_PARRY
                            .iter()
                            .any(|s| w.skill_name.eq_ignore_ascii_case(s))
                    })
                }
                DefenseKind::Block => false,
            };
            let mut modifiers = with_room(&o.modifiers);
            modifiers.push(Modifier::new("retreating", if full { 3 } else { 1 }));
            options.push(DefenseOption {
                kind: o.kind,
                label: Label::unless_quiet(quiet, || format!("{}, retreating", o.label)),
                modifiers,
                step: DefenseStep::Retreat,
                feverish: false,
                rapid_recovery: o.rapid_recovery,
            });
        }
    }
    if ranged_attack
        && defender.posture != Posture::Lying
        && let Some(dodge) = options.iter().find(|o| o.kind == DefenseKind::Dodge)
    {
        let mut modifiers = with_room(&dodge.modifiers);
        modifiers.push(Modifier::new("Dodge and Drop", 3));
        options.push(DefenseOption {
            kind: DefenseKind::Dodge,
            label: Label::Static("Dodge and Drop"),
            modifiers,
            step: DefenseStep::Drop,
            feverish: false,
            rapid_recovery: false,
        });
    }
    options
}

/// Adds what a shield does to a defender's options (gurps-traveller-gm-screen.txt, the
/// defense modifier list; decisions from the 4e Basic Set p. B374-375): its Defense Bonus on
/// every defense against an attack from the front; Block (3 + Shield/2 + DB) against melee
/// and muscle-powered missiles, not `firearm` shots; a large shield's −1 to parries; the
/// Defensive Attack's +1 to Block. `against` holds what the attack does to every defense
/// (as for [`defense_options`]). Nothing without a shield in use
/// ([`Fighter::shield_in_use`]: ready, its arm not crippled) or after an All-Out Attack.
/// The shield's labels are left empty when `quiet` ([`Label::unless_quiet`]).
pub fn with_shield(
    defender: &Fighter,
    mut options: Vec<DefenseOption>,
    front: bool,
    firearm: bool,
    against: &[Modifier],
    quiet: bool,
) -> Vec<DefenseOption> {
    let Some(shield) = defender.shield_in_use() else {
        return options;
    };
    if defender.guard == Guard::None {
        return options;
    }
    for o in options.iter_mut() {
        if front && shield.db != 0 {
            o.modifiers.push(Modifier::named(
                Label::unless_quiet(quiet, || format!("{} DB", shield.name)),
                shield.db,
            ));
        }
        if shield.large && matches!(o.kind, DefenseKind::Parry(_)) {
            o.modifiers
                .push(Modifier::new("parrying with a large shield", -1));
        }
    }
    if firearm || defender.blocked >= blocks_allowed(defender.guard) {
        return options;
    }
    // Block already counts the DB; from the side the shield still blocks.
    let mut block = vec![Modifier::new("Block", shield.block)];
    if defender.guard == Guard::Defensive {
        block.push(Modifier::new("Defensive Attack", 1));
    }
    if matches!(defender.guard, Guard::Committed(_)) {
        block.push(Modifier::new("after a Committed Attack", -2));
    }
    block.extend(shared_defense_modifiers(defender));
    block.extend_from_slice(against);
    options.push(DefenseOption {
        kind: DefenseKind::Block,
        label: Label::unless_quiet(quiet, || format!("Block ({})", shield.name)),
        modifiers: block,
        step: DefenseStep::Stand,
        feverish: false,
        rapid_recovery: false,
    });
    options
}

/// Adds Feverish Defense to every option when the scenario uses extra effort: +2 for 1 FP
/// (gurps-lite-and-socs.txt, "ATTACK/DEFENSE OPTIONS"; not after an All-Out Attack, which
/// leaves no defense at all). The new options' labels are left empty when `quiet`
/// ([`Label::unless_quiet`]).
pub fn with_feverish(
    defender: &Fighter,
    mut options: Vec<DefenseOption>,
    extra_effort: bool,
    quiet: bool,
) -> Vec<DefenseOption> {
    if !extra_effort || defender.guard == Guard::None {
        return options;
    }
    options.reserve(options.len());
    for i in 0..options.len() {
        let o = &options[i];
        let mut modifiers = with_room(&o.modifiers);
        modifiers.push(Modifier::new("Feverish Defense", 2));
        options.push(DefenseOption {
            kind: o.kind,
            label: Label::unless_quiet(quiet, || format!("{}, feverish", o.label)),
            modifiers,
            step: o.step,
            feverish: true,
            rapid_recovery: o.rapid_recovery,
        });
    }
    options
}

/// A copy of `modifiers` with room for one more and a few an attack adds (a retreat,
/// Feverish Defense, the attack's own modifiers to Dodge), so adding them does not move it.
fn with_room(modifiers: &[Modifier]) -> Vec<Modifier> {
    let mut copy = Vec::with_capacity(modifiers.len() + 3);
    copy.extend_from_slice(modifiers);
    copy
}

impl DefenseOption {
    /// The extra effort this defense spends, if any, with its name for the log: Feverish
    /// Defense and Rapid Recovery cost 1 FP each (gurps-lite-and-socs.txt, "ATTACK/DEFENSE
    /// OPTIONS").
    pub fn effort(&self) -> Option<(i32, &'static str)> {
        match (self.feverish, self.rapid_recovery) {
            (false, false) => None,
            (true, false) => Some((cost::FEVERISH_DEFENSE, "Feverish Defense")),
            (false, true) => Some((cost::RAPID_RECOVERY, "Rapid Recovery")),
            (true, true) => Some((
                cost::FEVERISH_DEFENSE + cost::RAPID_RECOVERY,
                "Rapid Recovery and Feverish Defense",
            )),
        }
    }

    /// The defense score.
    pub fn score(&self) -> i32 {
        effective(&self.modifiers)
    }
}

/// True when hit points are below a third of full: half Move and Dodge
/// (gurps-lite-and-socs.txt, "LOST HIT POINTS").
pub fn reeling(hp: i32, hp_max: i32) -> bool {
    hp * 3 < hp_max
}

/// Half of `value`, rounded up (the quick reference's "Half Move/Dodge (round up)").
pub fn half_round_up(value: i32) -> i32 {
    (value + 1).div_euclid(2)
}

/// Current Move: Basic Move, halved (round up) below a third of HP, then limited by the
/// posture ([`Posture::move_allowance`]).
pub fn current_move(f: &Fighter) -> i32 {
    let mut basic = f.sheet.basic_move;
    if reeling(f.hp, f.sheet.hp_max) {
        basic = half_round_up(basic);
    }
    if tired(f.fp, f.sheet.fp_max) {
        basic = half_round_up(basic);
    }
    f.posture.move_allowance(basic)
}

/// Dodge after the halvings for low HP and low FP (gurps-lite-and-socs.txt, "LOST HIT
/// POINTS" and "LOST FATIGUE POINTS"), as modifiers after the base score.
fn dodge_modifiers(f: &Fighter) -> Vec<Modifier> {
    let mut dodge = Vec::with_capacity(3);
    gather_dodge(f, &mut dodge);
    dodge
}

/// The sum of [`dodge_modifiers`], without listing them (for the AI, which asks for every
/// foe it weighs).
fn dodge_score(f: &Fighter) -> i32 {
    Sum::of(|sum| gather_dodge(f, sum))
}

/// [`dodge_modifiers`] into `dodge`.
fn gather_dodge(f: &Fighter, dodge: &mut impl Gather) {
    let sheet = &f.sheet;
    dodge.push(Modifier::new("Dodge", sheet.dodge));
    let mut now = sheet.dodge;
    if reeling(f.hp, sheet.hp_max) {
        dodge.push(Modifier::new(
            "below 1/3 HP: half Dodge",
            half_round_up(now) - now,
        ));
        now = half_round_up(now);
    }
    if tired(f.fp, sheet.fp_max) {
        dodge.push(Modifier::new(
            "below 1/3 FP: half Dodge",
            half_round_up(now) - now,
        ));
    }
}

/// Modifiers every active defense of `defender` shares: posture and stun
/// (gurps-lite-and-socs.txt, "POSTURES" and "INJURY", Stunned).
fn shared_defense_modifiers(defender: &Fighter) -> impl Iterator<Item = Modifier> {
    let stunned = defender
        .stunned
        .then(|| Modifier::new("stunned", STUNNED_DEFENSE));
    let off_balance = defender
        .off_balance
        .then(|| Modifier::new("off balance", OFF_BALANCE_DEFENSE));
    defender
        .posture
        .defense_label()
        .into_iter()
        .chain(stunned)
        .chain(off_balance)
}

fn shared_defense_sum(defender: &Fighter) -> i32 {
    defender.posture.defense_modifier()
        + if defender.stunned { STUNNED_DEFENSE } else { 0 }
        + if defender.off_balance {
            OFF_BALANCE_DEFENSE
        } else {
            0
        }
}

/// An unarmed parry against a weapon (gurps-traveller-gm-screen.txt, "MODIFIERS TO
/// ACTIVE DEFENSE ROLLS").
pub const UNARMED_PARRY_VS_WEAPON: i32 = -3;

/// What parrying with `parry_with` against a blow of `attack_with` costs: −3 for a bare
/// hand (a parry with a blow of the body, [`Weapon::held`]: Brawling, Boxing, Wrestling or
/// a natural attack) against a weapon held in hand, except against a thrust
/// ([`Weapon::thrust`]); Judo and Karate parries take none (gurps-traveller-gm-screen.txt, "MODIFIERS TO
/// ACTIVE DEFENSE ROLLS", Unarmed parry vs. weapon).
pub fn unarmed_parry_penalty(parry_with: &Weapon, attack_with: &Weapon) -> Option<Modifier> {
    let bare_hand = !parry_with.held()
        && !["Judo", "Karate"]
            .iter()
            .any(|s| parry_with.skill_name.eq_ignore_ascii_case(s));
    (bare_hand && attack_with.held() && !attack_with.thrust && !attack_with.is_ranged())
        .then(|| Modifier::new("unarmed parry against a weapon", UNARMED_PARRY_VS_WEAPON))
}

/// Each parry with a weapon after the first since the defender's last turn (decision: 4e
/// Basic Set p. B376; the texts only cap parries under All-Out Defense).
pub const REPEATED_PARRY: i32 = -4;

/// Blocks a fighter can make between its turns: one, or two under All-Out Defense
/// (gurps-traveller-gm-screen.txt, "All-Out Defense ... no more than 2 parries per weapon,
/// and 2 blocks"; decision: one otherwise, 4e Basic Set p. B375).
pub fn blocks_allowed(guard: Guard) -> u8 {
    match guard {
        Guard::IncreasedDodge | Guard::IncreasedParry | Guard::DoubleDefense => 2,
        _ => 1,
    }
}

/// Defenses after losing one's balance or guard on a critical miss
/// (gurps-traveller-gm-screen.txt, "CRITICAL MISSES" 7 and 13: "all your active defenses
/// are at −2 until your next turn").
pub const OFF_BALANCE_DEFENSE: i32 = -2;

/// The active defenses a defender can try against one attack
/// (gurps-lite-and-socs.txt: Dodge always; Parry only against melee and with a weapon
/// that can parry; none after All-Out Attack; All-Out Defense +2; half Dodge below 1/3 HP;
/// posture and stun; Committed Attack −2 and no parry with the weapon it used; Defensive
/// Attack +1 to Parry). `against` holds what the attack itself does to every defense (a
/// feint's margin, Deceptive Attack, Telegraphic Attack).
pub fn defense_options(
    defender: &Fighter,
    ranged_attack: bool,
    against: &[Modifier],
) -> Vec<DefenseOption> {
    let guard = defender.guard;
    if guard == Guard::None {
        return Vec::new();
    }
    let sheet = &defender.sheet;
    let committed =
        matches!(guard, Guard::Committed(_)).then(|| Modifier::new("after a Committed Attack", -2));
    let mut options = Vec::with_capacity(2);
    if !kicked(defender, guard) {
        let mut dodge = dodge_modifiers(defender);
        if guard == Guard::IncreasedDodge {
            dodge.push(Modifier::new("All-Out Defense", 2));
        }
        dodge.extend(committed.clone());
        dodge.extend(shared_defense_modifiers(defender));
        dodge.extend_from_slice(against);
        options.push(DefenseOption {
            kind: DefenseKind::Dodge,
            label: Label::Static("Dodge"),
            modifiers: dodge,
            step: DefenseStep::Stand,
            feverish: false,
            rapid_recovery: false,
        });
    }
    if !ranged_attack && !defender.disarmed() {
        for (i, w) in sheet.weapons.iter().enumerate() {
            if w.parry.is_none()
                || guard == Guard::Committed(i as u8)
                || guard == Guard::MovedAttack(i as u8)
                || !defender.wields(i)
            {
                continue;
            }
            options.extend(parry_option(defender, i, against, committed.clone()));
        }
    }
    options
}

/// True when `guard` is that of a Committed Attack made with a kick: no
/// Dodge until its next turn (gurps-lite-and-socs.txt, "MANEUVERS", Committed Attack: "no
/// Dodge if you kicked"; decision: a kick is a weapon whose name says so, as GCS's Natural
/// Attacks name their usage "Kick").
fn kicked(defender: &Fighter, guard: Guard) -> bool {
    match guard {
        Guard::Committed(i) => defender
            .sheet
            .weapons
            .get(usize::from(i))
            .is_some_and(Weapon::is_kick),
        _ => false,
    }
}

/// The parry with weapon `i` ([`defense_options`]): its Parry score, −4 for each parry with
/// it since the defender's last turn, the guard's bonus or penalty (`committed`: the −2
/// after a Committed Attack), posture and stun, and what the attack does (`against`).
/// `None` for a weapon that cannot parry.
fn parry_option(
    defender: &Fighter,
    i: usize,
    against: &[Modifier],
    committed: Option<Modifier>,
) -> Option<DefenseOption> {
    let w = defender.sheet.weapons.get(i)?;
    let mut parry = vec![Modifier::new("Parry", w.parry?)];
    let before = defender.parried.get(i).copied().unwrap_or(0);
    if before > 0 {
        parry.push(Modifier::new(
            "parried before this turn",
            REPEATED_PARRY * i32::from(before),
        ));
    }
    match defender.guard {
        Guard::IncreasedParry => parry.push(Modifier::new("All-Out Defense", 2)),
        Guard::Defensive => parry.push(Modifier::new("Defensive Attack", 1)),
        _ => {}
    }
    parry.extend(committed);
    parry.extend(shared_defense_modifiers(defender));
    parry.extend_from_slice(against);
    Some(DefenseOption {
        kind: DefenseKind::Parry(i as u8),
        label: w.parry_label.clone(),
        modifiers: parry,
        step: DefenseStep::Stand,
        feverish: false,
        rapid_recovery: false,
    })
}

/// Adds Rapid Recovery when the scenario uses extra effort: after a Move and Attack the
/// weapon that attacked may parry for 1 FP (gurps-lite-and-socs.txt, "ATTACK/DEFENSE
/// OPTIONS", Rapid Recovery; without it [`defense_options`] leaves that parry out). Not
/// against a ranged attack, not with a weapon that is not ready or cannot parry. The
/// label is left empty when `quiet` ([`Label::unless_quiet`]).
pub fn with_rapid_recovery(
    defender: &Fighter,
    mut options: Vec<DefenseOption>,
    ranged_attack: bool,
    against: &[Modifier],
    extra_effort: bool,
    quiet: bool,
) -> Vec<DefenseOption> {
    let Guard::MovedAttack(i) = defender.guard else {
        return options;
    };
    let i = usize::from(i);
    if !extra_effort || ranged_attack || defender.disarmed() || !defender.wields(i) {
        return options;
    }
    if let Some(mut parry) = parry_option(defender, i, against, None) {
        parry.label = Label::unless_quiet(quiet, || format!("{}, Rapid Recovery", parry.label));
        parry.rapid_recovery = true;
        options.push(parry);
    }
    options
}

/// The best defense score a fighter would have against an attack from the front if its
/// guard were `guard` (the same numbers as [`defense_options`] and [`with_shield`] with
/// nothing `against`, a ranged attack counting as a firearm, without building them; for
/// the AI). `None` when it has no defense: no guard (after an All-Out Attack), or after a
/// Committed Attack with a kick with no parry or block left.
pub fn best_defense_score(defender: &Fighter, guard: Guard, ranged_attack: bool) -> Option<i32> {
    if guard == Guard::None {
        return None;
    }
    let sheet = &defender.sheet;
    let mut dodge = dodge_score(defender);
    if guard == Guard::IncreasedDodge {
        dodge += 2;
    }
    let shield = defender.shield_in_use();
    let db = shield.map_or(0, |s| s.db);
    // After a Committed Attack with a kick there is no Dodge: the best is a parry or a
    // block, if any.
    let mut best = if kicked(defender, guard) {
        i32::MIN
    } else {
        dodge + db
    };
    if !ranged_attack && !defender.disarmed() {
        let bonus = match guard {
            Guard::IncreasedParry => 2,
            Guard::Defensive => 1,
            _ => 0,
        } + db
            - i32::from(shield.is_some_and(|s| s.large));
        for (i, w) in sheet.weapons.iter().enumerate() {
            if let Some(p) = w.parry
                && guard != Guard::Committed(i as u8)
                && guard != Guard::MovedAttack(i as u8)
                && defender.wields(i)
            {
                let before = defender.parried.get(i).copied().unwrap_or(0);
                best = best.max(p + bonus + REPEATED_PARRY * i32::from(before));
            }
        }
    }
    if let Some(s) = shield
        && !ranged_attack
        && defender.blocked < blocks_allowed(guard)
    {
        let defensive = i32::from(guard == Guard::Defensive);
        best = best.max(s.block + defensive);
    }
    let committed = if matches!(guard, Guard::Committed(_)) {
        -2
    } else {
        0
    };
    (best != i32::MIN).then(|| best + committed + shared_defense_sum(defender))
}
