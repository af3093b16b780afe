//! The GCS reader against the six sample files shipped in `scenarios/gcs/` (unmodified
//! copies of `../shared/gcs-samples/`, from GCS's master library, MPL-2.0): every number
//! asserted here is copied from the file's own `calc`
//! values; DR by location is also worked out again from armor and traits, and by hand;
//! and broken files give errors or warnings, never a panic.

use super::*;

const SAMPLES: [&str; 6] = [
    "Dai Blackthorn.gcs",
    "Iotha.gcs",
    "Ogre.gcs",
    "Orc, Warrior.gcs",
    "Wolf, Timber.gcs",
    "Young Haldor.gcs",
];

fn sample(name: &str) -> String {
    let path = format!("{}/scenarios/gcs/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn doc(name: &str) -> Value {
    serde_json::from_str(&sample(name)).expect("the sample is JSON")
}

fn character(name: &str) -> GcsCharacter {
    read(&sample(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Reads an edited document (written out pretty, as GCS does).
fn read_doc(doc: &Value) -> Result<GcsCharacter, GcsError> {
    read(&serde_json::to_string_pretty(doc).expect("JSON out"))
}

fn weapon<'a>(c: &'a GcsCharacter, name: &str, usage: &str) -> &'a GcsWeapon {
    c.weapons
        .iter()
        .find(|w| w.name == name && w.usage == usage)
        .unwrap_or_else(|| panic!("{}: no weapon {name} ({usage})", c.name))
}

fn has_weapon(c: &GcsCharacter, name: &str, usage: &str) -> bool {
    c.weapons.iter().any(|w| w.name == name && w.usage == usage)
}

fn skill(c: &GcsCharacter, name: &str, spec: Option<&str>) -> i32 {
    c.skills
        .iter()
        .find(|s| s.name == name && s.specialization.as_deref() == spec)
        .map(|s| s.level)
        .unwrap_or_else(|| panic!("{}: no skill {name} {spec:?}", c.name))
}

/// ST, DX, IQ, HT, HP, FP, Will, Per.
fn attributes(c: &GcsCharacter) -> [i32; 8] {
    [c.st, c.dx, c.iq, c.ht, c.hp, c.fp, c.will, c.per]
}

/// (level, damage, reach, parry, block, skill) of a melee usage.
type Melee<'a> = (
    i32,
    &'a str,
    Option<&'a str>,
    Option<&'a str>,
    Option<&'a str>,
    Option<&'a str>,
);

/// (level, damage, acc, range, rof, shots, bulk, min ST, skill) of a ranged usage.
type Ranged<'a> = (
    i32,
    &'a str,
    Option<&'a str>,
    Option<&'a str>,
    Option<&'a str>,
    Option<&'a str>,
    Option<&'a str>,
    Option<&'a str>,
    Option<&'a str>,
);

/// A melee usage's columns, checking it has no ranged ones.
fn melee(w: &GcsWeapon) -> Melee<'_> {
    assert!(!w.ranged, "{} ({}) is melee", w.name, w.usage);
    assert_eq!(
        (&w.acc, &w.range, &w.rof, &w.shots, &w.bulk, &w.recoil),
        (&None, &None, &None, &None, &None, &None),
        "{} ({}): no ranged columns",
        w.name,
        w.usage
    );
    (
        w.skill_level,
        w.damage.as_str(),
        w.reach.as_deref(),
        w.parry.as_deref(),
        w.block.as_deref(),
        w.skill.as_deref(),
    )
}

/// A ranged usage's columns, checking it has no melee ones.
fn ranged(w: &GcsWeapon) -> Ranged<'_> {
    assert!(w.ranged, "{} ({}) is ranged", w.name, w.usage);
    assert_eq!(
        (&w.reach, &w.parry, &w.block),
        (&None, &None, &None),
        "{} ({}): no melee columns",
        w.name,
        w.usage
    );
    (
        w.skill_level,
        w.damage.as_str(),
        w.acc.as_deref(),
        w.range.as_deref(),
        w.rof.as_deref(),
        w.shots.as_deref(),
        w.bulk.as_deref(),
        w.min_st.as_deref(),
        w.skill.as_deref(),
    )
}

fn dr(pairs: &[(&str, i32)]) -> BTreeMap<String, i32> {
    pairs.iter().map(|&(k, v)| (k.to_string(), v)).collect()
}

fn warned(c: &GcsCharacter, words: &[&str]) -> bool {
    c.warnings
        .iter()
        .any(|w| words.iter().all(|word| w.contains(word)))
}

/// The humanoid table with the same DR everywhere but the eyes and the skull.
fn humanoid(eye: i32, skull: i32, rest: i32) -> BTreeMap<String, i32> {
    let mut m = dr(&[("eye", eye), ("skull", skull)]);
    for id in [
        "face", "neck", "torso", "vitals", "groin", "arm", "hand", "leg", "foot",
    ] {
        m.insert(id.to_string(), rest);
    }
    m
}

// ---------------------------------------------------------------------------------------
// The six samples, value by value from their `calc` blocks.

/// Ogre.gcs: attributes ST 20, DX 11, IQ 7, HT 13, HP 20, FP 13, Will 7, Per 7, Basic
/// Speed 6, Basic Move 6; calc.move[0] 6, calc.dodge[0] 9; profile.SM 1. Skills
/// Brawling 13, Two-Handed Axe/Mace 16, Wrestling 13. Maul Swung: level 16, "3d+7 cr",
/// parry "11", reach "1-2*", ST "13‡"; Natural Attacks Punch 13 "2d cr" parry "9" reach
/// "C,1", Kick 11 "2d+1 cr" (no parry). High Pain Threshold. DR 3 (Damage Resistance
/// 3) everywhere but the eyes, the skull 3 + 2 = 5.
#[test]
fn ogre() {
    let c = character("Ogre.gcs");
    assert_eq!(c.name, "Ogre");
    assert_eq!(attributes(&c), [20, 11, 7, 13, 20, 13, 7, 7]);
    assert_eq!((c.basic_speed, c.basic_move, c.dodge), (6.0, 6, 9));
    assert_eq!(c.size_modifier, 1);
    assert_eq!(skill(&c, "Brawling", None), 13);
    assert_eq!(skill(&c, "Two-Handed Axe/Mace", None), 16);
    assert_eq!(skill(&c, "Wrestling", None), 13);
    assert_eq!(c.skills.len(), 3);
    let maul = weapon(&c, "Maul", "Swung");
    assert_eq!(
        melee(maul),
        (
            16,
            "3d+7 cr",
            Some("1-2*"),
            Some("11"),
            None,
            Some("Two-Handed Axe/Mace")
        )
    );
    assert_eq!(maul.min_st.as_deref(), Some("13‡"));
    assert_eq!(
        melee(weapon(&c, "Natural Attacks", "Punch")),
        (13, "2d cr", Some("C,1"), Some("9"), None, Some("Brawling"))
    );
    assert_eq!(
        melee(weapon(&c, "Natural Attacks", "Kick")),
        (11, "2d+1 cr", Some("C,1"), None, None, Some("Brawling"))
    );
    assert_eq!(c.weapons.len(), 3);
    // equipment first, in file order, then traits
    assert_eq!(c.weapons[0].name, "Maul");
    assert_eq!(c.traits, vec!["High Pain Threshold".to_string()]);
    assert_eq!(c.dr, humanoid(0, 5, 3));
    assert!(warned(&c, &["trait Fearlessness 3", "not used in combat"]));
    // plain traits (Magic Resistance, Night Vision, Appearance…) are not named
    assert!(!warned(&c, &["Night Vision"]));
    assert!(!warned(&c, &["Damage Resistance"]));
    assert_eq!(c.warnings.len(), 1, "{:?}", c.warnings);
}

/// Orc, Warrior.gcs: ST 12, DX 11, IQ 9, HT 11, HP 14, FP 11, Will 10, Per 10, Basic
/// Speed 5.5, Basic Move 5; calc.move[0] 5, calc.dodge[0] 9 (8 + the shield's DB 1).
/// Skills Bow 12, Brawling 13, Shield (Shield) 12, Shortsword 13. Small Shield with
/// Spike, Shield Bash: 12, "1d cr", block "10"; Falchion Swung 13 "1d+3 cut" parry "10",
/// Thrust 13 "1d-3 imp" parry "10" (ST 10); Regular Bow Shoot 12 "1d imp", acc "2",
/// range "180/240" (calc; "x15/x20" as written), rof "1", shots "1(2)", bulk "-7", ST
/// "10†". Heavy leather DR 2 on all but eyes and face; the helmet's 2 + the skull's 2.
/// 56.5 lb carried against Basic Lift 29 lb: Light encumbrance (calc.move[1] 4,
/// calc.dodge[1] 8).
#[test]
fn orc_warrior() {
    let c = character("Orc, Warrior.gcs");
    assert_eq!(c.name, "Orc, Warrior");
    assert_eq!(attributes(&c), [12, 11, 9, 11, 14, 11, 10, 10]);
    assert_eq!((c.basic_speed, c.basic_move, c.dodge), (5.5, 5, 9));
    assert_eq!(c.size_modifier, 0);
    assert_eq!(skill(&c, "Bow", None), 12);
    assert_eq!(skill(&c, "Brawling", None), 13);
    assert_eq!(skill(&c, "Shield", Some("Shield")), 12);
    assert_eq!(skill(&c, "Shortsword", None), 13);
    assert_eq!(
        melee(weapon(&c, "Small Shield with Spike", "Shield Bash")),
        (
            12,
            "1d cr",
            Some("1"),
            None,
            Some("10"),
            Some("Shield (Shield)")
        )
    );
    let swung = weapon(&c, "Falchion", "Swung");
    assert_eq!(
        melee(swung),
        (
            13,
            "1d+3 cut",
            Some("1"),
            Some("10"),
            None,
            Some("Shortsword")
        )
    );
    assert_eq!(swung.min_st.as_deref(), Some("10"));
    assert_eq!(
        melee(weapon(&c, "Falchion", "Thrust")),
        (
            13,
            "1d-3 imp",
            Some("1"),
            Some("10"),
            None,
            Some("Shortsword")
        )
    );
    assert_eq!(
        ranged(weapon(&c, "Regular Bow", "Shoot")),
        (
            12,
            "1d imp",
            Some("2"),
            Some("180/240"),
            Some("1"),
            Some("1(2)"),
            Some("-7"),
            Some("10†"),
            Some("Bow")
        )
    );
    assert_eq!(c.weapons.len(), 4);
    assert!(c.traits.is_empty());
    let mut expected = humanoid(0, 4, 2);
    expected.insert("face".into(), 0);
    assert_eq!(c.dr, expected);
    assert!(warned(
        &c,
        &["56.5 lb", "Basic Lift 29 lb", "Light", "Move 4, Dodge 8"]
    ));
    assert!(warned(
        &c,
        &["Small Shield with Spike", "Defense Bonus", "+1 Dodge"]
    ));
}

/// Wolf, Timber.gcs (profile name "Timber Wolf"): ST 10, DX 12, IQ 4, HT 12, HP 10, FP
/// 12, Will 11, Per 14, Basic Speed 6, Basic Move 9; calc.move[0] 9, calc.dodge[0] 9; no
/// SM. Brawling 14, Tracking 14. Teeth, Sharp, Bite: 14, "1d-2 cut", reach "C", no parry.
/// A quadruped body (no arms or hands, a tail): DR 1 everywhere, eyes too; skull 1 + 2.
#[test]
fn timber_wolf() {
    let c = character("Wolf, Timber.gcs");
    assert_eq!(c.name, "Timber Wolf");
    assert_eq!(attributes(&c), [10, 12, 4, 12, 10, 12, 11, 14]);
    assert_eq!((c.basic_speed, c.basic_move, c.dodge), (6.0, 9, 9));
    assert_eq!(c.size_modifier, 0);
    assert_eq!(skill(&c, "Brawling", None), 14);
    assert_eq!(skill(&c, "Tracking", None), 14);
    assert_eq!(
        melee(weapon(&c, "Teeth, Sharp", "Bite")),
        (14, "1d-2 cut", Some("C"), None, None, Some("Brawling"))
    );
    assert_eq!(c.weapons.len(), 1);
    assert!(c.traits.is_empty());
    assert_eq!(
        c.dr,
        dr(&[
            ("eye", 1),
            ("skull", 3),
            ("face", 1),
            ("neck", 1),
            ("torso", 1),
            ("vitals", 1),
            ("groin", 1),
            ("leg", 1),
            ("foot", 1),
            ("tail", 1),
        ])
    );
    // A quadruped: no arms or hands, which the rules' humanoid table still has.
    assert_eq!(c.warnings.len(), 1, "{:?}", c.warnings);
    assert!(c.warnings[0].starts_with("the body type has no arm, hand:"));
}

/// Young Haldor.gcs: ST 12, DX 12, IQ 11, HT 12, HP 12, FP 12, Will 11, Per 12, Basic
/// Speed 6, Basic Move 6; calc.move[0] 6, calc.dodge[0] 11 (9 + the medium shield's DB
/// 2). Axe Swing 12 "1d+4 cut" parry "11U" ST "11", Swing - two handed 9 "1d+5 cut"
/// parry "9U"; Medium Shield, Shield Bash 12 "1d-1 cr" block "11"; Regular Bow 13 "1d
/// imp" "180/240"; Small Knife Swung 8 "1d-1 cut" parry "8" reach "C,1", Thrust 8 "1d-2
/// imp" reach "C", Thrown 8 (a `W` usage) "1d-2 imp" range "6/12" shots "T" bulk "-1".
/// Layered leather 3 on torso, vitals, groin and arms, boots 2 on the feet, pot helm 2
/// on the skull (+ 2).
#[test]
fn young_haldor() {
    let c = character("Young Haldor.gcs");
    assert_eq!(c.name, "Young Haldor");
    assert_eq!(attributes(&c), [12, 12, 11, 12, 12, 12, 11, 12]);
    assert_eq!((c.basic_speed, c.basic_move, c.dodge), (6.0, 6, 11));
    assert_eq!(skill(&c, "Armoury", Some("Melee Weapons")), 10);
    assert_eq!(skill(&c, "Armoury", Some("Missile Weapons")), 10);
    assert_eq!(skill(&c, "Shield", Some("Shield")), 12);
    assert_eq!(skill(&c, "Axe/Mace", None), 12);
    assert_eq!(skill(&c, "Swimming", None), 8);
    let axe = weapon(&c, "Axe", "Swing");
    assert_eq!(
        melee(axe),
        (
            12,
            "1d+4 cut",
            Some("1"),
            Some("11U"),
            None,
            Some("Axe/Mace")
        )
    );
    assert_eq!(axe.min_st.as_deref(), Some("11"));
    // Axe/Mace 12 − 3 beats DX 12 − 5
    assert_eq!(
        melee(weapon(&c, "Axe", "Swing - two handed")),
        (9, "1d+5 cut", Some("1"), Some("9U"), None, Some("Axe/Mace"))
    );
    assert_eq!(
        melee(weapon(&c, "Medium Shield", "Shield Bash")),
        (
            12,
            "1d-1 cr",
            Some("1"),
            None,
            Some("11"),
            Some("Shield (Shield)")
        )
    );
    assert_eq!(
        ranged(weapon(&c, "Regular Bow", "Shoot")),
        (
            13,
            "1d imp",
            Some("2"),
            Some("180/240"),
            Some("1"),
            Some("1(2)"),
            Some("-7"),
            Some("10†"),
            Some("Bow")
        )
    );
    // no Knife skill: the level is DX 12 − 4, from an attribute
    assert_eq!(
        melee(weapon(&c, "Small Knife", "Swung")),
        (8, "1d-1 cut", Some("C,1"), Some("8"), None, None)
    );
    assert_eq!(
        melee(weapon(&c, "Small Knife", "Thrust")),
        (8, "1d-2 imp", Some("C"), Some("8"), None, None)
    );
    assert_eq!(
        ranged(weapon(&c, "Small Knife", "Thrown")),
        (
            8,
            "1d-2 imp",
            None,
            Some("6/12"),
            Some("1"),
            Some("T"),
            Some("-1"),
            Some("5"),
            None
        )
    );
    assert_eq!(
        melee(weapon(&c, "Natural Attacks", "Punch")),
        (12, "1d-2 cr", Some("C"), Some("11"), None, None)
    );
    assert_eq!(c.weapons.len(), 10);
    assert_eq!(
        c.dr,
        dr(&[
            ("eye", 0),
            ("skull", 4),
            ("face", 0),
            ("neck", 0),
            ("torso", 3),
            ("vitals", 3),
            ("groin", 3),
            ("arm", 3),
            ("hand", 0),
            ("leg", 0),
            ("foot", 2),
        ])
    );
    assert!(warned(&c, &["69.2 lb", "Medium", "Move 3, Dodge 9"]));
    assert!(warned(&c, &["trait Luck", "not used in combat"]));
    assert!(warned(
        &c,
        &["Medium Shield", "+2 Dodge, +2 Parry, +2 Block"]
    ));
}

/// Dai Blackthorn.gcs (Basic Set sample, no equipment): ST 8, DX 15, IQ 12, HT 12, HP 10,
/// FP 10, Will 12, Per 15, Basic Speed 7, Basic Move 7; calc.dodge[0] 10. Knife 17,
/// Guns (Pistol) 15, Fast-Draw (Knife) 15, Thrown Weapon (Knife) 17, Climbing 18 (with
/// Flexibility and Perfect Balance). Natural Attacks, in a trait container: Bite 15 "1d-4
/// cr", Punch 15 "1d-4 cr" parry "10", Kick 13 "1d-3 cr". No armor: DR 0, skull 2.
#[test]
fn dai_blackthorn() {
    let c = character("Dai Blackthorn.gcs");
    assert_eq!(c.name, "Dai Blackthorn");
    assert_eq!(attributes(&c), [8, 15, 12, 12, 10, 10, 12, 15]);
    assert_eq!((c.basic_speed, c.basic_move, c.dodge), (7.0, 7, 10));
    assert_eq!(skill(&c, "Knife", None), 17);
    assert_eq!(skill(&c, "Guns", Some("Pistol")), 15);
    assert_eq!(skill(&c, "Fast-Draw", Some("Knife")), 15);
    assert_eq!(skill(&c, "Thrown Weapon", Some("Knife")), 17);
    assert_eq!(skill(&c, "Climbing", None), 18);
    assert_eq!(c.skills.len(), 18);
    assert_eq!(
        melee(weapon(&c, "Natural Attacks", "Bite")),
        (15, "1d-4 cr", Some("C"), None, None, None)
    );
    assert_eq!(
        melee(weapon(&c, "Natural Attacks", "Punch")),
        (15, "1d-4 cr", Some("C"), Some("10"), None, None)
    );
    assert_eq!(
        melee(weapon(&c, "Natural Attacks", "Kick")),
        (13, "1d-3 cr", Some("C,1"), None, None, None)
    );
    assert_eq!(c.weapons.len(), 3);
    assert!(c.traits.is_empty());
    assert_eq!(c.dr, humanoid(0, 2, 0));
    assert!(warned(&c, &["trait Danger Sense"]));
    // skill bonuses (Flexibility, Perfect Balance) are in GCS's levels: not named
    assert!(!warned(&c, &["Flexibility"]));
}

/// Iotha.gcs (Basic Set sample): ST 9, DX 13, IQ 12, HT 11, HP 9, FP 11, Will 12, Per 14,
/// Basic Speed 6, Basic Move 8; calc.dodge[0] 9. Bow 21, Zen Archery 12, Survival
/// (Woodlands) 14, Musical Instrument (Lyre) 13. Natural Attacks Punch 13 "1d-3 cr" parry
/// "9". Weapon Master (Bow) named in a warning. DR 0, skull 2.
#[test]
fn iotha() {
    let c = character("Iotha.gcs");
    assert_eq!(c.name, "Iotha");
    assert_eq!(attributes(&c), [9, 13, 12, 11, 9, 11, 12, 14]);
    assert_eq!((c.basic_speed, c.basic_move, c.dodge), (6.0, 8, 9));
    assert_eq!(skill(&c, "Bow", None), 21);
    assert_eq!(skill(&c, "Zen Archery", None), 12);
    assert_eq!(skill(&c, "Survival", Some("Woodlands")), 14);
    assert_eq!(skill(&c, "Musical Instrument", Some("Lyre")), 13);
    assert_eq!(
        melee(weapon(&c, "Natural Attacks", "Punch")),
        (13, "1d-3 cr", Some("C"), Some("9"), None, None)
    );
    assert_eq!(
        melee(weapon(&c, "Natural Attacks", "Kick")),
        (11, "1d-2 cr", Some("C,1"), None, None, None)
    );
    assert_eq!(c.dr, humanoid(0, 2, 0));
    assert!(warned(&c, &["trait Weapon Master (Bow)"]));
}

// ---------------------------------------------------------------------------------------
// DR worked out from the features.

/// For every sample, DR worked out from the body's own DR, the traits and the armor
/// equals the table GCS stored, location by location (both arms, both legs too).
#[test]
fn recomputed_dr_equals_the_stored_table() {
    for name in SAMPLES {
        let d = doc(name);
        let (worked_out, notes) = recomputed_dr(&d);
        assert!(notes.is_empty(), "{name}: {notes:?}");
        let stored = stored_dr(&d);
        assert_eq!(worked_out, stored, "{name}");
        let rows = d["settings"]["body_type"]["locations"]
            .as_array()
            .expect("a body type");
        for l in rows {
            let id = l["id"].as_str().expect("an id");
            let all = l["calc"]["dr"]["all"].as_i64().expect("calc.dr.all");
            assert_eq!(i64::from(worked_out[id]), all, "{name}: {id}");
        }
    }
}

fn without_stored_dr(mut d: Value) -> Value {
    if let Some(rows) = d["settings"]["body_type"]["locations"].as_array_mut() {
        for l in rows {
            if let Some(calc) = l["calc"].as_object_mut() {
                calc.remove("dr");
            }
        }
    }
    d
}

/// DR worked out by hand, and read from files whose table has no `calc.dr`:
///
/// - Ogre: "Damage Resistance", levels 3, `dr_bonus` 1 per level on skull, face, neck,
///   torso, vitals, groin, arm, hand, leg, foot (and tail, wing, fin, brain, which a
///   humanoid has not), none on the eyes: 3 everywhere, eyes 0, skull 3 + its own 2 = 5.
/// - Orc, Warrior: the equipped "Heavy Cloth or Leather Suit" container holds, equipped,
///   body armor 2 on torso, vitals, neck and groin, boots 2 (foot), gloves 2 (hand),
///   helmet 2 (skull), leggings 2 (leg), sleeves 2 (arm): 2 there, skull 2 + 2 = 4, eyes
///   and face 0.
/// - Young Haldor: medium torso armor 3 on torso, vitals and groin, arm armor 3, boots 2
///   on the feet, light pot helm 2 on the skull (+ 2 = 4); face, eyes, neck, hands and
///   legs 0.
#[test]
fn dr_worked_out_by_hand() {
    let ogre = humanoid(0, 5, 3);
    let mut orc = humanoid(0, 4, 2);
    orc.insert("face".into(), 0);
    let haldor = dr(&[
        ("eye", 0),
        ("skull", 4),
        ("face", 0),
        ("neck", 0),
        ("torso", 3),
        ("vitals", 3),
        ("groin", 3),
        ("arm", 3),
        ("hand", 0),
        ("leg", 0),
        ("foot", 2),
    ]);
    for (name, by_hand) in [
        ("Ogre.gcs", ogre),
        ("Orc, Warrior.gcs", orc),
        ("Young Haldor.gcs", haldor),
    ] {
        assert_eq!(recomputed_dr(&doc(name)).0, by_hand, "{name}");
        let c = read_doc(&without_stored_dr(doc(name))).expect("reads");
        assert_eq!(c.dr, by_hand, "{name}");
        assert!(
            warned(&c, &["not in the file's hit location table"]),
            "{name}"
        );
    }
}

/// The trait with the DR for the Ogre.
fn ogre_dr_trait(d: &mut Value) -> &mut Value {
    d["traits"]
        .as_array_mut()
        .and_then(|t| t.iter_mut().find(|t| t["name"] == "Damage Resistance"))
        .expect("the Ogre's Damage Resistance")
}

/// Specialized DR (against burning) is left out of the table and named in a warning.
#[test]
fn specialized_dr_is_named_not_counted() {
    let mut d = without_stored_dr(doc("Ogre.gcs"));
    let features = ogre_dr_trait(&mut d)["features"]
        .as_array_mut()
        .expect("features");
    for f in features {
        if f["locations"][0] == "torso" {
            f["specialization"] = "burning".into();
        }
    }
    let c = read_doc(&d).expect("reads");
    assert_eq!(c.dr["torso"], 0);
    assert_eq!(c.dr["vitals"], 3);
    assert!(warned(
        &c,
        &[
            "trait Damage Resistance 3",
            "DR 3 against burning on torso",
            "not used"
        ]
    ));
}

/// Disabled traits and modifiers, unequipped armor (or armor in an unequipped container)
/// add no DR; enabled modifiers do (per level: the trait's levels); `all` covers every
/// location of the body, and the older single `location` field is read.
#[test]
fn dr_sources_in_effect() {
    let mut d = doc("Ogre.gcs");
    ogre_dr_trait(&mut d)["disabled"] = true.into();
    assert_eq!(recomputed_dr(&d).0, humanoid(0, 2, 0));

    let mut d = doc("Ogre.gcs");
    let t = ogre_dr_trait(&mut d);
    t["modifiers"] = serde_json::json!([
        {"id": "m1", "name": "Hardened torso", "features": [
            {"type": "dr_bonus", "location": "torso", "amount": 1, "per_level": true}]},
        {"id": "m2", "name": "Off", "disabled": true, "features": [
            {"type": "dr_bonus", "locations": ["torso"], "amount": 5}]}
    ]);
    let (worked_out, _) = recomputed_dr(&d);
    assert_eq!(worked_out["torso"], 3 + 3);
    assert_eq!(worked_out["vitals"], 3);

    let mut d = doc("Orc, Warrior.gcs");
    d["equipment"][0]["equipped"] = false.into();
    let mut expected = humanoid(0, 2, 0);
    expected.insert("face".into(), 0);
    assert_eq!(
        recomputed_dr(&d).0,
        expected,
        "the suit's pieces count no more"
    );

    let mut d = doc("Wolf, Timber.gcs");
    let wolf_dr = d["traits"]
        .as_array_mut()
        .and_then(|t| t.iter_mut().find(|t| t["name"] == "Damage Resistance"))
        .expect("the wolf's DR");
    wolf_dr["features"] = serde_json::json!([
        {"type": "dr_bonus", "locations": ["all"], "amount": 1, "per_level": true}
    ]);
    assert_eq!(
        recomputed_dr(&d).0,
        stored_dr(&d),
        "`all` is every location"
    );
}

/// A location in a sub-table gets its own DR and that of the location holding it; GCS's
/// Humanoid body is assumed for a file without a body type.
#[test]
fn sub_tables_and_a_missing_body_type() {
    let mut d = doc("Ogre.gcs");
    let face = d["settings"]["body_type"]["locations"]
        .as_array_mut()
        .and_then(|l| l.iter_mut().find(|l| l["id"] == "face"))
        .expect("a face");
    face["sub_table"] = serde_json::json!({"name": "", "roll": "1d", "locations": [
        {"id": "nose", "choice_name": "Nose", "table_name": "Nose", "slots": 6, "dr_bonus": 1}
    ]});
    let c = read_doc(&d).expect("reads");
    assert_eq!(c.dr["nose"], 1 + 3);
    assert_eq!(c.dr["face"], 3);
    assert!(warned(&c, &["nose", "worked out from traits and armor"]));

    let mut d = doc("Ogre.gcs");
    if let Some(s) = d["settings"].as_object_mut() {
        s.remove("body_type");
    }
    let c = read_doc(&d).expect("reads");
    assert_eq!(c.dr, humanoid(0, 5, 3));
    assert!(warned(&c, &["Humanoid body assumed"]));
}

// ---------------------------------------------------------------------------------------
// What counts: equipped items, enabled traits.

#[test]
fn unequipped_weapons_and_disabled_traits_are_left_out() {
    let mut d = doc("Ogre.gcs");
    d["equipment"][0]["equipped"] = false.into();
    let c = read_doc(&d).expect("reads");
    assert!(!has_weapon(&c, "Maul", "Swung"));
    assert!(warned(&c, &["weapon Maul: not equipped"]));

    let mut d = doc("Ogre.gcs");
    for t in d["traits"].as_array_mut().expect("traits") {
        if t["name"] == "High Pain Threshold" || t["name"] == "Natural Attacks" {
            t["disabled"] = true.into();
        }
    }
    let c = read_doc(&d).expect("reads");
    assert!(c.traits.is_empty());
    assert_eq!(c.weapons.len(), 1);

    // a disabled container disables everything in it (Iotha's natural attacks and Weapon
    // Master are in "Advantages & Perks")
    let mut d = doc("Iotha.gcs");
    d["traits"][0]["disabled"] = true.into();
    let c = read_doc(&d).expect("reads");
    assert!(c.weapons.is_empty());
    assert!(!warned(&c, &["Weapon Master"]));

    // Low Pain Threshold is read too
    let mut d = doc("Ogre.gcs");
    for t in d["traits"].as_array_mut().expect("traits") {
        if t["name"] == "High Pain Threshold" {
            t["name"] = "Low Pain Threshold".into();
        }
    }
    assert_eq!(
        read_doc(&d).expect("reads").traits,
        vec!["Low Pain Threshold".to_string()]
    );
}

/// A usage without GCS's `W`/`w` id is ranged when it has ranged columns; a range GCS
/// did not compute ("x15/x20") is left empty with a warning.
#[test]
fn ranged_without_an_id() {
    let mut d = doc("Orc, Warrior.gcs");
    let bow = d["equipment"]
        .as_array_mut()
        .and_then(|e| e.iter_mut().find(|e| e["description"] == "Regular Bow"))
        .expect("a bow");
    let usage = &mut bow["weapons"][0];
    if let Some(o) = usage.as_object_mut() {
        o.remove("id");
    }
    if let Some(calc) = usage["calc"].as_object_mut() {
        calc.remove("range");
    }
    let c = read_doc(&d).expect("reads");
    let bow = weapon(&c, "Regular Bow", "Shoot");
    assert!(bow.ranged);
    assert_eq!(bow.range, None);
    assert!(warned(&c, &["Regular Bow (Shoot)", "x15/x20"]));
}

// ---------------------------------------------------------------------------------------
// Bad input.

/// Not JSON: an error at the parser's line and column.
#[test]
fn not_json() {
    let e = read("hello").unwrap_err();
    assert_eq!((e.line, e.column), (1, 1), "{e}");
    assert!(e.message.starts_with("not JSON"), "{e}");
    assert!(e.message.contains("a GCS character file is JSON"), "{e}");
    assert_eq!(e.to_string(), format!("line 1, column 1: {}", e.message));

    let e = read("{\n  \"version\": 5,\n  \"attributes\": [,]\n}").unwrap_err();
    assert_eq!((e.line, e.column), (3, 18), "{e}");

    let e = read(" \n ").unwrap_err();
    assert!(e.message.contains("empty"), "{e}");
}

/// JSON that is not a character: the whole file at fault (line 0), what was expected.
#[test]
fn json_but_not_a_character() {
    let e = read("[1, 2]").unwrap_err();
    assert_eq!((e.line, e.column), (0, 0));
    assert!(e.message.contains("not a GCS character file"), "{e}");
    assert!(e.message.contains("an array"), "{e}");
    assert_eq!(e.to_string(), e.message);

    let e = read("{\"type\": \"not a character\", \"rows\": [1, 2, 3]}").unwrap_err();
    assert!(e.message.contains("not a GCS character file"), "{e}");
    assert!(e.message.contains("`version`"), "{e}");

    let e = read("{\"version\": 5, \"rows\": []}").unwrap_err();
    assert!(e.message.contains("no `attributes`"), "{e}");

    let e = read("{\"version\": 5, \"attributes\": {}}").unwrap_err();
    assert_eq!((e.line, e.column), (1, 16), "{e}");
    assert!(e.message.contains("an object"), "{e}");
}

/// The first 500 bytes of the Ogre: an error where the text stops (serde_json gives the
/// line and column of the last character read).
#[test]
fn truncated() {
    let text = sample("Ogre.gcs");
    let head = text.get(..500).expect("500 ASCII bytes");
    let e = read(head).unwrap_err();
    let last_line = head.rsplit('\n').next().expect("a last line");
    assert_eq!(
        (e.line, e.column),
        (head.matches('\n').count() + 1, last_line.len()),
        "{e}"
    );
    // the 500th byte ends line 27, `\t\t"block_layout": `, 18 characters
    assert_eq!((e.line, e.column), (27, 18), "{e}");
    assert!(e.message.contains("truncated"), "{e}");
}

/// Versions other than 5: an error at the `version` field naming the one expected.
#[test]
fn other_versions() {
    let text = sample("Ogre.gcs");
    for (from, to) in [(5, 3), (5, 4), (5, 6)] {
        let edited = text.replacen(
            &format!("\"version\": {from}"),
            &format!("\"version\": {to}"),
            1,
        );
        let e = read(&edited).unwrap_err();
        assert!(
            e.message.starts_with(&format!(
                "GCS file format version {to} is not supported: expected 5"
            )),
            "{e}"
        );
        assert_eq!((e.line, e.column), (2, 2), "{e}");
    }
    let e = read(&text.replacen("\"version\": 5", "\"version\": \"five\"", 1)).unwrap_err();
    assert!(e.message.contains("expected 5"), "{e}");
}

/// An attribute listed without `calc.value` is an error at that attribute; ST, DX, IQ
/// or HT not listed is an error; a secondary attribute not listed is derived, with a
/// warning.
#[test]
fn attributes_without_computed_values() {
    let mut d = doc("Ogre.gcs");
    for a in d["attributes"].as_array_mut().expect("attributes") {
        if a["attr_id"] == "dx"
            && let Some(o) = a.as_object_mut()
        {
            o.remove("calc");
        }
    }
    let text = serde_json::to_string_pretty(&d).expect("JSON out");
    let e = read(&text).unwrap_err();
    assert!(
        e.message
            .contains("attribute `dx` (DX) has no computed value (calc.value)"),
        "{e}"
    );
    let at = text.find("\"attr_id\": \"dx\"").expect("the DX row");
    assert_eq!((e.line, e.column), line_column(&text, at));
    assert!(e.line > 1);

    let mut d = doc("Orc, Warrior.gcs");
    let attrs = d["attributes"].as_array_mut().expect("attributes");
    attrs.retain(|a| a["attr_id"] != "will" && a["attr_id"] != "hp");
    let c = read_doc(&d).expect("reads");
    assert_eq!((c.will, c.hp), (9, 12), "IQ and ST");
    assert!(warned(&c, &["`will` is not in the file", "IQ"]));
    assert!(warned(&c, &["`hp` is not in the file", "ST"]));

    let mut d = doc("Ogre.gcs");
    let attrs = d["attributes"].as_array_mut().expect("attributes");
    attrs.retain(|a| a["attr_id"] != "st");
    let e = read_doc(&d).unwrap_err();
    assert!(
        e.message.contains("attribute `st` is not in the file"),
        "{e}"
    );

    let mut d = doc("Ogre.gcs");
    d["attributes"][0]["calc"]["value"] = "twenty".into();
    assert!(read_doc(&d).unwrap_err().message.contains("`st`"));
}

/// A weapon or skill GCS did not compute is left out, named in a warning.
#[test]
fn weapons_and_skills_without_computed_values() {
    let mut d = doc("Ogre.gcs");
    let attacks = d["traits"]
        .as_array_mut()
        .and_then(|t| t.iter_mut().find(|t| t["name"] == "Natural Attacks"))
        .expect("natural attacks");
    if let Some(kick) = attacks["weapons"][1].as_object_mut() {
        kick.remove("calc");
    }
    if let Some(calc) = attacks["weapons"][0]["calc"].as_object_mut() {
        calc.remove("damage");
    }
    if let Some(calc) = d["equipment"][0]["weapons"][0]["calc"].as_object_mut() {
        calc.remove("level");
    }
    if let Some(calc) = d["skills"][0]["calc"].as_object_mut() {
        calc.remove("level");
    }
    let c = read_doc(&d).expect("reads");
    assert!(c.weapons.is_empty(), "{:?}", c.weapons);
    assert!(warned(&c, &["weapon Natural Attacks (Kick)", "no calc"]));
    assert!(warned(
        &c,
        &["weapon Natural Attacks (Punch)", "calc.damage"]
    ));
    assert!(warned(&c, &["weapon Maul (Swung)", "calc.level"]));
    assert!(warned(&c, &["skill Brawling", "calc.level"]));
    assert_eq!(c.skills.len(), 2);
}

/// Fields GCS may add in later releases are ignored, wherever they are; wrong types
/// where lists are expected read as empty.
#[test]
fn unknown_fields_are_tolerated() {
    let plain = character("Ogre.gcs");
    let mut d = doc("Ogre.gcs");
    d["third_party"] = serde_json::json!({"x": [1, 2]});
    d["calc"]["new_number"] = 3.into();
    d["attributes"][0]["calc"]["new"] = "x".into();
    d["equipment"][0]["weapons"][0]["calc"]["new"] = serde_json::json!({"a": null});
    d["equipment"][0]["weapons"][0]["parry"] = serde_json::json!({"can_parry": true});
    d["settings"]["body_type"]["locations"][0]["calc"]["dr"]["burning"] = 0.into();
    d["skills"][0]["future"] = true.into();
    assert_eq!(read_doc(&d).expect("reads"), plain);

    // A top-level field GCS 5 does not write is named in the warnings.
    let mut d = doc("Ogre.gcs");
    d["combat_log"] = serde_json::json!([1]);
    let c = read_doc(&d).expect("reads");
    assert!(
        c.warnings
            .contains(&"unknown field `combat_log` ignored".to_string()),
        "{:?}",
        c.warnings
    );
    assert_eq!(c.weapons, plain.weapons);

    let mut d = doc("Ogre.gcs");
    d["notes"] = 3.into();
    d["spells"] = "none".into();
    d["profile"]["SM"] = "1".into();
    assert_eq!(read_doc(&d).expect("reads"), plain);
}

/// No prefix of any sample, and no mangled sample, panics.
#[test]
fn never_a_panic() {
    for name in SAMPLES {
        let text = sample(name);
        let mut cut = 0;
        while cut < text.len() {
            if let Some(head) = text.get(..cut) {
                assert!(read(head).is_err(), "{name}: {cut} bytes");
            }
            cut += 577;
        }
        let mut d = doc(name);
        for key in [
            "traits",
            "skills",
            "equipment",
            "settings",
            "calc",
            "profile",
        ] {
            d[key] = serde_json::json!([[{"id": 3, "children": 4, "weapons": [{"calc": 1}]}]]);
        }
        let c = read_doc(&d).expect("attributes alone suffice");
        assert!(c.weapons.is_empty() && c.skills.is_empty(), "{name}");
    }
}

/// GCS's unencumbered Move and Dodge are kept even when they are not what Basic Move and
/// Basic Speed give (GCS halves them at low HP), with a warning; without the top-level
/// `calc`, they are worked out from the attributes, with a warning.
#[test]
fn move_and_dodge_from_gcs_or_worked_out() {
    let mut d = doc("Ogre.gcs");
    d["calc"]["move"] = serde_json::json!([3, 2, 2, 1, 1]);
    d["calc"]["dodge"] = serde_json::json!([5, 4, 4, 3, 3]);
    for a in d["attributes"].as_array_mut().expect("attributes") {
        if a["attr_id"] == "hp" {
            a["calc"]["current"] = 6.into();
        }
    }
    let c = read_doc(&d).expect("reads");
    assert_eq!((c.basic_move, c.dodge, c.hp), (3, 5, 20));
    assert!(warned(&c, &["Move 3", "Basic Move 6"]));
    assert!(warned(&c, &["Dodge 5", "= 9"]));
    assert!(warned(&c, &["HP 6 of 20"]));

    let mut d = doc("Orc, Warrior.gcs");
    if let Some(o) = d.as_object_mut() {
        o.remove("calc");
    }
    let c = read_doc(&d).expect("reads");
    // Basic Speed 5.5 + 3, without the shield's DB, which only GCS's calc has
    assert_eq!((c.basic_move, c.dodge), (5, 8));
    assert!(warned(&c, &["no computed Move"]));
    assert!(warned(&c, &["no computed Dodge"]));
}

/// Traits with combat effects the battle does not model are named: a Dodge, Parry or
/// Block bonus as already in GCS's values, DR with modifiers as plain DR.
#[test]
fn combat_traits_are_named() {
    let mut d = doc("Ogre.gcs");
    let traits = d["traits"].as_array_mut().expect("traits");
    traits.push(serde_json::json!({
        "id": "tCR", "name": "Combat Reflexes", "features": [
            {"type": "attribute_bonus", "attribute": "dodge", "amount": 1},
            {"type": "attribute_bonus", "attribute": "parry", "amount": 1},
            {"type": "attribute_bonus", "attribute": "block", "amount": 1},
            {"type": "attribute_bonus", "attribute": "fright_check", "amount": 2}]
    }));
    traits.push(
        serde_json::json!({"id": "tEA", "name": "Extra Attack", "levels": 1,
        "can_level": true}),
    );
    if let Some(t) = traits.iter_mut().find(|t| t["name"] == "Damage Resistance") {
        t["modifiers"] = serde_json::json!([{"id": "m1", "name": "Tough Skin"}]);
    }
    let c = read_doc(&d).expect("reads");
    assert!(warned(
        &c,
        &[
            "trait Combat Reflexes",
            "dodge/parry/block bonus is already in GCS's values"
        ]
    ));
    assert!(warned(&c, &["trait Extra Attack 1: not used in combat"]));
    assert!(warned(&c, &["trait Damage Resistance 3", "Tough Skin"]));
    assert_eq!(c.dr["torso"], 3, "the stored table still counts");
}

/// Numbers far out of range in a file (a DR bonus of 10^10, a stored skull DR of −10^10,
/// an accuracy of 2,000,000,000 + 2,000,000,000) are read without overflow, and the stat
/// block made of them is refused by the range checks, not by a panic.
#[test]
fn huge_numbers_do_not_overflow() {
    let mut d = doc("Ogre.gcs");
    d["traits"][0]["features"] =
        serde_json::json!([{"type": "dr_bonus", "locations": ["torso"], "amount": 1e10}]);
    d["settings"]["body_type"]["locations"][1]["calc"]["dr"]["all"] = (-1e10).into();
    let c = read_doc(&d).expect("reads");
    let (stats, _) = crate::rules::gurps::import::stats_of(&c);
    let catalog = crate::rules::gurps::equipment::Catalog::builtin();
    let _ = crate::rules::gurps::sheet::resolve_sheet(&stats, catalog);
    let bow = GcsWeapon {
        name: "Bow".into(),
        ranged: true,
        skill_level: 12,
        damage: "1d imp".into(),
        acc: Some("2000000000+2000000000".into()),
        range: Some("100/150".into()),
        ..Default::default()
    };
    assert!(crate::rules::gurps::import::own_weapon(&bow, false).is_ok());
}

/// `import-gcs` warns of what a scenario would refuse in the stat block it prints (ST 500,
/// a negative HP), so that it is not printed as usable; no sample draws such a warning.
#[test]
fn import_warns_of_what_a_scenario_refuses() {
    use crate::rules::gurps::import::checked_stats_of;
    for name in [
        "Ogre.gcs",
        "Orc, Warrior.gcs",
        "Wolf, Timber.gcs",
        "Young Haldor.gcs",
        "Dai Blackthorn.gcs",
        "Iotha.gcs",
    ] {
        let (_, warnings) = checked_stats_of(&character(name));
        assert!(
            !warnings.iter().any(|w| w.contains("refuses")),
            "{name}: {warnings:?}"
        );
    }
    let mut c = character("Ogre.gcs");
    (c.st, c.hp) = (500, -3);
    let (_, warnings) = checked_stats_of(&c);
    let refused: Vec<&String> = warnings.iter().filter(|w| w.contains("refuses")).collect();
    assert_eq!(
        refused,
        [
            "st: ST 500 is out of range: expected 1 to 50 (a scenario refuses this character \
             until it is mended)",
            "hp: HP -3 is out of range: expected 1 to 500 (a scenario refuses this character \
             until it is mended)",
        ]
    );
}
