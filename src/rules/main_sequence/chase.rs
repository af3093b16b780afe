//! Chases (main-sequence.txt, "Chase Rules"): the quarry's roll minus the pursuer's moves
//! the range band.

/// What one round of a chase does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChaseResult {
    /// The quarry escapes at once.
    Escaped,
    /// The gap changes by this many bands (positive: wider).
    Gap(i32),
    /// The pursuer catches the quarry at once.
    Caught,
}

/// The chase table, from the quarry's roll minus the pursuer's.
pub fn chase_table(difference: i32) -> ChaseResult {
    match difference {
        d if d >= 7 => ChaseResult::Escaped,
        5 | 6 => ChaseResult::Gap(2),
        3 | 4 => ChaseResult::Gap(1),
        -2..=2 => ChaseResult::Gap(0),
        -4 | -3 => ChaseResult::Gap(-1),
        -6 | -5 => ChaseResult::Gap(-2),
        _ => ChaseResult::Caught,
    }
}

/// The band after a round, counting Melee = 1 to Far = 5: `Err(Escaped)` beyond Far (or
/// on the table's +7), `Err(Caught)` at Melee (or on −7), else the new band.
pub fn chase_band(band: i32, result: ChaseResult) -> Result<i32, ChaseResult> {
    match result {
        ChaseResult::Escaped => Err(ChaseResult::Escaped),
        ChaseResult::Caught => Err(ChaseResult::Caught),
        ChaseResult::Gap(g) => {
            let b = band + g;
            if b > 5 {
                Err(ChaseResult::Escaped)
            } else if b <= 1 {
                Err(ChaseResult::Caught)
            } else {
                Ok(b)
            }
        }
    }
}
