//! Characters (main-sequence.txt, "Character Creation"): Soldier, Agent and Tech, the
//! derived Combat Rating, Hit Points, Initiative, Edge and Defense, skills at Basic,
//! Advanced or Master, and the creation limits.

use serde::{Deserialize, Serialize};

/// The three attributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attributes {
    /// Physical performance and survival.
    pub soldier: i32,
    /// Agility, skill and precision.
    pub agent: i32,
    /// Knowledge and analysis.
    pub tech: i32,
}

impl Attributes {
    /// Combat Rating: the average of Soldier and Agent, rounded down.
    pub fn combat_rating(self) -> i32 {
        (self.soldier + self.agent).div_euclid(2)
    }

    /// Hit Points: Soldier + 6.
    pub fn hit_points(self) -> i32 {
        self.soldier + 6
    }

    /// Initiative: the average of Agent and Tech, rounded down.
    pub fn initiative(self) -> i32 {
        (self.agent + self.tech).div_euclid(2)
    }

    /// Defense: Combat Rating + 4.
    pub fn defense(self) -> i32 {
        self.combat_rating() + 4
    }
}

/// Edge a new character starts with.
pub const STARTING_EDGE: i32 = 3;

/// A skill's training.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Rank {
    /// Untrained: the attribute alone.
    Untrained,
    /// +2, one rank.
    Basic,
    /// +4, two ranks.
    Advanced,
    /// +6, three ranks.
    Master,
}

impl Rank {
    /// The skill modifier.
    pub fn bonus(self) -> i32 {
        match self {
            Rank::Untrained => 0,
            Rank::Basic => 2,
            Rank::Advanced => 4,
            Rank::Master => 6,
        }
    }

    /// Ranks ("dots") it costs at creation.
    pub fn dots(self) -> i32 {
        self as i32
    }
}

/// What breaks the creation rules: 10 attribute points, each attribute 1 to 6, six skill
/// ranks, no skill above Advanced. Empty when the character is legal.
pub fn creation_problems(a: Attributes, skills: &[Rank]) -> Vec<String> {
    let mut v = Vec::new();
    let sum = a.soldier + a.agent + a.tech;
    if sum != 10 {
        v.push(format!("attributes add up to {sum}: expected 10"));
    }
    for (name, x) in [("Soldier", a.soldier), ("Agent", a.agent), ("Tech", a.tech)] {
        if !(1..=6).contains(&x) {
            v.push(format!("{name} {x}: expected 1 to 6"));
        }
    }
    let dots: i32 = skills.iter().map(|r| r.dots()).sum();
    if dots > 6 {
        v.push(format!("{dots} skill ranks: expected at most 6"));
    }
    if skills.contains(&Rank::Master) {
        v.push("a starting skill can be at most Advanced".into());
    }
    v
}
