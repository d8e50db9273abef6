//! Byte buffers for the load generator's links, reused through a small per-thread pool, and
//! [`Text`], a received message that owns its buffer.
//!
//! Every received frame is read into a buffer that is then handed on as the message itself;
//! every sent frame is written from one. A pool that gives back the most recently returned
//! buffer first keeps the few buffers in use at a time warm in the cache, where a buffer
//! kept per connection (there are thousands) would be cold at every frame, and it spares the
//! allocator a block per frame too large for its fast per-thread cache.

use std::cell::RefCell;
use std::fmt;
use std::ops::Deref;

/// Capacity of a fresh buffer: a usual frame with room to spare.
pub const BUFFER_BYTES: usize = 4 * 1024;

/// Buffers kept for reuse, at most.
const KEPT: usize = 16;

/// Buffers grown past this (for a large frame) are freed rather than kept.
const KEPT_CAPACITY: usize = 64 * 1024;

thread_local! {
    static POOL: RefCell<Vec<Vec<u8>>> = const { RefCell::new(Vec::new()) };
}

/// An empty buffer of at least [`BUFFER_BYTES`] capacity.
pub fn take() -> Vec<u8> {
    POOL.try_with(|pool| pool.borrow_mut().pop())
        .ok()
        .flatten()
        .unwrap_or_else(|| Vec::with_capacity(BUFFER_BYTES))
}

/// Hand a buffer back for reuse (its contents are dropped).
pub fn give(mut buffer: Vec<u8>) {
    if !(BUFFER_BYTES..=KEPT_CAPACITY).contains(&buffer.capacity()) {
        return;
    }
    buffer.clear();
    // During thread teardown the pool may be gone; the buffer is then simply freed.
    let _ = POOL.try_with(|pool| {
        let mut pool = pool.borrow_mut();
        if pool.len() < KEPT {
            pool.push(buffer);
        }
    });
}

/// One received text message. Its buffer goes back to the pool when it is dropped.
pub struct Text(String);

impl Text {
    /// The message held in `bytes`, which must be UTF-8; otherwise the buffer goes back to
    /// the pool and the error says why.
    pub fn from_utf8(bytes: Vec<u8>) -> Result<Text, std::str::Utf8Error> {
        match String::from_utf8(bytes) {
            Ok(text) => Ok(Text(text)),
            Err(err) => {
                let why = err.utf8_error();
                give(err.into_bytes());
                Err(why)
            }
        }
    }
}

impl Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl Drop for Text {
    fn drop(&mut self) {
        give(std::mem::take(&mut self.0).into_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_are_reused_most_recent_first() {
        let a = take();
        let b = take();
        assert!(a.capacity() >= BUFFER_BYTES && b.capacity() >= BUFFER_BYTES);
        let b_at = b.as_ptr();
        give(a);
        give(b);
        let again = take();
        assert_eq!(again.as_ptr(), b_at);
        assert!(again.is_empty());
        // Too large or too small buffers are not kept.
        give(Vec::with_capacity(KEPT_CAPACITY + 1));
        give(Vec::with_capacity(16));
        assert!(take().capacity() >= BUFFER_BYTES);
    }

    #[test]
    fn text_returns_its_buffer() {
        let mut bytes = take();
        bytes.extend_from_slice("héllo".as_bytes());
        let at = bytes.as_ptr();
        let text = Text::from_utf8(bytes).expect("UTF-8");
        assert_eq!(&*text, "héllo");
        drop(text);
        let again = take();
        assert_eq!(again.as_ptr(), at);
        assert!(Text::from_utf8(vec![0xff, 0xfe]).is_err());
    }
}
