//! Taking a lock whose holders never leave its data half-changed: a holder that panicked
//! (a bug, already logged) does not make the lock unusable for everyone else.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// [`Mutex::lock`], recovering the guard of a poisoned lock.
pub trait Locked<T: ?Sized> {
    /// The lock's guard, poisoned or not.
    fn locked(&self) -> MutexGuard<'_, T>;
}

impl<T: ?Sized> Locked<T> for Mutex<T> {
    fn locked(&self) -> MutexGuard<'_, T> {
        self.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_poisoned_lock_is_still_taken() {
        let mutex = std::sync::Arc::new(Mutex::new(1));
        let held = mutex.clone();
        let _ = std::thread::spawn(move || {
            let _guard = held.lock().expect("not poisoned yet");
            panic!("a holder panics");
        })
        .join();
        assert!(mutex.is_poisoned());
        *mutex.locked() += 1;
        assert_eq!(*mutex.locked(), 2);
    }
}
