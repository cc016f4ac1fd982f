//! Place search for the map block (`core/src/places`): the two places calls of 001 s7, a
//! proxy to the geocoder the owner configures.

pub(crate) mod calls;
