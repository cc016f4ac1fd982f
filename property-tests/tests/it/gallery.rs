//! The gallery index against a reference model (an integer and a flag), the linked galleries'
//! agreement, the preload window's bounds and the touch classification's exclusivity.

use proptest::prelude::*;
use vitrine_core::gallery::{
    GalleryIndex, Gesture, IndexEvent, IndexRefusal, LinkedGalleries, TouchTrack, clamp_group,
    classify_touch, preload_window, slides_per_row_for_width,
};

#[derive(Debug, Clone)]
enum Op {
    Next,
    Previous,
    GoTo(i64),
    Settle,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => Just(Op::Next),
        4 => Just(Op::Previous),
        2 => (-50i64..50).prop_map(Op::GoTo),
        5 => Just(Op::Settle),
    ]
}

/// The reference: the spec's sentences with plain integers.
#[derive(Debug)]
struct Model {
    current: i64,
    count: i64,
    looping: bool,
    moving: bool,
}

impl Model {
    fn apply(&mut self, op: &Op) -> Option<Result<IndexEvent, IndexRefusal>> {
        let target = match op {
            Op::Settle => {
                self.moving = false;
                return None;
            }
            Op::Next => self.current + 1,
            Op::Previous => self.current - 1,
            Op::GoTo(to) => *to,
        };
        if self.moving {
            return Some(Err(IndexRefusal::InMotion));
        }
        if !self.looping && !matches!(op, Op::GoTo(_)) {
            if target >= self.count {
                return Some(Ok(IndexEvent::ReachedEnd));
            }
            if target < 0 {
                return Some(Ok(IndexEvent::ReachedBeginning));
            }
        }
        let to = ((target % self.count) + self.count) % self.count;
        if to == self.current {
            return Some(Ok(IndexEvent::Unchanged));
        }
        let from = self.current;
        self.current = to;
        self.moving = true;
        Some(Ok(IndexEvent::Moved {
            from: from as u32,
            to: to as u32,
        }))
    }
}

proptest! {
    #[test]
    fn the_index_agrees_with_the_model(
        count in 1u32..12,
        looping in any::<bool>(),
        ops in proptest::collection::vec(op(), 0..60),
    ) {
        let mut index = GalleryIndex::new(count, looping);
        let mut model = Model { current: 0, count: i64::from(count), looping, moving: false };
        for op in &ops {
            let expected = model.apply(op);
            let got = match op {
                Op::Next => Some(index.next()),
                Op::Previous => Some(index.previous()),
                Op::GoTo(to) => Some(index.go_to(*to)),
                Op::Settle => { index.settle(); None }
            };
            prop_assert_eq!(got, expected, "after {:?}", op);
            prop_assert_eq!(i64::from(index.current()), model.current);
            prop_assert!(index.current() < count);
        }
    }

    #[test]
    fn linked_galleries_always_show_the_same_slide(
        count in 1u32..10,
        moves in proptest::collection::vec((0usize..2, -3i64..4, any::<bool>()), 0..40),
    ) {
        let mut linked = LinkedGalleries::new(vec![GalleryIndex::new(count, true), GalleryIndex::new(count, true)]);
        for (who, delta, settle) in moves {
            let _ = linked.step(who, delta);
            if settle { linked.settle(); }
            let members = linked.members();
            prop_assert_eq!(members[0].current(), members[1].current());
        }
    }

    #[test]
    fn preload_windows_hold_the_current_slide_and_stay_in_range(
        count in 1u32..40,
        current in 0u32..40,
        preload in 0u32..5,
        looping in any::<bool>(),
    ) {
        let current = current % count;
        let window = preload_window(current, count, preload, looping, true);
        prop_assert!(window.contains(&current));
        prop_assert!(window.iter().all(|&i| i < count));
        prop_assert!(window.windows(2).all(|w| w[0] < w[1]));
        prop_assert!(window.len() as u32 <= (2 * preload + 1).min(count));
        if looping {
            prop_assert_eq!(window.len() as u32, (2 * preload + 1).min(count));
        }
    }

    #[test]
    fn a_touch_is_exactly_one_gesture_and_swipes_need_distance_and_speed(
        dx in -200.0f64..200.0,
        dy in -200.0f64..200.0,
        elapsed_ms in 0.0f64..1000.0,
    ) {
        let gesture = classify_touch(TouchTrack { dx, dy, elapsed_ms });
        let distance = dx.abs().max(dy.abs());
        let swipe = !matches!(gesture, Gesture::Tap | Gesture::TouchMoveEnd);
        prop_assert_eq!(swipe, distance >= 50.0 && elapsed_ms <= 250.0);
        prop_assert_eq!(gesture == Gesture::Tap, !swipe && distance <= 1.0);
    }

    #[test]
    fn carousel_groups_and_rows_stay_in_bounds(
        count in 0u32..50,
        per_row in 1u8..8,
        target in -20i64..20,
        width in 200u32..2000,
    ) {
        let group = clamp_group(target, count, per_row);
        prop_assert!(group * u32::from(per_row) <= count.max(1) - 1 + u32::from(per_row));
        let shown = slides_per_row_for_width(per_row, width);
        prop_assert!(shown >= 1 && shown <= per_row.max(2));
    }
}
