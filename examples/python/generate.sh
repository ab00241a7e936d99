#!/usr/bin/env bash
# Generates the Python stubs from ../../proto into ./gen (not committed).
set -euo pipefail
cd "$(dirname "$0")"
rm -rf gen && mkdir gen
python -m grpc_tools.protoc -I ../../proto --python_out=gen --grpc_python_out=gen \
    ../../proto/trinchera/v1/*.proto
