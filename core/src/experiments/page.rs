//! A page as one visitor's variants show it: each chosen variant's block changes applied to
//! the page's layouts, and the decisions in the page context, so the server renders the
//! variant into the HTML (no flicker) and islands read the same decision.

use super::decision::Assignment;
use super::definition::{BlockChange, Experiments};
use crate::pages::{PageContent, PageView};
use crate::site::{Block, Body, Layout};

/// Applies the variants `assignments` chose to `view`. An assignment that returned the
/// defaults changes nothing on the page.
pub fn apply_variants(view: &mut PageView, experiments: &Experiments, assignments: &[Assignment]) {
    let changes: Vec<&BlockChange> = assignments
        .iter()
        .filter(|assignment| assignment.error.is_none())
        .filter_map(|assignment| {
            experiments
                .get(&assignment.context.name)?
                .variants
                .iter()
                .find(|variant| variant.name == assignment.context.variant)
        })
        .flat_map(|variant| variant.changes.iter())
        .collect();
    view.context.experiments = assignments
        .iter()
        .map(|assignment| assignment.context.clone())
        .collect();
    if changes.is_empty() {
        return;
    }
    match &mut view.content {
        PageContent::Layout { collection } | PageContent::ItemList { collection, .. } => {
            change_body(&mut collection.body, &changes);
        }
        PageContent::Item { collection, item } => {
            change_body(&mut collection.body, &changes);
            change_body(&mut item.body, &changes);
        }
        PageContent::NotFound
        | PageContent::Error
        | PageContent::Locked { .. }
        | PageContent::Slide { .. }
        | PageContent::Commerce => {}
    }
}

fn change_body(body: &mut Body, changes: &[&BlockChange]) {
    let mut rows = body.layout.rows().to_vec();
    for column in rows.iter_mut().flat_map(|row| row.columns.iter_mut()) {
        column.blocks = std::mem::take(&mut column.blocks)
            .into_iter()
            .filter_map(|block| changed(block, changes))
            .collect();
    }
    // Changes only replace or remove blocks, so the grid stays one the layout accepted.
    if let Ok(layout) = Layout::new(rows) {
        body.layout = layout;
    }
}

fn changed(block: Block, changes: &[&BlockChange]) -> Option<Block> {
    let mut block = block;
    for change in changes {
        match change {
            BlockChange::Hide(id) if *id == block.id => return None,
            BlockChange::Replace(replacement) if replacement.id == block.id => {
                block = replacement.clone();
            }
            _ => {}
        }
    }
    Some(block)
}

/// What the page cache adds to a path's key for these decisions: every experiment's name and
/// variant (and segment, which the variant already implies but the context shows), so each
/// variant of a page is cached apart and a visitor is never served another's. Empty when no
/// experiment applies, so pages without experiments keep their plain key.
pub fn cache_key_suffix(assignments: &[Assignment]) -> String {
    let mut suffix = String::new();
    for assignment in assignments {
        let context = &assignment.context;
        suffix.push('\u{1f}');
        suffix.push_str(&context.name);
        suffix.push('=');
        suffix.push_str(&context.variant);
        if let Some(segment) = &context.segment_name {
            suffix.push('@');
            suffix.push_str(segment);
        }
        if context.contains_error {
            suffix.push('!');
        }
    }
    suffix
}
