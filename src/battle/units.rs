//! A ruleset's units read and changed through their entities: each unit entity carries
//! its checked sheet ([`Sheet`], shared and never changed in battle) and the ruleset's
//! state component; the rules reach both by [`UnitId`] through the [`Roster`].
//!
//! The rules are plain functions over [`Units`] (read) and [`UnitsMut`] (change), so the
//! same code runs inside a system (through [`UnitComponents`], a system parameter), on a
//! whole battle world outside any system (the window, the contract's unit lines, tests:
//! [`World`] implements both traits) and nowhere keeps a copy of a unit's state.

use super::{Roster, UnitId};
use bevy::ecs::change_detection::Mut;
use bevy::ecs::component::{Component, Mutable};
use bevy::ecs::entity::Entity;
use bevy::ecs::prelude::{Query, Res};
use bevy::ecs::system::SystemParam;
use bevy::ecs::world::World;
use std::cell::OnceCell;
use std::sync::Arc;

/// A unit's checked sheet on its entity: what the scenario made of it, shared between
/// the battles of a session and never changed in battle.
#[derive(Component, Debug)]
pub struct Sheet<S: Send + Sync + 'static>(pub Arc<S>);

impl<S: Send + Sync + 'static> std::ops::Deref for Sheet<S> {
    type Target = S;
    fn deref(&self) -> &S {
        &self.0
    }
}

/// The roster of a world without one (no units).
static NO_UNITS: Roster = Roster { units: Vec::new() };

/// Read access to every unit's sheet `S` and state component `T`, by [`UnitId`].
pub trait Units<S: Send + Sync + 'static, T: Component<Mutability = Mutable>> {
    /// Names, sides and entities of the units, in [`UnitId`] order.
    fn roster(&self) -> &Roster;
    /// A unit's sheet (`None`: no such unit, or not one of this ruleset).
    fn sheet_of(&self, id: UnitId) -> Option<&Arc<S>>;
    /// A unit's state (`None`: no such unit, or not one of this ruleset).
    fn state_of(&self, id: UnitId) -> Option<&T>;
    /// The unit of an entity.
    fn unit_of(&self, entity: Entity) -> Option<UnitId>;

    /// How many units the battle has.
    fn count(&self) -> usize {
        self.roster().units.len()
    }
    /// Every unit, in [`UnitId`] order.
    fn ids(&self) -> std::iter::Map<std::ops::Range<u32>, fn(u32) -> UnitId> {
        (0..self.count() as u32).map(UnitId as fn(u32) -> UnitId)
    }
    /// A unit's side.
    fn side_of(&self, id: UnitId) -> Option<u8> {
        self.roster().units.get(id.0 as usize).map(|u| u.side)
    }
    /// A unit's name ("?" for no such unit).
    fn name_of(&self, id: UnitId) -> &str {
        self.roster().name(id)
    }
    /// A unit's entity.
    fn entity_of(&self, id: UnitId) -> Option<Entity> {
        self.roster().entity(id)
    }
    /// A unit's entity, as state that belongs to a pair of units names the other one
    /// ([`Entity::PLACEHOLDER`], which names no unit, for no such unit).
    fn entity(&self, id: UnitId) -> Entity {
        self.entity_of(id).unwrap_or(Entity::PLACEHOLDER)
    }
}

/// [`Units`] with the state open to change.
pub trait UnitsMut<S: Send + Sync + 'static, T: Component<Mutability = Mutable>>:
    Units<S, T>
{
    /// A unit's state to change.
    fn state_mut(&mut self, id: UnitId) -> Option<&mut T>;
}

impl<S: Send + Sync + 'static, T: Component<Mutability = Mutable>> Units<S, T> for World {
    fn roster(&self) -> &Roster {
        self.get_resource::<Roster>().unwrap_or(&NO_UNITS)
    }
    fn sheet_of(&self, id: UnitId) -> Option<&Arc<S>> {
        let e = Units::<S, T>::roster(self).entity(id)?;
        self.get::<Sheet<S>>(e).map(|s| &s.0)
    }
    fn state_of(&self, id: UnitId) -> Option<&T> {
        let e = Units::<S, T>::roster(self).entity(id)?;
        self.get::<T>(e)
    }
    fn unit_of(&self, entity: Entity) -> Option<UnitId> {
        self.get::<UnitId>(entity).copied()
    }
}

impl<S: Send + Sync + 'static, T: Component<Mutability = Mutable>> UnitsMut<S, T> for World {
    fn state_mut(&mut self, id: UnitId) -> Option<&mut T> {
        let e = Units::<S, T>::entity_of(self, id)?;
        self.get_mut::<T>(e).map(|m| m.into_inner())
    }
}

impl<S: Send + Sync + 'static, T: Component<Mutability = Mutable>, X: Units<S, T> + ?Sized>
    Units<S, T> for &X
{
    fn roster(&self) -> &Roster {
        (**self).roster()
    }
    fn sheet_of(&self, id: UnitId) -> Option<&Arc<S>> {
        (**self).sheet_of(id)
    }
    fn state_of(&self, id: UnitId) -> Option<&T> {
        (**self).state_of(id)
    }
    fn unit_of(&self, entity: Entity) -> Option<UnitId> {
        (**self).unit_of(entity)
    }
}

impl<S: Send + Sync + 'static, T: Component<Mutability = Mutable>, X: Units<S, T> + ?Sized>
    Units<S, T> for &mut X
{
    fn roster(&self) -> &Roster {
        (**self).roster()
    }
    fn sheet_of(&self, id: UnitId) -> Option<&Arc<S>> {
        (**self).sheet_of(id)
    }
    fn state_of(&self, id: UnitId) -> Option<&T> {
        (**self).state_of(id)
    }
    fn unit_of(&self, entity: Entity) -> Option<UnitId> {
        (**self).unit_of(entity)
    }
}

impl<S: Send + Sync + 'static, T: Component<Mutability = Mutable>, X: UnitsMut<S, T> + ?Sized>
    UnitsMut<S, T> for &mut X
{
    fn state_mut(&mut self, id: UnitId) -> Option<&mut T> {
        (**self).state_mut(id)
    }
}

/// The system parameter that gives a system its units: the roster and the query of every
/// unit's id, sheet `S` and state `T`. The rules read them through
/// [`UnitComponents::gather`] ([`Units`] and [`UnitsMut`]), one pass over the query into a
/// list by unit id, so that a lookup is an index rather than a query.
#[derive(SystemParam)]
pub struct UnitComponents<'w, 's, S: Send + Sync + 'static, T: Component<Mutability = Mutable>> {
    roster: Res<'w, Roster>,
    query: Query<'w, 's, (&'static UnitId, &'static Sheet<S>, &'static mut T)>,
}

/// A copy of every unit's sheet and state taken at one moment (say, when a phase began,
/// for rules that resolve against the state at declaration), readable as [`Units`].
#[derive(Clone, Debug)]
pub struct Frozen<S, T> {
    roster: Roster,
    sheets: Vec<Option<Arc<S>>>,
    states: Vec<Option<T>>,
}

impl<S: Send + Sync + 'static, T: Component<Mutability = Mutable> + Clone> Frozen<S, T> {
    /// The units as they are now.
    pub fn take(units: &impl Units<S, T>) -> Self {
        Self {
            roster: units.roster().clone(),
            sheets: units.ids().map(|id| units.sheet_of(id).cloned()).collect(),
            states: units.ids().map(|id| units.state_of(id).cloned()).collect(),
        }
    }
}

impl<S: Send + Sync + 'static, T: Component<Mutability = Mutable>> Units<S, T> for Frozen<S, T> {
    fn roster(&self) -> &Roster {
        &self.roster
    }
    fn sheet_of(&self, id: UnitId) -> Option<&Arc<S>> {
        self.sheets.get(id.0 as usize)?.as_ref()
    }
    fn state_of(&self, id: UnitId) -> Option<&T> {
        self.states.get(id.0 as usize)?.as_ref()
    }
    fn unit_of(&self, entity: Entity) -> Option<UnitId> {
        self.roster.unit_of(entity)
    }
}

impl<'w, 's, S: Send + Sync + 'static, T: Component<Mutability = Mutable>>
    UnitComponents<'w, 's, S, T>
{
    /// Names, sides and entities of the units, in [`UnitId`] order.
    pub fn roster(&self) -> &Roster {
        &self.roster
    }

    /// Every unit's sheet and state borrowed once, in a list by [`UnitId`]: the
    /// [`Units`] and [`UnitsMut`] a system hands its rules (each lookup an index, not a
    /// query).
    pub fn gather(&mut self) -> Gathered<'_, S, T> {
        let roster: &Roster = &self.roster;
        let mut units: Vec<Option<(&Arc<S>, Mut<'_, T>)>> =
            (0..roster.units.len()).map(|_| None).collect();
        for (id, sheet, state) in self.query.iter_mut() {
            if let Some(slot) = units.get_mut(id.0 as usize) {
                *slot = Some((&sheet.0, state));
            }
        }
        Gathered {
            roster,
            units,
            by_entity: OnceCell::new(),
        }
    }
}

/// Every unit's sheet and state of one system run, borrowed from the query in a list by
/// [`UnitId`] ([`UnitComponents::gather`]).
pub struct Gathered<'a, S: Send + Sync + 'static, T: Component<Mutability = Mutable>> {
    roster: &'a Roster,
    units: Vec<Option<(&'a Arc<S>, Mut<'a, T>)>>,
    /// Every unit's entity and id in entity order, made when first asked: rules that keep
    /// state by pair of entities ask for thousands of units a step (the roster searched
    /// from the start each time made a hundred-ship battle quadratic).
    by_entity: OnceCell<Vec<(Entity, UnitId)>>,
}

impl<S: Send + Sync + 'static, T: Component<Mutability = Mutable>> Units<S, T>
    for Gathered<'_, S, T>
{
    fn roster(&self) -> &Roster {
        self.roster
    }
    fn sheet_of(&self, id: UnitId) -> Option<&Arc<S>> {
        self.units.get(id.0 as usize)?.as_ref().map(|(s, _)| *s)
    }
    fn state_of(&self, id: UnitId) -> Option<&T> {
        self.units.get(id.0 as usize)?.as_ref().map(|(_, t)| &**t)
    }
    fn unit_of(&self, entity: Entity) -> Option<UnitId> {
        let by_entity = self.by_entity.get_or_init(|| {
            let mut v: Vec<(Entity, UnitId)> = (self.roster.units.iter().enumerate())
                .filter_map(|(i, u)| Some((u.entity, UnitId(u32::try_from(i).ok()?))))
                .collect();
            // The roster's first entry of an entity wins, as in `Roster::unit_of`.
            v.sort_by_key(|&(e, id)| (e, id));
            v.dedup_by_key(|&mut (e, _)| e);
            v
        });
        by_entity
            .binary_search_by_key(&entity, |&(e, _)| e)
            .ok()
            .map(|i| by_entity[i].1)
    }
}

impl<S: Send + Sync + 'static, T: Component<Mutability = Mutable>> UnitsMut<S, T>
    for Gathered<'_, S, T>
{
    fn state_mut(&mut self, id: UnitId) -> Option<&mut T> {
        self.units
            .get_mut(id.0 as usize)?
            .as_mut()
            .map(|(_, t)| &mut **t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::RosterEntry;
    use bevy::ecs::system::RunSystemOnce;

    /// A unit's state in the test world.
    #[derive(Component)]
    struct Hp;

    #[test]
    fn gathered_units_name_their_entities_as_the_roster_does() {
        let mut world = World::new();
        // Spawned in one order, listed in the roster in another.
        let late = world.spawn((UnitId(1), Sheet(Arc::new(())), Hp)).id();
        let early = world.spawn((UnitId(0), Sheet(Arc::new(())), Hp)).id();
        let stranger = world.spawn(Hp).id();
        let entry = |name: &str, entity| RosterEntry {
            name: name.into(),
            side: 0,
            entity,
        };
        world.insert_resource(Roster {
            units: vec![entry("Early", early), entry("Late", late)],
        });
        let found = world
            .run_system_once(move |mut units: UnitComponents<(), Hp>| {
                let units = units.gather();
                [early, late, stranger].map(|e| units.unit_of(e))
            })
            .expect("the system runs");
        assert_eq!(found, [Some(UnitId(0)), Some(UnitId(1)), None]);
    }
}
