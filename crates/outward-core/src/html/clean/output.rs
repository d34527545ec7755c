//! Canonical output: tags as the cleaned buffer holds them — lowercased name, flags (` h`
//! href, ` b` boilerplate hint, ` g` content hint), then quote-free `id` and `class`.
//!
//! Invariants: no `<`, `>` or `"` inside a written tag but its delimiters.

use super::*;
use memchr::memchr3;

impl Cleaner<'_> {
    pub(super) fn emit_tag(
        &mut self,
        tag: Tag,
        raw: &[u8],
        attrs: &Attrs,
        boiler: bool,
        good: bool,
    ) {
        self.finish_run();
        if tag.is_block() {
            self.flush_block();
        }
        let tag_start = self.out.len();
        let out = &mut self.out;
        out.push(b'<');
        if tag == Tag::Other {
            out.extend(canonical_name(raw));
        } else {
            // A known tag's source name, lowercased, is its canonical name.
            out.extend_from_slice(tag.name());
        }
        if attrs.href {
            out.extend_from_slice(b" h");
        }
        if boiler {
            out.extend_from_slice(b" b");
        }
        if good {
            out.extend_from_slice(b" g");
        }
        for (key, value) in [(&b" id=\""[..], attrs.id), (&b" class=\""[..], attrs.class)] {
            if !value.is_empty() {
                out.extend_from_slice(key);
                let value = &value[..value.len().min(200)];
                if memchr3(b'"', b'<', b'>', value).is_none() {
                    out.extend_from_slice(value);
                } else {
                    out.extend(
                        value
                            .iter()
                            .filter(|&&b| b != b'"' && b != b'<' && b != b'>'),
                    );
                }
                out.push(b'"');
            }
        }
        out.push(b'>');
        self.last_tag_len = self.out.len() - tag_start;
    }
}
