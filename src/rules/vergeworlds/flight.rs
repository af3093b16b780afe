//! Flight (vergeworlds-rough-methods.txt, "Flight:"): floating, gliding on the glide table,
//! gliding in tactical movement, and powered flight, as plain functions over scores and values
//! (the Score-Value table of score.rs). Speeds are meters per turn, weights kilograms, gravity
//! in g.
//!
//! What is here:
//! - the glide table as data ([`GLIDE_TABLE`]) and a column index that shifts left (steeper)
//!   and right (shallower) within it ([`Column`]);
//! - Flight Strength, whether a glider can fly at all, optimum glide speed, stall speed (with
//!   ground effect and with thrust diverted downward), wingspan ([`Glider`]);
//! - tactical gliding turn by turn: gravity along the path, drag, flaps, thrust, stalling, free
//!   fall and pulling up ([`glide_turn`]);
//! - powered flight: the thrust that holds a flier up ([`hover_thrust`]), Breath cost
//!   ([`breath_cost`]), top, one-Breath and cruising speeds;
//! - floating: the neutral Density score by altitude, rising or sinking, floater drag.
//!
//! Decisions where the text is silent:
//! - A Glide score that is not whole flies in the column of the score rounded down; above 11
//!   in column 11 (the table ends there); below 0 in the "<0" (1/0, straight down) column.
//! - The drag base is the text's value of [-Glide score - 2× Action Score + 10] for every Glide
//!   score. For Glide 0 to 11 it equals the gravity at the glider's own column (tested); for
//!   non-gliders (Glide -2) it keeps the top-speed formula of "Powered Flight" exact.
//! - Gravity enters gliding only through Flight Strength ("Exotic Environments": already
//!   accounted for by the weight), so tactical gravity and drag take no gravity RS; only the
//!   thrust that holds a flier up does, as "Powered Flight" says.
//! - Drag is taken at the speed the turn starts with; the distance moved in a turn is the
//!   average of the speeds at its start and its end (steady acceleration over the turn).
//! - Stalling is judged when a turn starts: a flying glider stalls when its speed is under the
//!   stall speed ("slower than this"); a stalled glider falls straight down, without flaps,
//!   until a turn starts with its speed above the stall speed ("exceeds") and it chooses to
//!   pull up. A turn that ends under the stall speed leaves the glider stalled.
//! - Thrust acts along the path in every column, falling included; negative thrust brakes. The
//!   caller keeps thrust within the flier's Maneuver.
//! - Flaps give 0 to Lift Aid RS of drag; asking for more or less is held to that range.
//! - Ground effect applies while the altitude (height over the surface beneath) is at most
//!   the wingspan.
//! - A turn that would go below the ground stops at altitude 0, with the horizontal distance
//!   cut in the same proportion; the speed reported is the end-of-turn speed.
//! - Climbing in the "<0" column is a climb straight up.
//! - Breath counts forward and upward thrust added together (Maneuver diverted to one is taken
//!   off the other); thrust held against gravity is upward thrust; backward or downward thrust
//!   is free.
//! - Thrust diverted downward lowers the stall speed by ½ RS per full RS (the score difference
//!   rounded down) taken off gravity's pull; holding up all of gravity makes the stall speed 0.
//! - The score of the local gravity is kept to the nearest quarter like every score (score.rs):
//!   1/10 g is -6¾.
//! - The Density score for neutral buoyancy goes linearly with altitude from -7 at sea level to
//!   -7½ at Everest's 8,849 m, and on in a straight line above and below.
//!
//! Not here: exotic air densities, tucking wings, the angle-of-attack shifts outside tactical
//! movement (a steeper steady dive is [`Glider::steady_dive_speed`]), updrafts, Static Thrust,
//! and the Maneuver RS that follows a change of Flight Strength.

use super::score::{score, value};

/// One column of the glide table (vergeworlds-rough-methods.txt, "Flight:", Gliding).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GlideRow {
    /// The column heading: the Glide score, "<0" or "level".
    pub label: &'static str,
    /// Meters dropped per meter moved forward (infinite straight down, 0 in level flight).
    pub ratio: f64,
    /// The fraction of the distance moved along the path that is horizontal.
    pub horizontal: f64,
    /// The acceleration score of the column (negative infinity in level flight).
    pub acceleration_score: f64,
}

/// The glide table (vergeworlds-rough-methods.txt, "Flight:", Gliding), from the "<0" column
/// (straight down) through Glide 0 to 11 to level flight.
pub const GLIDE_TABLE: [GlideRow; 14] = [
    row("<0", f64::INFINITY, 0.0, 24.0),
    row("0", 2.0, 0.4, 23.0),
    row("1", 1.0, 0.7, 22.0),
    row("2", 1.0 / 2.0, 0.9, 21.0),
    row("3", 1.0 / 3.0, 0.95, 20.0),
    row("4", 1.0 / 4.0, 1.0, 19.0),
    row("5", 1.0 / 5.0, 1.0, 18.0),
    row("6", 1.0 / 7.0, 1.0, 17.0),
    row("7", 1.0 / 10.0, 1.0, 16.0),
    row("8", 1.0 / 15.0, 1.0, 15.0),
    row("9", 1.0 / 20.0, 1.0, 14.0),
    row("10", 1.0 / 30.0, 1.0, 13.0),
    row("11", 1.0 / 40.0, 1.0, 12.0),
    row("level", 0.0, 1.0, f64::NEG_INFINITY),
];

const fn row(label: &'static str, ratio: f64, horizontal: f64, acc: f64) -> GlideRow {
    GlideRow {
        label,
        ratio,
        horizontal,
        acceleration_score: acc,
    }
}

/// The index of the last column of [`GLIDE_TABLE`] (level flight).
const LEVEL_INDEX: u8 = 13;

/// A column of the glide table (vergeworlds-rough-methods.txt, "Flight:", Gliding): always
/// inside the table; shifting left is steeper, right is shallower.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Column(u8);

impl Column {
    /// The "<0" column: glide ratio 1/0, straight down (free fall).
    pub const STRAIGHT_DOWN: Column = Column(0);
    /// Level flight.
    pub const LEVEL: Column = Column(LEVEL_INDEX);

    /// The column of a Glide score (module doc: rounded down, held to the table).
    pub fn of_glide(glide: f64) -> Column {
        if glide.is_nan() || glide < 0.0 {
            return Column::STRAIGHT_DOWN;
        }
        Column(glide.floor().min(11.0) as u8 + 1)
    }

    /// `columns` to the left (steeper), stopping at the "<0" column.
    pub fn left(self, columns: u32) -> Column {
        let index = i64::from(self.0) - i64::from(columns);
        Column(index.max(0) as u8)
    }

    /// `columns` to the right (shallower), stopping at level flight.
    pub fn right(self, columns: u32) -> Column {
        let index = i64::from(self.0) + i64::from(columns);
        Column(index.min(i64::from(LEVEL_INDEX)) as u8)
    }

    /// The position in [`GLIDE_TABLE`] (0 for "<0", 1 to 12 for Glide 0 to 11, 13 for level).
    pub fn index(self) -> usize {
        usize::from(self.0.min(LEVEL_INDEX))
    }

    /// The Glide score heading the column, if it has one.
    pub fn glide_score(self) -> Option<i32> {
        match self.0 {
            1..=12 => Some(i32::from(self.0) - 1),
            _ => None,
        }
    }

    /// The column's row of data.
    pub fn row(self) -> GlideRow {
        GLIDE_TABLE[self.index()]
    }

    /// Meters dropped per meter moved forward.
    pub fn ratio(self) -> f64 {
        self.row().ratio
    }

    /// The horizontal fraction of the distance moved.
    pub fn horizontal_fraction(self) -> f64 {
        self.row().horizontal
    }

    /// The acceleration score.
    pub fn acceleration_score(self) -> f64 {
        self.row().acceleration_score
    }
}

/// Flight Strength (vergeworlds-rough-methods.txt, "Flight:", Gliding): score of [weight in
/// g×kg] - 13.
pub fn flight_strength(weight_kg: f64, gravity_g: f64) -> f64 {
    score(weight_kg * gravity_g) - 13.0
}

/// A winged flier (vergeworlds-rough-methods.txt, "Flight:", Gliding); also a powered flier,
/// whose Maneuver is passed where needed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glider {
    /// Weight with payload, kilograms.
    pub weight_kg: f64,
    /// Local gravity, in g.
    pub gravity_g: f64,
    /// Wing Area score (0 for non-gliders).
    pub wing_area: f64,
    /// Glide score (typically -2 for non-gliders).
    pub glide: f64,
    /// Lift Aid score (2 to 5 for gliders).
    pub lift_aid: f64,
    /// Size score.
    pub size: f64,
    /// Action Score.
    pub action_score: f64,
    /// Reach, meters.
    pub reach: f64,
}

impl Glider {
    /// Flight Strength ([`flight_strength`] of the weight and gravity).
    pub fn flight_strength(&self) -> f64 {
        flight_strength(self.weight_kg, self.gravity_g)
    }

    /// Whether the wings can lift the flier at all (vergeworlds-rough-methods.txt, "Flight:",
    /// Gliding): not when Load Strength is less than Flight Strength - 3.
    pub fn can_fly(&self, load_strength: f64) -> bool {
        load_strength >= self.flight_strength() - 3.0
    }

    /// The score of the speed at the optimum glide ratio (vergeworlds-rough-methods.txt,
    /// "Flight:", Gliding): (Flight Strength - Wing Area)/2 - Size - Action Score + 15.
    pub fn optimum_score(&self) -> f64 {
        (self.flight_strength() - self.wing_area) / 2.0 - self.size - self.action_score + 15.0
    }

    /// The speed at the optimum glide ratio, meters per turn.
    pub fn optimum_speed(&self) -> f64 {
        value(self.optimum_score())
    }

    /// The stall speed (vergeworlds-rough-methods.txt, "Flight:", Gliding): -(Lift Aid)/2 RS
    /// to the optimum speed, one RS less in ground effect ("Ground Effect").
    pub fn stall_speed(&self, ground_effect: bool) -> f64 {
        self.stall_speed_with_lift(ground_effect, 0.0)
    }

    /// The stall speed with `lift_thrust` meters per turn of Maneuver diverted downward
    /// (vergeworlds-rough-methods.txt, "Flight:", Powered Flight; see [`lift_stall_rs`]).
    pub fn stall_speed_with_lift(&self, ground_effect: bool, lift_thrust: f64) -> f64 {
        let ground = if ground_effect { 1.0 } else { 0.0 };
        let lift = lift_stall_rs(self.action_score, self.gravity_g, lift_thrust);
        value(self.optimum_score() - self.lift_aid / 2.0 - ground - lift)
    }

    /// The wingspan, meters (vergeworlds-rough-methods.txt, "Flight:", Wing Clearance): value
    /// of [Glide + Wing Area/2 + Size - 5.5], or the reach if that is more.
    pub fn wingspan(&self) -> f64 {
        value(self.glide + self.wing_area / 2.0 + self.size - 5.5).max(self.reach)
    }

    /// Whether a flier at `altitude` meters over the surface is in ground effect (module doc:
    /// within a wingspan).
    pub fn in_ground_effect(&self, altitude: f64) -> bool {
        altitude <= self.wingspan()
    }

    /// The column of the flier's own Glide score (its optimum glide ratio).
    pub fn own_column(&self) -> Column {
        Column::of_glide(self.glide)
    }

    /// The score of gravity's acceleration along the path in `column`
    /// (vergeworlds-rough-methods.txt, "Flight:", Gliding in Tactical Movement): the column's
    /// acceleration score - 13 - 2× Action Score. At the flier's own column this is the text's
    /// -Glide - 2× Action Score + 10, and each column left is +1 RS.
    pub fn gravity_score(&self, column: Column) -> f64 {
        column.acceleration_score() - 13.0 - 2.0 * self.action_score
    }

    /// Gravity's change to the speed in a turn in `column`, meters per turn: added when
    /// descending, subtracted when `climbing`, zero in level flight.
    pub fn gravity(&self, column: Column, climbing: bool) -> f64 {
        let pull = value(self.gravity_score(column));
        if climbing { -pull } else { pull }
    }

    /// The score of the drag at the optimum speed without flaps (module doc):
    /// -Glide - 2× Action Score + 10.
    pub fn drag_base_score(&self) -> f64 {
        -self.glide - 2.0 * self.action_score + 10.0
    }

    /// Drag's deceleration in a turn at `speed`, meters per turn
    /// (vergeworlds-rough-methods.txt, "Flight:", Gliding in Tactical Movement): the base
    /// shifted 2 RS per RS of speed over the optimum, plus `flaps_rs` (held to 0 to Lift Aid).
    pub fn drag(&self, speed: f64, flaps_rs: f64) -> f64 {
        let flaps = flaps_rs.max(0.0).min(self.lift_aid.max(0.0));
        value(self.drag_base_score() + 2.0 * (score(speed) - self.optimum_score()) + flaps)
    }

    /// The speed at which gravity and drag cancel when descending in `column` with `flaps_rs`
    /// of flaps; none in level flight. One column left of the flier's own gives ½ RS over the
    /// optimum (vergeworlds-rough-methods.txt, "Flight:", Gliding, angle of attack).
    pub fn steady_dive_speed(&self, column: Column, flaps_rs: f64) -> Option<f64> {
        if column == Column::LEVEL {
            return None;
        }
        let flaps = flaps_rs.max(0.0).min(self.lift_aid.max(0.0));
        let excess = self.gravity_score(column) - self.drag_base_score() - flaps;
        Some(value(self.optimum_score() + excess / 2.0))
    }

    /// The score of the top speed in level flight with a flying Maneuver of `maneuver`
    /// (vergeworlds-rough-methods.txt, "Flight:", Powered Flight): (score of [flying Maneuver]
    /// + Flight Strength + Glide - Wing Area)/2 - Size + 10.
    pub fn top_score(&self, maneuver: f64) -> f64 {
        (score(maneuver) + self.flight_strength() + self.glide - self.wing_area) / 2.0 - self.size
            + 10.0
    }

    /// The top speed in level flight, meters per turn (two Breath a turn).
    pub fn top_speed(&self, maneuver: f64) -> f64 {
        value(self.top_score(maneuver))
    }

    /// The level speed that costs one Breath a turn: the top speed -1 RS
    /// (vergeworlds-rough-methods.txt, "Flight:", Powered Flight).
    pub fn one_breath_speed(&self, maneuver: f64) -> f64 {
        value(self.top_score(maneuver) - 1.0)
    }

    /// The cruising speed in level flight: the top speed -2½ RS
    /// (vergeworlds-rough-methods.txt, "Flight:", Powered Flight).
    pub fn cruising_speed(&self, maneuver: f64) -> f64 {
        value(self.top_score(maneuver) - 2.5)
    }
}

/// A glider between turns (vergeworlds-rough-methods.txt, "Flight:", Gliding in Tactical
/// Movement).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GlideState {
    /// Airspeed along the path, meters per turn.
    pub speed: f64,
    /// Height over the surface beneath, meters.
    pub altitude: f64,
    /// The column flown in the last turn.
    pub column: Column,
    /// Whether the glider is stalled (falling straight down until it pulls up).
    pub stalled: bool,
}

/// What a glider does in a turn (vergeworlds-rough-methods.txt, "Flight:", Gliding in
/// Tactical Movement and Powered Flight).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GlideChoice {
    /// The column to fly: steeper to dive, [`Column::LEVEL`] to fly level.
    pub column: Column,
    /// Climb along the column instead of descending.
    pub climb: bool,
    /// RS of drag from flaps or angle of attack (0 to Lift Aid).
    pub flaps_rs: f64,
    /// Pull up out of a stall (done only when the speed exceeds the stall speed).
    pub pull_up: bool,
    /// Maneuver thrust along the path, meters per turn (negative brakes; 0 for a glider).
    pub thrust: f64,
    /// Maneuver diverted downward against gravity, meters per turn (lowers the stall speed).
    pub lift_thrust: f64,
}

impl GlideChoice {
    /// Unpowered gliding in `column`, without flaps, pulling up when able.
    pub fn glide(column: Column) -> GlideChoice {
        GlideChoice {
            column,
            climb: false,
            flaps_rs: 0.0,
            pull_up: true,
            thrust: 0.0,
            lift_thrust: 0.0,
        }
    }
}

/// The outcome of one turn of gliding.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GlideTurn {
    /// The glider after the turn.
    pub state: GlideState,
    /// Whether the glider flew its chosen column (false: it fell stalled).
    pub flew: bool,
    /// The stall speed when the turn started, meters per turn.
    pub stall_speed: f64,
    /// Gravity's change to the speed, meters per turn (negative when climbing).
    pub gravity: f64,
    /// Drag's deceleration, meters per turn.
    pub drag: f64,
    /// Horizontal distance moved, meters.
    pub horizontal: f64,
    /// Altitude lost, meters (negative when climbing).
    pub altitude_lost: f64,
    /// Whether the turn ended on the ground.
    pub reached_ground: bool,
}

/// One turn of tactical gliding or powered winged flight (vergeworlds-rough-methods.txt,
/// "Flight:", Gliding in Tactical Movement and Powered Flight; stalling and distances as in the
/// module doc). The new speed is the speed + gravity - drag + thrust, never below 0.
pub fn glide_turn(glider: &Glider, state: GlideState, choice: GlideChoice) -> GlideTurn {
    let speed = state.speed.max(0.0);
    let altitude = state.altitude.max(0.0);
    let lift = choice.lift_thrust.max(0.0);
    let stall_speed = glider.stall_speed_with_lift(glider.in_ground_effect(altitude), lift);
    let flew = if state.stalled {
        choice.pull_up && speed > stall_speed
    } else {
        speed >= stall_speed
    };
    let (column, climbing, flaps) = if flew {
        let climbing = choice.climb && choice.column != Column::LEVEL;
        (choice.column, climbing, choice.flaps_rs)
    } else {
        (Column::STRAIGHT_DOWN, false, 0.0)
    };

    let gravity = glider.gravity(column, climbing);
    let drag = glider.drag(speed, flaps);
    let new_speed = (speed + gravity - drag + choice.thrust).max(0.0);

    // Distance along the path: the average of the speeds at the turn's start and end.
    let path = (speed + new_speed) / 2.0;
    let mut horizontal = path * column.horizontal_fraction();
    let vertical = if column.ratio().is_infinite() {
        path
    } else {
        horizontal * column.ratio()
    };
    let mut altitude_lost = if climbing { -vertical } else { vertical };
    let mut reached_ground = false;
    if altitude_lost > 0.0 && altitude_lost >= altitude {
        horizontal *= altitude / altitude_lost;
        altitude_lost = altitude;
        reached_ground = true;
    }
    let new_altitude = altitude - altitude_lost;

    let stall_after = glider.stall_speed_with_lift(glider.in_ground_effect(new_altitude), lift);
    GlideTurn {
        state: GlideState {
            speed: new_speed,
            altitude: new_altitude,
            column,
            stalled: !flew || new_speed < stall_after,
        },
        flew,
        stall_speed,
        gravity,
        drag,
        horizontal,
        altitude_lost,
        reached_ground,
    }
}

/// The Maneuver a flier that neither floats nor glides must divert downward to stay up,
/// meters per turn (vergeworlds-rough-methods.txt, "Flight:", Powered Flight): value of
/// [14 - 2× Action Score], +1 RS per score of the local gravity against Earth's.
pub fn hover_thrust(action_score: f64, gravity_g: f64) -> f64 {
    value(hover_score(action_score, gravity_g))
}

fn hover_score(action_score: f64, gravity_g: f64) -> f64 {
    14.0 - 2.0 * action_score + score(gravity_g)
}

/// The RS taken off the stall speed by `lift_thrust` meters per turn diverted downward
/// (vergeworlds-rough-methods.txt, "Flight:", Powered Flight): ½ RS per full RS taken off
/// gravity's pull ([`hover_thrust`]); infinite when the thrust holds up all of it.
pub fn lift_stall_rs(action_score: f64, gravity_g: f64, lift_thrust: f64) -> f64 {
    if lift_thrust.is_nan() || lift_thrust <= 0.0 {
        return 0.0;
    }
    let pull = hover_score(action_score, gravity_g);
    let rest = value(pull) - lift_thrust;
    if rest <= 0.0 {
        return f64::INFINITY;
    }
    let full = (pull - score(rest) + 1e-9).floor().max(0.0);
    full / 2.0
}

/// Breath Points a turn of powered flight costs (vergeworlds-rough-methods.txt, "Flight:",
/// Powered Flight): 0 for up to 1/5 of the Maneuver, 2 for more than 1/2, 1 between. Only
/// forward and upward thrust count (module doc: added together).
pub fn breath_cost(maneuver: f64, forward_thrust: f64, upward_thrust: f64) -> u32 {
    let used = forward_thrust.max(0.0) + upward_thrust.max(0.0);
    if used * 5.0 <= maneuver {
        0
    } else if used * 2.0 > maneuver {
        2
    } else {
        1
    }
}

/// Everest's altitude, meters: where neutral buoyancy takes a Density score of -7½
/// (vergeworlds-rough-methods.txt, "Flight:", Floating).
pub const EVEREST_ALTITUDE_M: f64 = 8849.0;

/// Which way a floater goes (vergeworlds-rough-methods.txt, "Flight:", Floating).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Buoyancy {
    /// Lighter than the air: gains altitude.
    Rise,
    /// As dense as the air: stays.
    Neutral,
    /// Denser than the air: sinks.
    Sink,
}

/// The Density score that floats neutrally at `altitude_m` meters
/// (vergeworlds-rough-methods.txt, "Flight:", Floating; module doc: linear from -7 at sea
/// level to -7½ at Everest).
pub fn neutral_density_score(altitude_m: f64) -> f64 {
    -7.0 - 0.5 * altitude_m / EVEREST_ALTITUDE_M
}

/// The altitude, meters, at which a floater of `density_score` is neutral (where it ends up
/// rising or sinking to; below 0 for floaters denser than sea-level air).
pub fn neutral_altitude(density_score: f64) -> f64 {
    (-7.0 - density_score) / 0.5 * EVEREST_ALTITUDE_M
}

/// Whether a floater of `density_score` at `altitude_m` meters rises, sinks or stays
/// (vergeworlds-rough-methods.txt, "Flight:", Floating).
pub fn buoyancy(density_score: f64, altitude_m: f64) -> Buoyancy {
    let neutral = neutral_density_score(altitude_m);
    if (density_score - neutral).abs() < 1e-9 {
        Buoyancy::Neutral
    } else if density_score < neutral {
        Buoyancy::Rise
    } else {
        Buoyancy::Sink
    }
}

/// The drag on a floater that moved `distance` meters this turn, meters per turn
/// (vergeworlds-rough-methods.txt, "Flight:", Powered Flight, floaters): value of
/// \[2× score of \[distance\] - Size - Streamlining - 3× Density score - 18 + Action
/// Score\].
pub fn floater_drag(
    distance: f64,
    size: f64,
    streamlining: f64,
    density_score: f64,
    action_score: f64,
) -> f64 {
    value(2.0 * score(distance) - size - streamlining - 3.0 * density_score - 18.0 + action_score)
}

/// A floater's numbers (vergeworlds-rough-methods.txt, "Flight:", Floating).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Floater {
    /// Density score.
    pub density_score: f64,
    /// Size score.
    pub size: f64,
    /// Streamlining score.
    pub streamlining: f64,
    /// Action Score.
    pub action_score: f64,
    /// Meters a turn it rises or sinks (decision: the text gives no rate; its Maneuver).
    pub climb: f64,
}

/// A floater's turn (vergeworlds-rough-methods.txt, "Flight:", Floating, and Powered
/// Flight's drag for floaters): the altitude moves toward the one where its Density score
/// floats neutrally, by up to its climb rate; its speed is the old speed plus the thrust,
/// less the drag of that distance ([`floater_drag`]), never below 0 (without thrust or wind
/// a floater comes to rest). Returns the speed, the altitude and the drag.
pub fn float_turn(f: &Floater, speed: f64, altitude: f64, thrust: f64) -> (f64, f64, f64) {
    let goal = neutral_altitude(f.density_score).max(0.0);
    let altitude = if goal > altitude {
        (altitude + f.climb).min(goal)
    } else {
        (altitude - f.climb).max(goal)
    };
    let moving = speed + thrust;
    let drag = if moving > 0.0 {
        floater_drag(
            moving,
            f.size,
            f.streamlining,
            f.density_score,
            f.action_score,
        )
    } else {
        0.0
    };
    ((moving - drag).max(0.0), altitude, drag)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "Flight:", Floating: Density -7 floats neutrally at sea level, so a floater of -7 at
    /// 30 m sinks by its climb rate, 10 m a turn, and comes to rest on the ground; one of
    /// -7½ (neutral at Everest) rises 10 m a turn. Without thrust it keeps no speed: the
    /// drag of a Density -7 floater moving 10 m is value of [2 × score 10 - 0 - 0 + 21 - 18
    /// + 1], far above 10.
    #[test]
    fn a_floater_rises_or_sinks_toward_neutral_and_stops_without_thrust() {
        let sea = Floater {
            density_score: -7.0,
            size: 0.0,
            streamlining: 0.0,
            action_score: 1.0,
            climb: 10.0,
        };
        let everest = Floater {
            density_score: -7.5,
            ..sea
        };
        let (v, alt, drag) = float_turn(&sea, 10.0, 30.0, 0.0);
        assert_eq!(alt, 20.0);
        assert_eq!(v, 0.0);
        assert!(drag > 10.0);
        assert!(close(drag, floater_drag(10.0, 0.0, 0.0, -7.0, 1.0)));
        let (_, alt, _) = float_turn(&sea, 0.0, 5.0, 0.0);
        assert_eq!(alt, 0.0);
        let (v, alt, drag) = float_turn(&everest, 0.0, 100.0, 0.0);
        assert_eq!((v, alt, drag), (0.0, 110.0, 0.0));
    }

    fn close(actual: f64, expected: f64) -> bool {
        (actual - expected).abs() < 1e-9
    }

    /// 64 kg at 1 g (Flight Strength 12 - 13 = -1), Wing Area 5, Glide 4, Lift Aid 4, Size 0,
    /// Action Score 1, reach 1 m. Optimum (-1 - 5)/2 - 0 - 1 + 15 = 11: 45 m/turn. Stall
    /// 11 - 4/2 = 9: 22 m/turn. Drag base -4 - 2 + 10 = 4. Free fall gravity 24 - 13 - 2 = 9:
    /// 22 m/turn. Wingspan value of [4 + 2.5 + 0 - 5.5] = value of [1] = 1.4 m.
    fn glider() -> Glider {
        Glider {
            weight_kg: 64.0,
            gravity_g: 1.0,
            wing_area: 5.0,
            glide: 4.0,
            lift_aid: 4.0,
            size: 0.0,
            action_score: 1.0,
            reach: 1.0,
        }
    }

    /// vergeworlds-rough-methods.txt, "Flight:", Gliding: the glide table, column by column.
    #[test]
    fn the_glide_table_reads_as_printed() {
        let ratios = [
            f64::INFINITY,
            2.0,
            1.0,
            0.5,
            1.0 / 3.0,
            0.25,
            0.2,
            1.0 / 7.0,
            0.1,
            1.0 / 15.0,
            0.05,
            1.0 / 30.0,
            0.025,
            0.0,
        ];
        let fractions = [
            0.0, 0.4, 0.7, 0.9, 0.95, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
        ];
        for (i, entry) in GLIDE_TABLE.iter().enumerate() {
            assert_eq!(entry.ratio, ratios[i], "column {}", entry.label);
            assert_eq!(entry.horizontal, fractions[i], "column {}", entry.label);
            if i < 13 {
                assert_eq!(entry.acceleration_score, 24.0 - i as f64, "{}", entry.label);
            }
        }
        assert_eq!(GLIDE_TABLE[13].acceleration_score, f64::NEG_INFINITY);
        assert_eq!(Column::of_glide(7.0).row().label, "7");
        assert_eq!(Column::of_glide(7.0).glide_score(), Some(7));
        assert_eq!(Column::LEVEL.glide_score(), None);
    }

    /// vergeworlds-rough-methods.txt, "Flight:", Gliding: columns shift left (steeper) and
    /// right (shallower) within the table; Glide scores off the table land on its ends.
    #[test]
    fn columns_shift_within_the_table() {
        let seven = Column::of_glide(7.0);
        assert_eq!(seven.left(2), Column::of_glide(5.0));
        assert_eq!(seven.right(3), Column::of_glide(10.0));
        assert_eq!(seven.left(8), Column::STRAIGHT_DOWN);
        assert_eq!(seven.left(100), Column::STRAIGHT_DOWN);
        assert_eq!(seven.right(5), Column::LEVEL);
        assert_eq!(seven.right(100), Column::LEVEL);
        assert_eq!(Column::of_glide(-2.0), Column::STRAIGHT_DOWN);
        assert_eq!(Column::of_glide(7.5), seven);
        assert_eq!(Column::of_glide(14.0), Column::of_glide(11.0));
        assert_eq!(Column::of_glide(11.0).right(1), Column::LEVEL);
    }

    /// vergeworlds-rough-methods.txt, "Flight:", Gliding: a glide ratio of 1/10 drops 1 m for
    /// every 10 m forward. A Glide 7 glider at its optimum speed (gravity and drag cancel)
    /// keeps 45 m/turn, moves 45 m and drops 4.5 m.
    #[test]
    fn a_tenth_glide_ratio_drops_one_meter_in_ten() {
        // Glide 7, Wing Area 5, Action Score 1: optimum 11 (45 m/turn); gravity at column 7 is
        // 16 - 13 - 2 = 1, drag base -7 - 2 + 10 = 1.
        let g = Glider {
            glide: 7.0,
            ..glider()
        };
        let state = GlideState {
            speed: 45.0,
            altitude: 100.0,
            column: g.own_column(),
            stalled: false,
        };
        let turn = glide_turn(&g, state, GlideChoice::glide(g.own_column()));
        assert_eq!(turn.gravity, 1.4);
        assert_eq!(turn.drag, 1.4);
        assert_eq!(turn.state.speed, 45.0);
        assert!(close(turn.horizontal, 45.0));
        assert!(close(turn.altitude_lost, 4.5));
        assert!(close(turn.altitude_lost / turn.horizontal, 1.0 / 10.0));
        assert!(close(turn.state.altitude, 95.5));
    }

    /// vergeworlds-rough-methods.txt, "Flight:", Gliding: Flight Strength is score of [weight
    /// in g×kg] - 13.
    #[test]
    fn flight_strength_is_score_of_weight_less_thirteen() {
        // score of [90] = 13, of [64] = 12, of [45] = 11.
        assert_eq!(flight_strength(90.0, 1.0), 0.0);
        assert_eq!(flight_strength(64.0, 1.0), -1.0);
        assert_eq!(flight_strength(45.0, 2.0), 0.0);
        assert_eq!(flight_strength(900.0, 0.1), 0.0);
        assert_eq!(glider().flight_strength(), -1.0);
    }

    /// vergeworlds-rough-methods.txt, "Flight:", Gliding: a glider whose Load Strength is less
    /// than its Flight Strength - 3 cannot fly.
    #[test]
    fn too_weak_wings_cannot_fly() {
        // Flight Strength -1: Load Strength -4 is enough, -4.5 is not.
        assert!(glider().can_fly(-4.0));
        assert!(!glider().can_fly(-4.5));
    }

    /// vergeworlds-rough-methods.txt, "Flight:", Gliding and Ground Effect: optimum speed,
    /// stall speed at -(Lift Aid)/2 RS, one RS less in ground effect.
    #[test]
    fn optimum_and_stall_speeds() {
        let g = glider();
        assert_eq!(g.optimum_score(), 11.0);
        assert_eq!(g.optimum_speed(), 45.0);
        assert_eq!(g.stall_speed(false), 22.0);
        // 9 - 1 = 8: 16 m/turn.
        assert_eq!(g.stall_speed(true), 16.0);
        // Twice the weight: Flight Strength +2, optimum +1 RS.
        let heavy = Glider {
            weight_kg: 128.0,
            ..g
        };
        assert_eq!(heavy.optimum_speed(), 64.0);
    }

    /// vergeworlds-rough-methods.txt, "Flight:", Wing Clearance: the wingspan is value of
    /// [Glide + Wing Area/2 + Size - 5.5] or the reach, whichever is more; ground effect
    /// reaches a wingspan up.
    #[test]
    fn wingspan_and_ground_effect() {
        let g = glider();
        assert_eq!(g.wingspan(), 1.4);
        let long_arms = Glider { reach: 2.0, ..g };
        assert_eq!(long_arms.wingspan(), 2.0);
        // Glide 8, Wing Area 7: 8 + 3.5 + 0 - 5.5 = 6: 8 m.
        let soarer = Glider {
            glide: 8.0,
            wing_area: 7.0,
            ..g
        };
        assert_eq!(soarer.wingspan(), 8.0);
        assert!(g.in_ground_effect(1.4));
        assert!(!g.in_ground_effect(1.5));
    }

    /// vergeworlds-rough-methods.txt, "Flight:", Gliding in Tactical Movement: at the glider's
    /// own column, gravity's score (acceleration score - 13 - 2× Action Score) is the text's
    /// -Glide score - 2× Action Score + 10, for every Glide score on the table.
    #[test]
    fn own_column_gravity_is_the_texts_formula() {
        for glide in 0..=11 {
            for action in -2..=4 {
                let g = Glider {
                    glide: f64::from(glide),
                    action_score: f64::from(action),
                    ..glider()
                };
                let text = -f64::from(glide) - 2.0 * f64::from(action) + 10.0;
                assert_eq!(g.gravity_score(g.own_column()), text, "glide {glide}");
                assert_eq!(g.drag_base_score(), text);
                assert_eq!(g.gravity(g.own_column(), false), value(text));
            }
        }
    }

    /// vergeworlds-rough-methods.txt, "Flight:", Gliding in Tactical Movement: each column left
    /// is +1 RS of gravity, each right -1 RS, level is zero, climbing subtracts as much.
    #[test]
    fn gravity_by_column_level_and_climb() {
        let g = glider();
        let own = g.own_column();
        // Own column: 4 (4 m/turn); one left 5 (5.6); one right 3 (2.8); straight down 9 (22).
        assert_eq!(g.gravity(own, false), 4.0);
        assert_eq!(g.gravity(own.left(1), false), 5.6);
        assert_eq!(g.gravity(own.right(1), false), 2.8);
        assert_eq!(g.gravity(Column::STRAIGHT_DOWN, false), 22.0);
        assert_eq!(g.gravity(Column::LEVEL, false), 0.0);
        assert_eq!(g.gravity(own, true), -4.0);
    }

    /// vergeworlds-rough-methods.txt, "Flight:", Gliding in Tactical Movement: drag shifts 1 RS
    /// for every ½ RS of speed, and flaps add up to 1 RS per level of Lift Aid.
    #[test]
    fn drag_by_speed_and_flaps() {
        let g = glider();
        // At 45 (score 11): 4. At 64 (score 12): 4 + 2 = 6: 8. At 22 (score 9): 0: 1.
        assert_eq!(g.drag(45.0, 0.0), 4.0);
        assert_eq!(g.drag(64.0, 0.0), 8.0);
        assert_eq!(g.drag(22.0, 0.0), 1.0);
        assert_eq!(g.drag(0.0, 0.0), 0.0);
        // Flaps +3: 7: 11. Flaps beyond Lift Aid 4 stay at 4: 8: 16. Negative flaps do nothing.
        assert_eq!(g.drag(45.0, 3.0), 11.0);
        assert_eq!(g.drag(45.0, 9.0), 16.0);
        assert_eq!(g.drag(45.0, -2.0), 4.0);
    }

    /// vergeworlds-rough-methods.txt, "Flight:", Gliding (angle of attack): the tactical rules
    /// settle a dive k columns steeper at k/2 RS over the optimum speed.
    #[test]
    fn a_steeper_dive_settles_half_an_rs_faster_per_column() {
        let g = glider();
        let own = g.own_column();
        assert_eq!(g.steady_dive_speed(own, 0.0), Some(45.0));
        // Two columns left: gravity 6, drag 4 + 2(s - 11) = 6 at s = 12: 64.
        assert_eq!(g.steady_dive_speed(own.left(2), 0.0), Some(64.0));
        // Flaps 2 in that dive: 4 + 2(s - 11) + 2 = 6 at s = 11.
        assert_eq!(g.steady_dive_speed(own.left(2), 2.0), Some(45.0));
        assert_eq!(g.steady_dive_speed(Column::LEVEL, 0.0), None);
        // The speed really is steady in glide_turn.
        let state = GlideState {
            speed: 64.0,
            altitude: 500.0,
            column: own.left(2),
            stalled: false,
        };
        let turn = glide_turn(&g, state, GlideChoice::glide(own.left(2)));
        assert_eq!(turn.state.speed, 64.0);
    }

    /// vergeworlds-rough-methods.txt, "Flight:", Gliding in Tactical Movement: dropped from
    /// 1,000 m, the glider falls straight down until its speed exceeds its stall speed, pulls up
    /// into its optimum column, flies level with full flaps until drag slows it below stall,
    /// stalls and falls, then pulls up into a dive two columns steep. a = 2^1.75 (value of
    /// [3.5]), b = 2^-0.75 (value of [-1.5]).
    #[test]
    fn a_dropped_glider_falls_pulls_up_levels_stalls_and_dives() {
        let g = glider();
        let own = g.own_column();
        let a = 2f64.powf(1.75);
        let b = 2f64.powf(-0.75);
        let level_flaps = GlideChoice {
            flaps_rs: 4.0,
            ..GlideChoice::glide(Column::LEVEL)
        };
        let mut state = GlideState {
            speed: 0.0,
            altitude: 1000.0,
            column: Column::STRAIGHT_DOWN,
            stalled: true,
        };

        // 1: stalled at 0: gravity 22, drag 0: 22; drop (0 + 22)/2 = 11: 989.
        let t = glide_turn(&g, state, GlideChoice::glide(own));
        assert!(!t.flew);
        assert_eq!(t.state.speed, 22.0);
        assert_eq!(t.altitude_lost, 11.0);
        assert_eq!(t.horizontal, 0.0);
        assert_eq!(t.state.altitude, 989.0);
        assert!(t.state.stalled);
        state = t.state;

        // 2: 22 does not exceed the stall speed 22: still falling. Drag: score 9, 4 + 2(9 - 11)
        // = 0: 1. 22 + 22 - 1 = 43; drop (22 + 43)/2 = 32.5: 956.5.
        let t = glide_turn(&g, state, GlideChoice::glide(own));
        assert!(!t.flew);
        assert_eq!(t.drag, 1.0);
        assert_eq!(t.state.speed, 43.0);
        assert_eq!(t.state.altitude, 956.5);
        assert!(t.state.stalled);
        state = t.state;

        // 3: 43 > 22: pulls up into Glide 4 (1/4, all horizontal). Gravity 4. Drag: score of
        // [43] = 10.85, kept 10.75; 4 + 2(-0.25) = 3.5: a. 47 - a = 43.64. Path (43 + 47 - a)/2
        // = 45 - a/2, all horizontal; drop a quarter of it.
        let t = glide_turn(&g, state, GlideChoice::glide(own));
        assert!(t.flew);
        assert_eq!(t.gravity, 4.0);
        assert!(close(t.drag, a));
        assert!(close(t.state.speed, 47.0 - a));
        assert!(close(t.horizontal, 45.0 - a / 2.0));
        assert!(close(t.altitude_lost, (45.0 - a / 2.0) / 4.0));
        assert!(close(t.state.altitude, 956.5 - (45.0 - a / 2.0) / 4.0));
        assert!(!t.state.stalled);
        state = t.state;
        let cruising_altitude = state.altitude;

        // 4: level, flaps 4. score of [43.64] = 10.89, kept 11: 4 + 0 + 4 = 8: 16. 31 - a.
        // Path (47 - a + 31 - a)/2 = 39 - a, no drop.
        let t = glide_turn(&g, state, level_flaps);
        assert_eq!(t.gravity, 0.0);
        assert_eq!(t.drag, 16.0);
        assert!(close(t.state.speed, 31.0 - a));
        assert!(close(t.horizontal, 39.0 - a));
        assert_eq!(t.altitude_lost, 0.0);
        assert_eq!(t.state.altitude, cruising_altitude);
        state = t.state;

        // 5: score of [27.64] = 9.58, kept 9.5: 4 - 3 + 4 = 5: 5.6. 25.4 - a = 22.04, not
        // under 22.
        let t = glide_turn(&g, state, level_flaps);
        assert_eq!(t.drag, 5.6);
        assert!(close(t.state.speed, 25.4 - a));
        assert!(!t.state.stalled);
        state = t.state;

        // 6: score of [22.04] = 8.92, kept 9: 4 - 4 + 4 = 4: 4. 21.4 - a = 18.04 < 22: stalled.
        let t = glide_turn(&g, state, level_flaps);
        assert!(t.flew);
        assert_eq!(t.drag, 4.0);
        assert!(close(t.state.speed, 21.4 - a));
        assert!(t.state.stalled);
        state = t.state;

        // 7: stalled at 18.04: falls. score of [18.04] = 8.35, kept 8.25: 4 + 2(-2.75) = -1.5:
        // b. 21.4 - a + 22 - b = 43.4 - a - b = 39.44. Drop (21.4 - a + 43.4 - a - b)/2.
        let t = glide_turn(&g, state, GlideChoice::glide(own.left(2)));
        assert!(!t.flew);
        assert!(close(t.drag, b));
        assert!(close(t.state.speed, 43.4 - a - b));
        assert!(close(t.altitude_lost, 32.4 - a - b / 2.0));
        assert!(close(
            t.state.altitude,
            cruising_altitude - (32.4 - a - b / 2.0)
        ));
        state = t.state;

        // 8: 39.44 > 22: pulls up into Glide 2 (1/2, 0.9 horizontal). Gravity 21 - 13 - 2 = 6:
        // 8. score of [39.44] = 10.60, kept 10.5: 4 - 1 = 3: 2.8. 43.4 - a - b + 8 - 2.8 =
        // 48.6 - a - b. Path (43.4 + 48.6)/2 - a - b = 46 - a - b; 0.9 of it horizontal, half
        // that dropped.
        let t = glide_turn(&g, state, GlideChoice::glide(own.left(2)));
        assert!(t.flew);
        assert_eq!(t.gravity, 8.0);
        assert_eq!(t.drag, 2.8);
        assert!(close(t.state.speed, 48.6 - a - b));
        assert!(close(t.horizontal, 0.9 * (46.0 - a - b)));
        assert!(close(t.altitude_lost, 0.45 * (46.0 - a - b)));
        assert!(!t.state.stalled);
        assert_eq!(t.state.column, own.left(2));
    }

    /// vergeworlds-rough-methods.txt, "Flight:", Gliding in Tactical Movement: climbing takes
    /// gravity off the speed and gains altitude along the column.
    #[test]
    fn climbing_slows_and_gains_altitude() {
        let g = glider();
        let state = GlideState {
            speed: 45.0,
            altitude: 100.0,
            column: g.own_column(),
            stalled: false,
        };
        // Glide 4 climb: gravity -4, drag 4: 37. Path 41, climbs 41/4 = 10.25.
        let choice = GlideChoice {
            climb: true,
            ..GlideChoice::glide(g.own_column())
        };
        let t = glide_turn(&g, state, choice);
        assert_eq!(t.state.speed, 37.0);
        assert_eq!(t.horizontal, 41.0);
        assert_eq!(t.altitude_lost, -10.25);
        assert_eq!(t.state.altitude, 110.25);
    }

    /// vergeworlds-rough-methods.txt, "Flight:", Gliding in Tactical Movement: a glide that
    /// meets the ground ends there (module doc: the distance is cut in proportion).
    #[test]
    fn a_glide_into_the_ground_stops_at_it() {
        let g = glider();
        // At 45 in Glide 4 the glider would drop 45/4 = 11.25; from 4.5 m it covers 4.5/11.25
        // of the 45 m: 18 m.
        let state = GlideState {
            speed: 45.0,
            altitude: 4.5,
            column: g.own_column(),
            stalled: false,
        };
        let t = glide_turn(&g, state, GlideChoice::glide(g.own_column()));
        assert!(t.reached_ground);
        assert_eq!(t.state.altitude, 0.0);
        assert_eq!(t.altitude_lost, 4.5);
        assert!(close(t.horizontal, 18.0));
    }

    /// vergeworlds-rough-methods.txt, "Flight:", Powered Flight: flying level with a Maneuver of
    /// 16 from the optimum speed, the flier speeds up until drag equals its thrust, at the
    /// speed whose score is its top speed's. c = 2^2.75 (value of [5.5]).
    #[test]
    fn a_powered_flier_accelerates_until_thrust_equals_drag() {
        let g = glider();
        // Top: (score of [16] = 8 + -1 + 4 - 5)/2 - 0 + 10 = 13: 90 m/turn.
        assert_eq!(g.top_score(16.0), 13.0);
        assert_eq!(g.top_speed(16.0), 90.0);
        let c = 2f64.powf(2.75);
        let thrust = GlideChoice {
            thrust: 16.0,
            ..GlideChoice::glide(Column::LEVEL)
        };
        let mut state = GlideState {
            speed: 45.0,
            altitude: 500.0,
            column: Column::LEVEL,
            stalled: false,
        };
        // Drag score 4 + 2(score - 11) at score 11, 11.75 (57), 12 (66.27 → 12.10),
        // 12.5 (74.27 → 12.43), 12.5 (79.27 → 12.62), 12.75 (84.27 → 12.80),
        // 13 (86.82 → 12.88): 4, c, 8, 11, 11, 2^3.75, 16.
        let expected = [
            57.0,
            73.0 - c,
            81.0 - c,
            86.0 - c,
            91.0 - c,
            107.0 - c - 2f64.powf(3.75),
            107.0 - c - 2f64.powf(3.75),
        ];
        for (turn, speed) in expected.iter().enumerate() {
            let t = glide_turn(&g, state, thrust);
            assert!(
                close(t.state.speed, *speed),
                "turn {turn}: {}",
                t.state.speed
            );
            state = t.state;
        }
        // The last turn: drag 16 equals the thrust; the speed reads score 13, the top speed's.
        assert_eq!(g.drag(state.speed, 0.0), 16.0);
        assert_eq!(score(state.speed), g.top_score(16.0));
        // At the top speed itself the speed holds too.
        let top = GlideState {
            speed: 90.0,
            ..state
        };
        assert_eq!(glide_turn(&g, top, thrust).state.speed, 90.0);
    }

    /// vergeworlds-rough-methods.txt, "Flight:", Powered Flight: at top speed drag is the whole
    /// Maneuver (2 Breath), at top -1 RS half of it (1 Breath), at cruising (-2½ RS) about a
    /// fifth (no Breath).
    #[test]
    fn breath_at_top_one_breath_and_cruising_speed() {
        let g = glider();
        let m = 16.0;
        assert_eq!(g.one_breath_speed(m), 64.0);
        assert_eq!(g.drag(g.top_speed(m), 0.0), 16.0);
        assert_eq!(g.drag(g.one_breath_speed(m), 0.0), 8.0);
        // Cruising: 13 - 2.5 = 10.5 (2^5.25 = 38.05, score 10.5): drag 4 - 1 = 3: 2.8.
        assert!(close(g.cruising_speed(m), 2f64.powf(5.25)));
        assert_eq!(g.drag(g.cruising_speed(m), 0.0), 2.8);
        assert_eq!(breath_cost(m, g.drag(g.top_speed(m), 0.0), 0.0), 2);
        assert_eq!(breath_cost(m, g.drag(g.one_breath_speed(m), 0.0), 0.0), 1);
        assert_eq!(breath_cost(m, g.drag(g.cruising_speed(m), 0.0), 0.0), 0);
        // The fifth itself is free; past it one; braking and diving are free.
        assert_eq!(breath_cost(20.0, 4.0, 0.0), 0);
        assert_eq!(breath_cost(20.0, 4.5, 0.0), 1);
        assert_eq!(breath_cost(20.0, 3.0, 8.0), 2);
        assert_eq!(breath_cost(20.0, -20.0, -20.0), 0);
    }

    /// vergeworlds-rough-methods.txt, "Flight:", Powered Flight: holding up takes value of
    /// [14 - 2× Action Score] of Maneuver, +1 RS per score of the gravity against Earth's.
    #[test]
    fn hover_thrust_by_action_score_and_gravity() {
        // Action Score 1: 12: 64. A quarter g: score -4: 8: 16. Action Score 0: 14: 128;
        // at 2 g (score 2): 16: 256.
        assert_eq!(hover_thrust(1.0, 1.0), 64.0);
        assert_eq!(hover_thrust(1.0, 0.25), 16.0);
        assert_eq!(hover_thrust(0.0, 1.0), 128.0);
        assert_eq!(hover_thrust(0.0, 2.0), 256.0);
    }

    /// vergeworlds-rough-methods.txt, "Flight:", Powered Flight: every full RS taken off
    /// gravity's pull by thrust diverted downward is -½ RS to the stall speed.
    #[test]
    fn downward_thrust_lowers_the_stall_speed() {
        let g = glider();
        // Pull 12 (64). Divert 32: 32 left, score 10: 2 full RS, -1 RS: stall 9 - 1 = 8: 16.
        assert_eq!(lift_stall_rs(1.0, 1.0, 32.0), 1.0);
        assert_eq!(g.stall_speed_with_lift(false, 32.0), 16.0);
        // Divert 20: 44 left, score 11: 1 RS, -½: 2^4.25.
        assert_eq!(lift_stall_rs(1.0, 1.0, 20.0), 0.5);
        assert!(close(g.stall_speed_with_lift(false, 20.0), 2f64.powf(4.25)));
        // Divert 10: 54 left, score 11.5: not a full RS.
        assert_eq!(lift_stall_rs(1.0, 1.0, 10.0), 0.0);
        // All of it: no stall speed.
        assert_eq!(g.stall_speed_with_lift(false, 64.0), 0.0);
        // A stalled flier at 18 with 32 diverted (stall 16) can pull up.
        let state = GlideState {
            speed: 18.0,
            altitude: 300.0,
            column: Column::STRAIGHT_DOWN,
            stalled: true,
        };
        let choice = GlideChoice {
            lift_thrust: 32.0,
            ..GlideChoice::glide(g.own_column())
        };
        assert!(glide_turn(&g, state, choice).flew);
        assert!(!glide_turn(&g, state, GlideChoice::glide(g.own_column())).flew);
    }

    /// vergeworlds-rough-methods.txt, "Flight:", Floating: Density -7 floats at sea level,
    /// -7½ at the top of Everest; lighter rises, denser sinks.
    #[test]
    fn floating_by_density_and_altitude() {
        assert_eq!(buoyancy(-7.0, 0.0), Buoyancy::Neutral);
        assert_eq!(buoyancy(-7.5, EVEREST_ALTITUDE_M), Buoyancy::Neutral);
        assert_eq!(buoyancy(-7.5, 0.0), Buoyancy::Rise);
        assert_eq!(buoyancy(-7.0, EVEREST_ALTITUDE_M), Buoyancy::Sink);
        assert_eq!(buoyancy(-6.0, 0.0), Buoyancy::Sink);
        // Halfway up, -7¼.
        assert!(close(
            neutral_density_score(EVEREST_ALTITUDE_M / 2.0),
            -7.25
        ));
        assert!(close(neutral_altitude(-7.25), EVEREST_ALTITUDE_M / 2.0));
    }

    /// vergeworlds-rough-methods.txt, "Flight:", Powered Flight (floaters): drag is value of
    /// [2× score of [distance] - Size - Streamlining - 3× Density - 18 + Action Score].
    #[test]
    fn floater_drag_formula() {
        // 8 m (score 6), Size 6, Streamlining 2, Density -7, Action Score 1:
        // 12 - 6 - 2 + 21 - 18 + 1 = 8: 16.
        assert_eq!(floater_drag(8.0, 6.0, 2.0, -7.0, 1.0), 16.0);
        // Standing still: no drag.
        assert_eq!(floater_drag(0.0, 6.0, 2.0, -7.0, 1.0), 0.0);
    }
}
