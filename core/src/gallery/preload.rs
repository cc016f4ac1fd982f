//! Which slides load (spec 001 s4 "Gallery image loading"): with lazy loading, the slides
//! within the preload count around the current one, wrapping when the gallery loops and
//! clamped to the slide range otherwise; without it, every slide.

/// The slide indexes to load, ascending and without repeats.
pub fn preload_window(
    current: u32,
    count: u32,
    preload: u32,
    looping: bool,
    lazy: bool,
) -> Vec<u32> {
    if count == 0 {
        return Vec::new();
    }
    if !lazy || preload.saturating_mul(2).saturating_add(1) >= count {
        return (0..count).collect();
    }
    let current = i64::from(current.min(count - 1));
    let reach = i64::from(preload);
    let count_wide = i64::from(count);
    let mut window: Vec<u32> = (current - reach..=current + reach)
        .filter_map(|index| {
            let index = if looping {
                index.rem_euclid(count_wide)
            } else if (0..count_wide).contains(&index) {
                index
            } else {
                return None;
            };
            u32::try_from(index).ok()
        })
        .collect();
    window.sort_unstable();
    window.dedup();
    window
}
