//! Trinchera's public gRPC contract, `trinchera.v1`, generated from `proto/trinchera/v1/`.
//!
//! The `.proto` files are the contract third parties build clients from; this crate is the
//! Rust rendering used by the server and the bundled clients.

pub mod codec;

/// Messages, the `GameService` client and server of `trinchera.v1`.
#[allow(missing_docs, clippy::all)]
pub mod v1 {
    tonic::include_proto!("trinchera.v1");
}

/// The operators' API, `trinchera.admin.v1`: served only on the server's admin listener.
pub mod admin {
    /// Messages, the `AdminService` client and server of `trinchera.admin.v1`.
    #[allow(missing_docs, clippy::all)]
    pub mod v1 {
        tonic::include_proto!("trinchera.admin.v1");
    }
}

/// The encoded `FileDescriptorSet` of every `trinchera.v1` file, for server reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/trinchera_descriptor.bin"));
