//! The Vergeworlds auditor's checks of penetration rolls, damage and the state that
//! follows, and other rolls, and the walk through a battle's events that calls every
//! check.

use super::*;

pub(super) fn fmt_opt(v: Option<i64>) -> String {
    v.map_or("none".into(), |v| format!("{v:+}"))
}

impl Audit<'_> {
    /// "Penetration (2d6, row-shifted)": a muscle-powered blow's Pen (VW "Damage", "Goodies").
    pub(super) fn check_pen_roll(&mut self, i: usize, u: usize, e: &Value) {
        let r = &e["roll"];
        let f = faces(r);
        let mods = modifiers(r);
        let what = format!("Penetration roll of {}", self.names[u]);
        if f.len() != 2 || f.iter().any(|x| !(1..=6).contains(x)) {
            self.flag(i, format!("{what}: faces {f:?} are not 2d6"));
            return;
        }
        let g: i64 = mods
            .iter()
            .filter(|(l, _)| l == "goodies")
            .map(|m| m.1)
            .sum();
        if mods.iter().any(|(l, _)| l != "goodies") {
            self.flag(i, format!("{what}: modifiers {mods:?} other than goodies"));
        }
        let total = f[0] + f[1] + g;
        if r["total"].as_i64() != Some(total) || total > 12 {
            self.flag(
                i,
                format!(
                    "{what}: total {} where faces + goodies = {total}, at most 12 (VW \"Goodies\")",
                    r["total"]
                ),
            );
        }
        let Some(h) = self.hits.front().cloned() else {
            self.flag(i, format!("{what}: no hit to roll for"));
            return;
        };
        if g < 0 || g > i64::from(h.goodies) {
            self.flag(
                i,
                format!(
                    "{what}: {g} goodies spent of {} (VW \"Goodies\")",
                    h.goodies
                ),
            );
        }
        if let Some(front) = self.hits.front_mut() {
            front.goodies -= g as i32;
        }
        let Some(pen_rs) = h.weapon.pen_rs else {
            self.flag(
                i,
                format!(
                    "{what}: a rolled Pen for {} which has a fixed Pen",
                    h.weapon.name
                ),
            );
            return;
        };
        let sheet = self.sheet(u).clone();
        let c = &self.chars[u];
        if c.high_speed || sheet.flight.is_some() || e["result"].is_null() {
            return; // VW "High Speed": Brawn ⊕ the speed, not followed here.
        }
        let att = match c.attitude.as_str() {
            "Raging" | "Powerful" => 1.0,
            "Probing" => -1.0,
            _ => 0.0,
        };
        let got = e["result"]
            .as_str()
            .and_then(|s| s.strip_prefix("Pen "))
            .and_then(num)
            .unwrap_or(0.0);
        let rs = pen_rs + sheet.unarmed.pen_rs + sheet.brawn + att;
        let want = shift(total as f64, rs);
        // Extra effort adds 1 or 2 Brawn ("Extra Effort").
        let ok = [0.0, 1.0, 2.0]
            .iter()
            .any(|x| (shift(total as f64, rs + x) - got).abs() <= 0.051);
        if !ok {
            self.flag(i, format!("{what}: Pen {got} where {total} row-shifted by {rs:+} (weapon {pen_rs:+}, unarmed {:+}, Brawn {:+}, attitude {att:+}) gives {want:.1} (VW \"Damage\")", sheet.unarmed.pen_rs, sheet.brawn));
        }
    }

    /// A damage event: the extra injuries of the quarters, the cascade, the worst injury, and
    /// whether the character must drop (VW "Injury to the Target", "Mooks").
    pub(super) fn check_damage(&mut self, i: usize, e: &Value) {
        let t = e["target"].as_u64().unwrap_or(0) as usize;
        let steps: Vec<i64> = e["steps"].as_array().map_or(Vec::new(), |v| {
            v.iter().filter_map(|m| m["value"].as_i64()).collect()
        });
        let loc = e["location"].as_str().unwrap_or("").to_string();
        let what = format!("injury to {}'s {loc}", self.names[t]);
        let mut penetrating = false;
        if let Some((u, l, inj, pen)) = self.last_blow.take()
            && u == t
            && l == loc
        {
            penetrating = pen;
            let whole = inj.floor();
            let q = ((inj - whole) * 4.0).round() as i64;
            let p = whole as i64;
            let want = match q {
                1 => vec![p, p - 2],
                2 => vec![p, p - 1],
                3 => vec![p, p - 1, p - 2],
                _ => vec![p],
            };
            if steps != want {
                self.flag(i, format!("{what}: injuries {steps:?} from Injury {inj:+.2} where VW \"Injury to the Target\" gives {want:?} (¼: -2, ½: -1, ¾: -1 and -2)"));
            }
        } else if e["damage_type"] != "blunt trauma" {
            self.flag(i, format!("{what}: no Pen note before it"));
        }
        if e["injury"].as_i64() != Some(steps.first().copied().unwrap_or(0).max(0)) {
            self.flag(
                i,
                format!(
                    "{what}: injury {} is not the primary {:?}",
                    e["injury"],
                    steps.first()
                ),
            );
        }
        let mut injuries = std::mem::take(&mut self.chars[t].injuries);
        let before = injuries.iter().map(|x| x.0).max().unwrap_or(0);
        let mut must = false;
        let mut may = false;
        let sheet = self.sheets[t].clone();
        for (k, &sc) in steps.iter().enumerate() {
            if sc < 1 {
                continue;
            }
            let mut new = (sc as i32, loc.clone(), penetrating && k == 0);
            let mut inherited = false;
            while let Some(j) = injuries.iter().position(|x| x.0 == new.0) {
                let old = injuries.remove(j);
                inherited |= old.2 && old.1 == new.1;
                new.0 += 1;
            }
            let limb = LIMBS.contains(&new.1.as_str());
            let down = |pen: bool| {
                if sheet.squirm {
                    new.0 >= 7
                } else if sheet.robot && limb {
                    false
                } else {
                    new.0 >= 7 || (pen && new.0 >= if limb { 5 } else { 3 })
                }
            };
            must |= down(new.2);
            may |= down(new.2 || inherited);
            new.2 |= inherited;
            injuries.push(new);
        }
        let after = injuries.iter().map(|x| x.0).max().unwrap_or(0);
        if e["hp_before"].as_i64() != Some(i64::from(before))
            || e["hp_after"].as_i64() != Some(i64::from(after))
        {
            self.flag(i, format!("{what}: worst injury {} -> {} where the injuries recorded with the cascade give {before} -> {after} (VW \"Injury to the Target\")", e["hp_before"], e["hp_after"]));
        }
        if !sheet.mook {
            // injury.rs decision (major_state).
            let vital = |l: &str| matches!(l, "head" | "neck" | "chest" | "abdomen");
            let dead = injuries
                .iter()
                .any(|x| x.0 >= 16 || (x.0 >= 13 && vital(&x.1)));
            let downed = dead
                || injuries
                    .iter()
                    .any(|x| x.0 >= 9 || (x.2 && !LIMBS.contains(&x.1.as_str()) && x.0 >= 7));
            must = downed;
            may = downed;
            self.expect_out = Some((t, must, may, dead));
        } else {
            self.expect_out = Some((t, must, may, false));
        }
        self.chars[t].injuries = injuries;
    }

    /// The state change right after a damage event.
    pub(super) fn check_status_after_damage(&mut self, i: usize, e: &Value) {
        let Some((t, must, may, dead)) = self.expect_out.take() else {
            return;
        };
        let c = &self.chars[t];
        let changed = kind(e) == "status_changed" && self.unit_of(e) == Some(t);
        if c.dead || (c.out && !dead) {
            return;
        }
        let killed = changed && e["cause"] == "killed";
        let mook = self.sheets[t].mook;
        if changed && !may {
            self.flag(
                i,
                format!(
                    "{} is taken out ({}) though its injuries {:?} do not reach {}",
                    self.names[t],
                    e["cause"],
                    c.injuries,
                    if mook {
                        "the mook thresholds (VW \"Mooks\")"
                    } else {
                        "the injury.rs major_state thresholds"
                    }
                ),
            );
        } else if !changed && must {
            self.flag(
                i,
                format!(
                    "{} stays in the fight with injuries {:?}, which reach {}",
                    self.names[t],
                    c.injuries,
                    if mook {
                        "the mook thresholds (VW \"Mooks\")"
                    } else {
                        "the injury.rs major_state thresholds"
                    }
                ),
            );
        } else if changed && !mook && killed != dead {
            self.flag(
                i,
                format!(
                    "{} {} where injury.rs major_state says dead: {dead}",
                    self.names[t], e["cause"]
                ),
            );
        }
    }

    /// Other rolls.
    pub(super) fn check_roll(&mut self, i: usize, e: &Value) {
        let Some(u) = self.unit_of(e) else { return };
        let purpose = e["purpose"].as_str().unwrap_or("").to_string();
        let r = &e["roll"];
        if purpose == "Penetration (2d6, row-shifted)" {
            self.check_pen_roll(i, u, e);
            return;
        }
        self.check_dice(i, r, &purpose);
        let sheet = self.sheet(u).clone();
        let mods: Vec<(String, i64)> = modifiers(r)
            .into_iter()
            .filter(|(l, _)| l != "open-ended")
            .collect();
        let (label, val, dc) = match purpose.as_str() {
            "Coordination contest (tied Action Points)" => {
                ("Coordination", sheet.coordination, None)
            }
            "Recovery (Vigor, DC 6)" => ("Vigor", sheet.vigor, Some(6)),
            "extra effort +2 (Spirit, DC 7)" => ("Spirit", sheet.spirit, Some(7)),
            "Awareness (caught unaware)" => ("Awareness", sheet.awareness, Some(8)),
            _ => return,
        };
        if mods != vec![(label.to_string(), i64::from(val))] || r["target"].as_i64() != dc {
            self.flag(i, format!("{purpose}: modifiers {mods:?} against {} where the sheet and the rule give {label} {val:+} against {dc:?}", r["target"]));
        }
    }
}

impl Audit<'_> {
    pub(super) fn run(&mut self) {
        let evs = events(self.log);
        let mut i = 0;
        while i < evs.len() {
            let e = &evs[i];
            if self.expect_out.is_some() && kind(e) != "damage" {
                self.check_status_after_damage(i, e);
            }
            match kind(e) {
                "turn_started" => {
                    if let Some(u) = self.unit_of(e) {
                        let c = &mut self.chars[u];
                        c.borrowed_before_turn = c.defenses.saturating_sub(c.free_defenses);
                        c.attitude = "Neutral".into();
                        c.committed_used = false;
                        c.focused_used = false;
                        c.defenses = 0;
                        c.free_defenses = 1;
                        c.evaded = false;
                        c.turn += 1;
                        self.active = Some(u);
                    }
                }
                "action_chosen" => {
                    let u = self.unit_of(e).unwrap_or(0);
                    let text = e["action"].as_str().unwrap_or("");
                    if !text.starts_with("Mana") && !text.starts_with("Defense") {
                        self.step_from = None;
                    }
                    if let Some(att) = text.strip_suffix(" attitude") {
                        self.chars[u].attitude = att.to_string();
                    } else if text.starts_with("Attack ") {
                        let aim = between(&format!("{text},"), " at the ", ",")
                            .unwrap_or("chest")
                            .to_string();
                        self.declared
                            .insert(u, (aim, text.contains(", Careful Aim"), 1));
                        self.hits.clear();
                    } else if text == "Defend" {
                        self.chars[u].free_defenses += 1;
                    } else if text.starts_with("Evade") {
                        self.chars[u].evaded = true;
                    }
                    if !text.starts_with("Mana")
                        && !text.starts_with("Defense")
                        && self.active == Some(u)
                        && text != "End turn"
                        && !text.ends_with(" attitude")
                    {
                        // The borrowed actions count on the first of this turn's actions only.
                    }
                }
                "moved" | "knockback" => {
                    if let Some(u) = self.unit_of(e) {
                        let path = e["path"].as_array().cloned().unwrap_or_default();
                        if let (Some(first), Some(last)) =
                            (path.first().and_then(hex_of), path.last().and_then(hex_of))
                        {
                            if kind(e) == "moved" && path.len() == 2 && self.active != Some(u) {
                                self.step_from = Some((u, first));
                            }
                            self.chars[u].pos = last;
                        }
                    }
                }
                "note" => self.check_note(i, e),
                "roll" => self.check_roll(i, e),
                "damage" => self.check_damage(i, e),
                "status_changed" => {
                    if let Some(u) = self.unit_of(e) {
                        self.chars[u].out = true;
                        if e["cause"] == "killed" {
                            self.chars[u].dead = true;
                        }
                    }
                }
                "attack" => {
                    let mut j = i + 1;
                    while j < evs.len()
                        && kind(&evs[j]) == "attack"
                        && evs[j]["defenses"].as_array().is_none_or(|d| d.is_empty())
                        && evs[j]["attacker"] == e["attacker"]
                    {
                        j += 1;
                    }
                    let group = evs[i..j].to_vec();
                    self.check_attack(i, &group);
                    if let Some(u) = e["attacker"].as_u64() {
                        self.chars[u as usize].borrowed_before_turn = 0;
                    }
                    self.step_from = None;
                    i = j;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
    }
}
