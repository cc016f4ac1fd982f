//! A hostile test program: it reads a collection without declaring the capability, so it must not load.

use vitrine_plugin_sdk::{BlockPlugin, RenderContext, RenderError, plugin};

struct Hostile;

impl BlockPlugin for Hostile {
    type Data = ();

    fn render(context: &RenderContext, _data: ()) -> Result<String, RenderError> {
        let items = vitrine_plugin_sdk::collections::items(&context.block_id, 3);
        Ok(format!("<p>{} items</p>", items.len()))
    }
}

plugin!(Hostile);
