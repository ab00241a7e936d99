//! Passwords: what the server accepts, and their argon2id hashes (PHC strings), computed on
//! threads of their own, a few at a time and at a lower priority than the games' (on
//! Linux), so that a flood of sign-ins slows the sign-ins, not the moves.

use std::fmt;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use argon2::Argon2;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use tokio::sync::{OnceCell, oneshot};

use crate::error::{AccountError, ApiError};

/// Shortest password, in bytes.
pub(crate) const MIN_PASSWORD_BYTES: usize = 8;
/// Longest password, in bytes: longer ones are refused before anything is hashed.
pub(crate) const MAX_PASSWORD_BYTES: usize = 1024;
/// Bytes of a password hash's salt.
const SALT_BYTES: usize = 16;

/// A password as a person typed it, of an accepted length; never shown in logs.
pub(crate) struct Password(String);

impl Password {
    /// `text` if its length is within the rules; `what` names it in the refusal.
    pub(crate) fn new(text: &str, what: &str) -> Result<Password, AccountError> {
        if (MIN_PASSWORD_BYTES..=MAX_PASSWORD_BYTES).contains(&text.len()) {
            Ok(Password(text.to_owned()))
        } else {
            Err(AccountError::BadPassword(format!(
                "the {what} must be {MIN_PASSWORD_BYTES} to {MAX_PASSWORD_BYTES} bytes long"
            )))
        }
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(..)")
    }
}

/// Work for a hashing thread.
type Job = Box<dyn FnOnce() + Send>;

/// How much lower than the games' the hashing threads' priority is (a nice value): under
/// load, the cores go to the moves first.
const NICER: i32 = 10;

/// The hasher: argon2id with its default costs (19 MiB, two passes, one lane: OWASP's
/// recommendation) on its own threads, as many hashes at once as threads; the others wait
/// in line.
pub(crate) struct Passwords {
    /// The line of hashes; the threads end when it is dropped.
    jobs: mpsc::Sender<Job>,
    /// The hash of a password nobody knows, checked in place of a missing account's so that
    /// a wrong name costs the time a wrong password does.
    dummy: OnceCell<String>,
}

impl Passwords {
    /// A hasher on `threads` threads (at least one).
    pub(crate) fn new(threads: usize) -> Passwords {
        let (jobs, line) = mpsc::channel::<Job>();
        let line = Arc::new(Mutex::new(line));
        for _ in 0..threads.max(1) {
            let line = Arc::clone(&line);
            let spawned = std::thread::Builder::new()
                .name("password-hash".into())
                .spawn(move || hash_jobs(&line));
            if let Err(error) = spawned {
                tracing::error!(%error, "cannot start a password-hashing thread");
            }
        }
        Passwords {
            jobs,
            dummy: OnceCell::new(),
        }
    }

    /// The PHC string of `password` with a fresh salt.
    pub(crate) async fn hash(&self, password: Password) -> Result<String, ApiError> {
        let salt: [u8; SALT_BYTES] = crate::ids::random_bytes()?;
        self.blocking(move || {
            Argon2::default()
                .hash_password_with_salt(password.0.as_bytes(), &salt)
                .map(|hash| hash.to_string())
        })
        .await
    }

    /// Whether `password` is the one hashed in `hash`; with `None` (no such account), a
    /// hash of nobody's password is checked, which takes as long and says no.
    pub(crate) async fn verify(
        &self,
        password: Password,
        hash: Option<String>,
    ) -> Result<bool, ApiError> {
        let hash = match hash {
            Some(hash) => hash,
            None => self.dummy().await?.to_owned(),
        };
        self.blocking(move || {
            match Argon2::default().verify_password(password.0.as_bytes(), hash.as_str()) {
                Ok(()) => Ok(true),
                Err(argon2::password_hash::Error::PasswordInvalid) => Ok(false),
                Err(error) => Err(error),
            }
        })
        .await
    }

    /// The hash of a random password, made once.
    async fn dummy(&self) -> Result<&str, ApiError> {
        self.dummy
            .get_or_try_init(|| async {
                let secret = hex::encode(crate::ids::random_bytes::<16>()?);
                self.hash(Password(secret)).await
            })
            .await
            .map(String::as_str)
    }

    /// Runs `work` on a hashing thread, once one is free.
    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> Result<T, argon2::password_hash::Error> + Send + 'static,
    ) -> Result<T, ApiError> {
        let (done, answer) = oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = done.send(work());
        });
        let gone = || ApiError::Internal("no password-hashing thread runs".into());
        self.jobs.send(job).map_err(|_| gone())?;
        answer
            .await
            .map_err(|_| gone())?
            .map_err(|error| ApiError::Internal(error.to_string().into()))
    }
}

/// A hashing thread: lowers its priority, then runs the jobs of `line` until it closes.
fn hash_jobs(line: &Mutex<mpsc::Receiver<Job>>) {
    lower_priority();
    loop {
        let next = line
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .recv();
        match next {
            Ok(job) => job(),
            Err(mpsc::RecvError) => return,
        }
    }
}

/// Makes the calling thread nicer by [`NICER`] (Linux keeps a nice value per thread).
fn lower_priority() {
    #[cfg(target_os = "linux")]
    if let Err(error) = rustix::process::setpriority_process(Some(rustix::thread::gettid()), NICER)
    {
        tracing::warn!(%error, "cannot lower the priority of a password-hashing thread");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hash_checks_its_password_and_no_other() {
        let passwords = Passwords::new(1);
        let password = || Password::new("correct horse", "password").expect("long enough");
        let hash = passwords.hash(password()).await.expect("hashed");
        assert!(
            hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{hash}"
        );
        assert!(!hash.contains("correct horse"));
        assert!(
            passwords
                .verify(password(), Some(hash.clone()))
                .await
                .expect("checked")
        );
        let wrong = Password::new("wrong horse", "password").expect("long enough");
        assert!(!passwords.verify(wrong, Some(hash)).await.expect("checked"));
        assert!(!passwords.verify(password(), None).await.expect("checked"));
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn hashes_run_on_nicer_threads() {
        let passwords = Passwords::new(1);
        let nice = passwords
            .blocking(|| Ok(rustix::process::getpriority_process(None)))
            .await
            .expect("ran")
            .expect("read");
        let ours = rustix::process::getpriority_process(None).expect("read");
        assert_eq!(nice, ours + NICER);
    }

    #[test]
    fn passwords_are_8_to_1024_bytes() {
        assert!(Password::new("1234567", "password").is_err());
        assert!(Password::new("12345678", "password").is_ok());
        assert!(Password::new(&"x".repeat(1024), "password").is_ok());
        let long = Password::new(&"x".repeat(1025), "new password");
        assert!(matches!(long, Err(AccountError::BadPassword(m)) if m.contains("new password")));
        assert_eq!(format!("{:?}", Password("secret12".into())), "Password(..)");
    }
}
