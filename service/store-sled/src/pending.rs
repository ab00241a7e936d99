//! The values the commit log holds that sled does not yet: groups are durable once their
//! frame is written, and their keys reach sled only at the next checkpoint, each key once
//! however often it changed since the last. Until then every read of the store looks here
//! first.
//!
//! A game's open chunk changes with every move: flat out, setting it in sled at each group
//! cost more server time than the rest of the commit, and most of it was overwritten again
//! within the same checkpoint interval.

use std::collections::BTreeMap;
use std::sync::{RwLock, RwLockReadGuard};

use super::wal::{self, Op};

/// Keys set or removed since the last checkpoint, with their latest values (`None`: removed).
#[derive(Debug, Default)]
pub(super) struct Pending {
    values: RwLock<BTreeMap<Vec<u8>, Option<Vec<u8>>>>,
}

impl Pending {
    fn values(&self) -> RwLockReadGuard<'_, BTreeMap<Vec<u8>, Option<Vec<u8>>>> {
        self.values.read().unwrap_or_else(|e| e.into_inner())
    }

    /// The value of `key`: the pending one, else sled's.
    pub(super) fn get(&self, db: &sled::Db, key: &[u8]) -> sled::Result<Option<Vec<u8>>> {
        // Held across the sled read: a checkpoint then only writes into sled the values
        // seen here, and forgets them after this read.
        let values = self.values();
        match values.get(key) {
            Some(value) => Ok(value.clone()),
            None => Ok(db.get(key)?.map(|value| value.to_vec())),
        }
    }

    /// The values of the keys starting with `prefix`, in key order, pending ones over sled's.
    pub(super) fn scan_prefix(&self, db: &sled::Db, prefix: &[u8]) -> sled::Result<Vec<Vec<u8>>> {
        let entries = self.scan_prefix_keys(db, prefix)?;
        Ok(entries.into_iter().map(|(_, value)| value).collect())
    }

    /// The keys starting with `prefix` and their values, in key order, pending ones over
    /// sled's.
    pub(super) fn scan_prefix_keys(
        &self,
        db: &sled::Db,
        prefix: &[u8],
    ) -> sled::Result<Vec<(Vec<u8>, Vec<u8>)>> {
        let values = self.values();
        let mut merged = BTreeMap::new();
        for item in db.scan_prefix(prefix) {
            let (key, value) = item?;
            merged.insert(key.to_vec(), Some(value.to_vec()));
        }
        let pending = values
            .range(prefix.to_vec()..)
            .take_while(|(key, _)| key.starts_with(prefix));
        for (key, value) in pending {
            merged.insert(key.clone(), value.clone());
        }
        Ok(merged
            .into_iter()
            .filter_map(|(key, value)| Some((key, value?)))
            .collect())
    }

    /// Notes `ops`, whose frame the commit log holds.
    pub(super) fn set(&self, ops: Vec<Op>) {
        let mut values = self.values.write().unwrap_or_else(|e| e.into_inner());
        for op in ops {
            match op {
                Op::Insert(key, value) => values.insert(key, Some(value)),
                Op::Remove(key) => values.insert(key, None),
            };
        }
    }

    /// Sets every pending key in `db` (readers see the same values either way).
    pub(super) fn write_to(&self, db: &sled::Db) -> sled::Result<()> {
        for (key, value) in self.values().iter() {
            wal::set(db, key, value.as_deref())?;
        }
        Ok(())
    }

    /// Forgets everything pending, once sled holds it.
    pub(super) fn clear(&self) {
        self.values
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    /// How many keys are pending.
    pub(super) fn len(&self) -> usize {
        self.values().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn insert(key: &str, value: &str) -> Op {
        Op::Insert(key.as_bytes().to_vec(), value.as_bytes().to_vec())
    }

    #[test]
    fn reads_see_pending_values_over_sleds_until_they_are_written() {
        let db = sled::Config::new().temporary(true).open().expect("sled");
        for (key, value) in [
            ("a1", "old"),
            ("a2", "gone"),
            ("a3", "kept"),
            ("b1", "other"),
        ] {
            db.insert(key, value).expect("insert");
        }
        let pending = Pending::default();
        pending.set(vec![
            insert("a1", "new"),
            Op::Remove(b"a2".to_vec()),
            insert("a4", "added"),
            insert("a1", "newer"),
        ]);
        let text = |values: Vec<Vec<u8>>| {
            values
                .into_iter()
                .map(|v| String::from_utf8(v).expect("utf-8"))
                .collect::<Vec<_>>()
        };
        let before = text(pending.scan_prefix(&db, b"a").expect("scan"));
        assert_eq!(before, ["newer", "kept", "added"]);
        assert_eq!(pending.get(&db, b"a2").expect("get"), None);
        assert_eq!(
            pending.get(&db, b"b1").expect("get"),
            Some(b"other".to_vec())
        );
        assert_eq!(db.get("a1").expect("get").as_deref(), Some(&b"old"[..]));

        pending.write_to(&db).expect("write");
        pending.clear();
        assert_eq!(pending.len(), 0);
        assert_eq!(text(pending.scan_prefix(&db, b"a").expect("scan")), before);
        assert_eq!(db.get("a2").expect("get"), None);
    }
}
