//! The protobuf codec of the generated clients and servers: prost's, with smaller buffers.
//!
//! tonic's default codec gives every call and stream an 8 KiB encode buffer that stays
//! with the stream for its whole life. A server with tens of thousands of open WatchGame
//! streams (each message a game view of about 2 KB) spends most of a watched game's memory
//! on them; the buffer grows to fit a larger message, so starting small costs nothing.

use std::marker::PhantomData;

use tonic::codec::{BufferSettings, Codec};
use tonic_prost::{ProstDecoder, ProstEncoder};

/// Bytes a call's encode and decode buffers start with.
const BUFFER_BYTES: usize = 1024;
/// Bytes encoded before a stream yields to send them (tonic's default).
const YIELD_BYTES: usize = 32 * 1024;

/// prost's codec with [`BUFFER_BYTES`] buffers.
#[derive(Debug, Clone, Copy)]
pub struct SmallBuffers<T, U>(PhantomData<(T, U)>);

impl<T, U> Default for SmallBuffers<T, U> {
    fn default() -> Self {
        SmallBuffers(PhantomData)
    }
}

fn settings() -> BufferSettings {
    BufferSettings::new(BUFFER_BYTES, YIELD_BYTES)
}

impl<T, U> Codec for SmallBuffers<T, U>
where
    T: prost::Message + Send + 'static,
    U: prost::Message + Default + Send + 'static,
{
    type Encode = T;
    type Decode = U;
    type Encoder = ProstEncoder<T>;
    type Decoder = ProstDecoder<U>;

    fn encoder(&mut self) -> Self::Encoder {
        ProstEncoder::new(settings())
    }

    fn decoder(&mut self) -> Self::Decoder {
        ProstDecoder::new(settings())
    }
}
