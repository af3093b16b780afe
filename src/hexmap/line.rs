//! The hexes a straight line crosses, exactly as [`Hex::line_to`] gives them, worked out
//! without its library calls and at any step of the line.
//!
//! [`Hex::line_to`] interpolates between the two centres in `f32` and rounds each point to
//! a hex ([`Hex::round`]), calling the C library's `roundf` three times and its software
//! `fmaf` once a hex on processors without those instructions; line of sight, cover and
//! the Vergeworlds vectors and stray shots walk such lines millions of times a preview.
//! [`line()`] does the same arithmetic in the same order and rounds without the calls:
//! - the interpolation is glam's `lerp`, `a * (1 - s) + b * s`, component by component,
//!   with `s = step / distance` as in [`Hex::line_to`];
//! - `round` rounds half away from zero as `f32::round` does, to an `i32` (only the sign
//!   of a zero could differ, and a zero adds nothing to a hex coordinate);
//! - the fused `0.5 * y + x` of [`Hex::round`] is summed in `f64`: `0.5 * y` is exact
//!   there, and the sum is exact unless one term is below 2⁻²⁹ of the other, in which case
//!   it lies far closer to the larger term than to any point where rounding to `f32`
//!   changes; either way its rounding to `f32` is the fused result.
//!
//! [`Line::first_of`] finds where a line first meets one of a set of hexes without working
//! out the hexes none of them is near. The tests compare [`line()`] with
//! [`Hex::line_to`] on every pair of hexes of a map.

use hexx::Hex;

/// The hexes from `from` to `to`, both included, as [`Hex::line_to`] gives them.
pub fn line(from: Hex, to: Hex) -> Line {
    let distance = from.unsigned_distance_to(to);
    Line {
        a: [from.x as f32, from.y as f32],
        b: [to.x as f32, to.y as f32],
        dist: distance.max(1) as f32,
        step: 0,
        end: distance + 1,
    }
}

/// The hexes of a [`line()`], in order; skipping hexes ([`Iterator::nth`], so
/// [`Iterator::skip`]) works none of them out.
#[derive(Clone, Debug)]
pub struct Line {
    a: [f32; 2],
    b: [f32; 2],
    dist: f32,
    step: u32,
    end: u32,
}

/// How far (in axial coordinates) a hex of a line may lie from the point of the segment
/// it rounds: rounding moves a coordinate by half a hex, the correction by one more
/// ([`hex_round`]); the sixteenth is room for the `f32` arithmetic of the point, whose
/// error stays within a few thousandths for coordinates within [`FAR`].
const NEAR: f64 = 1.5 + 1.0 / 16.0;

/// The coordinates (either way from the middle) for which [`Line::first_of`] holds.
pub const FAR: i32 = 4096;

impl Line {
    /// The hex at `step` of the line.
    pub fn at(&self, step: u32) -> Hex {
        let s = step as f32 / self.dist;
        let t = 1.0 - s;
        hex_round(self.a[0] * t + self.b[0] * s, self.a[1] * t + self.b[1] * s)
    }

    /// The first step after the start (1 to the distance) whose hex is one of `stops`,
    /// found without working out the hexes no stop is near: the same step as the first
    /// of the line's hexes, after its start, found among `stops`, for a line whose ends'
    /// coordinates lie within [`FAR`].
    ///
    /// Only the steps whose point of the segment lies within `NEAR` of a stop in both
    /// axial coordinates can have it as their hex; the point of step `i` is
    /// `a + (b - a) * i / n` in each coordinate, so those steps are an interval, worked out
    /// in `f64` (whose error is nothing beside the room `NEAR` leaves).
    pub fn first_of(&self, stops: impl IntoIterator<Item = Hex>) -> Option<u32> {
        debug_assert!(
            [self.a, self.b]
                .iter()
                .flatten()
                .all(|c| c.abs() <= FAR as f32),
            "first_of needs a line within FAR of the middle"
        );
        let last = self.end - 1;
        let n = f64::from(last);
        // Each coordinate's start and the steps one of its units spans (`None`: it does
        // not change along the line).
        let axes = [0, 1].map(|k| {
            let (a, b) = (f64::from(self.a[k]), f64::from(self.b[k]));
            (a, (b != a).then(|| n / (b - a)))
        });
        stops
            .into_iter()
            .filter_map(|h| {
                let (mut lo, mut hi) = (0.0_f64, n);
                for ((a, per), c) in axes.iter().zip([h.x, h.y]) {
                    let off = f64::from(c) - a;
                    match per {
                        None if off.abs() > NEAR => return None,
                        None => {}
                        Some(per) => {
                            let (t1, t2) = ((off - NEAR) * per, (off + NEAR) * per);
                            lo = lo.max(t1.min(t2));
                            hi = hi.min(t1.max(t2));
                        }
                    }
                }
                if lo > hi {
                    return None;
                }
                let (lo, hi) = ((lo.floor() as u32).max(1), (hi.ceil() as u32).min(last));
                (lo..=hi).find(|&i| self.at(i) == h)
            })
            .min()
    }
}

impl Iterator for Line {
    type Item = Hex;

    fn next(&mut self) -> Option<Hex> {
        if self.step >= self.end {
            return None;
        }
        let h = self.at(self.step);
        self.step += 1;
        Some(h)
    }

    fn nth(&mut self, n: usize) -> Option<Hex> {
        let left = (self.end - self.step) as usize;
        if n >= left {
            self.step = self.end;
            return None;
        }
        self.step += n as u32;
        self.next()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.end - self.step) as usize;
        (left, Some(left))
    }
}

impl ExactSizeIterator for Line {}

/// `v` rounded to the nearest whole number, halves away from zero, as `f32::round` (for
/// the coordinates of a map, well within `i32`), and what rounding took off: `v` less the
/// rounded value, in `f32`. The comparisons add 0 or 1 rather than branch: which way a
/// point of a line rounds is as good as random, and a mispredicted branch costs more than
/// the rounding.
fn round(v: f32) -> (i32, f32) {
    // The conversion truncates toward zero, and what it cuts off is exact in `f32`.
    let t = v as i32;
    let cut = v - t as f32;
    let r = t + i32::from(cut >= 0.5) - i32::from(cut <= -0.5);
    (r, v - r as f32)
}

/// The hex of fractional axial coordinates `(x, y)`, as [`Hex::round`]: each coordinate
/// rounded, then the one rounding moved more corrected by half the other's residue (both
/// corrections are worked out and one kept, again without a branch).
fn hex_round(x: f32, y: f32) -> Hex {
    let (x_r, x) = round(x);
    let (y_r, y) = round(y);
    let along_x = x.abs() >= y.abs();
    let dx = round(half_plus(y, x)).0;
    let dy = round(half_plus(x, y)).0;
    Hex::new(
        x_r + if along_x { dx } else { 0 },
        y_r + if along_x { 0 } else { dy },
    )
}

/// `0.5 * y + x` rounded once, as `0.5_f32.mul_add(y, x)` (see the module's notes).
fn half_plus(y: f32, x: f32) -> f32 {
    (0.5 * f64::from(y) + f64::from(x)) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line between two hexes of a hexagon of radius 12, and long lines across a
    /// larger one, are [`Hex::line_to`]'s, also when hexes are skipped.
    #[test]
    fn lines_are_the_libraries() {
        let hexes: Vec<Hex> = hexx::shapes::hexagon(Hex::ZERO, 12).collect();
        for &a in &hexes {
            for &b in &hexes {
                assert!(line(a, b).eq(a.line_to(b)), "{a:?} to {b:?}");
            }
        }
        let far: Vec<Hex> = hexx::shapes::hexagon(Hex::ZERO, 90).step_by(97).collect();
        for &a in &far {
            for &b in &far {
                assert!(line(a, b).eq(a.line_to(b)), "{a:?} to {b:?}");
                let n = (a.unsigned_distance_to(b) / 2) as usize;
                assert!(line(a, b).skip(n).eq(a.line_to(b).skip(n)));
                assert_eq!(line(a, b).len(), a.line_to(b).len());
            }
        }
    }

    /// The first stop a line meets, found from the stops, is the one its hexes meet.
    #[test]
    fn first_stops_are_the_walks() {
        let mut seed = 7u64;
        let mut next = |n: i32| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) % n as u64) as i32
        };
        for _ in 0..20_000 {
            let a = Hex::new(next(61) - 30, next(61) - 30);
            let b = Hex::new(next(61) - 30, next(61) - 30);
            let stops: Vec<Hex> = (0..next(20))
                .map(|_| {
                    if next(2) == 0 {
                        // On the line, or next to it.
                        let l = line(a, b);
                        let h = l.at(next(l.len() as i32) as u32);
                        h + Hex::new(next(3) - 1, next(3) - 1)
                    } else {
                        Hex::new(next(61) - 30, next(61) - 30)
                    }
                })
                .collect();
            let walked = line(a, b)
                .skip(1)
                .position(|h| stops.contains(&h))
                .map(|p| p as u32 + 1);
            assert_eq!(line(a, b).first_of(stops.iter().copied()), walked);
        }
    }

    /// Rounding halves away from zero, as the standard library.
    #[test]
    fn rounding_is_the_standard_librarys() {
        for i in -4000..=4000 {
            let v = i as f32 / 8.0;
            assert_eq!(round(v), (v.round() as i32, v - v.round()), "{v}");
            let w = f32::from_bits(v.to_bits().wrapping_add(1));
            assert_eq!(round(w), (w.round() as i32, w - w.round()), "{w}");
        }
        for v in [0.49999997_f32, -0.49999997, 0.5, -0.5, 1.5, -2.5, 8388607.5] {
            assert_eq!(round(v).0, v.round() as i32, "{v}");
        }
    }

    /// The sum rounded once is the fused multiply-add's.
    #[test]
    fn half_plus_is_fused() {
        let mut seed = 12345u64;
        for _ in 0..200_000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let x = ((seed >> 40) as f32 / (1u64 << 24) as f32) - 0.5;
            let y = ((seed >> 16 & 0xFF_FFFF) as f32 / (1u64 << 24) as f32) - 0.5;
            assert_eq!(half_plus(y, x), 0.5_f32.mul_add(y, x), "{x} {y}");
        }
    }
}
