//! The commit log: every group the committer writes, appended to a file of its own before
//! sled sees it, so that a group is durable as soon as one `write` of it returned, without
//! a sled flush per group. The log is emptied at each checkpoint (once sled holds its
//! values and is flushed), and replayed at open ([`Entry`] says how). `docs/storage.md`
//! describes the format.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

use trinchera_store::GameId;

/// What a group records, in the order it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Entry {
    /// `key` was set to the value (a summary, a token, the server's time).
    Set(Vec<u8>, Vec<u8>),
    /// `key` was removed.
    Remove(Vec<u8>),
    /// Version `version` of `game`'s log was appended: the entry, as its protobuf message.
    /// Replayed by appending it to its chunk unless the chunk already holds it.
    Event {
        /// The game.
        game: GameId,
        /// Its version (from 1).
        version: u64,
        /// The encoded `EventRecord`, without the stored values' format byte.
        record: Vec<u8>,
    },
}

/// One operation on sled's keys: what a group does to them once its events are in their
/// chunks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    /// Set `key` to the value.
    Insert(Vec<u8>, Vec<u8>),
    /// Delete `key`.
    Remove(Vec<u8>),
}

/// Sets `key` in `db` to `value`, or removes it (`None`).
pub(super) fn set(db: &sled::Db, key: &[u8], value: Option<&[u8]>) -> sled::Result<()> {
    match value {
        Some(value) => db.insert(key, value).map(drop),
        None => db.remove(key).map(drop),
    }
}

/// The open commit log.
pub(super) struct Wal {
    file: File,
    /// Bytes of intact frames: where the next one goes.
    len: u64,
    /// Whether each append is also `fdatasync`ed.
    sync: bool,
    /// Set when a failed append could not be cut back: a frame after the remains would be
    /// lost at the next open (the replay stops at them), so no frame is written any more.
    torn: bool,
}

impl Wal {
    /// Opens (creating if needed) the log at `path`, and returns it with the groups it holds,
    /// oldest first. A torn tail is cut off.
    pub(super) fn open(path: &Path, sync: bool) -> std::io::Result<(Wal, Vec<Vec<Entry>>)> {
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        let (groups, intact) = decode(&bytes);
        let len = intact as u64;
        if len < bytes.len() as u64 {
            file.set_len(len)?;
        }
        file.seek(SeekFrom::Start(len))?;
        let wal = Wal {
            file,
            len,
            sync,
            torn: false,
        };
        Ok((wal, groups))
    }

    /// Appends `group` as one frame; when this returns, the group survives the process.
    /// A failed append leaves no part of the frame behind.
    pub(super) fn append(&mut self, group: &[Entry]) -> std::io::Result<()> {
        if self.torn {
            return Err(std::io::Error::other(
                "an earlier write failed and could not be taken back; restart the server",
            ));
        }
        let frame = encode(group);
        let written = self.file.write_all(&frame).and_then(|()| {
            if self.sync {
                self.file.sync_data()
            } else {
                Ok(())
            }
        });
        match written {
            Ok(()) => {
                self.len += frame.len() as u64;
                Ok(())
            }
            Err(error) => {
                self.torn = self.truncate(self.len).is_err();
                Err(error)
            }
        }
    }

    /// Empties the log, once everything in it is durable elsewhere.
    pub(super) fn clear(&mut self) -> std::io::Result<()> {
        self.truncate(0)?;
        if self.sync {
            self.file.sync_data()?;
        }
        Ok(())
    }

    /// Bytes in the log.
    pub(super) fn len(&self) -> u64 {
        self.len
    }

    fn truncate(&mut self, len: u64) -> std::io::Result<()> {
        self.file.set_len(len)?;
        self.file.seek(SeekFrom::Start(len))?;
        self.len = len;
        Ok(())
    }
}

/// The tags of the entries in a payload. Layout 3 wrote whole chunks as `SET`s, which
/// layout 4 reads as they are.
const SET: u8 = 0;
const REMOVE: u8 = 1;
const EVENT: u8 = 2;

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    let len = u32::try_from(bytes.len()).expect("a sled key or value is under 4 GiB");
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(bytes);
}

/// The frame of `group`.
fn encode(group: &[Entry]) -> Vec<u8> {
    let mut payload = Vec::new();
    for entry in group {
        match entry {
            Entry::Set(key, value) => {
                payload.push(SET);
                put_bytes(&mut payload, key);
                put_bytes(&mut payload, value);
            }
            Entry::Remove(key) => {
                payload.push(REMOVE);
                put_bytes(&mut payload, key);
            }
            Entry::Event {
                game,
                version,
                record,
            } => {
                payload.push(EVENT);
                payload.extend_from_slice(&game.0.to_le_bytes());
                payload.extend_from_slice(&version.to_le_bytes());
                put_bytes(&mut payload, record);
            }
        }
    }
    let len = u32::try_from(payload.len()).expect("a group is under 4 GiB");
    let mut frame = Vec::with_capacity(payload.len() + 8);
    frame.extend_from_slice(&len.to_le_bytes());
    frame.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
    frame.extend_from_slice(&payload);
    frame
}

/// Reads from the front of `bytes`.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, rest) = self.0.split_at_checked(n)?;
        self.0 = rest;
        Some(head)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    fn bytes(&mut self) -> Option<Vec<u8>> {
        let len = usize::try_from(self.u32()?).ok()?;
        Some(self.take(len)?.to_vec())
    }
}

/// The entries of one payload; `None` if it does not parse.
fn decode_payload(payload: &[u8]) -> Option<Vec<Entry>> {
    let mut reader = Reader(payload);
    let mut entries = Vec::new();
    while let Some(tag) = reader.take(1) {
        entries.push(match tag[0] {
            SET => Entry::Set(reader.bytes()?, reader.bytes()?),
            REMOVE => Entry::Remove(reader.bytes()?),
            EVENT => Entry::Event {
                game: GameId(reader.u64()?),
                version: reader.u64()?,
                record: reader.bytes()?,
            },
            _ => return None,
        });
    }
    Some(entries)
}

/// The intact groups at the front of `bytes`, and how many bytes they take.
fn decode(bytes: &[u8]) -> (Vec<Vec<Entry>>, usize) {
    let mut reader = Reader(bytes);
    let mut groups = Vec::new();
    let mut intact = 0;
    while let Some(group) = (|| {
        let len = usize::try_from(reader.u32()?).ok()?;
        let crc = reader.u32()?;
        let payload = reader.take(len)?;
        (crc32fast::hash(payload) == crc)
            .then(|| decode_payload(payload))
            .flatten()
    })() {
        groups.push(group);
        intact = bytes.len() - reader.0.len();
    }
    (groups, intact)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn groups() -> Vec<Vec<Entry>> {
        vec![
            vec![
                Entry::Set(b"E1".to_vec(), b"one".to_vec()),
                Entry::Set(b"G1".to_vec(), Vec::new()),
            ],
            vec![Entry::Remove(b"alive".to_vec())],
            vec![Entry::Event {
                game: GameId(7),
                version: 33,
                record: b"two".to_vec(),
            }],
        ]
    }

    #[test]
    fn groups_come_back_in_order_after_a_reopen() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("commits.wal");
        let (mut wal, found) = Wal::open(&path, false).expect("open");
        assert!(found.is_empty());
        for group in groups() {
            wal.append(&group).expect("append");
        }
        drop(wal);
        let (wal, found) = Wal::open(&path, true).expect("reopen");
        assert_eq!(found, groups());
        assert_eq!(wal.len(), std::fs::metadata(&path).expect("size").len());
    }

    #[test]
    fn a_torn_or_damaged_tail_is_cut_off() {
        let whole: Vec<u8> = groups().iter().flat_map(|g| encode(g)).collect();
        let first_two = encode(&groups()[0]).len() + encode(&groups()[1]).len();
        for cut in first_two..whole.len() {
            let (found, intact) = decode(&whole[..cut]);
            assert_eq!(found, groups()[..2], "cut at {cut}");
            assert_eq!(intact, first_two);
        }
        let mut damaged = whole.clone();
        *damaged.last_mut().expect("bytes") ^= 1;
        assert_eq!(decode(&damaged), (groups()[..2].to_vec(), first_two));

        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("commits.wal");
        std::fs::write(&path, &whole[..whole.len() - 3]).expect("write");
        let (mut wal, found) = Wal::open(&path, false).expect("open");
        assert_eq!(found, groups()[..2]);
        // The next frame goes where the torn one began.
        wal.append(&groups()[2]).expect("append");
        drop(wal);
        assert_eq!(Wal::open(&path, false).expect("reopen").1, groups());
    }

    #[test]
    fn a_layout_3_frame_reads_as_its_sets_and_removals() {
        // Layout 3 wrote `0 key value` (insert) and `1 key` (remove), whole chunks included.
        let mut payload = vec![0];
        for part in [&b"E\x01"[..], &b"chunk"[..]] {
            payload.extend_from_slice(&(part.len() as u32).to_le_bytes());
            payload.extend_from_slice(part);
        }
        payload.push(1);
        payload.extend_from_slice(&5u32.to_le_bytes());
        payload.extend_from_slice(b"alive");
        let mut frame = (payload.len() as u32).to_le_bytes().to_vec();
        frame.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
        frame.extend_from_slice(&payload);
        let expected = vec![
            Entry::Set(b"E\x01".to_vec(), b"chunk".to_vec()),
            Entry::Remove(b"alive".to_vec()),
        ];
        assert_eq!(decode(&frame), (vec![expected], frame.len()));
    }

    #[test]
    fn clear_empties_the_log() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("commits.wal");
        let (mut wal, _) = Wal::open(&path, false).expect("open");
        for group in groups() {
            wal.append(&group).expect("append");
        }
        wal.clear().expect("clear");
        assert_eq!(wal.len(), 0);
        drop(wal);
        assert!(Wal::open(&path, false).expect("reopen").1.is_empty());
    }
}
