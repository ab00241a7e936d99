//! Compiles `trinchera/v1/*.proto` and `trinchera/admin/v1/*.proto` with protox (pure Rust, no system `protoc`) and keeps the
//! encoded descriptor set for server reflection.

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let files = [
        "trinchera/v1/board.proto",
        "trinchera/v1/rulesets.proto",
        "trinchera/v1/game.proto",
        "trinchera/v1/game_service.proto",
        "trinchera/v1/account_service.proto",
        "trinchera/admin/v1/admin_service.proto",
    ];
    for file in files {
        println!("cargo:rerun-if-changed={file}");
    }
    let descriptors = protox::compile(files, ["."])?;
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(
        out_dir.join("trinchera_descriptor.bin"),
        prost::Message::encode_to_vec(&descriptors),
    )?;
    tonic_prost_build::configure()
        .build_client(true)
        .build_server(true)
        // No `connect` helper tied to tonic's HTTP/2 channel: clients are made over any
        // transport (`new(channel)`), gRPC-web in a browser too.
        .build_transport(false)
        // prost's codec with buffers that start small (see `codec.rs`).
        .codec_path("crate::codec::SmallBuffers")
        .compile_fds(descriptors)?;
    Ok(())
}
