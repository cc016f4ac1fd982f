//! A hostile test program: it returns 2 MB of HTML, far beyond the output limit.

use vitrine_plugin_sdk::{BlockPlugin, RenderContext, RenderError, plugin};

struct Hostile;

impl BlockPlugin for Hostile {
    type Data = ();

    fn render(context: &RenderContext, _data: ()) -> Result<String, RenderError> {
        Ok(format!(
            "<p>{}{}</p>",
            context.block_id,
            "x".repeat(2 << 20)
        ))
    }
}

plugin!(Hostile);
