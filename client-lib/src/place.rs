//! Where a client keeps its small files (the token store, saved setups): a private directory
//! on a desktop, the browser's `localStorage` on the web, under the same names and with the
//! same text, so that what one build writes the other reads.
//!
//! Names are relative paths with `/` between their parts (`games.json`,
//! `setups/frente/Muralla.txt`).

/// A place for a client's files.
#[derive(Clone, Debug)]
pub struct Place {
    #[cfg(not(target_arch = "wasm32"))]
    dir: std::path::PathBuf,
    #[cfg(target_arch = "wasm32")]
    prefix: String,
}

/// Held while a read-change-write of a file must not interleave with another process's
/// (a desktop's file lock; nothing in a browser tab, where nothing runs beside it).
#[derive(Debug)]
pub struct Lock {
    #[cfg(not(target_arch = "wasm32"))]
    _file: std::fs::File,
}

#[cfg(not(target_arch = "wasm32"))]
mod desktop {
    use std::fs::{self, File, OpenOptions};
    use std::io::{self, Write};
    use std::path::{Path, PathBuf};

    use super::{Lock, Place};

    impl Place {
        /// The files in `dir`.
        pub fn at(dir: &Path) -> Place {
            Place {
                dir: dir.to_owned(),
            }
        }

        /// The directory.
        pub fn dir(&self) -> &Path {
            &self.dir
        }

        /// The files under `name` (a directory of this place).
        pub fn sub(&self, name: &str) -> Place {
            Place {
                dir: self.dir.join(name),
            }
        }

        /// Where file `name` is, as shown to a person.
        pub fn shown(&self, name: &str) -> PathBuf {
            self.dir.join(name)
        }

        /// The text of file `name`; `None` if there is none.
        pub fn read(&self, name: &str) -> io::Result<Option<String>> {
            match fs::read_to_string(self.dir.join(name)) {
                Ok(text) => Ok(Some(text)),
                Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(e),
            }
        }

        /// Replaces file `name` with `text` at once (a reader sees the old text or the new,
        /// never a part), readable by its owner only.
        pub fn write(&self, name: &str, text: &str) -> io::Result<()> {
            let path = self.dir.join(name);
            if let Some(parent) = path.parent() {
                create_private_dir(parent)?;
            }
            let mut temp = path.clone().into_os_string();
            temp.push(".tmp");
            let temp = PathBuf::from(temp);
            let mut file = open_private(&temp, true)?;
            file.write_all(text.as_bytes())?;
            file.sync_all()?;
            fs::rename(&temp, &path)
        }

        /// The names of the files in directory `dir` of this place, sorted.
        pub fn list(&self, dir: &str) -> Vec<String> {
            let Ok(entries) = fs::read_dir(self.dir.join(dir)) else {
                return Vec::new();
            };
            let mut names: Vec<String> = entries
                .filter_map(|entry| {
                    let entry = entry.ok()?;
                    entry
                        .file_type()
                        .ok()?
                        .is_file()
                        .then(|| entry.file_name().into_string().ok())?
                })
                .filter(|name| !name.ends_with(".tmp"))
                .collect();
            names.sort();
            names
        }

        /// Whether file `name` exists.
        pub fn exists(&self, name: &str) -> bool {
            self.dir.join(name).exists()
        }

        /// Renames file `from` to `to`.
        pub fn rename(&self, from: &str, to: &str) -> io::Result<()> {
            fs::rename(self.dir.join(from), self.dir.join(to))
        }

        /// Removes file `name`.
        pub fn remove(&self, name: &str) -> io::Result<()> {
            fs::remove_file(self.dir.join(name))
        }

        /// Takes the exclusive lock `name` (a file beside the others), waiting for it.
        pub fn lock(&self, name: &str) -> io::Result<Lock> {
            create_private_dir(&self.dir)?;
            let file = open_private(&self.dir.join(name), false)?;
            file.lock()?;
            Ok(Lock { _file: file })
        }
    }

    /// Opens (creating) a file only its owner may read; `truncate` empties it.
    fn open_private(path: &Path, truncate: bool) -> io::Result<File> {
        let mut options = OpenOptions::new();
        options.write(true).create(true).truncate(truncate);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        options.open(path)
    }

    /// Creates `dir` (and parents) so that only its owner may enter it.
    fn create_private_dir(dir: &Path) -> io::Result<()> {
        let mut builder = fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::DirBuilderExt;
            builder.mode(0o700);
        }
        builder.create(dir)
    }
}

#[cfg(target_arch = "wasm32")]
mod browser {
    use std::io;

    use super::{Lock, Place};

    /// The prefix of every key this client writes in `localStorage`.
    const ROOT: &str = "trinchera/";

    fn storage() -> io::Result<web_sys::Storage> {
        web_sys::window()
            .and_then(|window| window.local_storage().ok().flatten())
            .ok_or_else(|| io::Error::other("this browser keeps no localStorage for the page"))
    }

    fn failed(error: wasm_bindgen::JsValue) -> io::Error {
        io::Error::other(format!("localStorage: {error:?}"))
    }

    impl Place {
        /// The browser's place of this client (its `localStorage`).
        pub fn browser() -> Place {
            Place {
                prefix: ROOT.to_owned(),
            }
        }

        fn key(&self, name: &str) -> String {
            format!("{}{name}", self.prefix)
        }

        /// The files under `name` (a directory of this place).
        pub fn sub(&self, name: &str) -> Place {
            Place {
                prefix: self.key(&format!("{name}/")),
            }
        }

        /// Where file `name` is, as shown to a person.
        pub fn shown(&self, name: &str) -> std::path::PathBuf {
            std::path::PathBuf::from(format!("localStorage[{}]", self.key(name)))
        }

        /// The text of file `name`; `None` if there is none.
        pub fn read(&self, name: &str) -> io::Result<Option<String>> {
            storage()?.get_item(&self.key(name)).map_err(failed)
        }

        /// Replaces file `name` with `text`.
        pub fn write(&self, name: &str, text: &str) -> io::Result<()> {
            storage()?.set_item(&self.key(name), text).map_err(failed)
        }

        /// The names of the files in directory `dir` of this place, sorted.
        pub fn list(&self, dir: &str) -> Vec<String> {
            let Ok(storage) = storage() else {
                return Vec::new();
            };
            let within = self.key(&format!("{dir}/"));
            let count = storage.length().unwrap_or(0);
            let mut names: Vec<String> = (0..count)
                .filter_map(|index| storage.key(index).ok().flatten())
                .filter_map(|key| {
                    let name = key.strip_prefix(&within)?;
                    (!name.contains('/')).then(|| name.to_owned())
                })
                .collect();
            names.sort();
            names
        }

        /// Whether file `name` exists.
        pub fn exists(&self, name: &str) -> bool {
            matches!(self.read(name), Ok(Some(_)))
        }

        /// Renames file `from` to `to`.
        pub fn rename(&self, from: &str, to: &str) -> io::Result<()> {
            let text = self
                .read(from)?
                .ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))?;
            self.write(to, &text)?;
            self.remove(from)
        }

        /// Removes file `name`.
        pub fn remove(&self, name: &str) -> io::Result<()> {
            storage()?.remove_item(&self.key(name)).map_err(failed)
        }

        /// Nothing to wait for: a page's code runs on one thread.
        pub fn lock(&self, _name: &str) -> io::Result<Lock> {
            Ok(Lock {})
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn files_are_written_whole_listed_renamed_and_removed() {
        let temp = tempfile::tempdir().expect("temp dir");
        let place = Place::at(temp.path());
        let setups = place.sub("setups");
        assert_eq!(setups.read("frente/a.txt").expect("reads"), None);
        setups.write("frente/a.txt", "A").expect("writes");
        setups.write("frente/b.txt", "B").expect("writes");
        assert_eq!(setups.list("frente"), ["a.txt", "b.txt"]);
        assert!(setups.exists("frente/a.txt"));
        setups
            .rename("frente/a.txt", "frente/c.txt")
            .expect("renames");
        assert_eq!(
            setups.read("frente/c.txt").expect("reads").as_deref(),
            Some("A")
        );
        setups.remove("frente/b.txt").expect("removes");
        assert_eq!(setups.list("frente"), ["c.txt"]);
        let _lock = place.lock("games.lock").expect("locks");
    }
}
