//! A hostile test program: it panics, which traps the instance.

use vitrine_plugin_sdk::{BlockPlugin, RenderContext, RenderError, plugin};

struct Hostile;

impl BlockPlugin for Hostile {
    type Data = ();

    fn render(context: &RenderContext, _data: ()) -> Result<String, RenderError> {
        panic!(
            "the test program panics on purpose in block {}",
            context.block_id
        )
    }
}

plugin!(Hostile);
