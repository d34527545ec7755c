//! Structured text: the [`Block`]s a method extracts, each a line of text with the kind of
//! element that holds it (heading and its level, paragraph, list item, table cell,
//! preformatted, quote). Renderers (`render`) turn blocks into plain text or Markdown.
//!
//! Invariants: a block's text is non-empty, trimmed, entity-decoded, holds no `\n` and no run
//! of two spaces.

use crate::html::tags::Tag;

/// The kind of element a line of text sits in (the innermost one that gives a kind).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlockKind {
    /// `h1`…`h6`, with the level 1…6.
    Heading(u8),
    /// Running text: `p`, `div` and every block element that gives no other kind.
    Paragraph,
    /// `li`, in an `ol` (`ordered`) or not, `depth` lists deep (1 = top-level list).
    ListItem { ordered: bool, depth: u8 },
    /// `td`/`th` (`header`); `row_start` is true for the first cell with text in its `tr`.
    TableCell { header: bool, row_start: bool },
    /// `pre` (and the legacy `listing`, `xmp`, `plaintext`).
    Preformatted,
    /// `blockquote`.
    Quote,
}

/// One block: a line of extracted text and the kind of element it sits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block<'a> {
    pub kind: BlockKind,
    pub text: &'a str,
}

/// The blocks of an extraction, in page order. Their text lives in one buffer, one line per
/// block, so the plain-text rendering is the buffer itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Blocks {
    /// Every block's text, joined by `\n`.
    text: String,
    /// Each block's kind and the end of its line in `text`.
    spans: Vec<(BlockKind, usize)>,
}

impl Blocks {
    /// Appends a block. `text` must be non-empty and hold no `\n` (the emitter's lines are
    /// trimmed and never empty); a line that breaks this is split or dropped, never kept as is.
    pub fn push(&mut self, kind: BlockKind, text: &str) {
        for line in text.split('\n').map(str::trim).filter(|l| !l.is_empty()) {
            self.push_line(kind, line);
        }
    }

    /// Appends a line the emitter made: non-empty, trimmed, no `\n` (not checked again).
    pub(crate) fn push_line(&mut self, kind: BlockKind, line: &str) {
        debug_assert!(!line.is_empty() && !line.contains('\n') && line.trim() == line);
        if !self.text.is_empty() {
            self.text.push('\n');
        }
        self.text.push_str(line);
        self.spans.push((kind, self.text.len()));
    }

    /// [`Blocks::push_line`] for the first line, taking its string instead of copying it.
    pub(crate) fn push_first_line(&mut self, kind: BlockKind, line: String) {
        debug_assert!(self.is_empty() && self.text.is_empty());
        debug_assert!(!line.is_empty() && !line.contains('\n') && line.trim() == line);
        self.text = line;
        self.spans.push((kind, self.text.len()));
    }

    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The block at `index`.
    pub fn get(&self, index: usize) -> Option<Block<'_>> {
        let &(kind, end) = self.spans.get(index)?;
        let start = match index {
            0 => 0,
            _ => self.spans[index - 1].1 + 1,
        };
        Some(Block {
            kind,
            text: &self.text[start..end],
        })
    }

    /// The blocks in page order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Block<'_>> + '_ {
        (0..self.len()).map(|i| self.get(i).expect("index below len"))
    }

    /// One line per block.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// One line per block, without a copy.
    pub fn into_text(self) -> String {
        self.text
    }
}

/// An open block element while text is being emitted.
#[derive(Debug, Clone, Copy)]
struct Frame {
    tag: Tag,
    /// Kind of the lines directly inside it.
    kind: BlockKind,
    /// Lists (`ul`, `ol`, `menu`, `dir`) open at this point, and whether the innermost is `ol`.
    lists: u8,
    ordered: bool,
}

/// Tracks the open block elements so each finished line gets its kind.
#[derive(Debug, Default)]
pub struct BlockContext {
    frames: Vec<Frame>,
    /// A `tr` opened and none of its cells has given a line yet.
    row_open: bool,
}

impl BlockContext {
    /// A block element `tag` opens (void elements such as `br` open nothing).
    pub fn open(&mut self, tag: Tag) {
        if tag.is_void() {
            return;
        }
        let parent = self.frames.last().copied();
        let inherited = parent.map_or(BlockKind::Paragraph, |f| f.kind);
        let (mut lists, mut ordered) = parent.map_or((0, false), |f| (f.lists, f.ordered));
        let kind = match tag {
            Tag::H1 => BlockKind::Heading(1),
            Tag::H2 => BlockKind::Heading(2),
            Tag::H3 => BlockKind::Heading(3),
            Tag::H4 => BlockKind::Heading(4),
            Tag::H5 => BlockKind::Heading(5),
            Tag::H6 => BlockKind::Heading(6),
            Tag::Li => BlockKind::ListItem {
                ordered,
                depth: lists.max(1),
            },
            Tag::Td | Tag::Th => BlockKind::TableCell {
                header: tag == Tag::Th,
                row_start: false,
            },
            Tag::Pre | Tag::Listing | Tag::Xmp | Tag::Plaintext => BlockKind::Preformatted,
            Tag::Blockquote => BlockKind::Quote,
            Tag::Ul | Tag::Ol | Tag::Menu | Tag::Dir => {
                lists = lists.saturating_add(1);
                ordered = tag == Tag::Ol;
                inherited
            }
            Tag::Tr => {
                self.row_open = true;
                inherited
            }
            _ => inherited,
        };
        self.frames.push(Frame {
            tag,
            kind,
            lists,
            ordered,
        });
    }

    /// A block element `tag` closes: the innermost open frame of that tag and every frame
    /// inside it are closed (a stray end tag closes nothing).
    pub fn close(&mut self, tag: Tag) {
        if tag.is_void() {
            return;
        }
        if let Some(at) = self.frames.iter().rposition(|f| f.tag == tag) {
            self.frames.truncate(at);
        }
    }

    /// The kind of a line finished now.
    pub fn line_kind(&mut self) -> BlockKind {
        match self.frames.last().map_or(BlockKind::Paragraph, |f| f.kind) {
            BlockKind::TableCell { header, .. } => BlockKind::TableCell {
                header,
                row_start: std::mem::take(&mut self.row_open),
            },
            kind => kind,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_share_one_buffer_of_lines() {
        let mut blocks = Blocks::default();
        assert!(blocks.is_empty() && blocks.get(0).is_none());
        blocks.push(BlockKind::Heading(1), "Title");
        blocks.push(BlockKind::Paragraph, " two\nlines ");
        blocks.push(BlockKind::Quote, "  ");
        assert_eq!(blocks.text(), "Title\ntwo\nlines");
        let got: Vec<(BlockKind, &str)> = blocks.iter().map(|b| (b.kind, b.text)).collect();
        assert_eq!(
            got,
            [
                (BlockKind::Heading(1), "Title"),
                (BlockKind::Paragraph, "two"),
                (BlockKind::Paragraph, "lines")
            ]
        );
    }

    #[test]
    fn kinds_come_from_the_innermost_element_that_gives_one() {
        let mut ctx = BlockContext::default();
        assert_eq!(ctx.line_kind(), BlockKind::Paragraph);
        ctx.open(Tag::Ol);
        ctx.open(Tag::Li);
        ctx.open(Tag::Div);
        assert_eq!(
            ctx.line_kind(),
            BlockKind::ListItem {
                ordered: true,
                depth: 1
            }
        );
        ctx.open(Tag::Ul);
        ctx.open(Tag::Li);
        assert_eq!(
            ctx.line_kind(),
            BlockKind::ListItem {
                ordered: false,
                depth: 2
            }
        );
        // A stray or misnested end tag closes what it names and everything inside it.
        ctx.close(Tag::Table);
        ctx.close(Tag::Ol);
        assert_eq!(ctx.line_kind(), BlockKind::Paragraph);
        ctx.open(Tag::Br);
        assert_eq!(ctx.line_kind(), BlockKind::Paragraph);
    }

    #[test]
    fn first_cell_with_text_starts_the_row() {
        let mut ctx = BlockContext::default();
        ctx.open(Tag::Table);
        ctx.open(Tag::Tr);
        ctx.open(Tag::Th);
        let first = ctx.line_kind();
        let second = ctx.line_kind();
        assert_eq!(
            first,
            BlockKind::TableCell {
                header: true,
                row_start: true
            }
        );
        assert_eq!(
            second,
            BlockKind::TableCell {
                header: true,
                row_start: false
            }
        );
    }
}
