//! The client error reporter's limits (000 s9): at most 20 entries sent per page, at most 10
//! waiting, stacks truncated at 5000 characters, and sends debounced by 1 s. The browser runs
//! the same rules in TypeScript; this model is what the property tests check.

/// At most this many entries are sent from one page.
pub const MAX_SENDS_PER_PAGE: usize = 20;
/// At most this many entries wait for the next send.
pub const MAX_QUEUED: usize = 10;
/// Stacks longer than this many characters are cut.
pub const MAX_STACK_CHARS: usize = 5000;
/// A send happens once no new error arrived for this long.
pub const SEND_DEBOUNCE_MS: i64 = 1000;

/// The first [`MAX_STACK_CHARS`] characters of a stack.
pub fn truncate_stack(stack: &str) -> &str {
    match stack.char_indices().nth(MAX_STACK_CHARS) {
        Some((end, _)) => &stack[..end],
        None => stack,
    }
}

/// The reporter of one page. "Sends" counts entries sent, not requests, so a page can never
/// report more than 20 errors however they are batched.
#[derive(Debug)]
pub struct ErrorReporter<T> {
    queue: Vec<T>,
    sent: usize,
    last_report_ms: Option<i64>,
}

impl<T> Default for ErrorReporter<T> {
    fn default() -> Self {
        Self {
            queue: Vec::new(),
            sent: 0,
            last_report_ms: None,
        }
    }
}

impl<T> ErrorReporter<T> {
    /// Queues an error; returns false when it was dropped because the queue is full or the
    /// page's allowance is used up.
    pub fn report(&mut self, entry: T, now_ms: i64) -> bool {
        if self.queue.len() >= MAX_QUEUED || self.sent + self.queue.len() >= MAX_SENDS_PER_PAGE {
            return false;
        }
        self.queue.push(entry);
        self.last_report_ms = Some(now_ms);
        true
    }

    /// The entries to send now: everything queued once [`SEND_DEBOUNCE_MS`] passed since the
    /// last report, otherwise nothing.
    pub fn take_due(&mut self, now_ms: i64) -> Vec<T> {
        match self.last_report_ms {
            Some(last) if now_ms - last >= SEND_DEBOUNCE_MS && !self.queue.is_empty() => {
                self.sent += self.queue.len();
                std::mem::take(&mut self.queue)
            }
            _ => Vec::new(),
        }
    }

    pub fn queued(&self) -> usize {
        self.queue.len()
    }

    pub fn sent(&self) -> usize {
        self.sent
    }
}

/// How many stack frames after the message identify an error's group.
const FINGERPRINT_FRAMES: usize = 3;

/// The group an error report belongs to: 16 hex characters of SHA-256 over the message and the
/// top three stack frames (trimmed lines after the message line). Line and column numbers stay
/// in, so two different throw sites with one message are two groups.
pub fn error_fingerprint(message: &str, stack: Option<&str>) -> String {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    hasher.update(message.trim().as_bytes());
    let frames = stack
        .unwrap_or("")
        .lines()
        .map(str::trim)
        .filter(|line| line.starts_with("at ") || line.contains('@'))
        .take(FINGERPRINT_FRAMES);
    for frame in frames {
        hasher.update(b"\n");
        hasher.update(frame.as_bytes());
    }
    hasher.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
