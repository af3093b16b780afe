//! Tests of the GURPS stat block and fighter: sheets resolved from stat blocks, weapons,
//! shields, the fighter's conditions (knockdown, reach, formulas).

use super::*;

fn stats() -> GurpsStats {
    GurpsStats {
        st: Some(12),
        dx: Some(13),
        iq: Some(10),
        ht: Some(11),
        hp: None,
        fp: None,
        basic_speed: None,
        basic_move: None,
        dodge: None,
        dr: DrSpec::All(0),
        skills: [("Broadsword".to_string(), 14)].into_iter().collect(),
        weapons: vec!["broadsword".into(), "short bow".into()],
        armor: Some("leather armor".into()),
        ..Default::default()
    }
}

/// The stat block grown for imported characters: DR by place (a place overrides
/// `All`, an arm covers both arms), a skill's specialization serving the skill named
/// alone, and a weapon written out with its own level, damage and parry beside a
/// catalog weapon.
#[test]
fn dr_by_place_specializations_and_weapons_written_out() {
    let text = r#"(
        st: 20, dx: 11, iq: 7, ht: 13,
        dr: { All: 3, Skull: 1, Eye: 0 },
        skills: { "Shield (Buckler)": 12, "Broadsword": 13 },
        weapons: [
            "broadsword",
            (name: "Maul", skill: "Two-Handed Axe/Mace", level: 16, damage: "3d+7",
             damage_type: "cr", min_st: 13, hands: 2,
             mode: Melee(reach_min: 1, reach_max: 2), parry: 11),
        ],
        armor: "leather armor",
        shield: "small shield",
    )"#;
    let stats: GurpsStats = crate::format::ron_options()
        .from_str(text)
        .expect("a stat block");
    let sheet = resolve_sheet(&stats, Catalog::builtin()).expect("a sheet");
    // leather armor DR 2 over the whole body
    assert_eq!(sheet.dr.torso(), 3 + 2);
    assert_eq!(sheet.dr.at(HitLocation::Skull), 1 + 2);
    assert_eq!(sheet.dr.at(HitLocation::Eye), 2);
    assert_eq!(sheet.dr.at(HitLocation::LeftArm), 3 + 2);
    let maul = &sheet.weapons[1];
    assert_eq!(&*maul.name, "Maul");
    assert_eq!(maul.skill, 16);
    assert_eq!(maul.parry, Some(11));
    assert_eq!(maul.damage.to_string(), "3d+7");
    assert_eq!(maul.damage_type, DamageType::Crushing);
    assert_eq!((maul.hands, maul.st_short, maul.reach()), (2, 0, (1, 2)));
    // the catalog broadsword: Broadsword 13, parry 3 + 6
    assert_eq!(sheet.weapons[0].parry, Some(9));
    // the small shield's Block from Shield (Buckler) 12: 3 + 6 + DB 1
    assert_eq!(sheet.shield.as_ref().map(|s| s.block), Some(3 + 6 + 1));
    assert_eq!(skill_level(&stats.skills, "shield"), Some(12));
    assert_eq!(skill_level(&stats.skills, "Buckler"), None);
    // a bad written-out weapon is reported at its fields
    let mut bad = stats.clone();
    if let WeaponRef::Own(w) = &mut bad.weapons[1] {
        w.level = 40;
        w.hands = 3;
    }
    let paths: Vec<String> = resolve_sheet(&bad, Catalog::builtin())
        .unwrap_err()
        .iter()
        .map(|p| p.path.to_string())
        .collect();
    assert_eq!(paths, vec!["weapons[1].hands", "weapons[1].level"]);
    // numbers far out of range are reported, never overflow; a parry modifier in a
    // written-out weapon's mode is refused (its parry is a score of its own)
    let mut wild = stats.clone();
    if let WeaponRef::Own(w) = &mut wild.weapons[1] {
        w.min_st = i32::MIN;
        w.damage = "thr+2147483647".parse().expect("a damage");
        w.mode = WeaponMode::Melee {
            reach_min: 1,
            reach_max: 1,
            parry: Some(0),
        };
    }
    let paths: Vec<String> = resolve_sheet(&wild, Catalog::builtin())
        .unwrap_err()
        .iter()
        .map(|p| p.path.to_string())
        .collect();
    assert_eq!(
        paths,
        vec![
            "weapons[1].min_st",
            "weapons[1].damage",
            "weapons[1].mode.parry"
        ]
    );
    // an attribute left out without a GCS file is missing
    let mut none = stats;
    none.st = None;
    let problems = resolve_sheet(&none, Catalog::builtin()).unwrap_err();
    assert!(problems[0].message.contains("missing ST"));
}

#[test]
fn derived_values() {
    let sheet = resolve_sheet(&stats(), Catalog::builtin()).unwrap();
    assert_eq!(sheet.speed_quarters, 24);
    assert_eq!(sheet.basic_speed(), 6.0);
    assert_eq!(sheet.basic_move, 6);
    assert_eq!(sheet.dodge, 9);
    assert_eq!(sheet.hp_max, 12);
    assert_eq!(sheet.fp_max, 11);
    assert_eq!(sheet.dr, DrTable::uniform(2));
    let sword = &sheet.weapons[0];
    assert_eq!(sword.skill, 14);
    assert_eq!(sword.parry, Some(10));
    assert_eq!(sword.damage.to_string(), "1d+3"); // sw 1d+2 at ST 12, +1
    let bow = &sheet.weapons[1];
    assert_eq!(bow.skill, 13 - 5); // Bow defaults to DX-5
    assert_eq!(bow.parry, None);
    assert_eq!(sheet.feint_resistance(), 14);
}

#[test]
fn explicit_values_override_derived_ones() {
    let mut s = stats();
    s.basic_speed = Some(5.75);
    s.dodge = Some(10);
    s.hp = Some(15);
    let sheet = resolve_sheet(&s, Catalog::builtin()).unwrap();
    assert_eq!(sheet.speed_quarters, 23);
    assert_eq!(sheet.basic_move, 5);
    assert_eq!(sheet.dodge, 10);
    assert_eq!(sheet.hp_max, 15);
}

#[test]
fn bad_stats_are_all_reported_with_paths() {
    let mut s = stats();
    s.st = Some(0);
    s.hp = Some(-3);
    s.skills.insert("Bow".into(), 40);
    s.weapons.push("laser sword".into());
    s.armor = Some("mithril".into());
    s.basic_speed = Some(5.3);
    let problems = resolve_sheet(&s, Catalog::builtin()).unwrap_err();
    let paths: Vec<String> = problems.iter().map(|p| p.path.to_string()).collect();
    assert_eq!(
        paths,
        vec![
            "st",
            "hp",
            "basic_speed",
            "skills[\"Bow\"]",
            "armor",
            "weapons[2]"
        ]
    );
    assert!(problems[1].message.contains("HP -3"));
    assert!(problems[5].message.contains("unknown weapon `laser sword`"));
}

/// A skill a letter or two off a catalog weapon's skill, which would leave the weapon at
/// its default, is refused as a slip, once however many weapons it misses; a skill the
/// weapon finds (case aside), a skill some other weapon needs, a specialization of the
/// same skill with a short name (`Guns (LMG)` beside `Guns (SMG)`), or a skill far from
/// every weapon's is not.
#[test]
fn a_skill_misspelt_for_a_weapon_is_refused() {
    let mut s = stats();
    s.skills = [("Broadsord".to_string(), 14)].into_iter().collect();
    s.weapons = vec!["broadsword".into(), "broadsword".into()];
    let problems = resolve_sheet(&s, Catalog::builtin()).unwrap_err();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].path.to_string(), "skills[\"Broadsord\"]");
    assert_eq!(
        problems[0].message,
        "skill `Broadsord` is not `Broadsword`, the skill of the broadsword, which would \
         fight at its default (DX-5): expected `Broadsword` (a name this near a weapon's \
         skill is taken for a slip)"
    );
    // A swap of two letters is one slip; a short name is allowed one.
    let skills = |names: &[&str]| -> BTreeMap<String, i32> {
        names.iter().map(|n| (n.to_string(), 12)).collect()
    };
    let none = |_: &str| false;
    let slip =
        |names: &[&str], wanted: &str| misspelt(&skills(names), wanted, none).map(str::to_string);
    assert_eq!(
        slip(&["Braodsword"], "Broadsword").as_deref(),
        Some("Braodsword")
    );
    assert_eq!(slip(&["Spaer"], "Spear").as_deref(), Some("Spaer"));
    assert_eq!(slip(&["Sp"], "Spear"), None);
    assert_eq!(
        slip(&["Guns (Rifles)"], "Guns (Rifle)").as_deref(),
        Some("Guns (Rifles)")
    );
    assert_eq!(slip(&["Guns (Pistol)"], "Guns (Rifle)"), None);
    assert_eq!(slip(&["Guns (LMG)"], "Guns (SMG)"), None);
    assert_eq!(slip(&["broadsword"], "Broadsword"), None);
    // A skill another weapon needs is that weapon's, not a slip.
    assert_eq!(
        misspelt(&skills(&["Guns (Rifles)"]), "Guns (Rifle)", |k| k
            == "Guns (Rifles)"),
        None
    );
    // Found by the weapon, or far from it: no problem.
    s.skills = [("broadsword".to_string(), 14), ("Stealth".to_string(), 12)]
        .into_iter()
        .collect();
    assert!(resolve_sheet(&s, Catalog::builtin()).is_ok());
    // Guns (LMG) beside a submachine gun (Guns (SMG)) is a fighter without the skill.
    s.skills = [
        ("Guns (Rifle)".to_string(), 13),
        ("Guns (LMG)".to_string(), 12),
    ]
    .into_iter()
    .collect();
    s.weapons = vec!["submachine gun".into()];
    assert!(resolve_sheet(&s, Catalog::builtin()).is_ok());
    // A skill a custom weapon of the catalog needs is no slip for another weapon.
    let mut catalog = Catalog::builtin().clone();
    let mut rifle = catalog
        .weapon("hunting rifle")
        .cloned()
        .expect("a catalog weapon");
    rifle.skill = "Guns (Rifles)".into();
    catalog.weapons.insert("long rifle".into(), rifle);
    s.skills = [("Guns (Rifles)".to_string(), 13)].into_iter().collect();
    s.weapons = vec!["long rifle".into(), "assault rifle".into()];
    assert!(resolve_sheet(&s, &catalog).is_ok());
    s.weapons = vec!["assault rifle".into()];
    let problems = resolve_sheet(&s, Catalog::builtin()).unwrap_err();
    assert!(
        problems[0]
            .message
            .starts_with("skill `Guns (Rifles)` is not `Guns (Rifle)`")
    );
}

/// Block = 3 + Shield/2 + DB (decision: 4e); Shield defaults to DX − 4; unknown shields
/// are reported.
#[test]
fn shields_and_block() {
    let mut s = stats();
    s.shield = Some("medium shield".into());
    let sheet = resolve_sheet(&s, Catalog::builtin()).unwrap();
    let shield = sheet.shield.unwrap();
    assert_eq!((shield.db, shield.block), (2, 3 + 9 / 2 + 2));
    s.skills.insert("Shield".into(), 14);
    let sheet = resolve_sheet(&s, Catalog::builtin()).unwrap();
    assert_eq!(sheet.shield.map(|s| s.block), Some(12));
    s.shield = Some("tower of pride".into());
    let problems = resolve_sheet(&s, Catalog::builtin()).unwrap_err();
    assert!(problems[0].message.contains("unknown shield"));
}

#[test]
fn no_weapons_means_bare_hands() {
    let mut s = stats();
    s.weapons.clear();
    let sheet = resolve_sheet(&s, Catalog::builtin()).unwrap();
    assert_eq!(sheet.weapons.len(), 1);
    assert_eq!(&*sheet.weapons[0].name, "punch");
    assert_eq!(sheet.weapons[0].skill, 13); // Brawling defaults to DX
    assert!(sheet.weapons[0].defaulted, "the sheet says it is a default");
    s.skills.insert("Brawling".into(), 14);
    let sheet = resolve_sheet(&s, Catalog::builtin()).unwrap();
    assert_eq!(
        (sheet.weapons[0].skill, sheet.weapons[0].defaulted),
        (14, false)
    );
}

/// gurps-lite-and-socs.txt, "Knockdown and Stunning": a failed HT roll stuns, fells
/// and drops anything in hand: the broadsword and the bow, not the punch; the shield
/// stays; a weapon already dropped is not dropped again.
#[test]
fn knocked_down_drops_what_is_in_hand() {
    let mut s = stats();
    s.weapons.push("punch".into());
    s.shield = Some("medium shield".into());
    let mut f = Fighter::new(Arc::new(resolve_sheet(&s, Catalog::builtin()).unwrap()));
    let names: Vec<&str> = f.sheet.weapons.iter().map(|w| &*w.name).collect();
    assert_eq!(names, ["broadsword", "short bow", "punch"]);
    assert!(f.knocked_down());
    assert!(f.stunned);
    assert_eq!(f.posture, Posture::Lying);
    assert_eq!(
        f.weapon_state,
        [
            WeaponState::Unready,
            WeaponState::Unready,
            WeaponState::Ready
        ]
    );
    assert!(f.shield_ready);
    assert!(!f.knocked_down(), "nothing left in hand to drop");
}

/// A blow needs its reach: the broadsword's 1 (the catalog), not 0 or 2; a bow's
/// range is not a reach.
#[test]
fn a_blow_needs_its_reach() {
    let sheet = resolve_sheet(&stats(), Catalog::builtin()).unwrap();
    let sword = &sheet.weapons[0];
    assert_eq!(sword.reach(), (1, 1));
    assert!(sword.reaches(1));
    assert!(!sword.reaches(0) && !sword.reaches(2));
    assert!(sheet.weapons[1].reaches(40));
}

#[test]
fn parry_and_dodge_formulas() {
    assert_eq!(parry(13, 0), 9);
    assert_eq!(parry(14, 0), 10);
    assert_eq!(parry(12, 2), 11);
    assert_eq!(dodge(23), 8);
    assert_eq!(dodge(20), 8);
    assert_eq!(dodge(19), 7);
}
