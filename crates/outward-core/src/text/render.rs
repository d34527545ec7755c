//! Renderers: [`Block`]s to the text a document carries. [`Format::Text`] is one line per
//! block (the corpus format, byte-stable across versions); [`Format::Markdown`] keeps the
//! structure: headings `#`, lists `-` / `1.` indented by depth, tables as pipe tables, code
//! fenced, quotes `>`, links as their text only.
//!
//! Invariants: both renderers are pure functions of the blocks; an empty block list renders
//! as the empty string; text output never starts or ends with `\n`.

use crate::text::blocks::{Block, BlockKind, Blocks};

/// How blocks become a document's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// One line per block.
    #[default]
    Text,
    /// CommonMark with pipe tables (GitHub-flavoured).
    Markdown,
}

impl Format {
    pub const ALL: [Format; 2] = [Format::Text, Format::Markdown];

    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Markdown => "markdown",
        }
    }

    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// Renders `blocks` in `format`.
pub fn render(blocks: &Blocks, format: Format) -> String {
    match format {
        Format::Text => blocks.text().to_string(),
        Format::Markdown => markdown(blocks),
    }
}

/// Markdown: blocks of one kind that belong together (list items, the rows of a table, the
/// lines of a code block) are kept together; other blocks are separated by a blank line.
pub fn markdown(blocks: &Blocks) -> String {
    let blocks: Vec<Block> = blocks.iter().collect();
    let blocks = &blocks[..];
    let mut out = String::new();
    let mut i = 0;
    while i < blocks.len() {
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        i = match blocks[i].kind {
            BlockKind::ListItem { .. } => list(blocks, i, &mut out),
            BlockKind::TableCell { .. } => table(blocks, i, &mut out),
            BlockKind::Preformatted => code(blocks, i, &mut out),
            BlockKind::Heading(level) => {
                out.extend(std::iter::repeat_n('#', level.clamp(1, 6) as usize));
                out.push(' ');
                out.push_str(&escape_inline(blocks[i].text));
                i + 1
            }
            BlockKind::Quote => {
                out.push_str("> ");
                out.push_str(&escape_line_start(&escape_inline(blocks[i].text)));
                i + 1
            }
            BlockKind::Paragraph => {
                out.push_str(&escape_line_start(&escape_inline(blocks[i].text)));
                i + 1
            }
        };
    }
    out
}

/// A run of list items from `start`; returns the index after it.
fn list(blocks: &[Block], start: usize, out: &mut String) -> usize {
    // Item numbers per depth; a shallower item restarts the deeper lists.
    let mut numbers: Vec<u32> = Vec::new();
    let mut i = start;
    while let Some(BlockKind::ListItem { ordered, depth }) = blocks.get(i).map(|b| b.kind) {
        let depth = depth.max(1) as usize;
        numbers.resize(depth, 0);
        numbers[depth - 1] += 1;
        if i > start {
            out.push('\n');
        }
        out.extend(std::iter::repeat_n(' ', 2 * (depth - 1)));
        if ordered {
            out.push_str(&format!("{}. ", numbers[depth - 1]));
        } else {
            out.push_str("- ");
        }
        out.push_str(&escape_line_start(&escape_inline(blocks[i].text)));
        i += 1;
    }
    i
}

/// A run of table cells from `start` as a pipe table (the first row is the header row);
/// returns the index after it.
fn table(blocks: &[Block], start: usize, out: &mut String) -> usize {
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut i = start;
    while let Some(BlockKind::TableCell { row_start, .. }) = blocks.get(i).map(|b| b.kind) {
        if row_start || rows.is_empty() {
            rows.push(Vec::new());
        }
        let cell = escape_inline(blocks[i].text).replace('|', "\\|");
        rows.last_mut().expect("a row was pushed").push(cell);
        i += 1;
    }
    let columns = rows.iter().map(Vec::len).max().unwrap_or(1);
    for (r, row) in rows.iter().enumerate() {
        if r == 1 {
            out.push('\n');
            out.push_str(&"| --- ".repeat(columns));
            out.push('|');
        }
        if r > 0 {
            out.push('\n');
        }
        for c in 0..columns {
            out.push_str("| ");
            out.push_str(row.get(c).map_or("", String::as_str));
            out.push(' ');
        }
        out.push('|');
    }
    if rows.len() == 1 {
        out.push('\n');
        out.push_str(&"| --- ".repeat(columns));
        out.push('|');
    }
    i
}

/// A run of preformatted lines from `start` as one fenced block; returns the index after it.
fn code(blocks: &[Block], start: usize, out: &mut String) -> usize {
    let end = blocks[start..]
        .iter()
        .position(|b| b.kind != BlockKind::Preformatted)
        .map_or(blocks.len(), |n| start + n);
    // A fence longer than any backtick run inside.
    let longest = blocks[start..end]
        .iter()
        .map(|b| longest_run(b.text, '`'))
        .max()
        .unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    out.push_str(&fence);
    for block in &blocks[start..end] {
        out.push('\n');
        out.push_str(block.text);
    }
    out.push('\n');
    out.push_str(&fence);
    end
}

fn longest_run(s: &str, ch: char) -> usize {
    let (mut best, mut run) = (0, 0);
    for c in s.chars() {
        run = if c == ch { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// Escapes the characters that would start inline markup (emphasis, code, links, HTML).
fn escape_inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Escapes what would make a line a heading, list item, quote, rule or table row.
fn escape_line_start(line: &str) -> String {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    let after_digits = line.as_bytes().get(digits).copied();
    let marker = matches!(
        line.as_bytes().first(),
        Some(b'#' | b'-' | b'+' | b'=' | b'|')
    ) || (digits > 0 && matches!(after_digits, Some(b'.' | b')')));
    if marker {
        if digits > 0 {
            format!("{}\\{}", &line[..digits], &line[digits..])
        } else {
            format!("\\{line}")
        }
    } else {
        line.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(kind: BlockKind, text: &str) -> (BlockKind, &str) {
        (kind, text)
    }

    fn cell(row_start: bool, header: bool, text: &str) -> (BlockKind, &str) {
        b(BlockKind::TableCell { header, row_start }, text)
    }

    fn item(ordered: bool, depth: u8, text: &str) -> (BlockKind, &str) {
        b(BlockKind::ListItem { ordered, depth }, text)
    }

    fn blocks(list: &[(BlockKind, &str)]) -> Blocks {
        let mut blocks = Blocks::default();
        for &(kind, text) in list {
            blocks.push(kind, text);
        }
        blocks
    }

    fn markdown(list: &[(BlockKind, &str)]) -> String {
        super::markdown(&blocks(list))
    }

    #[test]
    fn text_is_one_line_per_block() {
        let two = blocks(&[
            b(BlockKind::Heading(1), "Title"),
            b(BlockKind::Paragraph, "Body"),
        ]);
        assert_eq!(render(&two, Format::Text), "Title\nBody");
        assert_eq!(render(&Blocks::default(), Format::Text), "");
        assert_eq!(render(&Blocks::default(), Format::Markdown), "");
    }

    #[test]
    fn markdown_structures() {
        let blocks = [
            b(BlockKind::Heading(2), "Results"),
            b(BlockKind::Paragraph, "Scores *per* set:"),
            item(false, 1, "dragnet"),
            item(false, 2, "same host"),
            item(false, 1, "wcxb"),
            cell(true, true, "set"),
            cell(false, true, "F1"),
            cell(true, false, "a|b"),
            cell(false, false, "0.9"),
            cell(true, false, "only one"),
            item(true, 1, "first"),
            item(true, 1, "second"),
            b(BlockKind::Preformatted, "let x = `y`;"),
            b(BlockKind::Preformatted, "x += 1;"),
            b(BlockKind::Quote, "Said once."),
            b(BlockKind::Paragraph, "1999. A year; # not a heading"),
            b(BlockKind::Paragraph, "- not a list"),
        ];
        let want = "## Results\n\n\
                    Scores \\*per\\* set:\n\n\
                    - dragnet\n  - same host\n- wcxb\n\n\
                    | set | F1 |\n| --- | --- |\n| a\\|b | 0.9 |\n| only one |  |\n\n\
                    1. first\n2. second\n\n\
                    ```\nlet x = `y`;\nx += 1;\n```\n\n\
                    > Said once.\n\n\
                    1999\\. A year; # not a heading\n\n\
                    \\- not a list";
        assert_eq!(markdown(&blocks), want);
    }

    #[test]
    fn one_row_table_still_has_its_rule() {
        let blocks = [cell(true, false, "a"), cell(false, false, "b")];
        assert_eq!(markdown(&blocks), "| a | b |\n| --- | --- |");
    }

    #[test]
    fn code_fence_outgrows_backticks_inside() {
        let blocks = [b(BlockKind::Preformatted, "a ```` b")];
        assert_eq!(markdown(&blocks), "`````\na ```` b\n`````");
    }
}
