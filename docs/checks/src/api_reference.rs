//! The book's API reference, generated from the comments of `proto/` as the server's
//! `FILE_DESCRIPTOR_SET` carries them (protox keeps the source comments): every service
//! with its RPCs, every message with its fields, every enum with its values, in the order
//! of the files, services first.

use std::collections::HashMap;
use std::fmt::Write as _;

use prost::Message as _;
use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{
    DescriptorProto, EnumDescriptorProto, FieldDescriptorProto, FileDescriptorProto,
    FileDescriptorSet,
};

use crate::markdown::id_from_content;

/// Field numbers of `FileDescriptorProto` and its parts in `SourceCodeInfo` paths.
mod path {
    pub const FILE_SYNTAX: i32 = 12;
    pub const FILE_MESSAGE: i32 = 4;
    pub const FILE_ENUM: i32 = 5;
    pub const FILE_SERVICE: i32 = 6;
    pub const MESSAGE_FIELD: i32 = 2;
    pub const MESSAGE_NESTED: i32 = 3;
    pub const MESSAGE_ENUM: i32 = 4;
    pub const ENUM_VALUE: i32 = 2;
    pub const SERVICE_METHOD: i32 = 2;
}

/// The chapter `docs/clients/api-reference.md` for the encoded `FileDescriptorSet`
/// `descriptor_set` (with source info).
pub fn api_reference(descriptor_set: &[u8]) -> Result<String, prost::DecodeError> {
    let set = FileDescriptorSet::decode(descriptor_set)?;
    let mut files: Vec<&FileDescriptorProto> = set
        .file
        .iter()
        .filter(|file| !file.package().starts_with("google."))
        .collect();
    let mut packages: Vec<&str> = Vec::new();
    for file in &files {
        if !packages.contains(&file.package()) {
            packages.push(file.package());
        }
    }
    // Within a package, the files with services first (their header says what the API
    // is), the others in the order they were compiled.
    files.sort_by_key(|file| file.service.is_empty());
    let anchors = anchors(&files);
    let mut out = String::from(
        "# API reference\n\n\
         <!-- Generated from proto/ by the test `the_api_reference_is_generated_from_proto` \
         (UPDATE_DOCS=1 cargo test -p trinchera-docs writes it): do not edit by hand. -->\n\n\
         Every service, RPC, message, field and enum value of the public API, with its comment \
         from `proto/`, from which this page is generated. How they fit together: [The \
         API](api.md).\n",
    );
    for package in packages {
        let _ = write!(out, "\n## Package `{package}`\n");
        for file in files.iter().filter(|f| f.package() == package) {
            write_file(&mut out, &anchors, file);
        }
    }
    Ok(out)
}

/// One `.proto` file: its header comment, services, messages and enums.
fn write_file(out: &mut String, anchors: &HashMap<String, String>, file: &FileDescriptorProto) {
    let package = file.package();
    let comments = Comments::of(file);
    let _ = write!(out, "\n### File `{}`\n", file.name());
    let header = comments.leading(&[path::FILE_SYNTAX]);
    if !header.is_empty() {
        let _ = write!(out, "\n{}\n", paragraphs(&header));
    }
    for (index, service) in file.service.iter().enumerate() {
        let at = [path::FILE_SERVICE, index as i32];
        let _ = write!(
            out,
            "\n#### Service `{}`\n\n{}\n\n",
            service.name(),
            paragraphs(&comments.leading(&at))
        );
        for (m, method) in service.method.iter().enumerate() {
            let stream = |streams: bool| if streams { "stream " } else { "" };
            let at = [
                path::FILE_SERVICE,
                index as i32,
                path::SERVICE_METHOD,
                m as i32,
            ];
            let _ = writeln!(
                out,
                "- **`{}`**({}{}) → {}{}: {}",
                method.name(),
                stream(method.client_streaming()),
                link(anchors, package, method.input_type()),
                stream(method.server_streaming()),
                link(anchors, package, method.output_type()),
                cell(&comments.leading(&at)),
            );
        }
    }
    for (index, message) in file.message_type.iter().enumerate() {
        let at = vec![path::FILE_MESSAGE, index as i32];
        write_message(out, &comments, anchors, package, "", message, at);
    }
    for (index, kind) in file.enum_type.iter().enumerate() {
        let at = vec![path::FILE_ENUM, index as i32];
        write_enum(out, &comments, "", kind, &at);
    }
}

/// A message, then the messages and enums nested in it.
fn write_message(
    out: &mut String,
    comments: &Comments,
    anchors: &HashMap<String, String>,
    package: &str,
    scope: &str,
    message: &DescriptorProto,
    at: Vec<i32>,
) {
    let name = format!("{scope}{}", message.name());
    let _ = write!(
        out,
        "\n#### `{name}`\n\n{}\n",
        paragraphs(&comments.leading(&at))
    );
    if !message.field.is_empty() {
        out.push_str("\n| field | type | number | what |\n|---|---|---|---|\n");
    }
    for (index, field) in message.field.iter().enumerate() {
        let mut at = at.clone();
        at.extend([path::MESSAGE_FIELD, index as i32]);
        let oneof = field
            .oneof_index
            .filter(|_| !field.proto3_optional())
            .and_then(|i| message.oneof_decl.get(i as usize))
            .map(|oneof| format!("One of `{}`. ", oneof.name()))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {oneof}{} |",
            field.name(),
            field_type(anchors, package, message, field),
            field.number(),
            cell(&comments.leading(&at)),
        );
    }
    for (index, nested) in message.nested_type.iter().enumerate() {
        if nested.options.as_ref().is_some_and(|o| o.map_entry()) {
            continue;
        }
        let mut at = at.clone();
        at.extend([path::MESSAGE_NESTED, index as i32]);
        write_message(
            out,
            comments,
            anchors,
            package,
            &format!("{name}."),
            nested,
            at,
        );
    }
    for (index, kind) in message.enum_type.iter().enumerate() {
        let mut at = at.clone();
        at.extend([path::MESSAGE_ENUM, index as i32]);
        write_enum(out, comments, &format!("{name}."), kind, &at);
    }
}

/// An enum and its values.
fn write_enum(
    out: &mut String,
    comments: &Comments,
    scope: &str,
    kind: &EnumDescriptorProto,
    at: &[i32],
) {
    let _ = write!(
        out,
        "\n#### `{scope}{}`\n\n{}\n\n| value | number | what |\n|---|---|---|\n",
        kind.name(),
        paragraphs(&comments.leading(at))
    );
    for (index, value) in kind.value.iter().enumerate() {
        let mut at = at.to_vec();
        at.extend([path::ENUM_VALUE, index as i32]);
        let _ = writeln!(
            out,
            "| `{}` | {} | {} |",
            value.name(),
            value.number(),
            cell(&comments.leading(&at))
        );
    }
}

/// A field's type: scalar, message or enum (linked), `repeated`, `optional`, or a map.
fn field_type(
    anchors: &HashMap<String, String>,
    package: &str,
    message: &DescriptorProto,
    field: &FieldDescriptorProto,
) -> String {
    let entry = message.nested_type.iter().find(|nested| {
        nested.options.as_ref().is_some_and(|o| o.map_entry())
            && field.type_name().ends_with(&format!(".{}", nested.name()))
    });
    if let (Some(entry), Label::Repeated) = (entry, field.label()) {
        let part = |i: usize| {
            entry
                .field
                .get(i)
                .map(|f| single_type(anchors, package, f))
                .unwrap_or_default()
        };
        return format!("map&lt;{}, {}&gt;", part(0), part(1));
    }
    let single = single_type(anchors, package, field);
    match field.label() {
        Label::Repeated => format!("repeated {single}"),
        _ if field.proto3_optional() => format!("optional {single}"),
        _ => single,
    }
}

/// The type of one value of a field.
fn single_type(
    anchors: &HashMap<String, String>,
    package: &str,
    field: &FieldDescriptorProto,
) -> String {
    let scalar = match field.r#type() {
        Type::Message | Type::Enum | Type::Group => {
            return link(anchors, package, field.type_name());
        }
        Type::Double => "double",
        Type::Float => "float",
        Type::Int64 => "int64",
        Type::Uint64 => "uint64",
        Type::Int32 => "int32",
        Type::Fixed64 => "fixed64",
        Type::Fixed32 => "fixed32",
        Type::Bool => "bool",
        Type::String => "string",
        Type::Bytes => "bytes",
        Type::Uint32 => "uint32",
        Type::Sfixed32 => "sfixed32",
        Type::Sfixed64 => "sfixed64",
        Type::Sint32 => "sint32",
        Type::Sint64 => "sint64",
    };
    format!("`{scalar}`")
}

/// A type's name (`.trinchera.v1.GameView`), linked to its heading when the page has one;
/// without the package when it is `package`.
fn link(anchors: &HashMap<String, String>, package: &str, full: &str) -> String {
    let full = full.trim_start_matches('.');
    let short = full
        .strip_prefix(package)
        .and_then(|rest| rest.strip_prefix('.'))
        .unwrap_or(full);
    match anchors.get(full) {
        Some(anchor) => format!("[`{short}`](#{anchor})"),
        None => format!("`{short}`"),
    }
}

/// The anchor of every message's and enum's heading, by full name. The headings are the
/// type names, so their ids are too (as long as no two names differ only in case or dots).
fn anchors(files: &[&FileDescriptorProto]) -> HashMap<String, String> {
    fn message(
        anchors: &mut HashMap<String, String>,
        package: &str,
        scope: &str,
        m: &DescriptorProto,
    ) {
        let name = format!("{scope}{}", m.name());
        anchors.insert(format!("{package}.{name}"), id_from_content(&name));
        for nested in &m.nested_type {
            message(anchors, package, &format!("{name}."), nested);
        }
        for kind in &m.enum_type {
            let kind = format!("{name}.{}", kind.name());
            anchors.insert(format!("{package}.{kind}"), id_from_content(&kind));
        }
    }
    let mut anchors = HashMap::new();
    for file in files {
        for m in &file.message_type {
            message(&mut anchors, file.package(), "", m);
        }
        for kind in &file.enum_type {
            let name = kind.name();
            anchors.insert(format!("{}.{name}", file.package()), id_from_content(name));
        }
    }
    anchors
}

/// The comments of one file, by the path of what they are attached to.
struct Comments(HashMap<Vec<i32>, String>);

impl Comments {
    fn of(file: &FileDescriptorProto) -> Comments {
        let locations = file.source_code_info.iter().flat_map(|info| &info.location);
        Comments(
            locations
                .filter_map(|l| Some((l.path.clone(), l.leading_comments.clone()?)))
                .collect(),
        )
    }

    /// The comment right before the element at `path`, one leading space a line removed.
    fn leading(&self, path: &[i32]) -> String {
        self.0
            .get(path)
            .map(|text| {
                text.lines()
                    .map(|line| line.strip_prefix(' ').unwrap_or(line).trim_end())
                    .collect::<Vec<_>>()
                    .join("\n")
                    .trim()
                    .to_owned()
            })
            .unwrap_or_default()
    }
}

/// A comment as Markdown paragraphs: its lines as they are, HTML escaped.
fn paragraphs(comment: &str) -> String {
    escape(comment, false)
}

/// A comment in one table cell or list item: its lines joined.
fn cell(comment: &str) -> String {
    let joined = comment.split_whitespace().collect::<Vec<_>>().join(" ");
    escape(&joined, true)
}

/// `text` safe in Markdown: `<` and `>` as entities outside code spans (a comment's
/// `<player_token>` is no HTML tag), and in a table cell `|` escaped everywhere.
fn escape(text: &str, in_table: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_code = false;
    for c in text.chars() {
        match c {
            '`' => {
                in_code = !in_code;
                out.push(c);
            }
            '<' if !in_code => out.push_str("&lt;"),
            '>' if !in_code => out.push_str("&gt;"),
            '|' if in_table => out.push_str("\\|"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use prost_types::{
        EnumValueDescriptorProto, MethodDescriptorProto, ServiceDescriptorProto, SourceCodeInfo,
        source_code_info::Location,
    };

    use super::*;

    fn located(path: Vec<i32>, comment: &str) -> Location {
        Location {
            path,
            leading_comments: Some(comment.to_owned()),
            ..Location::default()
        }
    }

    #[test]
    fn services_messages_and_enums_come_with_their_comments() {
        let field = |name: &str, number, r#type: Type, type_name: Option<&str>, label: Label| {
            FieldDescriptorProto {
                name: Some(name.into()),
                number: Some(number),
                r#type: Some(r#type as i32),
                type_name: type_name.map(Into::into),
                label: Some(label as i32),
                ..FieldDescriptorProto::default()
            }
        };
        let file = FileDescriptorProto {
            name: Some("x/v1/x.proto".into()),
            package: Some("x.v1".into()),
            message_type: vec![DescriptorProto {
                name: Some("Hello".into()),
                field: vec![
                    field("who", 1, Type::String, None, Label::Optional),
                    field("moods", 2, Type::Enum, Some(".x.v1.Mood"), Label::Repeated),
                ],
                ..DescriptorProto::default()
            }],
            enum_type: vec![EnumDescriptorProto {
                name: Some("Mood".into()),
                value: vec![EnumValueDescriptorProto {
                    name: Some("MOOD_UNSPECIFIED".into()),
                    number: Some(0),
                    options: None,
                }],
                ..EnumDescriptorProto::default()
            }],
            service: vec![ServiceDescriptorProto {
                name: Some("Greeter".into()),
                method: vec![MethodDescriptorProto {
                    name: Some("Greet".into()),
                    input_type: Some(".x.v1.Hello".into()),
                    output_type: Some(".x.v1.Hello".into()),
                    server_streaming: Some(true),
                    ..MethodDescriptorProto::default()
                }],
                options: None,
            }],
            source_code_info: Some(SourceCodeInfo {
                location: vec![
                    located(vec![12], " The x API.\n"),
                    located(vec![6, 0], " Greets.\n"),
                    located(vec![6, 0, 2, 0], " Says hello\n back.\n"),
                    located(vec![4, 0], " A <greeting> | `a|b`.\n"),
                    located(vec![4, 0, 2, 0], " Who, as in `<who>`.\n"),
                    located(vec![5, 0, 2, 0], " No mood.\n"),
                ],
            }),
            ..FileDescriptorProto::default()
        };
        let set = FileDescriptorSet { file: vec![file] };
        let page = api_reference(&set.encode_to_vec()).expect("decodes");
        for expected in [
            "## Package `x.v1`\n\n### File `x/v1/x.proto`\n\nThe x API.\n",
            "#### Service `Greeter`\n\nGreets.\n\n- ",
            "- **`Greet`**([`Hello`](#hello)) → stream [`Hello`](#hello): Says hello back.\n",
            "#### `Hello`\n\nA &lt;greeting&gt; | `a|b`.\n",
            "| `who` | `string` | 1 | Who, as in `<who>`. |\n",
            "| `moods` | repeated [`Mood`](#mood) | 2 |  |\n",
            "#### `Mood`\n",
            "| `MOOD_UNSPECIFIED` | 0 | No mood. |\n",
        ] {
            assert!(page.contains(expected), "{expected:?} not in:\n{page}");
        }
    }
}
