//! Text rendering of arbitrary blocks (`Blocks::push` of any kind and text, then `render` in
//! every `Format`): blocks keep their invariants (non-empty, trimmed, no `\n`), the text
//! rendering is the blocks' text, no leading or trailing newline, no blocks render as "",
//! both renderings are deterministic. Input: records of `kind byte, text, 0xFF`.
#![no_main]
use libfuzzer_sys::fuzz_target;
use outward_core::text::render::render;
use outward_core::{BlockKind, Blocks, Format};

fn kind(b: u8) -> BlockKind {
    match b % 6 {
        0 => BlockKind::Heading(b / 6 % 8),
        1 => BlockKind::Paragraph,
        2 => BlockKind::ListItem {
            ordered: b & 0x40 != 0,
            depth: (b >> 3) % 5,
        },
        3 => BlockKind::TableCell {
            header: b & 0x40 != 0,
            row_start: b & 0x80 != 0,
        },
        4 => BlockKind::Preformatted,
        _ => BlockKind::Quote,
    }
}

fuzz_target!(|data: &[u8]| {
    let mut blocks = Blocks::default();
    for record in data.split(|&b| b == 0xFF) {
        let Some((&k, text)) = record.split_first() else {
            continue;
        };
        blocks.push(kind(k), &String::from_utf8_lossy(text));
    }
    for b in blocks.iter() {
        assert!(
            !b.text.is_empty() && !b.text.contains('\n') && b.text.trim() == b.text,
            "{b:?}"
        );
    }
    let text = render(&blocks, Format::Text);
    assert_eq!(text, blocks.text());
    assert!(!text.starts_with('\n') && !text.ends_with('\n'));
    assert_eq!(
        text.split('\n').filter(|l| !l.is_empty()).count(),
        blocks.len()
    );
    let md = render(&blocks, Format::Markdown);
    assert_eq!(
        md,
        render(&blocks.clone(), Format::Markdown),
        "markdown not deterministic"
    );
    if blocks.is_empty() {
        assert!(text.is_empty() && md.is_empty());
    }
});
