//! The stored form of a log: consecutive entries of one game, [`crate::CHUNK`] a key, in
//! one encoded message that an append extends in place.

use trinchera_store::records::{DecodeError, EventRecord, FORMAT};

/// Consecutive entries of one game's log, stored together under one key.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct EventChunk {
    /// The entries, oldest first.
    #[prost(message, repeated, tag = "1")]
    pub events: Vec<EventRecord>,
}

impl EventChunk {
    /// `chunk` (an encoded [`EventChunk`], `None` for a new one) with `event` appended in
    /// place: a repeated field is appended to by appending its encoding, so nothing is
    /// decoded.
    pub(crate) fn append(chunk: Option<Vec<u8>>, event: &EventRecord) -> Vec<u8> {
        EventChunk::append_encoded(chunk, &prost::Message::encode_to_vec(event))
    }

    /// [`EventChunk::append`] of an entry already encoded (its protobuf message).
    pub(crate) fn append_encoded(chunk: Option<Vec<u8>>, record: &[u8]) -> Vec<u8> {
        let mut bytes = chunk.unwrap_or_else(|| vec![FORMAT]);
        bytes.reserve(record.len() + 11);
        prost::encoding::encode_key(1, prost::encoding::WireType::LengthDelimited, &mut bytes);
        prost::encoding::encode_varint(record.len() as u64, &mut bytes);
        bytes.extend_from_slice(record);
        bytes
    }

    /// How many entries the encoded chunk `chunk` holds, counted without decoding them.
    pub(crate) fn count(chunk: &[u8]) -> Result<usize, DecodeError> {
        let corrupt = |what: &str| DecodeError::Corrupt(format!("event chunk: {what}"));
        let mut rest = match chunk.split_first() {
            Some((&FORMAT, body)) => body,
            Some((&format, _)) if format > FORMAT => return Err(DecodeError::Newer(format)),
            _ => return Err(corrupt("unknown format")),
        };
        let mut count = 0;
        while !rest.is_empty() {
            let key = prost::encoding::decode_varint(&mut rest).map_err(|_| corrupt("key"))?;
            let length =
                prost::encoding::decode_varint(&mut rest).map_err(|_| corrupt("length"))?;
            let length = usize::try_from(length).map_err(|_| corrupt("length"))?;
            if key != 0x0A || length > rest.len() {
                return Err(corrupt("entry"));
            }
            rest = &rest[length..];
            count += 1;
        }
        Ok(count)
    }
}

#[cfg(test)]
mod tests {
    use trinchera_store::records::{Entry, decode, encode};

    use super::*;

    #[test]
    fn chunks_are_appended_to_without_decoding() {
        let first = EventRecord {
            seat: Some(0),
            entry: Some(Entry::Move("a4-a5".into())),
            ..EventRecord::default()
        };
        let second = EventRecord {
            seat: Some(1),
            entry: Some(Entry::Move("a7-a6".into())),
            ..EventRecord::default()
        };
        let chunk = EventChunk::append(None, &first);
        let chunk = EventChunk::append(Some(chunk), &second);
        let decoded: EventChunk = decode(&chunk).expect("decodes");
        assert_eq!(decoded.events, [first, second]);
        assert_eq!(EventChunk::count(&chunk).expect("counts"), 2);
        assert_eq!(EventChunk::count(&[FORMAT]).expect("counts"), 0);
        assert!(EventChunk::count(&chunk[..chunk.len() - 1]).is_err());
        assert_eq!(chunk, encode(&decoded));
    }
}
