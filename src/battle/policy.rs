//! The AI policy interface. A ruleset lists the legal actions of a unit (the same list the
//! action panel shows); a policy picks one of them given the situation. The AI and the
//! player produce the same `Command`s, and the ruleset checks every command it receives,
//! whoever made it.

/// Chooses an action for a unit from what its ruleset lists as legal.
///
/// `Situation` is the ruleset's read-only picture of the battle for the deciding unit;
/// `Legal` its list of legal options (which may describe a range of parameters, such as
/// every hex within a movement allowance, rather than enumerate them); `Action` a concrete
/// choice among them.
pub trait Policy {
    /// What the policy sees.
    type Situation<'a>;
    /// What the ruleset allows.
    type Legal;
    /// What it picks.
    type Action;

    /// Picks an action allowed by `legal`.
    fn choose(&self, situation: &Self::Situation<'_>, legal: &Self::Legal) -> Self::Action;
}

/// A ruleset whose units keep their state on their entities (sheet `Sheet`, state
/// component `State`) and share one resource that picks the AI's decision of the unit
/// whose turn it is from the shared state and the units (starship-d12's `Fleet`, SOCS's
/// `Dogfight`, Vergeworlds' `Fight`); its Decide system is [`super::decide_with_units`].
pub trait UnitsPolicy: bevy::ecs::resource::Resource {
    /// The units' sheet.
    type Sheet: Send + Sync + 'static;
    /// The units' state component.
    type State: bevy::ecs::component::Component<Mutability = bevy::ecs::component::Mutable>;
    /// The ruleset's decision.
    type Action: Clone + Send + Sync + 'static;
    /// The AI's decision for `unit`.
    fn choose(
        &self,
        units: &impl super::Units<Self::Sheet, Self::State>,
        unit: super::UnitId,
    ) -> Self::Action;
}
