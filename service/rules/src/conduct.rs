//! What a hidden piece's public moves showed of it.

use crate::describe::KindId;

/// A set of the kinds of one ruleset (kind indices below 16).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KindSet(u16);

impl KindSet {
    /// Adds `kind`; kinds past the 16th are not kept.
    pub fn insert(&mut self, kind: KindId) {
        if let Some(bit) = 1_u16.checked_shl(u32::from(kind.0)) {
            self.0 |= bit;
        }
    }

    /// Whether `kind` is in the set.
    pub fn contains(self, kind: KindId) -> bool {
        1_u16
            .checked_shl(u32::from(kind.0))
            .is_some_and(|bit| self.0 & bit != 0)
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The kinds, in index order.
    pub fn iter(self) -> impl Iterator<Item = KindId> {
        (0..16_u8)
            .map(KindId)
            .filter(move |&kind| self.contains(kind))
    }
}

/// What a piece's moves showed while its kind was hidden, from what everybody sees: the
/// revealed enemy kinds it stood next to, free to attack, on its owner's turn, and did not
/// attack (a player takes what their piece beats). Both seats and spectators may know it;
/// it tells nothing that a replay of the public moves does not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Conduct {
    /// Revealed enemy kinds the piece could have attacked and did not.
    pub declined: KindSet,
}

impl Conduct {
    /// Nothing shown.
    pub const NONE: Conduct = Conduct {
        declined: KindSet(0),
    };

    /// Whether the piece's moves showed nothing.
    pub fn is_empty(self) -> bool {
        self.declined.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_set_keeps_the_first_sixteen_kinds() {
        let mut set = KindSet::default();
        assert!(set.is_empty());
        for kind in [0, 3, 15, 16, 200] {
            set.insert(KindId(kind));
        }
        assert_eq!(
            set.iter().collect::<Vec<_>>(),
            [KindId(0), KindId(3), KindId(15)]
        );
        assert!(set.contains(KindId(15)) && !set.contains(KindId(16)));
    }
}
