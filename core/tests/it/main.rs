//! The core's integration tests: one binary, one module per subject.

mod demo_site;
