//! The plugin host against real components: the example plugins and the hostile test programs
//! built from `plugins/test-programs` by `cargo xtask plugins`.

mod examples;
mod hostile;
mod sanitiser;
mod support;
