//! GURPS in the window: the fighter's sheet (attributes, hit points and fatigue, posture,
//! weapons, armor and hit locations), the maneuver panel of the awaited fighter (each
//! legal maneuver, its options, the plan checked by the rules' `plan` and the odds from the
//! rules' own odds code, Confirm), and on the map the reachable hexes, weapon ranges, the
//! planned move and the path to the hovered hex. The draft itself is in [`super::draft`].

use super::Game;
use super::draft::GurpsDraft;
use super::panels::legend;
use crate::battle::UnitId;
use crate::rules::gurps::Fighter;
use crate::rules::gurps::Maneuver;
use crate::rules::gurps::combat::{
    AOA_DETERMINED_MELEE, MAX_EVALUATE, MIN_DECEPTIVE_SKILL, current_move,
};
use crate::rules::gurps::location::HitLocation;
use bevy::prelude::*;
use bevy_egui::egui;

/// What the "Add from GCS file" menu keeps between frames (in egui's memory): the path
/// typed, the side chosen, and the characters imported this session (file, name).
#[derive(Clone, Default)]
struct GcsMenu {
    path: String,
    side: usize,
    recent: Vec<(std::path::PathBuf, String)>,
}

/// The "Add from GCS file" menu: a GURPS Character Sheet file's character joins a side;
/// the scenario with it is written beside the open one (`<name>-with-<character>.ron`, so
/// saves and replays find it) and the battle starts again from it. Characters imported
/// this session are listed to add again.
fn gcs_menu(ui: &mut egui::Ui, game: &mut Game) {
    let id = egui::Id::new("gcs-menu");
    let mut menu: GcsMenu = ui.data_mut(|d| d.get_temp(id)).unwrap_or_default();
    let sides: Vec<(String, String)> = game
        .play
        .session()
        .prepared()
        .sides
        .iter()
        .map(|s| (s.id.clone(), s.name.clone()))
        .collect();
    ui.menu_button("Add from GCS file...", |ui| {
        ui.label("A character from a GURPS Character Sheet (.gcs) file joins the battle.");
        ui.horizontal(|ui| {
            ui.label("File:");
            ui.add(
                egui::TextEdit::singleline(&mut menu.path)
                    .hint_text("scenarios/gcs/Ogre.gcs")
                    .desired_width(240.0),
            );
        });
        menu.side = menu.side.min(sides.len().saturating_sub(1));
        egui::ComboBox::from_label("Side")
            .selected_text(sides.get(menu.side).map_or("", |s| s.1.as_str()))
            .show_ui(ui, |ui| {
                for (i, (_, name)) in sides.iter().enumerate() {
                    ui.selectable_value(&mut menu.side, i, name);
                }
            });
        let side = sides
            .get(menu.side)
            .map(|s| s.0.clone())
            .unwrap_or_default();
        let mut chosen = None;
        if ui.button("Add to the battle").clicked() {
            chosen = Some(std::path::PathBuf::from(menu.path.trim()));
        }
        let near = gcs_files_near(&game.scenario_path);
        if !near.is_empty() {
            ui.separator();
            ui.label("Characters beside this scenario:");
            for path in near {
                let name = path
                    .file_stem()
                    .map_or(String::new(), |s| s.to_string_lossy().into_owned());
                if ui
                    .button(name)
                    .on_hover_text(path.display().to_string())
                    .clicked()
                {
                    chosen = Some(path);
                }
            }
        }
        if !menu.recent.is_empty() {
            ui.separator();
            ui.label("Imported this session:");
            for (path, name) in &menu.recent {
                if ui.button(format!("{name} ({})", path.display())).clicked() {
                    chosen = Some(path.clone());
                }
            }
        }
        if let Some(path) = chosen {
            match add_gcs_character(game, &path, &side) {
                Ok(name) => {
                    menu.recent.retain(|(p, _)| p != &path);
                    menu.recent.insert(0, (path, name));
                    menu.recent.truncate(8);
                    ui.close();
                }
                Err(e) => game.error = Some(e),
            }
        }
    });
    ui.data_mut(|d| d.insert_temp(id, menu));
}

/// The `.gcs` files in the scenario's folder and its `gcs` folder, sorted.
fn gcs_files_near(scenario: &std::path::Path) -> Vec<std::path::PathBuf> {
    let dir = scenario.parent().unwrap_or(std::path::Path::new("."));
    let mut files: Vec<std::path::PathBuf> = [dir.to_path_buf(), dir.join("gcs")]
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flat_map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())))
        .filter(|p| p.extension().is_some_and(|x| x == "gcs"))
        .collect();
    files.sort();
    files
}

/// Adds the character of GCS file `path` to side `side` ([`crate::rules::gurps::import::add_character`]),
/// writes the scenario beside the open one and starts the battle again from it (same seed).
fn add_gcs_character(
    game: &mut Game,
    path: &std::path::Path,
    side: &str,
) -> Result<String, String> {
    let prepared = game.play.session().prepared().clone();
    let (file, name) = crate::rules::gurps::import::add_character(&prepared, path, side)?;
    let stem = game
        .scenario_path
        .file_stem()
        .map_or("scenario".to_string(), |s| s.to_string_lossy().into_owned());
    let slug: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let slug = match slug.trim_matches('-') {
        "" => "character".to_string(),
        s => s.to_string(),
    };
    // Never over an existing file: a second Ogre makes `-with-ogre-2.ron`.
    let mut out = game
        .scenario_path
        .with_file_name(format!("{stem}-with-{slug}.ron"));
    let mut n = 2;
    while out.exists() {
        out = game
            .scenario_path
            .with_file_name(format!("{stem}-with-{slug}-{n}.ron"));
        n += 1;
    }
    let header = format!(
        "{} with {name}, added from {} in the window",
        prepared.name,
        path.display()
    );
    // The open scenario's comments stay with everything the newcomer left as it was.
    let registry = crate::rules::builtin();
    let text = match crate::format::read_text_file(&game.scenario_path) {
        Ok(original) => crate::scenario::to_ron_from(
            registry,
            &file,
            &header,
            crate::scenario::Original {
                text: &original,
                file: &prepared.file,
            },
        )?,
        Err(_) => crate::scenario::to_ron(registry, &file, &header)?,
    };
    std::fs::write(&out, text).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    let prepared = crate::rules::builtin()
        .load(&out)
        .map_err(|e| e.render(false))?;
    let seed = game.play.session().seed();
    let play = crate::play::Play::new(std::sync::Arc::new(prepared), out.clone(), seed);
    game.replace(play, out.clone());
    game.status = format!("{name} joins; the scenario is saved as {}", out.display());
    Ok(name)
}

/// The sheet of the selected unit.
fn sheet(ui: &mut egui::Ui, game: &mut Game) {
    let Some(id) = game.selected else {
        ui.label("Click a unit to see its sheet.");
        return;
    };
    let session = game.play.session();
    let roster = session.roster();
    let Some(entity) = roster.entity(id) else {
        return;
    };
    let Some(f) = session.world.get::<Fighter>(entity) else {
        return;
    };
    let sh = &f.sheet;
    ui.heading(roster.name(id));
    egui::Grid::new("attributes").striped(true).show(ui, |ui| {
        ui.label(format!("ST {}", sh.st));
        ui.label(format!("DX {}", sh.dx));
        ui.label(format!("IQ {}", sh.iq));
        ui.label(format!("HT {}", sh.ht));
        ui.end_row();
        ui.label(format!("HP {}/{}", f.hp, sh.hp_max));
        ui.label(format!("FP {}/{}", f.fp, sh.fp_max));
        ui.label(format!("Speed {}", f64::from(sh.speed_quarters) / 4.0));
        ui.label(format!("Move {}/{}", current_move(f), sh.basic_move));
        ui.end_row();
        ui.label(format!("Dodge {}", sh.dodge));
        ui.label(sh.dr.describe());
        ui.label(format!("SM {}", sh.sm));
        ui.label(format!("posture: {}", f.posture));
        ui.end_row();
    });
    ui.label("Weapons:");
    for (i, w) in sh.weapons.iter().enumerate() {
        let state = match f.weapon_state.get(i) {
            Some(s) => format!("{s:?}"),
            None => String::new(),
        };
        ui.label(format!(
            "  {} ({}{}) skill {}, {} {}{}{} [{state}]",
            w.name,
            w.skill_name,
            if w.defaulted { " default" } else { "" },
            w.skill,
            w.damage,
            w.damage_type.abbrev(),
            w.parry.map_or(String::new(), |p| format!(", parry {p}")),
            if w.is_ranged() {
                format!(", {} shots left", f.shots.get(i).copied().unwrap_or(0))
            } else {
                String::new()
            }
        ));
    }
    if let Some(shield) = &sh.shield {
        ui.label(format!("Shield: {} (DB {})", shield.name, shield.db));
    }
    if !sh.skills.is_empty() {
        egui::CollapsingHeader::new(format!("Skills ({})", sh.skills.len()))
            .id_salt(("gurps-skills", id))
            .show(ui, |ui| {
                for (name, level) in sh.skills.iter() {
                    ui.label(format!("  {name} {level}"));
                }
            });
    }
    let mut conditions = Vec::new();
    if f.stunned {
        conditions.push("stunned".to_string());
    }
    if f.shock > 0 {
        conditions.push(format!("shock -{}", f.shock));
    }
    for loc in &f.crippled {
        conditions.push(format!("crippled {loc}"));
    }
    if f.mortal {
        conditions.push("mortally wounded".into());
    }
    if f.fleeing {
        conditions.push("fleeing".into());
    }
    if f.lose_turn {
        conditions.push("off balance".into());
    }
    if let Some(aim) = &f.aim {
        conditions.push(format!("aiming ({} turns)", aim.turns));
    }
    if let Some((_, n)) = f.evaluate {
        conditions.push(format!("evaluating +{n}"));
    }
    ui.label(format!(
        "Conditions: {}",
        if conditions.is_empty() {
            "none".to_string()
        } else {
            conditions.join(", ")
        }
    ));
}

/// The legal actions of the unit whose turn it is, its choices, the odds and Confirm.
fn actions(ui: &mut egui::Ui, game: &mut Game) {
    ui.heading("Actions");
    let (Some(draft), Some(legal)) = (
        game.draft_mut::<GurpsDraft>().draft.clone(),
        game.draft_mut::<GurpsDraft>().legal.clone(),
    ) else {
        if game.play.session().outcome().is_some() {
            ui.label("The battle is over. Restart or open another scenario.");
        } else if game.autoplay {
            ui.label("The AI plays every side (untick \"AI plays all\" to take over).");
        } else if !game.playing {
            ui.label(super::ships::paused_note("units"));
        } else {
            ui.label("The AI is acting. Your units act when their turn comes.");
        }
        return;
    };
    let session = game.play.session();
    let roster = session.roster().clone();
    let unit = draft.unit;
    ui.strong(format!("{}'s turn", roster.name(unit)));
    let Some(entity) = roster.entity(unit) else {
        return;
    };
    let Some(fighter) = session.world.get::<Fighter>(entity).cloned() else {
        return;
    };
    let rules = session
        .world
        .get_resource::<crate::rules::gurps::GurpsRules>()
        .cloned()
        .unwrap_or_default();
    let side = roster
        .units
        .get(unit.0 as usize)
        .map_or(0, |u| usize::from(u.side));
    let mut chosen = None;
    egui::ScrollArea::vertical()
        .id_salt("maneuvers")
        .max_height(230.0)
        .show(ui, |ui| {
            for option in &legal.options {
                let m = option.maneuver;
                let text = format!("{m} (move {})", option.allowance);
                if ui
                    .selectable_label(draft.action.maneuver == m, text)
                    .on_hover_text(m.effect())
                    .clicked()
                {
                    chosen = Some(m);
                }
                if draft.action.maneuver == m {
                    ui.label(m.effect());
                }
            }
        });
    let mut changed = draft.clone();
    if let Some(m) = chosen
        && let Some(snapshot) =
            crate::rules::gurps::snapshot::Snapshot::read(&game.play.session().world, unit)
    {
        changed.set_maneuver(m, &snapshot.situation(), &legal);
    }
    ui.separator();
    let m = changed.action.maneuver;
    if m.needs_target() {
        let strikes: Vec<(UnitId, u8)> = legal.strikes(m).collect();
        let target_name = changed
            .action
            .target
            .map_or("(click a foe on the map)".to_string(), |t| {
                roster.name(t).to_string()
            });
        egui::ComboBox::from_label("target")
            .selected_text(target_name)
            .show_ui(ui, |ui| {
                let mut seen = Vec::new();
                for (t, _) in &strikes {
                    if seen.contains(t) {
                        continue;
                    }
                    seen.push(*t);
                    ui.selectable_value(&mut changed.action.target, Some(*t), roster.name(*t));
                }
            });
    }
    if m.needs_weapon() {
        let weapon_name = changed
            .action
            .weapon
            .and_then(|w| fighter.sheet.weapons.get(usize::from(w)))
            .map_or("-".to_string(), |w| w.name.to_string());
        egui::ComboBox::from_label("weapon")
            .selected_text(weapon_name)
            .show_ui(ui, |ui| {
                for (i, w) in fighter.sheet.weapons.iter().enumerate() {
                    ui.selectable_value(&mut changed.action.weapon, Some(i as u8), &*w.name);
                }
            });
    }
    if m.attacks() {
        // The penalty, and the one from behind where it differs (skull, face).
        let choice = |l: HitLocation| match (l.aim_penalty(), l.aim_penalty_from(true)) {
            (front, behind) if front != behind => format!("{l} ({front}, {behind} from behind)"),
            (front, _) => format!("{l} ({front})"),
        };
        let location = changed
            .action
            .location
            .map_or("unaimed".to_string(), choice);
        egui::ComboBox::from_label("aim at")
            .selected_text(location)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut changed.action.location, None, "unaimed");
                for l in HitLocation::ALL {
                    if l == HitLocation::Torso {
                        continue;
                    }
                    ui.selectable_value(&mut changed.action.location, Some(l), choice(l));
                }
            });
        let melee = changed
            .action
            .weapon
            .and_then(|w| fighter.sheet.weapons.get(usize::from(w)))
            .is_some_and(|w| !w.is_ranged());
        let main = changed.action.weapon.map(usize::from);
        // Shots of a rapid-fire weapon.
        if let Some(w) = main.and_then(|w| fighter.sheet.weapons.get(w))
            && w.is_ranged()
            && w.rof_rcl().0 > 1
        {
            let rof = w.rof_rcl().0;
            let mut n = changed.action.shots.unwrap_or(rof).min(rof);
            if ui
                .add(egui::Slider::new(&mut n, 1..=rof).text("shots (rapid fire)"))
                .changed()
            {
                changed.action.shots = Some(n);
            }
        }
        if melee {
            // Up to what the weapon's skill with the best bonuses to hit (All-Out Attack
            // (Determined), a full Evaluate, Telegraphic Attack when chosen) could allow;
            // the check says what this strike's effective skill allows.
            let telegraphic = if changed.action.telegraphic { 4 } else { 0 };
            let most = main
                .and_then(|w| fighter.sheet.weapons.get(w))
                .map_or(4, |w| {
                    (w.skill + AOA_DETERMINED_MELEE + MAX_EVALUATE + telegraphic
                        - MIN_DECEPTIVE_SKILL)
                        .div_euclid(2)
                })
                .clamp(1, 12) as u8;
            ui.add(
                egui::Slider::new(&mut changed.action.deceptive, 0..=most)
                    .text("Deceptive Attack levels"),
            );
            ui.checkbox(
                &mut changed.action.telegraphic,
                "Telegraphic Attack (+4, foe's Dodge +2)",
            );
            ui.checkbox(&mut changed.action.disarm, "Strike at the weapon to disarm");
            ui.checkbox(
                &mut changed.action.effort.rapid_strike,
                "Rapid Strike (two blows, -6 each)",
            );
            // Dual-Weapon Attack: a second one-handed weapon that can attack now, in an off
            // hand that is not crippled (as `plan` checks it).
            let off_hand: Vec<usize> = (0..fighter.sheet.weapons.len())
                .filter(|&i| {
                    Some(i) != main
                        && fighter.sheet.weapons[i].hands == 1
                        && !fighter.sheet.weapons[i].is_ranged()
                        && fighter.can_use(i)
                })
                .collect();
            if !off_hand.is_empty() && fighter.sheet.shield.is_none() && !fighter.off_arm_useless()
            {
                let name = |w: Option<u8>| {
                    w.and_then(|w| fighter.sheet.weapons.get(usize::from(w)))
                        .map_or("none".to_string(), |w| w.name.to_string())
                };
                egui::ComboBox::from_label("Dual-Weapon Attack (off hand)")
                    .selected_text(name(changed.action.effort.dual_weapon))
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut changed.action.effort.dual_weapon, None, "none");
                        for &i in &off_hand {
                            ui.selectable_value(
                                &mut changed.action.effort.dual_weapon,
                                Some(i as u8),
                                name(Some(i as u8)),
                            );
                        }
                    });
            }
            if changed.action.effort.rapid_strike || changed.action.effort.dual_weapon.is_some() {
                let foes: Vec<UnitId> = {
                    let mut v: Vec<UnitId> = legal.strikes(m).map(|(t, _)| t).collect();
                    v.dedup();
                    v
                };
                let name = |t: Option<UnitId>| {
                    t.map_or("the same foe".to_string(), |t| roster.name(t).to_string())
                };
                egui::ComboBox::from_label("second blow at")
                    .selected_text(name(changed.action.effort.second_target))
                    .show_ui(ui, |ui| {
                        ui.selectable_value(
                            &mut changed.action.effort.second_target,
                            None,
                            "the same foe",
                        );
                        for t in foes {
                            if Some(t) != changed.action.target {
                                ui.selectable_value(
                                    &mut changed.action.effort.second_target,
                                    Some(t),
                                    roster.name(t),
                                );
                            }
                        }
                    });
            }
        }
        if rules.extra_effort {
            ui.label("Extra effort (FP):");
            if melee {
                ui.checkbox(
                    &mut changed.action.effort.flurry,
                    "Flurry of Blows (Rapid Strike at -3, 2 FP)",
                );
                ui.checkbox(
                    &mut changed.action.effort.mighty_blow,
                    "Mighty Blow (+2 damage, 1 FP)",
                );
            }
            if m == Maneuver::MoveAndAttack {
                ui.checkbox(
                    &mut changed.action.effort.heroic_charge,
                    "Heroic Charge (no Move and Attack penalty, 1 FP)",
                );
            }
        }
        if rules.groups.get(side).copied().unwrap_or(false) {
            ui.checkbox(
                &mut changed.action.group,
                "Group attack (every member who can strike the foe joins one roll)",
            );
        }
        ui.checkbox(&mut changed.action.chink, "Aim at a chink in the armor");
    }
    if m == Maneuver::Aim {
        ui.checkbox(&mut changed.action.brace, "Brace (no step)");
    }
    ui.label(match changed.action.to {
        Some(to) => format!("Move to ({}, {}) - right click to stay", to.x, to.y),
        None => "Staying put - click a hex to move".to_string(),
    });
    if changed != draft {
        game.draft_mut::<GurpsDraft>().draft = Some(changed);
    }
    ui.separator();
    let g = game.draft_mut::<GurpsDraft>();
    match (&g.planned, &g.draft_error) {
        (Some(plan), _) => {
            ui.label(format!("Legal: {} MP of movement", plan.cost));
        }
        (None, Some(e)) => {
            ui.colored_label(egui::Color32::from_rgb(255, 120, 100), e);
        }
        _ => {}
    }
    if let Some(odds) = &game.draft_mut::<GurpsDraft>().odds {
        ui.label("Odds:");
        ui.monospace(odds.summary());
        for strike in &odds.strikes {
            egui::CollapsingHeader::new(format!(
                "{} with {}: skill {}",
                strike.target_name, strike.weapon, strike.effective
            ))
            .id_salt(("odds", &strike.target_name, &strike.weapon))
            .show(ui, |ui| {
                for m in &strike.modifiers {
                    ui.monospace(format!("{:+3}  {}", m.value, m.label));
                }
            });
        }
    }
    let ok = game.draft_mut::<GurpsDraft>().planned.is_some();
    if ui
        .add_enabled(ok, egui::Button::new("Confirm (Enter)"))
        .clicked()
    {
        super::draft::confirm(game);
    }
}

/// GURPS in the window: the fighter's sheet and the map's legend, the maneuver panel.
pub struct GurpsWindow;

impl super::ruleset::RulesetWindow for GurpsWindow {
    fn id(&self) -> &'static str {
        use crate::scenario::Ruleset;
        crate::rules::gurps::Gurps::ID
    }

    fn menus(&self, ui: &mut egui::Ui, game: &mut Game) {
        gcs_menu(ui, game);
    }

    fn sheet_panel(&self, ui: &mut egui::Ui, game: &mut Game) {
        sheet(ui, game);
        ui.separator();
        legend(ui, game);
    }

    fn actions_panel(&self, ui: &mut egui::Ui, game: &mut Game) {
        actions(ui, game);
    }

    /// The hovered hex's path cost or distance.
    fn pointer_note(&self, game: &Game) -> Option<String> {
        let hover = game.draft::<GurpsDraft>()?.hover.as_ref()?;
        (!hover.note.is_empty()).then(|| hover.note.clone())
    }

    /// The reachable hexes of the drafted maneuver, the selected fighter's weapon ranges
    /// (half damage and maximum, or melee reach), the planned move, the path to the
    /// hovered hex and the line of sight to a hovered foe, the arrow to the target.
    fn map_marks(
        &self,
        gizmos: &mut Gizmos,
        layout: &super::layout::MapLayout,
        game: &Game,
        ring: super::ruleset::Ring,
        marks: super::ruleset::MapMarks,
    ) {
        let empty = GurpsDraft::default();
        let gd = game.draft::<GurpsDraft>().unwrap_or(&empty);
        use super::layout::HEX_SIZE;
        use crate::battle::HexPos;
        use crate::rules::gurps::Fighter;
        use crate::rules::gurps::equipment::WeaponMode;
        let session = game.play.session();
        let map = &session.prepared().map;
        if marks.reachable {
            for &(hex, _) in &gd.reach.hexes {
                ring(gizmos, hex, Color::srgba(0.55, 0.85, 1.0, 0.55), 0.8);
            }
        }
        let unit_hex = |id: UnitId| {
            session
                .roster()
                .entity(id)
                .and_then(|e| session.world.get::<HexPos>(e))
                .map(|p| p.0)
        };
        if let Some(sel) = game.selected
            && let Some(hex) = unit_hex(sel)
            && marks.ranges
            && let Some(entity) = session.roster().entity(sel)
            && let Some(f) = session.world.get::<Fighter>(entity)
        {
            let per_hex = HEX_SIZE * 3f32.sqrt();
            // The weapon chosen for the turn, else the first.
            let chosen = gd
                .draft
                .as_ref()
                .filter(|d| d.unit == sel)
                .and_then(|d| d.action.weapon)
                .map_or(0, usize::from);
            if let Some(w) = f.sheet.weapons.get(chosen).or(f.sheet.weapons.first()) {
                match w.mode {
                    WeaponMode::Ranged {
                        half_damage, max, ..
                    } => {
                        let yards_per_hex = map.scale.max(0.001);
                        gizmos.circle_2d(
                            layout.pos(hex),
                            half_damage as f32 / yards_per_hex * per_hex,
                            Color::srgba(1.0, 0.8, 0.3, 0.7),
                        );
                        gizmos.circle_2d(
                            layout.pos(hex),
                            max as f32 / yards_per_hex * per_hex,
                            Color::srgba(1.0, 0.45, 0.3, 0.7),
                        );
                    }
                    WeaponMode::Melee { reach_max, .. } => {
                        for h in hex.range(reach_max) {
                            if h != hex && map.contains(h) {
                                ring(gizmos, h, Color::srgba(1.0, 0.6, 0.2, 0.6), 0.6);
                            }
                        }
                    }
                }
            }
        }
        // The planned move and the hovered path.
        if let Some(draft) = &gd.draft {
            let colour_path = |gizmos: &mut Gizmos, path: &[hexx::Hex], colour: Color| {
                for pair in path.windows(2) {
                    gizmos.line_2d(layout.pos(pair[0]), layout.pos(pair[1]), colour);
                }
            };
            if let Some(plan) = &gd.planned {
                colour_path(gizmos, &plan.path, Color::srgb(0.3, 0.9, 1.0));
                if let Some(&end) = plan.path.last() {
                    gizmos.circle_2d(layout.pos(end), HEX_SIZE * 0.45, Color::srgb(0.3, 0.9, 1.0));
                }
            }
            if let Some(hover) = &gd.hover {
                colour_path(
                    gizmos,
                    &hover.path,
                    if hover.reachable {
                        Color::srgba(1.0, 1.0, 1.0, 0.8)
                    } else {
                        Color::srgba(1.0, 0.3, 0.3, 0.8)
                    },
                );
                if let Some(sight) = hover.sight {
                    let from = unit_hex(draft.unit).unwrap_or_default();
                    if let Some(to) = marks.pointer {
                        gizmos.line_2d(
                            layout.pos(from),
                            layout.pos(to),
                            if sight {
                                Color::srgb(0.4, 1.0, 0.4)
                            } else {
                                Color::srgb(1.0, 0.25, 0.25)
                            },
                        );
                    }
                }
            }
            if let Some(t) = draft.action.target
                && let (Some(a), Some(b)) = (unit_hex(draft.unit), unit_hex(t))
            {
                let from = gd
                    .planned
                    .as_ref()
                    .and_then(|p| p.path.last().copied())
                    .unwrap_or(a);
                gizmos.arrow_2d(layout.pos(from), layout.pos(b), Color::srgb(1.0, 0.3, 0.2));
            }
        }
    }

    fn click(&self, game: &mut Game, hex: hexx::Hex, _: Option<crate::battle::UnitId>) -> bool {
        super::draft::click(game, hex)
    }

    fn right_click(&self, game: &mut Game) {
        super::draft::right_click(game);
    }

    fn confirm(&self, game: &mut Game) {
        super::draft::confirm(game);
    }

    fn player_turn(&self, game: &mut Game, unit: crate::battle::UnitId) {
        super::draft::player_turn(game, unit);
    }

    fn refresh(&self, game: &mut Game, pointer: Option<hexx::Hex>) {
        super::draft::refresh(game, pointer);
    }
}
