//! What the conformance suite does not show: schema versions and retries.
