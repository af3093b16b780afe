//! The hex map: shape, orientation, hex scale and terrain per hex, on hexx coordinates
//! (axial `(q, r)`), with movement costs, line of sight, cover along a line of fire and
//! pathfinding (the searches are in `paths.rs`, checked against hexx's A*).
//!
//! Terrain is stored densely over the bounding box of the map, so a look-up is an index
//! computation: pathfinding and line-of-sight checks run thousands of times per preview.

use bevy::ecs::resource::Resource;
use hexx::{EdgeDirection, Hex, HexOrientation};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

pub mod line;
mod paths;
mod sight;

pub use paths::{Entry, EntryCosts, OpenGoal};

/// No cell: a neighbour off the map (in [`HexMap`]'s neighbour table).
const NO_CELL: u32 = u32::MAX;
/// No cost: a cell that cannot be entered (off the map, blocked, or closed to a mover).
const NO_COST: u32 = u32::MAX;

/// The outline of a map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum MapShape {
    /// All hexes within `radius` of `(0, 0)`.
    Hexagon {
        /// Hexes from the centre to the edge.
        radius: u32,
    },
    /// `columns` by `rows` hexes laid out as a rectangle; the top-left hex is `(0, 0)` and
    /// rows go down. Coordinates stay axial, so `q` shifts by half a row per row
    /// (pointy orientation: hex `(col - row/2, row)`; flat: `(col, row - col/2)`).
    Rectangle {
        /// Hexes across.
        columns: u32,
        /// Hexes down.
        rows: u32,
    },
}

/// Pointy-topped or flat-topped hexes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Orientation {
    /// Pointy-topped: hex sides face East, NorthEast, NorthWest, West, SouthWest, SouthEast.
    #[default]
    Pointy,
    /// Flat-topped: hex sides face North, NorthEast, SouthEast, South, SouthWest, NorthWest.
    Flat,
}

impl Orientation {
    /// The hexx orientation.
    pub fn hexx(self) -> HexOrientation {
        match self {
            Orientation::Pointy => HexOrientation::Pointy,
            Orientation::Flat => HexOrientation::Flat,
        }
    }
}

/// How good a piece of cover is, by how much of a target it hides (the target-position
/// modifiers of gurps-traveller-gm-screen.txt, "RANGED ATTACK MODIFIERS").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Cover {
    /// Light cover (brush, a fence): "behind light cover".
    Light,
    /// Half the body hidden (a low wall): "body half exposed".
    Half,
    /// Only head and shoulders show (a parapet).
    Heavy,
}

/// What a hex is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Terrain {
    /// Open ground.
    #[default]
    Open,
    /// Rough ground: costs two movement points to enter.
    Difficult,
    /// Impassable and blocks line of sight (walls, rock).
    Blocked,
    /// Passable; protects a target standing in it or right behind it.
    Cover(Cover),
}

impl Terrain {
    /// Movement points to enter a hex of this terrain; `None` if it cannot be entered.
    pub fn move_cost(self) -> Option<u32> {
        match self {
            Terrain::Open | Terrain::Cover(_) => Some(1),
            Terrain::Difficult => Some(2),
            Terrain::Blocked => None,
        }
    }

    /// The cover this terrain gives, if any.
    pub fn cover(self) -> Option<Cover> {
        match self {
            Terrain::Cover(c) => Some(c),
            _ => None,
        }
    }
}

/// The battle map as a resource.
#[derive(Resource, Debug)]
pub struct HexMap {
    shape: MapShape,
    orientation: Orientation,
    /// Length of one hex in the ruleset's unit (yards for GURPS, meters elsewhere, or a
    /// ship-scale distance).
    pub scale: f32,
    /// Name of that unit, for display ("yd", "m", "mi").
    pub unit: &'static str,
    min: Hex,
    width: i32,
    cells: Vec<Option<Terrain>>,
    /// Each cell's neighbours, by cell index in [`EdgeDirection::ALL_DIRECTIONS`] order
    /// ([`NO_CELL`] off the map): what a path search steps along.
    links: Vec<[u32; 6]>,
    /// The hexes on the map with a neighbour off it, in map order ([`HexMap::edges`]).
    edges: Vec<Hex>,
    /// Movement points to enter each cell ([`NO_COST`] off the map or blocked).
    costs: Vec<u32>,
    /// The hex nearest the middle of the map ([`HexMap::middle`]).
    middle: Option<Hex>,
    count: usize,
    /// Line of sight and cover between every pair of cells, worked out once each (a small
    /// map; empty for a large one).
    pairs: sight::Pairs,
    /// Line of sight and cover of the pairs last asked of a large map.
    recent: sight::Recent,
    /// The hexes no one can enter, in map order ([`HexMap::walls_inside`]), found when
    /// first asked.
    walls: OnceLock<Vec<Hex>>,
}

impl Clone for HexMap {
    fn clone(&self) -> Self {
        Self {
            shape: self.shape,
            orientation: self.orientation,
            scale: self.scale,
            unit: self.unit,
            min: self.min,
            width: self.width,
            cells: self.cells.clone(),
            links: self.links.clone(),
            edges: self.edges.clone(),
            costs: self.costs.clone(),
            middle: self.middle,
            count: self.count,
            pairs: self.pairs.clone(),
            recent: self.recent.clone(),
            walls: self.walls.clone(),
        }
    }
}

impl HexMap {
    /// An open map of the given shape.
    pub fn new(shape: MapShape, orientation: Orientation, scale: f32, unit: &'static str) -> Self {
        let hexes = Self::shape_hexes(shape, orientation);
        let min = Hex::new(
            hexes.iter().map(|h| h.x).min().unwrap_or(0),
            hexes.iter().map(|h| h.y).min().unwrap_or(0),
        );
        let max = Hex::new(
            hexes.iter().map(|h| h.x).max().unwrap_or(0),
            hexes.iter().map(|h| h.y).max().unwrap_or(0),
        );
        let width = max.x - min.x + 1;
        let height = max.y - min.y + 1;
        let mut cells = vec![None; (width * height).max(0) as usize];
        for h in &hexes {
            let i = ((h.y - min.y) * width + (h.x - min.x)) as usize;
            cells[i] = Some(Terrain::Open);
        }
        let mut map = Self {
            shape,
            orientation,
            scale,
            unit,
            min,
            width,
            costs: cells
                .iter()
                .map(|c| c.and_then(Terrain::move_cost).unwrap_or(NO_COST))
                .collect(),
            cells,
            links: Vec::new(),
            edges: Vec::new(),
            middle: Self::mean(&hexes),
            count: hexes.len(),
            pairs: sight::Pairs::default(),
            recent: sight::Recent::default(),
            walls: OnceLock::new(),
        };
        map.links = (0..map.cells.len())
            .map(|i| {
                let here = map.hex_at(i);
                EdgeDirection::ALL_DIRECTIONS.map(|dir| {
                    map.index(here + dir)
                        .filter(|&j| map.cells[j].is_some())
                        .map_or(NO_CELL, |j| j as u32)
                })
            })
            .collect();
        map.edges = (0..map.cells.len())
            .filter(|&i| map.cells[i].is_some() && map.links[i].contains(&NO_CELL))
            .map(|i| map.hex_at(i))
            .collect();
        map.pairs = sight::Pairs::new(map.cells.len());
        map.recent = sight::Recent::new(map.cells.len());
        map
    }

    /// The mean of `hexes`' coordinates, each rounded toward zero; `None` without hexes.
    fn mean(hexes: &[Hex]) -> Option<Hex> {
        let n = hexes.len() as i64;
        let q: i64 = hexes.iter().map(|h| i64::from(h.x)).sum();
        let r: i64 = hexes.iter().map(|h| i64::from(h.y)).sum();
        (n > 0).then(|| Hex::new((q / n) as i32, (r / n) as i32))
    }

    /// The hex nearest the middle of the map: the mean of its hexes' coordinates, each
    /// rounded toward zero (worked out once: the shape never changes, and terrain does not
    /// count); `None` for a map without hexes.
    pub fn middle(&self) -> Option<Hex> {
        self.middle
    }

    /// Sight and cover from `from` to `to`, remembered or worked out and remembered.
    fn sight(&self, from: Hex, to: Hex) -> (bool, Option<Cover>) {
        let work = || {
            (
                self.compute_line_of_sight(from, to),
                self.compute_cover(from, to),
            )
        };
        if self.pairs.in_use() {
            match (self.index(from), self.index(to)) {
                (Some(a), Some(b)) => self.pairs.get(a * self.cells.len() + b, work),
                _ => work(),
            }
        } else {
            self.recent.get(from, to, work)
        }
    }

    /// The hexes no one can enter, when every hex of the line from `from` to `to` is on
    /// the map, so that only they (and not the map's edge) can stop a movement along it
    /// ([`line::Line::first_of`]); `None` when that is not known.
    ///
    /// A hexagonal map holds every hex within its radius of the middle. The points of the
    /// segment are no farther from the middle than its ends (a hexagon is convex), and a
    /// hex of the line lies within two hexes of its point ([`line::line`]'s rounding moves
    /// one axial coordinate by at most one and a half and the other by a half, so the
    /// third by at most two): with both ends two hexes inside the edge, the whole line is
    /// on the map. (Maps within [`line::FAR`] of the middle only.)
    pub fn walls_inside(&self, from: Hex, to: Hex) -> Option<&[Hex]> {
        let MapShape::Hexagon { radius } = self.shape else {
            return None;
        };
        if radius > line::FAR as u32 {
            return None;
        }
        let inside = |h: Hex| h.ulength().saturating_add(2) <= radius;
        if !(inside(from) && inside(to)) {
            return None;
        }
        let walls = self.walls.get_or_init(|| {
            self.hexes()
                .filter(|(_, t)| t.move_cost().is_none())
                .map(|(h, _)| h)
                .collect()
        });
        Some(walls)
    }

    fn shape_hexes(shape: MapShape, orientation: Orientation) -> Vec<Hex> {
        match shape {
            MapShape::Hexagon { radius } => hexx::shapes::hexagon(Hex::ZERO, radius).collect(),
            MapShape::Rectangle { columns, rows } => {
                let right = columns.max(1) as i32 - 1;
                let bottom = rows.max(1) as i32 - 1;
                match orientation {
                    Orientation::Pointy => {
                        hexx::shapes::pointy_rectangle([0, right, 0, bottom]).collect()
                    }
                    Orientation::Flat => {
                        hexx::shapes::flat_rectangle([0, right, 0, bottom]).collect()
                    }
                }
            }
        }
    }

    /// The map's outline.
    pub fn shape(&self) -> MapShape {
        self.shape
    }

    /// Pointy or flat.
    pub fn orientation(&self) -> Orientation {
        self.orientation
    }

    /// Number of hexes on the map.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True for a map without hexes (never produced by a valid scenario).
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    fn index(&self, hex: Hex) -> Option<usize> {
        // Checked: a saved decision may name any coordinates.
        let x = hex.x.checked_sub(self.min.x)?;
        let y = hex.y.checked_sub(self.min.y)?;
        if x < 0 || y < 0 || x >= self.width {
            return None;
        }
        let i = y.checked_mul(self.width)?.checked_add(x)? as usize;
        (i < self.cells.len()).then_some(i)
    }

    /// Terrain of `hex`, or `None` if it is off the map.
    pub fn terrain(&self, hex: Hex) -> Option<Terrain> {
        self.index(hex).and_then(|i| self.cells[i])
    }

    /// True if `hex` is on the map.
    pub fn contains(&self, hex: Hex) -> bool {
        self.terrain(hex).is_some()
    }

    /// Sets the terrain of a hex on the map; returns false if the hex is off the map.
    pub fn set_terrain(&mut self, hex: Hex, terrain: Terrain) -> bool {
        match self.index(hex) {
            Some(i) if self.cells[i].is_some() => {
                self.cells[i] = Some(terrain);
                self.costs[i] = terrain.move_cost().unwrap_or(NO_COST);
                self.pairs.forget();
                self.recent.forget();
                self.walls = OnceLock::new();
                true
            }
            _ => false,
        }
    }

    /// Every hex of the map with its terrain, row by row (a stable order).
    pub fn hexes(&self) -> impl Iterator<Item = (Hex, Terrain)> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.map(|t| (self.hex_at(i), t)))
    }

    /// True for a hex on the map with a neighbour off it: a fleeing unit leaves from here.
    pub fn is_edge(&self, hex: Hex) -> bool {
        self.index(hex)
            .is_some_and(|i| self.cells[i].is_some() && self.links[i].contains(&NO_CELL))
    }

    /// Every hex for which [`HexMap::is_edge`] holds, in the order of [`HexMap::hexes`]
    /// (found once, when the map is made: terrain never takes a hex off the map).
    pub fn edges(&self) -> &[Hex] {
        &self.edges
    }

    /// Movement points to enter `hex`, `None` if it is off the map or blocked.
    pub fn move_cost(&self, hex: Hex) -> Option<u32> {
        self.terrain(hex).and_then(Terrain::move_cost)
    }

    /// The nearest hex to `from` (itself first) that is on the map, not blocked and not
    /// `taken`: ring by ring, in hexx's order within a ring, as far as the map reaches.
    /// Where a copy or a new unit is put (the editor's copies, the GM's, a GCS character
    /// added to a scenario).
    pub fn nearest_open(&self, from: Hex, taken: impl Fn(Hex) -> bool) -> Option<Hex> {
        (0..=self.farthest_from(from))
            .flat_map(|r| from.ring(r))
            .find(|&h| self.move_cost(h).is_some() && !taken(h))
    }

    /// The hexes a straight line from `from` to `to` crosses, both ends included
    /// ([`line::line`]: hexx's `line_to`).
    pub fn line(&self, from: Hex, to: Hex) -> impl Iterator<Item = Hex> {
        line::line(from, to)
    }

    /// True if nothing blocked lies strictly between `from` and `to` and both are on the map.
    pub fn line_of_sight(&self, from: Hex, to: Hex) -> bool {
        self.sight(from, to).0
    }

    fn compute_line_of_sight(&self, from: Hex, to: Hex) -> bool {
        if !self.contains(from) || !self.contains(to) {
            return false;
        }
        line::line(from, to)
            .filter(|&h| h != from && h != to)
            .all(|h| matches!(self.terrain(h), Some(t) if t != Terrain::Blocked))
    }

    /// The best cover protecting a target at `target` from a shot fired from `from`: cover
    /// terrain in the target's own hex, or in the hex of the line of fire just before the
    /// target (unless that hex is next to the shooter, who would be shooting over it).
    pub fn cover_between(&self, from: Hex, target: Hex) -> Option<Cover> {
        self.sight(from, target).1
    }

    fn compute_cover(&self, from: Hex, target: Hex) -> Option<Cover> {
        let own = self.terrain(target).and_then(Terrain::cover);
        let line = line::line(from, target);
        let before = if line.len() >= 3 {
            let h = line.at(line.len() as u32 - 2);
            if h.distance_to(from) > 1 {
                self.terrain(h).and_then(Terrain::cover)
            } else {
                None
            }
        } else {
            None
        };
        own.max(before)
    }

    fn hex_at(&self, i: usize) -> Hex {
        let i = i as i32;
        Hex::new(self.min.x + i % self.width, self.min.y + i / self.width)
    }

    /// Sum of the movement costs of entering each hex of `path` after the first.
    pub fn path_cost(&self, path: &[Hex]) -> Option<u32> {
        path.iter().skip(1).map(|&h| self.move_cost(h)).sum()
    }
}

/// The hex `steps` hexes from `from` along the straight line to `to`, or `to` itself when
/// it is nearer than that.
pub fn step_toward(from: Hex, to: Hex, steps: u32) -> Hex {
    from.line_to(to).nth(steps as usize).unwrap_or(to)
}

/// A sample of the hexes a unit at `center` that moves up to `reach` hexes may end its
/// move in, for listing the decisions open to it: the six neighbours, the six hexes
/// `reach` away in straight lines, and for each hex of `toward` (the foes', say) the hex
/// `reach` along the line to it, stopping next to it. Hexes may repeat or lie off the
/// map: the ruleset's own check of each decision sorts them out.
pub fn sample_reach(center: Hex, reach: u32, toward: impl IntoIterator<Item = Hex>) -> Vec<Hex> {
    let mut out = Vec::with_capacity(16);
    if reach == 0 {
        return out;
    }
    for dir in EdgeDirection::ALL_DIRECTIONS {
        out.push(center + dir);
        out.push(center + dir * reach as i32);
    }
    for there in toward {
        let steps = reach.min(center.unsigned_distance_to(there).saturating_sub(1));
        if steps > 0 {
            out.push(step_toward(center, there, steps));
        }
    }
    out
}

/// A facing: one of the six hex sides, named by compass points. Pointy maps use East,
/// NorthEast, NorthWest, West, SouthWest and SouthEast; flat maps use North, NorthEast,
/// SouthEast, South, SouthWest and NorthWest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[allow(missing_docs)]
pub enum Compass {
    North,
    NorthEast,
    East,
    SouthEast,
    South,
    SouthWest,
    West,
    NorthWest,
}

impl Compass {
    /// The hexx direction of this compass point on a map of `orientation`, or `None` when
    /// that orientation has no hex side facing that way (East on a flat map, North on a
    /// pointy one).
    pub fn direction(self, orientation: Orientation) -> Option<EdgeDirection> {
        use Compass::*;
        match (orientation, self) {
            (Orientation::Pointy, East) => Some(EdgeDirection::POINTY_EAST),
            (Orientation::Pointy, NorthEast) => Some(EdgeDirection::POINTY_NORTH_EAST),
            (Orientation::Pointy, NorthWest) => Some(EdgeDirection::POINTY_NORTH_WEST),
            (Orientation::Pointy, West) => Some(EdgeDirection::POINTY_WEST),
            (Orientation::Pointy, SouthWest) => Some(EdgeDirection::POINTY_SOUTH_WEST),
            (Orientation::Pointy, SouthEast) => Some(EdgeDirection::POINTY_SOUTH_EAST),
            (Orientation::Flat, North) => Some(EdgeDirection::FLAT_NORTH),
            (Orientation::Flat, NorthEast) => Some(EdgeDirection::FLAT_NORTH_EAST),
            (Orientation::Flat, SouthEast) => Some(EdgeDirection::FLAT_SOUTH_EAST),
            (Orientation::Flat, South) => Some(EdgeDirection::FLAT_SOUTH),
            (Orientation::Flat, SouthWest) => Some(EdgeDirection::FLAT_SOUTH_WEST),
            (Orientation::Flat, NorthWest) => Some(EdgeDirection::FLAT_NORTH_WEST),
            _ => None,
        }
    }

    /// The compass name of a hexx direction on a map of `orientation`.
    pub fn of(direction: EdgeDirection, orientation: Orientation) -> Self {
        use Compass::*;
        let all = match orientation {
            Orientation::Pointy => [East, SouthEast, SouthWest, West, NorthWest, NorthEast],
            Orientation::Flat => [SouthEast, South, SouthWest, NorthWest, North, NorthEast],
        };
        all[direction.index() as usize % 6]
    }

    /// The six names valid for `orientation`.
    pub fn valid_for(orientation: Orientation) -> [Compass; 6] {
        use Compass::*;
        match orientation {
            Orientation::Pointy => [East, NorthEast, NorthWest, West, SouthWest, SouthEast],
            Orientation::Flat => [North, NorthEast, SouthEast, South, SouthWest, NorthWest],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A copy's hex: the nearest open one, the next ring when the first is all taken,
    /// past blocked ground, none when nothing on the map is free.
    #[test]
    fn a_copy_comes_in_on_the_nearest_open_hex() {
        let mut map = HexMap::new(
            MapShape::Hexagon { radius: 3 },
            Orientation::Pointy,
            1.0,
            "yd",
        );
        let at = Hex::ZERO;
        let found = map.nearest_open(at, |h| h == at).expect("a neighbour");
        assert_eq!(found.unsigned_distance_to(at), 1);
        let far = map
            .nearest_open(at, |h| h.unsigned_distance_to(at) < 2)
            .expect("ring 2");
        assert_eq!(far.unsigned_distance_to(at), 2);
        assert_eq!(map.nearest_open(at, |_| true), None);
        // Blocked ground is passed over; off the map nothing is found.
        for h in at.ring(1) {
            map.set_terrain(h, Terrain::Blocked);
        }
        let past = map.nearest_open(at, |h| h == at).expect("ring 2");
        assert_eq!(past.unsigned_distance_to(at), 2);
        let edge = Hex::new(3, 0);
        let near_edge = map.nearest_open(edge, |h| h == edge).expect("on the map");
        assert!(map.contains(near_edge));
    }

    #[test]
    fn hexagon_has_the_right_number_of_hexes() {
        let map = HexMap::new(
            MapShape::Hexagon { radius: 3 },
            Orientation::Pointy,
            1.0,
            "yd",
        );
        assert_eq!(map.len(), 37);
        assert!(map.contains(Hex::new(3, -3)));
        assert!(!map.contains(Hex::new(3, 1)));
        assert_eq!(map.hexes().count(), 37);
    }

    #[test]
    fn rectangle_has_the_right_number_of_hexes() {
        for orientation in [Orientation::Pointy, Orientation::Flat] {
            let map = HexMap::new(
                MapShape::Rectangle {
                    columns: 7,
                    rows: 5,
                },
                orientation,
                1.0,
                "yd",
            );
            assert_eq!(map.len(), 35);
            assert!(map.contains(Hex::ZERO));
        }
    }

    /// The edge list is every hex on the map with a neighbour off it, in map order, for
    /// hexagons and rectangles of either orientation, and stays so when terrain changes.
    #[test]
    fn the_edges_are_the_hexes_with_a_neighbour_off_the_map() {
        let shapes = [
            MapShape::Hexagon { radius: 0 },
            MapShape::Hexagon { radius: 1 },
            MapShape::Hexagon { radius: 7 },
            MapShape::Rectangle {
                columns: 1,
                rows: 1,
            },
            MapShape::Rectangle {
                columns: 9,
                rows: 4,
            },
            MapShape::Rectangle {
                columns: 12,
                rows: 15,
            },
        ];
        for shape in shapes {
            for orientation in [Orientation::Pointy, Orientation::Flat] {
                let mut map = HexMap::new(shape, orientation, 1.0, "yd");
                let by_neighbours = |map: &HexMap| -> Vec<Hex> {
                    map.hexes()
                        .map(|(h, _)| h)
                        .filter(|h| h.all_neighbors().iter().any(|&n| !map.contains(n)))
                        .collect()
                };
                let expected = by_neighbours(&map);
                assert!(!expected.is_empty(), "{shape:?}");
                assert_eq!(
                    map.edges(),
                    expected.as_slice(),
                    "{shape:?} {orientation:?}"
                );
                let first = expected[0];
                assert!(map.set_terrain(first, Terrain::Blocked));
                assert_eq!(map.edges(), by_neighbours(&map).as_slice());
                for (h, _) in map.hexes() {
                    assert_eq!(map.is_edge(h), expected.contains(&h), "{h:?}");
                }
                assert!(!map.is_edge(Hex::new(1000, -1000)));
            }
        }
    }

    #[test]
    fn walls_block_sight_and_movement() {
        let mut map = HexMap::new(
            MapShape::Hexagon { radius: 5 },
            Orientation::Pointy,
            1.0,
            "yd",
        );
        assert!(map.line_of_sight(Hex::new(-3, 0), Hex::new(3, 0)));
        assert!(map.set_terrain(Hex::ZERO, Terrain::Blocked));
        assert!(!map.line_of_sight(Hex::new(-3, 0), Hex::new(3, 0)));
        // the wall itself can be seen
        assert!(map.line_of_sight(Hex::new(-3, 0), Hex::ZERO));
        let path = map
            .path(Hex::new(-2, 0), Hex::new(2, 0), |h| map.move_cost(h))
            .unwrap();
        assert!(!path.contains(&Hex::ZERO));
        assert_eq!(map.path_cost(&path), Some(5));
        // an open straight line is taken as it is
        let path = map
            .path(Hex::new(-2, 1), Hex::new(2, 1), |h| map.move_cost(h))
            .unwrap();
        assert_eq!(path.len(), 5);
        assert!(!map.set_terrain(Hex::new(9, 9), Terrain::Open));
    }

    #[test]
    fn difficult_ground_costs_two() {
        let mut map = HexMap::new(
            MapShape::Hexagon { radius: 4 },
            Orientation::Pointy,
            1.0,
            "yd",
        );
        map.set_terrain(Hex::new(1, 0), Terrain::Difficult);
        assert_eq!(
            map.path_cost(&[Hex::ZERO, Hex::new(1, 0), Hex::new(2, 0)]),
            Some(3)
        );
    }

    #[test]
    fn cover_in_or_before_the_target_hex() {
        let mut map = HexMap::new(
            MapShape::Hexagon { radius: 6 },
            Orientation::Pointy,
            1.0,
            "yd",
        );
        map.set_terrain(Hex::new(4, 0), Terrain::Cover(Cover::Half));
        assert_eq!(
            map.cover_between(Hex::new(-4, 0), Hex::new(5, 0)),
            Some(Cover::Half)
        );
        assert_eq!(
            map.cover_between(Hex::new(-4, 0), Hex::new(4, 0)),
            Some(Cover::Half)
        );
        assert_eq!(map.cover_between(Hex::new(-4, 0), Hex::new(-2, 0)), None);
        // the shooter is right behind the cover: it does not protect the target
        assert_eq!(map.cover_between(Hex::new(5, 0), Hex::new(3, 0)), None);
        // asked again, the cached answers are the same
        assert_eq!(
            map.cover_between(Hex::new(-4, 0), Hex::new(5, 0)),
            Some(Cover::Half)
        );
        assert_eq!(map.cover_between(Hex::new(5, 0), Hex::new(3, 0)), None);
        // changing terrain forgets what was cached
        map.set_terrain(Hex::new(4, 0), Terrain::Open);
        assert_eq!(map.cover_between(Hex::new(-4, 0), Hex::new(5, 0)), None);
    }

    #[test]
    fn sampled_destinations_go_every_way_and_stop_next_to_the_foe() {
        let here = Hex::new(0, 0);
        assert_eq!(step_toward(here, Hex::new(5, 0), 2), Hex::new(2, 0));
        assert_eq!(step_toward(here, Hex::new(1, 0), 3), Hex::new(1, 0));
        assert_eq!(step_toward(here, here, 3), here);
        let hexes = sample_reach(here, 3, [Hex::new(6, 0), Hex::new(0, 2), Hex::new(1, 0)]);
        // six neighbours and six hexes three away, then toward each foe: three along the
        // line to the far one, next to the near one, nothing for the adjacent one
        assert_eq!(hexes.len(), 14);
        for dir in EdgeDirection::ALL_DIRECTIONS {
            assert!(hexes.contains(&(here + dir)));
            assert!(hexes.contains(&(here + dir * 3)));
        }
        assert_eq!(hexes[12..], [Hex::new(3, 0), Hex::new(0, 1)]);
        assert!(sample_reach(here, 0, [Hex::new(6, 0)]).is_empty());
    }

    #[test]
    fn compass_points_round_trip() {
        for o in [Orientation::Pointy, Orientation::Flat] {
            for c in Compass::valid_for(o) {
                let d = c.direction(o).unwrap();
                assert_eq!(Compass::of(d, o), c);
            }
        }
        assert_eq!(Compass::East.direction(Orientation::Flat), None);
        assert_eq!(Compass::North.direction(Orientation::Pointy), None);
    }

    /// The middle is the mean of the map's hexes, each coordinate rounded toward zero,
    /// for hexagons and rectangles of both orientations, walls or not.
    #[test]
    fn the_middle_is_the_mean_of_the_hexes() {
        let mut shapes: Vec<MapShape> = (1..6).map(|radius| MapShape::Hexagon { radius }).collect();
        for columns in [1, 2, 5, 12, 28] {
            for rows in [1, 3, 12, 40] {
                shapes.push(MapShape::Rectangle { columns, rows });
            }
        }
        for shape in shapes {
            for orientation in [Orientation::Pointy, Orientation::Flat] {
                let mut map = HexMap::new(shape, orientation, 1.0, "m");
                let hexes: Vec<Hex> = map.hexes().map(|(h, _)| h).collect();
                let n = hexes.len() as i64;
                let q: i64 = hexes.iter().map(|h| i64::from(h.x)).sum();
                let r: i64 = hexes.iter().map(|h| i64::from(h.y)).sum();
                let mean = Hex::new((q / n) as i32, (r / n) as i32);
                assert_eq!(map.middle(), Some(mean), "{shape:?} {orientation:?}");
                map.set_terrain(hexes[0], Terrain::Blocked);
                assert_eq!(map.middle(), Some(mean), "walls do not move it");
            }
        }
        let rectangle = HexMap::new(
            MapShape::Rectangle {
                columns: 5,
                rows: 3,
            },
            Orientation::Flat,
            1.0,
            "m",
        );
        assert_ne!(
            rectangle.middle(),
            Some(Hex::ZERO),
            "a rectangle's middle is not its corner"
        );
    }

    /// Line of sight and cover as the map's docs define them, walked along hexx's own line:
    /// the reference the remembered answers are checked against.
    fn reference_sight(map: &HexMap, from: Hex, to: Hex) -> (bool, Option<Cover>) {
        let hexes: Vec<Hex> = from.line_to(to).collect();
        let clear = map.contains(from)
            && map.contains(to)
            && hexes
                .iter()
                .filter(|&&h| h != from && h != to)
                .all(|&h| matches!(map.terrain(h), Some(t) if t != Terrain::Blocked));
        let before = (hexes.len() >= 3)
            .then(|| hexes[hexes.len() - 2])
            .filter(|h| h.distance_to(from) > 1)
            .and_then(|h| map.terrain(h))
            .and_then(Terrain::cover);
        (clear, map.terrain(to).and_then(Terrain::cover).max(before))
    }

    /// The answers a map remembers, of every pair of a small map and of the last pairs
    /// asked of a large one (radius 24: 1,801 cells), are those walked along hexx's line,
    /// asked once, again, and after the terrain changed; and the walls a line can meet are
    /// the map's blocked hexes, known only for a line two hexes inside a hexagon's edge.
    #[test]
    fn remembered_sight_is_the_walked_sight() {
        for radius in [6, 24] {
            let mut map = HexMap::new(MapShape::Hexagon { radius }, Orientation::Pointy, 1.0, "m");
            let terrain = |map: &mut HexMap, wall: usize, cover: usize| {
                for (i, h) in hexx::shapes::hexagon(Hex::ZERO, radius).enumerate() {
                    if i % wall == 0 {
                        map.set_terrain(h, Terrain::Blocked);
                    } else if i % cover == 0 {
                        map.set_terrain(h, Terrain::Cover(Cover::Half));
                    } else {
                        map.set_terrain(h, Terrain::Open);
                    }
                }
            };
            terrain(&mut map, 7, 11);
            let hexes: Vec<Hex> = hexx::shapes::hexagon(Hex::ZERO, radius + 2)
                .step_by(radius as usize / 2)
                .collect();
            for round in 0..3 {
                if round == 2 {
                    terrain(&mut map, 5, 3);
                }
                for &a in &hexes {
                    for &b in &hexes {
                        let (clear, cover) = reference_sight(&map, a, b);
                        assert_eq!(map.line_of_sight(a, b), clear, "{a:?} {b:?}");
                        assert_eq!(map.cover_between(a, b), cover, "{a:?} {b:?}");
                    }
                }
            }
            let walls: Vec<Hex> = map
                .hexes()
                .filter(|&(_, t)| t == Terrain::Blocked)
                .map(|(h, _)| h)
                .collect();
            let r = radius as i32;
            assert_eq!(
                map.walls_inside(Hex::new(r - 2, 0), Hex::new(2 - r, 0)),
                Some(&walls[..])
            );
            assert_eq!(map.walls_inside(Hex::new(r - 1, 0), Hex::ZERO), None);
        }
    }
}
