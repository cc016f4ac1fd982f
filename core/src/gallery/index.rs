//! The gallery index (spec 001 s4 "Gallery index"): next is +1 and previous -1; at the ends it
//! wraps when looping, otherwise it reports reached-end or reached-beginning and stays; no
//! change is accepted while a transition is in motion; any index, negative too, wraps by
//! modulo; linked galleries (a slideshow and its thumbnail strip) move together.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GalleryIndex {
    current: u32,
    count: u32,
    looping: bool,
    in_motion: bool,
}

/// What a request to move did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum IndexEvent {
    /// The index changed and a transition is now in motion until [`GalleryIndex::settle`].
    Moved {
        from: u32,
        to: u32,
    },
    /// The index asked for is the current one: nothing to do.
    Unchanged,
    ReachedEnd,
    ReachedBeginning,
}

/// Why a request to move was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum IndexRefusal {
    #[error("a transition is in motion")]
    InMotion,
    #[error("the gallery has no slides")]
    Empty,
}

impl GalleryIndex {
    /// An index at the first slide of `count` slides.
    pub fn new(count: u32, looping: bool) -> Self {
        Self {
            current: 0,
            count,
            looping,
            in_motion: false,
        }
    }

    pub fn current(&self) -> u32 {
        self.current
    }

    pub fn count(&self) -> u32 {
        self.count
    }

    pub fn looping(&self) -> bool {
        self.looping
    }

    pub fn in_motion(&self) -> bool {
        self.in_motion
    }

    /// The transition finished; the next change is accepted.
    pub fn settle(&mut self) {
        self.in_motion = false;
    }

    // The spec names the move "next"; an index is not an iterator.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<IndexEvent, IndexRefusal> {
        self.step(1)
    }

    pub fn previous(&mut self) -> Result<IndexEvent, IndexRefusal> {
        self.step(-1)
    }

    /// Moves by one forward (`1`) or back (`-1`); other steps move as far, with the same rule
    /// at the ends.
    pub fn step(&mut self, delta: i64) -> Result<IndexEvent, IndexRefusal> {
        self.ready()?;
        let target = i64::from(self.current) + delta;
        if !self.looping {
            if target >= i64::from(self.count) {
                return Ok(IndexEvent::ReachedEnd);
            }
            if target < 0 {
                return Ok(IndexEvent::ReachedBeginning);
            }
        }
        Ok(self.arrive(target))
    }

    /// Goes to `index`, wrapped by modulo into the slide range (so -1 is the last slide).
    pub fn go_to(&mut self, index: i64) -> Result<IndexEvent, IndexRefusal> {
        self.ready()?;
        Ok(self.arrive(index))
    }

    /// Whether a next or previous control should carry the disabled mark.
    pub fn at_end(&self) -> bool {
        !self.looping && self.current + 1 >= self.count
    }

    pub fn at_beginning(&self) -> bool {
        !self.looping && self.current == 0
    }

    fn ready(&self) -> Result<(), IndexRefusal> {
        if self.count == 0 {
            return Err(IndexRefusal::Empty);
        }
        if self.in_motion {
            return Err(IndexRefusal::InMotion);
        }
        Ok(())
    }

    fn arrive(&mut self, target: i64) -> IndexEvent {
        let to = wrap(target, self.count);
        if to == self.current {
            return IndexEvent::Unchanged;
        }
        let from = self.current;
        self.current = to;
        self.in_motion = true;
        IndexEvent::Moved { from, to }
    }
}

/// `index` modulo `count`, never negative. `count` is not zero.
fn wrap(index: i64, count: u32) -> u32 {
    // The remainder lies in 0..count, so it fits in u32.
    u32::try_from(index.rem_euclid(i64::from(count))).unwrap_or(0)
}

/// Galleries that show the same slides and move together, such as a slideshow and its
/// thumbnail strip: a move of one is refused while any of them is in motion, and every other
/// member follows to the same slide.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkedGalleries {
    members: Vec<GalleryIndex>,
}

impl LinkedGalleries {
    pub fn new(members: Vec<GalleryIndex>) -> Self {
        Self { members }
    }

    pub fn members(&self) -> &[GalleryIndex] {
        &self.members
    }

    pub fn settle(&mut self) {
        self.members.iter_mut().for_each(GalleryIndex::settle);
    }

    /// Steps member `who` by `delta` and brings the others to its new slide.
    pub fn step(&mut self, who: usize, delta: i64) -> Result<IndexEvent, IndexRefusal> {
        self.apply(who, |index| index.step(delta))
    }

    pub fn go_to(&mut self, who: usize, target: i64) -> Result<IndexEvent, IndexRefusal> {
        self.apply(who, |index| index.go_to(target))
    }

    fn apply(
        &mut self,
        who: usize,
        change: impl FnOnce(&mut GalleryIndex) -> Result<IndexEvent, IndexRefusal>,
    ) -> Result<IndexEvent, IndexRefusal> {
        if self.members.iter().any(GalleryIndex::in_motion) {
            return Err(IndexRefusal::InMotion);
        }
        let Some(leader) = self.members.get_mut(who) else {
            return Err(IndexRefusal::Empty);
        };
        let event = change(leader)?;
        if let IndexEvent::Moved { to, .. } = event {
            for (at, member) in self.members.iter_mut().enumerate() {
                if at != who && member.count > 0 {
                    let _ = member.go_to(i64::from(to));
                }
            }
        }
        Ok(event)
    }
}
