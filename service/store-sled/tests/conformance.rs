//! The store conformance suite against sled in a temporary directory, with restarts that
//! close the store and open the directory again.

use std::path::Path;
use std::sync::Arc;

use trinchera_store::conformance::Backend;
use trinchera_store::{Store, StoreError};
use trinchera_store_sled::{SledOptions, SledStore};

/// sled in a temporary directory.
struct Sled {
    dir: tempfile::TempDir,
    store: Option<Arc<SledStore>>,
}

/// Opens the sled store in `dir` once a closed one's flusher has let go of the lock.
fn open_when_unlocked(dir: &Path) -> SledStore {
    for _ in 0..100 {
        match SledStore::open(dir, SledOptions::default()) {
            Err(StoreError::Locked(_)) => std::thread::sleep(std::time::Duration::from_millis(50)),
            other => return other.unwrap_or_else(|e| panic!("cannot open the store: {e}")),
        }
    }
    panic!("the store's lock was never released")
}

impl Backend for Sled {
    fn store(&self) -> Arc<dyn Store> {
        Arc::clone(self.store.as_ref().expect("open")) as Arc<dyn Store>
    }

    async fn restart(&mut self) {
        if let Some(store) = self.store.take() {
            store.close().await.expect("closes");
            drop(store);
        }
        self.store = Some(Arc::new(open_when_unlocked(self.dir.path())));
    }
}

async fn on_sled<F: Future<Output = ()>>(test: impl FnOnce(Sled) -> F) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Some(Arc::new(open_when_unlocked(dir.path())));
    test(Sled { dir, store }).await;
}

trinchera_store::conformance_tests!(on_sled);
