//! A hostile test program: it never returns, so only the host's time limit stops it.

use vitrine_plugin_sdk::{BlockPlugin, RenderContext, RenderError, plugin};

struct Hostile;

impl BlockPlugin for Hostile {
    type Data = ();

    fn render(context: &RenderContext, _data: ()) -> Result<String, RenderError> {
        let mut turns: u64 = 0;
        loop {
            turns = std::hint::black_box(turns.wrapping_add(context.block_id.len() as u64));
        }
    }
}

plugin!(Hostile);
