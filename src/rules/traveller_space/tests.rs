//! GURPS Traveller space combat against gurps-traveller-gm-screen.txt: the tables with
//! the text's own numbers, and the turn played through [`Space`] with scripted dice.

use super::sheet::TravellerShip;
use super::space::{
    Action, Condition, MissileBay, MissileState, Phase, Repairable, ShipState, Shot, Space, Step,
    Vessels,
};
use super::tables::*;
use crate::battle::{AttackResult, BattleEvent, UnitId, UnitsMut};
use crate::dice::{DieRoller, Modifier, Scripted};
use crate::hexmap::HexMap;
use crate::scenario::Prepared;
use crate::session::{Session, SessionOptions};
use bevy::ecs::world::World;
use hexx::Hex;
use std::sync::Arc;

/// A battle's ships and missiles on their entities (the world of a new session) and the
/// [`Space`] they share, taken out of the world so that the turn's functions can be called
/// one by one; it reads as the `Space` for the shared fields (phase, queue, planets).
struct Battle {
    space: Space,
    world: World,
}

impl std::ops::Deref for Battle {
    type Target = Space;
    fn deref(&self) -> &Space {
        &self.space
    }
}

impl std::ops::DerefMut for Battle {
    fn deref_mut(&mut self) -> &mut Space {
        &mut self.space
    }
}

impl Battle {
    fn new(prepared: Prepared) -> Self {
        let mut world = Session::new(Arc::new(prepared), 0, SessionOptions::default()).world;
        let Some(space) = world.remove_resource::<Space>() else {
            panic!("no space battle");
        };
        Self { space, world }
    }
    fn ships(&self) -> &impl Vessels {
        &self.world
    }
    fn begin_turn(&mut self, dice: &mut impl DieRoller, events: &mut Vec<BattleEvent>) {
        self.space.begin_turn(&mut self.world, dice, events);
    }
    fn advance(
        &mut self,
        map: &HexMap,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) -> Step {
        self.space.advance(&mut self.world, map, dice, events)
    }
    fn apply(&mut self, u: UnitId, action: Action, events: &mut Vec<BattleEvent>) {
        self.space.apply(&mut self.world, u, action, events);
    }
    fn check(&self, u: UnitId, action: &Action) -> Result<(), String> {
        self.space.check(self.ships(), u, action)
    }
    fn detection(&self, u: UnitId, t: UnitId) -> super::space::Detection {
        self.ships().detection(u, t)
    }
    fn ship(&self, u: UnitId) -> &ShipState {
        self.ships().ship(u)
    }
    fn ship_mut(&mut self, u: UnitId) -> &mut ShipState {
        match UnitsMut::<TravellerShip, ShipState>::state_mut(&mut self.world, u) {
            Some(s) => s,
            None => panic!("no ship {u:?}"),
        }
    }
    fn sheet(&self, u: UnitId) -> &TravellerShip {
        self.ships().sheet(u)
    }
    fn accel(&self, u: UnitId) -> f64 {
        self.space.accel(self.ships(), u)
    }
    fn thrust(&self, u: UnitId) -> u32 {
        self.space.thrust(self.ships(), u)
    }
    fn gunnery_modifiers(&self, u: UnitId, mount: usize, t: UnitId) -> Vec<Modifier> {
        self.space.gunnery_modifiers(self.ships(), u, mount, t)
    }
    fn why_not_target(&self, u: UnitId, t: UnitId, w: &SpaceWeapon) -> Option<String> {
        self.space.why_not_target(self.ships(), u, t, w)
    }
    fn shot_odds(&self, u: UnitId, mount: usize, t: UnitId, pinpoint: bool) -> f64 {
        self.space.shot_odds(self.ships(), u, mount, t, pinpoint)
    }
    fn shot_modifiers(&self, u: UnitId, mount: usize, t: UnitId, pinpoint: bool) -> Vec<Modifier> {
        self.space
            .shot_modifiers(self.ships(), u, mount, t, pinpoint)
    }
    fn free_mounts(&self, u: UnitId) -> Vec<usize> {
        self.space.free_mounts(self.ships(), u)
    }
    fn missiles(&self) -> Vec<MissileState> {
        let bay = &self.world;
        bay.missile_ids()
            .into_iter()
            .filter_map(|id| bay.missile(id).cloned())
            .collect()
    }
    fn major_effect_for_test(
        &mut self,
        u: UnitId,
        effect: MajorDamage,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        self.space
            .major_effect_for_test(&mut self.world, u, effect, dice, events);
    }
    fn major_damage_for_test(
        &mut self,
        u: UnitId,
        through: i32,
        radiation: bool,
        dice: &mut impl DieRoller,
        events: &mut Vec<BattleEvent>,
    ) {
        self.space
            .major_damage_for_test(&mut self.world, u, through, radiation, dice, events);
    }
}

/// "SPACE RANGE TABLE": every row, and the continuation past 100 hexes (decision).
#[test]
fn the_space_range_table() {
    let rows = [
        (0, -39),
        (1, -41),
        (2, -43),
        (3, -44),
        (4, -45),
        (5, -46),
        (7, -46),
        (8, -47),
        (10, -47),
        (11, -48),
        (15, -48),
        (16, -49),
        (20, -49),
        (21, -50),
        (30, -50),
        (31, -51),
        (45, -51),
        (46, -52),
        (70, -52),
        (71, -53),
        (100, -53),
        (101, -54),
        (150, -54),
        (151, -55),
        (1000, -59),
        (1001, -60),
    ];
    for (hexes, m) in rows {
        assert_eq!(space_range_modifier(hexes), m, "{hexes} hexes");
    }
    // "GUNNERY MODIFIERS": counting the firing hex, a target 3 hexes away is at 4: -45.
    assert_eq!(gunnery_range_modifier(3), -45);
    assert_eq!(gunnery_range_modifier(0), -41);
}

/// "SPACE WEAPONS TABLE": the six rows; "(2)" halves armor DR, "(!)" ignores it.
#[test]
fn the_space_weapons_table() {
    let l = space_weapon("360-MJ Laser").expect("in the table");
    assert_eq!(
        (l.half_damage, l.max_range, l.acc, l.dice, l.multiplier),
        (2, 6, 32, 5, 50)
    );
    assert_eq!(effective_dr(101, &l), 50);
    let m = space_weapon("Meson Gun Bay").expect("in the table");
    assert_eq!((m.dice, m.multiplier, effective_dr(500, &m)), (6, 1000, 0));
    let p = space_weapon("Spinal P-Beam").expect("in the table");
    assert_eq!(
        (p.half_damage, p.max_range, p.acc, p.multiplier),
        (5, 15, 36, 3000)
    );
    assert_eq!(effective_dr(500, &p), 500);
    assert_eq!(SPACE_WEAPONS.len(), 6);
    // RoF 1/60 over a 20-minute turn: 20 shots, +4 on the Lite rapid-fire table.
    assert_eq!(rof_bonus(&l, 1200), 4);
    // "Acc bonus up to a limit of base Gunner skill".
    assert_eq!(acc_bonus(32, 14), 14);
    assert_eq!(acc_bonus(32, 40), 32);
}

/// "Scan Values Table": every entry at TL10 and TL12, none at TL11.
#[test]
fn the_scan_values_table() {
    use Bridge::*;
    use SensorKind::*;
    let table = [
        (Pesa, Cockpit, 35, 37),
        (Pesa, Basic, 37, 38),
        (Pesa, Command, 39, 41),
        (Aesa, Cockpit, 39, 40),
        (Aesa, Basic, 41, 42),
        (Aesa, Command, 42, 43),
        (Radscan, Cockpit, 29, 31),
        (Radscan, Basic, 31, 35),
        (Radscan, Command, 32, 38),
    ];
    for (k, b, tl10, tl12) in table {
        assert_eq!(scan_value(k, 10, b), Some(tl10));
        assert_eq!(scan_value(k, 12, b), Some(tl12));
    }
    assert_eq!(scan_value(Aesa, 11, Basic), None);
}

fn target() -> ScanTarget {
    ScanTarget {
        range: 3,
        prior_detection: false,
        sm: 8,
        tl: 12,
        stealth: Masking::None,
        cloaking: Masking::None,
        near_planet: false,
        atmosphere: false,
        object_in_atmosphere: false,
        silhouetted: false,
        active_sensor: None,
        transponder: false,
    }
}

fn sum(m: &[crate::dice::Modifier]) -> i32 {
    m.iter().map(|x| x.value).sum()
}

/// "Scan Modifiers": scan value, range from the space range table, prior detection +4;
/// AESA: size, stealth -(TL-4) or -2(TL-4), planet -4, atmosphere -6; PESA: size, planet
/// -2, atmosphere -6, emission cloaking -(TL-4)/2 or -(TL-4), doubled in an atmosphere;
/// radscan: an active sensor's scan value less its TL, or a transponder's +40, the higher.
#[test]
fn scan_modifiers_by_sensor() {
    let t = target();
    // AESA 42 at 3 hexes (-44) on an SM +8 ship.
    assert_eq!(sum(&scan_modifiers(SensorKind::Aesa, 42, &t)), 42 - 44 + 8);
    let stealthy = ScanTarget {
        stealth: Masking::Radical,
        near_planet: true,
        prior_detection: true,
        ..t
    };
    assert_eq!(
        sum(&scan_modifiers(SensorKind::Aesa, 42, &stealthy)),
        42 - 44 + 4 + 8 - 16 - 4
    );
    let cloaked = ScanTarget {
        cloaking: Masking::Basic,
        near_planet: true,
        ..t
    };
    assert_eq!(
        sum(&scan_modifiers(SensorKind::Pesa, 38, &cloaked)),
        38 - 44 + 8 - 2 - 4
    );
    let in_air = ScanTarget {
        atmosphere: true,
        object_in_atmosphere: true,
        ..cloaked
    };
    // Only the sensor in the atmosphere: -6, but the cloaking does not double.
    let sensor_in_air = ScanTarget {
        atmosphere: true,
        ..cloaked
    };
    assert_eq!(
        sum(&scan_modifiers(SensorKind::Pesa, 38, &sensor_in_air)),
        38 - 44 + 8 - 2 - 6 - 4
    );
    assert_eq!(
        sum(&scan_modifiers(SensorKind::Pesa, 38, &in_air)),
        38 - 44 + 8 - 2 - 6 - 8
    );
    let against_star = ScanTarget {
        silhouetted: true,
        ..t
    };
    assert_eq!(
        sum(&scan_modifiers(SensorKind::Pesa, 38, &against_star)),
        38 - 44 + 8 - 4
    );
    assert_eq!(
        sum(&scan_modifiers(SensorKind::Aesa, 42, &against_star)),
        42 - 44 + 8,
        "PESA only"
    );
    let emitting = ScanTarget {
        active_sensor: Some((42, 12)),
        ..t
    };
    assert_eq!(
        sum(&scan_modifiers(SensorKind::Radscan, 35, &emitting)),
        35 - 44 + 30
    );
    let both = ScanTarget {
        transponder: true,
        ..emitting
    };
    assert_eq!(
        sum(&scan_modifiers(SensorKind::Radscan, 35, &both)),
        35 - 44 + 40
    );
    assert_eq!(sum(&scan_modifiers(SensorKind::Radscan, 35, &t)), 35 - 44);
}

/// "MAJOR DAMAGE TABLE": each result by its roll; casualties 1d plus 1d per full 50.
#[test]
fn the_major_damage_table() {
    use MajorDamage::*;
    let expect = [
        FuelLost,
        PassengersHurt,
        JumpDrive,
        Cargo,
        Computer,
        CrewHurt,
        PowerLoss,
        Weapon,
        Radiation,
        FuelLost,
        PassengersHurt,
        ManeuverDrive,
        Cargo,
        Bridge,
        CrewHurt,
        PowerPlant,
    ];
    for (i, e) in expect.iter().enumerate() {
        assert_eq!(major_damage(i as i32 + 3), *e, "roll {}", i + 3);
    }
    assert_eq!(casualty_dice(49), 1);
    assert_eq!(casualty_dice(50), 2);
    assert_eq!(casualty_dice(99), 2);
}

/// Runs the turn on to the next decision or the turn's end, through the phases without
/// decisions.
fn next(s: &mut Battle, map: &HexMap, d: &mut Scripted, ev: &mut Vec<BattleEvent>) -> Step {
    loop {
        match s.advance(map, d, ev) {
            Step::Continue => {}
            step => return step,
        }
    }
}

/// A two-ship scenario: a raider (side a) and a merchant (side b) `gap` hexes apart.
fn duel(config: &str, raider: &str, merchant: &str, gap: i32) -> (Battle, HexMap) {
    let text = format!(
        r#"(
    name: "test",
    ruleset: TravellerSpace({config}),
    map: (shape: Hexagon(radius: 20)),
    sides: [(id: "a", control: Player), (id: "b", control: Ai(Aggressive))],
    units: [
        (name: "Raider", side: "a", at: (0, 0), stats: TravellerSpace(
            sm: 8, hp: 2000, dr: 100, accel: 2.0, tl: 12, sensors: [Aesa, Pesa, Radscan],
            targeting: 10, weapons: [(weapon: "360-MJ Laser", count: 2)], missiles: 6, launchers: 2,
            crew: (pilot: 12, gunner: 14, sensors: 13, engineer: 12, count: 10){raider})),
        (name: "Merchant", side: "b", at: ({gap}, 0), stats: TravellerSpace(
            sm: 8, hp: 1500, dr: 50, accel: 1.0, tl: 12, sensors: [Pesa],
            weapons: [(weapon: "360-MJ Laser")],
            crew: (pilot: 12, gunner: 11, sensors: 11, engineer: 11, count: 8), passengers: 12{merchant})),
    ],
)"#
    );
    let p = crate::rules::builtin()
        .parse("test.ron", &text)
        .unwrap_or_else(|e| panic!("{e:?}"));
    let map = p.map.clone();
    (Battle::new(p), map)
}

/// "SEQUENCE OF ACTION": detection (rolls), maneuver (decisions), movement, direct fire
/// (decisions), collision and point defense, launch (decisions), damage control.
#[test]
fn a_turn_follows_the_sequence_of_action() {
    let (mut s, map) = duel("", "", "", 4);
    let mut ev = Vec::new();
    // Detection: each side scans the other once: 3d6 each.
    let mut d = Scripted::new(&[3, 3, 3, 3, 3, 3]);
    s.begin_turn(&mut d, &mut ev);
    assert_eq!(d.remaining(), 0);
    assert!(s.detection(UnitId(0), UnitId(1)).found);
    assert!(
        s.detection(UnitId(0), UnitId(1)).active,
        "found with the AESA"
    );
    assert_eq!(s.phase, Phase::Maneuver);
    let mut d = Scripted::new(&[]);
    assert_eq!(
        next(&mut s, &map, &mut d, &mut ev),
        Step::Awaiting(UnitId(0))
    );
    let coast = Action::Maneuver {
        to: (0, 0),
        passive: false,
        ram: None,
    };
    s.check(UnitId(0), &coast).expect("coasting is legal");
    s.apply(UnitId(0), coast, &mut ev);
    assert_eq!(
        next(&mut s, &map, &mut d, &mut ev),
        Step::Awaiting(UnitId(1))
    );
    let stay = Action::Maneuver {
        to: (4, 0),
        passive: false,
        ram: None,
    };
    s.apply(UnitId(1), stay, &mut ev);
    assert_eq!(
        next(&mut s, &map, &mut d, &mut ev),
        Step::Awaiting(UnitId(0))
    );
    assert_eq!(s.phase, Phase::DirectFire);
    // Both lasers at the merchant (4 hexes: within 6).
    let fire = Action::Fire {
        shots: vec![
            Shot {
                mount: 0,
                target: UnitId(1),
                pinpoint: None,
            },
            Shot {
                mount: 1,
                target: UnitId(1),
                pinpoint: None,
            },
        ],
    };
    s.check(UnitId(0), &fire).expect("in range");
    s.apply(UnitId(0), fire, &mut ev);
    assert_eq!(
        next(&mut s, &map, &mut d, &mut ev),
        Step::Awaiting(UnitId(1))
    );
    assert_eq!(s.phase, Phase::DirectFire);
    s.apply(UnitId(1), Action::Fire { shots: Vec::new() }, &mut ev);
    // Resolution, shot by shot: each against 14 + 14 + 4 + 10 + 8 - 46 (4 hexes, 5
    // counting the firing hex) + 2 = 6: 2 2 2 hits,
    // then 6 6 6 misses; the hit's 5d = 17 × 50 = 850, beyond 1/2D (2 hexes): 425, less DR 50 halved
    // (25): 400, at least 10% of the hull's 1500: one major damage roll, 3 3 4 = 10, a
    // weapon disabled. Then launch: the raider's decision.
    let mut d = Scripted::new(&[2, 2, 2, 3, 3, 3, 4, 4, 3, 3, 4, 6, 6, 6]);
    assert_eq!(
        next(&mut s, &map, &mut d, &mut ev),
        Step::Awaiting(UnitId(0))
    );
    assert_eq!(d.remaining(), 0);
    assert_eq!(s.phase, Phase::Launch);
    assert_eq!(s.ship(UnitId(1)).hp, 1100);
    assert_eq!(s.ship(UnitId(1)).mounts_out, vec![true]);
    let results: Vec<AttackResult> = ev
        .iter()
        .filter_map(|e| match e {
            BattleEvent::Attack { result, .. } => Some(*result),
            _ => None,
        })
        .collect();
    assert_eq!(results, vec![AttackResult::Hit, AttackResult::Miss]);
    let launch = Action::Launch {
        target: UnitId(1),
        count: 2,
    };
    s.check(UnitId(0), &launch).expect("two launchers");
    s.apply(UnitId(0), launch, &mut ev);
    assert_eq!(s.missiles().len(), 2);
    assert_eq!(s.ship(UnitId(0)).missiles, 4);
    // Damage control: the merchant's engineer (11) repairs the mount on 3 3 3.
    let mut d = Scripted::new(&[3, 3, 3]);
    assert_eq!(next(&mut s, &map, &mut d, &mut ev), Step::RoundOver);
    assert_eq!(s.ship(UnitId(1)).mounts_out, vec![false]);
}

/// "GUNNERY MODIFIERS": augmented Gunner skill (14 + Acc 32 limited to 14 + RoF +4 +
/// targeting 10) + target size 8 + range (4 hexes counting the firing hex: -45) + active
/// sensor lock 2 = 7.
#[test]
fn gunnery_adds_up_as_the_screen_says() {
    let (mut s, _) = duel("", "", "", 3);
    let mut ev = Vec::new();
    let mut d = Scripted::new(&[3, 3, 3, 3, 3, 3]);
    s.begin_turn(&mut d, &mut ev);
    let mods = s.gunnery_modifiers(UnitId(0), 0, UnitId(1));
    let labels: Vec<(String, i32)> = mods
        .iter()
        .map(|m| (m.label.to_string(), m.value))
        .collect();
    assert_eq!(
        labels,
        vec![
            ("Gunner".to_string(), 14),
            ("Acc 32 (up to skill)".to_string(), 14),
            ("RoF".to_string(), 4),
            ("targeting program".to_string(), 10),
            ("target size".to_string(), 8),
            ("range 3 hexes (+1 firing hex)".to_string(), -45),
            ("active sensor lock".to_string(), 2),
        ]
    );
    // Without a computer the targeting program is gone; passive, no lock.
    s.ship_mut(UnitId(0)).computers = 0;
    s.ship_mut(UnitId(0)).passive = true;
    let total: i32 = s
        .gunnery_modifiers(UnitId(0), 0, UnitId(1))
        .iter()
        .map(|m| m.value)
        .sum();
    assert_eq!(total, 14 + 14 + 4 + 8 - 45);
}

/// The raider launches `count` missiles at the merchant 5 hexes away (which has not
/// detected it); next turn both coast, the missiles reach the merchant, and the raider's
/// direct fire is awaited (it holds). The merchant's stat block gets `merchant`.
fn volley(merchant: &str, count: u32) -> (Battle, HexMap, Vec<BattleEvent>) {
    let (mut s, map) = duel("", "", merchant, 5);
    s.ship_mut(UnitId(1)).seen_by[0].found = true;
    s.phase = Phase::Launch;
    s.queue = vec![UnitId(0)];
    let mut ev = Vec::new();
    s.apply(
        UnitId(0),
        Action::Launch {
            target: UnitId(1),
            count,
        },
        &mut ev,
    );
    // Next turn: both ships coast; the missiles burn 5 towards (5, 0) and reach it.
    s.phase = Phase::Maneuver;
    s.queue = Vec::new();
    s.ship_mut(UnitId(0)).mounts_used = vec![false; 2];
    s.ship_mut(UnitId(1)).mounts_used = vec![false; 1];
    let mut d = Scripted::new(&[]);
    // Maneuver over (nobody queued): missiles guide, movement, then direct fire for the
    // raider only (the merchant has not detected it).
    let step = next(&mut s, &map, &mut d, &mut ev);
    assert_eq!(step, Step::Awaiting(UnitId(0)), "the raider may fire");
    assert!(
        s.missiles().iter().all(|m| m.contact && m.pos == (5, 0)),
        "{:?}",
        s.missiles()
    );
    s.apply(UnitId(0), Action::Fire { shots: Vec::new() }, &mut ev);
    (s, map, ev)
}

/// Missiles (decision): launched with the launcher's vector, they steer for their
/// target's next position with their own thrust (6 G: 5 points a turn); in contact they
/// meet point defense (+10) and, if not shot down, strike against guidance 12 + SM.
#[test]
fn missiles_fly_and_meet_point_defense() {
    let (mut s, map, mut ev) = volley("", 2);
    assert_eq!(s.missile_thrust(), 5);
    // Point defense: the merchant's one laser at augmented 11 + Acc 11 + RoF 4 = 26, the
    // missile's size 0, range 0 (-41), +10: -5; 3 3 3 fails (only a 3 or 4 could hit).
    // The missiles strike at guidance 12 + size 8 = 20: 3 3 3 hits each; 6d × 20 each:
    // 6 → 120, less DR 50: 70 each. The second finds the laser already used.
    let mut d = Scripted::new(&[
        3, 3, 3, 3, 3, 3, 1, 1, 1, 1, 1, 1, 3, 3, 3, 1, 1, 1, 1, 1, 1,
    ]);
    let step = next(&mut s, &map, &mut d, &mut ev);
    assert_eq!(d.remaining(), 0, "{ev:?}");
    assert_eq!(
        step,
        Step::Awaiting(UnitId(0)),
        "the raider may launch again"
    );
    assert_eq!(s.phase, Phase::Launch);
    assert_eq!(s.ship(UnitId(1)).hp, 1500 - 140);
    assert!(s.missiles().is_empty());
}

/// Ramming (decision): a ship that names its target and meets it during movement rolls
/// a Quick Contest of Piloting; if it wins, both take the other's full hit points times
/// their relative speed.
#[test]
fn a_ram_is_ruinous() {
    let (mut s, map) = duel("", "", "", 2);
    let mut ev = Vec::new();
    let mut d = Scripted::new(&[3, 3, 3, 3, 3, 3]);
    s.begin_turn(&mut d, &mut ev);
    let mut d = Scripted::new(&[]);
    next(&mut s, &map, &mut d, &mut ev);
    let ram = Action::Maneuver {
        to: (2, 0),
        passive: false,
        ram: Some(UnitId(1)),
    };
    s.check(UnitId(0), &ram).expect("2 points reach (2, 0)");
    s.apply(UnitId(0), ram, &mut ev);
    next(&mut s, &map, &mut d, &mut ev);
    s.apply(
        UnitId(1),
        Action::Maneuver {
            to: (2, 0),
            passive: false,
            ram: None,
        },
        &mut ev,
    );
    // Movement: contact; direct fire: the raider holds, the merchant has nothing in range? It
    // has (0 hexes). Both hold.
    let step = next(&mut s, &map, &mut d, &mut ev);
    assert_eq!(step, Step::Awaiting(UnitId(0)));
    assert_eq!(s.rams, vec![(UnitId(0), UnitId(1))]);
    s.apply(UnitId(0), Action::Fire { shots: Vec::new() }, &mut ev);
    next(&mut s, &map, &mut d, &mut ev);
    s.apply(UnitId(1), Action::Fire { shots: Vec::new() }, &mut ev);
    // Point defense: nothing. Ram: raider 3 3 3 (by 3) against merchant 6 6 5 (fails).
    let mut d = Scripted::new(&[3, 3, 3, 6, 6, 5]);
    next(&mut s, &map, &mut d, &mut ev);
    assert_eq!(d.remaining(), 0);
    // Relative speed 2: the merchant takes 2000 × 2 - 50, the raider 1500 × 2 - 100.
    assert_eq!(s.ship(UnitId(1)).hp, 1500 - (4000 - 50));
    assert_eq!(s.ship(UnitId(1)).condition, Condition::Destroyed);
    assert_eq!(s.ship(UnitId(0)).hp, 2000 - (3000 - 100));
    assert_eq!(s.ship(UnitId(0)).condition, Condition::Disabled);
}

/// Escape (decision): a ship farther than `escape_hexes` from every enemy has left.
#[test]
fn a_ship_beyond_reach_escapes() {
    let (mut s, map) = duel("escape_hexes: 5", "", ", velocity: (3, 0)", 4);
    let mut ev = Vec::new();
    let mut d = Scripted::new(&[3, 3, 3, 3, 3, 3]);
    s.begin_turn(&mut d, &mut ev);
    let mut d = Scripted::new(&[]);
    next(&mut s, &map, &mut d, &mut ev);
    s.apply(
        UnitId(0),
        Action::Maneuver {
            to: (0, 0),
            passive: false,
            ram: None,
        },
        &mut ev,
    );
    next(&mut s, &map, &mut d, &mut ev);
    s.apply(
        UnitId(1),
        Action::Maneuver {
            to: (7, 0),
            passive: true,
            ram: None,
        },
        &mut ev,
    );
    next(&mut s, &map, &mut d, &mut ev);
    assert_eq!(s.ship(UnitId(1)).condition, Condition::Escaped);
    assert_eq!(s.ship(UnitId(1)).pos, Hex::new(7, 0));
}

/// "GUNNERY MODIFIERS": pinpoint marksmanship takes −6 instead of the target's Size
/// Modifier; a pinpoint hit through the armor knocks the system out (decision on `Aim`).
#[test]
fn a_pinpoint_shot_takes_out_its_system() {
    use super::space::Aim;
    let (mut s, map) = duel("", "", "", 1);
    let mut ev = Vec::new();
    let mut d = Scripted::new(&[3, 3, 3, 3, 3, 3]);
    s.begin_turn(&mut d, &mut ev);
    let plain: i32 = s
        .shot_modifiers(UnitId(0), 0, UnitId(1), false)
        .iter()
        .map(|m| m.value)
        .sum();
    let pin: i32 = s
        .shot_modifiers(UnitId(0), 0, UnitId(1), true)
        .iter()
        .map(|m| m.value)
        .sum();
    assert_eq!(plain - pin, 8 + 6, "SM +8 gives way to -6");
    let mut d = Scripted::new(&[]);
    next(&mut s, &map, &mut d, &mut ev);
    for u in [0, 1] {
        let at = s.ship(UnitId(u)).pos;
        s.apply(
            UnitId(u),
            Action::Maneuver {
                to: (at.x, at.y),
                passive: false,
                ram: None,
            },
            &mut ev,
        );
        next(&mut s, &map, &mut d, &mut ev);
    }
    assert_eq!(s.phase, Phase::DirectFire);
    s.apply(
        UnitId(0),
        Action::Fire {
            shots: vec![Shot {
                mount: 0,
                target: UnitId(1),
                pinpoint: Some(Aim::Drive),
            }],
        },
        &mut ev,
    );
    next(&mut s, &map, &mut d, &mut ev);
    s.apply(UnitId(1), Action::Fire { shots: Vec::new() }, &mut ev);
    // 1 hex: 14 + 14 + 4 + 10 - 6 - 43 + 2 = -5: only a 3 or 4 hits; 1 1 1 is a critical
    // hit: the vehicle critical table 3 3 3 = 9 (a window hit: no windows, normal damage);
    // 5d 1 1 1 1 1 = 5 × 50 = 250, within 1/2D, less DR 25: 225 (15% of 1500: a major
    // damage roll, 6 6 5 = 17: crew hurt 1d = 1); and the drive is halved.
    let mut dice = Scripted::new(&[1, 1, 1, 3, 3, 3, 1, 1, 1, 1, 1, 6, 6, 5, 1]);
    next(&mut s, &map, &mut dice, &mut ev);
    assert_eq!(dice.remaining(), 0, "{ev:?}");
    assert_eq!(s.ship(UnitId(1)).hp, 1500 - 225);
    assert_eq!(s.ship(UnitId(1)).drive_halved, 1);
    assert_eq!(s.ship(UnitId(1)).crew_hurt, 1);
}

/// "Scan Modifiers", PESA: a ship silhouetted against a star is harder to see (−4): the
/// star lies beyond it on the sensor's line.
#[test]
fn a_ship_against_a_star_is_silhouetted() {
    let (mut s, _) = duel("", "", "", 4);
    s.planets.push(super::space::Planet {
        name: "Regina".into(),
        at: (12, 0),
        atmosphere: false,
        star: true,
    });
    assert!(s.silhouetted(Hex::new(0, 0), Hex::new(4, 0)));
    assert!(
        !s.silhouetted(Hex::new(0, 0), Hex::new(4, -3)),
        "off the line"
    );
    assert!(
        !s.silhouetted(Hex::new(20, 0), Hex::new(4, 0)),
        "the star is nearer"
    );
}

/// "VEHICLE CRITICAL HITS" (the table runs on after the critical head blows on the
/// screen): every result by its 3d6 roll, with the damage each multiplies.
#[test]
fn the_vehicle_critical_hit_table() {
    use super::space::{VehicleCritical::*, vehicle_critical};
    let expect = [
        (3, Triple, 3),
        (4, Double, 2),
        (5, BypassSensor, 1),
        (6, Engine, 1),
        (7, Fire, 1),
        (8, Weapon, 1),
        (9, Window, 1),
        (10, Window, 1),
        (11, Window, 1),
        (12, Equipment, 1),
        (13, Bypass, 1),
        (14, Engine, 1),
        (15, Comms, 1),
        (16, FuelLeak, 2),
        (17, TripleOnly, 3),
        (18, DoubleAmmo, 2),
    ];
    for (roll, c, factor) in expect {
        assert_eq!(vehicle_critical(roll), c, "roll {roll}");
        assert_eq!(c.factor(), factor, "roll {roll}");
    }
}

/// "MAJOR DAMAGE TABLE": fuel tank shattered loses half the fuel *capacity* (twice:
/// all of it); the M-drive halved rounds down (3 G: 1 G; 1 G: 0); power loss halves Gs; a
/// particle beam's result 11 knocks a computer out; the power plant cripples the ship.
#[test]
fn major_damage_effects() {
    use super::tables::MajorDamage;
    let (mut s, _) = duel("", ", fuel: 40", "", 4);
    let raider = UnitId(0);
    let mut ev = Vec::new();
    let mut d = Scripted::new(&[]);
    s.ship_mut(UnitId(0)).fuel = 30;
    s.major_effect_for_test(raider, MajorDamage::FuelLost, &mut d, &mut ev);
    assert_eq!(
        s.ship(raider).fuel,
        10,
        "30 less half of the 40-ton capacity"
    );
    s.major_effect_for_test(raider, MajorDamage::FuelLost, &mut d, &mut ev);
    assert_eq!(s.ship(raider).fuel, 0);
    assert_eq!(s.accel(raider), 2.0);
    s.major_effect_for_test(raider, MajorDamage::ManeuverDrive, &mut d, &mut ev);
    assert_eq!(s.accel(raider), 1.0);
    s.major_effect_for_test(raider, MajorDamage::ManeuverDrive, &mut d, &mut ev);
    assert_eq!(s.accel(raider), 0.0, "1 G halved, rounded down");
    assert_eq!(s.thrust(raider), 0);
    let (mut s, _) = duel("", "", "", 4);
    s.major_effect_for_test(raider, MajorDamage::PowerLoss, &mut d, &mut ev);
    assert_eq!(s.accel(raider), 1.0);
    let mut d = Scripted::new(&[5, 3, 3]);
    s.major_damage_for_test(raider, 2000, true, &mut d, &mut ev);
    assert_eq!(
        s.ship(raider).computers,
        2,
        "11 by a particle beam: a computer"
    );
    s.major_effect_for_test(raider, MajorDamage::PowerPlant, &mut d, &mut ev);
    assert!(
        s.free_mounts(raider).is_empty() && s.thrust(raider) == 0,
        "crippled"
    );
}

/// "Scan Modifiers": prior detection (+4) is a find on the prior round by *another*
/// sensor type or by an ally: the same ship's same sensor does not count.
#[test]
fn prior_detection_needs_another_sensor_or_an_ally() {
    use super::space::Detection;
    let d = Detection {
        by: Some((UnitId(0), SensorKind::Aesa)),
        ..Detection::default()
    };
    assert!(!d.prior_for(UnitId(0), SensorKind::Aesa));
    assert!(d.prior_for(UnitId(0), SensorKind::Pesa));
    assert!(d.prior_for(UnitId(2), SensorKind::Aesa));
    assert!(!Detection::default().prior_for(UnitId(0), SensorKind::Aesa));
}

/// The weapons table's ranges and the space range table are in 10,000-mile hexes: with
/// 5,000-mile hexes a target 8 hexes away is at range 4 (a 360-MJ laser reaches 6).
#[test]
fn ranges_count_ten_thousand_mile_hexes() {
    let (mut s, _) = duel("hex_miles: 5000.0", "", "", 8);
    s.ship_mut(UnitId(1)).seen_by[0].found = true;
    assert_eq!(s.std_range(8), 4);
    let w = s.sheet(UnitId(0)).mounts[0].weapon;
    assert_eq!(s.why_not_target(UnitId(0), UnitId(1), &w), None);
    let m = s.gunnery_modifiers(UnitId(0), 0, UnitId(1));
    assert!(m.iter().any(|x| x.value == gunnery_range_modifier(4)));
    // An undetected ship cannot be fired at.
    s.ship_mut(UnitId(1)).seen_by[0].found = false;
    assert_eq!(
        s.why_not_target(UnitId(0), UnitId(1), &w),
        Some("Merchant has not been detected".into())
    );
}

/// Point defense (+10, "GUNNERY MODIFIERS") that hits shoots the missile down: it does
/// not strike.
#[test]
fn point_defense_shoots_a_missile_down() {
    let (mut s, map, mut ev) = volley(", targeting: 20", 1);
    // 11 + 11 + 4 + 20 + 0 - 41 + 10 = 15: 3 3 3 shoots it down.
    let mut d = Scripted::new(&[3, 3, 3]);
    next(&mut s, &map, &mut d, &mut ev);
    assert_eq!(d.remaining(), 0);
    assert_eq!(s.ship(UnitId(1)).hp, 1500);
    assert!(s.missiles().is_empty());
    assert!(
        ev.iter().any(
            |e| matches!(e, BattleEvent::Roll { result, .. } if result.contains("shoots down"))
        )
    );
}

/// Collisions ("collisions ... when paths cross the same hex"): two ships that meet
/// without trying to ram each roll Piloting to steer clear, and collide only if both fail.
#[test]
fn ships_that_meet_steer_clear_or_collide() {
    for (faces, collide) in [
        (vec![6, 6, 6, 3, 3, 3], false),
        (vec![6, 6, 6, 6, 6, 5], true),
    ] {
        let (mut s, map) = duel("", "", "", 2);
        let mut ev = Vec::new();
        let mut d = Scripted::new(&[3, 3, 3, 3, 3, 3]);
        s.begin_turn(&mut d, &mut ev);
        let mut d = Scripted::new(&[]);
        next(&mut s, &map, &mut d, &mut ev);
        for u in [0, 1] {
            s.apply(
                UnitId(u),
                Action::Maneuver {
                    to: (1, 0),
                    passive: false,
                    ram: None,
                },
                &mut ev,
            );
            next(&mut s, &map, &mut d, &mut ev);
        }
        assert_eq!(s.near_misses, vec![(UnitId(0), UnitId(1))]);
        for u in [0, 1] {
            s.apply(UnitId(u), Action::Fire { shots: Vec::new() }, &mut ev);
            if u == 0 {
                next(&mut s, &map, &mut d, &mut ev);
            }
        }
        let mut d = Scripted::new(&faces);
        next(&mut s, &map, &mut d, &mut ev);
        assert_eq!(d.remaining(), 0);
        assert_eq!(s.ship(UnitId(1)).hp < 1500, collide, "{faces:?}");
    }
}

/// The AI (ai.rs): it keeps its quarry at the range where its mounts do most damage
/// (for the raider's two lasers against the merchant: point-blank, 0 hexes), burning
/// towards it; it fires every mount in reach; it launches missiles at a detected enemy
/// within half a missile's endurance.
#[test]
fn the_ai_closes_fires_and_launches() {
    use super::ai;
    let (mut s, map) = duel("", "", "", 6);
    let mut ev = Vec::new();
    let mut d = Scripted::new(&[3, 3, 3, 3, 3, 3]);
    s.begin_turn(&mut d, &mut ev);
    let mut d = Scripted::new(&[]);
    next(&mut s, &map, &mut d, &mut ev);
    assert_eq!(ai::preferred_range(&s, s.ships(), UnitId(0), UnitId(1)), 0);
    let Action::Maneuver { to, .. } = ai::choose(&s, s.ships(), UnitId(0)) else {
        panic!("a maneuver")
    };
    // Two points of thrust from rest: as near the merchant (6, 0) as it can, (2, 0).
    assert_eq!(to, (2, 0));
    s.phase = Phase::DirectFire;
    s.queue = vec![UnitId(0)];
    let Action::Fire { shots } = ai::choose(&s, s.ships(), UnitId(0)) else {
        panic!("fire")
    };
    assert_eq!(shots.len(), 2, "both lasers reach 6 hexes");
    s.phase = Phase::Launch;
    assert_eq!(
        ai::choose(&s, s.ships(), UnitId(0)),
        Action::Launch {
            target: UnitId(1),
            count: 2
        }
    );
}

/// The odds the fire panel shows for a shot ([`Space::shot_odds`]) are the frequency with
/// which direct fire's roll (3d6 against [`Space::shot_modifiers`], GURPS criticals)
/// succeeds over all 216 rolls: the raider's lasers at 3 and 5 hexes, with and without its
/// active sensor lock and its computer, whole-ship and pinpoint ("GUNNERY MODIFIERS").
#[test]
fn the_odds_shown_are_the_odds_rolled() {
    let mut checked = 0;
    for gap in [3, 5] {
        let (mut s, _) = duel("", "", "", gap);
        let mut ev = Vec::new();
        s.begin_turn(&mut Scripted::new(&[3, 3, 3, 3, 3, 3]), &mut ev);
        for blind in [false, true] {
            if blind {
                s.ship_mut(UnitId(0)).computers = 0;
                s.ship_mut(UnitId(0)).passive = true;
            }
            for mount in 0..2 {
                for pinpoint in [false, true] {
                    let shown = s.shot_odds(UnitId(0), mount, UnitId(1), pinpoint);
                    let mods = s.shot_modifiers(UnitId(0), mount, UnitId(1), pinpoint);
                    // The AI's unlabelled sums are the labelled lists' sums.
                    let total: i32 = mods.iter().map(|m| m.value).sum();
                    let ships = s.ships();
                    let quick = s
                        .space
                        .shot_total(ships, UnitId(0), mount, UnitId(1), pinpoint);
                    assert_eq!(quick, total, "mount {mount}, pinpoint {pinpoint}");
                    let weapon = ships.sheet(UnitId(0)).mounts[mount].weapon;
                    let gunner = s.space.augmented_gunner(ships, UnitId(0), &weapon);
                    assert_eq!(
                        s.space.augmented_gunner_total(ships, UnitId(0), &weapon),
                        gunner.iter().map(|m| m.value).sum::<i32>()
                    );
                    let mut hits = 0;
                    for a in 1..=6 {
                        for b in 1..=6 {
                            for c in 1..=6 {
                                let roll = crate::dice::success_roll(
                                    &mut Scripted::new(&[a, b, c]),
                                    mods.clone(),
                                );
                                hits += u32::from(roll.succeeded());
                            }
                        }
                    }
                    assert!(
                        (shown - f64::from(hits) / 216.0).abs() < 1e-12,
                        "{gap} hexes, blind {blind}, mount {mount}, pinpoint {pinpoint}: shown {shown}, rolled {hits}/216"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 16);
}

/// "Scan Modifiers" (issue 26 item 3): the +4 for prior detection comes from the turn just
/// before — a find last turn by another of the side's sensors gives it, a find two turns
/// ago (with a miss in between) does not.
#[test]
fn prior_detection_is_last_turns_find() {
    let (mut s, _) = duel("", "", "", 4);
    let prior = |s: &Battle, kind| {
        s.space
            .scan_modifiers(s.ships(), UnitId(0), kind, UnitId(1))
            .is_some_and(|m| {
                m.iter()
                    .any(|x| &*x.label == "prior detection" && x.value == 4)
            })
    };
    let mut ev = Vec::new();
    // Turn 1: the raider's side finds the merchant (3 3 3); the merchant misses (6 6 6).
    s.begin_turn(&mut Scripted::new(&[3, 3, 3, 6, 6, 6]), &mut ev);
    let Some((finder, kind)) = s.detection(UnitId(0), UnitId(1)).by else {
        panic!("not found: {ev:?}");
    };
    assert_eq!(finder, UnitId(0));
    let other = [SensorKind::Aesa, SensorKind::Pesa, SensorKind::Radscan]
        .into_iter()
        .find(|&k| {
            k != kind
                && s.space
                    .scan_modifiers(s.ships(), UnitId(0), k, UnitId(1))
                    .is_some()
        })
        .unwrap_or_else(|| panic!("a second sensor"));
    assert!(
        prior(&s, other),
        "found last turn by {kind:?}: +4 for {other:?}"
    );
    assert!(!prior(&s, kind), "the same sensor gets no +4");
    // Turn 2: both sides miss; turn 3's scans get no +4 from turn 1's find.
    s.begin_turn(&mut Scripted::new(&[6, 6, 6, 6, 6, 6]), &mut ev);
    assert_eq!(s.detection(UnitId(0), UnitId(1)).by, None);
    assert!(!prior(&s, other), "found two turns ago: no +4");
}

/// "VEHICLE CRITICAL HITS" (issue 26 items 4 and 5): a missile's strike that is a critical
/// hit rolls on the table like a beam's; a 3 triples the damage and, as it penetrates,
/// *destroys* one of the computers — gone, not listed for damage control.
#[test]
fn a_missiles_critical_hit_rolls_on_the_vehicle_table_and_destroys_a_computer() {
    let (mut s, map, mut ev) = volley(", computers: 2", 1);
    // Point defense 3 3 3 misses (skill -5); the strike 1 1 1 = 3 is a critical hit; the
    // vehicle critical roll 1 1 1 = 3: triple damage; 6d [1 ×6] × 20 = 120, ×3 = 360, less
    // DR 50: 310 through, a tenth of 1,500 or more: the major damage roll 1 1 4 = 6, cargo.
    let mut d = Scripted::new(&[3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4]);
    next(&mut s, &map, &mut d, &mut ev);
    assert_eq!(d.remaining(), 0, "{ev:?}");
    assert!(ev.iter().any(
        |e| matches!(e, BattleEvent::Roll { purpose, .. } if purpose.contains("vehicle critical"))
    ));
    assert_eq!(s.ship(UnitId(1)).hp, 1500 - 310);
    assert_eq!(s.ship(UnitId(1)).computers, 1);
    assert!(
        !s.ship(UnitId(1)).repairs.contains(&Repairable::Computer),
        "a destroyed computer is not repaired"
    );
}

/// Direct fire is simultaneous once every ship has declared (this project's reading of
/// "SEQUENCE OF ACTION", step 4; issue 26 item 6): a shot listed later is rolled against
/// the state at declaration, so the merchant keeps its targeting program although the
/// raider's shot, resolved first, knocks its bridge out.
#[test]
fn a_volley_is_rolled_against_the_state_at_declaration() {
    use super::space::Aim;
    let (mut s, map) = duel("", "", ", targeting: 8", 1);
    let mut ev = Vec::new();
    s.begin_turn(&mut Scripted::new(&[3, 3, 3, 3, 3, 3]), &mut ev);
    let mut d = Scripted::new(&[]);
    next(&mut s, &map, &mut d, &mut ev);
    for u in [0, 1] {
        let at = s.ship(UnitId(u)).pos;
        let stay = Action::Maneuver {
            to: (at.x, at.y),
            passive: false,
            ram: None,
        };
        s.apply(UnitId(u), stay, &mut ev);
        next(&mut s, &map, &mut d, &mut ev);
    }
    assert_eq!(s.phase, Phase::DirectFire);
    let shot = |target, pinpoint| Action::Fire {
        shots: vec![Shot {
            mount: 0,
            target: UnitId(target),
            pinpoint,
        }],
    };
    s.apply(UnitId(0), shot(1, Some(Aim::Bridge)), &mut ev);
    next(&mut s, &map, &mut d, &mut ev);
    s.apply(UnitId(1), shot(0, None), &mut ev);
    // The raider: 1 1 1, a critical hit; vehicle critical 3 3 3 (a window: normal damage);
    // 5d [1 ×5] × 50 = 250 less DR 25: 225, a major damage roll 6 6 5 (crew hurt, 1d = 1);
    // the bridge is out. The merchant: 6 6 6, a miss — rolled with its targeting program.
    let mut dice = Scripted::new(&[1, 1, 1, 3, 3, 3, 1, 1, 1, 1, 1, 6, 6, 5, 1, 6, 6, 6]);
    ev.clear();
    next(&mut s, &map, &mut dice, &mut ev);
    assert_eq!(dice.remaining(), 0, "{ev:?}");
    assert!(
        !s.ship(UnitId(1)).bridge,
        "the raider's pinpoint shot took the bridge"
    );
    let merchant_shot = ev.iter().find_map(|e| match e {
        BattleEvent::Attack { attacker, roll, .. } if *attacker == UnitId(1) => Some(roll),
        _ => None,
    });
    let Some(roll) = merchant_shot else {
        panic!("the merchant did not fire: {ev:?}");
    };
    assert!(
        roll.modifiers
            .iter()
            .any(|m| &*m.label == "targeting program" && m.value == 8),
        "{:?}",
        roll.modifiers
    );
}

/// The unlabelled scan total a side weighs is the sum of the labelled "Scan Modifiers" it
/// rolls, for both ships' every sensor, before and after the first turn's scans (prior
/// detection), and none without such a sensor.
#[test]
fn a_scan_total_is_the_sum_of_its_modifiers() {
    let (mut s, _) = duel("", "", "", 4);
    let mut compared = 0;
    for turn in 0..2 {
        for (by, target) in [(UnitId(0), UnitId(1)), (UnitId(1), UnitId(0))] {
            for kind in [SensorKind::Aesa, SensorKind::Pesa, SensorKind::Radscan] {
                let listed = s.space.scan_modifiers(s.ships(), by, kind, target);
                let total = s.space.scan_total(s.ships(), by, kind, target);
                assert_eq!(
                    total,
                    listed
                        .as_ref()
                        .map(|m| m.iter().map(|x| x.value).sum::<i32>()),
                    "turn {turn}: {by:?} scans {target:?} with {kind:?}"
                );
                compared += usize::from(total.is_some());
            }
        }
        s.begin_turn(&mut Scripted::new(&[3, 3, 3, 3, 3, 3]), &mut Vec::new());
    }
    assert!(compared >= 4, "{compared} sensors compared");
}
