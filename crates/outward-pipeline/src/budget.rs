//! [`Budget`]: the counting semaphore on records and payload bytes between the readers and
//! the writers of a run, shared by every input, so memory is bounded whatever the input.
//!
//! Invariants: a record alone always fits (no deadlock on a page larger than the byte
//! budget); waiters are woken only when at most half the records are held, and a reader
//! sends its batch before it waits (see `stream`), so whoever waits holds nothing that only
//! its own progress would free.

use std::sync::{Condvar, Mutex};

/// Counting semaphore on records and payload bytes in flight. Waiters are woken when at most
/// half the records are held (and then at every release while they wait): whoever waits
/// must not hold records that only its own progress would free.
pub struct Budget {
    /// Records and bytes held, and how many threads wait in `acquire`.
    state: Mutex<BudgetState>,
    freed: Condvar,
    max_records: usize,
    max_bytes: u64,
}

#[derive(Default)]
struct BudgetState {
    records: usize,
    bytes: u64,
    waiting: usize,
}

impl Budget {
    pub fn new(max_records: usize, max_bytes: u64) -> Budget {
        Budget {
            state: Mutex::new(BudgetState::default()),
            freed: Condvar::new(),
            max_records: max_records.max(1),
            max_bytes,
        }
    }

    fn fits(&self, s: &BudgetState, bytes: u64) -> bool {
        s.records == 0 || (s.records < self.max_records && s.bytes + bytes <= self.max_bytes)
    }

    /// Blocks until one more record of `bytes` fits (a record alone always fits).
    pub fn acquire(&self, bytes: u64) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while !self.fits(&s, bytes) {
            s.waiting += 1;
            s = self.freed.wait(s).unwrap_or_else(|e| e.into_inner());
            s.waiting -= 1;
        }
        s.records += 1;
        s.bytes += bytes;
    }

    /// Whether a thread waits in `acquire` now (another input's reader, when inputs share
    /// the budget).
    pub fn contended(&self) -> bool {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).waiting > 0
    }

    /// Takes one more record of `bytes` if it fits now; `false` (nothing taken) when
    /// `acquire` would block.
    pub fn try_acquire(&self, bytes: u64) -> bool {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let fits = self.fits(&s, bytes);
        if fits {
            s.records += 1;
            s.bytes += bytes;
        }
        fits
    }

    pub fn release(&self, bytes: u64) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.records = s.records.saturating_sub(1);
        s.bytes = s.bytes.saturating_sub(bytes);
        // A wake-up is a system call and a context switch: only when somebody waits, and only
        // once half the records are free, so a woken reader reads a batch, not one page.
        if s.waiting > 0 && s.records <= self.max_records / 2 {
            self.freed.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_blocks_until_released() {
        let budget = std::sync::Arc::new(Budget::new(2, 100));
        budget.acquire(60);
        budget.acquire(30);
        let b2 = budget.clone();
        let handle = std::thread::spawn(move || {
            b2.acquire(50); // must wait: 2 records in flight
            b2.release(50);
        });
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(!handle.is_finished());
        budget.release(60);
        handle.join().unwrap();
        budget.release(30);
        // A lone record larger than the byte budget still passes.
        budget.acquire(1000);
        budget.release(1000);
    }

    #[test]
    fn a_reader_waiting_for_budget_shows_as_contention() {
        let budget = std::sync::Arc::new(Budget::new(1, 100));
        budget.acquire(10);
        assert!(!budget.contended());
        assert!(!budget.try_acquire(10));
        let b2 = budget.clone();
        let waiter = std::thread::spawn(move || b2.acquire(10));
        let start = std::time::Instant::now();
        while !budget.contended() {
            assert!(start.elapsed().as_secs() < 10, "the waiter never waited");
            std::thread::yield_now();
        }
        budget.release(10);
        waiter.join().unwrap();
        assert!(!budget.contended());
        budget.release(10);
        assert!(budget.try_acquire(10));
    }
}
