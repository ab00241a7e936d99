//! The sources of the configuration, read as TOML values and laid over the defaults:
//! the file, then the environment, then the flags. A value from the environment or a flag
//! is text, read as the type of its setting's default; every value is then checked by
//! deserializing the configuration with it, so a problem names its key and its source.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, Command};
use toml::{Table, Value};

use super::settings::{SETTINGS, Setting, setting};
use super::{Config, ConfigError, Loaded};

/// Where a value came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The file, at a line.
    File {
        /// The file.
        path: PathBuf,
        /// The line of the key, from 1.
        line: usize,
    },
    /// An environment variable.
    Env(&'static str),
    /// A command-line flag.
    Flag(&'static str),
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::File { path, line } => write!(f, "{} line {line}", path.display()),
            Source::Env(name) => write!(f, "environment variable {name}"),
            Source::Flag(flag) => write!(f, "flag --{flag}"),
        }
    }
}

/// The settings given on the command line, as text: a `clap::Args` made from
/// [`SETTINGS`], one flag each.
#[derive(Clone, Debug, Default)]
pub struct FlagValues {
    given: Vec<(&'static Setting, Vec<String>)>,
}

impl FlagValues {
    /// The values of `flags` (each a setting's flag without dashes, then its values), as if
    /// given on the command line.
    #[cfg(test)]
    pub fn of(flags: &[(&str, &[&str])]) -> FlagValues {
        let given = flags
            .iter()
            .filter_map(|(flag, values)| {
                let setting = SETTINGS.iter().find(|s| s.flag == *flag)?;
                Some((setting, values.iter().map(|v| (*v).to_owned()).collect()))
            })
            .collect();
        FlagValues { given }
    }

    /// The same values with `flag` (a setting's flag without dashes) given as `value`.
    pub fn with(mut self, flag: &str, value: String) -> FlagValues {
        if let Some(setting) = SETTINGS.iter().find(|s| s.flag == flag) {
            self.given.retain(|(s, _)| s.key != setting.key);
            self.given.push((setting, vec![value]));
        }
        self
    }
}

/// What a setting's value is, from the type of its default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Whole,
    Number,
    Switch,
    Text,
    List,
}

impl Kind {
    fn of(value: &Value) -> Kind {
        match value {
            Value::Integer(_) => Kind::Whole,
            Value::Float(_) => Kind::Number,
            Value::Boolean(_) => Kind::Switch,
            Value::Array(_) => Kind::List,
            _ => Kind::Text,
        }
    }

    /// `text` as a value of this kind.
    fn read(self, text: &str) -> Result<Value, String> {
        let text = text.trim();
        match self {
            Kind::Whole => text
                .parse::<i64>()
                .map(Value::Integer)
                .map_err(|_| format!("expected a whole number, not {text:?}")),
            Kind::Number => text
                .parse::<f64>()
                .map(Value::Float)
                .map_err(|_| format!("expected a number, not {text:?}")),
            Kind::Switch => match text.to_ascii_lowercase().as_str() {
                "1" | "true" | "yes" | "on" => Ok(Value::Boolean(true)),
                "" | "0" | "false" | "no" | "off" => Ok(Value::Boolean(false)),
                _ => Err(format!("expected true or false, not {text:?}")),
            },
            Kind::Text => Ok(Value::String(text.to_owned())),
            Kind::List => Ok(Value::Array(
                text.split(',')
                    .map(str::trim)
                    .filter(|item| !item.is_empty())
                    .map(|item| Value::String(item.to_owned()))
                    .collect(),
            )),
        }
    }
}

/// The defaults as a TOML table of sections.
fn defaults() -> Table {
    Table::try_from(Config::default()).expect("the defaults serialize")
}

/// The default value of `key` (`section.name`).
fn default_of(defaults: &Table, key: &str) -> Option<Value> {
    let (section, name) = key.split_once('.')?;
    defaults.get(section)?.get(name).cloned()
}

impl clap::FromArgMatches for FlagValues {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut values = FlagValues::default();
        values.update_from_arg_matches(matches)?;
        Ok(values)
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        for setting in SETTINGS {
            if matches.value_source(setting.key) != Some(ValueSource::CommandLine) {
                continue;
            }
            let given: Vec<String> = matches
                .get_many::<String>(setting.key)
                .map(|values| values.cloned().collect())
                .unwrap_or_default();
            self.given.retain(|(s, _)| s.key != setting.key);
            self.given.push((setting, given));
        }
        Ok(())
    }
}

impl clap::Args for FlagValues {
    fn augment_args(command: Command) -> Command {
        let defaults = defaults();
        command.args(SETTINGS.iter().map(|setting| {
            let kind = default_of(&defaults, setting.key).map_or(Kind::Text, |v| Kind::of(&v));
            let arg = Arg::new(setting.key).long(setting.flag).help(format!(
                "{} [key {}, env {}]",
                setting.help, setting.key, setting.env
            ));
            match kind {
                // `--sync-data` alone is true; `--sync-data=false` says false.
                Kind::Switch => arg
                    .action(ArgAction::Set)
                    .num_args(0..=1)
                    .require_equals(true)
                    .default_missing_value("true")
                    .value_name("BOOL")
                    .overrides_with(setting.key),
                Kind::List => arg.action(ArgAction::Append).value_name("VALUE"),
                _ => arg
                    .action(ArgAction::Set)
                    .value_name("VALUE")
                    .overrides_with(setting.key),
            }
        }))
    }

    fn augment_args_for_update(command: Command) -> Command {
        Self::augment_args(command)
    }
}

/// One value laid over the defaults, with its source.
struct Layer {
    key: &'static str,
    value: Value,
    source: Source,
}

/// Reads every source over the defaults (see the module documentation).
pub(super) fn load(
    file: Option<&Path>,
    env: &dyn Fn(&str) -> Option<String>,
    flags: &FlagValues,
) -> Result<Loaded, ConfigError> {
    let defaults = defaults();
    let mut problems = Vec::new();
    let mut layers = Vec::new();
    if let Some(path) = file {
        let (found, wrong) = from_file(path, &defaults);
        layers.extend(found);
        problems.extend(wrong);
    }
    for setting in SETTINGS {
        let Some(text) = env(setting.env) else {
            continue;
        };
        match read(setting, &defaults, &[text]) {
            Ok(value) => layers.push(Layer {
                key: setting.key,
                value,
                source: Source::Env(setting.env),
            }),
            Err(problem) => problems.push(format!(
                "environment variable {} (key {}): {problem}",
                setting.env, setting.key
            )),
        }
    }
    for (setting, given) in &flags.given {
        match read(setting, &defaults, given) {
            Ok(value) => layers.push(Layer {
                key: setting.key,
                value,
                source: Source::Flag(setting.flag),
            }),
            Err(problem) => problems.push(format!(
                "flag --{} (key {}): {problem}",
                setting.flag, setting.key
            )),
        }
    }
    let mut merged = defaults.clone();
    let mut sources = BTreeMap::new();
    for layer in layers {
        // Each value alone over the defaults: a problem is this value's.
        let mut alone = defaults.clone();
        set(&mut alone, layer.key, layer.value.clone());
        if let Err(error) = Value::Table(alone).try_into::<Config>() {
            problems.push(format!(
                "{} (key {}): {}",
                layer.source,
                layer.key,
                error.message()
            ));
            continue;
        }
        set(&mut merged, layer.key, layer.value);
        sources.insert(layer.key, layer.source);
    }
    if !problems.is_empty() {
        return Err(ConfigError { problems });
    }
    let config = Value::Table(merged)
        .try_into::<Config>()
        .map_err(|error| ConfigError {
            problems: vec![error.to_string()],
        })?;
    let problems: Vec<String> = config
        .problems()
        .into_iter()
        .map(|(key, problem)| match sources.get(key) {
            Some(source) => format!("{source} (key {key}): {problem}"),
            None => format!("key {key}: {problem}"),
        })
        .collect();
    if !problems.is_empty() {
        return Err(ConfigError { problems });
    }
    Ok(Loaded { config, sources })
}

/// Sets `key` (`section.name`) of `table`.
fn set(table: &mut Table, key: &str, value: Value) {
    if let Some((section, name)) = key.split_once('.')
        && let Some(Value::Table(section)) = table.get_mut(section)
    {
        section.insert(name.to_owned(), value);
    }
}

/// `given` (one text, or several for a list) as the value of `setting`.
fn read(setting: &Setting, defaults: &Table, given: &[String]) -> Result<Value, String> {
    let kind = default_of(defaults, setting.key).map_or(Kind::Text, |v| Kind::of(&v));
    match (kind, given) {
        (Kind::List, _) => Ok(Value::Array(
            given
                .iter()
                .filter_map(|text| match kind.read(text) {
                    Ok(Value::Array(items)) => Some(items),
                    _ => None,
                })
                .flatten()
                .collect(),
        )),
        (_, [text]) => kind.read(text),
        _ => Err("given more than once".into()),
    }
}

/// The values of the TOML file at `path`, each with its line, and every problem in it.
fn from_file(path: &Path, defaults: &Table) -> (Vec<Layer>, Vec<String>) {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) => {
            let problem = format!("cannot read the config file {}: {error}", path.display());
            return (Vec::new(), vec![problem]);
        }
    };
    let at = |line: usize| format!("{} line {line}", path.display());
    let table: Table = match toml::from_str(&text) {
        Ok(table) => table,
        Err(error) => {
            let line = error.span().map_or(1, |span| line_of(&text, span.start));
            return (
                Vec::new(),
                vec![format!("{}: {}", at(line), error.message())],
            );
        }
    };
    let lines = key_lines(&text);
    let line = |key: &str| lines.get(key).copied().unwrap_or(1);
    let mut layers = Vec::new();
    let mut problems = Vec::new();
    for (section, values) in &table {
        let Some(Value::Table(known)) = defaults.get(section) else {
            let sections: Vec<&String> = defaults.keys().collect();
            problems.push(format!(
                "{}: unknown section [{section}]; the sections are {}",
                at(line(section)),
                list(&sections)
            ));
            continue;
        };
        let Value::Table(values) = values else {
            problems.push(format!(
                "{}: {section} must be a section ([{section}]), not a value",
                at(line(section))
            ));
            continue;
        };
        for (name, value) in values {
            let key = format!("{section}.{name}");
            match setting(&key) {
                Some(setting) if known.contains_key(name) => layers.push(Layer {
                    key: setting.key,
                    value: value.clone(),
                    source: Source::File {
                        path: path.to_owned(),
                        line: line(&key),
                    },
                }),
                _ => {
                    let names: Vec<&String> = known.keys().collect();
                    problems.push(format!(
                        "{}: unknown key {key}; [{section}] has {}",
                        at(line(&key)),
                        list(&names)
                    ));
                }
            }
        }
    }
    (layers, problems)
}

/// `names`, comma-separated.
fn list(names: &[&String]) -> String {
    names
        .iter()
        .map(|name| name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The line (from 1) of byte `offset` of `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// The line of every section (`section`) and key (`section.name`) of a TOML text.
fn key_lines(text: &str) -> BTreeMap<String, usize> {
    let mut lines = BTreeMap::new();
    let Ok(document) = toml::de::DeTable::parse(text) else {
        return lines;
    };
    for (section, values) in document.get_ref() {
        let section_name = section.get_ref().to_string();
        lines.insert(section_name.clone(), line_of(text, section.span().start));
        if let toml::de::DeValue::Table(values) = values.get_ref() {
            for (name, _) in values {
                let key = format!("{section_name}.{}", name.get_ref());
                lines.insert(key, line_of(text, name.span().start));
            }
        }
    }
    lines
}

/// The configuration of `loaded` as TOML: every section and key, each with its meaning and
/// its source in comments.
pub(super) fn print(loaded: &Loaded) -> String {
    let table = Table::try_from(&loaded.config).expect("the configuration serializes");
    let mut out = String::from(
        "# trinchera-server's effective configuration (trinchera-server --print-config).\n\
         # Each key says what it is for and where its value came from.\n",
    );
    let mut section = "";
    for setting in SETTINGS {
        let Some((this, name)) = setting.key.split_once('.') else {
            continue;
        };
        let Some(value) = table.get(this).and_then(|values| values.get(name)) else {
            continue;
        };
        if this != section {
            out.push_str(&format!("\n[{this}]\n"));
            section = this;
        }
        let source = loaded
            .sources
            .get(setting.key)
            .map_or_else(|| "default".to_owned(), Source::to_string);
        out.push_str(&format!("# {}\n# from: {source}\n", setting.help));
        out.push_str(&format!("{name} = {}\n", masked(value)));
    }
    out
}

/// Every setting as a Markdown table: key, flag, environment variable, default, meaning
/// (the one of the operators' guide, `docs/operators/running.md`).
#[cfg(test)]
fn markdown() -> String {
    let defaults = defaults();
    let mut out = String::from("| key | flag | env | default | meaning |\n|---|---|---|---|---|\n");
    for setting in SETTINGS {
        let default = default_of(&defaults, setting.key).map_or_else(String::new, |v| {
            match v.to_string().as_str() {
                "\"\"" => "(empty)".to_owned(),
                text => text.replace('"', ""),
            }
        });
        out.push_str(&format!(
            "| `{}` | `--{}` | `{}` | {} | {} |\n",
            setting.key, setting.flag, setting.env, default, setting.help
        ));
    }
    out
}

/// `value` as TOML, with the password of a URL masked.
fn masked(value: &Value) -> String {
    let text = value.to_string();
    match (text.find("://"), text.find('@')) {
        (Some(scheme), Some(at)) if scheme < at => {
            let credentials = &text[scheme + 3..at];
            match credentials.split_once(':') {
                Some((user, _)) => format!("{}{user}:****{}", &text[..scheme + 3], &text[at..]),
                None => text,
            }
        }
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write as _;

    use super::*;

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |name| {
            pairs
                .iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| (*value).to_owned())
        }
    }

    fn file(text: &str) -> tempfile::NamedTempFile {
        let mut file = tempfile::NamedTempFile::new().expect("temp file");
        file.write_all(text.as_bytes()).expect("written");
        file
    }

    #[test]
    fn flags_beat_the_environment_which_beats_the_file_which_beats_the_defaults() {
        let toml = file(
            "[limits]\nmax_open_games = 10\nmax_replays = 3\nhistory_page = 7\n\n\
             [net]\ntrusted_proxy = [\"10.0.0.1\"]\n",
        );
        let environment = env(&[
            ("TRINCHERA_MAX_REPLAYS", "4"),
            ("TRINCHERA_HISTORY_PAGE", "8"),
            ("TRINCHERA_SYNC_DATA", "yes"),
        ]);
        let flags = FlagValues::of(&[
            ("history-page", &["9"]),
            ("trusted-proxy", &["10.0.0.2", "10.0.0.3"]),
        ]);
        let loaded = Loaded::load(Some(toml.path()), &environment, &flags).expect("valid");
        let config = &loaded.config;
        assert_eq!(config.limits.max_open_games, 10, "file over default");
        assert_eq!(config.limits.max_replays, 4, "environment over file");
        assert_eq!(config.limits.history_page, 9, "flag over environment");
        assert!(config.storage.sync_data);
        assert_eq!(config.net.trusted_proxy.len(), 2);
        assert_eq!(
            config.limits.max_exhibitions,
            Config::default().limits.max_exhibitions
        );
        assert_eq!(
            loaded.sources.get("limits.max_open_games"),
            Some(&Source::File {
                path: toml.path().to_owned(),
                line: 2
            })
        );
        assert_eq!(
            loaded.sources.get("limits.max_replays"),
            Some(&Source::Env("TRINCHERA_MAX_REPLAYS"))
        );
        assert_eq!(
            loaded.sources.get("limits.history_page"),
            Some(&Source::Flag("history-page"))
        );
        let printed = loaded.to_toml();
        assert!(printed.contains("history_page = 9\n"), "{printed}");
        assert!(printed.contains("# from: flag --history-page"), "{printed}");
        assert!(printed.contains("# from: environment variable TRINCHERA_MAX_REPLAYS"));
        // What is printed reads back as the same configuration.
        let again = file(&printed);
        let reread = Loaded::load(Some(again.path()), &|_| None, &FlagValues::default())
            .expect("printed config is valid");
        assert_eq!(reread.config, loaded.config);
    }

    #[test]
    fn unknown_keys_and_bad_values_name_the_key_the_source_and_what_is_expected() {
        let toml = file("[limits]\nmax_open_games = 10\nmax_opengames = 3\n\n[tls]\ncert = 5\n");
        let error = Loaded::load(Some(toml.path()), &|_| None, &FlagValues::default())
            .expect_err("refused");
        let text = error.to_string();
        let path = toml.path().display().to_string();
        assert!(
            text.contains(&format!("{path} line 3: unknown key limits.max_opengames")),
            "{text}"
        );
        assert!(
            text.contains("max_open_games"),
            "the known keys are listed: {text}"
        );
        assert!(
            text.contains(&format!("{path} line 6 (key tls.cert)")) && text.contains("string"),
            "{text}"
        );
        let environment = env(&[("TRINCHERA_MAX_OPEN_GAMES", "lots")]);
        let error = Loaded::load(None, &environment, &FlagValues::default()).expect_err("refused");
        assert_eq!(
            error.to_string(),
            "environment variable TRINCHERA_MAX_OPEN_GAMES (key limits.max_open_games): \
             expected a whole number, not \"lots\""
        );
        let flags = FlagValues::of(&[("listen", &["nowhere"])]);
        let error = Loaded::load(None, &|_| None, &flags).expect_err("refused");
        let text = error.to_string();
        assert!(
            text.starts_with("flag --listen (key server.listen): "),
            "{text}"
        );
        let flags = FlagValues::of(&[("log-format", &["xml"])]);
        let text = Loaded::load(None, &|_| None, &flags)
            .expect_err("refused")
            .to_string();
        assert!(text.contains("text") && text.contains("json"), "{text}");
        let section = file("[sever]\nlisten = \"127.0.0.1:1\"\n");
        let text = Loaded::load(Some(section.path()), &|_| None, &FlagValues::default())
            .expect_err("refused")
            .to_string();
        assert!(text.contains("line 1: unknown section [sever]"), "{text}");
        let broken = file("[server\n");
        let text = Loaded::load(Some(broken.path()), &|_| None, &FlagValues::default())
            .expect_err("refused")
            .to_string();
        assert!(text.contains("line 1"), "{text}");
    }

    #[test]
    fn the_operators_guide_lists_every_setting() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/operators/running.md"
        );
        let chapter = std::fs::read_to_string(path).expect("the operators' guide");
        let table = markdown();
        if std::env::var_os("UPDATE_DOCS").is_some() && !chapter.contains(&table) {
            let start = chapter.find("| key | flag |").expect("a settings table");
            let end = chapter[start..]
                .find("\n\n")
                .map_or(chapter.len(), |end| start + end + 1);
            let updated = format!("{}{table}{}", &chapter[..start], &chapter[end..]);
            std::fs::write(path, updated).expect("the guide is written");
            return;
        }
        assert!(
            chapter.contains(&table),
            "the settings table of docs/operators/running.md differs from the settings: run \
             `UPDATE_DOCS=1 cargo test -p trinchera-server the_operators_guide` and review \
             the diff"
        );
    }

    #[test]
    fn every_setting_has_a_default_and_urls_are_masked() {
        let defaults = defaults();
        for setting in SETTINGS {
            assert!(
                default_of(&defaults, setting.key).is_some(),
                "{}",
                setting.key
            );
        }
        for (section, values) in &defaults {
            for name in values.as_table().expect("a section").keys() {
                assert!(
                    setting(&format!("{section}.{name}")).is_some(),
                    "{section}.{name}"
                );
            }
        }
        let url = Value::String("postgres://ana:secret@db:5432/trinchera".into());
        assert_eq!(masked(&url), "\"postgres://ana:****@db:5432/trinchera\"");
        assert_eq!(masked(&Value::Integer(3)), "3");
    }
}
