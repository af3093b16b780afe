//! Knockback (gurps-lite-and-socs.txt, "KNOCKBACK"): how far a blow throws its target, the
//! hexes the target is pushed through on the map, and the roll to stay on its feet.

use super::tables::DamageType;
use crate::dice::Modifier;
use hexx::Hex;

/// Whether an attack can knock its target back: crushing attacks always, cutting attacks
/// only when they fail to penetrate DR (decision: 4e Basic Set p. B378; the quick reference
/// gives the distance but not which attacks cause it).
pub fn causes_knockback(damage_type: DamageType, penetrated: bool) -> bool {
    match damage_type {
        DamageType::Crushing => true,
        DamageType::Cutting => !penetrated,
        _ => false,
    }
}

/// Yards of knockback from `basic` damage (rolled, before DR) on a target with strength
/// `st` (`None`: no ST score, or not resisting) and hit points `hp`
/// (gurps-lite-and-socs.txt, "KNOCKBACK": one yard per full multiple of ST − 2; one yard
/// per point at ST 3 or less; HP in place of ST when there is no ST).
pub fn knockback_yards(basic: i32, st: Option<i32>, hp: i32) -> u32 {
    let basic = basic.max(0) as u32;
    let resist = st.unwrap_or(hp);
    if resist <= 3 {
        return basic;
    }
    basic / (resist - 2) as u32
}

/// What stopped a knockback before its full distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop<U> {
    /// A blocked hex or the map's edge.
    Obstacle,
    /// Another fighter.
    Unit(U),
}

/// The hexes a target at `target` is pushed through when struck from `from`: up to `hexes`
/// steps directly away from the attacker along the hex line from `from` through `target`
/// (the target's own hex first). The push stops before a hex where `blocked` says there is
/// an obstacle or a unit. Returns the path and what stopped it early, if anything.
pub fn knockback_path<U>(
    from: Hex,
    target: Hex,
    hexes: u32,
    mut blocked: impl FnMut(Hex) -> Option<Stop<U>>,
) -> (Vec<Hex>, Option<Stop<U>>) {
    let mut path = vec![target];
    if hexes == 0 {
        return (path, None);
    }
    let d = from.unsigned_distance_to(target).max(1);
    let away = if from == target {
        // Struck from its own hex (cannot happen with reach 1+); push along a fixed side.
        Hex::new(1, 0)
    } else {
        target - from
    };
    // A point far enough beyond the target that the line through it covers `hexes` steps.
    let factor = (hexes + d).div_ceil(d) as i32 + 1;
    let far = from + away * factor;
    let line: Vec<Hex> = from.line_to(far).collect();
    let start = line.iter().position(|&h| h == target).unwrap_or(0);
    for &h in line.iter().skip(start + 1).take(hexes as usize) {
        if let Some(stop) = blocked(h) {
            return (path, Some(stop));
        }
        path.push(h);
    }
    (path, None)
}

/// Modifiers of the roll to keep one's feet after `yards` of knockback: the best of DX,
/// Acrobatics or Judo, −1 per yard after the first (gurps-lite-and-socs.txt, "KNOCKBACK").
/// `best` is that score with its name.
pub fn keep_feet_modifiers(best: Modifier, yards: u32) -> Vec<Modifier> {
    let mut mods = vec![best];
    if yards > 1 {
        mods.push(Modifier::new(
            "knockback after the first yard",
            -((yards - 1) as i32),
        ));
    }
    mods
}

#[cfg(test)]
mod tests {
    use super::*;

    /// gurps-lite-and-socs.txt "KNOCKBACK": a yard per full multiple of ST − 2 of basic
    /// damage. ST 10: 7 damage none, 8 one yard, 16 two, 23 two.
    #[test]
    fn yards_per_multiple_of_st_minus_2() {
        assert_eq!(knockback_yards(7, Some(10), 10), 0);
        assert_eq!(knockback_yards(8, Some(10), 10), 1);
        assert_eq!(knockback_yards(16, Some(10), 10), 2);
        assert_eq!(knockback_yards(23, Some(10), 10), 2);
        assert_eq!(knockback_yards(-2, Some(10), 10), 0);
    }

    /// "If the target has ST 3 or less, knockback is one yard per point of basic damage";
    /// no ST: use HP.
    #[test]
    fn weak_targets_and_targets_without_st() {
        assert_eq!(knockback_yards(5, Some(3), 3), 5);
        assert_eq!(knockback_yards(5, Some(1), 8), 5);
        assert_eq!(knockback_yards(24, None, 14), 2); // HP 14: multiples of 12
    }

    #[test]
    fn which_attacks_knock_back() {
        assert!(causes_knockback(DamageType::Crushing, true));
        assert!(causes_knockback(DamageType::Cutting, false));
        assert!(!causes_knockback(DamageType::Cutting, true));
        assert!(!causes_knockback(DamageType::Impaling, false));
    }

    #[test]
    fn pushed_straight_away_along_the_hex_line() {
        let (path, stop) = knockback_path::<()>(Hex::ZERO, Hex::new(1, 0), 3, |_| None);
        assert_eq!(
            path,
            vec![
                Hex::new(1, 0),
                Hex::new(2, 0),
                Hex::new(3, 0),
                Hex::new(4, 0)
            ]
        );
        assert_eq!(stop, None);
        // from two hexes away, diagonally: every step is one hex further from the attacker
        let from = Hex::new(-1, -1);
        let (path, _) = knockback_path::<()>(from, Hex::ZERO, 4, |_| None);
        assert_eq!(path.len(), 5);
        for pair in path.windows(2) {
            assert_eq!(pair[0].unsigned_distance_to(pair[1]), 1);
            assert_eq!(
                from.unsigned_distance_to(pair[1]),
                from.unsigned_distance_to(pair[0]) + 1
            );
        }
    }

    #[test]
    fn stops_at_walls_and_fighters() {
        let wall = Hex::new(3, 0);
        let (path, stop) = knockback_path::<u32>(Hex::ZERO, Hex::new(1, 0), 4, |h| {
            (h == wall).then_some(Stop::Obstacle)
        });
        assert_eq!(path, vec![Hex::new(1, 0), Hex::new(2, 0)]);
        assert_eq!(stop, Some(Stop::Obstacle));
        let (path, stop) = knockback_path(Hex::ZERO, Hex::new(1, 0), 4, |h| {
            (h == Hex::new(2, 0)).then_some(Stop::Unit(7))
        });
        assert_eq!(path, vec![Hex::new(1, 0)]);
        assert_eq!(stop, Some(Stop::Unit(7)));
    }

    /// "−1 per yard after the first".
    #[test]
    fn keeping_ones_feet() {
        let best = Modifier::new("DX", 12);
        assert_eq!(keep_feet_modifiers(best.clone(), 1).len(), 1);
        let m = keep_feet_modifiers(best, 3);
        assert_eq!(m.iter().map(|m| m.value).sum::<i32>(), 10);
    }
}
