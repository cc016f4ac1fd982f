//! Plugin blocks (`core/src/plugins`): `GetWidgetRendering`. The render pool and the plugin
//! stylesheets serve pages too, so they sit in the render layer (`render/pool.rs`,
//! `render/plugin_styles.rs`).

pub(crate) mod widgets;
