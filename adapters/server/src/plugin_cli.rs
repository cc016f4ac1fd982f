//! `vitrine plugin check DIR`: loads a plugin folder as the server would and renders one block
//! with it, reporting its size, time and outcome against the limits, for plugin authors.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use vitrine_core::enums::BlockType;
use vitrine_core::plugins::{BlockRenderRequest, BlockRenderer};
use vitrine_plugins::{Manifest, PluginHost};

#[derive(Debug, Clone, Subcommand)]
pub enum PluginCommand {
    /// Load a plugin folder (plugin.toml beside its component) as the server would, render one
    /// block with it, and report its size, time and output against the limits.
    Check(CheckArgs),
}

#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// The plugin folder, holding plugin.toml.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// A JSON file with the block data to render. [default: an empty object]
    #[arg(long, value_name = "FILE")]
    pub data: Option<PathBuf>,
}

pub fn run(command: PluginCommand) -> anyhow::Result<()> {
    match command {
        PluginCommand::Check(args) => check(&args),
    }
}

fn check(args: &CheckArgs) -> anyhow::Result<()> {
    let manifest_path = args.dir.join("plugin.toml");
    let text = std::fs::read_to_string(&manifest_path)
        .with_context(|| format!("could not read {}", manifest_path.display()))?;
    let manifest = Manifest::parse(&text)
        .with_context(|| format!("{} is not valid", manifest_path.display()))?;
    let limits = manifest.limits().map_err(anyhow::Error::msg)?;
    let size = std::fs::metadata(args.dir.join(&manifest.component))
        .with_context(|| format!("could not read the component {}", manifest.component))?
        .len();
    println!("plugin {} {}", manifest.name, manifest.version);
    println!(
        "component: {size} bytes (limit {} bytes)",
        limits.binary_bytes
    );

    let mut host = PluginHost::new(None)?;
    let started = Instant::now();
    host.load_plugin_dir(&args.dir)?;
    println!(
        "compiled and linked in {:?}; capabilities are declared",
        started.elapsed()
    );

    let Some(block_type) = manifest
        .blocks
        .iter()
        .find_map(|claim| claim.code.and_then(|code| BlockType::from_code(code).ok()))
    else {
        bail!("the plugin claims no block type with a specification code, so no block can render");
    };
    let data = match &args.data {
        Some(path) => std::fs::read_to_string(path)
            .with_context(|| format!("could not read {}", path.display()))?,
        None => "{}".to_owned(),
    };
    let request = BlockRenderRequest {
        locale: "en-US",
        currency: "USD",
        block_id: "check",
        block_type,
        signed_in: false,
        page_url: "/",
        data: &data,
    };
    let started = Instant::now();
    let outcome = host.render(&request);
    let elapsed = started.elapsed();
    match outcome {
        Ok(html) => {
            println!(
                "rendered {block_type} in {elapsed:?}: {} bytes of HTML after sanitising (limit {} bytes)",
                html.as_str().len(),
                limits.output_bytes
            );
            println!("{}", html.as_str());
            Ok(())
        }
        Err(error) => bail!("the render failed after {elapsed:?}: {error}"),
    }
}
