//! Hit locations (gurps-lite-and-socs.txt, "HIT LOCATIONS" in both the modifier column and
//! the 3d6 table): where a blow lands, what aiming there costs, how the location changes the
//! wounding multiplier, crippling and knockdown.

use super::tables::DamageType;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A body location a blow can land on or be aimed at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HitLocation {
    /// The default location.
    #[default]
    Torso,
    /// Skull (3–4 on the table).
    Skull,
    /// Face (5).
    Face,
    /// Right leg (6–7).
    RightLeg,
    /// Right arm (8), the weapon arm.
    RightArm,
    /// Groin (11).
    Groin,
    /// Left arm (12).
    LeftArm,
    /// Left leg (13–14).
    LeftLeg,
    /// Hand (15): the weapon hand (decision: the quick reference does not say which).
    Hand,
    /// Foot (16).
    Foot,
    /// Neck (17–18).
    Neck,
    /// An eye (aimed only).
    Eye,
    /// Vitals (aimed only).
    Vitals,
}

/// How a location is hurt by injury beyond its multiplier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limb {
    /// An arm or a leg: crippled by injury over HP/2.
    Limb,
    /// A hand or a foot: crippled by injury over HP/3.
    Extremity,
}

impl HitLocation {
    /// DR the body itself gives at the location, on top of armor: the skull's 2
    /// (gurps-traveller-gm-screen.txt, "BRAIN (3-4)": "Skull provides DR 2"; one of the
    /// detailed hit location rules decision 5 takes from that screen).
    pub fn natural_dr(self) -> i32 {
        match self {
            HitLocation::Skull => 2,
            _ => 0,
        }
    }

    /// Every location, torso first.
    pub const ALL: [HitLocation; 13] = [
        HitLocation::Torso,
        HitLocation::Skull,
        HitLocation::Face,
        HitLocation::RightLeg,
        HitLocation::RightArm,
        HitLocation::Groin,
        HitLocation::LeftArm,
        HitLocation::LeftLeg,
        HitLocation::Hand,
        HitLocation::Foot,
        HitLocation::Neck,
        HitLocation::Eye,
        HitLocation::Vitals,
    ];

    /// The location a 3d6 roll of `total` lands on (gurps-lite-and-socs.txt, "HIT
    /// LOCATIONS" table).
    pub fn from_roll(total: i32) -> HitLocation {
        match total {
            ..=4 => HitLocation::Skull,
            5 => HitLocation::Face,
            6 | 7 => HitLocation::RightLeg,
            8 => HitLocation::RightArm,
            9 | 10 => HitLocation::Torso,
            11 => HitLocation::Groin,
            12 => HitLocation::LeftArm,
            13 | 14 => HitLocation::LeftLeg,
            15 => HitLocation::Hand,
            16 => HitLocation::Foot,
            _ => HitLocation::Neck,
        }
    }

    /// The penalty to hit when aiming at this location from the front or side
    /// (gurps-lite-and-socs.txt, "HIT LOCATIONS" modifiers: torso 0, arm or leg −2, vitals
    /// or groin −3, hand or foot −4, neck or face −5, skull −7, eye −9); from behind,
    /// [`HitLocation::aim_penalty_from`].
    pub fn aim_penalty(self) -> i32 {
        match self {
            HitLocation::Torso => 0,
            HitLocation::RightArm
            | HitLocation::LeftArm
            | HitLocation::RightLeg
            | HitLocation::LeftLeg => -2,
            HitLocation::Vitals | HitLocation::Groin => -3,
            HitLocation::Hand | HitLocation::Foot => -4,
            HitLocation::Neck | HitLocation::Face => -5,
            HitLocation::Skull => -7,
            HitLocation::Eye => -9,
        }
    }

    /// The penalty to hit this location from behind (gurps-lite-and-socs.txt, "HIT
    /// LOCATIONS": "Skull (from behind)" −5, "Face (from behind)" −7); elsewhere, and from
    /// the front or side, [`HitLocation::aim_penalty`].
    pub fn aim_penalty_from(self, behind: bool) -> i32 {
        match (self, behind) {
            (HitLocation::Skull, true) => -5,
            (HitLocation::Face, true) => -7,
            _ => self.aim_penalty(),
        }
    }

    /// The label of the penalty to hit this location: its name, with "(from behind)" where
    /// that changes the penalty ([`HitLocation::aim_penalty_from`]).
    pub fn aim_label(self, behind: bool) -> &'static str {
        match (self, behind) {
            (HitLocation::Skull, true) => "skull (from behind)",
            (HitLocation::Face, true) => "face (from behind)",
            _ => self.name(),
        }
    }

    /// Locations marked * in the table: an aimed attack that misses by 1 hits the torso.
    pub fn miss_by_one_hits_torso(self) -> bool {
        matches!(
            self,
            HitLocation::Skull
                | HitLocation::Face
                | HitLocation::Groin
                | HitLocation::Neck
                | HitLocation::Eye
                | HitLocation::Vitals
        )
    }

    /// The wounding multiplier as (numerator, denominator) for `damage_type` here
    /// (gurps-lite-and-socs.txt, "HIT LOCATIONS": skull and eye ×4; limbs and extremities
    /// pi++, pi+ and imp ×1; neck cr ×1.5 and cut ×2; vitals pi++, pi+, pi and imp ×3).
    pub fn wounding_multiplier(self, damage_type: DamageType) -> (i32, i32) {
        use DamageType::*;
        match (self, damage_type) {
            (HitLocation::Skull | HitLocation::Eye, _) => (4, 1),
            (_, LargePiercing | HugePiercing | Impaling) if self.limb().is_some() => (1, 1),
            (HitLocation::Neck, Crushing) => (3, 2),
            (HitLocation::Neck, Cutting) => (2, 1),
            (HitLocation::Vitals, Piercing | LargePiercing | HugePiercing | Impaling) => (3, 1),
            _ => damage_type.wounding_multiplier(),
        }
    }

    /// Whether this is a limb or an extremity, and which.
    pub fn limb(self) -> Option<Limb> {
        match self {
            HitLocation::RightArm
            | HitLocation::LeftArm
            | HitLocation::RightLeg
            | HitLocation::LeftLeg => Some(Limb::Limb),
            HitLocation::Hand | HitLocation::Foot => Some(Limb::Extremity),
            _ => None,
        }
    }

    /// True for a leg or a foot.
    pub fn is_leg(self) -> bool {
        matches!(
            self,
            HitLocation::RightLeg | HitLocation::LeftLeg | HitLocation::Foot
        )
    }

    /// True for the weapon arm or hand.
    pub fn is_weapon_arm(self) -> bool {
        matches!(self, HitLocation::RightArm | HitLocation::Hand)
    }

    /// The most injury a blow can do here, if crippling caps it: just over HP/2 for a limb,
    /// just over HP/3 for an extremity (gurps-lite-and-socs.txt, "HIT LOCATIONS": "Injury >
    /// HP/2 cripples limb (excess damage lost)").
    pub fn injury_cap(self, hp_max: i32) -> Option<i32> {
        self.limb().map(|l| match l {
            Limb::Limb => hp_max / 2 + 1,
            Limb::Extremity => hp_max / 3 + 1,
        })
    }

    /// Whether `injury` cripples this location: over HP/2 for a limb, over HP/3 for an
    /// extremity, over HP/10 blinds an eye (gurps-lite-and-socs.txt, "HIT LOCATIONS").
    pub fn cripples(self, injury: i32, hp_max: i32) -> bool {
        match (self, self.limb()) {
            (_, Some(Limb::Limb)) => injury * 2 > hp_max,
            (_, Some(Limb::Extremity)) => injury * 3 > hp_max,
            (HitLocation::Eye, None) => injury * 10 > hp_max,
            _ => false,
        }
    }

    /// Whether any injury here calls for the HT roll against knockdown: damage to the head
    /// or vitals (gurps-lite-and-socs.txt, "INJURY", Knockdown and Stunning).
    pub fn knockdown_on_any_injury(self) -> bool {
        matches!(
            self,
            HitLocation::Skull | HitLocation::Face | HitLocation::Eye | HitLocation::Vitals
        )
    }

    /// The knockdown roll's modifier after injury here, and its label. Skull and eye
    /// "Knockdown rolls at -10", face and groin "at -5" (gurps-lite-and-socs.txt, "HIT
    /// LOCATIONS"): whenever the roll is made, major wound or not (a blow to the head calls
    /// for it on any injury, "INJURY", Knockdown and Stunning). The vitals' −5 is listed
    /// only under "INJURY" ("−5 Major Wound to face, vitals, groin"), so it applies only to
    /// a major wound there.
    pub fn knockdown_modifier(self, major: bool) -> Option<(&'static str, i32)> {
        match self {
            HitLocation::Skull => Some(("skull", -10)),
            HitLocation::Eye => Some(("eye", -10)),
            HitLocation::Face => Some(("face", -5)),
            HitLocation::Groin => Some(("groin", -5)),
            HitLocation::Vitals if major => Some(("major wound to vitals", -5)),
            _ => None,
        }
    }

    /// Shock multiplier and cap here: the groin doubles shock, to at most −8
    /// (gurps-lite-and-socs.txt, "HIT LOCATIONS").
    pub fn shock_factor_and_cap(self) -> (i32, i32) {
        if self == HitLocation::Groin {
            (2, 8)
        } else {
            (1, super::injury::MAX_SHOCK)
        }
    }

    /// The location's name in the log.
    pub fn name(self) -> &'static str {
        match self {
            HitLocation::Torso => "torso",
            HitLocation::Skull => "skull",
            HitLocation::Face => "face",
            HitLocation::RightLeg => "right leg",
            HitLocation::RightArm => "right arm",
            HitLocation::Groin => "groin",
            HitLocation::LeftArm => "left arm",
            HitLocation::LeftLeg => "left leg",
            HitLocation::Hand => "hand",
            HitLocation::Foot => "foot",
            HitLocation::Neck => "neck",
            HitLocation::Eye => "eye",
            HitLocation::Vitals => "vitals",
        }
    }
}

impl fmt::Display for HitLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a stat block gives DR: one of the body's places, as GCS names them (an arm or a
/// leg stands for both). `All` gives every place not listed by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum DrPlace {
    /// Every place the stat block does not list.
    All,
    /// Skull.
    Skull,
    /// Eyes.
    Eye,
    /// Face.
    Face,
    /// Neck.
    Neck,
    /// Torso.
    Torso,
    /// Vitals.
    Vitals,
    /// Groin.
    Groin,
    /// Both arms.
    Arm,
    /// Hands.
    Hand,
    /// Both legs.
    Leg,
    /// Feet.
    Foot,
}

impl DrPlace {
    /// The place a hit location is part of.
    pub fn of(location: HitLocation) -> DrPlace {
        match location {
            HitLocation::Torso => DrPlace::Torso,
            HitLocation::Skull => DrPlace::Skull,
            HitLocation::Face => DrPlace::Face,
            HitLocation::RightLeg | HitLocation::LeftLeg => DrPlace::Leg,
            HitLocation::RightArm | HitLocation::LeftArm => DrPlace::Arm,
            HitLocation::Groin => DrPlace::Groin,
            HitLocation::Hand => DrPlace::Hand,
            HitLocation::Foot => DrPlace::Foot,
            HitLocation::Neck => DrPlace::Neck,
            HitLocation::Eye => DrPlace::Eye,
            HitLocation::Vitals => DrPlace::Vitals,
        }
    }

    /// The place a GCS hit location id names (`skull`, `arm`…), if it is one of these.
    pub fn from_gcs(id: &str) -> Option<DrPlace> {
        Some(match id {
            "skull" => DrPlace::Skull,
            "eye" => DrPlace::Eye,
            "face" => DrPlace::Face,
            "neck" => DrPlace::Neck,
            "torso" => DrPlace::Torso,
            "vitals" => DrPlace::Vitals,
            "groin" => DrPlace::Groin,
            "arm" => DrPlace::Arm,
            "hand" => DrPlace::Hand,
            "leg" => DrPlace::Leg,
            "foot" => DrPlace::Foot,
            _ => return None,
        })
    }
}

/// DR at every hit location, from armor and the stat block (the skull's own DR 2 comes on
/// top, in [`HitLocation::natural_dr`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrTable([i32; HitLocation::ALL.len()]);

impl DrTable {
    /// The same DR everywhere.
    pub fn uniform(dr: i32) -> DrTable {
        DrTable([dr; HitLocation::ALL.len()])
    }

    /// DR at `location`.
    pub fn at(&self, location: HitLocation) -> i32 {
        self.0[location as usize]
    }

    /// DR over the torso: the number the AI weighs a blow against and the sheet shows first.
    pub fn torso(&self) -> i32 {
        self.at(HitLocation::Torso)
    }

    /// Sets DR at `location`.
    pub fn set(&mut self, location: HitLocation, dr: i32) {
        self.0[location as usize] = dr;
    }

    /// This table with `more` added everywhere (a suit of armor over the body).
    pub fn plus(mut self, more: i32) -> DrTable {
        for v in &mut self.0 {
            *v = v.saturating_add(more);
        }
        self
    }

    /// Whether every location has the same DR.
    pub fn is_uniform(&self) -> bool {
        self.0.iter().all(|&v| v == self.0[0])
    }

    /// The table as a stat block's places give it: a listed place's DR where it is listed,
    /// `All`'s (or 0) elsewhere.
    pub fn from_places(places: &std::collections::BTreeMap<DrPlace, i32>) -> DrTable {
        let all = places.get(&DrPlace::All).copied().unwrap_or(0);
        let mut table = DrTable::uniform(all);
        for location in HitLocation::ALL {
            if let Some(&dr) = places.get(&DrPlace::of(location)) {
                table.set(location, dr);
            }
        }
        table
    }

    /// "DR 3", or with the places that differ from the torso ("DR 3 (skull 5, eye 0)").
    pub fn describe(&self) -> String {
        let torso = self.torso();
        let mut seen: Vec<DrPlace> = Vec::new();
        let mut others = Vec::new();
        for location in HitLocation::ALL {
            let place = DrPlace::of(location);
            if self.at(location) != torso && !seen.contains(&place) {
                seen.push(place);
                others.push(format!(
                    "{} {}",
                    format!("{place:?}").to_lowercase(),
                    self.at(location)
                ));
            }
        }
        if others.is_empty() {
            format!("DR {torso}")
        } else {
            format!("DR {torso} ({})", others.join(", "))
        }
    }
}

/// How unaimed blows find their location: always the torso, or the 3d6 table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum HitLocations {
    /// Unaimed blows land on the 3d6 table.
    #[default]
    Random,
    /// Unaimed blows land on the torso.
    Torso,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// DR by place: a listed place overrides `All`; an arm stands for both arms; the
    /// description names the places that differ from the torso.
    #[test]
    fn dr_by_place() {
        let places = std::collections::BTreeMap::from([
            (DrPlace::All, 1),
            (DrPlace::Torso, 4),
            (DrPlace::Arm, 2),
        ]);
        let t = DrTable::from_places(&places);
        assert_eq!(t.torso(), 4);
        assert_eq!(t.at(HitLocation::LeftArm), 2);
        assert_eq!(t.at(HitLocation::RightArm), 2);
        assert_eq!(t.at(HitLocation::Skull), 1);
        assert!(!t.is_uniform());
        assert_eq!(t.plus(2).at(HitLocation::Eye), 3);
        assert!(DrTable::uniform(3).is_uniform());
        assert_eq!(DrTable::uniform(3).describe(), "DR 3");
        assert!(t.describe().starts_with("DR 4 (skull 1"));
        assert_eq!(DrPlace::from_gcs("arm"), Some(DrPlace::Arm));
        assert_eq!(DrPlace::from_gcs("tail"), None);
    }

    /// gurps-lite-and-socs.txt "HIT LOCATIONS" table, every total from 3 to 18.
    #[test]
    fn the_3d6_table() {
        use HitLocation::*;
        let got: Vec<HitLocation> = (3..=18).map(HitLocation::from_roll).collect();
        let want = vec![
            Skull, Skull, Face, RightLeg, RightLeg, RightArm, Torso, Torso, Groin, LeftArm,
            LeftLeg, LeftLeg, Hand, Foot, Neck, Neck,
        ];
        assert_eq!(got, want);
        // exact chances over all 216 rolls: torso 9-10 is 25 + 27, skull 3-4 is 1 + 3
        let mut count = std::collections::HashMap::new();
        for a in 1..=6 {
            for b in 1..=6 {
                for c in 1..=6 {
                    *count.entry(HitLocation::from_roll(a + b + c)).or_insert(0) += 1;
                }
            }
        }
        assert_eq!(count[&Torso], 52);
        assert_eq!(count[&Skull], 4);
        assert_eq!(count[&Neck], 4);
        assert_eq!(count.values().sum::<i32>(), 216);
    }

    /// The modifier column: torso 0, arm/leg −2, vitals/groin −3, hand/foot −4, neck/face
    /// −5, skull −7, eye −9.
    #[test]
    fn aiming_penalties() {
        use HitLocation::*;
        let got: Vec<i32> = [
            Torso, LeftArm, RightLeg, Vitals, Groin, Hand, Foot, Neck, Face, Skull, Eye,
        ]
        .iter()
        .map(|l| l.aim_penalty())
        .collect();
        assert_eq!(got, vec![0, -2, -2, -3, -3, -4, -4, -5, -5, -7, -9]);
        // "Skull (from behind)" −5, "Face (from behind)" −7; the others as from the front.
        assert_eq!(
            (Skull.aim_penalty_from(true), Face.aim_penalty_from(true)),
            (-5, -7)
        );
        assert_eq!(
            (Skull.aim_penalty_from(false), Face.aim_penalty_from(false)),
            (-7, -5)
        );
        assert_eq!(Eye.aim_penalty_from(true), -9);
        assert_eq!(Skull.aim_label(true), "skull (from behind)");
        assert_eq!(Eye.aim_label(true), Eye.name());
        assert!(Skull.miss_by_one_hits_torso());
        assert!(!LeftArm.miss_by_one_hits_torso());
    }

    #[test]
    fn wounding_by_location() {
        use DamageType::*;
        use HitLocation::*;
        assert_eq!(Skull.wounding_multiplier(Crushing), (4, 1));
        assert_eq!(Eye.wounding_multiplier(Cutting), (4, 1));
        assert_eq!(LeftArm.wounding_multiplier(Impaling), (1, 1));
        assert_eq!(Hand.wounding_multiplier(HugePiercing), (1, 1));
        assert_eq!(LeftArm.wounding_multiplier(Cutting), (3, 2));
        assert_eq!(Neck.wounding_multiplier(Crushing), (3, 2));
        assert_eq!(Neck.wounding_multiplier(Cutting), (2, 1));
        assert_eq!(Vitals.wounding_multiplier(Piercing), (3, 1));
        assert_eq!(Vitals.wounding_multiplier(Impaling), (3, 1));
        assert_eq!(Vitals.wounding_multiplier(Crushing), (1, 1));
        assert_eq!(Torso.wounding_multiplier(Impaling), (2, 1));
    }

    /// HP 10: a limb is crippled by 6 (> 5) and takes at most 6; a hand by 4 (> 3.33) and
    /// takes at most 4; an eye is blinded by 2 (> 1).
    #[test]
    fn crippling_and_excess_lost() {
        use HitLocation::*;
        assert!(RightLeg.cripples(6, 10));
        assert!(!RightLeg.cripples(5, 10));
        assert_eq!(RightLeg.injury_cap(10), Some(6));
        assert!(Hand.cripples(4, 10));
        assert!(!Hand.cripples(3, 10));
        assert_eq!(Foot.injury_cap(10), Some(4));
        assert_eq!(Torso.injury_cap(10), None);
        assert!(Eye.cripples(2, 10));
        assert!(!Eye.cripples(1, 10));
    }

    /// "Weapon −5: Reach C, melee/pistol. −4: Reach 1 melee/carbine. −3: Reach 2+
    /// melee/rifle. Disarm, additional −2."
    #[test]
    fn weapons_as_targets() {
        use crate::rules::gurps::equipment::Catalog;
        use crate::rules::gurps::sheet::{GurpsStats, resolve_sheet, weapon_target_penalty};
        let stats = GurpsStats {
            weapons: [
                "broadsword",
                "halberd",
                "pistol",
                "assault rifle",
                "submachine gun",
            ]
            .iter()
            .map(|w| w.to_string().into())
            .collect(),
            st: Some(13),
            ..Default::default()
        };
        let sheet = resolve_sheet(&stats, Catalog::builtin()).unwrap();
        let p: Vec<i32> = sheet
            .weapons
            .iter()
            .map(|w| weapon_target_penalty(w, false))
            .collect();
        assert_eq!(p, vec![-4, -3, -5, -3, -3, -4]); // the last: bare hands
        assert_eq!(weapon_target_penalty(&sheet.weapons[0], true), -6);
    }

    #[test]
    fn knockdown_and_shock_by_location() {
        use HitLocation::*;
        let value = |l: HitLocation, major| l.knockdown_modifier(major).map(|(_, v)| v);
        assert_eq!(value(Face, true), Some(-5));
        assert_eq!(value(Groin, true), Some(-5));
        assert_eq!(value(Skull, true), Some(-10));
        assert_eq!(value(Torso, true), None);
        // Issue 26 item 1: a blow to the head that is no major wound still rolls at the
        // location's penalty ("HIT LOCATIONS": skull -10, face -5, eye -10) ...
        assert_eq!(value(Skull, false), Some(-10));
        assert_eq!(value(Eye, false), Some(-10));
        assert_eq!(value(Face, false), Some(-5));
        // ... but the vitals' -5 is only for a major wound ("INJURY").
        assert_eq!(value(Vitals, false), None);
        assert_eq!(value(Vitals, true), Some(-5));
        assert!(Vitals.knockdown_on_any_injury());
        assert!(!Groin.knockdown_on_any_injury());
        assert_eq!(Groin.shock_factor_and_cap(), (2, 8));
        assert_eq!(Torso.shock_factor_and_cap(), (1, 4));
    }
}
