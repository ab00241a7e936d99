//! The layouts of a data directory and the way from each older one to [`LAYOUT`], run at
//! open before anything else touches the directory (`docs/storage.md`, "Layouts").
//!
//! - 1: one key per log entry (`E` game(8) version(8) → entry); converted to chunks, one
//!   game per atomic batch, so an interrupted conversion resumes.
//! - 2: chunks, no commit log; nothing to convert.
//! - 3: the commit log of whole chunks; its frames read as layout 4's sets, so a log left
//!   by a layout 3 server is replayed as it is.
//! - 4: the commit log of logical entries (appended events, summaries, tokens).

use std::time::Instant;

use trinchera_store::records::{self, EventRecord};
use trinchera_store::{GameId, StoreError};

use crate::chunk::EventChunk;
use crate::error::SledError;
use crate::{EVENT, FORMAT_KEY, LAYOUT, NewerLayout, chunk_key, game_of};

/// Brings the directory of `db` to [`LAYOUT`] (a new one is marked so), or refuses one
/// written by a newer build.
pub(crate) fn to_current_layout(db: &sled::Db) -> Result<(), StoreError> {
    match db.get(FORMAT_KEY).map_err(SledError::from)?.as_deref() {
        Some([found, ..]) if *found > LAYOUT => {
            let newer = NewerLayout {
                found: *found,
                supported: LAYOUT,
            };
            Err(StoreError::Incompatible(Box::new(newer)))
        }
        Some([found, ..]) if *found == LAYOUT => Ok(()),
        Some([1, ..]) => Ok(chunk_layout_1(db)?),
        // New, or of layout 2 or 3: the same tree. The mark comes before the commit log's
        // first frame of this layout, which an older build must not read.
        _ => Ok(mark(db)?),
    }
}

/// Marks the directory as of [`LAYOUT`], durably.
fn mark(db: &sled::Db) -> Result<(), SledError> {
    db.insert(FORMAT_KEY, &[LAYOUT])?;
    db.flush()?;
    Ok(())
}

/// Length of a layout 1 event key: `E` game(8) version(8).
pub(crate) const LAYOUT_1_EVENT_KEY: usize = 17;

/// Converts layout 1 (one key per log entry) to chunks, one game per atomic batch.
fn chunk_layout_1(db: &sled::Db) -> Result<(), SledError> {
    let started = Instant::now();
    let mut games = 0u64;
    let mut entries = 0u64;
    let mut batch = sled::Batch::default();
    let mut chunks: Vec<([u8; 13], Vec<u8>)> = Vec::new();
    let mut current: Option<GameId> = None;
    let finish = |batch: &mut sled::Batch, chunks: &mut Vec<([u8; 13], Vec<u8>)>| {
        for (key, value) in chunks.drain(..) {
            batch.insert(key.as_slice(), value);
        }
        db.apply_batch(std::mem::take(batch))
    };
    for item in db.scan_prefix([EVENT]) {
        let (key, value) = item?;
        if key.len() != LAYOUT_1_EVENT_KEY {
            continue;
        }
        let game = game_of(&key[1..9])?;
        let version = u64::from_be_bytes(
            key[9..]
                .try_into()
                .map_err(|_| SledError::Malformed("layout 1 event key"))?,
        );
        if current != Some(game) {
            if current.is_some() {
                finish(&mut batch, &mut chunks)?;
            }
            current = Some(game);
            games += 1;
        }
        let record: EventRecord = records::decode(&value)?;
        let key_now = chunk_key(game, version);
        match chunks.last_mut() {
            Some((last, bytes)) if *last == key_now => {
                *bytes = EventChunk::append(Some(std::mem::take(bytes)), &record);
            }
            _ => chunks.push((key_now, EventChunk::append(None, &record))),
        }
        batch.remove(key.as_ref());
        entries += 1;
    }
    if current.is_some() {
        finish(&mut batch, &mut chunks)?;
    }
    mark(db)?;
    tracing::info!(
        games,
        entries,
        took_ms = started.elapsed().as_millis(),
        "converted the data directory to storage layout {LAYOUT} (chunked logs)"
    );
    Ok(())
}
