//! Counts how many generated cases of a property test evaluated successfully, so that a test
//! whose generator, decoder or engine rejects everything fails instead of passing on nothing.

use std::cell::Cell;

/// Successes out of cases; `Cell`s because proptest's case closure is `Fn`.
#[derive(Debug, Default)]
pub struct Tally {
    ok: Cell<u32>,
    total: Cell<u32>,
}

impl Tally {
    /// Records one case.
    pub fn record(&self, ok: bool) {
        self.total.set(self.total.get() + 1);
        self.ok.set(self.ok.get() + u32::from(ok));
    }

    /// Panics unless at least `share` (0 to 1) of the recorded cases succeeded.
    pub fn assert_share(&self, share: f64, what: &str) {
        let (ok, total) = (self.ok.get(), self.total.get());
        assert!(total > 0, "{what}: no case ran");
        assert!(
            f64::from(ok) >= share * f64::from(total),
            "{what}: {ok} of {total} cases evaluated, fewer than the stated {:.0}%",
            share * 100.0
        );
    }
}
