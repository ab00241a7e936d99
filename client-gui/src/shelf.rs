//! Saved setups: named setup files per ruleset beside the token store
//! (`setups/<ruleset>/<name>.txt`: in the config directory on a desktop, in `localStorage`
//! in a browser), in the CLI's setup-file format, so that a file written for `trinchera
//! setup --file` is a saved setup and back.

use std::io;
use std::path::PathBuf;

use trinchera_client::Place;

use crate::i18n::Lang;

/// The saved setups of this machine.
#[derive(Clone, Debug)]
pub struct Shelf {
    place: Place,
}

/// Why a setup could not be kept or found.
#[derive(Debug, thiserror::Error)]
pub enum ShelfError {
    /// The name cannot be a file name.
    #[error("{0:?} cannot name a setup: use letters, digits, spaces, '-' or '_'")]
    BadName(String),
    /// The name is taken.
    #[error("a setup called {0:?} exists already")]
    Taken(String),
    /// There is no setup of that name.
    #[error("there is no setup called {0:?}")]
    Missing(String),
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: io::Error,
    },
}

impl ShelfError {
    /// The error in `lang` (English is its `Display`).
    pub fn words(&self, lang: Lang) -> String {
        match (self, lang) {
            (_, Lang::En) => self.to_string(),
            (ShelfError::BadName(name), Lang::Es) => {
                format!("{name:?} no vale como nombre: usa letras, cifras, espacios, '-' o '_'")
            }
            (ShelfError::Taken(name), Lang::Es) => {
                format!("ya hay una colocación llamada {name:?}")
            }
            (ShelfError::Missing(name), Lang::Es) => {
                format!("no hay ninguna colocación llamada {name:?}")
            }
            (ShelfError::Io { path, source }, Lang::Es) => {
                format!("{}: {source}", path.display())
            }
        }
    }
}

/// A setup name that is safe as a file name: trimmed, not empty, no path characters.
fn checked(name: &str) -> Result<&str, ShelfError> {
    let name = name.trim();
    let fine = |c: char| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '(' | ')');
    if name.is_empty() || name.len() > 80 || !name.chars().all(fine) {
        return Err(ShelfError::BadName(name.to_owned()));
    }
    Ok(name)
}

impl Shelf {
    /// The shelf beside the token store's files (`place`).
    pub fn beside(place: &Place) -> Shelf {
        Shelf {
            place: place.sub("setups"),
        }
    }

    fn file(ruleset: &str, name: &str) -> String {
        format!("{ruleset}/{name}.txt")
    }

    fn io(&self, file: &str) -> impl FnOnce(io::Error) -> ShelfError {
        let path = self.place.shown(file);
        move |source| ShelfError::Io { path, source }
    }

    /// The names of the saved setups of `ruleset`, sorted.
    pub fn names(&self, ruleset: &str) -> Vec<String> {
        let mut names: Vec<String> = self
            .place
            .list(ruleset)
            .into_iter()
            .filter_map(|name| name.strip_suffix(".txt").map(str::to_owned))
            .collect();
        names.sort();
        names
    }

    /// The text of a saved setup.
    pub fn read(&self, ruleset: &str, name: &str) -> Result<String, ShelfError> {
        let file = Shelf::file(ruleset, checked(name)?);
        self.place
            .read(&file)
            .map_err(self.io(&file))?
            .ok_or_else(|| ShelfError::Missing(name.to_owned()))
    }

    /// Saves `text` as `name` (replacing a setup of that name); returns the name kept.
    pub fn save(&self, ruleset: &str, name: &str, text: &str) -> Result<String, ShelfError> {
        let name = checked(name)?;
        let file = Shelf::file(ruleset, name);
        self.place.write(&file, text).map_err(self.io(&file))?;
        Ok(name.to_owned())
    }

    /// Renames a saved setup; refused if the new name is taken.
    pub fn rename(&self, ruleset: &str, from: &str, to: &str) -> Result<String, ShelfError> {
        let to = checked(to)?;
        let (old, new) = (
            Shelf::file(ruleset, checked(from)?),
            Shelf::file(ruleset, to),
        );
        if self.place.exists(&new) {
            return Err(ShelfError::Taken(to.to_owned()));
        }
        self.place.rename(&old, &new).map_err(self.io(&old))?;
        Ok(to.to_owned())
    }

    /// Copies a saved setup under the first free name "NAME (copy)", "NAME (copy 2)"…
    pub fn duplicate(&self, ruleset: &str, name: &str) -> Result<String, ShelfError> {
        let text = self.read(ruleset, name)?;
        let taken = self.names(ruleset);
        let copy = (1..)
            .map(|n| match n {
                1 => format!("{name} (copy)"),
                n => format!("{name} (copy {n})"),
            })
            .find(|candidate| !taken.contains(candidate))
            .unwrap_or_default();
        self.save(ruleset, &copy, &text)
    }

    /// Deletes a saved setup.
    pub fn delete(&self, ruleset: &str, name: &str) -> Result<(), ShelfError> {
        let file = Shelf::file(ruleset, checked(name)?);
        self.place.remove(&file).map_err(self.io(&file))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn save_rename_duplicate_delete() {
        let dir = tempfile::tempdir().expect("temp dir");
        let shelf = Shelf::beside(&trinchera_client::Place::at(dir.path()));
        assert!(shelf.names("frente").is_empty());
        shelf
            .save("frente", " Bombs left ", "4 S S\n")
            .expect("saved");
        shelf.save("frente", "Bombs", "").expect("saved");
        assert_eq!(
            shelf.names("frente"),
            ["Bombs", "Bombs left"],
            "sorted by name"
        );
        shelf.delete("frente", "Bombs").expect("deleted");
        assert_eq!(shelf.names("frente"), ["Bombs left"]);
        assert_eq!(
            shelf.duplicate("frente", "Bombs left").expect("copy"),
            "Bombs left (copy)"
        );
        assert_eq!(
            shelf.duplicate("frente", "Bombs left").expect("copy"),
            "Bombs left (copy 2)"
        );
        assert!(matches!(
            shelf.rename("frente", "Bombs left (copy)", "Bombs left"),
            Err(ShelfError::Taken(_))
        ));
        shelf
            .rename("frente", "Bombs left (copy)", "Rush")
            .expect("renamed");
        shelf
            .delete("frente", "Bombs left (copy 2)")
            .expect("deleted");
        assert_eq!(shelf.names("frente"), ["Bombs left", "Rush"]);
        assert_eq!(shelf.read("frente", "Rush").expect("read"), "4 S S\n");
        assert!(shelf.names("clasico").is_empty());
        assert!(matches!(
            shelf.read("frente", "Nothing"),
            Err(ShelfError::Missing(_))
        ));
        for bad in ["", "../x", "a/b", ".hidden"] {
            assert!(matches!(
                shelf.save("frente", bad, ""),
                Err(ShelfError::BadName(_))
            ));
        }
    }
}
