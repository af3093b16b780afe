//! The hex map: shape, orientation, hex scale and terrain per hex, on hexx coordinates
//! (axial `(q, r)`), with movement costs, line of sight, cover along a line of fire and
//! pathfinding (hexx A*).
//!
//! Terrain is stored densely over the bounding box of the map, so a look-up is an index
//! computation: pathfinding and line-of-sight checks run thousands of times per preview.

use bevy::ecs::resource::Resource;
use hexx::{EdgeDirection, Hex, HexOrientation};
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicU8, Ordering};

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

/// The buffers of a path search, kept between searches on one thread: a battle of many
/// fighters searches thousands of times a round, and clearing a fresh cost and trail for
/// every (hex, facing) state each time was a fifth of the work.
#[derive(Default)]
struct Scratch {
    best: Stamped,
    /// The state each state was reached from and the step's cost; read only along the
    /// path found, every entry of which this search wrote.
    came_from: Vec<(usize, u32)>,
    open: BinaryHeap<Reverse<(u32, u32, usize)>>,
    /// The cells still to look from, of [`HexMap::reachable`]'s flood.
    queue: Vec<usize>,
}

impl Scratch {
    /// Ready for a search over `n` states.
    fn begin(&mut self, n: usize) {
        self.best.begin(n);
        if self.came_from.len() < n {
            self.came_from.resize(n, (usize::MAX, 0));
        }
        self.open.clear();
        self.queue.clear();
    }
}

/// The best cost found for each state, all unknown (`u32::MAX`) when a search begins
/// without clearing: a value counts only when stamped with the current search.
#[derive(Default)]
struct Stamped {
    values: Vec<u32>,
    stamps: Vec<u32>,
    search: u32,
}

impl Stamped {
    fn begin(&mut self, n: usize) {
        if self.stamps.len() < n {
            self.stamps.resize(n, 0);
            self.values.resize(n, u32::MAX);
        }
        self.search = self.search.wrapping_add(1);
        if self.search == 0 {
            self.stamps.fill(0);
            self.search = 1;
        }
    }

    fn get(&self, i: usize) -> u32 {
        if self.stamps[i] == self.search {
            self.values[i]
        } else {
            u32::MAX
        }
    }

    fn set(&mut self, i: usize, value: u32) {
        self.stamps[i] = self.search;
        self.values[i] = value;
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

/// Runs `f` with this thread's search buffers (fresh ones if a search is already using
/// them further up the stack).
fn with_scratch<T>(f: impl FnOnce(&mut Scratch) -> T) -> T {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => f(&mut scratch),
        Err(_) => f(&mut Scratch::default()),
    })
}

/// Some hexes of a map ([`HexMap::hex_set`]).
#[derive(Clone, Debug)]
pub struct HexSet<'a> {
    map: &'a HexMap,
    /// By the map's cell index.
    flags: Vec<bool>,
}

/// A value for some hexes of one map, kept by the map's cell index: what a search over the
/// map remembers per hex (a cost so far), without hashing ([`HexMap::hex_values`]).
#[derive(Clone, Debug)]
pub struct HexValues<'a, T> {
    map: &'a HexMap,
    /// By the map's cell index.
    values: Vec<Option<T>>,
}

impl<T: Copy> HexValues<'_, T> {
    /// The value of `hex`, if it has one (never for a hex off the map).
    pub fn get(&self, hex: Hex) -> Option<T> {
        self.map.index(hex).and_then(|i| self.values[i])
    }

    /// Gives `hex` the value `value`; false (and nothing kept) for a hex off the map.
    pub fn set(&mut self, hex: Hex, value: T) -> bool {
        match self.map.index(hex) {
            Some(i) => {
                self.values[i] = Some(value);
                true
            }
            None => false,
        }
    }
}

impl HexSet<'_> {
    /// True if `hex` is in the set.
    pub fn contains(&self, hex: Hex) -> bool {
        self.map.index(hex).is_some_and(|i| self.flags[i])
    }
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
    count: usize,
    /// Line of sight and cover between pairs of hexes, worked out once each: terrain does
    /// not change during a battle, and the preview asks the same questions millions of
    /// times. One byte per ordered pair of cells ([`SIGHT_KNOWN`] set once computed); empty
    /// for maps too large to cache.
    sight: Vec<AtomicU8>,
}

/// Largest bounding box (in cells) whose pairs are cached: 1,600 cells, 2.56 MB.
const SIGHT_CACHE_CELLS: usize = 1600;
const SIGHT_KNOWN: u8 = 0x80;
const SIGHT_CLEAR: u8 = 0x40;

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
            count: self.count,
            sight: self
                .sight
                .iter()
                .map(|b| AtomicU8::new(b.load(Ordering::Relaxed)))
                .collect(),
        }
    }
}

fn cover_code(cover: Option<Cover>) -> u8 {
    match cover {
        None => 0,
        Some(Cover::Light) => 1,
        Some(Cover::Half) => 2,
        Some(Cover::Heavy) => 3,
    }
}

fn cover_of_code(code: u8) -> Option<Cover> {
    match code & 3 {
        1 => Some(Cover::Light),
        2 => Some(Cover::Half),
        3 => Some(Cover::Heavy),
        _ => None,
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
        Self {
            shape,
            orientation,
            scale,
            unit,
            min,
            width,
            cells,
            count: hexes.len(),
            sight: Vec::new(),
        }
        .with_sight_cache()
    }

    fn with_sight_cache(mut self) -> Self {
        let n = self.cells.len();
        self.sight = if n <= SIGHT_CACHE_CELLS {
            (0..n * n).map(|_| AtomicU8::new(0)).collect()
        } else {
            Vec::new()
        };
        self
    }

    /// Sight and cover from `from` to `to`, from the cache or worked out and cached.
    fn sight(&self, from: Hex, to: Hex) -> (bool, Option<Cover>) {
        let slot = match (self.index(from), self.index(to)) {
            (Some(a), Some(b)) if !self.sight.is_empty() => {
                self.sight.get(a * self.cells.len() + b)
            }
            _ => None,
        };
        if let Some(slot) = slot {
            let byte = slot.load(Ordering::Relaxed);
            if byte & SIGHT_KNOWN != 0 {
                return (byte & SIGHT_CLEAR != 0, cover_of_code(byte));
            }
        }
        let clear = self.compute_line_of_sight(from, to);
        let cover = self.compute_cover(from, to);
        if let Some(slot) = slot {
            let byte = SIGHT_KNOWN | if clear { SIGHT_CLEAR } else { 0 } | cover_code(cover);
            slot.store(byte, Ordering::Relaxed);
        }
        (clear, cover)
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

    /// No value yet for any hex of the map ([`HexValues`]).
    pub fn hex_values<T: Copy>(&self) -> HexValues<'_, T> {
        HexValues {
            map: self,
            values: vec![None; self.cells.len()],
        }
    }

    /// The set of `hexes` that are on this map, asked in constant time (a flag per cell).
    pub fn hex_set(&self, hexes: impl IntoIterator<Item = Hex>) -> HexSet<'_> {
        let mut flags = vec![false; self.cells.len()];
        for hex in hexes {
            if let Some(i) = self.index(hex) {
                flags[i] = true;
            }
        }
        HexSet { map: self, flags }
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
                for slot in &self.sight {
                    slot.store(0, Ordering::Relaxed);
                }
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
        self.contains(hex) && hex.all_neighbors().iter().any(|&n| !self.contains(n))
    }

    /// Movement points to enter `hex`, `None` if it is off the map or blocked.
    pub fn move_cost(&self, hex: Hex) -> Option<u32> {
        self.terrain(hex).and_then(Terrain::move_cost)
    }

    /// The hexes a straight line from `from` to `to` crosses, both ends included.
    pub fn line(&self, from: Hex, to: Hex) -> impl Iterator<Item = Hex> {
        from.line_to(to)
    }

    /// True if nothing blocked lies strictly between `from` and `to` and both are on the map.
    pub fn line_of_sight(&self, from: Hex, to: Hex) -> bool {
        self.sight(from, to).0
    }

    fn compute_line_of_sight(&self, from: Hex, to: Hex) -> bool {
        if !self.contains(from) || !self.contains(to) {
            return false;
        }
        from.line_to(to)
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
        let line: Vec<Hex> = from.line_to(target).collect();
        let before = if line.len() >= 3 {
            let h = line[line.len() - 2];
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

    /// The cheapest path from `from` to `to` (both included) over hexes for which `enter`
    /// gives a cost. `enter(hex)` sees only hexes on the map.
    ///
    /// When the straight line from `from` to `to` can be walked at 1 point a hex, it is a
    /// cheapest path (no path is shorter than the distance and no hex costs less than 1),
    /// and it is returned without a search. Otherwise an A* search runs over this map's
    /// dense cell storage: hexx's `a_star` does the same search with hash maps keyed by
    /// hex, which the preview benchmark measured at a fifth of its time; the test
    /// `path_costs_match_hexx_a_star` checks this search against it.
    pub fn path(&self, from: Hex, to: Hex, enter: impl Fn(Hex) -> Option<u32>) -> Option<Vec<Hex>> {
        let (Some(start), Some(goal)) = (self.index(from), self.index(to)) else {
            return None;
        };
        if self.cells[start].is_none() || self.cells[goal].is_none() {
            return None;
        }
        enter(to)?;
        let mut straight = Vec::with_capacity(from.unsigned_distance_to(to) as usize + 1);
        straight.extend(from.line_to(to));
        if straight
            .iter()
            .skip(1)
            .all(|&h| self.contains(h) && enter(h) == Some(1))
        {
            return Some(straight);
        }
        if self.walled_in(from, to, &enter) {
            return None;
        }
        let n = self.cells.len();
        let mut best = vec![u32::MAX; n];
        let mut came_from = vec![usize::MAX; n];
        let mut open = BinaryHeap::new();
        best[start] = 0;
        open.push(Reverse((from.unsigned_distance_to(to), 0u32, start)));
        while let Some(Reverse((_, cost, i))) = open.pop() {
            if i == goal {
                let mut path = vec![to];
                let mut at = goal;
                while at != start {
                    at = came_from[at];
                    path.push(self.hex_at(at));
                }
                path.reverse();
                return Some(path);
            }
            if cost > best[i] {
                continue; // a stale entry
            }
            for next in self.hex_at(i).all_neighbors() {
                let Some(j) = self.index(next) else { continue };
                if self.cells[j].is_none() {
                    continue;
                }
                let Some(step) = enter(next) else { continue };
                let total = cost + step;
                if total < best[j] {
                    best[j] = total;
                    came_from[j] = i;
                    open.push(Reverse((total + next.unsigned_distance_to(to), total, j)));
                }
            }
        }
        None
    }

    /// The cheapest walk from `from`, facing `facing`, to `to` when facing matters
    /// (gurps-traveller-gm-screen.txt, "MANEUVERS" table, Move: forward costs the hex's
    /// cost, a side or back step one more, a change of facing 1 per hexside). A step to any
    /// but the faced hex side is either a side or back step that keeps the facing, or turns
    /// to face it first; both are searched. Returns the hexes (both ends included) and the
    /// cost of each step.
    pub fn path_facing(
        &self,
        from: Hex,
        facing: EdgeDirection,
        to: Hex,
        enter: impl Fn(Hex) -> Option<u32>,
    ) -> Option<(Vec<Hex>, Vec<u32>)> {
        let (Some(start), Some(goal)) = (self.index(from), self.index(to)) else {
            return None;
        };
        if self.cells[start].is_none() || self.cells[goal].is_none() {
            return None;
        }
        enter(to)?;
        if from == to {
            return Some((vec![from], Vec::new()));
        }
        if let Some(walk) = Self::two_legs(from, facing, to, &enter) {
            return Some(walk);
        }
        if self.walled_in(from, to, &enter) || !self.reachable(start, goal, &enter) {
            return None;
        }
        self.search_facing(start, goal, facing, enter)
    }

    /// True when no walk from `from` can reach `to`, seen at once: `to` is not next to
    /// `from` and none of its neighbours can be entered. (A foe in a melee is often
    /// surrounded; a search that cannot reach it looks at every hex it can reach first,
    /// which was most of a battle of a thousand fighters.)
    fn walled_in(&self, from: Hex, to: Hex, enter: &impl Fn(Hex) -> Option<u32>) -> bool {
        from.unsigned_distance_to(to) > 1
            && to
                .all_neighbors()
                .into_iter()
                .all(|h| self.terrain(h).is_none() || enter(h).is_none())
    }

    /// True when some walk leads from cell `start` to cell `goal` over hexes `enter`
    /// admits, facing aside: a flood over hexes, a sixth of the states of the
    /// search with facing, which looks at every state it can reach before it gives up (most
    /// searches of a crowded melee find no way through).
    fn reachable(&self, start: usize, goal: usize, enter: &impl Fn(Hex) -> Option<u32>) -> bool {
        with_scratch(|scratch| {
            scratch.begin(self.cells.len());
            let Scratch {
                best: seen, queue, ..
            } = scratch;
            seen.set(start, 0);
            queue.push(start);
            while let Some(i) = queue.pop() {
                if i == goal {
                    return true;
                }
                for next in self.hex_at(i).all_neighbors() {
                    let Some(j) = self.index(next) else { continue };
                    if self.cells[j].is_none() || seen.get(j) == 0 || enter(next).is_none() {
                        continue;
                    }
                    seen.set(j, 0);
                    queue.push(j);
                }
            }
            false
        })
    }

    /// The A* search of [`HexMap::path_facing`] over (hex, facing) states.
    fn search_facing(
        &self,
        start: usize,
        goal: usize,
        facing: EdgeDirection,
        enter: impl Fn(Hex) -> Option<u32>,
    ) -> Option<(Vec<Hex>, Vec<u32>)> {
        let (from, to) = (self.hex_at(start), self.hex_at(goal));
        let state = |cell: usize, f: EdgeDirection| cell * 6 + usize::from(f.index());
        // An admissible estimate: the distance, plus 1 when the goal is off the ray straight
        // ahead (some side step or turn must come).
        let estimate = |at: Hex, f: EdgeDirection| {
            let d = at.unsigned_distance_to(to);
            if d == 0 || at + f * d as i32 == to {
                d
            } else {
                d + 1
            }
        };
        with_scratch(|scratch| {
            scratch.begin(self.cells.len() * 6);
            let Scratch {
                best,
                came_from,
                open,
                ..
            } = scratch;
            let s0 = state(start, facing);
            best.set(s0, 0);
            open.push(Reverse((estimate(from, facing), 0u32, s0)));
            while let Some(Reverse((_, cost, st))) = open.pop() {
                let (cell, f) = (st / 6, EdgeDirection::ALL_DIRECTIONS[st % 6]);
                if cell == goal {
                    let mut hexes = vec![to];
                    let mut costs = Vec::new();
                    let mut at = st;
                    while at != s0 {
                        let (prev, step) = came_from[at];
                        costs.push(step);
                        hexes.push(self.hex_at(prev / 6));
                        at = prev;
                    }
                    hexes.reverse();
                    costs.reverse();
                    return Some((hexes, costs));
                }
                if cost > best.get(st) {
                    continue;
                }
                let here = self.hex_at(cell);
                for dir in EdgeDirection::ALL_DIRECTIONS {
                    let next = here + dir;
                    let Some(j) = self.index(next) else { continue };
                    if self.cells[j].is_none() {
                        continue;
                    }
                    let Some(t) = enter(next) else { continue };
                    let turns = {
                        let d = (6 + i32::from(dir.index()) - i32::from(f.index())) % 6;
                        d.min(6 - d) as u32
                    };
                    // Forward; or a side/back step keeping the facing; or turn, then forward.
                    let moves = [(if turns == 0 { t } else { t + 1 }, f), (t + turns, dir)];
                    let count = if turns == 0 { 1 } else { 2 };
                    for &(step, new_facing) in &moves[..count] {
                        let total = cost + step;
                        let ns = state(j, new_facing);
                        if total < best.get(ns) {
                            best.set(ns, total);
                            came_from[ns] = (st, step);
                            open.push(Reverse((total + estimate(next, new_facing), total, ns)));
                        }
                    }
                }
            }
            None
        })
    }

    /// A cheapest walk found without a search, when there is one of the cheapest kind: the
    /// goal straight ahead (cost = distance), or reached by going straight ahead and then,
    /// after one turn of one hexside, straight on (cost = distance + 1), over hexes that
    /// all cost 1. No walk to a goal off the ray ahead costs less than distance + 1.
    fn two_legs(
        from: Hex,
        facing: EdgeDirection,
        to: Hex,
        enter: &impl Fn(Hex) -> Option<u32>,
    ) -> Option<(Vec<Hex>, Vec<u32>)> {
        let d = from.unsigned_distance_to(to) as i32;
        let ahead = facing;
        let (left, right) = (facing.rotate_ccw(1), facing.rotate_cw(1));
        // from + a·ahead + b·side = to, a + b = d
        let legs = (0..=d).find_map(|a| {
            let rest = to - (from + ahead * a);
            [left, right]
                .into_iter()
                .find(|&side| rest == side * (d - a))
                .map(|side| (a, side))
        })?;
        let (a, side) = legs;
        let mut hexes = Vec::with_capacity(d as usize + 1);
        let mut steps = Vec::with_capacity(d as usize);
        hexes.push(from);
        let mut at = from;
        for i in 0..d {
            at = if i < a { at + ahead } else { at + side };
            if enter(at) != Some(1) {
                return None;
            }
            // the first step after the turn pays for the turn
            steps.push(if i == a && a < d { 2 } else { 1 });
            hexes.push(at);
        }
        Some((hexes, steps))
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

    /// The dense A* finds paths exactly as cheap as hexx's `a_star` on a cluttered map,
    /// and none where hexx finds none.
    /// gurps-traveller-gm-screen.txt, Move: forward 1, side or back 2, turning 1 per
    /// hexside. Facing east on open ground: 3 hexes east cost 3; 2 hexes west cost 4 (back
    /// steps, or turning round for 3 and walking 2: 5); one hex to the north-east costs 2.
    #[test]
    fn walking_with_facing() {
        let map = HexMap::new(
            MapShape::Hexagon { radius: 6 },
            Orientation::Pointy,
            1.0,
            "yd",
        );
        let east = Hex::ZERO.main_direction_to(Hex::new(1, 0));
        let open = |h: Hex| map.move_cost(h);
        let cost = |to: Hex| {
            map.path_facing(Hex::ZERO, east, to, open)
                .map(|(_, c)| c.iter().sum::<u32>())
        };
        assert_eq!(cost(Hex::new(3, 0)), Some(3));
        assert_eq!(cost(Hex::new(-2, 0)), Some(4));
        assert_eq!(cost(Hex::new(1, -1)), Some(2));
        // six hexes west: turning round (3) and walking (6) beats six back steps (12)
        assert_eq!(cost(Hex::new(-6, 0)), Some(9));
        let (path, steps) = map
            .path_facing(Hex::ZERO, east, Hex::new(3, 0), open)
            .unwrap();
        assert_eq!(path.len(), steps.len() + 1);
        assert_eq!(cost(Hex::ZERO), Some(0));
        // the shortcut finds walks exactly as cheap as the search
        for to in hexx::shapes::hexagon(Hex::ZERO, 4) {
            for f in EdgeDirection::ALL_DIRECTIONS {
                if let Some((_, fast)) = HexMap::two_legs(Hex::ZERO, f, to, &open) {
                    let (s, g) = (map.index(Hex::ZERO).unwrap(), map.index(to).unwrap());
                    let (_, slow) = map.search_facing(s, g, f, open).unwrap();
                    assert_eq!(
                        fast.iter().sum::<u32>(),
                        slow.iter().sum::<u32>(),
                        "{to:?} {f:?}"
                    );
                }
            }
        }
    }

    /// A hexagon of `radius` with a fixed scatter of walls (hex `i` where `i * 7919` is 0
    /// or 1 modulo `period`) and rough ground (where it is one of `rough`).
    fn cluttered(radius: u32, period: usize, rough: &[usize]) -> HexMap {
        let mut map = HexMap::new(MapShape::Hexagon { radius }, Orientation::Pointy, 1.0, "yd");
        let hexes: Vec<Hex> = map.hexes().map(|(h, _)| h).collect();
        for (i, &h) in hexes.iter().enumerate() {
            let k = (i * 7919) % period;
            if k < 2 {
                map.set_terrain(h, Terrain::Blocked);
            } else if rough.contains(&k) {
                map.set_terrain(h, Terrain::Difficult);
            }
        }
        map
    }

    #[test]
    fn path_costs_match_hexx_a_star() {
        let map = cluttered(8, 11, &[2, 3]);
        let open: Vec<Hex> = map
            .hexes()
            .filter(|(_, t)| *t != Terrain::Blocked)
            .map(|(h, _)| h)
            .collect();
        let mut found = 0;
        for (k, &a) in open.iter().enumerate().step_by(7) {
            for &b in open.iter().skip(k % 5).step_by(13) {
                let mine = map.path(a, b, |h| map.move_cost(h));
                let reference = hexx::algorithms::a_star(a, b, |_, h| map.move_cost(h));
                match (&mine, &reference) {
                    (Some(p), Some(q)) => {
                        assert_eq!(map.path_cost(p), map.path_cost(q), "{a:?} -> {b:?}");
                        assert_eq!(p.first(), Some(&a));
                        assert_eq!(p.last(), Some(&b));
                        for w in p.windows(2) {
                            assert_eq!(w[0].unsigned_distance_to(w[1]), 1);
                        }
                        found += 1;
                    }
                    (None, None) => {}
                    _ => panic!("{a:?} -> {b:?}: {mine:?} vs {reference:?}"),
                }
            }
        }
        assert!(found > 50);
    }

    /// The quick answers of `path_facing` (a walk without a search, a goal walled in, no
    /// way through) agree with the full search, on a map cluttered enough that many goals
    /// cannot be reached: walls, rough ground, and a ring of walls closing off one pocket.
    #[test]
    fn walks_with_facing_agree_with_the_full_search() {
        let mut map = cluttered(7, 9, &[2]);
        let pocket = Hex::new(4, -2);
        map.set_terrain(pocket, Terrain::Open);
        for h in pocket.ring(2) {
            map.set_terrain(h, Terrain::Blocked);
        }
        let enter = |h: Hex| map.move_cost(h);
        let open: Vec<Hex> = map
            .hexes()
            .filter(|(_, t)| *t != Terrain::Blocked)
            .map(|(h, _)| h)
            .collect();
        let (mut found, mut none) = (0, 0);
        for (k, &a) in open.iter().enumerate().step_by(5) {
            for &b in open.iter().skip(k % 3).step_by(4) {
                if a == b {
                    continue;
                }
                let f = EdgeDirection::ALL_DIRECTIONS[k % 6];
                let quick = map.path_facing(a, f, b, enter);
                let (s, g) = (map.index(a).unwrap(), map.index(b).unwrap());
                let full = map.search_facing(s, g, f, enter);
                let cost = |w: &Option<(Vec<Hex>, Vec<u32>)>| {
                    w.as_ref().map(|(_, c)| c.iter().sum::<u32>())
                };
                assert_eq!(cost(&quick), cost(&full), "{a:?} facing {f:?} -> {b:?}");
                if quick.is_some() {
                    found += 1;
                } else {
                    none += 1;
                }
            }
        }
        assert!(found > 100 && none > 20, "{found} walks, {none} none");
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

    #[test]
    fn a_search_starts_with_every_cost_unknown_even_when_the_count_wraps() {
        let mut best = Stamped::default();
        best.begin(4);
        best.set(2, 7);
        assert_eq!(best.get(2), 7);
        best.search = u32::MAX;
        best.set(1, 3);
        best.begin(4);
        assert_eq!((0..4).map(|i| best.get(i)).max(), Some(u32::MAX));
        assert_eq!((0..4).map(|i| best.get(i)).min(), Some(u32::MAX));
        best.set(1, 5);
        assert_eq!(best.get(1), 5);
    }
}
