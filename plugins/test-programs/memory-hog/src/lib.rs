//! A hostile test program: it keeps allocating, so only the host's memory limit stops it.

use vitrine_plugin_sdk::{BlockPlugin, RenderContext, RenderError, plugin};

struct Hostile;

impl BlockPlugin for Hostile {
    type Data = ();

    fn render(context: &RenderContext, _data: ()) -> Result<String, RenderError> {
        let mut hoard: Vec<Vec<u8>> = Vec::new();
        loop {
            hoard.push(vec![context.block_id.len() as u8; 1 << 20]);
            std::hint::black_box(&hoard);
        }
    }
}

plugin!(Hostile);
