//! The image pipeline on real files made by the tests: sizes, formats, orientation, colour
//! profiles, metadata, and hostile files.

mod fixtures;
mod hostile;
mod variants;
