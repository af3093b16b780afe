//! GURPS tables: damage types and wounding multipliers, the size and speed/range table,
//! and the thrust/swing damage table, each in one named place.

use crate::dice::{DiceExpr, gurps_critical};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::LazyLock;

/// Damage types with their wounding multipliers (gurps-lite-and-socs.txt, "WOUNDING
/// MODIFIERS").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "&'static str")]
pub enum DamageType {
    /// Small piercing (pi-), ×0.5.
    SmallPiercing,
    /// Crushing (cr), ×1.
    Crushing,
    /// Piercing (pi), ×1.
    Piercing,
    /// Cutting (cut), ×1.5.
    Cutting,
    /// Large piercing (pi+), ×1.5.
    LargePiercing,
    /// Impaling (imp), ×2.
    Impaling,
    /// Huge piercing (pi++), ×2.
    HugePiercing,
}

impl DamageType {
    /// Piercing or impaling: the damage types that can aim at a chink in armor
    /// (gurps-lite-and-socs.txt, "HIT LOCATIONS", armor chinks).
    pub fn finds_chinks(self) -> bool {
        matches!(
            self,
            DamageType::Piercing
                | DamageType::LargePiercing
                | DamageType::HugePiercing
                | DamageType::Impaling
        )
    }

    /// The abbreviation the rules use.
    pub fn abbrev(self) -> &'static str {
        match self {
            DamageType::SmallPiercing => "pi-",
            DamageType::Crushing => "cr",
            DamageType::Piercing => "pi",
            DamageType::Cutting => "cut",
            DamageType::LargePiercing => "pi+",
            DamageType::Impaling => "imp",
            DamageType::HugePiercing => "pi++",
        }
    }

    /// The wounding multiplier as a fraction (numerator, denominator).
    pub fn wounding_multiplier(self) -> (i32, i32) {
        match self {
            DamageType::SmallPiercing => (1, 2),
            DamageType::Crushing | DamageType::Piercing => (1, 1),
            DamageType::Cutting | DamageType::LargePiercing => (3, 2),
            DamageType::Impaling | DamageType::HugePiercing => (2, 1),
        }
    }

    /// The multiplier as the rules print it ("×1.5").
    pub fn multiplier_label(self) -> &'static str {
        match self.wounding_multiplier() {
            (1, 2) => "x0.5",
            (1, 1) => "x1",
            (3, 2) => "x1.5",
            _ => "x2",
        }
    }

    /// Smallest basic damage a hit of this type does: 0 for crushing, 1 for the rest
    /// (decision: GURPS 4e Basic Set p. B378; the quick reference gives damage such as
    /// "1d-2" without saying what a result of 0 or less does).
    pub fn minimum_damage(self) -> i32 {
        if self == DamageType::Crushing { 0 } else { 1 }
    }
}

impl DamageType {
    /// Every damage type.
    pub const ALL: [DamageType; 7] = [
        DamageType::SmallPiercing,
        DamageType::Crushing,
        DamageType::Piercing,
        DamageType::Cutting,
        DamageType::LargePiercing,
        DamageType::Impaling,
        DamageType::HugePiercing,
    ];
}

impl TryFrom<String> for DamageType {
    type Error = String;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        DamageType::ALL
            .into_iter()
            .find(|t| t.abbrev() == text)
            .ok_or_else(|| {
                format!(
                    "unknown damage type `{text}`: expected one of cr, cut, imp, pi-, pi, pi+, pi++"
                )
            })
    }
}

impl From<DamageType> for &'static str {
    fn from(t: DamageType) -> Self {
        t.abbrev()
    }
}

impl fmt::Display for DamageType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.abbrev())
    }
}

/// Rows of the speed/range column of the "SIZE AND SPEED/RANGE TABLE"
/// (gurps-traveller-gm-screen.txt), as (linear measurement in yards, modifier), from 2 yd
/// (0) to 10,000 yd (−22). Beyond the last row the table's own progression continues: each
/// tenfold distance is six rows (1, 1.5, 2, 3, 4.5, 7 × a power of ten), one step each.
pub const SPEED_RANGE_ROWS: [(f64, i32); 23] = [
    (2.0, 0),
    (3.0, -1),
    (4.5, -2),
    (7.0, -3),
    (10.0, -4),
    (15.0, -5),
    (20.0, -6),
    (30.0, -7),
    (45.0, -8),
    (70.0, -9),
    (100.0, -10),
    (150.0, -11),
    (200.0, -12),
    (300.0, -13),
    (450.0, -14),
    (700.0, -15),
    (1000.0, -16),
    (1500.0, -17),
    (2000.0, -18),
    (3000.0, -19),
    (4500.0, -20),
    (7000.0, -21),
    (10000.0, -22),
];

/// The speed/range modifier for `range_plus_speed` = range in yards + target speed in
/// yards per second (gurps-traveller-gm-screen.txt, "TARGET'S SPEED AND RANGE"), using the
/// next larger row when the sum falls between rows (rules/README.md decision 5: 8 yd counts
/// as 10 yd, −4). Distances of 2 yd or less give 0: the table's bonuses below 2 yd are for
/// size, and the 4e quick reference's range column gives no bonus at close range.
pub fn speed_range_modifier(range_plus_speed: f64) -> i32 {
    if range_plus_speed <= 2.0 {
        return 0;
    }
    for &(yards, modifier) in &SPEED_RANGE_ROWS {
        if range_plus_speed <= yards {
            return modifier;
        }
    }
    // Past 10,000 yd: six rows per decade, steps 1, 1.5, 2, 3, 4.5, 7.
    const STEPS: [f64; 6] = [1.5, 2.0, 3.0, 4.5, 7.0, 10.0];
    let mut base = 10_000.0;
    let mut modifier = -22;
    loop {
        for step in STEPS {
            modifier -= 1;
            if range_plus_speed <= base * step {
                return modifier;
            }
        }
        base *= 10.0;
    }
}

/// Basic thrust and swing damage by ST.
///
/// Decision: the quick reference lists weapons' damage as thrust or swing plus a bonus but
/// has no table from ST to dice; this is the GURPS 4e Basic Set table (p. B16) for ST 1–30.
/// ST above 30 uses the ST 30 row.
pub fn thrust_swing(st: i32) -> (DiceExpr, DiceExpr) {
    // (thrust dice, thrust add, swing dice, swing add) for ST 1..=30
    const TABLE: [(u32, i32, u32, i32); 30] = [
        (1, -6, 1, -5),
        (1, -6, 1, -5),
        (1, -5, 1, -4),
        (1, -5, 1, -4),
        (1, -4, 1, -3),
        (1, -4, 1, -3),
        (1, -3, 1, -2),
        (1, -3, 1, -2),
        (1, -2, 1, -1),
        (1, -2, 1, 0),
        (1, -1, 1, 1),
        (1, -1, 1, 2),
        (1, 0, 2, -1),
        (1, 0, 2, 0),
        (1, 1, 2, 1),
        (1, 1, 2, 2),
        (1, 2, 3, -1),
        (1, 2, 3, 0),
        (2, -1, 3, 1),
        (2, -1, 3, 2),
        (2, 0, 4, -1),
        (2, 0, 4, 0),
        (2, 1, 4, 1),
        (2, 1, 4, 2),
        (2, 2, 5, -1),
        (2, 2, 5, 0),
        (3, -1, 5, 1),
        (3, -1, 5, 1),
        (3, 0, 5, 2),
        (3, 0, 5, 2),
    ];
    let (td, ta, sd, sa) = TABLE[(st.clamp(1, 30) - 1) as usize];
    (DiceExpr::d6(td, ta), DiceExpr::d6(sd, sa))
}

/// Exact chance that a 3d6 success roll against `effective` skill succeeds, criticals
/// included (3–4 always succeed, 17–18 always fail). For odds previews and the AI; read
/// from a table counted once over all 216 rolls.
pub fn success_chance(effective: i32) -> f64 {
    static TABLE: LazyLock<[f64; 41]> = LazyLock::new(|| {
        let mut table = [0.0; 41];
        for (i, slot) in table.iter_mut().enumerate() {
            *slot = count_successes(i as i32 - 10);
        }
        table
    });
    // Below −10 and above 30 nothing changes: only 3–4 succeed, or only 17–18 fail.
    TABLE[(effective.clamp(-10, 30) + 10) as usize]
}

fn count_successes(effective: i32) -> f64 {
    let mut wins = 0u32;
    for a in 1..=6 {
        for b in 1..=6 {
            for c in 1..=6 {
                let roll = a + b + c;
                let success = match gurps_critical(roll, effective) {
                    Some(crate::dice::Critical::Success) => true,
                    Some(crate::dice::Critical::Failure) => false,
                    None => roll <= effective && roll <= 16,
                };
                if success {
                    wins += 1;
                }
            }
        }
    }
    f64::from(wins) / 216.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// gurps-lite-and-socs.txt "WOUNDING MODIFIERS".
    #[test]
    fn wounding_multipliers() {
        use DamageType::*;
        assert_eq!(SmallPiercing.wounding_multiplier(), (1, 2));
        assert_eq!(Crushing.wounding_multiplier(), (1, 1));
        assert_eq!(Piercing.wounding_multiplier(), (1, 1));
        assert_eq!(Cutting.wounding_multiplier(), (3, 2));
        assert_eq!(LargePiercing.wounding_multiplier(), (3, 2));
        assert_eq!(Impaling.wounding_multiplier(), (2, 1));
        assert_eq!(HugePiercing.wounding_multiplier(), (2, 1));
    }

    /// gurps-traveller-gm-screen.txt "SIZE AND SPEED/RANGE TABLE" and its automobile
    /// example (40 yd + 15 yd/s = 55, rounds up to 70: −9); rules/README.md decision 5
    /// (8 yd counts as 10 yd: −4).
    #[test]
    fn speed_range_uses_the_next_larger_row() {
        assert_eq!(speed_range_modifier(55.0), -9);
        assert_eq!(speed_range_modifier(8.0), -4);
        assert_eq!(speed_range_modifier(10.0), -4);
        assert_eq!(speed_range_modifier(11.0), -5);
        assert_eq!(speed_range_modifier(4.0), -2);
        assert_eq!(speed_range_modifier(5.0), -3);
        assert_eq!(speed_range_modifier(3.0), -1);
        assert_eq!(speed_range_modifier(2.0), 0);
        assert_eq!(speed_range_modifier(1.0), 0);
        assert_eq!(speed_range_modifier(0.0), 0);
        assert_eq!(speed_range_modifier(100.0), -10);
        assert_eq!(speed_range_modifier(10_000.0), -22);
    }

    /// Past the yard rows the progression goes on: 15,000 yd is −23 as the table's next
    /// row (10 mi, −23) and 200 mi (352,000 yd) is about −31.
    #[test]
    fn speed_range_continues_past_the_table() {
        assert_eq!(speed_range_modifier(15_000.0), -23);
        assert_eq!(speed_range_modifier(20_000.0), -24);
        assert_eq!(speed_range_modifier(30_000.0), -25);
        assert_eq!(speed_range_modifier(100_000.0), -28);
        assert_eq!(speed_range_modifier(300_000.0), -31);
    }

    #[test]
    fn thrust_and_swing() {
        let (thr, sw) = thrust_swing(10);
        assert_eq!(
            (thr.to_string(), sw.to_string()),
            ("1d-2".into(), "1d".into())
        );
        let (thr, sw) = thrust_swing(13);
        assert_eq!(
            (thr.to_string(), sw.to_string()),
            ("1d".into(), "2d-1".into())
        );
        let (thr, sw) = thrust_swing(20);
        assert_eq!(
            (thr.to_string(), sw.to_string()),
            ("2d-1".into(), "3d+2".into())
        );
        assert_eq!(thrust_swing(50), thrust_swing(30));
        assert_eq!(thrust_swing(0), thrust_swing(1));
    }

    #[test]
    fn exact_success_chances() {
        assert_eq!(success_chance(10), 0.5);
        assert_eq!(success_chance(3), 4.0 / 216.0);
        assert_eq!(success_chance(-3), 4.0 / 216.0);
        assert_eq!(success_chance(25), 212.0 / 216.0);
        assert_eq!(success_chance(12), 160.0 / 216.0);
        for eff in -30..50 {
            assert_eq!(success_chance(eff), count_successes(eff), "{eff}");
        }
    }
}
