//! What the checks read of a Markdown page: its links, the anchors of its headings and its
//! fenced code blocks, parsed as mdBook parses them.

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

/// A link or an image of a page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// Where it points, as written.
    pub target: String,
    /// Its line in the page, from 1.
    pub line: usize,
}

/// A fenced code block of a page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeBlock {
    /// The info string after the fence (`sh`, `text`, ...), empty when none.
    pub info: String,
    /// The line of its first line of code, from 1.
    pub line: usize,
    /// Its code.
    pub text: String,
}

/// The Markdown extensions mdBook turns on (`mdbook-markdown`'s parser with the HTML
/// renderer's defaults), so that headings get the ids mdBook gives them.
fn parser(text: &str) -> Parser<'_> {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_SMART_PUNCTUATION
        | Options::ENABLE_DEFINITION_LIST
        | Options::ENABLE_GFM;
    Parser::new_ext(text, options)
}

/// The line of byte `offset` of `text`, from 1.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].matches('\n').count() + 1
}

/// Every link and image of a page, in order.
pub fn links(text: &str) -> Vec<Link> {
    parser(text)
        .into_offset_iter()
        .filter_map(|(event, range)| match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => Some(Link {
                target: dest_url.to_string(),
                line: line_of(text, range.start),
            }),
            _ => None,
        })
        .collect()
}

/// The ids of a page's headings, as mdBook makes them: the heading's text in lower case,
/// letters, digits, `_` and `-` kept, white space made `-`, the rest dropped; a repeated
/// id gets `-1`, `-2`, ... An explicit `{#id}` wins.
pub fn heading_ids(text: &str) -> Vec<String> {
    let mut ids = Vec::new();
    let mut used = std::collections::HashSet::new();
    let mut heading: Option<(String, Option<String>)> = None;
    for event in parser(text) {
        match event {
            Event::Start(Tag::Heading { id, .. }) => {
                heading = Some((String::new(), id.map(|id| id.to_string())));
            }
            Event::Text(part) | Event::Code(part) => {
                if let Some((content, _)) = &mut heading {
                    content.push_str(&part);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((content, explicit)) = heading.take() {
                    let id = explicit.unwrap_or_else(|| id_from_content(&content));
                    ids.push(unique_id(&id, &mut used));
                }
            }
            _ => {}
        }
    }
    ids
}

/// mdBook's id of a heading's text.
pub fn id_from_content(content: &str) -> String {
    content
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c)
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// `id`, or `id-1`, `id-2`, ... when taken.
fn unique_id(id: &str, used: &mut std::collections::HashSet<String>) -> String {
    if used.insert(id.to_owned()) {
        return id.to_owned();
    }
    (1..)
        .map(|n| format!("{id}-{n}"))
        .find(|candidate| used.insert(candidate.clone()))
        .unwrap_or_default()
}

/// Every fenced code block of a page, in order.
pub fn code_blocks(text: &str) -> Vec<CodeBlock> {
    let mut blocks = Vec::new();
    let mut open: Option<CodeBlock> = None;
    for (event, range) in parser(text).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                open = Some(CodeBlock {
                    info: info.to_string(),
                    line: line_of(text, range.start) + 1,
                    text: String::new(),
                });
            }
            Event::Text(code) => {
                if let Some(block) = &mut open {
                    block.text.push_str(&code);
                }
            }
            Event::End(TagEnd::CodeBlock) => blocks.extend(open.take()),
            _ => {}
        }
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_and_images_are_found_outside_code_only() {
        let page = "See [a](a.md#x) and `[b](b.md)`.\n\n| t |\n|---|\n| ![c](c.png) |\n\n```sh\n[d](d.md)\n```\n";
        let found: Vec<_> = links(page)
            .into_iter()
            .map(|link| (link.target, link.line))
            .collect();
        assert_eq!(found, [("a.md#x".into(), 1), ("c.png".into(), 5)]);
    }

    #[test]
    fn heading_ids_follow_mdbook() {
        let page = "# The terminal client: `trinchera`\n## Scripts: `trinchera --json` and `jq`\n## Play\n## Play\n## Tácticas alemanas\n## Own {#mine}\n";
        assert_eq!(
            heading_ids(page),
            [
                "the-terminal-client-trinchera",
                "scripts-trinchera---json-and-jq",
                "play",
                "play-1",
                "tácticas-alemanas",
                "mine"
            ]
        );
    }

    #[test]
    fn code_blocks_keep_their_info_and_first_line() {
        let page = "text\n\n```sh\necho one\necho two\n```\n\n```text\nx\n```\n";
        let blocks = code_blocks(page);
        assert_eq!(blocks.len(), 2);
        assert_eq!(blocks[0].info, "sh");
        assert_eq!(blocks[0].line, 4);
        assert_eq!(blocks[0].text, "echo one\necho two\n");
        assert_eq!(blocks[1].info, "text");
    }
}
