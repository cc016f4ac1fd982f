//! Unit tests of the gallery rules, by the spec's sentences.

use super::*;

#[test]
fn designs_map_to_the_spec_layouts() {
    let cases = [
        ("stacked", GalleryLayout::Base),
        ("slider", GalleryLayout::Strip),
        ("slideshow", GalleryLayout::Slideshow),
        ("grid", GalleryLayout::Grid),
        ("autogrid", GalleryLayout::Autogrid),
        ("autocolumns", GalleryLayout::Autocolumns),
        ("autorows", GalleryLayout::Autorows),
        ("carousel", GalleryLayout::Carousel),
        ("list", GalleryLayout::List),
        (" Carousel ", GalleryLayout::Carousel),
        ("mosaic", GalleryLayout::Base),
        ("", GalleryLayout::Base),
    ];
    for (design, layout) in cases {
        assert_eq!(GalleryLayout::from_design(design), layout, "{design:?}");
    }
}

#[test]
fn next_and_previous_move_by_one_and_wait_for_the_transition() {
    let mut index = GalleryIndex::new(3, false);
    assert_eq!(index.next(), Ok(IndexEvent::Moved { from: 0, to: 1 }));
    assert_eq!(index.next(), Err(IndexRefusal::InMotion));
    index.settle();
    assert_eq!(index.previous(), Ok(IndexEvent::Moved { from: 1, to: 0 }));
}

#[test]
fn without_loop_the_ends_are_reported_and_kept() {
    let mut index = GalleryIndex::new(2, false);
    assert_eq!(index.previous(), Ok(IndexEvent::ReachedBeginning));
    assert!(index.at_beginning());
    index.next().unwrap();
    index.settle();
    assert_eq!(index.next(), Ok(IndexEvent::ReachedEnd));
    assert_eq!(index.current(), 1);
    assert!(index.at_end());
}

#[test]
fn with_loop_the_ends_wrap_and_negative_indexes_wrap_by_modulo() {
    let mut index = GalleryIndex::new(3, true);
    assert_eq!(index.previous(), Ok(IndexEvent::Moved { from: 0, to: 2 }));
    index.settle();
    assert_eq!(index.next(), Ok(IndexEvent::Moved { from: 2, to: 0 }));
    index.settle();
    assert_eq!(index.go_to(-4), Ok(IndexEvent::Moved { from: 0, to: 2 }));
    index.settle();
    assert_eq!(index.go_to(2), Ok(IndexEvent::Unchanged));
    assert!(!index.at_end());
}

#[test]
fn an_empty_gallery_refuses_to_move() {
    assert_eq!(GalleryIndex::new(0, true).next(), Err(IndexRefusal::Empty));
}

#[test]
fn linked_galleries_follow_and_wait_for_each_other() {
    let mut linked =
        LinkedGalleries::new(vec![GalleryIndex::new(4, true), GalleryIndex::new(4, true)]);
    assert_eq!(linked.step(1, -1), Ok(IndexEvent::Moved { from: 0, to: 3 }));
    assert_eq!(linked.members()[0].current(), 3);
    assert_eq!(linked.step(0, 1), Err(IndexRefusal::InMotion));
    linked.settle();
    assert_eq!(linked.go_to(0, 1), Ok(IndexEvent::Moved { from: 3, to: 1 }));
    assert_eq!(linked.members()[1].current(), 1);
}

#[test]
fn preload_windows_wrap_when_looping_and_clamp_otherwise() {
    assert_eq!(preload_window(0, 10, 1, true, true), vec![0, 1, 9]);
    assert_eq!(preload_window(0, 10, 1, false, true), vec![0, 1]);
    assert_eq!(preload_window(9, 10, 2, false, true), vec![7, 8, 9]);
    assert_eq!(preload_window(4, 10, 0, false, true), vec![4]);
    assert_eq!(preload_window(4, 3, 1, false, true), vec![0, 1, 2]);
    assert_eq!(preload_window(4, 10, 1, false, false).len(), 10);
    assert!(preload_window(0, 0, 1, true, true).is_empty());
}

#[test]
fn carousel_rows_shrink_on_narrow_windows() {
    assert_eq!(slides_per_row_for_width(3, 1280), 3);
    assert_eq!(slides_per_row_for_width(5, 700), 3);
    assert_eq!(slides_per_row_for_width(2, 700), 2);
    assert_eq!(slides_per_row_for_width(5, 479), 2);
    assert_eq!(slides_per_row_for_width(1, 320), 1);
    assert_eq!(slides_per_row_for_width(3, 480), 3);
}

#[test]
fn carousel_groups_clamp_and_controls_follow() {
    assert_eq!(clamp_group(-1, 7, 3), 0);
    assert_eq!(clamp_group(9, 7, 3), 2);
    let all_fit = carousel_controls(0, 3, 3);
    assert!(all_fit.hidden);
    let first = carousel_controls(0, 7, 3);
    assert!(!first.hidden && first.previous_disabled && !first.next_disabled);
    let last = carousel_controls(2, 7, 3);
    assert!(!last.previous_disabled && last.next_disabled);
}

#[test]
fn touches_are_swipes_taps_or_moves() {
    let track = |dx, dy, elapsed_ms| TouchTrack { dx, dy, elapsed_ms };
    assert_eq!(classify_touch(track(-50.0, 3.0, 250.0)), Gesture::SwipeLeft);
    assert_eq!(classify_touch(track(80.0, 0.0, 100.0)), Gesture::SwipeRight);
    assert_eq!(classify_touch(track(5.0, -60.0, 200.0)), Gesture::SwipeUp);
    assert_eq!(classify_touch(track(0.0, 51.0, 10.0)), Gesture::SwipeDown);
    assert_eq!(
        classify_touch(track(-49.9, 0.0, 100.0)),
        Gesture::TouchMoveEnd
    );
    assert_eq!(
        classify_touch(track(-80.0, 0.0, 251.0)),
        Gesture::TouchMoveEnd
    );
    assert_eq!(classify_touch(track(1.0, -1.0, 900.0)), Gesture::Tap);
    assert_eq!(classify_touch(track(1.5, 0.0, 50.0)), Gesture::TouchMoveEnd);
}

#[test]
fn movement_locks_to_an_axis_past_ten_pixels() {
    assert_eq!(axis_lock(10.0, 2.0), None);
    assert_eq!(axis_lock(11.0, 2.0), Some(Axis::X));
    assert_eq!(axis_lock(-3.0, -12.0), Some(Axis::Y));
}

#[test]
fn swipe_durations_clamp_by_screen_width() {
    assert_eq!(swipe_duration_ms(400, 300.0, 10.0), 200);
    assert_eq!(swipe_duration_ms(400, 300.0, 0.1), 400);
    assert_eq!(swipe_duration_ms(1200, 300.0, 10.0), 300);
    assert_eq!(swipe_duration_ms(1200, 400.0, 1.0), 400);
    assert_eq!(swipe_duration_ms(1200, 400.0, 0.0), 500);
    assert_eq!(swipe_duration_ms(766, 300.0, 1.0), 300);
}

#[test]
fn unknown_transitions_are_named_in_the_spec_error() {
    assert_eq!(Transition::parse("ken-burns"), Ok(Transition::KenBurns));
    assert_eq!(
        Transition::parse("spin").unwrap_err().to_string(),
        "Could not find transition named spin"
    );
}

#[test]
fn layouts_fill_in_the_spec_defaults() {
    let none = GalleryOptions::default();
    let carousel = none.resolve(GalleryLayout::Carousel, true);
    assert_eq!((carousel.slides_per_row, carousel.gutter), (3, 1));
    assert_eq!(carousel.autoplay_ms, Some(5_000));
    assert!(!carousel.looping);
    let autocolumns = none.resolve(GalleryLayout::Autocolumns, false);
    assert_eq!((autocolumns.column_width, autocolumns.gutter), (250, 0));
    let autorows = none.resolve(GalleryLayout::Autorows, false);
    assert_eq!((autorows.row_height, autorows.gutter), (250, 20));
    assert_eq!(none.resolve(GalleryLayout::Grid, false).slides_per_row, 4);
    let strip = none.resolve(GalleryLayout::Strip, false);
    assert_eq!((strip.speed_ms, strip.aspect_ratio), (500, Some(50)));
    let slideshow = none.resolve(GalleryLayout::Slideshow, true);
    assert_eq!((slideshow.speed_ms, slideshow.preload), (1_000, 1));
    // Autoplay only advances layouts that navigate; its duration is given in seconds.
    assert_eq!(none.resolve(GalleryLayout::Grid, true).autoplay_ms, None);
    let timed = GalleryOptions {
        autoplay_duration: Some(3),
        ..GalleryOptions::default()
    };
    assert_eq!(
        timed.resolve(GalleryLayout::Slideshow, true).autoplay_ms,
        Some(3_000)
    );
}

#[test]
fn column_widths_parse_as_integers_greater_than_zero() {
    assert_eq!(parse_column_width("300"), Ok(300));
    assert_eq!(parse_column_width(" 180px"), Ok(180));
    assert!(parse_column_width("0").is_err());
    assert!(parse_column_width("wide").is_err());
    assert!(
        GalleryOptions {
            column_width: Some(0),
            ..GalleryOptions::default()
        }
        .validate()
        .is_err()
    );
}

#[test]
fn strip_alignment_is_start_middle_or_end() {
    assert_eq!(StripAlignment::parse("end"), Ok(StripAlignment::End));
    assert!(StripAlignment::parse("left").is_err());
    assert_eq!(StripAlignment::default(), StripAlignment::Middle);
}
