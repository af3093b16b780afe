//! The Score-Value table (rules/README.md decision 1; the text, vergeworlds-rough-methods.txt,
//! uses "score of \[x\]", "value of \[x\]", row shifts and ⊕ / ⊖ throughout but does not print
//! the table).
//!
//! The decision, in this one place: value = 2^(score/2). Whole scores read the clean table
//! (even scores are exact powers of two; odd scores keep two significant figures, cut
//! down: 1, 1.4, 2, 2.8, 4, 5.6, 8, 11, 16, 22, 32, 45, 64, 90, 128, 180, …). A score taken
//! of a number is kept to the nearest quarter, since the text counts injuries in quarters
//! ("Injury to the Target"). A row shift (RS) is one score step.

/// The value of `score` (decision 1): the clean table for whole scores, 2^(score/2)
/// otherwise.
pub fn value(score: f64) -> f64 {
    let exact = (score / 2.0).exp2();
    if score.fract() != 0.0 || !score.is_finite() {
        return exact;
    }
    let whole = score as i64;
    if whole % 2 == 0 {
        return exact;
    }
    // Two significant figures, cut down (5.66 reads 5.6, 22.6 reads 22, 181 reads 180).
    let k = exact.log10().floor() as i32 - 1;
    if k >= 0 {
        (exact / 10f64.powi(k) + 1e-9).floor() * 10f64.powi(k)
    } else {
        (exact * 10f64.powi(-k) + 1e-9).floor() / 10f64.powi(-k)
    }
}

/// The score of `value` (decision 1): 2·log2(value), kept to the nearest quarter. Zero and
/// less have no score: negative infinity.
pub fn score(value: f64) -> f64 {
    if value <= 0.0 {
        return f64::NEG_INFINITY;
    }
    // Against the clean table first, so 1.4, 5.6 or 11 read exactly 1, 5 and 7.
    let near = 2.0 * value.log2();
    let whole = near.round();
    if (self::value(whole) - value).abs() < 1e-9 {
        return whole;
    }
    (near * 4.0).round() / 4.0
}

/// The score of `value` as a whole number, for difficulties: 2·log2(value) rounded once to
/// the nearest whole score (halves up), not first to a quarter and then again (13 m reads
/// 7, since 13 lies nearer 11 than 16; issue 26 item 8).
pub fn whole_score(value: f64) -> i32 {
    if value <= 0.0 {
        return i32::MIN / 4;
    }
    (2.0 * value.log2() + 1e-9).round() as i32
}

/// `value` shifted by `rs` rows: the value of its score plus `rs`. A shift of no rows leaves
/// the value as it is (a 2d6 roll of 12 stays 12; issue 26 item 7).
pub fn shift(value: f64, rs: f64) -> f64 {
    if value <= 0.0 || rs == 0.0 {
        return value;
    }
    self::value(score(value) + rs)
}

/// a ⊕ b: the score of the sum of the two values.
pub fn oplus(a: f64, b: f64) -> f64 {
    score(value(a) + value(b))
}

/// a ⊖ b: the score of the difference of the two values (negative infinity when b's value
/// is at least a's).
pub fn ominus(a: f64, b: f64) -> f64 {
    score(value(a) - value(b))
}

/// A whole number of meters read from a value: rounded to the nearest meter.
pub fn meters(value: f64) -> i32 {
    value.round() as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clean_table_of_decision_1() {
        let table = [
            1.0, 1.4, 2.0, 2.8, 4.0, 5.6, 8.0, 11.0, 16.0, 22.0, 32.0, 45.0, 64.0, 90.0, 128.0,
            180.0,
        ];
        for (s, v) in table.iter().enumerate() {
            assert!(
                (value(s as f64) - v).abs() < 1e-9,
                "score {s}: {}",
                value(s as f64)
            );
            assert_eq!(score(*v), s as f64, "value {v}");
        }
        assert!((value(-1.0) - 0.7).abs() < 1e-9);
        assert_eq!(value(-2.0), 0.5);
    }

    /// rules/README.md decision 1: an attack at twice a human's reach (2 m) has base
    /// difficulty 0 ("Attack": -2 + the range score).
    #[test]
    fn an_attack_at_two_meters_has_base_difficulty_zero() {
        assert_eq!(-2 + whole_score(2.0), 0);
    }

    /// Decision 1 and "Area Fire": one square meter is Size +1 and a human of about half a
    /// square meter is Size 0 (Size = score of [area]/2 + 1).
    #[test]
    fn one_square_meter_is_size_one_and_a_human_size_zero() {
        assert_eq!(score(1.0) / 2.0 + 1.0, 1.0);
        assert_eq!(score(0.5) / 2.0 + 1.0, 0.0);
    }

    /// Decision 1 and "Jumping": a tenth of Earth's gravity adds 7 to a score.
    #[test]
    fn a_tenth_of_a_g_adds_seven() {
        assert_eq!(whole_score(0.1), -7);
    }

    /// Decision 1: whole scores round the exact score once: 13 m is score 7 (2·log2 13 =
    /// 7.40), 14 m score 8 (7.61); the clean table's own values read their rows.
    #[test]
    fn whole_scores_round_once() {
        assert_eq!(whole_score(13.0), 7);
        assert_eq!(whole_score(14.0), 8);
        for s in -6..=20 {
            assert_eq!(whole_score(value(f64::from(s))), s, "row {s}");
        }
    }

    #[test]
    fn row_shifts_and_the_operators() {
        // No shift, no change: 12 and 10 are not read through the grid (12.3, 10.4).
        assert_eq!(shift(12.0, 0.0), 12.0);
        assert_eq!(shift(10.0, 0.0), 10.0);
        assert_eq!(shift(4.0, 2.0), 8.0);
        assert_eq!(shift(8.0, -1.0), 5.6);
        // Equal values add to one more doubling: 4 ⊕ 4 = 6.
        assert_eq!(oplus(4.0, 4.0), 6.0);
        // 6 ⊖ 4: 8 - 4 = 4, score 4.
        assert_eq!(ominus(6.0, 4.0), 4.0);
        assert_eq!(ominus(4.0, 4.0), f64::NEG_INFINITY);
        // Quarters: the score of 5 is 4.64, kept as 4.75; of 6, 5.17 kept as 5.25.
        assert_eq!(score(5.0), 4.75);
        assert_eq!(score(6.0), 5.25);
    }
}
