//! A battle to share (`skirmish log SAVE`, the window's **Export log**): its log, every roll
//! with its dice, modifiers, target and margin as the text log writes it, under a heading
//! per round, as Markdown that renders in a forum or chat, as one self-contained HTML page
//! with the map at the start and at the end drawn in SVG, or as plain text (what `replay`
//! prints).
//!
//! All three are built from the same lines ([`crate::report::battle_text`]'s log), so they
//! never disagree with the text log or each other. For the players, the GM's rolls can be
//! kept behind the screen ([`export_for_players`]).

use crate::battle::{CombatLog, Control, HexPos, Standing, TurnState, UnitId};
use crate::hexmap::{Cover, HexMap, Orientation, Terrain};
use crate::report;
use crate::session::Session;
use hexx::{Hex, HexLayout, HexOrientation};

/// How a shared log is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Markdown: headings, nested lists; renders in forums and chats.
    Markdown,
    /// One HTML page with its style and both maps inside, nothing fetched.
    Html,
    /// The text log, as `skirmish replay` prints it.
    Text,
}

/// One line of the log: how deep it is (0: a round or a note of the battle, 1: a unit's
/// turn, 2 and more: what happened in it) and its words.
struct Line {
    depth: usize,
    text: String,
}

/// The battle in `session` as it stands, written in `format`.
pub fn export(session: &mut Session, format: Format) -> String {
    match format {
        Format::Text => report::battle_text(session),
        Format::Markdown => markdown(session),
        Format::Html => html(session),
    }
}

/// [`export`] with the GM's rolls kept behind the screen when `hide_gm_rolls`: the rolls of
/// the units of the sides the scenario gives the AI (the ones the GM runs at the table)
/// show no dice, modifiers or target, only what they decided. The battle itself is not
/// changed.
pub fn export_for_players(session: &mut Session, format: Format, hide_gm_rolls: bool) -> String {
    if !hide_gm_rolls {
        return export(session, format);
    }
    let prepared = session.prepared().clone();
    let roster = session.roster().clone();
    let gm = |unit: UnitId| {
        roster
            .units
            .get(unit.0 as usize)
            .and_then(|u| prepared.sides.get(usize::from(u.side)))
            .is_some_and(|s| matches!(s.control, Control::Ai(_)))
    };
    let kept = session.log().entries.clone();
    let mut hidden = kept.clone();
    for entry in &mut hidden {
        for (unit, roll) in entry.event.rolls_mut() {
            if unit.is_some_and(gm) {
                *roll = roll.behind_the_screen();
            }
        }
    }
    session.world.resource_mut::<CombatLog>().entries = hidden;
    let out = export(session, format);
    session.world.resource_mut::<CombatLog>().entries = kept;
    out
}

/// The log's lines, each with its depth (two spaces of indentation a level); a last
/// round with nothing in it yet (a battle saved at the start of a round) is left out, and
/// [`ending`] says where the battle stops instead.
fn log_lines(session: &Session) -> Vec<Line> {
    let mut lines: Vec<Line> = session
        .log_text()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let spaces = l.len() - l.trim_start().len();
            Line {
                depth: spaces / 2,
                text: l.trim().to_string(),
            }
        })
        .collect();
    if lines.last().is_some_and(|l| round_of(l).is_some()) {
        lines.pop();
    }
    lines
}

/// The round a line opens ("Round 3"), if it opens one.
fn round_of(line: &Line) -> Option<u32> {
    if line.depth != 0 {
        return None;
    }
    line.text.strip_prefix("Round ")?.parse().ok()
}

/// Each side with its units, as "Name (id): A, B".
fn sides(session: &Session) -> Vec<String> {
    report::side_lines(session.prepared())
}

/// How it ended, and each unit's state.
fn ending(session: &mut Session) -> (String, Vec<String>) {
    let prepared = session.prepared().clone();
    let round = session.round();
    let outcome = match session.outcome() {
        None => {
            let roster = session.roster();
            match session.world.resource::<TurnState>().awaiting {
                Some(unit) => format!(
                    "unfinished: it stops in round {round}, at {}'s turn",
                    roster.name(unit)
                ),
                None if round == 0 => "unfinished: it has not begun".to_string(),
                None => format!("unfinished: it stops in round {round}"),
            }
        }
        some => report::outcome_text(&prepared, some, round),
    };
    (outcome, session.unit_lines())
}

/// `text` with the characters Markdown would read as formatting escaped (emphasis, code,
/// HTML, entities, tables, links and images, headings; a line break becomes a space).
fn md(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\n' || c == '\r' {
            out.push(' ');
            continue;
        }
        if matches!(
            c,
            '\\' | '*' | '_' | '`' | '<' | '|' | '[' | ']' | '!' | '&' | '#' | '~'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn markdown(session: &mut Session) -> String {
    let prepared = session.prepared().clone();
    let mut out = format!(
        "# {}\n\n{} battle, dice seed {}.\n\n",
        md(&prepared.name),
        md(prepared.ruleset),
        session.seed()
    );
    for side in sides(session) {
        out.push_str(&format!("- {}\n", md(&side)));
    }
    for line in log_lines(session) {
        if let Some(round) = round_of(&line) {
            out.push_str(&format!("\n## Round {round}\n\n"));
        } else if line.depth == 0 {
            out.push_str(&format!("\n{}\n\n", md(&line.text)));
        } else {
            let pad = "  ".repeat(line.depth - 1);
            out.push_str(&format!("{pad}- {}\n", md(&line.text)));
        }
    }
    let (outcome, units) = ending(session);
    out.push_str(&format!("\n## Outcome\n\n{}\n\n", md(&outcome)));
    for unit in units {
        out.push_str(&format!("- {}\n", md(&unit)));
    }
    out
}

/// `text` with the characters HTML reads as markup escaped.
fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em;\
color:#222}h2{border-bottom:1px solid #ccc;margin-top:1.5em}ul{margin:.2em 0}\
li{margin:.1em 0}.roll{font-family:monospace}svg{max-width:100%;height:auto;\
background:#2b2f33;border-radius:4px}.maps{display:flex;gap:1em;flex-wrap:wrap}\
.maps figure{margin:0;flex:1 1 20em}";

fn html(session: &mut Session) -> String {
    let prepared = session.prepared().clone();
    let mut out = String::from("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n");
    out.push_str("<meta charset=\"utf-8\"/>\n");
    out.push_str(&format!("<title>{}</title>\n", esc(&prepared.name)));
    out.push_str(&format!("<style>{STYLE}</style>\n</head>\n<body>\n"));
    out.push_str(&format!("<h1>{}</h1>\n", esc(&prepared.name)));
    out.push_str(&format!(
        "<p>{} battle, dice seed {}.</p>\n<ul>\n",
        esc(prepared.ruleset),
        session.seed()
    ));
    for side in sides(session) {
        out.push_str(&format!("<li>{}</li>\n", esc(&side)));
    }
    out.push_str("</ul>\n");
    let start: Vec<(Hex, u8, bool, String)> = prepared
        .units
        .iter()
        .map(|u| (u.at, u.side, true, u.name.clone()))
        .collect();
    let end = positions(session);
    out.push_str("<div class=\"maps\">\n");
    out.push_str(&format!(
        "<figure>{}<figcaption>At the start</figcaption></figure>\n",
        svg_map(&prepared.map, &start, &prepared.sides)
    ));
    out.push_str(&format!(
        "<figure>{}<figcaption>At the end (the fallen in grey)</figcaption></figure>\n",
        svg_map(&prepared.map, &end, &prepared.sides)
    ));
    out.push_str("</div>\n");
    // Lists nest by depth: open and close them as the depth changes.
    let mut open = 0;
    let close_to = |out: &mut String, open: &mut usize, depth: usize| {
        while *open > depth {
            out.push_str("</li>\n</ul>\n");
            *open -= 1;
        }
    };
    for line in log_lines(session) {
        if line.depth == 0 {
            close_to(&mut out, &mut open, 0);
            match round_of(&line) {
                Some(round) => out.push_str(&format!("<h2>Round {round}</h2>\n")),
                None => out.push_str(&format!("<p>{}</p>\n", esc(&line.text))),
            }
            continue;
        }
        if line.depth > open {
            while open < line.depth {
                out.push_str("<ul>\n<li>");
                open += 1;
            }
        } else {
            close_to(&mut out, &mut open, line.depth);
            out.push_str("</li>\n<li>");
        }
        let class = if line.text.contains(" vs ") && line.text.contains(": ") {
            " class=\"roll\""
        } else {
            ""
        };
        out.push_str(&format!("<span{class}>{}</span>", esc(&line.text)));
    }
    close_to(&mut out, &mut open, 0);
    let (outcome, units) = ending(session);
    out.push_str(&format!(
        "<h2>Outcome</h2>\n<p>{}</p>\n<ul>\n",
        esc(&outcome)
    ));
    for unit in units {
        out.push_str(&format!("<li>{}</li>\n", esc(&unit)));
    }
    out.push_str("</ul>\n</body>\n</html>\n");
    out
}

/// Every unit's hex, side, whether it still fights, and name, as the battle stands.
fn positions(session: &mut Session) -> Vec<(Hex, u8, bool, String)> {
    let world = &mut session.world;
    let mut q = world.query::<(&UnitId, &HexPos, &Standing)>();
    let mut at: Vec<(UnitId, Hex, bool)> = q
        .iter(world)
        .map(|(id, pos, s)| (*id, pos.0, s.fighting()))
        .collect();
    at.sort_by_key(|(id, ..)| *id);
    let roster = session.roster();
    at.into_iter()
        .filter_map(|(id, hex, fighting)| {
            let entry = roster.units.get(id.0 as usize)?;
            Some((hex, entry.side, fighting, entry.name.clone()))
        })
        .collect()
}

/// A side's colour as `#rrggbb` (the window's, from the scenario or its place in the list).
fn side_hex(sides: &[crate::battle::SideInfo], side: u8) -> String {
    let i = usize::from(side);
    let (r, g, b) = sides
        .get(i)
        .and_then(|s| s.colour)
        .unwrap_or(crate::battle::SIDE_PALETTE[i % crate::battle::SIDE_PALETTE.len()]);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// The map with its terrain and `units` (hex, side, fighting, name) as an SVG picture.
fn svg_map(
    map: &HexMap,
    units: &[(Hex, u8, bool, String)],
    sides: &[crate::battle::SideInfo],
) -> String {
    const SIZE: f32 = 10.0;
    let orientation = match map.orientation() {
        Orientation::Pointy => HexOrientation::Pointy,
        Orientation::Flat => HexOrientation::Flat,
    };
    let layout = HexLayout::new(orientation).with_hex_size(SIZE);
    let hexes: Vec<(Hex, Terrain)> = map.hexes().collect();
    let (mut min, mut max) = (hexx::Vec2::splat(f32::MAX), hexx::Vec2::splat(f32::MIN));
    for (h, _) in &hexes {
        let p = layout.hex_to_world_pos(*h);
        min = min.min(p);
        max = max.max(p);
    }
    if hexes.is_empty() {
        (min, max) = (hexx::Vec2::ZERO, hexx::Vec2::ZERO);
    }
    let pad = SIZE * 1.2;
    let (w, h) = (max.x - min.x + 2.0 * pad, max.y - min.y + 2.0 * pad);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"{:.1} {:.1} {w:.1} {h:.1}\" width=\"{:.0}\" height=\"{:.0}\">",
        min.x - pad,
        min.y - pad,
        (w * 2.0).min(640.0),
        h * (w * 2.0).min(640.0) / w.max(1.0)
    );
    for (hex, terrain) in &hexes {
        let fill = match terrain {
            Terrain::Open => "#6b8f58",
            Terrain::Difficult => "#8c6a3f",
            Terrain::Blocked => "#3a3d40",
            Terrain::Cover(Cover::Light) => "#88a060",
            Terrain::Cover(Cover::Half) => "#a08a5a",
            Terrain::Cover(Cover::Heavy) => "#7a6a50",
        };
        let points: Vec<String> = layout
            .hex_corners(*hex)
            .iter()
            .map(|c| format!("{:.1},{:.1}", c.x, c.y))
            .collect();
        out.push_str(&format!(
            "<polygon points=\"{}\" fill=\"{fill}\" stroke=\"#222\" stroke-width=\"0.6\"/>",
            points.join(" ")
        ));
    }
    for (hex, side, fighting, name) in units {
        let p = layout.hex_to_world_pos(*hex);
        let fill = if *fighting {
            side_hex(sides, *side)
        } else {
            "#777777".to_string()
        };
        out.push_str(&format!(
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{:.1}\" fill=\"{fill}\" stroke=\"#fff\" stroke-width=\"0.8\"><title>{}</title></circle>",
            p.x,
            p.y,
            SIZE * 0.6,
            esc(name)
        ));
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_and_html_escape_what_they_must() {
        assert_eq!(
            md("a*b_[c](u) ![i] &amp; #1 <x>\nnext"),
            "a\\*b\\_\\[c\\](u) \\!\\[i\\] \\&amp; \\#1 \\<x> next"
        );
        assert_eq!(
            esc("<a href=\"x\">&</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"
        );
    }
}
