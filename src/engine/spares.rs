//! `Spares`: the emptied tables of the last analysis on this thread, handed to the next one so
//! that their buffers need not grow again. An emptied table is a new one: no result survives
//! from one analysis to the next.

use super::end_pool::EndPool;
use super::memo::Memo;
use super::shared::Shared;
use std::cell::RefCell;

/// The emptied tables of the last analysis on this thread ([`Memo`], [`EndPool`], [`Shared`]),
/// for the next one: an emptied table is a new one, whose buffers need not grow again (copying
/// the grids they hold).
pub(crate) struct Spares {
    pub(super) memo: Memo,
    pub(super) pool: EndPool,
    pub(super) shared: Shared,
}

thread_local! {
    static SPARES: RefCell<Option<Spares>> = const { RefCell::new(None) };
}

/// A table whose emptied buffers are kept per thread (in [`Spares`]) for the next analysis.
pub(crate) trait Spare: Default {
    /// Its place among the spares.
    fn slot(spares: &mut Spares) -> &mut Self;

    /// Forgets everything, as a new one, keeping the buffers.
    fn clear(&mut self);

    /// An empty table, with the buffers of the last one this thread gave back.
    fn spare() -> Self {
        SPARES.with(|s| {
            s.borrow_mut()
                .as_mut()
                .map(|s| std::mem::take(Self::slot(s)))
                .unwrap_or_default()
        })
    }

    /// Empties this table and keeps it for [`Spare::spare`].
    fn give_back(mut self) {
        self.clear();
        SPARES.with(|s| {
            let mut s = s.borrow_mut();
            let spares = s.get_or_insert_with(|| Spares {
                memo: Memo::default(),
                pool: EndPool::default(),
                shared: Shared::default(),
            });
            *Self::slot(spares) = self;
        });
    }
}
